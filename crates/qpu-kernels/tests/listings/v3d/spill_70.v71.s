eidx rf5 ; nop ; ldunifrf.rf1
nop ; nop ; ldunifrf.rf62
shl rf5, rf5, 2 ; nop
add tmua, rf62, rf5 ; mov rf25, 4
shl rf25, rf25, 4 ; nop
shl rf4, rf3, -16 ; nop
or rf25, rf25, 8 ; nop
shr rf4, rf4, -16 ; nop
shl rf25, rf25, 4 ; nop
nop ; umul24 rf26, rf4, rf25 ; ldunifrf.rf63
add rf63, rf63, rf26 ; nop ; ldtmu.rf7
add rf6, rf7, 0 ; add rf63, rf63, rf5
mov rf11, 1 ; mov tmud, rf6
add tmua, rf63, 0 ; nop
shl rf10, rf11, 6 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf9
add rf8, rf9, 1 ; nop
mov rf15, 2 ; mov tmud, rf8
shl rf14, rf15, 6 ; add tmua, rf63, rf10
add tmua, rf62, rf5 ; mov rf19, 3
nop ; nop ; ldtmu.rf13
add rf12, rf13, 2 ; nop
shl rf18, rf19, 6 ; mov tmud, rf12
add tmua, rf63, rf14 ; mov rf23, 4
shl rf22, rf23, 6 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf17
add rf16, rf17, 3 ; nop
mov rf27, 5 ; mov tmud, rf16
shl rf26, rf27, 6 ; add tmua, rf63, rf18
add tmua, rf62, rf5 ; mov rf31, 6
nop ; nop ; ldtmu.rf21
add rf20, rf21, 4 ; nop
shl rf30, rf31, 6 ; mov tmud, rf20
add tmua, rf63, rf22 ; mov rf35, 7
shl rf34, rf35, 6 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf25
add rf24, rf25, 5 ; nop
mov rf39, 8 ; mov tmud, rf24
shl rf38, rf39, 6 ; add tmua, rf63, rf26
add tmua, rf62, rf5 ; mov rf43, 9
nop ; nop ; ldtmu.rf29
add rf28, rf29, 6 ; nop
shl rf42, rf43, 6 ; mov tmud, rf28
add tmua, rf63, rf30 ; mov rf47, 10
shl rf46, rf47, 6 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf33
add rf32, rf33, 7 ; nop
mov rf51, 11 ; mov tmud, rf32
shl rf50, rf51, 6 ; add tmua, rf63, rf34
add tmua, rf62, rf5 ; mov rf55, 12
nop ; nop ; ldtmu.rf37
add rf36, rf37, 8 ; nop
shl rf54, rf55, 6 ; mov tmud, rf36
add tmua, rf63, rf38 ; mov rf59, 13
shl rf58, rf59, 6 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf41
add rf40, rf41, 9 ; nop
mov rf7, 14 ; mov tmud, rf40
shl rf6, rf7, 6 ; add tmua, rf63, rf42
add tmua, rf62, rf5 ; mov rf11, 15
nop ; nop ; ldtmu.rf45
add rf44, rf45, 10 ; nop
shl rf10, rf11, 6 ; mov tmud, rf44
add tmua, rf63, rf46 ; mov rf14, 1
shl rf14, rf14, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf49
add rf48, rf49, 11 ; nop
mov rf15, 1 ; mov tmud, rf48
shl rf15, rf15, 4 ; add tmua, rf63, rf50
shl rf16, rf15, 6 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf53
add rf52, rf53, 12 ; nop
mov rf19, 1 ; mov tmud, rf52
shl rf19, rf19, 4 ; add tmua, rf63, rf54
add tmua, rf62, rf5 ; mov rf20, 1
nop ; nop ; ldtmu.rf57
add rf56, rf57, 13 ; nop
or rf19, rf19, 1 ; mov tmud, rf56
shl rf20, rf20, 4 ; add tmua, rf63, rf58
or rf20, rf20, 1 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf61
add rf60, rf61, 14 ; nop
shl rf21, rf20, 6 ; mov tmud, rf60
add tmua, rf63, rf6 ; mov rf25, 1
shl rf25, rf25, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf9
add rf8, rf9, 15 ; nop
mov rf29, 1 ; mov tmud, rf8
or rf25, rf25, 3 ; add tmua, rf63, rf10
shl rf29, rf29, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf13
add rf12, rf13, rf14 ; mov rf33, 1
or rf29, rf29, 5 ; mov tmud, rf12
shl rf33, rf33, 4 ; add tmua, rf63, rf16
add tmua, rf62, rf5 ; mov rf37, 1
nop ; nop ; ldtmu.rf18
or rf33, rf33, 7 ; add rf17, rf18, rf19
shl rf37, rf37, 4 ; mov tmud, rf17
add tmua, rf63, rf21 ; mov rf41, 1
or rf37, rf37, 9 ; add tmua, rf62, rf5
shl rf41, rf41, 4 ; add tmua, rf62, rf5
add tmua, rf62, rf5 ; mov rf45, 1
or rf41, rf41, 11 ; add tmua, rf62, rf5
shl rf45, rf45, 4 ; add tmua, rf62, rf5
add tmua, rf62, rf5 ; mov rf49, 1
or rf45, rf45, 13 ; add tmua, rf62, rf5
shl rf49, rf49, 4 ; add tmua, rf62, rf5
add tmua, rf62, rf5 ; mov rf53, 2
or rf49, rf49, 15 ; add tmua, rf62, rf5
shl rf53, rf53, 4 ; add tmua, rf62, rf5
add tmua, rf62, rf5 ; mov rf57, 2
or rf53, rf53, 1 ; add tmua, rf62, rf5
shl rf57, rf57, 4 ; add tmua, rf62, rf5
add tmua, rf62, rf5 ; mov rf61, 2
add tmua, rf62, rf5 ; mov rf27, 1
nop ; nop ; ldtmu.rf22
or rf57, rf57, 3 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf24
add tmua, rf62, rf5 ; add rf25, rf24, rf25
nop ; nop ; ldtmu.rf26
shl rf61, rf61, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf28
add tmua, rf62, rf5 ; add rf29, rf28, rf29
nop ; nop ; ldtmu.rf30
add tmua, rf62, rf5 ; mov rf8, 2
nop ; nop ; ldtmu.rf32
add tmua, rf62, rf5 ; add rf33, rf32, rf33
nop ; nop ; ldtmu.rf34
shl rf27, rf27, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf36
add tmua, rf62, rf5 ; add rf37, rf36, rf37
nop ; nop ; ldtmu.rf38
add tmua, rf62, rf5 ; mov rf35, 1
nop ; nop ; ldtmu.rf40
add tmua, rf62, rf5 ; add rf41, rf40, rf41
nop ; nop ; ldtmu.rf42
or rf61, rf61, 5 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf44
add tmua, rf62, rf5 ; add rf45, rf44, rf45
nop ; nop ; ldtmu.rf46
shl rf8, rf8, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf48
add tmua, rf62, rf5 ; add rf49, rf48, rf49
nop ; nop ; ldtmu.rf50
add tmua, rf62, rf5 ; mov rf12, 2
nop ; nop ; ldtmu.rf52
add tmua, rf62, rf5 ; add rf53, rf52, rf53
nop ; nop ; ldtmu.rf54
or rf27, rf27, 4 ; add tmua, rf62, rf5
add rf27, rf26, rf27 ; nop ; ldtmu.rf56
add tmua, rf62, rf5 ; add rf57, rf56, rf57
nop ; nop ; ldtmu.rf58
shl rf35, rf35, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf60
add tmua, rf62, rf5 ; mov rf43, 1
add rf61, rf60, rf61 ; nop ; ldtmu.rf4
or rf8, rf8, 7 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf7
shl rf12, rf12, 4 ; add tmua, rf62, rf5
add rf8, rf7, rf8 ; nop ; ldtmu.rf9
add tmua, rf62, rf5 ; mov rf16, 2
nop ; nop ; ldtmu.rf11
or rf35, rf35, 8 ; add tmua, rf62, rf5
add rf35, rf34, rf35 ; nop ; ldtmu.rf13
shl rf43, rf43, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf15
or rf12, rf12, 9 ; add tmua, rf62, rf5
add rf12, rf11, rf12 ; nop ; ldtmu.rf17
shl rf16, rf16, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf19
add tmua, rf62, rf5 ; mov rf20, 2
nop ; nop ; ldtmu.rf21
add tmua, rf62, rf5 ; mov rf31, 1
nop ; nop ; ldtmu.rf24
or rf43, rf43, 12 ; add tmua, rf62, rf5
add rf43, rf42, rf43 ; nop ; ldtmu.rf28
add tmua, rf62, rf5 ; mov rf47, 1
nop ; nop ; ldtmu.rf32
add tmua, rf62, rf5 ; mov rf51, 2
nop ; nop ; ldtmu.rf36
add tmua, rf62, rf5 ; mov rf59, 2
nop ; nop ; ldtmu.rf40
or rf16, rf16, 11 ; add tmua, rf62, rf5
add rf16, rf15, rf16 ; nop ; ldtmu.rf44
shl rf20, rf20, 4 ; add tmua, rf62, rf5
nop ; nop ; ldtmu.rf48
add tmua, rf62, rf5 ; mov rf26, 2
nop ; nop ; ldtmu.rf52
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf60
nop ; nop ; ldtmu.rf7
shl rf31, rf31, 4 ; nop
shl rf47, rf47, 4 ; nop
shl rf51, rf51, 4 ; nop
shl rf59, rf59, 4 ; add rf51, rf50, rf51
nop ; mov rf10, 2
or rf20, rf20, 13 ; nop
shl rf26, rf26, 4 ; add rf20, rf19, rf20
nop ; mov rf34, 3
nop ; nop ; ldtmu.rf11
or rf31, rf31, 6 ; nop
or rf47, rf47, 14 ; add rf31, rf30, rf31
or rf59, rf59, 4 ; add rf47, rf46, rf47
shl rf10, rf10, 4 ; add rf59, rf58, rf59
nop ; mov rf18, 2
or rf26, rf26, 15 ; nop
shl rf34, rf34, 4 ; add rf26, rf24, rf26
nop ; mov rf42, 3
nop ; nop ; ldtmu.rf15
or rf10, rf10, 8 ; nop
shl rf18, rf18, 4 ; add rf10, rf9, rf10
or rf34, rf34, 1 ; nop
shl rf42, rf42, 4 ; add rf34, rf32, rf34
nop ; mov rf50, 3
nop ; nop ; ldtmu.rf19
or rf18, rf18, 12 ; nop
add rf18, rf17, rf18 ; mov rf30, 3
or rf42, rf42, 3 ; nop
add rf42, rf40, rf42 ; mov rf46, 3
shl rf50, rf50, 4 ; nop
nop ; mov rf58, 3
nop ; nop ; ldtmu.rf24
shl rf30, rf30, 4 ; nop
shl rf46, rf46, 4 ; add rf30, rf28, rf30
or rf50, rf50, 5 ; nop
shl rf58, rf58, 4 ; add rf50, rf48, rf50
nop ; mov rf9, 3
nop ; nop ; ldtmu.rf32
or rf46, rf46, 4 ; nop
or rf58, rf58, 7 ; add rf46, rf44, rf46
shl rf9, rf9, 4 ; add rf58, rf56, rf58
nop ; mov rf17, 3
nop ; nop ; ldtmu.rf40
or rf9, rf9, 9 ; nop
shl rf17, rf17, 4 ; add rf9, rf7, rf9
nop ; mov rf28, 3
nop ; nop ; ldtmu.rf48
or rf17, rf17, 11 ; nop
shl rf28, rf28, 4 ; add rf17, rf15, rf17
nop ; mov rf44, 3
nop ; nop ; ldtmu.rf56
or rf28, rf28, 13 ; nop
shl rf44, rf44, 4 ; add rf28, rf24, rf28
nop ; nop ; ldtmu.rf7
or rf44, rf44, 15 ; nop
add rf44, rf40, rf44 ; nop ; ldtmu.rf15
nop ; nop ; ldtmu.rf24
nop ; nop ; ldtmu.rf40
tmuwt ; mov rf23, 1
add tmua, rf63, 0 ; nop
add tmua, rf63, 0 ; nop
shl rf23, rf23, 4 ; nop
or rf23, rf23, 2 ; nop
add rf23, rf22, rf23 ; mov rf39, 1
shl rf39, rf39, 4 ; nop
or rf39, rf39, 10 ; nop
add rf39, rf38, rf39 ; mov rf22, 2
nop ; mov rf14, 2
shl rf22, rf22, 4 ; nop
nop ; mov rf6, 2
shl rf14, rf14, 4 ; nop
or rf22, rf22, 14 ; nop
add rf22, rf21, rf22 ; mov rf38, 3
shl rf6, rf6, 4 ; nop
or rf14, rf14, 10 ; nop
shl rf38, rf38, 4 ; add rf14, rf13, rf14
or rf6, rf6, 6 ; nop
or rf38, rf38, 2 ; add rf6, rf4, rf6
add rf38, rf36, rf38 ; mov rf21, 3
nop ; mov rf55, 2
nop ; mov rf13, 3
shl rf21, rf21, 4 ; nop
shl rf55, rf55, 4 ; nop
nop ; mov rf4, 3
shl rf13, rf13, 4 ; nop
or rf21, rf21, 12 ; nop
add rf21, rf19, rf21 ; mov rf36, 3
or rf55, rf55, 2 ; nop
shl rf4, rf4, 4 ; add rf55, rf54, rf55
or rf13, rf13, 10 ; nop
shl rf36, rf36, 4 ; add rf13, rf11, rf13
or rf4, rf4, 8 ; nop
or rf36, rf36, 14 ; add rf4, rf60, rf4
add rf36, rf32, rf36 ; mov rf19, 4
nop ; mov rf54, 3
nop ; mov rf11, 4
shl rf19, rf19, 4 ; nop
shl rf54, rf54, 4 ; nop
nop ; mov rf60, 4
shl rf11, rf11, 4 ; nop
or rf19, rf19, 3 ; nop
add rf19, rf15, rf19 ; mov rf32, 4
or rf54, rf54, 6 ; nop
shl rf60, rf60, 4 ; add rf54, rf52, rf54
or rf11, rf11, 2 ; nop
shl rf32, rf32, 4 ; add rf11, rf7, rf11
or rf60, rf60, 1 ; nop
or rf32, rf32, 4 ; add rf60, rf56, rf60
add rf32, rf24, rf32 ; nop ; ldtmu.rf15
nop ; mov rf52, 4
nop ; nop ; ldtmu.rf7
shl rf52, rf52, 4 ; umul24 rf24, rf15, rf7
shr rf56, rf15, -8 ; add rf52, rf48, rf52
mov rf48, 4 ; umul24 rf56, rf56, rf7
shr rf7, rf7, -8 ; nop
shl rf48, rf48, 4 ; umul24 rf7, rf15, rf7
or rf48, rf48, 5 ; add rf56, rf56, rf7
shl rf56, rf56, -8 ; add rf40, rf40, rf48
add rf56, rf24, rf56 ; mov rf48, 0
add rf48, rf48, rf56 ; mov rf56, 1
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; mov rf15, 1
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; nop
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf24
shr rf15, rf56, -8 ; umul24 rf7, rf56, rf24
shr rf24, rf24, -8 ; umul24 rf15, rf15, rf24
mov rf56, 2 ; umul24 rf24, rf56, rf24
shl rf24, rf56, 6 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf15, rf7, rf15 ; nop
add rf48, rf48, rf15 ; mov rf15, 2
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; nop
add tmua, rf63, rf24 ; nop
nop ; nop ; ldtmu.rf15
nop ; nop ; ldtmu.rf7
shr rf56, rf15, -8 ; umul24 rf24, rf15, rf7
shr rf7, rf7, -8 ; umul24 rf56, rf56, rf7
mov rf15, 3 ; umul24 rf7, rf15, rf7
shl rf7, rf15, 6 ; add rf56, rf56, rf7
shl rf56, rf56, -8 ; nop
add rf56, rf24, rf56 ; nop
add rf48, rf48, rf56 ; mov rf56, 3
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; nop
add tmua, rf63, rf7 ; nop
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf24
shr rf15, rf56, -8 ; umul24 rf7, rf56, rf24
shr rf24, rf24, -8 ; umul24 rf15, rf15, rf24
mov rf56, 4 ; umul24 rf24, rf56, rf24
shl rf24, rf56, 6 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf15, rf7, rf15 ; nop
add rf48, rf48, rf15 ; mov rf15, 4
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; nop
add tmua, rf63, rf24 ; nop
nop ; nop ; ldtmu.rf15
nop ; nop ; ldtmu.rf7
shr rf56, rf15, -8 ; umul24 rf24, rf15, rf7
shr rf7, rf7, -8 ; umul24 rf56, rf56, rf7
mov rf15, 5 ; umul24 rf7, rf15, rf7
shl rf7, rf15, 6 ; add rf56, rf56, rf7
shl rf56, rf56, -8 ; nop
add rf56, rf24, rf56 ; nop
add rf48, rf48, rf56 ; mov rf56, 5
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; nop
add tmua, rf63, rf7 ; nop
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf24
shr rf15, rf56, -8 ; umul24 rf7, rf56, rf24
shr rf24, rf24, -8 ; umul24 rf15, rf15, rf24
mov rf56, 6 ; umul24 rf24, rf56, rf24
shl rf24, rf56, 6 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf15, rf7, rf15 ; nop
add rf48, rf48, rf15 ; mov rf15, 6
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; nop
add tmua, rf63, rf24 ; nop
nop ; nop ; ldtmu.rf15
nop ; nop ; ldtmu.rf7
shr rf56, rf15, -8 ; umul24 rf24, rf15, rf7
shr rf7, rf7, -8 ; umul24 rf56, rf56, rf7
mov rf15, 7 ; umul24 rf7, rf15, rf7
shl rf7, rf15, 6 ; add rf56, rf56, rf7
shl rf56, rf56, -8 ; nop
add rf56, rf24, rf56 ; nop
add rf48, rf48, rf56 ; mov rf56, 7
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; nop
add tmua, rf63, rf7 ; nop
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf24
shr rf15, rf56, -8 ; umul24 rf7, rf56, rf24
shr rf24, rf24, -8 ; umul24 rf15, rf15, rf24
mov rf56, 8 ; umul24 rf24, rf56, rf24
shl rf24, rf56, 6 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf15, rf7, rf15 ; nop
add rf48, rf48, rf15 ; mov rf15, 8
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; nop
add tmua, rf63, rf24 ; nop
nop ; nop ; ldtmu.rf15
nop ; nop ; ldtmu.rf7
shr rf56, rf15, -8 ; umul24 rf24, rf15, rf7
shr rf7, rf7, -8 ; umul24 rf56, rf56, rf7
mov rf15, 9 ; umul24 rf7, rf15, rf7
shl rf7, rf15, 6 ; add rf56, rf56, rf7
shl rf56, rf56, -8 ; nop
add rf56, rf24, rf56 ; nop
add rf48, rf48, rf56 ; mov rf56, 9
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; nop
add tmua, rf63, rf7 ; nop
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf24
shr rf15, rf56, -8 ; umul24 rf7, rf56, rf24
shr rf24, rf24, -8 ; umul24 rf15, rf15, rf24
mov rf56, 10 ; umul24 rf24, rf56, rf24
shl rf24, rf56, 6 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf15, rf7, rf15 ; nop
add rf48, rf48, rf15 ; mov rf15, 10
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; nop
add tmua, rf63, rf24 ; nop
nop ; nop ; ldtmu.rf15
nop ; nop ; ldtmu.rf7
shr rf56, rf15, -8 ; umul24 rf24, rf15, rf7
shr rf7, rf7, -8 ; umul24 rf56, rf56, rf7
mov rf15, 11 ; umul24 rf7, rf15, rf7
shl rf7, rf15, 6 ; add rf56, rf56, rf7
shl rf56, rf56, -8 ; nop
add rf56, rf24, rf56 ; nop
add rf48, rf48, rf56 ; mov rf56, 11
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; nop
add tmua, rf63, rf7 ; nop
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf24
shr rf15, rf56, -8 ; umul24 rf7, rf56, rf24
shr rf24, rf24, -8 ; umul24 rf15, rf15, rf24
mov rf56, 12 ; umul24 rf24, rf56, rf24
shl rf24, rf56, 6 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf15, rf7, rf15 ; nop
add rf48, rf48, rf15 ; mov rf15, 12
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; nop
add tmua, rf63, rf24 ; nop
nop ; nop ; ldtmu.rf15
nop ; nop ; ldtmu.rf7
shr rf56, rf15, -8 ; umul24 rf24, rf15, rf7
shr rf7, rf7, -8 ; umul24 rf56, rf56, rf7
mov rf15, 13 ; umul24 rf7, rf15, rf7
shl rf7, rf15, 6 ; add rf56, rf56, rf7
shl rf56, rf56, -8 ; nop
add rf56, rf24, rf56 ; nop
add rf48, rf48, rf56 ; mov rf56, 13
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; nop
add tmua, rf63, rf7 ; nop
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf24
shr rf15, rf56, -8 ; umul24 rf7, rf56, rf24
shr rf24, rf24, -8 ; umul24 rf15, rf15, rf24
mov rf56, 14 ; umul24 rf24, rf56, rf24
shl rf24, rf56, 6 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf15, rf7, rf15 ; nop
add rf48, rf48, rf15 ; mov rf15, 14
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; nop
add tmua, rf63, rf24 ; nop
nop ; nop ; ldtmu.rf15
nop ; nop ; ldtmu.rf7
shr rf56, rf15, -8 ; umul24 rf24, rf15, rf7
shr rf7, rf7, -8 ; umul24 rf56, rf56, rf7
mov rf15, 15 ; umul24 rf7, rf15, rf7
shl rf7, rf15, 6 ; add rf56, rf56, rf7
shl rf56, rf56, -8 ; nop
add rf56, rf24, rf56 ; nop
add rf48, rf48, rf56 ; mov rf56, 15
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; nop
add tmua, rf63, rf7 ; nop
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf24
shr rf15, rf56, -8 ; umul24 rf7, rf56, rf24
shr rf24, rf24, -8 ; umul24 rf15, rf15, rf24
nop ; umul24 rf24, rf56, rf24
add rf15, rf15, rf24 ; mov rf24, 1
shl rf15, rf15, -8 ; nop
add rf15, rf7, rf15 ; mov rf7, 1
shl rf7, rf7, 4 ; add rf48, rf48, rf15
shl rf15, rf7, 6 ; nop
shl rf24, rf24, 4 ; add tmua, rf63, rf15
shl rf56, rf24, 6 ; nop
add tmua, rf63, rf56 ; nop
nop ; nop ; ldtmu.rf15
nop ; nop ; ldtmu.rf7
shr rf56, rf15, -8 ; umul24 rf24, rf15, rf7
shr rf7, rf7, -8 ; umul24 rf56, rf56, rf7
nop ; umul24 rf7, rf15, rf7
add rf56, rf56, rf7 ; mov rf7, 1
shl rf56, rf56, -8 ; nop
add rf56, rf24, rf56 ; mov rf24, 1
shl rf24, rf24, 4 ; add rf48, rf48, rf56
or rf24, rf24, 1 ; nop
shl rf7, rf7, 4 ; nop
shl rf56, rf24, 6 ; nop
or rf7, rf7, 1 ; add tmua, rf63, rf56
shl rf15, rf7, 6 ; nop
add tmua, rf63, rf15 ; nop
nop ; nop ; ldtmu.rf56
nop ; nop ; ldtmu.rf24
shr rf15, rf56, -8 ; umul24 rf7, rf56, rf24
shr rf24, rf24, -8 ; umul24 rf15, rf15, rf24
add tmua, rf63, 0 ; umul24 rf24, rf56, rf24
shr rf24, rf23, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf15, rf7, rf15 ; umul24 rf7, rf23, rf23
shr rf15, rf23, -8 ; add rf48, rf48, rf15
nop ; umul24 rf15, rf15, rf23
nop ; umul24 rf24, rf23, rf24
shr rf24, rf25, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf25, rf25
shr rf15, rf25, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf25
nop ; umul24 rf24, rf25, rf24
shr rf24, rf27, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf27, rf27
shr rf15, rf27, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf27
nop ; umul24 rf24, rf27, rf24
shr rf24, rf29, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf29, rf29
shr rf15, rf29, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf29
nop ; umul24 rf24, rf29, rf24
shr rf24, rf31, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf31, rf31
shr rf15, rf31, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf31
nop ; umul24 rf24, rf31, rf24
shr rf24, rf33, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf33, rf33
shr rf15, rf33, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf33
nop ; umul24 rf24, rf33, rf24
shr rf24, rf35, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf35, rf35
shr rf15, rf35, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf35
nop ; umul24 rf24, rf35, rf24
shr rf24, rf37, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf37, rf37
shr rf15, rf37, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf37
nop ; umul24 rf24, rf37, rf24
shr rf24, rf39, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf39, rf39
shr rf15, rf39, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf39
nop ; umul24 rf24, rf39, rf24
shr rf24, rf41, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf41, rf41
shr rf15, rf41, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf41
nop ; umul24 rf24, rf41, rf24
shr rf24, rf43, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf43, rf43
shr rf15, rf43, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf43
nop ; umul24 rf24, rf43, rf24
shr rf24, rf45, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf45, rf45
shr rf15, rf45, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf45
nop ; umul24 rf24, rf45, rf24
shr rf24, rf47, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf47, rf47
shr rf15, rf47, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf47
nop ; umul24 rf24, rf47, rf24
shr rf24, rf49, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf49, rf49
shr rf15, rf49, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf49
nop ; umul24 rf24, rf49, rf24
shr rf24, rf51, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf51, rf51
shr rf15, rf51, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf51
nop ; umul24 rf24, rf51, rf24
shr rf24, rf53, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf53, rf53
shr rf15, rf53, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf53
nop ; umul24 rf24, rf53, rf24
shr rf24, rf55, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf55, rf55
shr rf15, rf55, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf55
nop ; umul24 rf24, rf55, rf24
shr rf24, rf57, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf57, rf57
shr rf15, rf57, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf57
nop ; umul24 rf24, rf57, rf24
shr rf24, rf59, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf59, rf59
shr rf15, rf59, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf59
nop ; umul24 rf24, rf59, rf24
shr rf24, rf61, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf61, rf61
shr rf15, rf61, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf61
nop ; umul24 rf24, rf61, rf24
shr rf24, rf6, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf6, rf6
shr rf15, rf6, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf6
nop ; umul24 rf24, rf6, rf24
shr rf24, rf8, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf8, rf8
shr rf15, rf8, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf8
nop ; umul24 rf24, rf8, rf24
shr rf24, rf10, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf10, rf10
shr rf15, rf10, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf10
nop ; umul24 rf24, rf10, rf24
shr rf24, rf12, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf12, rf12
shr rf15, rf12, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf12
nop ; umul24 rf24, rf12, rf24
shr rf24, rf14, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf14, rf14
shr rf15, rf14, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf14
nop ; umul24 rf24, rf14, rf24
shr rf24, rf16, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf16, rf16
shr rf15, rf16, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf16
nop ; umul24 rf24, rf16, rf24
shr rf24, rf18, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf18, rf18
shr rf15, rf18, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf18
nop ; umul24 rf24, rf18, rf24
shr rf24, rf20, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf20, rf20
shr rf15, rf20, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf20
nop ; umul24 rf24, rf20, rf24
shr rf24, rf22, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf22, rf22
shr rf15, rf22, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf22
nop ; umul24 rf24, rf22, rf24
shr rf24, rf26, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf26, rf26
shr rf15, rf26, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf26
nop ; umul24 rf24, rf26, rf24
shr rf24, rf30, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf30, rf30
shr rf15, rf30, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf30
nop ; umul24 rf24, rf30, rf24
shr rf24, rf34, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf34, rf34
shr rf15, rf34, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf34
nop ; umul24 rf24, rf34, rf24
shr rf24, rf38, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf38, rf38
shr rf15, rf38, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf38
nop ; umul24 rf24, rf38, rf24
shr rf24, rf42, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf42, rf42
shr rf15, rf42, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf42
nop ; umul24 rf24, rf42, rf24
shr rf24, rf46, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf46, rf46
shr rf15, rf46, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf46
nop ; umul24 rf24, rf46, rf24
shr rf24, rf50, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf50, rf50
shr rf15, rf50, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf50
nop ; umul24 rf24, rf50, rf24
shr rf24, rf54, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf54, rf54
shr rf15, rf54, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf54
nop ; umul24 rf24, rf54, rf24
shr rf24, rf58, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf58, rf58
shr rf15, rf58, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf58
nop ; umul24 rf24, rf58, rf24
shr rf24, rf4, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf4, rf4
shr rf15, rf4, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf4
nop ; umul24 rf24, rf4, rf24
shr rf24, rf9, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf9, rf9
shr rf15, rf9, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf9
nop ; umul24 rf24, rf9, rf24
shr rf24, rf13, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf13, rf13
shr rf15, rf13, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf13
nop ; umul24 rf24, rf13, rf24
shr rf24, rf17, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf17, rf17
shr rf15, rf17, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf17
nop ; umul24 rf24, rf17, rf24
shr rf24, rf21, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf21, rf21
shr rf15, rf21, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf21
nop ; umul24 rf24, rf21, rf24
shr rf24, rf28, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf28, rf28
shr rf15, rf28, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf28
nop ; umul24 rf24, rf28, rf24
shr rf24, rf36, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf36, rf36
shr rf15, rf36, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf36
nop ; umul24 rf24, rf36, rf24
shr rf24, rf44, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf44, rf44
shr rf15, rf44, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf44
nop ; umul24 rf24, rf44, rf24
shr rf24, rf52, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf52, rf52
shr rf15, rf52, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf52
nop ; umul24 rf24, rf52, rf24
shr rf24, rf60, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf60, rf60
shr rf15, rf60, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf60
nop ; umul24 rf24, rf60, rf24
shr rf24, rf11, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf11, rf11
shr rf15, rf11, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf11
nop ; umul24 rf24, rf11, rf24
shr rf24, rf19, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf19, rf19
shr rf15, rf19, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf19
nop ; umul24 rf24, rf19, rf24
shr rf24, rf32, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf32, rf32
shr rf15, rf32, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf32
nop ; umul24 rf24, rf32, rf24
shr rf24, rf40, -8 ; add rf15, rf15, rf24
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; umul24 rf7, rf40, rf40
shr rf15, rf40, -8 ; add rf48, rf48, rf56
nop ; umul24 rf15, rf15, rf40
nop ; umul24 rf24, rf40, rf24
add rf15, rf15, rf24 ; nop
shl rf15, rf15, -8 ; nop
add rf56, rf7, rf15 ; mov rf15, 1
shl rf7, rf15, 6 ; add rf48, rf48, rf56
add tmua, rf63, rf7 ; mov rf7, 2
nop ; nop ; ldtmu.rf56
shl rf56, rf7, 6 ; add rf48, rf48, rf56
nop ; nop ; ldtmu.rf24
add tmua, rf63, rf56 ; add rf48, rf48, rf24
nop ; mov rf56, 3
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; mov rf24, 4
nop ; nop ; ldtmu.rf15
shl rf15, rf24, 6 ; add rf48, rf48, rf15
nop ; nop ; ldtmu.rf7
add tmua, rf63, rf15 ; add rf48, rf48, rf7
nop ; mov rf15, 5
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; mov rf7, 6
nop ; nop ; ldtmu.rf56
shl rf56, rf7, 6 ; add rf48, rf48, rf56
nop ; nop ; ldtmu.rf24
add tmua, rf63, rf56 ; add rf48, rf48, rf24
nop ; mov rf56, 7
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; mov rf24, 8
nop ; nop ; ldtmu.rf15
shl rf15, rf24, 6 ; add rf48, rf48, rf15
nop ; nop ; ldtmu.rf7
add tmua, rf63, rf15 ; add rf48, rf48, rf7
nop ; mov rf15, 9
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; mov rf7, 10
nop ; nop ; ldtmu.rf56
shl rf56, rf7, 6 ; add rf48, rf48, rf56
nop ; nop ; ldtmu.rf24
add tmua, rf63, rf56 ; add rf48, rf48, rf24
nop ; mov rf56, 11
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; mov rf24, 12
nop ; nop ; ldtmu.rf15
shl rf15, rf24, 6 ; add rf48, rf48, rf15
nop ; nop ; ldtmu.rf7
add tmua, rf63, rf15 ; add rf48, rf48, rf7
nop ; mov rf15, 13
shl rf7, rf15, 6 ; nop
add tmua, rf63, rf7 ; mov rf7, 14
nop ; nop ; ldtmu.rf56
shl rf56, rf7, 6 ; add rf48, rf48, rf56
nop ; nop ; ldtmu.rf24
add tmua, rf63, rf56 ; add rf48, rf48, rf24
nop ; mov rf56, 15
shl rf24, rf56, 6 ; nop
add tmua, rf63, rf24 ; nop
nop ; nop ; ldtmu.rf15
add rf48, rf48, rf15 ; nop ; ldtmu.rf7
add rf48, rf48, rf7 ; mov rf15, 1
nop ; mov rf7, 1
shl rf15, rf15, 4 ; nop
shl rf7, rf7, 4 ; nop
shl rf24, rf15, 6 ; nop
or rf7, rf7, 1 ; add tmua, rf63, rf24
shl rf15, rf7, 6 ; nop
add tmua, rf63, rf15 ; nop
nop ; nop ; ldtmu.rf56
add rf48, rf48, rf56 ; nop ; ldtmu.rf24
add rf48, rf48, rf24 ; nop
add rf48, rf48, rf23 ; nop
add rf48, rf48, rf25 ; nop
add rf48, rf48, rf27 ; nop
add rf48, rf48, rf29 ; nop
add rf48, rf48, rf31 ; nop
add rf48, rf48, rf33 ; nop
add rf48, rf48, rf35 ; nop
add rf48, rf48, rf37 ; nop
add rf48, rf48, rf39 ; nop
add rf48, rf48, rf41 ; nop
add rf48, rf48, rf43 ; nop
add rf48, rf48, rf45 ; nop
add rf48, rf48, rf47 ; nop
add rf48, rf48, rf49 ; nop
add rf48, rf48, rf51 ; nop
add rf48, rf48, rf53 ; nop
add rf48, rf48, rf55 ; nop
add rf48, rf48, rf57 ; nop
add rf48, rf48, rf59 ; nop
add rf48, rf48, rf61 ; nop
add rf48, rf48, rf6 ; nop
add rf48, rf48, rf8 ; nop
add rf48, rf48, rf10 ; nop
add rf48, rf48, rf12 ; nop
add rf48, rf48, rf14 ; nop
add rf48, rf48, rf16 ; nop
add rf48, rf48, rf18 ; nop
add rf48, rf48, rf20 ; nop
add rf48, rf48, rf22 ; nop
add rf48, rf48, rf26 ; nop
add rf48, rf48, rf30 ; nop
add rf48, rf48, rf34 ; nop
add rf48, rf48, rf38 ; nop
add rf48, rf48, rf42 ; nop
add rf48, rf48, rf46 ; nop
add rf48, rf48, rf50 ; nop
add rf48, rf48, rf54 ; nop
add rf48, rf48, rf58 ; nop
add rf48, rf48, rf4 ; nop
add rf48, rf48, rf9 ; nop
add rf48, rf48, rf13 ; nop
add rf48, rf48, rf17 ; nop
add rf48, rf48, rf21 ; nop
add rf48, rf48, rf28 ; nop
add rf48, rf48, rf36 ; nop
add rf48, rf48, rf44 ; nop
add rf48, rf48, rf52 ; nop
add rf48, rf48, rf60 ; nop
add rf48, rf48, rf11 ; nop
add rf48, rf48, rf19 ; nop
add rf48, rf48, rf32 ; nop
add rf48, rf48, rf40 ; nop
nop ; mov tmud, rf48
add tmua, rf62, rf5 ; nop ; thrsw
tmuwt ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

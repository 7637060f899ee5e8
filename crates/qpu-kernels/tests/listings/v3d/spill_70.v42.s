eidx r2 ; nop ; ldunifrf.rf1
nop ; nop ; ldunifrf.rf19
shl rf21, r2, 2 ; nop
add tmua, rf19, rf21 ; nop ; ldunifrf.rf20
nop ; mov r3, 4 ; ldtmu.rf4
shl r3, r3, 4 ; nop
shl r1, rf0, -16 ; nop
or r3, r3, 8 ; nop
shr r1, r1, -16 ; nop
shl r3, r3, 4 ; nop
add r3, rf4, 0 ; umul24 r4, r1, r3
add rf20, rf20, r4 ; mov tmud, r3
add rf20, rf20, rf21 ; nop
add tmua, rf20, 0 ; nop
add tmua, rf19, rf21 ; nop
nop ; mov r2, 1 ; ldtmu.rf5
add r4, rf5, 1 ; nop
shl r1, r2, 6 ; mov tmud, r4
add tmua, rf20, r1 ; mov r1, 2
add tmua, rf19, rf21 ; nop
shl r4, r1, 6 ; nop ; ldtmu.rf6
add r3, rf6, 2 ; nop
nop ; mov tmud, r3
add tmua, rf20, r4 ; mov r4, 3
add tmua, rf19, rf21 ; nop
shl r3, r4, 6 ; nop ; ldtmu.rf7
add r2, rf7, 3 ; nop
nop ; mov tmud, r2
add tmua, rf20, r3 ; mov r3, 4
add tmua, rf19, rf21 ; nop
shl r2, r3, 6 ; nop ; ldtmu.rf8
add r1, rf8, 4 ; nop
nop ; mov tmud, r1
add tmua, rf20, r2 ; mov r2, 5
add tmua, rf19, rf21 ; nop
shl r1, r2, 6 ; nop ; ldtmu.rf9
add r4, rf9, 5 ; nop
shl r4, 6, 6 ; mov tmud, r4
add tmua, rf20, r1 ; nop
add tmua, rf19, rf21 ; nop
nop ; nop ; ldtmu.rf10
add r3, rf10, 6 ; nop
or r3, 7, 7 ; mov tmud, r3
shl r2, r3, 6 ; add tmua, rf20, r4
add tmua, rf19, rf21 ; nop
nop ; nop ; ldtmu.rf11
add r1, rf11, 7 ; nop
nop ; mov tmud, r1
add tmua, rf20, r2 ; mov r2, 8
add tmua, rf19, rf21 ; nop
shl r1, r2, 6 ; nop ; ldtmu.rf12
add r4, rf12, 8 ; nop
nop ; mov tmud, r4
add tmua, rf20, r1 ; mov r1, 9
add tmua, rf19, rf21 ; nop
shl r4, r1, 6 ; nop ; ldtmu.rf13
add r3, rf13, 9 ; nop
nop ; mov tmud, r3
add tmua, rf20, r4 ; mov r4, 10
add tmua, rf19, rf21 ; nop
shl r3, r4, 6 ; nop ; ldtmu.rf14
add r2, rf14, 10 ; nop
nop ; mov tmud, r2
add tmua, rf20, r3 ; mov r3, 11
add tmua, rf19, rf21 ; nop
shl r2, r3, 6 ; nop ; ldtmu.rf15
add r1, rf15, 11 ; nop
nop ; mov tmud, r1
add tmua, rf20, r2 ; mov r2, 12
add tmua, rf19, rf21 ; nop
shl r1, r2, 6 ; nop ; ldtmu.rf16
add r4, rf16, 12 ; nop
nop ; mov tmud, r4
add tmua, rf20, r1 ; mov r1, 13
add tmua, rf19, rf21 ; nop
shl r4, r1, 6 ; nop ; ldtmu.rf17
add r3, rf17, 13 ; nop
nop ; mov tmud, r3
add tmua, rf20, r4 ; mov r4, 14
add tmua, rf19, rf21 ; nop
shl r3, r4, 6 ; nop ; ldtmu.rf18
add r2, rf18, 14 ; nop
nop ; mov tmud, r2
add tmua, rf20, r3 ; mov r3, 15
add tmua, rf19, rf21 ; nop
shl r2, r3, 6 ; nop ; ldtmu.rf22
add r1, rf22, 15 ; nop
or r1, 1, 1 ; mov tmud, r1
shl r1, r1, 4 ; add tmua, rf20, r2
add tmua, rf19, rf21 ; nop
nop ; mov r2, 1 ; ldtmu.rf23
shl r2, r2, 4 ; add r4, rf23, r1
shl r3, r2, 6 ; mov tmud, r4
add tmua, rf20, r3 ; mov r1, 1
add tmua, rf19, rf21 ; nop
shl r1, r1, 4 ; nop ; ldtmu.rf24
or r1, r1, 1 ; mov r2, 1
shl r2, r2, 4 ; add r4, rf24, r1
or r2, r2, 1 ; mov tmud, r4
shl r3, r2, 6 ; nop
add tmua, rf20, r3 ; mov r4, 1
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
add tmua, rf19, rf21 ; nop
shl r4, r4, 4 ; nop ; ldtmu.rf25
add tmua, rf19, rf21 ; nop
or r1, 1, 1 ; mov r3, 1 ; ldtmu.rf26
add tmua, rf19, rf21 ; nop
or r4, r4, 2 ; nop ; ldtmu.rf27
add tmua, rf19, rf21 ; nop
shl r3, r3, 4 ; add rf54, rf25, r4 ; ldtmu.rf28
add tmua, rf19, rf21 ; nop
or r3, r3, 5 ; nop ; ldtmu.rf29
add tmua, rf19, rf21 ; nop
shl r1, r1, 4 ; add rf59, rf28, r3 ; ldtmu.rf30
add tmua, rf19, rf21 ; nop
or r3, 1, 1 ; mov r4, 1 ; ldtmu.rf31
add tmua, rf19, rf21 ; nop
or r1, r1, 3 ; nop ; ldtmu.rf32
add tmua, rf19, rf21 ; nop
shl r4, r4, 4 ; add rf56, rf26, r1 ; ldtmu.rf33
add tmua, rf19, rf21 ; nop
or r4, r4, 6 ; nop ; ldtmu.rf34
add tmua, rf19, rf21 ; nop
shl r3, r3, 4 ; add rf60, rf29, r4 ; ldtmu.rf35
add tmua, rf19, rf21 ; nop
or r2, 1, 1 ; mov r1, 1 ; ldtmu.rf36
add tmua, rf19, rf21 ; nop
or r3, r3, 9 ; nop ; ldtmu.rf37
add tmua, rf19, rf21 ; nop
shl r1, r1, 4 ; add rf5, rf32, r3 ; ldtmu.rf38
add tmua, rf19, rf21 ; nop
or r3, 1, 1 ; mov r4, 1 ; ldtmu.rf39
add tmua, rf19, rf21 ; nop
shl r2, r2, 4 ; nop ; ldtmu.rf40
add tmua, rf19, rf21 ; nop
or r1, r1, 7 ; nop ; ldtmu.rf41
add tmua, rf19, rf21 ; nop
shl r4, r4, 4 ; add rf62, rf30, r1 ; ldtmu.rf42
add tmua, rf19, rf21 ; nop
or r2, r2, 4 ; nop ; ldtmu.rf43
add tmua, rf19, rf21 ; nop
or r4, r4, 10 ; add rf57, rf27, r2 ; ldtmu.rf44
add tmua, rf19, rf21 ; nop
shl r3, r3, 4 ; add rf6, rf33, r4 ; ldtmu.rf45
add tmua, rf19, rf21 ; nop
or r2, 1, 1 ; mov r1, 1 ; ldtmu.rf46
add tmua, rf19, rf21 ; nop
or r3, r3, 13 ; nop ; ldtmu.rf47
add tmua, rf19, rf21 ; nop
shl r1, r1, 4 ; add rf11, rf36, r3 ; ldtmu.rf48
add tmua, rf19, rf21 ; nop
nop ; mov r4, 1 ; ldtmu.rf49
add tmua, rf19, rf21 ; nop
shl r2, r2, 4 ; nop ; ldtmu.rf50
add tmua, rf19, rf21 ; nop
or r1, r1, 11 ; nop ; ldtmu.rf51
add tmua, rf19, rf21 ; nop
shl r4, r4, 4 ; add rf8, rf34, r1 ; ldtmu.rf52
add tmua, rf19, rf21 ; nop
nop ; mov r3, 2 ; ldtmu.rf53
add tmua, rf19, rf21 ; nop
or r2, r2, 8 ; nop ; ldtmu.rf55
add tmua, rf19, rf21 ; nop
or r4, r4, 14 ; add rf63, rf31, r2 ; ldtmu.rf58
add tmua, rf19, rf21 ; nop
shl r3, r3, 4 ; add rf12, rf37, r4 ; ldtmu.rf61
add tmua, rf19, rf21 ; nop
or r3, r3, 1 ; mov r1, 1 ; ldtmu.rf4
add tmua, rf19, rf21 ; nop
add rf17, rf40, r3 ; mov r2, 1 ; ldtmu.rf7
add tmua, rf19, rf21 ; nop
shl r1, r1, 4 ; nop ; ldtmu.rf10
add tmua, rf19, rf21 ; nop
or r3, 2, 2 ; mov r4, 2 ; ldtmu.rf13
add tmua, rf19, rf21 ; nop
shl r2, r2, 4 ; nop ; ldtmu.rf16
or r1, r1, 15 ; nop ; ldtmu.rf22
shl r4, r4, 4 ; add rf14, rf38, r1 ; ldtmu.rf25
or r2, r2, 12 ; nop ; ldtmu.rf28
or r4, r4, 2 ; add rf9, rf35, r2 ; ldtmu.rf31
shl r3, r3, 4 ; add rf18, rf41, r4 ; ldtmu.rf34
or r2, 2, 2 ; mov r1, 2 ; ldtmu.rf37
or r3, r3, 5 ; nop ; ldtmu.rf40
shl r1, r1, 4 ; add rf26, rf44, r3
or r3, 2, 2 ; mov r4, 2
shl r2, r2, 4 ; nop
or r1, r1, 3 ; add rf15, rf39, r2
shl r4, r4, 4 ; add rf23, rf42, r1
or r4, r4, 6 ; nop
shl r3, r3, 4 ; add rf27, rf45, r4
or r1, 2, 2 ; mov r2, 2
or r3, r3, 9 ; nop
shl r2, r2, 4 ; add rf32, rf48, r3
shl r1, r1, 4 ; nop
or r3, 2, 2 ; mov r4, 2
or r2, r2, 4 ; nop
or r1, r1, 7 ; add rf24, rf43, r2 ; ldtmu.rf43
shl r4, r4, 4 ; add rf29, rf46, r1 ; ldtmu.rf46
or r4, r4, 10 ; nop
shl r3, r3, 4 ; add rf33, rf49, r4 ; ldtmu.rf49
or r1, 2, 2 ; mov r2, 2
or r3, r3, 13 ; nop
shl r2, r2, 4 ; add rf38, rf52, r3 ; ldtmu.rf52
shl r1, r1, 4 ; nop
nop ; mov r4, 2
or r2, r2, 8 ; nop
or r1, r1, 11 ; add rf30, rf47, r2
shl r4, r4, 4 ; add rf35, rf50, r1
nop ; mov r3, 3
or r4, r4, 14 ; nop
shl r3, r3, 4 ; add rf39, rf53, r4
or r1, 2, 2 ; mov r2, 2
or r3, r3, 1 ; nop
shl r2, r2, 4 ; add rf44, rf61, r3
shl r1, r1, 4 ; nop
or r3, 3, 3 ; mov r4, 3
or r2, r2, 12 ; nop
or r1, r1, 15 ; add rf36, rf51, r2
shl r4, r4, 4 ; add rf41, rf55, r1
or r4, r4, 2 ; nop
shl r3, r3, 4 ; add rf45, rf4, r4
or r1, 3, 3 ; mov r2, 3
or r3, r3, 5 ; nop
shl r2, r2, 4 ; add rf50, rf13, r3
shl r1, r1, 4 ; add rf42, rf58, r2 ; ldtmu.rf58
or r1, r1, 3 ; mov r4, 3
shl r4, r4, 4 ; add rf47, rf7, r1 ; ldtmu.rf7
or r2, 3, 3 ; mov r3, 3
or r4, r4, 6 ; nop
shl r3, r3, 4 ; add rf51, rf16, r4 ; ldtmu.rf16
or r3, r3, 9 ; nop
shl r2, r2, 4 ; add rf61, rf28, r3 ; ldtmu.rf28
tmuwt ; mov r1, 3
add tmua, rf20, 0 ; nop
add tmua, rf20, 0 ; nop
or r2, r2, 4 ; nop
shl r1, r1, 4 ; add rf48, rf10, r2
or r4, 3, 3 ; mov r2, 3
or r1, r1, 7 ; nop
shl r2, r2, 4 ; add rf53, rf22, r1
or r2, r2, 8 ; nop
add rf55, rf25, r2 ; mov r1, 3
shl r4, r4, 4 ; nop
shl r1, r1, 4 ; nop
or r3, 3, 3 ; mov r2, 3
or r4, r4, 10 ; nop
or r1, r1, 11 ; add rf4, rf31, r4
shl r2, r2, 4 ; add rf10, rf34, r1
shl r3, r3, 4 ; nop
or r2, r2, 12 ; nop
or r3, r3, 13 ; add rf13, rf37, r2
add rf22, rf40, r3 ; mov r4, 3
nop ; mov r1, 3
shl r4, r4, 4 ; mov r2, 4
shl r1, r1, 4 ; mov r3, 4
or r4, r4, 14 ; nop
or r1, r1, 15 ; add rf25, rf43, r4
shl r2, r2, 4 ; add rf31, rf46, r1 ; ldtmu.rf46
shl r3, r3, 4 ; add rf34, rf49, r2 ; ldtmu.rf40
or r3, r3, 1 ; nop
add rf37, rf52, r3 ; mov r4, 4
or r2, 4, 4 ; mov r1, 4
shl r4, r4, 4 ; mov r3, 4
shl r1, r1, 4 ; nop
shl r2, r2, 4 ; nop
or r4, r4, 2 ; nop
or r1, r1, 3 ; add rf43, rf58, r4
or r2, r2, 4 ; add rf49, rf7, r1
shl r3, r3, 4 ; add rf52, rf16, r2
or r3, r3, 5 ; nop
add rf58, rf28, r3 ; mov rf7, 0
nop ; umul24 r1, rf46, rf40
shr r2, rf46, -8 ; nop
shr r3, rf40, -8 ; umul24 r2, r2, rf40
nop ; umul24 r3, rf46, r3
add r2, r2, r3 ; nop
shl r2, r2, -8 ; nop
add r4, r1, r2 ; mov r2, 1
shl r1, r2, 6 ; add rf7, rf7, r4
add tmua, rf20, r1 ; mov r4, 1
shl r3, r4, 6 ; nop ; ldtmu.rf28
add tmua, rf20, r3 ; nop
shr r2, rf28, -8 ; nop ; ldtmu.rf16
nop ; umul24 r1, rf28, rf16
shr r3, rf16, -8 ; umul24 r2, r2, rf16
nop ; umul24 r3, rf28, r3
add r2, r2, r3 ; nop
shl r2, r2, -8 ; nop
add r4, r1, r2 ; mov r2, 2
shl r1, r2, 6 ; add rf7, rf7, r4
add tmua, rf20, r1 ; mov r4, 2
shl r3, r4, 6 ; nop ; ldtmu.rf46
add tmua, rf20, r3 ; nop
shr r2, rf46, -8 ; nop ; ldtmu.rf40
nop ; umul24 r1, rf46, rf40
shr r3, rf40, -8 ; umul24 r2, r2, rf40
nop ; umul24 r3, rf46, r3
add r2, r2, r3 ; nop
shl r2, r2, -8 ; nop
add r4, r1, r2 ; mov r2, 3
shl r1, r2, 6 ; add rf7, rf7, r4
add tmua, rf20, r1 ; mov r4, 3
shl r3, r4, 6 ; nop ; ldtmu.rf28
add tmua, rf20, r3 ; nop
shr r2, rf28, -8 ; nop ; ldtmu.rf16
nop ; umul24 r1, rf28, rf16
shr r3, rf16, -8 ; umul24 r2, r2, rf16
nop ; umul24 r3, rf28, r3
add r2, r2, r3 ; nop
shl r2, r2, -8 ; nop
add r4, r1, r2 ; mov r2, 4
shl r1, r2, 6 ; add rf7, rf7, r4
add tmua, rf20, r1 ; mov r4, 4
shl r3, r4, 6 ; nop ; ldtmu.rf46
add tmua, rf20, r3 ; nop
shr r2, rf46, -8 ; nop ; ldtmu.rf40
nop ; umul24 r1, rf46, rf40
shr r3, rf40, -8 ; umul24 r2, r2, rf40
nop ; umul24 r3, rf46, r3
add r2, r2, r3 ; nop
shl r2, r2, -8 ; nop
add r4, r1, r2 ; mov r2, 5
shl r1, r2, 6 ; add rf7, rf7, r4
add tmua, rf20, r1 ; mov r4, 5
shl r3, r4, 6 ; nop ; ldtmu.rf28
add tmua, rf20, r3 ; nop
shr r2, rf28, -8 ; nop ; ldtmu.rf16
nop ; umul24 r1, rf28, rf16
shr r3, rf16, -8 ; umul24 r2, r2, rf16
nop ; umul24 r3, rf28, r3
add r2, r2, r3 ; nop
shl r2, r2, -8 ; nop
shl r1, 6, 6 ; add r4, r1, r2
shl r2, 6, 6 ; add tmua, rf20, r1
add tmua, rf20, r2 ; add rf7, rf7, r4
nop ; mov r2, 7 ; ldtmu.rf46
shr r4, rf46, -8 ; nop ; ldtmu.rf40
nop ; umul24 r3, rf46, rf40
shr r1, rf40, -8 ; umul24 r4, r4, rf40
nop ; umul24 r1, rf46, r1
shl r1, r2, 6 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r4, r3, r4 ; nop
add rf7, rf7, r4 ; mov r4, 7
shl r3, r4, 6 ; nop
add tmua, rf20, r3 ; nop
add tmua, rf20, r1 ; nop
nop ; nop ; ldtmu.rf28
shr r4, rf28, -8 ; nop ; ldtmu.rf16
nop ; umul24 r3, rf28, rf16
shr r1, rf16, -8 ; umul24 r4, r4, rf16
nop ; umul24 r1, rf28, r1
add r4, r4, r1 ; nop
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r4, 8
shl r3, r4, 6 ; add rf7, rf7, r2
add tmua, rf20, r3 ; mov r2, 8
shl r1, r2, 6 ; nop ; ldtmu.rf46
add tmua, rf20, r1 ; nop
shr r4, rf46, -8 ; nop ; ldtmu.rf40
nop ; umul24 r3, rf46, rf40
shr r1, rf40, -8 ; umul24 r4, r4, rf40
nop ; umul24 r1, rf46, r1
add r4, r4, r1 ; nop
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r4, 9
shl r3, r4, 6 ; add rf7, rf7, r2
add tmua, rf20, r3 ; mov r2, 9
shl r1, r2, 6 ; nop ; ldtmu.rf28
add tmua, rf20, r1 ; nop
shr r4, rf28, -8 ; nop ; ldtmu.rf16
nop ; umul24 r3, rf28, rf16
shr r1, rf16, -8 ; umul24 r4, r4, rf16
nop ; umul24 r1, rf28, r1
add r4, r4, r1 ; nop
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r4, 10
shl r3, r4, 6 ; add rf7, rf7, r2
add tmua, rf20, r3 ; mov r2, 10
shl r1, r2, 6 ; nop ; ldtmu.rf46
add tmua, rf20, r1 ; nop
shr r4, rf46, -8 ; nop ; ldtmu.rf40
nop ; umul24 r3, rf46, rf40
shr r1, rf40, -8 ; umul24 r4, r4, rf40
nop ; umul24 r1, rf46, r1
add r4, r4, r1 ; nop
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r4, 11
shl r3, r4, 6 ; add rf7, rf7, r2
add tmua, rf20, r3 ; mov r2, 11
shl r1, r2, 6 ; nop ; ldtmu.rf28
add tmua, rf20, r1 ; nop
shr r4, rf28, -8 ; nop ; ldtmu.rf16
nop ; umul24 r3, rf28, rf16
shr r1, rf16, -8 ; umul24 r4, r4, rf16
nop ; umul24 r1, rf28, r1
add r4, r4, r1 ; nop
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r4, 12
shl r3, r4, 6 ; add rf7, rf7, r2
add tmua, rf20, r3 ; mov r2, 12
shl r1, r2, 6 ; nop ; ldtmu.rf46
add tmua, rf20, r1 ; nop
shr r4, rf46, -8 ; nop ; ldtmu.rf40
nop ; umul24 r3, rf46, rf40
shr r1, rf40, -8 ; umul24 r4, r4, rf40
nop ; umul24 r1, rf46, r1
add r4, r4, r1 ; nop
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r4, 13
shl r3, r4, 6 ; add rf7, rf7, r2
add tmua, rf20, r3 ; mov r2, 13
shl r1, r2, 6 ; nop ; ldtmu.rf28
add tmua, rf20, r1 ; nop
shr r4, rf28, -8 ; nop ; ldtmu.rf16
nop ; umul24 r3, rf28, rf16
shr r1, rf16, -8 ; umul24 r4, r4, rf16
nop ; umul24 r1, rf28, r1
add r4, r4, r1 ; nop
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r4, 14
shl r3, r4, 6 ; add rf7, rf7, r2
add tmua, rf20, r3 ; mov r2, 14
shl r1, r2, 6 ; nop ; ldtmu.rf46
add tmua, rf20, r1 ; nop
shr r4, rf46, -8 ; nop ; ldtmu.rf40
nop ; umul24 r3, rf46, rf40
shr r1, rf40, -8 ; umul24 r4, r4, rf40
nop ; umul24 r1, rf46, r1
add r4, r4, r1 ; nop
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r4, 15
shl r3, r4, 6 ; add rf7, rf7, r2
add tmua, rf20, r3 ; mov r2, 15
shl r1, r2, 6 ; nop ; ldtmu.rf28
add tmua, rf20, r1 ; nop
shr r4, rf28, -8 ; nop ; ldtmu.rf16
nop ; umul24 r3, rf28, rf16
shr r1, rf16, -8 ; umul24 r4, r4, rf16
nop ; umul24 r1, rf28, r1
add r4, r4, r1 ; mov r1, 1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r3, 1
shl r3, r3, 4 ; add rf7, rf7, r2
shl r4, r3, 6 ; nop
shl r1, r1, 4 ; add tmua, rf20, r4
shl r2, r1, 6 ; nop ; ldtmu.rf46
add tmua, rf20, r2 ; nop
shr r4, rf46, -8 ; nop ; ldtmu.rf40
nop ; umul24 r3, rf46, rf40
shr r1, rf40, -8 ; umul24 r4, r4, rf40
nop ; umul24 r1, rf46, r1
add r4, r4, r1 ; mov r1, 1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; mov r3, 1
shl r3, r3, 4 ; add rf7, rf7, r2
or r3, r3, 1 ; nop
shl r1, r1, 4 ; nop
shl r4, r3, 6 ; nop
or r1, r1, 1 ; add tmua, rf20, r4
shl r2, r1, 6 ; nop ; ldtmu.rf28
add tmua, rf20, r2 ; nop
shr r4, rf28, -8 ; nop ; ldtmu.rf16
nop ; umul24 r3, rf28, rf16
shr r1, rf16, -8 ; umul24 r4, r4, rf16
nop ; umul24 r1, rf28, r1
shr r1, rf54, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf54, rf54
shr r4, rf54, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf54
nop ; umul24 r1, rf54, r1
shr r1, rf56, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf56, rf56
shr r4, rf56, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf56
nop ; umul24 r1, rf56, r1
shr r1, rf57, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf57, rf57
shr r4, rf57, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf57
nop ; umul24 r1, rf57, r1
shr r1, rf59, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf59, rf59
shr r4, rf59, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf59
nop ; umul24 r1, rf59, r1
shr r1, rf60, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf60, rf60
shr r4, rf60, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf60
nop ; umul24 r1, rf60, r1
shr r1, rf62, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf62, rf62
shr r4, rf62, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf62
nop ; umul24 r1, rf62, r1
shr r1, rf63, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf63, rf63
shr r4, rf63, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf63
nop ; umul24 r1, rf63, r1
shr r1, rf5, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf5, rf5
shr r4, rf5, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf5
nop ; umul24 r1, rf5, r1
shr r1, rf6, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf6, rf6
shr r4, rf6, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf6
nop ; umul24 r1, rf6, r1
shr r1, rf8, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf8, rf8
shr r4, rf8, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf8
nop ; umul24 r1, rf8, r1
shr r1, rf9, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf9, rf9
shr r4, rf9, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf9
nop ; umul24 r1, rf9, r1
shr r1, rf11, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf11, rf11
shr r4, rf11, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf11
nop ; umul24 r1, rf11, r1
shr r1, rf12, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf12, rf12
shr r4, rf12, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf12
nop ; umul24 r1, rf12, r1
shr r1, rf14, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf14, rf14
shr r4, rf14, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf14
nop ; umul24 r1, rf14, r1
shr r1, rf15, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf15, rf15
shr r4, rf15, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf15
nop ; umul24 r1, rf15, r1
shr r1, rf17, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf17, rf17
shr r4, rf17, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf17
nop ; umul24 r1, rf17, r1
shr r1, rf18, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf18, rf18
shr r4, rf18, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf18
nop ; umul24 r1, rf18, r1
shr r1, rf23, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf23, rf23
shr r4, rf23, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf23
nop ; umul24 r1, rf23, r1
shr r1, rf24, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf24, rf24
shr r4, rf24, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf24
nop ; umul24 r1, rf24, r1
shr r1, rf26, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf26, rf26
shr r4, rf26, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf26
nop ; umul24 r1, rf26, r1
shr r1, rf27, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf27, rf27
shr r4, rf27, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf27
nop ; umul24 r1, rf27, r1
shr r1, rf29, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf29, rf29
shr r4, rf29, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf29
nop ; umul24 r1, rf29, r1
shr r1, rf30, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf30, rf30
shr r4, rf30, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf30
nop ; umul24 r1, rf30, r1
shr r1, rf32, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf32, rf32
shr r4, rf32, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf32
nop ; umul24 r1, rf32, r1
shr r1, rf33, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf33, rf33
shr r4, rf33, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf33
nop ; umul24 r1, rf33, r1
shr r1, rf35, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf35, rf35
shr r4, rf35, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf35
nop ; umul24 r1, rf35, r1
shr r1, rf36, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf36, rf36
shr r4, rf36, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf36
nop ; umul24 r1, rf36, r1
shr r1, rf38, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf38, rf38
shr r4, rf38, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf38
nop ; umul24 r1, rf38, r1
shr r1, rf39, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf39, rf39
shr r4, rf39, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf39
nop ; umul24 r1, rf39, r1
shr r1, rf41, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf41, rf41
shr r4, rf41, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf41
nop ; umul24 r1, rf41, r1
shr r1, rf42, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf42, rf42
shr r4, rf42, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf42
nop ; umul24 r1, rf42, r1
shr r1, rf44, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf44, rf44
shr r4, rf44, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf44
nop ; umul24 r1, rf44, r1
shr r1, rf45, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf45, rf45
shr r4, rf45, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf45
nop ; umul24 r1, rf45, r1
shr r1, rf47, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf47, rf47
shr r4, rf47, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf47
nop ; umul24 r1, rf47, r1
shr r1, rf48, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf48, rf48
shr r4, rf48, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf48
nop ; umul24 r1, rf48, r1
shr r1, rf50, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf50, rf50
shr r4, rf50, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf50
nop ; umul24 r1, rf50, r1
shr r1, rf51, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf51, rf51
shr r4, rf51, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf51
nop ; umul24 r1, rf51, r1
shr r1, rf53, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf53, rf53
shr r4, rf53, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf53
nop ; umul24 r1, rf53, r1
shr r1, rf55, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf55, rf55
shr r4, rf55, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf55
nop ; umul24 r1, rf55, r1
shr r1, rf61, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf61, rf61
shr r4, rf61, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf61
nop ; umul24 r1, rf61, r1
shr r1, rf4, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf4, rf4
shr r4, rf4, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf4
nop ; umul24 r1, rf4, r1
shr r1, rf10, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf10, rf10
shr r4, rf10, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf10
nop ; umul24 r1, rf10, r1
shr r1, rf13, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf13, rf13
shr r4, rf13, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf13
nop ; umul24 r1, rf13, r1
shr r1, rf22, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf22, rf22
shr r4, rf22, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf22
nop ; umul24 r1, rf22, r1
shr r1, rf25, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf25, rf25
shr r4, rf25, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf25
nop ; umul24 r1, rf25, r1
shr r1, rf31, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf31, rf31
shr r4, rf31, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf31
nop ; umul24 r1, rf31, r1
shr r1, rf34, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf34, rf34
shr r4, rf34, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf34
nop ; umul24 r1, rf34, r1
shr r1, rf37, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf37, rf37
shr r4, rf37, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf37
nop ; umul24 r1, rf37, r1
shr r1, rf43, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf43, rf43
shr r4, rf43, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf43
nop ; umul24 r1, rf43, r1
shr r1, rf49, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf49, rf49
shr r4, rf49, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf49
nop ; umul24 r1, rf49, r1
shr r1, rf52, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf52, rf52
shr r4, rf52, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf52
nop ; umul24 r1, rf52, r1
shr r1, rf58, -8 ; add r4, r4, r1
shl r4, r4, -8 ; nop
add r2, r3, r4 ; umul24 r3, rf58, rf58
shr r4, rf58, -8 ; nop
add rf7, rf7, r2 ; umul24 r4, r4, rf58
nop ; umul24 r1, rf58, r1
add r4, r4, r1 ; add tmua, rf20, 0
shl r4, r4, -8 ; nop ; ldtmu.rf40
add r2, r3, r4 ; mov r3, 1
shl r2, r3, 6 ; add rf7, rf7, r2
add tmua, rf20, r2 ; mov r1, 2
shl r4, r1, 6 ; nop ; ldtmu.rf46
add tmua, rf20, r4 ; mov r3, 3
shl r2, r3, 6 ; nop ; ldtmu.rf16
add tmua, rf20, r2 ; mov r1, 4
shl r4, r1, 6 ; nop ; ldtmu.rf28
add tmua, rf20, r4 ; mov r3, 5
shl r2, r3, 6 ; nop
shl r4, 6, 6 ; add tmua, rf20, r2
add tmua, rf20, r4 ; mov r2, 7
shl r1, r2, 6 ; nop
add tmua, rf20, r1 ; mov r4, 8
shl r3, r4, 6 ; nop
add tmua, rf20, r3 ; mov r2, 9
shl r1, r2, 6 ; nop
add tmua, rf20, r1 ; mov r4, 10
shl r3, r4, 6 ; nop
add tmua, rf20, r3 ; mov r2, 11
shl r1, r2, 6 ; nop
add tmua, rf20, r1 ; mov r4, 12
shl r3, r4, 6 ; nop
add tmua, rf20, r3 ; mov r2, 13
shl r1, r2, 6 ; nop
add tmua, rf20, r1 ; mov r4, 14
shl r3, r4, 6 ; nop
add tmua, rf20, r3 ; mov r2, 15
shl r1, r2, 6 ; nop
add tmua, rf20, r1 ; mov r3, 1
nop ; mov r1, 1
shl r3, r3, 4 ; nop
shl r1, r1, 4 ; nop
shl r4, r3, 6 ; nop
or r1, r1, 1 ; add tmua, rf20, r4
shl r2, r1, 6 ; nop
add tmua, rf20, r2 ; nop
add rf7, rf7, rf40 ; nop ; ldtmu.rf40
add rf7, rf7, rf46 ; nop ; ldtmu.rf46
add rf7, rf7, rf16 ; nop ; ldtmu.rf16
add rf7, rf7, rf28 ; nop ; ldtmu.rf28
add rf7, rf7, rf40 ; nop ; ldtmu.rf40
add rf7, rf7, rf46 ; nop ; ldtmu.rf46
add rf7, rf7, rf16 ; nop ; ldtmu.rf16
add rf7, rf7, rf28 ; nop ; ldtmu.rf28
add rf7, rf7, rf40 ; nop ; ldtmu.rf40
add rf7, rf7, rf46 ; nop ; ldtmu.rf46
add rf7, rf7, rf16 ; nop ; ldtmu.rf16
add rf7, rf7, rf28 ; nop ; ldtmu.rf28
add rf7, rf7, rf40 ; nop ; ldtmu.rf40
add rf7, rf7, rf46 ; nop ; ldtmu.rf46
add rf7, rf7, rf16 ; nop
add rf7, rf7, rf28 ; nop
add rf7, rf7, rf40 ; nop
add rf7, rf7, rf46 ; nop
add rf7, rf7, rf54 ; nop
add rf7, rf7, rf56 ; nop
add rf7, rf7, rf57 ; nop
add rf7, rf7, rf59 ; nop
add rf7, rf7, rf60 ; nop
add rf7, rf7, rf62 ; nop
add rf7, rf7, rf63 ; nop
add rf7, rf7, rf5 ; nop
add rf7, rf7, rf6 ; nop
add rf7, rf7, rf8 ; nop
add rf7, rf7, rf9 ; nop
add rf7, rf7, rf11 ; nop
add rf7, rf7, rf12 ; nop
add rf7, rf7, rf14 ; nop
add rf7, rf7, rf15 ; nop
add rf7, rf7, rf17 ; nop
add rf7, rf7, rf18 ; nop
add rf7, rf7, rf23 ; nop
add rf7, rf7, rf24 ; nop
add rf7, rf7, rf26 ; nop
add rf7, rf7, rf27 ; nop
add rf7, rf7, rf29 ; nop
add rf7, rf7, rf30 ; nop
add rf7, rf7, rf32 ; nop
add rf7, rf7, rf33 ; nop
add rf7, rf7, rf35 ; nop
add rf7, rf7, rf36 ; nop
add rf7, rf7, rf38 ; nop
add rf7, rf7, rf39 ; nop
add rf7, rf7, rf41 ; nop
add rf7, rf7, rf42 ; nop
add rf7, rf7, rf44 ; nop
add rf7, rf7, rf45 ; nop
add rf7, rf7, rf47 ; nop
add rf7, rf7, rf48 ; nop
add rf7, rf7, rf50 ; nop
add rf7, rf7, rf51 ; nop
add rf7, rf7, rf53 ; nop
add rf7, rf7, rf55 ; nop
add rf7, rf7, rf61 ; nop
add rf7, rf7, rf4 ; nop
add rf7, rf7, rf10 ; nop
add rf7, rf7, rf13 ; nop
add rf7, rf7, rf22 ; nop
add rf7, rf7, rf25 ; nop
add rf7, rf7, rf31 ; nop
add rf7, rf7, rf34 ; nop
add rf7, rf7, rf37 ; nop
add rf7, rf7, rf43 ; nop
add rf7, rf7, rf49 ; nop
add rf7, rf7, rf52 ; nop
add rf7, rf7, rf58 ; nop
nop ; mov tmud, rf7
add tmua, rf19, rf21 ; nop ; thrsw
tmuwt ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

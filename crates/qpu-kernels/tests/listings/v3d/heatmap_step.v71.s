eidx rf58 ; nop ; ldunifrf.rf57
nop ; nop ; ldunifrf.rf52
shl rf15, rf3, -16 ; mov rf27, rf52
mov rf25, rf52 ; mov rf28, rf52 ; ldunifrf.rf53
shr rf15, rf15, -16 ; nop
nop ; nop ; ldunifrf.rf54
shr rf20, rf54, -8 ; umul24 rf19, rf54, rf15
shr rf21, rf15, -8 ; umul24 rf20, rf20, rf15
mov rf15, rf15 ; umul24 rf21, rf54, rf21 ; ldunifrf.rf55
add rf20, rf20, rf21 ; mov rf29, 0
shr rf28, rf54, -8 ; umul24 rf27, rf54, rf57
mov rf24, rf54 ; umul24 rf28, rf28, rf57 ; ldunifrf.rf56
shl rf20, rf20, -8 ; nop
shr rf29, rf57, -8 ; add rf18, rf19, rf20
min.pushc rf56, rf15 ; umul24 rf29, rf54, rf29
add rf17, rf18, rf58 ; add rf28, rf28, rf29 ; ldunifrf.rf60
nop ; nop ; ldunifrf.rf61
nop ; mov rf26, 0
shl rf16, rf17, 2 ; nop
shl rf22, rf54, 2 ; add rf52, rf52, rf16
shl rf28, rf28, -8 ; add rf53, rf53, rf22
add rf26, rf27, rf28 ; nop ; ldunifrf.rf62
nop ; mov rf23, 0
shl rf25, rf54, 1 ; nop
nop ; nop ; ldunifrf.rf63
shl rf59, rf58, 2 ; nop
nop ; mov rf4, 0
nop ; mov rf5, 0
nop ; mov rf6, 0
nop ; mov rf7, 0
nop ; mov rf8, 0
nop ; mov rf9, 0
nop ; mov rf10, 0
nop ; mov rf11, 0
nop ; mov rf12, 0
nop ; mov rf13, 0
nop ; mov rf30, 0
nop ; mov rf14, 0
nop ; mov rf33, 0
nop ; mov rf39, 0
nop ; mov rf32, 0
nop ; mov rf34, 0
nop ; mov rf40, 0
nop ; mov rf36, 0
nop ; mov rf35, 0
nop ; mov rf41, 0
nop ; mov rf50, 0
shl rf16, rf23, 2 ; nop
b.allna L205
shl rf17, rf24, 2 ; nop
shl rf18, rf25, 2 ; nop
shl rf22, rf26, 2 ; nop
L52:
add tmua, rf52, rf16 ; add rf35, rf52, rf16
add tmua, rf52, rf17 ; add rf27, rf35, rf60
add rf36, rf52, rf17 ; add tmua, rf52, rf18
and tmua, rf27, -4 ; add rf28, rf36, rf60
and tmua, rf28, -4 ; umul24 rf32, rf15, rf54
shr rf33, rf15, -8 ; add rf37, rf52, rf18
shr rf34, rf54, -8 ; umul24 rf33, rf33, rf54
min.pushc rf63, rf55 ; umul24 rf34, rf15, rf34
add rf33, rf33, rf34 ; add rf25, rf37, rf60
shl rf33, rf33, -8 ; nop
add rf31, rf32, rf33 ; nop ; ldtmu.rf32
shl rf30, rf31, 2 ; nop
add rf26, rf53, rf30 ; nop ; ldtmu.rf36
nop ; mov rf39, 0
nop ; mov rf40, 0
nop ; mov rf41, 0
b.allna L161
nop ; nop ; ldtmu.rf50
and tmua, rf25, -4 ; nop
nop ; mov rf29, 0
min.pushc rf55, rf29 ; nop
b.allna L161
nop ; nop
nop ; nop
nop ; nop
add rf38, rf29, rf62 ; nop
min.pushc rf55, rf38 ; nop
b.allna L161
nop ; nop
nop ; nop
nop ; nop
L83:
add rf27, rf27, rf60 ; add rf28, rf28, rf60
and tmua, rf27, -4 ; add rf25, rf25, rf60
and tmua, rf28, -4 ; mov rf5, rf32
and tmua, rf25, -4 ; mov rf7, rf36
xor.pushz rf58, 15 ; mov rf9, rf50
mov.ifa rf7, rf40 ; mov.ifa rf5, rf39
mov rf11, rf32 ; mov.ifa rf9, rf41
mov rf14, rf50 ; mov rf13, rf36 ; ldtmu.rf33
xor.pushz rf58, 0 ; add rf27, rf27, rf60
rotate rf4, rf5, 15 ; mov.ifa rf11, rf33
fadd rf49, rf4, rf32 ; add rf28, rf28, rf60 ; ldtmu.rf34
rotate rf10, rf11, 1 ; mov.ifa rf13, rf34
rotate rf6, rf7, 15 ; add rf25, rf25, rf60
fadd rf48, rf10, rf49 ; mov rf5, rf33 ; ldtmu.rf35
rotate rf12, rf13, 1 ; mov.ifa rf14, rf35
fadd rf47, rf6, rf48 ; mov rf7, rf34
rotate rf8, rf9, 15 ; mov rf9, rf35
fadd rf46, rf12, rf47 ; mov rf11, rf33
fadd rf45, rf8, rf46 ; mov rf13, rf34
rotate rf30, rf14, 1 ; mov rf14, rf35
fadd rf44, rf45, rf50 ; add rf29, rf29, rf61
fadd rf43, rf30, rf44 ; add rf29, rf29, rf61
add rf29, rf29, rf61 ; fmul rf42, rf43, 0.125
fsub rf41, rf36, rf42 ; nop
nop ; fmul rf40, 0.25, rf41
fsub rf39, rf36, rf40 ; nop
xor.pushz rf58, 15 ; mov tmud, rf39
add tmua, rf26, rf59 ; mov.ifa rf5, rf32
and tmua, rf27, -4 ; mov.ifa rf7, rf36
and tmua, rf28, -4 ; mov.ifa rf9, rf50
and tmua, rf25, -4 ; add rf26, rf26, rf60
add rf27, rf27, rf60 ; add rf28, rf28, rf60 ; ldtmu.rf39
xor.pushz rf58, 0 ; add rf25, rf25, rf60
rotate rf4, rf5, 15 ; mov.ifa rf11, rf39
fadd rf20, rf4, rf33 ; nop ; ldtmu.rf40
rotate rf10, rf11, 1 ; mov.ifa rf13, rf40
rotate rf6, rf7, 15 ; mov rf11, rf39
fadd rf19, rf10, rf20 ; nop ; ldtmu.rf41
rotate rf8, rf9, 15 ; mov.ifa rf14, rf41
rotate rf12, rf13, 1 ; mov rf13, rf40
fadd rf10, rf6, rf19 ; nop
fadd rf9, rf10, rf12 ; nop
fadd rf8, rf8, rf9 ; mov rf9, rf41
rotate rf30, rf14, 1 ; mov rf14, rf41
fadd rf7, rf8, rf35 ; nop
fadd rf6, rf7, rf30 ; mov rf7, rf40
nop ; fmul rf5, rf6, 0.125
fsub rf4, rf34, rf5 ; mov rf5, rf39
nop ; fmul rf51, 0.25, rf4
fsub rf50, rf34, rf51 ; nop
xor.pushz rf58, 15 ; mov tmud, rf50
add tmua, rf26, rf59 ; mov.ifa rf5, rf33
and tmua, rf27, -4 ; mov.ifa rf7, rf34
and tmua, rf28, -4 ; mov.ifa rf9, rf35
and tmua, rf25, -4 ; add rf26, rf26, rf60
nop ; nop ; ldtmu.rf32
xor.pushz rf58, 0 ; nop
rotate rf4, rf5, 15 ; mov.ifa rf11, rf32
nop ; nop ; ldtmu.rf36
rotate rf8, rf9, 15 ; mov.ifa rf13, rf36
rotate rf6, rf7, 15 ; nop
rotate rf10, rf11, 1 ; nop
fadd rf9, rf4, rf39 ; nop ; ldtmu.rf50
fadd rf7, rf9, rf10 ; mov.ifa rf14, rf50
rotate rf12, rf13, 1 ; add rf10, rf29, rf62
fadd rf6, rf6, rf7 ; nop
fadd rf5, rf6, rf12 ; nop
fadd rf4, rf5, rf8 ; nop
rotate rf30, rf14, 1 ; nop
fadd rf51, rf4, rf41 ; nop
fadd rf31, rf30, rf51 ; nop
min.pushc rf55, rf10 ; fmul rf30, rf31, 0.125
fsub rf24, rf40, rf30 ; nop
nop ; fmul rf23, 0.25, rf24
b.anya L83
fsub rf21, rf40, rf23 ; nop
nop ; mov tmud, rf21
add tmua, rf26, rf59 ; add rf26, rf26, rf60
L161:
min.pushc rf55, rf29 ; nop
b.allna L197
nop ; nop
nop ; nop
nop ; nop
L166:
add rf27, rf27, rf60 ; add rf28, rf28, rf60
and tmua, rf27, -4 ; add rf25, rf25, rf60
and tmua, rf28, -4 ; mov rf33, rf39
and tmua, rf25, -4 ; mov rf34, rf40
mov rf39, rf32 ; mov rf35, rf41 ; ldtmu.rf32
mov rf41, rf50 ; mov rf40, rf36 ; ldtmu.rf36
xor.pushz rf58, 15 ; mov rf5, rf39
mov rf9, rf41 ; mov rf7, rf40 ; ldtmu.rf50
mov.ifa rf7, rf34 ; mov.ifa rf5, rf33
mov rf11, rf39 ; mov.ifa rf9, rf35
xor.pushz rf58, 0 ; mov rf13, rf40
rotate rf4, rf5, 15 ; mov.ifa rf11, rf32
fadd rf33, rf4, rf39 ; mov.ifa rf13, rf36
rotate rf10, rf11, 1 ; mov rf14, rf41
rotate rf6, rf7, 15 ; mov.ifa rf14, rf50
fadd rf31, rf10, rf33 ; add rf29, rf29, rf61
rotate rf12, rf13, 1 ; nop
fadd rf24, rf6, rf31 ; nop
rotate rf8, rf9, 15 ; nop
fadd rf23, rf12, rf24 ; nop
fadd rf21, rf8, rf23 ; nop
rotate rf30, rf14, 1 ; nop
fadd rf20, rf21, rf41 ; nop
fadd rf19, rf20, rf30 ; nop
min.pushc rf55, rf29 ; fmul rf14, rf19, 0.125
fsub rf13, rf40, rf14 ; nop
nop ; fmul rf12, 0.25, rf13
b.anya L166
fsub rf11, rf40, rf12 ; nop
nop ; mov tmud, rf11
add tmua, rf26, rf59 ; add rf26, rf26, rf60
L197:
add rf15, rf15, rf57 ; add rf52, rf52, rf22 ; ldtmu.rf32
nop ; nop ; ldtmu.rf36
nop ; nop ; ldtmu.rf50
min.pushc rf56, rf15 ; nop
b.anya L52
nop ; nop
nop ; nop
nop ; nop
L205:
tmuwt ; nop ; thrsw
nop ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

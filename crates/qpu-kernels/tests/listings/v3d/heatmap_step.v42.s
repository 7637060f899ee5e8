eidx rf22 ; nop ; ldunifrf.rf21
nop ; nop ; ldunifrf.rf16
shl rf15, rf0, -16 ; nop
or rf36, rf16, rf16 ; mov rf35, rf16 ; ldunifrf.rf17
shr rf15, rf15, -16 ; nop
or rf28, rf15, rf15 ; mov rf33, rf16 ; ldunifrf.rf18
nop ; umul24 r4, rf18, rf15 ; ldunifrf.rf19
shr r1, rf18, -8 ; nop
shr r2, rf15, -8 ; umul24 r1, r1, rf15
nop ; umul24 r2, rf18, r2 ; ldunifrf.rf20
min.pushc rf20, rf28 ; add r1, r1, r2
shl r1, r1, -8 ; nop
add r3, r4, r1 ; mov r4, 0
shl rf29, r4, 2 ; add r2, r3, rf22
shl r1, r2, 2 ; nop
add rf16, rf16, r1 ; mov r1, rf18 ; ldunifrf.rf24
shl rf30, r1, 2 ; nop
shl r2, rf18, 1 ; nop
shl rf31, r2, 2 ; nop
nop ; umul24 r4, rf18, rf21 ; ldunifrf.rf25
shr r1, rf18, -8 ; nop
shr r2, rf21, -8 ; umul24 r1, r1, rf21
shl r3, rf18, 2 ; umul24 r2, rf18, r2
add r1, r1, r2 ; add rf17, rf17, r3 ; ldunifrf.rf26
shl r1, r1, -8 ; nop
add r3, r4, r1 ; nop ; ldunifrf.rf27
shl rf23, rf22, 2 ; nop
or rf37, 0, 0 ; mov rf34, 0
or rf5, 0, 0 ; mov rf4, 0
or rf7, 0, 0 ; mov rf6, 0
or rf9, 0, 0 ; mov rf8, 0
or rf11, 0, 0 ; mov rf10, 0
or rf13, 0, 0 ; mov rf12, 0
or rf14, 0, 0 ; mov rf47, 0
or rf43, 0, 0 ; mov rf38, 0
or rf39, 0, 0 ; mov rf41, 0
or rf42, 0, 0 ; mov rf44, 0
b.allna L217
or rf45, 0, 0 ; mov rf40, 0
nop ; mov rf46, 0
shl rf32, r3, 2 ; nop
L41:
nop ; umul24 r1, rf28, rf18
shr r2, rf28, -8 ; nop
shr r3, rf18, -8 ; umul24 r2, r2, rf18
or rf43, 0, 0 ; umul24 r3, rf28, r3
add r2, r2, r3 ; add tmua, rf16, rf29
shl r2, r2, -8 ; nop
add r4, r1, r2 ; add tmua, rf16, rf30
shl r3, r4, 2 ; nop
add r4, rf16, rf29 ; nop
add rf35, r4, rf24 ; add rf34, rf17, r3
add r1, rf16, rf30 ; nop
add tmua, rf16, rf31 ; add r2, rf16, rf31
add rf36, r1, rf24 ; add rf33, r2, rf24 ; ldtmu.rf41
and tmua, rf35, -4 ; nop
and tmua, rf36, -4 ; nop
min.pushc rf27, rf19 ; nop
b.allna L166
or rf45, 0, 0 ; mov rf44, 0 ; ldtmu.rf42
nop ; mov rf37, 0 ; ldtmu.rf46
and tmua, rf33, -4 ; nop
min.pushc rf19, rf37 ; nop
b.allna L166
nop ; nop
nop ; nop
nop ; nop
add r3, rf37, rf26 ; nop
min.pushc rf19, r3 ; nop
b.allna L166
nop ; nop
nop ; nop
nop ; nop
L72:
add rf35, rf35, rf24 ; nop
and tmua, rf35, -4 ; nop
add rf36, rf36, rf24 ; nop ; ldtmu.rf38
and tmua, rf36, -4 ; nop
add rf33, rf33, rf24 ; nop ; ldtmu.rf39
and tmua, rf33, -4 ; nop
or rf7, rf42, rf42 ; mov rf5, rf41 ; ldtmu.rf40
xor.pushz rf22, 15 ; nop
or.ifa rf7, rf44, rf44 ; mov.ifa rf5, rf43
or rf9, rf46, rf46 ; mov r0, rf5
or rf11, rf41, rf41 ; mov.ifa rf9, rf45
or r0, rf7, rf7 ; mov rf4, r0 ; rot.1
xor.pushz rf22, 0 ; nop
or r0, rf9, rf9 ; mov rf6, r0 ; rot.1
or rf13, rf42, rf42 ; mov.ifa rf11, rf38
or r0, rf11, rf11 ; mov rf8, r0 ; rot.1
or rf14, rf46, rf46 ; mov.ifa rf13, rf39
or r0, rf13, rf13 ; mov rf10, r0 ; rot.15
fadd r2, rf4, rf41 ; nop
fadd r1, r2, rf10 ; mov rf12, r0 ; rot.15
fadd r4, r1, rf6 ; mov.ifa rf14, rf40
fadd r3, r4, rf12 ; mov r0, rf14
fadd r2, r3, rf8 ; mov rf5, rf38
fadd r1, r2, rf46 ; mov rf47, r0 ; rot.15
fadd r4, r1, rf47 ; mov rf7, rf39
or rf9, rf40, rf40 ; fmul r3, r4, 0.125
fsub r2, rf42, r3 ; mov rf11, rf38
or rf13, rf39, rf39 ; fmul r1, 0.25, r2
fsub r4, rf42, r1 ; mov rf14, rf40
add rf35, rf35, rf24 ; mov tmud, r4
add tmua, rf34, rf23 ; nop
and tmua, rf35, -4 ; nop
add rf36, rf36, rf24 ; nop ; ldtmu.rf43
and tmua, rf36, -4 ; nop
add rf33, rf33, rf24 ; nop ; ldtmu.rf44
and tmua, rf33, -4 ; nop
xor.pushz rf22, 15 ; nop
or.ifa rf7, rf42, rf42 ; mov.ifa rf5, rf41
or.ifa rf9, rf46, rf46 ; mov r0, rf5
xor.pushz rf22, 0 ; nop
or r0, rf7, rf7 ; mov rf4, r0 ; rot.1
or.ifa rf13, rf44, rf44 ; mov.ifa rf11, rf43
or r0, rf9, rf9 ; mov rf6, r0 ; rot.1
fadd r1, rf4, rf38 ; nop ; ldtmu.rf45
or r0, rf11, rf11 ; mov rf8, r0 ; rot.1
or rf5, rf43, rf43 ; mov.ifa rf14, rf45
or r0, rf13, rf13 ; mov rf10, r0 ; rot.15
fadd r4, r1, rf10 ; mov rf7, rf44
fadd r3, r4, rf6 ; mov rf12, r0 ; rot.15
fadd r2, r3, rf12 ; mov r0, rf14
fadd r1, r2, rf8 ; mov rf9, rf45
fadd r4, r1, rf40 ; mov rf47, r0 ; rot.15
fadd r3, r4, rf47 ; mov rf11, rf43
or rf13, rf44, rf44 ; fmul r2, r3, 0.125
fsub r1, rf39, r2 ; mov rf14, rf45
nop ; fmul r4, 0.25, r1
fsub r3, rf39, r4 ; nop
add rf34, rf34, rf24 ; mov tmud, r3
add tmua, rf34, rf23 ; nop
add rf35, rf35, rf24 ; nop
and tmua, rf35, -4 ; nop
add rf36, rf36, rf24 ; nop ; ldtmu.rf41
and tmua, rf36, -4 ; nop
add rf33, rf33, rf24 ; nop ; ldtmu.rf42
and tmua, rf33, -4 ; nop
xor.pushz rf22, 15 ; nop
or.ifa rf7, rf39, rf39 ; mov.ifa rf5, rf38
or.ifa rf9, rf40, rf40 ; mov r0, rf5
xor.pushz rf22, 0 ; nop
or r0, rf7, rf7 ; mov rf4, r0 ; rot.1
or.ifa rf13, rf42, rf42 ; mov.ifa rf11, rf41
or r0, rf9, rf9 ; mov rf6, r0 ; rot.1
fadd r4, rf4, rf43 ; nop ; ldtmu.rf46
or r0, rf11, rf11 ; mov rf8, r0 ; rot.1
nop ; mov.ifa rf14, rf46
or r0, rf13, rf13 ; mov rf10, r0 ; rot.15
fadd r3, r4, rf10 ; nop
fadd r2, r3, rf6 ; mov rf12, r0 ; rot.15
fadd r1, r2, rf12 ; mov r0, rf14
fadd r4, r1, rf8 ; nop
fadd r3, r4, rf45 ; mov rf47, r0 ; rot.15
add rf37, rf37, rf25 ; nop
fadd r2, r3, rf47 ; nop
add rf37, rf37, rf25 ; nop
nop ; fmul r1, r2, 0.125
fsub r4, rf44, r1 ; nop
add rf37, rf37, rf25 ; nop
add r1, rf37, rf26 ; nop
min.pushc rf19, r1 ; fmul r3, 0.25, r4
fsub r2, rf44, r3 ; nop
b.anya L72
add rf34, rf34, rf24 ; mov tmud, r2
add tmua, rf34, rf23 ; nop
add rf34, rf34, rf24 ; nop
L166:
min.pushc rf19, rf37 ; nop
b.allna L209
nop ; nop
nop ; nop
nop ; nop
L171:
add rf35, rf35, rf24 ; nop
and tmua, rf35, -4 ; nop
add rf36, rf36, rf24 ; nop
and tmua, rf36, -4 ; nop
add rf33, rf33, rf24 ; nop
and tmua, rf33, -4 ; nop
or rf43, rf41, rf41 ; mov rf38, rf43 ; ldtmu.rf41
or rf39, rf44, rf44 ; mov rf5, rf43
xor.pushz rf22, 15 ; nop
or rf44, rf42, rf42 ; mov.ifa rf5, rf38
or rf7, rf44, rf44 ; mov r0, rf5 ; ldtmu.rf42
or.ifa rf7, rf39, rf39 ; mov rf40, rf45
or rf45, rf46, rf46 ; mov rf4, r0 ; rot.1
or rf9, rf45, rf45 ; mov r0, rf7 ; ldtmu.rf46
or rf11, rf43, rf43 ; mov.ifa rf9, rf40
or r0, rf9, rf9 ; mov rf6, r0 ; rot.1
xor.pushz rf22, 0 ; nop
or.ifa rf11, rf41, rf41 ; mov rf8, r0 ; rot.1
or rf13, rf44, rf44 ; mov r0, rf11
or rf14, rf45, rf45 ; mov.ifa rf13, rf42
or r0, rf13, rf13 ; mov rf10, r0 ; rot.15
fadd r4, rf4, rf43 ; nop
fadd r3, r4, rf10 ; mov rf12, r0 ; rot.15
fadd r2, r3, rf6 ; mov.ifa rf14, rf46
fadd r1, r2, rf12 ; mov r0, rf14
fadd r4, r1, rf8 ; nop
fadd r3, r4, rf45 ; mov rf47, r0 ; rot.15
fadd r2, r3, rf47 ; nop
nop ; fmul r1, r2, 0.125
fsub r4, rf44, r1 ; nop
add rf37, rf37, rf25 ; nop
nop ; fmul r3, 0.25, r4
min.pushc rf19, rf37 ; nop
fsub r2, rf44, r3 ; nop
b.anya L171
nop ; mov tmud, r2
add tmua, rf34, rf23 ; nop
add rf34, rf34, rf24 ; nop
L209:
add rf28, rf28, rf21 ; nop ; ldtmu.rf41
add rf16, rf16, rf32 ; nop ; ldtmu.rf42
nop ; nop ; ldtmu.rf46
min.pushc rf20, rf28 ; nop
b.anya L41
nop ; nop
nop ; nop
nop ; nop
L217:
tmuwt ; nop ; thrsw
nop ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

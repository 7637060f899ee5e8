eidx r1 ; nop ; ldunifrf.rf17
nop ; nop ; ldunifrf.rf4
nop ; nop ; ldunifrf.rf5
nop ; nop ; ldunifrf.rf6
shl rf16, rf0, -16 ; nop
nop ; nop ; ldunifrf.rf7
shl r4, r1, 2 ; nop
shr rf16, rf16, -16 ; nop
shl r2, r1, 2 ; add r3, rf7, r4
shl r4, rf16, 4 ; nop
shl r2, r4, 2 ; nop
add rf10, r3, r2 ; mov rf14, 0
min.pushc rf4, rf14 ; nop
nop ; nop ; ldunifrf.rf8
shl r2, r1, 2 ; nop
shl r4, rf16, 4 ; nop
shl r3, r4, 2 ; add r1, rf8, r2
shl rf9, rf17, 4 ; add rf11, r1, r3
and tmua, rf10, -4 ; nop
b.allna L36
and tmua, rf11, -4 ; nop
or rf13, 0, 0 ; mov rf12, 0
shl rf15, rf9, 2 ; nop
L23:
add tmua, rf10, rf15 ; nop
add tmua, rf11, rf15 ; nop
add rf14, rf14, rf9 ; nop ; ldtmu.rf12
nop ; fmul r2, rf12, rf5 ; ldtmu.rf13
nop ; fmul r3, rf13, rf6
fsub r1, r2, r3 ; fmul r2, rf12, rf6
or tmud, r1, r1 ; fmul r1, rf13, rf5
min.pushc rf4, rf14 ; nop
fadd r4, r1, r2 ; add tmua, rf10, 0
b.anya L23
add rf10, rf10, rf15 ; mov tmud, r4
add tmua, rf11, 0 ; nop
add rf11, rf11, rf15 ; nop
L36:
nop ; nop ; ldtmu.rf12
nop ; nop ; thrsw, ldtmu.rf13
tmuwt ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

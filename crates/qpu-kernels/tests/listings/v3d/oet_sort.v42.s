eidx rf12 ; nop ; ldunifrf.rf1
nop ; nop ; ldunifrf.rf4
shl r2, rf12, 3 ; nop
add tmua, rf4, r2 ; add r3, rf4, 4
shl r4, rf12, 3 ; nop ; ldtmu.rf5
add tmua, r3, r4 ; nop ; ldunifrf.rf13
or rf8, 0, 0 ; mov rf7, 0 ; ldtmu.rf6
min.pushc rf13, rf7 ; nop
b.allna L27
shl r1, rf12, 2 ; nop
or rf10, 0, 0 ; mov rf9, 0
nop ; mov rf11, 0
min rf8, rf5, rf6 ; nop
nop ; mov r0, rf8
L14:
max rf9, rf5, rf6 ; nop
or rf11, rf9, rf9 ; mov rf10, r0 ; rot.15
max r2, rf10, rf11 ; nop
xor.pushz rf12, 15 ; mov r0, r2
min.ifna rf9, rf10, rf11 ; nop
xor.pushz rf12, 0 ; nop
or rf6, rf9, rf9 ; mov r1, r0 ; rot.1
add rf7, rf7, 1 ; mov.ifna rf8, r1
min.pushc rf13, rf7 ; nop
b.anya L14
nop ; mov rf5, rf8
min rf8, rf5, rf6 ; nop
nop ; mov r0, rf8
L27:
shl r3, rf12, 3 ; nop
nop ; mov tmud, rf5
add tmua, rf4, r3 ; add r4, rf4, 4
shl r1, rf12, 3 ; nop
nop ; mov tmud, rf6
add tmua, r4, r1 ; nop ; thrsw
tmuwt ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

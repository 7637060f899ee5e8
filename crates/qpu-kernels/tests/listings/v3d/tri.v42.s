eidx r1 ; nop ; ldunifrf.rf1
nop ; nop ; ldunifrf.rf4
shl rf7, r1, 2 ; nop
add tmua, rf4, rf7 ; nop
nop ; mov rf6, 0 ; ldtmu.rf5
min.pushc rf5, 0 ; nop
b.allna L17
nop ; nop
nop ; nop
nop ; nop
L10:
add.ifa rf6, rf6, rf5 ; nop
sub.ifa rf5, rf5, 1 ; nop
min.pushc rf5, 0 ; nop
b.anya L10
nop ; nop
nop ; nop
nop ; nop
L17:
nop ; mov tmud, rf6
add tmua, rf4, rf7 ; nop ; thrsw
tmuwt ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

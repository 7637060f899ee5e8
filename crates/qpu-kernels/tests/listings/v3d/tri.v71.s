eidx rf7 ; nop ; ldunifrf.rf1
nop ; nop ; ldunifrf.rf4
shl rf8, rf7, 2 ; nop
add tmua, rf4, rf8 ; mov rf6, 0
nop ; nop ; ldtmu.rf5
min.pushc rf5, 0 ; nop
b.allna L16
nop ; nop
nop ; nop
nop ; nop
L10:
add.ifa rf6, rf6, rf5 ; sub.ifa rf5, rf5, 1
min.pushc rf5, 0 ; nop
b.anya L10
nop ; nop
nop ; nop
nop ; nop
L16:
nop ; mov tmud, rf6
add tmua, rf4, rf8 ; nop ; thrsw
tmuwt ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

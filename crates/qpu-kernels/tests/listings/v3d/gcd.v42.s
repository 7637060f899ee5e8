eidx r1 ; nop ; ldunifrf.rf1
nop ; nop ; ldunifrf.rf4
shl rf9, r1, 2 ; nop
add tmua, rf4, rf9 ; nop ; ldunifrf.rf5
add tmua, rf5, rf9 ; nop ; ldunifrf.rf6
nop ; nop ; ldtmu.rf7
nop ; nop ; ldtmu.rf8
xor.pushz rf7, rf8 ; nop
b.alla L33
nop ; nop
nop ; nop
nop ; nop
L12:
min.pushc rf7, rf8 ; nop
sub.ifa rf7, rf7, rf8 ; nop
min.pushc rf8, rf7 ; nop
sub.ifa rf8, rf8, rf7 ; nop
min.pushc rf7, rf8 ; nop
sub.ifa rf7, rf7, rf8 ; nop
min.pushc rf8, rf7 ; nop
sub.ifa rf8, rf8, rf7 ; nop
min.pushc rf7, rf8 ; nop
sub.ifa rf7, rf7, rf8 ; nop
min.pushc rf8, rf7 ; nop
sub.ifa rf8, rf8, rf7 ; nop
min.pushc rf7, rf8 ; nop
sub.ifa rf7, rf7, rf8 ; nop
min.pushc rf8, rf7 ; nop
sub.ifa rf8, rf8, rf7 ; nop
xor.pushz rf7, rf8 ; nop
b.anyna L12
nop ; nop
nop ; nop
nop ; nop
L33:
nop ; mov tmud, rf7
add tmua, rf6, rf9 ; nop ; thrsw
tmuwt ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

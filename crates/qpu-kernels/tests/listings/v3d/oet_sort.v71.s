eidx rf12 ; nop ; ldunifrf.rf1
nop ; nop ; ldunifrf.rf4
shl rf15, rf12, 3 ; nop
add tmua, rf4, rf15 ; add rf16, rf4, 4
shl rf17, rf12, 3 ; nop
add tmua, rf16, rf17 ; nop ; ldunifrf.rf14
nop ; mov rf7, 0
min.pushc rf14, rf7 ; mov rf8, 0
nop ; nop ; ldtmu.rf5
shl rf13, rf12, 2 ; nop
nop ; mov rf9, 0
b.allna L28
nop ; mov rf10, 0
nop ; mov rf11, 0
nop ; nop ; ldtmu.rf6
min rf8, rf5, rf6 ; add rf7, rf7, 1
max rf9, rf5, rf6 ; nop
L17:
rotate rf10, rf8, 1 ; mov rf11, rf9
xor.pushz rf12, 15 ; nop
max rf19, rf10, rf11 ; nop
min.ifna rf9, rf10, rf11 ; nop
xor.pushz rf12, 0 ; mov rf6, rf9
rotate rf18, rf19, 15 ; nop
min.pushc rf14, rf7 ; mov.ifna rf8, rf18
b.anya L17
nop ; mov rf5, rf8
min rf8, rf5, rf6 ; add rf7, rf7, 1
max rf9, rf5, rf6 ; nop
L28:
shl rf20, rf12, 3 ; mov tmud, rf5
add tmua, rf4, rf20 ; add rf21, rf4, 4
shl rf22, rf12, 3 ; mov tmud, rf6
add tmua, rf21, rf22 ; nop ; thrsw
tmuwt ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

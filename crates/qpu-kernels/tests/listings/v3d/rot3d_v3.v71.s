eidx rf18 ; nop ; ldunifrf.rf17
nop ; nop ; ldunifrf.rf4
shl rf16, rf3, -16 ; nop
nop ; nop ; ldunifrf.rf5
shr rf16, rf16, -16 ; nop
nop ; nop ; ldunifrf.rf6
nop ; mov rf14, 0
nop ; nop ; ldunifrf.rf7
shl rf21, rf18, 2 ; nop
shl rf23, rf16, 4 ; add rf20, rf7, rf21
min.pushc rf4, rf14 ; mov rf12, 0
nop ; nop ; ldunifrf.rf8
shl rf22, rf23, 2 ; nop
shl rf25, rf18, 2 ; add rf10, rf20, rf22
shl rf27, rf16, 4 ; add rf24, rf8, rf25
shl rf26, rf27, 2 ; nop
shl rf9, rf17, 4 ; add rf11, rf24, rf26
and tmua, rf10, -4 ; nop
shl rf19, rf18, 2 ; nop
b.allna L34
and tmua, rf11, -4 ; nop
nop ; mov rf13, 0
shl rf15, rf9, 2 ; nop
L23:
add tmua, rf10, rf15 ; add rf14, rf14, rf9
min.pushc rf4, rf14 ; add tmua, rf11, rf15
nop ; nop ; ldtmu.rf12
nop ; fmul rf29, rf12, rf5 ; ldtmu.rf13
nop ; fmul rf30, rf13, rf6
fsub rf28, rf29, rf30 ; fmul rf32, rf13, rf5
mov tmud, rf28 ; fmul rf33, rf12, rf6
b.anya L23
fadd rf31, rf32, rf33 ; add tmua, rf10, 0
add rf10, rf10, rf15 ; mov tmud, rf31
add tmua, rf11, 0 ; add rf11, rf11, rf15
L34:
nop ; nop ; ldtmu.rf12
nop ; nop ; thrsw, ldtmu.rf13
tmuwt ; nop ; thrsw
nop ; nop
nop ; nop ; thrsw
nop ; nop
nop ; nop

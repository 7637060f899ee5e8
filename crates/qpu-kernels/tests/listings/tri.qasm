mov ra0, unif
ldi r0, 0x00001a00
add ra3, ra0, r0
mov ra1, unif
shl r1, ra0, 7
ldi r0, 0x80904000
add rb0, r1, r0; mov ra2, unif
shl r0, elem_num, 2
add tmu1_s, ra2, r0; v8min rb1, 0, 0
nop; ldtmu1
mov r0, r4
min.setf -, r0, 0
brr.allnc -, r:L24
nop
nop
nop
min.setf -, r0, 0
:L17
add.ifc rb1, rb1, r0
sub.ifc r0, r0, 1
min.setf -, r0, 0
brr.anyc -, r:L17
min.setf -, r0, 0
nop
nop
:L24
mov -, vw_wait
ldi r0, 0x00001a00
sub.setf -, ra3, r0; mov vw_setup, ra3
mov vpm, rb1
mov vw_setup, rb0
brr.allnz -, r:L48
mov vw_addr, ra2
mov -, vw_wait
mov -, vw_wait
sub.setf r0, ra1, 1
brr.allz -, r:L44
nop
nop
nop
:L38
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L38
nop
nop
nop
:L44
ldi host_int, 1
nop; thrend
nop
nop
:L48
srel -, 15
nop; thrend
nop
nop

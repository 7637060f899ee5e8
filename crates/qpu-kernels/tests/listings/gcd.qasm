mov ra0, unif
mov ra1, unif
ldi r0, 0x00001a00
add rb1, ra0, r0; mov ra2, unif
mov ra3, unif
shl r1, ra0, 7
ldi r0, 0x80904000
mov rb0, unif
add rb2, r1, r0
shl r0, elem_num, 2
add tmu1_s, ra2, r0
nop; ldtmu1
shl r0, elem_num, 2; mov r1, r4
add tmu1_s, ra3, r0
nop; ldtmu1
mov r0, r4
sub.setf -, r1, r0
brr.allz -, r:L42
nop
nop
nop
min.setf -, r1, r0
sub.ifc r1, r1, r0
min.setf -, r0, r1
:L24
sub.ifc r0, r0, r1
min.setf -, r1, r0
sub.ifc r1, r1, r0
min.setf -, r0, r1
sub.ifc r0, r0, r1
min.setf -, r1, r0
sub.ifc r1, r1, r0
min.setf -, r0, r1
sub.ifc r0, r0, r1
min.setf -, r1, r0
sub.ifc r1, r1, r0
min.setf -, r0, r1
sub.ifc r0, r0, r1
sub.setf -, r1, r0
brr.anynz -, r:L24
min.setf -, r1, r0
sub.ifc r1, r1, r0
min.setf -, r0, r1
:L42
mov -, vw_wait
ldi r0, 0x00001a00
sub.setf -, rb1, r0; mov vw_setup, rb1
mov vpm, r1
mov vw_setup, rb2
brr.allnz -, r:L66
mov vw_addr, rb0
mov -, vw_wait
mov -, vw_wait
sub.setf r0, ra1, 1
brr.allz -, r:L62
nop
nop
nop
:L56
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L56
nop
nop
nop
:L62
ldi host_int, 1
nop; thrend
nop
nop
:L66
srel -, 15
nop; thrend
nop
nop

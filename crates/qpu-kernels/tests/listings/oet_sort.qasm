mov ra0, unif
ldi r0, 0x00001a00
add ra3, ra0, r0
mov ra1, unif
shl r1, ra0, 7
ldi r0, 0x80904000
add rb0, r1, r0; mov ra2, unif
mov ra4, ra1
shl r0, elem_num, 3
add tmu1_s, ra2, r0; v8min ra0, 0, 0
nop; ldtmu1
add r1, ra2, 4; mov rb1, r4
shl r0, elem_num, 3
add tmu1_s, r1, r0
ldi r0, 16
min.setf -, r0, ra0; ldtmu1
brr.allnc -, r:L35
mov r3, r4
nop
nop
ldi rb2, 16
:L21
min r2, rb1, r3
max r3, rb1, r3; mov r0, r2
sub.setf -, elem_num, 15
mov r0, r3; mov r1, r0 >> 15
min.ifnz r3, r1, r0
max r1, r1, r0
mov.setf -, elem_num
add ra0, ra0, 1
nop; mov.ifnz r2, r1 >> 1
min.setf -, rb2, ra0; mov rb1, r2
brr.anyc -, r:L21
nop
nop
nop
:L35
ldi r0, 0x0770c000
add rb2, rb0, r0
ldi r0, 0x0770c000
add ra0, rb0, r0
mov -, vw_wait
mov vw_setup, ra3
ldi r0, 0x00001a00
sub.setf -, ra3, r0; mov vpm, rb1
ldi rb3, 0xc0000004
mov vw_setup, rb2
mov vw_setup, rb3
mov vw_addr, ra2
mov -, vw_wait
mov -, vw_wait
mov vw_setup, ra3
mov vpm, r3
ldi ra1, 0xc0000004
mov vw_setup, ra0
mov vw_setup, ra1
brr.allnz -, r:L73
add vw_addr, ra2, 4
mov -, vw_wait
mov -, vw_wait
sub.setf r0, ra4, 1
brr.allz -, r:L69
nop
nop
nop
:L63
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L63
nop
nop
nop
:L69
ldi host_int, 1
nop; thrend
nop
nop
:L73
srel -, 15
nop; thrend
nop
nop

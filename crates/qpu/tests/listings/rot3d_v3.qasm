mov rb0, unif
mov ra1, unif
mov ra2, unif
sub ra0, ra1, 1
mov ra3, unif
clz ra0, ra0; mov rb1, unif
ldi r0, 0x00001a00
add ra0, ra0, -16
mov rb2, unif; mov ra8, rb0
add ra0, ra0, -10
mov rb3, unif; mov ra11, ra1
shl ra4, rb0, ra0
mov ra10, ra2; mov rb4, rb1
add ra5, ra4, r0
shl r1, ra4, 7
ldi r0, 0x80904000
add r0, r1, r0
shl r0, elem_num, 2
add r1, rb2, r0
shl r0, ra8, 4
shl r0, r0, 2
add ra6, r1, r0; v8min r2, 0, 0
shl r0, elem_num, 2
add r1, rb3, r0; mov tmu0_s, ra6
shl r0, ra8, 4
shl r0, r0, 2; mov ra8, ra6
add ra2, r1, r0; v8min rb0, 0, 0
shl ra7, ra11, 4
ldi r0, 64
shl rb1, ra7, 2
mov rb6, ra2; mov tmu0_s, ra2
sub r1, rb1, r0
ldi r0, 0xc0000000
sub r0, ra8, rb6; mov rb5, r0
shr.setf -, r1, 16
add.ifz rb5, rb5, r1
sub r1, 0, r0; v8min rb0, 0, 0
sub ra0, ra0, 1
max r0, r0, r1; v8min ra1, 0, 0
shl r1, rb1, ra0; mov.ifz r2, ra0
sub.setf -, r0, r1; mov -, vw_wait
or.ifn r2, 0, 0
min.setf -, ra10, rb0
shl r3, 1, ra0
ldi r1, 0x00000a00
shl r0, r3, 12
add rb2, r0, r1
shl rb3, 1, r2
add rb2, rb2, ra4
mov r1, rb3
add rb2, rb2, r1
shl r1, ra4, 7
ldi r0, 0x80104000
add rb7, r1, r0
add r0, ra4, r3
brr.allnc -, r:L87
shl r1, r0, 7
ldi r0, 0x80104000
add ra9, r1, r0
shl ra4, ra7, r2
shl rb1, ra7, 2
:L61
add ra1, rb0, ra4
mov r0, ra10; mov ra0, rb3
min ra1, ra1, r0; v8min r3, 0, 0
:L64
add rb0, rb0, ra7; ldtmu0
add r3, r3, rb1; fmul r1, r4, ra3
add tmu0_s, ra6, r3; fmul r2, r4, rb4
min.setf -, ra1, rb0; ldtmu0
add tmu0_s, ra2, r3; fmul r0, r4, rb4
sub vw_setup, rb2, ra0
brr.anyc -, r:L64
fsub vpm, r1, r0; fmul r0, r4, ra3
fadd vpm, r0, r2
sub ra0, ra0, 1
nop
sub r0, rb3, ra0
shl r0, r0, 23
min.setf -, ra10, rb0
add vw_setup, rb7, r0
add ra6, ra6, r3; mov vw_setup, rb5
mov vw_addr, ra8
add ra2, ra2, r3; mov -, vw_wait
add vw_setup, ra9, r0
brr.anyc -, r:L61
mov vw_setup, rb5; mov ra8, ra6
mov vw_addr, rb6
mov rb6, ra2; mov -, vw_wait
:L87
ldi r0, 0x00001a00
sub.setf -, ra5, r0; mov -, vw_wait; ldtmu0
brr.allnz -, r:L108
mov rb0, r4; ldtmu0
mov ra1, r4
nop
sub.setf r0, ra11, 1
brr.allz -, r:L104
nop
nop
nop
:L98
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L98
nop
nop
nop
:L104
ldi host_int, 1
nop; thrend
nop
nop
:L108
srel -, 15
nop; thrend
nop
nop

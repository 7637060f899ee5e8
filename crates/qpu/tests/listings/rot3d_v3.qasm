mov rb0, unif
mov ra1, unif
mov ra2, unif
sub ra0, ra1, 1
mov ra3, unif
clz ra0, ra0; mov rb1, unif
ldi r0, 0x00001a00
add ra0, ra0, -16
mov rb2, unif; mov ra10, rb0
add ra0, ra0, -10
mov rb3, unif
shl ra4, rb0, ra0
mov ra11, ra1; mov rb4, rb1
add r0, ra4, r0; mov ra1, rb3
shl r1, ra4, 7
ldi r0, 0x80904000
add r0, r1, r0; mov ra9, ra2
shl r0, elem_num, 2
add r1, rb2, r0
shl r0, ra10, 4
shl r0, r0, 2
add rb3, r1, r0; v8min r2, 0, 0
shl r0, elem_num, 2
add r1, ra1, r0; v8min rb2, 0, 0
shl r0, ra10, 4
shl ra5, ra11, 4
shl r0, r0, 2
add rb1, r1, r0; mov tmu0_s, rb3
shl rb2, ra5, 2
ldi r0, 64
sub r1, rb2, r0
ldi r0, 0xc0000000
mov rb6, r0; mov ra7, rb1
mov rb7, rb3
shr.setf -, r1, 16
add.ifz rb6, rb6, r1
sub r0, rb7, ra7
sub r1, 0, r0; v8min rb0, 0, 0
sub ra0, ra0, 1
max r0, r0, r1; mov tmu0_s, rb1
shl r1, rb2, ra0; mov.ifz r2, ra0
sub.setf -, r0, r1; v8min ra2, 0, 0
or.ifn r2, 0, 0
min.setf -, ra9, rb0
shl r3, 1, ra0
ldi r1, 0x00000a00
shl r0, r3, 12
add rb5, r0, r1; mov -, vw_wait
shl r1, ra4, 7
ldi r0, 0x80104000
add rb8, r1, r0
add r0, ra4, r3
shl r1, r0, 7
shl ra6, 1, r2
add rb5, rb5, ra4
brr.allnc -, r:L94
ldi r0, 0x80104000
add rb5, rb5, ra6
add ra8, r1, r0
shl ra4, ra5, r2
shl ra0, ra5, 2
:L61
add ra1, rb0, ra4
mov r2, ra9
min ra1, ra1, r2
mov r3, ra6
:L65
add rb0, rb0, ra5
add tmu0_s, rb3, ra0
min.setf -, ra1, rb0
add tmu0_s, rb1, ra0
mov r0, ra3; mov r1, rb4; ldtmu0
sub vw_setup, rb5, r3; mov ra2, r4
add rb3, rb3, ra0; ldtmu0
mov rb2, r4; fmul r2, ra2, r0
add rb1, rb1, ra0
nop; fmul r0, rb2, r1
fsub vpm, r2, r0; fmul r1, rb2, ra3
brr.anyc -, r:L65
nop; fmul r0, ra2, rb4
fadd vpm, r1, r0
sub r3, r3, 1
sub r0, ra6, r3
shl r0, r0, 23
add vw_setup, rb8, r0
min.setf -, ra9, rb0
mov vw_setup, rb6
mov vw_addr, rb7
mov -, vw_wait
add vw_setup, ra8, r0
mov vw_setup, rb6
mov vw_addr, ra7
brr.anyc -, r:L61
mov rb7, rb3
mov ra7, rb1
mov -, vw_wait
:L94
mov.setf -, ra10; mov -, vw_wait; ldtmu0
brr.allnz -, r:L114
mov ra2, r4
nop; ldtmu0
mov rb2, r4
sub.setf r0, ra11, 1
brr.allz -, r:L110
nop
nop
nop
:L104
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L104
nop
nop
nop
:L110
ldi host_int, 1
nop; thrend
nop
nop
:L114
srel -, 15
nop; thrend
nop
nop

mov rb0, unif
mov ra1, unif
mov ra2, unif
sub ra0, ra1, 1
mov ra3, unif
clz ra0, ra0; mov rb1, unif
ldi r0, 0x00001a00
add ra0, ra0, -16
mov rb2, unif; mov ra10, ra2
add ra0, ra0, -10
mov rb3, unif; mov ra7, rb0
shl ra4, rb0, ra0
mov ra11, ra1
add ra5, ra4, r0
shl r1, ra4, 7
ldi r0, 0x80904000
add r0, r1, r0; mov ra2, rb1
shl r0, elem_num, 2
add r1, rb2, r0
shl r0, ra7, 4
shl r0, r0, 2
add rb2, r1, r0; v8min r2, 0, 0
shl r0, elem_num, 2
add r1, rb3, r0
shl r0, ra7, 4
shl r0, r0, 2
add rb1, r1, r0; mov ra8, rb2
shl ra6, ra11, 4
ldi r0, 64
shl rb3, ra6, 2
mov rb5, rb1
sub r1, rb3, r0
ldi r0, 0xc0000000
sub r0, ra8, rb5; mov rb4, r0
shr.setf -, r1, 16
add.ifz rb4, rb4, r1
sub r1, 0, r0; v8min rb0, 0, 0
sub ra0, ra0, 1
max r0, r0, r1; mov tmu0_s, rb2
shl r1, rb3, ra0; mov.ifz r2, ra0
sub.setf -, r0, r1; v8min rb0, 0, 0
or.ifn r2, 0, 0; v8min rb0, 0, 0
mov tmu0_s, rb1
min.setf -, ra10, rb0
shl r3, 1, ra0
ldi r1, 0x00000a00
shl r0, r3, 12
add rb3, r0, r1; mov -, vw_wait
shl r1, ra4, 7
ldi r0, 0x80104000
add rb6, r1, r0
add r0, ra4, r3
shl r1, r0, 7
shl ra7, 1, r2
add rb3, rb3, ra4
brr.allnc -, r:L89
ldi r0, 0x80104000
add rb3, rb3, ra7
add ra9, r1, r0
shl ra4, ra6, r2
shl ra1, ra6, 2
:L61
add ra0, rb0, ra4
mov r0, ra10
min ra0, ra0, r0
mov r3, ra7
:L65
add rb0, rb0, ra6; ldtmu0
add rb2, rb2, ra1
add rb1, rb1, ra1
min.setf -, ra0, rb0
mov tmu0_s, rb2; fmul r1, r4, ra3
mov tmu0_s, rb1; fmul r2, r4, ra2
sub vw_setup, rb3, r3; ldtmu0
brr.anyc -, r:L65
sub r3, r3, 1; fmul r0, r4, ra2
fsub vpm, r1, r0; fmul r0, r4, ra3
fadd vpm, r0, r2
sub r0, ra7, r3
shl r0, r0, 23
add vw_setup, rb6, r0
min.setf -, ra10, rb0
mov vw_setup, rb4
mov vw_addr, ra8; mov ra8, rb2
mov -, vw_wait
add vw_setup, ra9, r0
mov vw_setup, rb4
brr.anyc -, r:L61
mov vw_addr, rb5
mov rb5, rb1
mov -, vw_wait
:L89
ldi r0, 0x00001a00
sub.setf -, ra5, r0; mov -, vw_wait; ldtmu0
brr.allnz -, r:L110
mov rb0, r4; ldtmu0
mov rb0, r4
nop
sub.setf r0, ra11, 1
brr.allz -, r:L106
nop
nop
nop
:L100
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L100
nop
nop
nop
:L106
ldi host_int, 1
nop; thrend
nop
nop
:L110
srel -, 15
nop; thrend
nop
nop

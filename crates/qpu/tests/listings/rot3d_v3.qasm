mov rb0, unif
mov ra1, unif
mov ra2, unif
sub ra0, ra1, 1
mov ra3, unif
clz ra0, ra0; mov rb1, unif
ldi r0, 0x00001a00
add ra0, ra0, -16
mov rb2, unif; mov ra6, rb0
add ra0, ra0, -10
mov rb3, unif; mov ra10, ra1
shl ra4, rb0, ra0
mov ra9, ra2; mov rb4, rb1
add ra5, ra4, r0
shl r1, ra4, 7
ldi r0, 0x80904000
add r0, r1, r0
shl r0, elem_num, 2
add r1, rb2, r0
shl r0, ra6, 4
shl r0, r0, 2
add rb2, r1, r0; v8min r2, 0, 0
shl r0, elem_num, 2
add r1, rb3, r0
shl r0, ra6, 4
shl ra2, ra10, 4
shl r0, r0, 2
add rb1, r1, r0; mov ra7, rb2
shl rb3, ra2, 2
ldi r0, 64
sub r1, rb3, r0
ldi r0, 0xc0000000
shr.setf -, r1, 16; mov rb5, r0
mov rb6, rb1
add.ifz rb5, rb5, r1
sub r0, ra7, rb6
sub r1, 0, r0; v8min rb0, 0, 0
sub ra0, ra0, 1
max r0, r0, r1; v8min rb0, 0, 0
shl r1, rb3, ra0; mov.ifz r2, ra0
sub.setf -, r0, r1; mov tmu0_s, rb2
or.ifn r2, 0, 0; v8min ra1, 0, 0
min.setf -, ra9, rb0
shl r3, 1, ra0
ldi r1, 0x00000a00
shl r0, r3, 12
add rb3, r0, r1; mov tmu0_s, rb1
shl r1, ra4, 7
ldi r0, 0x80104000
add rb7, r1, r0; mov -, vw_wait
add r0, ra4, r3
shl r1, r0, 7
shl ra6, 1, r2
add rb3, rb3, ra4
brr.allnc -, r:L90
ldi r0, 0x80104000
add rb3, rb3, ra6
add ra8, r1, r0
shl ra4, ra2, r2
shl ra0, ra2, 2
:L60
add ra1, rb0, ra4
mov r0, ra9
min ra1, ra1, r0
mov r3, ra6
:L64
add rb0, rb0, ra2
add tmu0_s, rb2, ra0
min.setf -, ra1, rb0
add tmu0_s, rb1, ra0
sub vw_setup, rb3, r3; ldtmu0
sub r3, r3, 1; fmul r1, r4, ra3
nop; fmul r2, r4, rb4; ldtmu0
nop; fmul r0, r4, rb4
fsub vpm, r1, r0; fmul r0, r4, ra3
brr.anyc -, r:L64
fadd vpm, r0, r2
add rb2, rb2, ra0
add rb1, rb1, ra0
sub r0, ra6, r3
shl r0, r0, 23
add vw_setup, rb7, r0
min.setf -, ra9, rb0
mov vw_setup, rb5
mov vw_addr, ra7; mov ra7, rb2
mov -, vw_wait
add vw_setup, ra8, r0
mov vw_setup, rb5
brr.anyc -, r:L60
mov vw_addr, rb6
mov rb6, rb1
mov -, vw_wait
:L90
ldi r0, 0x00001a00
sub.setf -, ra5, r0; mov -, vw_wait; ldtmu0
brr.allnz -, r:L111
mov rb0, r4; ldtmu0
mov ra1, r4
nop
sub.setf r0, ra10, 1
brr.allz -, r:L107
nop
nop
nop
:L101
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L101
nop
nop
nop
:L107
ldi host_int, 1
nop; thrend
nop
nop
:L111
srel -, 15
nop; thrend
nop
nop

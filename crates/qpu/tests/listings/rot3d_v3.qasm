mov rb0, unif
mov ra1, unif
mov ra2, unif
sub ra0, ra1, 1
mov ra3, unif
clz ra0, ra0; mov rb1, unif
ldi r0, 0x00001a00
add ra0, ra0, -16
mov rb2, unif; mov ra11, rb0
add ra0, ra0, -10
mov rb3, unif
shl ra4, rb0, ra0
mov ra5, ra3; mov rb0, rb3
add r0, ra4, r0; mov ra3, rb1
shl r1, ra4, 7
ldi r0, 0x80904000
add r0, r1, r0; mov ra12, ra1
mov ra10, ra2
shl r0, elem_num, 2
add r1, rb2, r0
shl r0, ra11, 4
shl r0, r0, 2
add rb3, r1, r0; v8min r2, 0, 0
shl r0, elem_num, 2
add r1, rb0, r0
shl r0, ra11, 4
shl ra7, ra12, 4
shl r0, r0, 2
or rb2, 0, 0; v8min ra2, 0, 0
add rb1, r1, r0; mov ra8, rb3
shl rb2, ra7, 2
ldi r0, 64
sub r1, rb2, r0
ldi r0, 0xc0000000
shr.setf -, r1, 16; mov rb5, r0
mov rb6, rb1
add.ifz rb5, rb5, r1
sub r0, ra8, rb6
sub r1, 0, r0; v8min rb0, 0, 0
sub ra0, ra0, 1
max r0, r0, r1; mov tmu0_s, rb3
shl r1, rb2, ra0; mov.ifz r2, ra0
sub.setf -, r0, r1; mov tmu0_s, rb1
or.ifn r2, 0, 0
min.setf -, ra10, rb0
ldi r0, 0x00001a00
add ra6, ra4, r0; mov -, vw_wait
shl rb7, 1, ra0
shl r1, ra4, 7
ldi r0, 0x80104000
add rb8, r1, r0
add ra0, ra4, rb7
ldi r0, 0x00001a00
shl rb4, 1, r2
add ra4, ra0, r0
add ra6, ra6, rb4; mov r3, rb4
shl r1, ra0, 7
brr.allnc -, r:L97
ldi r0, 0x80104000
add ra4, ra4, r3
add rb7, r1, r0
shl ra9, ra7, r2
shl ra0, ra7, 2
:L63
add ra1, rb0, ra9
mov r2, ra10; mov r3, rb4
min ra1, ra1, r2
:L66
add rb0, rb0, ra7
add tmu0_s, rb3, ra0
min.setf -, ra1, rb0
add tmu0_s, rb1, ra0
mov r0, ra5; ldtmu0
sub vw_setup, ra6, r3; mov ra2, r4
add rb3, rb3, ra0; ldtmu0
mov rb2, r4; fmul r1, ra2, r0
add rb1, rb1, ra0
nop; fmul r0, rb2, ra3
fsub vpm, r1, r0; fmul r2, rb2, ra5
mov r1, ra3
nop; fmul r0, ra2, r1
brr.anyc -, r:L66
sub vw_setup, ra4, r3
fadd vpm, r2, r0
sub r3, r3, 1
sub r0, rb4, r3
shl r0, r0, 23
add vw_setup, rb8, r0
min.setf -, ra10, rb0
mov vw_setup, rb5
mov vw_addr, ra8
mov -, vw_wait
add vw_setup, rb7, r0
mov vw_setup, rb5
mov vw_addr, rb6
brr.anyc -, r:L63
mov ra8, rb3
mov rb6, rb1
mov -, vw_wait
:L97
mov.setf -, ra11; mov -, vw_wait; ldtmu0
brr.allnz -, r:L117
mov ra2, r4
nop; ldtmu0
mov rb2, r4
sub.setf r0, ra12, 1
brr.allz -, r:L113
nop
nop
nop
:L107
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L107
nop
nop
nop
:L113
ldi host_int, 1
nop; thrend
nop
nop
:L117
srel -, 15
nop; thrend
nop
nop

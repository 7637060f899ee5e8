mov rb0, unif
mov ra1, unif
mov ra2, unif
sub ra0, ra1, 1
mov ra3, unif; mov r3, ra2
clz ra0, ra0; mov rb1, unif
ldi r0, 0x00001a00
add ra0, ra0, -16
mov rb2, unif; mov ra6, rb0
add ra0, ra0, -10
mov rb3, unif; mov ra12, ra1
shl ra4, rb0, ra0
mov rb5, ra3
add ra5, ra4, r0; mov rb4, rb1
shl r1, ra4, 7
ldi r0, 0x80904000
add r0, r1, r0
shl r0, elem_num, 2
add r1, rb2, r0
shl r0, ra6, 4
shl r0, r0, 2
add ra3, r1, r0; v8min rb0, 0, 0
shl r0, elem_num, 2
add r1, rb3, r0; mov ra10, ra3
shl r0, ra6, 4
shl r0, r0, 2; mov tmu0_s, ra3
add ra1, r1, r0; v8min rb0, 0, 0
shl r2, ra12, 4
shl rb0, r2, 2; mov tmu0_s, ra1
ldi r0, 64
sub r1, rb0, r0; mov rb7, ra1
ldi r0, 0xc0000000
min ra0, ra0, 2; mov rb6, r0
shr.setf -, r1, 16
shl r0, 1, ra0
add.ifz rb6, rb6, r1
sub r0, ra10, rb7
sub r1, 0, r0; v8min ra2, 0, 0
max r0, r0, r1; v8min rb1, 0, 0
shl r1, rb0, ra0; mov.ifz ra2, ra0
sub.setf -, r0, r1; mov -, vw_wait
or.ifn ra2, 0, 0; v8min rb3, 0, 0
min.setf -, r3, rb1
shl r0, 1, ra2
ldi r0, 0x00001a00
add ra9, ra4, r0
shl r1, ra4, 7
ldi r0, 0x80104000
add ra8, r1, r0
brr.allnc -, r:L118
or ra4, 0, 0
or ra7, 0, 0
or ra6, 0, 0
shl ra11, r2, ra2
shl rb2, r2, 2
:L55
add ra2, rb1, ra11; ldtmu0
add rb1, rb1, r2
min ra2, ra2, r3; fmul r1, r4, rb5
add ra3, ra3, rb2
add ra1, ra1, rb2
min.setf -, ra2, rb1
mov tmu0_s, ra3; fmul ra0, r4, rb4
mov tmu0_s, ra1
mov vw_setup, ra9; ldtmu0
nop; fmul r0, r4, rb4
brr.allnc -, r:L101
fsub vpm, r1, r0; fmul r0, r4, rb5
fadd ra4, r0, ra0
or ra0, 1, 1
add ra3, ra3, rb2; ldtmu0
add ra1, ra1, rb2
add rb1, rb1, r2; mov tmu0_s, ra3
mov tmu0_s, ra1; fmul r1, r4, rb5
min.setf -, ra2, rb1
nop; fmul ra0, r4, rb4; ldtmu0
nop; fmul r0, r4, rb4
brr.allnc -, r:L101
fsub vpm, r1, r0; fmul r0, r4, rb5
fadd ra7, r0, ra0
or ra0, 2, 2
add ra3, ra3, rb2; ldtmu0
add rb1, rb1, r2
add ra1, ra1, rb2
mov tmu0_s, ra3; fmul r1, r4, rb5
min.setf -, ra2, rb1
mov tmu0_s, ra1; fmul rb0, r4, rb4
nop; ldtmu0
nop; fmul r0, r4, rb4
brr.allnc -, r:L101
fsub vpm, r1, r0; fmul r0, r4, rb5
fadd ra6, r0, rb0
or ra0, 3, 3
add ra3, ra3, rb2; ldtmu0
add ra1, ra1, rb2
mov tmu0_s, ra3; fmul r1, r4, rb5
mov tmu0_s, ra1; fmul rb0, r4, rb4
add rb1, rb1, r2; ldtmu0
nop; fmul r0, r4, rb4
fsub vpm, r1, r0; fmul r0, r4, rb5
fadd rb3, r0, rb0
or ra0, 4, 4
:L101
nop
shl rb0, ra0, 23
min.setf -, r3, rb1
add vw_setup, ra8, rb0
mov vw_setup, rb6
mov vw_addr, ra10
mov -, vw_wait; mov ra10, ra3
mov vw_setup, ra9
mov vpm, ra4
mov vpm, ra7
mov vpm, ra6
mov vpm, rb3
add vw_setup, ra8, rb0
brr.anyc -, r:L55
mov vw_setup, rb6
mov vw_addr, rb7
mov rb7, ra1; mov -, vw_wait
:L118
ldi r0, 0x00001a00
sub.setf -, ra5, r0; mov -, vw_wait; ldtmu0
brr.allnz -, r:L139
mov rb0, r4; ldtmu0
mov rb0, r4
nop
sub.setf r0, ra12, 1
brr.allz -, r:L135
nop
nop
nop
:L129
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L129
nop
nop
nop
:L135
ldi host_int, 1
nop; thrend
nop
nop
:L139
srel -, 15
nop; thrend
nop
nop

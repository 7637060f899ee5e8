mov rb0, unif
mov ra1, unif
mov rb2, unif
sub ra5, ra1, 1
mov rb3, unif; mov ra29, ra1
clz ra5, ra5; mov rb1, unif
mov ra3, unif; mov rb4, rb0
add ra5, ra5, -16
mov ra2, unif
add ra5, ra5, -10
ldi r1, 0x00001a00
shl ra4, rb0, ra5
ldi r0, 0x80904000
shl ra0, ra4, 7
add ra1, ra4, r1
add r0, ra0, r0; mov ra19, rb2
mov ra30, rb3; mov rb19, ra2
mov ra20, rb1
mov ra15, ra3
ldi r2, 24
shr r1, ra20, r2; mul24 ra0, ra20, rb4
shr r0, rb4, r2; mul24 rb0, r1, rb4
or rb1, 0, 0; mul24 r0, ra20, r0
add rb0, rb0, r0; mov ra11, ra19
mov rb12, rb4; mov ra10, ra19
shl rb0, rb0, r2; mov ra9, ra19
or ra6, 0, 0; v8min rb6, 0, 0
add r0, ra0, rb0
add r0, r0, elem_num; v8min rb8, 0, 0
shl rb1, r0, 2
mov r0, rb12
min.setf -, rb19, r0
shl rb0, ra20, 2
or ra3, 0, 0; v8min rb5, 0, 0
or rb7, 0, 0; v8min ra2, 0, 0
brr.allnc -, r:L217
or ra8, 0, 0
add ra19, ra19, rb1
add ra30, ra30, rb0
ldi ra17, 24
ldi rb3, 64
shr rb0, 0, ra17; mov r0, ra17
shr rb1, 1, ra17; mov r2, ra17
shr ra28, ra20, r0; mul24 rb15, rb0, ra20
ldi rb4, 0x00001a00
shl rb5, ra4, 7
ldi ra0, 0x80104000
shr rb2, 2, ra17
shr rb0, ra29, r2; mov r1, ra29
sub ra23, rb3, rb3; mov r3, ra29
nop; mul24 ra27, 0, ra20
nop; mul24 ra26, 1, ra20
nop; mul24 ra25, 2, ra20
nop; mul24 rb18, ra20, r1
nop; mul24 ra24, 0, ra28
ldi ra13, 16
ldi rb17, 0xc0000000
shl r0, 1, ra5
nop; mul24 rb14, rb1, ra20
nop; mul24 ra22, 1, ra28
add ra18, ra4, rb4
nop; mul24 ra21, rb2, ra20
add rb11, rb5, ra0
nop; mul24 rb13, 2, ra28
nop; mul24 ra31, ra28, r3
nop; mul24 rb16, ra20, rb0
:L66
add r0, rb15, ra24
shl r0, r0, ra17; v8min ra12, 0, 0
add ra0, ra27, r0; v8min rb4, 0, 0
add rb5, rb14, ra22
add rb2, rb15, ra24
shl rb0, ra0, 2
shl rb5, rb5, ra17
add rb1, ra21, rb13
shl rb2, rb2, ra17
add tmu0_s, ra19, rb0
add ra0, ra26, rb5
add rb0, rb14, ra22
shl rb1, rb1, ra17
add ra4, ra27, rb2
shl r2, ra0, 2
shr r0, rb12, ra17
shl rb0, rb0, ra17
add ra0, ra25, rb1
shl r1, ra4, 2
mov ra16, rb17; mul24 rb2, r0, ra20
add ra4, ra26, rb0
shl r0, ra0, 2
add tmu0_s, ra19, r2; v8min ra6, 0, 0
add tmu0_s, ra19, r0; v8min ra3, 0, 0
shl r2, ra4, 2
add r0, ra19, r2; mov -, vw_wait; ldtmu0
add ra10, r0, rb3; mov r0, ra23
shr.setf -, ra23, 16; mov rb6, r4
mov.ifz ra12, ra5
add.ifz ra16, ra16, r0
min.setf -, ra15, rb4
nop; mul24 ra7, rb12, ra28
add rb1, ra21, rb13
add rb0, rb2, ra7
add ra0, ra19, r1
nop; mul24 ra8, rb12, ra20
shl rb1, rb1, ra17
shl rb0, rb0, ra17
add ra11, ra0, rb3
add r1, ra25, rb1
add ra0, ra8, rb0
shl rb0, r1, 2; mov tmu0_s, ra11
shl r3, ra0, 2
add ra0, ra19, rb0; ldtmu0
mov rb5, r4; mov tmu0_s, ra10
add ra7, ra30, r3; ldtmu0
add ra9, ra0, rb3
brr.allnc -, r:L209
or ra2, 0, 0; mov rb10, ra7
mov ra8, r4; mov tmu0_s, ra9
shl rb9, 1, ra12
mov r1, ra12
shl ra14, ra13, r1
nop
:L120
add ra12, rb4, ra14
mov r0, ra15; mov ra4, rb9
min ra12, ra12, r0
mov vw_setup, ra18
mov rb1, ra6; mov ra6, rb6
mov rb8, ra3; mov ra3, rb5
mov rb7, ra2
mov r0, ra6; mov r1, rb8
mov ra2, ra8
mov r3, ra3; mov rb0, r0 >> 1
add ra11, ra11, rb3
mov r2, ra2; mov r0, rb1
mov tmu0_s, ra11; mov rb1, r3 >> 1
mov.setf -, elem_num; mov rb2, r2 >> 1
mov r2, rb7; ldtmu0
mov r1, ra6; mov.ifz rb1, r1 >> 1
add ra10, ra10, rb3; mov rb6, r4
mov r0, ra3; mov.ifz rb0, r0 >> 1
mov tmu0_s, ra10; mov.ifz rb2, r2 >> 1
mov r3, rb6; ldtmu0
add ra9, ra9, rb3; mov rb5, r4
nop; mov r2, r1 >> 15
sub.setf -, elem_num, 15
mov tmu0_s, ra9; mov.ifz r2, r3 >> 15
fadd r3, rb0, ra6; ldtmu0
fadd r0, r3, r2; mov ra0, r0 >> 15
mov r1, rb5; mov ra8, r4
fadd rb0, r0, rb1; mov r2, ra2
mov r1, ra3; mov.ifz ra0, r1 >> 15
mov r3, ra8; mov r0, r2 >> 15
add rb4, rb4, ra13
nop; mov.ifz r0, r3 >> 15
min.setf -, ra12, rb4; mov r3, r0
fadd r2, rb0, ra0
brr.allnc -, r:L195
fadd r2, r2, rb2; mov ra0, ra2
add ra7, ra7, rb3; mov r0, r2
sub ra4, ra4, 1
:L158
fadd r0, r0, ra0
mov rb1, ra6; mov ra6, rb6
fadd r0, r0, r3; mov rb8, ra3
mov r0, ra6; fmul r2, r0, 0.125
fsub r2, r1, r2; mov rb7, ra2
mov ra2, ra8; fmul r2, 0.25, r2
fsub vpm, r1, r2; mov ra3, rb5
mov r2, ra2; mov rb0, r0 >> 1
add ra11, ra11, rb3
mov r3, ra3; mov r0, rb1
mov tmu0_s, ra11; mov r1, rb8
mov.setf -, elem_num; mov rb1, r3 >> 1
nop; mov rb2, r2 >> 1
mov r2, rb7; ldtmu0
mov r1, ra6; mov.ifz rb1, r1 >> 1
add ra10, ra10, rb3; mov rb6, r4
mov r0, ra3; mov.ifz rb0, r0 >> 1
mov tmu0_s, ra10; mov.ifz rb2, r2 >> 1
mov r3, rb6; ldtmu0
add ra9, ra9, rb3; mov rb5, r4
nop; mov r2, r1 >> 15
sub.setf -, elem_num, 15
mov tmu0_s, ra9; mov.ifz r2, r3 >> 15
fadd r3, rb0, ra6; ldtmu0
fadd r0, r3, r2; mov ra0, r0 >> 15
mov r1, rb5; mov ra8, r4
fadd rb0, r0, rb1; mov r2, ra2
mov r1, ra3; mov.ifz ra0, r1 >> 15
mov r3, ra8; mov r0, r2 >> 15
add rb4, rb4, ra13
nop; mov.ifz r0, r3 >> 15
min.setf -, ra12, rb4; mov r3, r0
fadd r2, rb0, ra0
brr.anyc -, r:L158
fadd r2, r2, rb2; mov ra0, ra2
add ra7, ra7, rb3; mov r0, r2
sub ra4, ra4, 1
:L195
fadd r0, r0, ra0
fadd r0, r0, r3
nop; fmul r2, r0, 0.125
min.setf -, ra15, rb4
fsub r2, r1, r2
sub r0, rb9, ra4
nop; fmul r2, 0.25, r2
shl r0, r0, 23
fsub vpm, r1, r2
add vw_setup, rb11, r0
brr.anyc -, r:L120
mov vw_setup, ra16
mov vw_addr, rb10
mov rb10, ra7; mov -, vw_wait
:L209
add rb12, rb12, ra29; ldtmu0
add r0, ra31, rb16; mov rb6, r4; ldtmu0
shl r0, r0, ra17; mov r3, rb12
min.setf -, rb19, r3; mov rb5, r4; ldtmu0
brr.anyc -, r:L66
add r0, rb18, r0; mov ra8, r4
shl r0, r0, 2
add ra19, ra19, r0
:L217
ldi r0, 0x00001a00
sub.setf -, ra1, r0; mov -, vw_wait
brr.allnz -, r:L238
nop
nop
nop
sub.setf r0, ra29, 1
brr.allz -, r:L234
nop
nop
nop
:L228
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L228
nop
nop
nop
:L234
ldi host_int, 1
nop; thrend
nop
nop
:L238
srel -, 15
nop; thrend
nop
nop

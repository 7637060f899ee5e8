mov rb0, unif
mov ra1, unif
mov rb2, unif
sub ra5, ra1, 1
mov rb3, unif; mov ra28, ra1
clz ra5, ra5; mov rb1, unif
mov ra3, unif; mov rb11, rb0
add ra5, ra5, -16
mov ra2, unif; mov rb17, rb3
add ra5, ra5, -10
ldi r1, 0x00001a00
shl ra4, rb0, ra5
ldi r0, 0x80904000
shl ra0, ra4, 7
add ra1, ra4, r1
add r0, ra0, r0; mov ra18, rb2
mov ra19, rb1
mov ra14, ra3
mov ra30, ra2
nop
min.setf -, ra30, rb11
ldi r2, 24
shr r1, ra19, r2; mul24 ra0, ra19, rb11
shr r0, rb11, r2; mul24 rb0, r1, rb11
or ra6, 0, 0; mul24 r0, ra19, r0
add rb0, rb0, r0; mov ra11, ra18
mov ra10, ra18; v8min rb7, 0, 0
shl rb0, rb0, r2; mov ra9, ra18
or r2, 0, 0; v8min r3, 0, 0
add r0, ra0, rb0
add r0, r0, elem_num; v8min rb3, 0, 0
shl rb0, r0, 2
shl ra0, ra19, 2
or rb6, 0, 0; v8min ra3, 0, 0
brr.allnc -, r:L182
or rb2, 0, 0; v8min ra8, 0, 0
add ra18, ra18, rb0
add rb17, rb17, ra0
ldi ra15, 24
shl r0, 1, ra5
shr rb0, 0, ra15; mov r1, ra15
shr rb1, 1, ra15; mov r3, ra15
nop; mul24 ra23, rb0, ra19
ldi rb5, 64
ldi rb4, 0x00001a00
shl ra0, ra4, 7
ldi rb3, 0x80104000
shr ra27, ra19, r1; mul24 rb13, rb1, ra19
shr rb2, 2, ra15
shr rb0, ra28, r3; mov r2, ra28
sub ra22, rb5, rb5; mov r0, ra28
nop; mul24 ra26, 0, ra19
nop; mul24 ra25, 1, ra19
nop; mul24 ra24, 2, ra19
nop; mul24 rb18, ra19, r2
nop; mul24 rb14, 0, ra27
ldi ra12, 16
ldi rb16, 0xc0000000
nop; mul24 ra21, 1, ra27
add ra17, ra4, rb4
nop; mul24 rb12, rb2, ra19
add ra16, ra0, rb3
nop; mul24 ra20, 2, ra27
nop; mul24 ra29, ra27, r0
nop; mul24 rb15, ra19, rb0
:L65
mov rb10, rb16
or r3, 0, 0; v8min rb4, 0, 0
shr.setf -, ra22, 16
mov.ifz r3, ra5; v8min ra6, 0, 0
add.ifz rb10, rb10, ra22
min.setf -, ra14, rb4
add r0, ra23, rb14
shl r0, r0, ra15; v8min rb3, 0, 0
add ra0, ra26, r0; mov -, vw_wait
add rb6, rb13, ra21
add rb2, ra23, rb14
shl rb0, ra0, 2
shl rb6, rb6, ra15
shl rb2, rb2, ra15
add rb1, rb12, ra20
add tmu0_s, ra18, rb0
add ra0, ra25, rb6
add ra2, ra26, rb2
add rb0, rb13, ra21
shl rb1, rb1, ra15
shl rb2, ra0, 2
shr r0, rb11, ra15
shl rb0, rb0, ra15
add ra0, ra24, rb1
shl r1, ra2, 2
nop; mul24 rb7, rb11, ra27
shl rb8, 1, r3; mul24 ra4, r0, ra19
add ra2, ra25, rb0
shl r0, ra0, 2
add tmu0_s, ra18, rb2
add rb0, ra4, rb7
add ra0, ra18, r1
add rb1, rb12, ra20
shl rb2, ra2, 2
nop; mul24 ra7, rb11, ra19
add tmu0_s, ra18, r0; v8min ra3, 0, 0
shl rb0, rb0, ra15; ldtmu0
add ra11, ra0, rb5; mov rb7, r4
shl rb1, rb1, ra15
add r0, ra18, rb2
add ra0, ra7, rb0
add r1, ra24, rb1
add ra10, r0, rb5; mov tmu0_s, ra11
shl r2, r1, 2
shl r0, ra0, 2
add ra0, ra18, r2; ldtmu0
mov rb6, r4; mov tmu0_s, ra10
add ra4, rb17, r0; ldtmu0
brr.allnc -, r:L174
add ra9, ra0, rb5
mov ra8, r4; mov rb9, ra4
mov tmu0_s, ra9
shl ra13, ra12, r3
nop
:L119
add ra7, rb4, ra13
mov r0, ra14; mov ra2, rb8
min ra7, ra7, r0
mov vw_setup, ra17
:L123
mov r2, ra6; mov ra6, rb7
mov r3, rb3; mov rb2, ra3
mov r1, ra6; mov rb3, rb6
add ra11, ra11, rb5
mov ra3, ra8; mov rb0, r1 >> 1
mov r2, r3; mov r1, r2 >> 1
mov r0, rb3; mov tmu0_s, ra11
sub.setf -, elem_num, 0
mov.ifz rb0, r1; mov r1, rb2; ldtmu0
mov r3, ra3; mov rb1, r0 >> 1
mov rb7, r4; mov r2, r2 >> 1
add ra10, ra10, rb5; mov.ifz rb1, r2
mov r2, ra6; mov rb2, r3 >> 1
mov tmu0_s, ra10; mov r0, r1 >> 1
mov r3, rb7; mov.ifz rb2, r0; ldtmu0
mov rb6, r4; mov r2, r2 >> 15
nop; mov r0, r3 >> 15
sub.setf -, elem_num, 15
mov.ifz r2, r0; mov r0, rb6
add ra9, ra9, rb5
mov r3, rb3
mov tmu0_s, ra9; mov r0, r0 >> 15
nop; mov ra0, r3 >> 15
fadd r1, rb0, ra6; ldtmu0
fadd r1, r1, r2; mov.ifz ra0, r0
fadd r2, r1, rb1; mov ra8, r4
mov r0, ra3
mov r1, ra8
fadd r2, r2, ra0; mov r3, r0 >> 15
nop; mov r0, r1 >> 15
add rb4, rb4, ra12; mov.ifz r3, r0
fadd r1, r2, rb2
min.setf -, ra7, rb4
fadd r0, r1, ra3
fadd r0, r0, r3
nop; fmul r0, r0, 0.125
fsub r0, rb3, r0
nop; fmul r0, 0.25, r0
brr.anyc -, r:L123
add ra4, ra4, rb5
fsub vpm, rb3, r0
sub ra2, ra2, 1
nop
sub r0, rb8, ra2
shl r0, r0, 23
min.setf -, ra14, rb4
add vw_setup, ra16, r0
brr.anyc -, r:L119
mov vw_setup, rb10
mov vw_addr, rb9
mov rb9, ra4; mov -, vw_wait
:L174
add rb11, rb11, ra28; ldtmu0
add r0, ra29, rb15; mov rb7, r4; ldtmu0
min.setf -, ra30, rb11; mov rb6, r4; ldtmu0
shl r0, r0, ra15; mov ra8, r4
brr.anyc -, r:L65
add r0, rb18, r0
shl r0, r0, 2
add ra18, ra18, r0
:L182
ldi r0, 0x00001a00
sub.setf -, ra1, r0; mov -, vw_wait
brr.allnz -, r:L203
nop
nop
nop
sub.setf r0, ra28, 1
brr.allz -, r:L199
nop
nop
nop
:L193
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L193
nop
nop
nop
:L199
ldi host_int, 1
nop; thrend
nop
nop
:L203
srel -, 15
nop; thrend
nop
nop

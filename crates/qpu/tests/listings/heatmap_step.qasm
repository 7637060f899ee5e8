mov rb0, unif
mov ra1, unif
mov rb2, unif
sub ra5, ra1, 1
mov rb3, unif; mov ra25, ra1
clz ra5, ra5; mov rb1, unif
mov ra3, unif; mov rb21, rb0
add ra5, ra5, -16
ldi r0, 0x00001a00
add ra5, ra5, -10
mov ra2, unif; mov rb19, rb3
shl ra4, rb0, ra5
ldi r1, 0x80904000
shl ra0, ra4, 7
add r0, ra4, r0; mov ra15, rb2
add r0, ra0, r1; mov ra16, rb1
mov ra13, ra3
mov ra27, ra2
mov rb13, rb21; mov ra10, ra15
ldi r3, 24
min.setf -, ra27, rb13
shr r1, ra16, r3; mul24 rb1, ra16, rb21
shr r0, rb21, r3; mul24 rb0, r1, rb21
or r1, 0, 0; mul24 r0, ra16, r0
add ra0, rb0, r0
mov ra9, ra15; v8min rb7, 0, 0
shl ra0, ra0, r3; v8min r2, 0, 0
mov ra8, ra15; v8min rb3, 0, 0
add r0, rb1, ra0
add r0, r0, elem_num; v8min ra6, 0, 0
shl rb0, r0, 2
shl ra0, ra16, 2
or rb6, 0, 0; v8min ra3, 0, 0
brr.allnc -, r:L177
or rb2, 0, 0; v8min ra1, 0, 0
add ra15, ra15, rb0
add rb19, rb19, ra0
ldi ra14, 24
mov r0, ra25; mov r2, ra25
shr rb0, 0, ra14; mov r3, ra14
shr rb1, 1, ra14; mov r1, ra14
nop; mul24 ra20, rb0, ra16
ldi rb5, 64
ldi rb3, 0x00001a00
shl rb4, ra4, 7
ldi ra0, 0x80104000
shr ra24, ra16, r3; mul24 rb20, ra16, r0
shr rb2, 2, ra14
shr rb0, ra25, r1
nop; mul24 ra23, 0, ra16
nop; mul24 ra22, 1, ra16
nop; mul24 ra21, 2, ra16
nop; mul24 rb16, 0, ra24
ldi ra11, 16
ldi rb18, 0xc0000000
shl r0, 1, ra5
nop; mul24 rb15, rb1, ra16
sub ra19, rb5, rb5
nop; mul24 ra18, 1, ra24
add rb12, ra4, rb3
nop; mul24 rb14, rb2, ra16
add rb11, rb4, ra0
nop; mul24 ra17, 2, ra24
nop; mul24 ra26, ra24, r2
nop; mul24 rb17, ra16, rb0
:L65
add r0, ra20, rb16
shl r0, r0, ra14; v8min ra2, 0, 0
add rb2, rb15, ra18
add ra0, ra23, r0; mov rb10, rb18
shl rb2, rb2, ra14
shl r1, ra0, 2
add ra0, ra22, rb2
add tmu0_s, ra15, r1; v8min rb4, 0, 0
shl r2, ra0, 2
add tmu0_s, ra15, r2; v8min ra6, 0, 0
shr.setf -, ra19, 16; mov r2, ra19
add.ifz rb10, rb10, r2; mov.ifz ra2, ra5
min.setf -, ra13, rb4
add rb0, ra20, rb16
add rb1, rb14, ra17
shl rb0, rb0, ra14
shl rb1, rb1, ra14
add ra1, ra23, rb0
add rb0, rb15, ra18
shr r0, rb13, ra14
shl rb0, rb0, ra14
add ra0, ra21, rb1
shl r1, ra1, 2
nop; mul24 ra4, rb13, ra24
or ra3, 0, 0; mul24 rb2, r0, ra16
add ra1, ra22, rb0
shl r0, ra0, 2
add rb1, rb14, ra17
add rb0, rb2, ra4
add ra0, ra15, r1; v8min rb3, 0, 0
nop; mul24 ra7, rb13, ra16
shl rb1, rb1, ra14
shl rb0, rb0, ra14
add ra10, ra0, rb5
add tmu0_s, ra15, r0; mov -, vw_wait
shl rb2, ra1, 2
add r1, ra21, rb1; ldtmu0
add ra0, ra7, rb0; mov rb7, r4
add r0, ra15, rb2
shl rb0, r1, 2; mov tmu0_s, ra10
shl r3, ra0, 2
add ra9, r0, rb5; ldtmu0
add ra0, ra15, rb0; mov rb6, r4
add ra4, rb19, r3; mov tmu0_s, ra9
add ra8, ra0, rb5; ldtmu0
brr.allnc -, r:L169
mov ra1, r4; mov rb9, ra4
mov tmu0_s, ra8
shl rb8, 1, ra2
mov r0, ra2
shl ra12, ra11, r0
nop
:L117
add ra7, rb4, ra12
mov r0, ra13; mov ra2, rb8
min ra7, ra7, r0; mov vw_setup, rb12
:L120
mov r1, ra6; mov ra6, rb7
mov r2, rb3; mov rb2, ra3
mov r0, ra6; mov rb3, rb6
add ra10, ra10, rb5
mov ra3, ra1; mov rb0, r0 >> 1
mov r1, r2; mov r0, r1 >> 1
mov r3, rb3; mov tmu0_s, ra10
sub.setf -, elem_num, 0
mov r2, ra3; mov rb1, r3 >> 1
mov.ifz rb0, r0; mov r0, rb2; ldtmu0
mov rb7, r4; mov r1, r1 >> 1
add ra9, ra9, rb5; mov.ifz rb1, r1
mov r1, ra6; mov rb2, r2 >> 1
mov tmu0_s, ra9; mov r0, r0 >> 1
mov r2, rb7; mov.ifz rb2, r0; ldtmu0
mov rb6, r4; mov ra1, r1 >> 15
add ra8, ra8, rb5
nop; mov r0, r2 >> 15
sub.setf -, elem_num, 15
mov.ifz ra1, r0; mov r2, rb3
mov tmu0_s, ra8; mov r3, rb6
fadd r1, rb0, ra6; ldtmu0
fadd r1, r1, ra1; mov ra0, r2 >> 15
mov r3, ra3; mov r0, r3 >> 15
add rb4, rb4, ra11; mov ra1, r4
mov.ifz ra0, r0; mov r2, r3 >> 15
fadd r1, r1, rb1; mov r0, ra1
fadd r1, r1, ra0
nop; mov r0, r0 >> 15
min.setf -, ra7, rb4; mov.ifz r2, r0
fadd r1, r1, rb2
fadd r0, r1, ra3
fadd r0, r0, r2
nop; fmul r0, r0, 0.125
fsub r0, rb3, r0
nop; fmul r0, 0.25, r0
brr.anyc -, r:L120
add ra4, ra4, rb5
fsub vpm, rb3, r0
sub ra2, ra2, 1
nop
sub r0, rb8, ra2
shl r0, r0, 23
min.setf -, ra13, rb4
add vw_setup, rb11, r0
brr.anyc -, r:L117
mov vw_setup, rb10
mov vw_addr, rb9
mov rb9, ra4; mov -, vw_wait
:L169
add rb13, rb13, ra25; ldtmu0
add r0, ra26, rb17; mov rb7, r4; ldtmu0
min.setf -, ra27, rb13; mov rb6, r4; ldtmu0
shl r0, r0, ra14; mov ra1, r4
brr.anyc -, r:L65
add r0, rb20, r0
shl r0, r0, 2
add ra15, ra15, r0
:L177
mov.setf -, rb21
brr.allnz -, r:L197
mov -, vw_wait
nop
nop
sub.setf r0, ra25, 1
brr.allz -, r:L193
nop
nop
nop
:L187
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L187
nop
nop
nop
:L193
ldi host_int, 1
nop; thrend
nop
nop
:L197
srel -, 15
nop; thrend
nop
nop

mov rb0, unif
mov ra0, unif
mov ra1, unif; mov rb22, rb0
sub ra5, ra0, 1
mov ra2, unif
clz ra5, ra5
mov ra3, unif
add ra5, ra5, -16
ldi r0, 0x00001a00
add ra5, ra5, -10
mov rb1, unif
shl ra4, rb0, ra5
mov rb2, unif; mov ra12, rb1
add r0, ra4, r0
shl r1, ra4, 7
ldi r0, 0x80904000
add r0, r1, r0; mov ra23, ra0
mov rb15, ra1; mov ra27, rb2
mov ra26, ra2
mov ra14, ra3
mov rb16, rb22
ldi rb0, 24
min.setf -, ra27, rb16
or r1, 0, 0; v8min ra0, 0, 0
shr r2, ra14, rb0; mov r1, rb0
shr r0, rb22, r1; mul24 ra0, ra14, rb22
nop; mul24 r1, r2, rb22
mov rb9, rb15; mul24 r0, ra14, r0
add r0, r1, r0; mov rb7, rb15
shl r0, r0, rb0
add r0, ra0, r0; mov rb5, rb15
add r0, r0, elem_num; v8min r3, 0, 0
shl r0, r0, 2
add rb15, rb15, r0
shl r0, ra14, 2
or ra6, 0, 0; v8min rb4, 0, 0
or ra9, 0, 0; v8min rb6, 0, 0
brr.allnc -, r:L191
or ra8, 0, 0
or ra3, 0, 0
add ra26, ra26, r0
ldi ra13, 24
shl rb2, ra4, 7
ldi ra0, 0x80104000
shl r0, 1, ra5
mov r3, ra13; mov r0, ra13
add rb13, rb2, ra0
ldi ra7, 64
ldi rb4, 0x00001a00
shr ra22, ra14, r3
shr rb0, 0, ra13
shr rb1, 1, ra13
shr rb3, 2, ra13
shr rb2, ra23, r0; mov r2, ra23
mov r1, ra23
nop; mul24 ra21, 0, ra14
nop; mul24 ra20, 1, ra14
nop; mul24 ra19, 2, ra14
ldi ra10, 16
ldi ra25, 0xc0000000
nop; mul24 rb21, ra14, r2
sub ra18, ra7, ra7
add rb14, ra4, rb4
nop; mul24 rb19, rb0, ra14
nop; mul24 ra17, 0, ra22
nop; mul24 rb18, rb1, ra14
nop; mul24 ra16, 1, ra22
nop; mul24 rb17, rb3, ra14
nop; mul24 ra15, 2, ra22
nop; mul24 ra24, ra22, r1
nop; mul24 rb20, ra14, rb2
:L71
shr r0, rb16, ra13
or rb3, 0, 0; mul24 r1, r0, ra14
nop; mul24 r0, rb16, ra22
add r0, r1, r0; mul24 r2, rb16, ra14
shl r0, r0, ra13; v8min ra6, 0, 0
add r0, r2, r0; mov rb12, ra25
shl r0, r0, 2
add rb8, ra26, r0; v8min ra3, 0, 0
add r0, rb19, ra17
shl r0, r0, ra13; v8min rb4, 0, 0
add r0, ra21, r0; mov -, vw_wait
shl r0, r0, 2
add tmu0_s, rb15, r0
add r0, rb19, ra17
shl r0, r0, ra13; mov rb11, rb8
add r0, ra21, r0
shl r0, r0, 2
add r0, rb15, r0
add rb9, r0, ra7
add r0, rb18, ra16
shl r0, r0, ra13
add r0, ra20, r0
shl r0, r0, 2
add tmu0_s, rb15, r0
add r0, rb18, ra16
shl r0, r0, ra13
add r0, ra20, r0
shl r0, r0, 2
add r0, rb15, r0
add rb7, r0, ra7
add r0, rb17, ra15
shl r0, r0, ra13
add r0, ra19, r0
shl r0, r0, 2
add tmu0_s, rb15, r0
add r0, rb17, ra15; ldtmu0
shl r0, r0, ra13; mov ra9, r4
add r0, ra19, r0; mov tmu0_s, rb9
shl r0, r0, 2
add r0, rb15, r0; ldtmu0
add rb5, r0, ra7; mov ra8, r4
shr.setf -, ra18, 16
or r0, 0, 0
add.ifz rb12, rb12, ra18
mov.ifz r0, ra5; mov tmu0_s, rb7
min.setf -, ra12, rb3; ldtmu0
brr.allnc -, r:L183
mov rb6, r4; mov tmu0_s, rb5
shl rb10, 1, r0
nop
shl ra11, ra10, r0
nop
:L123
add ra4, rb3, ra11
mov r0, ra12; mov ra2, rb10
min ra4, ra4, r0; mov vw_setup, rb14
:L126
mov r3, ra6; mov r1, rb4
mov ra6, ra9
mov rb4, ra8; mov r0, r3 >> 1
mov r2, ra6
sub.setf -, elem_num, 0
mov ra0, ra3; mov rb2, r2 >> 1
mov ra3, rb6
mov.ifz rb2, r0; mov r3, ra0
mov r0, rb4; mov r2, ra3
add rb9, rb9, ra7
nop; mov rb1, r0 >> 1
nop; mov r0, r1 >> 1
mov.ifz rb1, r0; mov tmu0_s, rb9
nop; mov ra1, r2 >> 1
add rb7, rb7, ra7; ldtmu0
mov ra9, r4; mov r0, r3 >> 1
mov.ifz ra1, r0; mov tmu0_s, rb7
mov r0, ra6; mov r2, rb4; ldtmu0
mov r1, ra9; mov ra8, r4
nop; mov ra0, r0 >> 15
add rb5, rb5, ra7
mov r3, ra8; mov r0, r1 >> 15
sub.setf -, elem_num, 15
mov.ifz ra0, r0; mov tmu0_s, rb5
nop; mov rb0, r2 >> 15
nop; mov r0, r3 >> 15
mov.ifz rb0, r0; ldtmu0
mov rb6, r4; mov r0, ra3
add rb3, rb3, ra10
mov r1, rb6
nop; mov r2, r0 >> 15
nop; mov r0, r1 >> 15
add rb8, rb8, ra7; mov.ifz r2, r0
min.setf -, ra4, rb3
fadd r0, rb2, ra6
fadd r0, r0, ra0
fadd r0, r0, rb1
fadd r0, r0, rb0
fadd r0, r0, ra1
fadd r0, r0, ra3
fadd r0, r0, r2
nop; fmul r0, r0, 0.125
fsub r0, rb4, r0
brr.anyc -, r:L126
nop; fmul r0, 0.25, r0
fsub vpm, rb4, r0
sub ra2, ra2, 1
nop
sub r0, rb10, ra2
shl r0, r0, 23
min.setf -, ra12, rb3
add vw_setup, rb13, r0
mov vw_setup, rb12
brr.anyc -, r:L123
mov vw_addr, rb11
mov rb11, rb8
mov -, vw_wait
:L183
add rb16, rb16, ra23; ldtmu0
add r0, ra24, rb20; mov ra9, r4
min.setf -, ra27, rb16; ldtmu0
shl r0, r0, ra13; mov ra8, r4
brr.anyc -, r:L71
add r0, rb21, r0; ldtmu0
shl r0, r0, 2; mov rb6, r4
add rb15, rb15, r0
:L191
mov.setf -, rb22
brr.allnz -, r:L211
mov -, vw_wait
nop
nop
sub.setf r0, ra23, 1
brr.allz -, r:L207
nop
nop
nop
:L201
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L201
nop
nop
nop
:L207
ldi host_int, 1
nop; thrend
nop
nop
:L211
srel -, 15
nop; thrend
nop
nop

mov rb0, unif
mov ra1, unif
mov rb2, unif
sub ra5, ra1, 1
mov rb3, unif; mov ra26, ra1
clz ra5, ra5; mov rb1, unif
mov ra3, unif; mov rb4, rb0
add ra5, ra5, -16
mov ra2, unif; mov rb13, rb2
add ra5, ra5, -10
ldi r1, 0x00001a00
shl ra4, rb0, ra5
ldi r0, 0x80904000
shl ra0, ra4, 7
add ra1, ra4, r1; mov rb18, rb3
add r0, ra0, r0; mov ra17, rb1
mov ra13, ra3
mov ra28, ra2
mov rb14, rb4; mul24 ra0, ra17, rb4
ldi r2, 24
min.setf -, ra28, rb14
shr r1, ra17, r2; v8min ra2, 0, 0
shr r0, rb4, r2; mul24 rb0, r1, rb4
shl ra2, ra17, 2; mul24 r0, ra17, r0
add rb0, rb0, r0
mov rb9, rb13
shl rb0, rb0, r2
mov rb8, rb13
add r0, ra0, rb0
add r0, r0, elem_num; mov rb7, rb13
shl ra3, r0, 2
or ra10, 0, 0; v8min rb6, 0, 0
or ra7, 0, 0; v8min rb2, 0, 0
or ra9, 0, 0; v8min rb3, 0, 0
or ra0, 0, 0
brr.allnc -, r:L211
or ra8, 0, 0
add rb13, rb13, ra3
add rb18, rb18, ra2
ldi ra15, 24
ldi ra6, 64
shr rb0, 0, ra15; mov r2, ra15
shr rb1, 1, ra15; mov r0, ra15
shr ra25, ra17, r2; mul24 rb17, rb0, ra17
ldi rb3, 0x00001a00
shl rb4, ra4, 7
ldi ra0, 0x80104000
shr rb2, 2, ra15
shr rb0, ra26, r0; mov r3, ra26
mov r1, ra26
nop; mul24 ra24, 0, ra17
nop; mul24 ra23, 1, ra17
nop; mul24 ra22, 2, ra17
nop; mul24 rb21, ra17, r3
nop; mul24 ra21, 0, ra25
ldi ra11, 16
ldi rb20, 0xc0000000
shl r0, 1, ra5
nop; mul24 rb16, rb1, ra17
sub ra20, ra6, ra6
nop; mul24 ra19, 1, ra25
add ra16, ra4, rb3
nop; mul24 ra18, rb2, ra17
add rb12, rb4, ra0
nop; mul24 rb15, 2, ra25
nop; mul24 ra27, ra25, r1
nop; mul24 rb19, ra17, rb0
:L67
add r0, rb17, ra21
shl r0, r0, ra15; v8min ra9, 0, 0
add ra3, ra24, r0; v8min rb4, 0, 0
add rb2, rb16, ra19
add rb0, rb17, ra21
shl ra4, ra3, 2
shl rb2, rb2, ra15
shl rb0, rb0, ra15
add tmu0_s, rb13, ra4
add rb1, ra18, rb15
add ra3, ra23, rb2
add ra4, ra24, rb0
shl rb1, rb1, ra15
add rb0, rb16, ra19
shl ra3, ra3, 2
add ra7, ra22, rb1
shr r0, rb14, ra15
shl r2, ra4, 2
shl rb0, rb0, ra15
add tmu0_s, rb13, ra3
nop; mul24 rb5, rb14, ra25
add rb2, rb13, r2; mul24 ra4, r0, ra17
add rb1, ra18, rb15
add ra3, ra23, rb0
add rb0, ra4, rb5
shl rb1, rb1, ra15
mov ra14, rb20
add r1, ra22, rb1
shl ra4, r1, 2; mov r1, ra20
shr.setf -, ra20, 16
mov.ifz ra9, ra5; v8min rb3, 0, 0
add.ifz ra14, ra14, r1; mov -, vw_wait
min.setf -, ra13, rb4
shl r0, ra7, 2
add tmu0_s, rb13, r0
nop; mul24 ra8, rb14, ra17; ldtmu0
add rb9, rb2, ra6; mov ra7, r4
shl r3, ra3, 2
shl rb0, rb0, ra15
add r0, rb13, r3
add rb8, r0, ra6; mov tmu0_s, rb9
add ra3, ra8, rb0; ldtmu0
add rb0, rb13, ra4
shl r0, ra3, 2; mov rb6, r4
mov tmu0_s, rb8
add rb5, rb18, r0; ldtmu0
add rb7, rb0, ra6; mov ra8, r4
or ra2, 0, 0
or ra0, 0, 0
brr.allnc -, r:L203
mov rb11, rb5
mov tmu0_s, rb7
shl rb10, 1, ra9
mov r1, ra9
shl ra12, ra11, r1
nop
:L123
add ra4, rb4, ra12
mov r0, ra13; mov ra3, rb10
min ra4, ra4, r0
mov vw_setup, ra16
mov ra9, ra0; mov rb2, rb3
add rb9, rb9, ra6
mov ra0, rb6; mov rb3, ra8
mov ra10, ra2; mov tmu0_s, rb9
mov ra2, ra7; mov r3, rb3; ldtmu0
sub.setf -, elem_num, 15; mov ra7, r4
mov r2, ra0; mov.ifz r3, rb2
add rb8, rb8, ra6
mov.ifz r2, ra9; mov rb2, r3 >> 1
mov r1, ra2; mov tmu0_s, rb8
add rb7, rb7, ra6; ldtmu0
mov.ifz r1, ra10; mov rb1, r2 >> 1
mov r2, ra2; mov rb6, r4
mov.setf -, elem_num; mov tmu0_s, rb7
mov.ifz r2, ra7; mov r0, r1 >> 1
fadd rb0, r0, ra2; mov r0, rb3; ldtmu0
mov r3, ra0; mov ra8, r4
mov.ifz r3, rb6
mov.ifz r0, ra8; mov r1, r2 >> 15
add rb4, rb4, ra11
fadd r1, rb0, r1
min.setf -, ra4, rb4
nop; mov r2, r3 >> 15
fadd r1, r1, rb1
fadd r1, r1, r2; mov r0, r0 >> 15
brr.allnc -, r:L188
add rb5, rb5, ra6; mov r2, r0
sub ra3, ra3, 1
fadd r1, r1, rb2
:L156
fadd r0, r1, rb3; mov ra9, ra0
fadd r0, r0, r2; mov ra10, ra2
mov ra2, ra7; fmul r1, r0, 0.125
fsub r1, ra0, r1; mov rb2, rb3
mov rb3, ra8; fmul r1, 0.25, r1
fsub vpm, ra0, r1; mov ra0, rb6
add rb9, rb9, ra6
sub.setf -, elem_num, 15
mov tmu0_s, rb9; mov r2, ra0
add rb8, rb8, ra6; ldtmu0
mov.ifz r2, ra9; mov r3, rb3
mov r1, ra2; mov ra7, r4
mov tmu0_s, rb8; mov.ifz r1, ra10
add rb7, rb7, ra6; ldtmu0
mov r2, ra2; mov rb1, r2 >> 1
mov.setf -, elem_num; mov.ifz r3, rb2
mov rb6, r4; mov tmu0_s, rb7
mov.ifz r2, ra7; mov r0, r1 >> 1
mov r3, ra0; mov rb2, r3 >> 1
fadd rb0, r0, ra2; mov r0, rb3; ldtmu0
mov ra8, r4; mov.ifz r3, rb6
add rb4, rb4, ra11
mov.ifz r0, ra8; mov r1, r2 >> 15
min.setf -, ra4, rb4
fadd r1, rb0, r1
nop; mov r2, r3 >> 15
fadd r1, r1, rb1
fadd r1, r1, r2; mov r0, r0 >> 15
brr.anyc -, r:L156
add rb5, rb5, ra6; mov r2, r0
sub ra3, ra3, 1
fadd r1, r1, rb2
:L188
fadd r0, r1, rb3
fadd r0, r0, r2
nop; fmul r1, r0, 0.125
min.setf -, ra13, rb4
fsub r1, ra0, r1
sub r0, rb10, ra3
nop; fmul r1, 0.25, r1
shl r0, r0, 23
fsub vpm, ra0, r1
add vw_setup, rb12, r0
mov vw_setup, ra14
brr.anyc -, r:L123
mov vw_addr, rb11
mov rb11, rb5
mov -, vw_wait
:L203
add rb14, rb14, ra26; ldtmu0
add r0, ra27, rb19; mov ra7, r4; ldtmu0
min.setf -, ra28, rb14; mov rb6, r4; ldtmu0
shl r0, r0, ra15; mov ra8, r4
brr.anyc -, r:L67
add r0, rb21, r0
shl r0, r0, 2
add rb13, rb13, r0
:L211
ldi r0, 0x00001a00
sub.setf -, ra1, r0; mov -, vw_wait
brr.allnz -, r:L232
nop
nop
nop
sub.setf r0, ra26, 1
brr.allz -, r:L228
nop
nop
nop
:L222
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L222
nop
nop
nop
:L228
ldi host_int, 1
nop; thrend
nop
nop
:L232
srel -, 15
nop; thrend
nop
nop

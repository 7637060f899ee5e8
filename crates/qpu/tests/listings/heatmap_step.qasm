mov rb0, unif
mov ra1, unif
mov rb2, unif; mov r2, rb0
sub ra5, ra1, 1
mov rb3, unif; mov ra29, ra1
clz ra5, ra5; mov rb1, unif
mov ra3, unif; mov rb15, rb3
add ra5, ra5, -16
mov ra2, unif
add ra5, ra5, -10
ldi r1, 0x00001a00
shl ra4, rb0, ra5
ldi r0, 0x80904000
shl ra0, ra4, 7
add ra1, ra4, r1
add r0, ra0, r0; mov ra19, rb2
mov ra20, rb1
mov ra15, ra3
mov ra31, ra2
mov rb11, r2; mov ra12, ra19
ldi rb0, 24
min.setf -, ra31, rb11
shr r1, ra20, rb0; mul24 rb1, ra20, r2
shr r0, r2, rb0; mul24 ra0, r1, r2
or ra7, 0, 0; mul24 r0, ra20, r0
add ra0, ra0, r0; v8min rb6, 0, 0
mov ra11, ra19; v8min rb5, 0, 0
shl ra0, ra0, rb0
or rb0, 0, 0; mov ra10, ra19
add r0, rb1, ra0
add r0, r0, elem_num; v8min rb1, 0, 0
shl rb0, r0, 2
shl ra0, ra20, 2
or ra6, 0, 0; v8min rb2, 0, 0
or ra3, 0, 0
brr.allnc -, r:L219
or ra9, 0, 0
add ra19, ra19, rb0
add rb15, rb15, ra0
ldi ra17, 24
mov r0, ra29; mov r2, ra29
shr rb0, 0, ra17; mov r3, ra17
shr rb1, 1, ra17; mov r1, ra17
shr ra28, ra20, r3; mul24 rb14, rb0, ra20
ldi rb3, 64
ldi rb4, 0x00001a00
shl rb5, ra4, 7
ldi ra0, 0x80104000
shr rb2, 2, ra17
shr rb0, ra29, r1
sub ra23, rb3, rb3; mul24 rb18, ra20, r0
nop; mul24 ra27, 0, ra20
nop; mul24 ra26, 1, ra20
nop; mul24 ra25, 2, ra20
nop; mul24 ra24, 0, ra28
ldi ra14, 16
ldi rb17, 0xc0000000
shl r0, 1, ra5
nop; mul24 rb13, rb1, ra20
nop; mul24 ra22, 1, ra28
add rb10, ra4, rb4
nop; mul24 rb12, rb2, ra20
add ra18, rb5, ra0
nop; mul24 ra21, 2, ra28
nop; mul24 ra30, ra28, r2
nop; mul24 rb16, ra20, rb0
:L66
mov rb9, rb17
or r3, 0, 0; v8min rb4, 0, 0
shr.setf -, ra23, 16
mov.ifz r3, ra5; v8min ra7, 0, 0
add.ifz rb9, rb9, ra23
min.setf -, ra15, rb4
add r0, rb14, ra24
shl r0, r0, ra17; v8min ra6, 0, 0
add rb5, rb13, ra22
add ra0, ra27, r0; mov -, vw_wait
add rb2, rb14, ra24
shl rb5, rb5, ra17
shl rb0, ra0, 2
shl rb2, rb2, ra17
add rb1, rb12, ra21
add ra0, ra26, rb5
add ra2, ra27, rb2
shl rb1, rb1, ra17
add tmu0_s, ra19, rb0
shl rb2, ra0, 2
add rb0, rb13, ra22
shr r0, rb11, ra17
add ra0, ra25, rb1
or ra3, 0, 0; mul24 rb5, r0, ra20
shl rb1, ra2, 2
shl rb0, rb0, ra17
shl r0, ra0, 2
nop; mul24 ra4, rb11, ra28
add ra0, ra19, rb1
add ra2, ra26, rb0
add tmu0_s, ra19, rb2
add rb1, rb12, ra21
add rb0, rb5, ra4
add tmu0_s, ra19, r0
shl r1, ra2, 2
nop; mul24 ra8, rb11, ra20; ldtmu0
shl rb1, rb1, ra17
shl rb0, rb0, ra17
add ra12, ra0, rb3; mov rb6, r4
add r0, ra19, r1
add r1, ra25, rb1
add ra0, ra8, rb0
shl rb0, r1, 2; mov tmu0_s, ra12
shl r2, ra0, 2
add ra11, r0, rb3; ldtmu0
add ra0, ra19, rb0; mov rb5, r4
add ra8, rb15, r2; mov tmu0_s, ra11
brr.allnc -, r:L211
add ra10, ra0, rb3; ldtmu0
mov ra9, r4; mov rb8, ra8
shl rb7, 1, r3; mov tmu0_s, ra10
shl ra16, ra14, r3
nop
:L119
add ra13, rb4, ra16
mov r0, ra15; mov ra4, rb7
min ra13, ra13, r0; mov vw_setup, rb10
mov rb0, ra7; mov ra7, rb6
mov rb1, ra6; mov ra6, rb5
mov r2, ra7; mov r1, rb0
mov rb2, ra3; mov r0, rb1
mov r3, ra6; mov rb0, r2 >> 1
mov ra3, ra9; mov r2, r1 >> 1
add ra12, ra12, rb3
mov r1, ra3; mov rb1, r3 >> 1
mov r3, rb2; mov tmu0_s, ra12
nop; mov rb2, r1 >> 1
add ra11, ra11, rb3; ldtmu0
sub.setf -, elem_num, 0; mov rb6, r4
mov tmu0_s, ra11; mov r0, r0 >> 1
mov.ifz rb1, r0; mov r1, r3 >> 1
mov.ifz rb2, r1; mov r1, rb6; ldtmu0
mov r0, ra7; mov.ifz rb0, r2
add ra10, ra10, rb3; mov rb5, r4
mov r2, ra6; mov r0, r0 >> 15
sub.setf -, elem_num, 15
mov tmu0_s, ra10; mov r1, r1 >> 15
fadd r1, rb0, ra7; mov.ifz r0, r1; ldtmu0
mov r3, rb5; mov ra9, r4
fadd ra2, r1, r0; mov rb0, ra3
mov r2, ra3; mov ra0, r2 >> 15
mov r1, ra9; mov r0, r3 >> 15
mov.ifz ra0, r0; mov r0, r2 >> 15
nop; mov r1, r1 >> 15
mov.ifz r0, r1; mov r1, ra6
add rb4, rb4, ra14
fadd r3, ra2, rb1
min.setf -, ra13, rb4
fadd r2, r3, ra0; mov r3, r0
brr.allnc -, r:L197
fadd r2, r2, rb2
add ra8, ra8, rb3; mov r0, r2
sub ra4, ra4, 1
:L158
fadd r0, r0, rb0; mov rb0, ra7
fadd r0, r0, r3; mov ra7, rb6
mov rb1, ra6; fmul r2, r0, 0.125
fsub r2, r1, r2; mov ra6, rb5
mov r2, ra7; fmul r3, 0.25, r2
fsub vpm, r1, r3; mov r1, rb0
mov rb2, ra3; mov r0, rb1
mov r3, ra6; mov rb0, r2 >> 1
mov ra3, ra9; mov r2, r1 >> 1
add ra12, ra12, rb3
mov r1, ra3; mov rb1, r3 >> 1
mov r3, rb2; mov tmu0_s, ra12
nop; mov rb2, r1 >> 1
add ra11, ra11, rb3; ldtmu0
sub.setf -, elem_num, 0; mov rb6, r4
mov tmu0_s, ra11; mov r0, r0 >> 1
mov.ifz rb1, r0; mov r1, r3 >> 1
mov.ifz rb2, r1; mov r1, rb6; ldtmu0
mov r0, ra7; mov.ifz rb0, r2
add ra10, ra10, rb3; mov rb5, r4
mov r2, ra6; mov r0, r0 >> 15
sub.setf -, elem_num, 15
mov tmu0_s, ra10; mov r1, r1 >> 15
fadd r1, rb0, ra7; mov.ifz r0, r1; ldtmu0
mov r3, rb5; mov ra9, r4
fadd ra2, r1, r0; mov rb0, ra3
mov r2, ra3; mov ra0, r2 >> 15
mov r1, ra9; mov r0, r3 >> 15
mov.ifz ra0, r0; mov r0, r2 >> 15
nop; mov r1, r1 >> 15
mov.ifz r0, r1; mov r1, ra6
add rb4, rb4, ra14
fadd r3, ra2, rb1
min.setf -, ra13, rb4
fadd r2, r3, ra0; mov r3, r0
brr.anyc -, r:L158
fadd r2, r2, rb2
add ra8, ra8, rb3; mov r0, r2
sub ra4, ra4, 1
:L197
fadd r0, r0, rb0
fadd r0, r0, r3
nop; fmul r2, r0, 0.125
min.setf -, ra15, rb4
fsub r2, r1, r2
sub r0, rb7, ra4
nop; fmul r3, 0.25, r2
shl r0, r0, 23
fsub vpm, r1, r3
add vw_setup, ra18, r0
brr.anyc -, r:L119
mov vw_setup, rb9
mov vw_addr, rb8
mov rb8, ra8; mov -, vw_wait
:L211
add rb11, rb11, ra29; ldtmu0
add r0, ra30, rb16; mov rb6, r4; ldtmu0
min.setf -, ra31, rb11; mov rb5, r4; ldtmu0
shl r0, r0, ra17; mov ra9, r4
brr.anyc -, r:L66
add r0, rb18, r0
shl r0, r0, 2
add ra19, ra19, r0
:L219
ldi r0, 0x00001a00
sub.setf -, ra1, r0; mov -, vw_wait
brr.allnz -, r:L240
nop
nop
nop
sub.setf r0, ra29, 1
brr.allz -, r:L236
nop
nop
nop
:L230
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L230
nop
nop
nop
:L236
ldi host_int, 1
nop; thrend
nop
nop
:L240
srel -, 15
nop; thrend
nop
nop

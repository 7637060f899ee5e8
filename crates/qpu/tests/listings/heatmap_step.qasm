mov ra0, unif
mov ra3, unif
mov rb0, unif
mov rb1, unif
mov rb2, unif; mov ra13, rb0
ldi r0, 0x00001a00
mov rb3, unif; mov ra14, rb2
add ra2, ra0, r0; mov rb17, ra0
mov ra4, unif; mov rb16, rb1
shl r1, ra0, 7
ldi r0, 0x80904000
add ra1, r1, r0
mov ra21, ra3
mov ra12, rb3
mov ra23, ra4
mov rb9, rb17
ldi rb0, 24
min.setf -, ra23, rb9
shr r1, ra14, rb0; mov r0, rb0
shr r0, rb17, r0; mul24 r1, r1, rb17
or r2, 0, 0; mul24 r0, ra14, r0
add r0, r1, r0; mul24 rb1, ra14, rb17
shl r0, r0, rb0; mov rb8, ra13
add r0, rb1, r0; mov rb6, ra13
add r0, r0, elem_num; v8min ra6, 0, 0
shl r0, r0, 2; mov rb5, ra13
add ra13, ra13, r0; v8min rb3, 0, 0
shl r0, ra14, 2
or ra9, 0, 0; v8min rb7, 0, 0
or ra0, 0, 0
or ra3, 0, 0
brr.allnc -, r:L155
or ra5, 0, 0
or ra8, 0, 0
add rb16, rb16, r0
ldi ra10, 24
mov r1, ra21; mov r0, ra21
mov r2, ra10; mov r3, ra10
shr ra20, ra14, r2; mul24 rb13, 1, ra14
shr rb0, 0, ra10
shr rb1, 1, ra10
shr rb2, 2, ra10
shr rb3, ra21, r3
nop; mul24 ra19, 0, ra14
ldi ra7, 64
nop; mul24 ra18, 2, ra14
ldi ra11, 16
nop; mul24 rb15, ra14, r1
nop; mul24 rb12, rb0, ra14
nop; mul24 ra17, 0, ra20
nop; mul24 rb11, rb1, ra14
nop; mul24 ra16, 1, ra20
nop; mul24 rb10, rb2, ra14
nop; mul24 ra15, 2, ra20
nop; mul24 rb14, ra20, r0
nop; mul24 ra22, ra14, rb3
:L56
shr r0, rb9, ra10
or rb2, 0, 0; mul24 r1, r0, ra14
nop; mul24 r0, rb9, ra20
add r0, r1, r0; mul24 r2, rb9, ra14
shl r0, r0, ra10; v8min ra6, 0, 0
add r0, r2, r0; v8min rb3, 0, 0
shl r0, r0, 2
add rb4, rb16, r0
add r0, rb12, ra17
shl r0, r0, ra10; v8min ra5, 0, 0
add r0, ra19, r0
shl r0, r0, 2
add tmu0_s, ra13, r0
add r0, rb12, ra17
min.setf -, ra12, rb2
shl r0, r0, ra10
add r0, ra19, r0
shl r0, r0, 2
add r0, ra13, r0
add rb8, r0, ra7
add r0, rb11, ra16
shl r0, r0, ra10
add r0, rb13, r0
shl r0, r0, 2
add tmu0_s, ra13, r0
add r0, rb11, ra16
shl r0, r0, ra10
add r0, rb13, r0
shl r0, r0, 2
add r0, ra13, r0
add rb6, r0, ra7
add r0, rb10, ra15
shl r0, r0, ra10
add r0, ra18, r0
shl r0, r0, 2
add tmu0_s, ra13, r0
add r0, rb10, ra15; ldtmu0
shl r0, r0, ra10; mov ra9, r4
add r0, ra18, r0; mov tmu0_s, rb8
shl r0, r0, 2
add r0, ra13, r0; ldtmu0
mov rb7, r4; mov tmu0_s, rb6
brr.allnc -, r:L147
add rb5, r0, ra7; ldtmu0
mov ra8, r4
mov tmu0_s, rb5
:L102
mov r2, ra6; mov ra0, rb3
mov ra6, ra9; mov rb3, rb7
mov ra3, ra5; mov r0, r2 >> 1
mov r1, ra6; mov r3, rb3
sub.setf -, elem_num, 0
mov ra5, ra8; mov rb1, r1 >> 1
add rb8, rb8, ra7
mov.ifz rb1, r0; mov r1, ra5
mov r0, ra0; mov rb0, r3 >> 1
mov tmu0_s, rb8; mov r2, ra3
mov r3, ra6; mov r0, r0 >> 1
add rb6, rb6, ra7; ldtmu0
mov.ifz rb0, r0; mov ra4, r1 >> 1
mov ra9, r4; mov r0, r2 >> 1
mov tmu0_s, rb6; mov.ifz ra4, r0
mov r0, ra9; mov r1, rb3; ldtmu0
mov rb7, r4; mov ra3, r3 >> 15
add rb5, rb5, ra7
mov r3, ra5; mov r0, r0 >> 15
sub.setf -, elem_num, 15
mov tmu0_s, rb5; mov.ifz ra3, r0
mov r2, rb7; ldtmu0
nop; mov ra0, r1 >> 15
mov ra8, r4; mov r0, r2 >> 15
mov.ifz ra0, r0; mov r1, r3 >> 15
mov r0, ra8; mov -, vw_wait
add rb2, rb2, ra11
mov vw_setup, ra2; mov r0, r0 >> 15
mov.ifz r1, r0
min.setf -, ra12, rb2
fadd r0, rb1, ra6
fadd r0, r0, ra3
fadd r0, r0, rb0
fadd r0, r0, ra0
fadd r0, r0, ra4
fadd r0, r0, ra5
fadd r0, r0, r1
nop; fmul r0, r0, 0.125
fsub r0, rb3, r0
nop; fmul r0, 0.25, r0
fsub vpm, rb3, r0
brr.anyc -, r:L102
mov vw_setup, ra1
mov vw_addr, rb4
add rb4, rb4, ra7
:L147
add rb9, rb9, ra21; ldtmu0
add r0, rb14, ra22; mov ra9, r4
min.setf -, ra23, rb9; ldtmu0
shl r0, r0, ra10; mov rb7, r4
brr.anyc -, r:L56
add r0, rb15, r0; ldtmu0
shl r0, r0, 2; mov ra8, r4
add ra13, ra13, r0
:L155
mov.setf -, rb17
brr.allnz -, r:L175
mov -, vw_wait
nop
nop
sub.setf r0, ra21, 1
brr.allz -, r:L171
nop
nop
nop
:L165
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L165
nop
nop
nop
:L171
ldi host_int, 1
nop; thrend
nop
nop
:L175
srel -, 15
nop; thrend
nop
nop

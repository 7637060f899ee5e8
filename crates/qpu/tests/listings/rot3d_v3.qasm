mov ra0, unif
mov ra3, unif
mov rb0, unif
mov rb1, unif
ldi r0, 0x00001a00
mov rb2, unif; mov ra6, rb0
add ra2, ra0, r0; mov rb3, unif
shl r1, ra0, 7; mov ra7, ra0
ldi r0, 0x80904000
mov ra4, unif; mov rb5, rb1
add ra1, r1, r0; mov rb4, rb2
mov ra8, ra3
shl r0, elem_num, 2
or rb1, 0, 0; v8min ra3, 0, 0
add r1, rb3, r0
shl r0, ra7, 4
min.setf -, ra6, rb1
shl r0, r0, 2
add rb2, r1, r0
shl r0, elem_num, 2
add r1, ra4, r0; mov tmu0_s, rb2
shl r0, ra7, 4
shl r0, r0, 2
brr.allnc -, r:L50
add rb0, r1, r0; v8min ra4, 0, 0
shl ra5, ra8, 4
mov tmu0_s, rb0
shl ra0, ra5, 2
nop
:L29
add tmu0_s, rb2, ra0
add tmu0_s, rb0, ra0
add rb1, rb1, ra5; ldtmu0
mov ra3, r4; mov -, vw_wait
min.setf -, ra6, rb1; ldtmu0
mov ra4, r4; fmul r1, ra3, rb5
mov vw_setup, ra2
nop; fmul r0, ra4, rb4
fsub vpm, r1, r0
mov vw_setup, ra1
mov vw_addr, rb2
mov -, vw_wait
nop; fmul r1, ra4, rb5
nop; fmul r0, ra3, rb4
mov vw_setup, ra2
fadd vpm, r1, r0
mov vw_setup, ra1
brr.anyc -, r:L29
mov vw_addr, rb0
add rb2, rb2, ra0
add rb0, rb0, ra0
:L50
mov.setf -, ra7; mov -, vw_wait; ldtmu0
brr.allnz -, r:L70
mov ra3, r4
nop; ldtmu0
mov ra4, r4
sub.setf r0, ra8, 1
brr.allz -, r:L66
nop
nop
nop
:L60
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L60
nop
nop
nop
:L66
ldi host_int, 1
nop; thrend
nop
nop
:L70
srel -, 15
nop; thrend
nop
nop

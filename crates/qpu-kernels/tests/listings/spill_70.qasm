mov ra4, unif; mov -, vw_wait
ldi r0, 0x00001a00
add ra3, ra4, r0; mov rb1, unif
shl r0, ra4, 7
ldi r1, 0x80904000
add rb0, r0, r1
add r0, ra4, 12
ldi r1, 0x00101a00
add ra1, r0, r1; mov vw_setup, ra3
shl r0, r0, 4; mov rb2, unif
ldi r1, 0x81011000
add ra2, r0, r1; mov r0, rb1
mov vpm, r0; mov ra0, unif
ldi rb1, 0x00000300
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 0; mov vw_setup, ra3
mov vpm, r0; v8min r2, 0, 0
ldi rb1, 0
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 1; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 64
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 2; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 128
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 3; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 192
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 4; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 256
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 5; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x00000140
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 6; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x00000180
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 7; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x000001c0
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 8; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x00000200
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 9; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x00000240
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 10; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x00000280
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 11; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x000002c0
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 12; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x00000340
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 13; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x00000380
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
add r0, r4, 14; mov vw_setup, ra3
mov vpm, r0
ldi rb1, 0x000003c0
mov vw_setup, rb0
add vw_addr, ra0, rb1
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
shl r0, elem_num, 2
add rb31, r4, 15
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 16
add rb30, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 17
add rb27, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 18
add rb26, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 19
add rb25, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 20
add rb24, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 21
add rb23, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 22
add rb22, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 23
add rb21, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 24
add rb20, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 25
add rb19, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 26
add rb18, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 27
add rb17, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 28
add rb16, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 29
add rb15, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 30
add rb14, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 31
add ra31, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 32
add rb13, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 33
add rb12, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 34
add rb11, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 35
add rb10, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 36
add ra30, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 37
add ra29, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 38
add ra28, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 39
add ra27, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 40
add rb9, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 41
add rb8, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 42
add rb7, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 43
add rb6, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 44
add ra26, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 45
add ra25, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 46
add ra24, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 47
add ra23, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 48
add rb5, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 49
add rb4, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 50
add rb3, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 51
add rb1, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 52
add ra22, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 53
add ra21, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 54
add ra20, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 55
add ra19, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 56
add ra18, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 57
add ra17, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 58
add ra16, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 59
add ra15, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 60
add ra14, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 61
add ra13, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 62
add ra12, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 63
add ra11, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 64
add ra10, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 65
add ra9, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 66
add ra8, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 67
add ra7, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
nop; ldtmu1
ldi r0, 68
add ra6, r4, r0
shl r0, elem_num, 2
add tmu1_s, rb2, r0
mov -, vw_wait; ldtmu1
ldi r0, 69
add ra5, r4, r0
ldi r0, 0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 64
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 64
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 64
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 64
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 64
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 128
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 128
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 128
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 128
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 128
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 192
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 192
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 192
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 192
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 192
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 256
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 256
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 256
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 256
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 256
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x00000140
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x00000140
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x00000180
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x00000180
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x000001c0
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x000001c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x00000200
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x00000200
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x00000240
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x00000240
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x00000280
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x00000280
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x000002c0
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x000002c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x00000340
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x00000340
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x00000340
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x00000340
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x00000340
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x00000380
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x00000380
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x00000380
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x00000380
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x00000380
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mov -, vw_wait
add r0, ra4, r0
add r2, r2, r0; mov vr_setup, ra2
ldi r0, 0x000003c0
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm
shr rb28, r0, r1; mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb29, r0, r1; mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x000003c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb28, rb28, r0
mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb29
add r0, rb28, r0
shl r0, r0, r1; mul24 rb28, rb31, rb31
add r0, ra4, r0; mov -, vw_wait
ldi ra4, 24
add r2, r2, r0; mov vr_setup, ra2
shr r1, rb31, ra4
shr r0, rb31, ra4; mul24 r1, r1, rb31
nop; mul24 r0, rb31, r0
add r0, r1, r0
shl r0, r0, ra4
add r0, rb28, r0
ldi rb29, 24
add r2, r2, r0; mul24 rb28, rb30, rb30
mov r0, rb29; mov r1, rb29
shr r3, rb30, r0
shr r0, rb30, r1; mul24 r1, r3, rb30
nop; mul24 r0, rb30, r0
add r0, r1, r0
shl r0, r0, rb29
add r0, rb28, r0
ldi ra4, 24
add r2, r2, r0; mul24 rb28, rb27, rb27
shr r1, rb27, ra4
shr r0, rb27, ra4; mul24 r1, r1, rb27
nop; mul24 r0, rb27, r0
add r0, r1, r0
shl r0, r0, ra4
add r0, rb28, r0
ldi ra4, 24
add r2, r2, r0; mul24 rb28, rb26, rb26
shr r1, rb26, ra4
shr r0, rb26, ra4; mul24 r1, r1, rb26
nop; mul24 r0, rb26, r0
add r0, r1, r0
shl r0, r0, ra4
add r0, rb28, r0
ldi ra4, 24
add r2, r2, r0; mul24 rb28, rb25, rb25
shr r1, rb25, ra4
shr r0, rb25, ra4; mul24 r1, r1, rb25
nop; mul24 r0, rb25, r0
add r0, r1, r0
shl r0, r0, ra4
add r0, rb28, r0
ldi ra4, 24
add r2, r2, r0; mul24 rb28, rb24, rb24
shr r1, rb24, ra4
shr r0, rb24, ra4; mul24 r1, r1, rb24
nop; mul24 r0, rb24, r0
add r0, r1, r0
shl r0, r0, ra4
add r0, rb28, r0
ldi ra4, 24
add r2, r2, r0; mul24 rb28, rb23, rb23
shr r1, rb23, ra4
shr r0, rb23, ra4; mul24 r1, r1, rb23
nop; mul24 r0, rb23, r0
add r0, r1, r0
shl r0, r0, ra4; mul24 ra4, rb22, rb22
add r0, rb28, r0
add r2, r2, r0; mul24 rb28, rb21, rb21
ldi r3, 24
shr r1, rb22, r3
shr r0, rb22, r3; mul24 r1, r1, rb22
nop; mul24 r0, rb22, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0
ldi ra4, 24
add r2, r2, r0
shr r1, rb21, ra4
shr r0, rb21, ra4; mul24 r1, r1, rb21
nop; mul24 r0, rb21, r0
add r0, r1, r0
shl r0, r0, ra4
add r0, rb28, r0
ldi ra4, 24
add r2, r2, r0; mul24 rb28, rb20, rb20
shr r1, rb20, ra4
shr r0, rb20, ra4; mul24 r1, r1, rb20
nop; mul24 r0, rb20, r0
add r0, r1, r0
shl r0, r0, ra4
add r0, rb28, r0
ldi ra4, 24
add r2, r2, r0; mul24 rb28, rb19, rb19
shr r1, rb19, ra4
shr r0, rb19, ra4; mul24 r1, r1, rb19
nop; mul24 r0, rb19, r0
add r0, r1, r0
shl r0, r0, ra4; mul24 ra4, rb18, rb18
add r0, rb28, r0
add r2, r2, r0
ldi r3, 24
shr r1, rb18, r3
shr r0, rb18, r3; mul24 r1, r1, rb18
nop; mul24 r0, rb18, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb17, rb17
add r2, r2, r0
ldi r3, 24
shr r1, rb17, r3
shr r0, rb17, r3; mul24 r1, r1, rb17
nop; mul24 r0, rb17, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb16, rb16
add r2, r2, r0
ldi r3, 24
shr r1, rb16, r3
shr r0, rb16, r3; mul24 r1, r1, rb16
nop; mul24 r0, rb16, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb15, rb15
add r2, r2, r0
ldi r3, 24
shr r1, rb15, r3
shr r0, rb15, r3; mul24 r1, r1, rb15
nop; mul24 r0, rb15, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb14, rb14
add r2, r2, r0
ldi r3, 24
shr r1, rb14, r3
shr r0, rb14, r3; mul24 r1, r1, rb14
nop; mul24 r0, rb14, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra31, ra31
shr r1, ra31, rb28
shr r0, ra31, rb28; mul24 r1, r1, ra31
nop; mul24 r0, ra31, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0; mul24 ra4, rb13, rb13
add r2, r2, r0
ldi r3, 24
shr r1, rb13, r3
shr r0, rb13, r3; mul24 r1, r1, rb13
nop; mul24 r0, rb13, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb12, rb12
add r2, r2, r0
ldi r3, 24
shr r1, rb12, r3
shr r0, rb12, r3; mul24 r1, r1, rb12
nop; mul24 r0, rb12, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb11, rb11
add r2, r2, r0
ldi r3, 24
shr r1, rb11, r3
shr r0, rb11, r3; mul24 r1, r1, rb11
nop; mul24 r0, rb11, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb10, rb10
add r2, r2, r0
ldi r3, 24
shr r1, rb10, r3
shr r0, rb10, r3; mul24 r1, r1, rb10
nop; mul24 r0, rb10, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra30, ra30
shr r1, ra30, rb28
shr r0, ra30, rb28; mul24 r1, r1, ra30
nop; mul24 r0, ra30, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra29, ra29
shr r1, ra29, rb28
shr r0, ra29, rb28; mul24 r1, r1, ra29
nop; mul24 r0, ra29, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra28, ra28
shr r1, ra28, rb28
shr r0, ra28, rb28; mul24 r1, r1, ra28
nop; mul24 r0, ra28, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra27, ra27
shr r1, ra27, rb28
shr r0, ra27, rb28; mul24 r1, r1, ra27
nop; mul24 r0, ra27, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0; mul24 ra4, rb9, rb9
add r2, r2, r0
ldi r3, 24
shr r1, rb9, r3
shr r0, rb9, r3; mul24 r1, r1, rb9
nop; mul24 r0, rb9, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb8, rb8
add r2, r2, r0
ldi r3, 24
shr r1, rb8, r3
shr r0, rb8, r3; mul24 r1, r1, rb8
nop; mul24 r0, rb8, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb7, rb7
add r2, r2, r0
ldi r3, 24
shr r1, rb7, r3
shr r0, rb7, r3; mul24 r1, r1, rb7
nop; mul24 r0, rb7, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb6, rb6
add r2, r2, r0
ldi r3, 24
shr r1, rb6, r3
shr r0, rb6, r3; mul24 r1, r1, rb6
nop; mul24 r0, rb6, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra26, ra26
shr r1, ra26, rb28
shr r0, ra26, rb28; mul24 r1, r1, ra26
nop; mul24 r0, ra26, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra25, ra25
shr r1, ra25, rb28
shr r0, ra25, rb28; mul24 r1, r1, ra25
nop; mul24 r0, ra25, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra24, ra24
shr r1, ra24, rb28
shr r0, ra24, rb28; mul24 r1, r1, ra24
nop; mul24 r0, ra24, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra23, ra23
shr r1, ra23, rb28
shr r0, ra23, rb28; mul24 r1, r1, ra23
nop; mul24 r0, ra23, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0; mul24 ra4, rb5, rb5
add r2, r2, r0
ldi r3, 24
shr r1, rb5, r3
shr r0, rb5, r3; mul24 r1, r1, rb5
nop; mul24 r0, rb5, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb4, rb4
add r2, r2, r0
ldi r3, 24
shr r1, rb4, r3
shr r0, rb4, r3; mul24 r1, r1, rb4
nop; mul24 r0, rb4, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb3, rb3
add r2, r2, r0
ldi r3, 24
shr r1, rb3, r3
shr r0, rb3, r3; mul24 r1, r1, rb3
nop; mul24 r0, rb3, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0; mul24 ra4, rb1, rb1
add r2, r2, r0
ldi r3, 24
shr r1, rb1, r3
shr r0, rb1, r3; mul24 r1, r1, rb1
nop; mul24 r0, rb1, r0
add r0, r1, r0
shl r0, r0, r3
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra22, ra22
shr r1, ra22, rb28
shr r0, ra22, rb28; mul24 r1, r1, ra22
nop; mul24 r0, ra22, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra21, ra21
shr r1, ra21, rb28
shr r0, ra21, rb28; mul24 r1, r1, ra21
nop; mul24 r0, ra21, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra20, ra20
shr r1, ra20, rb28
shr r0, ra20, rb28; mul24 r1, r1, ra20
nop; mul24 r0, ra20, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra19, ra19
shr r1, ra19, rb28
shr r0, ra19, rb28; mul24 r1, r1, ra19
nop; mul24 r0, ra19, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra18, ra18
shr r1, ra18, rb28
shr r0, ra18, rb28; mul24 r1, r1, ra18
nop; mul24 r0, ra18, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra17, ra17
shr r1, ra17, rb28
shr r0, ra17, rb28; mul24 r1, r1, ra17
nop; mul24 r0, ra17, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra16, ra16
shr r1, ra16, rb28
shr r0, ra16, rb28; mul24 r1, r1, ra16
nop; mul24 r0, ra16, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra15, ra15
shr r1, ra15, rb28
shr r0, ra15, rb28; mul24 r1, r1, ra15
nop; mul24 r0, ra15, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra14, ra14
shr r1, ra14, rb28
shr r0, ra14, rb28; mul24 r1, r1, ra14
nop; mul24 r0, ra14, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra13, ra13
shr r1, ra13, rb28
shr r0, ra13, rb28; mul24 r1, r1, ra13
nop; mul24 r0, ra13, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra12, ra12
shr r1, ra12, rb28
shr r0, ra12, rb28; mul24 r1, r1, ra12
nop; mul24 r0, ra12, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra11, ra11
shr r1, ra11, rb28
shr r0, ra11, rb28; mul24 r1, r1, ra11
nop; mul24 r0, ra11, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra10, ra10
shr r1, ra10, rb28
shr r0, ra10, rb28; mul24 r1, r1, ra10
nop; mul24 r0, ra10, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra9, ra9
shr r1, ra9, rb28
shr r0, ra9, rb28; mul24 r1, r1, ra9
nop; mul24 r0, ra9, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra8, ra8
shr r1, ra8, rb28
shr r0, ra8, rb28; mul24 r1, r1, ra8
nop; mul24 r0, ra8, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra7, ra7
shr r1, ra7, rb28
shr r0, ra7, rb28; mul24 r1, r1, ra7
nop; mul24 r0, ra7, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra6, ra6
shr r1, ra6, rb28
shr r0, ra6, rb28; mul24 r1, r1, ra6
nop; mul24 r0, ra6, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
ldi rb28, 24
add r2, r2, r0; mul24 ra4, ra5, ra5
shr r1, ra5, rb28
shr r0, ra5, rb28; mul24 r1, r1, ra5
nop; mul24 r0, ra5, r0
add r0, r1, r0
shl r0, r0, rb28
add r0, ra4, r0
add r2, r2, r0
ldi r0, 0
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 64
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 128
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 192
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 256
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x00000340
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x00000380
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add r2, r2, r0; mov -, vw_wait
ldi r0, 0x00001a00
sub.setf -, ra3, r0; mov vw_setup, ra3
add r2, r2, rb31
add r2, r2, rb30
add r2, r2, rb27
add r2, r2, rb26
add r2, r2, rb25
add r2, r2, rb24
add r2, r2, rb23
add r2, r2, rb22
add r2, r2, rb21
add r2, r2, rb20
add r2, r2, rb19
add r2, r2, rb18
add r2, r2, rb17
add r2, r2, rb16
add r2, r2, rb15
add r2, r2, rb14
add r2, r2, ra31
add r2, r2, rb13
add r2, r2, rb12
add r2, r2, rb11
add r2, r2, rb10
add r2, r2, ra30
add r2, r2, ra29
add r2, r2, ra28
add r2, r2, ra27
add r2, r2, rb9
add r2, r2, rb8
add r2, r2, rb7
add r2, r2, rb6
add r2, r2, ra26
add r2, r2, ra25
add r2, r2, ra24
add r2, r2, ra23
add r2, r2, rb5
add r2, r2, rb4
add r2, r2, rb3
add r2, r2, rb1
add r2, r2, ra22
add r2, r2, ra21
add r2, r2, ra20
add r2, r2, ra19
add r2, r2, ra18
add r2, r2, ra17
add r2, r2, ra16
add r2, r2, ra15
add r2, r2, ra14
add r2, r2, ra13
add r2, r2, ra12
add r2, r2, ra11
add r2, r2, ra10
add r2, r2, ra9
add r2, r2, ra8
add r2, r2, ra7
add r2, r2, ra6
add r2, r2, ra5
mov vpm, r2
mov vw_setup, rb0
brr.allnz -, r:L1641
mov vw_addr, rb2
mov -, vw_wait
mov -, vw_wait
mov -, vw_wait
ldi r0, 0x00000300
mov vr_setup, ra2
add vr_addr, ra0, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
sub.setf r0, r0, 1
brr.allz -, r:L1637
nop
nop
nop
:L1631
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L1631
nop
nop
nop
:L1637
ldi host_int, 1
nop; thrend
nop
nop
:L1641
srel -, 15
nop; thrend
nop
nop

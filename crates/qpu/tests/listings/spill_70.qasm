mov ra0, unif; mov -, vw_wait
ldi r0, 0x00001a00
add ra5, ra0, r0
shl r0, ra0, 7
ldi r1, 0x80904000
add ra4, r0, r1; mov vw_setup, ra5
add r0, ra0, 12
ldi r1, 0x00101a00
add rb1, r0, r1; mov ra1, unif
shl r0, r0, 4; mov ra2, unif
ldi r1, 0x81011000
add rb0, r0, r1; mov r0, ra0
mov vpm, r0; mov r0, ra1
mov ra3, unif; mov vw_setup, ra4
ldi rb2, 0x00000340
mov ra7, ra2
add vw_addr, ra3, rb2
mov -, vw_wait
mov vw_setup, ra5
mov vpm, r0
ldi rb2, 0x00000380
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 0; v8min ra1, 0, 0
mov vpm, r0
ldi rb2, 0
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 1
mov vpm, r0
ldi rb2, 64
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 2
mov vpm, r0
ldi rb2, 128
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 3
mov vpm, r0
ldi rb2, 192
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 4
mov vpm, r0
ldi rb2, 256
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 5
mov vpm, r0
ldi rb2, 0x00000140
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 6
mov vpm, r0
ldi rb2, 0x00000180
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 7
mov vpm, r0
ldi rb2, 0x000001c0
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 8
mov vpm, r0
ldi rb2, 0x00000200
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 9
mov vpm, r0
ldi rb2, 0x00000240
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 10
mov vpm, r0
ldi rb2, 0x00000280
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 11
mov vpm, r0
ldi rb2, 0x000002c0
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 12
mov vpm, r0
ldi rb2, 0x00000300
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 13
mov vpm, r0
ldi rb2, 0x000003c0
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 14
mov vpm, r0
ldi rb2, 0x00000400
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
add r0, r4, 15
mov vpm, r0
ldi rb2, 0x00000440
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
ldi r0, 16
add r0, r4, r0
mov vpm, r0
ldi rb2, 0x00000480
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra5; ldtmu1
ldi r0, 17
add r0, r4, r0
mov vpm, r0
ldi rb2, 0x000004c0
mov vw_setup, ra4
add vw_addr, ra3, rb2
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 18
add rb31, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 19
add rb30, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 20
add rb29, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 21
add ra31, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 22
add r3, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 23
add ra30, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 24
add ra29, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 25
add rb28, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 26
add rb27, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 27
add rb26, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 28
add rb25, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 29
add ra28, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 30
add ra27, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 31
add ra26, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 32
add ra25, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 33
add rb24, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 34
add rb23, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 35
add rb22, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 36
add rb21, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 37
add ra24, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 38
add ra23, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 39
add ra22, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 40
add ra21, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 41
add rb20, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 42
add rb19, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 43
add rb18, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 44
add rb17, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 45
add ra20, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 46
add ra19, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 47
add ra18, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 48
add ra17, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 49
add rb16, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 50
add rb15, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 51
add rb14, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 52
add rb13, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 53
add ra16, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 54
add ra15, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 55
add ra14, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 56
add ra13, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 57
add rb12, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 58
add rb11, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 59
add rb10, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 60
add rb9, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 61
add ra12, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 62
add ra11, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 63
add ra10, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 64
add ra9, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 65
add rb8, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 66
add rb7, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 67
add rb6, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 68
add rb5, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vr_setup, rb0; ldtmu1
ldi r0, 69
add ra8, r4, r0
ldi r0, 0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra6, 24
mov r0, vpm
shr rb2, r0, ra6; mov -, vw_wait
ldi r0, 0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr rb3, r0, ra6; mov -, vw_wait
ldi r0, 0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra2, r0, r0
ldi r0, 0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 ra0, rb2, r0
mov -, vw_wait
ldi r0, 0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 r0, r0, rb3
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, ra6; mov vr_setup, rb0
add r0, ra2, r0
add ra1, ra1, r0
ldi r0, 64
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra6, 24
mov r0, vpm
shr rb3, r0, ra6; mov -, vw_wait
ldi r0, 64
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr ra2, r0, ra6; mov -, vw_wait
ldi r0, 64
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, r0, r0
ldi r0, 64
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 ra0, rb3, r0
mov -, vw_wait
ldi r0, 64
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra2
add r0, ra0, r0; mov vr_setup, rb0
shl r0, r0, ra6
add r0, rb2, r0
add ra1, ra1, r0
ldi r0, 128
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra6, 24
mov r0, vpm
shr ra0, r0, ra6; mov -, vw_wait
ldi r0, 128
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr ra2, r0, ra6; mov -, vw_wait
ldi r0, 128
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, r0, r0
ldi r0, 128
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, ra0, r0
ldi r0, 128
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra2
add r0, ra0, r0; mov vr_setup, rb0
shl r0, r0, ra6
add r0, rb2, r0
add ra1, ra1, r0
ldi r0, 192
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra2, 24
mov r0, vpm
shr ra0, r0, ra2; mov -, vw_wait
ldi r0, 192
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr rb3, r0, ra2; mov -, vw_wait
ldi r0, 192
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, r0, r0
ldi r0, 192
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, ra0, r0
ldi r0, 192
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 r0, r0, rb3
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, ra2; mov vr_setup, rb0
add r0, rb2, r0
add ra1, ra1, r0
ldi r0, 256
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra0, 24
mov r0, vpm
shr rb2, r0, ra0; mov -, vw_wait
ldi r0, 256
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr rb4, r0, ra0; mov -, vw_wait
ldi r0, 256
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb3, r0, r0
ldi r0, 256
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 rb2, rb2, r0
mov -, vw_wait
ldi r0, 256
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, rb2, r0
shl r0, r0, ra0; mov -, vw_wait
add r0, rb3, r0
add ra1, ra1, r0
ldi r0, 0x00000140
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi rb3, 24
mov r0, vpm
shr rb2, r0, rb3
mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr ra2, r0, rb3
mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x00000140
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 rb2, rb2, r0
mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra2
add r0, rb2, r0
shl r0, r0, rb3
add r0, ra0, r0; mov vr_setup, rb0
add ra1, ra1, r0
ldi r0, 0x00000180
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi rb3, 24
mov r0, vpm
shr ra2, r0, rb3
mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr ra6, r0, rb3
mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x00000180
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, ra2, r0
ldi r0, 0x00000180
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, rb2, r0
shl r0, r0, rb3
add r0, ra0, r0; mov vr_setup, rb0
add ra1, ra1, r0
ldi r0, 0x000001c0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi rb4, 24
mov r0, vpm
shr ra2, r0, rb4
mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr rb3, r0, rb4
mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x000001c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, ra2, r0
ldi r0, 0x000001c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 r0, r0, rb3
add r0, rb2, r0
shl r0, r0, rb4
add r0, ra0, r0; mov -, vw_wait
add ra1, ra1, r0
ldi r0, 0x00000200
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra6, 24
mov r0, vpm
shr rb2, r0, ra6; mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr rb3, r0, ra6; mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra2, r0, r0
ldi r0, 0x00000200
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 ra0, rb2, r0
mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 r0, r0, rb3
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, ra6; mov vr_setup, rb0
add r0, ra2, r0
add ra1, ra1, r0
ldi r0, 0x00000240
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra6, 24
mov r0, vpm
shr rb3, r0, ra6; mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr ra2, r0, ra6; mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, r0, r0
ldi r0, 0x00000240
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 ra0, rb3, r0
mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra2
add r0, ra0, r0; mov vr_setup, rb0
shl r0, r0, ra6
add r0, rb2, r0
add ra1, ra1, r0
ldi r0, 0x00000280
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra6, 24
mov r0, vpm
shr ra0, r0, ra6; mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr ra2, r0, ra6; mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, r0, r0
ldi r0, 0x00000280
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, ra0, r0
ldi r0, 0x00000280
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra2
add r0, ra0, r0; mov vr_setup, rb0
shl r0, r0, ra6
add r0, rb2, r0
add ra1, ra1, r0
ldi r0, 0x000002c0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi rb4, 24
mov r0, vpm
shr ra0, r0, rb4
mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr rb3, r0, rb4
mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, r0, r0
ldi r0, 0x000002c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, ra0, r0
ldi r0, 0x000002c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 r0, r0, rb3
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, rb4
add r0, rb2, r0
add ra1, ra1, r0
ldi r0, 0x00000300
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra0, 24
mov r0, vpm
shr rb2, r0, ra0; mov -, vw_wait
ldi r0, 0x00000300
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr rb4, r0, ra0; mov -, vw_wait
ldi r0, 0x00000300
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb3, r0, r0
ldi r0, 0x00000300
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 rb2, rb2, r0
mov -, vw_wait
ldi r0, 0x00000300
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, rb2, r0
shl r0, r0, ra0; mov -, vw_wait
add r0, rb3, r0
add ra1, ra1, r0
ldi r0, 0x000003c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi rb3, 24
mov r0, vpm
shr rb2, r0, rb3
mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr ra2, r0, rb3
mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x000003c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 rb2, rb2, r0
mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra2
add r0, rb2, r0
shl r0, r0, rb3
add r0, ra0, r0; mov vr_setup, rb0
add ra1, ra1, r0
ldi r0, 0x00000400
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi rb3, 24
mov r0, vpm
shr ra2, r0, rb3
mov -, vw_wait
ldi r0, 0x00000400
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr ra6, r0, rb3
mov -, vw_wait
ldi r0, 0x00000400
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x00000400
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, ra2, r0
ldi r0, 0x00000400
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, rb2, r0
shl r0, r0, rb3
add r0, ra0, r0; mov vr_setup, rb0
add ra1, ra1, r0
ldi r0, 0x00000440
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi rb4, 24
mov r0, vpm
shr ra2, r0, rb4
mov -, vw_wait
ldi r0, 0x00000440
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr rb3, r0, rb4
mov -, vw_wait
ldi r0, 0x00000440
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x00000440
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, ra2, r0
ldi r0, 0x00000440
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 r0, r0, rb3
add r0, rb2, r0
shl r0, r0, rb4
add r0, ra0, r0; mov -, vw_wait
add ra1, ra1, r0
ldi r0, 0x00000480
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra6, 24
mov r0, vpm
shr rb2, r0, ra6; mov -, vw_wait
ldi r0, 0x00000480
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr rb3, r0, ra6; mov -, vw_wait
ldi r0, 0x00000480
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 ra2, r0, r0
ldi r0, 0x00000480
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 ra0, rb2, r0
mov -, vw_wait
ldi r0, 0x00000480
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 r0, r0, rb3
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, ra6; mov vr_setup, rb0
add r0, ra2, r0
add ra1, ra1, r0
ldi r0, 0x000004c0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
ldi ra6, 24
mov r0, vpm
shr rb3, r0, ra6; mov -, vw_wait
ldi r0, 0x000004c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
shr ra2, r0, ra6; mov -, vw_wait
ldi r0, 0x000004c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 rb2, r0, r0
ldi r0, 0x000004c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
nop; mul24 ra0, rb3, r0
mov -, vw_wait
ldi r0, 0x000004c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra2
add r0, ra0, r0; mul24 ra0, rb31, rb31
shl r0, r0, ra6; mov vr_setup, rb0
add r0, rb2, r0
ldi ra2, 24
add ra1, ra1, r0
shr r0, rb31, ra2
shr r2, rb31, ra2; mul24 r1, r0, rb31
nop; mul24 r0, rb31, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0; mul24 ra0, rb30, rb30
ldi ra2, 24
add ra1, ra1, r0
shr r0, rb30, ra2
shr r2, rb30, ra2; mul24 r1, r0, rb30
nop; mul24 r0, rb30, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0; mul24 ra0, rb29, rb29
ldi rb2, 24
add ra1, ra1, r0
mov r0, rb2; mov r1, rb2
shr r2, rb29, r0
shr r0, rb29, r1; mul24 r1, r2, rb29
nop; mul24 r0, rb29, r0
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra31, rb2; mul24 ra0, ra31, ra31
shr r2, ra31, rb2; mul24 r1, r0, ra31
nop; mul24 r0, ra31, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0; mul24 ra0, r3, r3
ldi rb2, 24
add ra1, ra1, r0
shr r0, r3, rb2
shr r2, r3, rb2; mul24 r1, r0, r3
nop; mul24 r0, r3, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra30, rb2; mul24 ra0, ra30, ra30
shr r2, ra30, rb2; mul24 r1, r0, ra30
nop; mul24 r0, ra30, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra29, rb2; mul24 ra0, ra29, ra29
shr r2, ra29, rb2; mul24 r1, r0, ra29
nop; mul24 r0, ra29, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0; mul24 ra0, rb28, rb28
ldi ra2, 24
add ra1, ra1, r0
shr r0, rb28, ra2
shr r2, rb28, ra2; mul24 r1, r0, rb28
nop; mul24 r0, rb28, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0; mul24 ra0, rb27, rb27
ldi ra2, 24
add ra1, ra1, r0
shr r0, rb27, ra2
shr r2, rb27, ra2; mul24 r1, r0, rb27
nop; mul24 r0, rb27, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0; mul24 ra0, rb26, rb26
ldi ra2, 24
add ra1, ra1, r0
shr r0, rb26, ra2
shr r2, rb26, ra2; mul24 r1, r0, rb26
nop; mul24 r0, rb26, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0; mul24 ra0, rb25, rb25
ldi ra2, 24
add ra1, ra1, r0
shr r0, rb25, ra2
shr r2, rb25, ra2; mul24 r1, r0, rb25
nop; mul24 r0, rb25, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra28, rb2; mul24 ra0, ra28, ra28
shr r2, ra28, rb2; mul24 r1, r0, ra28
nop; mul24 r0, ra28, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra27, rb2; mul24 ra0, ra27, ra27
shr r2, ra27, rb2; mul24 r1, r0, ra27
nop; mul24 r0, ra27, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra26, rb2; mul24 ra0, ra26, ra26
shr r2, ra26, rb2; mul24 r1, r0, ra26
nop; mul24 r0, ra26, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra25, rb2; mul24 ra0, ra25, ra25
shr r2, ra25, rb2; mul24 r1, r0, ra25
nop; mul24 r0, ra25, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0; mul24 ra0, rb24, rb24
ldi ra2, 24
add ra1, ra1, r0; mul24 rb2, rb21, rb21
shr r0, rb24, ra2
shr r2, rb24, ra2; mul24 r1, r0, rb24
nop; mul24 r0, rb24, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0; mul24 ra0, rb23, rb23
ldi ra2, 24
add ra1, ra1, r0
shr r0, rb23, ra2
shr r2, rb23, ra2; mul24 r1, r0, rb23
nop; mul24 r0, rb23, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0; mul24 ra0, rb22, rb22
ldi ra2, 24
add ra1, ra1, r0
shr r0, rb22, ra2
shr r2, rb22, ra2; mul24 r1, r0, rb22
nop; mul24 r0, rb22, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0
ldi ra0, 24
add ra1, ra1, r0
shr r0, rb21, ra0
shr r2, rb21, ra0; mul24 r1, r0, rb21
nop; mul24 r0, rb21, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0; mul24 rb2, ra24, ra24
ldi rb3, 24
add ra1, ra1, r0
shr r0, ra24, rb3
shr r2, ra24, rb3; mul24 r1, r0, ra24
nop; mul24 r0, ra24, r2
add r0, r1, r0; mul24 ra0, ra23, ra23
shl r0, r0, rb3
add r0, rb2, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra23, rb2
shr r2, ra23, rb2; mul24 r1, r0, ra23
nop; mul24 r0, ra23, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra22, rb2; mul24 ra0, ra22, ra22
shr r2, ra22, rb2; mul24 r1, r0, ra22
nop; mul24 r0, ra22, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra21, rb2; mul24 ra0, ra21, ra21
shr r2, ra21, rb2; mul24 r1, r0, ra21
nop; mul24 r0, ra21, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0; mul24 ra0, rb20, rb20
ldi ra2, 24
add ra1, ra1, r0; mul24 rb2, rb19, rb19
shr r0, rb20, ra2
shr r2, rb20, ra2; mul24 r1, r0, rb20
nop; mul24 r0, rb20, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0
ldi ra0, 24
add ra1, ra1, r0
shr r0, rb19, ra0
shr r2, rb19, ra0; mul24 r1, r0, rb19
nop; mul24 r0, rb19, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0
ldi ra0, 24
add ra1, ra1, r0; mul24 rb2, rb18, rb18
shr r0, rb18, ra0
shr r2, rb18, ra0; mul24 r1, r0, rb18
nop; mul24 r0, rb18, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0
ldi ra0, 24
add ra1, ra1, r0; mul24 rb2, rb17, rb17
shr r0, rb17, ra0
shr r2, rb17, ra0; mul24 r1, r0, rb17
nop; mul24 r0, rb17, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0; mul24 rb2, ra20, ra20
ldi rb3, 24
add ra1, ra1, r0
shr r0, ra20, rb3
shr r2, ra20, rb3; mul24 r1, r0, ra20
nop; mul24 r0, ra20, r2
add r0, r1, r0; mul24 ra0, ra19, ra19
shl r0, r0, rb3
add r0, rb2, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra19, rb2
shr r2, ra19, rb2; mul24 r1, r0, ra19
nop; mul24 r0, ra19, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra18, rb2; mul24 ra0, ra18, ra18
shr r2, ra18, rb2; mul24 r1, r0, ra18
nop; mul24 r0, ra18, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra17, rb2; mul24 ra0, ra17, ra17
shr r2, ra17, rb2; mul24 r1, r0, ra17
nop; mul24 r0, ra17, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0; mul24 ra0, rb16, rb16
ldi ra2, 24
add ra1, ra1, r0; mul24 rb2, rb15, rb15
shr r0, rb16, ra2
shr r2, rb16, ra2; mul24 r1, r0, rb16
nop; mul24 r0, rb16, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0
ldi ra0, 24
add ra1, ra1, r0
shr r0, rb15, ra0
shr r2, rb15, ra0; mul24 r1, r0, rb15
nop; mul24 r0, rb15, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0
ldi ra0, 24
add ra1, ra1, r0; mul24 rb2, rb14, rb14
shr r0, rb14, ra0
shr r2, rb14, ra0; mul24 r1, r0, rb14
nop; mul24 r0, rb14, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0
ldi ra0, 24
add ra1, ra1, r0; mul24 rb2, rb13, rb13
shr r0, rb13, ra0
shr r2, rb13, ra0; mul24 r1, r0, rb13
nop; mul24 r0, rb13, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0; mul24 rb2, ra16, ra16
ldi rb3, 24
add ra1, ra1, r0
shr r0, ra16, rb3
shr r2, ra16, rb3; mul24 r1, r0, ra16
nop; mul24 r0, ra16, r2
add r0, r1, r0; mul24 ra0, ra15, ra15
shl r0, r0, rb3
add r0, rb2, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra15, rb2
shr r2, ra15, rb2; mul24 r1, r0, ra15
nop; mul24 r0, ra15, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra14, rb2; mul24 ra0, ra14, ra14
shr r2, ra14, rb2; mul24 r1, r0, ra14
nop; mul24 r0, ra14, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra13, rb2; mul24 ra0, ra13, ra13
shr r2, ra13, rb2; mul24 r1, r0, ra13
nop; mul24 r0, ra13, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0; mul24 ra0, rb12, rb12
ldi ra2, 24
add ra1, ra1, r0; mul24 rb2, rb11, rb11
shr r0, rb12, ra2
shr r2, rb12, ra2; mul24 r1, r0, rb12
nop; mul24 r0, rb12, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0
ldi ra0, 24
add ra1, ra1, r0
shr r0, rb11, ra0
shr r2, rb11, ra0; mul24 r1, r0, rb11
nop; mul24 r0, rb11, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0
ldi ra0, 24
add ra1, ra1, r0; mul24 rb2, rb10, rb10
shr r0, rb10, ra0
shr r2, rb10, ra0; mul24 r1, r0, rb10
nop; mul24 r0, rb10, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0
ldi ra0, 24
add ra1, ra1, r0; mul24 rb2, rb9, rb9
shr r0, rb9, ra0
shr r2, rb9, ra0; mul24 r1, r0, rb9
nop; mul24 r0, rb9, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0; mul24 rb2, ra12, ra12
ldi rb3, 24
add ra1, ra1, r0
shr r0, ra12, rb3
shr r2, ra12, rb3; mul24 r1, r0, ra12
nop; mul24 r0, ra12, r2
add r0, r1, r0; mul24 ra0, ra11, ra11
shl r0, r0, rb3
add r0, rb2, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra11, rb2
shr r2, ra11, rb2; mul24 r1, r0, ra11
nop; mul24 r0, ra11, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra10, rb2; mul24 ra0, ra10, ra10
shr r2, ra10, rb2; mul24 r1, r0, ra10
nop; mul24 r0, ra10, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0
ldi rb2, 24
add ra1, ra1, r0
shr r0, ra9, rb2; mul24 ra0, ra9, ra9
shr r2, ra9, rb2; mul24 r1, r0, ra9
nop; mul24 r0, ra9, r2
add r0, r1, r0
shl r0, r0, rb2
add r0, ra0, r0; mul24 ra0, rb8, rb8
ldi ra2, 24
add ra1, ra1, r0; mul24 rb2, rb7, rb7
shr r0, rb8, ra2
shr r2, rb8, ra2; mul24 r1, r0, rb8
nop; mul24 r0, rb8, r2
add r0, r1, r0
shl r0, r0, ra2
add r0, ra0, r0
ldi ra0, 24
add ra1, ra1, r0
shr r0, rb7, ra0
shr r2, rb7, ra0; mul24 r1, r0, rb7
nop; mul24 r0, rb7, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0
ldi ra0, 24
add ra1, ra1, r0; mul24 rb2, rb6, rb6
shr r0, rb6, ra0
shr r2, rb6, ra0; mul24 r1, r0, rb6
nop; mul24 r0, rb6, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0
ldi ra0, 24
add ra1, ra1, r0; mul24 rb2, rb5, rb5
shr r0, rb5, ra0
shr r2, rb5, ra0; mul24 r1, r0, rb5
nop; mul24 r0, rb5, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb2, r0; mul24 rb2, ra8, ra8
ldi rb3, 24
add ra1, ra1, r0
shr r0, ra8, rb3
shr r2, ra8, rb3; mul24 r1, r0, ra8
nop; mul24 r0, ra8, r2
add r0, r1, r0; mov r1, rb25
shl r0, r0, rb3; mov r2, ra31
add r0, rb2, r0
add ra1, ra1, r0
ldi r0, 0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 64
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 128
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 192
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 256
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x00000300
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x00000400
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x00000440
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x00000480
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
ldi r0, 0x000004c0
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
add ra1, ra1, r0; mov -, vw_wait
mov r0, ra30
add ra1, ra1, rb31
mov vw_setup, ra5
add ra1, ra1, rb30
nop
add ra1, ra1, rb29
nop
add ra1, ra1, r2
mov r2, ra29
add ra1, ra1, r3
mov r3, ra27
add ra1, ra1, r0
mov r0, ra26
add ra1, ra1, r2
mov r2, ra28
add ra1, ra1, rb28
nop
add ra1, ra1, rb27
nop
add ra1, ra1, rb26
nop
add ra1, ra1, r1; mov r1, rb21
nop
add ra1, ra1, r2
mov r2, ra24
add ra1, ra1, r3
mov r3, ra25
add ra1, ra1, r0
mov r0, ra22
add ra1, ra1, r3
mov r3, ra23
add ra1, ra1, rb24
nop
add ra1, ra1, rb23
nop
add ra1, ra1, rb22
nop
add ra1, ra1, r1; mov r1, rb17
nop
add ra1, ra1, r2
mov r2, ra20
add ra1, ra1, r3
mov r3, ra19
add ra1, ra1, r0
mov r0, ra21
add ra1, ra1, r0
mov r0, ra18
add ra1, ra1, rb20
nop
add ra1, ra1, rb19
nop
add ra1, ra1, rb18
nop
add ra1, ra1, r1
mov r1, ra17
add ra1, ra1, r2
mov r2, ra16
add ra1, ra1, r3
mov r3, ra15
add ra1, ra1, r0
mov r0, ra14
add ra1, ra1, r1; mov r1, rb13
nop
add ra1, ra1, rb16
nop
add ra1, ra1, rb15
nop
add ra1, ra1, rb14
nop
add ra1, ra1, r1; mov r1, rb9
nop
add ra1, ra1, r2
mov r2, ra13
add ra1, ra1, r3
mov r3, ra11
add ra1, ra1, r0
mov r0, ra10
add ra1, ra1, r2
mov r2, ra12
add ra1, ra1, rb12
nop
add ra1, ra1, rb11
nop
add ra1, ra1, rb10
nop
add ra1, ra1, r1; mov r1, rb5
nop
add ra1, ra1, r2
nop
add ra1, ra1, r3
mov r3, ra9
add ra1, ra1, r0
mov r0, ra8
add ra1, ra1, r3
nop
add ra1, ra1, rb8
nop
add ra1, ra1, rb7
nop
add ra1, ra1, rb6
nop
add ra1, ra1, r1
nop
add ra1, ra1, r0
ldi r0, 0x00000340
mov vpm, ra1
mov vw_setup, ra4
mov vw_addr, ra7
mov -, vw_wait
mov -, vw_wait
mov -, vw_wait
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
mov.setf -, r0
brr.allnz -, r:L1845
nop
nop
nop
mov -, vw_wait
ldi r0, 0x00000380
mov vr_setup, rb0
add vr_addr, ra3, r0
mov -, vr_wait
mov vr_setup, rb1
mov r0, vpm
sub.setf r0, r0, 1
brr.allz -, r:L1841
nop
nop
nop
:L1835
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L1835
nop
nop
nop
:L1841
ldi host_int, 1
nop; thrend
nop
nop
:L1845
srel -, 15
nop; thrend
nop
nop

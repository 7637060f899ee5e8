mov ra0, unif; mov -, vw_wait
ldi r0, 0x00001a00
add ra3, ra0, r0; mov rb0, unif
shl r1, ra0, 7
ldi r0, 0x80904000
add ra2, r1, r0; mov vw_setup, ra3
add r1, ra0, 12
ldi r0, 0x00101a00
add ra1, r1, r0; mov rb1, unif
shl r1, r1, 4; mov rb2, unif
ldi r0, 0x81011000
add rb3, r1, r0; mov r0, ra0
mov vpm, r0; mov r0, rb0
ldi ra0, 0x00000340
mov vw_setup, ra2; mov ra7, rb1
add vw_addr, rb2, ra0
mov -, vw_wait
mov vw_setup, ra3
mov vpm, r0
ldi ra0, 0x00000380
mov vw_setup, ra2
add vw_addr, rb2, ra0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 0; v8min ra5, 0, 0
mov vpm, r0
ldi ra0, 0
mov vw_setup, ra2
add vw_addr, rb2, ra0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 1
mov vpm, r0
ldi ra0, 64
mov vw_setup, ra2
add vw_addr, rb2, ra0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 2
mov vpm, r0
ldi r3, 128
mov vw_setup, ra2
add vw_addr, rb2, r3
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 3
ldi rb0, 192
mov vpm, r0
mov vw_setup, ra2; mov r0, rb0
add vw_addr, rb2, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 4
mov vpm, r0
ldi r1, 256
mov vw_setup, ra2
add vw_addr, rb2, r1
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 5
mov vpm, r0
ldi r2, 0x00000140
mov vw_setup, ra2
add vw_addr, rb2, r2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 6
mov vpm, r0
ldi r3, 0x00000180
mov vw_setup, ra2
add vw_addr, rb2, r3
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 7
ldi rb0, 0x000001c0
mov vpm, r0
mov vw_setup, ra2; mov r0, rb0
add vw_addr, rb2, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 8
mov vpm, r0
ldi r1, 0x00000200
mov vw_setup, ra2
add vw_addr, rb2, r1
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 9
ldi rb0, 0x00000240
mov vpm, r0
mov vw_setup, ra2; mov r0, rb0
add vw_addr, rb2, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 10
mov vpm, r0
ldi r3, 0x00000280
mov vw_setup, ra2
add vw_addr, rb2, r3
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 11
ldi rb0, 0x000002c0
mov vpm, r0
mov vw_setup, ra2; mov r0, rb0
add vw_addr, rb2, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 12
mov vpm, r0
ldi r1, 0x00000300
mov vw_setup, ra2
add vw_addr, rb2, r1
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 13
mov vpm, r0
ldi r2, 0x000003c0
mov vw_setup, ra2
add vw_addr, rb2, r2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 14
mov vpm, r0
ldi ra0, 0x00000400
mov vw_setup, ra2
add vw_addr, rb2, ra0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
add r0, r4, 15
mov vpm, r0
ldi ra0, 0x00000440
mov vw_setup, ra2
add vw_addr, rb2, ra0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
ldi r0, 16
add r0, r4, r0
mov vpm, r0
ldi r2, 0x00000480
mov vw_setup, ra2
add vw_addr, rb2, r2
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
ldi r0, 17
add r0, r4, r0
mov vpm, r0
ldi r3, 0x000004c0
mov vw_setup, ra2
add vw_addr, rb2, r3
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
ldi r0, 18
add r0, r4, r0
mov vpm, r0
ldi r3, 0x00000500
mov vw_setup, ra2
add vw_addr, rb2, r3
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vw_setup, ra3; ldtmu1
ldi r0, 19
add r0, r4, r0
ldi ra0, 0x00000540
mov vpm, r0
mov vw_setup, ra2
mov r0, ra0
add vw_addr, rb2, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 20
add rb30, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 21
add rb29, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 22
add rb28, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 23
add ra31, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 24
add ra30, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 25
add ra29, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 26
add ra28, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 27
add rb27, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 28
add rb26, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 29
add rb25, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 30
add rb24, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 31
add ra27, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 32
add ra26, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 33
add ra25, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 34
add ra24, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 35
add rb23, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 36
add rb22, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 37
add rb21, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 38
add rb20, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 39
add ra23, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 40
add ra22, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 41
add ra21, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 42
add ra20, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 43
add rb19, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 44
add rb18, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 45
add rb17, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 46
add rb16, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 47
add ra19, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 48
add ra18, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 49
add ra17, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 50
add ra16, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 51
add rb15, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 52
add rb14, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 53
add rb13, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 54
add rb12, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 55
add ra15, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 56
add ra14, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 57
add ra13, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 58
add ra12, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 59
add rb11, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 60
add rb10, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 61
add rb9, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 62
add rb8, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 63
add ra11, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 64
add ra10, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 65
add ra9, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 66
add ra8, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 67
add rb7, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0
nop; ldtmu1
ldi r0, 68
add rb6, r4, r0
shl r0, elem_num, 2
add tmu1_s, ra7, r0; mov -, vw_wait
mov vr_setup, rb3; ldtmu1
ldi r0, 69
add rb5, r4, r0
ldi r0, 0
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi rb1, 24
mov r0, vpm
shr ra4, r0, rb1
mov -, vw_wait
ldi r0, 0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra6, r0, rb1
mov -, vw_wait
ldi r0, 0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, ra4, r0
ldi r0, 0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, rb0, r0
shl r0, r0, rb1
add r0, ra0, r0; mov vr_setup, rb3
add ra5, ra5, r0
ldi r0, 64
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra0, 24
mov r0, vpm
shr rb0, r0, ra0; mov -, vw_wait
ldi r0, 64
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, ra0; mov -, vw_wait
ldi r0, 64
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb1, r0, r0
ldi r0, 64
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb0, rb0, r0
mov -, vw_wait
ldi r0, 64
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, rb0, r0
shl r0, r0, ra0; mov -, vw_wait
add r0, rb1, r0
add ra5, ra5, r0
ldi r0, 128
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra4, 24
mov r0, vpm
shr rb1, r0, ra4; mov -, vw_wait
ldi r0, 128
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, ra4; mov -, vw_wait
ldi r0, 128
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, r0, r0
ldi r0, 128
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 ra0, rb1, r0
mov -, vw_wait
ldi r0, 128
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, ra4; mov vr_setup, rb3
add r0, rb0, r0
add ra5, ra5, r0
ldi r0, 192
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra4, 24
mov r0, vpm
shr ra0, r0, ra4; mov -, vw_wait
ldi r0, 192
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra6, r0, ra4; mov -, vw_wait
ldi r0, 192
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, r0, r0
ldi r0, 192
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, ra0, r0
ldi r0, 192
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, ra0, r0; mov vr_setup, rb3
shl r0, r0, ra4
add r0, rb0, r0
add ra5, ra5, r0
ldi r0, 256
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra4, 24
mov r0, vpm
shr ra0, r0, ra4; mov -, vw_wait
ldi r0, 256
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra6, r0, ra4; mov -, vw_wait
ldi r0, 256
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, r0, r0
ldi r0, 256
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, ra0, r0
ldi r0, 256
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, ra0, r0; mov vr_setup, rb3
shl r0, r0, ra4
add r0, rb0, r0
add ra5, ra5, r0
ldi r0, 0x00000140
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi rb0, 24
mov r0, vpm
shr rb1, r0, rb0
mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, rb0
mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x00000140
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 ra0, rb1, r0
mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, rb0
add r0, ra4, r0; mov vr_setup, rb3
add ra5, ra5, r0
ldi r0, 0x00000180
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi rb1, 24
mov r0, vpm
shr rb0, r0, rb1
mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, rb1
mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x00000180
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb0, rb0, r0
mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, rb0, r0
shl r0, r0, rb1
add r0, ra0, r0; mov -, vw_wait
add ra5, ra5, r0
ldi r0, 0x000001c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi rb1, 24
mov r0, vpm
shr ra4, r0, rb1
mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra6, r0, rb1
mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x000001c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, ra4, r0
ldi r0, 0x000001c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, rb0, r0
shl r0, r0, rb1
add r0, ra0, r0; mov vr_setup, rb3
add ra5, ra5, r0
ldi r0, 0x00000200
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi rb1, 24
mov r0, vpm
shr ra4, r0, rb1
mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra6, r0, rb1
mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x00000200
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, ra4, r0
ldi r0, 0x00000200
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, rb0, r0
shl r0, r0, rb1
add r0, ra0, r0; mov vr_setup, rb3
add ra5, ra5, r0
ldi r0, 0x00000240
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra0, 24
mov r0, vpm
shr rb0, r0, ra0; mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, ra0; mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb1, r0, r0
ldi r0, 0x00000240
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb0, rb0, r0
mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, rb0, r0
shl r0, r0, ra0; mov -, vw_wait
add r0, rb1, r0
add ra5, ra5, r0
ldi r0, 0x00000280
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra4, 24
mov r0, vpm
shr rb1, r0, ra4; mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, ra4; mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, r0, r0
ldi r0, 0x00000280
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 ra0, rb1, r0
mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, ra4; mov vr_setup, rb3
add r0, rb0, r0
add ra5, ra5, r0
ldi r0, 0x000002c0
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra4, 24
mov r0, vpm
shr ra0, r0, ra4; mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra6, r0, ra4; mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, r0, r0
ldi r0, 0x000002c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, ra0, r0
ldi r0, 0x000002c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, ra0, r0; mov vr_setup, rb3
shl r0, r0, ra4
add r0, rb0, r0
add ra5, ra5, r0
ldi r0, 0x00000300
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra4, 24
mov r0, vpm
shr ra0, r0, ra4; mov -, vw_wait
ldi r0, 0x00000300
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra6, r0, ra4; mov -, vw_wait
ldi r0, 0x00000300
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, r0, r0
ldi r0, 0x00000300
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, ra0, r0
ldi r0, 0x00000300
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, ra0, r0; mov vr_setup, rb3
shl r0, r0, ra4
add r0, rb0, r0
add ra5, ra5, r0
ldi r0, 0x000003c0
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi rb0, 24
mov r0, vpm
shr rb1, r0, rb0
mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, rb0
mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra4, r0, r0
ldi r0, 0x000003c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 ra0, rb1, r0
mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, rb0
add r0, ra4, r0; mov vr_setup, rb3
add ra5, ra5, r0
ldi r0, 0x00000400
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi rb1, 24
mov r0, vpm
shr rb0, r0, rb1
mov -, vw_wait
ldi r0, 0x00000400
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, rb1
mov -, vw_wait
ldi r0, 0x00000400
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x00000400
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb0, rb0, r0
mov -, vw_wait
ldi r0, 0x00000400
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, rb0, r0
shl r0, r0, rb1
add r0, ra0, r0; mov -, vw_wait
add ra5, ra5, r0
ldi r0, 0x00000440
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi rb1, 24
mov r0, vpm
shr ra4, r0, rb1
mov -, vw_wait
ldi r0, 0x00000440
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra6, r0, rb1
mov -, vw_wait
ldi r0, 0x00000440
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x00000440
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, ra4, r0
ldi r0, 0x00000440
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, rb0, r0
shl r0, r0, rb1
add r0, ra0, r0; mov vr_setup, rb3
add ra5, ra5, r0
ldi r0, 0x00000480
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi rb1, 24
mov r0, vpm
shr ra4, r0, rb1
mov -, vw_wait
ldi r0, 0x00000480
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra6, r0, rb1
mov -, vw_wait
ldi r0, 0x00000480
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, r0, r0
ldi r0, 0x00000480
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, ra4, r0
ldi r0, 0x00000480
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra6
add r0, rb0, r0
shl r0, r0, rb1
add r0, ra0, r0; mov vr_setup, rb3
add ra5, ra5, r0
ldi r0, 0x000004c0
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra0, 24
mov r0, vpm
shr rb0, r0, ra0; mov -, vw_wait
ldi r0, 0x000004c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, ra0; mov -, vw_wait
ldi r0, 0x000004c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb1, r0, r0
ldi r0, 0x000004c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 rb0, rb0, r0
mov -, vw_wait
ldi r0, 0x000004c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, rb0, r0
shl r0, r0, ra0; mov -, vw_wait
add r0, rb1, r0
add ra5, ra5, r0
ldi r0, 0x00000500
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi ra4, 24
mov r0, vpm
shr rb1, r0, ra4; mov -, vw_wait
ldi r0, 0x00000500
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr rb4, r0, ra4; mov -, vw_wait
ldi r0, 0x00000500
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, r0, r0
ldi r0, 0x00000500
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 ra0, rb1, r0
mov -, vw_wait; mul24 rb1, ra31, ra31
ldi r0, 0x00000500
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
nop; mul24 r0, r0, rb4
add r0, ra0, r0; mov -, vw_wait
shl r0, r0, ra4; mov vr_setup, rb3
add r0, rb0, r0
add ra5, ra5, r0
ldi r0, 0x00000540
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
ldi r1, 24
mov r0, vpm; mov r2, r1
shr ra0, r0, r1; mov -, vw_wait
ldi r0, 0x00000540
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
shr ra4, r0, r2; mov -, vw_wait
ldi r0, 0x00000540
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 rb0, r0, r0
ldi r0, 0x00000540
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 ra0, ra0, r0
ldi r0, 0x00000540
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov -, vw_wait; mul24 r0, r0, ra4
add r0, ra0, r0; mul24 ra4, rb27, rb27
shl r0, r0, r1; mov vr_setup, rb3
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb30, rb30
mov r0, ra0; mov r1, ra0
shr r2, rb30, r0
shr r0, rb30, r1; mul24 r1, r2, rb30
nop; mul24 r0, rb30, r0
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi r2, 24
add ra5, ra5, r0; mov r3, r2
shr r1, rb29, r2; mul24 rb0, rb29, rb29
shr r0, rb29, r3; mov r3, ra31
nop; mul24 r1, r1, rb29
nop; mul24 r0, rb29, r0
add r0, r1, r0
shl r0, r0, r2
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb28, rb28
shr r0, rb28, ra0
shr r2, rb28, ra0; mul24 r1, r0, rb28
nop; mul24 r0, rb28, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0; mul24 ra0, ra30, ra30
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra31, rb0
shr r2, ra31, rb0; mul24 r1, r0, ra31
nop; mul24 r0, ra31, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, rb1, r0; mul24 rb1, ra27, ra27
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra30, rb0
shr r2, ra30, rb0; mul24 r1, r0, ra30
nop; mul24 r0, ra30, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra29, rb0; mul24 ra0, ra29, ra29
shr r2, ra29, rb0; mul24 r1, r0, ra29
nop; mul24 r0, ra29, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra28, rb0; mul24 ra0, ra28, ra28
shr r2, ra28, rb0; mul24 r1, r0, ra28
nop; mul24 r0, ra28, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0; mul24 rb0, rb26, rb26
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb27, ra0
shr r2, rb27, ra0; mul24 r1, r0, rb27
nop; mul24 r0, rb27, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, ra4, r0; mul24 ra4, rb23, rb23
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb26, ra0
shr r2, rb26, ra0; mul24 r1, r0, rb26
nop; mul24 r0, rb26, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb25, rb25
shr r0, rb25, ra0
shr r2, rb25, ra0; mul24 r1, r0, rb25
nop; mul24 r0, rb25, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb24, rb24
shr r0, rb24, ra0
shr r2, rb24, ra0; mul24 r1, r0, rb24
nop; mul24 r0, rb24, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0; mul24 ra0, ra26, ra26
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra27, rb0
shr r2, ra27, rb0; mul24 r1, r0, ra27
nop; mul24 r0, ra27, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, rb1, r0; mul24 rb1, ra23, ra23
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra26, rb0
shr r2, ra26, rb0; mul24 r1, r0, ra26
nop; mul24 r0, ra26, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra25, rb0; mul24 ra0, ra25, ra25
shr r2, ra25, rb0; mul24 r1, r0, ra25
nop; mul24 r0, ra25, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra24, rb0; mul24 ra0, ra24, ra24
shr r2, ra24, rb0; mul24 r1, r0, ra24
nop; mul24 r0, ra24, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0; mul24 rb0, rb22, rb22
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb23, ra0
shr r2, rb23, ra0; mul24 r1, r0, rb23
nop; mul24 r0, rb23, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, ra4, r0; mul24 ra4, rb19, rb19
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb22, ra0
shr r2, rb22, ra0; mul24 r1, r0, rb22
nop; mul24 r0, rb22, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb21, rb21
shr r0, rb21, ra0
shr r2, rb21, ra0; mul24 r1, r0, rb21
nop; mul24 r0, rb21, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb20, rb20
shr r0, rb20, ra0
shr r2, rb20, ra0; mul24 r1, r0, rb20
nop; mul24 r0, rb20, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0; mul24 ra0, ra22, ra22
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra23, rb0
shr r2, ra23, rb0; mul24 r1, r0, ra23
nop; mul24 r0, ra23, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, rb1, r0; mul24 rb1, ra19, ra19
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra22, rb0
shr r2, ra22, rb0; mul24 r1, r0, ra22
nop; mul24 r0, ra22, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra21, rb0; mul24 ra0, ra21, ra21
shr r2, ra21, rb0; mul24 r1, r0, ra21
nop; mul24 r0, ra21, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra20, rb0; mul24 ra0, ra20, ra20
shr r2, ra20, rb0; mul24 r1, r0, ra20
nop; mul24 r0, ra20, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0; mul24 rb0, rb18, rb18
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb19, ra0
shr r2, rb19, ra0; mul24 r1, r0, rb19
nop; mul24 r0, rb19, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, ra4, r0; mul24 ra4, rb15, rb15
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb18, ra0
shr r2, rb18, ra0; mul24 r1, r0, rb18
nop; mul24 r0, rb18, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb17, rb17
shr r0, rb17, ra0
shr r2, rb17, ra0; mul24 r1, r0, rb17
nop; mul24 r0, rb17, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb16, rb16
shr r0, rb16, ra0
shr r2, rb16, ra0; mul24 r1, r0, rb16
nop; mul24 r0, rb16, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0; mul24 ra0, ra18, ra18
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra19, rb0
shr r2, ra19, rb0; mul24 r1, r0, ra19
nop; mul24 r0, ra19, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, rb1, r0; mul24 rb1, ra15, ra15
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra18, rb0
shr r2, ra18, rb0; mul24 r1, r0, ra18
nop; mul24 r0, ra18, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra17, rb0; mul24 ra0, ra17, ra17
shr r2, ra17, rb0; mul24 r1, r0, ra17
nop; mul24 r0, ra17, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra16, rb0; mul24 ra0, ra16, ra16
shr r2, ra16, rb0; mul24 r1, r0, ra16
nop; mul24 r0, ra16, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0; mul24 rb0, rb14, rb14
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb15, ra0
shr r2, rb15, ra0; mul24 r1, r0, rb15
nop; mul24 r0, rb15, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, ra4, r0; mul24 ra4, rb11, rb11
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb14, ra0
shr r2, rb14, ra0; mul24 r1, r0, rb14
nop; mul24 r0, rb14, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb13, rb13
shr r0, rb13, ra0
shr r2, rb13, ra0; mul24 r1, r0, rb13
nop; mul24 r0, rb13, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb12, rb12
shr r0, rb12, ra0
shr r2, rb12, ra0; mul24 r1, r0, rb12
nop; mul24 r0, rb12, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0; mul24 ra0, ra14, ra14
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra15, rb0
shr r2, ra15, rb0; mul24 r1, r0, ra15
nop; mul24 r0, ra15, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, rb1, r0; mul24 rb1, ra11, ra11
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra14, rb0
shr r2, ra14, rb0; mul24 r1, r0, ra14
nop; mul24 r0, ra14, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra13, rb0; mul24 ra0, ra13, ra13
shr r2, ra13, rb0; mul24 r1, r0, ra13
nop; mul24 r0, ra13, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra12, rb0; mul24 ra0, ra12, ra12
shr r2, ra12, rb0; mul24 r1, r0, ra12
nop; mul24 r0, ra12, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0; mul24 rb0, rb10, rb10
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb11, ra0
shr r2, rb11, ra0; mul24 r1, r0, rb11
nop; mul24 r0, rb11, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, ra4, r0; mul24 ra4, rb7, rb7
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb10, ra0
shr r2, rb10, ra0; mul24 r1, r0, rb10
nop; mul24 r0, rb10, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb9, rb9
shr r0, rb9, ra0
shr r2, rb9, ra0; mul24 r1, r0, rb9
nop; mul24 r0, rb9, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb8, rb8
shr r0, rb8, ra0
shr r2, rb8, ra0; mul24 r1, r0, rb8
nop; mul24 r0, rb8, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0; mul24 ra0, ra10, ra10
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra11, rb0
shr r2, ra11, rb0; mul24 r1, r0, ra11
nop; mul24 r0, ra11, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, rb1, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra10, rb0
shr r2, ra10, rb0; mul24 r1, r0, ra10
nop; mul24 r0, ra10, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra9, rb0; mul24 ra0, ra9, ra9
shr r2, ra9, rb0; mul24 r1, r0, ra9
nop; mul24 r0, ra9, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0
ldi rb0, 24
add ra5, ra5, r0
shr r0, ra8, rb0; mul24 ra0, ra8, ra8
shr r2, ra8, rb0; mul24 r1, r0, ra8
nop; mul24 r0, ra8, r2
add r0, r1, r0
shl r0, r0, rb0
add r0, ra0, r0; mul24 rb0, rb6, rb6
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb7, ra0
shr r2, rb7, ra0; mul24 r1, r0, rb7
nop; mul24 r0, rb7, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, ra4, r0
ldi ra0, 24
add ra5, ra5, r0
shr r0, rb6, ra0
shr r2, rb6, ra0; mul24 r1, r0, rb6
nop; mul24 r0, rb6, r2
add r0, r1, r0
shl r0, r0, ra0
add r0, rb0, r0
ldi ra0, 24
add ra5, ra5, r0; mul24 rb0, rb5, rb5
shr r0, rb5, ra0
shr r2, rb5, ra0; mul24 r1, r0, rb5
nop; mul24 r0, rb5, r2
add r0, r1, r0; mov r1, rb30
shl r0, r0, ra0; mov r2, rb29
add r0, rb0, r0
add ra5, ra5, r0
ldi r0, 0
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 64
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 128
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 192
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 256
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000140
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000180
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x000001c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000200
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000240
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000280
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x000002c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000300
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x000003c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000400
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000440
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000480
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x000004c0
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000500
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
ldi r0, 0x00000540
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
add ra5, ra5, r0; mov -, vw_wait
mov r0, ra30
add ra5, ra5, r1
mov r1, ra29
add ra5, ra5, r2
mov r2, ra28
add ra5, ra5, rb28
mov vw_setup, ra3
add ra5, ra5, r3
mov r3, ra27
add ra5, ra5, r0
mov r0, ra26
add ra5, ra5, r1; mov r1, rb27
nop
add ra5, ra5, r2
mov r2, ra24
add ra5, ra5, r1
mov r1, ra25
add ra5, ra5, rb26
nop
add ra5, ra5, rb25
nop
add ra5, ra5, rb24
nop
add ra5, ra5, r3
mov r3, ra23
add ra5, ra5, r0
mov r0, ra22
add ra5, ra5, r1
mov r1, ra21
add ra5, ra5, r2; mov r2, rb23
nop
add ra5, ra5, r2
mov r2, ra20
add ra5, ra5, rb22
nop
add ra5, ra5, rb21
nop
add ra5, ra5, rb20
nop
add ra5, ra5, r3; mov r3, rb19
nop
add ra5, ra5, r0
mov r0, ra18
add ra5, ra5, r1
mov r1, ra17
add ra5, ra5, r2
mov r2, ra16
add ra5, ra5, r3
mov r3, ra19
add ra5, ra5, rb18
nop
add ra5, ra5, rb17
nop
add ra5, ra5, rb16
nop
add ra5, ra5, r3
mov r3, ra15
add ra5, ra5, r0; mov r0, rb15
nop
add ra5, ra5, r1
mov r1, ra13
add ra5, ra5, r2
mov r2, ra12
add ra5, ra5, r0
mov r0, ra14
add ra5, ra5, rb14
nop
add ra5, ra5, rb13
nop
add ra5, ra5, rb12
nop
add ra5, ra5, r3
mov r3, ra11
add ra5, ra5, r0
mov r0, ra10
add ra5, ra5, r1; mov r1, rb11
nop
add ra5, ra5, r2
mov r2, ra8
add ra5, ra5, r1
mov r1, ra9
add ra5, ra5, rb10
nop
add ra5, ra5, rb9
nop
add ra5, ra5, rb8
nop
add ra5, ra5, r3
nop
add ra5, ra5, r0
ldi r0, 0x00000340
add ra5, ra5, r1
nop
add ra5, ra5, r2; mov r2, rb7
nop
add ra5, ra5, r2
nop
add ra5, ra5, rb6
nop
add ra5, ra5, rb5
nop
mov vpm, ra5
mov vw_setup, ra2
mov vw_addr, ra7
mov -, vw_wait
mov -, vw_wait
mov -, vw_wait
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
mov.setf -, r0
brr.allnz -, r:L1930
nop
nop
nop
mov -, vw_wait
ldi r0, 0x00000380
mov vr_setup, rb3
add vr_addr, rb2, r0
mov -, vr_wait
mov vr_setup, ra1
mov r0, vpm
sub.setf r0, r0, 1
brr.allz -, r:L1926
nop
nop
nop
:L1920
sacq -, 15
sub.setf r0, r0, 1
brr.allnz -, r:L1920
nop
nop
nop
:L1926
ldi host_int, 1
nop; thrend
nop
nop
:L1930
srel -, 15
nop; thrend
nop
nop

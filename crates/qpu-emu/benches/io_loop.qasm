# Per iteration: a 16-lane TMU gather, a VPM write and a 64-byte VDW store with its wait.
# Shared by the emulator benchmark and the pinned-report test.
    mov r0, unif            # iterations
    mov ra1, unif           # input
    mov ra2, unif           # output
    mov r1, elem_num
    shl r1, r1, 2
    ldi rb3, 0x1a00
:loop
    add tmu0_s, ra1, r1
    sub.setf r0, r0, 1
    nop; ldtmu0
    mov vw_setup, rb3
    add vpm, r4, r0
    ldi vw_setup, 0x80904000
    mov vw_addr, ra2
    brr.anynz -, r:loop
    mov -, vw_wait
    nop
    nop
    nop; thrend
    nop
    nop

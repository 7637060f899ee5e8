# TMU gather loop: per iteration two 16-lane gathers (one per TMU) and their loads, summed.
    mov r0, unif            # iterations
    mov ra1, unif           # input
    mov ra2, unif           # output (unused)
    mov r1, elem_num
    shl r1, r1, 2
    mov r3, 0
    add r2, ra1, r1
:loop
    mov tmu0_s, r2
    mov tmu1_s, r2
    sub.setf r0, r0, 1
    nop; ldtmu0
    add r3, r3, r4; ldtmu1
    brr.anynz -, r:loop
    add r3, r3, r4
    nop
    nop
    nop; thrend
    nop
    nop

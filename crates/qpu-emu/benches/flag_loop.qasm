# Flag-heavy loop: every instruction but the branch sets flags (adds, xors, rotations,
# conditional moves, a conditional flag update). No rotation reads an accumulator the
# previous instruction wrote, so no value is undefined.
    mov r0, unif            # iterations
    mov r1, elem_num
    mov r2, 1
    mov r3, 7
    mov ra0, 0x55
    mov ra3, 1
:loop
    add.setf r1, r1, r2; mov ra1, r3 >> 1
    xor.setf r2, r2, ra0
    mov.ifz.setf r3, r1; v8adds rb1, r1, r2
    sub.setf r0, r0, ra3; mov r3, r1 >> 2
    brr.anynz -, r:loop
    nop.setf; mov ra2, r1 >> 3
    and.setf r1, r1, ra0; v8adds r2, r2, r1
    or.setf r2, r2, 1
    nop; thrend
    nop
    nop

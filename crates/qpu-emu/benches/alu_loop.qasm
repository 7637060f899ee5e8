    mov r0, unif
    mov r1, 0
    mov r2, 1.0
    mov r3, 1.5
:loop
    add r1, r1, r0; fmul r2, r2, r3
    sub.setf r0, r0, 1
    brr.anynz -, r:loop
    xor r3, r1, r0; v8adds r2, r2, r1
    or r1, r1, 3; mul24 r3, r3, r0
    max r1, r1, r3
    nop; thrend
    nop
    nop

# Streaming loop: per iteration four uniforms added to the element numbers and written to
# four VPM rows, one 4-row VDW store (256 bytes) and its wait.
    mov r0, unif            # iterations
    mov ra2, unif           # output
    ldi rb3, 0x1a00         # VPM write setup: horizontal 32-bit, row 0, stride 1
    mov r1, elem_num
:loop
    mov vw_setup, rb3
    add vpm, r1, unif
    add vpm, r1, unif
    add vpm, r1, unif
    add vpm, r1, unif
    ldi vw_setup, 0x82104000 # VDW: 4 horizontal rows of 16 words from row 0
    mov vw_addr, ra2
    sub.setf r0, r0, 1
    brr.anynz -, r:loop
    mov -, vw_wait
    nop
    nop
    nop; thrend
    nop
    nop

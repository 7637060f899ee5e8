# A tour of VideoCore IV QPU instruction forms, one instruction per line.
# Adapted from a tour program written for vc4asm to this project's syntax; the expected words in
# isa-tour.hex come from an independent assembler (vc4asm). Lines changed from the original:
#  - `v8adds`/`v8subs` with register operands: vc4asm put them on the mul ALU; here they are
#    written explicitly as mul operations (`nop; v8adds ...`) to get the same word.
#  - `fmul r3, r0, 2.0`: a mul operation must follow the add operation (`nop; fmul ...`).
#  - `r1 << r5`: rotation by r5 is written `r1 >> r5` here (same encoding, small immediate 48).
# Register-file reads never follow a write to the same register in the next instruction.
# --- load immediates
ldi ra0, 0x12345678
ldi rb1, -1
ldi r0, 0x3f800000
ldi.setf ra2, 7
ldi.ifz rb3, 0x100
ldi ra4, rb5, 0xdeadbeef
# --- add ALU operations with register and accumulator operands
fadd r1, r0, r0
fsub r2, r1, r0
fmin r3, r1, r2
fmax ra6, r1, r2
fminabs rb7, r2, r3
fmaxabs ra8, r3, r0
ftoi r1, r0
itof r2, r1
add ra9, ra0, rb1
sub rb10, ra0, rb1
shr r3, ra0, 4
asr r3, ra0, 31
ror r3, ra0, 8
shl r3, ra0, 3
min ra11, r1, r2
max rb12, r1, r2
and r1, ra0, rb1
or r2, ra0, rb1
xor r3, ra0, rb1
not r1, ra0
clz r2, ra0
nop; v8adds r3, ra0, rb1
nop; v8subs r1, ra0, rb1
# --- mul ALU operations
nop; fmul r1, r0, r0
nop; mul24 r2, r1, r2
nop; v8muld r3, r1, r2
nop; v8min r1, r2, r3
nop; v8max r2, r1, r3
nop; v8adds r3, r1, r2
nop; v8subs r1, r2, r3
# --- dual issue
add r1, r2, r3; fmul r0, r1, r2
sub.setf ra13, ra0, rb1; v8min rb14, r1, r1
# --- small immediates: integers, negatives, floats
add r1, r0, 15
add r2, r0, -16
nop; fmul r3, r0, 2.0
fadd r1, r0, 0.5
# --- vector rotation (mul ALU, accumulator sources; never right after writing the source)
nop
nop; v8min r2, r1, r1 >> 3
nop; mov r3, r1 >> r5
nop; fmul r2, r0, r1 >> 15
# --- conditions and flags
add.setf r1, r0, r0
or.ifz ra15, r1, r1
or.ifnz rb16, r1, r1
or.ifn ra17, r1, r1
or.ifnn rb18, r1, r1
or.ifc ra19, r1, r1
or.ifcc rb20, r1, r1
# --- special registers
or ra21, unif, unif
or r1, elem_num, elem_num
or r2, qpu_num, qpu_num
or vw_setup, ra0, ra0
or vpm, r1, r1
or vr_setup, r2, r2
or r3, vpm, vpm
or tmu0_s, r1, r1
or r1, r2, r2; ldtmu0
or tmu1_s, r1, r1
or r1, r2, r2; ldtmu1
or recip, r1, r1
nop
nop
or r3, r4, r4
or recipsqrt, r1, r1
nop
nop
or exp, r1, r1
nop
nop
or log, r1, r1
nop
nop
or host_int, r1, r1
or r5quad, ra0, ra0
or r5rep, ra0, ra0
or mutex, r1, r1
or r2, mutex, mutex
# --- pack and unpack
or ra22.16a, r1, r1
or ra23.8888, r1, r1
or ra24.8c, r1, r1
or r1, ra0.16b, ra0.16b
or r2, ra0.8d, ra0.8d
# --- semaphores
sacq -, 3
srel -, 3
# --- branches
brr -, r:here
nop
nop
nop
:here
brr.allz -, r:here
nop
nop
nop
brr.anynz ra25, r:here
nop
nop
nop
bra.anyc -, 0x100
nop
nop
nop
brr.allnn -, r:here
nop
nop
nop
# --- signals and program end
nop; thrsw
nop
nop
nop; thrend
nop
nop

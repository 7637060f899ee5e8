//! Behaviours that programs proven on real Pis rely on (GPU_FFT, QPULib's compiled code,
//! py-videocore's SGEMM, hand-written SHA-256), one small program each: the positive case
//! with its exact result, and a negative case where the hazard remains. Expected values are
//! worked out here by hand or by scalar Rust.

mod support;

use qpu_emu::vc4::{Emulator, EmulatorConfig, Rule};
use qpu_emu::{EmuError, Fault};
use qpu_isa::vc4::{AddOp, AluInstruction, Cond, Instruction, MulOp, RegAddr, WriteBack};
use support::{assemble, broken_rule, buffer, emulator, run, run_with, store_and_end};

/// `body`, then a store of `regs` and a clean end.
fn program(body: &str, regs: &[&str]) -> String {
    format!("{body}\n{}", store_and_end(regs))
}

/// The lanes of a [`Rule::UndefinedValueUsed`] and what used them, or a panic.
fn undefined_use(rule: Rule) -> (&'static str, u16, String) {
    match rule {
        Rule::UndefinedValueUsed {
            what,
            lanes,
            origin,
            ..
        } => (what, lanes, origin),
        other => panic!("expected an undefined value used, got {other:?}"),
    }
}

// Item 1: both ALUs write one accumulator under complementary conditions.

#[test]
fn complementary_writes_to_one_accumulator() {
    // Lanes 0–7 have N set (element − 8 < 0): the add ALU writes them, the mul ALU the rest.
    let source = program(
        "mov r1, elem_num
         mov r2, 100
         sub.setf -, r1, 8
         mov.ifn r0, r1; mov.ifnn r0, r2",
        &["r0"],
    );
    let want: Vec<u32> = (0..16).map(|i| if i < 8 { i } else { 100 }).collect();
    assert_eq!(run(&source, &[], &[], 1), want);
    // GPU_FFT's form, with a rotated mul operand: r0 = Z ? r2 : (r1 rotated up by one).
    let source = program(
        "mov r1, elem_num
         mov r2, 100
         nop
         and.setf -, r1, 1
         mov.ifz r0, r2; mov.ifnz r0, r1 >> 1",
        &["r0"],
    );
    let rotated: Vec<u32> = (0..16).map(|i| (i + 15) % 16).collect();
    let want: Vec<u32> = (0..16)
        .map(|i| if i % 2 == 0 { 100 } else { rotated[i] })
        .collect();
    assert_eq!(run(&source, &[], &[], 1), want);
}

#[test]
fn overlapping_writes_to_one_accumulator_are_undefined_where_used() {
    // Both write lanes 0–7: those lanes of r0 are undefined, and storing them is an error
    // naming the lanes and where the value was made.
    let rule = broken_rule(
        &program(
            "mov r1, elem_num
             mov r2, 100
             sub.setf -, r1, 8
             mov.ifn r0, r1; mov r0, r2
             add r3, r0, 1",
            &["r3"],
        ),
        &[],
    );
    let (what, lanes, origin) = undefined_use(rule.clone());
    assert_eq!(what, "the VPM data a VDW DMA stores");
    assert_eq!(lanes, 0x00ff);
    assert!(origin.contains("both ALUs wrote r0"), "{origin}");
    assert!(
        rule.to_string().contains("lane(s) 0, 1, 2, 3, 4, 5, 6, 7"),
        "{rule}"
    );
    // Lanes 8–15 are defined: once lanes 0–7 are overwritten, r0 can be stored.
    let source = program(
        "mov r1, elem_num
         mov r2, 100
         sub.setf -, r1, 8
         mov.ifn r0, r1; mov r0, r2
         mov.ifn r0, 7",
        &["r0"],
    );
    let want: Vec<u32> = (0..16).map(|i| if i < 8 { 7 } else { 100 }).collect();
    assert_eq!(run(&source, &[], &[], 1), want);
}

#[test]
fn undefined_flags_cannot_steer_a_branch() {
    let rule = broken_rule(
        &program(
            "mov r1, 1
             mov r2, 2
             mov r0, r1; mov r0, r2
             mov.setf -, r0
             brr.anyz -, r:skip
             nop
             nop
             nop
             :skip
             mov r0, 0",
            &["r0"],
        ),
        &[],
    );
    let (what, lanes, _) = undefined_use(rule);
    assert_eq!((what, lanes), ("the flags deciding the branch", 0xffff));
    // Overwriting the flags with a defined result makes the branch legal again.
    let source = program(
        "mov r1, 1
         mov r2, 2
         mov r0, r1; mov r0, r2
         mov.setf -, r0
         mov.setf -, 1
         brr.anyz -, r:skip
         nop
         nop
         nop
         :skip
         mov r0, 3",
        &["r0"],
    );
    assert_eq!(run(&source, &[], &[], 1), vec![3; 16]);
}

// Items 2 and 3: QPULib's compiled store, hardware-proven.

#[test]
fn qpulib_store_sequence_with_block_mode_and_a_wrapping_vpm_counter() {
    // The generic write setup is written once (vertical, 32-bit, STRIDE 0 = 64, Y = 32,
    // column 3); every store writes one vector, which must land in rows 32–47 of column 3
    // again, then stores it with block mode set and 16 horizontal units of depth 1.
    let mut body = String::from("ldi vw_setup, 0x00100223\n");
    for k in 0..3 {
        body.push_str(&format!(
            "mov r1, elem_num
             add vpm, r1, {}
             ldi vw_setup, 0xc0010000
             ldi vw_setup, {:#x}
             mov vw_addr, unif
             mov -, vw_wait\n",
            [1, 5, 9][k],
            0x8801_5000u32 | (3 << 3),
        ));
    }
    body.push_str("nop; thrend\nnop\nnop\n");
    let mut emu = emulator(1);
    let out = buffer(&mut emu, &[0; 48]);
    let code = emu.load_instructions(&assemble(&body)).unwrap();
    let uniforms = emu.load_uniforms(&[out, out + 64, out + 128]).unwrap();
    emu.run(&[(uniforms, code)]).unwrap();
    let words = emu.memory().read_u32s(out, 48).unwrap();
    for (k, add) in [1u32, 5, 9].into_iter().enumerate() {
        let want: Vec<u32> = (0..16).map(|i| i + add).collect();
        assert_eq!(&words[16 * k..16 * k + 16], &want[..], "store {k}");
    }
}

// Item 4: reading the NOP address returns the file's read latch.

#[test]
fn nop_reads_return_the_last_value_read_lanes_12_to_15_per_quad() {
    // elem_num is read through file A: ra39 then gives 12, 13, 14, 15 in every quad.
    let source = program(
        "mov r1, elem_num
         or r0, ra39, ra39",
        &["r0"],
    );
    let want: Vec<u32> = (0..16).map(|i| 12 + (i % 4)).collect();
    assert_eq!(run(&source, &[], &[], 1), want);
    // A small immediate counts as a file-B read; a later register-file write does not
    // change the latch (it holds the value read, not the register).
    let source = program(
        "ldi ra1, 0x55
         nop
         add r0, ra1, 3
         ldi ra1, 0x66
         nop
         or r2, ra39, rb39",
        &["r2"],
    );
    assert_eq!(run(&source, &[], &[], 1), vec![0x55 | 3; 16]);
}

#[test]
fn mutex_acquire_and_host_interrupt_written_through_nop_reads() {
    // GPU_FFT-style: acquire with `or.setf -, mutex, nop`, release with a nop source, and
    // raise the interrupt with a value built from a nop read (the small immediate 1 is the
    // last file-B read).
    let source = "
        add r0, r0, 1
        or.setf -, mutex, rb39
        mov mutex, rb39
        or host_int, rb39, rb39
        nop; thrend
        nop
        nop
    ";
    let mut emu = emulator(1);
    let code = emu.load_instructions(&assemble(source)).unwrap();
    let uniforms = emu.load_uniforms(&[0]).unwrap();
    let report = emu.run(&[(uniforms, code)]).unwrap();
    assert_eq!(report.total.host_interrupts, 1);
}

#[test]
fn a_nop_read_before_any_read_of_that_file_is_undefined_where_used() {
    // Nothing was read through file A yet: the value is undefined, and storing it is an
    // error; computing with it and never using it is not.
    let rule = broken_rule(&program("or r0, ra39, ra39", &["r0"]), &[]);
    let (_, lanes, origin) = undefined_use(rule);
    assert_eq!(lanes, 0xffff);
    assert!(origin.contains("NOP address (39) of file A"), "{origin}");
    let source = program("or r1, ra39, ra39\n mov r0, 4", &["r0"]);
    assert_eq!(run(&source, &[], &[], 1), vec![4; 16]);
    // GPU_FFT zeroes a register with `v8subs x, nop, nop`: the result does not depend on
    // the latch, so it is defined even before any read.
    let source = program("nop; v8subs r0, rb39, rb39", &["r0"]);
    assert_eq!(run(&source, &[], &[], 1), vec![0; 16]);
}

// Item 5: an ALU whose opcode is nop.

fn with_nop_alu(add: bool) -> Instruction {
    let mut alu = AluInstruction::NOP;
    alu.write = WriteBack {
        cond_add: Cond::Always,
        cond_mul: Cond::Always,
        ..alu.write
    };
    let r1 = RegAddr::new(33).unwrap();
    if add {
        alu.write.waddr_add = r1;
    } else {
        alu.write.waddr_mul = r1;
    }
    assert_eq!((alu.op_add, alu.op_mul), (AddOp::Nop, MulOp::Nop));
    Instruction::Alu(alu)
}

fn run_words(words: Vec<Instruction>) -> Result<Vec<u32>, EmuError> {
    let mut emu = emulator(1);
    let code = emu.load_instructions(&words)?;
    let out = buffer(&mut emu, &[0; 16]);
    let uniforms = emu.load_uniforms(&[out])?;
    emu.run(&[(uniforms, code)])?;
    Ok(emu.memory().read_u32s(out, 16).unwrap())
}

#[test]
fn an_add_nop_with_a_live_write_address_writes_nothing() {
    // py-videocore's nop() (add opcode nop, write address r0-r3 class) in a delay slot right
    // after a register update must not clobber it.
    let mut words = assemble("mov r1, 7");
    words.push(with_nop_alu(true));
    words.extend(assemble(&store_and_end(&["r1"])));
    assert_eq!(run_words(words).unwrap(), vec![7; 16]);
}

#[test]
fn a_mul_nop_with_a_live_write_address_writes_an_undefined_value() {
    let mut words = assemble("mov r1, 7");
    words.push(with_nop_alu(false));
    words.extend(assemble(&store_and_end(&["r1"])));
    match run_words(words) {
        Err(EmuError::Fault {
            fault: Fault::Rule(rule),
            ..
        }) => {
            let (_, lanes, origin) = undefined_use(rule);
            assert_eq!(lanes, 0xffff);
            assert!(origin.contains("mul ALU's opcode is nop"), "{origin}");
        }
        other => panic!("expected an undefined value used, got {other:?}"),
    }
    // Unused, it is harmless.
    let mut words = assemble("mov r1, 7");
    words.push(with_nop_alu(false));
    words.extend(assemble(&store_and_end(&["r2"])));
    assert!(run_words(words).is_ok());
}

// Item 6: undefined results that nothing reads.

#[test]
fn a_thread_end_that_writes_one_accumulator_from_both_alus_runs() {
    // py-videocore's exit(): `mov r0, r0 ; mov r0, r0 ; thrend`.
    let source = "
        mov r0, 5
        mov vw_setup, 0x1a00
        mov vpm, r0
        ldi vw_setup, 0x80904000
        mov vw_addr, unif
        mov -, vw_wait
        mov r0, r0; mov r0, r0; thrend
        nop
        nop
    ";
    assert_eq!(run(source, &[], &[], 1), vec![5; 16]);
}

#[test]
fn rotations_right_after_a_write_are_exact_in_the_lanes_it_did_not_reach() {
    // py-videocore's SGEMM (correct on 12 QPUs) broadcasts one lane of r2 right after a
    // conditional write to r2 that did not reach that lane: `nop; mov r5rep, r2 >> 2` takes
    // lane 14 into every lane of r5. The conditional write reaches lane `written` only.
    let broadcast_after_write = |written: u32| {
        program(
            &format!(
                "mov r2, elem_num
                 mov r1, elem_num
                 nop
                 sub.setf -, r1, {written}
                 add.ifz r2, r2, 8
                 nop; mov r5rep, r2 >> 2
                 mov r0, r5"
            ),
            &["r0"],
        )
    };
    assert_eq!(run(&broadcast_after_write(0), &[], &[], 1), vec![14; 16]);
    // The lane the broadcast takes was written: a real bug, reported where it is used.
    let rule = broken_rule(&broadcast_after_write(14), &[]);
    let (_, lanes, origin) = undefined_use(rule);
    assert_eq!(lanes, 0xffff);
    assert!(origin.contains("rotation reads r2"), "{origin}");
}

#[test]
fn genuine_read_hazards_stay_errors() {
    // A register-file value read right after its write is an error at once.
    assert_eq!(
        broken_rule(&program("mov ra1, 1\n add r0, ra1, 1", &["r0"]), &[]),
        Rule::RegfileReadAfterWrite {
            file: qpu_isa::vc4::RegFile::A,
            reg: 1
        }
    );
    // Both ALUs writing one I/O register is still an error at once.
    assert_eq!(
        broken_rule(
            &program("mov vw_setup, 0x1a00\n mov vpm, r1; mov vpm, r2", &["r0"]),
            &[]
        ),
        Rule::BothAlusWrite { register: "vpm" }
    );
}

// Item 7: the VDR extended pitch is wider than 13 bits.

#[test]
fn vdr_rows_with_a_12288_byte_pitch() {
    // py-videocore's SGEMM loads rows 12,288 bytes apart: 2 rows of 16 words here.
    let pitch_words = 12_288 / 4;
    let mut memory = vec![0u32; pitch_words + 16];
    for i in 0..16 {
        memory[i] = 1000 + i as u32;
        memory[pitch_words + i] = 2000 + i as u32;
    }
    let source = program(
        "ldi vr_setup, 0x90003000
         ldi vr_setup, 0x80021000
         mov vr_addr, unif
         mov -, vr_wait
         ldi vr_setup, 0x201a00
         nop
         nop
         mov r0, vpm
         mov r1, vpm",
        &["r0", "r1"],
    );
    let mut emu = emulator(1);
    let input = buffer(&mut emu, &memory);
    let (words, _) = run_with(&mut emu, &source, &[], &[input], 2).unwrap();
    let want: Vec<u32> = (0..16)
        .map(|i| 1000 + i)
        .chain((0..16).map(|i| 2000 + i))
        .collect();
    assert_eq!(words, want);
}

// Item 8: float arithmetic truncates toward zero.

#[test]
fn float_results_match_values_dumped_from_hardware() {
    // VC4C test/opcode_test.h: 1.0 + (-2^-95) = 0x3f7fffff; itof(2^31 - 1) = 0x4effffff.
    let source = program(
        &format!(
            "ldi r1, 1.0
             ldi r2, {:#x}
             fadd r0, r1, r2
             ldi r2, 0x7fffffff
             itof r3, r2",
            (-(2f32.powi(-95))).to_bits()
        ),
        &["r0", "r3"],
    );
    let words = run(&source, &[], &[], 2);
    assert_eq!(&words[..16], &[0x3f7f_ffff; 16]);
    assert_eq!(&words[16..], &[0x4eff_ffff; 16]);
    // fmul truncates too: (1 + 2^-23) · 1.75 = 1.75 + 1.75·2^-23 → 1.75 + 2^-23.
    let source = program(
        "ldi r1, 0x3f800001
         ldi r2, 1.75
         nop; fmul r0, r1, r2",
        &["r0"],
    );
    assert_eq!(run(&source, &[], &[], 1), vec![1.75f32.to_bits() + 1; 16]);
    // Unchecked runs compute the same values.
    let mut emu = Emulator::new(EmulatorConfig {
        check_hazards: false,
        ..EmulatorConfig::with_qpus(1)
    })
    .unwrap();
    let (words, _) = run_with(&mut emu, &source, &[], &[], 1).unwrap();
    assert_eq!(words, vec![1.75f32.to_bits() + 1; 16]);
}

// Reads past an allocation: the TMU returns whatever the bus holds there, so the lanes are
// undefined — an error only where used. QPULib's Rot3D and HeatMap prefetch one vector past
// their arrays' ends and discard it.

/// Gathers 16 words at `offset` bytes from the input vector's address (lane i: + 4i), into
/// r1, then adds `after` and stores `regs`.
fn read_at(offset: u32, after: &str, regs: &[&str]) -> String {
    program(
        &format!(
            "mov r0, elem_num
             shl r0, r0, 2
             add r0, r0, unif
             mov r3, {offset}
             add tmu0_s, r0, r3
             nop
             nop; ldtmu0
             mov r1, r4
             {after}"
        ),
        regs,
    )
}

#[test]
fn a_prefetch_past_an_allocation_is_discarded_without_error() {
    let input: [u32; 16] = std::array::from_fn(|i| 10 * i as u32);
    // The allocation of the input holds exactly 16 words: offset 48 reaches 12 lanes past it.
    let source = read_at(48, "mov r2, 7", &["r2"]);
    assert_eq!(run(&source, &[&input], &[], 1), vec![7; 16]);
    // Inside the allocation the value is used normally.
    let source = read_at(0, "add r2, r1, 1", &["r2"]);
    let want: Vec<u32> = input.iter().map(|v| v + 1).collect();
    assert_eq!(run(&source, &[&input], &[], 1), want);
}

#[test]
fn a_value_read_past_an_allocation_is_an_error_where_used() {
    let input = [5u32; 16];
    let mut emu = emulator(1);
    let error = run_with(
        &mut emu,
        &read_at(16, "add r2, r1, 1", &["r2"]),
        &[&input],
        &[],
        1,
    )
    .expect_err("lanes 12–15 are undefined");
    let EmuError::Fault {
        fault: Fault::Rule(rule),
        ..
    } = error
    else {
        panic!("expected a rule, got {error}");
    };
    let origin_pc = match &rule {
        Rule::UndefinedValueUsed { origin_pc, .. } => *origin_pc,
        _ => None,
    };
    let (what, lanes, origin) = undefined_use(rule);
    assert_eq!(what, "the VPM data a VDW DMA stores");
    assert_eq!(lanes, 0xf000);
    assert!(origin.contains("TMU lookup"), "{origin}");
    assert!(origin.contains("lane(s) 12, 13, 14, 15"), "{origin}");
    // The lookup is the program's fifth instruction.
    let code = emu
        .memory()
        .allocation_containing(origin_pc.expect("known"))
        .unwrap()
        .0;
    assert_eq!(origin_pc, Some(code + 4 * 8));
}

#[test]
fn undefined_lanes_in_the_vpm_matter_only_where_a_dma_stores_them() {
    // Lanes 4–15 of r1 read past the 16-word input (offset 48 bytes). Writing them to the
    // VPM is harmless; a VDW of depth 4 stores only the defined lanes 0–3.
    let input: [u32; 16] = std::array::from_fn(|i| 10 * i as u32);
    let store_first = |depth: u32| {
        let vdw = 0x8000_0000u32 | (1 << 23) | (depth << 16) | (1 << 14);
        read_at(
            48,
            &format!(
                "mov vw_setup, 0x1a00
                 mov vpm, r1
                 mov vw_setup, {vdw:#x}
                 mov vw_addr, unif
                 mov -, vw_wait
                 nop; thrend
                 nop
                 nop"
            ),
            &[],
        )
    };
    // `read_at` appends its own store of nothing; only the first program end runs.
    let out = run(&store_first(4), &[&input], &[], 1);
    assert_eq!(&out[..4], &[120, 130, 140, 150]);
    assert_eq!(&out[4..], &[0xdead_beef; 12]);
    // Depth 5 reaches lane 4: the DMA would store an undefined word.
    let rule = broken_rule_with_input(&store_first(5), &input);
    let (what, lanes, origin) = undefined_use(rule);
    assert_eq!(what, "the VPM data a VDW DMA stores");
    assert_eq!(lanes, 1 << 4);
    assert!(origin.contains("TMU lookup"), "{origin}");
}

/// Runs `source` with one input vector and returns the rule it broke.
fn broken_rule_with_input(source: &str, input: &[u32; 16]) -> Rule {
    match run_with(&mut emulator(1), source, &[input], &[], 1) {
        Err(EmuError::Fault {
            fault: Fault::Rule(rule),
            ..
        }) => rule,
        Err(other) => panic!("expected a rule violation, got: {other}"),
        Ok(_) => panic!("expected a rule violation, but the program ran:\n{source}"),
    }
}

//! One program per hazard and placement rule: each must fail with exactly that rule (and,
//! where the rule is about distance, the same code one instruction further apart must run).
//! Also the selectable guide-versus-measurement ambiguities.

mod support;

use qpu_emu::vc4::{
    Ambiguities, BranchRegisterLane, EarlyVpmRead, Emulator, EmulatorConfig, FlagsRule, Rule,
    RuleSource,
};
use qpu_emu::{EmuError, Fault};
use qpu_isa::vc4::RegFile;
use support::{
    broken_rule, broken_rule_in, buffer, emulator, run_with, store_and_end, LOAD_RA0_RB0,
};

/// `body` followed by a clean ending.
fn program(body: &str) -> String {
    format!("{body}\n{}", store_and_end(&["r0"]))
}

fn runs(body: &str, extra: &[u32]) {
    let source = program(body);
    if let Err(e) = run_with(&mut emulator(1), &source, &[], extra, 1) {
        panic!("expected to run, got: {e}\n{source}");
    }
}

fn rule(body: &str) -> Rule {
    broken_rule(&program(body), &[])
}

fn with_config(ambiguities: Ambiguities) -> Emulator {
    Emulator::new(EmulatorConfig {
        ambiguities,
        ..EmulatorConfig::with_qpus(1)
    })
    .unwrap()
}

#[test]
fn regfile_read_right_after_write() {
    assert_eq!(
        rule("mov ra1, 1\n add r0, ra1, 1"),
        Rule::RegfileReadAfterWrite {
            file: RegFile::A,
            reg: 1
        }
    );
    assert_eq!(
        rule("mov rb7, 1\n add r0, r0, rb7"),
        Rule::RegfileReadAfterWrite {
            file: RegFile::B,
            reg: 7
        }
    );
    runs("mov ra1, 1\n nop\n add r0, ra1, 1", &[]);
    // Accumulators forward: no rule.
    runs("mov r1, 1\n add r0, r1, 1", &[]);
}

#[test]
fn r4_and_the_sfu_latency() {
    assert_eq!(
        rule("mov r0, 2.0\n mov recip, r0\n nop\n mov r1, r4"),
        Rule::R4ReadDuringSfu
    );
    assert_eq!(
        rule("mov r0, 2.0\n mov recip, r0\n mov exp, r0"),
        Rule::R4WriterDuringSfu
    );
    assert_eq!(rule("mov r1, r4"), Rule::R4ReadWithoutResult);
    runs("mov r0, 2.0\n mov recip, r0\n nop\n nop\n mov r1, r4", &[]);
}

#[test]
fn both_alus_writing_one_register() {
    assert_eq!(
        rule("mov vw_setup, 0x1a00\n add vpm, r0, r0; v8min vpm, r0, r0"),
        Rule::BothAlusWrite { register: "vpm" }
    );
}

#[test]
fn rotation_right_after_writing_its_source() {
    // The rotator reads the accumulator before the previous write lands: the lanes that
    // write reached are undefined in the rotated value, an error once stored.
    let stored = |body: &str| broken_rule(&format!("{body}\n{}", store_and_end(&["r2"])), &[]);
    for (body, accumulator) in [
        ("mov r1, 1\n nop; mov r2, r1 >> 1", 1),
        ("mov r1, 1\n mov r5rep, 1\n nop; mov r2, r1 >> r5", 5),
    ] {
        match stored(body) {
            Rule::UndefinedValueUsed { lanes, origin, .. } => {
                assert_eq!(lanes, 0xffff, "{body}");
                assert!(
                    origin.contains(&format!("reads r{accumulator}")),
                    "{origin}"
                );
            }
            other => panic!("{body}: expected an undefined value used, got {other:?}"),
        }
    }
    runs(
        "mov r1, 1\n mov r5rep, 1\n nop\n nop; mov r2, r1 >> r5",
        &[],
    );
    // The static validator (and so the compiler's self-check) still rejects the placement.
    let program = support::assemble("mov r1, 1\n nop; mov r2, r1 >> 1\n nop; thrend\n nop\n nop");
    assert_eq!(
        qpu_emu::vc4::validate(&program)[0].rule,
        Rule::RotateAfterWrite { accumulator: 1 }
    );
}

#[test]
fn at_most_one_unit_per_instruction() {
    let got = rule("mov r0, 1.0\n mov tmu0_s, r0; mov recip, r0");
    assert!(matches!(got, Rule::UnitConflict { .. }), "{got:?}");
    let got = rule("mov r0, 1.0\n mov recip, r0; ldtmu0");
    assert!(matches!(got, Rule::UnitConflict { .. }), "{got:?}");
}

#[test]
fn uniform_read_after_uniforms_address_write() {
    let mut emu = emulator(1);
    let source = program("mov unif_addr, unif\n nop\n mov r0, unif");
    let stream = emu.load_uniforms(&[1, 2, 3]).unwrap();
    assert_eq!(
        broken_rule_in(&mut emu, &source, &[stream]),
        Rule::UniformAfterAddressWrite
    );
}

#[test]
fn uniform_read_from_both_files() {
    assert_eq!(
        rule("add r0, ra32, rb32"),
        Rule::DoubleStreamRead { register: "unif" }
    );
}

#[test]
fn tmu_fifo_rules() {
    let mut emu = emulator(1);
    let data = buffer(&mut emu, &[7; 16]);
    let five = program(&format!("mov r1, unif\n{}", "mov tmu0_s, r1\n".repeat(5)));
    assert_eq!(
        broken_rule_in(&mut emu, &five, &[data]),
        Rule::TmuFifoOverflow { tmu: 0, depth: 4 }
    );
    // The guide's depth of 8 is selectable.
    let mut guide = with_config(Ambiguities {
        tmu_fifo_depth: 8,
        ..Ambiguities::default()
    });
    let data = buffer(&mut guide, &[7; 16]);
    let loads = "nop; ldtmu0\n".repeat(5);
    let source = program(&format!(
        "mov r1, unif\n{}{loads}mov r0, r4",
        "mov tmu0_s, r1\n".repeat(5)
    ));
    run_with(&mut guide, &source, &[], &[data], 1).unwrap();

    assert_eq!(rule("nop; ldtmu1"), Rule::TmuLoadWithoutRequest { tmu: 1 });
    let mut emu = emulator(1);
    let data = buffer(&mut emu, &[7; 16]);
    assert_eq!(
        broken_rule_in(&mut emu, &program("mov r1, unif\n mov tmu0_s, r1"), &[data]),
        Rule::TmuResultsLeftAtEnd { count: 1 }
    );
    let mut emu = emulator(1);
    let data = buffer(&mut emu, &[7; 16]);
    assert_eq!(
        broken_rule_in(
            &mut emu,
            &program("mov r1, unif\n mov tmu_noswap, 1\n nop\n mov tmu0_s, r1\n nop; ldtmu0"),
            &[data]
        ),
        Rule::TmuNoswapTooLate
    );
    assert_eq!(rule("mov tmu0_t, r0"), Rule::TextureLookup);
}

#[test]
fn conditional_writes_to_fifos() {
    assert_eq!(
        rule("mov.ifz tmu0_s, r0"),
        Rule::ConditionalIoWrite { register: "tmu0_s" }
    );
    assert_eq!(
        rule("ldi vw_setup, 0x1a00\n mov.ifnz vpm, r0"),
        Rule::ConditionalIoWrite { register: "vpm" }
    );
}

#[test]
fn branches_in_delay_slots() {
    assert_eq!(
        rule("brr -, r:x\n brr -, r:x\n nop\n nop\n:x\n nop\n nop\n nop"),
        Rule::BranchInDelaySlot
    );
    assert_eq!(
        rule("brr -, r:x\n nop\n nop; thrend\n nop\n:x\n nop"),
        Rule::ThreadEndInBranchDelaySlot
    );
    // A branch right after the delay slots is fine.
    runs(
        "brr -, r:x\n nop\n nop\n nop\n:x\n brr -, r:y\n nop\n nop\n nop\n:y",
        &[],
    );
}

#[test]
fn thread_end_rules() {
    let end = |tail: &str| broken_rule(tail, &[]);
    assert_eq!(
        end("nop; thrend\n brr -, r:x\n nop\n:x\n nop\n nop\n nop"),
        Rule::BranchInThreadEndSlot
    );
    assert_eq!(
        end("mov ra1, r0; thrend\n nop\n nop"),
        Rule::ThreadEndWritesRegfile
    );
    assert_eq!(
        end("nop; thrend\n mov r0, unif\n nop"),
        Rule::ThreadEndSlotAccess {
            what: "reads a uniform"
        }
    );
    assert_eq!(
        end("ldi vw_setup, 0x1a00\n nop; thrend\n nop\n mov vpm, r0"),
        Rule::ThreadEndSlotAccess {
            what: "accesses the VPM or its DMA"
        }
    );
    assert_eq!(
        end("nop; thrend\n mov r0, ra14\n nop"),
        Rule::ThreadEndSlotAccess {
            what: "touches register-file address 14"
        }
    );
    assert_eq!(
        end("ldi vr_setup, 0x201a00\n nop\n nop\n mov r0, vpm\n nop; thrend\n nop\n nop"),
        Rule::VpmReadsPendingAtEnd { count: 1 }
    );
}

#[test]
fn vpm_rules() {
    assert_eq!(
        rule("ldi r1, 0x1a00\n mov vw_setup, r1; mov vpm, r0"),
        Rule::VpmSetupWithOtherAccess
    );
    // Reading past the programmed count, or a setup while more than one read is pending,
    // is rejected by the VPM unit.
    let source = program("ldi vr_setup, 0x101a00\n mov r0, vpm\n mov r1, vpm");
    let err = run_with(&mut emulator(1), &source, &[], &[], 1).unwrap_err();
    assert!(
        matches!(
            err,
            EmuError::Fault {
                fault: Fault::Vpm(_),
                ..
            }
        ),
        "{err}"
    );
    let source = program("ldi vr_setup, 0x301a00\n ldi vr_setup, 0x301a00\n mov r0, vpm");
    let err = run_with(&mut emulator(1), &source, &[], &[], 1).unwrap_err();
    assert!(
        matches!(
            err,
            EmuError::Fault {
                fault: Fault::Vpm(_),
                ..
            }
        ),
        "{err}"
    );
    // An early read stalls by default [measured]; the guide calls it undefined.
    runs("ldi vr_setup, 0x101a00\n mov r0, vpm", &[]);
    let mut guide = with_config(Ambiguities {
        early_vpm_read: EarlyVpmRead::Error,
        ..Ambiguities::default()
    });
    assert_eq!(
        broken_rule_in(
            &mut guide,
            &program("ldi vr_setup, 0x101a00\n mov r0, vpm"),
            &[]
        ),
        Rule::VpmReadTooEarly
    );
    runs_in(
        &mut guide,
        "ldi vr_setup, 0x101a00\n nop\n nop\n mov r0, vpm",
    );
}

fn runs_in(emu: &mut Emulator, body: &str) {
    let source = program(body);
    if let Err(e) = run_with(emu, &source, &[], &[], 1) {
        panic!("expected to run, got: {e}\n{source}");
    }
}

#[test]
fn semaphore_with_a_stalling_unit() {
    assert_eq!(rule("srel recip, 0"), Rule::SemaphoreWithStallingUnit);
}

#[test]
fn mul_byte_pack_to_io() {
    assert_eq!(
        rule("ldi vw_setup, 0x1a00\n nop; fmul vpm.c8a, r0, r0"),
        Rule::MulBytePackToIo
    );
}

#[test]
fn mutex_release_without_holding_it() {
    assert_eq!(rule("mov mutex, 0"), Rule::MutexNotHeld);
    runs("mov -, mutex\n mov mutex, 0", &[]);
}

#[test]
fn set_flags_under_never() {
    assert_eq!(rule("sub.never.setf -, r0, r0"), Rule::SetFlagsUnderNever);
    assert_eq!(Rule::SetFlagsUnderNever.source(), RuleSource::Measured);
}

#[test]
fn unmodelled_features_are_named() {
    for body in ["nop; thrsw", "mov r0, vary", "mov tlb_z, r0", "nop; loadc"] {
        let got = rule(body);
        assert_eq!(got.source(), RuleSource::NotModelled, "{body}: {got:?}");
    }
    // Unmodelled features stay errors even with hazard checks off.
    let mut emu = Emulator::new(EmulatorConfig {
        check_hazards: false,
        ..EmulatorConfig::with_qpus(1)
    })
    .unwrap();
    let err = run_with(&mut emu, &program("nop; thrsw"), &[], &[], 1).unwrap_err();
    assert!(err.to_string().contains("not modelled"), "{err}");
}

#[test]
fn error_names_qpu_pc_instruction_and_rule() {
    let source = program("mov ra1, 1\n add r0, ra1, 1");
    let mut emu = emulator(1);
    let err = run_with(&mut emu, &source, &[], &[], 1).unwrap_err();
    let EmuError::Fault {
        qpu,
        pc,
        ref instruction,
        ..
    } = err
    else {
        panic!("{err}");
    };
    assert_eq!(qpu, 0);
    // The second instruction of the program, which starts at a 64-byte aligned address.
    assert_eq!(pc % 64, 8);
    assert_eq!(instruction, "add r0, ra1, 1");
    let text = err.to_string();
    assert!(
        text.contains("2 instructions after its write") && text.contains("[guide]"),
        "{text}"
    );
}

#[test]
fn hazard_checks_can_be_turned_off() {
    let mut emu = Emulator::new(EmulatorConfig {
        check_hazards: false,
        ..EmulatorConfig::with_qpus(1)
    })
    .unwrap();
    run_with(
        &mut emu,
        &program("mov ra1, 1\n add r0, ra1, 1"),
        &[],
        &[],
        1,
    )
    .unwrap();
}

#[test]
fn flags_rule_guide_versus_measured() {
    // The add ALU is conditional on Z (set in lanes 0..8 only): measured flags change only
    // in those lanes; the guide updates all 16.
    let a: [u32; 16] = std::array::from_fn(|i| if i < 8 { 0 } else { 1 });
    let zero = [0u32; 16];
    let source = format!(
        "{LOAD_RA0_RB0}
        mov.always.setf -, ra0
        mov.ifz.setf r1, rb0
        mov r2, 0
        mov.ifz r2, 1
        {}",
        store_and_end(&["r2"])
    );
    let measured = run_with(&mut emulator(1), &source, &[&a, &zero], &[], 1)
        .unwrap()
        .0;
    let mut guide_emu = with_config(Ambiguities {
        flags: FlagsRule::Guide,
        ..Ambiguities::default()
    });
    let guide = run_with(&mut guide_emu, &source, &[&a, &zero], &[], 1)
        .unwrap()
        .0;
    for i in 0..16 {
        // rb0 is 0 everywhere: where the write happens Z becomes 1.
        assert_eq!(measured[i], u32::from(i < 8), "measured lane {i}");
        assert_eq!(guide[i], 1, "guide lane {i}");
    }
}

#[test]
fn branch_register_lane_element_15_or_0() {
    // ra2 holds a different offset in lane 0 and lane 15; the branch skips 0 or 1 `add`.
    let offsets: [u32; 16] = std::array::from_fn(|i| if i == 15 { 8 } else { 0 });
    let source = format!(
        "{LOAD_RA0_RB0}
        mov r1, 0
        brr -, ra0, r:target
        nop
        nop
        nop
    :target
        add r1, r1, 1
        add r1, r1, 2
        {}",
        store_and_end(&["r1"])
    );
    let zero = [0u32; 16];
    let measured = run_with(&mut emulator(1), &source, &[&offsets, &zero], &[], 1)
        .unwrap()
        .0;
    assert_eq!(measured[0], 2);
    let mut guide = with_config(Ambiguities {
        branch_register_lane: BranchRegisterLane::Element0,
        ..Ambiguities::default()
    });
    let by_lane0 = run_with(&mut guide, &source, &[&offsets, &zero], &[], 1)
        .unwrap()
        .0;
    assert_eq!(by_lane0[0], 3);
}

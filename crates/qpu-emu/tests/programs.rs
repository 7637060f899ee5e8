//! Whole programs: the seed hello world, multi-QPU hand-off through semaphores and the VPM,
//! branches, the TMU, SFU, VDR, mutex, uniforms, budgets and deadlocks.

mod support;

use qpu_emu::memory::MemoryError;
use qpu_emu::vc4::vpm::VpmError;
use qpu_emu::vc4::{Emulator, EmulatorConfig};
use qpu_emu::{EmuError, Fault, Lent};
use support::{assemble, buffer, emulator, run, run_with, store_and_end, Inputs, LOAD_RA0_RB0};

/// The seed hello world, kept in the repository by qpu-isa's golden tests (the hex file
/// carries hand-derivation comments, which `words::from_hex` skips).
fn golden(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../qpu-isa/tests/golden")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn hex_words(text: &str) -> Vec<u64> {
    qpu_isa::vc4::words::from_hex(text).expect("golden hex parses")
}

fn run_hello(emu: &mut Emulator, words: &[u64], input: u32) -> (Vec<u32>, qpu_emu::vc4::RunReport) {
    let code = emu.load_program(words).unwrap();
    let out = buffer(emu, &[0; 16]);
    let uniforms = emu.load_uniforms(&[input, out]).unwrap();
    let report = emu.run(&[(uniforms, code)]).unwrap();
    (emu.memory().read_u32s(out, 16).unwrap(), report)
}

#[test]
fn seed_hello_world_from_hex() {
    let words = hex_words(&golden("hello.hex"));
    assert_eq!(words.len(), 10);
    let mut emu = emulator(1);
    let (out, report) = run_hello(&mut emu, &words, 100);
    assert_eq!(out, vec![100 + 0x1234; 16]);
    assert_eq!(out[0], 0x1298);
    assert_eq!(report.total.host_interrupts, 1);
    assert_eq!(report.total.instructions, 10);
    assert_eq!(report.total.dma_store_bytes, 64);
    // The store wait is the only stall: start + 10 issues + the VDW (130 + 64/10 clocks)
    // from the vw_addr write at the 5th instruction.
    let t = &emu.config().timing;
    let vdw_done = t.program_start_latency + 4 * 4 + t.vdw_time(64);
    assert_eq!(
        report.qpus[0].stalls.dma,
        vdw_done - (t.program_start_latency + 5 * 4)
    );
    assert_eq!(report.cycles, vdw_done + 5 * 4);
    // Deterministic: a second run gives the same report.
    let (_, again) = run_hello(&mut emu, &words, 7);
    assert_eq!(again, report);
}

/// The hello world storing into the caller's 16 words, lent at `out`.
fn run_hello_lent(
    emu: &mut Emulator,
    words: &[u64],
    input: u32,
    out: u32,
    lent: Lent<'_>,
) -> Result<qpu_emu::vc4::RunReport, EmuError> {
    let code = emu.load_program(words).unwrap();
    let uniforms = emu.load_uniforms(&[input, out]).unwrap();
    emu.run_lending(&[(uniforms, code)], vec![lent])
}

#[test]
fn lent_words_are_stored_into_in_place_and_unmapped_after_the_run() {
    let words = hex_words(&golden("hello.hex"));
    let out = 0xC000_0000;
    let mut host = [0xdead_beefu32; 16];
    let mut emu = emulator(1);
    let report = run_hello_lent(&mut emu, &words, 100, out, Lent::ReadWrite(out, &mut host));
    assert_eq!(host, [100 + 0x1234; 16]);
    // The same cycles and counts as storing into the emulator's own allocation.
    let (_, owned) = run_hello(&mut emulator(1), &words, 100);
    assert_eq!(report.unwrap(), owned);
    // After the run the address is unmapped again.
    assert_eq!(
        emu.memory().read_u32(out),
        Err(MemoryError::Unmapped { addr: out, len: 4 })
    );
}

#[test]
fn a_store_into_words_lent_read_only_is_a_fault_and_changes_nothing() {
    let words = hex_words(&golden("hello.hex"));
    let out = 0xC000_0000;
    let host = [7u32; 16];
    let error =
        run_hello_lent(&mut emulator(1), &words, 1, out, Lent::ReadOnly(out, &host)).unwrap_err();
    assert!(
        matches!(
            &error,
            EmuError::Fault {
                fault: Fault::Vpm(VpmError::DmaMemory {
                    source: MemoryError::ReadOnly { addr, len: 4, base, size: 64 },
                    ..
                }),
                ..
            } if *addr == out && *base == out
        ),
        "{error}"
    );
    assert_eq!(host, [7; 16]);
    // Too short an array: the store (one 4-byte row per lane) runs past its end, as past an
    // allocation's, after writing the rows that fit.
    let mut short = [0u32; 15];
    let error = run_hello_lent(
        &mut emulator(1),
        &words,
        1,
        out,
        Lent::ReadWrite(out, &mut short),
    )
    .unwrap_err();
    assert!(
        matches!(
            &error,
            EmuError::Fault {
                fault: Fault::Vpm(VpmError::DmaMemory {
                    mem_row: 15,
                    source: MemoryError::Unmapped {
                        addr: 0xC000_003C,
                        len: 4
                    },
                    ..
                }),
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(short, [1 + 0x1234; 15]);
}

#[test]
fn lending_over_an_allocation_is_refused_before_anything_runs() {
    let words = hex_words(&golden("hello.hex"));
    let mut emu = emulator(1);
    let code = emu.load_program(&words).unwrap();
    let mut host = [0u32; 16];
    let error =
        run_hello_lent(&mut emu, &words, 1, code, Lent::ReadWrite(code, &mut host)).unwrap_err();
    assert!(
        matches!(error, EmuError::Memory(MemoryError::Overlap { other, .. }) if other == code),
        "{error}"
    );
    assert_eq!(host, [0; 16]);
    // The emulator's own memory is intact: the hello world still runs from it.
    let (out, _) = run_hello(&mut emu, &words, 2);
    assert_eq!(out, vec![2 + 0x1234; 16]);
}

#[test]
fn a_reset_machine_runs_as_a_new_one() {
    let words = hex_words(&golden("hello.hex"));
    let config = EmulatorConfig::with_qpus(1);
    let mut reused = Emulator::new(EmulatorConfig::with_qpus(3)).unwrap();
    run_hello(&mut reused, &words, 9);
    reused.reset(config.clone()).unwrap();
    assert_eq!(reused.memory().allocated_bytes(), 0);
    assert_eq!(reused.config().qpus, 1);
    let (out, report) = run_hello(&mut reused, &words, 100);
    let (fresh_out, fresh) = run_hello(&mut Emulator::new(config).unwrap(), &words, 100);
    assert_eq!((out, report), (fresh_out, fresh));
    // A bad configuration is refused and leaves the machine as it was.
    let bad = EmulatorConfig::with_qpus(13);
    assert!(matches!(reused.reset(bad), Err(EmuError::Config(_))));
    assert_eq!(reused.config().qpus, 1);
}

#[test]
fn seed_hello_world_from_assembly_matches_the_hex() {
    let source = golden("hello.qasm");
    let words: Vec<u64> = assemble(&source).iter().map(|i| i.encode()).collect();
    assert_eq!(words, hex_words(&golden("hello.hex")));
    let (out, _) = run_hello(&mut emulator(1), &words, 5);
    assert_eq!(out, vec![5 + 0x1234; 16]);
}

const WORKER: &str = "
    # uniforms: row, multiplier
    mov r0, unif            # row
    ldi r1, 0x1a00          # generic write: horizontal, 32-bit, stride 1
    add vw_setup, r0, r1    # ... at VPM row `row`
    mov r2, elem_num
    mov r3, unif            # multiplier
    nop; mul24 r2, r2, r3
    add r2, r2, r0          # lane * multiplier + row
    mov vpm, r2
    srel -, 0               # hand the row to the master
    nop; thrend
    nop
    nop
";

const MASTER: &str = "
    # uniforms: workers, output address
    mov r0, unif
:wait
    sacq -, 0
    sub.setf r0, r0, 1
    brr.anynz -, r:wait
    nop
    nop
    nop
    ldi vw_setup, 0x84104000     # VDW: 8 rows of 16 words, horizontal, from row 0
    mov vw_addr, unif
    mov -, vw_wait
    mov host_int, 1
    nop; thrend
    nop
    nop
";

fn handoff(emu: &mut Emulator) -> (Vec<u32>, qpu_emu::vc4::RunReport) {
    let worker = emu.load_instructions(&assemble(WORKER)).unwrap();
    let master = emu.load_instructions(&assemble(MASTER)).unwrap();
    let out = buffer(emu, &[0; 128]);
    // The master is QPU 0 so it starts waiting before any row exists.
    let mut launches = vec![(emu.load_uniforms(&[8, out]).unwrap(), master)];
    for row in 0..8u32 {
        let uniforms = emu.load_uniforms(&[row, 3 + row]).unwrap();
        launches.push((uniforms, worker));
    }
    let report = emu.run(&launches).unwrap();
    (emu.memory().read_u32s(out, 128).unwrap(), report)
}

#[test]
fn eight_qpus_hand_vpm_rows_to_a_master_through_semaphores() {
    let mut emu = emulator(9);
    let (out, report) = handoff(&mut emu);
    for row in 0..8u32 {
        for lane in 0..16u32 {
            assert_eq!(out[(row * 16 + lane) as usize], lane * (3 + row) + row);
        }
    }
    assert_eq!(report.qpus.len(), 9);
    assert_eq!(report.total.host_interrupts, 1);
    assert_eq!(report.total.dma_store_bytes, 512);
    assert!(report.qpus[0].stalls.semaphore > 0, "{report}");
    // Deterministic: identical results and cycle counts on a fresh machine and on a rerun.
    let (out2, report2) = handoff(&mut emulator(9));
    assert_eq!(out2, out);
    assert_eq!(report2, report);
    let (_, report3) = handoff(&mut emu);
    assert_eq!(report3, report);
}

#[test]
fn counted_loop_with_delay_slots() {
    // Sums 1..=n in r1; the three delay slots after the branch each add 1000 every time
    // they run (taken and not taken).
    let source = format!(
        "mov r0, unif
        mov r1, 0
        mov r2, 0
    :loop
        add r1, r1, r0
        sub.setf r0, r0, 1
        brr.anynz -, r:loop
        add r2, r2, 1
        add r2, r2, 1
        add r2, r2, 1
        {}",
        store_and_end(&["r1", "r2"])
    );
    for n in [1u32, 5, 40] {
        let out = run(&source, &[], &[n], 2);
        assert_eq!(out[0], n * (n + 1) / 2);
        assert_eq!(out[16], 3 * n);
    }
}

#[test]
fn branch_link_and_register_relative_return() {
    // Calls a subroutine with `brr ra10, ...`, which returns with `bra -, ra10` (absolute
    // through the link register; the link is a bus address).
    let source = format!(
        "mov r1, 1
        brr ra10, r:sub
        nop
        nop
        nop
        add r1, r1, 4      # runs after the return
        {}
    :sub
        shl r1, r1, 3
        bra -, ra10, 0
        nop
        nop
        nop",
        store_and_end(&["r1"])
    );
    let out = run(&source, &[], &[], 1);
    assert_eq!(out[0], (1 << 3) + 4);
}

#[test]
fn branch_conditions_over_lanes() {
    // r3 collects a bit per condition that was taken.
    let conds = [
        ("allz", 0),
        ("allnz", 1),
        ("anyz", 2),
        ("anynz", 3),
        ("alln", 4),
        ("allnn", 5),
        ("anyn", 6),
        ("anynn", 7),
        ("allc", 8),
        ("allnc", 9),
        ("anyc", 10),
        ("anync", 11),
    ];
    let mut body = String::new();
    for (name, bit) in conds {
        body.push_str(&format!(
            "brr.{name} -, r:taken{bit}
            nop
            nop
            nop
            brr -, r:next{bit}
            nop
            nop
            nop
        :taken{bit}
            or r3, r3, r2
        :next{bit}
            shl r2, r2, 1
            "
        ));
    }
    // Flags: Z in lane 0 only, N in lanes 0..8, C in no lane (sub of x - y with x >= y).
    let a: [u32; 16] = std::array::from_fn(|i| if i < 8 { 0x8000_0000 } else { 1 });
    let b: [u32; 16] = std::array::from_fn(|i| if i == 0 { 0x8000_0000 } else { 0 });
    let source = format!(
        "{LOAD_RA0_RB0}
        mov r3, 0
        mov r2, 1
        sub.always.setf -, ra0, rb0
        {body}
        {}",
        store_and_end(&["r3"])
    );
    let out = run(&source, &[&a, &b], &[], 1);
    let diff: Vec<u32> = (0..16).map(|i| a[i].wrapping_sub(b[i])).collect();
    let z: Vec<bool> = diff.iter().map(|&d| d == 0).collect();
    let n: Vec<bool> = diff.iter().map(|&d| d >> 31 == 1).collect();
    let c: Vec<bool> = (0..16).map(|i| a[i] < b[i]).collect();
    let all = |v: &[bool], want: bool| v.iter().all(|&x| x == want);
    let any = |v: &[bool], want: bool| v.contains(&want);
    let expected = [
        all(&z, true),
        all(&z, false),
        any(&z, true),
        any(&z, false),
        all(&n, true),
        all(&n, false),
        any(&n, true),
        any(&n, false),
        all(&c, true),
        all(&c, false),
        any(&c, true),
        any(&c, false),
    ];
    let mask = expected
        .iter()
        .enumerate()
        .fold(0, |m, (bit, &taken)| m | (u32::from(taken) << bit));
    assert_eq!(out[0], mask);
}

#[test]
fn tmu_gathers_sixteen_addresses_and_sees_current_memory() {
    let mut emu = emulator(1);
    let mut rng = Inputs::new(9);
    let table: Vec<u32> = (0..256).map(|_| rng.next_u32()).collect();
    let table_addr = buffer(&mut emu, &table);
    let indices: [u32; 16] = std::array::from_fn(|_| rng.next_u32() % 256);
    let index_addr = buffer(&mut emu, &indices);
    let source = format!(
        "mov r0, elem_num
        shl r0, r0, 2
        add tmu0_s, r0, unif     # indices[lane]
        nop; ldtmu0
        shl r1, r4, 2
        add tmu1_s, r1, unif     # table[index]
        nop; ldtmu1
        mov r2, r4
        {}",
        store_and_end(&["r2"])
    );
    let code = emu.load_instructions(&assemble(&source)).unwrap();
    let out = buffer(&mut emu, &[0; 16]);
    let uniforms = emu.load_uniforms(&[index_addr, table_addr, out]).unwrap();
    let report = emu.run(&[(uniforms, code)]).unwrap();
    let got = emu.memory().read_u32s(out, 16).unwrap();
    for lane in 0..16 {
        assert_eq!(got[lane], table[indices[lane] as usize]);
    }
    assert_eq!(report.total.tmu_requests, 2);
    assert!(report.total.stalls.tmu > 0);
    // Memory changed between runs: the TMU returns the new contents.
    emu.memory_mut()
        .write_u32s(table_addr, &vec![42; 256])
        .unwrap();
    emu.run(&[(uniforms, code)]).unwrap();
    assert_eq!(emu.memory().read_u32s(out, 16).unwrap(), vec![42; 16]);
}

#[test]
fn tmu_lookup_outside_memory_is_an_error_naming_the_address() {
    let source = format!(
        "ldi r0, 0x40\n mov tmu0_s, r0\n nop; ldtmu0\n{}",
        store_and_end(&["r4"])
    );
    let err = run_with(&mut emulator(1), &source, &[], &[], 1).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("0x00000040"), "{text}");
    assert!(text.contains("QPU 0"), "{text}");
}

#[test]
fn sfu_functions_reach_r4_three_instructions_later() {
    let x: [u32; 16] = std::array::from_fn(|i| (0.25 + i as f32 * 1.75).to_bits());
    let neg: [u32; 16] = std::array::from_fn(|i| (-(i as f32) - 0.5).to_bits());
    let source = format!(
        "{LOAD_RA0_RB0}
        mov recip, ra0
        nop
        nop
        mov r1, r4; mov recipsqrt, rb0
        nop
        nop
        mov r2, r4; mov exp, ra0
        nop
        nop
        mov r3, r4; mov log, ra0
        nop
        nop
        mov r0, r4
        {}",
        store_and_end(&["r1", "r2", "r3", "r0"])
    );
    let out = run(&source, &[&x, &neg], &[], 4);
    for i in 0..16 {
        let v = f32::from_bits(x[i]);
        let n = f32::from_bits(neg[i]);
        let close = |got: u32, want: f32| {
            let g = f32::from_bits(got);
            assert!(
                (g - want).abs() <= want.abs() * 1e-6,
                "lane {i}: {g} vs {want}"
            );
        };
        close(out[i], 1.0 / v);
        close(out[16 + i], 1.0 / n.abs().sqrt());
        close(out[32 + i], v.exp2());
        close(out[48 + i], v.log2());
    }
}

#[test]
fn vdr_load_then_vpm_reads() {
    let mut emu = emulator(1);
    let data: Vec<u32> = (0..64).map(|i| i * 7 + 1).collect();
    let src = buffer(&mut emu, &data);
    // VDR: 4 rows of 16 32-bit words into VPM rows 8.., memory pitch 64 bytes; then read
    // them back through a generic read setup (4 rows, stride 1, from row 8).
    let vdr = 0x8000_0000u32 | (4 << 16) | (1 << 12) | (3 << 24) | (8 << 4);
    let source = format!(
        "ldi vr_setup, {vdr:#x}
        mov vr_addr, unif
        mov -, vr_wait
        ldi vr_setup, 0x401a08
        mov r0, vpm
        mov r1, vpm
        mov r2, vpm
        mov r3, vpm
        {}",
        store_and_end(&["r0", "r1", "r2", "r3"])
    );
    let (out, report) = run_with(&mut emu, &source, &[], &[src], 4).unwrap();
    assert_eq!(out, data);
    assert_eq!(report.total.dma_load_bytes, 256);
    // The first VPM read follows its setup directly: it stalls until the data arrives
    // (3 instructions after the setup) [measured], instead of failing.
    assert_eq!(report.total.stalls.vpm, 8);
}

#[test]
fn mutex_serialises_a_read_modify_write_across_qpus() {
    // Each QPU adds its number + 1 to a shared counter in VPM row 0 under the mutex.
    let source = "
        mov -, mutex
        ldi vr_setup, 0x101a00
        ldi vw_setup, 0x1a00
        mov r0, vpm
        mov r1, qpu_num
        add r1, r1, 1
        add vpm, r0, r1
        mov mutex, 0
        nop; thrend
        nop
        nop
    ";
    let mut emu = emulator(6);
    let code = emu.load_instructions(&assemble(source)).unwrap();
    // Zero VPM row 0 first with a one-QPU program.
    let zero = "ldi vw_setup, 0x1a00\n mov vpm, 0\n nop; thrend\n nop\n nop";
    let zero_code = emu.load_instructions(&assemble(zero)).unwrap();
    let uniforms = emu.load_uniforms(&[0]).unwrap();
    emu.run(&[(uniforms, zero_code)]).unwrap();
    let report = emu.run(&[(uniforms, code); 6]).unwrap();
    assert_eq!(emu.vpm().row(0).unwrap(), &[1 + 2 + 3 + 4 + 5 + 6; 16]);
    assert!(report.total.stalls.mutex > 0, "{report}");
}

#[test]
fn uniforms_address_write_restarts_the_stream() {
    let mut emu = emulator(1);
    let source = format!(
        "mov unif_addr, unif   # switch to the second stream
        nop
        nop
        mov r0, unif
        mov r1, unif
        mov unif_addr, unif    # and back to the first, past the words already read
        nop
        nop
        {}",
        store_and_end(&["r0", "r1"])
    );
    let code = emu.load_instructions(&assemble(&source)).unwrap();
    let out = buffer(&mut emu, &[0; 32]);
    let other = emu.load_uniforms(&[111, 222, 0]).unwrap();
    let main = emu.load_uniforms(&[other, out]).unwrap();
    emu.memory_mut().write_u32(other + 8, main + 4).unwrap();
    let report = emu.run(&[(main, code)]).unwrap();
    let got = emu.memory().read_u32s(out, 32).unwrap();
    assert_eq!(&got[..16], &[111; 16]);
    assert_eq!(&got[16..], &[222; 16]);
    assert_eq!(report.total.uniforms, 5);
}

#[test]
fn element_and_qpu_numbers() {
    let mut emu = emulator(4);
    // The VPM is shared: QPU q stages its two rows at VPM rows 2q and 2q+1.
    let source = "
        mov r0, elem_num
        mov r1, qpu_num
        shl r2, r1, 1
        ldi r3, 0x1a00
        add vw_setup, r2, r3
        mov vpm, r0
        mov vpm, r1
        shl r2, r2, 7
        ldi r3, 0x81104000
        add vw_setup, r2, r3
        mov vw_addr, unif
        mov -, vw_wait
        nop; thrend
        nop
        nop";
    let code = emu.load_instructions(&assemble(source)).unwrap();
    let outs: Vec<u32> = (0..4).map(|_| buffer(&mut emu, &[0; 32])).collect();
    let launches: Vec<(u32, u32)> = outs
        .iter()
        .map(|&o| (emu.load_uniforms(&[o]).unwrap(), code))
        .collect();
    emu.run(&launches).unwrap();
    for (qpu, &o) in outs.iter().enumerate() {
        let got = emu.memory().read_u32s(o, 32).unwrap();
        assert_eq!(&got[..16], &std::array::from_fn::<u32, 16, _>(|i| i as u32));
        assert_eq!(&got[16..], &[qpu as u32; 16]);
    }
}

#[test]
fn endless_loop_hits_the_instruction_budget() {
    let config = EmulatorConfig {
        max_instructions: 10_000,
        ..EmulatorConfig::with_qpus(1)
    };
    let mut emu = Emulator::new(config).unwrap();
    let source = ":top\n brr -, r:top\n nop\n nop\n nop";
    let err = run_with(&mut emu, source, &[], &[], 1).unwrap_err();
    assert!(
        matches!(
            err,
            EmuError::Budget {
                what: "instruction",
                limit: 10_000,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn semaphore_nobody_releases_is_a_deadlock() {
    let source = "sacq -, 5\n nop; thrend\n nop\n nop";
    let err = run_with(&mut emulator(1), source, &[], &[], 1).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, EmuError::Deadlock { .. }), "{text}");
    assert!(text.contains("semaphore 5"), "{text}");
}

#[test]
fn bad_launches_and_configs_are_errors() {
    assert!(matches!(
        Emulator::new(EmulatorConfig::with_qpus(13)),
        Err(EmuError::Config(_))
    ));
    let mut emu = emulator(2);
    assert!(matches!(emu.run(&[]), Err(EmuError::Launch(_))));
    assert!(matches!(emu.run(&[(0, 0); 3]), Err(EmuError::Launch(_))));
    // Code at an address outside memory.
    let err = emu.run(&[(0, 0x10)]).unwrap_err();
    assert!(err.to_string().contains("0x00000010"), "{err}");
}

#[test]
fn a_branch_to_an_unaligned_address_is_an_error_whether_or_not_its_word_ran() {
    const NOP: u64 = 0x1000_09e7_009e_7000;
    // brr (always, relative, no link) by `offset` bytes from the instruction after the
    // branch's three delay slots.
    let brr = |offset: i32| 0xf0f8_09e7_0000_0000u64 | u64::from(offset as u32);
    // Instruction 4 branches; the target is 4 bytes into instruction 1 (which has run) or
    // into instruction 9 (which has not): both are faults at that address.
    for (offset, target_index) in [(8 + 4 - 64, 1u32), (72 + 4 - 64, 9)] {
        let mut words = vec![NOP; 12];
        words[4] = brr(offset);
        let mut emu = emulator(1);
        let code = emu.load_program(&words).unwrap();
        let uniforms = emu.load_uniforms(&[0]).unwrap();
        let target = code + 8 * target_index + 4;
        match emu.run(&[(uniforms, code)]) {
            Err(EmuError::Fault {
                pc,
                fault:
                    qpu_emu::Fault::Memory(qpu_emu::memory::MemoryError::Unaligned { addr, align }),
                ..
            }) => assert_eq!((pc, addr, align), (target, target, 8)),
            other => panic!("expected an unaligned-PC fault at {target:#x}, got {other:?}"),
        }
    }
}

//! The cycle model: issue rate, TMU latency and cache, TMU swap, DMA engine sharing,
//! semaphore wake-up, and the report's arithmetic. Expected numbers come from the timing
//! table (`Timing::VC4`) applied by hand.

mod support;

use qpu_emu::vc4::{Emulator, EmulatorConfig, Timing};
use support::{assemble, buffer, emulator};

const END: &str = "nop; thrend\nnop\nnop\n";

fn run_each(emu: &mut Emulator, programs: &[(&str, Vec<u32>)]) -> qpu_emu::vc4::RunReport {
    let launches: Vec<(u32, u32)> = programs
        .iter()
        .map(|(source, uniforms)| {
            let code = emu.load_instructions(&assemble(source)).unwrap();
            (emu.load_uniforms(uniforms).unwrap(), code)
        })
        .collect();
    emu.run(&launches).unwrap()
}

#[test]
fn alu_code_issues_one_instruction_per_four_clocks() {
    let t = Timing::VC4;
    let body = "add r0, r0, 1\n".repeat(20);
    let report = run_each(&mut emulator(1), &[(&format!("{body}{END}"), vec![0])]);
    assert_eq!(report.total.instructions, 23);
    assert_eq!(report.cycles, t.program_start_latency + 23 * 4);
    assert_eq!(report.total.stalls.total(), 0);
    // 250 MHz: 4 ns per clock.
    assert!((report.wall_time_us() - report.cycles as f64 / 250.0).abs() < 1e-9);
    assert!(report.to_string().contains("total"));
}

#[test]
fn tmu_latency_and_cache_hits() {
    let t = Timing::VC4;
    let mut emu = emulator(1);
    let data = buffer(&mut emu, &[1; 16]);
    // Two lookups of the same 64-byte line, each loaded right away.
    let source = format!(
        "mov r1, unif
        mov tmu0_s, r1
        nop; ldtmu0
        mov tmu0_s, r1
        nop; ldtmu0
        {END}"
    );
    let report = run_each(&mut emu, &[(&source, vec![data])]);
    let first_issue = t.program_start_latency + 4; // the s write is instruction 2
    let first_ready = first_issue + t.tmu_hit_latency + t.l2c_hit_fill + t.mem_latency;
    let first_stall = first_ready - (first_issue + 4);
    let second_issue = first_ready + 4;
    let second_ready = second_issue
        .max(first_issue + t.tmu_request_occupancy + t.l2c_hit_fill + t.mem_latency)
        + t.tmu_hit_latency;
    let second_stall = second_ready - (second_issue + 4);
    assert_eq!(report.total.tmu_cache_misses, 1);
    assert_eq!(report.total.stalls.tmu, first_stall + second_stall);
}

fn tmu_stall_of_qpu2(noswap: bool) -> u64 {
    let mut emu = emulator(3);
    let table = buffer(&mut emu, &vec![0; 16 * 64]);
    // Each lookup touches 16 different lines (stride 64 bytes): long fills.
    let prefix = if noswap {
        "mov tmu_noswap, 1\nnop\nnop\n"
    } else {
        "nop\nnop\nnop\n"
    };
    let source = format!(
        "{prefix}
        mov r0, elem_num
        shl r0, r0, 6
        add r1, r0, unif
        mov tmu0_s, r1
        nop; ldtmu0
        {END}"
    );
    let idle = format!("nop\n{END}");
    let report = run_each(
        &mut emu,
        &[
            (&source, vec![table]),
            (&idle, vec![]),
            (&source, vec![table + 1024]),
        ],
    );
    report.qpus[2].stalls.tmu
}

#[test]
fn qpus_2_and_3_of_a_slice_use_the_other_tmu_unless_noswap() {
    // QPU 0 and QPU 2 both write tmu0_s. By default QPU 2's request goes to TMU1 and does not
    // queue behind QPU 0's; with TMU_NOSWAP both share TMU0.
    let swapped = tmu_stall_of_qpu2(false);
    let shared = tmu_stall_of_qpu2(true);
    assert!(shared > swapped, "noswap {shared} vs swap {swapped}");
}

#[test]
fn the_single_vdw_engine_serialises_stores_from_two_qpus() {
    let t = Timing::VC4;
    let mut emu = emulator(2);
    let out = buffer(&mut emu, &[0; 32]);
    let store = |row: u32| {
        format!(
            "ldi vw_setup, {:#x}
            mov vpm, 1
            ldi vw_setup, {:#x}
            mov vw_addr, unif
            mov -, vw_wait
            {END}",
            0x1a00 + row,
            0x8090_4000u32 | (row << 7)
        )
    };
    let report = run_each(
        &mut emu,
        &[(&store(0), vec![out]), (&store(1), vec![out + 64])],
    );
    let start = t.program_start_latency + 3 * 4;
    let first_done = start + t.vdw_time(64);
    let second_done = first_done + t.vdw_time(64);
    assert_eq!(report.qpus[0].stalls.dma, first_done - (start + 4));
    assert_eq!(report.qpus[1].stalls.dma, second_done - (start + 4));
    assert_eq!(report.cycles, second_done + 4 * 4);
}

#[test]
fn semaphore_wake_up_latency() {
    let t = Timing::VC4;
    let mut emu = emulator(2);
    let waiter = format!("sacq -, 1\n{END}");
    let releaser = format!("{}srel -, 1\n{END}", "nop\n".repeat(10));
    let report = run_each(&mut emu, &[(&waiter, vec![]), (&releaser, vec![])]);
    let release_issue = t.program_start_latency + 10 * 4;
    let wake = release_issue + t.semaphore_wake;
    assert_eq!(
        report.qpus[0].stalls.semaphore,
        wake - t.program_start_latency
    );
    assert_eq!(report.qpus[0].cycles, wake + 4 * 4);
}

#[test]
fn host_interrupt_needs_a_non_zero_value() {
    let source = format!("mov host_int, 0\nmov host_int, 1\nmov host_int, 5\n{END}");
    let report = run_each(&mut emulator(1), &[(&source, vec![])]);
    assert_eq!(report.total.host_interrupts, 2);
}

#[test]
fn clock_setting_scales_the_wall_time_only() {
    let config = EmulatorConfig {
        clock_mhz: 400.0,
        ..EmulatorConfig::with_qpus(1)
    };
    let mut emu = Emulator::new(config).unwrap();
    let report = run_each(&mut emu, &[(END, vec![])]);
    assert_eq!(report.cycles, Timing::VC4.program_start_latency + 3 * 4);
    assert!((report.wall_time_us() - report.cycles as f64 / 400.0).abs() < 1e-9);
}

//! Emulated instructions per host second: an ALU-bound loop on 1 and 12 QPUs, a TMU/VPM/DMA
//! loop, a flag-heavy loop (every instruction but the branch sets flags), a uniforms + VPM +
//! DMA streaming loop and a TMU gather loop. Criterion's "elements/s" is emulated
//! instructions per second.
//!
//! Run: `cargo bench -p qpu-emu --bench emulator`
//!
//! Profiling: with `QPU_EMU_PROFILE=alu1|alu12|io|flags|stream|tmu` the binary runs that
//! program once more
//! inside `profiled_run` instead of benchmarking, for deterministic instruction counts:
//! `QPU_EMU_PROFILE=alu1 valgrind --tool=callgrind --toggle-collect='*profiled_run*'
//! target/release/deps/emulator-<hash>`. `QPU_EMU_PROFILE_RUNS=n` repeats the run n times
//! (to time it by CPU time, e.g. with `/usr/bin/time`, when the machine is busy).

use criterion::{criterion_group, Criterion, Throughput};
use qpu_emu::vc4::{Emulator, EmulatorConfig};

/// Six instructions per iteration, both ALUs busy.
const ALU_LOOP: &str = include_str!("alu_loop.qasm");

/// Per iteration: a 16-lane TMU gather, a VPM write and a 64-byte VDW store with its wait.
const IO_LOOP: &str = include_str!("io_loop.qasm");

/// Eight instructions per iteration, seven of them setting flags.
const FLAG_LOOP: &str = include_str!("flag_loop.qasm");

/// Per iteration: four uniforms into four VPM rows, a 256-byte VDW store and its wait.
const STREAM_LOOP: &str = include_str!("stream_loop.qasm");

/// Per iteration: two 16-lane TMU gathers and their loads.
const TMU_LOOP: &str = include_str!("tmu_loop.qasm");

/// Uniforms of one QPU: (iterations, input, output) for every program but the streaming
/// loop, which reads (iterations, output) and then four uniforms per iteration.
fn uniforms(source: &str, iterations: u32, input: u32, out: u32) -> Vec<u32> {
    if source == STREAM_LOOP {
        let mut u = vec![iterations, out];
        u.extend((0..iterations * 4).map(|i| i.wrapping_mul(0x9e37_79b9)));
        u
    } else {
        vec![iterations, input, out]
    }
}

fn setup(source: &str, qpus: usize, iterations: u32) -> (Emulator, Vec<(u32, u32)>, u64) {
    let program = qpu_isa::vc4::assemble(source).expect("benchmark program assembles");
    let mut emu = Emulator::new(EmulatorConfig {
        max_instructions: u64::MAX,
        max_cycles: u64::MAX,
        ..EmulatorConfig::with_qpus(qpus)
    })
    .unwrap();
    let code = emu.load_instructions(&program).unwrap();
    let input = emu.memory_mut().alloc(64, 64).unwrap();
    let launches: Vec<(u32, u32)> = (0..qpus)
        .map(|_| {
            let out = emu.memory_mut().alloc(256, 64).unwrap();
            let uniforms = emu
                .load_uniforms(&uniforms(source, iterations, input, out))
                .unwrap();
            (uniforms, code)
        })
        .collect();
    let instructions = emu.run(&launches).unwrap().total.instructions;
    (emu, launches, instructions)
}

/// The benchmarked programs: name, source, QPUs, iterations per QPU, profiling key.
const PROGRAMS: [(&str, &str, usize, u32, &str); 6] = [
    ("alu loop, 1 QPU", ALU_LOOP, 1, 500_000, "alu1"),
    ("alu loop, 12 QPUs", ALU_LOOP, 12, 50_000, "alu12"),
    ("tmu+vpm+dma loop, 1 QPU", IO_LOOP, 1, 50_000, "io"),
    ("flag loop, 1 QPU", FLAG_LOOP, 1, 400_000, "flags"),
    ("stream loop, 1 QPU", STREAM_LOOP, 1, 50_000, "stream"),
    ("tmu loop, 1 QPU", TMU_LOOP, 1, 100_000, "tmu"),
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("emulated instructions");
    group.sample_size(10);
    for (name, source, qpus, iterations, _) in PROGRAMS {
        let (mut emu, launches, instructions) = setup(source, qpus, iterations);
        group.throughput(Throughput::Elements(instructions));
        group.bench_function(name, |b| b.iter(|| emu.run(&launches).unwrap()));
    }
    group.finish();
}

#[inline(never)]
fn profiled_run(emu: &mut Emulator, launches: &[(u32, u32)]) -> u64 {
    emu.run(launches).unwrap().total.instructions
}

fn profile(key: &str) {
    let Some(&(name, source, qpus, iterations, _)) = PROGRAMS.iter().find(|p| p.4 == key) else {
        eprintln!("QPU_EMU_PROFILE={key}: expected one of alu1, alu12, io, flags, stream, tmu");
        std::process::exit(2);
    };
    let (mut emu, launches, _) = setup(source, qpus, iterations);
    // QPU_EMU_PROFILE_RUNS=n repeats the run (for CPU-time measurements on a busy machine).
    let runs: u32 = std::env::var("QPU_EMU_PROFILE_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut instructions = 0;
    for _ in 0..runs {
        instructions += profiled_run(&mut emu, &launches);
    }
    println!("{name}: {instructions} emulated instructions");
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(key) = std::env::var("QPU_EMU_PROFILE") {
        profile(&key);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

//! Settles the emulators' remaining ASSUMPTIONs on real hardware.
//!
//! * VideoCore IV (Pi 1/2/3/Zero): each probe is a tiny program that stores one 16-word
//!   vector per question; this prints what the emulator computes and what the hardware
//!   computes, next to the possible answers.
//! * VideoCore VI/VII (Pi 4/5): the V3D cycle model was fitted to published run times; this
//!   runs programs of those kinds (an instruction-issue loop, a summation, a copy, an SGEMM
//!   block; `qpu_emu::v3d::calibration`) on the Pi 4/5 with the kernel's performance
//!   counters (`DRM_IOCTL_V3D_PERFMON_*`, no root needed) and prints each reading beside
//!   the model's, under the same counter names, with the wall time.
//!
//! ```sh
//! cargo run --release -p qpu-kernels --example help_us_check     # emulators only
//! cargo build --release -p qpu-kernels --example help_us_check   # on a Pi, then:
//! sudo ./target/release/examples/help_us_check                   # Pi 1-3: emulator and hardware
//! ./target/release/examples/help_us_check                        # Pi 4/5 (user in `render`)
//! ```
//!
//! Please report the output (an issue with the whole text) whether it matches or not.

use std::time::Duration;

#[path = "support/exit.rs"]
mod exit;

use qpu_emu::v3d::{calibration, CsdJob, V3dConfig, V3dEmulator};
use qpu_emu::vc4::{Emulator, EmulatorConfig};
use qpu_isa::v3d::V3dVersion;

/// One question: a probe that stores `answers.len()` vectors, and for each the possible
/// results (lane 0) with what they would mean.
struct Probe {
    question: &'static str,
    body: &'static str,
    answers: &'static [(&'static str, &'static [(u32, &'static str)])],
}

const PROBES: &[Probe] = &[
    Probe {
        question: "ftoi of NaN and of values outside the int32 range",
        body: "ldi r0, 0x7fc00000\nftoi r1, r0\nldi r0, 3.0e9\nftoi r2, r0\nldi r0, -3.0e9\nftoi r3, r0",
        answers: &[
            ("ftoi(NaN)", &[(0, "0 (emulator's assumption)"), (0x8000_0000, "0x80000000")]),
            ("ftoi(3e9)", &[(0, "0 (emulator's assumption)"), (0x7fff_ffff, "saturates")]),
            ("ftoi(-3e9)", &[(0, "0 (emulator's assumption)"), (0x8000_0000, "saturates")]),
        ],
    },
    Probe {
        question: "fmin/fmax with a NaN operand (Float::min/max on a Pi 1-3)",
        body: "ldi r0, 0x7fc00000\nldi r3, 2.0\nfmin r1, r0, r3\nfmin r2, r3, r0\nfmax r3, r3, r0",
        answers: &[
            (
                "fmin(NaN, 2)",
                &[(0x7fc0_0000, "NaN: a unless a > b (emulator)"), (0x4000_0000, "2: the non-NaN operand")],
            ),
            (
                "fmin(2, NaN)",
                &[(0x4000_0000, "2 (emulator; also the non-NaN rule)"), (0x7fc0_0000, "NaN")],
            ),
            (
                "fmax(2, NaN)",
                &[(0x7fc0_0000, "NaN: b unless a > b (emulator)"), (0x4000_0000, "2: the non-NaN operand")],
            ),
        ],
    },
    Probe {
        question: "Z flag of a float result of -0.0",
        body: "ldi r0, 0x80000000\nfmax.setf -, r0, r0\nmov r1, 0\nmov.ifz r1, 1",
        answers: &[("Z(-0.0)", &[(1, "set: -0 counts as zero (emulator)"), (0, "clear")])],
    },
    Probe {
        question: "C flag of mul24 (product of 0x1000 and 0x1000 = 2^24)",
        body: "ldi r0, 0x1000\nnop; mul24.setf r2, r0, r0\nmov r1, 0\nmov.ifc r1, 1",
        answers: &[("C(mul24 2^24)", &[(1, "set: product >= 2^24 (emulator)"), (0, "clear")])],
    },
    Probe {
        question: "32-bit saturating pack on an operation other than add/sub",
        body: "ldi r0, 0x40000000\nshl ra1.32s, r0, 1\nnop\nmov r1, ra1",
        answers: &[(
            "shl 0x40000000 by 1, packed .32s",
            &[(0x8000_0000, "not saturated (emulator)"), (0x7fff_ffff, "saturated")],
        )],
    },
    Probe {
        question: "float overflow under round-toward-zero",
        body: "ldi r0, 0x7f7fffff\nfadd r1, r0, r0",
        answers: &[(
            "FLT_MAX + FLT_MAX",
            &[(0x7f7f_ffff, "largest finite (emulator)"), (0x7f80_0000, "infinity")],
        )],
    },
    Probe {
        question: "SFU results: exact (emulator) or approximate",
        body: "ldi r0, 3.0\nmov recip, r0\nnop\nnop\nmov r1, r4\nldi r0, 2.0\nmov recipsqrt, r0\nnop\nnop\nmov r2, r4",
        answers: &[
            ("recip(3.0)", &[(0x3eaa_aaab, "correctly rounded 1/3 (emulator)")]),
            ("rsqrt(2.0)", &[(0x3f35_04f3, "correctly rounded 1/sqrt(2) (emulator)")]),
        ],
    },
    Probe {
        question: "value read from the mutex register when acquiring it",
        body: "mov r1, mutex\nmov mutex, 0",
        answers: &[("mutex read", &[(0, "0 (emulator's assumption)")])],
    },
];

/// The probe's body, then a store of r1, r2, r3 (as many as it answers) to the address in
/// the first uniform, the host interrupt (the mailbox launch waits for it) and the end.
fn program(probe: &Probe) -> String {
    let rows = probe.answers.len();
    let mut text = format!("{}\nmov vw_setup, 0x1a00\n", probe.body);
    for reg in ["r1", "r2", "r3"].iter().take(rows) {
        text.push_str(&format!("mov vpm, {reg}\n"));
    }
    let vdw = 0x8000_0000u32 | ((rows as u32) << 23) | (16 << 16) | (1 << 14);
    text.push_str(&format!(
        "ldi vw_setup, {vdw:#x}\nmov vw_addr, unif\nmov -, vw_wait\nmov host_int, 1\n\
         nop; thrend\nnop\nnop\n"
    ));
    text
}

fn words(source: &str) -> Result<Vec<u64>, Box<dyn std::error::Error>> {
    Ok(qpu_isa::vc4::assemble(source)?
        .iter()
        .map(qpu_isa::vc4::Instruction::encode)
        .collect())
}

fn on_emulator(code: &[u64], rows: usize) -> Result<Vec<u32>, Box<dyn std::error::Error>> {
    let mut emu = Emulator::new(EmulatorConfig::with_qpus(1))?;
    let program = emu.load_program(code)?;
    let out = emu.memory_mut().alloc(64 * rows as u32, 64)?;
    let uniforms = emu.load_uniforms(&[out])?;
    emu.run(&[(uniforms, program)])?;
    Ok(emu.memory().read_u32s(out, 16 * rows as u32)?)
}

fn on_pi(
    gpu: &qpu_pi::Gpu,
    code: &[u64],
    rows: usize,
) -> Result<Vec<u32>, Box<dyn std::error::Error>> {
    let mut program = gpu.alloc(code.len() * 8)?;
    {
        let slot = program.as_words_mut()?;
        for (i, word) in code.iter().enumerate() {
            slot[2 * i] = *word as u32;
            slot[2 * i + 1] = (*word >> 32) as u32;
        }
    }
    let out = gpu.alloc(64 * rows)?;
    let mut uniforms = gpu.alloc(4)?;
    uniforms.as_words_mut()?[0] = out.bus_address();
    gpu.launch(
        &[(uniforms.bus_address(), program.bus_address())],
        Duration::from_secs(1),
    )?;
    let words = out.as_words()?;
    Ok((0..16 * rows).map(|i| words[i]).collect())
}

/// A probe's uniforms from its buffers' addresses.
type UniformsOf = Box<dyn Fn(&[u32]) -> Vec<u32>>;

/// A probe on a Pi 4/5: the counters by name, the wall seconds, the buffers after.
type Measured = (Vec<(String, u64)>, f64, Vec<Vec<u32>>);

/// A V3D program to run on the model and on a Pi 4/5: its text, batches (one per QPU), the
/// initial words of its buffers, and its uniforms from the buffers' addresses.
struct V3dProbe {
    name: String,
    text: String,
    batches: u32,
    buffers: Vec<Vec<u32>>,
    uniforms: UniformsOf,
}

/// The counters asked of the kernel, the ones the model keeps (`V3dRunReport::perfmon`).
const COUNTERS: &[&str] = &[
    "cycle-count",
    "compute-active-cycles",
    "QPU-active",
    "QPU-stalls",
    "QPU-stalls-TMU",
    "QPU-stalls-uniforms",
    "QPU-stalls-SFU",
    "QPU-wait-bubble",
    "TMU-active-cycles",
    "L2T-TMU-read-hits",
    "L2T-TMU-read-miss",
    "L2T-memory-writes",
];

fn v3d_probes(version: V3dVersion, qpus: u32) -> Vec<V3dProbe> {
    let words: u32 = 4 << 20;
    let mut probes = vec![
        V3dProbe {
            name: "issue loop (1 QPU, 1,000,000 iterations of 5 instructions)".into(),
            text: calibration::issue_loop_kernel(),
            batches: 1,
            buffers: Vec::new(),
            uniforms: Box::new(|_| vec![1_000_000]),
        },
        V3dProbe {
            name: format!("summation of 4 Mi words ({qpus} QPUs)"),
            text: calibration::summation_kernel(),
            batches: qpus,
            buffers: vec![(0..words).collect(), vec![0; 16 * qpus as usize]],
            uniforms: Box::new(move |a| vec![a[0], a[1], words / (16 * qpus * 8), 64 * qpus]),
        },
        V3dProbe {
            name: format!("copy of 4 Mi words ({qpus} QPUs)"),
            text: calibration::scopy_kernel(),
            batches: qpus,
            buffers: vec![(0..words).collect(), vec![0; words as usize]],
            uniforms: Box::new(move |a| vec![a[0], a[1], words / (16 * qpus * 8), 64 * qpus]),
        },
    ];
    // One 16×16 block per QPU of a 1024³ SGEMM, QPUs in a (qpus / 4) × 4 tiling.
    let n = 1024u32;
    let tiles_i = qpus / 4;
    let (rows, cols) = (n / tiles_i, n / 4);
    let ones = (n * n) as usize;
    probes.push(V3dProbe {
        name: format!("SGEMM, one 16x16 block of C per QPU, k = 1024 ({qpus} QPUs)"),
        text: calibration::sgemm_kernel(version),
        batches: qpus,
        buffers: vec![
            vec![1.0f32.to_bits(); ones],
            vec![0.5f32.to_bits(); ones],
            vec![0; ones],
        ],
        uniforms: Box::new(move |a| {
            vec![
                a[0],
                a[1],
                a[2],
                n * 4,
                n * 4,
                n * 4,
                n,
                1,
                1,
                rows * n * 4,
                rows * n * 4,
                cols * 4,
                64,
            ]
        }),
    });
    probes
}

/// A probe on the V3D model: its perfmon-named counters, modelled seconds and buffers after.
type Modelled = (Vec<(&'static str, u64)>, f64, Vec<Vec<u32>>);

fn v3d_on_emulator(
    version: V3dVersion,
    probe: &V3dProbe,
) -> Result<Modelled, Box<dyn std::error::Error>> {
    let mut config = V3dConfig::new(version);
    config.max_instructions = 1 << 32;
    let mut emu = V3dEmulator::new(config)?;
    let program = qpu_isa::v3d::assemble(version, &probe.text)?;
    let code = emu.load_instructions(&program)?;
    let mut addresses = Vec::new();
    for words in &probe.buffers {
        let address = emu.memory_mut().alloc(4 * words.len() as u32, 4096)?;
        emu.memory_mut().write_u32s(address, words)?;
        addresses.push(address);
    }
    let uniforms = emu.load_uniforms(&(probe.uniforms)(&addresses))?;
    let report = emu.dispatch(&CsdJob::per_qpu(code, uniforms, probe.batches))?;
    let after = probe
        .buffers
        .iter()
        .zip(&addresses)
        .map(|(words, &a)| emu.memory().read_u32s(a, words.len() as u32))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((report.perfmon(), report.seconds(), after))
}

/// A probe on the Pi 4/5: the counters the kernel offers of [`COUNTERS`], the wall time of
/// the launch, and the buffers after.
#[cfg(target_os = "linux")]
fn v3d_on_pi(
    v3d: &qpu_pi::v3d::V3d,
    version: V3dVersion,
    probe: &V3dProbe,
) -> Result<Measured, Box<dyn std::error::Error>> {
    use qpu_pi::v3d::Dispatch;
    use qpu_pi::LaunchBuffer;
    let words: Vec<u64> = qpu_isa::v3d::assemble(version, &probe.text)?
        .iter()
        .map(|i| i.encode(version))
        .collect::<Result<_, _>>()?;
    let mut code = v3d.alloc(words.len() * 8)?;
    let code_words: Vec<u32> = words
        .iter()
        .flat_map(|w| [*w as u32, (*w >> 32) as u32])
        .collect();
    code.write_words(0, &code_words)?;
    let mut buffers = Vec::new();
    for words in &probe.buffers {
        let mut b = v3d.alloc(words.len() * 4)?;
        b.write_words(0, words)?;
        buffers.push(b);
    }
    let addresses: Vec<u32> = buffers.iter().map(|b| b.gpu_address()).collect();
    let uniform_words = (probe.uniforms)(&addresses);
    let mut uniforms = v3d.alloc(uniform_words.len().max(1) * 4)?;
    uniforms.write_words(0, &uniform_words)?;
    let offered = v3d.perfmon_counters()?;
    let asked: Vec<&str> = COUNTERS
        .iter()
        .copied()
        .filter(|c| offered.iter().any(|o| o == c))
        .collect();
    let dispatch = Dispatch {
        code: code.gpu_address(),
        uniforms: uniforms.gpu_address(),
        batches: probe.batches,
    };
    let mut lent = vec![
        LaunchBuffer::Read(code.as_words()?),
        LaunchBuffer::Read(uniforms.as_words()?),
    ];
    for b in buffers.iter_mut() {
        lent.push(LaunchBuffer::Write(b.as_words_mut()?));
    }
    let start = std::time::Instant::now();
    let counters = v3d.launch_measured(&dispatch, &mut lent, Duration::from_secs(5), &asked)?;
    let seconds = start.elapsed().as_secs_f64();
    drop(lent);
    let after = buffers
        .iter()
        .zip(&probe.buffers)
        .map(|(b, words)| b.read_words(0, words.len()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((counters, seconds, after))
}

/// The V3D part: the model's counters for each probe and, on a Pi 4/5, the kernel's.
fn v3d_part() -> Result<(), Box<dyn std::error::Error>> {
    #[cfg(target_os = "linux")]
    let pi = qpu_pi::v3d::V3d::open().ok();
    #[cfg(not(target_os = "linux"))]
    let pi: Option<()> = None;
    #[cfg(target_os = "linux")]
    let versions: Vec<V3dVersion> = match &pi {
        Some(v3d) => vec![match v3d.info().version {
            qpu_pi::v3d::V3dVersion::V42 => V3dVersion::V42,
            qpu_pi::v3d::V3dVersion::V71 => V3dVersion::V71,
        }],
        None => vec![V3dVersion::V42, V3dVersion::V71],
    };
    #[cfg(not(target_os = "linux"))]
    let versions = vec![V3dVersion::V42, V3dVersion::V71];
    if pi.is_none() {
        println!(
            "\nNo Pi 4/5 GPU (v3d render node) here: the V3D model's counters only. On a Pi 4 \
             or 5 this prints the kernel's performance counters beside them.\n"
        );
    }
    for version in versions {
        let (board, qpus, mhz) = match version {
            V3dVersion::V42 => ("Pi 4 (V3D 4.2)", 8, 500.0),
            V3dVersion::V71 => ("Pi 5 (V3D 7.1)", 16, 960.0),
        };
        println!("{board}: the cycle model at {mhz} MHz beside the kernel's counters");
        for probe in v3d_probes(version, qpus) {
            let (model, seconds, model_after) = v3d_on_emulator(version, &probe)?;
            println!("  {}: model {:.3} ms", probe.name, seconds * 1e3);
            #[cfg(target_os = "linux")]
            let measured = pi
                .as_ref()
                .map(|v3d| v3d_on_pi(v3d, version, &probe).map_err(|e| e.to_string()));
            #[cfg(not(target_os = "linux"))]
            let measured: Option<
                Result<(Vec<(String, u64)>, f64, Vec<Vec<u32>>), String>,
            > = None;
            match &measured {
                Some(Ok((_, wall, after))) => println!(
                    "    hardware: {:.3} ms wall (launch included); outputs {}",
                    wall * 1e3,
                    if *after == model_after {
                        "agree with the model's"
                    } else {
                        "DIFFER from the model's"
                    }
                ),
                Some(Err(e)) => println!("    hardware run failed: {e}"),
                None => {}
            }
            for (name, value) in &model {
                print!("    {name:<22} model {value:>12}");
                match &measured {
                    Some(Ok((counters, _, _))) => match counters.iter().find(|(n, _)| n == name) {
                        Some((_, v)) => println!("   hardware {v:>12}"),
                        None => println!("   hardware (not offered by this kernel)"),
                    },
                    _ => println!(),
                }
            }
        }
    }
    Ok(())
}

/// Settles the emulators' remaining assumptions on real hardware: run it on a Raspberry Pi
/// (sudo on a Pi 1-3; a user in `render` on a Pi 4/5) and report the whole output. Without a
/// Pi it shows the emulators' answers only.
#[derive(clap::Parser)]
#[command(name = "help_us_check")]
struct Cli {}

fn main() -> std::process::ExitCode {
    let _: Cli = clap::Parser::parse();
    exit::finish(vc4_part().and_then(|()| v3d_part()))
}

/// The VideoCore IV part: each probe's answer on the emulator and, on a Pi 1-3, the hardware.
fn vc4_part() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = match qpu_pi::Gpu::open() {
        Ok(gpu) => Some(gpu),
        Err(e) => {
            println!("no Raspberry Pi GPU here ({e}); showing the emulator's answers only.\n");
            None
        }
    };
    for probe in PROBES {
        let code = words(&program(probe))?;
        let rows = probe.answers.len();
        let emulated = on_emulator(&code, rows)?;
        let hardware = gpu
            .as_ref()
            .map(|gpu| on_pi(gpu, &code, rows).map_err(|e| e.to_string()));
        println!("{}", probe.question);
        for (row, (what, possible)) in probe.answers.iter().enumerate() {
            let emu_value = emulated[16 * row];
            let meaning = |v: u32| {
                possible
                    .iter()
                    .find(|(p, _)| *p == v)
                    .map_or("a value we did not expect", |(_, m)| m)
            };
            print!(
                "  {what}: emulator {emu_value:#010x} ({})",
                meaning(emu_value)
            );
            match &hardware {
                Some(Ok(values)) => {
                    let v = values[16 * row];
                    let same = values[16 * row..16 * row + 16].iter().all(|&x| x == v);
                    println!(
                        "; hardware {v:#010x} ({}){}",
                        meaning(v),
                        if same { "" } else { ", lanes differ" }
                    );
                }
                Some(Err(e)) => println!("; hardware run failed: {e}"),
                None => println!(),
            }
        }
    }
    Ok(())
}

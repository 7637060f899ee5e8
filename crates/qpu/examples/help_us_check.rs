//! Settles the emulator's remaining ASSUMPTIONs on real hardware. Each probe is a tiny
//! VideoCore IV program that stores one 16-word vector per question; this example prints
//! what the emulator computes and, on a Raspberry Pi 1/2/3/Zero with the QPUs available, what
//! the hardware computes, next to the possible answers.
//!
//! ```sh
//! cargo run --release -p qpu --example help_us_check            # emulator only
//! cargo build --release -p qpu --example help_us_check          # on a Pi, then:
//! sudo ./target/release/examples/help_us_check                  # emulator and hardware
//! ```
//!
//! Please report the output (an issue with the whole text) whether it matches or not.

use std::time::Duration;

use qpu_emu::{Emulator, EmulatorConfig};

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
    Ok(qpu_isa::assemble(source)?
        .iter()
        .map(qpu_isa::Instruction::encode)
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
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

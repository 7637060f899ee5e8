//! Shared helpers for the emulator's integration tests: assemble, run, read results back.
#![allow(dead_code)]

use qpu_emu::vc4::{Emulator, EmulatorConfig, Rule, RunReport};
use qpu_emu::{EmuError, Fault};

/// Assembles `source` or panics with the assembler's message.
pub fn assemble(source: &str) -> Vec<qpu_isa::vc4::Instruction> {
    qpu_isa::vc4::assemble(source).unwrap_or_else(|e| panic!("assembly failed: {e}\n{source}"))
}

/// Code that stores `regs` (one 16-lane vector each, in order) to the address read from the
/// next uniform, then ends the program.
pub fn store_and_end(regs: &[&str]) -> String {
    let mut text = String::from("mov vw_setup, 0x1a00\n"); // horizontal 32-bit, row 0, stride 1
    for reg in regs {
        text.push_str(&format!("mov vpm, {reg}\n"));
    }
    // VDW: `regs.len()` horizontal units of 16 32-bit words from VPM row 0.
    let vdw = 0x8000_0000u32 | ((regs.len() as u32) << 23) | (16 << 16) | (1 << 14);
    text.push_str(&format!(
        "mov vw_setup, {vdw:#x}\nmov vw_addr, unif\nmov -, vw_wait\nnop; thrend\nnop\nnop\n"
    ));
    text
}

/// Loads 16 words from each of the next two uniforms' addresses into ra0 and rb0 (lane i
/// gets word i), leaving r0 = 4 × element number. Needs two uniforms.
pub const LOAD_RA0_RB0: &str = "
    mov r0, elem_num
    shl r0, r0, 2
    add tmu0_s, r0, unif
    add tmu0_s, r0, unif
    nop; ldtmu0
    mov ra0, r4; ldtmu0
    mov rb0, r4
    nop
";

/// An emulator with `qpus` QPUs and default settings.
pub fn emulator(qpus: usize) -> Emulator {
    Emulator::new(EmulatorConfig::with_qpus(qpus)).expect("valid configuration")
}

/// Allocates a buffer holding `words`; returns its address.
pub fn buffer(emu: &mut Emulator, words: &[u32]) -> u32 {
    let addr = emu
        .memory_mut()
        .alloc((words.len() as u32 * 4).max(4), 64)
        .unwrap();
    emu.memory_mut().write_u32s(addr, words).unwrap();
    addr
}

/// Runs `source` on one QPU with `inputs` (each a 16-word vector placed in memory, its
/// address passed as a uniform, in order) followed by the plain uniforms `extra`, then an
/// output buffer of `out_vectors` × 16 words whose address is the last uniform. Returns the
/// output words and the report.
pub fn run_with(
    emu: &mut Emulator,
    source: &str,
    inputs: &[&[u32; 16]],
    extra: &[u32],
    out_vectors: usize,
) -> Result<(Vec<u32>, RunReport), EmuError> {
    let code = emu.load_instructions(&assemble(source))?;
    let mut uniforms = Vec::new();
    for input in inputs {
        uniforms.push(buffer(emu, &input[..]));
    }
    uniforms.extend_from_slice(extra);
    let out = buffer(emu, &vec![0xdead_beef; out_vectors.max(1) * 16]);
    uniforms.push(out);
    let uniforms = emu.load_uniforms(&uniforms)?;
    let report = emu.run(&[(uniforms, code)])?;
    let words = emu
        .memory()
        .read_u32s(out, (out_vectors * 16) as u32)
        .unwrap();
    Ok((words, report))
}

/// [`run_with`] on a fresh one-QPU emulator, panicking on errors.
pub fn run(source: &str, inputs: &[&[u32; 16]], extra: &[u32], out_vectors: usize) -> Vec<u32> {
    let mut emu = emulator(1);
    run_with(&mut emu, source, inputs, extra, out_vectors)
        .unwrap_or_else(|e| panic!("{e}\n{source}"))
        .0
}

/// Runs `source` (no inputs, one output uniform) and returns the rule it broke.
pub fn broken_rule(source: &str, extra: &[u32]) -> Rule {
    broken_rule_in(&mut emulator(1), source, extra)
}

/// As [`broken_rule`] on a given emulator.
pub fn broken_rule_in(emu: &mut Emulator, source: &str, extra: &[u32]) -> Rule {
    match run_with(emu, source, &[], extra, 1) {
        Err(EmuError::Fault {
            fault: Fault::Rule(rule),
            ..
        }) => rule,
        Err(other) => panic!("expected a rule violation, got: {other}"),
        Ok(_) => panic!("expected a rule violation, but the program ran:\n{source}"),
    }
}

/// A deterministic pseudo-random sequence (xorshift) for test inputs.
pub struct Inputs(u64);

impl Inputs {
    pub fn new(seed: u64) -> Inputs {
        Inputs(seed | 1)
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }

    /// A vector mixing edge cases with random words.
    pub fn vector(&mut self, edges: &[u32]) -> [u32; 16] {
        std::array::from_fn(|i| edges.get(i).copied().unwrap_or_else(|| self.next_u32()))
    }
}

//! Running V3D code straight on the V3D emulator, for the tests that compare it with the
//! interpreter or scalar Rust.

use qpu::compiler::v3d::V3dCompiled;
use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator, V3dRunReport};

/// A launch argument.
#[derive(Clone)]
pub enum Arg {
    /// An array (its bus address is passed).
    Array(Vec<u32>),
    /// A plain word.
    Word(u32),
}

/// Runs `compiled` on `qpus` QPUs with its spill area, if it has one; returns the arrays
/// afterwards and the report.
pub fn run_v3d(compiled: &V3dCompiled, qpus: u32, args: &[Arg]) -> (Vec<Vec<u32>>, V3dRunReport) {
    let mut config = V3dConfig::new(compiled.version());
    config.qpus = qpus as usize;
    let mut emu = V3dEmulator::new(config).unwrap();
    let code = emu.load_program(compiled.words()).unwrap();
    let mut words = Vec::new();
    let mut arrays = Vec::new();
    for arg in args {
        match arg {
            Arg::Array(data) => {
                let mem = emu.memory_mut();
                let addr = mem.alloc(data.len().max(1) as u32 * 4, 64).unwrap();
                mem.write_u32s(addr, data).unwrap();
                words.push(addr);
                arrays.push((addr, data.len() as u32));
            }
            Arg::Word(w) => words.push(*w),
        }
    }
    let spill = match compiled.spill_bytes(qpus).unwrap() {
        0 => 0,
        bytes => emu.memory_mut().alloc(bytes, 64).unwrap(),
    };
    let semaphores = match compiled.semaphore_bytes() {
        0 => 0,
        bytes => emu.memory_mut().alloc(bytes, 64).unwrap(),
    };
    let uniforms = emu
        .load_uniforms(&compiled.uniforms(qpus, &words, spill, semaphores))
        .unwrap();
    let report = emu
        .dispatch(&CsdJob::per_qpu(code, uniforms, qpus))
        .unwrap_or_else(|e| {
            panic!(
                "{:?} on {qpus} QPUs: {e}\n{}",
                compiled.version(),
                compiled.disassemble()
            )
        });
    let out = arrays
        .iter()
        .map(|&(addr, len)| emu.memory().read_u32s(addr, len).unwrap())
        .collect();
    (out, report)
}

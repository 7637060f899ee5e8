//! The compiler: kernel AST → machine code for the VideoCore IV (Pi 1–3), V3D 4.2 (Pi 4)
//! or V3D 7.1 (Pi 5).
//!
//! Every generation compiles the same AST through one driver ([`compile_for_with`]; the
//! `target` module describes the seam): the driver times the compilation, runs the
//! generation's static validator as the self-check ([`Options::self_check`]) and writes
//! the `QPU_DUMP_IR` listing; behind it each generation has its own back end, as Mesa
//! has separate vc4 and v3d compilers fed by the same NIR. The V3D back end is [`v3d`];
//! the VideoCore IV's is `vc4` (its passes, launch contract and memory use are
//! described there); what they share (the analyses of the recorded kernel) is `analysis`.
//!

pub(crate) mod common;
pub mod v3d;
pub(crate) mod vc4;

pub use vc4::Compiled;
pub(crate) use vc4::{annotate, generate_vc4};
#[doc(hidden)]
pub use vc4::{compile, compile_with};

use std::time::{Duration, Instant};

use crate::error::SourceLocation;
use crate::lang::ast;
use common::target::{Code, Target, V3d, Vc4};

/// Why a kernel could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// Register allocation failed even with spilling.
    #[error("register allocation failed: {0}")]
    RegisterAllocation(String),
    /// An internal consistency check failed while encoding (a compiler bug).
    #[error("internal compiler error while encoding instruction {index}: {message}")]
    Encoding {
        /// The instruction index.
        index: usize,
        /// What was wrong.
        message: String,
    },
    /// The compiled code breaks a hardware rule the emulator's static validator finds (a
    /// compiler bug; see [`Options::self_check`]).
    #[error("internal compiler error: the compiled code breaks a hardware rule: {0}")]
    SelfCheck(String),
    /// The kernel uses a construct this target's compiler does not support (yet).
    #[error("{construct} is not supported when compiling for {target} (at {location})")]
    Unsupported {
        /// What the kernel uses.
        construct: String,
        /// The target compiled for.
        target: &'static str,
        /// The statement using it (the kernel's `compile` call when no statement applies).
        location: SourceLocation,
    },
}

/// The GPU a kernel is compiled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Gpu {
    /// VideoCore IV (Raspberry Pi 1–3, Zero): the back end the module docs describe.
    Vc4,
    /// VideoCore VI, V3D 4.2 (Raspberry Pi 4): the [`v3d`] back end.
    Vc6,
    /// VideoCore VII, V3D 7.1 (Raspberry Pi 5): the [`v3d`] back end.
    Vc7,
}

impl From<qpu_isa::v3d::V3dVersion> for Gpu {
    /// The GPU a V3D version is: 4.2 the Pi 4's, 7.1 the Pi 5's.
    fn from(version: qpu_isa::v3d::V3dVersion) -> Gpu {
        match version {
            qpu_isa::v3d::V3dVersion::V42 => Gpu::Vc6,
            qpu_isa::v3d::V3dVersion::V71 => Gpu::Vc7,
        }
    }
}

/// A kernel compiled for one [`Gpu`].
#[derive(Debug, Clone, PartialEq)]
pub enum Program {
    /// VideoCore IV code.
    Vc4(Compiled),
    /// V3D 4.2 or 7.1 code.
    V3d(v3d::V3dCompiled),
}

/// Compiles `kernel` for `gpu` with default options (over the recorded AST, for the crate's
/// tests; users call [`Kernel::compile_for`](crate::Kernel::compile_for)).
#[doc(hidden)]
pub fn compile_for(kernel: &ast::Kernel, gpu: Gpu) -> Result<Program, CompileError> {
    compile_for_with(kernel, gpu, Options::default())
}

/// Compiles `kernel` for `gpu` with explicit options, through the one driver every
/// generation shares (`target` module): it times the compilation, runs the generation's
/// static validator when [`Options::self_check`] asks for it and writes the `QPU_DUMP_IR`
/// listing. Users reach it through [`Kernel::compile_for`](crate::Kernel::compile_for).
#[doc(hidden)]
pub fn compile_for_with(
    kernel: &ast::Kernel,
    gpu: Gpu,
    options: Options,
) -> Result<Program, CompileError> {
    use qpu_isa::v3d::V3dVersion;
    match gpu {
        Gpu::Vc4 => drive(&Vc4, kernel, options).map(Program::Vc4),
        Gpu::Vc6 => drive(&V3d(V3dVersion::V42), kernel, options).map(Program::V3d),
        Gpu::Vc7 => drive(&V3d(V3dVersion::V71), kernel, options).map(Program::V3d),
    }
}

/// Instruction words as memory holds them: each 64-bit word little-endian, low half first
/// (both generations' `code_words`).
pub(crate) fn memory_words(words: &[u64]) -> Vec<u32> {
    words
        .iter()
        .flat_map(|&word| [word as u32, (word >> 32) as u32])
        .collect()
}

/// The driver behind [`compile_for_with`].
pub(crate) fn drive<T: Target>(
    target: &T,
    kernel: &ast::Kernel,
    options: Options,
) -> Result<T::Code, CompileError> {
    let start = Instant::now();
    let divided = common::rewrite::divisions_by_constants(kernel);
    let kernel = divided.as_ref().unwrap_or(kernel);
    let selected = common::rewrite::select_before_rotating(kernel);
    let kernel = selected.as_ref().unwrap_or(kernel);
    let mut code = target.generate(kernel, options)?;
    if options.self_check {
        let broken = target.validate(&code);
        if !broken.is_empty() {
            return Err(CompileError::SelfCheck(format!(
                "{}: {}\nlisting:\n{}",
                target.name(),
                broken.join("\n"),
                code.plain_listing()
            )));
        }
    }
    code.set_compile_time(start.elapsed());
    dump("listing", || code.listing());
    Ok(code)
}

impl Program {
    /// The listing in the generation's assembler syntax, with `# file:line:col` comments
    /// where the kernel statement the code comes from changes.
    pub fn disassemble(&self) -> String {
        match self {
            Program::Vc4(c) => c.disassemble(),
            Program::V3d(c) => c.disassemble(),
        }
    }

    /// The encoded instructions.
    pub fn words(&self) -> &[u64] {
        match self {
            Program::Vc4(c) => &c.words,
            Program::V3d(c) => &c.words,
        }
    }

    /// The instruction words as memory holds them (32-bit words, each instruction's low half
    /// first).
    pub fn code_words(&self) -> Vec<u32> {
        memory_words(self.words())
    }

    /// How long the compilation took.
    pub fn compile_time(&self) -> Duration {
        match self {
            Program::Vc4(c) => c.compile_time,
            Program::V3d(c) => c.compile_time,
        }
    }

    /// The kernel statement the instruction at `index` comes from.
    pub fn location(&self, index: usize) -> Option<SourceLocation> {
        match self {
            Program::Vc4(c) => c.location(index),
            Program::V3d(c) => c.location(index),
        }
    }

    /// The kernel statement the instruction at bus address `pc` comes from, with the code
    /// placed at `code` (both generations' instructions are 8 bytes).
    pub fn location_at(&self, code: u32, pc: u32) -> Option<SourceLocation> {
        let offset = pc.checked_sub(code)?;
        self.location(offset as usize / 8)
    }
}

impl From<CompileError> for crate::Error {
    fn from(e: CompileError) -> crate::Error {
        crate::Error::Backend {
            backend: "compiler".to_string(),
            message: e.to_string(),
        }
    }
}

/// Compiler settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Pack an add-ALU and a mul-ALU operation into one instruction where possible.
    pub dual_issue: bool,
    /// Check the compiled code with its generation's static validator
    /// ([`qpu_isa::vc4::validate`] for the VideoCore IV, [`qpu_isa::v3d::validate`] for V3D:
    /// the hazard and placement rules the emulators enforce too, as Mesa checks its vc4 and
    /// v3d output) and fail with
    /// [`CompileError::SelfCheck`] if it breaks one. On by default in debug builds (so in
    /// every test) and when the environment variable `QPU_SELF_CHECK` is set.
    pub self_check: bool,
    /// VideoCore IV only (V3D code does not depend on the QPU count).
    /// The most QPUs the compiled code will run on (1..=12): each QPU then owns
    /// 64 >> ceil(log2 n) VPM rows, and store runs move that many rows per DMA (4 on 9–12
    /// QPUs, 64 on one). The runtime compiles each launch for its QPU count.
    pub max_qpus: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_qpus: qpu_isa::vc4::QPUS,
            dual_issue: true,
            self_check: cfg!(debug_assertions) || std::env::var_os("QPU_SELF_CHECK").is_some(),
        }
    }
}

/// With the environment variable `QPU_DUMP_IR` set, the IR after each pass and the final
/// listing go to stderr.
fn dump(stage: &str, text: impl FnOnce() -> String) {
    if std::env::var_os("QPU_DUMP_IR").is_some() {
        eprintln!("=== {stage} ===\n{}", text());
    }
}

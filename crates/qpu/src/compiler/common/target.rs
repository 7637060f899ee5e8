//! The target seam: what the compiler asks of a GPU generation.
//!
//! Every generation compiles the same kernel AST, built by the same front end (the
//! language's builder and its type checks), and both back ends share the AST analyses in
//! [`super::analysis`] (`visit_assignments`, `uniform_variables`, `lane_uniform`,
//! `invariant`), the rewrites in `vc4::lower` that are not specific to one
//! (`window_copies`, the sliding-window renaming both unroll with; `idle_once_done`) and
//! the block liveness solver in [`super::liveness`]. A [`Target`] turns the
//! AST into its machine code; the driver ([`crate::compiler::compile_for_with`]) is the same for all
//! of them: it times the compilation, applies the [`Options`](crate::compiler::Options), runs the
//! target's static validator as the self-check and writes the `QPU_DUMP_IR` listing.
//!
//! Behind the seam each generation has its own back end, because what a back end is built
//! around differs between them: the VideoCore IV (Pi 1–3) has two 32-entry register files
//! with one read port each, four accumulators, VPM/DMA stores and a 4-deep TMU FIFO; the V3D
//! 4.2/7.1 (Pi 4/5) have one 64-entry file (plus accumulators r0–r5 on 4.2 only), TMU loads
//! and stores with a 16-word result FIFO, and a flag model with pushes and updates. Mesa is
//! organised the same way: its `vc4` driver (QIR, `src/gallium/drivers/vc4`) and its `v3d`
//! compiler (VIR, `src/broadcom/compiler`) are separate back ends fed by the same NIR.
//!
//! * [`Vc4`]: the pipeline in this module's siblings (`lower`, `opt`, `pipeline`, `prepass`,
//!   `regalloc`, `schedule`, `emit`), validated by [`qpu_isa::vc4::validate`].
//! * [`V3d`]: the code generator, allocator and packer in [`crate::compiler::v3d`], validated by
//!   [`qpu_isa::v3d::validate`].
//!
//! Both schedulers take their latencies from a [`Facts`] table built from the generation's
//! latency facts in `qpu_isa` ([`qpu_isa::vc4::latency`], [`qpu_isa::v3d::latency`]), which
//! the strict emulator's rules read too, so the compiler and the emulator cannot disagree
//! about a distance. The self-check runs the emulator crate's static validator for the
//! generation.

use std::time::Duration;

use qpu_isa::vc4::Instruction;

use crate::compiler::vc4::bundle::Bundle;
use crate::compiler::vc4::emit::EncodeError;
use crate::compiler::vc4::ir::*;
use crate::compiler::vc4::lower::Lowered;
use crate::compiler::{CompileError, Options};
use crate::lang::ast;

/// Timing and register facts the schedulers and the allocator obey. "A value written by
/// instruction i is readable from instruction i + N."
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Facts {
    /// A register-file register's read-after-write distance.
    pub regfile: usize,
    /// An accumulator's read-after-write distance.
    pub accumulator: usize,
    /// A rotation source's (and r5's for a rotation by r5) distance from its write.
    pub rotate_source: usize,
    /// From an SFU write to its result.
    pub sfu: usize,
    /// From a TMU load signal to its result.
    pub tmu_load: usize,
    /// From a write of the uniform address (VideoCore IV `unif_addr`, V3D `unifa`) to the
    /// first uniform read from the new address.
    pub uniform_address: usize,
    /// Instructions that always run after a branch.
    pub branch_delay_slots: usize,
    /// Instructions that run after the thread-end signal.
    pub thread_end_delay_slots: usize,
    /// Instructions a TMU lookup that hits the cache takes, request to result (a schedule
    /// goal, not a rule: receiving earlier stalls).
    pub tmu_lookup: usize,
}

impl Facts {
    /// The VideoCore IV's: the guide's, as the emulator checks them
    /// ([`qpu_isa::vc4::latency`]).
    pub const VC4: Facts = {
        use qpu_isa::vc4::latency as l;
        Facts {
            regfile: l::REGFILE,
            accumulator: l::ACCUMULATOR,
            rotate_source: l::ROTATE_SOURCE,
            sfu: l::SFU,
            tmu_load: l::TMU_LOAD,
            uniform_address: l::UNIFORMS_ADDRESS,
            branch_delay_slots: l::BRANCH_DELAY_SLOTS,
            thread_end_delay_slots: l::THREAD_END_DELAY_SLOTS,
            // A TMU hit in instructions (36 clocks at 4 an instruction).
            tmu_lookup: (l::TMU_HIT_CLOCKS / l::CLOCKS_PER_INSTRUCTION) as usize,
        }
    };

    /// V3D 4.2 and 7.1 (one table: the sources give the same distances for both), as the V3D
    /// emulator checks them ([`qpu_isa::v3d::latency`]).
    pub const V3D: Facts = {
        use qpu_isa::v3d::latency as l;
        Facts {
            // Every ALU result, register file or accumulator, is readable by the next
            // instruction (Mesa `qpu_schedule.c` `instruction_latency`: 1 unless SFU).
            regfile: 1,
            accumulator: 1,
            // The compiler keeps 4.2's distance for 7.1's `rotate` too.
            rotate_source: l::ROTATE_SOURCE as usize,
            sfu: l::SFU_R4 as usize,
            // An `ldtmu` result is written at the end of its instruction, like an ALU's.
            tmu_load: 1,
            // Three instructions between the `unifa` write and the first `ldunifa`.
            uniform_address: l::UNIFA_TO_LDUNIFA as usize + 1,
            branch_delay_slots: l::BRANCH_DELAY_SLOTS as usize,
            thread_end_delay_slots: l::THRSW_DELAY_SLOTS as usize,
            // The V3D emulator's cycle model (fitted to published Pi 4/5 timings, qpu-emu's
            // v3d/timing.rs): 4 clocks an instruction; a load that misses the L2T returns
            // after about 100 clocks on a Pi 5 (25 instructions) and 210 on a Pi 4, one
            // that hits after 35-45. 25 is the Pi 5 miss; kept for both until the compiler
            // schedules per board.
            tmu_lookup: 25,
        }
    };
}

/// A GPU generation the compiler can emit code for (see the module docs).
pub(crate) trait Target {
    /// What a compilation produces.
    type Code: Code;
    /// The generation, as messages name it.
    fn name(&self) -> &'static str;
    /// The facts its schedulers obey.
    fn facts(&self) -> &'static Facts;
    /// The kernel as this generation's machine code.
    fn generate(&self, kernel: &ast::Kernel, options: Options) -> Result<Self::Code, CompileError>;
    /// The hardware rules finished code breaks, one message each (empty: none).
    fn validate(&self, code: &Self::Code) -> Vec<String>;
}

/// What the driver needs of a compiled program.
pub(crate) trait Code {
    /// The listing with source locations, as `QPU_DUMP_IR` prints it.
    fn listing(&self) -> String;
    /// The plain listing the assembler reads back (for self-check messages).
    fn plain_listing(&self) -> String;
    /// Records how long the compilation took.
    fn set_compile_time(&mut self, time: Duration);
}

/// The VideoCore IV (Pi 1, 2, 3, Zero).
pub(crate) struct Vc4;

impl Vc4 {
    /// The kernel as IR over virtual registers for at most `max_qpus` QPUs, with spill
    /// support or without.
    pub(crate) fn lower(
        &self,
        kernel: &ast::Kernel,
        spill_support: bool,
        max_qpus: u32,
    ) -> Lowered {
        crate::compiler::vc4::lower::lower(kernel, spill_support, max_qpus)
    }

    /// One instruction word doing `ops` together, if they fit.
    pub(crate) fn pack(&self, ops: &[&Op<Loc>]) -> Option<Bundle> {
        crate::compiler::vc4::schedule::pack(ops)
    }

    /// The machine instruction of a scheduled word (`index` for error messages).
    pub(crate) fn encode(&self, bundle: &Bundle, index: usize) -> Result<Instruction, EncodeError> {
        crate::compiler::vc4::emit::encode(bundle, index)
    }
}

impl Target for Vc4 {
    type Code = crate::compiler::Compiled;

    fn name(&self) -> &'static str {
        "VideoCore IV"
    }

    fn facts(&self) -> &'static Facts {
        &Facts::VC4
    }

    fn generate(&self, kernel: &ast::Kernel, options: Options) -> Result<Self::Code, CompileError> {
        crate::compiler::generate_vc4(self, kernel, options)
    }

    fn validate(&self, code: &Self::Code) -> Vec<String> {
        qpu_isa::vc4::validate(&code.instructions)
            .iter()
            .map(ToString::to_string)
            .collect()
    }
}

/// V3D 4.2 (Pi 4, VideoCore VI) or 7.1 (Pi 5, VideoCore VII).
pub(crate) struct V3d(pub qpu_isa::v3d::V3dVersion);

impl Target for V3d {
    type Code = crate::compiler::v3d::V3dCompiled;

    fn name(&self) -> &'static str {
        match self.0 {
            qpu_isa::v3d::V3dVersion::V42 => "V3D 4.2",
            qpu_isa::v3d::V3dVersion::V71 => "V3D 7.1",
        }
    }

    fn facts(&self) -> &'static Facts {
        &Facts::V3D
    }

    fn generate(&self, kernel: &ast::Kernel, options: Options) -> Result<Self::Code, CompileError> {
        crate::compiler::v3d::generate(kernel, self.0, options)
    }

    fn validate(&self, code: &Self::Code) -> Vec<String> {
        qpu_isa::v3d::validate(self.0, &code.instructions)
            .iter()
            .map(ToString::to_string)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qpu_isa::v3d::{self, V3dVersion};

    /// A stand-in back end whose code breaks a rule: a branch in another branch's delay slots.
    struct Broken;

    impl Target for Broken {
        type Code = crate::compiler::v3d::V3dCompiled;

        fn name(&self) -> &'static str {
            "a broken V3D back end"
        }

        fn facts(&self) -> &'static Facts {
            &Facts::V3D
        }

        fn generate(&self, kernel: &ast::Kernel, _: Options) -> Result<Self::Code, CompileError> {
            let text = "b l\nb l\nl:\nnop ; nop\nnop ; nop ; thrsw\nnop ; nop ; thrsw\nnop ; nop\nnop ; nop\nnop ; nop ; thrsw\nnop ; nop\nnop ; nop\n";
            let instructions =
                v3d::assemble(V3dVersion::V42, text).expect("test program assembles");
            let words = instructions
                .iter()
                .map(|i| v3d::encode(V3dVersion::V42, i).expect("encodes"))
                .collect();
            Ok(crate::compiler::v3d::V3dCompiled {
                version: V3dVersion::V42,
                locations: vec![None; instructions.len()],
                instructions,
                words,
                constants: Vec::new(),
                params: kernel.params.len(),
                spill_bytes_per_qpu: 0,
                semaphore_bytes: 0,
                compile_time: Duration::ZERO,
            })
        }

        fn validate(&self, code: &Self::Code) -> Vec<String> {
            V3d(V3dVersion::V42).validate(code)
        }
    }

    #[test]
    fn the_driver_runs_the_generations_validator_when_asked() {
        let kernel = crate::compile(|p: crate::lang::Ptr<crate::lang::Int>| p.store(1)).unwrap();
        let checked = Options {
            self_check: true,
            ..Options::default()
        };
        let Err(CompileError::SelfCheck(message)) =
            crate::compiler::drive(&Broken, kernel.ast(), checked)
        else {
            panic!("the broken code passed the self-check");
        };
        assert!(message.contains("instruction 1"), "{message}");
        assert!(message.contains("a broken V3D back end"), "{message}");
        assert!(message.contains("listing:"), "{message}");
        let unchecked = Options {
            self_check: false,
            ..Options::default()
        };
        let code = crate::compiler::drive(&Broken, kernel.ast(), unchecked).expect("no self-check");
        assert!(code.compile_time > Duration::ZERO);
        // The real back ends' code for the same kernel passes.
        for version in [V3dVersion::V42, V3dVersion::V71] {
            crate::compiler::drive(&V3d(version), kernel.ast(), checked).expect("valid code");
        }
        crate::compiler::drive(&Vc4, kernel.ast(), checked).expect("valid code");
    }
}

//! The modelled VideoCore IV V3D (Raspberry Pi 1, 2, 3, Zero): runs encoded QPU machine code on 1–12 emulated QPUs,
//! strictly, and counts cycles.
//!
//! The emulator executes real 64-bit instruction words fetched from emulated memory at their
//! bus addresses (so it checks the encoder too, and runs hand-written code unchanged). It
//! models register files A/B, accumulators, per-lane flags, every ALU opcode with pack and
//! unpack, small immediates and rotations, load immediates, branches with delay slots,
//! uniforms, the TMUs (direct lookups), the SFU, the VPM with its FIFOs and DMA (VDR/VDW),
//! semaphores, the mutex and host interrupts. A hazard the hardware would turn into a wrong
//! result is an error naming the QPU, PC, instruction and rule ([`crate::EmuError::Fault`]); a value
//! the hardware leaves undefined is an error where it is used, not where it is made. The
//! rules, their evidence and the latency facts are in [`rules`]; [`validate`] checks a whole
//! program statically; [`crate::float`] is the hardware's float arithmetic (truncating). Where
//! hardware-proven programs, published measurements and the guide disagree, that is the order
//! of precedence; where only measurements and the guide disagree, the measured behaviour is
//! the default and the other is selectable ([`Ambiguities`]). The cycle model (parameters in
//! [`Timing`], each with its source) is deterministic: the same program and inputs give the
//! same counts.
//!
//! ```
//! use qpu_emu::vc4::{Emulator, EmulatorConfig};
//!
//! // The seed "hello world": out[0..16] = uniform0 + 0x1234, DMA'd to uniform1's address.
//! let words: [u64; 10] = [
//!     0xe0020067_00001234, 0xe0021c67_00000a00, 0x10020c27_0c060dc0, 0xe0021c67_88010000,
//!     0x10021ca7_15827d80, 0x100009e7_159f2fc0, 0xe00209a7_00000001, 0x300009e7_009e7000,
//!     0x100009e7_009e7000, 0x100009e7_009e7000,
//! ];
//! let mut emu = Emulator::new(EmulatorConfig::with_qpus(1))?;
//! let code = emu.load_program(&words)?;
//! let out = emu.memory_mut().alloc(64, 64)?;
//! let uniforms = emu.load_uniforms(&[100, out])?;
//! let report = emu.run(&[(uniforms, code)])?;
//! assert_eq!(emu.memory().read_u32s(out, 16)?, vec![0x1298; 16]);
//! assert_eq!(report.total.host_interrupts, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod alu;
mod config;
pub(crate) mod decode;
mod machine;
mod report;
/// The hazard and placement rules and their sources: qpu-isa's.
pub use qpu_isa::vc4::rules;
mod timing;
mod tmu;
pub mod vpm;

pub use config::{Ambiguities, BranchRegisterLane, EarlyVpmRead, EmulatorConfig, FlagsRule};
/// The static validator lives beside the rules, in qpu-isa.
pub use qpu_isa::vc4::validate;
pub use report::{DmaJob, QpuReport, RunReport, StallCause, StallSpan, Stalls, TmuLookup};
pub use rules::{Rule, RuleSource};
pub use timing::Timing;

use crate::memory::{LendingMemory, Memory};
use crate::{EmuError, Lent};
use qpu_isa::vc4::Instruction;
use vpm::VpmMemory;

/// The whole V3D as user programs see it: QPUs, memory, VPM and shared units.
pub struct Emulator {
    config: EmulatorConfig,
    memory: Memory,
    vpm: VpmMemory,
    code: machine::CodeCache,
}

impl Emulator {
    /// A machine with `config.qpus` QPUs and empty memory.
    pub fn new(config: EmulatorConfig) -> Result<Emulator, EmuError> {
        Self::check_config(&config)?;
        Ok(Emulator {
            config,
            memory: Memory::new(),
            vpm: VpmMemory::new(),
            code: machine::CodeCache::default(),
        })
    }

    /// Makes this machine what [`Emulator::new`] with `config` makes (empty memory, a fresh
    /// VPM), keeping only host allocations it would otherwise make again: a cheaper way to a
    /// fresh machine for each of many short runs. On an error (a bad `config`) the machine is
    /// unchanged.
    pub fn reset(&mut self, config: EmulatorConfig) -> Result<(), EmuError> {
        Self::check_config(&config)?;
        self.config = config;
        self.memory = Memory::new();
        self.vpm = VpmMemory::new();
        self.code.clear();
        Ok(())
    }

    fn check_config(config: &EmulatorConfig) -> Result<(), EmuError> {
        if !(1..=qpu_isa::vc4::QPUS as usize).contains(&config.qpus) {
            return Err(EmuError::Config(format!(
                "{} QPUs requested; the V3D has 1 to 12",
                config.qpus
            )));
        }
        if !(config.clock_mhz.is_finite() && config.clock_mhz > 0.0) {
            return Err(EmuError::Config(format!(
                "clock of {} MHz; it must be positive",
                config.clock_mhz
            )));
        }
        if !(1..=8).contains(&config.ambiguities.tmu_fifo_depth) {
            return Err(EmuError::Config(format!(
                "TMU FIFO depth {}; the hardware has 8 slots (4 reliable)",
                config.ambiguities.tmu_fifo_depth
            )));
        }
        config.timing.validate().map_err(EmuError::Config)
    }

    /// The configuration in force.
    pub fn config(&self) -> &EmulatorConfig {
        &self.config
    }

    /// Emulated memory, to read results.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// Emulated memory, to allocate and fill buffers.
    pub fn memory_mut(&mut self) -> &mut Memory {
        &mut self.memory
    }

    /// The user VPM (it keeps its contents between runs, as on hardware).
    pub fn vpm(&self) -> &VpmMemory {
        &self.vpm
    }

    /// Copies machine words into a new allocation; returns its bus address.
    pub fn load_program(&mut self, words: &[u64]) -> Result<u32, EmuError> {
        if words.is_empty() {
            return Err(EmuError::Launch(
                "the program has no instructions (a program ends with `thrend` and two \
                 delay-slot instructions)"
                    .to_string(),
            ));
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.load_bytes(&bytes, 64)
    }

    /// Encodes instructions into a new allocation; returns its bus address.
    pub fn load_instructions(&mut self, program: &[Instruction]) -> Result<u32, EmuError> {
        let words: Vec<u64> = program.iter().map(Instruction::encode).collect();
        self.load_program(&words)
    }

    /// Copies uniforms into a new allocation; returns its bus address.
    pub fn load_uniforms(&mut self, values: &[u32]) -> Result<u32, EmuError> {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let addr = self.load_bytes(&bytes, 16)?;
        // An empty stream starts just past a 4-byte allocation, so its first read is outside
        // memory (an error) rather than a zero nobody passed.
        Ok(if values.is_empty() { addr + 4 } else { addr })
    }

    fn load_bytes(&mut self, bytes: &[u8], align: u32) -> Result<u32, EmuError> {
        let len = u32::try_from(bytes.len().max(4))
            .map_err(|_| EmuError::Launch(format!("{} bytes do not fit in memory", bytes.len())))?;
        let addr = self.memory.alloc(len, align)?;
        self.memory.write_bytes(addr, bytes)?;
        Ok(addr)
    }

    /// Starts one program per (uniforms address, code address) pair, program i on QPU i, all
    /// at once, as the mailbox's execute-QPU call does; returns when every QPU has executed
    /// its thread end. Semaphores and the mutex start free; memory and the VPM keep their
    /// contents.
    pub fn run(&mut self, launches: &[(u32, u32)]) -> Result<RunReport, EmuError> {
        self.check_launches(launches)?;
        machine::run(
            &self.config,
            &mut self.memory,
            &mut self.vpm,
            &mut self.code,
            launches,
        )
    }

    /// [`Emulator::run`] with the caller's words mapped into memory for the run, each range
    /// at its own bus address: the QPUs read and write them in place, as the real ones work on
    /// GPU memory the host has mapped, so a run copies nothing in or out. Ranges lent
    /// read-only refuse writes ([`MemoryError::ReadOnly`](crate::memory::MemoryError::ReadOnly), reported as the instruction's
    /// fault). After the run, failed or not, the ranges are unmapped again; a range that
    /// overlaps an allocation or another range is an error before anything runs.
    ///
    /// ```
    /// use qpu_emu::Lent;
    /// use qpu_emu::vc4::{Emulator, EmulatorConfig};
    ///
    /// // The seed "hello world" of the crate docs, storing into the caller's array.
    /// let words: [u64; 10] = [
    ///     0xe0020067_00001234, 0xe0021c67_00000a00, 0x10020c27_0c060dc0, 0xe0021c67_88010000,
    ///     0x10021ca7_15827d80, 0x100009e7_159f2fc0, 0xe00209a7_00000001, 0x300009e7_009e7000,
    ///     0x100009e7_009e7000, 0x100009e7_009e7000,
    /// ];
    /// let mut out = [0u32; 16];
    /// let mut emu = Emulator::new(EmulatorConfig::with_qpus(1))?;
    /// let code = emu.load_program(&words)?;
    /// let uniforms = emu.load_uniforms(&[100, 0xC000_0000])?;
    /// emu.run_lending(&[(uniforms, code)], vec![Lent::ReadWrite(0xC000_0000, &mut out)])?;
    /// assert_eq!(out, [0x1298; 16]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_lending(
        &mut self,
        launches: &[(u32, u32)],
        lent: Vec<Lent<'_>>,
    ) -> Result<RunReport, EmuError> {
        self.check_launches(launches)?;
        // The owned memory, lent words added for this run only: moving it costs nothing and
        // copies no allocation.
        let mut memory: LendingMemory<'_> = std::mem::take(&mut self.memory);
        let mapped = lent.into_iter().try_for_each(|range| match range {
            Lent::ReadOnly(addr, words) => memory.lend(addr, words),
            Lent::ReadWrite(addr, words) => memory.lend_mut(addr, words),
        });
        let result = match mapped {
            Ok(()) => machine::run(
                &self.config,
                &mut memory,
                &mut self.vpm,
                &mut self.code,
                launches,
            ),
            Err(error) => Err(error.into()),
        };
        self.memory = memory.into_owned();
        result
    }

    fn check_launches(&self, launches: &[(u32, u32)]) -> Result<(), EmuError> {
        if launches.is_empty() || launches.len() > self.config.qpus {
            return Err(EmuError::Launch(format!(
                "{} programs for a machine of {} QPUs; launch 1 to {}",
                launches.len(),
                self.config.qpus,
                self.config.qpus
            )));
        }
        Ok(())
    }
}

//! Emulator configuration: machine size, budgets, clock, and the documented ambiguities.

use crate::vc4::timing::Timing;

/// Where the guide and hardware measurements (vc4asm's addendum) disagree, which one
/// the emulator follows. Every default is the measured behaviour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ambiguities {
    /// Which lanes and which ALU set the flags.
    pub flags: FlagsRule,
    /// Which element of the A register a register-relative branch adds.
    pub branch_register_lane: BranchRegisterLane,
    /// Direct TMU lookups a QPU may have outstanding per TMU before the FIFO overflows.
    /// Guide: 8 (section 4, one slot per s-only request); measured: only 4 are reliable
    /// (vc4asm addendum; QPULib and V3DLib use 4). Default 4.
    pub tmu_fifo_depth: u32,
    /// What a VPM read issued fewer than 3 instructions after its read setup does.
    pub early_vpm_read: EarlyVpmRead,
    /// Whether a branch with an odd `raddr_a` sets the flags (bit 45 doubles as `sf`):
    /// measured yes (vc4asm addendum); the guide does not say. Default true.
    pub branch_odd_raddr_sets_flags: bool,
}

impl Default for Ambiguities {
    fn default() -> Ambiguities {
        Ambiguities {
            flags: FlagsRule::Measured,
            branch_register_lane: BranchRegisterLane::Element15,
            tmu_fifo_depth: crate::vc4::rules::latency::TMU_FIFO_DEPTH as u32,
            early_vpm_read: EarlyVpmRead::Stall,
            branch_odd_raddr_sets_flags: true,
        }
    }
}

/// How `sf` updates the flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagsRule {
    /// vc4asm's measurement: flags change only in lanes where the flag-setting ALU's write
    /// condition passes, and they come from the mul ALU only when the add opcode is nop.
    Measured,
    /// The guide (table 1, `sf`): all lanes are updated, from the add ALU unless its opcode is
    /// nop or its condition is never, in which case from the mul ALU.
    Guide,
}

/// Which lane's value a `reg=1` branch adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchRegisterLane {
    /// Element 15, as vc4asm measured.
    Element15,
    /// Element 0, as the guide says.
    Element0,
}

/// A VPM read within 3 instructions of its read setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EarlyVpmRead {
    /// Measured (vc4asm; GPU_FFT relies on it): the read stalls until the data arrives.
    Stall,
    /// Guide (section 7.2): undefined, so it is a hazard error.
    Error,
}

/// Everything [`crate::vc4::Emulator::new`] needs.
#[derive(Clone, Debug, PartialEq)]
pub struct EmulatorConfig {
    /// QPUs in the machine, 1–12 (the Pi has 12 in 3 slices of 4).
    pub qpus: usize,
    /// V3D clock in MHz for the wall-time estimate (default 250, the Pi 1/2 value).
    pub clock_mhz: f64,
    /// Instructions all QPUs together may execute in one run.
    pub max_instructions: u64,
    /// Clocks a run may last.
    pub max_cycles: u64,
    /// Report hazards as errors (default). When off, hazards are not reported and the
    /// emulator's result for such code is unspecified: it does not model what the hardware
    /// would compute.
    pub check_hazards: bool,
    /// Choices where the guide and measurements disagree.
    pub ambiguities: Ambiguities,
    /// Cycle-model parameters.
    pub timing: Timing,
    /// Record every stall of every QPU with its clock and cause
    /// ([`QpuReport::timeline`](super::QpuReport::timeline)), for a profile; off by default
    /// (it costs memory in proportion to the stalls).
    pub timeline: bool,
}

impl Default for EmulatorConfig {
    fn default() -> EmulatorConfig {
        EmulatorConfig {
            qpus: qpu_isa::vc4::QPUS as usize,
            clock_mhz: 250.0,
            max_instructions: 200_000_000,
            max_cycles: 4_000_000_000,
            check_hazards: true,
            ambiguities: Ambiguities::default(),
            timing: Timing::default(),
            timeline: false,
        }
    }
}

impl EmulatorConfig {
    /// The default configuration with `qpus` QPUs.
    pub fn with_qpus(qpus: usize) -> EmulatorConfig {
        EmulatorConfig {
            qpus,
            ..EmulatorConfig::default()
        }
    }
}

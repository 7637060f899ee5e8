//! The V3D emulators as backends (`QPU_BACKEND=emulator-vc6` for the Pi 4's V3D 4.2,
//! `emulator-vc7` for the Pi 5's V3D 7.1): kernels are compiled by the first-slice V3D
//! compiler ([`crate::compiler::v3d`]) and run on `qpu_emu::v3d`'s strict machine, launched the
//! way `SUBMIT_CSD` launches them: one 16-lane batch per QPU, all reading the same uniform
//! stream (the compiler's launch contract).
//!
//! A run copies no array: each run places the code and the uniforms in a fresh machine's
//! memory and lends it the argument arrays at their bus addresses ([`V3dEmulator::
//! dispatch_lending`]): the QPUs load from and store into the host's arrays in place, so what
//! the kernel stored is in them when `run` returns, also when the run fails. An array passed
//! as `&SharedArray` is lent read-only, and a store into it is an error at the store. A load
//! or gather lane outside every array reads an undefined value, as on the interpreter and the
//! VideoCore IV emulator: harmless when unused (a prefetch past the end), an
//! [`UndefinedValueUsed`](RunErrorKind::UndefinedValueUsed) error naming the statement that
//! read it where it is stored, used as an address or decides a branch; a store there is an
//! out-of-bounds error naming the array and element. (On a Pi 4/5 the zeroed margin after
//! each buffer object is what such a load reads.) Faults of the machine (a hazard rule, an
//! access outside every array) become run errors at the kernel statement the failing
//! instruction comes from. Cycle counts are the V3D emulator's model, fitted to
//! published Pi 4 and Pi 5 timings (qpu-emu's `v3d/timing.rs`), at the board's clock; the
//! run report's counters carry the Linux kernel's perfmon names.
//!
//! ```
//! use qpu::lang::*;
//! use qpu::{compile, Device};
//! use qpu_isa::v3d::V3dVersion;
//!
//! let device = Device::v3d_emulator(V3dVersion::V42);
//! let mut data = device.alloc_from(&[5i32; 16])?;
//! let kernel = compile(|p: Ptr<Int>| p.store(p.load() * 3))?;
//! let report = kernel.run(&device, &mut data)?;
//! assert_eq!(data[0], 15);
//! assert_eq!(report.backend, "emulator-vc6");
//! # Ok::<(), qpu::Error>(())
//! ```

use std::sync::Mutex;

use qpu_emu::memory::MemoryError;
use qpu_emu::v3d::rules::{TmuAccess, V3dFault, V3dRule};
use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator, V3dRunReport};
use qpu_isa::v3d::V3dVersion;

use super::host::{lock, HostArrays};
use super::staging::{self, Adapter, DeviceMemory, ProgramCache, Region};
use super::{Backend, Device, Launch, QpuStats, RunReport, SharedMemory};
use crate::compiler::{Gpu, Program};
use crate::error::{ArrayPlace, Error, Result, RunError, RunErrorKind};

/// A V3D emulator as a backend.
pub struct V3dEmulatorBackend {
    version: V3dVersion,
    /// Record each QPU's stalls over time ([`Device::v3d_emulator_with_timeline`]).
    timeline: bool,
    arrays: HostArrays,
    compiled: ProgramCache,
    last: Mutex<Option<V3dRunReport>>,
}

impl V3dEmulatorBackend {
    /// A backend emulating `version`.
    pub fn new(version: V3dVersion) -> V3dEmulatorBackend {
        V3dEmulatorBackend {
            version,
            timeline: false,
            arrays: HostArrays::default(),
            compiled: ProgramCache::default(),
            last: Mutex::default(),
        }
    }

    /// The V3D emulator's full report of the last run on this backend.
    pub fn last_report(&self) -> Option<V3dRunReport> {
        lock(&self.last).clone()
    }

    fn backend_error(&self, message: impl std::fmt::Display) -> Error {
        Error::Backend {
            backend: self.name().to_string(),
            message: message.to_string(),
        }
    }
}

impl Device {
    /// A device running kernels compiled for V3D 4.2 (Pi 4) or 7.1 (Pi 5) on the V3D
    /// emulator.
    pub fn v3d_emulator(version: V3dVersion) -> Device {
        Device::new(V3dEmulatorBackend::new(version))
    }

    /// The V3D emulator, recording each QPU's TMU stalls over time: every run's report
    /// carries a [`Timeline`](super::Timeline) (`qpu profile --gpu vc6|vc7` draws it).
    pub fn v3d_emulator_with_timeline(version: V3dVersion) -> Device {
        Device::new(V3dEmulatorBackend {
            timeline: true,
            ..V3dEmulatorBackend::new(version)
        })
    }
}

impl Backend for V3dEmulatorBackend {
    fn compiles_for(&self) -> Gpu {
        Gpu::from(self.version)
    }

    fn name(&self) -> &str {
        match self.version {
            V3dVersion::V42 => "emulator-vc6",
            V3dVersion::V71 => "emulator-vc7",
        }
    }

    fn describe(&self) -> String {
        match self.version {
            V3dVersion::V42 => {
                "emulator-vc6 (V3D 4.2, Pi 4 at 500 MHz; cycle model fitted to Pi 4 timings)"
                    .to_string()
            }
            V3dVersion::V71 => {
                "emulator-vc7 (V3D 7.1, Pi 5 at 960 MHz; cycle model fitted to Pi 5 timings)"
                    .to_string()
            }
        }
    }

    fn alloc(&self, words: usize) -> Result<Box<dyn SharedMemory>> {
        self.arrays.alloc(words)
    }

    fn max_qpus(&self) -> u32 {
        V3dConfig::max_qpus(self.version) as u32
    }

    fn run(&self, launch: &mut Launch<'_>) -> Result<RunReport> {
        super::staging::launch(self, launch)
    }
}

/// The V3D emulator's memory as the staging code sees it.
struct EmulatedMemory<'e> {
    emu: &'e mut V3dEmulator,
    backend: &'e V3dEmulatorBackend,
}

impl DeviceMemory for EmulatedMemory<'_> {
    fn alloc(&mut self, _: Region, bytes: u32, align: u32) -> Result<u32> {
        let emu = &mut self.emu;
        emu.memory_mut()
            .alloc(bytes, align)
            .map_err(|e| self.backend.backend_error(e))
    }
    fn write(&mut self, address: u32, words: &[u32]) -> Result<()> {
        self.emu
            .memory_mut()
            .write_u32s(address, words)
            .map_err(|e| self.backend.backend_error(e))
    }
}

impl Adapter for V3dEmulatorBackend {
    fn gpu(&self) -> Gpu {
        gpu_of(self.version)
    }

    fn gpu_name(&self) -> &'static str {
        match self.version {
            V3dVersion::V42 => "V3D 4.2 (Pi 4)",
            V3dVersion::V71 => "V3D 7.1 (Pi 5)",
        }
    }

    fn qpus(&self) -> u32 {
        self.max_qpus()
    }

    fn programs(&self) -> &ProgramCache {
        &self.compiled
    }

    fn execute(&self, launch: &mut Launch<'_>, program: &Program) -> Result<RunReport> {
        let n = launch.num_qpus;
        let mut config = V3dConfig::new(self.version);
        config.qpus = n as usize;
        config.timeline = self.timeline;
        if let Some(limit) = launch.step_limit {
            config.max_instructions = limit;
        }
        let mut emu = V3dEmulator::new(config).map_err(|e| self.backend_error(e))?;
        let mut memory = EmulatedMemory {
            emu: &mut emu,
            backend: self,
        };
        let code = staging::stage_code(program, &mut memory)?;
        let staged = staging::stage_run(launch, program, &mut memory, code)?;
        let uniforms = staged.uniforms[0];
        let places = launch.places();
        let ran = emu.dispatch_lending(
            &CsdJob::per_qpu(code, uniforms, n),
            super::emulator::lend(&mut launch.buffers, None),
        );
        let location = |pc: u32| program.location_at(code, pc);
        let report = ran.map_err(|e| match e {
            qpu_emu::EmuError::V3dFault {
                qpu,
                pc,
                instruction,
                fault,
                ..
            } => Error::Run(RunError {
                kind: fault_kind(fault, &instruction, &places, location),
                qpu: qpu as u32,
                location: location(pc),
            }),
            qpu_emu::EmuError::Budget {
                what: "instruction",
                limit,
                qpu,
                pc,
            } => Error::Run(RunError {
                kind: RunErrorKind::StepLimit {
                    limit,
                    instructions: true,
                },
                qpu: qpu as u32,
                location: location(pc),
            }),
            other => self.backend_error(other),
        })?;

        let qpus = report
            .qpus
            .iter()
            .take(n as usize)
            .map(|q| QpuStats {
                steps: q.instructions,
                stores: q.tmu_stores,
                gathers: q.tmu_loads,
                stray_gathers: 0,
            })
            .collect();
        // The Linux kernel's perfmon names (`V3dRunReport::perfmon`), so that a reading
        // taken on a Pi compares one to one.
        let counters = report
            .perfmon()
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect();
        let timeline = self.timeline.then(|| {
            let mut timeline = super::Timeline::from_v3d(&report);
            timeline.qpus.truncate(n as usize);
            timeline
        });
        let result = RunReport {
            backend: self.name().to_string(),
            num_qpus: n,
            qpus,
            cycles: Some(report.cycles()),
            clock_mhz: Some(report.clock_mhz),
            counters,
            debug: Vec::new(),
            timeline,
        };
        *lock(&self.last) = Some(report);
        Ok(result)
    }
}

/// What a machine fault means for the kernel: a TMU store outside the arrays is out of
/// bounds, a write into an array passed as `&SharedArray` is read-only, both named relative
/// to the kernel's arrays (`places`: argument, bus address, length), and an undefined value
/// used is reported as the other backends report it, at the statement that made it
/// (`location` of an instruction's address); anything else is the machine's own message.
fn fault_kind(
    fault: V3dFault,
    instruction: &str,
    places: &[(usize, u32, usize)],
    location: impl Fn(u32) -> Option<crate::error::SourceLocation>,
) -> RunErrorKind {
    if let V3dFault::Rule(V3dRule::UndefinedValueUsed {
        what,
        lanes,
        origin,
        origin_pc,
        origin_address,
    }) = &fault
    {
        let what = match *what {
            "the TMU address" => "the load or gather address",
            "the flag deciding the branch" => "the condition deciding the branch",
            other => other,
        };
        return super::emulator::undefined_value_used(
            what,
            *lanes,
            origin,
            *origin_address,
            origin_pc.and_then(location),
            places,
        );
    }
    if let V3dFault::Tmu {
        access,
        lane,
        ref source,
    } = fault
    {
        let address = match *source {
            MemoryError::ReadOnly { addr, .. }
            | MemoryError::Unmapped { addr, .. }
            | MemoryError::PastEnd { addr, .. }
            | MemoryError::Unaligned { addr, .. } => Some(addr),
            _ => None,
        };
        if let Some(address) = address {
            let place = ArrayPlace::find(places, address);
            let inside = place
                .as_ref()
                .is_some_and(|p| p.element >= 0 && (p.element as u64) < p.len as u64);
            if inside && matches!(source, MemoryError::ReadOnly { .. }) {
                return RunErrorKind::ReadOnly { address };
            }
            if !inside && !matches!(source, MemoryError::Unaligned { .. }) {
                return RunErrorKind::OutOfBounds {
                    access: match access {
                        TmuAccess::Load => "load",
                        TmuAccess::Store => "store",
                        TmuAccess::Atomic => "atomic",
                    },
                    lane,
                    address,
                    place,
                };
            }
        }
    }
    RunErrorKind::Machine(format!("{fault} (at `{instruction}`)"))
}

/// The GPU a V3D version is compiled for.
pub(super) fn gpu_of(version: V3dVersion) -> Gpu {
    Gpu::from(version)
}

//! The emulator as a [`Backend`]: kernels are compiled to VideoCore IV machine code and run
//! on `qpu-emu`'s strict emulator (hazard checking on), which reports instructions, cycles,
//! stalls by cause and the modelled time.
//!
//! Shared arrays are host memory with simulated bus addresses (see [`super::host`]), and the
//! emulated QPUs work on them in place, as the Pi's QPUs work on GPU memory the host has
//! mapped: a run copies no array. For each run the backend resets its emulated machine to the
//! state of a new one ([`qpu_emu::vc4::Emulator::reset`]: empty memory, a fresh VPM, an empty code
//! cache, so the same results, reports and errors as a new machine), puts the code and each
//! QPU's uniforms in its memory, and lends it the argument arrays for the run
//! ([`qpu_emu::vc4::Emulator::run_lending`]): each at its bus address with exactly its size, so a
//! store past an array's end is an error and a load there an undefined value, as on the
//! interpreter; arrays passed as `&SharedArray` are lent read-only, so a store into one is an
//! error at the store. Arrays not passed to the kernel are not in its memory at all, and what
//! a kernel stored before a run failed stays in its arrays (as on the interpreter and the Pi).
//! Emulator errors become run errors at the kernel statement the failing instruction comes
//! from, with addresses described relative to the kernel's arrays.
//!
//! ```
//! use qpu::lang::*;
//! use qpu::{compile, Device};
//!
//! let device = Device::emulator();
//! let mut data = device.alloc_from(&[1i32; 16])?;
//! let kernel = compile(|p: Ptr<Int>| p.store(p.load() * 3))?;
//! let report = kernel.run(&device, &mut data)?;
//! assert_eq!(data[0], 3);
//! assert!(report.cycles.is_some());
//! # Ok::<(), qpu::Error>(())
//! ```

use std::sync::Mutex;

use super::host::{lock, HostArrays};
use super::staging::{self, Adapter, DeviceMemory, ProgramCache, Region};
use super::{Backend, BufferWords, Device, Launch, QpuStats, RunReport, SharedMemory};
use crate::compiler::{Gpu, Program};
use crate::error::{ArrayPlace, Error, Result, RunError, RunErrorKind};
use qpu_emu::memory::MemoryError;

/// The strict emulator as a backend.
pub struct Emulator {
    config: qpu_emu::vc4::EmulatorConfig,
    arrays: HostArrays,
    cache: ProgramCache,
    last: Mutex<Option<qpu_emu::vc4::RunReport>>,
    /// A machine from an earlier run, reset for the next ([`qpu_emu::vc4::Emulator::reset`]): as
    /// fresh as a new one, without making its decoded-code pages again.
    spare: Mutex<Option<qpu_emu::vc4::Emulator>>,
}

impl Default for Emulator {
    fn default() -> Self {
        Self::new()
    }
}

impl Emulator {
    /// An emulator with the default configuration (hazard checks on, 250 MHz).
    pub fn new() -> Emulator {
        Emulator::with_config(qpu_emu::vc4::EmulatorConfig::default())
    }

    /// An emulator with `config` (its QPU count is replaced by each launch's).
    pub fn with_config(config: qpu_emu::vc4::EmulatorConfig) -> Emulator {
        Emulator {
            config,
            arrays: HostArrays::default(),
            cache: ProgramCache::default(),
            last: Mutex::default(),
            spare: Mutex::default(),
        }
    }

    /// The emulator's full report of the last run on this backend.
    pub fn last_report(&self) -> Option<qpu_emu::vc4::RunReport> {
        lock(&self.last).clone()
    }
}

impl Device {
    /// A device running kernels compiled to machine code on the strict emulator.
    pub fn emulator() -> Device {
        Device::new(Emulator::new())
    }

    /// The strict emulator, recording each QPU's stalls over time: every run's report
    /// carries a [`Timeline`](super::Timeline) (`qpu profile` draws it).
    pub fn emulator_with_timeline() -> Device {
        Device::new(Emulator::with_config(qpu_emu::vc4::EmulatorConfig {
            timeline: true,
            ..qpu_emu::vc4::EmulatorConfig::default()
        }))
    }
}

fn backend_error(message: impl std::fmt::Display) -> Error {
    Error::Backend {
        backend: "emulator".to_string(),
        message: message.to_string(),
    }
}

/// An emulator error as a run error of the kernel: at the statement the failing instruction
/// comes from, with addresses described relative to the kernel's arrays (`places`: argument,
/// bus address, length).
fn run_error(
    error: qpu_emu::EmuError,
    program: &Program,
    code: u32,
    places: &[(usize, u32, usize)],
) -> Error {
    use qpu_emu::vc4::vpm::{DmaKind, VpmError};
    use qpu_emu::vc4::Rule;
    use qpu_emu::{EmuError, Fault};
    let location = |pc: u32| program.location_at(code, pc);
    let (kind, qpu, pc) = match error {
        EmuError::Fault {
            qpu,
            pc,
            instruction,
            fault,
        } => {
            let kind = match fault {
                Fault::Rule(Rule::UndefinedValueUsed {
                    what,
                    lanes,
                    origin,
                    origin_pc,
                    origin_address,
                }) => undefined_value_used(
                    match what {
                        "the VPM data a VDW DMA stores" => "the value stored",
                        "the TMU lookup address" => "the load or gather address",
                        "the VDW store address" => "the store address",
                        "the flags deciding the branch" => "the condition deciding the branch",
                        other => other,
                    },
                    lanes,
                    &origin,
                    origin_address,
                    origin_pc.and_then(location),
                    places,
                ),
                // A DMA store into an array passed as `&SharedArray`, lent read-only.
                Fault::Vpm(VpmError::DmaMemory {
                    source: MemoryError::ReadOnly { addr, .. },
                    ..
                }) => RunErrorKind::ReadOnly { address: addr },
                Fault::Vpm(VpmError::DmaMemory {
                    dma,
                    mem_row,
                    addr,
                    source,
                    ..
                }) => {
                    let (lane, address) = match source {
                        MemoryError::PastEnd {
                            addr, base, size, ..
                        } => {
                            let end = base.wrapping_add(size);
                            (end.wrapping_sub(addr) / 4, end)
                        }
                        MemoryError::Unmapped { len: 4, .. } => (mem_row, addr),
                        _ => (0, addr),
                    };
                    RunErrorKind::OutOfBounds {
                        access: if dma == DmaKind::Store {
                            "store"
                        } else {
                            "load"
                        },
                        lane: lane.min(15) as u8,
                        address,
                        place: ArrayPlace::find(places, address),
                    }
                }
                other => RunErrorKind::Machine(format!("PC {pc:#010x} (`{instruction}`): {other}")),
            };
            (kind, qpu, Some(pc))
        }
        EmuError::Budget {
            what: "instruction",
            limit,
            qpu,
            pc,
        } => (
            RunErrorKind::StepLimit {
                limit,
                instructions: true,
            },
            qpu,
            Some(pc),
        ),
        EmuError::Deadlock { blocked, .. } => {
            let (qpu, pc) = blocked.first().copied().unzip();
            (RunErrorKind::Deadlock, qpu.unwrap_or(0), pc)
        }
        other => return backend_error(other),
    };
    Error::Run(RunError {
        kind,
        qpu: qpu as u32,
        location: pc.and_then(location),
    })
}

/// Emulated memory as the staging code sees it.
struct EmulatedMemory<'e>(&'e mut qpu_emu::vc4::Emulator);

impl DeviceMemory for EmulatedMemory<'_> {
    fn alloc(&mut self, _: Region, bytes: u32, align: u32) -> Result<u32> {
        self.0
            .memory_mut()
            .alloc(bytes, align)
            .map_err(backend_error)
    }
    fn write(&mut self, address: u32, words: &[u32]) -> Result<()> {
        self.0
            .memory_mut()
            .write_u32s(address, words)
            .map_err(backend_error)
    }
}

/// An emulator's report of an undefined value used, as the kernel's run error: `what`
/// used it (in the kernel's words), in `lanes`; it was made as `origin` says, or read from
/// outside the arrays at `origin_address`, by the statement at `made_at`.
pub(super) fn undefined_value_used(
    what: &'static str,
    lanes: u16,
    origin: &str,
    origin_address: Option<u32>,
    made_at: Option<crate::error::SourceLocation>,
    places: &[(usize, u32, usize)],
) -> RunErrorKind {
    RunErrorKind::UndefinedValueUsed {
        what,
        lanes,
        how: match origin_address {
            Some(address) => format!(
                "a load or gather read it from outside the kernel's arrays (first address \
                 {address:#010x}, {})",
                ArrayPlace::find(places, address)
                    .map_or_else(|| "outside every array".to_string(), |p| p.to_string())
            ),
            None => format!("the compiled code made it {origin}"),
        },
        made_at,
    }
}

/// The launch's arrays as words lent to an emulator for the run: read-only unless passed as
/// `&mut`, each followed by `margin` lent read-only when given. An array passed twice (only
/// possible as `&SharedArray`) is lent once.
pub(super) fn lend<'b>(
    buffers: &'b mut [super::Buffer<'_>],
    margin: Option<&'static [u32]>,
) -> Vec<qpu_emu::Lent<'b>> {
    let mut lent: Vec<qpu_emu::Lent<'b>> = Vec::with_capacity(2 * buffers.len());
    let mut addresses: Vec<u32> = Vec::with_capacity(buffers.len());
    for buffer in buffers {
        if addresses.contains(&buffer.bus_address) {
            continue;
        }
        addresses.push(buffer.bus_address);
        let end = buffer.bus_address + buffer.len() as u32 * 4;
        lent.push(match &mut buffer.words {
            BufferWords::ReadOnly(words) => qpu_emu::Lent::ReadOnly(buffer.bus_address, words),
            BufferWords::ReadWrite(words) => qpu_emu::Lent::ReadWrite(buffer.bus_address, words),
        });
        if let Some(zeros) = margin {
            lent.push(qpu_emu::Lent::ReadOnly(end, zeros));
        }
    }
    lent
}

impl Backend for Emulator {
    fn name(&self) -> &str {
        "emulator"
    }

    fn alloc(&self, words: usize) -> Result<Box<dyn SharedMemory>> {
        self.arrays.alloc(words)
    }

    fn run(&self, launch: &mut Launch<'_>) -> Result<RunReport> {
        staging::launch(self, launch)
    }
}

impl Adapter for Emulator {
    fn gpu(&self) -> Gpu {
        Gpu::Vc4
    }

    fn gpu_name(&self) -> &'static str {
        "VideoCore IV"
    }

    fn qpus(&self) -> u32 {
        super::VC4_QPUS
    }

    fn programs(&self) -> &ProgramCache {
        &self.cache
    }

    fn execute(&self, launch: &mut Launch<'_>, program: &Program) -> Result<RunReport> {
        let n = launch.num_qpus;
        let mut config = qpu_emu::vc4::EmulatorConfig {
            qpus: n as usize,
            ..self.config.clone()
        };
        if let Some(limit) = launch.step_limit {
            config.max_instructions = limit;
        }
        // The instruction budget is the one a kernel's user sets (`set_step_limit`); every
        // instruction's stall is bounded, so it also bounds the clock, and a cycle budget
        // reached first would name a knob users of this crate do not have.
        config.max_cycles = u64::MAX;
        // Another thread's run may hold the spare machine: then this one makes its own.
        let spare = lock(&self.spare).take();
        let mut emu = match spare {
            Some(mut emu) => emu.reset(config).map(|()| emu),
            None => qpu_emu::vc4::Emulator::new(config),
        }
        .map_err(backend_error)?;
        let mut memory = EmulatedMemory(&mut emu);
        let code = staging::stage_code(program, &mut memory)?;
        let staged = staging::stage_run(launch, program, &mut memory, code)?;
        let places = launch.places();
        let ran = emu.run_lending(&staged.programs(), lend(&mut launch.buffers, None));
        *lock(&self.spare) = Some(emu);
        let report = ran.map_err(|e| run_error(e, program, code, &places))?;

        let qpus = report
            .qpus
            .iter()
            .map(|q| QpuStats {
                steps: q.instructions,
                stores: q.dma_store_bytes / 64,
                gathers: q.tmu_requests,
                stray_gathers: 0,
            })
            .collect();
        let t = &report.total;
        let counters = vec![
            ("instructions".to_string(), t.instructions),
            ("stall_tmu".to_string(), t.stalls.tmu),
            ("stall_vpm".to_string(), t.stalls.vpm),
            ("stall_dma".to_string(), t.stalls.dma),
            ("stall_semaphore".to_string(), t.stalls.semaphore),
            ("stall_mutex".to_string(), t.stalls.mutex),
            ("tmu_requests".to_string(), t.tmu_requests),
            ("dma_load_bytes".to_string(), t.dma_load_bytes),
            ("dma_store_bytes".to_string(), t.dma_store_bytes),
            ("host_interrupts".to_string(), t.host_interrupts),
            (
                "modelled_ns".to_string(),
                (report.wall_time_us() * 1000.0).round() as u64,
            ),
        ];
        let timeline = self
            .config
            .timeline
            .then(|| super::Timeline::from_vc4(&report, self.config.ambiguities.tmu_fifo_depth));
        let result = RunReport {
            backend: self.name().to_string(),
            num_qpus: n,
            qpus,
            cycles: Some(report.cycles),
            clock_mhz: Some(report.clock_mhz),
            counters,
            debug: Vec::new(),
            timeline,
        };
        *lock(&self.last) = Some(report);
        Ok(result)
    }
}

/// One line: backend, QPUs, instructions, cycles and (where modelled) time and stalls.
impl std::fmt::Display for RunReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let counter = |name: &str| {
            self.counters
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| *v)
        };
        let steps: u64 = self.qpus.iter().map(|q| q.steps).sum();
        let unit = if self.cycles.is_some() {
            "instructions"
        } else {
            "steps"
        };
        write!(
            f,
            "{}: {} QPU{}, {steps} {unit}",
            self.backend,
            self.num_qpus,
            if self.num_qpus == 1 { "" } else { "s" }
        )?;
        if let Some(cycles) = self.cycles {
            write!(f, ", {cycles} cycles")?;
        }
        if let (Some(us), Some(mhz)) = (self.gpu_time_us(), self.clock_mhz) {
            write!(f, " = {us:.3} us at {mhz} MHz")?;
        }
        let stalls: Vec<String> = ["tmu", "vpm", "dma", "semaphore", "mutex"]
            .iter()
            .filter_map(|s| {
                counter(&format!("stall_{s}"))
                    .filter(|&v| v > 0)
                    .map(|v| format!("{s} {v}"))
            })
            .collect();
        if !stalls.is_empty() {
            write!(f, " (stall clocks: {})", stalls.join(", "))?;
        }
        Ok(())
    }
}

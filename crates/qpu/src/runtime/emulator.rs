//! The emulator as a [`Backend`]: kernels are compiled to VideoCore IV machine code and run
//! on `qpu-emu`'s strict emulator (hazard checking on), which reports instructions, cycles,
//! stalls by cause and the modelled time.
//!
//! Shared arrays live in host memory with simulated bus addresses. For each run the backend
//! creates a fresh emulated machine, copies the argument arrays into emulated memory (with a
//! zero-filled margin after each, so that prefetching one vector past an array's end reads
//! zeros as it does on the interpreter), passes their emulated addresses as the pointer
//! arguments, runs, and copies writable arrays back.
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

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use super::{Backend, BufferWords, Device, Launch, QpuStats, RunReport, SharedMemory};
use crate::compile::{self, Compiled};
use crate::error::{Error, Result, RunError, RunErrorKind};
use crate::lang::ast::Type;

/// Simulated bus addresses of host-side shared arrays start here (the Pi's uncached alias).
const BUS_BASE: u32 = 0xC000_0000;
const ALIGN: u64 = 4096;
/// Zero-filled bytes after each array in emulated memory: gathers one vector (64 bytes) or a
/// few past the end read zeros instead of faulting, like the interpreter's stray gathers.
const TAIL_MARGIN: u32 = 4096;

#[derive(Default)]
struct AddressSpace {
    live: BTreeMap<u32, u64>,
}

impl AddressSpace {
    fn reserve(&mut self, bytes: u64) -> Option<u32> {
        let bytes = bytes.max(1).div_ceil(ALIGN) * ALIGN;
        let mut candidate = BUS_BASE as u64;
        for (&base, &size) in &self.live {
            if candidate + bytes <= base as u64 {
                break;
            }
            candidate = (base as u64 + size).div_ceil(ALIGN) * ALIGN;
        }
        if candidate + bytes > u32::MAX as u64 + 1 {
            return None;
        }
        self.live.insert(candidate as u32, bytes);
        Some(candidate as u32)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

struct HostMemory {
    words: Vec<u32>,
    bus_address: u32,
    space: Arc<Mutex<AddressSpace>>,
}

impl SharedMemory for HostMemory {
    fn bus_address(&self) -> u32 {
        self.bus_address
    }
    fn words(&self) -> &[u32] {
        &self.words
    }
    fn words_mut(&mut self) -> &mut [u32] {
        &mut self.words
    }
}

impl Drop for HostMemory {
    fn drop(&mut self) {
        lock(&self.space).live.remove(&self.bus_address);
    }
}

/// The strict emulator as a backend.
pub struct Emulator {
    config: qpu_emu::EmulatorConfig,
    space: Arc<Mutex<AddressSpace>>,
    cache: Mutex<HashMap<u64, Arc<Compiled>>>,
    last: Mutex<Option<qpu_emu::RunReport>>,
}

impl Default for Emulator {
    fn default() -> Self {
        Self::new()
    }
}

impl Emulator {
    /// An emulator with the default configuration (hazard checks on, 250 MHz).
    pub fn new() -> Emulator {
        Emulator::with_config(qpu_emu::EmulatorConfig::default())
    }

    /// An emulator with `config` (its QPU count is replaced by each launch's).
    pub fn with_config(config: qpu_emu::EmulatorConfig) -> Emulator {
        Emulator {
            config,
            space: Arc::default(),
            cache: Mutex::default(),
            last: Mutex::default(),
        }
    }

    /// The emulator's full report of the last run on this backend.
    pub fn last_report(&self) -> Option<qpu_emu::RunReport> {
        lock(&self.last).clone()
    }

    /// The compiled form of a launched kernel (compiled on first use).
    pub fn compiled(&self, launch: &Launch<'_>) -> Result<Arc<Compiled>> {
        if let Some(c) = lock(&self.cache).get(&launch.kernel_id) {
            return Ok(c.clone());
        }
        let compiled = Arc::new(compile::compile(launch.kernel)?);
        lock(&self.cache).insert(launch.kernel_id, compiled.clone());
        Ok(compiled)
    }
}

impl Device {
    /// A device running kernels compiled to machine code on the strict emulator.
    pub fn emulator() -> Device {
        Device::new(Emulator::new())
    }
}

fn backend_error(message: impl std::fmt::Display) -> Error {
    Error::Backend {
        backend: "emulator".to_string(),
        message: message.to_string(),
    }
}

impl Backend for Emulator {
    fn name(&self) -> &str {
        "emulator"
    }

    fn alloc(&self, words: usize) -> Result<Box<dyn SharedMemory>> {
        let alloc_error = |reason: &str| Error::Alloc {
            words,
            reason: reason.to_string(),
        };
        let bytes = (words as u64)
            .checked_mul(4)
            .ok_or_else(|| alloc_error("size overflows"))?;
        let bus_address = lock(&self.space)
            .reserve(bytes)
            .ok_or_else(|| alloc_error("the 1 GiB simulated bus window is full"))?;
        Ok(Box::new(HostMemory {
            words: vec![0; words],
            bus_address,
            space: self.space.clone(),
        }))
    }

    fn run(&self, launch: &mut Launch<'_>) -> Result<RunReport> {
        if launch.args.len() != launch.kernel.params.len() {
            return Err(Error::Arguments(format!(
                "the kernel takes {} parameters but {} arguments were given",
                launch.kernel.params.len(),
                launch.args.len()
            )));
        }
        let n = launch.num_qpus;
        if !(1..=super::MAX_QPUS).contains(&n) {
            return Err(Error::NumQpus(n));
        }
        let compiled = self.compiled(launch)?;
        let config = qpu_emu::EmulatorConfig {
            qpus: n as usize,
            ..self.config.clone()
        };
        let mut emu = qpu_emu::Emulator::new(config).map_err(backend_error)?;

        // Arrays into emulated memory; pointer arguments follow the arrays in order.
        let mut addresses = Vec::with_capacity(launch.buffers.len());
        for buffer in &launch.buffers {
            let len = buffer.len() as u32;
            let addr = emu
                .memory_mut()
                .alloc(len * 4 + TAIL_MARGIN, ALIGN as u32)
                .map_err(backend_error)?;
            let words: Vec<u32> = (0..buffer.len()).map(|i| buffer.word(i)).collect();
            emu.memory_mut()
                .write_u32s(addr, &words)
                .map_err(backend_error)?;
            addresses.push(addr);
        }
        let mut args = launch.args.clone();
        let mut next_buffer = 0;
        for (arg, param) in args.iter_mut().zip(&launch.kernel.params) {
            if matches!(param.ty, Type::Ptr(_)) {
                if let Some(&addr) = addresses.get(next_buffer) {
                    *arg = addr;
                }
                next_buffer += 1;
            }
        }

        let code = emu.load_program(&compiled.words).map_err(backend_error)?;
        let spill = if compiled.spill_bytes_per_qpu > 0 {
            Some(
                emu.memory_mut()
                    .alloc(compiled.spill_bytes_per_qpu * n, ALIGN as u32)
                    .map_err(backend_error)?,
            )
        } else {
            None
        };
        let mut programs = Vec::with_capacity(n as usize);
        for qpu in 0..n {
            let mut uniforms = vec![qpu, n];
            uniforms.extend(&args);
            if let Some(base) = spill {
                uniforms.push(base + qpu * compiled.spill_bytes_per_qpu);
            }
            let u = emu.load_uniforms(&uniforms).map_err(backend_error)?;
            programs.push((u, code));
        }
        let report = emu.run(&programs).map_err(backend_error)?;

        // Copy results back; a read-only array that changed is an error, as on the
        // interpreter.
        for (buffer, &addr) in launch.buffers.iter_mut().zip(&addresses) {
            let len = buffer.len() as u32;
            let words = emu.memory().read_u32s(addr, len).map_err(backend_error)?;
            match &mut buffer.words {
                BufferWords::ReadWrite(w) => w.copy_from_slice(&words),
                BufferWords::ReadOnly(w) => {
                    if let Some(i) = w.iter().zip(&words).position(|(a, b)| a != b) {
                        return Err(Error::Run(RunError {
                            kind: RunErrorKind::ReadOnly {
                                address: buffer.bus_address + 4 * i as u32,
                            },
                            qpu: 0,
                            location: None,
                        }));
                    }
                }
            }
        }

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
        let result = RunReport {
            backend: self.name().to_string(),
            num_qpus: n,
            qpus,
            cycles: Some(report.cycles),
            counters,
        };
        *lock(&self.last) = Some(report);
        Ok(result)
    }
}

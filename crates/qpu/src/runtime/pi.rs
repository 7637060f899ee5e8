//! The Raspberry Pi as a [`Backend`]: kernels are compiled to VideoCore IV machine code and
//! run on the real QPUs through [`qpu_pi`].
//!
//! **This backend has not yet been run on hardware by the project**; it is tested against
//! `qpu_pi`'s in-process stand-in of the firmware, GPU memory and V3D registers, with the
//! strict emulator executing the launched programs (`tests/pi_backend.rs`).
//!
//! Shared arrays live in host memory, as on the emulator backend. For each run the backend
//! allocates GPU memory, copies the code, the argument arrays (each followed by a zeroed
//! margin), a spill area when the kernel needs one and each QPU's uniforms into it, launches
//! one program per QPU, waits up to the configured timeout, copies writable arrays back and
//! releases the GPU memory, on failure as well as on success. Errors carry `qpu_pi`'s full
//! text, fix hints included.
//!
//! ```
//! use qpu::Device;
//!
//! // Off a Pi, asking for this backend explains what is missing.
//! match Device::pi() {
//!     Ok(device) => assert!(device.describe().starts_with("pi")),
//!     Err(error) => assert!(error.to_string().contains("Raspberry Pi")),
//! }
//! ```

use std::sync::Arc;
use std::time::Duration;

use qpu_pi::{Gpu, GpuMemory, LaunchOptions, LaunchPath, PiError};

use super::host::HostArrays;
use super::staging::{self, CompileCache, DeviceMemory};
use super::{Backend, Device, Launch, RunReport, SharedMemory};
use crate::compile::Compiled;
use crate::error::{Error, Result};

/// The backend's name in reports and errors.
const NAME: &str = "pi";

/// A `qpu_pi` error as this crate's error, keeping its whole text.
pub(super) fn pi_error(error: PiError) -> Error {
    Error::Backend {
        backend: NAME.to_string(),
        message: error.to_string(),
    }
}

/// A VideoCore IV GPU as a backend.
pub struct Pi {
    gpu: Gpu,
    arrays: HostArrays,
    cache: CompileCache,
    options: LaunchOptions,
}

impl std::fmt::Debug for Pi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pi")
            .field("gpu", &self.gpu)
            .field("options", &self.options)
            .finish()
    }
}

impl Pi {
    /// Opens this machine's GPU ([`Gpu::open`]: board and driver checks, mailbox, QPU power,
    /// V3D registers, Ctrl-C cleanup). Off a supported Pi the error explains why.
    pub fn open() -> Result<Pi> {
        Gpu::open().map(Pi::with_gpu).map_err(pi_error)
    }

    /// A backend on an already opened GPU (for example one built with [`Gpu::from_parts`]
    /// over `qpu_pi::standin::FakeVideoCore`), with default launch options.
    pub fn with_gpu(gpu: Gpu) -> Pi {
        Pi {
            gpu,
            arrays: HostArrays::default(),
            cache: CompileCache::default(),
            options: LaunchOptions::default(),
        }
    }

    /// Waits at most `timeout` for each run (the default is `qpu_pi`'s, 10 s).
    pub fn with_timeout(mut self, timeout: Duration) -> Pi {
        self.options.timeout = timeout;
        self
    }

    /// Launches with `options` (path, timeout, cache flushing, probe timeout).
    pub fn with_launch_options(mut self, options: LaunchOptions) -> Pi {
        self.options = options;
        self
    }

    /// The launch options in force.
    pub fn launch_options(&self) -> &LaunchOptions {
        &self.options
    }

    /// The GPU.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The compiled form of a launched kernel (compiled on first use).
    pub fn compiled(&self, launch: &Launch<'_>) -> Result<Arc<Compiled>> {
        self.cache.get(launch)
    }
}

impl Device {
    /// A device running kernels on this machine's Raspberry Pi GPU; off a supported Pi, the
    /// error says why (`pi: no Raspberry Pi GPU found: ...` and the like).
    pub fn pi() -> Result<Device> {
        Ok(Device::new(Pi::open()?))
    }
}

/// The GPU memory of one run. Dropping it releases every block, so each exit from
/// [`Pi::run`], early or not, frees what the run allocated.
struct RunMemory<'a> {
    gpu: &'a Gpu,
    blocks: Vec<GpuMemory>,
    /// Bytes in use at the start of the newest block.
    used: usize,
}

impl RunMemory<'_> {
    /// The block holding `count` words at `address`, and the word index of `address` in it.
    fn locate(&self, address: u32, count: u32) -> Result<(usize, usize)> {
        let found = self.blocks.iter().position(|block| {
            let start = u64::from(block.bus_address());
            let end = start + block.size_bytes() as u64;
            let address = u64::from(address);
            address >= start && address + 4 * u64::from(count) <= end
        });
        match found {
            Some(index) if address.is_multiple_of(4) => {
                let offset = (address - self.blocks[index].bus_address()) as usize;
                Ok((index, offset / 4))
            }
            _ => Err(Error::Backend {
                backend: NAME.to_string(),
                message: format!(
                    "internal error: {count} words at bus address {address:#010x} are outside \
                     this run's GPU memory"
                ),
            }),
        }
    }
}

impl DeviceMemory for RunMemory<'_> {
    fn alloc(&mut self, bytes: u32, align: u32) -> Result<u32> {
        let bytes = bytes as usize;
        let align = align.max(4) as usize;
        // Blocks start on a page, so aligning the offset aligns the address. Small pieces (code,
        // uniform streams) share the newest block's unused tail: every block costs mailbox
        // round trips and at least a page.
        if let Some(block) = self.blocks.last() {
            let start = self.used.next_multiple_of(align);
            if start + bytes <= block.size_bytes() {
                self.used = start + bytes;
                return Ok(block.bus_address() + start as u32);
            }
        }
        let block = self.gpu.alloc(bytes).map_err(pi_error)?;
        if !(block.bus_address() as usize).is_multiple_of(align) {
            return Err(Error::Backend {
                backend: NAME.to_string(),
                message: format!(
                    "internal error: GPU memory at {:#010x} is not {align}-byte aligned",
                    block.bus_address()
                ),
            });
        }
        let address = block.bus_address();
        self.blocks.push(block);
        self.used = bytes;
        Ok(address)
    }

    fn write(&mut self, address: u32, words: &[u32]) -> Result<()> {
        let (block, index) = self.locate(address, words.len() as u32)?;
        self.blocks[block]
            .write_words(index, words)
            .map_err(pi_error)
    }

    fn read(&self, address: u32, count: u32) -> Result<Vec<u32>> {
        let (block, index) = self.locate(address, count)?;
        let mut words = vec![0; count as usize];
        self.blocks[block]
            .read_words(index, &mut words)
            .map_err(pi_error)?;
        Ok(words)
    }
}

impl Backend for Pi {
    fn name(&self) -> &str {
        NAME
    }

    fn describe(&self) -> String {
        format!("{NAME}: {}", self.gpu.describe())
    }

    fn alloc(&self, words: usize) -> Result<Box<dyn SharedMemory>> {
        self.arrays.alloc(words)
    }

    fn run(&self, launch: &mut Launch<'_>) -> Result<RunReport> {
        staging::check(launch)?;
        let compiled = self.compiled(launch)?;
        let mut memory = RunMemory {
            gpu: &self.gpu,
            blocks: Vec::new(),
            used: 0,
        };
        let staged = staging::stage(launch, &compiled, &mut memory)?;
        let launched = self
            .gpu
            .launch_with(&staged.programs, &self.options)
            .map_err(pi_error)?;
        staging::copy_back(launch, &staged, &memory)?;
        drop(memory);

        let elapsed_ns = u64::try_from(launched.elapsed.as_nanos()).unwrap_or(u64::MAX);
        Ok(RunReport {
            backend: NAME.to_string(),
            num_qpus: launch.num_qpus,
            // The QPUs count nothing the host can read back cheaply; the wall time is measured.
            qpus: Vec::new(),
            cycles: None,
            counters: vec![
                ("elapsed_ns".to_string(), elapsed_ns),
                (
                    "direct_launch".to_string(),
                    u64::from(launched.path == LaunchPath::Direct),
                ),
            ],
        })
    }
}

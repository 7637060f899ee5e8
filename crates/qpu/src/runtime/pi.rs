//! The Raspberry Pi as a [`Backend`]: kernels are compiled to VideoCore IV machine code and
//! run on the real QPUs through [`qpu_pi`].
//!
//! **This backend has not yet been run on hardware by the project**; it is tested against
//! `qpu_pi`'s in-process stand-in of the firmware, GPU memory and V3D registers, with the
//! strict emulator executing the launched programs (`tests/pi_backend.rs`).
//!
//! Shared arrays are GPU memory: [`Pi::alloc`] allocates it from the firmware (each array
//! followed by a zeroed margin of [`TAIL_MARGIN`](super::staging::TAIL_MARGIN) bytes, so a
//! kernel prefetching one vector past the end reads memory it may read), and the array's slice
//! is the uncached mapping itself ([`qpu_pi::GpuMemory::as_words`]). Its bus address is the
//! pointer kernels receive. A run copies no array: it passes the arrays' bus addresses in the
//! uniforms and lends the arrays to the launch ([`qpu_pi::Gpu::launch_buffers`]): exclusively
//! when passed as `&mut`, shared when passed as `&`, in which case the launch checks
//! afterwards that the kernel did not change them. The code of the 16 most recently run
//! kernels stays in GPU memory; the spill area (when the kernel needs one) and each QPU's
//! uniforms are allocated per run and released when it ends, on failure as well as on success.
//! An array's GPU memory is released when the array drops, and on Ctrl-C or SIGTERM by
//! `qpu_pi`'s cleanup.
//!
//! A launch that fails or times out may leave a program running that still writes GPU memory,
//! so `qpu_pi` marks every buffer of the device invalid. An array whose memory is invalid is
//! detached from the GPU the first time it is touched: from then on its slice is a host copy of
//! what its GPU memory held at that moment (possibly half-written), and passing it to a kernel
//! is an error. Allocate new arrays to run again. Errors carry `qpu_pi`'s full text, fix hints
//! included.
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

use std::sync::Mutex;
use std::time::Duration;

use qpu_pi::{Gpu, GpuMemory, LaunchOptions, LaunchPath, PiError};

use super::gpu_array::{array_bytes, lend_arrays, GpuArray};
use super::host::lock;
use super::staging::{self, Adapter, DeviceMemory, ProgramCache, Region};
use super::{Backend, Device, Launch, RunReport, SharedMemory};
use crate::compiler::{self, Program};
use crate::error::{Error, Result, RunError, RunErrorKind};

/// The backend's name in reports and errors.
const NAME: &str = "pi";

/// A `qpu_pi` error as this crate's error, keeping its whole text.
pub(super) fn pi_error(error: PiError) -> Error {
    Error::Backend {
        backend: NAME.to_string(),
        message: error.to_string(),
    }
}

/// How many kernels' code stays in GPU memory between runs.
const CACHED_KERNELS: usize = 16;

/// A VideoCore IV GPU as a backend.
pub struct Pi {
    gpu: Gpu,
    cache: ProgramCache,
    code: Mutex<CodeCache>,
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
            cache: ProgramCache::default(),
            code: Mutex::default(),
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
}

impl Device {
    /// A device running kernels on this machine's Raspberry Pi GPU; off a supported Pi, the
    /// error says why (`pi: no Raspberry Pi GPU found: ...` and the like).
    pub fn pi() -> Result<Device> {
        Ok(Device::new(Pi::open()?))
    }
}

/// The code of recently run kernels in GPU memory, most recently used last.
#[derive(Default)]
struct CodeCache {
    entries: Vec<(u64, GpuMemory)>,
}

impl CodeCache {
    /// Bus address of the kernel's code, loading it into GPU memory if it is not there.
    fn address(&mut self, gpu: &Gpu, kernel_id: u64, program: &Program) -> Result<u32> {
        if let Some(position) = self.entries.iter().position(|(id, _)| *id == kernel_id) {
            let entry = self.entries.remove(position);
            let address = entry.1.bus_address();
            self.entries.push(entry);
            return Ok(address);
        }
        let words = program.code_words();
        let bytes = words.len().max(1) * 4;
        let mut block = match gpu.alloc(bytes) {
            Ok(block) => block,
            // Other kernels' code may be what fills the GPU memory: drop it and try again.
            Err(PiError::AllocationFailed { .. }) if !self.entries.is_empty() => {
                self.entries.clear();
                gpu.alloc(bytes).map_err(pi_error)?
            }
            Err(error) => return Err(pi_error(error)),
        };
        block.write_words(0, &words).map_err(pi_error)?;
        if self.entries.len() >= CACHED_KERNELS {
            self.entries.remove(0);
        }
        let address = block.bus_address();
        self.entries.push((kernel_id, block));
        Ok(address)
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
    fn alloc(&mut self, _: Region, bytes: u32, align: u32) -> Result<u32> {
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
}

/// A failed launch as this crate's error: a read-only array the kernel wrote is the same
/// [`RunErrorKind::ReadOnly`] the other backends report.
fn launch_error(error: PiError, arrays: &[u32]) -> Error {
    match error {
        PiError::ReadOnlyWritten { bus_address, .. } => Error::Run(RunError {
            kind: RunErrorKind::ReadOnly {
                address: bus_address,
            },
            qpu: 0,
            location: None,
        }),
        PiError::NotGpuMemory { index, .. } => Error::Backend {
            backend: NAME.to_string(),
            message: format!(
                "array argument {index} (bus address {:#010x}) is no longer in GPU memory: an \
                 earlier launch on this device failed or timed out, and since one of its \
                 programs may still be writing, the device's arrays were detached from the GPU \
                 (each keeps a host copy of what its memory held). Allocate new arrays to run \
                 again",
                arrays.get(index).copied().unwrap_or(0)
            ),
        },
        other => pi_error(other),
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
        let bytes = array_bytes(words)?;
        let memory = self.gpu.alloc(bytes).map_err(|error| Error::Alloc {
            words,
            reason: format!("{NAME}: {error}"),
        })?;
        Ok(Box::new(GpuArray::new(memory, words)))
    }

    fn run(&self, launch: &mut Launch<'_>) -> Result<RunReport> {
        staging::launch(self, launch)
    }
}

impl Adapter for Pi {
    fn gpu(&self) -> compiler::Gpu {
        compiler::Gpu::Vc4
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
        // Held until the launch ends, so no other run evicts (and releases) this code first.
        let mut code_cache = lock(&self.code);
        let code = code_cache.address(&self.gpu, launch.kernel_id, program)?;
        let arrays: Vec<u32> = launch.buffers.iter().map(|b| b.bus_address).collect();
        let mut memory = RunMemory {
            gpu: &self.gpu,
            blocks: Vec::new(),
            used: 0,
        };
        let staged = staging::stage_run(launch, program, &mut memory, code)?;
        let mut buffers = lend_arrays(&mut launch.buffers);
        let launched = self
            .gpu
            .launch_buffers(&staged.programs(), &mut buffers, &self.options)
            .map_err(|error| launch_error(error, &arrays))?;
        drop(buffers);
        drop(memory);
        drop(code_cache);

        let elapsed_ns = u64::try_from(launched.elapsed.as_nanos()).unwrap_or(u64::MAX);
        Ok(RunReport {
            backend: NAME.to_string(),
            num_qpus: launch.num_qpus,
            // The QPUs count nothing the host can read back cheaply; the wall time is measured.
            qpus: Vec::new(),
            cycles: None,
            clock_mhz: None,
            counters: vec![
                ("elapsed_ns".to_string(), elapsed_ns),
                (
                    "direct_launch".to_string(),
                    u64::from(launched.path == LaunchPath::Direct),
                ),
            ],
            debug: Vec::new(),
            timeline: None,
        })
    }
}

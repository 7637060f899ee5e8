//! A Pi 4 or Pi 5 as a [`Backend`] (`QPU_BACKEND=pi-v3d`): kernels compiled by the
//! first-slice V3D compiler ([`crate::compiler::v3d`]) run on the GPU through the Linux `v3d`
//! DRM driver ([`qpu_pi::v3d`]).
//!
//! **Not yet run on hardware by the project**: it is tested against `qpu_pi`'s stand-in of the
//! driver contract with the V3D emulator executing the jobs (`tests/v3d_pi_backend.rs`).
//!
//! Shared arrays are buffer objects: [`V3dPi`]'s `alloc` creates one per array, followed by a
//! zeroed margin of [`TAIL_MARGIN`](super::staging::TAIL_MARGIN) bytes (so a kernel
//! prefetching a vector past the end, as Rot3D's `gather(p + inc)` does, reads zeros), and the
//! array's slice is the buffer's mapping itself ([`qpu_pi::v3d::V3dBuffer::as_words`]). Its
//! bus address is the buffer's GPU address, the pointer kernels receive. A run copies no array
//! and rewrites no pointer: it lends the arrays to the launch ([`qpu_pi::v3d::V3d::launch`]):
//! exclusively when passed as `&mut`, shared when passed as `&SharedArray`, in which case the
//! launch checks afterwards that the kernel did not change them (a change is an error naming
//! the first changed address; the array shows the kernel's stores, as on the VideoCore IV Pi).
//! A store into the margin after an array is reported as a store past the end of an array.
//!
//! The code of the 16 most recently run kernels stays in buffer objects, one per kernel, lent
//! to each launch read-only (as the VideoCore IV Pi keeps it in GPU memory); the device
//! releases them when it drops. A run holds them until its launch ends, so runs on one device
//! from several threads take turns, as on the VideoCore IV Pi. The uniforms, the spill area and the semaphore area are buffer
//! objects of each run, released when it ends, on failure as well as on success; an array's
//! buffer object is released when the array drops. When creating a buffer object fails while
//! other kernels' code is kept, that code is released and the creation tried once more.
//!
//! A launch that fails or times out may leave its job running, still writing, so `qpu_pi`
//! marks every buffer of the device invalid. An array whose buffer is invalid is detached
//! from the GPU the first time it is touched: from then on its slice is a host copy of what
//! its buffer held at that moment (possibly half-written), and passing it to a kernel is an
//! error. Allocate new arrays to run again. Kept code whose buffer is invalid is released at
//! the next run (the job may have overwritten it) and loaded into a new buffer object when its
//! kernel next runs.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use qpu_isa::v3d::V3dVersion as IsaVersion;
use qpu_pi::v3d::{Dispatch, V3d, V3dBuffer, V3dVersion};
use qpu_pi::{LaunchBuffer, PiError};

use super::gpu_array::{array_bytes, lend_arrays, GpuArray};
use super::host::lock;
use super::staging::{self, Adapter, DeviceMemory, ProgramCache, Region};
use super::v3d_emulator::gpu_of;
use super::{Backend, Device, Launch, RunReport, SharedMemory};
use crate::compiler::{Gpu, Program};
use crate::error::{Error, Result, RunError, RunErrorKind};

/// The backend's name in reports and errors.
const NAME: &str = "pi-v3d";

/// How long a run may take before it counts as hung (the driver resets a GPU whose batch
/// makes no progress for 500 ms anyway).
const TIMEOUT: Duration = Duration::from_secs(10);

fn pi_error(error: PiError) -> Error {
    Error::Backend {
        backend: NAME.to_string(),
        message: error.to_string(),
    }
}

/// How many kernels' code stays in buffer objects between runs (as on the VideoCore IV Pi).
const CACHED_KERNELS: usize = 16;

/// A Pi 4/5 GPU through the `v3d` driver.
pub struct V3dPi {
    v3d: V3d,
    compiled: ProgramCache,
    code: Mutex<CodeCache>,
}

impl V3dPi {
    /// The backend on an opened V3D (the real one, or `qpu_pi`'s stand-in).
    pub fn with_v3d(v3d: V3d) -> V3dPi {
        V3dPi {
            v3d,
            compiled: ProgramCache::default(),
            code: Mutex::default(),
        }
    }

    fn version(&self) -> IsaVersion {
        match self.v3d.info().version {
            V3dVersion::V42 => IsaVersion::V42,
            V3dVersion::V71 => IsaVersion::V71,
        }
    }
}

impl Device {
    /// This machine's Pi 4/5 GPU through the `v3d` DRM driver.
    #[cfg(target_os = "linux")]
    pub fn pi_v3d() -> Result<Device> {
        Ok(Device::new(V3dPi::with_v3d(V3d::open().map_err(pi_error)?)))
    }

    /// A Pi 4/5 GPU through the `v3d` DRM driver.
    #[cfg(not(target_os = "linux"))]
    pub fn pi_v3d() -> Result<Device> {
        Err(pi_error(qpu_pi::PiError::Unsupported(
            "the v3d DRM driver exists only on Linux".to_string(),
        )))
    }
}

/// The code of recently run kernels in buffer objects, most recently used last. A run holds
/// the lock until its launch ends (as the VideoCore IV Pi's `CodeCache` is held), so no other
/// run evicts, and releases, the code its job is reading.
#[derive(Default)]
struct CodeCache {
    entries: Vec<(u64, V3dBuffer)>,
}

impl CodeCache {
    /// Makes the kernel's code the most recently used entry, loading it (`words`, made only
    /// then) into a new buffer object unless a valid one is kept.
    fn load(&mut self, v3d: &V3d, kernel_id: u64, words: impl FnOnce() -> Vec<u32>) -> Result<()> {
        // After a launch failed or timed out every buffer of the device is invalid (`qpu_pi`'s
        // `V3d::launch`): a job still running may write any of them, so none is reused.
        self.entries.retain(|(_, buffer)| buffer.is_valid());
        if let Some(position) = self.entries.iter().position(|(id, _)| *id == kernel_id) {
            let entry = self.entries.remove(position);
            self.entries.push(entry);
            return Ok(());
        }
        let words = words();
        let mut buffer = self
            .alloc(v3d, words.len().max(1) * 4, None)
            .map_err(pi_error)?;
        buffer.write_words(0, &words).map_err(pi_error)?;
        if self.entries.len() >= CACHED_KERNELS {
            self.entries.remove(0);
        }
        self.entries.push((kernel_id, buffer));
        Ok(())
    }

    /// The most recently used entry's buffer (the running kernel's code, after [`Self::load`]).
    fn newest(&self) -> Result<&V3dBuffer> {
        self.entries
            .last()
            .map(|(_, buffer)| buffer)
            .ok_or_else(|| Error::Backend {
                backend: NAME.to_string(),
                message: "internal error: the kernel's code is not loaded".to_string(),
            })
    }

    /// A new buffer object of `bytes` bytes. When the driver refuses one, the code kept for
    /// kernels other than `keep` (the running kernel's, its job needs it) may be what fills
    /// the GPU's memory: it is released and the creation tried once more.
    fn alloc(
        &mut self,
        v3d: &V3d,
        bytes: usize,
        keep: Option<u64>,
    ) -> std::result::Result<V3dBuffer, PiError> {
        match v3d.alloc(bytes) {
            Err(_) if self.release_all_but(keep) => v3d.alloc(bytes),
            result => result,
        }
    }

    /// Releases the code of every kernel but `keep`; true if there was any.
    fn release_all_but(&mut self, keep: Option<u64>) -> bool {
        let before = self.entries.len();
        self.entries.retain(|(id, _)| Some(*id) == keep);
        self.entries.len() < before
    }
}

/// A failed launch as this crate's error. `arrays` are the launch's arrays (bus address,
/// length in words), lent first: launch buffer `i < arrays.len()` is array argument `i`.
fn launch_error(error: PiError, arrays: &[(u32, usize)]) -> Error {
    match error {
        PiError::V3dReadOnlyWritten { gpu_address, .. } => read_only_error(gpu_address),
        PiError::V3dOutsideSliceWritten { gpu_address, .. } => past_the_end_error(gpu_address),
        PiError::V3dNotBufferMemory { index, .. }
        | PiError::V3dLaunchBufferInvalid { index, .. }
            if index < arrays.len() =>
        {
            Error::Backend {
                backend: NAME.to_string(),
                message: format!(
                    "array argument {index} (bus address {:#010x}) is no longer in GPU memory: \
                     an earlier launch on this device failed or timed out, and since its job \
                     may still be writing, the device's arrays were detached from the GPU (each \
                     keeps a host copy of what its buffer object held). Allocate new arrays to \
                     run again",
                    arrays[index].0
                ),
            }
        }
        other => pi_error(other),
    }
}

/// The run error of a store into an array passed as `&SharedArray` (as the V3D emulator
/// backends report it).
fn read_only_error(address: u32) -> Error {
    Error::Run(RunError {
        kind: RunErrorKind::ReadOnly { address },
        qpu: 0,
        location: None,
    })
}

/// The run error of a store into the margin after an array (as the V3D emulator backends
/// report it).
fn past_the_end_error(address: u32) -> Error {
    Error::Run(RunError {
        kind: RunErrorKind::Machine(format!(
            "a store past the end of an array (address {address:#010x})"
        )),
        qpu: 0,
        location: None,
    })
}

impl Backend for V3dPi {
    fn name(&self) -> &str {
        NAME
    }

    fn compiles_for(&self) -> Gpu {
        gpu_of(self.version())
    }

    fn describe(&self) -> String {
        let info = self.v3d.info();
        format!(
            "{NAME} ({}, V3D {}, {} QPUs; not yet run on hardware)",
            info.node,
            match info.version {
                V3dVersion::V42 => "4.2",
                V3dVersion::V71 => "7.1",
            },
            info.qpus
        )
    }

    fn alloc(&self, words: usize) -> Result<Box<dyn SharedMemory>> {
        let bytes = array_bytes(words)?;
        // The kept code (and the lock a running launch holds on it) matters only when the
        // driver refuses: then that code is released and the creation tried again.
        let buffer = self
            .v3d
            .alloc(bytes)
            .or_else(|error| match lock(&self.code).release_all_but(None) {
                true => self.v3d.alloc(bytes),
                false => Err(error),
            })
            .map_err(|error| Error::Alloc {
                words,
                reason: format!("{NAME}: {error}"),
            })?;
        Ok(Box::new(GpuArray::new(buffer, words)))
    }

    fn max_qpus(&self) -> u32 {
        self.v3d.info().qpus
    }

    fn run(&self, launch: &mut Launch<'_>) -> Result<RunReport> {
        staging::launch(self, launch)
    }
}

/// One run's buffer objects (spill area, semaphores, uniforms) as the staging code sees
/// them, each with its region; made through the code cache, which may release other
/// kernels' code when the driver refuses a buffer.
struct RunBuffers<'a> {
    v3d: &'a V3d,
    cache: &'a mut CodeCache,
    kernel: u64,
    buffers: Vec<(Region, V3dBuffer)>,
}

impl DeviceMemory for RunBuffers<'_> {
    fn alloc(&mut self, region: Region, bytes: u32, _align: u32) -> Result<u32> {
        // A buffer object starts on a page: every alignment the staging asks for.
        let buffer = self
            .cache
            .alloc(self.v3d, bytes as usize, Some(self.kernel))
            .map_err(pi_error)?;
        let address = buffer.gpu_address();
        self.buffers.push((region, buffer));
        Ok(address)
    }

    fn write(&mut self, address: u32, words: &[u32]) -> Result<()> {
        let (_, buffer) = self
            .buffers
            .iter_mut()
            .find(|(_, b)| {
                let start = u64::from(b.gpu_address());
                (start..start + 4 * b.len_words() as u64).contains(&u64::from(address))
            })
            .ok_or_else(|| Error::Backend {
                backend: NAME.to_string(),
                message: format!(
                    "internal error: bus address {address:#010x} is outside this run's buffers"
                ),
            })?;
        let start = (address - buffer.gpu_address()) as usize / 4;
        buffer.write_words(start, words).map_err(pi_error)
    }
}

impl Adapter for V3dPi {
    fn gpu(&self) -> Gpu {
        gpu_of(self.version())
    }

    fn gpu_name(&self) -> &'static str {
        "GPU"
    }

    // The count the GPU reports (IDENT1), not the version's usual one.
    fn qpus(&self) -> u32 {
        self.max_qpus()
    }

    fn programs(&self) -> &ProgramCache {
        &self.compiled
    }

    fn execute(&self, launch: &mut Launch<'_>, program: &Program) -> Result<RunReport> {
        let n = launch.num_qpus;
        // Held until the launch ends, so no other run evicts (and releases) this code first.
        let mut cache = lock(&self.code);
        cache.load(&self.v3d, launch.kernel_id, || program.code_words())?;
        let code = cache.newest()?.gpu_address();
        let mut run = RunBuffers {
            v3d: &self.v3d,
            cache: &mut cache,
            kernel: launch.kernel_id,
            buffers: Vec::new(),
        };
        let staged = staging::stage_run(launch, program, &mut run, code)?;
        let mut buffers = run.buffers;
        let dispatch = Dispatch {
            code,
            uniforms: staged.uniforms[0],
            batches: n,
        };
        // The arrays first (launch buffer i is array argument i), then this run's buffers.
        let arrays: Vec<(u32, usize)> = launch
            .buffers
            .iter()
            .map(|b| (b.bus_address, b.len()))
            .collect();
        let mut lent = lend_arrays(&mut launch.buffers);
        lent.push(LaunchBuffer::Read(
            cache.newest()?.as_words().map_err(pi_error)?,
        ));
        for (region, buffer) in &mut buffers {
            lent.push(match region.written() {
                true => LaunchBuffer::Write(buffer.as_words_mut().map_err(pi_error)?),
                false => LaunchBuffer::Read(buffer.as_words().map_err(pi_error)?),
            });
        }
        let start = Instant::now();
        let ran = self.v3d.launch(&dispatch, &mut lent, TIMEOUT);
        let elapsed_ns = start.elapsed().as_nanos() as u64;
        drop(lent);
        drop(cache);
        ran.map_err(|error| launch_error(error, &arrays))?;
        Ok(RunReport {
            backend: NAME.to_string(),
            num_qpus: n,
            // The QPUs count nothing the host can read back; the wall time is measured.
            qpus: Vec::new(),
            cycles: None,
            clock_mhz: None,
            counters: vec![("elapsed_ns".to_string(), elapsed_ns)],
            debug: Vec::new(),
            timeline: None,
        })
    }
}

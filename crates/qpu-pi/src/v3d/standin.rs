//! [`FakeV3d`]: an in-process model of the `v3d` driver's user-space contract, so the code
//! above it runs in tests on any machine.
//!
//! It keeps each buffer object in a heap block of its own at a made-up GPU address, records
//! each CSD job, and hands it to an executor (by default one that completes every job without
//! running code; an emulator can be plugged in with [`FakeV3d::set_executor`]). A mapping of a
//! buffer object is its block itself, so [`V3dBuffer`](super::V3dBuffer)'s slice views are
//! views of the memory the executor reads and writes, as they are of a real buffer object's
//! pages. Faults can be injected: a node with another driver, no compute support, refused
//! submissions, hung jobs, exhausted memory.

use std::collections::HashMap;
use std::io;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use super::csd::Dispatch;
use super::{Param, V3dDriver, V3dVersion};
use crate::error::PiError;
use crate::memory::MappedRegion;

/// What the stand-in pretends to be.
#[derive(Clone, Debug)]
pub struct FakeV3dConfig {
    /// The driver name `DRM_IOCTL_VERSION` reports (`v3d`; `vc4` for the display device).
    pub driver: String,
    /// 4.2 (Pi 4) or 7.1 (Pi 5).
    pub version: V3dVersion,
    /// Hub revision (Pi 5: 7).
    pub revision: u32,
    /// Slices and QPUs per slice (Pi 4: 2 × 4; Pi 5: 4 × 4).
    pub slices: u32,
    /// QPUs per slice.
    pub qpus_per_slice: u32,
    /// SUPPORTS_CSD.
    pub supports_csd: bool,
    /// SUBMIT_CSD fails with EACCES (an unauthenticated client).
    pub refuse_submit: bool,
    /// Bytes of buffer objects that fit (CREATE_BO fails with ENOMEM beyond).
    pub memory_bytes: u64,
    /// The performance counters PERFMON_GET_COUNTER names, in index order (empty: a kernel
    /// without the call). A monitor's counter `i` reads 1000·(i + 1) plus the jobs it
    /// counted, so tests can tell each counter and each job apart.
    pub perfmon_counters: Vec<String>,
}

impl FakeV3dConfig {
    /// A Pi 4: V3D 4.2, 8 QPUs.
    pub fn pi4() -> FakeV3dConfig {
        FakeV3dConfig {
            driver: "v3d".to_string(),
            version: V3dVersion::V42,
            revision: 0,
            slices: 2,
            qpus_per_slice: 4,
            supports_csd: true,
            refuse_submit: false,
            memory_bytes: 64 << 20,
            // A few of Linux's v3d_perfmon.c names, not at their real indices.
            perfmon_counters: [
                "FEP-valid-primitives-no-rendered-pixels",
                "cycle-count",
                "QPU-active",
                "QPU-stalls-TMU",
                "L2T-TMU-read-hits",
                "L2T-TMU-read-miss",
            ]
            .map(str::to_string)
            .to_vec(),
        }
    }

    /// A Pi 5: V3D 7.1.7, 16 QPUs (what its debugfs `v3d_ident` reports).
    pub fn pi5() -> FakeV3dConfig {
        FakeV3dConfig {
            version: V3dVersion::V71,
            revision: 7,
            slices: 4,
            ..FakeV3dConfig::pi4()
        }
    }
}

/// One submitted compute job, as the stand-in saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsdJob {
    /// The seven configuration words.
    pub cfg: [u32; 7],
    /// The buffers it was given.
    pub handles: Vec<u32>,
    /// The GPU address of each buffer in `handles`, in the same order.
    pub gpu_addresses: Vec<u32>,
    /// The batches (QPU thread launches) the words ask for.
    pub batches: u32,
}

/// How a job ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobOutcome {
    /// It finished.
    Done,
    /// It never finishes: waits on its buffers time out.
    Hang,
}

/// GPU memory as the executor sees it: words by GPU address, across every buffer object.
pub struct GpuWords<'a> {
    buffers: &'a HashMap<u32, Buffer>,
}

impl GpuWords<'_> {
    fn find(&self, address: u32) -> Option<(&Buffer, usize)> {
        self.buffers.values().find_map(|b| {
            let offset = address.checked_sub(b.gpu_address)? as usize;
            (address.is_multiple_of(4) && offset < b.bytes as usize).then_some((b, offset / 4))
        })
    }

    /// The word at `address`, if a buffer object holds it.
    pub fn read(&self, address: u32) -> Option<u32> {
        let (b, i) = self.find(address)?;
        b.block.read(i)
    }

    /// Every buffer object as (GPU address, its words), lowest address first.
    pub fn buffers(&self) -> Vec<(u32, Vec<u32>)> {
        let mut all: Vec<(u32, Vec<u32>)> = self
            .buffers
            .values()
            .map(|b| (b.gpu_address, b.block.to_vec()))
            .collect();
        all.sort_by_key(|(address, _)| *address);
        all
    }

    /// Writes the words of one buffer object from its start, storing only those that differ
    /// from what it holds (as a GPU stores only what its program stores); false if no buffer
    /// object starts at `address` or the words do not fit it.
    pub fn write_buffer(&mut self, address: u32, words: &[u32]) -> bool {
        let Some(b) = self.buffers.values().find(|b| b.gpu_address == address) else {
            return false;
        };
        if words.len() > b.block.len_words {
            return false;
        }
        for (i, &word) in words.iter().enumerate() {
            if b.block.read(i) != Some(word) {
                b.block.write(i, word);
            }
        }
        true
    }

    /// Writes the word at `address`; false if no buffer object holds it.
    pub fn write(&mut self, address: u32, value: u32) -> bool {
        match self.find(address) {
            Some((b, i)) => b.block.write(i, value),
            None => false,
        }
    }
}

/// Runs a job against GPU memory.
pub type Executor = Box<dyn FnMut(&CsdJob, &mut GpuWords<'_>) -> JobOutcome + Send>;

/// One buffer object's memory: a heap block that never moves, reached only through raw
/// pointers, as the QPUs and a mapping reach a real buffer object's pages.
///
/// No Rust reference to the block is ever made here, so the slices that a
/// [`V3dBuffer`](super::V3dBuffer) borrows over its mapping are the only references into it,
/// exactly as with a real mapping. The executor's accesses through [`GpuWords`] play the
/// GPU's part: raw accesses from outside Rust's view of those slices, under the same launch
/// contract (see `V3dBuffer::as_words`).
struct Block {
    base: NonNull<u32>,
    len_words: usize,
}

// SAFETY: `Block` owns its heap block exclusively (it frees it on drop) and holds no
// thread-bound state; the raw pointer only stops the compiler from deriving the traits. Its
// words are reached only by single volatile accesses, by the mapping (on the host's behalf)
// and by the executor (on the GPU's), which the launch contract keeps apart in time, as the
// ARM and the QPUs are kept apart on a real buffer object.
unsafe impl Send for Block {}
// SAFETY: as for `Send`: shared access makes no reference into the block.
unsafe impl Sync for Block {}

impl Block {
    fn zeroed(len_words: usize) -> Block {
        let block: Box<[u32]> = vec![0; len_words].into_boxed_slice();
        let base = NonNull::new(Box::into_raw(block).cast::<u32>()).unwrap_or(NonNull::dangling());
        Block { base, len_words }
    }

    /// Word `index`, or `None` past the end.
    fn read(&self, index: usize) -> Option<u32> {
        (index < self.len_words).then(|| {
            // SAFETY: index < len_words, so the word lies inside the block allocated in
            // `zeroed`, which lives until `drop`; the pointer came from `Box::into_raw`, so it is
            // aligned and carries the whole block's provenance. Volatile, like a device access.
            unsafe { self.base.as_ptr().add(index).read_volatile() }
        })
    }

    /// Writes word `index`; false past the end.
    fn write(&self, index: usize, value: u32) -> bool {
        if index >= self.len_words {
            return false;
        }
        // SAFETY: as in `read`; the block is writable (it came from a `Box`), and `Block`
        // holds no reference to it, so writing through `&self` aliases nothing.
        unsafe { self.base.as_ptr().add(index).write_volatile(value) };
        true
    }

    fn to_vec(&self) -> Vec<u32> {
        (0..self.len_words)
            .map(|i| self.read(i).unwrap_or(0))
            .collect()
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: `base` and `len_words` are exactly the pointer and length of the boxed slice
        // made in `zeroed`, rebuilt once here. Every mapping of the block holds an `Arc` of it,
        // so none outlives it.
        drop(unsafe {
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                self.base.as_ptr(),
                self.len_words,
            ))
        });
    }
}

struct Buffer {
    gpu_address: u32,
    bytes: u32,
    /// Shared with the mappings, which keep it alive after the object is closed, as a real
    /// mapping keeps its pages until it is unmapped.
    block: Arc<Block>,
    /// Whether the last job using it hung.
    busy_forever: bool,
}

struct State {
    buffers: HashMap<u32, Buffer>,
    next_handle: u32,
    next_address: u32,
    allocated: u64,
    jobs: Vec<CsdJob>,
    executor: Executor,
    /// Live performance monitors: their counters and the jobs they counted.
    perfmons: HashMap<u32, (Vec<u8>, u64)>,
    next_perfmon: u32,
}

/// The stand-in driver node. Clones share one device.
#[derive(Clone)]
pub struct FakeV3d {
    config: FakeV3dConfig,
    state: Arc<Mutex<State>>,
}

impl std::fmt::Debug for FakeV3d {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeV3d")
            .field("config", &self.config)
            .finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panicking test thread must not hide the state from the others.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl FakeV3d {
    /// A stand-in configured by `config`, completing every job.
    pub fn new(config: FakeV3dConfig) -> FakeV3d {
        FakeV3d {
            config,
            state: Arc::new(Mutex::new(State {
                buffers: HashMap::new(),
                next_handle: 1,
                // GPU addresses are never 0 (Linux `v3d_bo_create` places buffers in the V3D
                // MMU's space above its first page).
                next_address: 0x0001_0000,
                allocated: 0,
                jobs: Vec::new(),
                executor: Box::new(|_, _| JobOutcome::Done),
                perfmons: HashMap::new(),
                next_perfmon: 1,
            })),
        }
    }

    /// Runs later jobs through `executor`.
    pub fn set_executor(&self, executor: Executor) {
        lock(&self.state).executor = executor;
    }

    /// The jobs submitted so far.
    pub fn jobs(&self) -> Vec<CsdJob> {
        lock(&self.state).jobs.clone()
    }

    /// Buffer objects not yet closed.
    pub fn live_buffers(&self) -> usize {
        lock(&self.state).buffers.len()
    }

    fn error(&self, call: &'static str, errno: i32, hint: &str) -> PiError {
        PiError::DrmCall {
            call,
            node: self.node(),
            source: io::Error::from_raw_os_error(errno),
            hint: hint.to_string(),
        }
    }
}

impl V3dDriver for FakeV3d {
    fn node(&self) -> String {
        "stand-in v3d node".to_string()
    }

    fn driver_name(&self) -> Result<String, PiError> {
        Ok(self.config.driver.clone())
    }

    fn get_param(&self, param: Param) -> Result<u64, PiError> {
        let c = &self.config;
        let (major, minor) = match c.version {
            V3dVersion::V42 => (4u64, 2u64),
            V3dVersion::V71 => (7, 1),
        };
        Ok(match param {
            Param::CoreIdent0 => major << 24,
            Param::CoreIdent1 => {
                minor | (u64::from(c.slices) << 4) | (u64::from(c.qpus_per_slice) << 8)
            }
            Param::HubIdent3 => u64::from(c.revision) << 8,
            Param::SupportsCsd => u64::from(c.supports_csd),
        })
    }

    fn create_bo(&self, bytes: u32) -> Result<(u32, u32), PiError> {
        let mut s = lock(&self.state);
        if bytes == 0 || s.allocated + u64::from(bytes) > self.config.memory_bytes {
            return Err(self.error(
                "DRM_IOCTL_V3D_CREATE_BO",
                libc::ENOMEM,
                ". The stand-in's memory is exhausted",
            ));
        }
        let handle = s.next_handle;
        let gpu_address = s.next_address;
        s.next_handle += 1;
        s.next_address = s.next_address.saturating_add(bytes.next_multiple_of(4096));
        s.allocated += u64::from(bytes);
        s.buffers.insert(
            handle,
            Buffer {
                gpu_address,
                bytes,
                block: Arc::new(Block::zeroed(bytes as usize / 4)),
                busy_forever: false,
            },
        );
        Ok((handle, gpu_address))
    }

    fn map_bo(&self, handle: u32, bytes: u32) -> Result<Box<dyn MappedRegion>, PiError> {
        let s = lock(&self.state);
        match s.buffers.get(&handle) {
            Some(b) if bytes <= b.bytes => Ok(Box::new(FakeMapping {
                block: Arc::clone(&b.block),
                len_words: bytes as usize / 4,
            })),
            _ => Err(self.error("DRM_IOCTL_V3D_MMAP_BO", libc::EINVAL, "")),
        }
    }

    fn submit_csd(&self, cfg: [u32; 7], handles: &[u32]) -> Result<(), PiError> {
        if self.config.refuse_submit {
            return Err(self.error(
                "DRM_IOCTL_V3D_SUBMIT_CSD",
                libc::EACCES,
                ". The v3d driver refuses job submission from an unauthenticated client: \
                 open the render node (/dev/dri/renderD*), not the card node",
            ));
        }
        let mut guard = lock(&self.state);
        let s = &mut *guard;
        // The kernel looks every handle up and fails the submission with ENOENT otherwise
        // (Linux `drm_gem_objects_lookup`).
        if let Some(h) = handles.iter().find(|h| !s.buffers.contains_key(h)) {
            return Err(self.error(
                "DRM_IOCTL_V3D_SUBMIT_CSD",
                libc::ENOENT,
                &format!(" (no buffer object {h})"),
            ));
        }
        let job = CsdJob {
            cfg,
            handles: handles.to_vec(),
            gpu_addresses: handles
                .iter()
                .map(|h| s.buffers.get(h).map_or(0, |b| b.gpu_address))
                .collect(),
            batches: Dispatch::batches_of(&cfg, self.config.version, self.config.revision),
        };
        let outcome = (s.executor)(
            &job,
            &mut GpuWords {
                buffers: &s.buffers,
            },
        );
        if outcome == JobOutcome::Hang {
            for h in handles {
                if let Some(b) = s.buffers.get_mut(h) {
                    b.busy_forever = true;
                }
            }
        }
        s.jobs.push(job);
        Ok(())
    }

    fn perfmon_counter_name(&self, index: u8) -> Result<Option<String>, PiError> {
        if self.config.perfmon_counters.is_empty() {
            return Err(self.error("DRM_IOCTL_V3D_PERFMON_GET_COUNTER", libc::ENOTTY, ""));
        }
        Ok(self
            .config
            .perfmon_counters
            .get(usize::from(index))
            .cloned())
    }

    fn perfmon_create(&self, indices: &[u8]) -> Result<u32, PiError> {
        let n = self.config.perfmon_counters.len();
        if indices.is_empty() || indices.len() > 32 || indices.iter().any(|&i| usize::from(i) >= n)
        {
            return Err(self.error("DRM_IOCTL_V3D_PERFMON_CREATE", libc::EINVAL, ""));
        }
        let mut s = lock(&self.state);
        let id = s.next_perfmon;
        s.next_perfmon += 1;
        s.perfmons.insert(id, (indices.to_vec(), 0));
        Ok(id)
    }

    fn perfmon_values(&self, id: u32, count: usize) -> Result<Vec<u64>, PiError> {
        let s = lock(&self.state);
        let Some((indices, jobs)) = s.perfmons.get(&id) else {
            return Err(self.error("DRM_IOCTL_V3D_PERFMON_GET_VALUES", libc::EINVAL, ""));
        };
        Ok(indices
            .iter()
            .take(count)
            .map(|&i| 1000 * (u64::from(i) + 1) + jobs)
            .collect())
    }

    fn perfmon_destroy(&self, id: u32) -> Result<(), PiError> {
        match lock(&self.state).perfmons.remove(&id) {
            Some(_) => Ok(()),
            None => Err(self.error("DRM_IOCTL_V3D_PERFMON_DESTROY", libc::EINVAL, "")),
        }
    }

    fn submit_csd_counted(
        &self,
        cfg: [u32; 7],
        handles: &[u32],
        perfmon: u32,
    ) -> Result<(), PiError> {
        if perfmon != 0 && !lock(&self.state).perfmons.contains_key(&perfmon) {
            // Linux `v3d_submit_csd_ioctl`: an unknown monitor fails the submission.
            return Err(self.error("DRM_IOCTL_V3D_SUBMIT_CSD", libc::ENOENT, ""));
        }
        self.submit_csd(cfg, handles)?;
        if let Some((_, jobs)) = lock(&self.state).perfmons.get_mut(&perfmon) {
            *jobs += 1;
        }
        Ok(())
    }

    fn wait_bo(&self, handle: u32, timeout: Duration) -> Result<(), PiError> {
        let s = lock(&self.state);
        match s.buffers.get(&handle) {
            None => Err(self.error("DRM_IOCTL_V3D_WAIT_BO", libc::ENOENT, "")),
            Some(b) if b.busy_forever => Err(PiError::V3dTimeout { timeout }),
            Some(_) => Ok(()),
        }
    }

    fn close_bo(&self, handle: u32) -> Result<(), PiError> {
        let mut s = lock(&self.state);
        match s.buffers.remove(&handle) {
            Some(b) => {
                s.allocated -= u64::from(b.bytes);
                Ok(())
            }
            None => Err(self.error("DRM_IOCTL_GEM_CLOSE", libc::EINVAL, "")),
        }
    }
}

/// A stand-in mapping: the buffer object's block itself, which the executor's view shares.
struct FakeMapping {
    block: Arc<Block>,
    len_words: usize,
}

// SAFETY: `map_bo` gives a mapping at most the block's length (`len_words <= block.len_words`),
// and `base` is the block's start: a `u32`-aligned pointer from `Box::into_raw`, readable and
// writable for the whole block, which never moves and lives as long as any `Arc` of it, so at
// least as long as this region. The block is no Rust allocation anyone holds references to
// (`Block` makes raw accesses only), and `read_word`/`write_word` below are raw volatile
// accesses through it. Like the driver, the stand-in maps whatever buffer it is asked for;
// `V3d::alloc` maps each buffer object exactly once.
unsafe impl MappedRegion for FakeMapping {
    fn len_words(&self) -> usize {
        self.len_words
    }

    fn read_word(&self, index: usize) -> u32 {
        if index >= self.len_words {
            return 0;
        }
        self.block.read(index).unwrap_or(0)
    }

    fn write_word(&mut self, index: usize, value: u32) {
        if index < self.len_words {
            self.block.write(index, value);
        }
    }

    fn memory_words(&self) -> Option<NonNull<u32>> {
        Some(self.block.base)
    }
}

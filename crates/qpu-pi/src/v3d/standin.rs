//! [`FakeV3d`]: an in-process model of the `v3d` driver's user-space contract, so the code
//! above it runs in tests on any machine.
//!
//! It keeps buffer objects in ordinary memory at made-up GPU addresses, records each CSD job,
//! and hands it to an executor (by default one that completes every job without running code;
//! an emulator can be plugged in with [`FakeV3d::set_executor`]). Faults can be injected: a
//! node with another driver, no compute support, refused submissions, hung jobs, exhausted
//! memory.

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
        Some(lock(&b.words)[i])
    }

    /// Every buffer object as (GPU address, its words), lowest address first.
    pub fn buffers(&self) -> Vec<(u32, Vec<u32>)> {
        let mut all: Vec<(u32, Vec<u32>)> = self
            .buffers
            .values()
            .map(|b| (b.gpu_address, lock(&b.words).clone()))
            .collect();
        all.sort_by_key(|(address, _)| *address);
        all
    }

    /// Writes the words of one buffer object from its start; false if no buffer object
    /// starts at `address` or the words do not fit it.
    pub fn write_buffer(&mut self, address: u32, words: &[u32]) -> bool {
        let Some(b) = self.buffers.values().find(|b| b.gpu_address == address) else {
            return false;
        };
        let mut held = lock(&b.words);
        if words.len() > held.len() {
            return false;
        }
        held[..words.len()].copy_from_slice(words);
        true
    }

    /// Writes the word at `address`; false if no buffer object holds it.
    pub fn write(&mut self, address: u32, value: u32) -> bool {
        match self.find(address) {
            Some((b, i)) => {
                lock(&b.words)[i] = value;
                true
            }
            None => false,
        }
    }
}

/// Runs a job against GPU memory.
pub type Executor = Box<dyn FnMut(&CsdJob, &mut GpuWords<'_>) -> JobOutcome + Send>;

struct Buffer {
    gpu_address: u32,
    bytes: u32,
    words: Arc<Mutex<Vec<u32>>>,
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
                words: Arc::new(Mutex::new(vec![0; bytes as usize / 4])),
                busy_forever: false,
            },
        );
        Ok((handle, gpu_address))
    }

    fn map_bo(&self, handle: u32, bytes: u32) -> Result<Box<dyn MappedRegion>, PiError> {
        let s = lock(&self.state);
        match s.buffers.get(&handle) {
            Some(b) if bytes <= b.bytes => Ok(Box::new(FakeMapping {
                words: Arc::clone(&b.words),
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

/// A stand-in mapping: the buffer's words, shared with the executor's view.
struct FakeMapping {
    words: Arc<Mutex<Vec<u32>>>,
    len_words: usize,
}

// SAFETY: `memory_words` returns `None`, so no slice is ever made over this region; the
// words live in a Vec behind a mutex, reached by index only.
unsafe impl MappedRegion for FakeMapping {
    fn len_words(&self) -> usize {
        self.len_words
    }

    fn read_word(&self, index: usize) -> u32 {
        lock(&self.words).get(index).copied().unwrap_or(0)
    }

    fn write_word(&mut self, index: usize, value: u32) {
        if let Some(w) = lock(&self.words).get_mut(index) {
            *w = value;
        }
    }

    fn memory_words(&self) -> Option<NonNull<u32>> {
        None
    }
}

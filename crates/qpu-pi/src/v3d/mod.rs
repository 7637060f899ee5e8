//! The Pi 4/400/CM4 (V3D 4.2) and Pi 5/500/CM5 (V3D 7.1) GPU through the Linux `v3d` DRM
//! driver: finding its render node, reading what the GPU is, buffer objects the ARM and the
//! QPUs share, and compute dispatches (CSD jobs).
//!
//! **Status: not yet run on hardware by the project.** It is written to the driver's user-space
//! contract and tested against [`standin::FakeV3d`], an in-process model of that contract.
//!
//! Facts used (each repeated beside the code that relies on it):
//! - The driver's ioctls, their numbers and argument structs: Mesa `include/drm-uapi/v3d_drm.h`
//!   and py-videocore6 `videocore6/drm_v3d.py` (which runs on Pi 4s). They are the same on Pi 5
//!   (py-videocore7 uses the same calls).
//! - All v3d ioctls may be used on a render node (`DRM_RENDER_ALLOW`); the submit calls also
//!   need an authenticated client, which render-node clients always are (Linux `v3d_drv.c`,
//!   `drm_ioctl_permit`). Raspberry Pi OS gives render nodes to the `render` group, so no root
//!   is needed.
//! - What the GPU is: GET_PARAM of CORE0_IDENT0 (bits 31:24: major version), CORE0_IDENT1
//!   (bits 3:0 minor version, 7:4 slices, 11:8 QPUs per slice) and HUB_IDENT3 (bits 15:8
//!   revision): Mesa `src/broadcom/common/v3d_device_info.c`.
//! - Buffer objects are shmem pages the driver maps write-combined into the process (Linux
//!   `v3d_bo.c`, `v3d_create_object` sets `map_wc`), at a GPU address fixed for their
//!   lifetime (pinned in the V3D's MMU at creation, `v3d_bo_create_finish`): ordinary,
//!   uncached memory the ARM and the QPUs both see, so a buffer's mapping can be a Rust slice
//!   ([`V3dBuffer::as_words`]) and arrays need no copying. All buffer objects share the one
//!   address space of the V3D's MMU (`v3d_mmu.c`), so a job can reach every buffer of the
//!   node, listed or not; the handles a submission lists are those the kernel keeps alive and
//!   makes the wait cover.
//!
//! # Slices of buffers and launches
//!
//! As [`crate::GpuMemory`] does for VideoCore IV memory, a [`V3dBuffer`] lends its mapping as
//! a slice, and [`V3d::launch`] borrows the slices a job uses for as long as it runs:
//! [`LaunchBuffer::Write`] (exclusive) for what the job may write and [`LaunchBuffer::Read`]
//! for what it only reads, checked afterwards to be unchanged. The QPUs write memory only
//! while a job runs, so no slice the host holds changes under it. A launch whose wait fails or
//! times out may leave its job running; it marks every buffer of the device invalid, and an
//! invalid buffer lends no slice (its words can still be salvaged one at a time) until
//! [`V3dBuffer::mark_valid`].

pub mod csd;
#[cfg(target_os = "linux")]
pub mod drm;
pub mod standin;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use crate::error::PiError;
use crate::gpu::LaunchBuffer;
use crate::memory::{check_range, BufferKind, MappedRegion, MappedWords};

pub use csd::Dispatch;

/// GET_PARAM parameter numbers (Mesa `v3d_drm.h`, `enum drm_v3d_param`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Param {
    /// Hub identification word 3 (revision in bits 15:8).
    HubIdent3 = 3,
    /// Core 0 identification word 0 (major version in bits 31:24).
    CoreIdent0 = 4,
    /// Core 0 identification word 1 (minor version, slices, QPUs per slice).
    CoreIdent1 = 5,
    /// 1 when the kernel accepts compute (CSD) jobs.
    SupportsCsd = 8,
}

/// The `v3d` driver's user-space contract, as this crate uses it: one open device node.
///
/// [`drm::RenderNode`] makes the real calls; [`standin::FakeV3d`] models them in-process.
/// Errors carry the call's name and what it means ([`PiError::DrmCall`]).
pub trait V3dDriver: Send + Sync {
    /// The node's path (for messages).
    fn node(&self) -> String;
    /// The name of the DRM driver behind the node (`DRM_IOCTL_VERSION`): `v3d` for the
    /// Pi 4/5 GPU, `vc4` for the display controller.
    fn driver_name(&self) -> Result<String, PiError>;
    /// `DRM_IOCTL_V3D_GET_PARAM`.
    fn get_param(&self, param: Param) -> Result<u64, PiError>;
    /// `DRM_IOCTL_V3D_CREATE_BO` of `bytes` bytes: the buffer's handle and GPU address.
    fn create_bo(&self, bytes: u32) -> Result<(u32, u32), PiError>;
    /// `DRM_IOCTL_V3D_MMAP_BO` and `mmap` of the buffer's `bytes` bytes into this process.
    fn map_bo(&self, handle: u32, bytes: u32) -> Result<Box<dyn MappedRegion>, PiError>;
    /// `DRM_IOCTL_V3D_SUBMIT_CSD` with the seven configuration words and the buffers the job
    /// uses.
    fn submit_csd(&self, cfg: [u32; 7], handles: &[u32]) -> Result<(), PiError>;
    /// `DRM_IOCTL_V3D_WAIT_BO`: waits until no job uses the buffer, or the timeout passes
    /// ([`PiError::V3dTimeout`]).
    fn wait_bo(&self, handle: u32, timeout: Duration) -> Result<(), PiError>;
    /// `DRM_IOCTL_GEM_CLOSE`: releases the buffer.
    fn close_bo(&self, handle: u32) -> Result<(), PiError>;
    /// `DRM_IOCTL_V3D_PERFMON_GET_COUNTER`: the name of performance counter `index`, or
    /// `None` past the last one. A driver without the call (kernels before 6.8) says so.
    fn perfmon_counter_name(&self, index: u8) -> Result<Option<String>, PiError> {
        let _ = index;
        Err(no_perfmon(&self.node()))
    }
    /// `DRM_IOCTL_V3D_PERFMON_CREATE` over the counters `indices` (at most 32): the
    /// performance monitor's id.
    fn perfmon_create(&self, indices: &[u8]) -> Result<u32, PiError> {
        let _ = indices;
        Err(no_perfmon(&self.node()))
    }
    /// `DRM_IOCTL_V3D_PERFMON_GET_VALUES`: the `count` counters of monitor `id`.
    fn perfmon_values(&self, id: u32, count: usize) -> Result<Vec<u64>, PiError> {
        let _ = (id, count);
        Err(no_perfmon(&self.node()))
    }
    /// `DRM_IOCTL_V3D_PERFMON_DESTROY`.
    fn perfmon_destroy(&self, id: u32) -> Result<(), PiError> {
        let _ = id;
        Err(no_perfmon(&self.node()))
    }
    /// [`V3dDriver::submit_csd`] counting into performance monitor `perfmon` (its id).
    fn submit_csd_counted(
        &self,
        cfg: [u32; 7],
        handles: &[u32],
        perfmon: u32,
    ) -> Result<(), PiError> {
        let _ = (cfg, handles, perfmon);
        Err(no_perfmon(&self.node()))
    }
}

/// The error of a driver without performance monitors.
fn no_perfmon(node: &str) -> PiError {
    PiError::V3dUnsupported {
        problem: format!(
            "the v3d driver on {node} offers no performance counters to this program              (DRM_IOCTL_V3D_PERFMON_*; counter names need Linux 6.8 or later)"
        ),
    }
}

/// Which V3D the node drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum V3dVersion {
    /// V3D 4.2: VideoCore VI, Pi 4/400/CM4.
    V42,
    /// V3D 7.1: VideoCore VII, Pi 5/500/CM5.
    V71,
}

/// What [`V3d::open`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct V3dInfo {
    /// The device node.
    pub node: String,
    /// The version.
    pub version: V3dVersion,
    /// The hub revision (7.1.**7** on a Pi 5: 7).
    pub revision: u32,
    /// Slices × QPUs per slice.
    pub qpus: u32,
}

impl V3dInfo {
    /// Decodes the identification words (Mesa `v3d_device_info.c`): major version in CORE0
    /// IDENT0 bits 31:24, minor in IDENT1 bits 3:0, slices in 7:4, QPUs per slice in 11:8;
    /// revision in HUB_IDENT3 bits 15:8.
    pub fn from_idents(
        node: String,
        ident0: u64,
        ident1: u64,
        hub_ident3: u64,
    ) -> Result<V3dInfo, PiError> {
        let major = (ident0 >> 24) & 0xff;
        let minor = ident1 & 0xf;
        let version = match (major, minor) {
            (4, 2) => V3dVersion::V42,
            (7, 1) => V3dVersion::V71,
            _ => {
                return Err(PiError::V3dUnsupported {
                    problem: format!(
                        "{node} reports V3D {major}.{minor}; this crate knows 4.2 (Pi 4) and 7.1 \
                         (Pi 5)"
                    ),
                })
            }
        };
        let slices = (ident1 >> 4) & 0xf;
        let per_slice = (ident1 >> 8) & 0xf;
        let qpus = (slices * per_slice) as u32;
        if qpus == 0 {
            return Err(PiError::V3dUnsupported {
                problem: format!("{node} reports no QPUs (IDENT1 = 0x{ident1:08x})"),
            });
        }
        Ok(V3dInfo {
            node,
            version,
            revision: ((hub_ident3 >> 8) & 0xff) as u32,
            qpus,
        })
    }
}

/// Picks, among `candidates`, the first node whose driver is `v3d`, opening each with `open`.
///
/// The node numbering of `/dev/dri` changes between boots and OS versions (py-videocore6
/// issue 59), so the node is chosen by its driver's name rather than its number; the Pi's
/// display controller is a second DRM device whose driver is `vc4`, on the Pi 5 too.
pub fn find_v3d<D>(
    candidates: &[PathBuf],
    mut open: impl FnMut(&Path) -> Result<D, PiError>,
) -> Result<D, PiError>
where
    D: V3dDriver,
{
    let mut looked = Vec::new();
    let mut refused = None;
    for path in candidates {
        match open(path) {
            Ok(driver) => match driver.driver_name() {
                Ok(name) if name == "v3d" => return Ok(driver),
                Ok(name) => looked.push(format!("{}: driver {name}", path.display())),
                Err(e) => looked.push(format!("{}: {e}", path.display())),
            },
            Err(e) => {
                looked.push(format!("{}: {e}", path.display()));
                // A node this user may not open could be the GPU: say so rather than "none".
                if matches!(&e, PiError::DrmCall { source, .. }
                    if matches!(source.raw_os_error(), Some(libc::EACCES | libc::EPERM)))
                {
                    refused.get_or_insert(e);
                }
            }
        }
    }
    if let Some(e) = refused {
        return Err(e);
    }
    if looked.is_empty() {
        looked.push("no /dev/dri/renderD* nodes".to_string());
    }
    Err(PiError::NoV3dNode {
        looked: looked.join("; "),
    })
}

/// What the device knows about one live buffer object: whether its contents can be trusted,
/// and where it is for the GPU and for this process.
#[derive(Debug)]
struct BufferState {
    valid: AtomicBool,
    handle: u32,
    gpu_address: u32,
    /// Address of word 0 of the mapping (its provenance exposed); 0 once the mapping is going
    /// away (or when the region offers no slice view), so launches never resolve a slice to a
    /// dying buffer.
    host_address: AtomicUsize,
    len_words: usize,
}

impl BufferState {
    /// The word offset of `words` in this buffer's mapping, when they start inside it and end
    /// at its end or before.
    fn offset_of(&self, words: &[u32]) -> Option<usize> {
        let host = self.host_address.load(Ordering::Acquire);
        let offset = words.as_ptr().addr().checked_sub(host)?;
        let end = offset.checked_add(words.len().checked_mul(4)?)?;
        let bytes = self.len_words * 4;
        (host != 0 && offset < bytes && end <= bytes && offset.is_multiple_of(4))
            .then_some(offset / 4)
    }

    /// The word at `index` of the mapping, read through the mapping's exposed provenance.
    ///
    /// # Safety
    /// `index < len_words`, and the buffer's mapping stays alive during the call (a slice
    /// lying in it is borrowed for the call: slices of the mapping are only lent by its
    /// [`V3dBuffer`], which outlives them).
    unsafe fn read_word(&self, index: usize) -> u32 {
        let address = self.host_address.load(Ordering::Acquire) + 4 * index;
        // SAFETY: the caller keeps the mapping alive and the index in it, so the word is
        // mapped, readable and u32-aligned (mappings start on a page); the mapping's provenance
        // was exposed in `V3d::alloc`. Volatile, so the read happens when asked (after a job).
        unsafe { std::ptr::with_exposed_provenance::<u32>(address).read_volatile() }
    }
}

/// The live buffers of one device.
#[derive(Default)]
struct Buffers(Mutex<Vec<Weak<BufferState>>>);

impl Buffers {
    fn lock(&self) -> MutexGuard<'_, Vec<Weak<BufferState>>> {
        // Every update is one push or one `retain`: nothing is left half-done by a panic.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn register(&self, state: &Arc<BufferState>) {
        let mut buffers = self.lock();
        buffers.retain(|weak| weak.strong_count() > 0);
        buffers.push(Arc::downgrade(state));
    }

    fn invalidate(&self) {
        for buffer in self.lock().iter().filter_map(Weak::upgrade) {
            buffer.valid.store(false, Ordering::Release);
        }
    }

    /// The live buffer whose mapping holds `words`, and their word offset in it.
    fn resolve(&self, words: &[u32]) -> Option<(Arc<BufferState>, usize)> {
        self.lock()
            .iter()
            .filter_map(Weak::upgrade)
            .find_map(|state| {
                let offset = state.offset_of(words)?;
                Some((state, offset))
            })
    }
}

/// An open V3D: its driver node, what it is, and its live buffers.
pub struct V3d {
    driver: Arc<dyn V3dDriver>,
    info: V3dInfo,
    buffers: Buffers,
}

impl std::fmt::Debug for V3d {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("V3d").field("info", &self.info).finish()
    }
}

/// Copies `words` one volatile read at a time (the snapshot of a read-only slice).
fn read_volatile_words(words: &[u32]) -> Vec<u32> {
    words
        .iter()
        .map(|word| {
            // SAFETY: a reference to a live u32 is aligned and readable.
            unsafe { std::ptr::from_ref(word).read_volatile() }
        })
        .collect()
}

/// The words of one buffer object that no slice lent to a launch covers, snapshotted before
/// the job: (first word, the words) per gap.
struct Uncovered {
    /// The first launch buffer lying in this buffer object (for the error).
    index: usize,
    state: Arc<BufferState>,
    gaps: Vec<(usize, Vec<u32>)>,
}

impl V3d {
    /// Finds the `v3d` render node among `/dev/dri/renderD*` and opens it.
    #[cfg(target_os = "linux")]
    pub fn open() -> Result<V3d, PiError> {
        let driver = find_v3d(&drm::render_nodes(), drm::RenderNode::open)?;
        V3d::with_driver(Arc::new(driver))
    }

    /// Uses an already open driver node (the real one or [`standin::FakeV3d`]): reads what the
    /// GPU is and checks that it runs compute jobs.
    pub fn with_driver(driver: Arc<dyn V3dDriver>) -> Result<V3d, PiError> {
        let node = driver.node();
        let csd = driver.get_param(Param::SupportsCsd)?;
        if csd != 1 {
            return Err(PiError::V3dUnsupported {
                problem: format!(
                    "the kernel's v3d driver on {node} does not accept compute (CSD) jobs \
                     (SUPPORTS_CSD = {csd}); a newer kernel is needed"
                ),
            });
        }
        let info = V3dInfo::from_idents(
            node,
            driver.get_param(Param::CoreIdent0)?,
            driver.get_param(Param::CoreIdent1)?,
            driver.get_param(Param::HubIdent3)?,
        )?;
        Ok(V3d {
            driver,
            info,
            buffers: Buffers::default(),
        })
    }

    /// What the GPU is.
    pub fn info(&self) -> &V3dInfo {
        &self.info
    }

    /// A zeroed buffer of at least `bytes` bytes (whole 4 KiB pages) that the ARM and the QPUs
    /// share, at a fixed GPU address for its lifetime.
    pub fn alloc(&self, bytes: usize) -> Result<V3dBuffer, PiError> {
        let rounded =
            crate::memory::round_to_pages(bytes.max(1)).ok_or_else(|| PiError::V3dUnsupported {
                problem: format!("a buffer of {bytes} bytes does not fit the 32-bit GPU space"),
            })? as u32;
        let (handle, gpu_address) = self.driver.create_bo(rounded)?;
        let region = match self.driver.map_bo(handle, rounded) {
            Ok(region) => region,
            Err(e) => {
                // Nothing leaks when the mapping fails: the buffer object goes back.
                let _ = self.driver.close_bo(handle);
                return Err(e);
            }
        };
        let len_words = rounded as usize / 4;
        let state = Arc::new(BufferState {
            valid: AtomicBool::new(true),
            handle,
            gpu_address,
            host_address: AtomicUsize::new(
                region
                    .memory_words()
                    .map_or(0, |base| base.as_ptr().expose_provenance()),
            ),
            len_words: region.len_words().min(len_words),
        });
        self.buffers.register(&state);
        Ok(V3dBuffer {
            driver: Arc::clone(&self.driver),
            handle,
            gpu_address,
            words: MappedWords::new(region, len_words, BufferKind::V3d { gpu_address }),
            state,
        })
    }

    /// Runs `dispatch` and waits up to `timeout` for it, borrowing the buffers the job uses
    /// for as long as it runs: [`LaunchBuffer::Write`] for slices it may write (borrowed
    /// exclusively, so no other reference to them exists while the QPUs run) and
    /// [`LaunchBuffer::Read`] for slices it only reads. Each slice lies in a buffer of this
    /// device ([`V3dBuffer::as_words`], [`V3dBuffer::as_words_mut`]); the job is given each of
    /// those buffer objects once, and finds the data through the GPU addresses in its
    /// uniforms. Nothing is copied.
    ///
    /// Before the job: each slice must lie in a live buffer of this device
    /// ([`PiError::V3dNotBufferMemory`]) that is valid ([`PiError::V3dLaunchBufferInvalid`]).
    /// After it, nothing but the `Write` slices may have changed: the `Read` slices and the
    /// words of the listed buffers that no slice covers (such as a margin kept after an array)
    /// are snapshotted before and compared after; a change is
    /// [`PiError::V3dOutsideSliceWritten`] or [`PiError::V3dReadOnlyWritten`], naming the first
    /// changed GPU address (the words outside the slices are checked first).
    ///
    /// A refused submission ran nothing (`SUBMIT_CSD` fails only before its job can run:
    /// Linux `v3d_submit_csd_ioctl`, `v3d_submit.c`). A wait that fails or times out may leave
    /// the job running, so every buffer of this device is then marked invalid.
    pub fn launch(
        &self,
        dispatch: &Dispatch,
        buffers: &mut [LaunchBuffer<'_>],
        timeout: Duration,
    ) -> Result<(), PiError> {
        self.launch_counted(dispatch, buffers, timeout, None)
    }

    /// The kernel's performance counters by name (`DRM_IOCTL_V3D_PERFMON_GET_COUNTER`, in
    /// index order): `cycle-count`, `QPU-active`, `QPU-stalls-TMU`, … (Linux
    /// `drivers/gpu/drm/v3d/v3d_perfmon.c`).
    pub fn perfmon_counters(&self) -> Result<Vec<String>, PiError> {
        let mut names = Vec::new();
        for index in 0..=u8::MAX {
            match self.driver.perfmon_counter_name(index)? {
                Some(name) => names.push(name),
                None => break,
            }
        }
        Ok(names)
    }

    /// [`V3d::launch`], reading the performance counters named in `counters` (at most 32)
    /// over the job: each name with its value, in the order asked. A name the kernel does not
    /// offer is an error naming it.
    pub fn launch_measured(
        &self,
        dispatch: &Dispatch,
        buffers: &mut [LaunchBuffer<'_>],
        timeout: Duration,
        counters: &[&str],
    ) -> Result<Vec<(String, u64)>, PiError> {
        if counters.len() > 32 {
            return Err(PiError::V3dUnsupported {
                problem: format!(
                    "{} performance counters asked for; a monitor holds at most 32",
                    counters.len()
                ),
            });
        }
        let offered = self.perfmon_counters()?;
        let indices = counters
            .iter()
            .map(|name| {
                offered
                    .iter()
                    .position(|o| o == name)
                    .and_then(|i| u8::try_from(i).ok())
                    .ok_or_else(|| PiError::V3dUnsupported {
                        problem: format!("the kernel offers no performance counter named {name:?}"),
                    })
            })
            .collect::<Result<Vec<u8>, PiError>>()?;
        let id = self.driver.perfmon_create(&indices)?;
        let ran = self.launch_counted(dispatch, buffers, timeout, Some(id));
        let values = ran.and_then(|()| self.driver.perfmon_values(id, indices.len()));
        let destroyed = self.driver.perfmon_destroy(id);
        let values = values?;
        destroyed?;
        Ok(counters.iter().map(|n| n.to_string()).zip(values).collect())
    }

    fn launch_counted(
        &self,
        dispatch: &Dispatch,
        buffers: &mut [LaunchBuffer<'_>],
        timeout: Duration,
        perfmon: Option<u32>,
    ) -> Result<(), PiError> {
        let cfg = dispatch.config_words(self.info.version, self.info.revision)?;
        if buffers.is_empty() {
            return Err(PiError::V3dUnsupported {
                problem: "a launch needs at least the buffer holding its code".to_string(),
            });
        }
        // The buffer object each slice lies in, and the slice's word range in it.
        let mut lent: Vec<(Arc<BufferState>, usize)> = Vec::with_capacity(buffers.len());
        for (index, buffer) in buffers.iter().enumerate() {
            let words = buffer.words();
            let Some((state, offset)) = self.buffers.resolve(words) else {
                return Err(PiError::V3dNotBufferMemory {
                    index,
                    host_address: words.as_ptr().addr(),
                    len: words.len(),
                });
            };
            if !state.valid.load(Ordering::Acquire) {
                return Err(PiError::V3dLaunchBufferInvalid {
                    index,
                    gpu_address: state.gpu_address + 4 * offset as u32,
                });
            }
            lent.push((state, offset));
        }
        let mut handles: Vec<u32> = Vec::with_capacity(lent.len());
        let mut uncovered: Vec<Uncovered> = Vec::new();
        for (index, (state, _)) in lent.iter().enumerate() {
            if handles.contains(&state.handle) {
                continue;
            }
            handles.push(state.handle);
            // The gaps between the slices lying in this buffer object.
            let mut ranges: Vec<(usize, usize)> = lent
                .iter()
                .zip(buffers.iter())
                .filter(|((other, _), _)| other.handle == state.handle)
                .map(|((_, offset), buffer)| (*offset, offset + buffer.words().len()))
                .collect();
            ranges.sort_unstable();
            let mut gaps = Vec::new();
            let mut next = 0;
            for (start, end) in ranges
                .into_iter()
                .chain([(state.len_words, state.len_words)])
            {
                if start > next {
                    let before = (next..start)
                        // SAFETY: `i < start <= len_words`, and the buffer's mapping lives
                        // while `buffers`, whose slices lie in it, are borrowed.
                        .map(|i| unsafe { state.read_word(i) })
                        .collect();
                    gaps.push((next, before));
                }
                next = next.max(end);
            }
            if !gaps.is_empty() {
                uncovered.push(Uncovered {
                    index,
                    state: Arc::clone(state),
                    gaps,
                });
            }
        }
        let read_only: Vec<Option<Vec<u32>>> = buffers
            .iter()
            .map(|buffer| match buffer {
                LaunchBuffer::Read(words) => Some(read_volatile_words(words)),
                LaunchBuffer::Write(_) => None,
            })
            .collect();
        for buffer in buffers.iter_mut() {
            if let LaunchBuffer::Write(words) = buffer {
                // The job writes through GPU addresses the host handed it, as a syscall writes
                // into a buffer it was lent: exposing the exclusive borrow's provenance makes
                // those foreign writes ones this borrow permits (as `Gpu::launch_buffers`).
                let _ = words.as_mut_ptr().expose_provenance();
            }
        }

        match perfmon {
            Some(id) => self.driver.submit_csd_counted(cfg, &handles, id)?,
            None => self.driver.submit_csd(cfg, &handles)?,
        }
        // Jobs on one node run in submission order, so waiting on each buffer the job uses
        // waits for the job (py-videocore6 `Driver.execute`).
        for &handle in &handles {
            if let Err(error) = self.driver.wait_bo(handle, timeout) {
                self.buffers.invalidate();
                return Err(error);
            }
        }

        for Uncovered { index, state, gaps } in &uncovered {
            for (start, before) in gaps {
                let changed = before.iter().enumerate().find(|&(offset, &word)| {
                    // SAFETY: the gap lies in the buffer (`start + offset < len_words`), whose
                    // mapping lives while `buffers` are borrowed.
                    word != unsafe { state.read_word(start + offset) }
                });
                if let Some((offset, _)) = changed {
                    return Err(PiError::V3dOutsideSliceWritten {
                        index: *index,
                        gpu_address: state.gpu_address + 4 * (start + offset) as u32,
                    });
                }
            }
        }
        for (index, before) in read_only.iter().enumerate() {
            let Some(before) = before else {
                continue;
            };
            let (state, slice_offset) = &lent[index];
            let changed = before.iter().enumerate().find(|&(offset, &word)| {
                // Read through the mapping's own provenance, not the shared borrow, which
                // promised the words would not change.
                // SAFETY: word `offset` of a slice lying in the buffer (resolved above), whose
                // mapping lives while the slice is borrowed.
                word != unsafe { state.read_word(slice_offset + offset) }
            });
            if let Some((offset, _)) = changed {
                return Err(PiError::V3dReadOnlyWritten {
                    index,
                    gpu_address: state.gpu_address + 4 * (slice_offset + offset) as u32,
                });
            }
        }
        Ok(())
    }
}

/// A buffer object: memory the ARM and the QPUs share. Released (unmapped, then closed) on
/// drop.
pub struct V3dBuffer {
    driver: Arc<dyn V3dDriver>,
    handle: u32,
    gpu_address: u32,
    words: MappedWords,
    state: Arc<BufferState>,
}

impl std::fmt::Debug for V3dBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("V3dBuffer")
            .field("handle", &self.handle)
            .field("gpu_address", &format_args!("0x{:08x}", self.gpu_address))
            .field("len_words", &self.len_words())
            .field("valid", &self.is_valid())
            .finish()
    }
}

impl V3dBuffer {
    /// The GPU address of word 0.
    pub fn gpu_address(&self) -> u32 {
        self.gpu_address
    }

    /// The GPU address of word `index`.
    pub fn gpu_address_of(&self, index: usize) -> Result<u32, PiError> {
        check_range(index, 1, self.len_words())?;
        Ok(self.gpu_address + index as u32 * 4)
    }

    /// Length in 32-bit words.
    pub fn len_words(&self) -> usize {
        self.words.len_words()
    }

    /// The driver's handle (what a launch lists).
    pub fn handle(&self) -> u32 {
        self.handle
    }

    /// False after a launch on this device failed or timed out, until [`Self::mark_valid`].
    pub fn is_valid(&self) -> bool {
        self.state.valid.load(Ordering::Acquire)
    }

    /// Declares the contents trustworthy again: the caller knows no job of a failed launch
    /// still writes this buffer (the GPU has been reset since, or the job never reached it),
    /// and has rewritten what it needs (with [`Self::write_words`]).
    pub fn mark_valid(&self) {
        self.state.valid.store(true, Ordering::Release);
    }

    /// The whole buffer as a slice of its mapping: reads go straight to the memory the QPUs
    /// see, with no copy.
    ///
    /// Fails with [`PiError::V3dBufferInvalid`] while the buffer is marked invalid: a launch
    /// on this device failed or timed out, so its job may still be writing, and no Rust
    /// reference to the memory may exist while the GPU writes it. Rewrite it with
    /// [`Self::write_words`] (word accesses, no references) and call [`Self::mark_valid`], or
    /// copy out what is left with [`Self::salvage_words`].
    pub fn as_words(&self) -> Result<&[u32], PiError> {
        self.words.as_words(self.is_valid())
    }

    /// The whole buffer as a mutable slice of its mapping: writes land in the memory the QPUs
    /// read, with no copy. Fails like [`Self::as_words`] while the buffer is invalid.
    pub fn as_words_mut(&mut self) -> Result<&mut [u32], PiError> {
        let valid = self.is_valid();
        self.words.as_words_mut(valid)
    }

    /// Reads `out.len()` words starting at `start` whether or not the buffer is valid, one
    /// volatile word at a time (no reference to the memory is made). After a failed launch
    /// this is what is left: possibly half-written, and possibly still changing.
    pub fn salvage_words(&self, start: usize, out: &mut [u32]) -> Result<(), PiError> {
        self.words.salvage(start, out)
    }

    /// Reads word `index` (refused while the buffer is invalid).
    pub fn read_u32(&self, index: usize) -> Result<u32, PiError> {
        let mut word = [0];
        self.words.read_words(self.is_valid(), index, &mut word)?;
        Ok(word[0])
    }

    /// Writes word `index`. Writing is allowed on an invalid buffer (to refill it).
    pub fn write_u32(&mut self, index: usize, value: u32) -> Result<(), PiError> {
        self.words.write_words(index, &[value])
    }

    /// Writes `values` from word `start` on (also on an invalid buffer).
    pub fn write_words(&mut self, start: usize, values: &[u32]) -> Result<(), PiError> {
        self.words.write_words(start, values)
    }

    /// Reads `count` words from word `start` on (refused while the buffer is invalid).
    pub fn read_words(&self, start: usize, count: usize) -> Result<Vec<u32>, PiError> {
        check_range(start, count, self.len_words())?;
        let mut words = vec![0; count];
        self.words.read_words(self.is_valid(), start, &mut words)?;
        Ok(words)
    }
}

impl Drop for V3dBuffer {
    fn drop(&mut self) {
        // Launches must stop resolving slices to this buffer before its addresses can be
        // reused by another mapping.
        self.state.host_address.store(0, Ordering::Release);
        // Unmap first (py-videocore6 `Memory.close`), then give the object back; a failure
        // here has nobody to report to, and the kernel frees the object at close anyway.
        self.words.release();
        let _ = self.driver.close_bo(self.handle);
    }
}

#[cfg(test)]
mod tests;

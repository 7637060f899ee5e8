//! The real `v3d` DRM node: `open`, the driver's ioctls and `mmap`.
//!
//! Facts used:
//! - DRM ioctls are type `'d'`; driver-specific ones start at command 0x40
//!   (`DRM_COMMAND_BASE`); `DRM_IOCTL_VERSION` is command 0x00 and `DRM_IOCTL_GEM_CLOSE`
//!   0x09 with `{u32 handle; u32 pad}` (Linux `include/uapi/drm/drm.h`).
//! - v3d commands (Mesa `include/drm-uapi/v3d_drm.h`, py-videocore6 `drm_v3d.py`):
//!   WAIT_BO 0x01 `{u32 handle; u32 pad; u64 timeout_ns}`, CREATE_BO 0x02 `{u32 size; u32
//!   flags; u32 handle; u32 offset}` (offset: the GPU address), MMAP_BO 0x03 `{u32 handle; u32
//!   flags; u64 offset}` (offset: what to pass to `mmap`), GET_PARAM 0x04 `{u32 param; u32 pad;
//!   u64 value}`, all read-write; SUBMIT_CSD 0x07, write-only. SUBMIT_CSD's struct has grown
//!   over kernel versions; the request number carries the size, and the DRM core zero-fills
//!   fields a caller leaves out. This passes the form up to the performance monitor:
//!   `{u32 cfg[7]; u32 coef[4]; u64 bo_handles; u32 bo_handle_count; u32 in_sync; u32
//!   out_sync; u32 perfmon_id}`, 72 bytes, the size py-videocore6's shorter form (without
//!   `perfmon_id`) also rounds up to.
//! - WAIT_BO fails with ETIME when the timeout passes (Linux `v3d_wait_bo_ioctl`).

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::time::Duration;

use super::{Param, V3dDriver};
use crate::error::PiError;
use crate::ioctl::{iow, iowr};
use crate::memory::MappedRegion;

const DRM_TYPE: u8 = b'd';
const COMMAND_BASE: u8 = 0x40;

#[repr(C)]
struct DrmVersion {
    major: libc::c_int,
    minor: libc::c_int,
    patchlevel: libc::c_int,
    name_len: libc::size_t,
    name: *mut libc::c_char,
    date_len: libc::size_t,
    date: *mut libc::c_char,
    desc_len: libc::size_t,
    desc: *mut libc::c_char,
}

#[repr(C)]
struct GemClose {
    handle: u32,
    pad: u32,
}

#[repr(C)]
struct WaitBo {
    handle: u32,
    pad: u32,
    timeout_ns: u64,
}

#[repr(C)]
struct CreateBo {
    size: u32,
    flags: u32,
    handle: u32,
    offset: u32,
}

#[repr(C)]
struct MmapBo {
    handle: u32,
    flags: u32,
    offset: u64,
}

#[repr(C)]
struct GetParam {
    param: u32,
    pad: u32,
    value: u64,
}

/// SUBMIT_CSD up to `perfmon_id` (Linux 5.x on: the monitor counting the job; 0 for none).
#[repr(C)]
struct SubmitCsdCounted {
    cfg: [u32; 7],
    coef: [u32; 4],
    bo_handles: u64,
    bo_handle_count: u32,
    in_sync: u32,
    out_sync: u32,
    perfmon_id: u32,
}

/// Performance monitors (Mesa `include/drm-uapi/v3d_drm.h`): CREATE 0x08 `{u32 id; u32
/// ncounters; u8 counters[32]}`, DESTROY 0x09 `{u32 id}`, GET_VALUES 0x0a `{u32 id; u32 pad;
/// u64 values_ptr}`, GET_COUNTER 0x0c `{u8 counter; u8 name[64]; u8 category[32]; u8
/// description[256]; u8 reserved[7]}`, all read-write.
#[repr(C)]
struct PerfmonCreate {
    id: u32,
    ncounters: u32,
    counters: [u8; 32],
}

#[repr(C)]
struct PerfmonDestroy {
    id: u32,
}

#[repr(C)]
struct PerfmonGetValues {
    id: u32,
    pad: u32,
    values_ptr: u64,
}

#[repr(C)]
struct PerfmonGetCounter {
    counter: u8,
    name: [u8; 64],
    category: [u8; 32],
    description: [u8; 256],
    reserved: [u8; 7],
}

/// Request numbers (`_IOWR`/`_IOW` of each struct's size).
pub(crate) mod request {
    use super::*;
    const fn known(request: Option<u32>) -> u32 {
        match request {
            Some(r) => r,
            None => 0,
        }
    }
    pub const VERSION: u32 = known(iowr(DRM_TYPE, 0x00, size_of::<DrmVersion>()));
    pub const GEM_CLOSE: u32 = known(iow(DRM_TYPE, 0x09, size_of::<GemClose>()));
    pub const WAIT_BO: u32 = known(iowr(DRM_TYPE, COMMAND_BASE + 1, size_of::<WaitBo>()));
    pub const CREATE_BO: u32 = known(iowr(DRM_TYPE, COMMAND_BASE + 2, size_of::<CreateBo>()));
    pub const MMAP_BO: u32 = known(iowr(DRM_TYPE, COMMAND_BASE + 3, size_of::<MmapBo>()));
    pub const GET_PARAM: u32 = known(iowr(DRM_TYPE, COMMAND_BASE + 4, size_of::<GetParam>()));
    pub const SUBMIT_CSD: u32 = known(iow(
        DRM_TYPE,
        COMMAND_BASE + 7,
        size_of::<SubmitCsdCounted>(),
    ));
    pub const PERFMON_CREATE: u32 =
        known(iowr(DRM_TYPE, COMMAND_BASE + 8, size_of::<PerfmonCreate>()));
    pub const PERFMON_DESTROY: u32 = known(iowr(
        DRM_TYPE,
        COMMAND_BASE + 9,
        size_of::<PerfmonDestroy>(),
    ));
    pub const PERFMON_GET_VALUES: u32 = known(iowr(
        DRM_TYPE,
        COMMAND_BASE + 0x0a,
        size_of::<PerfmonGetValues>(),
    ));
    pub const PERFMON_GET_COUNTER: u32 = known(iowr(
        DRM_TYPE,
        COMMAND_BASE + 0x0c,
        size_of::<PerfmonGetCounter>(),
    ));
}

/// The render nodes of this machine, in name order.
pub fn render_nodes() -> Vec<PathBuf> {
    let mut nodes: Vec<PathBuf> = std::fs::read_dir("/dev/dri")
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("renderD"))
        })
        .collect();
    nodes.sort();
    nodes
}

/// An open DRM node.
#[derive(Debug)]
pub struct RenderNode {
    file: File,
    path: String,
}

/// What an errno from the v3d driver means, for the error message.
fn hint(call: &str, errno: Option<i32>) -> String {
    match errno {
        Some(libc::EACCES | libc::EPERM) if call == "open" => {
            ". Fix: add this user to the group owning the node (on Raspberry Pi OS `sudo \
             usermod -aG render $USER`, then log in again); root is not needed"
                .to_string()
        }
        Some(libc::EACCES) => {
            ". The v3d driver refuses job submission from an unauthenticated client: open the \
             render node (/dev/dri/renderD*), not the card node"
                .to_string()
        }
        Some(libc::ENOTTY | libc::EINVAL) if call == "DRM_IOCTL_VERSION" => {
            " (not a DRM device)".to_string()
        }
        Some(libc::ENOMEM) if call == "DRM_IOCTL_V3D_CREATE_BO" => {
            ". The GPU's memory (CMA on Raspberry Pi OS) is exhausted: free buffers, or raise \
             the `cma` size in the dtoverlay=vc4-kms-v3d line"
                .to_string()
        }
        _ => String::new(),
    }
}

impl RenderNode {
    /// Opens `path` read-write.
    pub fn open(path: &Path) -> Result<RenderNode, PiError> {
        let node = path.display().to_string();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|source| PiError::DrmCall {
                call: "open",
                hint: hint("open", source.raw_os_error()),
                node: node.clone(),
                source,
            })?;
        Ok(RenderNode { file, path: node })
    }

    fn fail(&self, call: &'static str, source: io::Error) -> PiError {
        PiError::DrmCall {
            call,
            hint: hint(call, source.raw_os_error()),
            node: self.path.clone(),
            source,
        }
    }

    /// One ioctl on this node, retried when a signal interrupts it (as libdrm's `drmIoctl`).
    ///
    /// # Safety
    /// `request` must be the request number of `T`'s ioctl, so the kernel reads and writes
    /// exactly a `T`.
    unsafe fn ioctl<T>(
        &self,
        call: &'static str,
        request: u32,
        arg: &mut T,
    ) -> Result<(), PiError> {
        loop {
            // SAFETY: the caller guarantees the request matches `T`; `arg` is a live, exclusive
            // `T` for the duration of the call, and the descriptor is open for `self`'s life.
            let r = unsafe {
                libc::ioctl(
                    self.file.as_raw_fd(),
                    request as _,
                    std::ptr::from_mut(arg).cast::<libc::c_void>(),
                )
            };
            if r == 0 {
                return Ok(());
            }
            let error = io::Error::last_os_error();
            if !matches!(error.raw_os_error(), Some(libc::EINTR | libc::EAGAIN)) {
                return Err(self.fail(call, error));
            }
        }
    }
}

impl V3dDriver for RenderNode {
    fn node(&self) -> String {
        self.path.clone()
    }

    fn driver_name(&self) -> Result<String, PiError> {
        let mut name = [0u8; 64];
        let mut version = DrmVersion {
            major: 0,
            minor: 0,
            patchlevel: 0,
            name_len: name.len(),
            name: name.as_mut_ptr().cast(),
            date_len: 0,
            date: std::ptr::null_mut(),
            desc_len: 0,
            desc: std::ptr::null_mut(),
        };
        // SAFETY: VERSION is DRM_IOCTL_VERSION for `DrmVersion`; the kernel writes at most
        // `name_len` bytes to `name` (a live 64-byte buffer) and nothing through the null date
        // and description pointers, whose lengths are 0.
        unsafe { self.ioctl("DRM_IOCTL_VERSION", request::VERSION, &mut version)? };
        // The kernel reports the full length and copies at most the buffer's.
        let len = version.name_len.min(name.len());
        Ok(String::from_utf8_lossy(&name[..len]).into_owned())
    }

    fn get_param(&self, param: Param) -> Result<u64, PiError> {
        let mut arg = GetParam {
            param: param as u32,
            pad: 0,
            value: 0,
        };
        // SAFETY: GET_PARAM is the request for `GetParam`.
        unsafe { self.ioctl("DRM_IOCTL_V3D_GET_PARAM", request::GET_PARAM, &mut arg)? };
        Ok(arg.value)
    }

    fn create_bo(&self, bytes: u32) -> Result<(u32, u32), PiError> {
        let mut arg = CreateBo {
            size: bytes,
            flags: 0,
            handle: 0,
            offset: 0,
        };
        // SAFETY: CREATE_BO is the request for `CreateBo`.
        unsafe { self.ioctl("DRM_IOCTL_V3D_CREATE_BO", request::CREATE_BO, &mut arg)? };
        Ok((arg.handle, arg.offset))
    }

    fn map_bo(&self, handle: u32, bytes: u32) -> Result<Box<dyn MappedRegion>, PiError> {
        let mut arg = MmapBo {
            handle,
            flags: 0,
            offset: 0,
        };
        // SAFETY: MMAP_BO is the request for `MmapBo`.
        unsafe { self.ioctl("DRM_IOCTL_V3D_MMAP_BO", request::MMAP_BO, &mut arg)? };
        let offset = libc::off_t::try_from(arg.offset).map_err(|_| {
            PiError::Internal(format!(
                "MMAP_BO offset 0x{:x} does not fit off_t",
                arg.offset
            ))
        })?;
        let len = bytes as usize;
        // SAFETY: a null hint makes mmap choose a fresh range, aliasing no Rust object; the
        // descriptor is this open node and `offset` the fake offset the driver just gave for
        // this buffer, which the kernel checks (MAP_FAILED is handled below).
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                self.file.as_raw_fd(),
                offset,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(self.fail("mmap", io::Error::last_os_error()));
        }
        Ok(Box::new(BoMapping {
            base,
            len_words: len / 4,
        }))
    }

    fn submit_csd(&self, cfg: [u32; 7], handles: &[u32]) -> Result<(), PiError> {
        // The struct up to `perfmon_id`, 0 for no monitor: the shorter form's size rounds up
        // to the same 72 bytes, and its last four are padding Rust leaves undefined, which the
        // kernel would read as a monitor id.
        self.submit_csd_counted(cfg, handles, 0)
    }

    fn wait_bo(&self, handle: u32, timeout: Duration) -> Result<(), PiError> {
        let mut arg = WaitBo {
            handle,
            pad: 0,
            timeout_ns: u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX),
        };
        // SAFETY: WAIT_BO is the request for `WaitBo`.
        match unsafe { self.ioctl("DRM_IOCTL_V3D_WAIT_BO", request::WAIT_BO, &mut arg) } {
            Err(PiError::DrmCall { source, .. })
                if matches!(source.raw_os_error(), Some(libc::ETIME | libc::ETIMEDOUT)) =>
            {
                Err(PiError::V3dTimeout { timeout })
            }
            other => other,
        }
    }

    fn close_bo(&self, handle: u32) -> Result<(), PiError> {
        let mut arg = GemClose { handle, pad: 0 };
        // SAFETY: GEM_CLOSE is the request for `GemClose`.
        unsafe { self.ioctl("DRM_IOCTL_GEM_CLOSE", request::GEM_CLOSE, &mut arg) }
    }

    fn perfmon_counter_name(&self, index: u8) -> Result<Option<String>, PiError> {
        let mut arg = PerfmonGetCounter {
            counter: index,
            name: [0; 64],
            category: [0; 32],
            description: [0; 256],
            reserved: [0; 7],
        };
        // SAFETY: PERFMON_GET_COUNTER is the request for `PerfmonGetCounter`.
        let got = unsafe {
            self.ioctl(
                "DRM_IOCTL_V3D_PERFMON_GET_COUNTER",
                request::PERFMON_GET_COUNTER,
                &mut arg,
            )
        };
        match got {
            Ok(()) => {
                let len = arg.name.iter().position(|&b| b == 0).unwrap_or(64);
                Ok(Some(String::from_utf8_lossy(&arg.name[..len]).into_owned()))
            }
            // Past the last counter (Linux `v3d_perfmon_get_counter_ioctl`).
            Err(PiError::DrmCall { source, .. })
                if source.raw_os_error() == Some(libc::EINVAL) && index > 0 =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    fn perfmon_create(&self, indices: &[u8]) -> Result<u32, PiError> {
        let mut arg = PerfmonCreate {
            id: 0,
            ncounters: indices.len() as u32,
            counters: [0; 32],
        };
        arg.counters[..indices.len()].copy_from_slice(indices);
        // SAFETY: PERFMON_CREATE is the request for `PerfmonCreate`.
        unsafe {
            self.ioctl(
                "DRM_IOCTL_V3D_PERFMON_CREATE",
                request::PERFMON_CREATE,
                &mut arg,
            )?
        };
        Ok(arg.id)
    }

    fn perfmon_values(&self, id: u32, count: usize) -> Result<Vec<u64>, PiError> {
        let mut values = vec![0u64; count.max(1)];
        let mut arg = PerfmonGetValues {
            id,
            pad: 0,
            values_ptr: values.as_mut_ptr() as u64,
        };
        // SAFETY: PERFMON_GET_VALUES is the request for `PerfmonGetValues`; `values_ptr`
        // points at `values`, which holds the monitor's `count` counters (the kernel writes
        // exactly as many as the monitor was created with) and outlives the call.
        unsafe {
            self.ioctl(
                "DRM_IOCTL_V3D_PERFMON_GET_VALUES",
                request::PERFMON_GET_VALUES,
                &mut arg,
            )?
        };
        values.truncate(count);
        Ok(values)
    }

    fn perfmon_destroy(&self, id: u32) -> Result<(), PiError> {
        let mut arg = PerfmonDestroy { id };
        // SAFETY: PERFMON_DESTROY is the request for `PerfmonDestroy`.
        unsafe {
            self.ioctl(
                "DRM_IOCTL_V3D_PERFMON_DESTROY",
                request::PERFMON_DESTROY,
                &mut arg,
            )
        }
    }

    fn submit_csd_counted(
        &self,
        cfg: [u32; 7],
        handles: &[u32],
        perfmon: u32,
    ) -> Result<(), PiError> {
        let mut arg = SubmitCsdCounted {
            cfg,
            coef: [0; 4],
            bo_handles: handles.as_ptr() as u64,
            bo_handle_count: handles.len() as u32,
            in_sync: 0,
            out_sync: 0,
            perfmon_id: perfmon,
        };
        // SAFETY: SUBMIT_CSD is the request for `SubmitCsdCounted`; `bo_handles` points at `handles`, which outlives
        // the call, with the count the kernel reads.
        unsafe { self.ioctl("DRM_IOCTL_V3D_SUBMIT_CSD", request::SUBMIT_CSD, &mut arg) }
    }
}

/// One buffer object's mapping; unmapped on drop.
struct BoMapping {
    base: *mut libc::c_void,
    len_words: usize,
}

// SAFETY: the mapping is owned by this value alone; every access is a single volatile word.
unsafe impl Send for BoMapping {}

// SAFETY: `base` is the start of a fresh `mmap` of `len_words * 4` bytes (page-aligned, so
// u32-aligned), readable and writable, unmapped only in `drop`; a null-hint mmap picks
// addresses no Rust allocation uses, and the region hands out no references itself.
unsafe impl MappedRegion for BoMapping {
    fn len_words(&self) -> usize {
        self.len_words
    }

    fn read_word(&self, index: usize) -> u32 {
        if index >= self.len_words {
            return 0;
        }
        // SAFETY: index < len_words, inside the live mapping; volatile because the GPU writes
        // it behind the compiler's back.
        unsafe { self.base.cast::<u32>().add(index).read_volatile() }
    }

    fn write_word(&mut self, index: usize, value: u32) {
        if index >= self.len_words {
            return;
        }
        // SAFETY: as in read_word; the mapping is writable.
        unsafe { self.base.cast::<u32>().add(index).write_volatile(value) }
    }

    fn memory_words(&self) -> Option<NonNull<u32>> {
        NonNull::new(self.base.cast::<u32>())
    }
}

impl Drop for BoMapping {
    fn drop(&mut self) {
        // SAFETY: base and length are what mmap returned and was given; dropped once, and no
        // reference into the window outlives the buffer that owns this mapping.
        unsafe {
            libc::munmap(self.base, self.len_words * 4);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_numbers_match_the_hand_encoded_values() {
        // _IOWR('d', 0x42, 16 bytes): dir 3 << 30, size 0x10 << 16, type 0x64 << 8, nr 0x42.
        assert_eq!(request::CREATE_BO, 0xC010_6442);
        assert_eq!(request::WAIT_BO, 0xC010_6441);
        assert_eq!(request::MMAP_BO, 0xC010_6443);
        assert_eq!(request::GET_PARAM, 0xC010_6444);
        // PERFMON_CREATE: 40 bytes, nr 0x48; GET_VALUES: 16 bytes, nr 0x4a; GET_COUNTER: 360
        // bytes (0x168), nr 0x4c.
        assert_eq!(request::PERFMON_CREATE, 0xC028_6448);
        assert_eq!(request::PERFMON_DESTROY, 0xC004_6449);
        assert_eq!(request::PERFMON_GET_VALUES, 0xC010_644A);
        assert_eq!(request::PERFMON_GET_COUNTER, 0xC168_644C);
        // _IOW('d', 0x47, 72 bytes): dir 1 << 30, 0x48 << 16.
        assert_eq!(size_of::<SubmitCsdCounted>(), 72);
        assert_eq!(request::SUBMIT_CSD, 0x4048_6447);
        // _IOW('d', 0x09, 8 bytes).
        assert_eq!(request::GEM_CLOSE, 0x4008_6409);
        // drm_version: three ints, then three (length, pointer) pairs.
        let expected = if cfg!(target_pointer_width = "64") {
            0xC040_6400
        } else {
            0xC024_6400
        };
        assert_eq!(request::VERSION, expected);
    }

    #[test]
    fn a_missing_node_is_an_open_error_naming_it() {
        let error = RenderNode::open(Path::new("/nonexistent/renderD999")).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("open on /nonexistent/renderD999"), "{text}");
    }

    #[test]
    fn a_non_drm_file_is_not_taken_for_the_gpu() {
        // /dev/null opens but answers no DRM ioctl.
        let Ok(node) = RenderNode::open(Path::new("/dev/null")) else {
            return;
        };
        let error = node.driver_name().unwrap_err();
        assert!(error.to_string().contains("DRM_IOCTL_VERSION"), "{error}");
        let found = super::super::find_v3d(&[PathBuf::from("/dev/null")], RenderNode::open);
        assert!(matches!(found, Err(PiError::NoV3dNode { .. })), "{found:?}");
    }
}

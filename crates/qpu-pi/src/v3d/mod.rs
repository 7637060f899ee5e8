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

pub mod csd;
#[cfg(target_os = "linux")]
pub mod drm;
pub mod standin;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::error::PiError;
use crate::memory::{check_range, MappedRegion};

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

/// An open V3D: its driver node and what it is.
pub struct V3d {
    driver: Arc<dyn V3dDriver>,
    info: V3dInfo,
}

impl std::fmt::Debug for V3d {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("V3d").field("info", &self.info).finish()
    }
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
        Ok(V3d { driver, info })
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
        Ok(V3dBuffer {
            driver: Arc::clone(&self.driver),
            handle,
            gpu_address,
            region: Some(region),
            len_words: rounded as usize / 4,
        })
    }

    /// Runs `dispatch` and waits up to `timeout` for it. `buffers` are every buffer the job
    /// reads or writes (code, uniforms, data): the kernel keeps them alive while the job runs,
    /// and the wait is on them.
    pub fn launch(
        &self,
        dispatch: &Dispatch,
        buffers: &[&V3dBuffer],
        timeout: Duration,
    ) -> Result<(), PiError> {
        let cfg = dispatch.config_words(self.info.version, self.info.revision)?;
        let handles: Vec<u32> = buffers.iter().map(|b| b.handle).collect();
        if handles.is_empty() {
            return Err(PiError::V3dUnsupported {
                problem: "a launch needs at least the buffer holding its code".to_string(),
            });
        }
        self.driver.submit_csd(cfg, &handles)?;
        // Jobs on one node run in submission order, so waiting on each buffer the job uses
        // waits for the job (py-videocore6 `Driver.execute`).
        for &handle in &handles {
            self.driver.wait_bo(handle, timeout)?;
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
    region: Option<Box<dyn MappedRegion>>,
    len_words: usize,
}

impl std::fmt::Debug for V3dBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("V3dBuffer")
            .field("handle", &self.handle)
            .field("gpu_address", &format_args!("0x{:08x}", self.gpu_address))
            .field("len_words", &self.len_words)
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
        check_range(index, 1, self.len_words)?;
        Ok(self.gpu_address + index as u32 * 4)
    }

    /// Length in 32-bit words.
    pub fn len_words(&self) -> usize {
        self.len_words
    }

    /// The driver's handle (for [`V3d::launch`]'s buffer list).
    pub fn handle(&self) -> u32 {
        self.handle
    }

    fn region(&self) -> Result<&dyn MappedRegion, PiError> {
        self.region
            .as_deref()
            .ok_or_else(|| PiError::Internal("V3D buffer used after release".to_string()))
    }

    /// Reads word `index`.
    pub fn read_u32(&self, index: usize) -> Result<u32, PiError> {
        check_range(index, 1, self.len_words)?;
        Ok(self.region()?.read_word(index))
    }

    /// Writes word `index`.
    pub fn write_u32(&mut self, index: usize, value: u32) -> Result<(), PiError> {
        check_range(index, 1, self.len_words)?;
        let region = self
            .region
            .as_deref_mut()
            .ok_or_else(|| PiError::Internal("V3D buffer used after release".to_string()))?;
        region.write_word(index, value);
        Ok(())
    }

    /// Writes `values` from word `start` on.
    pub fn write_words(&mut self, start: usize, values: &[u32]) -> Result<(), PiError> {
        check_range(start, values.len(), self.len_words)?;
        for (i, &v) in values.iter().enumerate() {
            self.write_u32(start + i, v)?;
        }
        Ok(())
    }

    /// Reads `count` words from word `start` on.
    pub fn read_words(&self, start: usize, count: usize) -> Result<Vec<u32>, PiError> {
        check_range(start, count, self.len_words)?;
        let region = self.region()?;
        Ok((start..start + count)
            .map(|i| region.read_word(i))
            .collect())
    }
}

impl Drop for V3dBuffer {
    fn drop(&mut self) {
        // Unmap first (py-videocore6 `Memory.close`), then give the object back; a failure
        // here has nobody to report to, and the kernel frees the object at close anyway.
        drop(self.region.take());
        let _ = self.driver.close_bo(self.handle);
    }
}

#[cfg(test)]
mod tests;

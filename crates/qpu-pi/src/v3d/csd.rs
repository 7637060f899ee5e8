//! Compute dispatches: the seven configuration words of a CSD job.
//!
//! Facts used (Mesa `v3d_launch_grid` in `src/gallium/drivers/v3d/v3dx_draw.c`, py-videocore6
//! `Driver.execute`, the kernel's `v3d_csd_job_run`):
//! - words 0–2: workgroup counts X, Y, Z in bits 31:16 (bits 15:0: the first workgroup id);
//! - word 3: invocations per workgroup in bits 7:0, workgroups per supergroup in bits 11:8
//!   (4 bits: 16 is written as 0), batches per supergroup minus one in bits 15:12, where a
//!   batch is 16 invocations (one QPU thread);
//! - word 4: the number of batches minus one on 4.2 and on 7.1 before revision 6; the number
//!   itself from 7.1.6 on (the Pi 5 is 7.1.7);
//! - word 5: the code address (8-byte aligned), with flags in bits 2:0 (bit 0: four threads
//!   per QPU, left clear here);
//! - word 6: the uniforms address.
//!
//! "Run the program once on each of N QPU threads" is py-videocore6's default dispatch (proven
//! on Pi 4s): workgroups (16, 1, 1) of 16 invocations, 16 workgroups per supergroup and N
//! batches, each starting at the same uniforms address.

use super::V3dVersion;
use crate::error::PiError;

/// One compute dispatch of a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dispatch {
    /// GPU address of the program's first instruction.
    pub code: u32,
    /// GPU address of the uniforms stream every batch starts reading (0: none).
    pub uniforms: u32,
    /// QPU thread launches (16 lanes each).
    pub batches: u32,
}

/// Invocations per workgroup and workgroups per supergroup of the default dispatch.
const WORKGROUP_SIZE: u32 = 16;
const WORKGROUPS_PER_SUPERGROUP: u32 = 16;

impl Dispatch {
    /// The configuration words for a V3D of `version` and hub `revision`.
    pub fn config_words(&self, version: V3dVersion, revision: u32) -> Result<[u32; 7], PiError> {
        if self.code == 0 || !self.code.is_multiple_of(8) {
            return Err(PiError::V3dUnsupported {
                problem: format!(
                    "the code address 0x{:08x} must be a non-zero multiple of 8",
                    self.code
                ),
            });
        }
        if !self.uniforms.is_multiple_of(4) {
            return Err(PiError::V3dUnsupported {
                problem: format!(
                    "the uniforms address 0x{:08x} must be a multiple of 4",
                    self.uniforms
                ),
            });
        }
        if self.batches == 0 {
            return Err(PiError::V3dUnsupported {
                problem: "a dispatch needs at least one batch".to_string(),
            });
        }
        let invocations = WORKGROUPS_PER_SUPERGROUP * WORKGROUP_SIZE;
        let batches_per_supergroup = invocations.div_ceil(16);
        let word3 = WORKGROUP_SIZE
            | ((WORKGROUPS_PER_SUPERGROUP & 0xf) << 8)
            | ((batches_per_supergroup - 1) << 12);
        let counts_batches_minus_one = match version {
            V3dVersion::V42 => true,
            V3dVersion::V71 => revision < 6,
        };
        let word4 = if counts_batches_minus_one {
            self.batches - 1
        } else {
            self.batches
        };
        Ok([
            WORKGROUP_SIZE << 16,
            1 << 16,
            1 << 16,
            word3,
            word4,
            self.code,
            self.uniforms,
        ])
    }

    /// The number of batches a set of configuration words asks for (the inverse of word 4's
    /// rule): used by the stand-in to run what the words say.
    pub fn batches_of(cfg: &[u32; 7], version: V3dVersion, revision: u32) -> u32 {
        match version {
            V3dVersion::V71 if revision >= 6 => cfg[4],
            _ => cfg[4].saturating_add(1),
        }
    }
}

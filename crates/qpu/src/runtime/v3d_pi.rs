//! A Pi 4 or Pi 5 as a [`Backend`] (`QPU_BACKEND=pi-v3d`): kernels compiled by the
//! first-slice V3D compiler ([`crate::compile::v3d`]) run on the GPU through the Linux `v3d`
//! DRM driver ([`qpu_pi::v3d`]).
//!
//! **Not yet run on hardware by the project**: it is tested against `qpu_pi`'s stand-in of the
//! driver contract with the V3D emulator executing the jobs (`tests/v3d_pi_backend.rs`).
//!
//! This first version keeps shared arrays in host memory and copies them for each run: the
//! code, the uniforms and every argument array go into buffer objects (the arrays' pointers in
//! the uniforms rewritten to their buffers' GPU addresses), one CSD job runs one batch per
//! QPU, and after the wait the arrays passed as `&mut` are copied back; an array passed as
//! `&SharedArray` that the kernel changed is an error. The buffers are released after each
//! run, on failure as well as on success.

use std::time::{Duration, Instant};

use qpu_isa::v3d::V3dVersion as IsaVersion;
use qpu_pi::v3d::{Dispatch, V3d, V3dBuffer, V3dVersion};

use super::host::HostArrays;
use super::v3d_emulator::{read_only_error, take_back, V3dCompileCache};
use super::{Backend, BufferWords, Device, Launch, RunReport, SharedMemory};
use crate::error::{Error, Result};
use crate::lang::ast;

/// The backend's name in reports and errors.
const NAME: &str = "pi-v3d";

/// How long a run may take before it counts as hung (the driver resets a GPU whose batch
/// makes no progress for 500 ms anyway).
const TIMEOUT: Duration = Duration::from_secs(10);

fn pi_error(error: qpu_pi::PiError) -> Error {
    Error::Backend {
        backend: NAME.to_string(),
        message: error.to_string(),
    }
}

/// A Pi 4/5 GPU through the `v3d` driver.
pub struct V3dPi {
    v3d: V3d,
    arrays: HostArrays,
    compiled: V3dCompileCache,
}

impl V3dPi {
    /// The backend on an opened V3D (the real one, or `qpu_pi`'s stand-in).
    pub fn with_v3d(v3d: V3d) -> V3dPi {
        V3dPi {
            v3d,
            arrays: HostArrays::default(),
            compiled: V3dCompileCache::default(),
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

/// A buffer holding `words`.
fn buffer_with(v3d: &V3d, words: &[u32]) -> Result<V3dBuffer> {
    let mut b = v3d.alloc(words.len().max(1) * 4).map_err(pi_error)?;
    b.write_words(0, words).map_err(pi_error)?;
    Ok(b)
}

impl Backend for V3dPi {
    fn name(&self) -> &str {
        NAME
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
        self.arrays.alloc(words)
    }

    fn run(&self, launch: &mut Launch<'_>) -> Result<RunReport> {
        super::staging::check(launch)?;
        let n = launch.num_qpus;
        let qpus = self.v3d.info().qpus;
        if n > qpus {
            return Err(Error::Backend {
                backend: NAME.to_string(),
                message: format!("{n} QPUs requested; this GPU has {qpus} (use 1..={qpus})"),
            });
        }
        let compiled = self.compiled.get(launch, self.version())?;
        // One buffer object per distinct array; pointer arguments point into them.
        let mut buffers: Vec<(u32, V3dBuffer)> = Vec::new();
        for b in &launch.buffers {
            if buffers.iter().any(|(bus, _)| *bus == b.bus_address) {
                continue;
            }
            let words: &[u32] = match &b.words {
                BufferWords::ReadOnly(w) => w,
                BufferWords::ReadWrite(w) => w,
            };
            buffers.push((b.bus_address, buffer_with(&self.v3d, words)?));
        }
        let pointers = launch
            .kernel
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p.ty, ast::Type::Ptr(_)))
            .map(|(i, _)| i);
        let mut args = launch.args.clone();
        for (arg, b) in pointers.zip(&launch.buffers) {
            let bo = &buffers
                .iter()
                .find(|(bus, _)| *bus == b.bus_address)
                .expect("every array has a buffer")
                .1;
            args[arg] = bo.gpu_address();
        }
        let code_words: Vec<u32> = compiled
            .words
            .iter()
            .flat_map(|w| [*w as u32, (*w >> 32) as u32])
            .collect();
        let code = buffer_with(&self.v3d, &code_words)?;
        // The spill area: one region of `spill_bytes_per_qpu` per batch, in a buffer object
        // of its own (none when nothing spills).
        let spill_bytes = compiled.spill_bytes(n).ok_or_else(|| Error::Backend {
            backend: NAME.to_string(),
            message: "the spill area does not fit 4 GiB".to_string(),
        })?;
        let spill = match spill_bytes {
            0 => None,
            bytes => Some(self.v3d.alloc(bytes as usize).map_err(pi_error)?),
        };
        let spill_area = spill.as_ref().map_or(0, V3dBuffer::gpu_address);
        // The semaphore area: 16 words all batches share, zeroed as every new buffer object
        // is (none without semaphores).
        let semaphores = match compiled.semaphore_bytes {
            0 => None,
            bytes => Some(self.v3d.alloc(bytes as usize).map_err(pi_error)?),
        };
        let semaphore_area = semaphores.as_ref().map_or(0, V3dBuffer::gpu_address);
        let uniforms = buffer_with(
            &self.v3d,
            &compiled.uniforms(n, &args, spill_area, semaphore_area),
        )?;
        let dispatch = Dispatch {
            code: code.gpu_address(),
            uniforms: uniforms.gpu_address(),
            batches: n,
        };
        let mut all: Vec<&V3dBuffer> = vec![&code, &uniforms];
        all.extend(spill.as_ref());
        all.extend(semaphores.as_ref());
        all.extend(buffers.iter().map(|(_, b)| b));
        let start = Instant::now();
        let ran = self.v3d.launch(&dispatch, &all, TIMEOUT);
        let elapsed_ns = start.elapsed().as_nanos() as u64;

        // Take the arrays back (also after a failure).
        let read_only_changed = take_back(&mut launch.buffers, |b| {
            let bo = &buffers
                .iter()
                .find(|(bus, _)| *bus == b.bus_address)
                .expect("every array has a buffer")
                .1;
            bo.read_words(0, b.len()).map(Some).map_err(pi_error)
        })?;
        ran.map_err(pi_error)?;
        if let Some(address) = read_only_changed {
            return Err(read_only_error(address));
        }
        Ok(RunReport {
            backend: NAME.to_string(),
            num_qpus: n,
            // The QPUs count nothing the host can read back; the wall time is measured.
            qpus: Vec::new(),
            cycles: None,
            counters: vec![("elapsed_ns".to_string(), elapsed_ns)],
            debug: Vec::new(),
        })
    }
}

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

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use qpu_isa::v3d::V3dVersion as IsaVersion;
use qpu_pi::v3d::{Dispatch, V3d, V3dBuffer, V3dVersion};

use super::host::{lock, HostArrays};
use super::{Backend, BufferWords, Device, Launch, RunReport, SharedMemory};
use crate::compile::v3d::{self, V3dCompiled};
use crate::error::{Error, Result, RunError, RunErrorKind};
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
    compiled: Mutex<HashMap<u64, Arc<V3dCompiled>>>,
}

impl V3dPi {
    /// The backend on an opened V3D (the real one, or `qpu_pi`'s stand-in).
    pub fn with_v3d(v3d: V3d) -> V3dPi {
        V3dPi {
            v3d,
            arrays: HostArrays::default(),
            compiled: Mutex::default(),
        }
    }

    fn version(&self) -> IsaVersion {
        match self.v3d.info().version {
            V3dVersion::V42 => IsaVersion::V42,
            V3dVersion::V71 => IsaVersion::V71,
        }
    }

    fn compile(&self, launch: &Launch<'_>) -> Result<Arc<V3dCompiled>> {
        if let Some(c) = lock(&self.compiled).get(&launch.kernel_id) {
            return Ok(c.clone());
        }
        let compiled = Arc::new(v3d::compile(launch.kernel, self.version())?);
        lock(&self.compiled).insert(launch.kernel_id, compiled.clone());
        Ok(compiled)
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
        let compiled = self.compile(launch)?;
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
        let uniforms = buffer_with(&self.v3d, &compiled.uniforms(n, &args))?;
        let dispatch = Dispatch {
            code: code.gpu_address(),
            uniforms: uniforms.gpu_address(),
            batches: n,
        };
        let mut all: Vec<&V3dBuffer> = vec![&code, &uniforms];
        all.extend(buffers.iter().map(|(_, b)| b));
        let start = Instant::now();
        let ran = self.v3d.launch(&dispatch, &all, TIMEOUT);
        let elapsed_ns = start.elapsed().as_nanos() as u64;

        // Copy back what the kernel could write (also after a failure); check the rest.
        let mut read_only_changed = None;
        for b in &mut launch.buffers {
            let bo = &buffers
                .iter()
                .find(|(bus, _)| *bus == b.bus_address)
                .expect("every array has a buffer")
                .1;
            let after = bo.read_words(0, b.len()).map_err(pi_error)?;
            match &mut b.words {
                BufferWords::ReadWrite(words) => words.copy_from_slice(&after),
                BufferWords::ReadOnly(words) => {
                    if let Some(i) = words.iter().zip(&after).position(|(x, y)| x != y) {
                        read_only_changed.get_or_insert(b.bus_address + i as u32 * 4);
                    }
                }
            }
        }
        ran.map_err(pi_error)?;
        if let Some(address) = read_only_changed {
            return Err(Error::Run(RunError {
                kind: RunErrorKind::ReadOnly { address },
                qpu: 0,
                location: None,
            }));
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

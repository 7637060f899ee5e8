//! The interpreter as a [`Backend`]: host memory with simulated bus addresses, kernels run by
//! [`crate::interp`].

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::{Backend, Launch, RunReport, SharedMemory};
use crate::error::{Error, Result};
use crate::interp;

/// Where simulated bus addresses start. Pi GPU memory is usually seen through the uncached
/// 0xC000_0000 alias; using the same range keeps pointer values realistic.
const BUS_BASE: u32 = 0xC000_0000;
/// Allocations are page-aligned, like mailbox allocations on the Pi.
const ALIGN: u64 = 4096;

/// Live allocations: base address → size in bytes.
#[derive(Default)]
struct AddressSpace {
    live: BTreeMap<u32, u64>,
}

impl AddressSpace {
    /// First-fit search for `bytes` in the bus window.
    fn reserve(&mut self, bytes: u64) -> Option<u32> {
        let bytes = bytes.max(1).div_ceil(ALIGN) * ALIGN;
        let mut candidate = BUS_BASE as u64;
        for (&base, &size) in &self.live {
            if candidate + bytes <= base as u64 {
                break;
            }
            candidate = (base as u64 + size).div_ceil(ALIGN) * ALIGN;
        }
        if candidate + bytes > u32::MAX as u64 + 1 {
            return None;
        }
        let base = candidate as u32;
        self.live.insert(base, bytes);
        Some(base)
    }
}

fn lock(space: &Mutex<AddressSpace>) -> MutexGuard<'_, AddressSpace> {
    // A panic while holding the lock cannot leave the map inconsistent (single insert or
    // remove), so a poisoned lock is still usable.
    space
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

struct HostMemory {
    words: Vec<u32>,
    bus_address: u32,
    space: Arc<Mutex<AddressSpace>>,
}

impl SharedMemory for HostMemory {
    fn bus_address(&self) -> u32 {
        self.bus_address
    }
    fn words(&self) -> &[u32] {
        &self.words
    }
    fn words_mut(&mut self) -> &mut [u32] {
        &mut self.words
    }
}

impl Drop for HostMemory {
    fn drop(&mut self) {
        lock(&self.space).live.remove(&self.bus_address);
    }
}

/// The reference interpreter as a backend.
pub struct Interpreter {
    config: interp::Config,
    space: Arc<Mutex<AddressSpace>>,
}

impl Default for Interpreter {
    fn default() -> Self {
        Self::new()
    }
}

impl Interpreter {
    /// An interpreter with the default step limit.
    pub fn new() -> Interpreter {
        Interpreter {
            config: interp::Config::default(),
            space: Arc::default(),
        }
    }

    /// Fail runs that take more than `steps` steps (summed over QPUs).
    pub fn with_step_limit(mut self, steps: u64) -> Interpreter {
        self.config.step_limit = steps;
        self
    }
}

impl Backend for Interpreter {
    fn name(&self) -> &str {
        "interpreter"
    }

    fn alloc(&self, words: usize) -> Result<Box<dyn SharedMemory>> {
        let alloc_error = |reason: &str| Error::Alloc {
            words,
            reason: reason.to_string(),
        };
        let bytes = (words as u64)
            .checked_mul(4)
            .ok_or_else(|| alloc_error("size overflows"))?;
        let bus_address = lock(&self.space)
            .reserve(bytes)
            .ok_or_else(|| alloc_error("the 1 GiB simulated bus window is full"))?;
        Ok(Box::new(HostMemory {
            words: vec![0; words],
            bus_address,
            space: self.space.clone(),
        }))
    }

    fn run(&self, launch: &mut Launch<'_>) -> Result<RunReport> {
        if launch.args.len() != launch.kernel.params.len() {
            return Err(Error::Arguments(format!(
                "the kernel takes {} parameters but {} arguments were given",
                launch.kernel.params.len(),
                launch.args.len()
            )));
        }
        if !(1..=super::MAX_QPUS).contains(&launch.num_qpus) {
            return Err(Error::NumQpus(launch.num_qpus));
        }
        let outcome = interp::run(
            launch.kernel,
            launch.num_qpus,
            &launch.args,
            &mut launch.buffers,
            &self.config,
        )?;
        Ok(RunReport {
            backend: self.name().to_string(),
            num_qpus: launch.num_qpus,
            qpus: outcome.qpus,
            cycles: None,
            counters: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_page_aligned_disjoint_and_reused_after_free() {
        let interp = Interpreter::new();
        let a = interp.alloc(10).unwrap();
        let b = interp.alloc(2000).unwrap();
        assert_eq!(a.bus_address(), BUS_BASE);
        assert_eq!(b.bus_address(), BUS_BASE + 4096);
        let c = interp.alloc(1).unwrap();
        assert_eq!(c.bus_address(), BUS_BASE + 4096 + 8192);
        drop(a);
        let d = interp.alloc(1024).unwrap();
        assert_eq!(d.bus_address(), BUS_BASE, "freed range is reused");
        assert_eq!(d.words().len(), 1024);
    }

    #[test]
    fn exhausting_the_bus_window_is_an_error() {
        let interp = Interpreter::new();
        let err = interp.alloc(usize::MAX / 8).err().unwrap();
        assert!(matches!(err, Error::Alloc { .. }), "{err}");
    }
}

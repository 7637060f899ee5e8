//! The interpreter as a [`Backend`]: host memory with simulated bus addresses, kernels run by
//! [`crate::interp`].

use super::host::HostArrays;
use super::{Backend, Launch, RunReport, SharedMemory};
use crate::error::{Error, Result};
use crate::interp;

/// The reference interpreter as a backend.
pub struct Interpreter {
    config: interp::Config,
    arrays: HostArrays,
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
            arrays: HostArrays::default(),
        }
    }

    /// An interpreter whose float arithmetic is that of `gpu`'s float unit (see
    /// [`interp::ops`]): the VideoCore IV's by default.
    pub fn for_gpu(gpu: crate::compiler::Gpu) -> Interpreter {
        let mut interpreter = Interpreter::new();
        interpreter.config.float_unit = interp::ops::FloatUnit::of(gpu);
        interpreter
    }

    /// Fail runs that take more than `steps` steps (summed over QPUs).
    pub fn with_step_limit(mut self, steps: u64) -> Interpreter {
        self.config.step_limit = steps;
        self
    }
}

impl Backend for Interpreter {
    fn compiles_for(&self) -> crate::compiler::Gpu {
        use crate::compiler::Gpu;
        match self.config.float_unit {
            interp::ops::FloatUnit::Vc4 => Gpu::Vc4,
            interp::ops::FloatUnit::V42 => Gpu::Vc6,
            interp::ops::FloatUnit::V71 => Gpu::Vc7,
        }
    }

    fn name(&self) -> &str {
        match self.config.float_unit {
            interp::ops::FloatUnit::Vc4 => "interpreter",
            interp::ops::FloatUnit::V42 => "interpreter-vc6",
            interp::ops::FloatUnit::V71 => "interpreter-vc7",
        }
    }

    fn alloc(&self, words: usize) -> Result<Box<dyn SharedMemory>> {
        self.arrays.alloc(words)
    }

    /// The interpreter runs any count up to the largest GPU's ([`super::MAX_QPUS`]).
    fn max_qpus(&self) -> u32 {
        super::MAX_QPUS
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
        let config = interp::Config {
            step_limit: launch.step_limit.unwrap_or(self.config.step_limit),
            ..self.config
        };
        let outcome = interp::run(
            launch.kernel,
            launch.num_qpus,
            &launch.args,
            &mut launch.buffers,
            &config,
        )?;
        Ok(RunReport {
            backend: self.name().to_string(),
            num_qpus: launch.num_qpus,
            qpus: outcome.qpus,
            cycles: None,
            clock_mhz: None,
            counters: Vec::new(),
            debug: Vec::new(),
            timeline: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::host::BUS_BASE;
    use super::*;

    #[test]
    fn allocations_are_page_aligned_disjoint_and_reused_after_free() {
        let interp = Interpreter::new();
        let a = interp.alloc(10).unwrap();
        let b = interp.alloc(2000).unwrap();
        let guard = super::super::host::GUARD as u32;
        assert_eq!(a.bus_address(), BUS_BASE);
        assert_eq!(b.bus_address(), BUS_BASE + 4096 + guard);
        let c = interp.alloc(1).unwrap();
        assert_eq!(c.bus_address(), BUS_BASE + 4096 + 8192 + 2 * guard);
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

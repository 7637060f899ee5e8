//! What one instruction word does, between scheduling and emission: the scheduler packs
//! IR ops into [`Bundle`]s, emission encodes each as one 64-bit instruction.

use qpu_isa::vc4::{BranchCond, Signal};

use super::ir::*;

/// Which ALU carries an operation in a bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// The add ALU.
    Add,
    /// The mul ALU.
    Mul,
}

/// The contents of one instruction word.
#[derive(Clone, Debug, PartialEq)]
pub enum Bundle {
    /// ALU work: up to two (op, unit) pairs and a signal.
    Alu {
        /// Operations with the ALU each runs on.
        ops: Vec<(Op<Loc>, Unit)>,
        /// The signal (`Signal::None` if none).
        signal: Signal,
    },
    /// A load immediate (or semaphore, branch, thread end): a single IR entry.
    Single(Op<Loc>),
    /// Branch with its target resolved to an instruction index.
    Branch {
        /// Condition.
        cond: BranchCond,
        /// Index of the target instruction.
        target: usize,
    },
}

impl Bundle {
    /// A bundle that does nothing.
    pub fn nop() -> Bundle {
        Bundle::Alu {
            ops: Vec::new(),
            signal: Signal::None,
        }
    }
}

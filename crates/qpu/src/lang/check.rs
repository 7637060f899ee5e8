//! Build-time check of the TMU gather FIFO: errors for mistakes that are certain whenever the
//! statement is reached; everything data-dependent is left to the run-time checks.
//!
//! The analysis tracks an interval `[lo, hi]` of outstanding gathers at each point (an
//! abstract interpretation with widening at loops). A gather reached with `lo >= 4`
//! definitely overflows the FIFO; a receive reached with `hi == 0` definitely has nothing to
//! receive; a kernel ending with `lo > 0` definitely leaves results behind.

use super::ast::{Kernel, Stmt, StmtKind};
use crate::error::{BuildError, BuildErrorKind};

/// Requests a QPU may have outstanding in the TMU FIFO: qpu-isa's
/// [`TMU_FIFO_DEPTH`](qpu_isa::vc4::latency::TMU_FIFO_DEPTH), the depth measured reliable on
/// the VideoCore IV (4 of the guide's 8 slots).
pub const GATHER_FIFO_DEPTH: u32 = qpu_isa::vc4::latency::TMU_FIFO_DEPTH as u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outstanding {
    lo: u32,
    /// `None` = unbounded.
    hi: Option<u32>,
}

impl Outstanding {
    const ZERO: Outstanding = Outstanding { lo: 0, hi: Some(0) };

    fn join(self, other: Outstanding) -> Outstanding {
        Outstanding {
            lo: self.lo.min(other.lo),
            hi: match (self.hi, other.hi) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            },
        }
    }
}

struct Analysis<'e> {
    errors: &'e mut Vec<BuildError>,
    report: bool,
}

impl Analysis<'_> {
    fn error(&mut self, kind: BuildErrorKind, stmt: &Stmt) {
        if self.report {
            let error = BuildError {
                kind,
                location: stmt.location,
            };
            if !self.errors.contains(&error) {
                self.errors.push(error);
            }
        }
    }

    fn block(&mut self, stmts: &[Stmt], mut state: Outstanding) -> Outstanding {
        for stmt in stmts {
            state = self.stmt(stmt, state);
        }
        state
    }

    fn stmt(&mut self, stmt: &Stmt, state: Outstanding) -> Outstanding {
        match &stmt.kind {
            StmtKind::Gather { .. } => {
                if state.lo >= GATHER_FIFO_DEPTH {
                    self.error(
                        BuildErrorKind::TooManyGathers {
                            outstanding: state.lo + 1,
                            limit: GATHER_FIFO_DEPTH,
                        },
                        stmt,
                    );
                }
                Outstanding {
                    lo: state.lo + 1,
                    hi: state.hi.map(|h| h + 1),
                }
            }
            StmtKind::Receive { .. } => {
                if state.hi == Some(0) {
                    self.error(BuildErrorKind::ReceiveWithoutGather, stmt);
                }
                Outstanding {
                    lo: state.lo.saturating_sub(1),
                    hi: state.hi.map(|h| h.saturating_sub(1)),
                }
            }
            StmtKind::If {
                then, otherwise, ..
            } => {
                let a = self.block(then, state);
                let b = self.block(otherwise, state);
                a.join(b)
            }
            StmtKind::While { body, .. } => {
                // Find the loop-head state silently, then check the body once from it.
                let report = std::mem::replace(&mut self.report, false);
                let mut head = state;
                for iteration in 0.. {
                    let after = self.block(body, head);
                    let mut next = head.join(after);
                    if iteration >= 2 {
                        // Widen: a bound that keeps moving is unknown.
                        if next.hi != head.hi {
                            next.hi = None;
                        }
                        if next.lo != head.lo {
                            next.lo = 0;
                        }
                    }
                    if next == head {
                        break;
                    }
                    head = next;
                }
                self.report = report;
                self.block(body, head);
                head
            }
            StmtKind::Assign { .. }
            | StmtKind::Where { .. }
            | StmtKind::Store { .. }
            | StmtKind::UniformsFrom { .. }
            | StmtKind::SemaInc(_)
            | StmtKind::SemaDec(_)
            | StmtKind::Debug { .. } => state,
        }
    }
}

/// Append the FIFO errors that are certain to happen in `kernel` to `errors`.
pub(crate) fn check_gather_fifo(kernel: &Kernel, errors: &mut Vec<BuildError>) {
    let mut analysis = Analysis {
        errors,
        report: true,
    };
    let end = analysis.block(&kernel.body, Outstanding::ZERO);
    if end.lo > 0 {
        errors.push(BuildError {
            kind: BuildErrorKind::UnreceivedGathers {
                outstanding: end.lo,
            },
            location: kernel.location,
        });
    }
}

/// Append an error for each statement that may read the uniform stream before any
/// `UniformsFrom` has pointed it at memory (on some path through the kernel).
pub(crate) fn check_uniform_stream(kernel: &Kernel, errors: &mut Vec<BuildError>) {
    fn reads(stmt: &Stmt) -> bool {
        let mut found = false;
        stmt.own_exprs(&mut |e| found |= e.reads_uniform());
        found
    }
    /// Whether the stream is set after `stmts`, given `set` before them.
    fn block(stmts: &[Stmt], mut set: bool, errors: &mut Vec<BuildError>) -> bool {
        for stmt in stmts {
            if !set && reads(stmt) {
                let error = BuildError {
                    kind: BuildErrorKind::UniformReadBeforeStream,
                    location: stmt.location,
                };
                if !errors.contains(&error) {
                    errors.push(error);
                }
            }
            set = match &stmt.kind {
                StmtKind::UniformsFrom { .. } => true,
                StmtKind::If {
                    then, otherwise, ..
                } => {
                    let a = block(then, set, errors);
                    let b = block(otherwise, set, errors);
                    a && b
                }
                StmtKind::While { body, .. } => {
                    block(body, set, errors);
                    set
                }
                StmtKind::Where {
                    then, otherwise, ..
                } => {
                    block(then, set, errors);
                    block(otherwise, set, errors);
                    set
                }
                _ => set,
            };
        }
        set
    }
    block(&kernel.body, false, errors);
}

//! The reference interpreter: what a kernel means.
//!
//! It runs the [`ast`](crate::lang::ast) directly on 1–12 simulated QPUs sharing the memory
//! passed to the kernel. The compiler is correct when emulating its output agrees with this.
//!
//! # Execution model
//!
//! * **Interleaving.** QPUs take turns in a fixed round-robin order, one *step* each: an
//!   assignment, store, gather, receive, semaphore operation, an `If`/`While` condition test,
//!   or a whole `Where` statement (whose body only assigns variables, so running it at once is
//!   indistinguishable from running it piecemeal). Runs are therefore deterministic.
//! * **Values.** Every variable is 16 lanes of 32-bit words, zero before its first assignment.
//!   Operator meanings are in [`ops`].
//! * **Memory.** Only the shared arrays passed as arguments exist; anything else is an
//!   [`Unmapped`](crate::error::RunErrorKind::Unmapped) error, and storing into an array passed
//!   as `&SharedArray` is a [`ReadOnly`](crate::error::RunErrorKind::ReadOnly) error.
//!   Whole-vector loads and stores (`p.load()`, `p.store(x)`, `store(x, p)`) use lane 0's
//!   address, which must be a multiple of 4; `gather` uses each lane's address with the low two
//!   bits ignored (as the TMU does) and reads memory when the gather runs. A gather lane
//!   outside every argument array reads 0 (hardware reads whatever is there) and is counted in
//!   [`QpuStats::stray_gathers`]: prefetching one vector past an array's end is a common idiom
//!   whose value is then discarded. Non-blocking stores complete immediately here.
//! * **Gather FIFO.** Each QPU holds at most [`GATHER_FIFO_DEPTH`] outstanding gathers; a fifth
//!   gather, a receive from an empty FIFO, and finishing with unreceived gathers are errors.
//! * **Semaphores.** 16 system-wide counters, 0..=15, initially 0. `sema_dec` waits while the
//!   counter is 0 and `sema_inc` while it is 15; if every unfinished QPU waits, the run fails
//!   with [`Deadlock`](crate::error::RunErrorKind::Deadlock).
//! * **Budget.** A run longer than the step limit fails instead of hanging.

pub mod ops;

use std::collections::VecDeque;

use crate::error::{RunError, RunErrorKind};
use crate::lang::ast::{BoolExpr, Cond, Expr, Kernel, Special, Stmt, StmtKind, StoreKind, LANES};
use crate::lang::GATHER_FIFO_DEPTH;
use crate::runtime::{Buffer, QpuStats};
use ops::Vector;

/// Interpreter settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Maximum number of steps (summed over all QPUs) before the run fails.
    pub step_limit: u64,
}

impl Default for Config {
    /// The emulator's default instruction budget as the step budget (200 million): about 12
    /// seconds of a tight endless loop on our build machine in a release build, where the old
    /// 2^32 took over four minutes.
    fn default() -> Self {
        Config {
            step_limit: qpu_emu::EmulatorConfig::default().max_instructions,
        }
    }
}

/// What one interpreted run did, per QPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Counters for each QPU, indexed by QPU number.
    pub qpus: Vec<QpuStats>,
}

/// The memory a run may touch: the kernel's argument arrays.
struct Memory<'m, 'a> {
    buffers: &'m mut [Buffer<'a>],
}

impl Memory<'_, '_> {
    fn find(&self, address: u32) -> Option<(usize, usize)> {
        self.buffers.iter().enumerate().find_map(|(i, buffer)| {
            let offset = address.wrapping_sub(buffer.bus_address) as usize / 4;
            (address >= buffer.bus_address && offset < buffer.len()).then_some((i, offset))
        })
    }

    fn read(&self, address: u32, access: &'static str) -> Result<u32, RunErrorKind> {
        let (buffer, offset) = self
            .find(address)
            .ok_or(RunErrorKind::Unmapped { access, address })?;
        Ok(self.buffers[buffer].word(offset))
    }

    fn write(&mut self, address: u32, value: u32) -> Result<(), RunErrorKind> {
        let (buffer, offset) = self.find(address).ok_or(RunErrorKind::Unmapped {
            access: "store",
            address,
        })?;
        self.buffers[buffer]
            .set_word(offset, value)
            .map_err(|()| RunErrorKind::ReadOnly { address })
    }
}

struct Frame<'k> {
    stmts: &'k [Stmt],
    pc: usize,
}

struct Qpu<'k> {
    id: u32,
    vars: Vec<Vector>,
    fifo: VecDeque<Vector>,
    stack: Vec<Frame<'k>>,
    done: bool,
    stats: QpuStats,
}

enum Step {
    Progress,
    Blocked,
    Finished,
}

struct Machine {
    num_qpus: u32,
    semaphores: [u8; 16],
}

/// Run `kernel` on `num_qpus` QPUs with the given parameter words (in declaration order) over
/// the given memory.
pub fn run(
    kernel: &Kernel,
    num_qpus: u32,
    args: &[u32],
    buffers: &mut [Buffer<'_>],
    config: &Config,
) -> Result<Outcome, RunError> {
    let mut machine = Machine {
        num_qpus,
        semaphores: [0; 16],
    };
    let mut memory = Memory { buffers };
    let mut qpus: Vec<Qpu<'_>> = (0..num_qpus)
        .map(|id| {
            let mut vars = vec![[0u32; LANES]; kernel.vars.len()];
            for (param, &arg) in kernel.params.iter().zip(args) {
                vars[param.var.0 as usize] = [arg; LANES];
            }
            Qpu {
                id,
                vars,
                fifo: VecDeque::new(),
                stack: vec![Frame {
                    stmts: &kernel.body,
                    pc: 0,
                }],
                done: false,
                stats: QpuStats::default(),
            }
        })
        .collect();

    let mut steps: u64 = 0;
    loop {
        let mut running = false;
        let mut progressed = false;
        for qpu in qpus.iter_mut().filter(|q| !q.done) {
            match machine.step(qpu, &mut memory)? {
                Step::Progress => {
                    running = true;
                    progressed = true;
                    steps += 1;
                    qpu.stats.steps += 1;
                }
                Step::Blocked => running = true,
                Step::Finished => {
                    qpu.done = true;
                    if !qpu.fifo.is_empty() {
                        return Err(RunError {
                            kind: RunErrorKind::UnreceivedAtEnd(qpu.fifo.len()),
                            qpu: qpu.id,
                            location: Some(kernel.location),
                        });
                    }
                }
            }
        }
        if !running {
            break;
        }
        if !progressed {
            return Err(RunError {
                kind: RunErrorKind::Deadlock,
                qpu: 0,
                location: None,
            });
        }
        if steps > config.step_limit {
            return Err(RunError {
                kind: RunErrorKind::StepLimit(config.step_limit),
                qpu: 0,
                location: None,
            });
        }
    }
    Ok(Outcome {
        qpus: qpus.into_iter().map(|q| q.stats).collect(),
    })
}

impl Machine {
    fn step<'k>(&mut self, qpu: &mut Qpu<'k>, memory: &mut Memory) -> Result<Step, RunError> {
        loop {
            let Some(frame) = qpu.stack.last_mut() else {
                return Ok(Step::Finished);
            };
            let Some(stmt) = frame.stmts.get(frame.pc) else {
                qpu.stack.pop();
                continue;
            };
            let id = qpu.id;
            let at = |kind: RunErrorKind| RunError {
                kind,
                qpu: id,
                location: Some(stmt.location),
            };
            return match &stmt.kind {
                StmtKind::While { cond, body } => {
                    // The While's pc only advances once the condition fails, so finishing the
                    // body comes back here to test again.
                    if self.cond(qpu, cond, memory).map_err(at)? {
                        qpu.stack.push(Frame { stmts: body, pc: 0 });
                    } else if let Some(frame) = qpu.stack.last_mut() {
                        frame.pc += 1;
                    }
                    Ok(Step::Progress)
                }
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    frame.pc += 1;
                    let taken = self.cond(qpu, cond, memory).map_err(at)?;
                    qpu.stack.push(Frame {
                        stmts: if taken { then } else { otherwise },
                        pc: 0,
                    });
                    Ok(Step::Progress)
                }
                kind => match self.simple(qpu, kind, memory).map_err(at)? {
                    true => {
                        if let Some(frame) = qpu.stack.last_mut() {
                            frame.pc += 1;
                        }
                        Ok(Step::Progress)
                    }
                    false => Ok(Step::Blocked),
                },
            };
        }
    }

    /// Execute a statement without control flow; `false` means blocked (retry later).
    fn simple(
        &mut self,
        qpu: &mut Qpu,
        kind: &StmtKind,
        memory: &mut Memory,
    ) -> Result<bool, RunErrorKind> {
        match kind {
            StmtKind::Assign { var, value } => {
                let value = self.eval(qpu, value, memory)?;
                qpu.vars[var.0 as usize] = value;
            }
            StmtKind::Where {
                cond,
                then,
                otherwise,
            } => {
                self.where_(qpu, cond, then, otherwise, [true; LANES], memory)?;
            }
            StmtKind::Store {
                value,
                addr,
                stride,
                kind,
            } => {
                let value = self.eval(qpu, value, memory)?;
                let base = self.eval(qpu, addr, memory)?[0];
                if base % 4 != 0 {
                    return Err(RunErrorKind::Unaligned {
                        access: "store",
                        address: base,
                    });
                }
                for (lane, word) in value.iter().enumerate() {
                    let address = base.wrapping_add(4 * stride * lane as u32);
                    memory.write(address, *word)?;
                }
                match kind {
                    StoreKind::Blocking | StoreKind::NonBlocking => qpu.stats.stores += 1,
                }
            }
            StmtKind::Gather { addr } => {
                if qpu.fifo.len() >= GATHER_FIFO_DEPTH as usize {
                    return Err(RunErrorKind::GatherOverflow {
                        limit: GATHER_FIFO_DEPTH,
                    });
                }
                let addresses = self.eval(qpu, addr, memory)?;
                let mut words = [0u32; LANES];
                for (word, address) in words.iter_mut().zip(addresses) {
                    // The TMU reads any address; prefetching one vector past the end of an
                    // array is idiomatic (QPULib's Rot3D and HeatMap do it), so a stray
                    // gather reads 0 and is counted rather than failing the run.
                    match memory.read(address & !3, "gather") {
                        Ok(value) => *word = value,
                        Err(RunErrorKind::Unmapped { .. }) => qpu.stats.stray_gathers += 1,
                        Err(other) => return Err(other),
                    }
                }
                qpu.fifo.push_back(words);
                qpu.stats.gathers += 1;
            }
            StmtKind::Receive { var } => {
                let words = qpu.fifo.pop_front().ok_or(RunErrorKind::ReceiveEmpty)?;
                qpu.vars[var.0 as usize] = words;
            }
            StmtKind::SemaInc(n) => {
                let count = &mut self.semaphores[*n as usize];
                if *count == 15 {
                    return Ok(false);
                }
                *count += 1;
            }
            StmtKind::SemaDec(n) => {
                let count = &mut self.semaphores[*n as usize];
                if *count == 0 {
                    return Ok(false);
                }
                *count -= 1;
            }
            StmtKind::If { .. } | StmtKind::While { .. } => {
                // Only reachable from a hand-built AST with a branch inside a Where body.
                return Err(RunErrorKind::BranchInWhere);
            }
        }
        Ok(true)
    }

    fn where_(
        &mut self,
        qpu: &mut Qpu,
        cond: &BoolExpr,
        then: &[Stmt],
        otherwise: &[Stmt],
        mask: [bool; LANES],
        memory: &mut Memory,
    ) -> Result<(), RunErrorKind> {
        let lanes = self.boolean(qpu, cond, memory)?;
        let then_mask: [bool; LANES] = std::array::from_fn(|i| mask[i] && lanes[i]);
        let else_mask: [bool; LANES] = std::array::from_fn(|i| mask[i] && !lanes[i]);
        self.masked_block(qpu, then, then_mask, memory)?;
        self.masked_block(qpu, otherwise, else_mask, memory)
    }

    fn masked_block(
        &mut self,
        qpu: &mut Qpu,
        stmts: &[Stmt],
        mask: [bool; LANES],
        memory: &mut Memory,
    ) -> Result<(), RunErrorKind> {
        for stmt in stmts {
            match &stmt.kind {
                StmtKind::Assign { var, value } => {
                    let value = self.eval(qpu, value, memory)?;
                    let slot = &mut qpu.vars[var.0 as usize];
                    for lane in 0..LANES {
                        if mask[lane] {
                            slot[lane] = value[lane];
                        }
                    }
                }
                StmtKind::Where {
                    cond,
                    then,
                    otherwise,
                } => self.where_(qpu, cond, then, otherwise, mask, memory)?,
                // The builder only puts assignments and Wheres in Where bodies.
                _ => return Err(RunErrorKind::BranchInWhere),
            }
        }
        Ok(())
    }

    fn cond(&self, qpu: &Qpu, cond: &Cond, memory: &Memory) -> Result<bool, RunErrorKind> {
        Ok(match cond {
            Cond::Any(b) => self.boolean(qpu, b, memory)?.iter().any(|&l| l),
            Cond::All(b) => self.boolean(qpu, b, memory)?.iter().all(|&l| l),
        })
    }

    fn boolean(
        &self,
        qpu: &Qpu,
        b: &BoolExpr,
        memory: &Memory,
    ) -> Result<[bool; LANES], RunErrorKind> {
        Ok(match b {
            BoolExpr::Compare {
                op,
                float,
                lhs,
                rhs,
            } => {
                let (l, r) = (self.eval(qpu, lhs, memory)?, self.eval(qpu, rhs, memory)?);
                std::array::from_fn(|i| ops::compare(*op, *float, l[i], r[i]))
            }
            BoolExpr::Not(inner) => self.boolean(qpu, inner, memory)?.map(|l| !l),
            BoolExpr::And(a, b) => {
                let (a, b) = (self.boolean(qpu, a, memory)?, self.boolean(qpu, b, memory)?);
                std::array::from_fn(|i| a[i] && b[i])
            }
            BoolExpr::Or(a, b) => {
                let (a, b) = (self.boolean(qpu, a, memory)?, self.boolean(qpu, b, memory)?);
                std::array::from_fn(|i| a[i] || b[i])
            }
        })
    }

    fn eval(&self, qpu: &Qpu, expr: &Expr, memory: &Memory) -> Result<Vector, RunErrorKind> {
        Ok(match expr {
            Expr::IntLit(v) => [*v as u32; LANES],
            Expr::FloatLit(v) => [v.to_bits(); LANES],
            Expr::Var(var) => qpu.vars[var.0 as usize],
            Expr::Special(Special::Index) => std::array::from_fn(|i| i as u32),
            Expr::Special(Special::QpuId) => [qpu.id; LANES],
            Expr::Special(Special::NumQpus) => [self.num_qpus; LANES],
            Expr::Unary { op, arg } => self.eval(qpu, arg, memory)?.map(|a| ops::unary(*op, a)),
            Expr::Binary { op, lhs, rhs } => {
                let (l, r) = (self.eval(qpu, lhs, memory)?, self.eval(qpu, rhs, memory)?);
                std::array::from_fn(|i| ops::binary(*op, l[i], r[i]))
            }
            Expr::Rotate { value, amount } => {
                let value = self.eval(qpu, value, memory)?;
                let amount = self.eval(qpu, amount, memory)?[0];
                ops::rotate(&value, amount)
            }
            Expr::Load { addr, stride, .. } => {
                let base = self.eval(qpu, addr, memory)?[0];
                if base % 4 != 0 {
                    return Err(RunErrorKind::Unaligned {
                        access: "load",
                        address: base,
                    });
                }
                let mut words = [0u32; LANES];
                for (lane, word) in words.iter_mut().enumerate() {
                    *word = memory.read(base.wrapping_add(4 * stride * lane as u32), "load")?;
                }
                words
            }
        })
    }
}

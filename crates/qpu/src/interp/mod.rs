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
//! * **Memory.** Only the shared arrays passed as arguments exist. A store lane outside them
//!   is an [`OutOfBounds`](crate::error::RunErrorKind::OutOfBounds) error naming the lane and
//!   where it points relative to the nearest array, and storing into an array passed as
//!   `&SharedArray` is a [`ReadOnly`](crate::error::RunErrorKind::ReadOnly) error.
//!   Whole-vector loads and stores (`p.load()`, `p.store(x)`, `store(x, p)`) use lane 0's
//!   address, which must be a multiple of 4; `gather` uses each lane's address with the low two
//!   bits ignored (as the TMU does) and reads memory when the gather runs. A load or gather
//!   lane outside every argument array reads an *undefined* value (hardware reads whatever is
//!   there), counted in [`QpuStats::stray_gathers`]: prefetching one vector past an array's
//!   end is a common idiom whose value is then discarded. Non-blocking stores complete
//!   immediately here.
//! * **Undefined values.** Undefined lanes are tracked through every operation (a lane of a
//!   result is undefined when a lane it is computed from is; a `where_` on an undefined
//!   condition leaves the lanes it might assign undefined). Storing an undefined lane, using
//!   one as an address, or deciding an `if_`/`while_` on one is an
//!   [`UndefinedValueUsed`](crate::error::RunErrorKind::UndefinedValueUsed) error naming the
//!   statement that read it — as the emulator reports the compiled code.
//! * **Gather FIFO.** Each QPU holds at most [`GATHER_FIFO_DEPTH`] outstanding gathers; a fifth
//!   gather, a receive from an empty FIFO, and finishing with unreceived gathers are errors.
//! * **Semaphores.** 16 system-wide counters, 0..=15, initially 0. `sema_dec` waits while the
//!   counter is 0 and `sema_inc` while it is 15; if every unfinished QPU waits, the run fails
//!   with [`Deadlock`](crate::error::RunErrorKind::Deadlock).
//! * **Budget.** A run longer than the step limit fails instead of hanging.

pub mod ops;

use std::collections::VecDeque;

use crate::error::{ArrayPlace, RunError, RunErrorKind, SourceLocation};
use crate::lang::ast::{
    BoolExpr, Cond, Expr, Kernel, Special, Stmt, StmtKind, StoreKind, Type, LANES,
};
use crate::lang::GATHER_FIFO_DEPTH;
use crate::runtime::{Buffer, QpuStats};
use ops::Vector;

/// Interpreter settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Maximum number of steps (summed over all QPUs) before the run fails.
    pub step_limit: u64,
    /// Whose float arithmetic the run models (see [`ops`]).
    pub float_unit: ops::FloatUnit,
}

impl Default for Config {
    /// The emulator's default instruction budget as the step budget (200 million): about 12
    /// seconds of a tight endless loop on our build machine in a release build, where the old
    /// 2^32 took over four minutes.
    fn default() -> Self {
        Config {
            step_limit: qpu_emu::vc4::EmulatorConfig::default().max_instructions,
            float_unit: ops::FloatUnit::Vc4,
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
    /// (argument position, bus address, length) of each buffer, for error messages.
    places: Vec<(usize, u32, usize)>,
}

impl Memory<'_, '_> {
    fn find(&self, address: u32) -> Option<(usize, usize)> {
        self.buffers.iter().enumerate().find_map(|(i, buffer)| {
            let offset = address.wrapping_sub(buffer.bus_address) as usize / 4;
            (address >= buffer.bus_address && offset < buffer.len()).then_some((i, offset))
        })
    }

    /// The word at `address`, or `None` outside every array.
    fn read(&self, address: u32) -> Option<u32> {
        let (buffer, offset) = self.find(address)?;
        Some(self.buffers[buffer].word(offset))
    }

    fn write(&mut self, address: u32, lane: usize, value: u32) -> Result<(), RunErrorKind> {
        let (buffer, offset) = self.find(address).ok_or(RunErrorKind::OutOfBounds {
            access: "store",
            lane: lane as u8,
            address,
            place: ArrayPlace::find(&self.places, address),
        })?;
        self.buffers[buffer]
            .set_word(offset, value)
            .map_err(|()| RunErrorKind::ReadOnly { address })
    }
}

/// No origin: the value is defined.
const DEFINED: u32 = u32::MAX;

/// A vector and which of its lanes are undefined (bit i = lane i), with where the undefined
/// lanes were made (an index into [`Machine::origins`]).
#[derive(Clone, Copy)]
struct Val {
    words: Vector,
    poison: u16,
    origin: u32,
}

impl Val {
    fn defined(words: Vector) -> Val {
        Val {
            words,
            poison: 0,
            origin: DEFINED,
        }
    }
}

/// Where an undefined value was made.
struct Origin {
    how: String,
    at: SourceLocation,
}

struct Frame<'k> {
    stmts: &'k [Stmt],
    pc: usize,
}

struct Qpu<'k> {
    id: u32,
    vars: Vec<Val>,
    fifo: VecDeque<Val>,
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
    float_unit: ops::FloatUnit,
    semaphores: [u8; 16],
    origins: Vec<Origin>,
    /// The statement being executed.
    here: SourceLocation,
    /// Each QPU's uniform-stream address (`UniformsFrom`), advanced by every read.
    uniform_ptr: Vec<u32>,
}

/// Run `kernel` on `num_qpus` QPUs with the given parameter words (in declaration order) over
/// the given memory (the arrays in pointer-parameter order). Over the recorded AST, for the
/// crate's tests; users run kernels with [`Device::interpreter`](crate::Device::interpreter).
#[doc(hidden)]
pub fn run(
    kernel: &Kernel,
    num_qpus: u32,
    args: &[u32],
    buffers: &mut [Buffer<'_>],
    config: &Config,
) -> Result<Outcome, RunError> {
    let mut machine = Machine {
        num_qpus,
        float_unit: config.float_unit,
        semaphores: [0; 16],
        origins: Vec::new(),
        here: kernel.location,
        uniform_ptr: vec![0; num_qpus as usize],
    };
    let pointer_params = kernel
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.ty, Type::Ptr(_)))
        .map(|(i, _)| i);
    let places = pointer_params
        .zip(buffers.iter())
        .map(|(arg, b)| (arg, b.bus_address, b.len()))
        .collect();
    let mut memory = Memory { buffers, places };
    let mut qpus: Vec<Qpu<'_>> = (0..num_qpus)
        .map(|id| {
            let mut vars = vec![Val::defined([0u32; LANES]); kernel.vars.len()];
            for (param, &arg) in kernel.params.iter().zip(args) {
                vars[param.var.0 as usize] = Val::defined([arg; LANES]);
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
            // Every unfinished QPU waits: report the first at the statement it waits on.
            let waiting = qpus.iter().find(|q| !q.done);
            let location = waiting
                .and_then(|q| q.stack.last())
                .and_then(|frame| frame.stmts.get(frame.pc))
                .map(|stmt| stmt.location);
            return Err(RunError {
                kind: RunErrorKind::Deadlock,
                qpu: waiting.map_or(0, |q| q.id),
                location,
            });
        }
        if steps > config.step_limit {
            return Err(RunError {
                kind: RunErrorKind::StepLimit {
                    limit: config.step_limit,
                    instructions: false,
                },
                qpu: 0,
                location: None,
            });
        }
    }
    Ok(Outcome {
        qpus: qpus.into_iter().map(|q| q.stats).collect(),
    })
}

/// Lane mask of a lane predicate.
fn mask_of(lanes: impl Fn(usize) -> bool) -> u16 {
    (0..LANES).filter(|&i| lanes(i)).fold(0, |m, i| m | 1 << i)
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
            self.here = stmt.location;
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

    /// An error for `value`'s undefined lanes among `lanes`, if any.
    fn check_defined(
        &self,
        what: &'static str,
        value: &Val,
        lanes: u16,
    ) -> Result<(), RunErrorKind> {
        let used = value.poison & lanes;
        if used == 0 {
            return Ok(());
        }
        let origin = self.origins.get(value.origin as usize);
        Err(RunErrorKind::UndefinedValueUsed {
            what,
            lanes: used,
            how: origin.map_or_else(|| "it was never defined".to_string(), |o| o.how.clone()),
            made_at: origin.map(|o| o.at),
        })
    }

    /// Reads one word per lane at `addresses`; lanes outside every array are undefined.
    fn read_lanes(&mut self, memory: &Memory, access: &str, addresses: &Vector) -> (Val, u64) {
        let mut words = [0u32; LANES];
        let mut poison = 0u16;
        for (lane, (word, &address)) in words.iter_mut().zip(addresses).enumerate() {
            match memory.read(address) {
                Some(value) => *word = value,
                None => poison |= 1 << lane,
            }
        }
        if poison == 0 {
            return (Val::defined(words), 0);
        }
        let lane = poison.trailing_zeros() as usize;
        let place = ArrayPlace::find(&memory.places, addresses[lane])
            .map_or_else(|| "outside every array".to_string(), |p| p.to_string());
        self.origins.push(Origin {
            how: format!(
                "the {access} read lane(s) {} from outside the kernel's arrays (lane {lane}: \
                 address {:#010x}, {place})",
                crate::error::lane_list(poison),
                addresses[lane]
            ),
            at: self.here,
        });
        let val = Val {
            words,
            poison,
            origin: self.origins.len() as u32 - 1,
        };
        (val, u64::from(poison.count_ones()))
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
                self.where_(qpu, cond, then, otherwise, (u16::MAX, 0), memory)?;
            }
            StmtKind::Store {
                value,
                addr,
                stride,
                kind,
                lanes,
            } => {
                // The language's order (it shows only in uniform-stream reads): the lane
                // count, the value, then the address.
                let count = match lanes {
                    Some(n) => {
                        let n = self.eval(qpu, n, memory)?;
                        self.check_defined("the store's lane count", &n, 1)?;
                        (n.words[0] as i32).clamp(0, LANES as i32) as usize
                    }
                    None => LANES,
                };
                let value = self.eval(qpu, value, memory)?;
                let base = self.eval(qpu, addr, memory)?;
                if count == 0 {
                    return Ok(true);
                }
                self.check_defined("the store address", &base, 1)?;
                let stored = if count == LANES {
                    u16::MAX
                } else {
                    (1 << count) - 1
                };
                self.check_defined("the value stored", &value, stored)?;
                let base = base.words[0];
                if base % 4 != 0 {
                    return Err(RunErrorKind::Unaligned {
                        access: "store",
                        address: base,
                    });
                }
                for (lane, word) in value.words.iter().enumerate().take(count) {
                    let address = base.wrapping_add(4 * stride * lane as u32);
                    memory.write(address, lane, *word)?;
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
                self.check_defined("the load or gather address", &addresses, u16::MAX)?;
                // The TMU ignores the low two address bits.
                let aligned = addresses.words.map(|a| a & !3);
                let (value, stray) = self.read_lanes(memory, "gather", &aligned);
                qpu.stats.stray_gathers += stray;
                qpu.fifo.push_back(value);
                qpu.stats.gathers += 1;
            }
            StmtKind::UniformsFrom { addr } => {
                let base = self.lane0_address(
                    qpu,
                    addr,
                    memory,
                    "the uniform stream's address",
                    "uniform stream",
                )?;
                self.uniform_ptr[qpu.id as usize] = base;
            }
            StmtKind::Receive { var } => {
                let value = qpu.fifo.pop_front().ok_or(RunErrorKind::ReceiveEmpty)?;
                qpu.vars[var.0 as usize] = value;
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
            // Recorded by `Kernel::run`, which rewrites it into stores first.
            StmtKind::Debug { .. } => {}
            StmtKind::If { .. } | StmtKind::While { .. } => {
                // Only reachable from a hand-built AST with a branch inside a Where body.
                return Err(RunErrorKind::BranchInWhere);
            }
        }
        Ok(true)
    }

    /// A `where_` under `mask` = (lanes active, lanes whose activity is undefined).
    fn where_(
        &mut self,
        qpu: &mut Qpu,
        cond: &BoolExpr,
        then: &[Stmt],
        otherwise: &[Stmt],
        mask: (u16, u16),
        memory: &mut Memory,
    ) -> Result<(), RunErrorKind> {
        let (lanes, unsure, origin) = self.boolean(qpu, cond, memory)?;
        let lanes = mask_of(|i| lanes[i]);
        let unsure = mask.1 | (mask.0 & unsure);
        let then_mask = (mask.0 & lanes, unsure);
        let else_mask = (mask.0 & !lanes, unsure);
        self.masked_block(qpu, then, then_mask, origin, memory)?;
        self.masked_block(qpu, otherwise, else_mask, origin, memory)
    }

    fn masked_block(
        &mut self,
        qpu: &mut Qpu,
        stmts: &[Stmt],
        mask: (u16, u16),
        cond_origin: u32,
        memory: &mut Memory,
    ) -> Result<(), RunErrorKind> {
        for stmt in stmts {
            self.here = stmt.location;
            match &stmt.kind {
                StmtKind::Assign { var, value } => {
                    let value = self.eval(qpu, value, memory)?;
                    let slot = &mut qpu.vars[var.0 as usize];
                    for lane in 0..LANES {
                        if mask.0 & (1 << lane) != 0 {
                            slot.words[lane] = value.words[lane];
                        }
                    }
                    let written = value.poison & mask.0;
                    let poison = (slot.poison & !mask.0) | written | mask.1;
                    if poison & !slot.poison != 0 {
                        slot.origin = if written != 0 {
                            value.origin
                        } else {
                            cond_origin
                        };
                    }
                    slot.poison = poison;
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

    fn cond(&mut self, qpu: &Qpu, cond: &Cond, memory: &Memory) -> Result<bool, RunErrorKind> {
        let (Cond::Any(b) | Cond::All(b)) = cond;
        let (lanes, unsure, origin) = self.boolean(qpu, b, memory)?;
        self.check_defined(
            "the condition deciding the branch",
            &Val {
                words: [0; LANES],
                poison: unsure,
                origin,
            },
            u16::MAX,
        )?;
        Ok(match cond {
            Cond::Any(_) => lanes.iter().any(|&l| l),
            Cond::All(_) => lanes.iter().all(|&l| l),
        })
    }

    /// Lanes where `b` holds, the lanes where that is undefined, and their origin.
    fn boolean(
        &mut self,
        qpu: &Qpu,
        b: &BoolExpr,
        memory: &Memory,
    ) -> Result<([bool; LANES], u16, u32), RunErrorKind> {
        let join = |a: (u16, u32), b: (u16, u32)| (a.0 | b.0, if a.0 != 0 { a.1 } else { b.1 });
        Ok(match b {
            BoolExpr::Compare {
                op,
                float,
                lhs,
                rhs,
            } => {
                let (l, r) = (self.eval(qpu, lhs, memory)?, self.eval(qpu, rhs, memory)?);
                let (poison, origin) = join((l.poison, l.origin), (r.poison, r.origin));
                let lanes = ops::compare_lanes(*op, *float, &l.words, &r.words, self.float_unit);
                (lanes, poison, origin)
            }
            BoolExpr::Not(inner) => {
                let (lanes, poison, origin) = self.boolean(qpu, inner, memory)?;
                (lanes.map(|l| !l), poison, origin)
            }
            BoolExpr::And(x, y) | BoolExpr::Or(x, y) => {
                let (x_lanes, xp, xo) = self.boolean(qpu, x, memory)?;
                let (y_lanes, yp, yo) = self.boolean(qpu, y, memory)?;
                let and = matches!(b, BoolExpr::And(..));
                let lanes = std::array::from_fn(|i| {
                    if and {
                        x_lanes[i] && y_lanes[i]
                    } else {
                        x_lanes[i] || y_lanes[i]
                    }
                });
                let (poison, origin) = join((xp, xo), (yp, yo));
                (lanes, poison, origin)
            }
        })
    }

    /// Lane 0 of the address `addr`: defined (`what` names it otherwise) and a multiple of 4
    /// (an `access` error otherwise).
    fn lane0_address(
        &mut self,
        qpu: &Qpu,
        addr: &Expr,
        memory: &Memory,
        what: &'static str,
        access: &'static str,
    ) -> Result<u32, RunErrorKind> {
        let base = self.eval(qpu, addr, memory)?;
        self.check_defined(what, &base, 1)?;
        let base = base.words[0];
        if base % 4 != 0 {
            return Err(RunErrorKind::Unaligned {
                access,
                address: base,
            });
        }
        Ok(base)
    }

    fn eval(&mut self, qpu: &Qpu, expr: &Expr, memory: &Memory) -> Result<Val, RunErrorKind> {
        let unit = self.float_unit;
        Ok(match expr {
            Expr::IntLit(v) => Val::defined([*v as u32; LANES]),
            Expr::FloatLit(v) => Val::defined([v.to_bits(); LANES]),
            Expr::Var(var) => qpu.vars[var.0 as usize],
            Expr::Special(Special::Index) => Val::defined(std::array::from_fn(|i| i as u32)),
            Expr::Special(Special::QpuId) => Val::defined([qpu.id; LANES]),
            Expr::Special(Special::NumQpus) => Val::defined([self.num_qpus; LANES]),
            Expr::Unary { op, arg } => {
                let arg = self.eval(qpu, arg, memory)?;
                Val {
                    words: arg.words.map(|a| ops::unary(*op, a, unit)),
                    ..arg
                }
            }
            Expr::Binary { op, lhs, rhs } => {
                let (l, r) = (self.eval(qpu, lhs, memory)?, self.eval(qpu, rhs, memory)?);
                Val {
                    words: ops::binary_lanes(*op, &l.words, &r.words, unit),
                    poison: l.poison | r.poison,
                    origin: if l.poison != 0 { l.origin } else { r.origin },
                }
            }
            Expr::Rotate { value, amount } => {
                let value = self.eval(qpu, value, memory)?;
                let amount = self.eval(qpu, amount, memory)?;
                let by = amount.words[0];
                let lanes: Vector = std::array::from_fn(|i| u32::from(value.poison >> i & 1));
                let rotated = ops::rotate(&lanes, by);
                let (poison, origin) = if amount.poison & 1 != 0 {
                    (u16::MAX, amount.origin)
                } else {
                    (mask_of(|i| rotated[i] != 0), value.origin)
                };
                Val {
                    words: ops::rotate(&value.words, by),
                    poison,
                    origin,
                }
            }
            Expr::Select { cond, a, b } => {
                // Both values, then the condition (the language's order).
                let (a, b) = (self.eval(qpu, a, memory)?, self.eval(qpu, b, memory)?);
                let (lanes, unsure, cond_origin) = self.boolean(qpu, cond, memory)?;
                let chosen = mask_of(|i| lanes[i]);
                let poison = (a.poison & chosen) | (b.poison & !chosen) | unsure;
                let origin = if unsure != 0 {
                    cond_origin
                } else if a.poison & chosen != 0 {
                    a.origin
                } else {
                    b.origin
                };
                Val {
                    words: std::array::from_fn(|i| if lanes[i] { a.words[i] } else { b.words[i] }),
                    poison,
                    origin,
                }
            }
            Expr::Uniform { .. } => {
                // One word, broadcast. Outside every array it is an error at once, as on the
                // emulator (the stream reads through the uniform cache, not the TMU).
                let address = self.uniform_ptr[qpu.id as usize];
                self.uniform_ptr[qpu.id as usize] = address.wrapping_add(4);
                match memory.read(address) {
                    Some(word) => Val::defined([word; LANES]),
                    None => {
                        return Err(RunErrorKind::OutOfBounds {
                            access: "uniform read",
                            lane: 0,
                            address,
                            place: ArrayPlace::find(&memory.places, address),
                        })
                    }
                }
            }
            Expr::Load { addr, stride, .. } => {
                let base =
                    self.lane0_address(qpu, addr, memory, "the load or gather address", "load")?;
                let addresses =
                    std::array::from_fn(|lane| base.wrapping_add(4 * stride * lane as u32));
                self.read_lanes(memory, "load", &addresses).0
            }
        })
    }
}

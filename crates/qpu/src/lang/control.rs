//! Statements that take bodies (`while_`, `for_`, `if_`, `where_`) and the memory and
//! synchronisation statements (`gather`, `receive`, `store`, semaphores).
//!
//! Bodies are closures run once, at build time, to record their statements; a Rust `for`
//! loop inside a body therefore unrolls, and a Rust function call inlines. Conditions are
//! passed as values (not closures) because they are recorded as expressions and re-evaluated
//! by the kernel each time — `while_(any(a.ne(b)), || …)` tests `a != b` before every
//! iteration.

use super::ast::{BoolExpr, Cond as AstCond, StmtKind, StoreKind};
use super::builder::{with_builder, Builder};
use super::values::sealed::Sealed;
use super::values::{any, assign_at, record_store, Bool, Cond, Int, Ptr, Scalar};
use crate::error::{BuildErrorKind, SourceLocation};

fn condition(b: &mut Builder, cond: Cond, location: SourceLocation) -> Option<AstCond> {
    let expr = b.boolean(cond.handle, location)?;
    let expr = (*expr).clone();
    Some(if cond.all {
        AstCond::All(expr)
    } else {
        AstCond::Any(expr)
    })
}

/// Record `body` into a fresh block and return its statements. The builder is not borrowed
/// while the user's closure runs (it records through the same thread-local).
fn record_block(in_where: bool, body: impl FnOnce()) -> Vec<super::ast::Stmt> {
    with_builder(|b| {
        b.push_block();
        if in_where {
            b.enter_where();
        }
    });
    body();
    with_builder(|b| {
        if in_where {
            b.leave_where();
        }
        b.pop_block()
    })
    .unwrap_or_default()
}

fn reject_in_where(b: &mut Builder, what: &'static str, location: SourceLocation) -> bool {
    if b.in_where() {
        b.error(BuildErrorKind::ControlInWhere { what }, location);
        true
    } else {
        false
    }
}

/// `while cond { body }`: run `body` as long as `cond` holds (tested first).
///
/// A bare [`Bool`] condition means [`any`](crate::lang::any).
///
/// ```
/// use qpu::lang::*;
/// let kernel = qpu::compile(|p: Ptr<Int>| {
///     let n = Int::var(p.load());
///     while_(any(n.gt(0)), || n.set(n - 1));
///     p.store(n);
/// });
/// assert!(kernel.is_ok());
/// ```
#[track_caller]
pub fn while_(cond: impl Into<Cond>, body: impl FnOnce()) {
    let location = SourceLocation::caller();
    let cond = cond.into();
    let cond = with_builder(|b| {
        reject_in_where(b, "`while_`", location);
        condition(b, cond, location)
    })
    .flatten();
    let body = record_block(false, body);
    with_builder(|b| {
        if let Some(cond) = cond {
            b.record(StmtKind::While { cond, body }, location);
        }
    });
}

/// `for (i = init; cond(i); i = step(i)) { body(i) }` with a fresh `Int` loop variable.
///
/// Recorded as the declaration of `i`, then a `while_` whose body ends with the step. For the
/// common `i < end` loop, [`for_range`] reads better.
///
/// ```
/// use qpu::lang::*;
/// let kernel = qpu::compile(|p: Ptr<Int>, n: Int| {
///     let sum = Int::var(0);
///     for_(0, |i| i.lt(n), |i| i + 1, |i| sum.set(sum + i));
///     p.store(sum);
/// });
/// assert!(kernel.is_ok());
/// ```
#[track_caller]
pub fn for_<C: Into<Cond>, S: Into<Int>>(
    init: impl Into<Int>,
    cond: impl FnOnce(Int) -> C,
    step: impl FnOnce(Int) -> S,
    body: impl FnOnce(Int),
) {
    let location = SourceLocation::caller();
    with_builder(|b| reject_in_where(b, "`for_`", location));
    let i = Int::var(init);
    let cond = cond(i).into();
    // The step is an expression over `i`, so it can be built now and assigned at the end of
    // each iteration.
    let next = step(i).into();
    loop_with_step(i, cond, next, body, location);
}

/// `for (i = start; i < end; i += step) { body(i) }` (QPULib's
/// `For (Int i = start, i < end, i = i + step)`). `end` and `step` are re-evaluated every
/// iteration, like any kernel expression.
///
/// ```
/// use qpu::lang::*;
/// let kernel = qpu::compile(|p: Ptr<Int>, n: Int| {
///     let sum = Int::var(0);
///     for_range(0, n, 1, |i| sum.set(sum + i));
///     p.store(sum);
/// });
/// assert!(kernel.is_ok());
/// ```
#[track_caller]
pub fn for_range(
    start: impl Into<Int>,
    end: impl Into<Int>,
    step: impl Into<Int>,
    body: impl FnOnce(Int),
) {
    let location = SourceLocation::caller();
    with_builder(|b| reject_in_where(b, "`for_range`", location));
    let i = Int::var(start);
    let cond = any(i.lt(end));
    let next = i + step;
    loop_with_step(i, cond, next, body, location);
}

fn loop_with_step(i: Int, cond: Cond, next: Int, body: impl FnOnce(Int), location: SourceLocation) {
    let cond = with_builder(|b| condition(b, cond, location)).flatten();
    let body = record_block(false, || {
        body(i);
        assign_at(i.handle(), next.handle(), location);
    });
    with_builder(|b| {
        if let Some(cond) = cond {
            b.record(StmtKind::While { cond, body }, location);
        }
    });
}

/// What `if_`/`where_` return, to attach an `else_` branch.
///
/// Call `.else_(…)` directly on it (nothing may be recorded in between); dropping it means
/// "no else branch".
#[derive(Debug)]
pub struct Else {
    target: Option<ElseTarget>,
}

#[derive(Debug)]
struct ElseTarget {
    generation: u32,
    depth: usize,
    index: usize,
    /// How many `else_if` levels to descend: follow `otherwise[0]` this many times.
    chain: usize,
    is_where: bool,
}

impl ElseTarget {
    fn here(b: &Builder, is_where: bool) -> Option<ElseTarget> {
        let (depth, index) = b.last_position()?;
        Some(ElseTarget {
            generation: b.generation(),
            depth,
            index,
            chain: 0,
            is_where,
        })
    }

    /// The `otherwise` list of the statement this target names, if it is still attachable.
    fn otherwise<'b>(&self, b: &'b mut Builder) -> Option<&'b mut Vec<super::ast::Stmt>> {
        if b.generation() != self.generation {
            return None;
        }
        let mut stmt = b.stmt_mut(self.depth, self.index)?;
        for _ in 0..self.chain {
            match &mut stmt.kind {
                StmtKind::If { otherwise, .. } => stmt = otherwise.first_mut()?,
                _ => return None,
            }
        }
        match &mut stmt.kind {
            StmtKind::If { otherwise, .. } if !self.is_where => Some(otherwise),
            StmtKind::Where { otherwise, .. } if self.is_where => Some(otherwise),
            _ => None,
        }
    }
}

impl Else {
    /// Attach the branch run when the `if_` condition fails (or, after `where_`, the masked
    /// assignments for the lanes where its condition was false).
    #[track_caller]
    pub fn else_(self, body: impl FnOnce()) {
        let location = SourceLocation::caller();
        self.attach(body, location);
    }

    fn attach(self, body: impl FnOnce(), location: SourceLocation) -> bool {
        let is_where = self.target.as_ref().is_some_and(|t| t.is_where);
        let usable = with_builder(|b| {
            let ok = match &self.target {
                Some(target) => target.otherwise(b).is_some_and(|o| o.is_empty()),
                None => true, // the if_/where_ itself failed; its error is already recorded
            };
            if !ok {
                b.error(BuildErrorKind::MisplacedElse, location);
            }
            ok
        })
        .unwrap_or(false);
        let stmts = record_block(is_where, body);
        if !usable {
            return false;
        }
        with_builder(|b| {
            if let Some(target) = &self.target {
                if let Some(otherwise) = target.otherwise(b) {
                    *otherwise = stmts;
                }
            }
        });
        true
    }

    /// `else if cond { body }`, returning a handle for a further `else_`/`else_if`.
    #[track_caller]
    pub fn else_if(self, cond: impl Into<Cond>, body: impl FnOnce()) -> Else {
        let location = SourceLocation::caller();
        if self.target.as_ref().is_some_and(|t| t.is_where) {
            with_builder(|b| {
                b.error(
                    BuildErrorKind::ControlInWhere {
                        what: "`else_if` after `where_`",
                    },
                    location,
                )
            });
            return Else { target: None };
        }
        let cond = cond.into();
        let next = self.target.as_ref().map(|t| ElseTarget {
            generation: t.generation,
            depth: t.depth,
            index: t.index,
            chain: t.chain + 1,
            is_where: false,
        });
        let attached = self.attach(
            || {
                if_at(cond, body, location);
            },
            location,
        );
        Else {
            target: if attached { next } else { None },
        }
    }
}

/// `if cond { then }`: a branch taken by the whole QPU. A bare [`Bool`] means `any`.
/// Returns an [`Else`] for an optional `.else_(…)`.
///
/// ```
/// use qpu::lang::*;
/// let kernel = qpu::compile(|p: Ptr<Int>| {
///     let x = Int::var(p.load());
///     if_(all(x.gt(0)), || x.set(1)).else_(|| x.set(2));
///     p.store(x);
/// });
/// assert!(kernel.is_ok());
/// ```
#[track_caller]
pub fn if_(cond: impl Into<Cond>, then: impl FnOnce()) -> Else {
    if_at(cond.into(), then, SourceLocation::caller())
}

fn if_at(cond: Cond, then: impl FnOnce(), location: SourceLocation) -> Else {
    let cond = with_builder(|b| {
        reject_in_where(b, "`if_`", location);
        condition(b, cond, location)
    })
    .flatten();
    let then = record_block(false, then);
    let target = with_builder(|b| {
        let cond = cond?;
        b.record(
            StmtKind::If {
                cond,
                then,
                otherwise: Vec::new(),
            },
            location,
        );
        ElseTarget::here(b, false)
    })
    .flatten();
    Else { target }
}

/// `where cond { then }`: per-lane masked assignment. `cond` is evaluated once; the body's
/// assignments only change lanes where it held (and that enclosing `where_`s enable). The
/// body may only assign variables and nest more `where_`s. `.else_(…)` assigns the other
/// lanes.
///
/// ```
/// use qpu::lang::*;
/// let kernel = qpu::compile(|p: Ptr<Int>| {
///     let x = Int::var(p.load());
///     where_(x.lt(0), || x.set(-x)).else_(|| x.set(x * 2));
///     p.store(x);
/// });
/// assert!(kernel.is_ok());
/// ```
#[track_caller]
pub fn where_(cond: Bool, then: impl FnOnce()) -> Else {
    let location = SourceLocation::caller();
    let cond: Option<BoolExpr> = with_builder(|b| {
        let cond = b.boolean(cond.handle(), location)?;
        if b.in_where() && cond.has_load() {
            b.error(BuildErrorKind::MemoryInWhere { what: "a load" }, location);
        }
        Some((*cond).clone())
    })
    .flatten();
    let then = record_block(true, then);
    let target = with_builder(|b| {
        let cond = cond?;
        b.record(
            StmtKind::Where {
                cond,
                then,
                otherwise: Vec::new(),
            },
            location,
        );
        ElseTarget::here(b, true)
    })
    .flatten();
    Else { target }
}

/// Request the element at each lane's address of `p` (non-blocking; QPULib's `gather`).
/// Collect it later with [`receive`]. At most 4 gathers may be outstanding per QPU.
#[track_caller]
pub fn gather<T: Scalar>(p: Ptr<T>) {
    let location = SourceLocation::caller();
    with_builder(|b| {
        if b.in_where() {
            b.error(BuildErrorKind::MemoryInWhere { what: "`gather`" }, location);
            return;
        }
        if let Some(addr) = b.value(p.handle(), location) {
            b.record(
                StmtKind::Gather {
                    addr: (*addr).clone(),
                },
                location,
            );
        }
    });
}

/// Wait for the oldest outstanding [`gather`] and write its 16 values into the variable `x`.
#[track_caller]
pub fn receive<T: Scalar>(x: T) {
    let location = SourceLocation::caller();
    with_builder(|b| {
        if b.in_where() {
            b.error(
                BuildErrorKind::MemoryInWhere { what: "`receive`" },
                location,
            );
            return;
        }
        let Some(target) = b.value(x.handle(), location) else {
            return;
        };
        match *target {
            super::ast::Expr::Var(var) => b.record(StmtKind::Receive { var }, location),
            _ => b.error(BuildErrorKind::ReceiveIntoExpression, location),
        }
    });
}

/// Store `value` to the 16 consecutive elements starting at lane 0's address of `p`,
/// without waiting (QPULib's `store`). The next store waits for this one.
#[track_caller]
pub fn store<T: Scalar>(value: impl Into<T>, p: Ptr<T>) {
    record_store(
        value.into().handle(),
        p.handle(),
        1,
        StoreKind::NonBlocking,
        SourceLocation::caller(),
    );
}

#[track_caller]
fn semaphore(n: u32, increment: bool) {
    let location = SourceLocation::caller();
    with_builder(|b| {
        if b.in_where() {
            b.error(
                BuildErrorKind::MemoryInWhere {
                    what: "a semaphore",
                },
                location,
            );
            return;
        }
        if n > 14 {
            b.error(BuildErrorKind::SemaphoreOutOfRange(n), location);
            return;
        }
        let n = n as u8;
        b.record(
            if increment {
                StmtKind::SemaInc(n)
            } else {
                StmtKind::SemaDec(n)
            },
            location,
        );
    });
}

/// Record `value`'s 16 lanes, labelled, each time this statement runs: the run's
/// [`RunReport::debug`](crate::runtime::RunReport::debug) lists the records with the QPU and
/// this line, on every backend (the interpreter, the emulator and a Pi). A printf for
/// kernels: up to [`DEBUG_RECORDS`](crate::runtime::DEBUG_RECORDS) records per QPU per run
/// are kept, later ones are counted as dropped. Each record costs two small stores. Not
/// allowed inside `where_` (records are stores).
#[track_caller]
pub fn debug<T: Scalar>(label: &str, value: T) {
    let location = SourceLocation::caller();
    with_builder(|b| {
        if b.in_where() {
            b.error(BuildErrorKind::MemoryInWhere { what: "`debug`" }, location);
            return;
        }
        let Some(value) = b.value(value.handle(), location) else {
            return;
        };
        b.record(
            StmtKind::Debug {
                label: label.to_string(),
                value: (*value).clone(),
                float: T::TYPE == super::ast::Type::Float,
            },
            location,
        );
    });
}

/// Increment system-wide semaphore `n` (0..=14); blocks while it is at 15.
#[track_caller]
pub fn sema_inc(n: u32) {
    semaphore(n, true);
}

/// Decrement system-wide semaphore `n` (0..=14); blocks while it is at 0.
#[track_caller]
pub fn sema_dec(n: u32) {
    semaphore(n, false);
}

/// The QPU's uniform stream pointed at memory: scalars read one after another, each
/// broadcast to all 16 lanes, with no ALU operation and no TMU or DMA request — the cheapest
/// way to bring a matrix's elements, a table of constants or a schedule into a kernel.
///
/// ```
/// # use qpu::lang::*;
/// // out = Σ_k a[k] · x[k·16 .. k·16+16]: a[k] arrives broadcast, x's rows as vectors.
/// let kernel = qpu::compile(|a: Ptr<Float>, x: Ptr<Float>, out: Ptr<Float>| {
///     let stream = UniformStream::at(a);
///     let sum = Float::var(0.0);
///     for k in 0..4 {
///         sum.set(sum + stream.next() * (x + k * 16).load());
///     }
///     out.store(sum);
/// })?;
/// # let device = qpu::Device::emulator();
/// # let a = device.alloc_from(&[1.0f32, 2.0, 3.0, 4.0])?;
/// # let x = device.alloc_from(&[1.0f32; 64])?;
/// # let mut out = device.alloc::<f32>(16)?;
/// # kernel.run(&device, (&a, &x, &mut out))?;
/// # assert_eq!(out[0], 10.0);
/// # Ok::<(), qpu::Error>(())
/// ```
///
/// Each QPU has one stream: [`UniformStream::at`] points it at lane 0's address of `p`;
/// every evaluation of [`UniformStream::next`] reads the next element (expressions are
/// evaluated left to right, so `s.next() - s.next()` is the first element minus the second).
/// The stream reads memory through the uniform cache, which does not see the kernel's own
/// stores: read only memory this launch does not write. A read that may happen before any
/// `at` is a build error. Not allowed inside `where_`.
#[derive(Debug, Clone, Copy)]
pub struct UniformStream<T> {
    _elem: std::marker::PhantomData<T>,
}

impl<T: Scalar> UniformStream<T> {
    /// Point this QPU's stream at lane 0's address of `p` (QPU: a write to `unif_addr`).
    #[track_caller]
    pub fn at(p: Ptr<T>) -> UniformStream<T> {
        let location = SourceLocation::caller();
        with_builder(|b| {
            if b.in_where() {
                b.error(
                    BuildErrorKind::MemoryInWhere {
                        what: "`UniformStream::at`",
                    },
                    location,
                );
                return;
            }
            if let Some(addr) = b.value(p.handle(), location) {
                b.record(
                    StmtKind::UniformsFrom {
                        addr: (*addr).clone(),
                    },
                    location,
                );
            }
        });
        UniformStream {
            _elem: std::marker::PhantomData,
        }
    }

    /// The next element, in every lane (an expression: each evaluation reads one element).
    #[track_caller]
    pub fn next(self) -> T {
        let location = SourceLocation::caller();
        let handle = super::builder::build_value(|b| {
            if b.in_where() {
                b.error(
                    BuildErrorKind::MemoryInWhere {
                        what: "a uniform-stream read",
                    },
                    location,
                );
                return None;
            }
            Some(super::ast::Expr::Uniform { elem: T::ELEM })
        });
        T::from_handle(handle)
    }
}

//! The kernel AST: plain data that the builder produces and that the interpreter runs and the
//! compiler lowers.
//!
//! # Shape
//!
//! A [`Kernel`] is a parameter list, a variable table and a body of [`Stmt`]s. Every value is a
//! 16-lane vector of 32-bit words; the AST is typed by its operators (`IntAdd` vs `FloatAdd`)
//! and by the variable table, so no node needs a type annotation to be lowered.
//!
//! * [`Expr`] — a value: literal, variable read, lane/QPU number, unary or binary operation,
//!   lane rotation, or a whole-vector load from memory. Expressions have no side effects other
//!   than a load's memory read; they are evaluated each time the statement holding them runs.
//!   Children are `Arc`s so the builder can share subexpressions without copying; treat the
//!   result as a tree (sharing is an optimisation, never a semantic difference).
//! * [`BoolExpr`] — a per-lane condition (comparisons combined with not/and/or). Booleans are
//!   never stored: they only appear as `where_` masks and, reduced by [`Cond`] (`any`/`all`),
//!   as `if_`/`while_` conditions.
//! * [`Stmt`] — assignment, `If`, `While`, `Where` (per-lane masked assignment), stores,
//!   gather/receive and semaphores. `for_` is recorded as its initialisation followed by a
//!   `While` whose body ends with the step; there is no separate `For` node.
//!
//! Variables are numbered ([`VarId`]) densely from 0; parameters are ordinary variables whose
//! initial value is the launch argument (see [`Kernel::params`]). Every variable holds zeroes
//! before its first assignment.
//!
//! # Semantics in brief
//!
//! The operator documentation on [`UnaryOp`], [`BinaryOp`] and [`CmpOp`] is normative; the
//! executable definition is `qpu::interp::ops`.

use std::fmt;
use std::sync::Arc;

use crate::error::SourceLocation;

/// Number of lanes in every vector.
pub const LANES: usize = 16;

/// A variable's number: its index into [`Kernel::vars`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// What a pointer points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// 32-bit two's-complement integers.
    Int,
    /// IEEE-754 binary32 (with the hardware's flush-to-zero, see [`BinaryOp`]).
    Float,
}

/// The type of a variable or parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    /// 16 × i32.
    Int,
    /// 16 × f32.
    Float,
    /// 16 byte addresses of elements of the given type.
    Ptr(ElemType),
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int => f.write_str("Int"),
            Type::Float => f.write_str("Float"),
            Type::Ptr(ElemType::Int) => f.write_str("Ptr<Int>"),
            Type::Ptr(ElemType::Float) => f.write_str("Ptr<Float>"),
        }
    }
}

/// A declared variable.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    /// Its type.
    pub ty: Type,
    /// Where the user declared it (the `Int::var` call, or the `compile` call for parameters).
    pub location: SourceLocation,
}

/// A kernel parameter: a variable initialised from the launch arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The variable holding the argument.
    pub var: VarId,
    /// Its type (equal to `vars[var].ty`).
    pub ty: Type,
}

/// A complete kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    /// Parameters in declaration order: argument `i` of a launch initialises `params[i].var`
    /// in every lane on every QPU. Pointers arrive as 32-bit bus addresses.
    pub params: Vec<Param>,
    /// All variables, parameters included, indexed by [`VarId`].
    pub vars: Vec<VarDecl>,
    /// The statements run by every QPU.
    pub body: Vec<Stmt>,
    /// Where `compile` was called.
    pub location: SourceLocation,
}

/// Built-in vector values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Special {
    /// The lane number: `<0 1 2 … 15>`.
    Index,
    /// This QPU's number in the launch, `0..num_qpus`, in every lane.
    QpuId,
    /// How many QPUs run the kernel, in every lane.
    NumQpus,
}

/// One-operand operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// Bitwise complement.
    IntNot,
    /// Wrapping absolute value: `abs(i32::MIN) == i32::MIN`.
    IntAbs,
    /// Count of leading zero bits; 32 for 0.
    Clz,
    /// Signed int to float, rounded to nearest-even.
    IntToFloat,
    /// Float to signed int, truncating toward zero; NaN gives 0. Out of range the V3D
    /// saturates to `i32::MIN`/`i32::MAX` and the VideoCore IV gives 0 (an assumption: the
    /// guide does not say; `help_us_check` asks a Pi).
    FloatToInt,
    /// `|x|` (on the VideoCore IV a denormal input is flushed first, so the result is never
    /// denormal there).
    FloatAbs,
    /// `1/x` (SFU). Exactly rounded here; approximate on the hardware.
    Recip,
    /// `1/sqrt(|x|)` (SFU; the sign is ignored as the SFU does). Exact here, approximate on
    /// the hardware.
    Rsqrt,
    /// `2^x` (SFU). Exact here, approximate on the hardware.
    Exp2,
    /// `log2(|x|)` (SFU; sign ignored). Exact here, approximate on the hardware.
    Log2,
    /// `sqrt(|x|)`, defined as `recip(rsqrt(x))` — two SFU operations, each rounded.
    Sqrt,
}

/// Two-operand operators. Integer operators work on two's-complement 32-bit lanes; float
/// operators compute as the targeted GPU generation's float unit does (the VideoCore IV
/// truncates and flushes denormals to a zero of the same sign; the V3D rounds to nearest and
/// keeps them): see `qpu::interp::ops`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// Wrapping addition.
    IntAdd,
    /// Wrapping subtraction.
    IntSub,
    /// Wrapping 32 × 32 → low 32 bits product.
    IntMul,
    /// The hardware's `mul24`: the low 24 bits of each operand, as unsigned numbers, multiplied;
    /// the low 32 bits of the product.
    Mul24,
    /// Shift left by `rhs & 31`.
    Shl,
    /// Arithmetic shift right by `rhs & 31`.
    Asr,
    /// Logical shift right by `rhs & 31`.
    Lsr,
    /// Rotate bits right by `rhs & 31`.
    Ror,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Signed minimum.
    IntMin,
    /// Signed maximum.
    IntMax,
    /// Signed division rounding toward zero (Rust's `wrapping_div`: `MIN / -1 = MIN`). By
    /// zero: `-1` for `lhs >= 0`, `1` for `lhs < 0` (what the compiled long division gives).
    IntDiv,
    /// Signed remainder with the sign of `lhs` (Rust's `wrapping_rem`). By zero: `lhs`.
    IntRem,
    /// Float addition (rounding toward zero, as the QPU does; denormals flush to zero).
    FloatAdd,
    /// Float subtraction (rounding toward zero).
    FloatSub,
    /// Float multiplication (rounding toward zero).
    FloatMul,
    /// Float division, defined as `lhs * recip(rhs)`: two roundings, so within about 1.5 ulp
    /// of the true quotient here; on hardware the SFU's approximate reciprocal adds its error.
    FloatDiv,
    /// Minimum; a NaN operand yields the other operand; `min(-0, +0) = -0`.
    FloatMin,
    /// Maximum; a NaN operand yields the other operand; `max(-0, +0) = +0`.
    FloatMax,
}

/// Comparison operators. Integer comparisons are true signed comparisons (no overflow
/// artefacts); float comparisons follow IEEE-754 after flushing denormals (`-0 == +0`, any
/// comparison with NaN is false except `Ne`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// A vector value.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An integer literal, in every lane.
    IntLit(i32),
    /// A float literal, in every lane.
    FloatLit(f32),
    /// The current value of a variable.
    Var(VarId),
    /// A built-in value.
    Special(Special),
    /// `op(arg)`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        arg: Arc<Expr>,
    },
    /// `lhs op rhs`, lane by lane.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Arc<Expr>,
        /// Right operand.
        rhs: Arc<Expr>,
    },
    /// Lane rotation: result lane `i` is `value` lane `(i - n) mod 16`, where `n` is lane 0 of
    /// `amount` (so a rotation by 1 moves lane 0 to lane 1; negative amounts rotate the other
    /// way; every amount is defined).
    Rotate {
        /// The vector to rotate (Int or Float).
        value: Arc<Expr>,
        /// The rotation amount (Int); only lane 0 is used, modulo 16.
        amount: Arc<Expr>,
    },
    /// Lane-wise choice: `a` in the lanes where `cond` holds, `b` elsewhere.
    Select {
        /// The per-lane condition.
        cond: Arc<BoolExpr>,
        /// The value where it holds.
        a: Arc<Expr>,
        /// The value where it does not.
        b: Arc<Expr>,
    },
    /// The next element of this QPU's uniform stream (see [`StmtKind::UniformsFrom`]), in
    /// every lane; each evaluation reads one element and advances the stream by 4 bytes.
    /// Evaluation order (which only these reads can observe): operands left to right before
    /// their operation; a `Select`'s two values before its condition; a `Store`'s lane
    /// count, value, then address.
    Uniform {
        /// The element type read.
        elem: ElemType,
    },
    /// Whole-vector load: lane `i` is the word at `addr[0] + 4 * stride * i`. Only lane 0 of
    /// `addr` is used; it must be a multiple of 4.
    Load {
        /// The address (a pointer expression).
        addr: Arc<Expr>,
        /// The element type loaded.
        elem: ElemType,
        /// Distance between consecutive lanes' elements, in elements (1 = contiguous).
        stride: u32,
    },
}

/// A per-lane boolean.
#[derive(Debug, Clone, PartialEq)]
pub enum BoolExpr {
    /// A comparison of two Int (`float == false`) or two Float (`float == true`) vectors.
    Compare {
        /// The comparison.
        op: CmpOp,
        /// Whether the operands are Float (otherwise Int or pointers).
        float: bool,
        /// Left operand.
        lhs: Arc<Expr>,
        /// Right operand.
        rhs: Arc<Expr>,
    },
    /// Lane-wise negation.
    Not(Arc<BoolExpr>),
    /// Lane-wise conjunction.
    And(Arc<BoolExpr>, Arc<BoolExpr>),
    /// Lane-wise disjunction.
    Or(Arc<BoolExpr>, Arc<BoolExpr>),
}

/// A scalar condition for `If`/`While`: a reduction of a per-lane boolean.
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    /// True when the boolean holds in at least one lane.
    Any(BoolExpr),
    /// True when the boolean holds in every lane.
    All(BoolExpr),
}

/// How a whole-vector store waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StoreKind {
    /// `p.store(x)`: complete before the next statement.
    Blocking,
    /// `store(x, p)`: may overlap with following statements; the next store (or kernel end)
    /// waits for it. In a `for_range`-shaped loop that advances `p` by a fixed step, the
    /// compiler batches consecutive iterations' stores into one DMA, written when the batch
    /// is full or the loop ends. The interpreter performs it immediately; the difference is
    /// for the compiler. Reading stored memory back in the same launch is undefined either
    /// way: VDW writes bypass the TMU and L2 caches (vc4asm issue #5).
    NonBlocking,
}

/// A statement and where the user wrote it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Where the user wrote it.
    pub location: SourceLocation,
}

/// The statements.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `var = value` in the lanes enabled by the enclosing `Where`s (all lanes outside any).
    Assign {
        /// The variable written.
        var: VarId,
        /// The value.
        value: Expr,
    },
    /// Run `then` if `cond` holds, else `otherwise`.
    If {
        /// The condition.
        cond: Cond,
        /// Taken branch.
        then: Vec<Stmt>,
        /// Not-taken branch (may be empty).
        otherwise: Vec<Stmt>,
    },
    /// Run `body` while `cond` holds (tested before each iteration).
    While {
        /// The condition.
        cond: Cond,
        /// The loop body.
        body: Vec<Stmt>,
    },
    /// Per-lane masked assignment: evaluate `cond` once; run `then` with the lanes where it
    /// holds enabled and `otherwise` with the others (both within the enclosing mask). Bodies
    /// contain only `Assign` and nested `Where`.
    Where {
        /// The per-lane mask, evaluated once before either body runs.
        cond: BoolExpr,
        /// Assignments for lanes where `cond` holds.
        then: Vec<Stmt>,
        /// Assignments for the other lanes.
        otherwise: Vec<Stmt>,
    },
    /// Whole-vector store: lane `i` of `value` goes to the word at
    /// `addr[0] + 4 * stride * i`. Lane 0 of `addr` must be a multiple of 4.
    Store {
        /// The vector stored.
        value: Expr,
        /// Where (a pointer expression; lane 0 is used).
        addr: Expr,
        /// Distance between consecutive lanes' elements, in elements (1 = contiguous).
        stride: u32,
        /// Whether the kernel waits for it.
        kind: StoreKind,
        /// `Some(n)`: store only lanes `0..n`, with `n` lane 0 of this Int clamped to 0..=16
        /// (nothing at all for `n <= 0`); `None`: all 16 lanes.
        lanes: Option<Expr>,
    },
    /// Request the word at each lane's address (low two address bits ignored, as the TMU
    /// does); the result queues in this QPU's FIFO (4 deep) until `Receive`. Memory is read
    /// when the gather runs.
    Gather {
        /// Per-lane addresses.
        addr: Expr,
    },
    /// Point this QPU's uniform stream at lane 0 of `addr` (a multiple of 4): the following
    /// [`Expr::Uniform`] reads return the words from there on, one per read. Memory this
    /// launch has stored to must not be read this way (the uniform cache does not see
    /// stores).
    UniformsFrom {
        /// Where the stream starts (a pointer expression; lane 0 is used).
        addr: Expr,
    },
    /// Pop the oldest gathered vector into `var` (all lanes, never masked).
    Receive {
        /// The variable written.
        var: VarId,
    },
    /// Increment a system-wide counting semaphore (0..=15 values; blocks at 15).
    SemaInc(u8),
    /// Decrement a system-wide counting semaphore (blocks at 0).
    SemaDec(u8),
    /// Record `value`'s 16 lanes under `label` (see [`crate::lang::debug`]). Only
    /// [`Kernel::run`](crate::runtime::Kernel::run) records: it turns each into stores to
    /// hidden arrays before launching. Anywhere else (the compiler or interpreter given the
    /// AST directly) it does nothing.
    Debug {
        /// The label given.
        label: String,
        /// The value recorded.
        value: Expr,
        /// Whether it is a Float (else an Int or pointer).
        float: bool,
    },
}

impl Stmt {
    /// Visit the top-level expressions this statement evaluates itself (values, addresses, lane
    /// counts, conditions' operands), not those of the statements in its bodies.
    pub(crate) fn own_exprs(&self, visit: &mut dyn FnMut(&Expr)) {
        let boolean = |b: &BoolExpr, visit: &mut dyn FnMut(&Expr)| b.walk(&mut |e| visit(e));
        match &self.kind {
            StmtKind::Assign { value, .. } | StmtKind::Debug { value, .. } => visit(value),
            StmtKind::Store {
                value, addr, lanes, ..
            } => {
                visit(value);
                visit(addr);
                if let Some(n) = lanes {
                    visit(n);
                }
            }
            StmtKind::Gather { addr } | StmtKind::UniformsFrom { addr } => visit(addr),
            StmtKind::Where { cond, .. } => boolean(cond, visit),
            StmtKind::If {
                cond: Cond::Any(b) | Cond::All(b),
                ..
            }
            | StmtKind::While {
                cond: Cond::Any(b) | Cond::All(b),
                ..
            } => boolean(b, visit),
            StmtKind::Receive { .. } | StmtKind::SemaInc(_) | StmtKind::SemaDec(_) => {}
        }
    }

    /// The statements of this statement's bodies (`if_`/`else_`, `while_`, `where_`).
    pub(crate) fn bodies(&self) -> [&[Stmt]; 2] {
        match &self.kind {
            StmtKind::If {
                then, otherwise, ..
            }
            | StmtKind::Where {
                then, otherwise, ..
            } => [then, otherwise],
            StmtKind::While { body, .. } => [body, &[]],
            _ => [&[], &[]],
        }
    }
}

impl Expr {
    /// Visit this expression and all its subexpressions (pre-order).
    pub fn walk(&self, visit: &mut dyn FnMut(&Expr)) {
        visit(self);
        match self {
            Expr::IntLit(_)
            | Expr::FloatLit(_)
            | Expr::Var(_)
            | Expr::Special(_)
            | Expr::Uniform { .. } => {}
            Expr::Unary { arg, .. } => arg.walk(visit),
            Expr::Binary { lhs, rhs, .. } => {
                lhs.walk(visit);
                rhs.walk(visit);
            }
            Expr::Rotate { value, amount } => {
                value.walk(visit);
                amount.walk(visit);
            }
            Expr::Load { addr, .. } => addr.walk(visit),
            Expr::Select { cond, a, b } => {
                cond.walk(visit);
                a.walk(visit);
                b.walk(visit);
            }
        }
    }

    /// This expression rebuilt bottom up: every subexpression (the operands of a `select`'s
    /// condition too), once its own subexpressions are rebuilt, replaced by `f` of it. The
    /// one traversal the compiler's AST rewrites (renaming, division by constants) share.
    pub(crate) fn map(&self, f: &mut dyn FnMut(Expr) -> Expr) -> Expr {
        let rebuilt = match self {
            Expr::IntLit(_)
            | Expr::FloatLit(_)
            | Expr::Var(_)
            | Expr::Special(_)
            | Expr::Uniform { .. } => self.clone(),
            Expr::Unary { op, arg } => Expr::Unary {
                op: *op,
                arg: Arc::new(arg.map(f)),
            },
            Expr::Binary { op, lhs, rhs } => {
                let lhs = Arc::new(lhs.map(f));
                Expr::Binary {
                    op: *op,
                    lhs,
                    rhs: Arc::new(rhs.map(f)),
                }
            }
            Expr::Rotate { value, amount } => {
                let value = Arc::new(value.map(f));
                Expr::Rotate {
                    value,
                    amount: Arc::new(amount.map(f)),
                }
            }
            Expr::Load { addr, elem, stride } => Expr::Load {
                addr: Arc::new(addr.map(f)),
                elem: *elem,
                stride: *stride,
            },
            Expr::Select { cond, a, b } => {
                let (a, b) = (Arc::new(a.map(f)), Arc::new(b.map(f)));
                Expr::Select {
                    cond: Arc::new(cond.map(f)),
                    a,
                    b,
                }
            }
        };
        f(rebuilt)
    }

    /// Whether evaluating this expression sets the flags (a `select` or an integer division):
    /// an assignment under a `where_` then evaluates it before testing its mask.
    pub fn sets_flags(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| {
            found |= matches!(
                e,
                Expr::Select { .. }
                    | Expr::Binary {
                        op: BinaryOp::IntDiv | BinaryOp::IntRem,
                        ..
                    }
            )
        });
        found
    }

    /// Whether evaluating this expression reads memory (a load or a uniform-stream read).
    pub fn has_load(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e, Expr::Load { .. } | Expr::Uniform { .. }));
        found
    }

    /// Whether evaluating this expression reads the uniform stream.
    pub fn reads_uniform(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e, Expr::Uniform { .. }));
        found
    }
}

impl BoolExpr {
    /// Visit every expression in this condition (pre-order).
    pub fn walk(&self, visit: &mut dyn FnMut(&Expr)) {
        match self {
            BoolExpr::Compare { lhs, rhs, .. } => {
                lhs.walk(visit);
                rhs.walk(visit);
            }
            BoolExpr::Not(b) => b.walk(visit),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                a.walk(visit);
                b.walk(visit);
            }
        }
    }

    /// This condition with every expression in it rebuilt by [`Expr::map`].
    pub(crate) fn map(&self, f: &mut dyn FnMut(Expr) -> Expr) -> BoolExpr {
        match self {
            BoolExpr::Compare {
                op,
                float,
                lhs,
                rhs,
            } => {
                let lhs = Arc::new(lhs.map(f));
                BoolExpr::Compare {
                    op: *op,
                    float: *float,
                    lhs,
                    rhs: Arc::new(rhs.map(f)),
                }
            }
            BoolExpr::Not(b) => BoolExpr::Not(Arc::new(b.map(f))),
            BoolExpr::And(a, b) => {
                let a = Arc::new(a.map(f));
                BoolExpr::And(a, Arc::new(b.map(f)))
            }
            BoolExpr::Or(a, b) => {
                let a = Arc::new(a.map(f));
                BoolExpr::Or(a, Arc::new(b.map(f)))
            }
        }
    }

    /// Whether evaluating this condition reads memory.
    pub fn has_load(&self) -> bool {
        match self {
            BoolExpr::Compare { lhs, rhs, .. } => lhs.has_load() || rhs.has_load(),
            BoolExpr::Not(b) => b.has_load(),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => a.has_load() || b.has_load(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pretty printing: a readable, stable text form used in tests and debugging.

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::IntLit(v) => write!(f, "{v}"),
            Expr::FloatLit(v) => write!(f, "{v:?}"),
            Expr::Var(v) => write!(f, "v{}", v.0),
            Expr::Special(Special::Index) => f.write_str("index()"),
            Expr::Special(Special::QpuId) => f.write_str("me()"),
            Expr::Special(Special::NumQpus) => f.write_str("num_qpus()"),
            Expr::Unary { op, arg } => write!(f, "{op:?}({arg})"),
            Expr::Binary { op, lhs, rhs } => write!(f, "({lhs} {} {rhs})", binary_symbol(*op)),
            Expr::Rotate { value, amount } => write!(f, "rotate({value}, {amount})"),
            Expr::Load { addr, stride, .. } if *stride == 1 => write!(f, "*{addr}"),
            Expr::Load { addr, stride, .. } => write!(f, "load({addr}, stride {stride})"),
            Expr::Select { cond, a, b } => write!(f, "select({cond}, {a}, {b})"),
            Expr::Uniform { .. } => f.write_str("next_uniform()"),
        }
    }
}

fn binary_symbol(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::IntAdd | BinaryOp::FloatAdd => "+",
        BinaryOp::IntSub | BinaryOp::FloatSub => "-",
        BinaryOp::IntMul | BinaryOp::FloatMul => "*",
        BinaryOp::Mul24 => "mul24",
        BinaryOp::FloatDiv | BinaryOp::IntDiv => "/",
        BinaryOp::IntRem => "%",
        BinaryOp::Shl => "<<",
        BinaryOp::Asr => ">>",
        BinaryOp::Lsr => ">>>",
        BinaryOp::Ror => "ror",
        BinaryOp::And => "&",
        BinaryOp::Or => "|",
        BinaryOp::Xor => "^",
        BinaryOp::IntMin | BinaryOp::FloatMin => "min",
        BinaryOp::IntMax | BinaryOp::FloatMax => "max",
    }
}

impl fmt::Display for BoolExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoolExpr::Compare { op, lhs, rhs, .. } => {
                let symbol = match op {
                    CmpOp::Eq => "==",
                    CmpOp::Ne => "!=",
                    CmpOp::Lt => "<",
                    CmpOp::Le => "<=",
                    CmpOp::Gt => ">",
                    CmpOp::Ge => ">=",
                };
                write!(f, "{lhs} {symbol} {rhs}")
            }
            BoolExpr::Not(b) => write!(f, "!({b})"),
            BoolExpr::And(a, b) => write!(f, "({a}) && ({b})"),
            BoolExpr::Or(a, b) => write!(f, "({a}) || ({b})"),
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Any(b) => write!(f, "any({b})"),
            Cond::All(b) => write!(f, "all({b})"),
        }
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("v{}: {}", p.var.0, p.ty))
            .collect();
        writeln!(f, "kernel({}) {{", params.join(", "))?;
        write_block(f, &self.body, 1)?;
        writeln!(f, "}}")
    }
}

fn write_block(f: &mut fmt::Formatter<'_>, stmts: &[Stmt], depth: usize) -> fmt::Result {
    let pad = "  ".repeat(depth);
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Assign { var, value } => writeln!(f, "{pad}v{} = {value};", var.0)?,
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                writeln!(f, "{pad}if {cond} {{")?;
                write_block(f, then, depth + 1)?;
                if !otherwise.is_empty() {
                    writeln!(f, "{pad}}} else {{")?;
                    write_block(f, otherwise, depth + 1)?;
                }
                writeln!(f, "{pad}}}")?;
            }
            StmtKind::While { cond, body } => {
                writeln!(f, "{pad}while {cond} {{")?;
                write_block(f, body, depth + 1)?;
                writeln!(f, "{pad}}}")?;
            }
            StmtKind::Where {
                cond,
                then,
                otherwise,
            } => {
                writeln!(f, "{pad}where {cond} {{")?;
                write_block(f, then, depth + 1)?;
                if !otherwise.is_empty() {
                    writeln!(f, "{pad}}} else {{")?;
                    write_block(f, otherwise, depth + 1)?;
                }
                writeln!(f, "{pad}}}")?;
            }
            StmtKind::Store {
                value,
                addr,
                stride,
                kind,
                lanes,
            } => {
                let verb = match kind {
                    StoreKind::Blocking => "store",
                    StoreKind::NonBlocking => "store_nb",
                };
                if let Some(n) = lanes {
                    writeln!(
                        f,
                        "{pad}{verb}_first({n}, {value}, {addr}, stride {stride});"
                    )?;
                } else if *stride == 1 {
                    writeln!(f, "{pad}{verb}({value}, {addr});")?;
                } else {
                    writeln!(f, "{pad}{verb}({value}, {addr}, stride {stride});")?;
                }
            }
            StmtKind::Gather { addr } => writeln!(f, "{pad}gather({addr});")?,
            StmtKind::Receive { var } => writeln!(f, "{pad}receive(v{});", var.0)?,
            StmtKind::UniformsFrom { addr } => writeln!(f, "{pad}uniforms_from({addr});")?,
            StmtKind::SemaInc(n) => writeln!(f, "{pad}sema_inc({n});")?,
            StmtKind::SemaDec(n) => writeln!(f, "{pad}sema_dec({n});")?,
            StmtKind::Debug { label, value, .. } => writeln!(f, "{pad}debug({label:?}, {value});")?,
        }
    }
    Ok(())
}

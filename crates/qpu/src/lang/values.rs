//! The value types users write kernels with: [`Int`], [`Float`], [`Ptr`], [`Bool`], [`Cond`].
//!
//! Each is a `Copy` handle. Arithmetic builds a new expression; nothing is computed on the
//! host. Only `set`, the compound-assignment operators (`+=` …) and `receive` change a
//! variable, and only handles made by [`Int::var`] / [`Float::var`] / [`Ptr::var`] or received
//! as kernel parameters are variables.

use std::marker::PhantomData;
use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Div, DivAssign,
    Mul, MulAssign, Neg, Not, Rem, RemAssign, Shl, ShlAssign, Shr, ShrAssign, Sub, SubAssign,
};

use super::ast::{BinaryOp, BoolExpr, CmpOp, ElemType, Expr, Special, StmtKind, Type, UnaryOp};
use super::builder::{build_bool, build_value, with_builder, Handle};
use crate::error::{BuildErrorKind, SourceLocation};

pub(crate) mod sealed {
    use super::Handle;

    /// Keeps the handle plumbing out of the public API.
    pub trait Sealed {
        fn handle(self) -> Handle;
        fn from_handle(handle: Handle) -> Self;
    }

    impl Sealed for super::Int {
        fn handle(self) -> Handle {
            self.handle
        }
        fn from_handle(handle: Handle) -> Self {
            super::Int { handle }
        }
    }

    impl Sealed for super::Float {
        fn handle(self) -> Handle {
            self.handle
        }
        fn from_handle(handle: Handle) -> Self {
            super::Float { handle }
        }
    }

    impl<T: super::Scalar> Sealed for super::Ptr<T> {
        fn handle(self) -> Handle {
            self.handle
        }
        fn from_handle(handle: Handle) -> Self {
            super::Ptr {
                handle,
                elem: std::marker::PhantomData,
            }
        }
    }
}

/// The element types a vector can hold: [`Int`] and [`Float`].
pub trait Scalar: Copy + sealed::Sealed + 'static {
    /// Element type of pointers to this type.
    const ELEM: ElemType;
    /// The variable type.
    const TYPE: Type;
}

/// Types a kernel function may take as parameters: `Int`, `Float`, `Ptr<Int>`, `Ptr<Float>`.
pub trait Param: Copy + sealed::Sealed + 'static {
    /// The parameter's AST type.
    const TYPE: Type;
}

/// A 16-lane vector of `i32`: an integer expression or variable.
///
/// Arithmetic wraps; shifts use the low 5 bits of the amount; `*` is the full 32-bit product
/// (see [`Int::mul24`] for the hardware's cheap 24-bit one). Compare with `.eq()`, `.lt()` …,
/// which give a per-lane [`Bool`]; there is deliberately no `==` (it would have to return a
/// host `bool`).
#[derive(Debug, Clone, Copy)]
pub struct Int {
    handle: Handle,
}

/// A 16-lane vector of `f32`: a float expression or variable.
///
/// Float operations flush denormal inputs and results to zero (as the hardware does).
#[derive(Debug, Clone, Copy)]
pub struct Float {
    handle: Handle,
}

/// A 16-lane vector of byte addresses of `T` elements (`Int` or `Float`).
///
/// `p + n` advances by `n` *elements* (4 bytes each), per lane.
pub struct Ptr<T> {
    handle: Handle,
    elem: PhantomData<fn() -> T>,
}

impl<T> Clone for Ptr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Ptr<T> {}
impl<T> std::fmt::Debug for Ptr<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ptr").field("handle", &self.handle).finish()
    }
}

/// A 16-lane boolean (a comparison result). Combine with `&`, `|`, `!`; use it as a
/// [`where_`](crate::lang::where_) mask, or as an `if_`/`while_` condition (meaning
/// [`any`]).
#[derive(Debug, Clone, Copy)]
pub struct Bool {
    handle: Handle,
}

/// A scalar condition for [`if_`](crate::lang::if_) and [`while_`](crate::lang::while_):
/// [`any`] or [`all`] of a [`Bool`]. A bare `Bool` converts to `any`.
#[derive(Debug, Clone, Copy)]
pub struct Cond {
    pub(crate) all: bool,
    pub(crate) handle: Handle,
}

// ---------------------------------------------------------------------------------------------
// Shared recording helpers.

#[track_caller]
fn binary(op: BinaryOp, lhs: Handle, rhs: Handle) -> Handle {
    let location = SourceLocation::caller();
    build_value(|b| {
        let lhs = b.value(lhs, location)?;
        let rhs = b.value(rhs, location)?;
        Some(Expr::Binary { op, lhs, rhs })
    })
}

#[track_caller]
fn unary(op: UnaryOp, arg: Handle) -> Handle {
    let location = SourceLocation::caller();
    build_value(|b| {
        let arg = b.value(arg, location)?;
        Some(Expr::Unary { op, arg })
    })
}

#[track_caller]
fn compare(op: CmpOp, float: bool, lhs: Handle, rhs: Handle) -> Bool {
    let location = SourceLocation::caller();
    Bool {
        handle: build_bool(|b| {
            let lhs = b.value(lhs, location)?;
            let rhs = b.value(rhs, location)?;
            Some(BoolExpr::Compare {
                op,
                float,
                lhs,
                rhs,
            })
        }),
    }
}

fn literal(expr: Expr) -> Handle {
    build_value(|_| Some(expr))
}

fn special(which: Special) -> Handle {
    build_value(|_| Some(Expr::Special(which)))
}

/// Record `target = value`, checking that `target` is a variable.
#[track_caller]
pub(crate) fn assign(target: Handle, value: Handle) {
    assign_at(target, value, SourceLocation::caller());
}

/// [`assign`] with an explicit source location.
pub(crate) fn assign_at(target: Handle, value: Handle, location: SourceLocation) {
    with_builder(|b| {
        let Some(target) = b.value(target, location) else {
            return;
        };
        let Expr::Var(var) = *target else {
            b.error(BuildErrorKind::AssignToExpression, location);
            return;
        };
        let Some(value) = b.value(value, location) else {
            return;
        };
        if b.in_where() && value.has_load() {
            b.error(BuildErrorKind::MemoryInWhere { what: "a load" }, location);
            return;
        }
        b.record(
            StmtKind::Assign {
                var,
                value: (*value).clone(),
            },
            location,
        );
    });
}

/// Declare a variable of type `ty` initialised with `init`.
#[track_caller]
fn declare(ty: Type, init: Handle) -> Handle {
    let location = SourceLocation::caller();
    with_builder(|b| {
        if b.in_where() {
            b.error(BuildErrorKind::DeclareInWhere, location);
        }
        let (var, handle) = b.declare(ty, location);
        if let Some(value) = b.value(init, location) {
            b.record(
                StmtKind::Assign {
                    var,
                    value: (*value).clone(),
                },
                location,
            );
        }
        handle
    })
    .unwrap_or(Handle::POISON)
}

#[track_caller]
fn rotate_handle(value: Handle, amount: Handle) -> Handle {
    let location = SourceLocation::caller();
    build_value(|b| {
        let value = b.value(value, location)?;
        let amount = b.value(amount, location)?;
        Some(Expr::Rotate { value, amount })
    })
}

// ---------------------------------------------------------------------------------------------
// Int

impl Scalar for Int {
    const ELEM: ElemType = ElemType::Int;
    const TYPE: Type = Type::Int;
}

impl Param for Int {
    const TYPE: Type = Type::Int;
}

impl From<i32> for Int {
    fn from(value: i32) -> Self {
        Int {
            handle: literal(Expr::IntLit(value)),
        }
    }
}

impl Int {
    /// Declare a new variable holding `init` (C++ QPULib's `Int x = init;`).
    ///
    /// `let y = x;` only copies the handle — both names then refer to the same variable. To
    /// snapshot a value, declare a variable: `let y = Int::var(x);`.
    #[track_caller]
    pub fn var(init: impl Into<Int>) -> Int {
        Int {
            handle: declare(Type::Int, init.into().handle),
        }
    }

    /// Assign to this variable (in the lanes enabled by any enclosing `where_`).
    #[track_caller]
    pub fn set(self, value: impl Into<Int>) {
        assign(self.handle, value.into().handle);
    }

    /// The hardware's 24-bit multiply: low 24 bits of each operand, unsigned, low 32 bits of
    /// the product. One instruction, where `*` needs several.
    #[track_caller]
    pub fn mul24(self, rhs: impl Into<Int>) -> Int {
        Int {
            handle: binary(BinaryOp::Mul24, self.handle, rhs.into().handle),
        }
    }

    /// Logical shift right by `rhs & 31` (QPULib's `shr`; `>>` is arithmetic).
    #[doc(alias = "shr")]
    #[track_caller]
    pub fn lshr(self, rhs: impl Into<Int>) -> Int {
        Int {
            handle: binary(BinaryOp::Lsr, self.handle, rhs.into().handle),
        }
    }

    /// Rotate the bits of each lane right by `rhs & 31`.
    #[track_caller]
    pub fn ror(self, rhs: impl Into<Int>) -> Int {
        Int {
            handle: binary(BinaryOp::Ror, self.handle, rhs.into().handle),
        }
    }

    /// Lane-wise signed minimum.
    #[track_caller]
    pub fn min(self, rhs: impl Into<Int>) -> Int {
        Int {
            handle: binary(BinaryOp::IntMin, self.handle, rhs.into().handle),
        }
    }

    /// Lane-wise signed maximum.
    #[track_caller]
    pub fn max(self, rhs: impl Into<Int>) -> Int {
        Int {
            handle: binary(BinaryOp::IntMax, self.handle, rhs.into().handle),
        }
    }

    /// Wrapping absolute value (`i32::MIN` stays `i32::MIN`).
    #[track_caller]
    pub fn abs(self) -> Int {
        Int {
            handle: unary(UnaryOp::IntAbs, self.handle),
        }
    }

    /// Count leading zero bits (32 for 0).
    #[track_caller]
    pub fn clz(self) -> Int {
        Int {
            handle: unary(UnaryOp::Clz, self.handle),
        }
    }

    /// Convert to float (round to nearest-even).
    #[track_caller]
    pub fn to_float(self) -> Float {
        Float {
            handle: unary(UnaryOp::IntToFloat, self.handle),
        }
    }

    /// Rotate the lanes: result lane `i` is lane `(i - n) mod 16` (see [`rotate`]).
    #[track_caller]
    pub fn rotate(self, n: impl Into<Int>) -> Int {
        Int {
            handle: rotate_handle(self.handle, n.into().handle),
        }
    }
}

macro_rules! comparisons {
    ($ty:ident, $rhs:ty, $float:expr) => {
        impl $ty {
            /// Lane-wise `==`.
            #[track_caller]
            pub fn eq(self, rhs: impl Into<$rhs>) -> Bool {
                compare(CmpOp::Eq, $float, self.handle, rhs.into().handle)
            }
            /// Lane-wise `!=`.
            #[track_caller]
            pub fn ne(self, rhs: impl Into<$rhs>) -> Bool {
                compare(CmpOp::Ne, $float, self.handle, rhs.into().handle)
            }
            /// Lane-wise `<`.
            #[track_caller]
            pub fn lt(self, rhs: impl Into<$rhs>) -> Bool {
                compare(CmpOp::Lt, $float, self.handle, rhs.into().handle)
            }
            /// Lane-wise `<=`.
            #[track_caller]
            pub fn le(self, rhs: impl Into<$rhs>) -> Bool {
                compare(CmpOp::Le, $float, self.handle, rhs.into().handle)
            }
            /// Lane-wise `>`.
            #[track_caller]
            pub fn gt(self, rhs: impl Into<$rhs>) -> Bool {
                compare(CmpOp::Gt, $float, self.handle, rhs.into().handle)
            }
            /// Lane-wise `>=`.
            #[track_caller]
            pub fn ge(self, rhs: impl Into<$rhs>) -> Bool {
                compare(CmpOp::Ge, $float, self.handle, rhs.into().handle)
            }
        }
    };
}

comparisons!(Int, Int, false);
comparisons!(Float, Float, true);

/// Implements `lhs OP rhs` for `$ty OP impl Into<$ty>` and `$lit OP $ty`, and `$ty OP= rhs`.
macro_rules! binary_operators {
    ($ty:ident, $lit:ty, $($trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:expr;)*) => {$(
        impl<R: Into<$ty>> $trait<R> for $ty {
            type Output = $ty;
            #[track_caller]
            fn $method(self, rhs: R) -> $ty {
                $ty { handle: binary($op, self.handle, rhs.into().handle) }
            }
        }
        impl $trait<$ty> for $lit {
            type Output = $ty;
            #[track_caller]
            fn $method(self, rhs: $ty) -> $ty {
                $ty { handle: binary($op, <$ty>::from(self).handle, rhs.handle) }
            }
        }
        impl<R: Into<$ty>> $assign_trait<R> for $ty {
            #[track_caller]
            fn $assign_method(&mut self, rhs: R) {
                let value = binary($op, self.handle, rhs.into().handle);
                assign(self.handle, value);
            }
        }
    )*};
}

binary_operators!(Int, i32,
    Add add AddAssign add_assign BinaryOp::IntAdd;
    Sub sub SubAssign sub_assign BinaryOp::IntSub;
    Mul mul MulAssign mul_assign BinaryOp::IntMul;
    Div div DivAssign div_assign BinaryOp::IntDiv;
    Rem rem RemAssign rem_assign BinaryOp::IntRem;
    Shl shl ShlAssign shl_assign BinaryOp::Shl;
    Shr shr ShrAssign shr_assign BinaryOp::Asr;
    BitAnd bitand BitAndAssign bitand_assign BinaryOp::And;
    BitOr bitor BitOrAssign bitor_assign BinaryOp::Or;
    BitXor bitxor BitXorAssign bitxor_assign BinaryOp::Xor;
);

binary_operators!(Float, f32,
    Add add AddAssign add_assign BinaryOp::FloatAdd;
    Sub sub SubAssign sub_assign BinaryOp::FloatSub;
    Mul mul MulAssign mul_assign BinaryOp::FloatMul;
    Div div DivAssign div_assign BinaryOp::FloatDiv;
);

impl Neg for Int {
    type Output = Int;
    /// `-x` is `0 - x` (wrapping: `-i32::MIN == i32::MIN`).
    #[track_caller]
    fn neg(self) -> Int {
        Int {
            handle: binary(BinaryOp::IntSub, Int::from(0).handle, self.handle),
        }
    }
}

impl Not for Int {
    type Output = Int;
    /// Bitwise complement.
    #[track_caller]
    fn not(self) -> Int {
        Int {
            handle: unary(UnaryOp::IntNot, self.handle),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Float

impl Scalar for Float {
    const ELEM: ElemType = ElemType::Float;
    const TYPE: Type = Type::Float;
}

impl Param for Float {
    const TYPE: Type = Type::Float;
}

impl From<f32> for Float {
    fn from(value: f32) -> Self {
        Float {
            handle: literal(Expr::FloatLit(value)),
        }
    }
}

impl Neg for Float {
    type Output = Float;
    /// `-x` is `0.0 - x` (so `-(+0.0)` is `+0.0`, as one hardware `fsub` gives).
    #[track_caller]
    fn neg(self) -> Float {
        Float {
            handle: binary(BinaryOp::FloatSub, Float::from(0.0).handle, self.handle),
        }
    }
}

macro_rules! float_unary {
    ($($(#[$doc:meta])* $name:ident $op:expr;)*) => {
        impl Float {$(
            $(#[$doc])*
            #[track_caller]
            pub fn $name(self) -> Float {
                Float { handle: unary($op, self.handle) }
            }
        )*}
    };
}

float_unary!(
    /// `|x|`.
    abs UnaryOp::FloatAbs;
    /// `1/x` via the SFU (approximate on hardware; see [`UnaryOp::Recip`]).
    recip UnaryOp::Recip;
    /// `1/sqrt(|x|)` via the SFU.
    rsqrt UnaryOp::Rsqrt;
    /// `sqrt(|x|)`, computed as `recip(rsqrt(x))`.
    sqrt UnaryOp::Sqrt;
    /// `2^x` via the SFU.
    exp2 UnaryOp::Exp2;
    /// `log2(|x|)` via the SFU.
    log2 UnaryOp::Log2;
);

impl Float {
    /// `e^x`, computed as `exp2(x · log2 e)`: one multiplication (rounded as the GPU's float
    /// unit rounds) and the SFU's `exp2`, so the relative error grows with `|x|` (about
    /// `|x|` · 2^-23 from the product).
    #[track_caller]
    pub fn exp(self) -> Float {
        (self * std::f32::consts::LOG2_E).exp2()
    }

    /// `ln(|x|)`, computed as `log2(x) · ln 2` (the SFU's `log2`, then one multiplication).
    #[track_caller]
    pub fn ln(self) -> Float {
        self.log2() * std::f32::consts::LN_2
    }

    /// `|x|^y`, computed as `exp2(y · log2(x))`: the SFU's `log2` and `exp2` and one
    /// multiplication between them, so the relative error grows with `|y · log2 x|` (about
    /// `|y · log2 x|` · 2^-22). The base's sign is ignored (the SFU's `log2` takes `|x|`);
    /// `pow(0, y)` is 0 for `y > 0` and infinite for `y < 0`, `pow(0, 0)` is NaN.
    #[track_caller]
    pub fn pow(self, y: impl Into<Float>) -> Float {
        (y.into() * self.log2()).exp2()
    }

    /// Declare a new variable holding `init` (QPULib's `Float x = init;`).
    ///
    /// `let y = x;` only copies the handle; `Float::var(x)` snapshots the value.
    #[track_caller]
    pub fn var(init: impl Into<Float>) -> Float {
        Float {
            handle: declare(Type::Float, init.into().handle),
        }
    }

    /// Assign to this variable (in the lanes enabled by any enclosing `where_`).
    #[track_caller]
    pub fn set(self, value: impl Into<Float>) {
        assign(self.handle, value.into().handle);
    }

    /// Lane-wise minimum. With a NaN operand the generations differ (see
    /// [`crate::interp::ops`]): on a Pi 4/5 the other operand; on a Pi 1-3 (an assumption
    /// `help_us_check` asks a Pi about) `self` unless `self > rhs`, so `self` if either is
    /// NaN.
    #[track_caller]
    pub fn min(self, rhs: impl Into<Float>) -> Float {
        Float {
            handle: binary(BinaryOp::FloatMin, self.handle, rhs.into().handle),
        }
    }

    /// Lane-wise maximum. With a NaN operand: on a Pi 4/5 the other operand; on a Pi 1-3
    /// (assumed) `rhs` unless `self > rhs`, so `rhs` if either is NaN.
    #[track_caller]
    pub fn max(self, rhs: impl Into<Float>) -> Float {
        Float {
            handle: binary(BinaryOp::FloatMax, self.handle, rhs.into().handle),
        }
    }

    /// Convert to int, truncating toward zero. NaN gives 0; out of the int32 range a Pi 4/5
    /// saturates, a Pi 1-3 (assumed, see [`crate::interp::ops`]) gives 0.
    #[track_caller]
    pub fn to_int(self) -> Int {
        Int {
            handle: unary(UnaryOp::FloatToInt, self.handle),
        }
    }

    /// Rotate the lanes: result lane `i` is lane `(i - n) mod 16` (see [`rotate`]).
    #[track_caller]
    pub fn rotate(self, n: impl Into<Int>) -> Float {
        Float {
            handle: rotate_handle(self.handle, n.into().handle),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Ptr

impl<T: Scalar> Param for Ptr<T> {
    const TYPE: Type = Type::Ptr(T::ELEM);
}

/// Byte offset expression for `offset` elements.
#[track_caller]
fn element_offset(offset: Handle) -> Handle {
    let location = SourceLocation::caller();
    build_value(|b| {
        let offset = b.value(offset, location)?;
        // Literal offsets are scaled on the host so the AST shows the byte constant.
        Some(match *offset {
            Expr::IntLit(n) => Expr::IntLit(n.wrapping_mul(4)),
            _ => Expr::Binary {
                op: BinaryOp::Shl,
                lhs: offset,
                rhs: std::sync::Arc::new(Expr::IntLit(2)),
            },
        })
    })
}

fn check_stride(stride: u32, location: SourceLocation) -> bool {
    if (1..=2047).contains(&stride) {
        true
    } else {
        with_builder(|b| b.error(BuildErrorKind::StrideOutOfRange(stride), location));
        false
    }
}

impl<T: Scalar> Ptr<T> {
    fn new(handle: Handle) -> Self {
        Ptr {
            handle,
            elem: PhantomData,
        }
    }

    /// Declare a new pointer variable holding `init`.
    #[track_caller]
    pub fn var(init: Ptr<T>) -> Ptr<T> {
        Ptr::new(declare(Type::Ptr(T::ELEM), init.handle))
    }

    /// Assign to this pointer variable.
    #[track_caller]
    pub fn set(self, value: Ptr<T>) {
        assign(self.handle, value.handle);
    }

    /// `self + offset`: advance every lane by `offset` elements (QPULib's `p + i`, for use
    /// as `p.at(i).load()`, the counterpart of C++'s `p[i]`).
    #[track_caller]
    pub fn at(self, offset: impl Into<Int>) -> Ptr<T> {
        self + offset
    }

    /// Load the 16 consecutive elements starting at lane 0's address (QPULib's `*p`).
    /// Blocks until the data arrives. Not allowed inside `where_`.
    #[track_caller]
    pub fn load(self) -> T {
        self.load_strided(1)
    }

    /// Load 16 elements `stride` elements apart, starting at lane 0's address
    /// (`stride` 1..=2047; QPULib's `setReadStride(stride - 1)`).
    #[track_caller]
    pub fn load_strided(self, stride: u32) -> T {
        let location = SourceLocation::caller();
        if !check_stride(stride, location) {
            // The error is reported; uses of the result report nothing more.
            return T::from_handle(with_builder(|_| Handle::FAILED).unwrap_or(Handle::POISON));
        }
        let handle = build_value(|b| {
            let addr = b.value(self.handle, location)?;
            if b.in_where() {
                b.error(BuildErrorKind::MemoryInWhere { what: "a load" }, location);
                return None;
            }
            Some(Expr::Load {
                addr,
                elem: T::ELEM,
                stride,
            })
        });
        T::from_handle(handle)
    }

    /// Store `value` to the 16 consecutive elements starting at lane 0's address, waiting
    /// for completion (QPULib's `*p = value`). Not allowed inside `where_`.
    #[track_caller]
    pub fn store(self, value: impl Into<T>) {
        record_store(
            value.into().handle(),
            self.handle,
            1,
            super::ast::StoreKind::Blocking,
            SourceLocation::caller(),
        );
    }

    /// Store lanes `0..n` of `value` to the `n` consecutive elements starting at lane 0's
    /// address, waiting for completion: the tail of an array whose length is not a multiple
    /// of 16. `n` is lane 0 of an Int, clamped to 0..=16; for `n <= 0` nothing is stored.
    /// Not allowed inside `where_`.
    #[track_caller]
    pub fn store_first(self, n: impl Into<Int>, value: impl Into<T>) {
        record_store_lanes(
            value.into().handle(),
            self.handle,
            1,
            super::ast::StoreKind::Blocking,
            Some(n.into().handle),
            SourceLocation::caller(),
        );
    }

    /// Store `value` to 16 elements `stride` elements apart (blocking).
    #[track_caller]
    pub fn store_strided(self, value: impl Into<T>, stride: u32) {
        let location = SourceLocation::caller();
        if check_stride(stride, location) {
            record_store(
                value.into().handle(),
                self.handle,
                stride,
                super::ast::StoreKind::Blocking,
                location,
            );
        }
    }

    /// Lane-wise pointer equality.
    #[track_caller]
    pub fn eq(self, rhs: Ptr<T>) -> Bool {
        compare(CmpOp::Eq, false, self.handle, rhs.handle)
    }

    /// Lane-wise pointer inequality.
    #[track_caller]
    pub fn ne(self, rhs: Ptr<T>) -> Bool {
        compare(CmpOp::Ne, false, self.handle, rhs.handle)
    }
}

pub(crate) fn record_store(
    value: Handle,
    addr: Handle,
    stride: u32,
    kind: super::ast::StoreKind,
    location: SourceLocation,
) {
    record_store_lanes(value, addr, stride, kind, None, location);
}

fn record_store_lanes(
    value: Handle,
    addr: Handle,
    stride: u32,
    kind: super::ast::StoreKind,
    lanes: Option<Handle>,
    location: SourceLocation,
) {
    with_builder(|b| {
        if b.in_where() {
            b.error(BuildErrorKind::MemoryInWhere { what: "a store" }, location);
            return;
        }
        let (Some(value), Some(addr)) = (b.value(value, location), b.value(addr, location)) else {
            return;
        };
        let lanes = match lanes {
            Some(n) => match b.value(n, location) {
                Some(n) => Some((*n).clone()),
                None => return,
            },
            None => None,
        };
        b.record(
            StmtKind::Store {
                value: (*value).clone(),
                addr: (*addr).clone(),
                stride,
                kind,
                lanes,
            },
            location,
        );
    });
}

impl<T: Scalar, R: Into<Int>> Add<R> for Ptr<T> {
    type Output = Ptr<T>;
    /// Advance by `rhs` elements.
    #[track_caller]
    fn add(self, rhs: R) -> Ptr<T> {
        let offset = element_offset(rhs.into().handle);
        Ptr::new(binary(BinaryOp::IntAdd, self.handle, offset))
    }
}

impl<T: Scalar, R: Into<Int>> Sub<R> for Ptr<T> {
    type Output = Ptr<T>;
    /// Move back by `rhs` elements.
    #[track_caller]
    fn sub(self, rhs: R) -> Ptr<T> {
        let offset = element_offset(rhs.into().handle);
        Ptr::new(binary(BinaryOp::IntSub, self.handle, offset))
    }
}

impl<T: Scalar, R: Into<Int>> AddAssign<R> for Ptr<T> {
    #[track_caller]
    fn add_assign(&mut self, rhs: R) {
        let next = *self + rhs;
        assign(self.handle, next.handle);
    }
}

impl<T: Scalar, R: Into<Int>> SubAssign<R> for Ptr<T> {
    #[track_caller]
    fn sub_assign(&mut self, rhs: R) {
        let next = *self - rhs;
        assign(self.handle, next.handle);
    }
}

// ---------------------------------------------------------------------------------------------
// Bool and Cond

impl Bool {
    /// Lane-wise and (same as `&`).
    #[track_caller]
    pub fn and(self, rhs: Bool) -> Bool {
        self & rhs
    }

    /// Lane-wise or (same as `|`).
    #[track_caller]
    pub fn or(self, rhs: Bool) -> Bool {
        self | rhs
    }

    pub(crate) fn handle(self) -> Handle {
        self.handle
    }
}

#[track_caller]
fn combine(lhs: Handle, rhs: Handle, and: bool) -> Bool {
    let location = SourceLocation::caller();
    Bool {
        handle: build_bool(|b| {
            let lhs = b.boolean(lhs, location)?;
            let rhs = b.boolean(rhs, location)?;
            Some(if and {
                BoolExpr::And(lhs, rhs)
            } else {
                BoolExpr::Or(lhs, rhs)
            })
        }),
    }
}

impl BitAnd for Bool {
    type Output = Bool;
    #[track_caller]
    fn bitand(self, rhs: Bool) -> Bool {
        combine(self.handle, rhs.handle, true)
    }
}

impl BitOr for Bool {
    type Output = Bool;
    #[track_caller]
    fn bitor(self, rhs: Bool) -> Bool {
        combine(self.handle, rhs.handle, false)
    }
}

impl Not for Bool {
    type Output = Bool;
    #[track_caller]
    fn not(self) -> Bool {
        let location = SourceLocation::caller();
        Bool {
            handle: build_bool(|b| Some(BoolExpr::Not(b.boolean(self.handle, location)?))),
        }
    }
}

impl From<Bool> for Cond {
    /// A bare `Bool` condition means [`any`].
    fn from(b: Bool) -> Cond {
        any(b)
    }
}

/// True when `b` holds in at least one lane.
pub fn any(b: Bool) -> Cond {
    Cond {
        all: false,
        handle: b.handle,
    }
}

/// Lane-wise choice: `a` in the lanes where `cond` holds, `b` in the others (an expression,
/// so usable anywhere, unlike [`where_`](crate::lang::where_)). Both values are computed.
/// Works for [`Int`] and [`Float`]; `a` fixes the type, so a literal goes second:
/// `select(x.gt(0), x, 0)`.
#[track_caller]
pub fn select<T: Scalar>(cond: Bool, a: T, b: impl Into<T>) -> T {
    let location = SourceLocation::caller();
    let (a, b) = (a.handle(), b.into().handle());
    T::from_handle(build_value(|builder| {
        let cond = builder.boolean(cond.handle, location)?;
        let a = builder.value(a, location)?;
        let b = builder.value(b, location)?;
        Some(Expr::Select { cond, a, b })
    }))
}

/// True when `b` holds in every lane.
pub fn all(b: Bool) -> Cond {
    Cond {
        all: true,
        handle: b.handle,
    }
}

// ---------------------------------------------------------------------------------------------
// Built-in values and generic helpers.

/// The lane numbers `<0 1 2 … 15>`.
pub fn index() -> Int {
    Int {
        handle: special(Special::Index),
    }
}

/// This QPU's number, `0..num_qpus()`, in every lane.
pub fn me() -> Int {
    Int {
        handle: special(Special::QpuId),
    }
}

/// The number of QPUs running the kernel, in every lane.
pub fn num_qpus() -> Int {
    Int {
        handle: special(Special::NumQpus),
    }
}

/// Rotate the lanes of `value` by `n`: result lane `i` is `value` lane `(i - n) mod 16`.
///
/// Only lane 0 of `n` is used; every amount is defined (taken modulo 16, so -1 ≡ 15 rotates
/// left by one). `rotate(x, 1)` moves lane 0 to lane 1, as QPULib's `rotate` does.
#[track_caller]
pub fn rotate<T: Scalar>(value: T, n: impl Into<Int>) -> T {
    T::from_handle(rotate_handle(value.handle(), n.into().handle))
}

/// Lane-wise minimum of two `Int`s or two `Float`s.
#[track_caller]
pub fn min<T: MinMax>(a: T, b: impl Into<T>) -> T {
    T::minmax(a, b.into(), false)
}

/// Lane-wise maximum of two `Int`s or two `Float`s.
#[track_caller]
pub fn max<T: MinMax>(a: T, b: impl Into<T>) -> T {
    T::minmax(a, b.into(), true)
}

/// Types with lane-wise `min`/`max`: [`Int`] and [`Float`].
pub trait MinMax: Scalar {
    #[doc(hidden)]
    #[track_caller]
    fn minmax(a: Self, b: Self, max: bool) -> Self;
}

impl MinMax for Int {
    #[track_caller]
    fn minmax(a: Int, b: Int, max: bool) -> Int {
        if max {
            a.max(b)
        } else {
            a.min(b)
        }
    }
}

impl MinMax for Float {
    #[track_caller]
    fn minmax(a: Float, b: Float, max: bool) -> Float {
        if max {
            a.max(b)
        } else {
            a.min(b)
        }
    }
}

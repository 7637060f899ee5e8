//! The meaning of every operator, one lane at a time, on raw 32-bit words.
//!
//! This is the executable definition the compiler and emulator are checked against.
//!
//! * Integers: two's complement, wrapping. Shift and bit-rotate amounts use the low 5 bits
//!   (vc4asm's measured operation table, `doc/VideoCoreIV-addendum.html`).
//! * `mul24`: low 24 bits of each operand, unsigned, low 32 bits of the product (the same
//!   table).
//! * Floats: IEEE-754 binary32 words, computed as the float unit of the GPU generation the
//!   run models ([`FloatUnit`]) computes them in the code the compiler emits for it, through
//!   the emulators' own lane functions: one definition for the emulator and the interpreter,
//!   so interpreter and emulator agree bit for bit, NaN, infinities and denormals included.
//!   - **VideoCore IV** ([`qpu_emu::float`]): `+`, `-`, `*` and int-to-float **round toward
//!     zero** (exactly: the truncation sees the whole exact result); denormals are flushed to
//!     a zero of the same sign on input and output (hardware evidence in that module).
//!     `to_int` of NaN or out of range gives 0, `min`/`max` choose by a > b so a NaN first
//!     operand wins and a NaN second one loses; comparisons are the ones the compiled code
//!     makes: `==`/`!=` test the flushed difference for zero, the others the C flag of `fmin`
//!     (a > b), so a comparison with a NaN is false for `>`/`<` and true for `<=`/`>=`.
//!     These NaN and range cases are ASSUMPTIONS (no source gives them; `help_us_check`
//!     asks a Pi 1-3).
//!   - **V3D 4.2 / 7.1** ([`qpu_emu::v3d::lanes`], from Broadcom's V3D simulator float
//!     model): round to nearest even, denormals kept; `to_int` saturates (NaN gives 0);
//!     `min`/`max` return the non-NaN operand; comparisons are IEEE's. A NaN result is
//!     0x7fc00000 (NaN in) or 0xffc00000 (made) on 4.2, which propagates NaNs (Mesa sets the
//!     CSD's propagate-NaN bit below 7.1), and **+0.0 on 7.1** (NaN + 1, inf − inf, 0/0 all
//!     give 0 on a Pi 5).
//! * SFU functions (`recip`, `rsqrt`, `exp2`, `log2`) are computed exactly and rounded once
//!   (the hardware approximates, so compare hardware results with a tolerance); `rsqrt` and
//!   `log2` ignore the argument's sign, `sqrt(x)` is `recip(rsqrt(x))` and `a / b` is
//!   `a * recip(b)`.

use qpu_emu::float;
use qpu_emu::v3d::lanes::{self as v3d, vfloat, Sfu};
use qpu_isa::vc4::regs::SfuOp;

use crate::compiler::Gpu;
use crate::lang::ast::{BinaryOp, CmpOp, UnaryOp, LANES};

/// The float unit a run models: each GPU generation's, as the code compiled for it computes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FloatUnit {
    /// VideoCore IV (Pi 1-3, Zero).
    #[default]
    Vc4,
    /// V3D 4.2 (Pi 4).
    V42,
    /// V3D 7.1 (Pi 5).
    V71,
}

impl FloatUnit {
    /// The unit of `gpu`.
    pub fn of(gpu: Gpu) -> FloatUnit {
        match gpu {
            Gpu::Vc4 => FloatUnit::Vc4,
            Gpu::Vc6 => FloatUnit::V42,
            Gpu::Vc7 => FloatUnit::V71,
        }
    }
}

/// One 16-lane vector of raw words.
pub type Vector = [u32; LANES];

/// Apply a one-operand operator to one lane.
pub fn unary(op: UnaryOp, a: u32, unit: FloatUnit) -> u32 {
    use FloatUnit::Vc4;
    use UnaryOp::*;
    // The V3D compiler clears the sign bit for `abs`, and before `rsqrt` and `log2`.
    let abs = a & 0x7fff_ffff;
    match (op, unit) {
        (IntNot, _) => !a,
        (IntAbs, _) => (a as i32).wrapping_abs() as u32,
        (Clz, _) => a.leading_zeros(),
        (IntToFloat, Vc4) => float::itof(a),
        (FloatToInt, Vc4) => float::ftoi(a),
        (FloatAbs, Vc4) => float::fmaxabs(a, a),
        (Recip, Vc4) => float::sfu(SfuOp::Recip, a),
        (Rsqrt, Vc4) => float::sfu(SfuOp::RecipSqrt, a),
        (Exp2, Vc4) => float::sfu(SfuOp::Exp2, a),
        (Log2, Vc4) => float::sfu(SfuOp::Log2, a),
        (Sqrt, Vc4) => float::sfu(SfuOp::Recip, float::sfu(SfuOp::RecipSqrt, a)),
        (IntToFloat, _) => vfloat::itof(a),
        (FloatToInt, _) => vfloat::ftoi(a, false).0,
        (FloatAbs, _) => abs,
        (Recip, _) => v3d::sfu(Sfu::Recip, a),
        (Rsqrt, _) => v3d::sfu(Sfu::Rsqrt, abs),
        (Exp2, _) => v3d::sfu(Sfu::Exp, a),
        (Log2, _) => v3d::sfu(Sfu::Log, abs),
        (Sqrt, _) => v3d::sfu(Sfu::Recip, v3d::sfu(Sfu::Rsqrt, abs)),
    }
}

/// Apply a two-operand operator to every lane: [`binary`] lane by lane, with the operator
/// chosen once for the integer operators the interpreter meets most (the same expressions,
/// so the same results; the others go through [`binary`]).
pub fn binary_lanes(op: BinaryOp, a: &[u32; 16], b: &[u32; 16], unit: FloatUnit) -> [u32; 16] {
    // Generic over the operation (not a function pointer), so each loop is compiled for its
    // operation and runs as vector instructions.
    #[inline(always)]
    fn each(a: &[u32; 16], b: &[u32; 16], f: impl Fn(u32, u32) -> u32) -> [u32; 16] {
        let mut out = [0; 16];
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = f(x, y);
        }
        out
    }
    match op {
        BinaryOp::IntAdd => each(a, b, |a, b| (a as i32).wrapping_add(b as i32) as u32),
        BinaryOp::IntSub => each(a, b, |a, b| (a as i32).wrapping_sub(b as i32) as u32),
        BinaryOp::And => each(a, b, |a, b| a & b),
        BinaryOp::Or => each(a, b, |a, b| a | b),
        BinaryOp::Xor => each(a, b, |a, b| a ^ b),
        BinaryOp::Shl => each(a, b, |a, b| a << (b & 31)),
        BinaryOp::Lsr => each(a, b, |a, b| a >> (b & 31)),
        BinaryOp::Asr => each(a, b, |a, b| ((a as i32) >> (b & 31)) as u32),
        _ => std::array::from_fn(|i| binary(op, a[i], b[i], unit)),
    }
}

/// Compare every lane: [`compare`] lane by lane, integer comparisons with the operator
/// chosen once.
pub fn compare_lanes(
    op: CmpOp,
    float: bool,
    a: &[u32; 16],
    b: &[u32; 16],
    unit: FloatUnit,
) -> [bool; 16] {
    if float {
        return std::array::from_fn(|i| compare(op, true, a[i], b[i], unit));
    }
    #[inline(always)]
    fn each(a: &[u32; 16], b: &[u32; 16], f: impl Fn(i32, i32) -> bool) -> [bool; 16] {
        let mut out = [false; 16];
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = f(x as i32, y as i32);
        }
        out
    }
    match op {
        CmpOp::Eq => each(a, b, |x, y| x == y),
        CmpOp::Ne => each(a, b, |x, y| x != y),
        CmpOp::Lt => each(a, b, |x, y| x < y),
        CmpOp::Le => each(a, b, |x, y| x <= y),
        CmpOp::Gt => each(a, b, |x, y| x > y),
        CmpOp::Ge => each(a, b, |x, y| x >= y),
    }
}

/// Apply a two-operand operator to one lane.
pub fn binary(op: BinaryOp, a: u32, b: u32, unit: FloatUnit) -> u32 {
    let (x, y) = (a as i32, b as i32);
    let shift = b & 31;
    let propagate = unit == FloatUnit::V42;
    match (op, unit) {
        (BinaryOp::IntAdd, _) => x.wrapping_add(y) as u32,
        (BinaryOp::IntSub, _) => x.wrapping_sub(y) as u32,
        (BinaryOp::IntMul, _) => x.wrapping_mul(y) as u32,
        (BinaryOp::Mul24, _) => (a & 0x00ff_ffff).wrapping_mul(b & 0x00ff_ffff),
        (BinaryOp::Shl, _) => a << shift,
        (BinaryOp::Asr, _) => (x >> shift) as u32,
        (BinaryOp::Lsr, _) => a >> shift,
        (BinaryOp::Ror, _) => a.rotate_right(shift),
        (BinaryOp::And, _) => a & b,
        (BinaryOp::Or, _) => a | b,
        (BinaryOp::Xor, _) => a ^ b,
        (BinaryOp::IntMin, _) => x.min(y) as u32,
        (BinaryOp::IntMax, _) => x.max(y) as u32,
        // By zero: what the compiled long division gives (see `BinaryOp::IntDiv`).
        (BinaryOp::IntDiv, _) if y == 0 => (if x < 0 { 1 } else { -1 }) as u32,
        (BinaryOp::IntDiv, _) => x.wrapping_div(y) as u32,
        (BinaryOp::IntRem, _) if y == 0 => a,
        (BinaryOp::IntRem, _) => x.wrapping_rem(y) as u32,
        (BinaryOp::FloatAdd, FloatUnit::Vc4) => float::fadd(a, b),
        (BinaryOp::FloatSub, FloatUnit::Vc4) => float::fsub(a, b),
        (BinaryOp::FloatMul, FloatUnit::Vc4) => float::fmul(a, b),
        (BinaryOp::FloatDiv, FloatUnit::Vc4) => float::fmul(a, float::sfu(SfuOp::Recip, b)),
        (BinaryOp::FloatMin, FloatUnit::Vc4) => float::fmin(a, b),
        (BinaryOp::FloatMax, FloatUnit::Vc4) => float::fmax(a, b),
        (BinaryOp::FloatAdd, _) => vfloat::fadd(a, b, propagate),
        (BinaryOp::FloatSub, _) => vfloat::fsub(a, b, propagate),
        (BinaryOp::FloatMul, _) => vfloat::fmul(a, b, propagate),
        (BinaryOp::FloatDiv, _) => vfloat::fmul(a, v3d::sfu(Sfu::Recip, b), propagate),
        (BinaryOp::FloatMin, _) => vfloat::fmin(a, b, propagate),
        (BinaryOp::FloatMax, _) => vfloat::fmax(a, b, propagate),
    }
}

/// `x op y` in `T`'s own order (IEEE's for floats: false with a NaN but for `!=`).
fn ordered<T: PartialOrd>(op: CmpOp, x: T, y: T) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

/// Compare one lane.
pub fn compare(op: CmpOp, float: bool, a: u32, b: u32, unit: FloatUnit) -> bool {
    match (float, unit) {
        (false, _) => ordered(op, a as i32, b as i32),
        // The VideoCore IV compiler's tests: Z of `fsub` (−0 counts as zero), C of `fmin`.
        (true, FloatUnit::Vc4) => {
            let zero = float::fsub(a, b) & 0x7fff_ffff == 0;
            match op {
                CmpOp::Eq => zero,
                CmpOp::Ne => !zero,
                CmpOp::Gt => float::greater(a, b),
                CmpOp::Le => !float::greater(a, b),
                CmpOp::Lt => float::greater(b, a),
                CmpOp::Ge => !float::greater(b, a),
            }
        }
        // The V3D compiler combines C of `fcmp` (a <= b on the words as they are): IEEE.
        (true, _) => ordered(op, f32::from_bits(a), f32::from_bits(b)),
    }
}

/// Rotate lanes: result lane `i` is `value` lane `(i - amount) mod 16`, using `amount`
/// modulo 16 (so every `i32`, negative ones included, is defined).
pub fn rotate(value: &Vector, amount: u32) -> Vector {
    let n = (amount & 15) as usize;
    let mut out = [0; LANES];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = value[(i + LANES - n) % LANES];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane-vector forms give exactly what the one-lane forms give, for every binary
    /// operator and comparison, on both float units, over edge values and random words.
    #[test]
    fn lane_vectors_match_lane_by_lane() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u32
        };
        let edges = [
            0,
            1,
            31,
            32,
            u32::MAX,
            0x8000_0000,
            0x7fff_ffff,
            0x3f80_0000,
            0x7fc0_0000,
        ];
        let binaries = [
            BinaryOp::IntAdd,
            BinaryOp::IntSub,
            BinaryOp::IntMul,
            BinaryOp::Mul24,
            BinaryOp::Shl,
            BinaryOp::Asr,
            BinaryOp::Lsr,
            BinaryOp::Ror,
            BinaryOp::And,
            BinaryOp::Or,
            BinaryOp::Xor,
            BinaryOp::IntMin,
            BinaryOp::IntMax,
            BinaryOp::IntDiv,
            BinaryOp::IntRem,
            BinaryOp::FloatAdd,
            BinaryOp::FloatSub,
            BinaryOp::FloatMul,
            BinaryOp::FloatDiv,
            BinaryOp::FloatMin,
            BinaryOp::FloatMax,
        ];
        let compares = [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ];
        for round in 0..200 {
            let a: [u32; 16] =
                std::array::from_fn(|i| if round == 0 { edges[i % 9] } else { next() });
            let b: [u32; 16] = std::array::from_fn(|i| {
                if round == 0 {
                    edges[(i * 5) % 9]
                } else {
                    next()
                }
            });
            for unit in [FloatUnit::Vc4, FloatUnit::V42, FloatUnit::V71] {
                for op in binaries {
                    let want: [u32; 16] =
                        std::array::from_fn(|i| super::binary(op, a[i], b[i], unit));
                    assert_eq!(binary_lanes(op, &a, &b, unit), want, "{op:?}");
                }
                for op in compares {
                    for float in [false, true] {
                        let want: [bool; 16] =
                            std::array::from_fn(|i| super::compare(op, float, a[i], b[i], unit));
                        assert_eq!(compare_lanes(op, float, &a, &b, unit), want, "{op:?}");
                    }
                }
            }
        }
    }

    // The VideoCore IV's unit unless a test says otherwise.
    fn unary(op: UnaryOp, a: u32) -> u32 {
        super::unary(op, a, FloatUnit::Vc4)
    }
    fn binary(op: BinaryOp, a: u32, b: u32) -> u32 {
        super::binary(op, a, b, FloatUnit::Vc4)
    }
    fn compare(op: CmpOp, float: bool, a: u32, b: u32) -> bool {
        super::compare(op, float, a, b, FloatUnit::Vc4)
    }

    fn fb(x: f32) -> u32 {
        x.to_bits()
    }
    fn bf(x: u32) -> f32 {
        f32::from_bits(x)
    }
    fn int(op: BinaryOp, a: i32, b: i32) -> i32 {
        binary(op, a as u32, b as u32) as i32
    }
    fn flt(op: BinaryOp, a: f32, b: f32) -> f32 {
        bf(binary(op, fb(a), fb(b)))
    }
    fn un_f(op: UnaryOp, a: f32) -> f32 {
        bf(unary(op, fb(a)))
    }

    const DENORMAL: f32 = 1.0e-40;

    #[test]
    fn integer_add_sub_wrap() {
        assert_eq!(int(BinaryOp::IntAdd, i32::MAX, 1), i32::MIN);
        assert_eq!(int(BinaryOp::IntSub, i32::MIN, 1), i32::MAX);
        assert_eq!(int(BinaryOp::IntAdd, -5, 3), -2);
        assert_eq!(int(BinaryOp::IntSub, 3, 10), -7);
    }

    #[test]
    fn integer_multiply_is_full_32_bit() {
        assert_eq!(int(BinaryOp::IntMul, -8, 3), -24);
        assert_eq!(int(BinaryOp::IntMul, 65536, 65536), 0);
        assert_eq!(int(BinaryOp::IntMul, i32::MIN, -1), i32::MIN);
        assert_eq!(int(BinaryOp::IntMul, 123_456, 7_890), 974_067_840);
    }

    #[test]
    fn mul24_uses_low_24_bits_unsigned() {
        // QPULib's `*` is `mul24` too: -8 * 3 = 0xfffff8 * 3 = 50,331,624.
        assert_eq!(binary(BinaryOp::Mul24, (-8i32) as u32, 3), 50_331_624);
        assert_eq!(binary(BinaryOp::Mul24, 0x0100_0003, 5), 15);
        assert_eq!(
            binary(BinaryOp::Mul24, 0x00ff_ffff, 0x00ff_ffff),
            (0xff_ffffu64 * 0xff_ffff) as u32
        );
    }

    #[test]
    fn shifts_mask_amount_to_low_five_bits() {
        assert_eq!(int(BinaryOp::Shl, 1, 32), 1);
        assert_eq!(int(BinaryOp::Shl, 1, 33), 2);
        assert_eq!(int(BinaryOp::Shl, 1, -1), i32::MIN);
        assert_eq!(int(BinaryOp::Asr, i32::MIN, 31), -1);
        assert_eq!(int(BinaryOp::Asr, i32::MIN, 32), i32::MIN);
        assert_eq!(int(BinaryOp::Asr, -16, 2), -4);
        assert_eq!(binary(BinaryOp::Lsr, 0x8000_0000, 31), 1);
        assert_eq!(binary(BinaryOp::Lsr, 0x8000_0000, 63), 1);
        assert_eq!(binary(BinaryOp::Lsr, (-16i32) as u32, 2), 0x3fff_fffc);
    }

    #[test]
    fn bit_rotate_masks_amount_and_handles_negatives() {
        assert_eq!(binary(BinaryOp::Ror, 1, 1), 0x8000_0000);
        assert_eq!(binary(BinaryOp::Ror, 0x1234_5678, 32), 0x1234_5678);
        assert_eq!(binary(BinaryOp::Ror, 0x1234_5678, 36), 0x8123_4567);
        // -1 & 31 = 31: rotate right by 31 = rotate left by 1.
        assert_eq!(
            binary(BinaryOp::Ror, 0x8000_0001, (-1i32) as u32),
            0x0000_0003
        );
    }

    #[test]
    fn integer_division_truncates_and_is_defined_everywhere() {
        for (x, y) in [
            (7, 2),
            (-7, 2),
            (7, -2),
            (-7, -2),
            (0, 5),
            (i32::MAX, 3),
            (5, 9),
        ] {
            assert_eq!(int(BinaryOp::IntDiv, x, y), x / y, "{x} / {y}");
            assert_eq!(int(BinaryOp::IntRem, x, y), x % y, "{x} % {y}");
        }
        assert_eq!(int(BinaryOp::IntDiv, i32::MIN, -1), i32::MIN);
        assert_eq!(int(BinaryOp::IntRem, i32::MIN, -1), 0);
        assert_eq!(int(BinaryOp::IntDiv, 12, 0), -1);
        assert_eq!(int(BinaryOp::IntDiv, -12, 0), 1);
        assert_eq!(int(BinaryOp::IntRem, -12, 0), -12);
    }

    #[test]
    fn bitwise_ops() {
        assert_eq!(binary(BinaryOp::And, 0b1100, 0b1010), 0b1000);
        assert_eq!(binary(BinaryOp::Or, 0b1100, 0b1010), 0b1110);
        assert_eq!(binary(BinaryOp::Xor, 0b1100, 0b1010), 0b0110);
        assert_eq!(unary(UnaryOp::IntNot, 0), u32::MAX);
        assert_eq!(unary(UnaryOp::IntNot, 0x0f0f_0f0f), 0xf0f0_f0f0);
    }

    #[test]
    fn integer_min_max_abs_clz() {
        assert_eq!(int(BinaryOp::IntMin, -1, 1), -1);
        assert_eq!(int(BinaryOp::IntMax, -1, 1), 1);
        assert_eq!(int(BinaryOp::IntMin, i32::MIN, i32::MAX), i32::MIN);
        assert_eq!(int(BinaryOp::IntMax, i32::MIN, i32::MAX), i32::MAX);
        assert_eq!(unary(UnaryOp::IntAbs, (-7i32) as u32), 7);
        assert_eq!(unary(UnaryOp::IntAbs, i32::MIN as u32), i32::MIN as u32);
        assert_eq!(unary(UnaryOp::Clz, 0), 32);
        assert_eq!(unary(UnaryOp::Clz, 1), 31);
        assert_eq!(unary(UnaryOp::Clz, 0x8000_0000), 0);
        assert_eq!(unary(UnaryOp::Clz, 0x0001_0000), 15);
    }

    #[test]
    fn integer_comparisons_are_true_signed_comparisons() {
        // A subtract-and-test-sign comparison (QPULib's interpreter) gets these wrong.
        assert!(compare(CmpOp::Lt, false, i32::MIN as u32, 1));
        assert!(compare(CmpOp::Gt, false, i32::MAX as u32, (-1i32) as u32));
        assert!(!compare(CmpOp::Lt, false, i32::MAX as u32, i32::MIN as u32));
        assert!(compare(CmpOp::Le, false, 5, 5));
        assert!(compare(CmpOp::Ge, false, 5, 5));
        assert!(!compare(CmpOp::Ne, false, 5, 5));
        assert!(compare(CmpOp::Eq, false, (-3i32) as u32, (-3i32) as u32));
    }

    #[test]
    fn float_arithmetic_truncates_like_the_hardware() {
        assert_eq!(flt(BinaryOp::FloatAdd, 1.5, 2.25), 3.75);
        assert_eq!(flt(BinaryOp::FloatSub, 1.0, 3.0), -2.0);
        // 0.1f32 · 3 = 0.30000000447...: nearest-even rounds up to 0.3f32, the hardware
        // truncates to the float below it.
        assert!(f64::from(0.1f32) * 3.0 < f64::from(0.3f32));
        assert_eq!(
            flt(BinaryOp::FloatMul, 0.1, 3.0).to_bits(),
            0.3f32.to_bits() - 1
        );
        assert_eq!(flt(BinaryOp::FloatAdd, 16_777_216.0, 1.0), 16_777_216.0);
        assert_eq!(flt(BinaryOp::FloatAdd, 16_777_216.0, 3.0), 16_777_218.0);
        assert_eq!(flt(BinaryOp::FloatMul, f32::MAX, 2.0), f32::MAX);
        // VC4C's hardware dump: int-to-float of 2^31 - 1 is 0x4effffff.
        assert_eq!(unary(UnaryOp::IntToFloat, 0x7fff_ffff), 0x4eff_ffff);
    }

    #[test]
    fn denormal_inputs_and_outputs_flush_to_signed_zero() {
        assert_eq!(flt(BinaryOp::FloatAdd, DENORMAL, 0.0).to_bits(), 0);
        assert_eq!(flt(BinaryOp::FloatAdd, DENORMAL, DENORMAL).to_bits(), 0);
        assert_eq!(
            flt(BinaryOp::FloatMul, -DENORMAL, 1.0).to_bits(),
            (-0.0f32).to_bits()
        );
        // 1e-30 * 1e-10 = 1e-40 would be denormal: flushed.
        assert_eq!(flt(BinaryOp::FloatMul, 1.0e-30, 1.0e-10).to_bits(), 0);
        // A denormal input compares equal to zero.
        assert!(compare(CmpOp::Eq, true, fb(DENORMAL), fb(0.0)));
        assert!(!compare(CmpOp::Gt, true, fb(DENORMAL), fb(0.0)));
        assert_eq!(unary(UnaryOp::IntToFloat, 0), 0);
        assert_eq!(unary(UnaryOp::FloatToInt, fb(DENORMAL)), 0);
        assert_eq!(un_f(UnaryOp::FloatAbs, -DENORMAL).to_bits(), 0);
        assert_eq!(un_f(UnaryOp::Recip, DENORMAL), f32::INFINITY);
    }

    /// VideoCore IV NaNs and conversions as its compiled code treats them (ASSUMPTIONS the
    /// emulator makes, see `qpu_emu::float`): comparisons through `fsub`'s Z and `fmin`'s C,
    /// `min`/`max` choosing by a > b, `to_int` giving 0 outside the int32 range.
    #[test]
    fn videocore_iv_nan_min_max_and_conversions() {
        let nan = f32::NAN;
        assert!(flt(BinaryOp::FloatAdd, nan, 1.0).is_nan());
        assert!(flt(BinaryOp::FloatSub, f32::INFINITY, f32::INFINITY).is_nan());
        for (op, holds) in [
            (CmpOp::Eq, false),
            (CmpOp::Ne, true),
            (CmpOp::Lt, false),
            (CmpOp::Gt, false),
            (CmpOp::Le, true),
            (CmpOp::Ge, true),
        ] {
            assert_eq!(compare(op, true, fb(nan), fb(1.0)), holds, "{op:?}");
        }
        assert!(flt(BinaryOp::FloatMin, nan, 2.0).is_nan());
        assert_eq!(flt(BinaryOp::FloatMin, 2.0, nan), 2.0);
        assert!(flt(BinaryOp::FloatMax, 2.0, nan).is_nan());
        assert_eq!(flt(BinaryOp::FloatMin, -3.0, 2.0), -3.0);
        assert_eq!(flt(BinaryOp::FloatMax, -3.0, 2.0), 2.0);
        // Equal operands: min gives a, max gives b.
        assert_eq!(flt(BinaryOp::FloatMin, 0.0, -0.0).to_bits(), 0);
        assert_eq!(
            flt(BinaryOp::FloatMax, 0.0, -0.0).to_bits(),
            (-0.0f32).to_bits()
        );
        assert!(compare(CmpOp::Eq, true, fb(0.0), fb(-0.0)));
        assert_eq!(unary(UnaryOp::FloatToInt, fb(2.9)) as i32, 2);
        assert_eq!(unary(UnaryOp::FloatToInt, fb(-2.9)) as i32, -2);
        for x in [nan, 3e9, -3e9, f32::INFINITY, 2_147_483_648.0] {
            assert_eq!(unary(UnaryOp::FloatToInt, fb(x)), 0, "{x}");
        }
        assert_eq!(
            unary(UnaryOp::FloatToInt, fb(-2_147_483_520.0)) as i32,
            -2_147_483_520
        );
        assert_eq!(bf(unary(UnaryOp::IntToFloat, (-7i32) as u32)), -7.0);
        assert_eq!(
            bf(unary(UnaryOp::IntToFloat, i32::MIN as u32)),
            -2_147_483_648.0
        );
    }

    /// The V3D units (Broadcom's simulator float model, as `qpu_emu::v3d::lanes` states it):
    /// round to nearest, denormals kept, saturating conversions, non-NaN min/max, IEEE
    /// comparisons; NaN results propagate on 4.2 and become +0 on 7.1.
    #[test]
    fn v3d_units_round_to_nearest_and_make_nans_per_version() {
        for unit in [FloatUnit::V42, FloatUnit::V71] {
            let f = |op, a: f32, b: f32| super::binary(op, fb(a), fb(b), unit);
            // 0.1f32 · 3 rounds to 0.3f32 (the VideoCore IV truncates below it).
            assert_eq!(f(BinaryOp::FloatMul, 0.1, 3.0), fb(0.3));
            assert_eq!(f(BinaryOp::FloatAdd, DENORMAL, 0.0), fb(DENORMAL));
            assert_eq!(f(BinaryOp::FloatMin, f32::NAN, 2.0), fb(2.0));
            assert_eq!(f(BinaryOp::FloatMax, 2.0, f32::NAN), fb(2.0));
            let nan_in = f(BinaryOp::FloatAdd, f32::NAN, 1.0);
            let made = f(BinaryOp::FloatSub, f32::INFINITY, f32::INFINITY);
            let zero_div = f(BinaryOp::FloatDiv, 0.0, 0.0);
            if unit == FloatUnit::V42 {
                assert_eq!(
                    (nan_in, made, zero_div),
                    (0x7fc0_0000, 0xffc0_0000, 0xffc0_0000)
                );
            } else {
                assert_eq!((nan_in, made, zero_div), (0, 0, 0));
            }
            let to_int = |x: f32| super::unary(UnaryOp::FloatToInt, fb(x), unit) as i32;
            assert_eq!(
                [
                    to_int(3e9),
                    to_int(-3e9),
                    to_int(f32::INFINITY),
                    to_int(f32::NAN),
                    to_int(-2.9)
                ],
                [i32::MAX, i32::MIN, i32::MAX, 0, -2]
            );
            let cmp = |op, a: f32, b: f32| super::compare(op, true, fb(a), fb(b), unit);
            assert!(!cmp(CmpOp::Le, f32::NAN, 1.0) && cmp(CmpOp::Ne, f32::NAN, f32::NAN));
            assert!(cmp(CmpOp::Gt, DENORMAL, 0.0) && cmp(CmpOp::Eq, 0.0, -0.0));
            // 2^24 + 1 rounds to nearest even.
            assert_eq!(
                super::unary(UnaryOp::IntToFloat, 16_777_219, unit),
                fb(16_777_220.0)
            );
            assert_eq!(super::unary(UnaryOp::FloatAbs, fb(-2.5), unit), fb(2.5));
        }
    }

    #[test]
    fn sfu_functions() {
        assert_eq!(un_f(UnaryOp::Recip, 4.0), 0.25);
        assert_eq!(un_f(UnaryOp::Recip, 0.0), f32::INFINITY);
        assert_eq!(un_f(UnaryOp::Recip, -0.0), f32::NEG_INFINITY);
        assert_eq!(un_f(UnaryOp::Rsqrt, 4.0), 0.5);
        assert_eq!(un_f(UnaryOp::Rsqrt, -4.0), 0.5);
        assert_eq!(un_f(UnaryOp::Exp2, 10.0), 1024.0);
        assert_eq!(un_f(UnaryOp::Exp2, -1.0), 0.5);
        assert_eq!(un_f(UnaryOp::Exp2, 200.0), f32::INFINITY);
        assert_eq!(
            un_f(UnaryOp::Exp2, -140.0).to_bits(),
            0,
            "denormal result flushed"
        );
        assert_eq!(un_f(UnaryOp::Log2, 1024.0), 10.0);
        assert_eq!(un_f(UnaryOp::Log2, -8.0), 3.0);
        assert_eq!(un_f(UnaryOp::Log2, 0.0), f32::NEG_INFINITY);
        assert_eq!(un_f(UnaryOp::Sqrt, 16.0), 4.0);
        assert_eq!(un_f(UnaryOp::Sqrt, -9.0), 3.0);
        assert_eq!(un_f(UnaryOp::Sqrt, 0.0), 0.0);
        assert_eq!(un_f(UnaryOp::Sqrt, f32::INFINITY), f32::INFINITY);
        let root2 = un_f(UnaryOp::Sqrt, 2.0);
        assert!((root2 - std::f32::consts::SQRT_2).abs() <= f32::EPSILON * 2.0);
        assert!(un_f(UnaryOp::Recip, f32::NAN).is_nan());
    }

    #[test]
    fn division_is_multiplication_by_reciprocal() {
        assert_eq!(flt(BinaryOp::FloatDiv, 1.0, 4.0), 0.25);
        assert_eq!(flt(BinaryOp::FloatDiv, 3.0, 0.0), f32::INFINITY);
        let q = flt(BinaryOp::FloatDiv, 1.0, 3.0);
        assert_eq!(q, 1.0f32 * (1.0f32 / 3.0));
        // Within 1.5 ulp of the true quotient for ordinary values.
        for (a, b) in [(7.0f32, 3.0f32), (1e10, 7.0), (-5.5, 1.1), (0.3, 0.7)] {
            let exact = a as f64 / b as f64;
            let got = flt(BinaryOp::FloatDiv, a, b) as f64;
            let ulp = (exact.abs() as f32).to_bits();
            let ulp = (f32::from_bits(ulp + 1) - f32::from_bits(ulp)) as f64;
            assert!((got - exact).abs() <= 1.5 * ulp, "{a}/{b}");
        }
    }

    #[test]
    fn lane_rotation_is_mod_16_in_both_directions() {
        let v: Vector = std::array::from_fn(|i| i as u32);
        assert_eq!(rotate(&v, 1)[1], 0);
        assert_eq!(rotate(&v, 1)[0], 15);
        assert_eq!(rotate(&v, 15)[0], 1, "15 rotates left by one");
        assert_eq!(rotate(&v, 16), v);
        assert_eq!(rotate(&v, (-1i32) as u32), rotate(&v, 15));
        assert_eq!(rotate(&v, (-17i32) as u32), rotate(&v, 15));
        assert_eq!(rotate(&v, i32::MIN as u32), v);
        assert_eq!(rotate(&v, 100), rotate(&v, 4));
    }
}

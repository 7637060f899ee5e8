//! The meaning of every operator, one lane at a time, on raw 32-bit words.
//!
//! This is the executable definition the compiler and emulator are checked against.
//!
//! * Integers: two's complement, wrapping. Shift and bit-rotate amounts use the low 5 bits
//!   (vc4-isa.md §3, "shifts/rotate use the low 5 bits of operand B").
//! * `mul24`: low 24 bits of each operand, unsigned, low 32 bits of the product (§3).
//! * Floats: IEEE-754 binary32 values, but as the VideoCore IV computes them: `+`, `-`, `*`
//!   and int-to-float **round toward zero** (exactly: the truncation sees the whole exact
//!   result), and denormals are flushed to a zero of the same sign on input and on output of
//!   every float operation. These four come from [`qpu_emu::float`], the one definition the
//!   emulator shares, which gives the hardware evidence. Whether the hardware keeps the sign
//!   of a flushed denormal is not documented; we keep it.
//!   NaN and infinity follow IEEE here; the hardware's own NaN/Inf handling is not modelled
//!   (§3 says it is non-IEEE), so kernels depending on NaN results may differ on a Pi.
//! * SFU functions (`recip`, `rsqrt`, `exp2`, `log2`) are computed to within double
//!   rounding of the exact result (via f64, deterministic on every host); the hardware
//!   returns approximations, so compare hardware results with a tolerance.

use qpu_emu::float;

use crate::lang::ast::{BinaryOp, CmpOp, UnaryOp, LANES};

/// One 16-lane vector of raw words.
pub type Vector = [u32; LANES];

/// Flush a denormal to a zero of the same sign.
pub fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        if x.is_sign_negative() {
            -0.0
        } else {
            0.0
        }
    } else {
        x
    }
}

fn float_in(word: u32) -> f32 {
    ftz(f32::from_bits(word))
}

fn float_out(x: f32) -> u32 {
    ftz(x).to_bits()
}

/// `1/x`, exactly rounded, with flushing.
pub fn recip(x: f32) -> f32 {
    ftz(1.0 / ftz(x))
}

/// `1/sqrt(|x|)`.
pub fn rsqrt(x: f32) -> f32 {
    let x = ftz(x).abs() as f64;
    ftz((1.0 / x.sqrt()) as f32)
}

/// `2^x`.
pub fn exp2(x: f32) -> f32 {
    ftz((ftz(x) as f64).exp2() as f32)
}

/// `log2(|x|)`.
pub fn log2(x: f32) -> f32 {
    ftz((ftz(x).abs() as f64).log2() as f32)
}

/// Minimum with NaN yielding the other operand and `-0 < +0`.
pub fn fmin(a: f32, b: f32) -> f32 {
    let (a, b) = (ftz(a), ftz(b));
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else if b < a {
        b
    } else if a.is_sign_negative() {
        a
    } else {
        b
    }
}

/// Maximum with NaN yielding the other operand and `-0 < +0`.
pub fn fmax(a: f32, b: f32) -> f32 {
    let (a, b) = (ftz(a), ftz(b));
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b {
        a
    } else if b > a || a.is_sign_negative() {
        // Equal values differ at most in the sign of zero; prefer +0.
        b
    } else {
        a
    }
}

/// Apply a one-operand operator to one lane.
pub fn unary(op: UnaryOp, a: u32) -> u32 {
    let i = a as i32;
    match op {
        UnaryOp::IntNot => !a,
        UnaryOp::IntAbs => i.wrapping_abs() as u32,
        UnaryOp::Clz => a.leading_zeros(),
        UnaryOp::IntToFloat => float::itof(a),
        // `as` truncates toward zero, saturates, and maps NaN to 0: our documented ftoi.
        UnaryOp::FloatToInt => (float_in(a) as i32) as u32,
        UnaryOp::FloatAbs => float_out(float_in(a).abs()),
        UnaryOp::Recip => float_out(recip(float_in(a))),
        UnaryOp::Rsqrt => float_out(rsqrt(float_in(a))),
        UnaryOp::Exp2 => float_out(exp2(float_in(a))),
        UnaryOp::Log2 => float_out(log2(float_in(a))),
        UnaryOp::Sqrt => float_out(recip(rsqrt(float_in(a)))),
    }
}

/// Apply a two-operand operator to one lane.
pub fn binary(op: BinaryOp, a: u32, b: u32) -> u32 {
    let (x, y) = (a as i32, b as i32);
    let shift = b & 31;
    match op {
        BinaryOp::IntAdd => x.wrapping_add(y) as u32,
        BinaryOp::IntSub => x.wrapping_sub(y) as u32,
        BinaryOp::IntMul => x.wrapping_mul(y) as u32,
        BinaryOp::Mul24 => (a & 0x00ff_ffff).wrapping_mul(b & 0x00ff_ffff),
        BinaryOp::Shl => a << shift,
        BinaryOp::Asr => (x >> shift) as u32,
        BinaryOp::Lsr => a >> shift,
        BinaryOp::Ror => a.rotate_right(shift),
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::IntMin => x.min(y) as u32,
        BinaryOp::IntMax => x.max(y) as u32,
        // By zero: what the compiled long division gives (see `BinaryOp::IntDiv`).
        BinaryOp::IntDiv if y == 0 => (if x < 0 { 1 } else { -1 }) as u32,
        BinaryOp::IntDiv => x.wrapping_div(y) as u32,
        BinaryOp::IntRem if y == 0 => a,
        BinaryOp::IntRem => x.wrapping_rem(y) as u32,
        BinaryOp::FloatAdd => float::fadd(a, b),
        BinaryOp::FloatSub => float::fsub(a, b),
        BinaryOp::FloatMul => float::fmul(a, b),
        BinaryOp::FloatDiv => float::fmul(a, float_out(recip(float_in(b)))),
        BinaryOp::FloatMin => float_out(fmin(float_in(a), float_in(b))),
        BinaryOp::FloatMax => float_out(fmax(float_in(a), float_in(b))),
    }
}

/// Compare one lane.
pub fn compare(op: CmpOp, float: bool, a: u32, b: u32) -> bool {
    if float {
        let (x, y) = (float_in(a), float_in(b));
        match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
        }
    } else {
        let (x, y) = (a as i32, b as i32);
        match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
        }
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
        // QPULib's `*`: -8 * 3 = 0xfffff8 * 3 = 50,331,624 (qpulib-anchor.md §6).
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

    #[test]
    fn float_nan_follows_ieee() {
        let nan = f32::NAN;
        assert!(flt(BinaryOp::FloatAdd, nan, 1.0).is_nan());
        assert!(flt(BinaryOp::FloatSub, f32::INFINITY, f32::INFINITY).is_nan());
        for op in [CmpOp::Eq, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge] {
            assert!(!compare(op, true, fb(nan), fb(1.0)), "{op:?}");
            assert!(!compare(op, true, fb(nan), fb(nan)), "{op:?}");
        }
        assert!(compare(CmpOp::Ne, true, fb(nan), fb(nan)));
        assert_eq!(flt(BinaryOp::FloatMin, nan, 2.0), 2.0);
        assert_eq!(flt(BinaryOp::FloatMax, 2.0, nan), 2.0);
        assert_eq!(unary(UnaryOp::FloatToInt, fb(nan)), 0);
    }

    #[test]
    fn float_min_max_order_signed_zeros() {
        assert_eq!(
            flt(BinaryOp::FloatMin, 0.0, -0.0).to_bits(),
            (-0.0f32).to_bits()
        );
        assert_eq!(
            flt(BinaryOp::FloatMin, -0.0, 0.0).to_bits(),
            (-0.0f32).to_bits()
        );
        assert_eq!(flt(BinaryOp::FloatMax, -0.0, 0.0).to_bits(), 0);
        assert_eq!(flt(BinaryOp::FloatMax, 0.0, -0.0).to_bits(), 0);
        assert_eq!(flt(BinaryOp::FloatMin, -3.0, 2.0), -3.0);
        assert_eq!(flt(BinaryOp::FloatMax, -3.0, 2.0), 2.0);
        assert!(compare(CmpOp::Eq, true, fb(0.0), fb(-0.0)));
    }

    #[test]
    fn conversions_truncate_and_saturate() {
        assert_eq!(unary(UnaryOp::FloatToInt, fb(2.9)) as i32, 2);
        assert_eq!(unary(UnaryOp::FloatToInt, fb(-2.9)) as i32, -2);
        assert_eq!(unary(UnaryOp::FloatToInt, fb(3e9)) as i32, i32::MAX);
        assert_eq!(unary(UnaryOp::FloatToInt, fb(-3e9)) as i32, i32::MIN);
        assert_eq!(
            unary(UnaryOp::FloatToInt, fb(f32::INFINITY)) as i32,
            i32::MAX
        );
        assert_eq!(bf(unary(UnaryOp::IntToFloat, (-7i32) as u32)), -7.0);
        // 2^24 + 1 is not representable: round to nearest even.
        assert_eq!(bf(unary(UnaryOp::IntToFloat, 16_777_217)), 16_777_216.0);
        assert_eq!(
            bf(unary(UnaryOp::IntToFloat, i32::MIN as u32)),
            -2_147_483_648.0
        );
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

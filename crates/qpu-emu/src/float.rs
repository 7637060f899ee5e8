//! VideoCore IV float arithmetic on raw 32-bit words, one lane at a time: the single
//! definition the emulator's ALUs and the `qpu` crate's reference interpreter share.
//!
//! * **No denormals.** Inputs and results below 2^-126 in magnitude are flushed to a zero of
//!   the same sign (vc4asm's measured instruction table).
//! * **Round toward zero.** `fadd`, `fsub`, `itof` and `fmul` truncate their exact result
//!   to the next float toward zero, unlike IEEE's default round-to-nearest. Evidence: values
//!   dumped from real hardware in VC4C's `test/opcode_test.h` (1.0 + (−2^-95) gives
//!   0x3f7fffff, i.e. the float just below 1.0; itof(2^31 − 1) gives 0x4effffff, not 2^31),
//!   VC4CL's numerical-compliance notes and V3DLib's FAQ (multiplication truncates too on
//!   the VideoCore IV; the VideoCore VI rounds to nearest), and an accuracy check of
//!   GPU_FFT's hand-written shaders against its published hardware error figures, which
//!   agree with truncation in both ALUs and with nothing else.
//! * The truncation is exact: it looks at the whole exact result, even when the discarded
//!   part lies far below the last place (so a tiny negative addend moves 1.0 down by one
//!   unit in the last place).
//! * Overflow truncates to the largest finite float of the result's sign, as IEEE's
//!   round-toward-zero does. ASSUMPTION (unmeasured): the VideoCore IV does the same.
//!   Infinite and NaN operands give IEEE's result.

/// Flushes a denormal to a zero of the same sign: the QPU has no denormals [measured].
#[inline(always)]
pub fn ftz(bits: u32) -> u32 {
    // All ones when the exponent field is zero (exponent − 1 is negative only then), so the
    // select is plain integer arithmetic that vectorizes without SSE4 blends.
    let zero_exponent = (((bits & 0x7f80_0000) as i32).wrapping_sub(1) >> 31) as u32;
    bits & !(zero_exponent & 0x7fff_ffff)
}

/// The operand value of a float word: denormals read as zero.
#[inline(always)]
fn operand(bits: u32) -> f64 {
    f64::from(f32::from_bits(ftz(bits)))
}

/// The f32 word toward zero from `value + rest`, where `value` is an f64 and `rest` the
/// exact remainder of the true result (|rest| at most half an f64 unit in the last place of
/// `value`, or 0), then flushed.
///
/// Why `rest` only matters when `value` is itself an f32: f32 values are f64 values, so an
/// f32 value strictly between the true result and `value` would be an f64 closer to the true
/// result than `value`, which round-to-nearest excludes. Truncating `value` therefore
/// truncates the true result, except when `value` is an f32 and the true result lies just
/// inside it (toward zero), where the answer is the next f32 toward zero.
#[inline(always)]
fn truncate(value: f64, rest: f64) -> u32 {
    // Round to nearest, then step one unit toward zero if that went away from zero. No
    // branches, so that a 16-lane loop of it vectorizes. The cases take care of themselves:
    // an overflow rounds to infinity, which is larger than `value`, and steps to the largest
    // finite float; an infinite `value` rounds to itself with no remainder; NaN compares
    // false everywhere; a result that steps below the smallest normal is flushed.
    let nearest = value as f32;
    let back = f64::from(nearest);
    let away =
        back.abs() > value.abs() || (back == value && rest != 0.0 && (rest < 0.0) != (value < 0.0));
    ftz(nearest.to_bits() - u32::from(away))
}

/// Whether a float word is a NaN.
#[inline(always)]
fn is_nan(bits: u32) -> bool {
    bits & 0x7fff_ffff > 0x7f80_0000
}

/// `a + b`, truncated toward zero.
///
/// Computed in f32 (4 lanes per SSE2 instruction, 8 per AVX2 one; no conversions): the f32 sum rounded to
/// nearest, its exact remainder by Dekker's fast two-sum (exact in binary floating point
/// with round-to-nearest and gradual underflow whenever the rounded sum is finite), and one step
/// toward zero when rounding went away from zero, which is when the remainder is non-zero
/// and of the other sign than the sum. An overflow (an infinite sum of finite operands)
/// steps from infinity to the largest finite float; an infinite operand gives IEEE's
/// infinity or NaN unchanged. `tests::fadd_matches_the_f64_definition` compares it bit for
/// bit with the f64 definition ([`truncate`] of the f64 sum and its remainder).
#[inline(always)]
pub fn fadd(a: u32, b: u32) -> u32 {
    let (a, b) = (ftz(a), ftz(b));
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let sum = x + y;
    // Dekker's fast two-sum from the operand of larger magnitude: `sum - big` and the
    // remainder are then exact, so unlike Knuth's two-sum no step can overflow while the
    // sum is finite (Knuth's `sum - x` can round up to infinity next to the largest float).
    let a_larger = a & 0x7fff_ffff >= b & 0x7fff_ffff;
    let (big, small) = if a_larger { (x, y) } else { (y, x) };
    let rest = small - (sum - big);
    let bits = sum.to_bits();
    // Integer tests, so that the 16-lane loop stays branch-free and vectorizes.
    let infinite = bits & 0x7fff_ffff == 0x7f80_0000;
    let finite_operands = (a & 0x7f80_0000 != 0x7f80_0000) & (b & 0x7f80_0000 != 0x7f80_0000);
    // (Comparisons, which are false for a NaN sum and remainder.)
    let rounded_away = (rest != 0.0) & ((rest < 0.0) != (sum < 0.0));
    let away = (infinite & finite_operands) | (!infinite & rounded_away);
    // A NaN sum is the host's: on x86 (see [`fmul`]) `a`'s if both are NaNs, which
    // `tests::nan_results` and `vc4::alu::tests`' comparisons of the
    // vectorized loops with this function check (choosing it here too costs HeatMap 3%).
    ftz(bits - u32::from(away))
}

/// `a - b`, truncated toward zero.
#[inline(always)]
pub fn fsub(a: u32, b: u32) -> u32 {
    fadd(a, b ^ 0x8000_0000)
}

/// `a · b`, truncated toward zero. The f64 product of two f32 values is exact (48
/// significant bits, exponents well inside the f64 range).
///
/// NaN results are the host's, which on x86 are (Intel's SDM, volume 1, section 4.8.3.5
/// "Operating on SNaNs and QNaNs", table 4-7, and the "real indefinite" QNaN of section
/// 4.8.3.7) the first operand's NaN quieted, else the second's, else for an invalid
/// operation (0 · inf) 0xffc00000. Which operand is "first" is the compiler's choice for a
/// commutative multiply, and it differed between the scalar and the vectorized loop; so
/// when both operands are NaNs, `a` is replaced by `b` first and the result is `b`'s NaN,
/// as the scalar code gave before (`tests/pinned.rs`'s digests record it). ASSUMPTION
/// (unmeasured): which NaN the QPU gives.
#[inline(always)]
pub fn fmul(a: u32, b: u32) -> u32 {
    let a = if is_nan(a) & is_nan(b) { b } else { a };
    truncate(operand(a) * operand(b), 0.0)
}

/// Signed integer to float, truncated toward zero (every i32 is exact in f64).
#[inline(always)]
pub fn itof(a: u32) -> u32 {
    truncate(f64::from(a as i32), 0.0)
}

/// The value of a float word with denormals read as zero.
#[inline(always)]
fn value(bits: u32) -> f32 {
    f32::from_bits(ftz(bits))
}

/// `ftoi`: float to signed integer, truncating toward zero. ASSUMPTION (unmeasured; no
/// source gives it, the `help_us_check` example asks a Pi): NaN and values outside the
/// int32 range give 0.
#[inline(always)]
pub fn ftoi(a: u32) -> u32 {
    let x = value(a);
    if x.is_nan() || x.abs() >= 2_147_483_648.0 {
        0
    } else {
        x as i32 as u32
    }
}

/// C of `fmin`/`fmax` (and what they choose by): a > b, after flushing; false when either
/// is NaN (vc4asm's measured table: C is a > b).
#[inline(always)]
pub fn greater(a: u32, b: u32) -> bool {
    value(a) > value(b)
}

/// `fmin`: b when a > b, else a (flushed). ASSUMPTION (unmeasured): so a NaN a gives NaN
/// and a NaN b gives a, and on equal operands a (the `help_us_check` example asks a Pi).
#[inline(always)]
pub fn fmin(a: u32, b: u32) -> u32 {
    ftz(if greater(a, b) { b } else { a })
}

/// `fmax`: a when a > b, else b (flushed); NaN and equal operands as [`fmin`].
#[inline(always)]
pub fn fmax(a: u32, b: u32) -> u32 {
    ftz(if greater(a, b) { a } else { b })
}

/// `fmaxabs`: the operand of larger magnitude, its sign cleared (flushed).
#[inline(always)]
pub fn fmaxabs(a: u32, b: u32) -> u32 {
    ftz(if value(a).abs() > value(b).abs() {
        a
    } else {
        b
    }) & 0x7fff_ffff
}

/// The special functions (guide section 3, "Special Functions Unit"): computed exactly in
/// f64 and rounded once to f32, then flushed (the hardware approximates); `rsqrt` and `log2`
/// ignore the argument's sign.
pub fn sfu(op: qpu_isa::vc4::regs::SfuOp, bits: u32) -> u32 {
    use qpu_isa::vc4::regs::SfuOp;
    let x = f64::from(value(bits));
    let result = match op {
        SfuOp::Recip => 1.0 / x,
        SfuOp::RecipSqrt => 1.0 / x.abs().sqrt(),
        SfuOp::Exp2 => x.exp2(),
        SfuOp::Log2 => x.abs().log2(),
    };
    ftz((result as f32).to_bits())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn w(x: f32) -> u32 {
        x.to_bits()
    }

    /// The f64 definition of `fadd` (the emulator's implementation before the f32 one): the
    /// f64 sum of the two f32 values, its exact remainder by two-sum, then [`truncate`].
    fn fadd_f64(a: u32, b: u32) -> u32 {
        let (x, y) = (operand(a), operand(b));
        let sum = x + y;
        let y_part = sum - x;
        let rest = (x - (sum - y_part)) + (y - y_part);
        truncate(sum, if sum.is_finite() { rest } else { 0.0 })
    }

    /// Operands that probe every edge: zeros, denormals, the normal range's ends, powers of
    /// two and their neighbours across the whole exponent range, infinities and NaNs.
    pub(crate) fn edge_operands() -> Vec<u32> {
        let mut out = vec![0, 1, 0x007f_ffff, 0x0040_0000, 0x7f80_0000, 0x7fc0_0000];
        out.extend([
            0x7f80_0001,
            0x7fa0_1234,
            0x7fff_ffff,
            0x7f7f_ffff,
            0x7f7f_fffe,
        ]);
        for exponent in 1..255u32 {
            for mantissa in [
                0, 1, 2, 0x3f_ffff, 0x40_0000, 0x40_0001, 0x7f_fffe, 0x7f_ffff,
            ] {
                out.push(exponent << 23 | mantissa);
            }
        }
        let negative: Vec<u32> = out.iter().map(|&v| v | 0x8000_0000).collect();
        out.extend(negative);
        out
    }

    #[test]
    fn fadd_matches_the_f64_definition() {
        let edges = edge_operands();
        for &a in &edges {
            for &b in &edges {
                assert_eq!(fadd(a, b), fadd_f64(a, b), "{a:#010x} + {b:#010x}");
            }
        }
        // Random operands whose exponents differ by -40..40, so that every alignment of the
        // two significands (and the remainders two-sum must recover) occurs, over the whole
        // exponent range, plus fully random words.
        let mut next = crate::xorshift64(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..2_000_000 {
            let r = next();
            let a = r as u32;
            let shift = ((r >> 32) % 81) as i64 - 40;
            let exponent = (i64::from(a >> 23 & 0xff) + shift).clamp(0, 255) as u32;
            let b = ((r >> 40) as u32 & 0x807f_ffff) | exponent << 23;
            let random = (next() >> 32) as u32;
            for (a, b) in [(a, b), (b, a), (a, random)] {
                assert_eq!(fadd(a, b), fadd_f64(a, b), "{a:#010x} + {b:#010x}");
            }
        }
    }

    /// The float toward zero from an exactly known rational value, by bisection over the
    /// f32 words: an independent route to the expected results.
    fn truncated_reference(num: i128, den_log2: u32) -> u32 {
        // value = num / 2^den_log2; find the largest f32 magnitude <= |value|.
        let negative = num < 0;
        let num = num.unsigned_abs();
        let (mut lo, mut hi) = (0u32, 0x7f7f_ffffu32);
        // Whether the f32 magnitude `bits` is at most num / 2^den_log2: with the f32 as
        // m·2^e, whether m·2^(e + den_log2) <= num.
        let le = |bits: u32| -> bool {
            if bits & 0x7f80_0000 == 0 {
                return true;
            }
            let m = u128::from((bits & 0x007f_ffff) | 0x0080_0000);
            let s = ((bits >> 23) as i32 - 150) + den_log2 as i32;
            if s >= 0 {
                // m < 2^24, so m·2^s fits below 2^127 up to s = 103; beyond, it exceeds any
                // num here.
                s <= 103 && (m << s) <= num
            } else {
                let up = (-s) as u32;
                up >= 128 || num.leading_zeros() < up || m <= (num << up)
            }
        };
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if le(mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        ftz(lo | if negative { 0x8000_0000 } else { 0 })
    }

    #[test]
    fn nan_results() {
        // Opaque operands: constant folding picks NaNs by the compiler's rules, not the
        // host's.
        use std::hint::black_box as opaque;
        let (snan, qnan) = (opaque(0x7f80_0001u32), opaque(0xffc1_2345u32));
        let inf = opaque(f32::INFINITY.to_bits());
        // One NaN operand: that NaN, quieted, from either side.
        assert_eq!(fadd(snan, opaque(w(1.0))), 0x7fc0_0001);
        assert_eq!(fmul(opaque(w(2.0)), snan), 0x7fc0_0001);
        // Two: `fadd` gives a's (the host's choice), `fmul` b's (chosen, as pinned).
        assert_eq!(fmul(snan, qnan), qnan);
        assert_eq!(fmul(qnan, snan), 0x7fc0_0001);
        if cfg!(target_arch = "x86_64") {
            assert_eq!(fadd(snan, qnan), 0x7fc0_0001);
            assert_eq!(fsub(snan, qnan), 0x7fc0_0001);
            // Invalid operations: x86's negative quiet NaN.
            assert_eq!(fadd(inf, inf | 0x8000_0000), 0xffc0_0000);
            assert_eq!(fmul(opaque(0), inf), 0xffc0_0000);
        }
    }

    #[test]
    fn hardware_dumped_cases() {
        // VC4C test/opcode_test.h (generated on real hardware): 1.0 + (-2^-95).
        assert_eq!(fadd(w(1.0), w(-(2f32.powi(-95)))), 0x3f7f_ffff);
        // itof(2^31 - 1) = 0x4effffff (2147483520), not 2^31.
        assert_eq!(itof(0x7fff_ffff), 0x4eff_ffff);
    }

    #[test]
    fn truncation_of_exact_results() {
        // 1 + 2^-24 lies halfway between 1.0 and its successor: nearest-even gives 1.0,
        // truncation gives 1.0 too; 1 + 3·2^-25 rounds up to nearest but truncates down.
        assert_eq!(fadd(w(1.0), w(2f32.powi(-24))), w(1.0));
        assert_eq!(fadd(w(1.0), w(3.0 * 2f32.powi(-25))), w(1.0));
        assert_eq!(fsub(w(-1.0), w(3.0 * 2f32.powi(-25))), w(-1.0));
        // (1 + 2^-23) · 1.75 = 1.75 + 1.75·2^-23: nearest gives 1.75 + 2·2^-23, truncation
        // 1.75 + 2^-23.
        let above_one = f32::from_bits(0x3f80_0001);
        assert_eq!(fmul(w(above_one), w(1.75)), w(1.75) + 1);
        assert_eq!((above_one * 1.75).to_bits(), w(1.75) + 2);
        // Small integers are exact; 2^24 + 1 truncates to 2^24, and so does 2^24 + 3 (not
        // up to 2^24 + 4 as nearest-even would).
        assert_eq!(itof(16_777_217), w(16_777_216.0));
        assert_eq!(itof(16_777_219), w(16_777_218.0));
        assert_eq!(itof(-16_777_219i32 as u32), w(-16_777_218.0));
        assert_eq!(itof(0), 0);
        // Overflow truncates to the largest finite float.
        assert_eq!(fadd(w(f32::MAX), w(f32::MAX)), w(f32::MAX));
        assert_eq!(fmul(w(-f32::MAX), w(2.0)), w(-f32::MAX));
        assert_eq!(fadd(w(f32::INFINITY), w(1.0)), w(f32::INFINITY));
        assert!(f32::from_bits(fsub(w(f32::INFINITY), w(f32::INFINITY))).is_nan());
        // Results below the normal range flush; denormal inputs read as zero.
        let min = f32::MIN_POSITIVE;
        assert_eq!(fsub(w(1.5 * min), w(min)), 0);
        assert_eq!(fmul(w(min), w(0.5)), 0);
        assert_eq!(fadd(1, w(2.0)), w(2.0));
        // x + (-x) is +0.
        assert_eq!(fadd(w(3.5), w(-3.5)), 0);
    }

    #[test]
    fn random_sums_and_products_match_exact_integer_arithmetic() {
        // Operands of the form k·2^e (|k| < 2^24, e in -20..20), so that a·2^20 and b·2^20
        // are integers below 2^63 and the exact sums and products are i128 integers over
        // 2^20 and 2^40, which the reference truncates directly.
        let mut next = crate::xorshift64(0x2545_f491_4f6c_dd1du64);
        for _ in 0..20_000 {
            let (ka, kb) = ((next() as i32 >> 7) as i128, (next() as i32 >> 7) as i128);
            let (ea, eb) = ((next() % 40) as i32 - 20, (next() % 40) as i32 - 20);
            let a = (ka as f64 * 2f64.powi(ea)) as f32;
            let b = (kb as f64 * 2f64.powi(eb)) as f32;
            let exact = |v: f32| -> i128 {
                let scaled = f64::from(v) * 2f64.powi(20);
                assert_eq!(scaled.fract(), 0.0);
                scaled as i128
            };
            let (ia, ib) = (exact(a), exact(b));
            assert_eq!(
                fadd(w(a), w(b)),
                truncated_reference(ia + ib, 20),
                "{a} + {b}"
            );
            assert_eq!(
                fsub(w(a), w(b)),
                truncated_reference(ia - ib, 20),
                "{a} - {b}"
            );
            assert_eq!(
                fmul(w(a), w(b)),
                truncated_reference(ia * ib, 40),
                "{a} * {b}"
            );
        }
    }
}

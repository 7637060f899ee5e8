//! What each ALU operation, pack, unpack and special function computes, lane by lane.
//!
//! Sources: the guide's tables 5/6 (opcodes), 8–10 (pack/unpack) and section 3 "Special
//! Functions Unit"; operand and flag semantics from vc4asm's hardware-measured opcode table
//! (published as an addendum to the guide). Where neither says, the choice is marked
//! ASSUMPTION.

use qpu_isa::vc4::{AddOp, MulOp, PackA, PackMul, Unpack};

use crate::float;

/// Sixteen lanes of one 32-bit register.
pub type Lanes = [u32; 16];

/// Per-lane flags, each lane all ones (set) or zero (clear): lane masks keep flag updates,
/// conditions and masked writes branch-free and vectorizable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// Zero.
    pub z: Lanes,
    /// Negative.
    pub n: Lanes,
    /// Carry.
    pub c: Lanes,
}

/// A lane mask from a condition.
#[inline(always)]
pub fn lane_mask(set: bool) -> u32 {
    u32::from(set).wrapping_neg()
}

pub use crate::float::ftz;

/// C of fadd/fsub: the (truncated, flushed) result is greater than zero.
#[inline(always)]
fn positive(bits: u32) -> bool {
    f32::from_bits(bits) > 0.0
}

#[inline(always)]
fn f(bits: u32) -> f32 {
    f32::from_bits(ftz(bits))
}

/// One ALU operation on 16 lanes: operands a and b, the result, and the per-lane carry
/// mask, in a variant that fills the carry (for `setf`) or one that leaves it untouched.
pub type LaneOp = fn(&Lanes, &Lanes, &mut Lanes, &mut Lanes);

/// A QPU's value table (see `decode::rows`): 256 rows, so any `u8` row number is in range.
pub type Table = [Lanes; 256];

/// One ALU operation straight from and to value-table rows `[a, b, result]`: operands are
/// copied out before the result row is written, so the result may overwrite an operand.
pub type DirectOp = fn(&mut Table, &[u8; 3]);

/// An operation's variants, picked once at decode time so that executing it is one call.
#[derive(Clone, Copy)]
pub struct OpFns {
    /// Result only.
    pub plain: LaneOp,
    /// Result and carry mask.
    pub with_carry: LaneOp,
    /// Result only, from and to table rows.
    pub direct: DirectOp,
}

/// Defines an operation (as a module with its [`OpFns`] variants) from its per-lane value
/// and carry (the carry defaults to clear). Value and carry are separate passes so that
/// each vectorizes; each variant runs its passes compiled for the host's widest vector
/// instructions ([`crate::simd::wide`]).
macro_rules! lane_op {
    ($run:ident $name:ident, |$x:ident, $y:ident| $value:expr) => {
        lane_op!($run $name, |$x, $y| $value, false);
    };
    // The carry from the lane's result `$r` instead of its operands.
    ($run:ident $name:ident, |$x:ident, $y:ident| $value:expr, result |$r:ident| $carry:expr) => {
        lane_op!(@ $run $name, |$x, $y| $value, |$x, $y, $r| $carry);
    };
    ($run:ident $name:ident, |$x:ident, $y:ident| $value:expr, $carry:expr) => {
        lane_op!(@ $run $name, |$x, $y| $value, |$x, $y, _result| $carry);
    };
    (@ $run:ident $name:ident, |$x:ident, $y:ident| $value:expr,
        |$cx:ident, $cy:ident, $cr:ident| $carry:expr) => {
        pub(super) mod $name {
            #[allow(unused_imports)]
            use crate::vc4::alu::*;
            use crate::simd::{$run as run, Kernel};

            /// The values of `a` op `b`.
            struct Values<'a>(&'a Lanes, &'a Lanes, &'a mut Lanes);

            impl Kernel for Values<'_> {
                type Output = ();

                #[allow(unused_variables)]
                #[inline(always)]
                fn run(self) {
                    for ((o, &$x), &$y) in self.2.iter_mut().zip(self.0).zip(self.1) {
                        *o = $value;
                    }
                }
            }

            /// The values and the carry masks.
            struct Both<'a>(&'a Lanes, &'a Lanes, &'a mut Lanes, &'a mut Lanes);

            impl Kernel for Both<'_> {
                type Output = ();

                #[allow(unused_variables)]
                #[inline(always)]
                fn run(self) {
                    let Both(a, b, out, carry) = self;
                    Values(a, b, out).run();
                    for i in 0..16 {
                        let ($cx, $cy, $cr) = (a[i], b[i], out[i]);
                        carry[i] = lane_mask($carry);
                    }
                }
            }

            /// The values from and to table rows.
            struct Rows<'a>(&'a mut Table, &'a [u8; 3]);

            impl Kernel for Rows<'_> {
                type Output = ();

                #[inline(always)]
                fn run(self) {
                    let Rows(table, rows) = self;
                    let mut out = [0; 16];
                    Values(
                        &table[usize::from(rows[0])],
                        &table[usize::from(rows[1])],
                        &mut out,
                    )
                    .run();
                    table[usize::from(rows[2])] = out;
                }
            }

            pub fn plain(a: &Lanes, b: &Lanes, out: &mut Lanes, _carry: &mut Lanes) {
                run(Values(a, b, out))
            }

            pub fn with_carry(a: &Lanes, b: &Lanes, out: &mut Lanes, carry: &mut Lanes) {
                run(Both(a, b, out, carry))
            }

            pub fn direct(table: &mut Table, rows: &[u8; 3]) {
                run(Rows(table, rows))
            }

            pub const FNS: OpFns = OpFns {
                plain,
                with_carry,
                direct,
            };
        }
    };
}

/// Defines a per-byte operation (as [`lane_op!`] does; the carry is clear). The lanes are
/// viewed as 64 bytes so that the byte loop maps onto byte-wise vector instructions.
macro_rules! byte_op {
    ($run:ident $name:ident, |$p:ident, $q:ident| $value:expr) => {
        pub(super) mod $name {
            use crate::simd::{$run as run, Kernel};
            use crate::vc4::alu::*;

            /// The values of `a` op `b`.
            struct Values<'a>(&'a Lanes, &'a Lanes, &'a mut Lanes);

            impl Kernel for Values<'_> {
                type Output = ();

                #[inline(always)]
                fn run(self) {
                    let (a, b) = (to_bytes(self.0), to_bytes(self.1));
                    let mut result = [0u8; 64];
                    for ((r, &$p), &$q) in result.iter_mut().zip(&a).zip(&b) {
                        *r = $value;
                    }
                    *self.2 = from_bytes(&result);
                }
            }

            /// The values from and to table rows.
            struct Rows<'a>(&'a mut Table, &'a [u8; 3]);

            impl Kernel for Rows<'_> {
                type Output = ();

                #[inline(always)]
                fn run(self) {
                    let Rows(table, rows) = self;
                    let mut out = [0; 16];
                    Values(
                        &table[usize::from(rows[0])],
                        &table[usize::from(rows[1])],
                        &mut out,
                    )
                    .run();
                    table[usize::from(rows[2])] = out;
                }
            }

            pub fn plain(a: &Lanes, b: &Lanes, out: &mut Lanes, _carry: &mut Lanes) {
                run(Values(a, b, out))
            }

            pub fn with_carry(a: &Lanes, b: &Lanes, out: &mut Lanes, carry: &mut Lanes) {
                plain(a, b, out, carry);
                *carry = [0; 16];
            }

            pub fn direct(table: &mut Table, rows: &[u8; 3]) {
                run(Rows(table, rows))
            }

            pub const FNS: OpFns = OpFns {
                plain,
                with_carry,
                direct,
            };
        }
    };
}

/// The 16 lanes as 64 little-endian bytes.
#[inline(always)]
fn to_bytes(lanes: &Lanes) -> [u8; 64] {
    let mut bytes = [0u8; 64];
    for (chunk, &lane) in bytes.chunks_exact_mut(4).zip(lanes) {
        chunk.copy_from_slice(&lane.to_le_bytes());
    }
    bytes
}

#[inline(always)]
fn from_bytes(bytes: &[u8; 64]) -> Lanes {
    let mut lanes = [0u32; 16];
    for (lane, chunk) in lanes.iter_mut().zip(bytes.chunks_exact(4)) {
        *lane = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    lanes
}

/// The add ALU's operations (guide table 5).
mod add_ops {
    lane_op!(baseline nop, |x, y| 0);
    lane_op!(baseline add, |x, y| x.wrapping_add(y), x.checked_add(y).is_none());
    lane_op!(baseline sub, |x, y| x.wrapping_sub(y), x < y);
    lane_op!(baseline and, |x, y| x & y);
    lane_op!(baseline or, |x, y| x | y);
    lane_op!(baseline xor, |x, y| x ^ y);
    lane_op!(baseline not, |x, y| !x);
    lane_op!(baseline clz, |x, y| x.leading_zeros());
    // Shifts use the low 5 bits of b; C is the last bit shifted out (0 for a shift by 0).
    lane_op!(baseline shl,
        |x, y| x << (y & 31),
        (y & 31) != 0 && (x >> (32 - (y & 31))) & 1 == 1
    );
    lane_op!(baseline shr,
        |x, y| x >> (y & 31),
        (y & 31) != 0 && (x >> ((y & 31) - 1)) & 1 == 1
    );
    lane_op!(baseline asr,
        |x, y| ((x as i32) >> (y & 31)) as u32,
        (y & 31) != 0 && (x >> ((y & 31) - 1)) & 1 == 1
    );
    lane_op!(baseline ror,
        |x, y| x.rotate_right(y & 31),
        (y & 31) != 0 && (x >> ((y & 31) - 1)) & 1 == 1
    );
    lane_op!(baseline min,
        |x, y| (x as i32).min(y as i32) as u32,
        (x as i32) > (y as i32)
    );
    lane_op!(baseline max,
        |x, y| (x as i32).max(y as i32) as u32,
        (x as i32) > (y as i32)
    );
    lane_op!(wide fadd, |x, y| float::fadd(x, y), result |r| positive(r));
    lane_op!(wide fsub, |x, y| float::fsub(x, y), result |r| positive(r));
    lane_op!(wide fmin, |x, y| float::fmin(x, y), float::greater(x, y));
    lane_op!(wide fmax, |x, y| float::fmax(x, y), float::greater(x, y));
    lane_op!(wide fminabs,
        |x, y| ftz(if f(x).abs() > f(y).abs() { y } else { x }) & 0x7fff_ffff,
        f(x).abs() > f(y).abs()
    );
    lane_op!(wide fmaxabs,
        |x, y| float::fmaxabs(x, y),
        f(x).abs() > f(y).abs()
    );
    lane_op!(wide ftoi, |x, y| float::ftoi(x));
    lane_op!(wide itof, |x, y| float::itof(x));
    byte_op!(baseline v8adds, |p, q| p.saturating_add(q));
    byte_op!(baseline v8subs, |p, q| p.saturating_sub(q));
}

/// The mul ALU's operations (guide table 6).
mod mul_ops {
    lane_op!(baseline nop, |x, y| 0);
    lane_op!(wide fmul, |x, y| float::fmul(x, y));
    // C = the product overflowed 24 bits (vc4asm's measured flag table, `doc/VideoCoreIV-addendum.html`).
    lane_op!(wide mul24,
        |x, y| (x & 0xff_ffff).wrapping_mul(y & 0xff_ffff),
        (u64::from(x & 0xff_ffff) * u64::from(y & 0xff_ffff)) >> 24 != 0
    );
    // (a·b + 127) / 255 per byte: a colour multiply where 255 stands for 1.0.
    byte_op!(baseline v8muld, |p, q| ((u16::from(p) * u16::from(q) + 127) / 255)
        as u8);
    byte_op!(baseline v8min, |p, q| p.min(q));
    byte_op!(baseline v8max, |p, q| p.max(q));
    byte_op!(baseline v8adds, |p, q| p.saturating_add(q));
    byte_op!(baseline v8subs, |p, q| p.saturating_sub(q));
}

/// The add-ALU operation `op`.
pub fn add_fns(op: AddOp) -> OpFns {
    use add_ops::*;
    match op {
        AddOp::Nop => nop::FNS,
        AddOp::Fadd => fadd::FNS,
        AddOp::Fsub => fsub::FNS,
        AddOp::Fmin => fmin::FNS,
        AddOp::Fmax => fmax::FNS,
        AddOp::Fminabs => fminabs::FNS,
        AddOp::Fmaxabs => fmaxabs::FNS,
        AddOp::Ftoi => ftoi::FNS,
        AddOp::Itof => itof::FNS,
        AddOp::Add => add::FNS,
        AddOp::Sub => sub::FNS,
        AddOp::Shr => shr::FNS,
        AddOp::Asr => asr::FNS,
        AddOp::Ror => ror::FNS,
        AddOp::Shl => shl::FNS,
        AddOp::Min => min::FNS,
        AddOp::Max => max::FNS,
        AddOp::And => and::FNS,
        AddOp::Or => or::FNS,
        AddOp::Xor => xor::FNS,
        AddOp::Not => not::FNS,
        AddOp::Clz => clz::FNS,
        AddOp::V8adds => v8adds::FNS,
        AddOp::V8subs => v8subs::FNS,
    }
}

/// The mul-ALU operation `op`.
pub fn mul_fns(op: MulOp) -> OpFns {
    use mul_ops::*;
    match op {
        MulOp::Nop => nop::FNS,
        MulOp::Fmul => fmul::FNS,
        MulOp::Mul24 => mul24::FNS,
        MulOp::V8muld => v8muld::FNS,
        MulOp::V8min => v8min::FNS,
        MulOp::V8max => v8max::FNS,
        MulOp::V8adds => v8adds::FNS,
        MulOp::V8subs => v8subs::FNS,
    }
}

/// Result of one add-ALU operation on 16 lanes, plus the per-lane carry mask when `carry` is
/// given.
#[cfg(test)]
pub fn add_op(op: AddOp, a: &Lanes, b: &Lanes, out: &mut Lanes, carry: Option<&mut Lanes>) {
    let fns = add_fns(op);
    match carry {
        Some(carry) => (fns.with_carry)(a, b, out, carry),
        None => (fns.plain)(a, b, out, &mut [0; 16]),
    }
}

/// Result of one mul-ALU operation on 16 lanes, plus the per-lane carry mask when `carry` is
/// given.
#[cfg(test)]
pub fn mul_op(op: MulOp, a: &Lanes, b: &Lanes, out: &mut Lanes, carry: Option<&mut Lanes>) {
    let fns = mul_fns(op);
    match carry {
        Some(carry) => (fns.with_carry)(a, b, out, carry),
        None => (fns.plain)(a, b, out, &mut [0; 16]),
    }
}

/// Whether an add op's result is a float (for Z and for 16-bit packs).
pub fn add_writes_float(op: AddOp) -> bool {
    op.writes_float()
}

/// Whether a mul op's result is a float.
pub fn mul_writes_float(op: MulOp) -> bool {
    matches!(op, MulOp::Fmul)
}

/// Z and N lane masks of a result. Float results count -0 as zero (ASSUMPTION).
#[inline(always)]
pub fn zn(values: &Lanes, float: bool) -> (Lanes, Lanes) {
    let ignore = if float { 0x7fff_ffff } else { u32::MAX };
    let z = values.map(|v| lane_mask(v & ignore == 0));
    let n = values.map(|v| ((v as i32) >> 31) as u32);
    (z, n)
}

/// f32 → IEEE half, round to nearest even; overflow gives infinity.
pub fn f32_to_f16(value: u32) -> u16 {
    let sign = ((value >> 16) & 0x8000) as u16;
    let exp = ((value >> 23) & 0xff) as i32;
    let mant = value & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Half subnormal or zero.
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let halfway = 1 << (shift - 1);
        let round = rest > halfway || (rest == halfway && half & 1 == 1);
        return sign | (half + u32::from(round)) as u16;
    }
    let half = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    let round = rest > 0x1000 || (rest == 0x1000 && half & 1 == 1);
    sign | (half + u32::from(round)) as u16
}

/// IEEE half → f32 (exact), then flushed like every QPU float.
pub fn f16_to_f32(half: u16) -> u32 {
    let sign = u32::from(half & 0x8000) << 16;
    let exp = u32::from((half >> 10) & 0x1f);
    let mant = u32::from(half & 0x3ff);
    let value = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Half subnormal: a normal f32.
            let value = m as f32 / 1024.0 / 16384.0;
            sign | value.to_bits()
        }
        (31, 0) => sign | 0x7f80_0000,
        (31, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    ftz(value)
}

/// The regfile-A / r4 unpack of one value (guide table 9). `float` says whether the consuming
/// operation reads floats; `r4` selects the r4 unpacker, which only converts to float.
#[inline]
pub fn unpack(mode: Unpack, value: u32, float: bool) -> u32 {
    match mode {
        Unpack::None => value,
        Unpack::Half0 | Unpack::Half1 => {
            let half = if mode == Unpack::Half0 {
                value as u16
            } else {
                (value >> 16) as u16
            };
            if float {
                f16_to_f32(half)
            } else {
                half as i16 as i32 as u32
            }
        }
        Unpack::ReplicateByte3 => (value >> 24) * 0x0101_0101,
        Unpack::Byte0 | Unpack::Byte1 | Unpack::Byte2 | Unpack::Byte3 => {
            let shift = 8 * (mode.code() - Unpack::Byte0.code());
            let byte = (value >> shift) & 0xff;
            if float {
                (byte as f32 / 255.0).to_bits()
            } else {
                byte
            }
        }
    }
}

/// Regfile-A pack (pm=0, guide table 8): the bits to store given the ALU result `value`,
/// the destination's old contents, whether the result is a float, and for 32-bit saturation
/// the exact (unwrapped) integer result when the op is add or sub.
#[inline]
pub fn pack_a(mode: PackA, value: u32, old: u32, float: bool, exact: Option<i64>) -> u32 {
    let sat_u8 = |v: u32| -> u32 {
        if float {
            // ASSUMPTION: a float saturates through its integer value.
            float::ftoi(v).clamp(0, 255)
        } else {
            (v as i32).clamp(0, 255) as u32
        }
    };
    let half_int = |v: u32, saturate: bool| -> u32 {
        if saturate {
            (v as i32).clamp(-32768, 32767) as u32 & 0xffff
        } else {
            v & 0xffff
        }
    };
    let half = |v: u32, saturate: bool| -> u32 {
        if float {
            u32::from(f32_to_f16(v))
        } else {
            half_int(v, saturate)
        }
    };
    match mode {
        PackA::None => value,
        PackA::Half0 => (old & 0xffff_0000) | half(value, false),
        PackA::Half1 => (old & 0x0000_ffff) | (half(value, false) << 16),
        PackA::Replicate8888 => (value & 0xff) * 0x0101_0101,
        PackA::Byte0 | PackA::Byte1 | PackA::Byte2 | PackA::Byte3 => {
            let shift = 8 * u32::from(mode.code() - PackA::Byte0.code());
            (old & !(0xff << shift)) | ((value & 0xff) << shift)
        }
        // vc4asm: only add and sub saturate; ASSUMPTION: other ops store the value unchanged.
        PackA::Saturate32 => match exact {
            Some(v) => v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32,
            None => value,
        },
        PackA::SaturateHalf0 => (old & 0xffff_0000) | half(value, true),
        PackA::SaturateHalf1 => (old & 0x0000_ffff) | (half(value, true) << 16),
        PackA::SaturateReplicate8888 => sat_u8(value) * 0x0101_0101,
        PackA::SaturateByte0
        | PackA::SaturateByte1
        | PackA::SaturateByte2
        | PackA::SaturateByte3 => {
            let shift = 8 * u32::from(mode.code() - PackA::SaturateByte0.code());
            (old & !(0xff << shift)) | (sat_u8(value) << shift)
        }
    }
}

/// Float in 0..1.0 → 8-bit colour: round(f·255), saturated (guide table 10). ASSUMPTION:
/// halves round away from zero; NaN gives 0.
#[inline]
pub fn colour_byte(value: u32) -> u32 {
    let v = f(value);
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= 1.0 {
        255
    } else {
        (v * 255.0).round() as u32
    }
}

/// Mul-ALU colour pack (pm=1, guide table 10).
#[inline]
pub fn pack_mul(mode: PackMul, value: u32, old: u32) -> u32 {
    match mode {
        PackMul::None => value,
        PackMul::Replicate8888 => colour_byte(value) * 0x0101_0101,
        PackMul::Byte0 | PackMul::Byte1 | PackMul::Byte2 | PackMul::Byte3 => {
            let shift = 8 * u32::from(mode.code() - PackMul::Byte0.code());
            (old & !(0xff << shift)) | (colour_byte(value) << shift)
        }
    }
}

/// The special functions (guide section 3, "Special Functions Unit"). The hardware computes
/// approximations; the emulator computes the f32 value of the exact function (rounded once),
/// flushed like every QPU float. rsqrt and log2 use |x| (py-videocore's measured appendix).
pub fn sfu(op: qpu_isa::vc4::regs::SfuOp, value: u32) -> u32 {
    float::sfu(op, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_add(op: AddOp, x: u32, y: u32) -> (u32, bool) {
        let mut out = [0; 16];
        let mut carry = [0; 16];
        add_op(op, &[x; 16], &[y; 16], &mut out, Some(&mut carry));
        (out[0], carry[0] == u32::MAX)
    }

    #[test]
    fn integer_ops_and_carries() {
        assert_eq!(run_add(AddOp::Add, u32::MAX, 2), (1, true));
        assert_eq!(run_add(AddOp::Sub, 1, 2), (u32::MAX, true));
        assert_eq!(run_add(AddOp::Sub, 2, 1), (1, false));
        assert_eq!(run_add(AddOp::Shl, 0x8000_0001, 1), (2, true));
        assert_eq!(run_add(AddOp::Shl, 1, 33), (2, false)); // low 5 bits of b
        assert_eq!(run_add(AddOp::Shr, 3, 1), (1, true));
        assert_eq!(run_add(AddOp::Asr, 0x8000_0000, 4), (0xf800_0000, false));
        assert_eq!(run_add(AddOp::Ror, 0x1, 1), (0x8000_0000, true));
        assert_eq!(
            run_add(AddOp::Min, (-5i32) as u32, 3),
            ((-5i32) as u32, false)
        );
        assert_eq!(run_add(AddOp::Max, 7, 3), (7, true));
        assert_eq!(run_add(AddOp::Clz, 0, 0).0, 32);
        assert_eq!(run_add(AddOp::Clz, 1, 0).0, 31);
        assert_eq!(run_add(AddOp::Not, 0xf0f0_f0f0, 0).0, 0x0f0f_0f0f);
        assert_eq!(
            run_add(AddOp::V8adds, 0xff01_80fe, 0x0101_8004).0,
            0xff02_ffff
        );
        assert_eq!(
            run_add(AddOp::V8subs, 0x0010_8000, 0x0101_7f01).0,
            0x000f_0100
        );
    }

    #[test]
    fn float_ops_flush_denormals() {
        let denormal = 0x0000_0001;
        assert_eq!(run_add(AddOp::Fadd, denormal, 0).0, 0);
        // 1.5·MIN_POSITIVE − MIN_POSITIVE is a denormal result: flushed to zero.
        let tiny = f32::MIN_POSITIVE.to_bits();
        let tiny_and_half = (f32::MIN_POSITIVE * 1.5).to_bits();
        assert_eq!(run_add(AddOp::Fsub, tiny_and_half, tiny).0 & 0x7fff_ffff, 0);
        // A denormal input reads as zero.
        let half_tiny = (f32::MIN_POSITIVE * 0.5).to_bits();
        assert_eq!(run_add(AddOp::Fsub, tiny, half_tiny).0, tiny);
        assert_eq!(
            run_add(AddOp::Fadd, 1.5f32.to_bits(), 2.0f32.to_bits()),
            (3.5f32.to_bits(), true)
        );
        assert_eq!(
            run_add(AddOp::Ftoi, (-2.75f32).to_bits(), 0).0,
            (-2i32) as u32
        );
        assert_eq!(
            run_add(AddOp::Itof, (-3i32) as u32, 0).0,
            (-3.0f32).to_bits()
        );
        assert_eq!(
            run_add(AddOp::Fminabs, (-1.0f32).to_bits(), 2.0f32.to_bits()).0,
            1.0f32.to_bits()
        );
    }

    /// Every operation, as [`add_fns`]/[`mul_fns`] run it (vectorized where the host
    /// allows, see `crate::simd`), against a per-lane definition in scalar code: the
    /// `crate::float` functions for the float operations, plain integer arithmetic for the
    /// others. The value and carry of each lane, through all three variants.
    type Reference = fn(u32, u32) -> (u32, bool);

    fn references() -> Vec<(&'static str, OpFns, Reference)> {
        vec![
            ("fadd", add_fns(AddOp::Fadd), |x, y| {
                let r = float::fadd(x, y);
                (r, f32::from_bits(r) > 0.0)
            }),
            ("fsub", add_fns(AddOp::Fsub), |x, y| {
                let r = float::fsub(x, y);
                (r, f32::from_bits(r) > 0.0)
            }),
            ("fmin", add_fns(AddOp::Fmin), |x, y| {
                (float::fmin(x, y), float::greater(x, y))
            }),
            ("fmax", add_fns(AddOp::Fmax), |x, y| {
                (float::fmax(x, y), float::greater(x, y))
            }),
            ("fminabs", add_fns(AddOp::Fminabs), |x, y| {
                let (a, b) = (f32::from_bits(ftz(x)).abs(), f32::from_bits(ftz(y)).abs());
                (ftz(if a > b { y } else { x }) & 0x7fff_ffff, a > b)
            }),
            ("fmaxabs", add_fns(AddOp::Fmaxabs), |x, y| {
                let (a, b) = (f32::from_bits(ftz(x)).abs(), f32::from_bits(ftz(y)).abs());
                (float::fmaxabs(x, y), a > b)
            }),
            ("ftoi", add_fns(AddOp::Ftoi), |x, _| (float::ftoi(x), false)),
            ("itof", add_fns(AddOp::Itof), |x, _| (float::itof(x), false)),
            ("fmul", mul_fns(MulOp::Fmul), |x, y| {
                (float::fmul(x, y), false)
            }),
            ("mul24", mul_fns(MulOp::Mul24), |x, y| {
                let p = u64::from(x & 0xff_ffff) * u64::from(y & 0xff_ffff);
                (p as u32, p >= 1 << 24)
            }),
            ("add", add_fns(AddOp::Add), |x, y| {
                let s = u64::from(x) + u64::from(y);
                (s as u32, s > u64::from(u32::MAX))
            }),
            ("sub", add_fns(AddOp::Sub), |x, y| {
                (x.wrapping_sub(y), i64::from(x) - i64::from(y) < 0)
            }),
        ]
    }

    /// Runs every operation on `a` and `b` through all three variants and compares each
    /// lane with its reference.
    fn check_against_references(a: &Lanes, b: &Lanes) {
        for (name, fns, reference) in references() {
            let (mut out, mut carry) = ([0; 16], [0x5555_5555; 16]);
            (fns.with_carry)(a, b, &mut out, &mut carry);
            let mut plain = [0; 16];
            (fns.plain)(a, b, &mut plain, &mut [0; 16]);
            let mut table: Table = [[0; 16]; 256];
            table[3] = *a;
            table[200] = *b;
            (fns.direct)(&mut table, &[3, 200, 7]);
            for i in 0..16 {
                let (value, c) = reference(a[i], b[i]);
                let what = format!("{name} {:#010x}, {:#010x}", a[i], b[i]);
                assert_eq!(out[i], value, "{what}");
                assert_eq!(carry[i], lane_mask(c), "{what} carry");
                assert_eq!(plain[i], value, "{what} plain");
                assert_eq!(table[7][i], value, "{what} direct");
            }
        }
    }

    #[test]
    fn vectorized_ops_match_the_scalar_definitions_on_edges() {
        // Pairs of edge operands (zeros, denormals, both ends of every exponent, infinities,
        // NaNs; both signs) around every exponent that rounding, flushing and overflow
        // touch, 16 pairs at a time; plus integer edges for the integer operations.
        let edges: Vec<u32> = crate::float::tests::edge_operands()
            .into_iter()
            .filter(|&v| {
                let e = v >> 23 & 0xff;
                e <= 3 || (20..=30).contains(&e) || (100..=154).contains(&e) || e >= 230
            })
            .chain([
                0x00ff_ffff,
                0x0100_0000,
                0x7fff_ffff,
                0x8000_0000,
                u32::MAX,
                2,
                3,
            ])
            .collect();
        let pairs = edges
            .iter()
            .flat_map(|&x| edges.iter().map(move |&y| (x, y)));
        let mut a = [0; 16];
        let mut b = [0; 16];
        for (k, (x, y)) in pairs.enumerate() {
            a[k % 16] = x;
            b[k % 16] = y;
            if k % 16 == 15 {
                check_against_references(&a, &b);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

        /// Random lanes: fully random words, and pairs whose exponents lie within 40 of
        /// each other, so that every alignment of the significands occurs.
        #[test]
        fn vectorized_ops_match_the_scalar_definitions_on_random_lanes(
            a in proptest::array::uniform16(proptest::prelude::any::<u32>()),
            b in proptest::array::uniform16(proptest::prelude::any::<u32>()),
            shifts in proptest::array::uniform16(-40i32..=40),
        ) {
            check_against_references(&a, &b);
            let near: Lanes = std::array::from_fn(|i| {
                let exponent = ((a[i] >> 23 & 0xff) as i32 + shifts[i]).clamp(0, 255) as u32;
                (b[i] & 0x807f_ffff) | exponent << 23
            });
            check_against_references(&a, &near);
        }
    }

    #[test]
    fn byte_ops_work_byte_by_byte() {
        // Reference: each byte in wider integer arithmetic, clamped by hand.
        let reference = |op: &str, p: u32, q: u32| -> u32 {
            match op {
                "adds" => (p + q).min(255),
                "subs" => p.saturating_sub(q),
                "min" => p.min(q),
                "max" => p.max(q),
                _ => (p * q + 127) / 255,
            }
        };
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        for round in 0..200 {
            let mut a: Lanes = std::array::from_fn(|_| next());
            let b: Lanes = std::array::from_fn(|_| next());
            if round == 0 {
                a[..4].copy_from_slice(&[0xff00_80ff, 0, u32::MAX, 0x0101_0101]);
            }
            let cases: [(&str, Option<AddOp>, MulOp); 5] = [
                ("adds", Some(AddOp::V8adds), MulOp::V8adds),
                ("subs", Some(AddOp::V8subs), MulOp::V8subs),
                ("min", None, MulOp::V8min),
                ("max", None, MulOp::V8max),
                ("muld", None, MulOp::V8muld),
            ];
            for (name, add, mul) in cases {
                let expected: Lanes = std::array::from_fn(|i| {
                    (0..4).fold(0, |word, k| {
                        let (p, q) = ((a[i] >> (8 * k)) & 0xff, (b[i] >> (8 * k)) & 0xff);
                        word | (reference(name, p, q) << (8 * k))
                    })
                });
                let (mut out, mut carry) = ([0; 16], [7; 16]);
                mul_op(mul, &a, &b, &mut out, Some(&mut carry));
                assert_eq!((out, carry), (expected, [0; 16]), "{name}");
                if let Some(add) = add {
                    add_op(add, &a, &b, &mut out, None);
                    assert_eq!(out, expected, "{name}");
                }
            }
        }
    }

    #[test]
    fn mul_ops() {
        let mut out = [0; 16];
        let mut carry = [0; 16];
        mul_op(
            MulOp::Mul24,
            &[0x0100_0003; 16],
            &[0x00ff_ffff; 16],
            &mut out,
            Some(&mut carry),
        );
        assert_eq!(out[0], (3u64 * 0xff_ffff) as u32);
        assert_eq!(carry, [u32::MAX; 16]);
        mul_op(
            MulOp::V8muld,
            &[0xff80_00ff; 16],
            &[0x80ff_ff80; 16],
            &mut out,
            None,
        );
        assert_eq!(out[0], 0x8080_0080);
    }

    #[test]
    fn half_conversions_round_trip() {
        for v in [0.0f32, 1.0, -2.5, 65504.0, 0.000_061_035_156, 1.0e-5] {
            let h = f32_to_f16(v.to_bits());
            let back = f32::from_bits(f16_to_f32(h));
            assert!((back - v).abs() <= v.abs() * 1e-3 + 1e-7, "{v} -> {back}");
        }
        assert_eq!(f32_to_f16(1.0f32.to_bits()), 0x3c00);
        assert_eq!(f32_to_f16(1.0e6f32.to_bits()), 0x7c00);
    }

    #[test]
    fn packs() {
        assert_eq!(
            pack_a(PackA::Byte1, 0x1234, 0xaabb_ccdd, false, None),
            0xaabb_34dd
        );
        assert_eq!(
            pack_a(PackA::Replicate8888, 0x1234, 0, false, None),
            0x3434_3434
        );
        assert_eq!(
            pack_a(
                PackA::SaturateByte0,
                (-4i32) as u32,
                0xffff_ffff,
                false,
                None
            ),
            0xffff_ff00
        );
        assert_eq!(
            pack_a(
                PackA::Saturate32,
                0,
                0,
                false,
                Some(i64::from(i32::MAX) + 5)
            ),
            i32::MAX as u32
        );
        assert_eq!(
            pack_a(PackA::SaturateHalf1, 70000, 0x1111_2222, false, None),
            0x7fff_2222
        );
        assert_eq!(
            pack_mul(PackMul::Replicate8888, 0.5f32.to_bits(), 0),
            0x8080_8080
        );
        assert_eq!(
            pack_mul(PackMul::Byte2, 1.0f32.to_bits(), 0x1111_1111),
            0x11ff_1111
        );
    }

    #[test]
    fn unpacks() {
        assert_eq!(unpack(Unpack::Half1, 0xfffe_0000, false), (-2i32) as u32);
        assert_eq!(unpack(Unpack::Half0, 0x0000_3c00, true), 1.0f32.to_bits());
        assert_eq!(unpack(Unpack::Byte2, 0x00ff_0000, false), 255);
        assert_eq!(unpack(Unpack::Byte2, 0x00ff_0000, true), 1.0f32.to_bits());
        assert_eq!(
            unpack(Unpack::ReplicateByte3, 0xab00_0000, false),
            0xabab_abab
        );
    }
}

//! What each V3D 4.2 / 7.1 ALU operation computes, one lane at a time.
//!
//! Sources, by kind of fact:
//! * **Float arithmetic**: Broadcom's own V3D simulator float model (`qpu_float.c` in the
//!   "Penrose" simulator tools published with Broadcom's reference software,
//!   `rockford/middleware/vc5/driver/tools/v3d/qpu_float/`): `fadd`/`fsub`/`fmul` are the
//!   host's IEEE single-precision operations (round to nearest even, which matches V3DLib's
//!   note that VideoCore VI multiplies round to nearest, unlike the truncating VideoCore IV);
//!   a NaN result becomes 0 unless NaN propagation is on, in which case it is 0x7fc00000 when
//!   an input was a NaN and 0xffc00000 when the operation made it; `fcmp` is `fsub` except
//!   that equal infinities give 0 (GFXH-1080); `fmin`/`fmax` order by the sign-magnitude bits
//!   and prefer the non-NaN operand; the conversions saturate and set the carry as listed
//!   there. The simulator keeps denormals (it computes on host floats), and so do we.
//! * **NaN propagation**: Mesa's CSD setup (`v3d_launch_grid`) sets bit 2 of CSD config word 5,
//!   "propagate NaNs" below V3D 7.1 only; so 4.2 propagates and 7.1 does not.
//! * **Flags**: py-videocore6 `tests/test_condition_codes.py` (run on a Pi 4) fixes push
//!   (new A, old A to B), the twelve updates, Z and N of an integer result, and C of `sub`
//!   (the unsigned borrow). Mesa's `nir_to_vir.c` (`ntq_emit_comparison`, `uadd_carry`)
//!   fixes what its comparisons rely on: C of `add` is the unsigned carry, C of `min(a, b)`
//!   is a > b (signed), N of `fcmp(a, b)` is a < b, Z is a == b, C of `fcmp(a, b)` is
//!   a ≤ b. Where no source gives C for an op, C is *unknown* and pushing or updating a flag
//!   from it is an error rather than a guess.
//! * **Special functions**: the hardware approximates (Broadcom's `sfu.c` tables); we compute
//!   the exact function rounded to f32. `sin` takes its argument in half-turns: Mesa's
//!   `ntq_fsincos` scales by 1/π before `SIN` (and reduces the argument to [−0.5, 0.5]);
//!   py-videocore6's tests/test_sfu.py checks on a Pi 4 that it gives sin(π·x) there and ±1
//!   outside, py-videocore7's tests/test_alu.py sin(π·x) on [−0.5, 0.5] on a Pi 5. That test also checks `rsqrt2` against 1/√x, as we compute it.
//! * **Cross-lane and 16-bit ops** (`vadd`, `vsub`, `fdx`, `fdy`, 7.1 `ballot`, `bcastf`,
//!   `alleq`, `allfeq`, the f16 vector ops and their unpacks): py-videocore7
//!   tests/test_alu.py, run on a Pi 5.

use qpu_isa::v3d::FloatUnpack;

/// Sixteen lanes of one 32-bit register.
pub type Lanes = [u32; 16];

/// The result of one operation on 16 lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    /// The 32-bit results.
    pub values: Lanes,
    /// Per-lane C, when a source defines it for this operation.
    pub carry: Option<[bool; 16]>,
    /// Whether Z and N read the result as a float (Z ignores the sign bit).
    pub float: bool,
}

impl Output {
    /// An integer result without a defined carry.
    pub fn int(values: Lanes) -> Output {
        Output {
            values,
            carry: None,
            float: false,
        }
    }

    /// A float result without a defined carry.
    pub fn float(values: Lanes) -> Output {
        Output {
            values,
            carry: None,
            float: true,
        }
    }

    /// Z of each lane (ASSUMPTION for floats: ±0 both count as zero, as Mesa's `f2b`
    /// through `fmov … pushz` needs).
    pub fn zero(&self) -> [bool; 16] {
        let mask = if self.float { 0x7fff_ffff } else { u32::MAX };
        self.values.map(|v| v & mask == 0)
    }

    /// N of each lane: the sign bit (for floats an ASSUMPTION; Mesa's `flt` through
    /// `fcmp … pushn` only needs it for ordinary differences).
    pub fn negative(&self) -> [bool; 16] {
        self.values.map(|v| v >> 31 == 1)
    }
}

/// Applies `f` lane by lane to two inputs.
pub fn map2(a: &Lanes, b: &Lanes, f: impl Fn(u32, u32) -> u32) -> Lanes {
    std::array::from_fn(|i| f(a[i], b[i]))
}

/// Applies `f` lane by lane, also collecting a per-lane carry.
pub fn map2c(a: &Lanes, b: &Lanes, f: impl Fn(u32, u32) -> (u32, bool)) -> (Lanes, [bool; 16]) {
    let mut values = [0; 16];
    let mut carry = [false; 16];
    for i in 0..16 {
        (values[i], carry[i]) = f(a[i], b[i]);
    }
    (values, carry)
}

/// The float model of the V3D ALUs (see the module docs for the source).
pub mod vfloat {
    /// NaN made from a NaN input.
    pub const PROPAGATED_NAN: u32 = 0x7fc0_0000;
    /// NaN made by an invalid operation (inf − inf, 0 · inf, rsqrt(−1)).
    pub const GENERATED_NAN: u32 = 0xffc0_0000;

    /// Whether the bits are a NaN.
    pub fn is_nan(bits: u32) -> bool {
        bits & 0x7fff_ffff > 0x7f80_0000
    }

    fn nan_result(a: u32, b: u32, propagate: bool) -> u32 {
        if !propagate {
            0
        } else if is_nan(a) || is_nan(b) {
            PROPAGATED_NAN
        } else {
            GENERATED_NAN
        }
    }

    fn finish(x: f32, a: u32, b: u32, propagate: bool) -> u32 {
        if x.is_nan() {
            nan_result(a, b, propagate)
        } else {
            x.to_bits()
        }
    }

    /// `a + b`, rounded to nearest even.
    pub fn fadd(a: u32, b: u32, propagate: bool) -> u32 {
        finish(f32::from_bits(a) + f32::from_bits(b), a, b, propagate)
    }

    /// `a - b`.
    pub fn fsub(a: u32, b: u32, propagate: bool) -> u32 {
        fadd(a, b ^ 0x8000_0000, propagate)
    }

    /// The comparison difference: `a - b`, but 0 for two equal infinities (GFXH-1080).
    pub fn fcmp(a: u32, b: u32, propagate: bool) -> u32 {
        let inf = 0x7f80_0000;
        if (a == inf && b == inf) || (a == inf | 0x8000_0000 && b == inf | 0x8000_0000) {
            return 0;
        }
        fsub(a, b, propagate)
    }

    /// `a · b`, rounded to nearest even.
    pub fn fmul(a: u32, b: u32, propagate: bool) -> u32 {
        finish(f32::from_bits(a) * f32::from_bits(b), a, b, propagate)
    }

    /// The simulator's order: by sign, then by magnitude bits (so −0 < +0).
    pub fn less_than(a: u32, b: u32) -> bool {
        let (na, nb) = (a >> 31 == 1, b >> 31 == 1);
        match (na, nb) {
            (true, false) => true,
            (false, true) => false,
            (false, false) => a & 0x7fff_ffff < b & 0x7fff_ffff,
            (true, true) => a & 0x7fff_ffff > b & 0x7fff_ffff,
        }
    }

    fn min_max(a: u32, b: u32, propagate: bool, max: bool) -> u32 {
        match (is_nan(a), is_nan(b)) {
            (true, false) => b,
            (false, true) => a,
            (true, true) => {
                if propagate {
                    PROPAGATED_NAN
                } else {
                    0
                }
            }
            (false, false) => {
                if less_than(a, b) != max {
                    a
                } else {
                    b
                }
            }
        }
    }

    /// The smaller operand; a NaN loses to a number.
    pub fn fmin(a: u32, b: u32, propagate: bool) -> u32 {
        min_max(a, b, propagate, false)
    }

    /// The larger operand; a NaN loses to a number.
    pub fn fmax(a: u32, b: u32, propagate: bool) -> u32 {
        min_max(a, b, propagate, true)
    }

    fn rounded(a: u32, propagate: bool, f: impl Fn(f32) -> f32) -> u32 {
        if is_nan(a) {
            return if propagate { PROPAGATED_NAN } else { 0 };
        }
        f(f32::from_bits(a)).to_bits()
    }

    /// Round to the nearest integer, ties to even.
    pub fn fround(a: u32, propagate: bool) -> u32 {
        rounded(a, propagate, |x| {
            let (lo, hi) = (x.floor(), x.ceil());
            if x - lo < hi - x {
                lo
            } else if x - lo > hi - x {
                hi
            } else if (lo * 0.5).floor() == lo * 0.5 {
                lo
            } else {
                hi
            }
        })
    }

    /// Round toward zero.
    pub fn ftrunc(a: u32, propagate: bool) -> u32 {
        rounded(a, propagate, f32::trunc)
    }

    /// Round down.
    pub fn ffloor(a: u32, propagate: bool) -> u32 {
        rounded(a, propagate, f32::floor)
    }

    /// Round up.
    pub fn fceil(a: u32, propagate: bool) -> u32 {
        rounded(a, propagate, f32::ceil)
    }

    /// Float to signed integer with the simulator's saturation and carry; `round` picks
    /// round-to-nearest-even (`ftoin`) over truncation (`ftoiz`).
    pub fn ftoi(a: u32, round: bool) -> (u32, bool) {
        if is_nan(a) {
            (0, false)
        } else if a >= 0xcf00_0000 {
            (0x8000_0000, a >= 0xcf00_0001)
        } else if (0x4f00_0000..0x8000_0000).contains(&a) {
            (0x7fff_ffff, true)
        } else {
            let x = if round {
                f32::from_bits(fround(a, false))
            } else {
                f32::from_bits(a)
            };
            (x as i32 as u32, false)
        }
    }

    /// Float to unsigned integer, truncating, with the simulator's saturation and carry.
    pub fn ftouz(a: u32) -> (u32, bool) {
        if is_nan(a) {
            (0, false)
        } else if a >= 0x8000_0001 {
            (0, true)
        } else if (0x4f80_0000..0x8000_0000).contains(&a) {
            (u32::MAX, true)
        } else {
            (f32::from_bits(a) as u32, false)
        }
    }

    /// Signed integer to float, round to nearest even.
    pub fn itof(a: u32) -> u32 {
        (a as i32 as f32).to_bits()
    }

    /// Unsigned integer to float, round to nearest even.
    pub fn utof(a: u32) -> u32 {
        (a as f32).to_bits()
    }

    /// f16 → f32 (exact); a NaN becomes the propagated NaN.
    pub fn unpack16(half: u32) -> u32 {
        let bits = crate::vc4::alu::f16_to_f32(half as u16);
        if is_nan(bits) {
            PROPAGATED_NAN
        } else {
            bits
        }
    }

    /// f32 → f16 (round to nearest even); a NaN keeps its sign.
    pub fn pack16(bits: u32) -> u32 {
        if is_nan(bits) {
            if bits >> 31 == 1 {
                0xfe00
            } else {
                0x7e00
            }
        } else {
            u32::from(crate::vc4::alu::f32_to_f16(bits))
        }
    }

    /// A two-half f16 operation: `f` on the low halves and on the high halves.
    pub fn vector(a: u32, b: u32, f: impl Fn(u32, u32) -> u32) -> u32 {
        let lo = f(unpack16(a & 0xffff), unpack16(b & 0xffff));
        let hi = f(unpack16(a >> 16), unpack16(b >> 16));
        pack16(hi) << 16 | pack16(lo)
    }
}

/// The f32 input unpack of the regular float layout (Mesa `v3d_qpu_float32_unpack`).
pub fn float_unpack(mode: FloatUnpack, value: u32) -> u32 {
    match mode {
        FloatUnpack::Abs => value & 0x7fff_ffff,
        FloatUnpack::None => value,
        FloatUnpack::L => vfloat::unpack16(value & 0xffff),
        FloatUnpack::H => vfloat::unpack16(value >> 16),
    }
}

/// The named input unpacks of the ops with a modifier scheme (names as the ISA crate's
/// `ops` module gives them). `None` for a name this emulator does not know.
///
/// Meanings: `abs`/`l`/`h` as [`float_unpack`]; `ff` converts an f32 to f16 and replicates
/// it into both halves, `ll`/`hh` replicate one half, `swp` swaps the halves (Mesa
/// `qpu_instr.h` V3D_QPU_UNPACK_REPLICATE_32F_16 / _L_16 / _H_16 / SWAP_16); `ul`/`uh`/`il`/
/// `ih` take one half as an unsigned / signed 16-bit integer, and `sat`/`nsat`/`max0`
/// clamp to [0, 1], [−1, 1] and [0, ∞) (py-videocore7 `Register.INPUT_MODIFIER`; 7.1
/// only). ASSUMPTION: the clamps use the float order of `fmin`/`fmax` and leave a NaN as is.
pub fn named_unpack(name: &str, value: u32) -> Option<u32> {
    let clamp = |lo: f32, hi: Option<f32>| {
        let mut v = value;
        if !vfloat::is_nan(v) {
            v = vfloat::fmax(v, lo.to_bits(), false);
            if let Some(hi) = hi {
                v = vfloat::fmin(v, hi.to_bits(), false);
            }
        }
        v
    };
    Some(match name {
        "" => value,
        "abs" => float_unpack(FloatUnpack::Abs, value),
        "l" => float_unpack(FloatUnpack::L, value),
        "h" => float_unpack(FloatUnpack::H, value),
        "ff" => vfloat::pack16(value) * 0x0001_0001,
        "ll" => (value & 0xffff) * 0x0001_0001,
        "hh" => (value >> 16) * 0x0001_0001,
        "swp" => value.rotate_left(16),
        "ul" => value & 0xffff,
        "uh" => value >> 16,
        "il" => value as u16 as i16 as i32 as u32,
        "ih" => (value >> 16) as u16 as i16 as i32 as u32,
        "sat" => clamp(0.0, Some(1.0)),
        "nsat" => clamp(-1.0, Some(1.0)),
        "max0" => clamp(0.0, None),
        _ => return None,
    })
}

/// Output pack: `l`/`h` convert the result to f16 into one half of the destination and
/// leave the other half as it was (Mesa `qpu_instr.h`, `V3D_QPU_PACK_L`).
pub fn float_pack(pack: qpu_isa::v3d::FloatPack, value: u32, old: u32) -> u32 {
    match pack {
        qpu_isa::v3d::FloatPack::None => value,
        qpu_isa::v3d::FloatPack::L => (old & 0xffff_0000) | vfloat::pack16(value),
        qpu_isa::v3d::FloatPack::H => (old & 0x0000_ffff) | (vfloat::pack16(value) << 16),
    }
}

/// The special functions, computed exactly and rounded once (the hardware approximates).
pub fn sfu(kind: Sfu, value: u32) -> u32 {
    if vfloat::is_nan(value) {
        return vfloat::PROPAGATED_NAN;
    }
    let x = f64::from(f32::from_bits(value));
    let r = match kind {
        Sfu::Recip => 1.0 / x,
        Sfu::Rsqrt => 1.0 / x.sqrt(),
        Sfu::Exp => x.exp2(),
        Sfu::Log => x.log2(),
        // py-videocore6 tests/test_sfu.py (Pi 4): sin(π·x) on [−0.5, 0.5], ±1 beyond.
        Sfu::Sin if x < -0.5 => -1.0,
        Sfu::Sin if x > 0.5 => 1.0,
        Sfu::Sin => (x * std::f64::consts::PI).sin(),
    };
    if r.is_nan() {
        vfloat::GENERATED_NAN
    } else {
        (r as f32).to_bits()
    }
}

/// A special function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sfu {
    /// 1/x.
    Recip,
    /// 1/√x.
    Rsqrt,
    /// 2^x.
    Exp,
    /// log2 x.
    Log,
    /// sin(π·x).
    Sin,
}

/// Signed 24-bit multiply: the low 24 bits of each input sign-extended, low 32 bits of the
/// product.
pub fn smul24(a: u32, b: u32) -> u32 {
    let ext = |v: u32| ((v << 8) as i32) >> 8;
    ext(a).wrapping_mul(ext(b)) as u32
}

/// Unsigned 24-bit multiply: the low 24 bits of each input, low 32 bits of the product.
pub fn umul24(a: u32, b: u32) -> u32 {
    (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)
}

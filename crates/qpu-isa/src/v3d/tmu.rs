//! The TMU's general-lookup config: one byte per lookup, written to `tmuc`, taken from the
//! uniform stream by `tmuau` or the `wrtmuc` signal (py-videocore7 `TMULookUpConfig`;
//! Mesa `ntq_emit_tmu_general` in `src/broadcom/compiler/nir_to_vir.c`). Bits 2:0 are the
//! data type, bits 6:3 the operation, bit 7 "per pixel". A config word carries four bytes:
//! on 4.2 its later bytes configure the lookups that follow (0xff: a plain 32-bit access);
//! on 7.1 a config is its own lookup's only (see the V3D emulator's module docs for the
//! hardware tests behind each).

/// One lookup's config byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmuConfig(pub u8);

/// The operation field (bits 6:3): an atomic read-modify-write, or none.
pub mod op {
    /// Add the `tmud` operand; without one, op 8 adds 1 ([`INC`]).
    pub const ADD: u8 = 0;
    /// Subtract the operand.
    pub const SUB: u8 = 1;
    /// Exchange with the operand.
    pub const XCHG: u8 = 2;
    /// Compare-and-exchange: two `tmud` words, the value compared and the value stored.
    pub const CMPXCHG: u8 = 3;
    /// Unsigned minimum.
    pub const UMIN: u8 = 4;
    /// Unsigned maximum.
    pub const UMAX: u8 = 5;
    /// Signed minimum.
    pub const SMIN: u8 = 6;
    /// Signed maximum.
    pub const SMAX: u8 = 7;
    /// And with the operand; without one, increment (Mesa `v3d_get_op_for_atomic_add`).
    pub const AND_OR_INC: u8 = 8;
    /// Or with the operand; without one, decrement.
    pub const OR_OR_DEC: u8 = 9;
    /// Exclusive or with the operand.
    pub const XOR: u8 = 10;
    /// No operation: a plain read or write.
    pub const NONE: u8 = 15;
}

impl TmuConfig {
    /// A plain 32-bit access: what a lookup without a config does.
    pub const PLAIN: TmuConfig = TmuConfig(0xff);
    /// The data type of one 32-bit word per lane.
    pub const TYPE_32: u8 = 7;
    /// A config word making this and the following lookups plain (all bytes 0xff).
    pub const PLAIN_WORD: u32 = u32::MAX;

    /// The config of `op` on data of type `ty` (2–4: that many 32-bit words a lane; 7: one),
    /// per pixel or not.
    pub const fn new(per_pixel: bool, op: u8, ty: u8) -> TmuConfig {
        TmuConfig(((per_pixel as u8) << 7) | ((op & 0xf) << 3) | (ty & 7))
    }

    /// A vector read or write of `words` 32-bit words a lane (1–4).
    pub const fn vector(words: u8) -> TmuConfig {
        let ty = if words <= 1 { Self::TYPE_32 } else { words };
        TmuConfig::new(true, op::NONE, ty)
    }

    /// The operation field.
    pub const fn op(self) -> u8 {
        (self.0 >> 3) & 0xf
    }

    /// The data type field.
    pub const fn ty(self) -> u8 {
        self.0 & 7
    }

    /// Whether the lookup is an atomic read-modify-write.
    pub const fn is_atomic(self) -> bool {
        self.op() != op::NONE
    }

    /// 32-bit words a lane the lookup moves (1 for type 7, 2–4 for the vector types), or
    /// `None` for the 8- and 16-bit types.
    pub const fn words(self) -> Option<usize> {
        match self.ty() {
            7 => Some(1),
            n @ 2..=4 => Some(n as usize),
            _ => None,
        }
    }

    /// The config word that configures one lookup with this byte and leaves the following
    /// ones plain (the upper bytes all ones, as Mesa writes them).
    pub const fn word(self) -> u32 {
        0xffff_ff00 | self.0 as u32
    }

    /// The first lookup's byte of a config word.
    pub const fn of_word(word: u32) -> TmuConfig {
        TmuConfig(word as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_match_the_published_words() {
        // Mesa's atomic add config as the compiler writes it, and py-videocore6/7's vec4
        // byte 0xfc (tests/test_tmu.py, examples/memset.py).
        let add = TmuConfig::new(true, op::ADD, TmuConfig::TYPE_32);
        assert_eq!(add.word(), 0xffff_ff87);
        assert!(add.is_atomic());
        assert_eq!(TmuConfig::vector(4), TmuConfig(0xfc));
        assert_eq!(TmuConfig(0xfc).words(), Some(4));
        assert_eq!(TmuConfig::PLAIN.words(), Some(1));
        assert!(!TmuConfig::PLAIN.is_atomic());
        let cmpxchg = TmuConfig::new(true, op::CMPXCHG, 2);
        assert_eq!(cmpxchg.word(), 0xffff_ff9a);
        assert_eq!((cmpxchg.op(), cmpxchg.ty()), (3, 2));
        assert_eq!(TmuConfig(0x00).words(), None);
        assert_eq!(TmuConfig::of_word(0xfffa_fbfc), TmuConfig(0xfc));
        assert_eq!(TmuConfig::of_word(TmuConfig::PLAIN_WORD), TmuConfig::PLAIN);
    }
}

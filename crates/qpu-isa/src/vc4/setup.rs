//! Setup words for the VPM and its DMA units, built from named fields.
//!
//! A QPU configures VPM access by writing 32-bit setup words to the `vr_setup`/`vw_setup`
//! registers; the bit layouts are tables 32–37 of section 7 of Broadcom's *VideoCore IV 3D
//! Architecture Reference Guide*. These types encode them; the emulator's decoders
//! (`qpu_emu::vc4::vpm`) read them back, and its tests check that every field survives the trip.
//! Fields hold their real values (a stride of 64, 16 rows); the encoders store the guide's
//! "0 means the maximum" forms.

/// Width of the elements a setup moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// 8-bit elements.
    Bits8,
    /// 16-bit elements.
    Bits16,
    /// 32-bit elements.
    Bits32,
}

impl Width {
    /// Bytes per element.
    pub const fn bytes(self) -> u32 {
        match self {
            Width::Bits8 => 1,
            Width::Bits16 => 2,
            Width::Bits32 => 4,
        }
    }
}

/// A field value with "0 means `max`" (the guide's encoding of the largest count).
const fn wrap(value: u32, max: u32) -> u32 {
    if value == max {
        0
    } else {
        value
    }
}

/// The MODEW field shared by tables 34 and 36: 0 = 32-bit, 2–3 = 16-bit with the half-word
/// in bit 0, 4–7 = 8-bit with the byte in bits 1:0.
const fn modew(width: Width, lane: u32) -> u32 {
    match width {
        Width::Bits32 => 0,
        Width::Bits16 => 2 | (lane & 1),
        Width::Bits8 => 4 | (lane & 3),
    }
}

/// Generic block read or write setup (tables 32 and 33): how the vectors a QPU reads from
/// or writes to the VPM FIFOs map onto VPM words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenericSetup {
    /// Vectors to read, 1..=16 (read setups only).
    pub count: u32,
    /// Added to the address after each vector, 1..=64.
    pub stride: u32,
    /// A vector runs along a row (true) or down a column.
    pub horizontal: bool,
    /// One element per word (laned) or packed; ignored for 32-bit.
    pub laned: bool,
    /// Element width.
    pub width: Width,
    /// ADDR: the first vector's address (for horizontal 32-bit vectors, the row Y).
    pub address: u32,
}

impl GenericSetup {
    /// One horizontal 32-bit vector per row from row `y`, advancing one row per vector.
    pub const fn rows(y: u32) -> GenericSetup {
        GenericSetup {
            count: 1,
            stride: 1,
            horizontal: true,
            laned: false,
            width: Width::Bits32,
            address: y,
        }
    }

    /// Where STRIDE starts: code that computes a stride adds `stride << STRIDE_SHIFT`.
    pub const STRIDE_SHIFT: u32 = 12;
    /// The STRIDE field's bits.
    pub const STRIDE_MASK: u32 = 0x3f << Self::STRIDE_SHIFT;

    /// The fields both tables share: STRIDE [17:12], HORIZ [11], LANED [10], SIZE [9:8],
    /// ADDR [7:0].
    const fn common(&self) -> u32 {
        let size = match self.width {
            Width::Bits8 => 0,
            Width::Bits16 => 1,
            Width::Bits32 => 2,
        };
        (wrap(self.stride, 64) << 12)
            | ((self.horizontal as u32) << 11)
            | ((self.laned as u32) << 10)
            | (size << 8)
            | (self.address & 0xff)
    }

    /// The write setup word (table 32: ID [31:30] = 0).
    pub const fn write_word(&self) -> u32 {
        self.common()
    }

    /// The read setup word (table 33: ID [31:30] = 0, NUM [23:20]).
    pub const fn read_word(&self) -> u32 {
        (wrap(self.count, 16) << 20) | self.common()
    }
}

/// VDW (DMA store) basic setup (table 34): a block of `units` memory rows of `depth`
/// elements each, taken from the VPM from (`y`, `x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VdwSetup {
    /// Memory rows, 1..=128.
    pub units: u32,
    /// Elements per memory row, 1..=128.
    pub depth: u32,
    /// A unit runs along a VPM row (true) or down a column.
    pub horizontal: bool,
    /// VPM row of the first element, 0..=127.
    pub y: u32,
    /// VPM column of the first element, 0..=15.
    pub x: u32,
    /// Element width.
    pub width: Width,
    /// Half-word or byte lane within each word (16- and 8-bit).
    pub lane: u32,
}

impl VdwSetup {
    /// `units` horizontal rows of 16 32-bit words from VPM row `y` (`units` may be 0 here,
    /// for a word that gets the count added later as `units << 23`).
    pub const fn rows(units: u32, y: u32) -> VdwSetup {
        VdwSetup {
            units,
            depth: 16,
            horizontal: true,
            y,
            x: 0,
            width: Width::Bits32,
            lane: 0,
        }
    }

    /// Where UNITS starts: code that computes a unit count adds `units << UNITS_SHIFT`.
    pub const UNITS_SHIFT: u32 = 23;
    /// Where the VPM row Y starts: code that computes a row adds `y << Y_SHIFT`.
    pub const Y_SHIFT: u32 = 7;

    /// The word: ID [31:30] = 2, UNITS [29:23], DEPTH [22:16], HORIZ [14], VPMBASE [13:3] =
    /// {Y[6:0], X[3:0]}, MODEW [2:0].
    pub const fn word(&self) -> u32 {
        (2 << 30)
            | ((wrap(self.units, 128) & 0x7f) << 23)
            | ((wrap(self.depth, 128) & 0x7f) << 16)
            | ((self.horizontal as u32) << 14)
            | ((self.y & 0x7f) << 7)
            | ((self.x & 0xf) << 3)
            | modew(self.width, self.lane)
    }
}

/// VDW stride setup (table 35).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VdwStride {
    /// Bytes from the end of one memory row to the start of the next. The guide gives the
    /// field 13 bits; vc4asm measured 16 on hardware, and 16 are encoded.
    pub stride: u32,
    /// BLOCKMODE [16].
    pub block_mode: bool,
}

impl VdwStride {
    /// The word: ID [31:30] = 3, BLOCKMODE [16], STRIDE [15:0].
    pub const fn word(&self) -> u32 {
        (3 << 30) | ((self.block_mode as u32) << 16) | (self.stride & 0xffff)
    }
}

/// VDR (DMA load) basic setup (table 36): `rows` memory rows of `row_length` elements,
/// `pitch` bytes apart, into the VPM from (`y`, `x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VdrSetup {
    /// Element width.
    pub width: Width,
    /// Half-word or byte lane of the first row (16- and 8-bit).
    pub lane: u32,
    /// Memory pitch in bytes, 8 · 2^n for n in 1..=15 (MPITCH = n); `None` writes MPITCH 0,
    /// which takes the pitch from an extended pitch setup (table 37).
    pub pitch: Option<u32>,
    /// Elements per memory row, 1..=16.
    pub row_length: u32,
    /// Memory rows, 1..=16.
    pub rows: u32,
    /// Added to the VPM address after each row, 1..=16.
    pub vpm_pitch: u32,
    /// A row runs down a VPM column (true) or along a VPM row.
    pub vertical: bool,
    /// VPM row of the first element, 0..=127.
    pub y: u32,
    /// VPM column of the first element, 0..=15.
    pub x: u32,
}

impl VdrSetup {
    /// One memory row of 16 32-bit words into VPM row `y`.
    pub const fn row(y: u32) -> VdrSetup {
        VdrSetup {
            width: Width::Bits32,
            lane: 0,
            pitch: Some(16),
            row_length: 16,
            rows: 1,
            vpm_pitch: 1,
            vertical: false,
            y,
            x: 0,
        }
    }

    /// Where the VPM row Y starts: code that computes a row adds `y << Y_SHIFT`.
    pub const Y_SHIFT: u32 = 4;

    /// The word: ID [31] = 1, MODEW [30:28], MPITCH [27:24], ROWLEN [23:20], NROWS [19:16],
    /// VPITCH [15:12], VERT [11], ADDRXY [10:0] = {Y[6:0], X[3:0]}.
    pub const fn word(&self) -> u32 {
        let mpitch = match self.pitch {
            Some(bytes) => (bytes / 8).trailing_zeros() & 0xf,
            None => 0,
        };
        (1 << 31)
            | (modew(self.width, self.lane) << 28)
            | (mpitch << 24)
            | ((wrap(self.row_length, 16) & 0xf) << 20)
            | ((wrap(self.rows, 16) & 0xf) << 16)
            | ((wrap(self.vpm_pitch, 16) & 0xf) << 12)
            | ((self.vertical as u32) << 11)
            | ((self.y & 0x7f) << 4)
            | (self.x & 0xf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words whose bits the guide's tables give, worked out by hand.
    #[test]
    fn words_match_the_tables() {
        // Table 32: stride 1 [17:12], horizontal [11], 32-bit [9:8] = 2, row 5.
        assert_eq!(GenericSetup::rows(5).write_word(), 0x0000_1a05);
        // Table 33 adds NUM 1 [23:20].
        assert_eq!(GenericSetup::rows(5).read_word(), 0x0010_1a05);
        // Table 34: ID 2, 1 unit, depth 16, horizontal, Y = 3 at [13:7].
        assert_eq!(VdwSetup::rows(1, 3).word(), 0x8090_4180);
        // 16 vertical units of depth 1 from row 0 (the seed hello world's store).
        let column = VdwSetup {
            units: 16,
            depth: 1,
            horizontal: false,
            ..VdwSetup::rows(0, 0)
        };
        assert_eq!(column.word(), 0x8801_0000);
        // Table 35: ID 3, block mode, stride 704.
        let stride = VdwStride {
            stride: 704,
            block_mode: true,
        };
        assert_eq!(stride.word(), 0xc001_02c0);
        // Table 36: ID 1, 32-bit, pitch 16 = 8·2^1, row length 16 (0), 1 row, VPM pitch 1,
        // Y = 12 at [10:4].
        assert_eq!(VdrSetup::row(12).word(), 0x8101_10c0);
        // Counts at their maximum encode as 0.
        assert_eq!(VdwSetup::rows(128, 0).word() & (0x7f << 23), 0);
    }
}

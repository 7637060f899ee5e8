//! The VPM (vertex pipe memory) as user programs see it, and each QPU's port to it: the
//! generic block read/write setups behind the VPM FIFOs, and the VDR (DMA load) and VDW
//! (DMA store) units that move blocks between the VPM and main memory.
//!
//! Facts come from section 7 ("VPM and VCD") of Broadcom's *VideoCore IV 3D Architecture
//! Reference Guide* (2013): table 32 (generic block write setup), table 33 (generic block
//! read setup), table 34 (VDW basic setup), table 35 (VDW stride setup), table 36 (VDR basic
//! setup) and table 37 (VDR extended pitch setup). Where hardware measurements published by
//! the vc4asm project (and others, named where used) contradict the guide, the code follows
//! the measurement and says so with *[measured]*. Where the guide leaves a behaviour open,
//! the comment says *ambiguous* and what this model chose.
//!
//! Every setup word field is decoded in exactly one place: [`GenericSetup::decode`],
//! [`VdwSetup::decode`], [`VdwStrideSetup::decode`], [`VdrSetup::decode`] and
//! [`VdrPitchSetup::decode`]; [`ReadSetupWord::decode`] and [`WriteSetupWord::decode`] pick
//! among them by the ID bits.
//!
//! Transfers here are functional and instantaneous: [`VpmPort::start_vdw`] and
//! [`VpmPort::start_vdr`] move all data at once and report its size ([`DmaTransfer`]) so a
//! cycle model can charge the time separately.
//!
//! ```
//! use qpu_emu::memory::Memory;
//! use qpu_emu::vpm::{VpmMemory, VpmPort};
//!
//! // The seed "hello world": one horizontal 32-bit vector into VPM row 0, then a VDW of
//! // 16 units of depth 1 (vertical) from row 0 to memory.
//! let mut mem = Memory::new();
//! let out = mem.alloc(64, 64)?;
//! let mut vpm = VpmMemory::new();
//! let mut port = VpmPort::new();
//! port.write_vw_setup(0xa00)?;
//! port.push(&mut vpm, &[0x1298; 16])?;
//! port.write_vw_setup(0x8801_0000)?;
//! let transfer = port.start_vdw(&vpm, &mut mem, out)?;
//! assert_eq!(transfer.bytes, 64);
//! assert_eq!(mem.read_u32s(out, 16)?, vec![0x1298; 16]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::fmt;

use thiserror::Error;

use crate::memory::{Memory, MemoryError};

/// Rows of the VPM a user program may use. The VPM holds 12 KiB, but user programs can only
/// address the first 64 rows of 16 words (guide section 7; erratum HW-2253).
pub const VPM_ROWS: usize = 64;
/// 32-bit words per VPM row.
pub const VPM_COLUMNS: usize = 16;

/// Which setup word an error is about; shown in messages with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupKind {
    /// Generic block read setup (table 33), written to A-file register 49.
    GenericRead,
    /// Generic block write setup (table 32), written to B-file register 49.
    GenericWrite,
    /// VDR DMA load basic setup (table 36), A-file register 49.
    VdrBasic,
    /// VDR extended memory pitch setup (table 37), A-file register 49.
    VdrPitch,
    /// VDW DMA store basic setup (table 34), B-file register 49.
    VdwBasic,
    /// VDW DMA store stride setup (table 35), B-file register 49.
    VdwStride,
    /// A word written to A-file register 49 whose ID bits select no format.
    ReadRegister,
    /// A word written to B-file register 49 whose ID bits select no format.
    WriteRegister,
}

impl fmt::Display for SetupKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetupKind::GenericRead => "VPM generic block read setup",
            SetupKind::GenericWrite => "VPM generic block write setup",
            SetupKind::VdrBasic => "VDR DMA load basic setup",
            SetupKind::VdrPitch => "VDR extended pitch setup",
            SetupKind::VdwBasic => "VDW DMA store basic setup",
            SetupKind::VdwStride => "VDW DMA store stride setup",
            SetupKind::ReadRegister => "VPM read setup register (ra49)",
            SetupKind::WriteRegister => "VPM write setup register (rb49)",
        })
    }
}

/// Which DMA unit an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DmaKind {
    /// VDR: memory to VPM.
    Load,
    /// VDW: VPM to memory.
    Store,
}

impl fmt::Display for DmaKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DmaKind::Load => "VDR DMA load",
            DmaKind::Store => "VDW DMA store",
        })
    }
}

/// Why a VPM setup, access or DMA transfer is rejected. Each variant names the setup word
/// (kind and value) and the address involved.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VpmError {
    /// The ID bits of a word written to register 49 select no setup format.
    #[error("{kind}: {value:#010x} has ID bits that select no setup format")]
    UnknownSetup {
        /// Which register was written.
        kind: SetupKind,
        /// The word written.
        value: u32,
    },
    /// A field holds a value the guide marks reserved or unused.
    #[error("{kind} {value:#010x}: field {field} = {field_value} is reserved")]
    ReservedField {
        /// The setup format.
        kind: SetupKind,
        /// The word written.
        value: u32,
        /// The field's name as in the guide's table.
        field: &'static str,
        /// The value found in that field.
        field_value: u32,
    },
    /// A generic read setup arrived while more than one read of the previous one was still
    /// unconsumed; hardware silently ignores such a setup *[measured]*.
    #[error(
        "VPM generic block read setup {value:#010x} written while {remaining} reads of the \
         previous setup are still pending; hardware only accepts a new read setup once at \
         most one read remains, and ignores this one"
    )]
    ReadSetupWhilePending {
        /// The rejected setup word.
        value: u32,
        /// Reads still outstanding when it was written.
        remaining: u32,
    },
    /// A VPM read with no generic read setup ever written.
    #[error("VPM read with no generic block read setup written")]
    ReadWithoutSetup,
    /// A VPM read after every read the setups programmed was consumed.
    #[error(
        "VPM read beyond the programmed count: the last read setup {setup:#010x} programmed \
         {count} reads and all were consumed"
    )]
    ReadsExhausted {
        /// The last generic read setup word.
        setup: u32,
        /// The number of reads it programmed.
        count: u32,
    },
    /// A VPM write with no generic write setup written.
    #[error("VPM write with no generic block write setup written")]
    WriteWithoutSetup,
    /// A generic VPM read or write reaches outside the 64 user rows.
    #[error(
        "{kind} {setup:#010x}: vector at VPM address {address:#04x} reaches row {row}, \
         outside the {VPM_ROWS} rows user programs may use"
    )]
    GenericOutOfRange {
        /// Generic read or write.
        kind: SetupKind,
        /// The setup word.
        setup: u32,
        /// The current ADDR counter (the setup's ADDR plus strides so far).
        address: u32,
        /// The first out-of-range row.
        row: usize,
    },
    /// A DMA address was written with no basic setup for that unit.
    #[error("{dma} started with no basic setup written")]
    DmaWithoutSetup {
        /// Which unit.
        dma: DmaKind,
    },
    /// A VDR load of several rows selects the extended pitch, which was never written.
    #[error(
        "VDR DMA load basic setup {setup:#010x} selects the extended memory pitch \
         (MPITCH = 0) but no extended pitch setup was written"
    )]
    VdrPitchMissing {
        /// The basic setup word.
        setup: u32,
    },
    /// A DMA transfer touches a VPM word outside the 64 user rows.
    #[error(
        "{dma} with setup {setup:#010x}: element {element} of memory row {mem_row} maps to \
         VPM row {row}, column {column}, outside the {VPM_ROWS} rows user programs may use"
    )]
    DmaVpmOutOfRange {
        /// Which unit.
        dma: DmaKind,
        /// The basic setup word.
        setup: u32,
        /// Memory row (VDW unit / VDR row) being transferred.
        mem_row: u32,
        /// Element within that row.
        element: u32,
        /// VPM row reached.
        row: usize,
        /// VPM column reached.
        column: usize,
    },
    /// A DMA memory row address is not aligned to the element width.
    #[error(
        "{dma} with setup {setup:#010x}: memory row {mem_row} starts at bus address \
         {addr:#010x}, not aligned to the {width}-byte element width"
    )]
    DmaUnaligned {
        /// Which unit.
        dma: DmaKind,
        /// The basic setup word.
        setup: u32,
        /// Memory row being transferred.
        mem_row: u32,
        /// Its start address.
        addr: u32,
        /// Element width in bytes.
        width: u32,
    },
    /// A DMA transfer touches memory outside the allocations.
    #[error("{dma} with setup {setup:#010x}, memory row {mem_row} at {addr:#010x}: {source}")]
    DmaMemory {
        /// Which unit.
        dma: DmaKind,
        /// The basic setup word.
        setup: u32,
        /// Memory row being transferred.
        mem_row: u32,
        /// Its start address (as computed, possibly past the 32-bit space if saturated).
        addr: u32,
        /// What memory said.
        #[source]
        source: MemoryError,
    },
}

// ------------------------------------------------------------------------------------------
// The VPM itself.
// ------------------------------------------------------------------------------------------

/// The user-programmable part of the VPM: 64 rows of 16 32-bit words, shared by all QPUs
/// and both DMA units. Sub-word data lives in the words little-endian: byte 0 (B = 0) and
/// half-word 0 (H = 0) are the least significant bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VpmMemory {
    words: [[u32; VPM_COLUMNS]; VPM_ROWS],
}

impl Default for VpmMemory {
    fn default() -> Self {
        Self::new()
    }
}

impl VpmMemory {
    /// A VPM holding zeros. (Hardware contents at launch are whatever the last user left.)
    pub fn new() -> Self {
        VpmMemory {
            words: [[0; VPM_COLUMNS]; VPM_ROWS],
        }
    }

    /// The word at (`row`, `column`), or `None` outside 64 × 16.
    pub fn word(&self, row: usize, column: usize) -> Option<u32> {
        self.words.get(row)?.get(column).copied()
    }

    /// Sets the word at (`row`, `column`); returns `false` (and writes nothing) outside
    /// 64 × 16.
    pub fn set_word(&mut self, row: usize, column: usize, value: u32) -> bool {
        match self.words.get_mut(row).and_then(|r| r.get_mut(column)) {
            Some(word) => {
                *word = value;
                true
            }
            None => false,
        }
    }

    /// One whole row, or `None` beyond row 63.
    pub fn row(&self, row: usize) -> Option<&[u32; VPM_COLUMNS]> {
        self.words.get(row)
    }

    /// All 64 rows.
    pub fn rows(&self) -> &[[u32; VPM_COLUMNS]; VPM_ROWS] {
        &self.words
    }

    /// Reads the `width`-byte field at bit `shift` of a word (callers checked the range).
    fn get(&self, slot: Slot, width: Width) -> u32 {
        (self.words[slot.row][slot.column] >> slot.shift) & width.mask()
    }

    /// Replaces the `width`-byte field at bit `shift` of a word, keeping the other bits.
    fn put(&mut self, slot: Slot, width: Width, value: u32) {
        let word = &mut self.words[slot.row][slot.column];
        let mask = width.mask() << slot.shift;
        *word = (*word & !mask) | ((value << slot.shift) & mask);
    }
}

/// Element width of a VPM access.
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
    pub fn bytes(self) -> u32 {
        match self {
            Width::Bits8 => 1,
            Width::Bits16 => 2,
            Width::Bits32 => 4,
        }
    }

    fn mask(self) -> u32 {
        match self {
            Width::Bits8 => 0xff,
            Width::Bits16 => 0xffff,
            Width::Bits32 => u32::MAX,
        }
    }

    /// Elements of this width per 32-bit word.
    fn per_word(self) -> u32 {
        4 / self.bytes()
    }
}

/// Where one element lives: a word and the bit position of its field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    row: usize,
    column: usize,
    shift: u32,
}

// ------------------------------------------------------------------------------------------
// Setup word formats.
// ------------------------------------------------------------------------------------------

/// A generic block read or write setup (guide tables 32 and 33): how QPU reads from / writes
/// to the VPM FIFOs map 16-lane vectors onto VPM words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenericSetup {
    /// The word as written.
    pub raw: u32,
    /// Vectors to read (read setup only; 1..=16). Write setups carry no count.
    pub count: Option<u32>,
    /// Amount added to the address after each vector (1..=64).
    pub stride: u32,
    /// Horizontal (a vector along a row) or vertical (down a column).
    pub horizontal: bool,
    /// Laned (one element per 32-bit word, in the byte/half-word lane the address selects)
    /// or packed (consecutive elements share words). Ignored for 32-bit width.
    pub laned: bool,
    /// Element width.
    pub width: Width,
    /// ADDR: first vector's address; its meaning depends on width and direction.
    pub address: u32,
}

impl GenericSetup {
    /// Decodes a generic setup; `read` selects table 33 (with NUM) over table 32.
    pub fn decode(value: u32, read: bool) -> Result<Self, VpmError> {
        let kind = if read {
            SetupKind::GenericRead
        } else {
            SetupKind::GenericWrite
        };
        // Tables 32/33: ID [31:30] = 0 selects the generic format (the caller checked it).
        // Table 33: NUM [23:20], number of vectors to read, 0 means 16.
        let count = read.then_some(match (value >> 20) & 0xf {
            0 => 16,
            n => n,
        });
        // Tables 32/33: STRIDE [17:12], added to ADDR after every vector, 0 means 64.
        let stride = match (value >> 12) & 0x3f {
            0 => 64,
            s => s,
        };
        // Tables 32/33: HORIZ [11] (1 = horizontal), LANED [10] (1 = laned; ignored for
        // 32-bit), SIZE [9:8] (0 = 8-bit, 1 = 16-bit, 2 = 32-bit, 3 = reserved),
        // ADDR [7:0].
        let horizontal = value & (1 << 11) != 0;
        let laned = value & (1 << 10) != 0;
        let width = match (value >> 8) & 3 {
            0 => Width::Bits8,
            1 => Width::Bits16,
            2 => Width::Bits32,
            size => {
                return Err(VpmError::ReservedField {
                    kind,
                    value,
                    field: "SIZE",
                    field_value: size,
                })
            }
        };
        // The remaining bits ([29:24] and [19:18] of a read setup; [29:18] of a write setup)
        // are unused in the tables. Ambiguous: the guide does not say they are ignored; we
        // ignore them, as the hardware-proven GPU_FFT and QPULib setups leave them zero.
        Ok(GenericSetup {
            raw: value,
            count,
            stride,
            horizontal,
            laned,
            width,
            address: value & 0xff,
        })
    }

    /// Where element `lane` (0..16) of the vector at ADDR counter `address` lives.
    ///
    /// The address formats (guide section 7, "VPM generic block setup", ADDR field):
    /// horizontal 32-bit `ADDR = Y[5:0]`, 16-bit `{Y[5:0], H}`, 8-bit `{Y[5:0], B[1:0]}`;
    /// vertical 32-bit `{Y[5:4], X[3:0]}`, 16-bit `{Y[5:4], X[3:0], H}`, 8-bit
    /// `{Y[5:4], X[3:0], B[1:0]}`. A vertical vector runs down rows Y..Y+15 of column X.
    /// Laned: element i is lane H/B of the i-th word along the vector. Packed: the 16
    /// elements fill 16 × width bytes (4, 8 or 16 words) consecutively, and H/B selects which
    /// half/quarter of the row or column holds them.
    ///
    /// Ambiguous: the guide gives no formula for bits of ADDR above the listed ones (for
    /// example ADDR[7:6] of a 32-bit setup). We treat them as further Y bits, so they
    /// address rows beyond 63 and are reported as out of range.
    fn slot(&self, address: u32, lane: u32) -> Slot {
        let width = self.width;
        // Split the address into the sub-word selector and the 32-bit vector address.
        let (select, vector) = match width {
            Width::Bits32 => (0, address),
            Width::Bits16 => (address & 1, address >> 1),
            Width::Bits8 => (address & 3, address >> 2),
        };
        // Offset along the vector, in words, and the bit position within the word.
        let (offset, shift) = if self.laned || width == Width::Bits32 {
            (lane, select * 8 * width.bytes())
        } else {
            let per_word = width.per_word();
            let words_per_vector = VPM_COLUMNS as u32 / per_word;
            (
                select * words_per_vector + lane / per_word,
                (lane % per_word) * 8 * width.bytes(),
            )
        };
        if self.horizontal {
            Slot {
                row: vector as usize,
                column: offset as usize,
                shift,
            }
        } else {
            Slot {
                row: ((vector >> 4) * 16 + offset) as usize,
                column: (vector & 0xf) as usize,
                shift,
            }
        }
    }

    /// All 16 slots of the vector at `address`, or the out-of-range error.
    fn slots(&self, address: u32, kind: SetupKind) -> Result<[Slot; 16], VpmError> {
        let mut slots = [Slot {
            row: 0,
            column: 0,
            shift: 0,
        }; 16];
        for (lane, slot) in (0u32..).zip(slots.iter_mut()) {
            *slot = self.slot(address, lane);
            if slot.row >= VPM_ROWS {
                return Err(VpmError::GenericOutOfRange {
                    kind,
                    setup: self.raw,
                    address,
                    row: slot.row,
                });
            }
        }
        Ok(slots)
    }
}

/// Advances an ADDR counter by a stride. The counter is the 8-bit ADDR field, so it wraps
/// modulo 256. Ambiguous: the guide does not say how wide the counter is; vc4asm's
/// `vpm_setup` macro accepts strides down to -64 (encoded as 64 - n), which only works as a
/// decrement if the counter wraps at the 32-bit-mode address width. We keep the literal
/// 8-bit field: a 32-bit-mode "negative" stride then runs past row 63 and is reported as
/// out of range instead of silently wrapping.
fn advance(address: u32, stride: u32) -> u32 {
    (address + stride) & 0xff
}

/// VDW DMA store basic setup (guide table 34).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VdwSetup {
    /// The word as written.
    pub raw: u32,
    /// UNITS: memory rows of the 2D block (1..=128).
    pub units: u32,
    /// DEPTH: elements per memory row (1..=128).
    pub depth: u32,
    /// Horizontal (a unit runs along a VPM row) or vertical (down a VPM column).
    pub horizontal: bool,
    /// VPM row of the first element (Y, 0..=127).
    pub y: u32,
    /// VPM column of the first element (X, 0..=15).
    pub x: u32,
    /// Element width.
    pub width: Width,
    /// Half-word (16-bit) or byte (8-bit) lane within each VPM word; 0 for 32-bit.
    pub lane: u32,
}

impl VdwSetup {
    /// Decodes a VDW basic setup word (ID [31:30] = 2, checked by the caller).
    pub fn decode(value: u32) -> Result<Self, VpmError> {
        let kind = SetupKind::VdwBasic;
        // Table 34: UNITS [29:23], number of rows of the 2D block in memory, 0 means 128.
        let units = match (value >> 23) & 0x7f {
            0 => 128,
            n => n,
        };
        // Table 34: DEPTH [22:16], row length of the block in memory, 0 means 128.
        let depth = match (value >> 16) & 0x7f {
            0 => 128,
            n => n,
        };
        // Table 34: bit 15 is to be written as 0. Ambiguous: some sources call it LANED;
        // no source says what 1 does, so we reject it rather than guess.
        if value & (1 << 15) != 0 {
            return Err(VpmError::ReservedField {
                kind,
                value,
                field: "bit 15 (write as 0)",
                field_value: 1,
            });
        }
        // Table 34: HORIZ [14] (1 = horizontal), VPMBASE [13:3] = {Y[6:0], X[3:0]}.
        let horizontal = value & (1 << 14) != 0;
        let y = (value >> 7) & 0x7f;
        let x = (value >> 3) & 0xf;
        // Table 34: MODEW [2:0]: 0 = 32-bit, 1 = unused, 2-3 = 16-bit with half-word offset
        // MODEW[0], 4-7 = 8-bit with byte offset MODEW[1:0].
        let modew = value & 7;
        let (width, lane) = decode_modew(modew).ok_or(VpmError::ReservedField {
            kind,
            value,
            field: "MODEW",
            field_value: modew,
        })?;
        Ok(VdwSetup {
            raw: value,
            units,
            depth,
            horizontal,
            y,
            x,
            width,
            lane,
        })
    }
}

/// Decodes the shared MODEW encoding of tables 34 and 36: (width, lane); `None` for 1.
fn decode_modew(modew: u32) -> Option<(Width, u32)> {
    match modew {
        0 => Some((Width::Bits32, 0)),
        2 | 3 => Some((Width::Bits16, modew & 1)),
        4..=7 => Some((Width::Bits8, modew & 3)),
        _ => None,
    }
}

/// VDW DMA store stride setup (guide table 35).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct VdwStrideSetup {
    /// The word as written.
    pub raw: u32,
    /// BLOCKMODE: `false` = consecutive units start one VPM row (horizontal) or column
    /// (vertical) apart; `true` = units are packed one after another in the VPM.
    pub block_mode: bool,
    /// STRIDE: bytes from the end of one memory row to the start of the next.
    pub stride: u32,
}

impl VdwStrideSetup {
    /// Decodes a VDW stride setup word (ID [31:30] = 3, checked by the caller).
    pub fn decode(value: u32) -> Result<Self, VpmError> {
        // Table 35: BLOCKMODE [16]; STRIDE [12:0] per the guide, but the field is 16 bits
        // wide, [15:0] *[measured by vc4asm]*, so we decode 16 bits.
        let block_mode = value & (1 << 16) != 0;
        let stride = value & 0xffff;
        // Bits [29:17] are unused in table 35; a non-zero value there is most likely a
        // stride computed too large, so we reject it.
        let unused = (value >> 17) & 0x1fff;
        if unused != 0 {
            return Err(VpmError::ReservedField {
                kind: SetupKind::VdwStride,
                value,
                field: "bits [29:17] (unused)",
                field_value: unused,
            });
        }
        Ok(VdwStrideSetup {
            raw: value,
            block_mode,
            stride,
        })
    }
}

/// VDR DMA load basic setup (guide table 36).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VdrSetup {
    /// The word as written.
    pub raw: u32,
    /// Element width.
    pub width: Width,
    /// Half-word (16-bit) or byte (8-bit) lane of the first row; 0 for 32-bit.
    pub lane: u32,
    /// Memory pitch in bytes (start of row to start of row), or `None` when MPITCH = 0
    /// selects the extended pitch setup.
    pub memory_pitch: Option<u32>,
    /// ROWLEN: elements per memory row (1..=16).
    pub row_length: u32,
    /// NROWS: memory rows (1..=16).
    pub rows: u32,
    /// VPITCH: added to the {Y, lane} counter after each row (1..=16).
    pub vpm_pitch: u32,
    /// Vertical (a row runs down a VPM column) or horizontal (along a VPM row).
    pub vertical: bool,
    /// VPM row of the first element (Y, 0..=127).
    pub y: u32,
    /// VPM column of the first element (X, 0..=15).
    pub x: u32,
}

impl VdrSetup {
    /// Decodes a VDR basic setup (bit 31 = 1 and MODEW != 1, checked by the caller).
    pub fn decode(value: u32) -> Result<Self, VpmError> {
        // Table 36: ID [31] = 1; MODEW [30:28]: 0 = 32-bit, 1 = selects the extended pitch
        // format instead (table 37), 2-3 = 16-bit with half-word select MODEW[0], 4-7 = 8-bit
        // with byte select MODEW[1:0].
        let modew = (value >> 28) & 7;
        let (width, lane) = decode_modew(modew).ok_or(VpmError::ReservedField {
            kind: SetupKind::VdrBasic,
            value,
            field: "MODEW",
            field_value: modew,
        })?;
        // Table 36: MPITCH [27:24]: 0 = use the extended pitch; else 8 * 2^MPITCH bytes.
        let memory_pitch = match (value >> 24) & 0xf {
            0 => None,
            p => Some(8u32 << p),
        };
        // Table 36: ROWLEN [23:20] and NROWS [19:16], 0 means 16; VPITCH [15:12], 0 means
        // 16; VERT [11] (1 = vertical); ADDRXY [10:0] = {Y[6:0], X[3:0]}.
        let sixteen_if_zero = |field: u32| if field == 0 { 16 } else { field };
        Ok(VdrSetup {
            raw: value,
            width,
            lane,
            memory_pitch,
            row_length: sixteen_if_zero((value >> 20) & 0xf),
            rows: sixteen_if_zero((value >> 16) & 0xf),
            vpm_pitch: sixteen_if_zero((value >> 12) & 0xf),
            vertical: value & (1 << 11) != 0,
            y: (value >> 4) & 0x7f,
            x: value & 0xf,
        })
    }
}

/// VDR extended memory pitch setup (guide table 37).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VdrPitchSetup {
    /// The word as written.
    pub raw: u32,
    /// MPITCHB: memory pitch in bytes, start of row to start of row.
    pub pitch: u32,
}

impl VdrPitchSetup {
    /// Decodes an extended pitch setup word (ID [31:28] = 9, checked by the caller).
    pub fn decode(value: u32) -> Result<Self, VpmError> {
        // Table 37: ID [31:28] = 1001, MPITCHB [12:0]; bits [27:13] unused. Unlike the VDW
        // stride, no measurement widens this field, so wider values are rejected.
        let unused = (value >> 13) & 0x7fff;
        if unused != 0 {
            return Err(VpmError::ReservedField {
                kind: SetupKind::VdrPitch,
                value,
                field: "bits [27:13] (unused)",
                field_value: unused,
            });
        }
        Ok(VdrPitchSetup {
            raw: value,
            pitch: value & 0x1fff,
        })
    }
}

/// A word written to the A-file register 49 (VPMVCD_RD_SETUP), by its ID bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadSetupWord {
    /// ID [31:30] = 0: generic block read setup (table 33).
    Generic(GenericSetup),
    /// ID [31] = 1, [30:28] != 1: VDR basic setup (table 36).
    Vdr(VdrSetup),
    /// ID [31:28] = 1001: VDR extended pitch (table 37).
    VdrPitch(VdrPitchSetup),
}

impl ReadSetupWord {
    /// Decodes a read setup register word by its ID bits.
    pub fn decode(value: u32) -> Result<Self, VpmError> {
        match value >> 28 {
            0..=3 => GenericSetup::decode(value, true).map(ReadSetupWord::Generic),
            // [31:30] = 01 selects nothing in tables 33, 36 and 37.
            4..=7 => Err(VpmError::UnknownSetup {
                kind: SetupKind::ReadRegister,
                value,
            }),
            9 => VdrPitchSetup::decode(value).map(ReadSetupWord::VdrPitch),
            _ => VdrSetup::decode(value).map(ReadSetupWord::Vdr),
        }
    }
}

/// A word written to the B-file register 49 (VPMVCD_WR_SETUP), by its ID bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteSetupWord {
    /// ID [31:30] = 0: generic block write setup (table 32).
    Generic(GenericSetup),
    /// ID [31:30] = 2: VDW basic setup (table 34).
    Vdw(VdwSetup),
    /// ID [31:30] = 3: VDW stride setup (table 35).
    VdwStride(VdwStrideSetup),
}

impl WriteSetupWord {
    /// Decodes a write setup register word by its ID bits.
    pub fn decode(value: u32) -> Result<Self, VpmError> {
        match value >> 30 {
            0 => GenericSetup::decode(value, false).map(WriteSetupWord::Generic),
            2 => VdwSetup::decode(value).map(WriteSetupWord::Vdw),
            3 => VdwStrideSetup::decode(value).map(WriteSetupWord::VdwStride),
            // ID 1 selects nothing in tables 32, 34 and 35.
            _ => Err(VpmError::UnknownSetup {
                kind: SetupKind::WriteRegister,
                value,
            }),
        }
    }
}

// ------------------------------------------------------------------------------------------
// DMA address walking.
// ------------------------------------------------------------------------------------------

/// A DMA unit's position in the VPM as one linear word counter, so runs that cross a row or
/// column end carry the way the hardware does.
///
/// Horizontal: `Y * 16 + X` (along a row, then to the next row).
/// Vertical: `{Y[6:4], X[3:0], Y[3:0]}` (down the 16 rows of a column block, then to the
/// next column, then to the next 16-row block). Measured by Amol Surati on a Pi (2021, see
/// vc4asm issue 27): a vertical VDW whose units start at X = 15 continues at X = 0 with
/// Y + 16, i.e. X sits between Y[6:4] and Y[3:0] in the counter *[measured]*. Ambiguous:
/// the measurement covers unit-to-unit steps only; we assume runs longer than 16 words
/// walk the same counter.
#[derive(Clone, Copy, Debug)]
struct DmaCursor {
    vertical: bool,
}

impl DmaCursor {
    fn linear(self, y: u32, x: u32) -> u32 {
        if self.vertical {
            ((y >> 4) << 8) | (x << 4) | (y & 0xf)
        } else {
            y * 16 + x
        }
    }

    /// (row, column) of a linear position.
    fn position(self, linear: u32) -> (usize, usize) {
        if self.vertical {
            (
                (((linear >> 8) << 4) | (linear & 0xf)) as usize,
                ((linear >> 4) & 0xf) as usize,
            )
        } else {
            ((linear / 16) as usize, (linear % 16) as usize)
        }
    }
}

/// Size of one DMA transfer, for the cycle model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaTransfer {
    /// Bytes moved between memory and the VPM.
    pub bytes: u32,
    /// Memory rows (VDW units or VDR rows) moved.
    pub rows: u32,
}

// ------------------------------------------------------------------------------------------
// The per-QPU port.
// ------------------------------------------------------------------------------------------

/// An accepted generic read setup and how far its reads have got.
#[derive(Clone, Copy, Debug)]
struct ReadStream {
    setup: GenericSetup,
    address: u32,
    remaining: u32,
}

/// One QPU's VPM interface: its generic read/write setups (with their running address and
/// read count) and its VDR/VDW setup registers.
#[derive(Clone, Debug, Default)]
pub struct VpmPort {
    /// Accepted read setups with reads outstanding, oldest first (at most two: the tail of
    /// the previous setup and the new one).
    reads: VecDeque<ReadStream>,
    /// The last generic read setup accepted, for error messages after it ran out.
    last_read_setup: Option<GenericSetup>,
    /// The generic write setup and its running address.
    write: Option<(GenericSetup, u32)>,
    vdr: Option<VdrSetup>,
    vdr_pitch: Option<VdrPitchSetup>,
    vdw: Option<VdwSetup>,
    vdw_stride: VdwStrideSetup,
}

impl VpmPort {
    /// A port with nothing set up. The VDW stride setup starts as 0 (stride 0, block mode
    /// off): the seed hello world never writes it and expects contiguous output. Ambiguous:
    /// the guide gives no reset value; hardware keeps whatever the previous program left.
    pub fn new() -> Self {
        Self::default()
    }

    /// A write to the A-file register 49: generic read setup, VDR basic setup or VDR
    /// extended pitch, chosen by the ID bits.
    ///
    /// A generic read setup is accepted only when at most one read of the previous one is
    /// outstanding; hardware ignores a setup written earlier *[measured by vc4asm]* (the
    /// guide claims two setups queue). Such a setup is an error here.
    pub fn write_vr_setup(&mut self, value: u32) -> Result<(), VpmError> {
        match ReadSetupWord::decode(value)? {
            ReadSetupWord::Generic(setup) => {
                let remaining = self.pending_reads();
                if remaining > 1 {
                    return Err(VpmError::ReadSetupWhilePending { value, remaining });
                }
                self.reads.retain(|stream| stream.remaining > 0);
                self.reads.push_back(ReadStream {
                    setup,
                    address: setup.address,
                    remaining: setup.count.unwrap_or(16),
                });
                self.last_read_setup = Some(setup);
            }
            ReadSetupWord::Vdr(setup) => self.vdr = Some(setup),
            ReadSetupWord::VdrPitch(setup) => self.vdr_pitch = Some(setup),
        }
        Ok(())
    }

    /// A write to the B-file register 49: generic write setup, VDW basic setup or VDW stride
    /// setup, chosen by the ID bits. A generic write setup restarts the write address.
    pub fn write_vw_setup(&mut self, value: u32) -> Result<(), VpmError> {
        match WriteSetupWord::decode(value)? {
            WriteSetupWord::Generic(setup) => self.write = Some((setup, setup.address)),
            WriteSetupWord::Vdw(setup) => self.vdw = Some(setup),
            WriteSetupWord::VdwStride(setup) => self.vdw_stride = setup,
        }
        Ok(())
    }

    /// Reads programmed by the accepted read setups and not yet consumed.
    pub fn pending_reads(&self) -> u32 {
        self.reads.iter().map(|stream| stream.remaining).sum()
    }

    /// The current generic write setup, if any.
    pub fn write_setup(&self) -> Option<GenericSetup> {
        self.write.map(|(setup, _)| setup)
    }

    /// The current VDR basic setup, if any.
    pub fn vdr_setup(&self) -> Option<VdrSetup> {
        self.vdr
    }

    /// The current VDW basic setup, if any.
    pub fn vdw_setup(&self) -> Option<VdwSetup> {
        self.vdw
    }

    /// The current VDW stride setup.
    pub fn vdw_stride_setup(&self) -> VdwStrideSetup {
        self.vdw_stride
    }

    /// One write to the VPM write FIFO (B-file register 48): stores the 16 lanes per the
    /// generic write setup, then advances its address by the stride. 8- and 16-bit widths
    /// store the low bits of each lane and leave the rest of each VPM word intact.
    pub fn push(&mut self, vpm: &mut VpmMemory, lanes: &[u32; 16]) -> Result<(), VpmError> {
        let (setup, address) = self.write.as_mut().ok_or(VpmError::WriteWithoutSetup)?;
        let slots = setup.slots(*address, SetupKind::GenericWrite)?;
        for (slot, &value) in slots.iter().zip(lanes) {
            vpm.put(*slot, setup.width, value);
        }
        *address = advance(*address, setup.stride);
        Ok(())
    }

    /// One read of the VPM read FIFO (A-file register 48): the next vector of the pending
    /// read setups. 8- and 16-bit elements arrive zero-extended. Ambiguous: the guide does
    /// not say whether sub-word reads are zero- or sign-extended; zero extension matches the
    /// unsigned byte/half-word unpack modes.
    ///
    /// Reading with no setup, or past the programmed count, is an error: the guide calls it
    /// undefined and on hardware the read blocks forever *[measured by vc4asm]*.
    pub fn pop(&mut self, vpm: &VpmMemory) -> Result<[u32; 16], VpmError> {
        let Some(stream) = self.reads.iter_mut().find(|stream| stream.remaining > 0) else {
            return Err(match self.last_read_setup {
                None => VpmError::ReadWithoutSetup,
                Some(setup) => VpmError::ReadsExhausted {
                    setup: setup.raw,
                    count: setup.count.unwrap_or(16),
                },
            });
        };
        let slots = stream.setup.slots(stream.address, SetupKind::GenericRead)?;
        let mut lanes = [0; 16];
        for (lane, slot) in lanes.iter_mut().zip(&slots) {
            *lane = vpm.get(*slot, stream.setup.width);
        }
        stream.address = advance(stream.address, stream.setup.stride);
        stream.remaining -= 1;
        if stream.remaining == 0 && self.reads.len() > 1 {
            self.reads.pop_front();
        }
        Ok(lanes)
    }

    /// A write of `addr` to the B-file register 50: performs the whole VDW store now.
    ///
    /// Memory side (table 34/35): UNITS rows of DEPTH elements; each row is contiguous and
    /// the next starts STRIDE bytes after its end. VPM side: a unit (memory row) runs along
    /// a VPM row (horizontal) or down a column (vertical) from VPMBASE; with BLOCKMODE off
    /// the next unit starts one row (horizontal) or one column (vertical) further, with
    /// BLOCKMODE on it starts right after the previous unit's last word.
    ///
    /// 8- and 16-bit modes take each element from the byte/half-word lane MODEW selects in
    /// successive VPM words. Ambiguous: the guide calls that offset "packed only", which
    /// could also mean elements packed several per word; we chose laned access because the
    /// VDR's VPITCH steps the same lane select row by row (table 36), which only makes sense
    /// for lanes, and because then a load and a store with the same shape round-trip.
    pub fn start_vdw(
        &mut self,
        vpm: &VpmMemory,
        mem: &mut Memory,
        addr: u32,
    ) -> Result<DmaTransfer, VpmError> {
        let dma = DmaKind::Store;
        let setup = self.vdw.ok_or(VpmError::DmaWithoutSetup { dma })?;
        let stride = self.vdw_stride;
        let width = setup.width;
        let cursor = DmaCursor {
            vertical: !setup.horizontal,
        };
        let start = cursor.linear(setup.y, setup.x);
        let unit_step = if stride.block_mode { setup.depth } else { 16 };
        let row_bytes = setup.depth * width.bytes();
        let shift = setup.lane * 8 * width.bytes();
        let mut buffer = Vec::with_capacity(row_bytes as usize);
        for unit in 0..setup.units {
            let mem_addr = u64::from(addr)
                + u64::from(unit) * (u64::from(row_bytes) + u64::from(stride.stride));
            let mem_addr = check_row_address(dma, setup.raw, unit, mem_addr, width)?;
            buffer.clear();
            for element in 0..setup.depth {
                let (row, column) = cursor.position(start + unit * unit_step + element);
                let word = vpm.word(row, column).ok_or(VpmError::DmaVpmOutOfRange {
                    dma,
                    setup: setup.raw,
                    mem_row: unit,
                    element,
                    row,
                    column,
                })?;
                let value = (word >> shift) & width.mask();
                buffer.extend_from_slice(&value.to_le_bytes()[..width.bytes() as usize]);
            }
            mem.write_bytes(mem_addr, &buffer)
                .map_err(|source| VpmError::DmaMemory {
                    dma,
                    setup: setup.raw,
                    mem_row: unit,
                    addr: mem_addr,
                    source,
                })?;
        }
        Ok(DmaTransfer {
            bytes: setup.units * row_bytes,
            rows: setup.units,
        })
    }

    /// A write of `addr` to the A-file register 50: performs the whole VDR load now.
    ///
    /// Memory side (table 36/37): NROWS rows of ROWLEN elements, row starts MPITCH apart
    /// (8 * 2^MPITCH bytes, or MPITCHB bytes from table 37 when MPITCH = 0). VPM side: row r
    /// runs along a VPM row (horizontal) or down a column (vertical) starting at column X and
    /// the {Y, lane} counter, to which VPITCH is added after each row: for 32-bit it is Y,
    /// for 16-bit {Y, H[0]}, for 8-bit {Y, B[1:0]} (table 36). The carry runs into the high
    /// Y bits: a vertical load with VPITCH 16 puts its rows at Y, Y + 16, ... in one column
    /// *[measured by Amol Surati, 2021]*. Elements are stored in the selected lane of
    /// successive words (see [`VpmPort::start_vdw`] for why lanes), other bits kept.
    pub fn start_vdr(
        &mut self,
        vpm: &mut VpmMemory,
        mem: &Memory,
        addr: u32,
    ) -> Result<DmaTransfer, VpmError> {
        let dma = DmaKind::Load;
        let setup = self.vdr.ok_or(VpmError::DmaWithoutSetup { dma })?;
        let pitch = match (setup.memory_pitch, self.vdr_pitch) {
            (Some(pitch), _) => pitch,
            (None, Some(extended)) => extended.pitch,
            // A single row never uses the pitch, so a missing one does not matter.
            (None, None) if setup.rows == 1 => 0,
            (None, None) => return Err(VpmError::VdrPitchMissing { setup: setup.raw }),
        };
        let width = setup.width;
        let cursor = DmaCursor {
            vertical: setup.vertical,
        };
        let lanes_per_word = width.per_word();
        let first_counter = setup.y * lanes_per_word + setup.lane;
        let row_bytes = setup.row_length * width.bytes();
        for mem_row in 0..setup.rows {
            let mem_addr = u64::from(addr) + u64::from(mem_row) * u64::from(pitch);
            let mem_addr = check_row_address(dma, setup.raw, mem_row, mem_addr, width)?;
            let bytes =
                mem.read_bytes(mem_addr, row_bytes)
                    .map_err(|source| VpmError::DmaMemory {
                        dma,
                        setup: setup.raw,
                        mem_row,
                        addr: mem_addr,
                        source,
                    })?;
            let counter = first_counter + mem_row * setup.vpm_pitch;
            let (y, lane) = (counter / lanes_per_word, counter % lanes_per_word);
            let shift = lane * 8 * width.bytes();
            let start = cursor.linear(y, setup.x);
            for (element, chunk) in (0u32..).zip(bytes.chunks_exact(width.bytes() as usize)) {
                let (row, column) = cursor.position(start + element);
                if row >= VPM_ROWS {
                    return Err(VpmError::DmaVpmOutOfRange {
                        dma,
                        setup: setup.raw,
                        mem_row,
                        element,
                        row,
                        column,
                    });
                }
                let mut value = [0u8; 4];
                value[..chunk.len()].copy_from_slice(chunk);
                vpm.put(
                    Slot { row, column, shift },
                    width,
                    u32::from_le_bytes(value),
                );
            }
        }
        Ok(DmaTransfer {
            bytes: setup.rows * row_bytes,
            rows: setup.rows,
        })
    }
}

/// Checks that a DMA memory row starts inside the bus address space and is aligned to the
/// element width. Ambiguous: the guide does not say what unaligned DMA addresses do; we
/// reject them.
fn check_row_address(
    dma: DmaKind,
    setup: u32,
    mem_row: u32,
    addr: u64,
    width: Width,
) -> Result<u32, VpmError> {
    let Ok(addr32) = u32::try_from(addr) else {
        return Err(VpmError::DmaMemory {
            dma,
            setup,
            mem_row,
            addr: u32::MAX,
            source: MemoryError::Unmapped {
                addr: u32::MAX,
                len: width.bytes(),
            },
        });
    };
    if !addr32.is_multiple_of(width.bytes()) {
        return Err(VpmError::DmaUnaligned {
            dma,
            setup,
            mem_row,
            addr: addr32,
            width: width.bytes(),
        });
    }
    Ok(addr32)
}

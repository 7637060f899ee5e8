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
//! use qpu_emu::vc4::vpm::{VpmMemory, VpmPort};
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

use crate::memory::{LendingMemory, MemoryError};

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
    /// A VDW DMA would store VPM words holding undefined values.
    #[error(
        "{dma} with setup {setup:#010x}, memory row {mem_row}: VPM row {row} holds undefined \
         values in column(s) {columns:#06x}"
    )]
    UndefinedData {
        /// Which unit.
        dma: DmaKind,
        /// The basic setup word.
        setup: u32,
        /// Memory row being transferred.
        mem_row: u32,
        /// The VPM row.
        row: usize,
        /// Its undefined words that the transfer reads (bit c = column c).
        columns: u16,
    },
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
    /// Per row, the words (bit c = column c) holding an undefined value: a QPU wrote an
    /// undefined lane there. Only a DMA store or a QPU read that uses one is an error.
    undefined: [u16; VPM_ROWS],
    /// Where the latest undefined value written to the VPM was made (for the error).
    undefined_origin: Option<UndefinedOrigin>,
}

/// Where an undefined value in the VPM came from: the writing QPU's description, the PC
/// that made it and, for a read outside memory, the address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndefinedOrigin {
    /// What made it, as the emulator describes it.
    pub what: String,
    /// The instruction that made it.
    pub pc: Option<u32>,
    /// The first address outside memory it was read from, if so made.
    pub address: Option<u32>,
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
            undefined: [0; VPM_ROWS],
            undefined_origin: None,
        }
    }

    /// Where the latest undefined value written to the VPM was made.
    pub fn undefined_origin(&self) -> Option<&UndefinedOrigin> {
        self.undefined_origin.as_ref()
    }

    /// Notes where the undefined lanes of the next write come from.
    pub fn note_undefined_origin(&mut self, origin: UndefinedOrigin) {
        self.undefined_origin = Some(origin);
    }

    /// Marks a word (un)defined. A defined sub-word write leaves the word as it was.
    fn mark(&mut self, slot: Slot, width: Width, undefined: bool) {
        let bit = 1u16 << slot.column;
        if undefined {
            self.undefined[slot.row] |= bit;
        } else if width == Width::Bits32 {
            self.undefined[slot.row] &= !bit;
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

/// Element width of a VPM access: the one type qpu-isa's setup-word builders also use.
pub use qpu_isa::vc4::setup::Width;

/// What this model needs of a width beyond its size.
trait Lanes {
    /// The bits of one element.
    fn mask(self) -> u32;
    /// Elements of this width per 32-bit word.
    fn per_word(self) -> u32;
}

impl Lanes for Width {
    fn mask(self) -> u32 {
        match self {
            Width::Bits8 => 0xff,
            Width::Bits16 => 0xffff,
            Width::Bits32 => u32::MAX,
        }
    }

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

/// Advances an ADDR counter by a stride. The counter is as wide as the address format of the
/// setup's element size: 6 bits for 32-bit vectors (`Y[5:0]`, or `{Y[5:4], X[3:0]}`), 7 for
/// 16-bit and 8 for 8-bit, and wraps there. The guide does not say how wide the counter is.
/// Evidence for the wrap: compiled QPULib stores that produced correct results on Pis write a
/// vertical 32-bit setup with STRIDE 0 (= 64) at Y = 32 once and then one vector per store;
/// every vector must land in rows 32-47 again, which only a 6-bit counter gives (0x20 + 64
/// wraps to 0x20). vc4asm's `vpm_setup` macro relies on the same wrap to encode negative
/// strides as 64 - n.
fn advance(address: u32, stride: u32, width: Width) -> u32 {
    let bits = match width {
        Width::Bits32 => 6,
        Width::Bits16 => 7,
        Width::Bits8 => 8,
    };
    (address + stride) & ((1 << bits) - 1)
}

/// VDW DMA store basic setup (guide table 34): the word as written and its fields, in the
/// type qpu-isa builds such words from (fields read through `Deref`: `setup.units`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VdwSetup {
    /// The word as written.
    pub raw: u32,
    /// UNITS (memory rows, 1..=128), DEPTH (elements per row, 1..=128), HORIZ, the VPM
    /// start (Y 0..=127, X 0..=15), the element width and its lane within each word.
    pub fields: qpu_isa::vc4::setup::VdwSetup,
}

impl std::ops::Deref for VdwSetup {
    type Target = qpu_isa::vc4::setup::VdwSetup;

    fn deref(&self) -> &Self::Target {
        &self.fields
    }
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
            fields: qpu_isa::vc4::setup::VdwSetup {
                units,
                depth,
                horizontal,
                y,
                x,
                width,
                lane,
            },
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
    /// BLOCKMODE. Decoded but without a modelled effect: compiled QPULib stores that gave
    /// correct results on Pis set it (0xC0010000) and still receive, for 16 horizontal
    /// units of depth 1, one VPM row per unit, exactly as with the bit clear. Reading it as
    /// "units packed one after another in the VPM" (one reading of the guide's table 35)
    /// would have given those programs wrong results.
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
        // Table 37: ID [31:28] = 1001, MPITCHB [12:0]. The field is wider on hardware: the
        // VDW stride field was measured at 16 bits (vc4asm), and py-videocore's SGEMM, which
        // gave correct results on Pis at its published size, loads rows with a 12,288-byte
        // pitch through this setup (0x90003000). We decode [15:0] and reject bits [27:16].
        let unused = (value >> 16) & 0xfff;
        if unused != 0 {
            return Err(VpmError::ReservedField {
                kind: SetupKind::VdrPitch,
                value,
                field: "bits [27:16] (unused)",
                field_value: unused,
            });
        }
        Ok(VdrPitchSetup {
            raw: value,
            pitch: value & 0xffff,
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
    /// The lanes of the last [`VpmPort::pop`] read from undefined VPM words.
    popped_undefined: u16,
}

impl VpmPort {
    /// The lanes (bit i = lane i) of the last vector read with [`VpmPort::pop`] that came
    /// from VPM words holding undefined values.
    pub fn popped_undefined(&self) -> u16 {
        self.popped_undefined
    }

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
        self.push_undefined(vpm, lanes, 0)
    }

    /// [`VpmPort::push`] of a vector whose lanes `undefined` (bit i = lane i) hold undefined
    /// values: the VPM words they land in are marked.
    pub fn push_undefined(
        &mut self,
        vpm: &mut VpmMemory,
        lanes: &[u32; 16],
        undefined: u16,
    ) -> Result<(), VpmError> {
        let (setup, address) = self.write.as_mut().ok_or(VpmError::WriteWithoutSetup)?;
        if setup.horizontal && setup.width == Width::Bits32 {
            // The common case (a whole row) without the per-lane address arithmetic.
            let index = *address as usize;
            let row = vpm
                .words
                .get_mut(index)
                .ok_or(VpmError::GenericOutOfRange {
                    kind: SetupKind::GenericWrite,
                    setup: setup.raw,
                    address: *address,
                    row: index,
                })?;
            *row = *lanes;
            vpm.undefined[index] = undefined;
            *address = advance(*address, setup.stride, setup.width);
            return Ok(());
        }
        let slots = setup.slots(*address, SetupKind::GenericWrite)?;
        for (lane, (slot, &value)) in slots.iter().zip(lanes).enumerate() {
            vpm.put(*slot, setup.width, value);
            vpm.mark(*slot, setup.width, undefined & (1 << lane) != 0);
        }
        *address = advance(*address, setup.stride, setup.width);
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
        let setup = stream.setup;
        let lanes = if setup.horizontal && setup.width == Width::Bits32 {
            // The common case (a whole row) without the per-lane address arithmetic.
            let index = stream.address as usize;
            let row = *vpm.words.get(index).ok_or(VpmError::GenericOutOfRange {
                kind: SetupKind::GenericRead,
                setup: setup.raw,
                address: stream.address,
                row: index,
            })?;
            self.popped_undefined = vpm.undefined[index];
            row
        } else {
            let slots = setup.slots(stream.address, SetupKind::GenericRead)?;
            let mut lanes = [0; 16];
            self.popped_undefined = 0;
            for (i, (lane, slot)) in lanes.iter_mut().zip(&slots).enumerate() {
                *lane = vpm.get(*slot, setup.width);
                if vpm.undefined[slot.row] & (1 << slot.column) != 0 {
                    self.popped_undefined |= 1 << i;
                }
            }
            lanes
        };
        stream.address = advance(stream.address, setup.stride, setup.width);
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
    /// a VPM row (horizontal) or down a column (vertical) from VPMBASE, and the next unit
    /// starts one row (horizontal) or one column (vertical) further. BLOCKMODE does not
    /// change that (see [`VdwStrideSetup::block_mode`] for the hardware evidence).
    ///
    /// 8- and 16-bit modes take each element from the byte/half-word lane MODEW selects in
    /// successive VPM words. Ambiguous: the guide calls that offset "packed only", which
    /// could also mean elements packed several per word; we chose laned access because the
    /// VDR's VPITCH steps the same lane select row by row (table 36), which only makes sense
    /// for lanes, and because then a load and a store with the same shape round-trip.
    pub fn start_vdw(
        &mut self,
        vpm: &VpmMemory,
        mem: &mut LendingMemory<'_>,
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
        // One VPM row (horizontal) or column (vertical) per unit, whatever BLOCKMODE says.
        let unit_step = VPM_COLUMNS as u32;
        let row_bytes = setup.depth * width.bytes();
        let transfer = DmaTransfer {
            bytes: setup.units * row_bytes,
            rows: setup.units,
        };
        // Horizontal 32-bit units are runs of consecutive VPM words (rows of 16 words laid
        // end to end). When the whole transfer lies inside the VPM, copy each run straight
        // into memory; otherwise the element loop below finds and reports the first word
        // out of range.
        let end = start + (setup.units - 1) * unit_step + setup.depth;
        if setup.horizontal && width == Width::Bits32 && end as usize <= VPM_ROWS * VPM_COLUMNS {
            let words = vpm.words.as_flattened();
            // With a zero stride the units land end to end in memory (guide section 7: each
            // row is followed by STRIDE bytes), so a transfer whose words are all defined and
            // whose whole memory range is one writable allocation is one copy. Anything else
            // (undefined words, an address or range the per-unit loop would report) takes
            // that loop, which finds the same first failing unit as before.
            let defined = || {
                let rows = start as usize / VPM_COLUMNS..=(end as usize - 1) / VPM_COLUMNS;
                vpm.undefined[rows].iter().all(|&m| m == 0)
            };
            if stride.stride == 0
                && row_bytes != 0
                && addr.is_multiple_of(4)
                && u64::from(addr) + u64::from(transfer.bytes) <= 1 << 32
                && defined()
            {
                if let Ok(bytes) = mem.bytes_mut(addr, transfer.bytes) {
                    for (unit, chunk) in bytes.chunks_exact_mut(row_bytes as usize).enumerate() {
                        let first = start as usize + unit * VPM_COLUMNS;
                        let run = &words[first..first + setup.depth as usize];
                        for (bytes, word) in chunk.chunks_exact_mut(4).zip(run) {
                            bytes.copy_from_slice(&word.to_le_bytes());
                        }
                    }
                    return Ok(transfer);
                }
            }
            for unit in 0..setup.units {
                let mem_addr = u64::from(addr)
                    + u64::from(unit) * (u64::from(row_bytes) + u64::from(stride.stride));
                let mem_addr = check_row_address(dma, setup.raw, unit, mem_addr, width)?;
                let first = (start + unit * unit_step) as usize;
                let run = &words[first..first + setup.depth as usize];
                // The first VPM row of the run with undefined words, and those words.
                let mut undefined: Option<(usize, u16)> = None;
                let rows = first / VPM_COLUMNS..=(first + setup.depth as usize - 1) / VPM_COLUMNS;
                let marked = vpm.undefined[rows].iter().any(|&m| m != 0);
                for index in (first..first + setup.depth as usize).filter(|_| marked) {
                    let (row, column) = (index / VPM_COLUMNS, index % VPM_COLUMNS);
                    if vpm.undefined[row] & (1 << column) != 0 {
                        match &mut undefined {
                            None => undefined = Some((row, 1 << column)),
                            Some((r, columns)) if *r == row => *columns |= 1 << column,
                            Some(_) => {}
                        }
                    }
                }
                if let Some((row, columns)) = undefined {
                    return Err(VpmError::UndefinedData {
                        dma,
                        setup: setup.raw,
                        mem_row: unit,
                        row,
                        columns,
                    });
                }
                let bytes =
                    mem.bytes_mut(mem_addr, row_bytes)
                        .map_err(|source| VpmError::DmaMemory {
                            dma,
                            setup: setup.raw,
                            mem_row: unit,
                            addr: mem_addr,
                            source,
                        })?;
                for (chunk, word) in bytes.chunks_exact_mut(4).zip(run) {
                    chunk.copy_from_slice(&word.to_le_bytes());
                }
            }
            return Ok(transfer);
        }
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
                if vpm.undefined[row] & (1 << column) != 0 {
                    return Err(VpmError::UndefinedData {
                        dma,
                        setup: setup.raw,
                        mem_row: unit,
                        row,
                        columns: 1 << column,
                    });
                }
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
        Ok(transfer)
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
        mem: &LendingMemory<'_>,
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
                let slot = Slot { row, column, shift };
                vpm.put(slot, width, u32::from_le_bytes(value));
                vpm.mark(slot, width, false);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Memory;

    /// Lane values whose bytes all differ, so misplaced bytes show up.
    fn lanes(seed: u32) -> [u32; 16] {
        std::array::from_fn(|i| (seed << 24) | ((i as u32 + 1) * 0x0001_0203) ^ 0x00a0_b0c0)
    }

    /// A VPM whose every word is distinct, with the same contents in a plain model array.
    fn patterned_vpm() -> (VpmMemory, [[u32; 16]; 64]) {
        let mut vpm = VpmMemory::new();
        let mut model = [[0u32; 16]; 64];
        for (row, model_row) in model.iter_mut().enumerate() {
            for (column, word) in model_row.iter_mut().enumerate() {
                *word = 0x8000_0000 | ((row as u32) << 16) | ((column as u32) << 8) | 0x5a;
                assert!(vpm.set_word(row, column, *word));
            }
        }
        (vpm, model)
    }

    fn assert_vpm_eq(vpm: &VpmMemory, model: &[[u32; 16]; 64]) {
        for (row, model_row) in model.iter().enumerate() {
            assert_eq!(vpm.row(row).unwrap(), model_row, "VPM row {row}");
        }
    }

    // ---- setup word decoding, against fields computed by hand --------------------------

    #[test]
    fn decodes_generic_setups() {
        // Seed hello world: horizontal, 32-bit, Y = 0, STRIDE 0 which means 64.
        let setup = GenericSetup::decode(0xa00, false).unwrap();
        assert_eq!(
            setup,
            GenericSetup {
                raw: 0xa00,
                count: None,
                stride: 64,
                horizontal: true,
                laned: false,
                width: Width::Bits32,
                address: 0,
            }
        );
        // NUM 4, STRIDE 1, horizontal 32-bit, Y = 3.
        let setup = GenericSetup::decode(0x0040_1a03, true).unwrap();
        assert_eq!(
            (
                setup.count,
                setup.stride,
                setup.horizontal,
                setup.width,
                setup.address
            ),
            (Some(4), 1, true, Width::Bits32, 3)
        );
        // NUM 15, STRIDE 2, horizontal laned 16-bit, ADDR 5 = {Y = 2, H = 1}.
        let setup = GenericSetup::decode(0x00f0_2d05, true).unwrap();
        assert_eq!(
            (
                setup.count,
                setup.stride,
                setup.horizontal,
                setup.laned,
                setup.width
            ),
            (Some(15), 2, true, true, Width::Bits16)
        );
        assert_eq!(setup.address, 5);
        // NUM 0 means 16; vertical packed 8-bit, STRIDE 63.
        let setup = GenericSetup::decode(0x0003_f0cb, true).unwrap();
        assert_eq!(
            (
                setup.count,
                setup.stride,
                setup.horizontal,
                setup.laned,
                setup.width
            ),
            (Some(16), 63, false, false, Width::Bits8)
        );
        assert_eq!(setup.address, 0xcb);
        assert_eq!(
            GenericSetup::decode(0x300, false),
            Err(VpmError::ReservedField {
                kind: SetupKind::GenericWrite,
                value: 0x300,
                field: "SIZE",
                field_value: 3
            })
        );
    }

    #[test]
    fn decodes_vdw_setups() {
        // Seed hello world: UNITS 16, DEPTH 1, vertical, VPMBASE 0, 32-bit.
        assert_eq!(
            VdwSetup::decode(0x8801_0000).unwrap(),
            VdwSetup {
                raw: 0x8801_0000,
                fields: qpu_isa::vc4::setup::VdwSetup {
                    units: 16,
                    depth: 1,
                    horizontal: false,
                    y: 0,
                    x: 0,
                    width: Width::Bits32,
                    lane: 0,
                },
            }
        );
        // 4 units of 16, horizontal: 0x8000_0000 | 4 << 23 | 16 << 16 | 1 << 14.
        let setup = VdwSetup::decode(0x8210_4000).unwrap();
        assert_eq!((setup.units, setup.depth, setup.horizontal), (4, 16, true));
        // UNITS 0 and DEPTH 0 mean 128; Y = 5, X = 3, 8-bit from byte 2.
        let setup = VdwSetup::decode(0x8000_429e).unwrap();
        assert_eq!(
            (
                setup.units,
                setup.depth,
                setup.y,
                setup.x,
                setup.width,
                setup.lane
            ),
            (128, 128, 5, 3, Width::Bits8, 2)
        );
        // 16-bit, half-word 1, Y = 127, X = 15.
        let setup = VdwSetup::decode(0x8081_7ffb).unwrap();
        assert_eq!(
            (
                setup.units,
                setup.depth,
                setup.y,
                setup.x,
                setup.width,
                setup.lane
            ),
            (1, 1, 127, 15, Width::Bits16, 1)
        );
        assert!(matches!(
            VdwSetup::decode(0x8000_4001),
            Err(VpmError::ReservedField {
                field: "MODEW",
                field_value: 1,
                ..
            })
        ));
        assert!(matches!(
            VdwSetup::decode(0x8000_8000),
            Err(VpmError::ReservedField { field_value: 1, .. })
        ));
    }

    #[test]
    fn decodes_vdw_stride_with_sixteen_bits() {
        assert_eq!(
            VdwStrideSetup::decode(0xc001_fff0).unwrap(),
            VdwStrideSetup {
                raw: 0xc001_fff0,
                block_mode: true,
                stride: 0xfff0
            }
        );
        assert_eq!(VdwStrideSetup::decode(0xc000_0040).unwrap().stride, 64);
        assert!(!VdwStrideSetup::decode(0xc000_0040).unwrap().block_mode);
        assert!(matches!(
            VdwStrideSetup::decode(0xc002_0000),
            Err(VpmError::ReservedField { field_value: 1, .. })
        ));
    }

    #[test]
    fn decodes_vdr_setups() {
        // MPITCH 3 (64 bytes), ROWLEN 0 (16), NROWS 2, VPITCH 1, horizontal, Y = 2, X = 0.
        assert_eq!(
            VdrSetup::decode(0x8302_1020).unwrap(),
            VdrSetup {
                raw: 0x8302_1020,
                width: Width::Bits32,
                lane: 0,
                memory_pitch: Some(64),
                row_length: 16,
                rows: 2,
                vpm_pitch: 1,
                vertical: false,
                y: 2,
                x: 0,
            }
        );
        // 1<<31 | 7<<28 | 5<<24 | 10<<20 | 3<<16 | 8<<12 | 1<<11 | 0x45<<4 | 11.
        assert_eq!(
            VdrSetup::decode(0xf5a3_8c5b).unwrap(),
            VdrSetup {
                raw: 0xf5a3_8c5b,
                width: Width::Bits8,
                lane: 3,
                memory_pitch: Some(256),
                row_length: 10,
                rows: 3,
                vpm_pitch: 8,
                vertical: true,
                y: 0x45,
                x: 11,
            }
        );
        // MPITCH 0 selects the extended pitch; NROWS 0 and VPITCH 0 mean 16; 16-bit H = 0.
        let setup = VdrSetup::decode(0xa010_0000).unwrap();
        assert_eq!(
            (
                setup.memory_pitch,
                setup.row_length,
                setup.rows,
                setup.vpm_pitch
            ),
            (None, 1, 16, 16)
        );
        assert_eq!((setup.width, setup.lane), (Width::Bits16, 0));
        assert_eq!(
            VdrPitchSetup::decode(0x9000_1abc).unwrap(),
            VdrPitchSetup {
                raw: 0x9000_1abc,
                pitch: 0x1abc
            }
        );
        // The pitch is 16 bits wide (py-videocore's SGEMM loads with 0x90003000 = 12,288
        // bytes on Pis); bits above are rejected.
        assert_eq!(VdrPitchSetup::decode(0x9000_3000).unwrap().pitch, 12_288);
        assert_eq!(VdrPitchSetup::decode(0x9000_ffff).unwrap().pitch, 0xffff);
        assert!(matches!(
            VdrPitchSetup::decode(0x9001_0000),
            Err(VpmError::ReservedField { field_value: 1, .. })
        ));
    }

    #[test]
    fn register_49_words_are_routed_by_their_id_bits() {
        assert!(matches!(
            ReadSetupWord::decode(0x0040_1a03),
            Ok(ReadSetupWord::Generic(_))
        ));
        assert!(matches!(
            ReadSetupWord::decode(0x8302_1020),
            Ok(ReadSetupWord::Vdr(_))
        ));
        assert!(matches!(
            ReadSetupWord::decode(0x9000_0040),
            Ok(ReadSetupWord::VdrPitch(_))
        ));
        assert_eq!(
            ReadSetupWord::decode(0x4000_0000),
            Err(VpmError::UnknownSetup {
                kind: SetupKind::ReadRegister,
                value: 0x4000_0000
            })
        );
        assert!(matches!(
            WriteSetupWord::decode(0xa00),
            Ok(WriteSetupWord::Generic(_))
        ));
        assert!(matches!(
            WriteSetupWord::decode(0x8801_0000),
            Ok(WriteSetupWord::Vdw(_))
        ));
        assert!(matches!(
            WriteSetupWord::decode(0xc000_0000),
            Ok(WriteSetupWord::VdwStride(_))
        ));
        assert_eq!(
            WriteSetupWord::decode(0x4000_0a00),
            Err(VpmError::UnknownSetup {
                kind: SetupKind::WriteRegister,
                value: 0x4000_0a00
            })
        );
    }

    // ---- generic writes and reads ------------------------------------------------------

    #[test]
    fn hello_world_writes_sixteen_consecutive_words() {
        let mut mem = Memory::new();
        let out = mem.alloc(128, 64).unwrap();
        mem.write_u32s(out, &[0xaaaa_aaaa; 32]).unwrap();
        let mut vpm = VpmMemory::new();
        let mut port = VpmPort::new();
        let values: [u32; 16] = std::array::from_fn(|i| 100 + 0x1234 + i as u32);
        port.write_vw_setup(0xa00).unwrap();
        port.push(&mut vpm, &values).unwrap();
        assert_eq!(vpm.row(0).unwrap(), &values);
        port.write_vw_setup(0x8801_0000).unwrap();
        let transfer = port.start_vdw(&vpm, &mut mem, out).unwrap();
        assert_eq!(
            transfer,
            DmaTransfer {
                bytes: 64,
                rows: 16
            }
        );
        let words = mem.read_u32s(out, 32).unwrap();
        assert_eq!(&words[..16], &values);
        assert_eq!(&words[16..], &[0xaaaa_aaaa; 16]);
    }

    #[test]
    fn horizontal_32_bit_writes_follow_the_stride() {
        let (mut vpm, mut model) = patterned_vpm();
        let mut port = VpmPort::new();
        // STRIDE 2, horizontal 32-bit, Y = 1: vectors land in rows 1, 3, 5.
        port.write_vw_setup(0x2a01).unwrap();
        for (k, row) in [1usize, 3, 5].into_iter().enumerate() {
            let v = lanes(k as u32);
            port.push(&mut vpm, &v).unwrap();
            model[row] = v;
        }
        assert_vpm_eq(&vpm, &model);
    }

    #[test]
    fn vertical_32_bit_writes_run_down_columns() {
        let (mut vpm, mut model) = patterned_vpm();
        let mut port = VpmPort::new();
        // STRIDE 1, vertical 32-bit, ADDR = {Y[5:4] = 1, X = 5}: column 5 then 6, rows 16-31.
        port.write_vw_setup(0x1215).unwrap();
        for (k, column) in [5usize, 6].into_iter().enumerate() {
            let v = lanes(k as u32);
            port.push(&mut vpm, &v).unwrap();
            for i in 0..16 {
                model[16 + i][column] = v[i];
            }
        }
        assert_vpm_eq(&vpm, &model);
    }

    #[test]
    fn sixteen_bit_writes_packed_and_laned() {
        let (mut vpm, mut model) = patterned_vpm();
        let mut port = VpmPort::new();
        let v = lanes(1);
        // Packed horizontal 16-bit, ADDR = {Y = 3, H = 1}: 8 words, the right half of row 3,
        // two elements per word, the even element in the low half.
        port.write_vw_setup(0x907).unwrap();
        port.push(&mut vpm, &v).unwrap();
        for j in 0..8 {
            model[3][8 + j] = (v[2 * j] & 0xffff) | (v[2 * j + 1] << 16);
        }
        // Laned horizontal 16-bit, ADDR = {Y = 4, H = 1}: the high half of each word.
        port.write_vw_setup(0xd09).unwrap();
        port.push(&mut vpm, &v).unwrap();
        for i in 0..16 {
            model[4][i] = (model[4][i] & 0xffff) | (v[i] << 16);
        }
        // Laned vertical 16-bit, ADDR = {Y[5:4] = 2, X = 7, H = 0}: low halves of column 7,
        // rows 32-47.
        port.write_vw_setup(0x54e).unwrap();
        port.push(&mut vpm, &v).unwrap();
        for i in 0..16 {
            model[32 + i][7] = (model[32 + i][7] & 0xffff_0000) | (v[i] & 0xffff);
        }
        // Packed vertical 16-bit, ADDR = {Y[5:4] = 3, X = 9, H = 1}: rows 56-63 of column 9.
        port.write_vw_setup(0x173).unwrap();
        port.push(&mut vpm, &v).unwrap();
        for j in 0..8 {
            model[56 + j][9] = (v[2 * j] & 0xffff) | (v[2 * j + 1] << 16);
        }
        assert_vpm_eq(&vpm, &model);
    }

    #[test]
    fn eight_bit_writes_packed_and_laned() {
        let (mut vpm, mut model) = patterned_vpm();
        let mut port = VpmPort::new();
        let v = lanes(2);
        let byte = |i: usize| v[i] & 0xff;
        // Laned horizontal 8-bit, ADDR = {Y = 2, B = 2}: byte 2 of each word of row 2.
        port.write_vw_setup(0xc0a).unwrap();
        port.push(&mut vpm, &v).unwrap();
        for (i, word) in model[2].iter_mut().enumerate() {
            *word = (*word & 0xff00_ffff) | (byte(i) << 16);
        }
        // Packed horizontal 8-bit, ADDR = {Y = 6, B = 1}: words 4-7 of row 6, 4 per word.
        port.write_vw_setup(0x819).unwrap();
        port.push(&mut vpm, &v).unwrap();
        for j in 0..4 {
            model[6][4 + j] = byte(4 * j)
                | (byte(4 * j + 1) << 8)
                | (byte(4 * j + 2) << 16)
                | (byte(4 * j + 3) << 24);
        }
        // Packed vertical 8-bit, ADDR = {Y[5:4] = 3, X = 2, B = 3}: rows 60-63 of column 2.
        port.write_vw_setup(0x0cb).unwrap();
        port.push(&mut vpm, &v).unwrap();
        for j in 0..4 {
            model[60 + j][2] = byte(4 * j)
                | (byte(4 * j + 1) << 8)
                | (byte(4 * j + 2) << 16)
                | (byte(4 * j + 3) << 24);
        }
        // Laned vertical 8-bit, ADDR = {Y[5:4] = 1, X = 14, B = 0}: byte 0 of column 14.
        port.write_vw_setup(0x478).unwrap();
        port.push(&mut vpm, &v).unwrap();
        for i in 0..16 {
            model[16 + i][14] = (model[16 + i][14] & 0xffff_ff00) | byte(i);
        }
        assert_vpm_eq(&vpm, &model);
    }

    #[test]
    fn reads_extract_and_zero_extend() {
        let (vpm, model) = patterned_vpm();
        let mut port = VpmPort::new();
        // NUM 1, horizontal 32-bit, Y = 9.
        port.write_vr_setup(0x0010_0a09).unwrap();
        assert_eq!(port.pop(&vpm).unwrap(), model[9]);
        // NUM 1, vertical 32-bit, {Y[5:4] = 2, X = 4}.
        port.write_vr_setup(0x0010_0224).unwrap();
        let expected: [u32; 16] = std::array::from_fn(|i| model[32 + i][4]);
        assert_eq!(port.pop(&vpm).unwrap(), expected);
        // NUM 1, laned horizontal 16-bit, {Y = 5, H = 1}: high halves, zero-extended.
        port.write_vr_setup(0x0010_0d0b).unwrap();
        let expected: [u32; 16] = std::array::from_fn(|i| model[5][i] >> 16);
        assert_eq!(port.pop(&vpm).unwrap(), expected);
        // NUM 1, packed horizontal 8-bit, {Y = 7, B = 3}: bytes of words 12-15.
        port.write_vr_setup(0x0010_081f).unwrap();
        let expected: [u32; 16] =
            std::array::from_fn(|i| (model[7][12 + i / 4] >> (8 * (i % 4))) & 0xff);
        assert_eq!(port.pop(&vpm).unwrap(), expected);
        // NUM 1, laned vertical 8-bit, {Y[5:4] = 0, X = 1, B = 1}.
        port.write_vr_setup(0x0010_0405).unwrap();
        let expected: [u32; 16] = std::array::from_fn(|i| (model[i][1] >> 8) & 0xff);
        assert_eq!(port.pop(&vpm).unwrap(), expected);
    }

    #[test]
    fn packed_16_bit_reads_step_half_rows() {
        let (vpm, model) = patterned_vpm();
        let mut port = VpmPort::new();
        // NUM 3, STRIDE 1, packed horizontal 16-bit from {Y = 0, H = 0}: the left half of
        // row 0, its right half, then the left half of row 1.
        port.write_vr_setup(0x0030_1900).unwrap();
        assert_eq!(port.pending_reads(), 3);
        for (row, half) in [(0usize, 0usize), (0, 1), (1, 0)] {
            let expected: [u32; 16] =
                std::array::from_fn(|i| (model[row][8 * half + i / 2] >> (16 * (i % 2))) & 0xffff);
            assert_eq!(port.pop(&vpm).unwrap(), expected, "row {row} half {half}");
        }
        assert_eq!(port.pending_reads(), 0);
    }

    // ---- VDR loads -----------------------------------------------------------------------

    #[test]
    fn vdr_load_of_rows_then_generic_reads() {
        let mut mem = Memory::new();
        let src = mem.alloc(4 * 64, 64).unwrap();
        let data: Vec<u32> = (0..64)
            .map(|i| 0x0100_0000 * (i / 16) + i * 3 + 7)
            .collect();
        mem.write_u32s(src, &data).unwrap();
        let (mut vpm, mut model) = patterned_vpm();
        let mut port = VpmPort::new();
        // MPITCH 3 (64 bytes), ROWLEN 16, NROWS 4, VPITCH 1, horizontal, Y = 8.
        port.write_vr_setup(0x8304_1080).unwrap();
        let transfer = port.start_vdr(&mut vpm, &mem, src).unwrap();
        assert_eq!(
            transfer,
            DmaTransfer {
                bytes: 256,
                rows: 4
            }
        );
        for r in 0..4 {
            for i in 0..16 {
                model[8 + r][i] = data[16 * r + i];
            }
        }
        assert_vpm_eq(&vpm, &model);
        // NUM 4, STRIDE 1, horizontal 32-bit from Y = 8.
        port.write_vr_setup(0x0040_1a08).unwrap();
        for r in 0..4 {
            assert_eq!(port.pending_reads(), 4 - r as u32);
            assert_eq!(
                port.pop(&vpm).unwrap().as_slice(),
                &data[16 * r..16 * r + 16]
            );
        }
        assert_eq!(
            port.pop(&vpm),
            Err(VpmError::ReadsExhausted {
                setup: 0x0040_1a08,
                count: 4
            })
        );
    }

    #[test]
    fn vdr_extended_pitch_short_rows_and_x_offset() {
        let mut mem = Memory::new();
        let src = mem.alloc(400, 4).unwrap();
        let data: Vec<u32> = (0..100).map(|i| 0xc0de_0000 + i).collect();
        mem.write_u32s(src, &data).unwrap();
        let (mut vpm, mut model) = patterned_vpm();
        let mut port = VpmPort::new();
        // Extended pitch 100 bytes; basic: MPITCH 0, ROWLEN 5, NROWS 3, VPITCH 2,
        // horizontal, Y = 10, X = 3.
        port.write_vr_setup(0x9000_0064).unwrap();
        port.write_vr_setup(0x8053_20a3).unwrap();
        let transfer = port.start_vdr(&mut vpm, &mem, src + 8).unwrap();
        assert_eq!(transfer, DmaTransfer { bytes: 60, rows: 3 });
        for r in 0..3 {
            for i in 0..5 {
                // Row r starts 100 bytes (25 words) after the previous one.
                model[10 + 2 * r][3 + i] = data[2 + 25 * r + i];
            }
        }
        assert_vpm_eq(&vpm, &model);
    }

    #[test]
    fn vdr_vertical_with_vpitch_16_fills_one_column() {
        // The measured program: 4 rows of 16 words, vertical, VPITCH 0 (= 16), X = 15.
        let mut mem = Memory::new();
        let src = mem.alloc(256, 64).unwrap();
        let data: Vec<u32> = (0..64).map(|i| i * 0x0101_0101).collect();
        mem.write_u32s(src, &data).unwrap();
        let (mut vpm, mut model) = patterned_vpm();
        let mut port = VpmPort::new();
        port.write_vr_setup(0x8304_080f).unwrap();
        port.start_vdr(&mut vpm, &mem, src).unwrap();
        for (k, &value) in data.iter().enumerate() {
            model[k][15] = value;
        }
        assert_vpm_eq(&vpm, &model);
    }

    #[test]
    fn vdr_8_bit_rows_fill_byte_lanes_then_laned_reads_return_them() {
        let mut mem = Memory::new();
        let src = mem.alloc(64, 16).unwrap();
        let bytes: Vec<u8> = (0..64u32).map(|i| (i * 7 + 3) as u8).collect();
        mem.write_bytes(src, &bytes).unwrap();
        let (mut vpm, mut model) = patterned_vpm();
        let mut port = VpmPort::new();
        // 8-bit from byte 0, MPITCH 1 (16 bytes), ROWLEN 16, NROWS 4, VPITCH 1, horizontal,
        // Y = 20: memory row r goes to byte lane r of the words of VPM row 20.
        port.write_vr_setup(0xc104_1140).unwrap();
        let transfer = port.start_vdr(&mut vpm, &mem, src).unwrap();
        assert_eq!(transfer, DmaTransfer { bytes: 64, rows: 4 });
        for (i, word) in model[20].iter_mut().enumerate() {
            *word = u32::from_le_bytes([bytes[i], bytes[16 + i], bytes[32 + i], bytes[48 + i]]);
        }
        assert_vpm_eq(&vpm, &model);
        // NUM 4, STRIDE 1, laned horizontal 8-bit from {Y = 20, B = 0}.
        port.write_vr_setup(0x0040_1c50).unwrap();
        for r in 0..4 {
            let expected: [u32; 16] = std::array::from_fn(|i| u32::from(bytes[16 * r + i]));
            assert_eq!(port.pop(&vpm).unwrap(), expected, "memory row {r}");
        }
    }

    // ---- VDW stores ----------------------------------------------------------------------

    #[test]
    fn vdw_horizontal_rows_with_memory_stride() {
        let (vpm, model) = patterned_vpm();
        let mut mem = Memory::new();
        let out = mem.alloc(4 * 72, 4).unwrap();
        mem.write_u32s(out, &[0xaaaa_aaaa; 72]).unwrap();
        let mut port = VpmPort::new();
        // Stride 8 bytes; 3 units of 16, horizontal, Y = 1, X = 0.
        port.write_vw_setup(0xc000_0008).unwrap();
        port.write_vw_setup(0x8190_4080).unwrap();
        let transfer = port.start_vdw(&vpm, &mut mem, out).unwrap();
        assert_eq!(
            transfer,
            DmaTransfer {
                bytes: 192,
                rows: 3
            }
        );
        let mut expected = vec![0xaaaa_aaaa; 72];
        for unit in 0..3 {
            // Each memory row is 64 bytes plus the 8-byte stride: 18 words apart.
            expected[18 * unit..18 * unit + 16].copy_from_slice(&model[1 + unit]);
        }
        assert_eq!(mem.read_u32s(out, 72).unwrap(), expected);
    }

    #[test]
    fn vdw_block_mode_bit_keeps_one_row_per_horizontal_unit() {
        // The hardware-proven compiled store: stride setup 0xC0010000 (block mode, stride 0),
        // then 16 horizontal units of depth 1 at Y = 32, X = h: memory word r receives VPM
        // row 32 + r, column h, with or without the bit.
        let (vpm, model) = patterned_vpm();
        for stride_setup in [0xc001_0000, 0xc000_0000] {
            for h in [0u32, 5, 15] {
                let mut mem = Memory::new();
                let out = mem.alloc(64, 4).unwrap();
                let mut port = VpmPort::new();
                port.write_vw_setup(stride_setup).unwrap();
                port.write_vw_setup(0x8801_5000 | h << 3).unwrap();
                port.start_vdw(&vpm, &mut mem, out).unwrap();
                let expected: Vec<u32> = (32..48).map(|row| model[row][h as usize]).collect();
                assert_eq!(
                    mem.read_u32s(out, 16).unwrap(),
                    expected,
                    "{stride_setup:#x} h={h}"
                );
            }
        }
    }

    #[test]
    fn vdw_vertical_units_of_depth_one_read_a_row() {
        // 16 vertical units of depth 1 at Y = 16, X = 0: unit r is column r of row 16 (the
        // seed hello world's store shape), block mode or not.
        let (vpm, model) = patterned_vpm();
        for stride_setup in [0xc001_0000, 0xc000_0000] {
            let mut mem = Memory::new();
            let out = mem.alloc(64, 4).unwrap();
            let mut port = VpmPort::new();
            port.write_vw_setup(stride_setup).unwrap();
            port.write_vw_setup(0x8801_0800).unwrap();
            port.start_vdw(&vpm, &mut mem, out).unwrap();
            assert_eq!(mem.read_u32s(out, 16).unwrap(), model[16].to_vec());
        }
    }

    #[test]
    fn vdw_vertical_units_carry_from_x15_into_the_next_row_block() {
        let (vpm, model) = patterned_vpm();
        let mut mem = Memory::new();
        let out = mem.alloc(24, 4).unwrap();
        let mut port = VpmPort::new();
        // 3 units of depth 2, vertical, Y = 0, X = 15, block mode off.
        port.write_vw_setup(0x8182_0078).unwrap();
        port.start_vdw(&vpm, &mut mem, out).unwrap();
        let expected = vec![
            model[0][15],
            model[1][15],
            model[16][0],
            model[17][0],
            model[16][1],
            model[17][1],
        ];
        assert_eq!(mem.read_u32s(out, 6).unwrap(), expected);
    }

    #[test]
    fn vdw_16_bit_takes_the_selected_half_words() {
        let (vpm, model) = patterned_vpm();
        let mut mem = Memory::new();
        let out = mem.alloc(64, 4).unwrap();
        let mut port = VpmPort::new();
        // 2 units of 16, horizontal, Y = 5, 16-bit with MODEW 3 (half-word 1).
        port.write_vw_setup(0x8110_4283).unwrap();
        let transfer = port.start_vdw(&vpm, &mut mem, out).unwrap();
        assert_eq!(transfer, DmaTransfer { bytes: 64, rows: 2 });
        let mut expected = Vec::new();
        for row in [5, 6] {
            for word in model[row] {
                expected.extend_from_slice(&((word >> 16) as u16).to_le_bytes());
            }
        }
        assert_eq!(mem.read_bytes(out, 64).unwrap(), expected.as_slice());
    }

    #[test]
    fn vdw_stride_beyond_13_bits_is_honoured() {
        let (vpm, model) = patterned_vpm();
        let mut mem = Memory::new();
        let out = mem.alloc(0xa000, 4).unwrap();
        let mut port = VpmPort::new();
        // Stride 0x9000 needs bit 15; 2 units of depth 1, horizontal, Y = 0, X = 0.
        port.write_vw_setup(0xc000_9000).unwrap();
        port.write_vw_setup(0x8101_4000).unwrap();
        port.start_vdw(&vpm, &mut mem, out).unwrap();
        assert_eq!(mem.read_u32(out).unwrap(), model[0][0]);
        assert_eq!(mem.read_u32(out + 4 + 0x9000).unwrap(), model[1][0]);
    }

    #[test]
    fn vdr_then_vdw_round_trips_16_bit_rows() {
        let mut mem = Memory::new();
        let src = mem.alloc(32 * 3, 4).unwrap();
        let dst = mem.alloc(32 * 3, 4).unwrap();
        let bytes: Vec<u8> = (0..96u32).map(|i| (i * 37 + 11) as u8).collect();
        mem.write_bytes(src, &bytes).unwrap();
        let mut vpm = VpmMemory::new();
        let mut port = VpmPort::new();
        // VDR: 16-bit H = 1, MPITCH 2 (32 bytes), ROWLEN 16, NROWS 3, VPITCH 2 ({Y, H} += 2,
        // so each row lands in the high halves of the next VPM row), horizontal, Y = 40.
        port.write_vr_setup(0xb203_2280).unwrap();
        port.start_vdr(&mut vpm, &mem, src).unwrap();
        // VDW: 3 units of 16, horizontal, Y = 40, 16-bit H = 1: the same shape back.
        port.write_vw_setup(0x8190_5403).unwrap();
        port.start_vdw(&vpm, &mut mem, dst).unwrap();
        assert_eq!(mem.read_bytes(dst, 96).unwrap(), bytes.as_slice());
    }

    // ---- errors ----------------------------------------------------------------------------

    #[test]
    fn reads_and_writes_need_setups() {
        let mut vpm = VpmMemory::new();
        let mut port = VpmPort::new();
        assert_eq!(port.pop(&vpm), Err(VpmError::ReadWithoutSetup));
        assert_eq!(
            port.push(&mut vpm, &[0; 16]),
            Err(VpmError::WriteWithoutSetup)
        );
        assert_eq!(port.pending_reads(), 0);
    }

    #[test]
    fn a_read_setup_is_refused_while_two_reads_remain() {
        let (vpm, model) = patterned_vpm();
        let mut port = VpmPort::new();
        // NUM 2, horizontal 32-bit, Y = 0, STRIDE 1.
        port.write_vr_setup(0x0020_1a00).unwrap();
        assert_eq!(
            port.write_vr_setup(0x0020_1a10),
            Err(VpmError::ReadSetupWhilePending {
                value: 0x0020_1a10,
                remaining: 2
            })
        );
        // With one read left, the new setup queues behind it *[measured]*.
        assert_eq!(port.pop(&vpm).unwrap(), model[0]);
        port.write_vr_setup(0x0020_1a10).unwrap();
        assert_eq!(port.pending_reads(), 3);
        assert_eq!(port.pop(&vpm).unwrap(), model[1]);
        assert_eq!(port.pop(&vpm).unwrap(), model[16]);
        assert_eq!(port.pop(&vpm).unwrap(), model[17]);
        assert!(matches!(
            port.pop(&vpm),
            Err(VpmError::ReadsExhausted {
                setup: 0x0020_1a10,
                count: 2
            })
        ));
    }

    #[test]
    fn generic_accesses_beyond_row_63_are_errors() {
        let mut vpm = VpmMemory::new();
        let mut port = VpmPort::new();
        // Horizontal 32-bit with ADDR = 0x40 (Y = 64).
        port.write_vw_setup(0xa40).unwrap();
        assert_eq!(
            port.push(&mut vpm, &[1; 16]),
            Err(VpmError::GenericOutOfRange {
                kind: SetupKind::GenericWrite,
                setup: 0xa40,
                address: 0x40,
                row: 64
            })
        );
        // Vertical 32-bit at {Y[5:4] = 3, X = 0}, STRIDE 16: the 6-bit counter wraps, so
        // the second vector lands at {Y[5:4] = 0, X = 0}, rows 0-15 of column 0.
        port.write_vw_setup(0x10230).unwrap();
        port.push(&mut vpm, &[2; 16]).unwrap();
        assert_eq!(vpm.word(63, 0), Some(2));
        port.push(&mut vpm, &[3; 16]).unwrap();
        assert_eq!(
            (vpm.word(0, 0), vpm.word(15, 0), vpm.word(16, 0)),
            (Some(3), Some(3), Some(0))
        );
        // Reads: NUM 1, horizontal 32-bit, Y = 64.
        port.write_vr_setup(0x0010_0a40).unwrap();
        assert_eq!(
            port.pop(&vpm),
            Err(VpmError::GenericOutOfRange {
                kind: SetupKind::GenericRead,
                setup: 0x0010_0a40,
                address: 0x40,
                row: 64
            })
        );
    }

    #[test]
    fn generic_counter_wraps_at_the_address_format_width() {
        // The hardware-proven compiled store: vertical 32-bit, STRIDE 0 (= 64), Y = 32,
        // column h, written once; every later vector lands in rows 32-47 of column h again.
        for h in [0u32, 9] {
            let mut vpm = VpmMemory::new();
            let mut port = VpmPort::new();
            port.write_vw_setup(0x0010_0220 | h).unwrap();
            for k in 0..3 {
                let v = lanes(k);
                port.push(&mut vpm, &v).unwrap();
                for (i, &value) in v.iter().enumerate() {
                    assert_eq!(vpm.word(32 + i, h as usize), Some(value), "vector {k}");
                }
            }
        }
        // 16-bit horizontal addresses {Y[5:0], H} wrap at 7 bits: Y = 63, H = 1, STRIDE 1
        // goes on to Y = 0, H = 0.
        let mut vpm = VpmMemory::new();
        let mut port = VpmPort::new();
        port.write_vw_setup(0x1d7f).unwrap();
        port.push(&mut vpm, &[0x1111; 16]).unwrap();
        port.push(&mut vpm, &[0x2222; 16]).unwrap();
        assert_eq!(vpm.word(63, 0), Some(0x1111_0000));
        assert_eq!(vpm.word(0, 0), Some(0x2222));
    }

    #[test]
    fn the_laned_bit_is_ignored_for_32_bit_width() {
        let (mut vpm, mut model) = patterned_vpm();
        let mut port = VpmPort::new();
        // Laned horizontal 32-bit at Y = 7 acts as packed: the whole row.
        port.write_vw_setup(0xe07).unwrap();
        port.push(&mut vpm, &lanes(3)).unwrap();
        model[7] = lanes(3);
        // Laned vertical 32-bit at {Y[5:4] = 1, X = 2}: column 2, rows 16-31.
        port.write_vw_setup(0x612).unwrap();
        port.push(&mut vpm, &lanes(4)).unwrap();
        for (i, value) in lanes(4).into_iter().enumerate() {
            model[16 + i][2] = value;
        }
        assert_vpm_eq(&vpm, &model);
    }

    #[test]
    fn dma_errors_name_the_setup_and_address() {
        let mut vpm = VpmMemory::new();
        let mut mem = Memory::new();
        let buf = mem.alloc(64, 64).unwrap();
        let mut port = VpmPort::new();
        assert_eq!(
            port.start_vdw(&vpm, &mut mem, buf),
            Err(VpmError::DmaWithoutSetup {
                dma: DmaKind::Store
            })
        );
        assert_eq!(
            port.start_vdr(&mut vpm, &mem, buf),
            Err(VpmError::DmaWithoutSetup { dma: DmaKind::Load })
        );
        // Two rows of 16 into 64 bytes: the second row is unmapped (guard gap).
        port.write_vw_setup(0x8110_4000).unwrap();
        let err = port.start_vdw(&vpm, &mut mem, buf).unwrap_err();
        assert_eq!(
            err,
            VpmError::DmaMemory {
                dma: DmaKind::Store,
                setup: 0x8110_4000,
                mem_row: 1,
                addr: buf + 64,
                source: MemoryError::Unmapped {
                    addr: buf + 64,
                    len: 64
                }
            }
        );
        assert!(err.to_string().contains("0x81104000"), "{err}");
        // Starting 4 bytes in, the first row runs past the allocation.
        port.write_vw_setup(0x8090_4000).unwrap();
        assert!(matches!(
            port.start_vdw(&vpm, &mut mem, buf + 4),
            Err(VpmError::DmaMemory {
                source: MemoryError::PastEnd { .. },
                ..
            })
        ));
        // Horizontal from Y = 63, two units: the second reaches row 64.
        port.write_vw_setup(0x8101_5f80).unwrap();
        assert_eq!(
            port.start_vdw(&vpm, &mut mem, buf),
            Err(VpmError::DmaVpmOutOfRange {
                dma: DmaKind::Store,
                setup: 0x8101_5f80,
                mem_row: 1,
                element: 0,
                row: 64,
                column: 0
            })
        );
        // A 32-bit load from an address that is not word aligned.
        port.write_vr_setup(0x8011_0000).unwrap();
        assert_eq!(
            port.start_vdr(&mut vpm, &mem, buf + 2),
            Err(VpmError::DmaUnaligned {
                dma: DmaKind::Load,
                setup: 0x8011_0000,
                mem_row: 0,
                addr: buf + 2,
                width: 4
            })
        );
        // MPITCH 0 with 2 rows and no extended pitch; one row needs none.
        port.write_vr_setup(0x8012_0000).unwrap();
        assert_eq!(
            port.start_vdr(&mut vpm, &mem, buf),
            Err(VpmError::VdrPitchMissing { setup: 0x8012_0000 })
        );
        port.write_vr_setup(0x8011_0000).unwrap();
        assert_eq!(
            port.start_vdr(&mut vpm, &mem, buf),
            Ok(DmaTransfer { bytes: 4, rows: 1 })
        );
        // A load into rows beyond 63: horizontal, Y = 63, X = 8, 16 words crosses row 63.
        port.write_vr_setup(0x8301_13f8).unwrap();
        assert!(matches!(
            port.start_vdr(&mut vpm, &mem, buf),
            Err(VpmError::DmaVpmOutOfRange {
                row: 64,
                column: 0,
                element: 8,
                ..
            })
        ));
    }
}

//! The V3D registers used to launch QPU programs directly.
//!
//! Offsets and fields: VideoCore IV 3D Architecture Reference Guide, section 10 (V3D register
//! address map; QPU scheduler registers), cross-checked against GPU_FFT 3.0's `gpu_fft_base.c` (which
//! launches through these registers on hardware) and the field masks in the Linux vc4 driver's
//! `vc4_regs.h`.

use crate::memory::MappedRegion;

/// IDENT0: reads "V3D" in bytes 0..3 and the technology version (2) in byte 3.
pub const IDENT0: u32 = 0x000;
/// The value IDENT0 holds on VideoCore IV: `(2 << 24) | 'D' << 16 | '3' << 8 | 'V'`.
pub const IDENT0_EXPECTED: u32 =
    (2 << 24) | ((b'D' as u32) << 16) | ((b'3' as u32) << 8) | b'V' as u32;
/// L2 cache control.
pub const L2CACTL: u32 = 0x020;
/// L2CACTL bit 2, L2CCLR: write 1 to clear the L2 cache.
pub const L2CACTL_CLEAR: u32 = 1 << 2;
/// Slices cache control: per-slice clear bits for instruction (bits 0..4), uniforms (8..12),
/// TMU0 (16..20) and TMU1 (24..28) caches.
pub const SLCACTL: u32 = 0x024;
/// Clears all four caches in all four slices.
pub const SLCACTL_CLEAR_ALL: u32 = 0x0F0F_0F0F;
/// Program request: writing a code address enqueues a program (queue of 16).
pub const SRQPC: u32 = 0x430;
/// Uniforms address for the next program request.
pub const SRQUA: u32 = 0x434;
/// Uniforms length for the next program request.
pub const SRQUL: u32 = 0x438;
/// Request control/status.
pub const SRQCS: u32 = 0x43c;
/// Debug configuration (GPU_FFT writes 0 to disallow QPU interrupts during direct launches).
pub const DBCFG: u32 = 0xe00;
/// QPU interrupt enables (GPU_FFT writes 0).
pub const DBQITE: u32 = 0xe2c;
/// QPU interrupt control: write 1s to clear pending QPU interrupts.
pub const DBQITC: u32 = 0xe30;

/// SRQCS bits 0..6: number of requests waiting in the queue.
pub const fn srqcs_queue_length(srqcs: u32) -> u32 {
    srqcs & 0x3f
}
/// SRQCS bit 7: queue error (a request was made while the queue was full).
pub const SRQCS_ERROR: u32 = 1 << 7;
/// SRQCS bits 8..16: count of requests made (mod 256).
pub const fn srqcs_requests(srqcs: u32) -> u32 {
    (srqcs >> 8) & 0xff
}
/// SRQCS bits 16..24: count of programs completed (mod 256).
pub const fn srqcs_completed(srqcs: u32) -> u32 {
    (srqcs >> 16) & 0xff
}
/// Writing this to SRQCS clears the error flag and both counters (GPU_FFT's reset value).
pub const SRQCS_RESET: u32 = SRQCS_ERROR | (1 << 8) | (1 << 16);
/// Depth of the program request queue.
pub const REQUEST_QUEUE_DEPTH: u32 = 16;

/// Read and write access to the V3D register block, one 32-bit register at a time.
///
/// Offsets are byte offsets from the block's base (0x7ec00000 on the bus).
pub trait RegisterFile: Send {
    /// Reads a register.
    fn read(&mut self, offset: u32) -> u32;
    /// Writes a register.
    fn write(&mut self, offset: u32, value: u32);
}

/// The V3D block mapped through [`crate::memory::PhysicalMemory`].
pub struct MappedRegisters {
    region: Box<dyn MappedRegion>,
}

impl MappedRegisters {
    /// Wraps a mapping of the V3D block.
    pub fn new(region: Box<dyn MappedRegion>) -> Self {
        MappedRegisters { region }
    }
}

impl RegisterFile for MappedRegisters {
    fn read(&mut self, offset: u32) -> u32 {
        self.region.read_word((offset / 4) as usize)
    }

    fn write(&mut self, offset: u32, value: u32) {
        self.region.write_word((offset / 4) as usize, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ident0_spells_v3d_version_2() {
        assert_eq!(IDENT0_EXPECTED, 0x0244_3356);
        let bytes = IDENT0_EXPECTED.to_le_bytes();
        assert_eq!(&bytes[0..3], b"V3D");
        assert_eq!(bytes[3], 2);
    }

    #[test]
    fn srqcs_fields() {
        // 3 queued, error, 5 requests, 2 completed.
        let value = 3 | SRQCS_ERROR | (5 << 8) | (2 << 16);
        assert_eq!(srqcs_queue_length(value), 3);
        assert_eq!(srqcs_requests(value), 5);
        assert_eq!(srqcs_completed(value), 2);
        assert_eq!(SRQCS_RESET, 0x0001_0180);
    }

    #[test]
    fn offsets_match_gpu_fft() {
        // GPU_FFT indexes the peripheral window in words: (0xC00000 + offset) >> 2.
        let gpu_fft = [
            (0xC00020u32 >> 2, L2CACTL),
            (0xC00024 >> 2, SLCACTL),
            (0xC00430 >> 2, SRQPC),
            (0xC00434 >> 2, SRQUA),
            (0xC0043C >> 2, SRQCS),
            (0xC00E00 >> 2, DBCFG),
            (0xC00E2C >> 2, DBQITE),
            (0xC00E30 >> 2, DBQITC),
        ];
        for (word_index, offset) in gpu_fft {
            assert_eq!(word_index, (0xC0_0000 + offset) >> 2);
        }
    }
}

//! Board identification from the Raspberry Pi revision code.
//!
//! Facts: Raspberry Pi documentation, "Raspberry Pi revision codes"
//! (`documentation/asciidoc/computers/raspberry-pi/revision-codes.adoc`):
//! - old-style codes are sequential, 0002..0015, all BCM2835 boards;
//! - new-style codes set bit 23 ("F") and pack `NOQuuuWuFMMMCCCCPPPPTTTTTTTTRRRR`: memory size in
//!   bits 20..23, manufacturer in bits 16..20, processor in bits 12..16, type in bits 4..12 and
//!   the board revision in bits 0..4. The page tells readers to check bit 23 first.
//!
//! Which GPU each processor carries: BCM2835/6/7 have VideoCore IV (the GPU this project
//! targets, documented by Broadcom's VideoCore IV 3D reference guide); BCM2711 (Pi 4, 400,
//! CM4) has VideoCore VI and BCM2712 (Pi 5, 500, CM5) VideoCore VII.

use std::fmt;

/// The SoC named by a revision code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Processor {
    /// Pi 1, Zero, Zero W, CM1.
    Bcm2835,
    /// The first Pi 2 Model B.
    Bcm2836,
    /// Pi 3, later Pi 2, CM3, CM3+, Zero 2 W.
    Bcm2837,
    /// Pi 4, 400, CM4.
    Bcm2711,
    /// Pi 5, 500, CM5.
    Bcm2712,
    /// A processor field value the documentation does not list.
    Unknown(u8),
}

impl Processor {
    fn from_field(field: u32) -> Processor {
        match field {
            0 => Processor::Bcm2835,
            1 => Processor::Bcm2836,
            2 => Processor::Bcm2837,
            3 => Processor::Bcm2711,
            4 => Processor::Bcm2712,
            other => Processor::Unknown(other as u8),
        }
    }

    /// The GPU generation, if known.
    pub fn gpu(self) -> Option<GpuGeneration> {
        match self {
            Processor::Bcm2835 | Processor::Bcm2836 | Processor::Bcm2837 => {
                Some(GpuGeneration::VideoCoreIv)
            }
            Processor::Bcm2711 => Some(GpuGeneration::VideoCoreVi),
            Processor::Bcm2712 => Some(GpuGeneration::VideoCoreVii),
            Processor::Unknown(_) => None,
        }
    }

    /// ARM physical address of the peripheral window, from the table in the Raspberry Pi
    /// documentation's "Peripheral Addresses" page (which cites each SoC's .dtsi). Used only to
    /// cross-check the device tree, which is the authority at run time.
    pub fn documented_peripheral_base(self) -> Option<u32> {
        match self {
            Processor::Bcm2835 => Some(0x2000_0000),
            Processor::Bcm2836 | Processor::Bcm2837 => Some(0x3f00_0000),
            Processor::Bcm2711 => Some(0xfe00_0000),
            Processor::Bcm2712 | Processor::Unknown(_) => None,
        }
    }
}

impl fmt::Display for Processor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Processor::Bcm2835 => f.write_str("BCM2835"),
            Processor::Bcm2836 => f.write_str("BCM2836"),
            Processor::Bcm2837 => f.write_str("BCM2837"),
            Processor::Bcm2711 => f.write_str("BCM2711"),
            Processor::Bcm2712 => f.write_str("BCM2712"),
            Processor::Unknown(field) => write!(f, "unknown processor (field {field})"),
        }
    }
}

/// GPU generations found on Raspberry Pi boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuGeneration {
    /// VideoCore IV: the only one this backend drives.
    VideoCoreIv,
    /// VideoCore VI (V3D 4.2): different ISA, driven by the `v3d` DRM driver.
    VideoCoreVi,
    /// VideoCore VII (V3D 7.1).
    VideoCoreVii,
}

impl GpuGeneration {
    /// Whether `name` (as [`PiError::UnsupportedBoard`](crate::PiError) gives it) is a GPU
    /// the `v3d` DRM driver runs: VideoCore VI or VII (Pi 4/5).
    pub fn is_v3d_name(name: &str) -> bool {
        [GpuGeneration::VideoCoreVi, GpuGeneration::VideoCoreVii]
            .iter()
            .any(|g| name == g.to_string())
    }
}

impl fmt::Display for GpuGeneration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GpuGeneration::VideoCoreIv => "VideoCore IV",
            GpuGeneration::VideoCoreVi => "VideoCore VI",
            GpuGeneration::VideoCoreVii => "VideoCore VII",
        })
    }
}

/// Board type, from the new-style type field or the old-style table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardType {
    /// Model A.
    A,
    /// Model B.
    B,
    /// Model A+.
    APlus,
    /// Model B+.
    BPlus,
    /// Pi 2 Model B.
    TwoB,
    /// Early prototype.
    Alpha,
    /// Compute Module 1.
    Cm1,
    /// Pi 3 Model B.
    ThreeB,
    /// Pi Zero.
    Zero,
    /// Compute Module 3.
    Cm3,
    /// Pi Zero W.
    ZeroW,
    /// Pi 3 Model B+.
    ThreeBPlus,
    /// Pi 3 Model A+.
    ThreeAPlus,
    /// Compute Module 3+.
    Cm3Plus,
    /// Pi 4 Model B.
    FourB,
    /// Pi Zero 2 W.
    Zero2W,
    /// Pi 400.
    Pi400,
    /// Compute Module 4.
    Cm4,
    /// Compute Module 4S.
    Cm4S,
    /// Pi 5.
    Five,
    /// Compute Module 5.
    Cm5,
    /// Pi 500 / 500+.
    Pi500,
    /// Compute Module 5 Lite.
    Cm5Lite,
    /// Compute Module 0.
    Cm0,
    /// "Internal use only" or a value the documentation does not list.
    Other(u8),
}

impl BoardType {
    fn from_field(field: u32) -> BoardType {
        match field {
            0x00 => BoardType::A,
            0x01 => BoardType::B,
            0x02 => BoardType::APlus,
            0x03 => BoardType::BPlus,
            0x04 => BoardType::TwoB,
            0x05 => BoardType::Alpha,
            0x06 => BoardType::Cm1,
            0x08 => BoardType::ThreeB,
            0x09 => BoardType::Zero,
            0x0a => BoardType::Cm3,
            0x0c => BoardType::ZeroW,
            0x0d => BoardType::ThreeBPlus,
            0x0e => BoardType::ThreeAPlus,
            0x10 => BoardType::Cm3Plus,
            0x11 => BoardType::FourB,
            0x12 => BoardType::Zero2W,
            0x13 => BoardType::Pi400,
            0x14 => BoardType::Cm4,
            0x15 => BoardType::Cm4S,
            0x17 => BoardType::Five,
            0x18 => BoardType::Cm5,
            0x19 => BoardType::Pi500,
            0x1a => BoardType::Cm5Lite,
            0x1b => BoardType::Cm0,
            other => BoardType::Other(other as u8),
        }
    }

    /// Human name of the board type.
    pub fn name(self) -> String {
        match self {
            BoardType::A => "Raspberry Pi Model A".into(),
            BoardType::B => "Raspberry Pi Model B".into(),
            BoardType::APlus => "Raspberry Pi Model A+".into(),
            BoardType::BPlus => "Raspberry Pi Model B+".into(),
            BoardType::TwoB => "Raspberry Pi 2 Model B".into(),
            BoardType::Alpha => "Raspberry Pi Alpha prototype".into(),
            BoardType::Cm1 => "Compute Module 1".into(),
            BoardType::ThreeB => "Raspberry Pi 3 Model B".into(),
            BoardType::Zero => "Raspberry Pi Zero".into(),
            BoardType::Cm3 => "Compute Module 3".into(),
            BoardType::ZeroW => "Raspberry Pi Zero W".into(),
            BoardType::ThreeBPlus => "Raspberry Pi 3 Model B+".into(),
            BoardType::ThreeAPlus => "Raspberry Pi 3 Model A+".into(),
            BoardType::Cm3Plus => "Compute Module 3+".into(),
            BoardType::FourB => "Raspberry Pi 4 Model B".into(),
            BoardType::Zero2W => "Raspberry Pi Zero 2 W".into(),
            BoardType::Pi400 => "Raspberry Pi 400".into(),
            BoardType::Cm4 => "Compute Module 4".into(),
            BoardType::Cm4S => "Compute Module 4S".into(),
            BoardType::Five => "Raspberry Pi 5".into(),
            BoardType::Cm5 => "Compute Module 5".into(),
            BoardType::Pi500 => "Raspberry Pi 500".into(),
            BoardType::Cm5Lite => "Compute Module 5 Lite".into(),
            BoardType::Cm0 => "Compute Module 0".into(),
            BoardType::Other(field) => format!("unlisted board type 0x{field:02x}"),
        }
    }
}

/// A decoded revision code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardInfo {
    /// The raw code, as in `/proc/cpuinfo`'s `Revision` line.
    pub code: u32,
    /// Whether the code is new-style (bit 23 set).
    pub new_style: bool,
    /// Board type.
    pub board: BoardType,
    /// SoC.
    pub processor: Processor,
    /// RAM in MiB, when the code says.
    pub memory_mib: Option<u32>,
    /// Manufacturer name.
    pub manufacturer: &'static str,
    /// Board revision as "major.minor" text.
    pub revision: String,
}

impl BoardInfo {
    /// Decodes a revision code. Returns `None` for codes that are neither documented old-style
    /// codes nor new-style codes.
    pub fn decode(code: u32) -> Option<BoardInfo> {
        if code & (1 << 23) != 0 {
            Some(Self::decode_new(code))
        } else {
            Self::decode_old(code)
        }
    }

    fn decode_new(code: u32) -> BoardInfo {
        let revision_field = code & 0xf;
        let type_field = (code >> 4) & 0xff;
        let processor_field = (code >> 12) & 0xf;
        let manufacturer_field = (code >> 16) & 0xf;
        let memory_field = (code >> 20) & 0x7;
        let memory_mib = match memory_field {
            0..=6 => Some(256 << memory_field),
            _ => None, // 7 = "Other"
        };
        let manufacturer = match manufacturer_field {
            0 => "Sony UK",
            1 => "Egoman",
            2 | 4 => "Embest",
            3 => "Sony Japan",
            5 => "Stadium",
            _ => "unlisted manufacturer",
        };
        BoardInfo {
            code,
            new_style: true,
            board: BoardType::from_field(type_field),
            processor: Processor::from_field(processor_field),
            memory_mib,
            manufacturer,
            // The table lists revision field n as "1.n" for every board (e.g. a02082 → 1.2).
            revision: format!("1.{revision_field}"),
        }
    }

    fn decode_old(code: u32) -> Option<BoardInfo> {
        // Only the low 16 bits name an old-style board; higher bits are flags (overvoltage)
        // that the documentation's old-style table does not list.
        let (board, revision, memory_mib, manufacturer) = match code & 0xffff {
            0x0002 | 0x0003 => (BoardType::B, "1.0", 256, "Egoman"),
            0x0004 => (BoardType::B, "2.0", 256, "Sony UK"),
            0x0005 => (BoardType::B, "2.0", 256, "Qisda"),
            0x0006 => (BoardType::B, "2.0", 256, "Egoman"),
            0x0007 => (BoardType::A, "2.0", 256, "Egoman"),
            0x0008 => (BoardType::A, "2.0", 256, "Sony UK"),
            0x0009 => (BoardType::A, "2.0", 256, "Qisda"),
            0x000d | 0x000f => (BoardType::B, "2.0", 512, "Egoman"),
            0x000e => (BoardType::B, "2.0", 512, "Sony UK"),
            0x0010 => (BoardType::BPlus, "1.2", 512, "Sony UK"),
            0x0011 => (BoardType::Cm1, "1.0", 512, "Sony UK"),
            0x0012 => (BoardType::APlus, "1.1", 256, "Sony UK"),
            0x0013 => (BoardType::BPlus, "1.2", 512, "Embest"),
            0x0014 => (BoardType::Cm1, "1.0", 512, "Embest"),
            // The table says "256 MB / 512 MB" for 0015.
            0x0015 => (BoardType::APlus, "1.1", 256, "Embest"),
            _ => return None,
        };
        Some(BoardInfo {
            code,
            new_style: false,
            board,
            processor: Processor::Bcm2835,
            memory_mib: Some(memory_mib),
            manufacturer,
            revision: revision.to_string(),
        })
    }

    /// The GPU generation of this board's SoC.
    pub fn gpu(&self) -> Option<GpuGeneration> {
        self.processor.gpu()
    }

    /// Whether this backend can drive the board's GPU.
    pub fn is_supported(&self) -> bool {
        self.gpu() == Some(GpuGeneration::VideoCoreIv)
    }
}

impl fmt::Display for BoardInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} rev {} ({}",
            self.board.name(),
            self.revision,
            self.processor
        )?;
        if let Some(gpu) = self.gpu() {
            write!(f, ", {gpu}")?;
        }
        match self.memory_mib {
            Some(mib) if mib >= 1024 => write!(f, ", {} GB", mib / 1024)?,
            Some(mib) => write!(f, ", {mib} MB")?,
            None => {}
        }
        write!(f, ", revision code {:04x})", self.code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each expectation is a row of the documentation's tables.
    #[test]
    fn pi3b_a02082() {
        let info = BoardInfo::decode(0xa02082).unwrap();
        assert!(info.new_style);
        assert_eq!(info.board, BoardType::ThreeB);
        assert_eq!(info.processor, Processor::Bcm2837);
        assert_eq!(info.memory_mib, Some(1024));
        assert_eq!(info.manufacturer, "Sony UK");
        assert_eq!(info.revision, "1.2");
        assert!(info.is_supported());
        assert_eq!(
            info.to_string(),
            "Raspberry Pi 3 Model B rev 1.2 (BCM2837, VideoCore IV, 1 GB, revision code a02082)"
        );
    }

    #[test]
    fn zero_900092() {
        let info = BoardInfo::decode(0x900092).unwrap();
        assert_eq!(info.board, BoardType::Zero);
        assert_eq!(info.processor, Processor::Bcm2835);
        assert_eq!(info.memory_mib, Some(512));
        assert_eq!(info.revision, "1.2");
        assert!(info.is_supported());
    }

    #[test]
    fn pi4b_a03111_is_videocore_vi() {
        let info = BoardInfo::decode(0xa03111).unwrap();
        assert_eq!(info.board, BoardType::FourB);
        assert_eq!(info.processor, Processor::Bcm2711);
        assert_eq!(info.memory_mib, Some(1024));
        assert_eq!(info.revision, "1.1");
        assert_eq!(info.gpu(), Some(GpuGeneration::VideoCoreVi));
        assert!(!info.is_supported());
    }

    #[test]
    fn pi4b_c03111_has_4gb() {
        // The documentation's worked example: 4B, BCM2711, Sony UK, 4 GB, revision 1.
        let info = BoardInfo::decode(0xc03111).unwrap();
        assert_eq!(info.memory_mib, Some(4096));
        assert_eq!(info.board, BoardType::FourB);
    }

    #[test]
    fn pi5_and_cm5_are_videocore_vii() {
        for code in [0xc04170, 0xd04171, 0xb04180] {
            let info = BoardInfo::decode(code).unwrap();
            assert_eq!(info.processor, Processor::Bcm2712, "{code:x}");
            assert_eq!(info.gpu(), Some(GpuGeneration::VideoCoreVii));
            assert!(!info.is_supported());
        }
        assert_eq!(BoardInfo::decode(0xb04180).unwrap().board, BoardType::Cm5);
    }

    #[test]
    fn other_vc4_boards() {
        let cases = [
            (0xa01041, BoardType::TwoB, Processor::Bcm2836, "Sony UK"),
            (0xa22042, BoardType::TwoB, Processor::Bcm2837, "Embest"),
            (0x900061, BoardType::Cm1, Processor::Bcm2835, "Sony UK"),
            (0xa220a0, BoardType::Cm3, Processor::Bcm2837, "Embest"),
            (0x9000c1, BoardType::ZeroW, Processor::Bcm2835, "Sony UK"),
            (
                0xa020d3,
                BoardType::ThreeBPlus,
                Processor::Bcm2837,
                "Sony UK",
            ),
            (
                0x9020e0,
                BoardType::ThreeAPlus,
                Processor::Bcm2837,
                "Sony UK",
            ),
            (0xa02100, BoardType::Cm3Plus, Processor::Bcm2837, "Sony UK"),
            (0x902120, BoardType::Zero2W, Processor::Bcm2837, "Sony UK"),
            (0xa52082, BoardType::ThreeB, Processor::Bcm2837, "Stadium"),
            (
                0xa32082,
                BoardType::ThreeB,
                Processor::Bcm2837,
                "Sony Japan",
            ),
        ];
        for (code, board, processor, manufacturer) in cases {
            let info = BoardInfo::decode(code).unwrap();
            assert_eq!(info.board, board, "{code:x}");
            assert_eq!(info.processor, processor, "{code:x}");
            assert_eq!(info.manufacturer, manufacturer, "{code:x}");
            assert!(info.is_supported(), "{code:x}");
        }
    }

    #[test]
    fn cm4_and_400_are_refused() {
        for code in [0xc03130, 0xa03140] {
            assert!(!BoardInfo::decode(code).unwrap().is_supported());
        }
        assert_eq!(BoardInfo::decode(0xc03130).unwrap().board, BoardType::Pi400);
    }

    #[test]
    fn old_style_codes() {
        let info = BoardInfo::decode(0x0002).unwrap();
        assert!(!info.new_style);
        assert_eq!(info.board, BoardType::B);
        assert_eq!(info.processor, Processor::Bcm2835);
        assert_eq!(info.memory_mib, Some(256));
        assert_eq!(info.manufacturer, "Egoman");
        let info = BoardInfo::decode(0x0010).unwrap();
        assert_eq!(info.board, BoardType::BPlus);
        assert_eq!(info.memory_mib, Some(512));
        let info = BoardInfo::decode(0x0014).unwrap();
        assert_eq!(info.board, BoardType::Cm1);
        assert_eq!(info.manufacturer, "Embest");
        assert!(info.is_supported());
    }

    #[test]
    fn unknown_old_style_codes_are_refused() {
        for code in [0x0000, 0x0001, 0x000a, 0x0016, 0x1234] {
            assert_eq!(BoardInfo::decode(code), None, "{code:x}");
        }
    }

    #[test]
    fn fields_never_panic() {
        // Every combination of the low 24 bits with the new flag decodes to something.
        for code in (0x80_0000u32..0x100_0000).step_by(0x1111) {
            let info = BoardInfo::decode(code).expect("new-style always decodes");
            let _ = info.to_string();
        }
    }

    #[test]
    fn documented_peripheral_bases() {
        assert_eq!(
            Processor::Bcm2835.documented_peripheral_base(),
            Some(0x2000_0000)
        );
        assert_eq!(
            Processor::Bcm2837.documented_peripheral_base(),
            Some(0x3f00_0000)
        );
    }
}

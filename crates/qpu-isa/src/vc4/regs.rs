//! What each register address means, and its assembler name.
//!
//! Source: the guide's table 14, "Register Address Map" (section 3), which lists the read and
//! write meaning of every address 32–63 in both register-file address spaces. Addresses 0–31
//! are the 32 physical registers of each file.

use crate::vc4::fields::{RegAddr, RegFile};

/// What reading an address of one register file does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReadReg {
    /// Physical register 0–31 of the file.
    Physical(u8),
    /// 32: pop the next uniform (both files).
    Uniform,
    /// 35: pop the next varying (both files).
    Varying,
    /// 38 in A: the lane's element number 0–15.
    ElementNumber,
    /// 38 in B: the QPU's number.
    QpuNumber,
    /// 39: reads nothing useful (both files).
    Nop,
    /// 41 in A: pixel X coordinate.
    XPixelCoord,
    /// 41 in B: pixel Y coordinate.
    YPixelCoord,
    /// 42 in A: multisample mask flags.
    MsFlags,
    /// 42 in B: reversed-flag.
    RevFlag,
    /// 48: pop the VPM read FIFO (both files).
    Vpm,
    /// 49 in A: VDR (VPM load DMA) busy.
    VdrBusy,
    /// 49 in B: VDW (VPM store DMA) busy.
    VdwBusy,
    /// 50 in A: stall until the VDR load completes.
    VdrWait,
    /// 50 in B: stall until the VDW store completes.
    VdwWait,
    /// 51: acquire the mutex, stalling until granted (both files).
    MutexAcquire,
    /// An address the guide leaves unmapped (33, 34, 36, 37, 40, 43–47, 52–63).
    Unmapped(u8),
}

/// The TMU register a write targets (guide table 14 and section 4, "Texture and Memory
/// Lookup Unit").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmuReg {
    /// `s` coordinate, or the address of a direct memory lookup; writing it issues the request.
    S,
    /// `t` coordinate.
    T,
    /// `r` coordinate.
    R,
    /// LOD bias.
    B,
}

/// The special function the SFU computes (guide section 3, "Special Functions Unit").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SfuOp {
    /// 1/x.
    Recip,
    /// 1/sqrt(x).
    RecipSqrt,
    /// 2^x.
    Exp2,
    /// log2(x).
    Log2,
}

/// What writing an address of one register file does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteReg {
    /// Physical register 0–31 of the file.
    Physical(u8),
    /// 32–35: accumulator r0–r3 (both files).
    Accumulator(u8),
    /// 36: disable the TMU swap for QPUs 2/3 (both files).
    TmuNoswap,
    /// 37 in A: r5, each quad replicating its element 0.
    R5Quad,
    /// 37 in B: r5, replicating element 0 to all lanes.
    R5Replicate,
    /// 38: raise the host interrupt (both files).
    HostInterrupt,
    /// 39: discard (both files).
    Nop,
    /// 40: set the uniforms stream address (both files).
    UniformsAddress,
    /// 41 in A: quad X.
    QuadX,
    /// 41 in B: quad Y.
    QuadY,
    /// 42 in A: multisample flags.
    MsFlags,
    /// 42 in B: reversed-flag.
    RevFlag,
    /// 43: TLB stencil setup (both files).
    TlbStencil,
    /// 44: TLB depth (both files).
    TlbZ,
    /// 45: TLB colour, multisampled (both files).
    TlbColourMs,
    /// 46: TLB colour, all samples (both files).
    TlbColourAll,
    /// 47: TLB alpha mask (both files).
    TlbAlphaMask,
    /// 48: push to the VPM write FIFO (both files).
    Vpm,
    /// 49 in A: VPM read setup (or VDR setup).
    VpmReadSetup,
    /// 49 in B: VPM write setup (or VDW setup).
    VpmWriteSetup,
    /// 50 in A: VDR load memory address; starts the load DMA.
    VdrAddress,
    /// 50 in B: VDW store memory address; starts the store DMA.
    VdwAddress,
    /// 51: release the mutex (both files).
    MutexRelease,
    /// 52–55: start a special function (both files).
    Sfu(SfuOp),
    /// 56–63: TMU0 (56–59) or TMU1 (60–63) register (both files).
    Tmu(u8, TmuReg),
}

/// One named register address: which file(s) it lives in, its address, its name.
struct Name<T> {
    file: Option<RegFile>,
    addr: u8,
    name: &'static str,
    reg: T,
}

const fn both<T>(addr: u8, name: &'static str, reg: T) -> Name<T> {
    Name {
        file: None,
        addr,
        name,
        reg,
    }
}

const fn only<T>(file: RegFile, addr: u8, name: &'static str, reg: T) -> Name<T> {
    Name {
        file: Some(file),
        addr,
        name,
        reg,
    }
}

/// Read addresses 32–63 (guide table 14, read columns).
const READ_NAMES: &[Name<ReadReg>] = &[
    both(32, "unif", ReadReg::Uniform),
    both(35, "vary", ReadReg::Varying),
    only(RegFile::A, 38, "elem_num", ReadReg::ElementNumber),
    only(RegFile::B, 38, "qpu_num", ReadReg::QpuNumber),
    both(39, "nop", ReadReg::Nop),
    only(RegFile::A, 41, "x_coord", ReadReg::XPixelCoord),
    only(RegFile::B, 41, "y_coord", ReadReg::YPixelCoord),
    only(RegFile::A, 42, "ms_flags", ReadReg::MsFlags),
    only(RegFile::B, 42, "rev_flag", ReadReg::RevFlag),
    both(48, "vpm", ReadReg::Vpm),
    only(RegFile::A, 49, "vr_busy", ReadReg::VdrBusy),
    only(RegFile::B, 49, "vw_busy", ReadReg::VdwBusy),
    only(RegFile::A, 50, "vr_wait", ReadReg::VdrWait),
    only(RegFile::B, 50, "vw_wait", ReadReg::VdwWait),
    both(51, "mutex", ReadReg::MutexAcquire),
];

/// Write addresses 32–63 (guide table 14, write columns).
const WRITE_NAMES: &[Name<WriteReg>] = &[
    both(32, "r0", WriteReg::Accumulator(0)),
    both(33, "r1", WriteReg::Accumulator(1)),
    both(34, "r2", WriteReg::Accumulator(2)),
    both(35, "r3", WriteReg::Accumulator(3)),
    both(36, "tmu_noswap", WriteReg::TmuNoswap),
    only(RegFile::A, 37, "r5quad", WriteReg::R5Quad),
    only(RegFile::B, 37, "r5rep", WriteReg::R5Replicate),
    both(38, "host_int", WriteReg::HostInterrupt),
    both(39, "-", WriteReg::Nop),
    both(40, "unif_addr", WriteReg::UniformsAddress),
    // vc4asm's name for the file-B spelling of address 40; we read the guide's table 14 as
    // giving both files the same uniforms-address register.
    only(RegFile::B, 40, "unif_addr_rel", WriteReg::UniformsAddress),
    only(RegFile::A, 41, "quad_x", WriteReg::QuadX),
    only(RegFile::B, 41, "quad_y", WriteReg::QuadY),
    only(RegFile::A, 42, "ms_flags", WriteReg::MsFlags),
    only(RegFile::B, 42, "rev_flag", WriteReg::RevFlag),
    both(43, "tlb_stencil", WriteReg::TlbStencil),
    both(44, "tlb_z", WriteReg::TlbZ),
    both(45, "tlb_colour_ms", WriteReg::TlbColourMs),
    both(46, "tlb_colour_all", WriteReg::TlbColourAll),
    both(47, "tlb_alpha_mask", WriteReg::TlbAlphaMask),
    both(48, "vpm", WriteReg::Vpm),
    only(RegFile::A, 49, "vr_setup", WriteReg::VpmReadSetup),
    only(RegFile::B, 49, "vw_setup", WriteReg::VpmWriteSetup),
    only(RegFile::A, 50, "vr_addr", WriteReg::VdrAddress),
    only(RegFile::B, 50, "vw_addr", WriteReg::VdwAddress),
    both(51, "mutex", WriteReg::MutexRelease),
    both(52, "recip", WriteReg::Sfu(SfuOp::Recip)),
    both(53, "recipsqrt", WriteReg::Sfu(SfuOp::RecipSqrt)),
    both(54, "exp", WriteReg::Sfu(SfuOp::Exp2)),
    both(55, "log", WriteReg::Sfu(SfuOp::Log2)),
    both(56, "tmu0_s", WriteReg::Tmu(0, TmuReg::S)),
    both(57, "tmu0_t", WriteReg::Tmu(0, TmuReg::T)),
    both(58, "tmu0_r", WriteReg::Tmu(0, TmuReg::R)),
    both(59, "tmu0_b", WriteReg::Tmu(0, TmuReg::B)),
    both(60, "tmu1_s", WriteReg::Tmu(1, TmuReg::S)),
    both(61, "tmu1_t", WriteReg::Tmu(1, TmuReg::T)),
    both(62, "tmu1_r", WriteReg::Tmu(1, TmuReg::R)),
    both(63, "tmu1_b", WriteReg::Tmu(1, TmuReg::B)),
];

/// Other spellings the assembler accepts (vc4asm and article spellings).
const WRITE_ALIASES: &[(&str, &str)] = &[
    ("interrupt", "host_int"),
    ("irq", "host_int"),
    ("nop", "-"),
    ("sfu_recip", "recip"),
    ("sfu_recipsqrt", "recipsqrt"),
    ("sfu_exp", "exp"),
    ("sfu_log", "log"),
    ("vpm_ld_addr", "vr_addr"),
    ("vpm_st_addr", "vw_addr"),
    ("mutex_release", "mutex"),
];

const READ_ALIASES: &[(&str, &str)] = &[
    ("uniform", "unif"),
    ("element_number", "elem_num"),
    ("qpu_number", "qpu_num"),
    ("vpm_ld_wait", "vr_wait"),
    ("vpm_st_wait", "vw_wait"),
    ("vpm_ld_busy", "vr_busy"),
    ("vpm_st_busy", "vw_busy"),
    ("mutex_acquire", "mutex"),
    ("-", "nop"),
];

fn find<T: Copy>(table: &[Name<T>], file: RegFile, addr: u8) -> Option<&Name<T>> {
    table
        .iter()
        .find(|n| n.addr == addr && n.file.is_none_or(|f| f == file))
}

fn file_prefix(file: RegFile) -> &'static str {
    match file {
        RegFile::A => "ra",
        RegFile::B => "rb",
    }
}

/// Parses `raN` / `rbN` (N 0–63): an explicit file and raw address.
fn parse_raw(name: &str) -> Option<(RegFile, RegAddr)> {
    let (file, digits) = if let Some(d) = name.strip_prefix("ra") {
        (RegFile::A, d)
    } else if let Some(d) = name.strip_prefix("rb") {
        (RegFile::B, d)
    } else {
        return None;
    };
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() == 2 && digits.starts_with('0') {
        return None;
    }
    RegAddr::new(digits.parse().ok()?).map(|a| (file, a))
}

/// Where a register of a table lives: the table's first entry for it.
fn address_of<T: Copy + PartialEq>(
    table: &[Name<T>],
    reg: T,
) -> Option<(Option<RegFile>, RegAddr)> {
    table.iter().find(|n| n.reg == reg).map(|n| {
        (
            n.file,
            RegAddr::new(n.addr).expect("table addresses are 6-bit"),
        )
    })
}

impl ReadReg {
    /// The address to read for this register: (its file, or `None` when both files map it
    /// there; the address). `None` for physical and unmapped registers, which need a file.
    pub fn address(self) -> Option<(Option<RegFile>, RegAddr)> {
        address_of(READ_NAMES, self)
    }

    /// What reading `addr` of `file` does.
    pub fn decode(file: RegFile, addr: RegAddr) -> ReadReg {
        if addr.is_physical() {
            return ReadReg::Physical(addr.index());
        }
        find(READ_NAMES, file, addr.index()).map_or(ReadReg::Unmapped(addr.index()), |n| n.reg)
    }
}

impl WriteReg {
    /// The address to write for this register, as for [`ReadReg::address`].
    pub fn address(self) -> Option<(Option<RegFile>, RegAddr)> {
        address_of(WRITE_NAMES, self)
    }

    /// What writing `addr` of `file` does. Every write address is mapped.
    pub fn decode(file: RegFile, addr: RegAddr) -> WriteReg {
        if addr.is_physical() {
            return WriteReg::Physical(addr.index());
        }
        find(WRITE_NAMES, file, addr.index()).map_or(WriteReg::Nop, |n| n.reg)
    }

    /// Whether this is an accumulator (r0–r3 or r5) rather than a physical register or an
    /// I/O register.
    pub fn is_accumulator(self) -> bool {
        matches!(
            self,
            WriteReg::Accumulator(_) | WriteReg::R5Quad | WriteReg::R5Replicate
        )
    }
}

/// The assembler name of a read address: `raN`/`rbN` for physical and unmapped addresses,
/// the I/O name otherwise.
pub fn read_name(file: RegFile, addr: RegAddr) -> String {
    match find(READ_NAMES, file, addr.index()) {
        Some(n) if !addr.is_physical() => n.name.to_string(),
        _ => format!("{}{}", file_prefix(file), addr.index()),
    }
}

/// The assembler name of a write address.
pub fn write_name(file: RegFile, addr: RegAddr) -> String {
    match find(WRITE_NAMES, file, addr.index()) {
        Some(n) if !addr.is_physical() => n.name.to_string(),
        _ => format!("{}{}", file_prefix(file), addr.index()),
    }
}

/// Whether the read name stands for the same address in both files (so the assembler picks
/// the file).
pub fn read_name_is_shared(file: RegFile, addr: RegAddr) -> bool {
    !addr.is_physical() && find(READ_NAMES, file, addr.index()).is_some_and(|n| n.file.is_none())
}

fn lookup<T>(table: &[Name<T>], aliases: &[(&str, &str)], name: &str) -> Vec<(RegFile, RegAddr)> {
    if let Some(raw) = parse_raw(name) {
        return vec![raw];
    }
    let name = aliases
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, canonical)| canonical);
    let mut found = Vec::new();
    for entry in table.iter().filter(|n| n.name == name) {
        let addr = RegAddr::new(entry.addr).expect("table addresses are 6-bit");
        match entry.file {
            Some(file) => found.push((file, addr)),
            None => {
                found.push((RegFile::A, addr));
                found.push((RegFile::B, addr));
            }
        }
    }
    found
}

/// The (file, address) pairs a read name can mean: one for a file-specific name, two (A
/// first) for a name shared by both files, none for an unknown name.
pub fn parse_read(name: &str) -> Vec<(RegFile, RegAddr)> {
    lookup(READ_NAMES, READ_ALIASES, name)
}

/// The (file, address) pairs a write name can mean, as for [`parse_read`]. Accumulators
/// r0–r3 are included (as file addresses 32–35).
pub fn parse_write(name: &str) -> Vec<(RegFile, RegAddr)> {
    lookup(WRITE_NAMES, WRITE_ALIASES, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_register_has_the_address_its_name_has() {
        for n in WRITE_NAMES {
            let (file, addr) = n.reg.address().unwrap();
            let (want_file, want_addr) = (n.file, a(n.addr));
            // A register with two names (unif_addr) is found at its first.
            if n.name != "unif_addr_rel" {
                assert_eq!((file, addr), (want_file, want_addr), "{}", n.name);
            }
            for f in [RegFile::A, RegFile::B] {
                if file.is_none_or(|x| x == f) {
                    assert_eq!(WriteReg::decode(f, addr), n.reg, "{}", n.name);
                }
            }
        }
        for n in READ_NAMES {
            assert_eq!(n.reg.address(), Some((n.file, a(n.addr))), "{}", n.name);
        }
        assert_eq!(ReadReg::Physical(3).address(), None);
    }

    fn a(n: u8) -> RegAddr {
        RegAddr::new(n).unwrap()
    }

    #[test]
    fn every_name_parses_back_to_its_address() {
        for file in [RegFile::A, RegFile::B] {
            for n in 0..64 {
                let name = read_name(file, a(n));
                assert!(parse_read(&name).contains(&(file, a(n))), "read {name}");
                let name = write_name(file, a(n));
                assert!(parse_write(&name).contains(&(file, a(n))), "write {name}");
            }
        }
    }

    #[test]
    fn file_specific_names_from_table_14() {
        assert_eq!(parse_write("vw_setup"), vec![(RegFile::B, a(49))]);
        assert_eq!(parse_write("vr_setup"), vec![(RegFile::A, a(49))]);
        assert_eq!(parse_read("elem_num"), vec![(RegFile::A, a(38))]);
        assert_eq!(parse_read("qpu_num"), vec![(RegFile::B, a(38))]);
        assert_eq!(
            parse_read("unif"),
            vec![(RegFile::A, a(32)), (RegFile::B, a(32))]
        );
        assert_eq!(
            parse_write("interrupt"),
            vec![(RegFile::A, a(38)), (RegFile::B, a(38))]
        );
        assert_eq!(parse_read("ra64"), vec![]);
        assert_eq!(parse_read("ra07"), vec![]);
        assert_eq!(
            WriteReg::decode(RegFile::B, a(60)),
            WriteReg::Tmu(1, TmuReg::S)
        );
        assert_eq!(ReadReg::decode(RegFile::A, a(33)), ReadReg::Unmapped(33));
        assert_eq!(read_name(RegFile::A, a(33)), "ra33");
    }
}

//! The disassembler, and the grammar of the text it prints (which [`super::asm`] reads).
//!
//! The syntax follows Mesa's `qpu_disasm.c` in spirit (add part, mul part, signals, separated
//! by `;`; flags as op suffixes), with some changes that make every word printable and
//! readable back:
//!
//! ```text
//! program  := { line "\n" }
//! line     := [ label ":" ] [ instr ] [ "#" comment ]
//! instr    := alu | branch | ".inst" HEX64
//! alu      := part ";" part [ ";" signal { "," signal } ]      (add part, then mul part)
//! part     := op { "." suffix } [ operand { "," operand } ]
//! suffix   := "v" N        which encoding of an op with several whose extra bits have no
//!                          name here (see `ops`)
//!           | "l" | "h"    output pack (fadd/faddnf/fsub/fmin/fmax/fcmp/fmul, the 4.2 mul
//!                          fmov and rounding ops, the 7.1 add fmov)
//!           | cond | push | update
//! cond     := "ifa" | "ifb" | "ifna" | "ifnb"
//! push     := "pushz" | "pushn" | "pushc"
//! update   := "andz" | "andnz" | "nornz" | "norz" | "andn" | "andnn" | "nornn" | "norn"
//!           | "andc" | "andnc" | "nornc" | "norc"
//! operand  := dest | source
//! dest     := "rf"N | magic name (r0..r5, nop, tlb, tlbu, unifa, tmul, tmud, tmua, tmuau,
//!             vpm, vpmu, sync, syncu, syncb, recip..rsqrt2, tmuc..tmuhslod, r5rep; on 7.1
//!             quad and rep instead of r5/r5rep) | "magic"N (an unnamed magic address)
//! source   := ("r"0-5 | "rf"N | small-imm) [ "." unpack ]
//! unpack   := "abs" | "l" | "h"            float inputs (both inputs of the float ops)
//!           | "ff" | "ll" | "hh" | "swp"   f16 input a of vfmul/vfmin/vfmax
//!           | "ul" | "uh" | "il" | "ih"    input of the 7.1 mov
//!           | "sat" | "nsat" | "max0"      input of the 7.1 add fmov
//! small-imm:= integer -16..15 | float 2^-8 .. 2^7 written with a "." (e.g. 0.5, 1.0)
//! signal   := "thrsw" | "ldunif" | "ldunifa" | "wrtmuc" | "ucb"
//!           | "rot." (small-imm | "r5")    4.2: rotate the mul inputs; the amount is
//!                                          raddr_b (py-videocore6), so port B is taken
//!           | ("ldtmu" | "ldunifrf" | "ldunifarf" | "ldvary" | "ldtlb" | "ldtlbu") "." dest
//! branch   := "b" [ "." bcond ] [ ".msfp" | ".msfq" ] target { "," option }
//! bcond    := "a0" | "na0" | "alla" | "anyna" | "anya" | "allna"
//! target   := "rel" INT | "abs" INT | "lri" | "rf"N | label
//! option   := "link" | "ub" | "bdu" N | "raddr_a" N | "offset" N
//! ```
//!
//! The destination is written unless it is the magic `nop` address; the assembler tells the
//! two forms apart by counting operands against the op's input count. Small-immediate
//! signals are not written: a literal operand implies them. On 4.2 register-file sources go
//! through port A first, then port B (small immediates always use B).
//!
//! [`instruction`] checks its text: it assembles it again and, if that does not give back the
//! same word (unusual port assignment, non-zero don't-care read addresses, a small-immediate
//! signal nothing reads, …), prints `.inst 0x<word>  # <natural text>` instead, so
//! `assemble(instruction(i)) == i` for every decodable instruction.

use super::fields::*;
use super::instr::*;
use super::ops::{self, AddOp, FloatMods, MulOp};
use super::V3dVersion;
use std::fmt::Write;

/// The checked text of one instruction (see the module docs).
pub fn instruction(version: V3dVersion, instr: &Instruction) -> String {
    let text = natural(version, instr);
    let word = instr.encode(version);
    let back = super::asm::assemble(version, &text)
        .ok()
        .and_then(|v| v.first().copied())
        .map(|i| i.encode(version));
    match (word, back) {
        (Ok(w), Some(Ok(b))) if w == b => text,
        (Ok(w), _) => format!(".inst {w:#018x}  # {text}"),
        (Err(e), _) => format!("# unencodable: {e}: {text}"),
    }
}

/// One line per instruction, with `L<n>:` labels at the targets of relative branches that
/// land inside the program (or just past its end) and those branches written with the label.
/// The text assembles back to the same words; if the labelled form would not (it always
/// should), the plain per-instruction form is returned instead.
pub fn program(version: V3dVersion, instrs: &[Instruction]) -> String {
    let plain = || {
        let mut out = String::new();
        for i in instrs {
            let _ = writeln!(out, "{}", instruction(version, i));
        }
        out
    };
    let target = |index: usize, i: &Instruction| match i {
        Instruction::Branch(b) if b.bdi == BranchDest::Rel => {
            let t = index as i64 + 4 + i64::from(b.offset as i32) / 8;
            usize::try_from(t).ok().filter(|&t| t <= instrs.len())
        }
        _ => None,
    };
    let targets: Vec<Option<usize>> = instrs
        .iter()
        .enumerate()
        .map(|(n, i)| target(n, i))
        .collect();
    if targets.iter().all(Option::is_none) {
        return plain();
    }
    // Which instructions are branch targets (a label before them), found once.
    let mut labelled = vec![false; instrs.len() + 1];
    for &t in targets.iter().flatten() {
        labelled[t] = true;
    }
    let mut out = String::new();
    for (n, i) in instrs.iter().enumerate() {
        if labelled[n] {
            let _ = writeln!(out, "L{n}:");
        }
        let mut line = instruction(version, i);
        if let (Some(t), Instruction::Branch(b)) = (targets[n], i) {
            let rel = format!(" rel {}", b.offset as i32);
            line = line.replacen(&rel, &format!(" L{t}"), 1);
        }
        let _ = writeln!(out, "{line}");
    }
    if labelled[instrs.len()] {
        let _ = writeln!(out, "L{}:", instrs.len());
    }
    let same = super::asm::assemble(version, &out).is_ok_and(|back| {
        back.len() == instrs.len()
            && back
                .iter()
                .zip(instrs)
                .all(|(a, b)| a.encode(version).ok() == b.encode(version).ok())
    });
    if same {
        out
    } else {
        plain()
    }
}

/// Disassembles words; undecodable words print as `.inst` with the error as a comment.
pub fn words(version: V3dVersion, words: &[u64]) -> String {
    let mut out = String::new();
    for &w in words {
        match super::decode(version, w) {
            Ok(i) => {
                let _ = writeln!(out, "{}", instruction(version, &i));
            }
            Err(e) => {
                let _ = writeln!(out, ".inst {w:#018x}  # {e}");
            }
        }
    }
    out
}

/// The natural rendering, unchecked.
pub fn natural(version: V3dVersion, instr: &Instruction) -> String {
    match instr {
        Instruction::Branch(b) => branch(b),
        Instruction::Alu(alu) => alu_text(version, alu),
    }
}

fn branch(b: &Branch) -> String {
    let mut s = String::from("b");
    if b.cond != BranchCond::Always {
        let _ = write!(s, ".{}", b.cond.name());
    }
    match b.msfign {
        1 => s.push_str(".msfp"),
        2 => s.push_str(".msfq"),
        _ => {}
    }
    match b.bdi {
        BranchDest::Abs => {
            let _ = write!(s, " abs {:#x}", b.offset);
        }
        BranchDest::Rel => {
            let _ = write!(s, " rel {}", b.offset as i32);
        }
        BranchDest::LinkReg => s.push_str(" lri"),
        BranchDest::Regfile => {
            let _ = write!(s, " rf{}", b.raddr_a);
        }
    }
    if b.link {
        s.push_str(", link");
    }
    if b.ub {
        s.push_str(", ub");
    }
    if b.bdu != 0 {
        let _ = write!(s, ", bdu {}", b.bdu);
    }
    if b.bdi != BranchDest::Regfile && b.raddr_a != 0 {
        let _ = write!(s, ", raddr_a {}", b.raddr_a);
    }
    if !matches!(b.bdi, BranchDest::Abs | BranchDest::Rel) && b.offset != 0 {
        // The offset field is unused for these targets but kept for losslessness.
        let _ = write!(s, ", offset {:#x}", b.offset);
    }
    s
}

/// Name of an add op.
pub fn add_op_name(op: AddOp) -> &'static str {
    use AddOp::*;
    match op {
        Fadd => "fadd",
        Faddnf => "faddnf",
        Vfpack => "vfpack",
        Add => "add",
        Sub => "sub",
        Fsub => "fsub",
        Min => "min",
        Max => "max",
        Umin => "umin",
        Umax => "umax",
        Shl => "shl",
        Shr => "shr",
        Asr => "asr",
        Ror => "ror",
        Fmin => "fmin",
        Fmax => "fmax",
        Vfmin => "vfmin",
        And => "and",
        Or => "or",
        Xor => "xor",
        Vadd => "vadd",
        Vsub => "vsub",
        Not => "not",
        Neg => "neg",
        Flapush => "flapush",
        Flbpush => "flbpush",
        Flpop => "flpop",
        Recip => "recip",
        Setmsf => "setmsf",
        Setrevf => "setrevf",
        Nop => "nop",
        Tidx => "tidx",
        Eidx => "eidx",
        Lr => "lr",
        Vfla => "vfla",
        Vflna => "vflna",
        Vflb => "vflb",
        Vflnb => "vflnb",
        Fxcd => "fxcd",
        Xcd => "xcd",
        Fycd => "fycd",
        Ycd => "ycd",
        Msf => "msf",
        Revf => "revf",
        Iid => "iid",
        Sampid => "sampid",
        Barrierid => "barrierid",
        Tmuwt => "tmuwt",
        Vpmsetup => "vpmsetup",
        Vpmwt => "vpmwt",
        Flafirst => "flafirst",
        Flnafirst => "flnafirst",
        Ldvpmv => "ldvpmv",
        Ldvpmd => "ldvpmd",
        Ldvpmp => "ldvpmp",
        Rsqrt => "rsqrt",
        Exp => "exp",
        Log => "log",
        Sin => "sin",
        Rsqrt2 => "rsqrt2",
        Ballot => "ballot",
        Bcastf => "bcastf",
        Alleq => "alleq",
        Allfeq => "allfeq",
        Ldvpmg => "ldvpmg",
        Stvpm => "stvpm",
        Fcmp => "fcmp",
        Vfmax => "vfmax",
        Fround => "fround",
        Ftoin => "ftoin",
        Ftrunc => "ftrunc",
        Ftoiz => "ftoiz",
        Ffloor => "ffloor",
        Ftouz => "ftouz",
        Fceil => "fceil",
        Ftoc => "ftoc",
        Fdx => "fdx",
        Fdy => "fdy",
        Itof => "itof",
        Clz => "clz",
        Utof => "utof",
        Fmov => "fmov",
        Mov => "mov",
        Vpack => "vpack",
        V8pack => "v8pack",
        V10pack => "v10pack",
        V11fpack => "v11fpack",
        Rotq => "quad_rotate",
        Rot => "rotate",
        Shuffle => "shuffle",
    }
}

/// Name of a mul op.
pub fn mul_op_name(op: MulOp) -> &'static str {
    use MulOp::*;
    match op {
        Add => "add",
        Sub => "sub",
        Umul24 => "umul24",
        Vfmul => "vfmul",
        Smul24 => "smul24",
        Multop => "multop",
        Fmov => "fmov",
        Mov => "mov",
        Nop => "nop",
        Fmul => "fmul",
        Ftounorm16 => "ftounorm16",
        Ftosnorm16 => "ftosnorm16",
        Vftounorm8 => "vftounorm8",
        Vftosnorm8 => "vftosnorm8",
        Funpackunormlo => "funpackunormlo",
        Funpackunormhi => "funpackunormhi",
        Funpacksnormlo => "funpacksnormlo",
        Funpacksnormhi => "funpacksnormhi",
        Vftounorm10lo => "vftounorm10lo",
        Vftounorm10hi => "vftounorm10hi",
    }
}

/// Text of a small immediate: integers in decimal, floats with a decimal point.
pub(crate) fn small_imm_text(index: u8) -> String {
    match index {
        0..=31 => (small_imm_value(index).unwrap_or(0) as i32).to_string(),
        _ => format!("{:?}", f32::from_bits(small_imm_value(index).unwrap_or(0))),
    }
}

/// One ALU input as text: which field it reads and whether that is a small immediate.
fn source(alu: &AluInstruction, mul: bool, input: usize) -> String {
    match alu.input(2 * usize::from(mul) + input.min(1)) {
        InputSource::Acc(n) => format!("r{n}"),
        InputSource::Rf(r) => format!("rf{r}"),
        InputSource::SmallImm(i) => small_imm_text(i),
    }
}

fn pack_suffix(m: &FloatMods) -> &'static str {
    match m.pack {
        ops::FloatPack::None => "",
        ops::FloatPack::L => ".l",
        ops::FloatPack::H => ".h",
    }
}

#[allow(clippy::too_many_arguments)]
fn part(
    out: &mut String,
    version: V3dVersion,
    alu: &AluInstruction,
    mul: bool,
    name: &str,
    variants: usize,
    variant: u8,
    mods: Option<FloatMods>,
    scheme: Option<ops::Scheme>,
    waddr: Waddr,
    arity: u8,
    cond: Option<Cond>,
    push: Option<PushFlag>,
    update: Option<UpdateFlag>,
) {
    out.push_str(name);
    let named = scheme.and_then(|s| s.split(variant));
    match (mods, named) {
        (Some(m), _) => out.push_str(pack_suffix(&m)),
        (None, Some((pack, _))) => out.push_str(["", ".l", ".h"][usize::from(pack.min(2))]),
        (None, None) if variants > 1 => {
            let _ = write!(out, ".v{variant}");
        }
        (None, None) => {}
    }
    if let Some(c) = cond {
        let _ = write!(out, ".{}", c.name());
    }
    if let Some(p) = push {
        let _ = write!(out, ".{}", p.name());
    }
    if let Some(u) = update {
        let _ = write!(out, ".{}", u.name());
    }
    let mut operands = Vec::new();
    if waddr != Waddr::NOP {
        operands.push(waddr.name(version));
    }
    for i in 0..usize::from(arity) {
        let mut s = source(alu, mul, i);
        if let Some(m) = mods {
            let u = if i == 0 { m.a } else { m.b };
            if !u.suffix().is_empty() {
                s.push('.');
                s.push_str(u.suffix());
            }
        }
        if let (0, Some((_, unpack))) = (i, named) {
            if !unpack.is_empty() {
                s.push('.');
                s.push_str(unpack);
            }
        }
        operands.push(s);
    }
    if !operands.is_empty() {
        out.push(' ');
        out.push_str(&operands.join(", "));
    }
}

fn alu_text(version: V3dVersion, alu: &AluInstruction) -> String {
    let f = alu.flags();
    let mut s = String::new();
    let add_variants = ops::variants(
        ops::add_rows(version),
        match alu.add.op {
            AddOp::Faddnf => AddOp::Fadd,
            AddOp::Fmax => AddOp::Fmin,
            op => op,
        },
    );
    part(
        &mut s,
        version,
        alu,
        false,
        add_op_name(alu.add.op),
        add_variants,
        alu.add.variant,
        alu.add_float_mods(),
        ops::add_scheme(version, alu.add.op),
        alu.add.waddr,
        alu.add_arity(),
        f.ac,
        f.apf,
        f.auf,
    );
    s.push_str(" ; ");
    part(
        &mut s,
        version,
        alu,
        true,
        mul_op_name(alu.mul.op),
        ops::variants(ops::mul_rows(version), alu.mul.op),
        alu.mul.variant,
        alu.mul_float_mods(),
        ops::mul_scheme(version, alu.mul.op),
        alu.mul.waddr,
        alu.mul_arity(),
        f.mc,
        f.mpf,
        f.muf,
    );
    let sigs: Vec<String> = alu
        .signals
        .iter()
        .filter(|s| {
            !matches!(
                s,
                Signal::SmallImmA | Signal::SmallImmB | Signal::SmallImmC | Signal::SmallImmD
            )
        })
        .map(|sig| match (alu.cond, alu.inputs) {
            (CondField::SigAddr(w), _) if sig.writes_address() => {
                format!("{}.{}", sig.name(), w.name(version))
            }
            // 4.2 rot: the amount is raddr_b as a small-immediate index, 0 = by r5
            // (py-videocore6 `ALURaddrs.pack`).
            (_, Inputs::V42 { raddr_b, .. }) if sig == Signal::Rot => {
                if raddr_b == 0 {
                    "rot.r5".to_string()
                } else {
                    format!("rot.{}", small_imm_text(raddr_b))
                }
            }
            _ => sig.name().to_string(),
        })
        .collect();
    if !sigs.is_empty() {
        s.push_str(" ; ");
        s.push_str(&sigs.join(", "));
    }
    s
}

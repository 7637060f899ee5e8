//! The disassembler: instructions to the assembler's canonical text.
//!
//! The text is checked: [`instruction`] renders the natural form, assembles it again and
//! compares. If a shared register name (`unif`, `vpm`, `-`) would land in the other file it
//! retries with explicit `raN`/`rbN` names; if the word uses fields the natural syntax cannot
//! show (an unpack with no operand to attach it to, don't-care bits with non-zero values), it
//! prints `.inst 0x<word>` followed by the natural form as a comment. So
//! `assemble(disassemble(i)) == i` always holds.

use crate::vc4::asm::{assemble_instruction, pack_suffix};
use crate::vc4::fields::*;
use crate::vc4::instr::*;
use crate::vc4::regs::{read_name, read_name_is_shared, write_name};
use std::fmt::Write;

/// Register naming: natural (shared names like `unif`) or explicit (`ra32`).
#[derive(Clone, Copy, PartialEq)]
enum Naming {
    Natural,
    Explicit,
}

/// The canonical text of one instruction. Branch targets print as numbers.
pub fn instruction(instr: &Instruction) -> String {
    render_checked(instr, None)
}

/// The canonical text of a program: one instruction per line, with `:L<n>` labels at the
/// targets of relative branches that land inside (or just past) the program.
pub fn program(instrs: &[Instruction]) -> String {
    let mut out = String::new();
    for line in lines(instrs) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// [`program`] one line at a time (without line ends), made as they are asked for: a
/// caller writing a long listing to a pipe can stop early. The branch targets are found
/// first (one pass over `instrs`).
pub fn lines(instrs: &[Instruction]) -> impl Iterator<Item = String> + '_ {
    let mut labels = vec![false; instrs.len() + 1];
    let targets: Vec<Option<usize>> = instrs
        .iter()
        .enumerate()
        .map(|(i, instr)| branch_target(i, instr, instrs.len()))
        .collect();
    for &t in targets.iter().flatten() {
        labels[t] = true;
    }
    let end = labels[instrs.len()].then(|| format!(":L{}", instrs.len()));
    instrs
        .iter()
        .enumerate()
        .flat_map(move |(i, instr)| {
            let label = labels[i].then(|| format!(":L{i}"));
            let text = render_checked(instr, targets[i].map(|t| format!("r:L{t}")));
            label.into_iter().chain(std::iter::once(text))
        })
        .chain(end)
}

/// The instruction index a relative branch at `index` lands on, if inside `0..=len`.
fn branch_target(index: usize, instr: &Instruction, len: usize) -> Option<usize> {
    let Instruction::Branch(br) = instr else {
        return None;
    };
    if !br.relative || br.imm % 8 != 0 {
        return None;
    }
    let target = index as i64 + 4 + i64::from(br.imm / 8);
    (0..=len as i64)
        .contains(&target)
        .then_some(target as usize)
}

fn render_checked(instr: &Instruction, label: Option<String>) -> String {
    for naming in [Naming::Natural, Naming::Explicit] {
        let numeric = render(instr, naming, None);
        if assemble_instruction(&numeric).as_ref() == Ok(instr) {
            return match label {
                Some(_) => render(instr, naming, label),
                None => numeric,
            };
        }
    }
    format!(
        ".inst {:#018x}  # {}",
        instr.encode(),
        render(instr, Naming::Natural, None)
    )
}

fn read_reg(file: RegFile, addr: RegAddr, naming: Naming) -> String {
    if naming == Naming::Explicit && read_name_is_shared(file, addr) {
        raw(file, addr)
    } else {
        read_name(file, addr)
    }
}

fn write_reg(file: RegFile, addr: RegAddr, naming: Naming) -> String {
    let name = write_name(file, addr);
    let shared = !addr.is_physical() && write_name(other(file), addr) == name;
    if naming == Naming::Explicit && shared {
        raw(file, addr)
    } else {
        name
    }
}

/// A destination name that can carry a pack suffix: `-` has no room for one, so a packed
/// write to nothing prints as `ra39`/`rb39`.
fn packable_name(file: RegFile, addr: RegAddr, naming: Naming) -> String {
    if addr == RegAddr::NOP {
        raw(file, addr)
    } else {
        write_reg(file, addr, naming)
    }
}

fn other(file: RegFile) -> RegFile {
    match file {
        RegFile::A => RegFile::B,
        RegFile::B => RegFile::A,
    }
}

fn raw(file: RegFile, addr: RegAddr) -> String {
    match file {
        RegFile::A => format!("ra{}", addr.index()),
        RegFile::B => format!("rb{}", addr.index()),
    }
}

fn int_text(value: u32) -> String {
    let signed = value as i32;
    if (-256..=256).contains(&signed) {
        signed.to_string()
    } else {
        format!("{value:#010x}")
    }
}

fn float_text(f: f32) -> String {
    // `{:?}` prints the shortest text that parses back to the same bits, always with a `.`.
    format!("{f:?}")
}

struct AluText<'a> {
    alu: &'a AluInstruction,
    naming: Naming,
}

impl AluText<'_> {
    fn operand(&self, mux: InputMux, shift_amount: bool) -> String {
        let alu = self.alu;
        match mux {
            InputMux::R4 => match alu.write.pack {
                Pack::Mul(_) if alu.unpack != Unpack::None => {
                    format!("r4.{}", alu.unpack.mnemonic())
                }
                _ => "r4".into(),
            },
            InputMux::A => {
                let name = read_reg(RegFile::A, alu.raddr_a, self.naming);
                match alu.write.pack {
                    Pack::RegfileA(_) if alu.unpack != Unpack::None => {
                        format!("{name}.{}", alu.unpack.mnemonic())
                    }
                    _ => name,
                }
            }
            InputMux::B => match alu.b {
                ReadB::Register { raddr_b, .. } => read_reg(RegFile::B, raddr_b, self.naming),
                ReadB::SmallImm(imm) => match imm.value() {
                    // A shift uses the low 5 bits: -16..-1 shift by 16..31.
                    SmallImmValue::Int(i) if shift_amount && i < 0 => (i + 32).to_string(),
                    SmallImmValue::Int(i) => i.to_string(),
                    SmallImmValue::Float(f) => float_text(f),
                    SmallImmValue::RotateByR5 | SmallImmValue::Rotate(_) => {
                        (imm.operand_bits() as i32).to_string()
                    }
                },
            },
            acc => acc.mnemonic().to_string(),
        }
    }

    fn is_literal(&self, mux: InputMux) -> bool {
        mux == InputMux::B && self.alu.small_imm().is_some()
    }

    /// Which ALU's destination a regfile-A pack or colour pack is written on.
    fn packed_side_is_add(&self) -> Option<bool> {
        let write = &self.alu.write;
        match write.pack {
            Pack::RegfileA(PackA::None) | Pack::Mul(PackMul::None) => None,
            Pack::RegfileA(_) => Some(write.write_swap == WriteSwap::AddToA),
            Pack::Mul(_) => Some(false),
        }
    }

    fn dst(&self, add_side: bool) -> String {
        let write = &self.alu.write;
        let (file, addr) = if add_side {
            (write.write_swap.add_file(), write.waddr_add)
        } else {
            (write.write_swap.mul_file(), write.waddr_mul)
        };
        match (self.packed_side_is_add(), pack_suffix(write.pack)) {
            (Some(side), Some(suffix)) if side == add_side => {
                format!("{}.{suffix}", packable_name(file, addr, self.naming))
            }
            _ => write_reg(file, addr, self.naming),
        }
    }

    /// `nop` alone: the ALU does nothing and its fields hold their don't-care defaults.
    fn is_short_nop(&self, add_side: bool) -> bool {
        let alu = self.alu;
        let packed_here = self.packed_side_is_add() == Some(add_side);
        if add_side {
            alu.op_add == AddOp::Nop
                && alu.write.waddr_add == RegAddr::NOP
                && alu.write.cond_add == Cond::Never
                && (alu.add_a, alu.add_b) == (InputMux::R0, InputMux::R0)
                && !packed_here
        } else {
            alu.op_mul == MulOp::Nop
                && alu.write.waddr_mul == RegAddr::NOP
                && alu.write.cond_mul == Cond::Never
                && (alu.mul_a, alu.mul_b) == (InputMux::R0, InputMux::R0)
                && !packed_here
                && !alu.small_imm().is_some_and(SmallImm::is_rotation)
        }
    }

    /// Renders one side; records which muxes it printed.
    fn side(&self, add_side: bool, setf_here: bool, used: &mut Vec<InputMux>) -> String {
        let alu = self.alu;
        let setf = if setf_here { ".setf" } else { "" };
        if self.is_short_nop(add_side) {
            return format!("nop{setf}");
        }
        let (mnemonic, unary, a, b, cond, waddr) = if add_side {
            let mov =
                alu.op_add == AddOp::Or && alu.add_a == alu.add_b && !self.is_literal(alu.add_a);
            let name = if mov { "mov" } else { alu.op_add.mnemonic() };
            (
                name,
                mov || alu.op_add.is_unary(),
                alu.add_a,
                alu.add_b,
                alu.write.cond_add,
                alu.write.waddr_add,
            )
        } else {
            let mov =
                alu.op_mul == MulOp::V8min && alu.mul_a == alu.mul_b && !self.is_literal(alu.mul_a);
            let name = if mov { "mov" } else { alu.op_mul.mnemonic() };
            (
                name,
                mov,
                alu.mul_a,
                alu.mul_b,
                alu.write.cond_mul,
                alu.write.waddr_mul,
            )
        };
        let sets_flags = alu.write.set_flags
            && if add_side {
                alu.op_add != AddOp::Nop
            } else {
                alu.op_add == AddOp::Nop && alu.op_mul != MulOp::Nop
            };
        let cond_text = if cond == Cond::default_for(waddr == RegAddr::NOP, sets_flags) {
            String::new()
        } else {
            format!(".{}", cond.mnemonic())
        };
        let mut text = format!(
            "{mnemonic}{cond_text}{setf} {}, {}",
            self.dst(add_side),
            self.operand(a, false)
        );
        used.push(a);
        let rotation = match alu.small_imm().map(SmallImm::value) {
            Some(SmallImmValue::RotateByR5) if !add_side => " >> r5".to_string(),
            Some(SmallImmValue::Rotate(n)) if !add_side => format!(" >> {n}"),
            _ => String::new(),
        };
        if unary && a == b {
            text.push_str(&rotation);
        } else {
            let shift = add_side
                && matches!(
                    alu.op_add,
                    AddOp::Shr | AddOp::Asr | AddOp::Ror | AddOp::Shl
                );
            let _ = write!(text, ", {}{rotation}", self.operand(b, shift));
            used.push(b);
        }
        text
    }

    fn render(&self) -> String {
        let alu = self.alu;
        let add_short = self.is_short_nop(true);
        let mul_short = self.is_short_nop(false);
        let sf = alu.write.set_flags;
        let setf_on_add = sf && (!add_short || mul_short);
        let mut used = Vec::new();
        let mut text = self.side(true, setf_on_add, &mut used);
        if !mul_short {
            let _ = write!(
                text,
                "; {}",
                self.side(false, sf && !setf_on_add, &mut used)
            );
        }
        if alu.signal() != Signal::None {
            let _ = write!(text, "; {}", alu.signal().mnemonic());
        }
        if alu.raddr_a != RegAddr::NOP && !used.contains(&InputMux::A) {
            let _ = write!(
                text,
                "; read {}",
                read_reg(RegFile::A, alu.raddr_a, self.naming)
            );
        }
        if !used.contains(&InputMux::B) {
            match alu.b {
                ReadB::Register { raddr_b, .. } if raddr_b != RegAddr::NOP => {
                    let _ = write!(
                        text,
                        "; read {}",
                        read_reg(RegFile::B, raddr_b, self.naming)
                    );
                }
                ReadB::SmallImm(imm) if !imm.is_rotation() => {
                    let _ = write!(text, "; read {}", self.operand(InputMux::B, false));
                }
                _ => {}
            }
        }
        text
    }
}

/// `dst[, dst2]` and the condition suffix for the load-immediate and semaphore forms.
fn write_back_text(write: &WriteBack, naming: Naming) -> (String, String) {
    let add_file = write.write_swap.add_file();
    let mul_file = write.write_swap.mul_file();
    let suffix = pack_suffix(write.pack);
    let packed_add =
        matches!(write.pack, Pack::RegfileA(p) if p != PackA::None) && add_file == RegFile::A;
    let packed_mul = suffix.is_some() && !packed_add;
    let dst = |file: RegFile, addr: RegAddr, here: bool| match (&suffix, here) {
        (Some(s), true) => format!("{}.{s}", packable_name(file, addr, naming)),
        _ => write_reg(file, addr, naming),
    };
    let mut dsts = dst(add_file, write.waddr_add, packed_add);
    let two = write.waddr_mul != RegAddr::NOP || write.cond_mul != Cond::Never || packed_mul;
    // One written condition covers every destination written out; when none is written each
    // destination takes its default.
    let cond = if write.cond_add
        != Cond::default_for(write.waddr_add == RegAddr::NOP, write.set_flags)
        || (two && write.cond_mul != Cond::default_for(write.waddr_mul == RegAddr::NOP, false))
    {
        format!(".{}", write.cond_add.mnemonic())
    } else {
        String::new()
    };
    if two {
        let _ = write!(dsts, ", {}", dst(mul_file, write.waddr_mul, packed_mul));
    }
    let setf = if write.set_flags { ".setf" } else { "" };
    (dsts, format!("{cond}{setf}"))
}

fn render(instr: &Instruction, naming: Naming, label: Option<String>) -> String {
    match instr {
        Instruction::Alu(alu) => AluText { alu, naming }.render(),
        Instruction::LoadImm(ldi) => {
            let (dsts, suffixes) = write_back_text(&ldi.write, naming);
            match ldi.mode {
                LoadImmMode::Uniform32 => format!("ldi{suffixes} {dsts}, {}", int_text(ldi.imm)),
                mode => {
                    let lanes: Vec<String> = (0..16)
                        .map(|lane| (mode.lane_value(ldi.imm, lane) as i32).to_string())
                        .collect();
                    let m = if mode == LoadImmMode::PerElementSigned {
                        "es"
                    } else {
                        "eu"
                    };
                    format!("ldi.{m}{suffixes} {dsts}, [{}]", lanes.join(", "))
                }
            }
        }
        Instruction::Semaphore(sema) => {
            let (dsts, suffixes) = write_back_text(&sema.write, naming);
            let name = if sema.acquire { "sacq" } else { "srel" };
            format!("{name}{suffixes} {dsts}, {}", sema.semaphore.index())
        }
        Instruction::Branch(br) => {
            let name = if br.relative { "brr" } else { "bra" };
            let cond = if br.cond == BranchCond::Always {
                String::new()
            } else {
                format!(".{}", br.cond.mnemonic())
            };
            let mut text = format!(
                "{name}{cond} {}",
                write_reg(br.write_swap.add_file(), br.waddr_add, naming)
            );
            if br.waddr_mul != RegAddr::NOP {
                let _ = write!(
                    text,
                    ", {}",
                    write_reg(br.write_swap.mul_file(), br.waddr_mul, naming)
                );
            }
            if br.use_raddr_a {
                let _ = write!(text, ", ra{}", br.raddr_a.index());
            }
            let target = match label {
                Some(label) => label,
                None if br.relative => br.imm.to_string(),
                None => format!("{:#x}", br.imm as u32),
            };
            let _ = write!(text, ", {target}");
            text
        }
    }
}

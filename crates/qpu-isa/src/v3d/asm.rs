//! The assembler for the text [`super::disasm`] prints (grammar in that module's docs).
//!
//! Every error names its line and column; no input makes it panic. The assembler builds an
//! instruction, encodes it and decodes the word again, so what it returns is exactly what
//! [`super::decode`] would give for that word.

use super::disasm::{add_op_name, mul_op_name};
use super::fields::*;
use super::instr::*;
use super::ops::{self, AddOp, FloatPack, FloatUnpack, MulOp, Scheme};
use super::{build, EncodeError, V3dVersion};
use std::collections::HashMap;

/// An assembly error at a line and column (both 1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct AsmError {
    /// Line number.
    pub line: usize,
    /// Column (characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Comma,
    Semi,
    Colon,
}

#[derive(Clone, Debug)]
struct Spanned {
    tok: Tok,
    col: usize,
    len: usize,
}

fn err(line: usize, column: usize, message: impl Into<String>) -> AsmError {
    AsmError {
        line,
        column,
        message: message.into(),
    }
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '+')
}

fn tokenize(text: &str, line: usize) -> Result<Vec<Spanned>, AsmError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c == '#' {
            break;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let tok = match c {
            ',' => Tok::Comma,
            ';' => Tok::Semi,
            ':' => Tok::Colon,
            c if is_word_char(c) => {
                let start = i;
                while i < chars.len() && is_word_char(chars[i]) {
                    i += 1;
                }
                out.push(Spanned {
                    tok: Tok::Word(chars[start..i].iter().collect()),
                    col,
                    len: i - start,
                });
                continue;
            }
            other => return Err(err(line, col, format!("unexpected character `{other}`"))),
        };
        out.push(Spanned { tok, col, len: 1 });
        i += 1;
    }
    Ok(out)
}

/// Assembles a program for `version`.
pub fn assemble(version: V3dVersion, text: &str) -> Result<Vec<Instruction>, AsmError> {
    // Pass 1: labels and the instruction index of each line.
    let mut labels: HashMap<String, usize> = HashMap::new();
    let mut lines = Vec::new();
    let mut count = 0usize;
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let mut toks = tokenize(raw, line)?;
        if toks.len() >= 2 && toks[1].tok == Tok::Colon {
            if let Tok::Word(name) = &toks[0].tok {
                if !is_label(name) {
                    return Err(err(
                        line,
                        toks[0].col,
                        format!("`{name}` is not a label name"),
                    ));
                }
                if labels.insert(name.clone(), count).is_some() {
                    return Err(err(
                        line,
                        toks[0].col,
                        format!("label `{name}` defined twice"),
                    ));
                }
                toks.drain(..2);
            }
        }
        if !toks.is_empty() {
            lines.push((line, toks, count));
            count += 1;
        }
    }
    // Pass 2: instructions.
    let mut out = Vec::with_capacity(lines.len());
    for (line, toks, index) in lines {
        let p = Parser {
            version,
            line,
            toks: &toks,
            pos: 0,
            labels: &labels,
            index,
        };
        out.push(p.instruction()?);
    }
    Ok(out)
}

fn is_label(name: &str) -> bool {
    if matches!(
        name,
        "rel" | "abs" | "lri" | "b" | "link" | "ub" | "bdu" | "raddr_a" | "offset"
    ) || name.strip_prefix("rf").and_then(parse_index).is_some()
    {
        return false;
    }
    let mut cs = name.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

struct Parser<'a> {
    version: V3dVersion,
    line: usize,
    toks: &'a [Spanned],
    pos: usize,
    labels: &'a HashMap<String, usize>,
    index: usize,
}

/// One source operand as written.
#[derive(Clone, Copy, Debug)]
enum Src {
    Acc(u8),
    Rf(u8),
    Imm(u8),
}

struct Part {
    col: usize,
    name: String,
    name_col: usize,
    suffixes: Vec<(String, usize)>,
    operands: Vec<(String, usize)>,
}

impl Parser<'_> {
    fn err_at(&self, col: usize, msg: impl Into<String>) -> AsmError {
        err(self.line, col, msg)
    }

    fn end_col(&self) -> usize {
        self.toks.last().map_or(1, |t| t.col + t.len)
    }

    fn instruction(mut self) -> Result<Instruction, AsmError> {
        let first = match &self.toks[0].tok {
            Tok::Word(w) => w.clone(),
            _ => return Err(self.err_at(self.toks[0].col, "expected an instruction")),
        };
        let col = self.toks[0].col;
        if first == ".inst" {
            return self.inst();
        }
        if first == "b" || first.starts_with("b.") {
            return self.branch();
        }
        // ALU: split at `;`.
        let mut groups: Vec<Vec<Spanned>> = vec![Vec::new()];
        for t in self.toks {
            if t.tok == Tok::Semi {
                groups.push(Vec::new());
            } else if let Some(g) = groups.last_mut() {
                g.push(t.clone());
            }
        }
        if groups.len() < 2 {
            return Err(self.err_at(
                self.end_col(),
                "expected `;` and the mul ALU part (write `nop` for an idle mul ALU)",
            ));
        }
        if groups.len() > 3 {
            return Err(self.err_at(col, "too many `;`: expected add ; mul [; signals]"));
        }
        let add = self.part(&groups[0])?;
        let mul = self.part(&groups[1])?;
        let sigs = groups.get(2).map(|g| g.as_slice()).unwrap_or(&[]);
        self.pos = self.toks.len();
        self.alu(add, mul, sigs)
    }

    fn inst(&self) -> Result<Instruction, AsmError> {
        let Some(Spanned {
            tok: Tok::Word(hex),
            col,
            ..
        }) = self.toks.get(1)
        else {
            return Err(self.err_at(self.end_col(), "`.inst` needs a 64-bit hex word"));
        };
        if self.toks.len() > 2 {
            return Err(self.err_at(self.toks[2].col, "unexpected text after the `.inst` word"));
        }
        let digits = hex
            .strip_prefix("0x")
            .ok_or_else(|| self.err_at(*col, "`.inst` word must be written 0x…"))?;
        let word = u64::from_str_radix(&digits.replace('_', ""), 16)
            .map_err(|_| self.err_at(*col, format!("`{hex}` is not a 64-bit hex number")))?;
        super::decode(self.version, word).map_err(|e| self.err_at(*col, e.to_string()))
    }

    fn part(&self, toks: &[Spanned]) -> Result<Part, AsmError> {
        let Some(first) = toks.first() else {
            return Err(self.err_at(self.end_col(), "empty ALU part (write `nop`)"));
        };
        let Tok::Word(w) = &first.tok else {
            return Err(self.err_at(first.col, "expected an operation name"));
        };
        let mut pieces = w.split('.');
        let name = pieces.next().unwrap_or_default().to_string();
        let mut suffixes = Vec::new();
        let mut c = first.col + name.len();
        for s in pieces {
            suffixes.push((s.to_string(), c + 1));
            c += s.len() + 1;
        }
        let mut operands = Vec::new();
        let mut expect_operand = true;
        for t in &toks[1..] {
            match (&t.tok, expect_operand) {
                (Tok::Word(w), true) => {
                    operands.push((w.clone(), t.col));
                    expect_operand = false;
                }
                (Tok::Comma, false) => expect_operand = true,
                (Tok::Word(w), false) => {
                    return Err(self.err_at(t.col, format!("expected `,` before `{w}`")))
                }
                _ => return Err(self.err_at(t.col, "expected an operand")),
            }
        }
        if expect_operand && !operands.is_empty() {
            return Err(self.err_at(self.end_col(), "operand missing after `,`"));
        }
        Ok(Part {
            col: first.col,
            name,
            name_col: first.col,
            suffixes,
            operands,
        })
    }

    /// Parses a source operand: register or small immediate, with an optional unpack suffix.
    fn source(&self, text: &str, col: usize) -> Result<(Src, &'static str), AsmError> {
        const UNPACKS: [&str; 14] = [
            "abs", "l", "h", "ff", "ll", "hh", "swp", "ul", "uh", "il", "ih", "sat", "nsat", "max0",
        ];
        let (body, unpack) = match text.rsplit_once('.') {
            Some((b, u)) => match UNPACKS.iter().find(|&&n| n == u) {
                Some(&n) => (b, n),
                None => (text, ""),
            },
            None => (text, ""),
        };
        if let Some(n) = body.strip_prefix("rf") {
            let i = parse_index(n)
                .filter(|&i| i < 64)
                .ok_or_else(|| self.err_at(col, format!("`{body}`: register file is rf0..rf63")))?;
            return Ok((Src::Rf(i), unpack));
        }
        if let Some(n) = body.strip_prefix('r') {
            if self.version == V3dVersion::V71 {
                return Err(self.err_at(col, format!("`{body}`: V3D 7.1 has no accumulators")));
            }
            let i = parse_index(n)
                .filter(|&i| i < 6)
                .ok_or_else(|| self.err_at(col, format!("`{body}`: accumulators are r0..r5")))?;
            return Ok((Src::Acc(i), unpack));
        }
        let bits = if body.contains('.') || body.contains('e') {
            body.parse::<f32>().ok().map(f32::to_bits)
        } else {
            body.parse::<i32>().ok().map(|v| v as u32)
        };
        let Some(bits) = bits else {
            return Err(self.err_at(col, format!("`{text}` is not a register or a number")));
        };
        let idx = small_imm_index(bits).ok_or_else(|| {
            self.err_at(
                col,
                format!("`{body}` is not a small immediate (-16..15 or a power of two 2^-8..2^7 written with a `.`)"),
            )
        })?;
        Ok((Src::Imm(idx), unpack))
    }

    /// The raddr_b value of a 4.2 `rot.N` / `rot.r5` (py-videocore6: the amount as a
    /// small-immediate index, 0 meaning "by r5").
    fn rot_amount(&self, text: &str, col: usize) -> Result<u8, AsmError> {
        if text == "r5" {
            return Ok(0);
        }
        match self.source(text, col)? {
            (Src::Imm(0), _) => {
                Err(self.err_at(col, "rot.0 encodes as rot.r5 (raddr_b = 0): write rot.r5"))
            }
            (Src::Imm(i), "") => Ok(i),
            _ => Err(self.err_at(
                col,
                format!("`{text}`: a rot amount is a small immediate or r5"),
            )),
        }
    }

    fn dest(&self, text: &str, col: usize) -> Result<Waddr, AsmError> {
        Waddr::parse(self.version, text).ok_or_else(|| {
            self.err_at(
                col,
                format!("`{text}` is not a destination on this version"),
            )
        })
    }

    fn alu(&self, add: Part, mul: Part, sigs: &[Spanned]) -> Result<Instruction, AsmError> {
        let v = self.version;
        let mut flags = Flags::default();
        let mut signals = Signals::NONE;
        let mut sig_addr: Option<Waddr> = None;
        let mut rot: Option<u8> = None;

        // Signals.
        let mut expect = true;
        for t in sigs {
            match (&t.tok, expect) {
                (Tok::Word(w), true) => {
                    let (name, dest) = match w.split_once('.') {
                        Some((n, d)) => (n, Some(d)),
                        None => (w.as_str(), None),
                    };
                    let sig = Signal::ALL
                        .into_iter()
                        .find(|s| s.name() == name && !name.starts_with("smimm"))
                        .ok_or_else(|| self.err_at(t.col, format!("unknown signal `{name}`")))?;
                    if signals.contains(sig) {
                        return Err(self.err_at(t.col, format!("signal `{name}` given twice")));
                    }
                    signals = signals.with(sig);
                    match (sig.writes_address(), dest) {
                        (true, Some(d)) => {
                            if sig_addr.is_some() {
                                return Err(self.err_at(t.col, "only one signal may write a register"));
                            }
                            sig_addr = Some(self.dest(d, t.col + name.len() + 1)?);
                        }
                        (true, None) => {
                            return Err(self.err_at(
                                t.col,
                                format!("`{name}` writes a register: write `{name}.rf0` or another destination"),
                            ))
                        }
                        (false, Some(amount)) if sig == Signal::Rot => {
                            rot = Some(self.rot_amount(amount, t.col + name.len() + 1)?);
                        }
                        (false, None) if sig == Signal::Rot && v == V3dVersion::V42 => {
                            return Err(self.err_at(
                                t.col,
                                "`rot` needs an amount: rot.N (N = 1..15 or -16..-1) or rot.r5",
                            ))
                        }
                        (false, Some(_)) => {
                            return Err(self.err_at(t.col, format!("`{name}` takes no destination")))
                        }
                        (false, None) => {}
                    }
                    expect = false;
                }
                (Tok::Comma, false) => expect = true,
                _ => return Err(self.err_at(t.col, "expected a signal name")),
            }
        }
        if expect && !sigs.is_empty() {
            return Err(self.err_at(self.end_col(), "signal missing after `,`"));
        }

        // Ops and their encodings.
        let (add_op, add_variant, add_unp, add_waddr, add_srcs) =
            self.alu_part(&add, false, &mut flags)?;
        let (mul_op, mul_variant, _, mul_waddr, mul_srcs) =
            self.alu_part(&mul, true, &mut flags)?;

        // Operands into input fields, through the builder the compiler uses too.
        let input = |srcs: &[(Src, usize)]| -> [InputSource; 2] {
            let mut out = [InputSource::Acc(0); 2];
            for (slot, (s, _)) in out.iter_mut().zip(srcs) {
                *slot = match *s {
                    Src::Acc(n) => InputSource::Acc(n),
                    Src::Rf(r) => InputSource::Rf(r),
                    Src::Imm(i) => InputSource::SmallImm(i),
                };
            }
            out
        };
        let (pack, unpack_a, unpack_b) = add_unp;
        let add_operation = build::Operation {
            op: add_op,
            variant: add_variant,
            waddr: add_waddr,
            inputs: input(&add_srcs),
            arity: add_srcs.len().min(2) as u8,
            pack,
            unpack_a,
            unpack_b,
        };
        let mul_operation = build::Operation::plain(
            mul_op,
            mul_variant,
            mul_waddr,
            &input(&mul_srcs)[..mul_srcs.len().min(2)],
        );
        let extras = build::Extras {
            signals,
            sig_addr,
            flags,
            rot,
        };
        match build::alu(v, Some(&add_operation), Some(&mul_operation), extras) {
            Ok(alu) => Ok(Instruction::Alu(alu)),
            Err(e) => {
                let col = |input: usize| {
                    let srcs = if input < 2 { &add_srcs } else { &mul_srcs };
                    srcs.get(input % 2).map_or(add.col, |s| s.1)
                };
                Err(match e {
                    build::BuildError::Ports { input }
                    | build::BuildError::SmallImmediates { input }
                    | build::BuildError::NoAccumulators { input } => {
                        self.err_at(col(input), e.to_string())
                    }
                    build::BuildError::Encode(EncodeError::OperandOrder(op)) => self.err_at(
                        add.name_col,
                        format!(
                            "`{}` cannot be encoded with these inputs in either order (equal inputs select `{}`)",
                            add_op_name(op),
                            add_op_name(match op {
                                AddOp::Faddnf => AddOp::Fadd,
                                AddOp::Fmax => AddOp::Fmin,
                                other => other,
                            })
                        ),
                    ),
                    e => self.err_at(add.col, e.to_string()),
                })
            }
        }
    }

    /// One ALU part: op, variant, unpacks, destination and sources (with columns).
    #[allow(clippy::type_complexity)]
    fn alu_part<K>(
        &self,
        part: &Part,
        mul: bool,
        flags: &mut Flags,
    ) -> Result<(K, u8, FloatMods3, Waddr, Vec<(Src, usize)>), AsmError>
    where
        K: OpKind,
    {
        let v = self.version;
        let op = K::parse(v, &part.name).ok_or_else(|| {
            self.err_at(
                part.name_col,
                format!(
                    "unknown {} op `{}` on this version",
                    if mul { "mul" } else { "add" },
                    part.name
                ),
            )
        })?;
        let mut pack = FloatPack::None;
        let mut variant: Option<u8> = None;
        for (s, col) in &part.suffixes {
            let col = *col;
            if let Some(c) = Cond::ALL.into_iter().find(|c| c.name() == s) {
                let slot = if mul { &mut flags.mc } else { &mut flags.ac };
                if slot.replace(c).is_some() {
                    return Err(self.err_at(col, "two conditions on one op"));
                }
            } else if let Some(p) = PushFlag::ALL.into_iter().find(|p| p.name() == s) {
                let slot = if mul { &mut flags.mpf } else { &mut flags.apf };
                if slot.replace(p).is_some() {
                    return Err(self.err_at(col, "two flag pushes on one op"));
                }
            } else if let Some(u) = UpdateFlag::ALL.into_iter().find(|u| u.name() == s) {
                let slot = if mul { &mut flags.muf } else { &mut flags.auf };
                if slot.replace(u).is_some() {
                    return Err(self.err_at(col, "two flag updates on one op"));
                }
            } else if (s == "l" || s == "h")
                && (op.float_layout() || op.scheme(v).is_some_and(|sc| sc.packs > 1))
            {
                if pack != FloatPack::None {
                    return Err(self.err_at(col, "two output packs"));
                }
                pack = if s == "l" { FloatPack::L } else { FloatPack::H };
            } else if let Some(n) = s.strip_prefix('v').and_then(parse_index) {
                if op.float_layout() || op.scheme(v).is_some() || op.variants(v) < 2 {
                    return Err(
                        self.err_at(col, format!("`{}` has no numbered encodings", part.name))
                    );
                }
                if usize::from(n) >= op.variants(v) {
                    return Err(self.err_at(
                        col,
                        format!("`{}` has encodings v0..v{}", part.name, op.variants(v) - 1),
                    ));
                }
                variant = Some(n);
            } else {
                return Err(self.err_at(col, format!("unknown suffix `.{s}`")));
            }
        }
        // Parse operands now so unpacks are known before choosing a float encoding.
        let arity_hint = |variant: u8| op.arity(v, variant);
        let provisional = variant.unwrap_or(0);
        let arity = usize::from(arity_hint(provisional));
        let n = part.operands.len();
        let (waddr, srcs_text) = if n == arity + 1 {
            let (d, c) = &part.operands[0];
            (self.dest(d, *c)?, &part.operands[1..])
        } else if n == arity {
            (Waddr::NOP, &part.operands[..])
        } else {
            return Err(self.err_at(
                part.col,
                format!(
                    "`{}` takes {} source(s), plus an optional destination; found {} operand(s)",
                    part.name, arity, n
                ),
            ));
        };
        let mut srcs = Vec::new();
        let mut unpacks = Vec::new();
        let scheme = op.scheme(v);
        let mut named_unpack = "";
        for (i, (t, c)) in srcs_text.iter().enumerate() {
            let (s, u) = self.source(t, *c)?;
            if op.float_layout() {
                let f = match u {
                    "" => FloatUnpack::None,
                    "abs" => FloatUnpack::Abs,
                    "l" => FloatUnpack::L,
                    "h" => FloatUnpack::H,
                    other => {
                        return Err(self.err_at(
                            *c,
                            format!("`{}` inputs take .abs, .l or .h, not .{other}", part.name),
                        ))
                    }
                };
                unpacks.push(f);
            } else if !u.is_empty() {
                match scheme {
                    Some(sc) if i == 0 && sc.unpacks.contains(&u) => named_unpack = u,
                    Some(sc) if i == 0 => {
                        let names: Vec<String> = sc
                            .unpacks
                            .iter()
                            .filter(|n| !n.is_empty())
                            .map(|n| format!(".{n}"))
                            .collect();
                        return Err(self.err_at(
                            *c,
                            format!("`{}` input takes {}, not .{u}", part.name, names.join(", ")),
                        ));
                    }
                    _ => {
                        return Err(self.err_at(
                            *c,
                            format!("this input of `{}` takes no unpack (.{u})", part.name),
                        ))
                    }
                }
            }
            srcs.push((s, *c));
        }
        let variant = if op.float_layout() {
            let a = unpacks.first().copied().unwrap_or(FloatUnpack::None);
            let b = unpacks.get(1).copied().unwrap_or(FloatUnpack::None);
            op.float_variant(v, pack, a, b).ok_or_else(|| {
                self.err_at(
                    part.name_col,
                    format!(
                        "`{}` has no encoding with these pack/unpack modifiers",
                        part.name
                    ),
                )
            })?
        } else if let Some(sc) = scheme {
            sc.join(pack as u8, named_unpack).ok_or_else(|| {
                self.err_at(
                    part.name_col,
                    format!(
                        "`{}` has no encoding with these pack/unpack modifiers",
                        part.name
                    ),
                )
            })?
        } else {
            provisional
        };
        let mods = (
            pack,
            unpacks.first().copied().unwrap_or(FloatUnpack::None),
            unpacks.get(1).copied().unwrap_or(FloatUnpack::None),
        );
        Ok((op, variant, mods, waddr, srcs))
    }

    fn branch(&self) -> Result<Instruction, AsmError> {
        let t0 = &self.toks[0];
        let Tok::Word(head) = &t0.tok else {
            return Err(self.err_at(t0.col, "expected `b`"));
        };
        let mut b = Branch {
            cond: BranchCond::Always,
            msfign: 0,
            bdi: BranchDest::Rel,
            ub: false,
            bdu: 0,
            raddr_a: 0,
            offset: 0,
            link: false,
        };
        let mut col = t0.col + 1;
        for s in head.split('.').skip(1) {
            col += 1;
            if let Some(c) = BranchCond::ALL
                .into_iter()
                .find(|c| c.name() == s && *c != BranchCond::Always)
            {
                b.cond = c;
            } else if s == "msfp" {
                b.msfign = 1;
            } else if s == "msfq" {
                b.msfign = 2;
            } else {
                return Err(self.err_at(col, format!("unknown branch suffix `.{s}`")));
            }
            col += s.len();
        }
        // Split the rest at commas.
        let mut groups: Vec<Vec<(String, usize)>> = vec![Vec::new()];
        for t in &self.toks[1..] {
            match &t.tok {
                Tok::Comma => groups.push(Vec::new()),
                Tok::Word(w) => {
                    if let Some(g) = groups.last_mut() {
                        g.push((w.clone(), t.col));
                    }
                }
                _ => return Err(self.err_at(t.col, "unexpected punctuation in a branch")),
            }
        }
        let target = &groups[0];
        let num = |text: &str, col: usize| -> Result<i64, AsmError> {
            let (neg, body) = match text.strip_prefix('-') {
                Some(r) => (true, r),
                None => (false, text),
            };
            let v = match body.strip_prefix("0x") {
                Some(h) => i64::from_str_radix(h, 16),
                None => body.parse::<i64>(),
            }
            .map_err(|_| self.err_at(col, format!("`{text}` is not a number")))?;
            Ok(if neg { -v } else { v })
        };
        match target.as_slice() {
            [] => return Err(self.err_at(self.end_col(), "branch needs a target")),
            [(k, _), (n, c)] if k == "rel" || k == "abs" => {
                let value = num(n, *c)?;
                let ok = if k == "rel" {
                    i32::try_from(value).ok().map(|x| x as u32)
                } else {
                    u32::try_from(value).ok()
                };
                b.offset = ok.ok_or_else(|| self.err_at(*c, "offset does not fit in 32 bits"))?;
                b.bdi = if k == "rel" {
                    BranchDest::Rel
                } else {
                    BranchDest::Abs
                };
            }
            [(k, _)] if k == "lri" => b.bdi = BranchDest::LinkReg,
            [(r, c)] if r.starts_with("rf") => {
                b.bdi = BranchDest::Regfile;
                b.raddr_a = parse_index(&r[2..])
                    .filter(|&i| i < 64)
                    .ok_or_else(|| self.err_at(*c, format!("`{r}`: register file is rf0..rf63")))?;
            }
            [(label, c)] => {
                let target = *self
                    .labels
                    .get(label)
                    .ok_or_else(|| self.err_at(*c, format!("unknown label `{label}`")))?;
                b.offset = build::relative_offset(self.index, target)
                    .ok_or_else(|| self.err_at(*c, "branch distance does not fit in 32 bits"))?;
            }
            [_, (w, c), ..] => {
                return Err(self.err_at(*c, format!("unexpected `{w}` in branch target")))
            }
        }
        for g in &groups[1..] {
            match g.as_slice() {
                [(k, _)] if k == "ub" => b.ub = true,
                [(k, _)] if k == "link" => b.link = true,
                [(k, _), (n, c)] if k == "bdu" => {
                    b.bdu = u8::try_from(num(n, *c)?)
                        .ok()
                        .filter(|&x| x < 8)
                        .ok_or_else(|| self.err_at(*c, "bdu is 0..7"))?;
                }
                [(k, _), (n, c)] if k == "raddr_a" => {
                    b.raddr_a = u8::try_from(num(n, *c)?)
                        .ok()
                        .filter(|&x| x < 64)
                        .ok_or_else(|| self.err_at(*c, "raddr_a is 0..63"))?;
                }
                [(k, _), (n, c)] if k == "offset" => {
                    b.offset = u32::try_from(num(n, *c)?)
                        .map_err(|_| self.err_at(*c, "offset does not fit in 32 bits"))?;
                }
                [(w, c), ..] => return Err(self.err_at(*c, format!("unknown branch option `{w}`"))),
                [] => return Err(self.err_at(self.end_col(), "empty branch option after `,`")),
            }
        }
        let instr = Instruction::Branch(b);
        let word = instr
            .encode(self.version)
            .map_err(|e| self.err_at(t0.col, e.to_string()))?;
        super::decode(self.version, word).map_err(|e| self.err_at(t0.col, e.to_string()))
    }
}

/// Output pack and the two input unpacks of a float op (all "none" for other ops).
type FloatMods3 = (FloatPack, FloatUnpack, FloatUnpack);

/// What the assembler needs from an op enum.
pub(crate) trait OpKind: Copy + PartialEq {
    fn parse(v: V3dVersion, name: &str) -> Option<Self>;
    fn variants(self, v: V3dVersion) -> usize;
    fn arity(self, v: V3dVersion, variant: u8) -> u8;
    fn float_layout(self) -> bool;
    fn scheme(self, v: V3dVersion) -> Option<Scheme>;
    fn float_variant(
        self,
        v: V3dVersion,
        pack: FloatPack,
        a: FloatUnpack,
        b: FloatUnpack,
    ) -> Option<u8>;
}

fn table_kind(op: AddOp) -> AddOp {
    match op {
        AddOp::Faddnf => AddOp::Fadd,
        AddOp::Fmax => AddOp::Fmin,
        op => op,
    }
}

fn unpack_code(u: FloatUnpack) -> u8 {
    u as u8
}

fn pack_code(p: FloatPack) -> u8 {
    p as u8
}

/// Every add op (for tests and tools).
pub fn all_add_ops() -> &'static [AddOp] {
    AddOp::ALL
}

/// Every mul op (for tests and tools).
pub fn all_mul_ops() -> &'static [MulOp] {
    MulOp::ALL
}

impl OpKind for AddOp {
    fn parse(v: V3dVersion, name: &str) -> Option<AddOp> {
        AddOp::ALL
            .iter()
            .copied()
            .find(|&op| add_op_name(op) == name && op.variants(v) > 0)
    }
    fn variants(self, v: V3dVersion) -> usize {
        ops::variants(ops::add_rows(v), table_kind(self))
    }
    fn arity(self, v: V3dVersion, variant: u8) -> u8 {
        ops::encoding(ops::add_rows(v), table_kind(self), variant).map_or(0, |e| e.1)
    }
    fn float_layout(self) -> bool {
        ops::add_float_layout(self)
    }
    fn scheme(self, v: V3dVersion) -> Option<Scheme> {
        ops::add_scheme(v, self)
    }
    fn float_variant(
        self,
        v: V3dVersion,
        pack: FloatPack,
        a: FloatUnpack,
        b: FloatUnpack,
    ) -> Option<u8> {
        let kind = table_kind(self);
        let (first, _, _) = ops::encoding(ops::add_rows(v), kind, 0)?;
        let pack_field = if self == AddOp::Vfpack {
            if pack != FloatPack::None {
                return None;
            }
            3
        } else {
            pack_code(pack)
        };
        let opcode = (first & 0xc0) | (pack_field << 4) | (unpack_code(a) << 2) | unpack_code(b);
        let found = ops::lookup(ops::add_rows(v), opcode, |_| 0)?;
        (found.kind == kind).then_some(found.variant)
    }
}

impl OpKind for MulOp {
    fn parse(v: V3dVersion, name: &str) -> Option<MulOp> {
        MulOp::ALL
            .iter()
            .copied()
            .find(|&op| mul_op_name(op) == name && op.variants(v) > 0)
    }
    fn variants(self, v: V3dVersion) -> usize {
        ops::variants(ops::mul_rows(v), self)
    }
    fn arity(self, v: V3dVersion, variant: u8) -> u8 {
        ops::encoding(ops::mul_rows(v), self, variant).map_or(0, |e| e.1)
    }
    fn float_layout(self) -> bool {
        self == MulOp::Fmul
    }
    fn scheme(self, v: V3dVersion) -> Option<Scheme> {
        ops::mul_scheme(v, self)
    }
    fn float_variant(
        self,
        v: V3dVersion,
        pack: FloatPack,
        a: FloatUnpack,
        b: FloatUnpack,
    ) -> Option<u8> {
        let opcode = ((pack_code(pack) + 1) << 4) | (unpack_code(a) << 2) | unpack_code(b);
        let found = ops::lookup(ops::mul_rows(v), opcode, |_| 0)?;
        (found.kind == self).then_some(found.variant)
    }
}

//! The text assembler.
//!
//! # Grammar
//!
//! The syntax follows vc4asm's where it can. One instruction per line; `#` or `//` starts a
//! comment; a line may begin with labels, written `:name` or `name:`.
//!
//! ```text
//! line        := label* [instruction] [comment]
//! instruction := first (";" item)*
//! first       := alu-op | "ldi" ... | "sacq" ... | "srel" ... | branch | ".inst" WORD64 | item
//! item        := mul-op | signal | "read" (register | literal)   (a read no operand uses)
//! alu-op      := OP{.cond}{.setf} dst "," src ["," src]     add ops: fadd fsub fmin fmax fminabs
//!                                                          fmaxabs ftoi itof add sub shr asr ror shl
//!                                                          min max and or xor not clz v8adds v8subs
//!              | "mov"{.cond}{.setf} dst "," src            add: or src,src   mul: v8min src,src
//!              | "mov" dst "," literal                      (alone: a load immediate)
//!              | "nop"{.cond}{.setf} [dst "," src "," src]
//! mul-op      := as alu-op with fmul mul24 v8muld v8min v8max v8adds v8subs, mov, nop
//! cond        := never always ifz ifnz ifn ifnn ifc ifnc      (ifcc is accepted for ifnc)
//! dst         := "-" | register["." pack]    pack: 16a 16b 8888 8a-8d 32s 16as 16bs 8888s 8as-8ds
//!                                             (regfile A, pm=0) | c8888 c8a c8b c8c c8d (mul
//!                                             colour pack, pm=1)
//! src         := (r0..r5 | register)["." unpack] [rotation] | literal [rotation]
//!                unpack: 16a 16b 8dr 8a 8b 8c 8d (on a regfile-A read: pm=0; on r4: pm=1)
//! rotation    := ">>" (1..15 | r5)  |  "<<" 1..15       (mul operands only; `<< n` = `>> 16-n`)
//! literal     := integer (decimal, 0x hex, 0b binary, may be negative) | float (1.5, 2e-3)
//! signal      := bkpt thrsw thrend sbwait sbdone lthrsw loadcv loadc ldcend ldtmu0 ldtmu1 loadam
//! ldi         := "ldi"{.cond}{.setf}[.es|.eu] dst ["," dst] "," (literal | "[" 16 literals "]")
//! semaphore   := ("sacq" | "srel"){.cond}{.setf} dst ["," dst] "," 0..15
//! branch      := ("brr" | "bra")[.bcond] dst ["," dst] ["," raN] "," target
//!                bcond: allz allnz anyz anynz alln allnn anyn anynn allc allnc anyc anync always
//!                target: label (`r:name`, `:name` or `name`; brr only) or a byte offset/address
//! register    := raN | rbN (N 0..63: explicit file and address) | an I/O name from
//!                [`crate::vc4::regs`] (unif vary elem_num qpu_num vpm vr_setup vw_setup vr_addr vw_addr
//!                vr_wait vw_wait vr_busy vw_busy mutex host_int tmu_noswap r5quad r5rep unif_addr
//!                recip recipsqrt exp log tmu0_s..tmu1_b tlb_* ...)
//! ```
//!
//! The assembler picks the encoding details: which file a shared name (`unif`, `vpm`,
//! `mutex`) is read from (file A unless that slot is taken), the write swap that puts each
//! destination in its file, the small-immediate code of a literal, and default conditions
//! (`never` for a `-` destination, `always` otherwise). It rejects what the hardware cannot
//! encode, saying why: two different reads from one file, a small immediate together with a
//! file-B read, a mul operation on the add side, both destinations in one file, a signal with
//! a small immediate, a literal no small immediate can hold, conflicting pack modes.

mod lexer;

use crate::vc4::fields::*;
use crate::vc4::instr::*;
use crate::vc4::regs::{parse_read, parse_write};
use lexer::{parse_float, parse_int, strip_comment, tokenize, Spanned, Token};
use std::collections::HashMap;

/// An assembly error: where, what was expected, what was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct AsmError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// What went wrong.
    pub message: String,
}

/// Quoted input longer than this many characters is shortened in messages.
const QUOTE_LIMIT: usize = 48;

/// Shortens every backtick-quoted span of `message` longer than [`QUOTE_LIMIT`] characters
/// to its start, an ellipsis and its length, so that a bad multi-megabyte token does not
/// come back whole in an error message.
///
/// ```
/// let long = "x".repeat(1000);
/// let text = qpu_isa::vc4::asm::shorten_quoted(&format!("found `{long}` here"));
/// assert!(text.starts_with("found `xxxx") && text.ends_with("…` (1000 characters) here"));
/// assert_eq!(qpu_isa::vc4::asm::shorten_quoted("found `r9x`"), "found `r9x`");
/// ```
pub fn shorten_quoted(message: &str) -> String {
    let parts: Vec<&str> = message.split('`').collect();
    let mut out = String::with_capacity(message.len().min(256));
    for (k, part) in parts.iter().enumerate() {
        let inside = k % 2 == 1;
        let closed = k + 1 < parts.len();
        let count = part.chars().count();
        if inside && closed {
            out.push('`');
            if count > QUOTE_LIMIT {
                out.extend(part.chars().take(QUOTE_LIMIT - 8));
                out.push_str(&format!("…` ({count} characters)"));
            } else {
                out.push_str(part);
                out.push('`');
            }
        } else {
            if inside {
                out.push('`');
            }
            out.push_str(part);
        }
    }
    out
}

impl AsmError {
    pub(crate) fn new(line: usize, column: usize, message: impl Into<String>) -> AsmError {
        AsmError {
            line,
            column,
            message: shorten_quoted(&message.into()),
        }
    }
}

/// Assembles a whole program. Labels are resolved across lines; `brr` targets become byte
/// offsets relative to the branch plus four instructions.
pub fn assemble(text: &str) -> Result<Vec<Instruction>, AsmError> {
    let mut lines = Vec::new();
    let mut labels: HashMap<String, (usize, usize)> = HashMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let mut tokens = tokenize(strip_comment(raw), line_no)?;
        // Leading labels: `:name` or `name:`.
        loop {
            let (name, column, used) = match tokens.as_slice() {
                [Spanned {
                    token: Token::Colon,
                    column,
                }, Spanned {
                    token: Token::Word(w),
                    ..
                }, ..] => (w.clone(), *column, 2),
                [Spanned {
                    token: Token::Word(w),
                    column,
                }, Spanned {
                    token: Token::Colon,
                    ..
                }, ..] => (w.clone(), *column, 2),
                _ => break,
            };
            if !is_identifier(&name) {
                return Err(AsmError::new(
                    line_no,
                    column,
                    format!("`{name}` is not a valid label name"),
                ));
            }
            if labels
                .insert(name.clone(), (lines.len(), line_no))
                .is_some()
            {
                return Err(AsmError::new(
                    line_no,
                    column,
                    format!("label `{name}` is defined twice"),
                ));
            }
            tokens.drain(..used);
        }
        if !tokens.is_empty() {
            lines.push((line_no, tokens));
        }
    }
    let targets: HashMap<String, usize> = labels
        .into_iter()
        .map(|(k, (index, _))| (k, index))
        .collect();
    lines
        .iter()
        .enumerate()
        .map(|(index, (line_no, tokens))| {
            Parser {
                line: *line_no,
                index,
                labels: Some(&targets),
            }
            .instruction(tokens)
        })
        .collect()
}

/// Assembles one instruction (no labels; branch targets must be numbers).
pub fn assemble_instruction(text: &str) -> Result<Instruction, AsmError> {
    let tokens = tokenize(strip_comment(text), 1)?;
    if tokens.is_empty() {
        return Err(AsmError::new(
            1,
            1,
            "expected an instruction, found an empty line",
        ));
    }
    Parser {
        line: 1,
        index: 0,
        labels: None,
    }
    .instruction(&tokens)
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A destination as written.
#[derive(Clone, Debug)]
struct Dst {
    candidates: Vec<(RegFile, RegAddr)>,
    pack: Option<Pack>,
    text: String,
    column: usize,
}

impl Dst {
    fn nop(column: usize) -> Dst {
        Dst {
            candidates: vec![(RegFile::A, RegAddr::NOP), (RegFile::B, RegAddr::NOP)],
            pack: None,
            text: "-".into(),
            column,
        }
    }

    fn is_nop(&self) -> bool {
        self.candidates.iter().all(|&(_, a)| a == RegAddr::NOP)
    }

    fn addr_in(&self, file: RegFile) -> Option<RegAddr> {
        self.candidates
            .iter()
            .find(|(f, _)| *f == file)
            .map(|&(_, a)| a)
    }
}

/// What a source operand reads.
#[derive(Clone, Debug)]
enum SrcKind {
    Accumulator(u8),
    Register(Vec<(RegFile, RegAddr)>),
    Literal(u32),
}

/// A source operand as written.
#[derive(Clone, Debug)]
struct Src {
    kind: SrcKind,
    unpack: Option<Unpack>,
    rotation: Option<SmallImm>,
    text: String,
    column: usize,
}

/// One ALU operation (add or mul side) as written.
#[derive(Clone, Debug)]
struct OpText {
    column: usize,
    cond: Option<Cond>,
    set_flags: bool,
    dst: Option<Dst>,
    srcs: Vec<Src>,
}

struct Parser<'a> {
    line: usize,
    index: usize,
    labels: Option<&'a HashMap<String, usize>>,
}

/// The two read slots of an instruction being assembled.
#[derive(Default)]
struct ReadSlots {
    a: Option<RegAddr>,
    b: Option<BSlot>,
}

#[derive(Clone, Copy, PartialEq)]
enum BSlot {
    Reg(RegAddr),
    Imm(SmallImm),
}

fn split_suffixes(word: &str) -> (&str, Vec<&str>) {
    let mut parts = word.split('.');
    let base = parts.next().unwrap_or("");
    (base, parts.collect())
}

fn is_signal(word: &str) -> bool {
    Signal::from_mnemonic(word).is_some_and(|s| s != Signal::None)
}

const MUL_ONLY: &[&str] = &["fmul", "mul24", "v8muld", "v8min", "v8max"];

impl Parser<'_> {
    fn err(&self, column: usize, message: impl Into<String>) -> AsmError {
        AsmError::new(self.line, column, message)
    }

    fn instruction(&self, tokens: &[Spanned]) -> Result<Instruction, AsmError> {
        let items: Vec<&[Spanned]> = tokens.split(|t| t.token == Token::Semicolon).collect();
        for item in &items {
            if item.is_empty() {
                let column = tokens.last().map_or(1, |t| t.column);
                return Err(self.err(
                    column,
                    "expected an operation or signal between `;`s, found nothing",
                ));
            }
        }
        let first = items[0];
        let Token::Word(word) = &first[0].token else {
            return Err(self.err(
                first[0].column,
                format!("expected a mnemonic, found {}", first[0].token.describe()),
            ));
        };
        let (base, suffixes) = if word == ".inst" {
            (".inst", Vec::new())
        } else {
            split_suffixes(word)
        };
        let column = first[0].column;
        if base.is_empty() {
            return Err(self.err(column, format!("expected a mnemonic, found `{word}`")));
        }
        let single = |what: &str| -> Result<(), AsmError> {
            match items.get(1) {
                Some(extra) => Err(self.err(
                    extra[0].column,
                    format!("{what} is a whole instruction: nothing may follow it after `;`"),
                )),
                None => Ok(()),
            }
        };
        match base {
            ".inst" => {
                single(".inst")?;
                self.raw(first)
            }
            "ldi" => {
                single("ldi")?;
                self.load_imm(&suffixes, column, &first[1..])
            }
            "sacq" | "srel" => {
                single(base)?;
                self.semaphore(base == "sacq", &suffixes, column, &first[1..])
            }
            "brr" | "bra" => {
                single(base)?;
                self.branch(base == "brr", &suffixes, column, &first[1..])
            }
            "mov"
                if items.len() == 1
                    && first.len() == 4
                    && matches!(first[3].token, Token::Number(_)) =>
            {
                // `mov dst, literal` on its own is a load immediate, as in vc4asm.
                self.load_imm(&suffixes, column, &first[1..])
            }
            _ => self.alu(&items),
        }
    }

    fn raw(&self, item: &[Spanned]) -> Result<Instruction, AsmError> {
        let Some(Spanned {
            token: Token::Number(text),
            column,
        }) = item.get(1)
        else {
            return Err(self.err(item[0].column, "expected `.inst 0x<64-bit word>`"));
        };
        if item.len() > 2 {
            return Err(self.err(
                item[2].column,
                format!("expected end of line, found {}", item[2].token.describe()),
            ));
        }
        let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"));
        let word = digits
            .and_then(|d| u64::from_str_radix(&d.replace('_', ""), 16).ok())
            .ok_or_else(|| {
                self.err(
                    *column,
                    format!("expected a 64-bit hex word, found `{text}`"),
                )
            })?;
        Instruction::decode(word).map_err(|e| {
            self.err(
                *column,
                format!("word {word:#018x} is not an instruction: {e}"),
            )
        })
    }

    /// Splits an operand list at top-level commas (commas inside `[...]` stay).
    fn operands<'t>(
        &self,
        tokens: &'t [Spanned],
        start_column: usize,
    ) -> Result<Vec<&'t [Spanned]>, AsmError> {
        if tokens.is_empty() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        let mut depth = 0;
        let mut begin = 0;
        for (i, t) in tokens.iter().enumerate() {
            match t.token {
                Token::OpenBracket => depth += 1,
                Token::CloseBracket => depth -= 1,
                Token::Comma if depth == 0 => {
                    if i == begin {
                        return Err(self.err(t.column, "expected an operand, found `,`"));
                    }
                    out.push(&tokens[begin..i]);
                    begin = i + 1;
                }
                _ => {}
            }
        }
        if begin == tokens.len() {
            let column = tokens.last().map_or(start_column, |t| t.column + 1);
            return Err(self.err(column, "expected an operand after `,`, found end of line"));
        }
        out.push(&tokens[begin..]);
        Ok(out)
    }

    fn dst(&self, tokens: &[Spanned]) -> Result<Dst, AsmError> {
        let first = &tokens[0];
        if tokens.len() > 1 {
            return Err(self.err(
                tokens[1].column,
                format!(
                    "expected `,` after the destination, found {}",
                    tokens[1].token.describe()
                ),
            ));
        }
        match &first.token {
            Token::Dash => Ok(Dst::nop(first.column)),
            Token::Word(word) => {
                let (name, suffixes) = split_suffixes(word);
                let candidates = parse_write(name);
                if candidates.is_empty() {
                    return Err(self.err(
                        first.column,
                        format!("expected a destination register, found `{name}`"),
                    ));
                }
                let pack = match suffixes.as_slice() {
                    [] => None,
                    [p] => Some(parse_pack(p).ok_or_else(|| {
                        self.err(first.column, format!("`.{p}` is not a pack mode (regfile A: 16a 16b 8888 8a-8d 32s 16as 16bs 8888s 8as-8ds; mul colour: c8888 c8a-c8d)"))
                    })?),
                    _ => return Err(self.err(first.column, format!("`{word}`: at most one pack suffix"))),
                };
                Ok(Dst {
                    candidates,
                    pack,
                    text: word.clone(),
                    column: first.column,
                })
            }
            other => Err(self.err(
                first.column,
                format!(
                    "expected a destination register or `-`, found {}",
                    other.describe()
                ),
            )),
        }
    }

    fn src(&self, tokens: &[Spanned]) -> Result<Src, AsmError> {
        let first = &tokens[0];
        let (kind, unpack, text) = match &first.token {
            Token::Number(text) => {
                let bits = parse_int(text)
                    .or_else(|| parse_float(text))
                    .ok_or_else(|| {
                        self.err(
                            first.column,
                            format!("`{text}` is not a number this assembler reads"),
                        )
                    })?;
                (SrcKind::Literal(bits), None, text.clone())
            }
            Token::Word(word) => {
                let (name, suffixes) = split_suffixes(word);
                let unpack = match suffixes.as_slice() {
                    [] => None,
                    [u] => Some(
                        Unpack::from_mnemonic(u)
                            .filter(|&u| u != Unpack::None)
                            .ok_or_else(|| {
                                self.err(
                                    first.column,
                                    format!(
                                        "`.{u}` is not an unpack mode (16a 16b 8dr 8a 8b 8c 8d)"
                                    ),
                                )
                            })?,
                    ),
                    _ => {
                        return Err(
                            self.err(first.column, format!("`{word}`: at most one unpack suffix"))
                        )
                    }
                };
                let kind = match name {
                    "r0" | "r1" | "r2" | "r3" | "r4" | "r5" => {
                        SrcKind::Accumulator(name.as_bytes()[1] - b'0')
                    }
                    _ => {
                        let candidates = parse_read(name);
                        if candidates.is_empty() {
                            let hint = if parse_write(name).is_empty() {
                                ""
                            } else {
                                " (it can only be written)"
                            };
                            return Err(self.err(
                                first.column,
                                format!("expected a source operand, found `{name}`{hint}"),
                            ));
                        }
                        SrcKind::Register(candidates)
                    }
                };
                (kind, unpack, word.clone())
            }
            other => {
                return Err(self.err(
                    first.column,
                    format!("expected a source operand, found {}", other.describe()),
                ))
            }
        };
        let rotation = match &tokens[1..] {
            [] => None,
            [Spanned {
                token: dir @ (Token::RotateRight | Token::RotateLeft),
                column,
            }, amount] => {
                let right = *dir == Token::RotateRight;
                let rotation =
                    match &amount.token {
                        Token::Word(w) if w == "r5" && right => SmallImm::rotation(None),
                        Token::Word(w) if w == "r5" => {
                            return Err(self.err(*column, "rotation by r5 is written `>> r5`"));
                        }
                        Token::Number(n) => parse_int(n)
                            .and_then(|n| u8::try_from(n).ok())
                            .and_then(|n| match (right, n) {
                                (true, 1..=15) => SmallImm::rotation(Some(n)),
                                (false, 1..=15) => SmallImm::rotation(Some(16 - n)),
                                _ => None,
                            }),
                        _ => None,
                    };
                Some(rotation.ok_or_else(|| {
                    self.err(
                        amount.column,
                        format!(
                            "expected a rotation of 1..15 lanes or r5, found {}",
                            amount.token.describe()
                        ),
                    )
                })?)
            }
            [t, ..] => {
                return Err(self.err(
                    t.column,
                    format!(
                        "expected `,`, `;` or a rotation (`>> n`), found {}",
                        t.token.describe()
                    ),
                ));
            }
        };
        Ok(Src {
            kind,
            unpack,
            rotation,
            text,
            column: first.column,
        })
    }

    /// Parses `OP{.suffix} operands` for the add or mul side.
    fn op(&self, item: &[Spanned], on_mul: bool) -> Result<(OpCode, OpText), AsmError> {
        let Token::Word(word) = &item[0].token else {
            return Err(self.err(
                item[0].column,
                format!("expected an operation, found {}", item[0].token.describe()),
            ));
        };
        let column = item[0].column;
        let (base, suffixes) = split_suffixes(word);
        let code = if base == "nop" {
            OpCode::Nop
        } else if base == "mov" {
            OpCode::Mov
        } else if on_mul {
            match MulOp::from_mnemonic(base) {
                Some(op) => OpCode::Mul(op),
                None if AddOp::from_mnemonic(base).is_some() => {
                    return Err(self.err(
                        column,
                        format!(
                            "`{base}` is an add-ALU operation: it must come first, before the `;`"
                        ),
                    ));
                }
                None => {
                    return Err(self.err(
                        column,
                        format!("expected a mul-ALU operation or a signal, found `{base}`"),
                    ))
                }
            }
        } else {
            match AddOp::from_mnemonic(base) {
                Some(op) => OpCode::Add(op),
                None if MUL_ONLY.contains(&base) => {
                    return Err(self.err(column, format!("`{base}` is a mul-ALU operation: write it after the add operation, e.g. `nop; {base} ...`")));
                }
                None => {
                    return Err(
                        self.err(column, format!("expected an ALU operation, found `{base}`"))
                    )
                }
            }
        };
        let mut text = OpText {
            column,
            cond: None,
            set_flags: false,
            dst: None,
            srcs: Vec::new(),
        };
        for suffix in suffixes {
            if suffix == "setf" {
                text.set_flags = true;
            } else if let Some(cond) = parse_cond(suffix) {
                if text.cond.replace(cond).is_some() {
                    return Err(self.err(column, format!("`{word}`: more than one condition")));
                }
            } else {
                return Err(self.err(column, format!("`.{suffix}` is not a condition (never always ifz ifnz ifn ifnn ifc ifnc) or `.setf`")));
            }
        }
        let operands = self.operands(&item[1..], column + word.len())?;
        let arity_error = |wanted: &str| {
            self.err(
                column,
                format!(
                    "`{base}` takes {wanted}, found {} operand(s)",
                    operands.len()
                ),
            )
        };
        match (code, operands.len()) {
            (OpCode::Nop, 0) => return Ok((code, text)),
            (OpCode::Nop, 3) => {}
            (OpCode::Nop, _) => return Err(arity_error("no operands (or dst, a, b)")),
            (OpCode::Mov, 2) => {}
            (OpCode::Mov, _) => return Err(arity_error("2 operands (dst, src)")),
            (OpCode::Add(op), 2 | 3) if op.is_unary() => {}
            (OpCode::Add(op), _) if op.is_unary() => {
                return Err(arity_error("2 operands (dst, src)"))
            }
            (_, 3) => {}
            _ => return Err(arity_error("3 operands (dst, a, b)")),
        }
        text.dst = Some(self.dst(operands[0])?);
        for operand in &operands[1..] {
            text.srcs.push(self.src(operand)?);
        }
        if text.srcs.len() == 1 {
            text.srcs.push(text.srcs[0].clone());
        }
        Ok((code, text))
    }

    fn alu(&self, items: &[&[Spanned]]) -> Result<Instruction, AsmError> {
        let mut add: Option<(OpCode, OpText)> = None;
        let mut mul: Option<(OpCode, OpText)> = None;
        let mut signal: Option<(Signal, usize)> = None;
        let mut reads: Vec<Src> = Vec::new();
        for (position, item) in items.iter().enumerate() {
            let Token::Word(word) = &item[0].token else {
                return Err(self.err(
                    item[0].column,
                    format!(
                        "expected an operation or signal, found {}",
                        item[0].token.describe()
                    ),
                ));
            };
            let column = item[0].column;
            if is_signal(word) {
                if item.len() > 1 {
                    return Err(
                        self.err(item[1].column, format!("signal `{word}` takes no operands"))
                    );
                }
                let new = Signal::from_mnemonic(word).expect("checked by is_signal");
                if let Some((old, _)) = signal.replace((new, column)) {
                    return Err(self.err(
                        column,
                        format!(
                            "only one signal per instruction: found `{}` and `{word}`",
                            old.mnemonic()
                        ),
                    ));
                }
            } else if word == "read" {
                let operands = self.operands(&item[1..], column + 4)?;
                if operands.len() != 1 {
                    return Err(self.err(column, "`read` takes one register or small immediate"));
                }
                let src = self.src(operands[0])?;
                if matches!(src.kind, SrcKind::Accumulator(_))
                    || src.rotation.is_some()
                    || src.unpack.is_some()
                {
                    return Err(self.err(
                        src.column,
                        format!(
                            "`read` takes a register-file register or a small immediate, found `{}`",
                            src.text
                        ),
                    ));
                }
                reads.push(src);
            } else if position == 0 {
                add = Some(self.op(item, false)?);
            } else if mul.is_none() {
                mul = Some(self.op(item, true)?);
            } else {
                return Err(self.err(column, format!("expected a signal or `read` (the mul operation was already given), found `{word}`")));
            }
        }
        let (add_code, add_text) = add.unwrap_or((OpCode::Nop, OpText::empty(1)));
        let (mul_code, mul_text) = mul.unwrap_or((OpCode::Nop, OpText::empty(1)));
        let op_add = match add_code {
            OpCode::Nop => AddOp::Nop,
            OpCode::Mov => AddOp::Or,
            OpCode::Add(op) => op,
            OpCode::Mul(_) => unreachable!("the add side parses add operations only"),
        };
        let op_mul = match mul_code {
            OpCode::Nop => MulOp::Nop,
            OpCode::Mov => MulOp::V8min,
            OpCode::Mul(op) => op,
            OpCode::Add(_) => unreachable!("the mul side parses mul operations only"),
        };

        let mut slots = ReadSlots::default();
        let mut unpack_a: Option<(Unpack, usize)> = None;
        let mut unpack_r4: Option<(Unpack, usize)> = None;
        // A rotation is placed first: it fixes the small immediate.
        if let Some(src) = add_text.srcs.iter().find(|s| s.rotation.is_some()) {
            return Err(self.err(
                src.column,
                "vector rotation applies to the mul ALU's result: write it on a mul operand",
            ));
        }
        let rotations: Vec<&Src> = mul_text
            .srcs
            .iter()
            .filter(|s| s.rotation.is_some())
            .collect();
        if let Some(first) = rotations.first() {
            let imm = first.rotation.expect("filtered");
            if rotations.iter().any(|s| s.rotation != Some(imm)) {
                return Err(self.err(
                    rotations[1].column,
                    "only one vector rotation per instruction",
                ));
            }
            slots.b = Some(BSlot::Imm(imm));
        }
        // File-specific operands first, so that shared names (unif, vpm, mutex) take what is left.
        let all_srcs: Vec<&Src> = add_text
            .srcs
            .iter()
            .chain(mul_text.srcs.iter())
            .chain(reads.iter())
            .collect();
        let mut placed: HashMap<usize, InputMux> = HashMap::new();
        for pass in 0..2 {
            for (i, src) in all_srcs.iter().enumerate() {
                let SrcKind::Register(candidates) = &src.kind else {
                    continue;
                };
                if (candidates.len() == 1) != (pass == 0) {
                    continue;
                }
                placed.insert(i, self.place_register(&mut slots, candidates, src)?);
            }
        }
        for (i, src) in all_srcs.iter().enumerate() {
            let mux = match src.kind {
                SrcKind::Accumulator(n) => InputMux::from_bits(n),
                SrcKind::Literal(bits) => {
                    // Shifts and rotates use only the low 5 bits of the amount, so 16..31
                    // are encoded as the small immediates -16..-1.
                    let shift_amount = i == 1
                        && matches!(op_add, AddOp::Shr | AddOp::Asr | AddOp::Ror | AddOp::Shl);
                    let bits = if shift_amount && (16..32).contains(&bits) {
                        bits.wrapping_sub(32)
                    } else {
                        bits
                    };
                    self.place_literal(&mut slots, bits, src)?;
                    InputMux::B
                }
                SrcKind::Register(_) => placed[&i],
            };
            if let Some(unpack) = src.unpack {
                let target = match mux {
                    InputMux::A => &mut unpack_a,
                    InputMux::R4 => &mut unpack_r4,
                    _ => {
                        return Err(self.err(
                            src.column,
                            format!(
                                "`{}`: unpack applies only to a regfile-A read or to r4",
                                src.text
                            ),
                        ));
                    }
                };
                match target {
                    Some((other, _)) if *other != unpack => {
                        return Err(self.err(
                            src.column,
                            format!(
                                "`{}`: conflicting unpack modes in one instruction",
                                src.text
                            ),
                        ));
                    }
                    _ => *target = Some((unpack, src.column)),
                }
            }
            placed.insert(i, mux);
        }
        let mux_at = |i: usize| placed.get(&i).copied().unwrap_or(InputMux::R0);
        let add_n = add_text.srcs.len();
        let (add_a, add_b) = if add_n == 0 {
            (InputMux::R0, InputMux::R0)
        } else {
            (mux_at(0), mux_at(1))
        };
        let (mul_a, mul_b) = if mul_text.srcs.is_empty() {
            (InputMux::R0, InputMux::R0)
        } else {
            (mux_at(add_n), mux_at(add_n + 1))
        };

        // Pack mode.
        let add_dst = add_text
            .dst
            .clone()
            .unwrap_or_else(|| Dst::nop(add_text.column));
        let mul_dst = mul_text
            .dst
            .clone()
            .unwrap_or_else(|| Dst::nop(mul_text.column));
        if let Some(Pack::Mul(_)) = add_dst.pack {
            return Err(self.err(add_dst.column, "a colour pack (c8888, c8a..c8d) converts the mul ALU's result: put it on the mul destination"));
        }
        let pm_reasons_a = unpack_a
            .map(|(_, c)| c)
            .or(add_dst.pack.filter(|p| !p.pm()).map(|_| add_dst.column))
            .or(mul_dst.pack.filter(|p| !p.pm()).map(|_| mul_dst.column));
        let pm_reasons_mul = unpack_r4
            .map(|(_, c)| c)
            .or(mul_dst.pack.filter(|p| p.pm()).map(|_| mul_dst.column));
        if let (Some(_), Some(column)) = (pm_reasons_a, pm_reasons_mul) {
            return Err(self.err(column, "the pm bit selects either regfile-A pack/unpack or r4 unpack with mul colour pack, not both in one instruction"));
        }
        let (pack, unpack) = if pm_reasons_mul.is_some() {
            let pack = match mul_dst.pack {
                Some(p) => p,
                None => Pack::Mul(PackMul::None),
            };
            (pack, unpack_r4.map_or(Unpack::None, |(u, _)| u))
        } else {
            let pack = add_dst
                .pack
                .or(mul_dst.pack)
                .unwrap_or(Pack::RegfileA(PackA::None));
            if add_dst.pack.is_some() && mul_dst.pack.is_some() {
                return Err(self.err(mul_dst.column, "only one destination can be packed"));
            }
            (pack, unpack_a.map_or(Unpack::None, |(u, _)| u))
        };
        let packed_a = match pack {
            Pack::RegfileA(p) if p != PackA::None => Some(if add_dst.pack.is_some() {
                Side::Add
            } else {
                Side::Mul
            }),
            _ => None,
        };
        let (write_swap, waddr_add, waddr_mul) = self.write_files(&add_dst, &mul_dst, packed_a)?;

        // Signal and the B slot.
        let b = match (slots.b, signal) {
            (Some(BSlot::Imm(imm)), Some((sig, column))) => {
                return Err(self.err(column, format!(
                    "signal `{}` cannot share an instruction with a small immediate (literal {}): both are encoded in the sig field",
                    sig.mnemonic(),
                    if imm.is_rotation() { "or vector rotation" } else { "operand" }
                )));
            }
            (Some(BSlot::Imm(imm)), None) => ReadB::SmallImm(imm),
            (Some(BSlot::Reg(raddr_b)), sig) => ReadB::Register {
                signal: sig.map_or(Signal::None, |(s, _)| s),
                raddr_b,
            },
            (None, sig) => ReadB::Register {
                signal: sig.map_or(Signal::None, |(s, _)| s),
                raddr_b: RegAddr::NOP,
            },
        };
        let set_flags = add_text.set_flags || mul_text.set_flags;
        Ok(Instruction::Alu(AluInstruction {
            b,
            unpack,
            write: WriteBack {
                pack,
                cond_add: add_text.cond.unwrap_or(Cond::default_for(
                    add_dst.is_nop(),
                    set_flags && op_add != AddOp::Nop,
                )),
                cond_mul: mul_text.cond.unwrap_or(Cond::default_for(
                    mul_dst.is_nop(),
                    set_flags && op_add == AddOp::Nop && op_mul != MulOp::Nop,
                )),
                set_flags,
                write_swap,
                waddr_add,
                waddr_mul,
            },
            op_add,
            op_mul,
            raddr_a: slots.a.unwrap_or(RegAddr::NOP),
            add_a,
            add_b,
            mul_a,
            mul_b,
        }))
    }

    fn place_register(
        &self,
        slots: &mut ReadSlots,
        candidates: &[(RegFile, RegAddr)],
        src: &Src,
    ) -> Result<InputMux, AsmError> {
        // A slot already holding this address is shared; else the first free candidate.
        for &(file, addr) in candidates {
            let holds = match file {
                RegFile::A => slots.a == Some(addr),
                RegFile::B => slots.b == Some(BSlot::Reg(addr)),
            };
            if holds {
                return Ok(if file == RegFile::A {
                    InputMux::A
                } else {
                    InputMux::B
                });
            }
        }
        for &(file, addr) in candidates {
            match file {
                RegFile::A if slots.a.is_none() => {
                    slots.a = Some(addr);
                    return Ok(InputMux::A);
                }
                RegFile::B if slots.b.is_none() => {
                    slots.b = Some(BSlot::Reg(addr));
                    return Ok(InputMux::B);
                }
                _ => {}
            }
        }
        let only_b = candidates.iter().all(|(f, _)| *f == RegFile::B);
        let reason = if only_b && matches!(slots.b, Some(BSlot::Imm(_))) {
            "the file-B read slot already holds a small immediate or rotation".to_string()
        } else if only_b {
            "register file B is already read at another address (one read per file)".to_string()
        } else if candidates.len() == 1 {
            "register file A is already read at another address (one read per file)".to_string()
        } else {
            "both register files are already read at other addresses (one read per file)"
                .to_string()
        };
        Err(self.err(src.column, format!("cannot read `{}`: {reason}", src.text)))
    }

    fn place_literal(&self, slots: &mut ReadSlots, bits: u32, src: &Src) -> Result<(), AsmError> {
        match slots.b {
            Some(BSlot::Imm(imm)) if imm.operand_bits() == bits => Ok(()),
            Some(BSlot::Imm(_)) => Err(self.err(src.column, format!("`{}`: only one small immediate per instruction, and another value (or a rotation) already uses it", src.text))),
            Some(BSlot::Reg(_)) => Err(self.err(src.column, format!("`{}`: a small immediate replaces the file-B read, which this instruction already uses", src.text))),
            None => {
                let imm = (0..48u8).filter_map(SmallImm::new).find(|imm| imm.operand_bits() == bits).ok_or_else(|| {
                    self.err(src.column, format!("`{}` does not fit a small immediate (integers -16..15, powers of two 1/256..128); load it with ldi into a register first", src.text))
                })?;
                slots.b = Some(BSlot::Imm(imm));
                Ok(())
            }
        }
    }

    /// Chooses the write swap so the add destination is in the add ALU's file and the mul
    /// destination in the other; a regfile-A pack needs its destination in file A.
    fn write_files(
        &self,
        add: &Dst,
        mul: &Dst,
        packed_a: Option<Side>,
    ) -> Result<(WriteSwap, RegAddr, RegAddr), AsmError> {
        for ws in [WriteSwap::AddToA, WriteSwap::AddToB] {
            let pack_ok = match packed_a {
                Some(Side::Add) => ws.add_file() == RegFile::A,
                Some(Side::Mul) => ws.mul_file() == RegFile::A,
                None => true,
            };
            if let (Some(a), Some(m), true) = (
                add.addr_in(ws.add_file()),
                mul.addr_in(ws.mul_file()),
                pack_ok,
            ) {
                return Ok((ws, a, m));
            }
        }
        if packed_a.is_some() {
            let dst = if packed_a == Some(Side::Add) {
                add
            } else {
                mul
            };
            if dst.addr_in(RegFile::A).is_none() {
                return Err(self.err(
                    dst.column,
                    format!(
                        "`{}`: a regfile-A pack needs a destination in register file A",
                        dst.text
                    ),
                ));
            }
        }
        Err(self.err(mul.column.max(add.column), format!(
            "destinations `{}` and `{}` cannot be encoded: the add and mul ALUs write different register files",
            add.text, mul.text
        )))
    }

    /// Splits `dst[, dst2], value`.
    fn dsts_and_value<'t>(
        &self,
        operands: &[&'t [Spanned]],
        column: usize,
    ) -> Result<(Vec<Dst>, Vec<&'t [Spanned]>), AsmError> {
        if operands.len() < 2 {
            return Err(self.err(
                column,
                format!(
                    "expected a destination and a value, found {} operand(s)",
                    operands.len()
                ),
            ));
        }
        let dst_n = operands.len() - 1;
        if dst_n > 2 {
            return Err(self.err(
                operands[2][0].column,
                "at most two destinations (one per ALU output)",
            ));
        }
        let dsts = operands[..dst_n]
            .iter()
            .map(|t| self.dst(t))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((dsts, operands[dst_n..].to_vec()))
    }

    fn write_back(
        &self,
        dsts: &[Dst],
        cond: Option<Cond>,
        set_flags: bool,
        column: usize,
    ) -> Result<WriteBack, AsmError> {
        let add = dsts[0].clone();
        let mul = dsts.get(1).cloned().unwrap_or_else(|| Dst::nop(column));
        if add.pack.is_some() && mul.pack.is_some() {
            return Err(self.err(mul.column, "only one destination can be packed"));
        }
        if let Some(Pack::Mul(_)) = add.pack {
            return Err(self.err(
                add.column,
                "a colour pack (c8888, c8a..c8d) applies to the second (mul) destination only",
            ));
        }
        let pack = add.pack.or(mul.pack).unwrap_or_default();
        let packed_a = match pack {
            Pack::RegfileA(p) if p != PackA::None => Some(if add.pack.is_some() {
                Side::Add
            } else {
                Side::Mul
            }),
            _ => None,
        };
        let (write_swap, waddr_add, waddr_mul) = self.write_files(&add, &mul, packed_a)?;
        let cond_mul = if dsts.len() > 1 {
            cond.unwrap_or(Cond::default_for(mul.is_nop(), false))
        } else {
            Cond::Never
        };
        Ok(WriteBack {
            pack,
            cond_add: cond.unwrap_or(Cond::default_for(add.is_nop(), set_flags)),
            cond_mul,
            set_flags,
            write_swap,
            waddr_add,
            waddr_mul,
        })
    }

    fn suffix_flags(
        &self,
        suffixes: &[&str],
        column: usize,
        allow: impl Fn(&str) -> bool,
    ) -> Result<(Option<Cond>, bool, Vec<String>), AsmError> {
        let mut cond = None;
        let mut set_flags = false;
        let mut other = Vec::new();
        for &s in suffixes {
            if s == "setf" {
                set_flags = true;
            } else if let Some(c) = parse_cond(s) {
                if cond.replace(c).is_some() {
                    return Err(self.err(column, "more than one condition"));
                }
            } else if allow(s) {
                other.push(s.to_string());
            } else {
                return Err(self.err(column, format!("`.{s}` is not a condition or `.setf`")));
            }
        }
        Ok((cond, set_flags, other))
    }

    fn load_imm(
        &self,
        suffixes: &[&str],
        column: usize,
        tokens: &[Spanned],
    ) -> Result<Instruction, AsmError> {
        let (cond, set_flags, modes) =
            self.suffix_flags(suffixes, column, |s| s == "es" || s == "eu")?;
        let mode = match modes.as_slice() {
            [] => LoadImmMode::Uniform32,
            [m] if m == "es" => LoadImmMode::PerElementSigned,
            [_] => LoadImmMode::PerElementUnsigned,
            _ => return Err(self.err(column, "at most one of .es / .eu")),
        };
        let operands = self.operands(tokens, column)?;
        let (dsts, rest) = self.dsts_and_value(&operands, column)?;
        let value = rest[0];
        let imm = match (&value[0].token, mode) {
            (Token::OpenBracket, LoadImmMode::Uniform32) => {
                return Err(self.err(
                    value[0].column,
                    "a per-lane list needs `ldi.es` (signed -2..1) or `ldi.eu` (unsigned 0..3)",
                ));
            }
            (Token::OpenBracket, _) => self.lane_list(value, mode)?,
            (Token::Number(text), _) if value.len() == 1 => parse_int(text)
                .or_else(|| parse_float(text))
                .ok_or_else(|| {
                    self.err(
                        value[0].column,
                        format!("expected a 32-bit integer or float, found `{text}`"),
                    )
                })?,
            (_, _) => {
                return Err(self.err(
                    value[0].column,
                    format!(
                        "expected an immediate value, found {}",
                        value[0].token.describe()
                    ),
                ))
            }
        };
        Ok(Instruction::LoadImm(LoadImmInstruction {
            mode,
            imm,
            write: self.write_back(&dsts, cond, set_flags, column)?,
        }))
    }

    fn lane_list(&self, tokens: &[Spanned], mode: LoadImmMode) -> Result<u32, AsmError> {
        let close = tokens.last().expect("non-empty");
        if close.token != Token::CloseBracket {
            return Err(self.err(close.column, "expected `]` to close the per-lane list"));
        }
        let values: Vec<&[Spanned]> = tokens[1..tokens.len() - 1]
            .split(|t| t.token == Token::Comma)
            .collect();
        if values.len() != 16 {
            return Err(self.err(
                tokens[0].column,
                format!("a per-lane list has 16 values, found {}", values.len()),
            ));
        }
        let range = if mode == LoadImmMode::PerElementSigned {
            -2..=1
        } else {
            0..=3
        };
        let mut imm = 0u32;
        for (lane, value) in values.iter().enumerate() {
            let parsed = match value {
                [Spanned {
                    token: Token::Number(n),
                    ..
                }] => parse_int(n).map(|v| v as i32).filter(|v| range.contains(v)),
                _ => None,
            };
            let column = value.first().map_or(tokens[0].column, |t| t.column);
            let v = parsed.ok_or_else(|| {
                self.err(
                    column,
                    format!(
                        "lane {lane}: expected an integer in {}..={}",
                        range.start(),
                        range.end()
                    ),
                )
            })?;
            let bits = (v as u32) & 3;
            imm |= (bits & 1) << lane | (bits >> 1) << (16 + lane);
        }
        Ok(imm)
    }

    fn semaphore(
        &self,
        acquire: bool,
        suffixes: &[&str],
        column: usize,
        tokens: &[Spanned],
    ) -> Result<Instruction, AsmError> {
        let (cond, set_flags, _) = self.suffix_flags(suffixes, column, |_| false)?;
        let operands = self.operands(tokens, column)?;
        let (dsts, rest) = self.dsts_and_value(&operands, column)?;
        let number = match rest[0] {
            [Spanned {
                token: Token::Number(n),
                ..
            }] => parse_int(n)
                .and_then(|n| u8::try_from(n).ok())
                .and_then(SemaphoreId::new),
            _ => None,
        };
        let semaphore = number
            .ok_or_else(|| self.err(rest[0][0].column, "expected a semaphore number 0..15"))?;
        Ok(Instruction::Semaphore(SemaphoreInstruction {
            acquire,
            semaphore,
            unused: 0,
            write: self.write_back(&dsts, cond, set_flags, column)?,
        }))
    }

    fn branch(
        &self,
        relative: bool,
        suffixes: &[&str],
        column: usize,
        tokens: &[Spanned],
    ) -> Result<Instruction, AsmError> {
        let cond = match suffixes {
            [] => BranchCond::Always,
            [c] => BranchCond::from_mnemonic(c).ok_or_else(|| {
                self.err(column, format!("`.{c}` is not a branch condition (allz allnz anyz anynz alln allnn anyn anynn allc allnc anyc anync always)"))
            })?,
            _ => return Err(self.err(column, "a branch takes one condition")),
        };
        let operands = self.operands(tokens, column)?;
        if operands.len() < 2 || operands.len() > 4 {
            return Err(self.err(column, "expected `dst[, dst2][, raN], target`"));
        }
        let target = *operands.last().expect("checked");
        let mut middle = &operands[..operands.len() - 1];
        let mut register = None;
        if middle.len() >= 2 {
            if let [Spanned {
                token: Token::Word(w),
                column: c,
            }] = middle[middle.len() - 1]
            {
                match parse_read(w).as_slice() {
                    [(RegFile::A, addr)] if addr.is_physical() => {
                        register = Some(*addr);
                        middle = &middle[..middle.len() - 1];
                    }
                    _ if middle.len() == 3 => {
                        return Err(self.err(
                            *c,
                            format!(
                                "a branch adds a physical file-A register (ra0..ra31), found `{w}`"
                            ),
                        ));
                    }
                    _ => {}
                }
            }
        }
        let dsts = middle
            .iter()
            .map(|t| self.dst(t))
            .collect::<Result<Vec<_>, _>>()?;
        let add = dsts[0].clone();
        let mul = dsts.get(1).cloned().unwrap_or_else(|| Dst::nop(column));
        if add.pack.is_some() || mul.pack.is_some() {
            return Err(self.err(add.column, "branch link writes cannot be packed"));
        }
        let (write_swap, waddr_add, waddr_mul) = self.write_files(&add, &mul, None)?;
        let imm = match target {
            [Spanned {
                token: Token::Number(n),
                column: c,
            }] => parse_int(n).ok_or_else(|| {
                self.err(
                    *c,
                    format!("expected a 32-bit branch offset or address, found `{n}`"),
                )
            })? as i32,
            _ => {
                let (name, c) = match target {
                    [Spanned {
                        token: Token::Word(r),
                        ..
                    }, Spanned {
                        token: Token::Colon,
                        ..
                    }, Spanned {
                        token: Token::Word(n),
                        column: c,
                    }] if r == "r" => (n, *c),
                    [Spanned {
                        token: Token::Colon,
                        ..
                    }, Spanned {
                        token: Token::Word(n),
                        column: c,
                    }] => (n, *c),
                    [Spanned {
                        token: Token::Word(n),
                        column: c,
                    }] => (n, *c),
                    _ => {
                        return Err(self.err(
                            target[0].column,
                            format!(
                                "expected a branch target (label or number), found {}",
                                target[0].token.describe()
                            ),
                        ))
                    }
                };
                if !relative {
                    return Err(self.err(c, format!("`bra` takes an absolute address, not the label `{name}`: use `brr` for labels")));
                }
                let labels = self.labels.ok_or_else(|| {
                    self.err(
                        c,
                        format!("label `{name}` cannot be resolved in a single instruction"),
                    )
                })?;
                let &target_index = labels
                    .get(name.as_str())
                    .ok_or_else(|| self.err(c, format!("undefined label `{name}`")))?;
                let delta = (target_index as i64 - (self.index as i64 + 4)) * 8;
                i32::try_from(delta)
                    .map_err(|_| self.err(c, "branch offset does not fit in 32 bits"))?
            }
        };
        Ok(Instruction::Branch(BranchInstruction {
            cond,
            relative,
            use_raddr_a: register.is_some(),
            raddr_a: register.unwrap_or(RegAddr::new(0).expect("0 is a register")),
            write_swap,
            waddr_add,
            waddr_mul,
            imm,
            unused: 0,
        }))
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Side {
    Add,
    Mul,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum OpCode {
    Nop,
    Mov,
    Add(AddOp),
    Mul(MulOp),
}

impl OpText {
    fn empty(column: usize) -> OpText {
        OpText {
            column,
            cond: None,
            set_flags: false,
            dst: None,
            srcs: Vec::new(),
        }
    }
}

fn parse_cond(suffix: &str) -> Option<Cond> {
    match suffix {
        "ifcc" => Some(Cond::CarryClear),
        other => Cond::from_mnemonic(other),
    }
}

fn parse_pack(suffix: &str) -> Option<Pack> {
    if let Some(colour) = suffix.strip_prefix('c') {
        return PackMul::from_mnemonic(colour)
            .filter(|&p| p != PackMul::None)
            .map(Pack::Mul);
    }
    PackA::from_mnemonic(suffix)
        .filter(|&p| p != PackA::None)
        .map(Pack::RegfileA)
}

/// The pack suffix text of a pack mode (without the dot), or `None` for no packing.
pub(crate) fn pack_suffix(pack: Pack) -> Option<String> {
    match pack {
        Pack::RegfileA(PackA::None) | Pack::Mul(PackMul::None) => None,
        Pack::RegfileA(p) => Some(p.mnemonic().to_string()),
        Pack::Mul(p) => Some(format!("c{}", p.mnemonic())),
    }
}

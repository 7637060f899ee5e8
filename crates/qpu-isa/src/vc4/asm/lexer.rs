//! Splits one line of assembly into tokens, each with the column it starts at.

use super::AsmError;

/// One token of a line.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Token {
    /// A name: mnemonic with suffixes (`sub.setf`), register (`ra0.16b`), label, signal.
    Word(String),
    /// A numeric literal as written (parsed later, when its use is known).
    Number(String),
    /// `,`
    Comma,
    /// `;`
    Semicolon,
    /// `:`
    Colon,
    /// `>>`
    RotateRight,
    /// `<<`
    RotateLeft,
    /// `[`
    OpenBracket,
    /// `]`
    CloseBracket,
    /// `-` on its own: the "no register" destination.
    Dash,
}

impl Token {
    /// How the token reads in an error message.
    pub(crate) fn describe(&self) -> String {
        match self {
            Token::Word(w) => format!("`{w}`"),
            Token::Number(n) => format!("number `{n}`"),
            Token::Comma => "`,`".into(),
            Token::Semicolon => "`;`".into(),
            Token::Colon => "`:`".into(),
            Token::RotateRight => "`>>`".into(),
            Token::RotateLeft => "`<<`".into(),
            Token::OpenBracket => "`[`".into(),
            Token::CloseBracket => "`]`".into(),
            Token::Dash => "`-`".into(),
        }
    }
}

/// A token and the 1-based column where it starts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Spanned {
    pub token: Token,
    pub column: usize,
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '.'
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// Tokenizes `line` (already stripped of its comment).
pub(crate) fn tokenize(line: &str, line_no: usize) -> Result<Vec<Spanned>, AsmError> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let column_of = |i: usize| chars[..i].len() + 1;
    while i < chars.len() {
        let (_, c) = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).map(|&(_, c)| c);
        let token = if is_word_start(c) {
            while i < chars.len() && is_word_char(chars[i].1) {
                i += 1;
            }
            Token::Word(chars[start..i].iter().map(|&(_, c)| c).collect())
        } else if c.is_ascii_digit() || (c == '-' && next.is_some_and(|n| n.is_ascii_digit())) {
            i += 1;
            let is_hex = c == '0' && matches!(next, Some('x' | 'X'));
            while i < chars.len() {
                let ch = chars[i].1;
                let prev = chars[i - 1].1;
                let exponent_sign = !is_hex && matches!(prev, 'e' | 'E') && matches!(ch, '+' | '-');
                if ch.is_ascii_alphanumeric() || ch == '.' || ch == '_' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            Token::Number(chars[start..i].iter().map(|&(_, c)| c).collect())
        } else {
            i += 1;
            match (c, next) {
                ('>', Some('>')) => {
                    i += 1;
                    Token::RotateRight
                }
                ('<', Some('<')) => {
                    i += 1;
                    Token::RotateLeft
                }
                (',', _) => Token::Comma,
                (';', _) => Token::Semicolon,
                (':', _) => Token::Colon,
                ('[', _) => Token::OpenBracket,
                (']', _) => Token::CloseBracket,
                ('-', _) => Token::Dash,
                _ => {
                    return Err(AsmError::new(
                        line_no,
                        column_of(start),
                        format!("unexpected character `{c}`"),
                    ))
                }
            }
        };
        tokens.push(Spanned {
            token,
            column: column_of(start),
        });
    }
    Ok(tokens)
}

/// Removes a `#` or `//` comment from the end of a line.
pub(crate) fn strip_comment(line: &str) -> &str {
    let hash = line.find('#');
    let slashes = line.find("//");
    match (hash, slashes) {
        (Some(a), Some(b)) => &line[..a.min(b)],
        (Some(a), None) | (None, Some(a)) => &line[..a],
        (None, None) => line,
    }
}

/// Parses an integer literal: decimal, `0x` hex or `0b` binary, optionally negative,
/// `_` separators allowed. Returns the 32-bit pattern; values outside i32..u32 fail.
pub(crate) fn parse_int(text: &str) -> Option<u32> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    let magnitude = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        u64::from_str_radix(hex, 16).ok()?
    } else if let Some(bin) = digits
        .strip_prefix("0b")
        .or_else(|| digits.strip_prefix("0B"))
    {
        u64::from_str_radix(bin, 2).ok()?
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse::<u64>().ok()?
    } else {
        return None;
    };
    if negative {
        (magnitude <= 1 << 31).then(|| (magnitude as u32).wrapping_neg())
    } else {
        u32::try_from(magnitude).ok()
    }
}

/// Parses a float literal (it must contain `.`, an exponent, or be `inf`/`nan`-free
/// decimal); returns its bits.
pub(crate) fn parse_float(text: &str) -> Option<u32> {
    let is_hex = text.trim_start_matches('-').starts_with("0x");
    if is_hex || !(text.contains('.') || text.contains('e') || text.contains('E')) {
        return None;
    }
    text.parse::<f32>()
        .ok()
        .filter(|f| f.is_finite())
        .map(f32::to_bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Token> {
        tokenize(line, 1)
            .unwrap()
            .into_iter()
            .map(|s| s.token)
            .collect()
    }

    #[test]
    fn tokens_and_columns() {
        let toks = tokenize("sub.setf ra13, ra0, rb1; v8min rb14, r1, r1 >> 3", 1).unwrap();
        assert_eq!(
            toks[0],
            Spanned {
                token: Token::Word("sub.setf".into()),
                column: 1
            }
        );
        assert_eq!(toks[1].column, 10);
        assert!(toks.iter().any(|t| t.token == Token::RotateRight));
        assert_eq!(
            words("brr -, r:here"),
            vec![
                Token::Word("brr".into()),
                Token::Dash,
                Token::Comma,
                Token::Word("r".into()),
                Token::Colon,
                Token::Word("here".into()),
            ]
        );
        assert_eq!(words("add r2, r0, -16")[5], Token::Number("-16".into()));
        assert_eq!(words("x 1e-3")[1], Token::Number("1e-3".into()));
        assert!(tokenize("add r1, r2, $3", 7)
            .unwrap_err()
            .to_string()
            .contains("column 13"));
    }

    #[test]
    fn literals() {
        assert_eq!(parse_int("0x88010000"), Some(0x8801_0000));
        assert_eq!(parse_int("-1"), Some(u32::MAX));
        assert_eq!(parse_int("-2147483648"), Some(0x8000_0000));
        assert_eq!(parse_int("-2147483649"), None);
        assert_eq!(parse_int("4294967296"), None);
        assert_eq!(parse_int("0b101"), Some(5));
        assert_eq!(parse_int("1.5"), None);
        assert_eq!(parse_float("0.5"), Some(0x3f00_0000));
        assert_eq!(parse_float("-2.0"), Some(0xc000_0000));
        assert_eq!(parse_float("3"), None);
        assert_eq!(strip_comment("nop # x // y"), "nop ");
        assert_eq!(strip_comment("0x1, 0x2, // c"), "0x1, 0x2, ");
    }
}

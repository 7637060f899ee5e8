//! Program file formats: raw little-endian binary and the C-initializer hex text that
//! GPU_FFT and vc4asm use (two 32-bit words per instruction, low word first).

use std::fmt::Write;

/// Why a program file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// A binary file whose length is not a whole number of 64-bit words.
    #[error(
        "binary program is {len} bytes long, not a multiple of 8 (one 64-bit word per instruction)"
    )]
    BinaryLength {
        /// The file's length.
        len: usize,
    },
    /// Hex text that is not a list of 32-bit numbers.
    #[error("line {line}, column {column}: {message}")]
    Hex {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was wrong.
        message: String,
    },
    /// Hex text with an odd number of 32-bit words.
    #[error("hex program has {count} 32-bit words; instructions need them in pairs (low word, high word)")]
    OddWordCount {
        /// How many words were read.
        count: usize,
    },
}

/// Reads little-endian 64-bit words.
pub fn from_binary(bytes: &[u8]) -> Result<Vec<u64>, FormatError> {
    if !bytes.len().is_multiple_of(8) {
        return Err(FormatError::BinaryLength { len: bytes.len() });
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("chunks of 8")))
        .collect())
}

/// Writes little-endian 64-bit words.
pub fn to_binary(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Reads C-initializer hex text: 32-bit numbers separated by commas and white space, `//`
/// and `/* */` comments allowed, low word of each instruction first.
pub fn from_hex(text: &str) -> Result<Vec<u64>, FormatError> {
    let mut halves = Vec::new();
    let mut in_block_comment = false;
    for (index, raw_line) in text.lines().enumerate() {
        let line_no = index + 1;
        let mut rest = raw_line;
        let mut offset = 0;
        let mut cleaned = String::new();
        // Strip comments, keeping column positions by blanking them out.
        while !rest.is_empty() {
            if in_block_comment {
                match rest.find("*/") {
                    Some(end) => {
                        cleaned.extend(std::iter::repeat_n(' ', end + 2));
                        rest = &rest[end + 2..];
                        in_block_comment = false;
                    }
                    None => {
                        cleaned.extend(std::iter::repeat_n(' ', rest.len()));
                        rest = "";
                    }
                }
            } else if let Some(start) = rest.find(['/', '#']) {
                cleaned.push_str(&rest[..start]);
                let tail = &rest[start..];
                if tail.starts_with("//") || tail.starts_with('#') {
                    rest = "";
                } else if let Some(after) = tail.strip_prefix("/*") {
                    cleaned.push_str("  ");
                    rest = after;
                    in_block_comment = true;
                } else {
                    return Err(FormatError::Hex {
                        line: line_no,
                        column: offset + start + 1,
                        message: "unexpected `/`".into(),
                    });
                }
            } else {
                cleaned.push_str(rest);
                rest = "";
            }
            offset = cleaned.len();
        }
        let mut column = 0;
        for piece in cleaned.split(',') {
            let trimmed = piece.trim();
            let lead = piece.len() - piece.trim_start().len();
            if !trimmed.is_empty() {
                let digits = trimmed
                    .strip_prefix("0x")
                    .or_else(|| trimmed.strip_prefix("0X"));
                let value = digits
                    .and_then(|d| u32::from_str_radix(d, 16).ok())
                    .ok_or_else(|| FormatError::Hex {
                        line: line_no,
                        column: column + lead + 1,
                        message: format!(
                            "expected a 32-bit hex number like 0x009e7000, found `{trimmed}`"
                        ),
                    })?;
                halves.push(value);
            }
            column += piece.len() + 1;
        }
    }
    if !halves.len().is_multiple_of(2) {
        return Err(FormatError::OddWordCount {
            count: halves.len(),
        });
    }
    Ok(halves
        .chunks_exact(2)
        .map(|p| u64::from(p[0]) | u64::from(p[1]) << 32)
        .collect())
}

/// Writes C-initializer hex text, one instruction per line, with optional comments.
pub fn to_hex(words: &[u64], comments: Option<&[String]>) -> String {
    let mut out = String::new();
    for (i, word) in words.iter().enumerate() {
        let _ = write!(
            out,
            "{:#010x}, {:#010x},",
            *word as u32,
            (*word >> 32) as u32
        );
        if let Some(text) = comments.and_then(|c| c.get(i)) {
            let _ = write!(out, " // {text}");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_reads_pairs_low_word_first() {
        let text = "0x009e7000, 0x100009e7, // nop\n/* block */ 0x00001234,\n0xe0020067\n";
        assert_eq!(
            from_hex(text).unwrap(),
            vec![0x1000_09e7_009e_7000, 0xe002_0067_0000_1234]
        );
        assert_eq!(
            from_hex(&to_hex(&[1, u64::MAX], None)).unwrap(),
            vec![1, u64::MAX]
        );
    }

    #[test]
    fn hex_errors_say_where() {
        let err = from_hex("0x1, 0x2,\n0x3, zz").unwrap_err();
        assert_eq!(
            err,
            FormatError::Hex {
                line: 2,
                column: 6,
                message: "expected a 32-bit hex number like 0x009e7000, found `zz`".into()
            }
        );
        assert_eq!(
            from_hex("0x1").unwrap_err(),
            FormatError::OddWordCount { count: 1 }
        );
        assert!(from_hex("0x100000000, 0x0").is_err());
    }

    #[test]
    fn binary_is_little_endian_words() {
        let bytes = to_binary(&[0x0102_0304_0506_0708]);
        assert_eq!(bytes, [8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(from_binary(&bytes).unwrap(), vec![0x0102_0304_0506_0708]);
        assert_eq!(
            from_binary(&[0; 9]),
            Err(FormatError::BinaryLength { len: 9 })
        );
    }
}

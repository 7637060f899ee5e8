//! `qpu`: the command-line front end of the qpu project.
//!
//! ```text
//! qpu asm hello.qasm -o hello.bin            # assemble (format from the extension, or --format)
//! qpu disasm hello.bin                       # disassemble: text, then address and word
//! ```

use clap::{Parser, Subcommand, ValueEnum};
use qpu_isa::{disasm, words, Instruction};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "qpu",
    version,
    about = "Assemble, disassemble and emulate VideoCore IV QPU programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How a program file stores its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Little-endian 64-bit words.
    Bin,
    /// C-initializer text: `0x%08x, 0x%08x,` per instruction, low word first.
    Hex,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble QPU assembly text into machine words.
    Asm {
        /// The assembly source.
        input: PathBuf,
        /// Where to write the program.
        #[arg(short, long)]
        output: PathBuf,
        /// Output format (default: hex for a .hex file, else bin).
        #[arg(long, value_enum)]
        format: Option<Format>,
    },
    /// Disassemble machine words into assembly text that `qpu asm` accepts back.
    Disasm {
        /// The program (bin or hex).
        input: PathBuf,
        /// Input format (default: hex for a .hex file, else bin).
        #[arg(long, value_enum)]
        format: Option<Format>,
    },
}

/// What went wrong, with the file it concerns.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Asm {
        path: String,
        source: qpu_isa::AsmError,
    },
    #[error("{path}: {source}")]
    Format {
        path: String,
        source: words::FormatError,
    },
    #[error("{path}: instruction {index} (byte offset {offset:#x}), word {word:#018x}: {source}")]
    Decode {
        path: String,
        index: usize,
        offset: usize,
        word: u64,
        source: qpu_isa::DecodeError,
    },
}

fn format_of(path: &Path, chosen: Option<Format>) -> Format {
    chosen.unwrap_or(match path.extension().and_then(|e| e.to_str()) {
        Some("hex") => Format::Hex,
        _ => Format::Bin,
    })
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|source| CliError::Io {
        path: display(path),
        source,
    })
}

/// Reads a program file as words, in the given or inferred format.
fn read_words(path: &Path, format: Option<Format>) -> Result<Vec<u64>, CliError> {
    let bytes = read(path)?;
    let format_error = |source| CliError::Format {
        path: display(path),
        source,
    };
    match format_of(path, format) {
        Format::Bin => words::from_binary(&bytes).map_err(format_error),
        Format::Hex => {
            let text = String::from_utf8_lossy(&bytes);
            words::from_hex(&text).map_err(format_error)
        }
    }
}

fn decode_all(path: &Path, program: &[u64]) -> Result<Vec<Instruction>, CliError> {
    program
        .iter()
        .enumerate()
        .map(|(index, &word)| {
            Instruction::decode(word).map_err(|source| CliError::Decode {
                path: display(path),
                index,
                offset: index * 8,
                word,
                source,
            })
        })
        .collect()
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Asm {
            input,
            output,
            format,
        } => {
            let bytes = read(&input)?;
            let text = String::from_utf8_lossy(&bytes);
            let program = qpu_isa::assemble(&text).map_err(|source| CliError::Asm {
                path: display(&input),
                source,
            })?;
            let encoded: Vec<u64> = program.iter().map(Instruction::encode).collect();
            let data = match format_of(&output, format) {
                Format::Bin => words::to_binary(&encoded),
                Format::Hex => {
                    let comments: Vec<String> = program.iter().map(disasm::instruction).collect();
                    words::to_hex(&encoded, Some(&comments)).into_bytes()
                }
            };
            std::fs::write(&output, data).map_err(|source| CliError::Io {
                path: display(&output),
                source,
            })
        }
        Command::Disasm { input, format } => {
            let program = read_words(&input, format)?;
            let instrs = decode_all(&input, &program)?;
            print!("{}", listing(&instrs));
            Ok(())
        }
    }
}

/// The disassembly with each instruction's byte address and word as a trailing comment, so
/// the listing assembles back to the same words.
fn listing(instrs: &[Instruction]) -> String {
    let text = disasm::program(instrs);
    let mut out = String::new();
    let mut index = 0;
    for line in text.lines() {
        if line.starts_with(':') {
            out.push_str(line);
        } else {
            let word = instrs[index].encode();
            out.push_str(&format!("{line:<48} # {:#06x}: {:#018x}", index * 8, word));
            index += 1;
        }
        out.push('\n');
    }
    out
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

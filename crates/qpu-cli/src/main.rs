//! `qpu`: the command-line front end of the qpu project.
//!
//! ```text
//! qpu asm hello.qasm -o hello.bin            # assemble (format from the extension, or --format)
//! qpu disasm hello.bin                       # disassemble: text, then address and word
//! qpu asm --gpu vc6 kernel.qasm -o kernel.bin # V3D 4.2 (Pi 4); vc7 = V3D 7.1 (Pi 5)
//! qpu emu hello.qasm --uniform 100 --buffer out=64 --uniform @out --dump out
//! qpu emu --gpu vc6 kernel.qasm --qpus 8 --buffer out=512 --uniform @out --dump out
//! qpu bench [--json]                         # the examples' numbers beside QPULib's
//! qpu bench --listing KERNEL [--qpus N]       # an example kernel's annotated listing
//! qpu bench --listing KERNEL --gpu vc6|vc7    # its V3D code
//! qpu bench --gpu vc6|vc7 [--json]            # the examples on the V3D emulator, perfmon counters
//! qpu profile heatmap --qpus 12 -o heat.html  # where an example's time goes, QPU by QPU (HTML)
//! ```

use clap::{Parser, Subcommand, ValueEnum};
use qpu_emu::vc4::{Emulator, EmulatorConfig};
use qpu_isa::v3d;
use qpu_isa::vc4::{disasm, words, Instruction};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "qpu",
    version,
    about = "Assemble, disassemble and emulate QPU programs for VideoCore IV and VideoCore VI/VII (V3D 4.2/7.1)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Which GPU's instruction set a program is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Gpu {
    /// VideoCore IV (Pi 0-3).
    Vc4,
    /// VideoCore VI, V3D 4.2 (Pi 4).
    Vc6,
    /// VideoCore VII, V3D 7.1 (Pi 5).
    Vc7,
}

impl Gpu {
    /// The V3D version, or `None` for VideoCore IV.
    fn v3d(self) -> Option<v3d::V3dVersion> {
        match self {
            Gpu::Vc4 => None,
            Gpu::Vc6 => Some(v3d::V3dVersion::V42),
            Gpu::Vc7 => Some(v3d::V3dVersion::V71),
        }
    }
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
        /// Instruction set: vc4 (Pi 0-3), vc6 (V3D 4.2, Pi 4) or vc7 (V3D 7.1, Pi 5).
        #[arg(long, value_enum, default_value = "vc4")]
        gpu: Gpu,
    },
    /// Disassemble machine words into assembly text that `qpu asm` accepts back.
    Disasm {
        /// The program (bin or hex).
        input: PathBuf,
        /// Input format (default: hex for a .hex file, else bin).
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Instruction set: vc4 (Pi 0-3), vc6 (V3D 4.2, Pi 4) or vc7 (V3D 7.1, Pi 5).
        #[arg(long, value_enum, default_value = "vc4")]
        gpu: Gpu,
    },
    /// Run a program on the emulator and print its run report.
    Emu {
        /// The program: .qasm (assembly), .hex, or anything else as binary.
        program: PathBuf,
        /// Input format for machine words (default from the extension).
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// QPUs to run the program on (vc4: 1-12; vc6: 1-8; vc7: 1-16); each gets the same
        /// uniforms.
        #[arg(long, default_value_t = 1)]
        qpus: usize,
        /// Instruction set: vc4 (Pi 0-3), vc6 (V3D 4.2, Pi 4) or vc7 (V3D 7.1, Pi 5).
        #[arg(long, value_enum, default_value = "vc4")]
        gpu: Gpu,
        /// vc6/vc7: threads per QPU (1, 2 or 4).
        #[arg(long, default_value_t = 1)]
        threads: u8,
        /// vc6/vc7: 16-lane batches (workgroups 0..N in X) to dispatch; default one per QPU.
        #[arg(long)]
        batches: Option<u32>,
        /// A uniform: a number (decimal, 0x hex, negative, or a float like 1.5), or `@NAME` /
        /// `@NAME+OFFSET` for a buffer's bus address. Repeat in order.
        #[arg(long = "uniform", value_name = "VALUE", allow_hyphen_values = true)]
        uniforms: Vec<String>,
        /// A zero-filled buffer of SIZE bytes, `NAME=SIZE`. Repeat for more.
        #[arg(long = "buffer", value_name = "NAME=SIZE")]
        buffers: Vec<String>,
        /// Print a buffer after the run: `NAME` or `NAME:hex|int|uint|float`.
        #[arg(long = "dump", value_name = "NAME[:FORMAT]")]
        dumps: Vec<String>,
        /// Clock for the modelled wall time, in MHz, 1 to 10000 (default: vc4 250, vc6 500,
        /// vc7 960).
        #[arg(long, value_parser = clock_mhz)]
        clock_mhz: Option<f64>,
        /// Instruction budget: a run that executes more is stopped with an error.
        #[arg(long)]
        max_instructions: Option<u64>,
        /// Cycle budget (VideoCore IV; default 4,000,000,000): a run whose clock passes it is
        /// stopped with an error.
        #[arg(long)]
        max_cycles: Option<u64>,
        /// Also write where the run's time went as a profile page here (the page `qpu
        /// profile` writes; on vc6/vc7 with a lane per thread when --threads is 2 or 4).
        #[arg(long, value_name = "PAGE")]
        profile: Option<PathBuf>,
    },
    /// Compile and run the examples on the emulator; print static and issued instructions,
    /// cycles, modelled time at 250 MHz and compile time, beside QPULib's figures, and
    /// whether each output matches a scalar reference.
    Bench {
        /// Print the rows as one JSON array of objects instead of a table.
        #[arg(long)]
        json: bool,
        /// Print instead the compiled listing of one example kernel (gcd, tri, oet_sort,
        /// rot3d, heatmap) with each instruction's static cycle note.
        #[arg(long, value_name = "KERNEL")]
        listing: Option<String>,
        /// With --listing: compile for launches of up to this many QPUs (1-12; the V3D
        /// code does not depend on it).
        #[arg(long, default_value_t = 1, requires = "listing")]
        qpus: u32,
        /// Compile the examples for this GPU: vc6 or vc7 run them on the V3D emulator
        /// (cycles from the model fitted to published Pi 4/5 timings, at the board's clock,
        /// with the kernel's perfmon counter names), vc4 (the default) is the table above.
        /// With --listing: the listing for this GPU.
        #[arg(long, value_enum, default_value_t = Gpu::Vc4)]
        gpu: Gpu,
    },
    /// Run an example kernel (gcd, tri, oet_sort, rot3d, heatmap) or a library workload
    /// (mandelbrot, sha256, sgemm, fft: its bench row's setup) on an emulator and write where
    /// its time went as a self-contained HTML page: one lane per
    /// QPU, coloured by what it did (issuing, or stalled on the TMU, VPM, DMA, semaphores or
    /// the mutex; on V3D the TMU or a workgroup barrier), under it a lane of its outstanding
    /// TMU results, the DMA engines' lanes (vc4), zoomable, with each QPU's totals and the
    /// run's counters. (`qpu emu --profile` does the same for an assembled program, on V3D
    /// with a lane per thread.)
    Profile {
        /// The example kernel.
        kernel: String,
        /// QPUs to run on (gcd, tri and oet_sort run on one).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=12))]
        qpus: u32,
        /// Where to write the page (default: qpu-profile-KERNEL.html in the temporary
        /// directory).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Also draw the lanes as a PNG picture here (800 columns, one 20-pixel lane per QPU).
        #[arg(long)]
        png: Option<PathBuf>,
        /// The emulator: vc4 (VideoCore IV, the default), vc6 or vc7 (V3D 4.2 or 7.1, where
        /// the stalls recorded are the TMU's and workgroup barriers'; the compiled kernels
        /// run one thread per QPU; QPUs beyond the version's are refused).
        #[arg(long, value_enum, default_value_t = Gpu::Vc4)]
        gpu: Gpu,
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
        source: qpu_isa::vc4::AsmError,
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
        source: qpu_isa::vc4::DecodeError,
    },
    #[error("{path}: {source}")]
    V3dAsm { path: String, source: v3d::AsmError },
    #[error("{path}: instruction {index} (byte offset {offset:#x}), word {word:#018x}: {source}")]
    V3dDecode {
        path: String,
        index: usize,
        offset: usize,
        word: u64,
        source: v3d::DecodeError,
    },
    #[error("{0}")]
    Usage(String),
    #[error("{path}: {source}")]
    Emu {
        path: String,
        source: Box<qpu_emu::EmuError>,
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

/// Writes the command's output to stdout. A reader that stops early (`qpu disasm big.bin |
/// head`) closes the pipe: that ends the command quietly and successfully, as for other
/// command-line tools, instead of a panic.
/// Writes `lines` to standard output as they are made; a reader that closes the pipe early
/// (`| head`) ends the output without an error.
fn emit_lines(lines: impl Iterator<Item = String>) -> Result<(), CliError> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = lines
        .into_iter()
        .try_for_each(|line| writeln!(out, "{line}"))
        .and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Io {
            path: "standard output".to_string(),
            source: e,
        }),
        _ => Ok(()),
    }
}

fn emit(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Io {
            path: "standard output".to_string(),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// `qpu asm x -o x` would replace the source with machine code: refuse it.
fn refuse_same_file(input: &Path, output: &Path) -> Result<(), CliError> {
    let same = match (std::fs::canonicalize(input), std::fs::canonicalize(output)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(CliError::Usage(format!(
            "-o {} is the input file; writing the program there would destroy the source \
             (choose another output path)",
            display(output)
        )));
    }
    Ok(())
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
            gpu,
        } => {
            refuse_same_file(&input, &output)?;
            let bytes = read(&input)?;
            let text = String::from_utf8_lossy(&bytes);
            if let Some(version) = gpu.v3d() {
                let data = v3d_asm(version, &input, &text, format_of(&output, format))?;
                return std::fs::write(&output, data).map_err(|source| CliError::Io {
                    path: display(&output),
                    source,
                });
            }
            let program = qpu_isa::vc4::assemble(&text).map_err(|source| CliError::Asm {
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
        Command::Disasm { input, format, gpu } => {
            let program = read_words(&input, format)?;
            if let Some(version) = gpu.v3d() {
                return emit(&v3d_listing(version, &input, &program)?);
            }
            let instrs = decode_all(&input, &program)?;
            emit_lines(listing_lines(&instrs))
        }
        Command::Emu {
            program,
            format,
            qpus,
            gpu,
            threads,
            batches,
            uniforms,
            buffers,
            dumps,
            clock_mhz,
            max_instructions,
            max_cycles,
            profile,
        } => {
            let out = emulate(EmuArgs {
                program,
                format,
                qpus,
                gpu,
                threads,
                batches,
                uniforms,
                buffers,
                dumps,
                clock_mhz,
                max_instructions,
                max_cycles,
                profile,
            })?;
            emit(&out)
        }
        Command::Bench {
            listing: Some(name),
            qpus,
            gpu,
            ..
        } => match qpu_kernels::bench::listing(&name, qpus, gpu.v3d()) {
            Ok(Some(text)) => emit(&text),
            Ok(None) => Err(CliError::Usage(format!(
                "bench --listing: no example kernel named {name:?} (one of: {})",
                qpu_kernels::bench::KERNELS.join(", ")
            ))),
            Err(e) => Err(CliError::Usage(format!("bench --listing {name}: {e}"))),
        },
        Command::Bench {
            gpu: gpu @ (Gpu::Vc6 | Gpu::Vc7),
            json,
            ..
        } => {
            let version = gpu.v3d().expect("a V3D GPU");
            let bench = |e: qpu::Error| CliError::Usage(format!("bench: {e}"));
            let rows = qpu_kernels::bench::run_all_v3d(version).map_err(bench)?;
            if json {
                emit(&bench_v3d_json(&rows))
            } else {
                emit(&bench_v3d_table(&rows))
            }
        }
        Command::Profile {
            kernel,
            qpus,
            output,
            png,
            gpu,
        } => {
            let device = match gpu.v3d() {
                Some(version) => qpu::Device::v3d_emulator_with_timeline(version),
                None => qpu::Device::emulator_with_timeline(),
            };
            let ran = qpu_kernels::bench::qpulib::run_example(&kernel, &device, qpus)
                .transpose()
                .or_else(|| {
                    qpu_kernels::bench::library::run_workload(&kernel, &device, qpus).transpose()
                });
            let report = match ran {
                Some(Ok(report)) => report,
                None => {
                    return Err(CliError::Usage(format!(
                        "profile: no example kernel named {kernel:?} (one of: {})",
                        qpu_kernels::bench::KERNELS.join(", ")
                    )))
                }
                Some(Err(e)) => return Err(CliError::Usage(format!("profile {kernel}: {e}"))),
            };
            let timeline = report.timeline.as_ref().ok_or_else(|| {
                CliError::Usage("profile: the emulator recorded no timeline".to_string())
            })?;
            let title = format!("{kernel} on {} QPU(s): {report}", report.num_qpus);
            let html = timeline.html(&title, &report.counters);
            let path = output
                .unwrap_or_else(|| std::env::temp_dir().join(format!("qpu-profile-{kernel}.html")));
            std::fs::write(&path, html).map_err(|source| CliError::Io {
                path: path.display().to_string(),
                source,
            })?;
            if let Some(picture) = png {
                write_lanes_png(timeline, &picture)?;
            }
            emit(&format!(
                "{report}\nprofile written to {}\n",
                path.display()
            ))
        }
        Command::Bench { json, .. } => {
            let bench = |e: qpu::Error| CliError::Usage(format!("bench: {e}"));
            let rows = qpu_kernels::bench::run_all().map_err(bench)?;
            if json {
                emit(&bench_json(&rows))
            } else {
                emit(&bench_table(&rows))
            }
        }
    }
}

/// The disassembly with each instruction's byte address and word as a trailing comment, so
/// the listing assembles back to the same words.
/// The listing's lines, each instruction with its byte offset and word, made one at a time.
fn listing_lines(instrs: &[Instruction]) -> impl Iterator<Item = String> + '_ {
    let mut index = 0;
    disasm::lines(instrs).map(move |line| {
        if line.starts_with(':') {
            line
        } else {
            let word = instrs[index].encode();
            let line = format!("{line:<48} # {:#06x}: {:#018x}", index * 8, word);
            index += 1;
            line
        }
    })
}

/// Assembles V3D text into the output file's bytes.
fn v3d_asm(
    version: v3d::V3dVersion,
    input: &Path,
    text: &str,
    format: Format,
) -> Result<Vec<u8>, CliError> {
    let program = v3d::assemble(version, text).map_err(|source| CliError::V3dAsm {
        path: display(input),
        source,
    })?;
    // The assembler returns decoded instructions, which always encode.
    let encoded: Vec<u64> = program
        .iter()
        .map(|i| v3d::encode(version, i))
        .collect::<Result<_, _>>()
        .map_err(|e| CliError::Usage(format!("{}: {e}", display(input))))?;
    Ok(match format {
        Format::Bin => words::to_binary(&encoded),
        Format::Hex => {
            let comments: Vec<String> = program
                .iter()
                .map(|i| v3d::disasm::instruction(version, i))
                .collect();
            words::to_hex(&encoded, Some(&comments)).into_bytes()
        }
    })
}

/// A V3D listing: the program's text (relative branch targets as `L<n>:` labels), each
/// instruction with its byte address and word as a comment.
fn v3d_listing(
    version: v3d::V3dVersion,
    input: &Path,
    program: &[u64],
) -> Result<String, CliError> {
    let instrs = program
        .iter()
        .enumerate()
        .map(|(index, &word)| {
            v3d::decode(version, word).map_err(|source| CliError::V3dDecode {
                path: display(input),
                index,
                offset: index * 8,
                word,
                source,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = String::new();
    let mut index = 0;
    for line in v3d::disasm::program(version, &instrs).lines() {
        match program.get(index) {
            Some(word) if !line.ends_with(':') => {
                out.push_str(&format!("{line:<48} # {:#06x}: {word:#018x}", index * 8));
                index += 1;
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    Ok(out)
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A multi-megabyte bad argument or token is not echoed whole, and control
            // characters from the input (an escape sequence in a token, say) are shown
            // escaped rather than sent to the terminal.
            eprintln!(
                "error: {}",
                printable(&qpu_isa::vc4::asm::shorten_quoted(&e.to_string()))
            );
            ExitCode::FAILURE
        }
    }
}

/// `text` with control characters other than line ends and tabs escaped (`\u{1b}`).
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// A buffer dump format.
#[derive(Clone, Copy, PartialEq)]
enum DumpFormat {
    Hex,
    Int,
    Uint,
    Float,
}

/// Allocates each `--buffer NAME=SIZE` in `memory` (by name: address and size) and checks
/// that every `--dump` names one of them.
/// Allocation failures are errors of the program at `path`.
fn declare_buffers(
    memory: &mut qpu_emu::memory::Memory,
    path: &str,
    specs: &[String],
    dumps: &[(String, DumpFormat)],
) -> Result<BTreeMap<String, (u32, u32)>, CliError> {
    let mut buffers = BTreeMap::new();
    for spec in specs {
        let (name, size) = parse_buffer(spec)?;
        let addr = memory.alloc(size, 64).map_err(|e| CliError::Emu {
            path: path.to_string(),
            source: Box::new(e.into()),
        })?;
        if buffers.insert(name.clone(), (addr, size)).is_some() {
            return Err(CliError::Usage(format!(
                "--buffer `{name}` is declared twice"
            )));
        }
    }
    for (name, _) in dumps {
        if !buffers.contains_key(name) {
            return Err(CliError::Usage(format!(
                "--dump `{name}`: no buffer of that name"
            )));
        }
    }
    Ok(buffers)
}

fn parse_buffer(spec: &str) -> Result<(String, u32), CliError> {
    let usage = || {
        CliError::Usage(format!(
            "--buffer `{spec}`: expected NAME=SIZE with SIZE in bytes, e.g. out=64"
        ))
    };
    let (name, size) = spec.split_once('=').ok_or_else(usage)?;
    let size = parse_number(size).ok_or_else(usage)?;
    if size == 0 {
        return Err(CliError::Usage(format!(
            "--buffer `{spec}`: SIZE is 0; a buffer needs at least 1 byte"
        )));
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(usage());
    }
    Ok((name.to_string(), size))
}

fn parse_number(text: &str) -> Option<u32> {
    match text.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => text.parse::<u32>().ok(),
    }
}

fn parse_uniform(spec: &str, buffers: &BTreeMap<String, (u32, u32)>) -> Result<u32, CliError> {
    if let Some(reference) = spec.strip_prefix('@') {
        let (name, offset) = match reference.split_once('+') {
            Some((name, offset)) => (
                name,
                parse_number(offset).ok_or_else(|| {
                    CliError::Usage(format!("--uniform `{spec}`: bad offset `{offset}`"))
                })?,
            ),
            None => (reference, 0),
        };
        let &(addr, size) = buffers.get(name).ok_or_else(|| {
            CliError::Usage(format!("--uniform `{spec}`: no buffer named `{name}` (declare it with --buffer {name}=SIZE)"))
        })?;
        if offset >= size {
            return Err(CliError::Usage(format!(
                "--uniform `{spec}`: offset {offset} is outside the {size}-byte buffer"
            )));
        }
        return Ok(addr + offset);
    }
    if let Some(value) = parse_number(spec) {
        return Ok(value);
    }
    if let Some(magnitude) = spec.strip_prefix('-').and_then(parse_number) {
        if magnitude <= 1 << 31 {
            return Ok(magnitude.wrapping_neg());
        }
    }
    if spec.contains('.') {
        if let Ok(f) = spec.parse::<f32>() {
            return Ok(f.to_bits());
        }
    }
    Err(CliError::Usage(format!(
        "--uniform `{spec}`: expected a 32-bit number, a float with a `.`, or @BUFFER"
    )))
}

fn parse_dump(spec: &str) -> Result<(String, DumpFormat), CliError> {
    let (name, format) = spec.split_once(':').unwrap_or((spec, "hex"));
    let format = match format {
        "hex" => DumpFormat::Hex,
        "int" => DumpFormat::Int,
        "uint" => DumpFormat::Uint,
        "float" => DumpFormat::Float,
        other => {
            return Err(CliError::Usage(format!(
                "--dump `{spec}`: unknown format `{other}` (hex, int, uint, float)"
            )))
        }
    };
    Ok((name.to_string(), format))
}

/// Loads a program for the emulator: assembly text for `.qasm`/`.s`/`.asm`, else words.
fn load_program(path: &Path, format: Option<Format>) -> Result<Vec<u64>, CliError> {
    let is_text = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("qasm" | "s" | "asm")
    );
    if is_text && format.is_none() {
        let bytes = read(path)?;
        let program =
            qpu_isa::vc4::assemble(&String::from_utf8_lossy(&bytes)).map_err(|source| {
                CliError::Asm {
                    path: display(path),
                    source,
                }
            })?;
        Ok(program.iter().map(Instruction::encode).collect())
    } else {
        read_words(path, format)
    }
}

/// The `emu` subcommand's arguments.
struct EmuArgs {
    program: PathBuf,
    format: Option<Format>,
    qpus: usize,
    gpu: Gpu,
    threads: u8,
    batches: Option<u32>,
    uniforms: Vec<String>,
    buffers: Vec<String>,
    dumps: Vec<String>,
    clock_mhz: Option<f64>,
    max_instructions: Option<u64>,
    max_cycles: Option<u64>,
    profile: Option<PathBuf>,
}

/// A modelled clock in MHz: a finite number from 1 to 10,000.
fn clock_mhz(text: &str) -> Result<f64, String> {
    let mhz: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if (1.0..=10_000.0).contains(&mhz) {
        Ok(mhz)
    } else {
        Err(format!("{text} MHz is outside 1 to 10000"))
    }
}

/// The flag that raises a budget the emulator reports exceeded.
fn budget_flag(what: &str) -> &'static str {
    if what == "cycle" {
        "--max-cycles"
    } else {
        "--max-instructions"
    }
}

fn emulate(args: EmuArgs) -> Result<String, CliError> {
    if let Some(version) = args.gpu.v3d() {
        return emulate_v3d(args, version);
    }
    if args.threads != 1 || args.batches.is_some() {
        return Err(CliError::Usage(
            "--threads and --batches are for --gpu vc6 or vc7".to_string(),
        ));
    }
    let words = load_program(&args.program, args.format)?;
    let path = display(&args.program);
    let emu_error = |source| CliError::Emu {
        path: path.clone(),
        source: Box::new(source),
    };
    let dumps = args
        .dumps
        .iter()
        .map(|d| parse_dump(d))
        .collect::<Result<Vec<_>, _>>()?;
    let mut config = EmulatorConfig::with_qpus(args.qpus);
    config.clock_mhz = args.clock_mhz.unwrap_or(250.0);
    config.timeline = args.profile.is_some();
    let tmu_fifo_depth = config.ambiguities.tmu_fifo_depth;
    if let Some(max) = args.max_instructions {
        config.max_instructions = max;
    }
    if let Some(max) = args.max_cycles {
        config.max_cycles = max;
    }
    let mut emu = Emulator::new(config).map_err(emu_error)?;
    let buffers = declare_buffers(emu.memory_mut(), &path, &args.buffers, &dumps)?;
    let uniforms = args
        .uniforms
        .iter()
        .map(|u| parse_uniform(u, &buffers))
        .collect::<Result<Vec<_>, _>>()?;
    let code = emu.load_program(&words).map_err(emu_error)?;
    let mut launches = Vec::new();
    for _ in 0..args.qpus {
        launches.push((emu.load_uniforms(&uniforms).map_err(emu_error)?, code));
    }
    let report = emu.run(&launches).map_err(|e| match e {
        // The library's message names its configuration type; here the knob is a flag.
        qpu_emu::EmuError::Budget {
            what,
            limit,
            qpu,
            pc,
        } => CliError::Usage(format!(
            "{path}: {what} budget of {limit} exceeded (QPU {qpu} at PC {pc:#010x}); pass \
             {} with a larger number if the program is expected to run this long, otherwise \
             it likely never reaches its thread end",
            budget_flag(what)
        )),
        other => emu_error(other),
    })?;
    if let Some(page) = &args.profile {
        let t = &report.total;
        let counters = [
            ("instructions", t.instructions),
            ("cycles", report.cycles),
            ("stall_tmu", t.stalls.tmu),
            ("stall_vpm", t.stalls.vpm),
            ("stall_dma", t.stalls.dma),
            ("stall_semaphore", t.stalls.semaphore),
            ("stall_mutex", t.stalls.mutex),
            ("tmu_requests", t.tmu_requests),
            ("dma_load_bytes", t.dma_load_bytes),
            ("dma_store_bytes", t.dma_store_bytes),
        ]
        .map(|(name, value)| (name.to_string(), value));
        let timeline = qpu::runtime::Timeline::from_vc4(&report, tmu_fifo_depth);
        write_page(
            page,
            &timeline,
            &format!("{path} on {} QPU(s)", args.qpus),
            &counters,
        )?;
    }
    let mut out = format!("{report}\n");
    out.push_str(&dump_buffers(emu.memory(), &buffers, &dumps).map_err(emu_error)?);
    Ok(out)
}

/// The `--dump` buffers, eight words a row.
fn dump_buffers(
    memory: &qpu_emu::memory::Memory,
    buffers: &BTreeMap<String, (u32, u32)>,
    dumps: &[(String, DumpFormat)],
) -> Result<String, qpu_emu::EmuError> {
    let mut out = String::new();
    for (name, format) in dumps {
        let (addr, size) = buffers[name];
        let values = memory.read_u32s(addr, size / 4)?;
        out.push_str(&format!("{name} @ {addr:#010x} ({size} bytes):\n"));
        for (row, chunk) in values.chunks(8).enumerate() {
            let cells: Vec<String> = chunk
                .iter()
                .map(|&v| match format {
                    DumpFormat::Hex => format!("{v:#010x}"),
                    DumpFormat::Int => format!("{:>11}", v as i32),
                    DumpFormat::Uint => format!("{v:>10}"),
                    DumpFormat::Float => format!("{:>12}", f32::from_bits(v)),
                })
                .collect();
            out.push_str(&format!("  [{:>4}] {}\n", row * 8, cells.join(" ")));
        }
    }
    Ok(out)
}

/// `qpu emu --gpu vc6|vc7`: one CSD dispatch of `--batches` single-batch workgroups (ids
/// 0..N in X, readable from the payload register) on `--qpus` QPUs.
fn emulate_v3d(args: EmuArgs, version: v3d::V3dVersion) -> Result<String, CliError> {
    use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator};
    let path = display(&args.program);
    let emu_error = |source| CliError::Emu {
        path: path.clone(),
        source: Box::new(source),
    };
    let is_text = matches!(
        args.program.extension().and_then(|e| e.to_str()),
        Some("qasm" | "s" | "asm")
    );
    let words = if is_text && args.format.is_none() {
        let text = String::from_utf8_lossy(&read(&args.program)?).into_owned();
        let program = v3d::assemble(version, &text).map_err(|source| CliError::V3dAsm {
            path: path.clone(),
            source,
        })?;
        program
            .iter()
            .map(|i| v3d::encode(version, i))
            .collect::<Result<Vec<u64>, _>>()
            .map_err(|e| CliError::Usage(format!("{path}: {e}")))?
    } else {
        read_words(&args.program, args.format)?
    };
    let dumps = args
        .dumps
        .iter()
        .map(|d| parse_dump(d))
        .collect::<Result<Vec<_>, _>>()?;
    let mut config = V3dConfig::new(version);
    config.qpus = args.qpus;
    config.threads = args.threads;
    config.timeline = args.profile.is_some();
    if let Some(mhz) = args.clock_mhz {
        config.clock_mhz = mhz;
    }
    if let Some(max) = args.max_instructions {
        config.max_instructions = max;
    }
    if args.max_cycles.is_some() {
        return Err(CliError::Usage(
            "--max-cycles is for --gpu vc4; the V3D emulator's budget is --max-instructions"
                .to_string(),
        ));
    }
    let mut emu = V3dEmulator::new(config).map_err(emu_error)?;
    let buffers = declare_buffers(emu.memory_mut(), &path, &args.buffers, &dumps)?;
    let uniforms = args
        .uniforms
        .iter()
        .map(|u| parse_uniform(u, &buffers))
        .collect::<Result<Vec<_>, _>>()?;
    let code = emu.load_program(&words).map_err(emu_error)?;
    let unif = emu.load_uniforms(&uniforms).map_err(emu_error)?;
    let batches = args.batches.unwrap_or(args.qpus as u32);
    let report = emu
        .dispatch(&CsdJob::per_qpu(code, unif, batches))
        .map_err(|e| match e {
            qpu_emu::EmuError::Budget {
                what,
                limit,
                qpu,
                pc,
            } => CliError::Usage(format!(
                "{path}: {what} budget of {limit} exceeded (QPU {qpu} at PC {pc:#010x}); pass \
                 --max-instructions with a larger number if the program is expected to run \
                 this long, otherwise it likely never reaches its program end"
            )),
            other => emu_error(other),
        })?;
    if let Some(page) = &args.profile {
        let counters: Vec<(String, u64)> = report
            .perfmon()
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect();
        let title = format!(
            "{path}: {batches} batch(es) on {} QPU(s) x {} thread(s)",
            args.qpus, args.threads
        );
        let timeline = qpu::runtime::Timeline::from_v3d(&report);
        write_page(page, &timeline, &title, &counters)?;
    }
    let mut out = format!("{report}\n");
    out.push_str(&dump_buffers(emu.memory(), &buffers, &dumps).map_err(emu_error)?);
    Ok(out)
}

/// Writes `timeline`'s profile page to `path`.
fn write_page(
    path: &Path,
    timeline: &qpu::runtime::Timeline,
    title: &str,
    counters: &[(String, u64)],
) -> Result<(), CliError> {
    std::fs::write(path, timeline.html(title, counters)).map_err(|source| CliError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The V3D bench rows as a Markdown table: modelled cycles and time at the board's clock,
/// and where the time went under the kernel's perfmon counter names.
fn bench_v3d_table(rows: &[qpu_kernels::bench::V3dExampleNumbers]) -> String {
    let mut out = String::from(
        "| example | static | issued | cycles | time | QPU-stalls-TMU | QPU-wait-bubble | L2T hits / misses | correct |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for row in rows {
        match &row.outcome {
            Ok(run) => out.push_str(&format!(
                "| {} | {} | {} | {} | {:.1} us at {} MHz | {} | {} | {} / {} | {} |\n",
                row.name,
                run.static_instructions,
                run.issued_instructions,
                run.cycles,
                run.time_us(),
                run.clock_mhz,
                run.counter("QPU-stalls-TMU"),
                run.counter("QPU-wait-bubble"),
                run.counter("L2T-TMU-read-hits"),
                run.counter("L2T-TMU-read-miss"),
                if run.correct { "yes" } else { "NO" }
            )),
            Err(why) => out.push_str(&format!(
                "| {} | not compiled: {why} | | | | | | | |\n",
                row.name
            )),
        }
    }
    out
}

/// The V3D bench rows as one JSON array of objects, each run's perfmon-named counters under
/// `perfmon`.
fn bench_v3d_json(rows: &[qpu_kernels::bench::V3dExampleNumbers]) -> String {
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| match &row.outcome {
            Ok(run) => {
                let perfmon: serde_json::Map<String, serde_json::Value> = run
                    .counters
                    .iter()
                    .map(|(n, v)| (n.clone(), (*v).into()))
                    .collect();
                serde_json::json!({
                    "name": row.name,
                    "qpus": row.qpus,
                    "static": run.static_instructions,
                    "issued": run.issued_instructions,
                    "cycles": run.cycles,
                    "clock_mhz": run.clock_mhz,
                    "modelled_us": run.time_us(),
                    "perfmon": perfmon,
                    "correct": run.correct,
                })
            }
            Err(why) => serde_json::json!({
                "name": row.name,
                "qpus": row.qpus,
                "not_compiled": why,
            }),
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&rows).expect("JSON values always serialise");
    out.push('\n');
    out
}

/// The bench rows as a Markdown table (docs/numbers.md carries the same table).
fn bench_table(rows: &[qpu_kernels::bench::ExampleNumbers]) -> String {
    let or_dash = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    let mut out = String::from(
        "| example | static (QPULib) | issued (QPULib) | cycles | time at 250 MHz | compile | correct |\n|---|---|---|---|---|---|---|\n",
    );
    let (library, examples): (Vec<_>, Vec<_>) = rows.iter().partition(|r| r.metric.is_some());
    for row in examples {
        out.push_str(&format!(
            "| {} | {} ({}) | {} ({}) | {} | {:.1} us | {:.3} ms | {} |\n",
            row.name,
            row.static_instructions,
            or_dash(row.qpulib_static.map(|v| v as u64)),
            row.issued_instructions,
            or_dash(row.qpulib_issued),
            row.cycles,
            row.time_us,
            row.compile_time.as_secs_f64() * 1e3,
            if row.correct { "yes" } else { "NO" },
        ));
    }
    if !library.is_empty() {
        out.push_str(
            "\n| library workload | figure | target | met | issued | cycles | time at 250 MHz | compile | correct |\n|---|---|---|---|---|---|---|---|---|\n",
        );
    }
    for row in library {
        let m = row.metric.as_ref().expect("library rows have a metric");
        out.push_str(&format!(
            "| {} | {:.3} {} | {} {} {} | {} | {} | {} | {:.1} us | {:.3} ms | {} |\n",
            row.name,
            m.value,
            m.unit,
            if m.higher_is_better { ">=" } else { "<=" },
            m.target,
            m.unit,
            if m.met() { "yes" } else { "NO" },
            row.issued_instructions,
            row.cycles,
            row.time_us,
            row.compile_time.as_secs_f64() * 1e3,
            if row.correct { "yes" } else { "NO" },
        ));
    }
    out
}

/// The bench rows as one JSON array of objects, for tools.
fn bench_json(rows: &[qpu_kernels::bench::ExampleNumbers]) -> String {
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| {
            let mut object = serde_json::json!({
                "name": row.name,
                "qpus": row.qpus,
                "static": row.static_instructions,
                "issued": row.issued_instructions,
                "cycles": row.cycles,
                "modelled_us": row.time_us,
                "compile_ms": row.compile_time.as_secs_f64() * 1e3,
                "qpulib_static": row.qpulib_static,
                "qpulib_issued": row.qpulib_issued,
                "correct": row.correct,
            });
            let fields = object.as_object_mut().expect("an object");
            if let Some(m) = &row.metric {
                fields.insert("metric".into(), m.unit.into());
                fields.insert("value".into(), m.value.into());
                fields.insert("target".into(), m.target.into());
                fields.insert("met".into(), m.met().into());
            }
            if let Some(v) = row.log2n {
                fields.insert("log2n".into(), v.into());
            }
            if let Some(v) = row.batch {
                fields.insert("batch".into(), v.into());
            }
            object
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&rows).expect("JSON values always serialise");
    out.push('\n');
    out
}

/// The profile's lanes as a PNG picture: 800 columns, one 20-pixel lane per QPU (2 pixels
/// apart), each column stacked from the top with the shares of its clocks spent issuing and
/// stalled by cause, in the page's colours.
fn write_lanes_png(timeline: &qpu::runtime::Timeline, path: &Path) -> Result<(), CliError> {
    const WIDTH: usize = 800;
    const LANE: usize = 20;
    const GAP: usize = 2;
    let columns = timeline.columns(WIDTH);
    let height = columns.len() * (LANE + GAP);
    let colours: Vec<[u8; 3]> = qpu::runtime::Timeline::colours()
        .iter()
        .map(|(_, hex)| {
            let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
            [byte(1), byte(3), byte(5)]
        })
        .collect();
    let mut pixels = vec![255u8; WIDTH * height * 3];
    let span = timeline.cycles.max(1) as u128;
    for (row, (busy, stalled)) in columns.iter().enumerate() {
        for c in 0..WIDTH {
            let size = ((c as u128 + 1) * span / WIDTH as u128 - c as u128 * span / WIDTH as u128)
                .max(1) as f64;
            let mut top = 0.0f64;
            let parts = std::iter::once(busy[c]).chain(stalled[c].iter().copied());
            for (k, clocks) in parts.enumerate() {
                let h = LANE as f64 * (clocks as f64 / size).min(1.0);
                let from = top.round() as usize;
                let to = (top + h).round().min(LANE as f64) as usize;
                for y in from..to {
                    let at = ((row * (LANE + GAP) + y) * WIDTH + c) * 3;
                    pixels[at..at + 3].copy_from_slice(&colours[k]);
                }
                top += h;
            }
        }
    }
    let io = |source: std::io::Error| CliError::Io {
        path: path.display().to_string(),
        source,
    };
    let file = std::fs::File::create(path).map_err(io)?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), WIDTH as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&pixels))
        .map_err(|e| io(std::io::Error::other(e)))
}

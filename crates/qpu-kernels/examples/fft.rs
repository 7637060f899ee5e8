//! FFTs on the QPUs: accuracy against an f64 FFT (rustfft) and modelled time per transform.
//!
//! `cargo run --release -p qpu-kernels --example fft -- --log2n 8 --batch 10 --qpus 12`
//! prints the relative RMS error in parts per million and, on the emulator, the modelled
//! time per transform at the modelled board's clock (250 MHz for a Pi 1-3, 500 for a Pi 4,
//! 960 for a Pi 5). `--listing` prints the compiled kernel instead;
//! `FFT_COUNTERS=1` adds the emulator's counters (stall causes, DMA bytes).

use clap::Parser;
use num_complex::Complex32;
use qpu::Device;
use qpu_kernels::fft::{FftDirection, FftPlanner};

// Every example ends the same way: success, or the error's message and exit status 1.
#[path = "support/exit.rs"]
mod exit;

/// Elements (complex numbers) the example handles at most: its input and the transformed
/// copy, 8 bytes each, stay within 2 GiB.
const MAX_ELEMENTS: usize = 1 << 27;

/// FFTs on the QPUs: accuracy against an f64 FFT and modelled time per transform.
#[derive(Parser)]
#[command(name = "fft")]
struct Cli {
    /// log2 of the transform length
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    log2n: u32,
    /// Transforms in the batch
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// QPUs to run on
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=16))]
    qpus: u32,
    /// Inverse transforms instead of forward ones
    #[arg(long)]
    inverse: bool,
    /// Print the compiled kernel instead of running it
    #[arg(long)]
    listing: bool,
}

/// Runs the example; errors end it with their message (`Display`) and exit status 1.
fn main() -> std::process::ExitCode {
    exit::finish(run(Cli::parse()))
}

fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    let (log2n, qpus) = (cli.log2n, cli.qpus);
    let n = 1usize << log2n;
    let batch = usize::try_from(cli.batch)
        .ok()
        .filter(|&b| n.checked_mul(b).is_some_and(|e| e <= MAX_ELEMENTS))
        .ok_or(format!(
            "--batch {} x 2^{log2n} points is more than the example handles \
             ({MAX_ELEMENTS} points in all)",
            cli.batch
        ))?;
    let (inverse, listing) = (cli.inverse, cli.listing);
    let direction = if inverse {
        FftDirection::Inverse
    } else {
        FftDirection::Forward
    };
    let mut fft = FftPlanner::with_qpus(qpus)?.plan_fft(n, direction)?;
    if listing {
        print!("{}", fft.kernel().disassemble()?);
        return Ok(());
    }
    let input: Vec<Complex32> = (0..n * batch)
        .map(|i| {
            let x = (i as f64 * 0.618_033_988_749_895).fract();
            let y = (i as f64 * 0.414_213_562_373_095).fract();
            Complex32::new(x as f32 - 0.5, y as f32 - 0.5)
        })
        .collect();
    let device = Device::auto()?;
    let mut data = input.clone();
    let report = fft.process(&device, &mut data)?;
    let ppm = qpu_kernels::fft::rms_error_ppm(&input, &data, n, direction);
    println!(
        "{batch} x 2^{log2n} on the {} ({qpus} QPUs): relative RMS error {ppm:.3} ppm",
        device.backend().name()
    );
    if std::env::var_os("FFT_COUNTERS").is_some() {
        eprintln!("{:?}", report.counters);
    }
    if let (Some(cycles), Some(us), Some(mhz)) =
        (report.cycles, report.gpu_time_us(), report.clock_mhz)
    {
        println!(
            "{cycles} cycles: {:.4} ms per transform at {mhz} MHz",
            us / 1e3 / batch as f64
        );
    }
    Ok(())
}

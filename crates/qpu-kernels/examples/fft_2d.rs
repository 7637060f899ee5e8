//! A 2D FFT on the QPUs, as GPU_FFT's hello_fft_2d runs one: a test pattern transformed
//! rows then columns, its spectrum written as a picture, and the inverse transform checked
//! against the pattern.
//!
//! `cargo run --release -p qpu-kernels --example fft_2d -- --log2 9 --out spectrum.png`
//! writes the log-magnitude spectrum (zero frequency in the middle) of a 512 × 512 pattern
//! and prints each pass's run report (on an emulator, the modelled time) and the round
//! trip's error. Without `--out` the picture goes to the system's temporary directory.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use clap::Parser;
use num_complex::Complex32;
use qpu::Device;
use qpu_kernels::fft::{FftDirection, FftPlanner};

// Every example ends the same way: success, or the error's message and exit status 1.
#[path = "support/exit.rs"]
mod exit;

/// A 2D FFT of a test pattern on the QPUs, its spectrum written as a PNG picture.
#[derive(Parser)]
#[command(name = "fft_2d")]
struct Cli {
    /// log2 of the picture's side (8 to 11: 256 × 256 to 2048 × 2048)
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(8..=11))]
    log2: u32,
    /// QPUs to run on (default: every QPU of the device, at most 12)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    qpus: Option<u32>,
    /// Where to write the spectrum (PNG); default: qpu_fft_2d.png in the temporary directory
    #[arg(long)]
    out: Option<PathBuf>,
}

fn main() -> std::process::ExitCode {
    exit::finish(run(Cli::parse()))
}

fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    let n = 1usize << cli.log2;
    let device = Device::auto()?;
    let qpus = cli.qpus.unwrap_or(device.max_qpus().min(12));
    let planner = FftPlanner::with_qpus(qpus)?;
    let forward = planner.plan_fft_2d(n, n, FftDirection::Forward)?;
    let inverse = planner.plan_fft_2d(n, n, FftDirection::Inverse)?;

    let pattern = test_pattern(n);
    let mut data = pattern.clone();
    let report = forward.process(&device, &mut data)?;
    println!("{} x {n} forward, {qpus} QPUs on {}", n, device.describe());
    println!("  rows:    {}", report.rows);
    println!("  columns: {}", report.columns);

    let out = cli
        .out
        .unwrap_or_else(|| std::env::temp_dir().join("qpu_fft_2d.png"));
    write_spectrum(&out, &data, n)?;
    println!("spectrum written to {}", out.display());

    inverse.process(&device, &mut data)?;
    // The inverse of the forward transform multiplies by the number of points.
    let scale = (n * n) as f64;
    let (mut err, mut norm) = (0.0f64, 0.0f64);
    for (got, want) in data.iter().zip(&pattern) {
        let d = (
            f64::from(got.re) / scale - f64::from(want.re),
            f64::from(got.im) / scale - f64::from(want.im),
        );
        err += d.0 * d.0 + d.1 * d.1;
        norm += f64::from(want.norm_sqr());
    }
    println!(
        "round trip (inverse of forward, divided by {n}²): relative RMS error {:.3} ppm",
        (err / norm).sqrt() * 1e6
    );
    Ok(())
}

/// A picture with structure in both directions: a disc, a bar and a grating.
fn test_pattern(n: usize) -> Vec<Complex32> {
    let c = n as f64 / 2.0;
    (0..n * n)
        .map(|i| {
            let (y, x) = ((i / n) as f64, (i % n) as f64);
            let disc = ((x - c * 0.6).powi(2) + (y - c * 0.8).powi(2)).sqrt() < n as f64 / 10.0;
            let bar = (x - c * 1.3).abs() < n as f64 / 40.0 && (y - c).abs() < n as f64 / 4.0;
            let grating = (y > c * 1.4) && ((x / 6.0).floor() as i64 % 2 == 0);
            let v = if disc || bar || grating { 1.0 } else { 0.0 };
            Complex32::new(v, 0.0)
        })
        .collect()
}

/// Writes log(1 + |X|) of the `n × n` spectrum as 8-bit grey, zero frequency in the middle.
fn write_spectrum(
    path: &std::path::Path,
    spectrum: &[Complex32],
    n: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let level: Vec<f64> = spectrum
        .iter()
        .map(|c| f64::from(c.norm()).ln_1p())
        .collect();
    let top = level.iter().copied().fold(0.0f64, f64::max).max(1e-30);
    let mut pixels = vec![0u8; n * n];
    for y in 0..n {
        for x in 0..n {
            // Shift by half a period in each direction (fftshift).
            let from = ((y + n / 2) % n) * n + (x + n / 2) % n;
            pixels[y * n + x] = (255.0 * level[from] / top).round() as u8;
        }
    }
    let side = u32::try_from(n)?;
    let file = File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), side, side);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&pixels)?;
    Ok(())
}

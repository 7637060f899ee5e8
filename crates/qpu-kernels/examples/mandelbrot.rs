//! Render the Mandelbrot set on the QPUs and write it as a PNG.
//!
//! `cargo run --release -p qpu-kernels --example mandelbrot -- --qpus 12 --out mandelbrot.png`
//! (without `--out`, the PNG goes to the system's temporary directory) checks the counts against the scalar reference (rounding as the device's float unit
//! does: toward zero on the VideoCore IV, to nearest on V3D) and prints the modelled time on the
//! emulator (at the board's clock). `--width`, `--height` and `--iterations` change the image.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use clap::Parser;
use qpu::Device;
use qpu_kernels::mandelbrot::{colour, Mandelbrot, View};

// Every example ends the same way: success, or the error's message and exit status 1.
#[path = "support/exit.rs"]
mod exit;

/// Render the Mandelbrot set on the QPUs and write it as a PNG.
#[derive(Parser)]
#[command(name = "mandelbrot")]
struct Cli {
    /// QPUs to run on
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=16))]
    qpus: u32,
    /// Image width in pixels
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8192))]
    width: Option<u32>,
    /// Image height in pixels
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8192))]
    height: Option<u32>,
    /// Most iterations per pixel
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    iterations: Option<u32>,
    /// PNG file to write [default: mandelbrot.png in the system's temporary directory]
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs the example; errors end it with their message (`Display`) and exit status 1.
fn main() -> std::process::ExitCode {
    exit::finish(run(Cli::parse()))
}

fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    let qpus = cli.qpus;
    let out = cli
        .out
        .unwrap_or_else(|| std::env::temp_dir().join("mandelbrot.png"));
    let mut view = View::default();
    view.width = cli.width.unwrap_or(view.width);
    view.height = cli.height.unwrap_or(view.height);
    view.max_iter = cli.iterations.unwrap_or(view.max_iter);
    if view.width == 0 || view.height == 0 {
        return Err("the image needs at least one pixel".into());
    }
    // Keep the default view's extent whatever the size.
    view.dx = 3.5 / view.width as f32;
    view.dy = 2.625 / view.height as f32;
    let device = Device::auto()?;
    let (counts, report) = Mandelbrot::with_qpus(qpus)?.render(&device, &view)?;
    let correct = counts == view.reference_for(&device);
    let mut pixels = Vec::with_capacity(counts.len() * 3);
    for &c in &counts {
        pixels.extend_from_slice(&colour(c, view.max_iter));
    }
    let mut encoder =
        png::Encoder::new(BufWriter::new(File::create(&out)?), view.width, view.height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&pixels)?;
    println!(
        "{}x{} pixels, at most {} iterations, on the {} ({qpus} QPUs): wrote {}",
        view.width,
        view.height,
        view.max_iter,
        device.backend().name(),
        out.display()
    );
    println!(
        "matches the scalar reference: {}",
        if correct { "yes" } else { "NO" }
    );
    if let (Some(cycles), Some(us), Some(mhz)) =
        (report.cycles, report.gpu_time_us(), report.clock_mhz)
    {
        let issued: u64 = report.qpus.iter().map(|q| q.steps).sum();
        println!(
            "{cycles} cycles = {:.2} ms at {mhz} MHz ({issued} instructions issued)",
            us / 1e3
        );
    }
    if correct {
        Ok(())
    } else {
        Err("the counts differ from the scalar reference".into())
    }
}

//! Render the Mandelbrot set on the QPUs and write it as a PNG.
//!
//! `cargo run --release -p qpu-kernels --example mandelbrot -- --qpus 12 --out mandelbrot.png`
//! checks the counts against the scalar reference (rounding as the device's float unit
//! does: toward zero on the VideoCore IV, to nearest on V3D) and prints the modelled time on the
//! emulator (at the board's clock). `--width`, `--height` and `--iterations` change the image.

use std::fs::File;
use std::io::BufWriter;

use qpu::Device;
use qpu_kernels::mandelbrot::{colour, View};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut qpus, mut out) = (12u32, String::from("mandelbrot.png"));
    let mut view = View::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        let number = || {
            value
                .parse::<u32>()
                .map_err(|e| format!("{arg} {value}: {e}"))
        };
        match arg.as_str() {
            "--qpus" => qpus = number()?,
            "--width" => view.width = number()?,
            "--height" => view.height = number()?,
            "--iterations" => view.max_iter = number()?,
            "--out" => out = value.clone(),
            _ => {
                return Err(format!(
                    "unknown option {arg}; use --qpus, --width, --height, --iterations, --out"
                )
                .into())
            }
        }
    }
    if view.width == 0 || view.height == 0 {
        return Err("the image needs at least one pixel".into());
    }
    // Keep the default view's extent whatever the size.
    view.dx = 3.5 / view.width as f32;
    view.dy = 2.625 / view.height as f32;
    let device = Device::auto()?;
    let (counts, report) = view.render(&device, qpus)?;
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
        "{}x{} pixels, at most {} iterations, on the {} ({qpus} QPUs): wrote {out}",
        view.width,
        view.height,
        view.max_iter,
        device.backend().name()
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

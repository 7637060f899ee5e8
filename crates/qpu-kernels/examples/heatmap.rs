//! Heat flow across a 2D surface (QPULib's README, example 3): each step, every point moves
//! towards the mean of its 8 neighbours ([`qpu_kernels::qpulib::heatmap`]).
//!
//! `cargo run --release -p qpu-kernels --example heatmap -- [steps] [qpus] [file.png]` runs
//! QPULib's grid for `steps` steps (QPULib runs 1500; the default here is 100) on `qpus` QPUs
//! (1..=12, default 1) with a progress bar, and writes the final map as a greyscale PNG
//! (default `heatmap.png`). The same settings can be given as `--steps`, `--qpus` and
//! `--output`; see `--help`. The output file is opened before the run, so a path that cannot
//! be written fails at once rather than after the simulation.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, ErrorKind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use qpu::Device;
use qpu_kernels::qpulib::heatmap::{run, Grid};

#[path = "support/exit.rs"]
mod exit;

/// The PNG file, opened for writing before the run.
#[allow(dead_code)] // only `main` uses it; the tests include this file as a module
struct Output {
    path: PathBuf,
    file: File,
    /// Whether opening it created it (so that a failed run can remove it again).
    created: bool,
}

#[allow(dead_code)]
impl Output {
    /// Open `path` for writing without truncating it yet (an existing image survives a run
    /// that fails), creating it if it does not exist.
    fn open(path: &Path) -> Result<Output, String> {
        let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
        let (file, created) = match OpenOptions::new().write(true).create_new(true).open(path) {
            Ok(file) => (file, true),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => (
                OpenOptions::new().write(true).open(path).map_err(cannot)?,
                false,
            ),
            Err(e) => return Err(cannot(e)),
        };
        Ok(Output {
            path: path.to_path_buf(),
            file,
            created,
        })
    }

    /// Replace the file's contents with the interior of `map` as an 8-bit greyscale PNG
    /// (temperatures clamped to 0..=255).
    fn write_png(self, grid: Grid, map: &[f32]) -> Result<(), String> {
        let cannot =
            |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", self.path.display());
        let mut pixels = Vec::with_capacity(grid.width * grid.height);
        for y in 0..grid.height {
            for x in 0..grid.width {
                pixels.push(map[(y + 1) * grid.ncols() + x].clamp(0.0, 255.0) as u8);
            }
        }
        self.file.set_len(0).map_err(|e| cannot(&e))?;
        let mut encoder = png::Encoder::new(
            BufWriter::new(&self.file),
            grid.width as u32,
            grid.height as u32,
        );
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| cannot(&e))?;
        writer.write_image_data(&pixels).map_err(|e| cannot(&e))?;
        writer.finish().map_err(|e| cannot(&e))?;
        Ok(())
    }

    /// Give up on the file: remove it if opening it created it.
    fn discard(self) {
        if self.created {
            drop(self.file);
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Simulate heat flow across a 2D grid and write it as a PNG (QPULib's README, example 3).
///
/// Runs QPULib's 496 x 504 grid with a progress bar and writes the final map as a greyscale
/// PNG; the output file is opened first, so an unwritable path fails before the run. Each
/// setting can be given by position (`heatmap 1500 12 out.png`) or by name (`heatmap --steps
/// 1500 --qpus 12 --output out.png`), not both. The backend is chosen automatically (a
/// Raspberry Pi if there is one, else the emulator); set QPU_BACKEND=emulator,
/// emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "heatmap")]
#[allow(dead_code)] // only `main` uses it; the tests include this file as a module
pub struct Cli {
    /// Simulation steps (QPULib runs 1500) [default: 100]
    #[arg(value_name = "STEPS", conflicts_with = "steps")]
    steps_at: Option<usize>,
    /// QPUs to split the rows across, 1..=12 [default: 1]
    #[arg(
        value_name = "QPUS",
        value_parser = clap::value_parser!(u32).range(1..=12),
        conflicts_with = "qpus"
    )]
    qpus_at: Option<u32>,
    /// PNG file to write [default: heatmap.png]
    #[arg(value_name = "FILE", conflicts_with = "output")]
    output_at: Option<PathBuf>,
    /// Simulation steps (the same as STEPS)
    #[arg(long, value_name = "STEPS")]
    steps: Option<usize>,
    /// QPUs to split the rows across, 1..=12 (the same as QPUS)
    #[arg(long, value_name = "QPUS", value_parser = clap::value_parser!(u32).range(1..=12))]
    qpus: Option<u32>,
    /// PNG file to write (the same as FILE)
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Everything `main` does once the command line is parsed.
#[allow(dead_code)]
pub fn try_main(cli: &Cli) -> Result<(), Box<dyn std::error::Error>> {
    let steps = cli.steps_at.or(cli.steps).unwrap_or(100);
    let num_qpus = cli.qpus_at.or(cli.qpus).unwrap_or(1);
    let path = cli
        .output_at
        .as_deref()
        .or(cli.output.as_deref())
        .unwrap_or(Path::new("heatmap.png"));
    // Before the long run: a path that cannot be written is reported now.
    let output = Output::open(path)?;
    let result = simulate(steps, num_qpus);
    let (device, map, elapsed) = match result {
        Ok(done) => done,
        Err(e) => {
            output.discard();
            return Err(e);
        }
    };
    let grid = Grid::QPULIB;
    output.write_png(grid, &map)?;
    println!(
        "{steps} steps of a {}x{} grid on {num_qpus} QPU(s) of the {} in {:.3} s of host time; \
         wrote {}",
        grid.width,
        grid.height,
        device.backend().name(),
        elapsed.as_secs_f64(),
        path.display()
    );
    Ok(())
}

/// Run `steps` steps of QPULib's grid with a progress bar; returns the device, the final map
/// and the host time taken.
#[allow(dead_code)]
fn simulate(
    steps: usize,
    num_qpus: u32,
) -> Result<(Device, Vec<f32>, std::time::Duration), Box<dyn std::error::Error>> {
    let grid = Grid::QPULIB;
    let device = Device::auto()?;
    let bar = indicatif::ProgressBar::new(steps as u64);
    bar.set_style(indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} steps, {elapsed_precise} elapsed, ETA {eta}",
    )?);
    let start = Instant::now();
    // Run in chunks so the bar moves; each chunk continues from the last one's map.
    let chunk = (steps / 100).max(1);
    let mut map = grid.initial();
    let mut done = 0;
    while done < steps {
        let n = chunk.min(steps - done);
        map = run(&device, grid, &map, n, num_qpus)?;
        done += n;
        bar.set_position(done as u64);
    }
    bar.finish_and_clear();
    Ok((device, map, start.elapsed()))
}

#[allow(dead_code)]
fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

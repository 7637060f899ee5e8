//! Heat flow across a 2D surface (QPULib's README, example 3): each step, every point moves
//! towards the mean of its 8 neighbours. The kernel slides a three-row window along the grid
//! with a `Cursor` — a plain Rust struct holding kernel variables, whose methods record
//! statements.
//!
//! `cargo run --release -p qpu --example heatmap -- [steps] [qpus] [file.png]` runs QPULib's
//! grid for `steps` steps (QPULib runs 1500; the default here is 100) on `qpus` QPUs (1..=12,
//! default 1) with a progress bar, and writes the final map as a greyscale PNG (default
//! `heatmap.png`). The same settings can be given as `--steps`, `--qpus` and `--output`; see
//! `--help`. The output file is opened before the run, so a path that cannot be written fails
//! at once rather than after the simulation.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, ErrorKind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use qpu::lang::*;
use qpu::{compile, Device};

#[path = "support/exit.rs"]
mod exit;
#[path = "support/glibc_rand.rs"]
mod glibc_rand;

/// Heat dissipation constant.
pub const K: f32 = 0.25;

/// A window of three consecutive vectors of one row — `prev`, `current`, `next` — kept full
/// by gathering one vector ahead.
pub struct Cursor {
    addr: Ptr<Float>,
    prev: Float,
    current: Float,
    next: Float,
}

impl Cursor {
    /// Declare the cursor's variables.
    pub fn new(start: Ptr<Float>) -> Cursor {
        Cursor {
            addr: Ptr::var(start),
            prev: Float::var(0.0),
            current: Float::var(0.0),
            next: Float::var(0.0),
        }
    }

    /// Point at `p` and fetch the first vector.
    pub fn init(&mut self, p: Ptr<Float>) {
        gather(p);
        self.current.set(0.0);
        self.addr.set(p + 16);
    }

    /// Receive the first vector and fetch the second (prime the pipeline).
    pub fn prime(&self) {
        receive(self.next);
        gather(self.addr);
    }

    /// Slide right by one vector: receive the next vector and fetch another.
    pub fn advance(&mut self) {
        self.addr += 16;
        self.prev.set(self.current);
        gather(self.addr);
        self.current.set(self.next);
        receive(self.next);
    }

    /// Receive the final vector and fetch no more.
    pub fn finish(&self) {
        receive(self.next);
    }

    /// `current` shifted left one lane, taking lane 15 from `next`.
    pub fn shift_left(&self) -> Float {
        let result = Float::var(rotate(self.current, 15));
        let next_rot = Float::var(rotate(self.next, 15));
        where_(index().eq(15), || result.set(next_rot));
        result
    }

    /// `current` shifted right one lane, taking lane 0 from `prev`.
    pub fn shift_right(&self) -> Float {
        let result = Float::var(rotate(self.current, 1));
        let prev_rot = Float::var(rotate(self.prev, 1));
        where_(index().eq(0), || result.set(prev_rot));
        result
    }
}

/// One simulation step from `map` into `map_out`, rows split across QPUs.
pub fn step(mut map: Ptr<Float>, mut map_out: Ptr<Float>, pitch: Int, width: Int, height: Int) {
    let mut row = [Cursor::new(map), Cursor::new(map), Cursor::new(map)];
    map += pitch * me() + index();

    // Skip the first row of the output map.
    map_out += pitch;

    for_range(me(), height, num_qpus(), |y| {
        // Point p to the output row.
        let mut p = Ptr::var(map_out + y * pitch);

        // Initialise three cursors for the three input rows.
        for (i, cursor) in row.iter_mut().enumerate() {
            cursor.init(map + i as i32 * pitch);
        }
        row.iter().for_each(Cursor::prime);

        // Compute one output row.
        for_range(0, width, 16, |_| {
            row.iter_mut().for_each(Cursor::advance);
            let left = row.each_ref().map(Cursor::shift_right);
            let right = row.each_ref().map(Cursor::shift_left);
            #[rustfmt::skip]
            let sum = left[0] + row[0].current + right[0]
                    + left[1]                  + right[1]
                    + left[2] + row[2].current + right[2];
            store(row[1].current - K * (row[1].current - sum * 0.125), p);
            p += 16;
        });

        // Cursors are finished for this row.
        row.iter().for_each(Cursor::finish);

        // Move to the next input rows.
        map += pitch * num_qpus();
    });
}

/// The grid: `WIDTH` × `HEIGHT` points inside a zero border, `NCOLS` = `WIDTH + 16` floats
/// per row (a multiple of 16), `NROWS` = `HEIGHT + 2` rows.
#[derive(Debug, Clone, Copy)]
pub struct Grid {
    /// Interior width (a multiple of 16).
    pub width: usize,
    /// Interior height (any: the rows are dealt out to the QPUs in turn).
    pub height: usize,
}

impl Grid {
    /// QPULib's grid: 496 × 504.
    pub const QPULIB: Grid = Grid {
        width: 512 - 16,
        height: 504,
    };

    /// Floats per row.
    pub fn ncols(&self) -> usize {
        self.width + 16
    }

    /// Rows including the top and bottom border.
    pub fn nrows(&self) -> usize {
        self.height + 2
    }

    /// QPULib's initial map: 10 hot spots from `srand(0)`.
    pub fn initial(&self) -> Vec<f32> {
        let mut map = vec![0.0f32; self.nrows() * self.ncols()];
        let mut rng = glibc_rand::GlibcRand::new(0);
        for _ in 0..10 {
            let t = rng.rand() % 256;
            let x = rng.rand() as usize % self.width;
            let y = 1 + rng.rand() as usize % self.height;
            map[y * self.ncols() + x] = (1000 * t) as f32;
        }
        map
    }
}

/// Run `steps` steps on `num_qpus` QPUs from `initial`; returns the final map.
pub fn run(
    device: &Device,
    grid: Grid,
    initial: &[f32],
    steps: usize,
    num_qpus: u32,
) -> qpu::Result<Vec<f32>> {
    let mut map_a = device.alloc_from(initial)?;
    let mut map_b = device.alloc::<f32>(initial.len())?;
    let mut kernel = compile(step)?;
    kernel.set_num_qpus(num_qpus)?;
    let (ncols, width, height) = (grid.ncols() as i32, grid.width as i32, grid.height as i32);
    for i in 0..steps {
        if i & 1 == 1 {
            kernel.run(device, (&map_b, &mut map_a, ncols, width, height))?;
        } else {
            kernel.run(device, (&map_a, &mut map_b, ncols, width, height))?;
        }
    }
    Ok(if steps & 1 == 1 { map_b } else { map_a }.to_vec())
}

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

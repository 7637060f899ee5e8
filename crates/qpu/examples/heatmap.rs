//! Heat flow across a 2D surface (QPULib's README, example 3): each step, every point moves
//! towards the mean of its 8 neighbours. The kernel slides a three-row window along the grid
//! with a `Cursor` — a plain Rust struct holding kernel variables, whose methods record
//! statements.
//!
//! `cargo run --release -p qpu --example heatmap -- [steps] [qpus] [file.png]` runs QPULib's
//! grid for `steps` steps (QPULib runs 1500; the default here is 100) with a progress bar, and
//! writes the final map as a greyscale PNG (default `heatmap.png`).

use std::time::Instant;

use qpu::lang::*;
use qpu::{compile, Device};

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
    /// Interior height (a multiple of the QPU count).
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

/// Write the interior of `map` as an 8-bit greyscale PNG (temperatures clamped to 0..=255).
fn write_png(path: &str, grid: Grid, map: &[f32]) -> Result<(), Box<dyn std::error::Error>> {
    let mut pixels = Vec::with_capacity(grid.width * grid.height);
    for y in 0..grid.height {
        for x in 0..grid.width {
            pixels.push(map[(y + 1) * grid.ncols() + x].clamp(0.0, 255.0) as u8);
        }
    }
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, grid.width as u32, grid.height as u32);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&pixels)?;
    Ok(())
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let steps: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let num_qpus: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let path = args.next().unwrap_or_else(|| "heatmap.png".to_string());
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
    let elapsed = start.elapsed();
    write_png(&path, grid, &map)?;
    println!(
        "{steps} steps of a {}x{} grid on {num_qpus} QPU(s) of the {} in {:.3}s; wrote {path}",
        grid.width,
        grid.height,
        device.backend().name(),
        elapsed.as_secs_f64()
    );
    Ok(())
}

//! Heat flow across a 2D surface (QPULib's README, example 3): each step, every point moves
//! towards the mean of its 8 neighbours. The kernel slides a three-row window along the grid
//! with a [`Cursor`] — a plain Rust struct holding kernel variables, whose methods record
//! statements. Beside it, the grid, a driver for many steps and the scalar step the kernel
//! is checked against.
//!
//! The example `cargo run --release -p qpu-kernels --example heatmap` runs QPULib's grid and
//! writes the final map as a PNG.

use qpu::lang::*;
use qpu::{compile, Device};

use super::glibc_rand::GlibcRand;

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

/// The grid: `width` × `height` points inside a zero border, `ncols()` = `width + 16` floats
/// per row (a multiple of 16), `nrows()` = `height + 2` rows.
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

    /// QPULib's initial map: 10 hot spots from C's `srand(0); rand()`.
    pub fn initial(&self) -> Vec<f32> {
        let mut map = vec![0.0f32; self.nrows() * self.ncols()];
        let mut rng = GlibcRand::new(0);
        for _ in 0..10 {
            let t = rng.rand() % 256;
            let x = rng.rand() as usize % self.width;
            let y = 1 + rng.rand() as usize % self.height;
            map[y * self.ncols() + x] = (1000 * t) as f32;
        }
        map
    }
}

/// Run `steps` steps of [`step`] on `num_qpus` QPUs of `device` from `initial` (a map of
/// `grid`); returns the final map.
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

/// One step of [`step`] in scalar Rust on a map `src` of `grid`, in the kernel's operation
/// order and with the VideoCore IV's float arithmetic ([`qpu::float`]: truncation,
/// flush-to-zero): the new map's rows `1..=height`, columns `0..width`, and zero
/// elsewhere; neighbours outside the row read 0.
pub fn scalar_step(grid: Grid, src: &[f32]) -> Vec<f32> {
    use qpu::float::{add, mul, sub};
    scalar_step_with(grid, src, [add, sub, mul])
}

/// [`scalar_step`] with IEEE single-precision arithmetic rounding to nearest (the V3D's
/// float unit, and Rust's).
pub fn scalar_step_nearest(grid: Grid, src: &[f32]) -> Vec<f32> {
    scalar_step_with(grid, src, [|a, b| a + b, |a, b| a - b, |a, b| a * b])
}

/// One step with the float operations `[add, sub, mul]`, in the kernel's order.
fn scalar_step_with(
    grid: Grid,
    src: &[f32],
    [add, sub, mul]: [fn(f32, f32) -> f32; 3],
) -> Vec<f32> {
    let ncols = grid.ncols();
    let at = |r: usize, c: isize| {
        if c < 0 || c >= ncols as isize {
            0.0
        } else {
            src[r * ncols + c as usize]
        }
    };
    let mut dst = vec![0.0f32; src.len()];
    for r in 1..=grid.height {
        for c in 0..grid.width as isize {
            let terms = [
                at(r - 1, c - 1),
                at(r - 1, c),
                at(r - 1, c + 1),
                at(r, c - 1),
                at(r, c + 1),
                at(r + 1, c - 1),
                at(r + 1, c),
                at(r + 1, c + 1),
            ];
            let sum = terms[1..].iter().fold(terms[0], |s, &t| add(s, t));
            let cur = at(r, c);
            let diff = sub(cur, mul(sum, 0.125));
            dst[r * ncols + c as usize] = sub(cur, mul(K, diff));
        }
    }
    dst
}

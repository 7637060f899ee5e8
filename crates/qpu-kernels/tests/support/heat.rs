//! Scalar references shared by the example tests.

use qpu_kernels::qpulib::heatmap::{self, Grid};

/// Plain scalar heat step on the zero-bordered grid, with the same operation order as the
/// kernel and the hardware's float arithmetic (truncation, flush-to-zero; [`qpu::float`]):
/// `qpu bench`'s reference ([`heatmap::scalar_step`]), written into the grid's inner rows
/// and columns of `dst`.
pub fn scalar_heat_step(grid: Grid, src: &[f32], dst: &mut [f32]) {
    let ncols = grid.ncols();
    let step = heatmap::scalar_step(grid, src);
    for r in 1..=grid.height {
        let row = r * ncols..r * ncols + grid.width;
        dst[row.clone()].copy_from_slice(&step[row]);
    }
}

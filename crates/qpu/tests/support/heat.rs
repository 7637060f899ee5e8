//! Scalar references shared by the example tests.

use super::heatmap;

/// Plain scalar heat step on the zero-bordered grid, with the same operation order as the
/// kernel and the hardware's float arithmetic (truncation, flush-to-zero; [`qpu::float`]):
/// `qpu bench`'s reference, written into the grid's inner rows and columns of `dst`.
pub fn scalar_heat_step(grid: heatmap::Grid, src: &[f32], dst: &mut [f32]) {
    let ncols = grid.ncols();
    let step = qpu::bench::heat_step_reference(src, ncols, grid.width, grid.height);
    for r in 1..=grid.height {
        let row = r * ncols..r * ncols + grid.width;
        dst[row.clone()].copy_from_slice(&step[row]);
    }
}

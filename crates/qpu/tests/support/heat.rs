//! Scalar references shared by the example tests.

use crate::heatmap;

use qpu::float::{add, mul, sub};

/// Plain scalar heat step on the zero-bordered grid, with the same operation order as the
/// kernel and the hardware's float arithmetic (truncation, flush-to-zero; [`qpu::float`]).
pub fn scalar_heat_step(grid: heatmap::Grid, src: &[f32], dst: &mut [f32]) {
    let ncols = grid.ncols() as isize;
    let at = |r: usize, c: isize| {
        if c < 0 || c >= ncols {
            0.0
        } else {
            src[r * ncols as usize + c as usize]
        }
    };
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
            let scaled = mul(sum, 0.125);
            let diff = sub(cur, scaled);
            dst[r * ncols as usize + c as usize] = sub(cur, mul(heatmap::K, diff));
        }
    }
}

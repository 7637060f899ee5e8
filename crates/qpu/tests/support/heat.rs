//! Scalar references shared by the example tests.

use crate::heatmap;

/// Flushes a denormal to a zero of the same sign, as the QPU's float ops do.
fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// Plain scalar heat step on the zero-bordered grid, with the same operation order as the
/// kernel and the hardware's flush-to-zero after every operation.
pub fn scalar_heat_step(grid: heatmap::Grid, src: &[f32], dst: &mut [f32]) {
    let ncols = grid.ncols() as isize;
    let at = |r: usize, c: isize| {
        if c < 0 || c >= ncols {
            0.0
        } else {
            src[r * ncols as usize + c as usize]
        }
    };
    let add = |a: f32, b: f32| flush(a + b);
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
            let scaled = flush(sum * 0.125);
            let diff = flush(cur - scaled);
            dst[r * ncols as usize + c as usize] = flush(cur - flush(heatmap::K * diff));
        }
    }
}

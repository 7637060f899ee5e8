//! Helpers shared by the kernel tests (each test file includes this module and uses its
//! share of it).
#![allow(dead_code)]

use num_complex::{Complex, Complex32};
use qpu_kernels::fft::FftDirection;

/// Deterministic bytes (a xorshift stream), so failures reproduce.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// Relative RMS error (ppm) of `got` against rustfft's f64 transform of `x` (one transform
/// of `x.len()` points).
pub fn error_ppm(x: &[Complex32], got: &[Complex32], direction: FftDirection) -> f64 {
    let mut planner = rustfft::FftPlanner::<f64>::new();
    let fft = match direction {
        FftDirection::Forward => planner.plan_fft_forward(x.len()),
        FftDirection::Inverse => planner.plan_fft_inverse(x.len()),
    };
    let mut exact: Vec<Complex<f64>> = x
        .iter()
        .map(|c| Complex::new(f64::from(c.re), f64::from(c.im)))
        .collect();
    fft.process(&mut exact);
    let (mut err, mut norm) = (0.0, 0.0);
    for (e, g) in exact.iter().zip(got) {
        err += (Complex::new(f64::from(g.re), f64::from(g.im)) - e).norm_sqr();
        norm += e.norm_sqr();
    }
    (err / norm).sqrt() * 1e6
}

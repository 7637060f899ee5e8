//! Real-input FFTs: N real points ↔ the N/2 + 1 complex values of their spectrum's first
//! half (the rest is its mirror image, X[N − k] = conj(X[k])), computed with one complex FFT
//! of N/2 points on the QPUs: about half the work of a complex transform of N points.
//!
//! Forward: the N reals as N/2 complex values z[n] = x[2n] + i·x[2n+1], Z = FFT(z) on the
//! QPUs, then on the host, for k = 0 … N/2 (indices of Z modulo N/2), with W = e^{−2πi/N}:
//! E[k] = (Z[k] + conj(Z[N/2−k]))/2 (the even samples' spectrum), O[k] = (Z[k] −
//! conj(Z[N/2−k]))/(2i) (the odd samples'), X[k] = E[k] + W^k·O[k]. Inverse: the same
//! steps backwards, Z'[k] = (X[k] + conj(X[N/2−k])) + i·W^{−k}·(X[k] − conj(X[N/2−k])),
//! an inverse FFT of N/2 points on the QPUs, x[2n] + i·x[2n+1] = z'[n]. Like the complex
//! transforms (and rustfft), neither normalises: the inverse of the forward multiplies by N.
//! (The packing is the standard one; see e.g. Press et al., *Numerical Recipes*, §12.3.)
//!
//! The host's share is O(N) arithmetic in f64 over the QPUs' O(N log N).
//!
//! ```
//! use num_complex::Complex32;
//! use qpu_kernels::fft::{FftDirection, FftPlanner};
//!
//! let device = qpu::Device::emulator();
//! let fft = FftPlanner::new().plan_real_fft(512, FftDirection::Forward)?;
//! let mut signal = vec![0.0f32; 512];
//! signal[1] = 1.0;
//! let mut spectrum = vec![Complex32::new(0.0, 0.0); fft.spectrum_len()];
//! fft.process(&device, &mut signal, &mut spectrum)?;
//! // The DFT of a unit impulse at n = 1 is e^{-2πik/512}.
//! assert!((spectrum[128] - Complex32::new(0.0, -1.0)).norm() < 1e-5);
//! # Ok::<(), qpu::Error>(())
//! ```

use std::f64::consts::PI;

use num_complex::Complex32;
use qpu::runtime::RunReport;
use qpu::Device;

use super::{Fft, FftDirection, MAX_LEN, MIN_LEN};

/// A planned real-input FFT of [`RealFft::len`] real points.
pub struct RealFft {
    len: usize,
    direction: FftDirection,
    half: Fft,
    /// W^k = e^{∓2πik/N} for k = 0 … N/2, in f64 (the sign of the direction).
    twiddles: Vec<(f64, f64)>,
}

impl RealFft {
    /// Plans a real FFT of `len` points (a power of two, 2^9 ..= 2^23: its half is a
    /// complex FFT length) in `direction` on `num_qpus` QPUs.
    pub fn new(len: usize, direction: FftDirection, num_qpus: u32) -> qpu::Result<RealFft> {
        if !len.is_power_of_two() || !(2 * MIN_LEN..=2 * MAX_LEN).contains(&len) {
            return Err(qpu::Error::Arguments(format!(
                "real FFT length {len}: lengths are powers of two from {} to {}",
                2 * MIN_LEN,
                2 * MAX_LEN
            )));
        }
        let half = Fft::new(len / 2, direction, num_qpus)?;
        let sign = direction.sign();
        let twiddles = (0..=len / 2)
            .map(|k| {
                let angle = sign * 2.0 * PI * k as f64 / len as f64;
                (angle.cos(), angle.sin())
            })
            .collect();
        Ok(RealFft {
            len,
            direction,
            half,
            twiddles,
        })
    }

    /// Real points per transform.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a plan has at least 512 points.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Complex values per spectrum: `len / 2 + 1`.
    pub fn spectrum_len(&self) -> usize {
        self.len / 2 + 1
    }

    /// The direction: forward takes reals to spectra, inverse spectra to reals.
    pub fn direction(&self) -> FftDirection {
        self.direction
    }

    /// The complex FFT of `len / 2` points that does the QPUs' share (its kernel, its QPU
    /// count).
    pub fn complex(&mut self) -> &mut Fft {
        &mut self.half
    }

    /// Transforms consecutive signals of [`RealFft::len`] reals in `real` and spectra of
    /// [`RealFft::spectrum_len`] values in `spectrum`, as many as they hold (the same number
    /// of each): forward reads `real` and writes `spectrum`, inverse the other way round.
    /// Returns the report of the QPUs' complex transform.
    pub fn process(
        &self,
        device: &Device,
        real: &mut [f32],
        spectrum: &mut [Complex32],
    ) -> qpu::Result<RunReport> {
        let (n, m) = (self.len, self.len / 2);
        let count = real.len() / n;
        if real.is_empty() || !real.len().is_multiple_of(n) || spectrum.len() != count * (m + 1) {
            return Err(qpu::Error::Arguments(format!(
                "real FFT of {n} points: {} reals and {} spectrum values are not k·{n} and \
                 k·{} for one k ≥ 1",
                real.len(),
                spectrum.len(),
                m + 1
            )));
        }
        let mut z = vec![Complex32::new(0.0, 0.0); count * m];
        match self.direction {
            FftDirection::Forward => {
                for (zs, xs) in z.chunks_mut(m).zip(real.chunks(n)) {
                    for (c, pair) in zs.iter_mut().zip(xs.chunks(2)) {
                        *c = Complex32::new(pair[0], pair[1]);
                    }
                }
                let report = self.half.process(device, &mut z)?;
                for (zs, xs) in z.chunks(m).zip(spectrum.chunks_mut(m + 1)) {
                    for (k, out) in xs.iter_mut().enumerate() {
                        let a = c64(zs[k % m]);
                        let b = conj(c64(zs[(m - k % m) % m]));
                        let even = scale(add(a, b), 0.5);
                        // (a − b)/(2i) = −i(a − b)/2.
                        let d = sub(a, b);
                        let odd = (d.1 * 0.5, -d.0 * 0.5);
                        let x = add(even, mul(self.twiddles[k], odd));
                        *out = Complex32::new(x.0 as f32, x.1 as f32);
                    }
                }
                Ok(report)
            }
            FftDirection::Inverse => {
                for (zs, xs) in z.chunks_mut(m).zip(spectrum.chunks(m + 1)) {
                    for (k, out) in zs.iter_mut().enumerate() {
                        let a = c64(xs[k]);
                        let b = conj(c64(xs[m - k]));
                        // i·W^{−k}·(a − b), W^{−k} being this direction's twiddle.
                        let t = mul(self.twiddles[k], sub(a, b));
                        let z = add(add(a, b), (-t.1, t.0));
                        *out = Complex32::new(z.0 as f32, z.1 as f32);
                    }
                }
                let report = self.half.process(device, &mut z)?;
                for (zs, xs) in z.chunks(m).zip(real.chunks_mut(n)) {
                    for (c, pair) in zs.iter().zip(xs.chunks_mut(2)) {
                        (pair[0], pair[1]) = (c.re, c.im);
                    }
                }
                Ok(report)
            }
        }
    }
}

type C64 = (f64, f64);

fn c64(c: Complex32) -> C64 {
    (f64::from(c.re), f64::from(c.im))
}

fn conj(a: C64) -> C64 {
    (a.0, -a.1)
}

fn add(a: C64, b: C64) -> C64 {
    (a.0 + b.0, a.1 + b.1)
}

fn sub(a: C64, b: C64) -> C64 {
    (a.0 - b.0, a.1 - b.1)
}

fn mul(a: C64, b: C64) -> C64 {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

fn scale(a: C64, s: f64) -> C64 {
    (a.0 * s, a.1 * s)
}

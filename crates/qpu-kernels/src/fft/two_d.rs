//! Two-dimensional FFTs, rows then columns, as GPU_FFT's hello_fft_2d computes them: a
//! batch of row transforms on the QPUs, a transpose, a batch of column transforms (now rows)
//! on the QPUs, a transpose back. The transposes run on the host here (GPU_FFT has a QPU
//! transpose shader for them).
//!
//! ```
//! use num_complex::Complex32;
//! use qpu_kernels::fft::{FftDirection, FftPlanner};
//!
//! let device = qpu::Device::emulator();
//! let fft = FftPlanner::with_qpus(4)?.plan_fft_2d(256, 256, FftDirection::Forward)?;
//! let mut image = vec![Complex32::new(1.0, 0.0); 256 * 256];
//! fft.process(&device, &mut image)?;
//! // A constant image has all its energy at frequency (0, 0).
//! assert!((image[0].re - 65536.0).abs() < 1.0);
//! assert!(image[1].norm() < 1e-2 && image[256].norm() < 1e-2);
//! # Ok::<(), qpu::Error>(())
//! ```

use num_complex::Complex32;
use qpu::runtime::RunReport;
use qpu::Device;

use super::{Fft, FftDirection};

/// A planned 2D FFT of `rows × cols` points, row-major.
pub struct Fft2d {
    rows: usize,
    cols: usize,
    /// Transforms each row (`cols` points).
    along_rows: Fft,
    /// Transforms each column (`rows` points).
    along_cols: Fft,
}

/// The QPUs' two runs of one 2D transform.
#[derive(Debug, Clone)]
pub struct Fft2dReport {
    /// The row transforms.
    pub rows: RunReport,
    /// The column transforms.
    pub columns: RunReport,
}

impl Fft2d {
    /// Plans a `rows × cols` FFT (each a complex FFT length: a power of two from 2^8 to
    /// 2^22) in `direction` on `num_qpus` QPUs.
    pub fn new(
        rows: usize,
        cols: usize,
        direction: FftDirection,
        num_qpus: u32,
    ) -> qpu::Result<Fft2d> {
        let along_rows = Fft::new(cols, direction, num_qpus)?;
        let along_cols = Fft::new(rows, direction, num_qpus)?;
        Ok(Fft2d {
            rows,
            cols,
            along_rows,
            along_cols,
        })
    }

    /// Rows of the transformed array.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the transformed array.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The direction.
    pub fn direction(&self) -> FftDirection {
        self.along_rows.direction()
    }

    /// Transforms `buffer` in place: consecutive `rows × cols` arrays, row-major, as many as
    /// it holds (its length must be a positive multiple of `rows · cols`).
    pub fn process(&self, device: &Device, buffer: &mut [Complex32]) -> qpu::Result<Fft2dReport> {
        let size = self.rows * self.cols;
        if buffer.is_empty() || !buffer.len().is_multiple_of(size) {
            return Err(qpu::Error::Arguments(format!(
                "2D FFT of {} × {}: the buffer holds {} values, not a positive multiple of {size}",
                self.rows,
                self.cols,
                buffer.len()
            )));
        }
        let rows = self.along_rows.process(device, buffer)?;
        let mut turned = vec![Complex32::new(0.0, 0.0); buffer.len()];
        for (from, to) in buffer.chunks(size).zip(turned.chunks_mut(size)) {
            transpose(from, to, self.rows, self.cols);
        }
        let columns = self.along_cols.process(device, &mut turned)?;
        for (from, to) in turned.chunks(size).zip(buffer.chunks_mut(size)) {
            transpose(from, to, self.cols, self.rows);
        }
        Ok(Fft2dReport { rows, columns })
    }
}

/// `to` = the transpose of the `rows × cols` row-major `from` (so `cols × rows`), in
/// 16 × 16 tiles to keep both sides in cache.
fn transpose(from: &[Complex32], to: &mut [Complex32], rows: usize, cols: usize) {
    const TILE: usize = 16;
    for r0 in (0..rows).step_by(TILE) {
        for c0 in (0..cols).step_by(TILE) {
            for r in r0..(r0 + TILE).min(rows) {
                for c in c0..(c0 + TILE).min(cols) {
                    to[c * rows + r] = from[r * cols + c];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposing_twice_gives_the_array_back() {
        let (rows, cols) = (3, 37);
        let a: Vec<Complex32> = (0..rows * cols)
            .map(|i| Complex32::new(i as f32, -(i as f32)))
            .collect();
        let mut t = vec![Complex32::new(0.0, 0.0); a.len()];
        transpose(&a, &mut t, rows, cols);
        assert_eq!(t[5 * rows + 2], a[2 * cols + 5]);
        let mut back = vec![Complex32::new(0.0, 0.0); a.len()];
        transpose(&t, &mut back, cols, rows);
        assert_eq!(back, a);
    }
}

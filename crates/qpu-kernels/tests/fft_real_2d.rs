//! Real-input and 2D FFTs against rustfft in f64: the real transforms at 2^9, 2^12 and 2^17
//! points (both directions, batches), the 2D transforms on square and oblong arrays (both
//! directions), on the VideoCore IV emulator and a V3D emulator. The error bound is the one
//! the complex transforms are held to (1.5 × GPU_FFT's published figure for the length the
//! QPUs transform).

use num_complex::{Complex, Complex32};
use qpu::compiler::v3d::V3dVersion;
use qpu::Device;
use qpu_kernels::fft::{FftDirection, FftPlanner};

/// GPU_FFT's published accuracy (ppm) for 2^8 … 2^16.
const GPU_FFT_PPM: [f64; 9] = [0.33, 0.46, 0.52, 0.59, 0.78, 0.83, 0.92, 0.98, 1.0];

/// The bound for transforms whose QPU part is a complex FFT of 2^`log2n` points.
fn bound(log2n: usize) -> f64 {
    1.5 * GPU_FFT_PPM[log2n - 8]
}

fn signal(len: usize, seed: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i + 7 * seed) as f64 * 0.618_033_988_749_895).fract() as f32 - 0.5)
        .collect()
}

/// rustfft's f64 transform of `x` in `direction`.
fn exact(x: &[Complex<f64>], direction: FftDirection) -> Vec<Complex<f64>> {
    let mut planner = rustfft::FftPlanner::<f64>::new();
    let fft = match direction {
        FftDirection::Forward => planner.plan_fft_forward(x.len()),
        FftDirection::Inverse => planner.plan_fft_inverse(x.len()),
    };
    let mut out = x.to_vec();
    fft.process(&mut out);
    out
}

/// Relative RMS error in ppm of `got` against `want`.
fn ppm(got: impl Iterator<Item = Complex<f64>>, want: &[Complex<f64>]) -> f64 {
    let (mut err, mut norm) = (0.0, 0.0);
    for (g, w) in got.zip(want) {
        err += (g - w).norm_sqr();
        norm += w.norm_sqr();
    }
    (err / norm).sqrt() * 1e6
}

fn c64(c: &Complex32) -> Complex<f64> {
    Complex::new(f64::from(c.re), f64::from(c.im))
}

#[test]
fn real_transforms_match_rustfft_both_ways() {
    let device = Device::emulator();
    for log2n in [9usize, 12, 17] {
        let n = 1 << log2n;
        let batch = if log2n <= 12 { 3 } else { 1 };
        let planner = FftPlanner::with_qpus(4).unwrap();
        let forward = planner.plan_real_fft(n, FftDirection::Forward).unwrap();
        let inverse = planner.plan_real_fft(n, FftDirection::Inverse).unwrap();
        assert_eq!(forward.spectrum_len(), n / 2 + 1);

        let mut x: Vec<f32> = (0..batch).flat_map(|b| signal(n, b)).collect();
        let original = x.clone();
        let mut spectrum = vec![Complex32::new(0.0, 0.0); batch * (n / 2 + 1)];
        forward.process(&device, &mut x, &mut spectrum).unwrap();
        assert_eq!(x, original, "the forward transform leaves its input");
        for (b, (xs, got)) in original
            .chunks(n)
            .zip(spectrum.chunks(n / 2 + 1))
            .enumerate()
        {
            let full: Vec<Complex<f64>> = xs
                .iter()
                .map(|&v| Complex::new(f64::from(v), 0.0))
                .collect();
            let want = exact(&full, FftDirection::Forward);
            let e = ppm(got.iter().map(c64), &want[..=n / 2]);
            assert!(
                e <= bound(log2n - 1),
                "2^{log2n} forward, signal {b}: {e:.3} ppm (bound {:.3})",
                bound(log2n - 1)
            );
        }

        // The inverse of the exact half spectrum gives n times the signal.
        let mut half = Vec::new();
        for xs in original.chunks(n) {
            let full: Vec<Complex<f64>> = xs
                .iter()
                .map(|&v| Complex::new(f64::from(v), 0.0))
                .collect();
            let want = exact(&full, FftDirection::Forward);
            half.extend(
                want[..=n / 2]
                    .iter()
                    .map(|c| Complex32::new(c.re as f32, c.im as f32)),
            );
        }
        let mut back = vec![0.0f32; batch * n];
        inverse.process(&device, &mut back, &mut half).unwrap();
        for (b, (xs, got)) in original.chunks(n).zip(back.chunks(n)).enumerate() {
            let want: Vec<Complex<f64>> = xs
                .iter()
                .map(|&v| Complex::new(f64::from(v) * n as f64, 0.0))
                .collect();
            let e = ppm(got.iter().map(|&v| Complex::new(f64::from(v), 0.0)), &want);
            assert!(
                e <= bound(log2n - 1),
                "2^{log2n} inverse, signal {b}: {e:.3} ppm (bound {:.3})",
                bound(log2n - 1)
            );
        }
    }
}

#[test]
fn real_transforms_refuse_bad_lengths_and_buffers() {
    let planner = FftPlanner::new();
    for len in [0, 256, 1000, 1 << 24] {
        assert!(
            planner.plan_real_fft(len, FftDirection::Forward).is_err(),
            "{len}"
        );
    }
    let fft = planner.plan_real_fft(512, FftDirection::Forward).unwrap();
    let device = Device::emulator();
    let mut x = vec![0.0f32; 512];
    let mut short = vec![Complex32::new(0.0, 0.0); 256];
    let message = fft
        .process(&device, &mut x, &mut short)
        .unwrap_err()
        .to_string();
    assert!(message.contains("257"), "{message}");
}

/// rustfft's 2D transform of a row-major `rows × cols` array: rows, then columns.
fn exact_2d(
    x: &[Complex32],
    rows: usize,
    cols: usize,
    direction: FftDirection,
) -> Vec<Complex<f64>> {
    let mut a: Vec<Complex<f64>> = x.iter().map(c64).collect();
    for row in a.chunks_mut(cols) {
        let t = exact(row, direction);
        row.copy_from_slice(&t);
    }
    for c in 0..cols {
        let column: Vec<Complex<f64>> = (0..rows).map(|r| a[r * cols + c]).collect();
        for (r, v) in exact(&column, direction).into_iter().enumerate() {
            a[r * cols + c] = v;
        }
    }
    a
}

fn image(rows: usize, cols: usize, seed: usize) -> Vec<Complex32> {
    (0..rows * cols)
        .map(|i| {
            let x = ((i + seed) as f64 * 0.618_033_988_749_895).fract();
            let y = ((i + 5 * seed) as f64 * 0.414_213_562_373_095).fract();
            Complex32::new(x as f32 - 0.5, y as f32 - 0.5)
        })
        .collect()
}

#[test]
fn two_d_transforms_match_rustfft_rows_then_columns() {
    for (device, what) in [
        (Device::emulator(), "VideoCore IV"),
        (Device::v3d_emulator(V3dVersion::V71), "V3D 7.1"),
    ] {
        for (rows, cols, direction, batch) in [
            (256, 256, FftDirection::Forward, 2),
            (256, 512, FftDirection::Inverse, 1),
            (512, 256, FftDirection::Forward, 1),
        ] {
            let fft = FftPlanner::with_qpus(8)
                .unwrap()
                .plan_fft_2d(rows, cols, direction)
                .unwrap();
            let x: Vec<Complex32> = (0..batch).flat_map(|b| image(rows, cols, b)).collect();
            let mut got = x.clone();
            let report = fft.process(&device, &mut got).unwrap();
            assert_eq!(report.rows.num_qpus, 8);
            for (b, (xs, gs)) in x
                .chunks(rows * cols)
                .zip(got.chunks(rows * cols))
                .enumerate()
            {
                let want = exact_2d(xs, rows, cols, direction);
                let e = ppm(gs.iter().map(c64), &want);
                // Two transforms in a row: the longer one's bound, twice.
                let log2 = rows.max(cols).trailing_zeros() as usize;
                assert!(
                    e <= 2.0 * bound(log2),
                    "{what} {rows}x{cols} {direction:?} image {b}: {e:.3} ppm"
                );
            }
        }
    }
}

#[test]
fn two_d_transforms_refuse_bad_shapes() {
    let planner = FftPlanner::new();
    assert!(planner
        .plan_fft_2d(128, 256, FftDirection::Forward)
        .is_err());
    assert!(planner
        .plan_fft_2d(256, 300, FftDirection::Forward)
        .is_err());
    let fft = planner
        .plan_fft_2d(256, 256, FftDirection::Forward)
        .unwrap();
    let mut buffer = vec![Complex32::new(0.0, 0.0); 256 * 255];
    assert!(fft.process(&Device::emulator(), &mut buffer).is_err());
}

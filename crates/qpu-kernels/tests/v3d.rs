//! The library kernels compiled for V3D 4.2 (Pi 4) and 7.1 (Pi 5) and run on the V3D
//! emulators (`Device::v3d_emulator`), at small sizes, each against an independent
//! reference: SHA-256 against the `sha2` crate, the FFT against rustfft in f64, Mandelbrot
//! and SGEMM against scalar Rust rounding to nearest even as the V3D float unit does.

use num_complex::Complex32;
use qpu::compiler::v3d::V3dVersion;
use qpu::Device;
use qpu_kernels::fft::{FftDirection, FftPlanner};
use qpu_kernels::mandelbrot::{Mandelbrot, View};
use qpu_kernels::sgemm::{Sgemm, Transpose};
use qpu_kernels::sha256::Sha256;
use sha2::Digest;

mod common;
use common::{bytes, error_ppm};

const VERSIONS: [V3dVersion; 2] = [V3dVersion::V42, V3dVersion::V71];

/// QPU counts to run on: one, a few, and the most (8 on 4.2; the language's 12 on 7.1).
fn qpu_counts(version: V3dVersion) -> [u32; 3] {
    match version {
        V3dVersion::V42 => [1, 3, 8],
        V3dVersion::V71 => [1, 5, 12],
    }
}

#[test]
fn sha256_matches_sha2_on_v3d() {
    // Block boundaries (55/56, 63/64, 119/120), empty and multi-block messages, 20 of them:
    // two batches of 16 lanes, the second partly empty.
    let lengths = [
        0, 1, 3, 54, 55, 56, 57, 63, 64, 65, 100, 119, 120, 128, 200, 17, 9, 31, 44, 250,
    ];
    let messages: Vec<Vec<u8>> = lengths
        .iter()
        .enumerate()
        .map(|(i, &len)| bytes(i as u64 + 7, len))
        .collect();
    let want: Vec<[u8; 32]> = messages
        .iter()
        .map(|m| sha2::Sha256::digest(m).into())
        .collect();
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        for qpus in [1, 2] {
            let sha = Sha256::with_qpus(qpus).unwrap();
            let got = sha.digest_all(&device, &messages).unwrap();
            assert_eq!(got, want, "{version:?} on {qpus} QPUs");
        }
    }
}

#[test]
fn fft_2_8_matches_rustfft_on_v3d() {
    // GPU_FFT's published error for 2^8 is 0.33 ppm; the VideoCore IV tests allow 1.5 times
    // that. V3D rounds to nearest (the VideoCore IV toward zero), so the same bound holds
    // with room to spare; a wrong butterfly gives errors of 10^5 ppm and more.
    let len = 256;
    let bound = 0.33 * 1.5;
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        for direction in [FftDirection::Forward, FftDirection::Inverse] {
            let fft = FftPlanner::with_qpus(3)
                .unwrap()
                .plan_fft(len, direction)
                .unwrap();
            let x: Vec<Complex32> = (0..2 * len)
                .map(|i| {
                    let a = (i as f64 * 0.618_033_988_749_895).fract();
                    let b = (i as f64 * 0.414_213_562_373_095).fract();
                    Complex32::new(a as f32 - 0.5, b as f32 - 0.5)
                })
                .collect();
            let mut got = x.clone();
            fft.process(&device, &mut got).unwrap();
            for (xs, gs) in x.chunks(len).zip(got.chunks(len)) {
                let ppm = error_ppm(xs, gs, direction);
                assert!(ppm <= bound, "{version:?} {direction:?}: {ppm} ppm");
            }
        }
    }
}

/// One transform split over 4 QPUs (semaphore barriers as TMU atomics on V3D) each way, at
/// 2^12 and 2^14, against rustfft: within 1.5 times GPU_FFT's published error.
#[test]
fn split_fft_matches_rustfft_on_v3d() {
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        for (log2n, bound) in [(12, 0.78 * 1.5), (14, 0.92 * 1.5)] {
            let len = 1usize << log2n;
            for direction in [FftDirection::Forward, FftDirection::Inverse] {
                let fft = FftPlanner::with_qpus(4)
                    .unwrap()
                    .plan_fft(len, direction)
                    .unwrap();
                assert!(fft.split_below() > 1);
                let x: Vec<Complex32> = (0..len)
                    .map(|i| {
                        let a = (i as f64 * 0.618_033_988_749_895).fract();
                        let b = (i as f64 * 0.414_213_562_373_095).fract();
                        Complex32::new(a as f32 - 0.5, b as f32 - 0.5)
                    })
                    .collect();
                let mut got = x.clone();
                fft.process(&device, &mut got).unwrap();
                let ppm = error_ppm(&x, &got, direction);
                assert!(
                    ppm <= bound,
                    "{version:?} 2^{log2n} {direction:?}: {ppm} ppm"
                );
            }
        }
    }
}

#[test]
fn mandelbrot_matches_the_nearest_rounding_reference_on_v3d() {
    let view = View {
        width: 37,
        height: 9,
        x0: -2.2,
        y0: -1.2,
        dx: 3.0 / 37.0,
        dy: 2.4 / 9.0,
        max_iter: 60,
    };
    let want = view.reference_nearest();
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        assert_eq!(view.reference_for(&device), want);
        for qpus in qpu_counts(version) {
            let (got, _) = Mandelbrot::with_qpus(qpus)
                .unwrap()
                .render(&device, &view)
                .unwrap();
            assert_eq!(got, want, "{version:?} on {qpus} QPUs");
        }
    }
}

#[test]
fn sgemm_matches_nearest_rounding_scalar_rust_on_v3d() {
    // Inexact products and sums, so that the rounding mode shows.
    let (m, n, k) = (19, 24, 13);
    let value = |i: usize, s: f32| ((i * 37 + 11) % 101) as f32 * s - 0.7;
    let a: Vec<f32> = (0..m * k).map(|i| value(i, 0.013)).collect();
    let b: Vec<f32> = (0..k * n).map(|i| value(i + 5, 0.029)).collect();
    let c0: Vec<f32> = (0..m * n).map(|i| value(i + 9, 0.11)).collect();
    let mut want = c0.clone();
    qpu_kernels::sgemm::reference_nearest(m, n, k, 1.25, &a, &b, -0.75, &mut want);
    let mut toward_zero = c0.clone();
    qpu_kernels::sgemm::reference(m, n, k, 1.25, &a, &b, -0.75, &mut toward_zero);
    assert_ne!(want, toward_zero, "the data must tell the roundings apart");
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        for qpus in [1, 3] {
            let sgemm = Sgemm::with_qpus(qpus).unwrap();
            let mut c = c0.clone();
            sgemm
                .run(
                    &device,
                    Transpose::No,
                    Transpose::No,
                    m,
                    n,
                    k,
                    1.25,
                    &a,
                    k,
                    &b,
                    n,
                    -0.75,
                    &mut c,
                    n,
                )
                .unwrap();
            assert_eq!(c, want, "{version:?} on {qpus} QPUs");
        }
    }
}

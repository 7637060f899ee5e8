//! The FFT kernel against rustfft in f64: every length 2^8 … 2^22, forward and inverse,
//! batches, 1–12 QPUs, on the strict emulator (and the interpreter for the small ones).
//! Accuracy is the relative RMS error against the f64 transform, bounded by GPU_FFT's
//! published figures plus a margin stated below.

use num_complex::Complex32;
use qpu::Device;
use qpu_kernels::fft::{FftDirection, FftPlanner};

mod common;
use common::error_ppm;

fn input(len: usize, seed: usize) -> Vec<Complex32> {
    (0..len)
        .map(|i| {
            let x = ((i + seed) as f64 * 0.618_033_988_749_895).fract();
            let y = ((i + 3 * seed) as f64 * 0.414_213_562_373_095).fract();
            Complex32::new(x as f32 - 0.5, y as f32 - 0.5)
        })
        .collect()
}

/// GPU_FFT's published accuracy (ppm) for 2^8 … 2^16.
const GPU_FFT_PPM: [f64; 9] = [0.33, 0.46, 0.52, 0.59, 0.78, 0.83, 0.92, 0.98, 1.0];

#[test]
fn every_length_matches_rustfft_forward_and_inverse() {
    let device = Device::emulator();
    for log2n in 8..=16 {
        let len = 1usize << log2n;
        for direction in [FftDirection::Forward, FftDirection::Inverse] {
            let fft = FftPlanner::with_qpus(2)
                .unwrap()
                .plan_fft(len, direction)
                .unwrap();
            let batch = if log2n <= 12 { 3 } else { 1 };
            let x: Vec<Complex32> = (0..batch).flat_map(|b| input(len, b)).collect();
            let mut got = x.clone();
            fft.process(&device, &mut got).unwrap();
            for (b, (xs, gs)) in x.chunks(len).zip(got.chunks(len)).enumerate() {
                let ppm = error_ppm(xs, gs, direction);
                let bound = GPU_FFT_PPM[log2n - 8] * 1.5;
                assert!(
                    ppm <= bound,
                    "2^{log2n} {direction:?} sequence {b}: {ppm:.3} ppm (bound {bound:.3})"
                );
            }
        }
    }
}

/// The lengths above GPU_FFT's published accuracy table (2^17 … 2^22), one transform each
/// way: held to 1.5 times GPU_FFT's 2^16 figure (1 ppm), the last one it publishes
/// (measured 0.91 … 1.17 ppm forward). Three tests, so that the test threads share them.
fn long_lengths_match_rustfft(lengths: std::ops::RangeInclusive<usize>) {
    let device = Device::emulator();
    for log2n in lengths {
        let len = 1usize << log2n;
        for direction in [FftDirection::Forward, FftDirection::Inverse] {
            let fft = FftPlanner::new().plan_fft(len, direction).unwrap();
            let x = input(len, log2n);
            let mut got = x.clone();
            fft.process(&device, &mut got).unwrap();
            let ppm = error_ppm(&x, &got, direction);
            assert!(
                ppm <= 1.5,
                "2^{log2n} {direction:?}: {ppm:.3} ppm (bound 1.5)"
            );
        }
    }
}

#[test]
fn lengths_2_17_to_2_20_match_rustfft_forward_and_inverse() {
    long_lengths_match_rustfft(17..=20);
}

#[test]
fn length_2_21_matches_rustfft_forward_and_inverse() {
    long_lengths_match_rustfft(21..=21);
}

#[test]
fn length_2_22_matches_rustfft_forward_and_inverse() {
    long_lengths_match_rustfft(22..=22);
    assert!(FftPlanner::new().plan_fft_forward(1 << 23).is_err());
}

#[test]
fn batches_on_1_to_12_qpus_and_the_interpreter_agree() {
    let len = 256;
    let x: Vec<Complex32> = (0..13).flat_map(|b| input(len, 10 + b)).collect();
    let mut first: Option<Vec<Complex32>> = None;
    for qpus in [1, 5, 12] {
        let fft = FftPlanner::with_qpus(qpus)
            .unwrap()
            .plan_fft_forward(len)
            .unwrap();
        let mut got = x.clone();
        fft.process(&Device::emulator(), &mut got).unwrap();
        // Every sequence is transformed alike whatever QPU takes it: bit for bit.
        match &first {
            None => first = Some(got),
            Some(f) => assert!(*f == got, "{qpus} QPUs differ"),
        }
    }
    let fft = FftPlanner::with_qpus(3)
        .unwrap()
        .plan_fft_forward(len)
        .unwrap();
    let mut got = x[..2 * len].to_vec();
    fft.process(&Device::interpreter(), &mut got).unwrap();
    assert!(
        got[..] == first.unwrap()[..2 * len],
        "the interpreter differs"
    );
}

/// Batches smaller than the QPU count split every pass over the QPUs, with semaphore
/// barriers between passes: on 12 QPUs (the split kernel runs on 8 of them), one transform
/// (and a batch of 3 at 2^12) each way, against rustfft and, bit for bit, against the same
/// transform on one QPU, which runs whole sequences with no barrier.
#[test]
fn split_transforms_on_12_qpus_match_rustfft_and_one_qpu() {
    let device = Device::emulator();
    for (log2n, batch) in [(10, 1), (12, 1), (12, 3), (14, 1), (16, 1), (18, 1)] {
        let len = 1usize << log2n;
        for direction in [FftDirection::Forward, FftDirection::Inverse] {
            let mut fft = FftPlanner::with_qpus(12)
                .unwrap()
                .plan_fft(len, direction)
                .unwrap();
            assert!(
                batch < fft.split_below(),
                "2^{log2n}: batch {batch} runs whole"
            );
            assert_eq!(fft.split_kernel().unwrap().num_qpus(), 8);
            let x: Vec<Complex32> = (0..batch).flat_map(|b| input(len, 20 + b)).collect();
            let mut got = x.clone();
            fft.process(&device, &mut got).unwrap();
            let bound = GPU_FFT_PPM.get(log2n - 8).copied().unwrap_or(1.0) * 1.5;
            for (b, (xs, gs)) in x.chunks(len).zip(got.chunks(len)).enumerate() {
                let ppm = error_ppm(xs, gs, direction);
                assert!(
                    ppm <= bound,
                    "2^{log2n} {direction:?} sequence {b}: {ppm:.3} ppm (bound {bound:.3})"
                );
            }
            let one = FftPlanner::new().plan_fft(len, direction).unwrap();
            assert_eq!(one.split_below(), 0);
            let mut alone = x.clone();
            one.process(&device, &mut alone).unwrap();
            assert!(
                alone == got,
                "2^{log2n} {direction:?}: split and whole differ"
            );
        }
    }
}

/// The split kernel on the interpreter, whose QPUs interleave differently: the same bits.
#[test]
fn split_transform_on_the_interpreter_agrees() {
    let len = 1 << 10;
    let fft = FftPlanner::with_qpus(4)
        .unwrap()
        .plan_fft_forward(len)
        .unwrap();
    assert!(fft.split_below() > 1);
    let x = input(len, 5);
    let (mut on_emulator, mut on_interpreter) = (x.clone(), x.clone());
    fft.process(&Device::emulator(), &mut on_emulator).unwrap();
    fft.process(&Device::interpreter(), &mut on_interpreter)
        .unwrap();
    assert!(on_emulator == on_interpreter);
    assert!(error_ppm(&x, &on_emulator, FftDirection::Forward) <= 0.52 * 1.5);
}

/// The least-squares scale of `got` (transforms of `len` points of `x`) against rustfft's,
/// minus 1, in ppm.
fn scale_error_ppm(x: &[Complex32], got: &[Complex32], len: usize, direction: FftDirection) -> f64 {
    let mut planner = rustfft::FftPlanner::<f64>::new();
    let exact = match direction {
        FftDirection::Forward => planner.plan_fft_forward(len),
        FftDirection::Inverse => planner.plan_fft_inverse(len),
    };
    let (mut dot, mut norm) = (0.0, 0.0);
    for (xs, gs) in x.chunks(len).zip(got.chunks(len)) {
        let mut e: Vec<num_complex::Complex64> = xs
            .iter()
            .map(|c| num_complex::Complex64::new(c.re.into(), c.im.into()))
            .collect();
        exact.process(&mut e);
        for (e, g) in e.iter().zip(gs) {
            dot += f64::from(g.re) * e.re + f64::from(g.im) * e.im;
            norm += e.norm_sqr();
        }
    }
    (dot / norm - 1.0) * 1e6
}

/// The plan divides out the mean shrink of the VideoCore IV's truncating arithmetic: the
/// least-squares scale of the output against rustfft's is 1 within 0.15 ppm (uncompensated
/// it is 0.35 ppm short at 2^8 and 0.8 at 2^16), from 2^8 to 2^16, both ways.
#[test]
fn truncation_shrink_is_compensated() {
    let device = Device::emulator();
    for log2n in [8, 10, 12, 14, 16] {
        let len = 1usize << log2n;
        for direction in [FftDirection::Forward, FftDirection::Inverse] {
            let fft = FftPlanner::with_qpus(12)
                .unwrap()
                .plan_fft(len, direction)
                .unwrap();
            let batch = if log2n <= 12 { 4 } else { 1 };
            let x: Vec<Complex32> = (0..batch).flat_map(|b| input(len, 11 + b)).collect();
            let mut got = x.clone();
            fft.process(&device, &mut got).unwrap();
            let off = scale_error_ppm(&x, &got, len, direction);
            assert!(
                off.abs() <= 0.15,
                "2^{log2n} {direction:?}: scale off by {off:.3} ppm"
            );
        }
    }
}

/// On a GPU that rounds to nearest (the Pi 4's float arithmetic, on the interpreter) there is
/// nothing to compensate: the twiddles stay unscaled and the scale is 1 within 0.1 ppm.
#[test]
fn rounding_gpus_get_unscaled_twiddles() {
    let device = Device::interpreter_for(qpu::compiler::Gpu::Vc6);
    let len = 1 << 10;
    let fft = FftPlanner::new().plan_fft_forward(len).unwrap();
    let x = input(len, 5);
    let mut got = x.clone();
    fft.process(&device, &mut got).unwrap();
    let off = scale_error_ppm(&x, &got, len, FftDirection::Forward);
    assert!(off.abs() <= 0.1, "scale off by {off:.3} ppm");
}

#[test]
fn round_trip_scales_by_the_length() {
    let len = 1024;
    let x = input(len, 7);
    let mut y = x.clone();
    let planner = FftPlanner::with_qpus(4).unwrap();
    planner
        .plan_fft_forward(len)
        .unwrap()
        .process(&Device::emulator(), &mut y)
        .unwrap();
    planner
        .plan_fft_inverse(len)
        .unwrap()
        .process(&Device::emulator(), &mut y)
        .unwrap();
    for (a, b) in x.iter().zip(&y) {
        assert!((a * len as f32 - b).norm() < 1e-3, "{a} · {len} vs {b}");
    }
}

#[test]
fn bad_lengths_and_buffers_are_errors() {
    let planner = FftPlanner::with_qpus(1).unwrap();
    for len in [0, 100, 128, 1 << 23] {
        assert!(planner.plan_fft_forward(len).is_err(), "{len}");
    }
    let fft = planner.plan_fft_forward(256).unwrap();
    let mut short = vec![Complex32::new(0.0, 0.0); 300];
    let err = fft.process(&Device::emulator(), &mut short).unwrap_err();
    assert!(err.to_string().contains("300"), "{err}");
}

//! The library workloads' rows for `qpu bench`: each kernel run on the strict emulator on 12
//! QPUs, its output checked against a reference implementation, and its figure of merit
//! beside the hand-written program's published figure.

use qpu::compiler::v3d::V3dVersion;
use qpu::runtime::RunReport;
use qpu::Device;

use qpu::compiler::{CompileError, Gpu, Options, Program};

use super::{listing_of, v3d, vc4, ExampleNumbers, Metric, V3dExampleNumbers, V3dRun};
use crate::fft::{rms_error_ppm, FftDirection, FftPlanner};
use crate::mandelbrot::View;
use crate::sgemm::{Sgemm, Transpose};
use crate::sha256::Sha256;

/// SHA-256 on 12 QPUs: hashes per second (single-block messages) at 250 MHz, against the
/// 3.1 M/s of the hand-written QPU SHA-256 (16 hashes per QPU).
pub fn sha256() -> qpu::Result<ExampleNumbers> {
    use sha2::Digest;
    let messages: Vec<String> = (0..12 * 16 * 8).map(|i| format!("message {i}")).collect();
    let mut sha = Sha256::with_qpus(12)?;
    let (digests, report) = sha.digest_all_with_report(&Device::emulator(), &messages)?;
    let correct = messages
        .iter()
        .zip(&digests)
        .all(|(m, d)| sha2::Sha256::digest(m.as_bytes()).as_slice() == d);
    let kernel = &*sha.kernel();
    let mut row = ExampleNumbers::from_run(
        &format!("sha256 ({} one-block messages, 12 QPUs)", messages.len()),
        &|| vc4(kernel),
        &report,
        correct,
    )?;
    row.metric = Some(Metric {
        unit: "MH/s",
        value: messages.len() as f64 / row.time_us,
        target: 3.1,
        higher_is_better: true,
    });
    Ok(row)
}

/// The Mandelbrot example's default view on 12 QPUs (no published figure to compare with:
/// the row has no metric).
pub fn mandelbrot() -> qpu::Result<ExampleNumbers> {
    let view = View::default();
    let mut m = crate::mandelbrot::Mandelbrot::new()?;
    m.kernel().set_num_qpus(12)?;
    let (counts, report) = m.render(&Device::emulator(), &view)?;
    let kernel = &*m.kernel();
    ExampleNumbers::from_run(
        &format!(
            "mandelbrot ({}x{}, {} iterations, 12 QPUs)",
            view.width, view.height, view.max_iter
        ),
        &|| vc4(kernel),
        &report,
        counts == view.reference(),
    )
}

/// SGEMM on 12 QPUs: C ← 1.5·AB + 0.5·C for 256 × 256 matrices, in GFLOPS at 250 MHz
/// (2·n³ flops), against 12 GFLOPS (half the VideoCore IV's 24 GFLOPS peak).
pub fn sgemm() -> qpu::Result<ExampleNumbers> {
    let n = SGEMM_N;
    let (a, b, c0) = sgemm_inputs();
    let sgemm = Sgemm::with_qpus(12)?;
    let mut c = c0.clone();
    let report = sgemm_square(&sgemm, &Device::emulator(), &a, &b, &mut c)?
        .expect("a non-empty product runs");
    let mut want = c0;
    crate::sgemm::reference(n, n, n, SGEMM_ALPHA, &a, &b, SGEMM_BETA, &mut want);
    let kernel = sgemm.kernel(crate::sgemm::padded_width(n))?;
    let mut row = ExampleNumbers::from_run(
        &format!("sgemm ({n}x{n}x{n}, 12 QPUs)"),
        &|| vc4(&kernel),
        &report,
        c == want,
    )?;
    row.metric = Some(Metric {
        unit: "GFLOPS",
        value: 2.0 * (n * n * n) as f64 / (row.time_us * 1e3),
        target: 12.0,
        higher_is_better: true,
    });
    Ok(row)
}

/// GPU_FFT's published Pi 1 times per transform (ms, batch of 10) for 2^8 … 2^12, and its
/// accuracy (relative RMS error, ppm) for 2^8 … 2^16.
const GPU_FFT_MS: [f64; 5] = [0.017, 0.029, 0.049, 0.11, 0.27];
/// GPU_FFT 3.0's published Pi 1 times for one transform (gpu_fft.txt): 4096 points 0.25 ms,
/// 65,536 points 7.0 ms.
const GPU_FFT_SINGLE_MS: [(u32, f64); 2] = [(12, 0.25), (16, 7.0)];
const GPU_FFT_PPM: [f64; 9] = [0.33, 0.46, 0.52, 0.59, 0.78, 0.83, 0.92, 0.98, 1.0];

/// FFT rows: for 2^8 … 2^12, modelled milliseconds per transform (batch of 10 on 12 QPUs);
/// for one transform of 2^12 and 2^16 points, milliseconds (split over the QPUs); for 2^8 …
/// 2^16, the relative RMS error against an f64 FFT (batch of 10 up to 2^12, one transform
/// above).
pub fn fft() -> qpu::Result<Vec<ExampleNumbers>> {
    let mut rows = Vec::new();
    let mut single = Vec::new();
    let mut accuracy = Vec::new();
    for (log2n, target) in GPU_FFT_SINGLE_MS {
        let len = 1usize << log2n;
        let fft = FftPlanner::with_qpus(12)?.plan_fft_forward(len)?;
        let input = fft_input(len);
        let mut data = input.clone();
        let report = fft.process(&Device::emulator(), &mut data)?;
        let ppm = rms_error_ppm(&input, &data, len, FftDirection::Forward);
        let correct = ppm <= 1.5 * GPU_FFT_PPM[log2n as usize - 8];
        let name = format!("fft 2^{log2n} time (batch 1, 12 QPUs)");
        let kernel = fft.kernel_for(1);
        let mut row = ExampleNumbers::from_run(&name, &|| vc4(kernel), &report, correct)?;
        row.metric = Some(Metric {
            unit: "ms/transform",
            value: row.time_us / 1e3,
            target,
            higher_is_better: false,
        });
        (row.log2n, row.batch) = (Some(log2n), Some(1));
        single.push(row);
    }
    for log2n in 8..=16u32 {
        let len = 1usize << log2n;
        let batch = if log2n <= 12 { 10 } else { 1 };
        let fft = FftPlanner::with_qpus(12)?.plan_fft_forward(len)?;
        let input = fft_input(len * batch);
        let mut data = input.clone();
        let report = fft.process(&Device::emulator(), &mut data)?;
        let ppm = rms_error_ppm(&input, &data, len, FftDirection::Forward);
        let target_ppm = GPU_FFT_PPM[log2n as usize - 8];
        // "Correct": within 1.5 times GPU_FFT's error (the tests' bound).
        let correct = ppm <= 1.5 * target_ppm;
        let name = |what: &str| format!("fft 2^{log2n} {what} (batch {batch}, 12 QPUs)");
        let kernel = fft.kernel_for(batch);
        if log2n <= 12 {
            let mut row =
                ExampleNumbers::from_run(&name("time"), &|| vc4(kernel), &report, correct)?;
            row.metric = Some(Metric {
                unit: "ms/transform",
                value: row.time_us / 1e3 / batch as f64,
                target: GPU_FFT_MS[log2n as usize - 8],
                higher_is_better: false,
            });
            (row.log2n, row.batch) = (Some(log2n), Some(batch as u32));
            rows.push(row);
        }
        let mut row = match rows.last() {
            // The same run: its numbers, another figure.
            Some(time) if log2n <= 12 => ExampleNumbers {
                name: name("accuracy"),
                ..Clone::clone(time)
            },
            _ => ExampleNumbers::from_run(&name("accuracy"), &|| vc4(kernel), &report, correct)?,
        };
        row.metric = Some(Metric {
            unit: "ppm",
            value: ppm,
            target: target_ppm,
            higher_is_better: false,
        });
        (row.log2n, row.batch) = (Some(log2n), Some(batch as u32));
        accuracy.push(row);
    }
    rows.extend(single);
    rows.extend(accuracy);
    Ok(rows)
}

/// Every library workload's row.
pub fn run_all() -> qpu::Result<Vec<ExampleNumbers>> {
    let mut rows = vec![mandelbrot()?, sha256()?, sgemm()?];
    rows.extend(fft()?);
    Ok(rows)
}

/// The library workloads compiled for V3D `version` and run on its emulator, each on the
/// version's QPUs (8 on 4.2, the language's 12 on 7.1) and checked against a reference:
/// SHA-256 digests against the `sha2` crate, Mandelbrot counts and SGEMM against scalar
/// Rust rounding to nearest as the V3D float unit does, FFTs against an f64 FFT within 1.5
/// times GPU_FFT's error. A kernel the V3D compiler refuses gets its message instead.
pub fn run_all_v3d(version: V3dVersion) -> qpu::Result<Vec<V3dExampleNumbers>> {
    use sha2::Digest;
    let device = Device::v3d_emulator(version);
    let qpus = match version {
        V3dVersion::V42 => 8,
        V3dVersion::V71 => 12,
    };
    let mut rows = Vec::new();
    let mut row = |name: String,
                   compiled: Result<Program, CompileError>,
                   run: &mut dyn FnMut() -> qpu::Result<(RunReport, bool)>|
     -> qpu::Result<()> {
        let compiled = match compiled {
            Ok(c) => c,
            Err(e) => {
                rows.push(V3dExampleNumbers {
                    name,
                    qpus,
                    outcome: Err(e.to_string()),
                });
                return Ok(());
            }
        };
        let (report, correct) = run()?;
        rows.push(V3dExampleNumbers {
            name,
            qpus,
            outcome: Ok(V3dRun::of(compiled.words().len(), &report, correct)),
        });
        Ok(())
    };

    let messages: Vec<String> = (0..qpus as usize * 16 * 8)
        .map(|i| format!("message {i}"))
        .collect();
    let mut sha = Sha256::with_qpus(qpus)?;
    let compiled = v3d(sha.kernel(), version);
    row(
        format!(
            "sha256 ({} one-block messages, {qpus} QPUs)",
            messages.len()
        ),
        compiled,
        &mut || {
            let (digests, report) = sha.digest_all_with_report(&device, &messages)?;
            let correct = messages
                .iter()
                .zip(&digests)
                .all(|(m, d)| sha2::Sha256::digest(m.as_bytes()).as_slice() == d);
            Ok((report, correct))
        },
    )?;

    let view = View::default();
    let mut m = crate::mandelbrot::Mandelbrot::new()?;
    m.kernel().set_num_qpus(qpus)?;
    let compiled = v3d(m.kernel(), version);
    row(
        format!(
            "mandelbrot ({}x{}, {} iterations, {qpus} QPUs)",
            view.width, view.height, view.max_iter
        ),
        compiled,
        &mut || {
            let (counts, report) = m.render(&device, &view)?;
            Ok((report, counts == view.reference_nearest()))
        },
    )?;

    let n = SGEMM_N;
    let (a, b, c0) = sgemm_inputs();
    let sgemm = Sgemm::with_qpus(qpus)?;
    let compiled = v3d(&*sgemm.kernel(crate::sgemm::padded_width(n))?, version);
    row(
        format!("sgemm ({n}x{n}x{n}, {qpus} QPUs)"),
        compiled,
        &mut || {
            let mut c = c0.clone();
            let report = sgemm_square(&sgemm, &device, &a, &b, &mut c)?
                .ok_or_else(|| qpu::Error::Arguments("sgemm: nothing ran".to_string()))?;
            let mut want = c0.clone();
            crate::sgemm::reference_nearest(n, n, n, SGEMM_ALPHA, &a, &b, SGEMM_BETA, &mut want);
            Ok((report, c == want))
        },
    )?;

    for log2n in [8u32, 12] {
        let len = 1usize << log2n;
        let batch = 10;
        let mut fft = FftPlanner::with_qpus(qpus)?.plan_fft_forward(len)?;
        let input = fft_input(len * batch);
        let compiled = v3d(fft.kernel(), version);
        row(
            format!("fft 2^{log2n} (batch {batch}, {qpus} QPUs)"),
            compiled,
            &mut || {
                let mut data = input.clone();
                let report = fft.process(&device, &mut data)?;
                let ppm = rms_error_ppm(&input, &data, len, FftDirection::Forward);
                Ok((report, ppm <= 1.5 * GPU_FFT_PPM[log2n as usize - 8]))
            },
        )?;
    }
    Ok(rows)
}

/// The SGEMM workload's size, α and β.
const SGEMM_N: usize = 256;
const SGEMM_ALPHA: f32 = 1.5;
const SGEMM_BETA: f32 = 0.5;

/// The SGEMM workload's A, B and initial C (row-major, `SGEMM_N` square).
fn sgemm_inputs() -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let n = SGEMM_N;
    let a = (0..n * n)
        .map(|i| ((i * 7) % 13) as f32 * 0.25 - 1.5)
        .collect();
    let b = (0..n * n)
        .map(|i| ((i * 5) % 11) as f32 * 0.125 - 0.5)
        .collect();
    let c = (0..n * n).map(|i| (i % 3) as f32).collect();
    (a, b, c)
}

/// C ← α·A·B + β·C for the square workload on `device`.
fn sgemm_square(
    sgemm: &Sgemm,
    device: &Device,
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
) -> qpu::Result<Option<RunReport>> {
    let n = SGEMM_N;
    sgemm.run(
        device,
        Transpose::No,
        Transpose::No,
        n,
        n,
        n,
        SGEMM_ALPHA,
        a,
        n,
        b,
        n,
        SGEMM_BETA,
        c,
        n,
    )
}

/// The FFT workloads' input: `n` points spread over the unit square by two irrational
/// strides (no symmetry a transform could exploit).
fn fft_input(n: usize) -> Vec<num_complex::Complex32> {
    (0..n)
        .map(|i| {
            let x = (i as f64 * 0.618_033_988_749_895).fract();
            let y = (i as f64 * 0.414_213_562_373_095).fract();
            num_complex::Complex32::new(x as f32 - 0.5, y as f32 - 0.5)
        })
        .collect()
}

/// The library kernels `qpu bench --listing` prints, by name (after
/// [`super::qpulib::KERNELS`]).
pub const KERNELS: [&str; 4] = ["mandelbrot", "sha256", "sgemm", "fft"];

/// The compiled listing of the library kernel `name` (one of [`KERNELS`]; `None` for any
/// other name): for the VideoCore IV with each instruction's static cycle note, for launches
/// of up to `max_qpus` QPUs, or for V3D `version` (whose code does not depend on the count).
/// SGEMM's is the kernel for 256-column matrices, the FFT's the forward 2^8 one.
pub fn listing(
    name: &str,
    max_qpus: u32,
    version: Option<V3dVersion>,
) -> qpu::Result<Option<String>> {
    let (gpu, options) = match version {
        Some(version) => (Gpu::from(version), Options::default()),
        None => {
            if !(1..=12).contains(&max_qpus) {
                return Err(qpu::Error::NumQpus(max_qpus));
            }
            let options = Options {
                max_qpus,
                ..Default::default()
            };
            (Gpu::Vc4, options)
        }
    };
    let program = match name {
        "mandelbrot" => crate::mandelbrot::Mandelbrot::new()?
            .kernel()
            .compile_for(gpu, options)?,
        "sha256" => Sha256::new()?.kernel().compile_for(gpu, options)?,
        "sgemm" => Sgemm::with_qpus(max_qpus.clamp(1, 12))?
            .kernel(256)?
            .compile_for(gpu, options)?,
        "fft" => FftPlanner::with_qpus(max_qpus.clamp(1, 12))?
            .plan_fft(256, FftDirection::Forward)?
            .kernel()
            .compile_for(gpu, options)?,
        _ => return Ok(None),
    };
    Ok(Some(listing_of(&program)))
}

/// Runs the library workload `name` (one of [`KERNELS`]) once on `device` on `qpus` QPUs
/// with its bench row's setup (the FFT: a batch of ten 2^8-point transforms), and returns the
/// run's report (what `qpu profile` draws); `None` for another name.
pub fn run_workload(name: &str, device: &Device, qpus: u32) -> qpu::Result<Option<RunReport>> {
    Ok(Some(match name {
        "sha256" => {
            let messages: Vec<String> = (0..qpus as usize * 16 * 8)
                .map(|i| format!("message {i}"))
                .collect();
            let sha = Sha256::with_qpus(qpus)?;
            sha.digest_all_with_report(device, &messages)?.1
        }
        "mandelbrot" => {
            let mut m = crate::mandelbrot::Mandelbrot::new()?;
            m.kernel().set_num_qpus(qpus)?;
            m.render(device, &View::default())?.1
        }
        "sgemm" => {
            let (a, b, mut c) = sgemm_inputs();
            sgemm_square(&Sgemm::with_qpus(qpus)?, device, &a, &b, &mut c)?
                .ok_or_else(|| qpu::Error::Arguments("sgemm: nothing ran".to_string()))?
        }
        "fft" => {
            let fft = FftPlanner::with_qpus(qpus)?.plan_fft_forward(256)?;
            let mut data = fft_input(256 * 10);
            fft.process(device, &mut data)?
        }
        _ => return Ok(None),
    }))
}

//! The library workloads' rows for `qpu bench`: each kernel run on the strict emulator on 12
//! QPUs, its output checked against a reference implementation, and its figure of merit
//! beside the hand-written program's published figure.

use qpu::bench::{ExampleNumbers, Metric};
use qpu::Device;

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
    let mut row = ExampleNumbers::from_run(
        &format!("sha256 ({} one-block messages, 12 QPUs)", messages.len()),
        sha.kernel().ast(),
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
    ExampleNumbers::from_run(
        &format!(
            "mandelbrot ({}x{}, {} iterations, 12 QPUs)",
            view.width, view.height, view.max_iter
        ),
        m.kernel().ast(),
        &report,
        counts == view.reference(),
    )
}

/// SGEMM on 12 QPUs: C ← 1.5·AB + 0.5·C for 256 × 256 matrices, in GFLOPS at 250 MHz
/// (2·n³ flops), against 12 GFLOPS (half the VideoCore IV's 24 GFLOPS peak).
pub fn sgemm() -> qpu::Result<ExampleNumbers> {
    let n = 256;
    let a: Vec<f32> = (0..n * n)
        .map(|i| ((i * 7) % 13) as f32 * 0.25 - 1.5)
        .collect();
    let b: Vec<f32> = (0..n * n)
        .map(|i| ((i * 5) % 11) as f32 * 0.125 - 0.5)
        .collect();
    let c0: Vec<f32> = (0..n * n).map(|i| (i % 3) as f32).collect();
    let sgemm = Sgemm::new(12)?;
    let mut c = c0.clone();
    let report = sgemm
        .run(
            &Device::emulator(),
            Transpose::No,
            Transpose::No,
            n,
            n,
            n,
            1.5,
            &a,
            n,
            &b,
            n,
            0.5,
            &mut c,
            n,
        )?
        .expect("a non-empty product runs");
    let mut want = c0;
    crate::sgemm::reference(n, n, n, 1.5, &a, &b, 0.5, &mut want);
    let kernel = sgemm.kernel(crate::sgemm::padded_width(n))?;
    let mut row = ExampleNumbers::from_run(
        &format!("sgemm ({n}x{n}x{n}, 12 QPUs)"),
        kernel.ast(),
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

/// Every library workload's row.
pub fn run_all() -> qpu::Result<Vec<ExampleNumbers>> {
    Ok(vec![mandelbrot()?, sha256()?, sgemm()?])
}

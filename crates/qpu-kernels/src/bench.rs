//! The library workloads' rows for `qpu bench`: each kernel run on the strict emulator on 12
//! QPUs, its output checked against a reference implementation, and its figure of merit
//! beside the hand-written program's published figure.

use qpu::bench::{ExampleNumbers, Metric};
use qpu::Device;

use crate::mandelbrot::View;
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

/// Every library workload's row.
pub fn run_all() -> qpu::Result<Vec<ExampleNumbers>> {
    Ok(vec![mandelbrot()?, sha256()?])
}

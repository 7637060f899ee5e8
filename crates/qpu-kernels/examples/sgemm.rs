//! Multiply two square matrices on the QPUs and report the modelled GFLOPS.
//!
//! `cargo run --release -p qpu-kernels --example sgemm -- --size 256 --qpus 12` checks C
//! against the scalar reference (the QPU's arithmetic, the kernel's order) and prints the
//! modelled time at the board's clock on the emulators. `--listing` prints the kernel instead.

use qpu::Device;
use qpu_kernels::sgemm::{reference, Sgemm, Transpose};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut size, mut qpus, mut listing) = (256usize, 12u32, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--listing" => listing = true,
            "--size" | "--qpus" => {
                let value: usize = args
                    .next()
                    .ok_or(format!("{arg} needs a value"))?
                    .parse()
                    .map_err(|e| format!("{arg}: {e}"))?;
                if arg == "--size" {
                    size = value;
                } else {
                    qpus = value as u32;
                }
            }
            _ => return Err(format!("unknown option {arg}; use --size, --qpus, --listing").into()),
        }
    }
    let sgemm = Sgemm::new(qpus)?;
    if listing {
        print!(
            "{}",
            sgemm.kernel(size.next_multiple_of(16))?.disassemble()?
        );
        return Ok(());
    }
    let n = size;
    let a: Vec<f32> = (0..n * n)
        .map(|i| ((i * 7) % 13) as f32 * 0.25 - 1.5)
        .collect();
    let b: Vec<f32> = (0..n * n)
        .map(|i| ((i * 5) % 11) as f32 * 0.125 - 0.5)
        .collect();
    let c0: Vec<f32> = (0..n * n).map(|i| (i % 3) as f32).collect();
    let (alpha, beta) = (1.5f32, 0.5f32);
    let mut c = c0.clone();
    let device = Device::auto()?;
    let report = sgemm.run(
        &device,
        Transpose::No,
        Transpose::No,
        n,
        n,
        n,
        alpha,
        &a,
        n,
        &b,
        n,
        beta,
        &mut c,
        n,
    )?;
    let mut want = c0;
    reference(n, n, n, alpha, &a, &b, beta, &mut want);
    let correct = c == want;
    println!(
        "{n}x{n} times {n}x{n} on the {} ({qpus} QPUs): matches the scalar reference: {}",
        device.backend().name(),
        if correct { "yes" } else { "NO" }
    );
    if let Some((cycles, us, mhz)) =
        report.and_then(|r| Some((r.cycles?, r.gpu_time_us()?, r.clock_mhz?)))
    {
        let seconds = us / 1e6;
        let flops = 2.0 * (n * n * n) as f64;
        println!(
            "{cycles} cycles = {:.3} ms at {mhz} MHz: {:.2} GFLOPS",
            seconds * 1e3,
            flops / seconds / 1e9
        );
    }
    if correct {
        Ok(())
    } else {
        Err("C differs from the scalar reference".into())
    }
}

//! Multiply two square matrices on the QPUs and report the modelled GFLOPS.
//!
//! `cargo run --release -p qpu-kernels --example sgemm -- --size 256 --qpus 12` checks C
//! against the scalar reference (the QPU's arithmetic, the kernel's order) and prints the
//! modelled time at the board's clock on the emulators. `--listing` prints the kernel instead.

use clap::Parser;
use qpu::Device;
use qpu_kernels::sgemm::{reference, Sgemm, Transpose};

// Every example ends the same way: success, or the error's message and exit status 1.
#[path = "support/exit.rs"]
mod exit;

/// Multiply two square matrices on the QPUs and report the modelled GFLOPS.
#[derive(Parser)]
#[command(name = "sgemm")]
struct Cli {
    /// Rows (and columns) of the matrices; at most 8192 (A, B and C then take 768 MiB)
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=8192))]
    size: u32,
    /// QPUs to run on
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=16))]
    qpus: u32,
    /// Print the compiled kernel instead of running it
    #[arg(long)]
    listing: bool,
}

/// Runs the example; errors end it with their message (`Display`) and exit status 1.
fn main() -> std::process::ExitCode {
    exit::finish(run(Cli::parse()))
}

fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    let (size, qpus, listing) = (cli.size as usize, cli.qpus, cli.listing);
    let sgemm = Sgemm::with_qpus(qpus)?;
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

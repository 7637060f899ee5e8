//! Euclid's algorithm on 16 pairs at once (QPULib's README, example 1):
//! [`qpu_kernels::qpulib::gcd`].
//!
//! `cargo run -p qpu-kernels --example gcd` runs vector version 1; add `-- --unrolled` for
//! version 2, whose loop body is unrolled 32 times by an ordinary Rust `for` loop.

use std::process::ExitCode;

use clap::Parser;
use qpu::Device;
use qpu_kernels::qpulib::gcd;

#[path = "support/exit.rs"]
mod exit;

/// Compute 16 GCDs at once on a QPU with Euclid's algorithm (QPULib's README, example 1).
///
/// Prints the 16 results and the run report. The inputs are QPULib's (C's `srand(0);
/// rand()`). The backend is chosen automatically (a Raspberry Pi if there is one, else the
/// emulator); set QPU_BACKEND=emulator, emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "gcd")]
struct Cli {
    /// Run vector version 2, whose loop body is unrolled 32 times
    #[arg(long)]
    unrolled: bool,
}

fn try_main(cli: &Cli) -> qpu::Result<()> {
    let device = Device::auto()?;
    let (a, b) = gcd::inputs();
    let (r, report) = gcd::run_with_report(&device, cli.unrolled, &a, &b)?;
    for i in 0..16 {
        println!("gcd({}, {}) = {}", a[i], b[i], r[i]);
    }
    println!("{report}");
    Ok(())
}

fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

//! Odd-even transposition sort of 32 integers held as two vectors (QPULib's `OET`):
//! [`qpu_kernels::qpulib::oet_sort`].
//!
//! `cargo run -p qpu-kernels --example oet_sort` sorts 100, 99, …, 69 and prints the result;
//! it takes no arguments besides `--help`.

use std::process::ExitCode;

use clap::Parser;
use qpu::Device;
use qpu_kernels::qpulib::oet_sort;

#[path = "support/exit.rs"]
mod exit;

/// Sort 32 integers with an odd-even transposition sort on one QPU (QPULib's `OET`).
///
/// Sorts 100, 99, …, 69 and prints the result. The backend is chosen automatically (a
/// Raspberry Pi if there is one, else the emulator); set QPU_BACKEND=emulator,
/// emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "oet_sort")]
struct Cli {}

fn try_main(_cli: &Cli) -> qpu::Result<()> {
    let input: Vec<i32> = (0..32).map(|i| 100 - i).collect();
    for (i, value) in oet_sort::run(&Device::auto()?, &input)?.iter().enumerate() {
        println!("{i}: {value}");
    }
    Ok(())
}

fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

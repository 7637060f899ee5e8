//! The first 16 triangular numbers, one per lane (QPULib's `Tri`):
//! [`qpu_kernels::qpulib::tri`].
//!
//! `cargo run -p qpu-kernels --example tri` prints them; it takes no arguments besides
//! `--help`.

use std::process::ExitCode;

use clap::Parser;
use qpu::Device;
use qpu_kernels::qpulib::tri;

#[path = "support/exit.rs"]
mod exit;

/// Print the first 16 triangular numbers, one per lane of a QPU (QPULib's `Tri`).
///
/// The backend is chosen automatically (a Raspberry Pi if there is one, else the emulator);
/// set QPU_BACKEND=emulator, emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "tri")]
struct Cli {}

fn try_main(_cli: &Cli) -> qpu::Result<()> {
    let result = tri::run(&Device::auto()?)?;
    for (i, value) in result.iter().enumerate() {
        println!("{i}: {value}");
    }
    Ok(())
}

fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

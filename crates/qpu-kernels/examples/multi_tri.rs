//! Triangular numbers of 0..64 on 4 QPUs, each taking its own 16 (QPULib's `MultiTri`):
//! [`qpu_kernels::qpulib::multi_tri`].
//!
//! `cargo run -p qpu-kernels --example multi_tri` prints them; it takes no arguments besides
//! `--help`.

use std::process::ExitCode;

use clap::Parser;
use qpu::Device;
use qpu_kernels::qpulib::multi_tri;

#[path = "support/exit.rs"]
mod exit;

/// Print the triangular numbers of 0..64, computed on 4 QPUs (QPULib's `MultiTri`).
///
/// Each QPU takes its own 16 numbers. The backend is chosen automatically (a Raspberry Pi if
/// there is one, else the emulator); set QPU_BACKEND=emulator, emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "multi_tri")]
struct Cli {}

fn try_main(_cli: &Cli) -> qpu::Result<()> {
    for (i, value) in multi_tri::run(&Device::auto()?)?.iter().enumerate() {
        println!("{i}: {value}");
    }
    Ok(())
}

fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

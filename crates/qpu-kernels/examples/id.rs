//! Each QPU writes its number into its own 16 elements (QPULib's `ID`, on 12 QPUs):
//! [`qpu_kernels::qpulib::id`].
//!
//! `cargo run -p qpu-kernels --example id` prints the elements of as many QPUs as the
//! device's GPU has, up to 12 (8 on a Pi 4 or `QPU_BACKEND=emulator-vc6`); `--qpus N`
//! chooses; see `--help`.

use std::process::ExitCode;

use clap::Parser;
use qpu::Device;
use qpu_kernels::qpulib::id;

#[path = "support/exit.rs"]
mod exit;

/// Print the elements written by each QPU, 16 each (QPULib's `ID`, on 12 QPUs).
///
/// Each QPU stores its own number into its 16 elements. The backend is chosen automatically
/// (a Raspberry Pi if there is one, else the emulator); set QPU_BACKEND=emulator,
/// emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "id")]
struct Cli {
    /// QPUs to run on (default: as many as the device's GPU has, at most 12)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=16))]
    qpus: Option<u32>,
}

fn try_main(cli: &Cli) -> qpu::Result<()> {
    let device = Device::auto()?;
    let qpus = cli.qpus.unwrap_or(device.max_qpus().min(12));
    for (i, value) in id::run_on(&device, qpus)?.iter().enumerate() {
        println!("{i}: {value}");
    }
    Ok(())
}

fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

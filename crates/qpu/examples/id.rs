//! Each QPU writes its number into its own 16 elements (QPULib's `ID`, on 12 QPUs).
//!
//! `cargo run -p qpu --example id` prints the elements of as many QPUs as the device's GPU
//! has, up to 12 (8 on a Pi 4 or `QPU_BACKEND=emulator-vc6`); `--qpus N` chooses; see
//! `--help`.

use std::process::ExitCode;

use clap::Parser;
use qpu::lang::*;
use qpu::{compile, Device};

#[path = "support/exit.rs"]
mod exit;

/// Store `me()` at `p + 16 * me()`.
pub fn id(mut p: Ptr<Int>) {
    p += me() << 4;
    p.store(me());
}

/// Run on 12 QPUs over a zeroed 192-element array.
#[allow(dead_code)] // the tests call it; `main` uses `run_on`
pub fn run(device: &Device) -> qpu::Result<Vec<i32>> {
    run_on(device, 12)
}

/// Run on `qpus` QPUs over a zeroed array of 16 elements per QPU.
pub fn run_on(device: &Device, qpus: u32) -> qpu::Result<Vec<i32>> {
    let mut array = device.alloc::<i32>(16 * qpus as usize)?;
    let mut kernel = compile(id)?;
    kernel.set_num_qpus(qpus)?;
    kernel.run(device, &mut array)?;
    Ok(array.to_vec())
}

/// Print the elements written by each QPU, 16 each (QPULib's `ID`, on 12 QPUs).
///
/// Each QPU stores its own number into its 16 elements. The backend is chosen automatically
/// (a Raspberry Pi if there is one, else the emulator); set QPU_BACKEND=emulator,
/// emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "id")]
#[allow(dead_code)] // only `main` uses it; the tests include this file as a module
struct Cli {
    /// QPUs to run on (default: as many as the device's GPU has, at most 12)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=16))]
    qpus: Option<u32>,
}

#[allow(dead_code)]
fn try_main(cli: &Cli) -> qpu::Result<()> {
    let device = Device::auto()?;
    let qpus = cli.qpus.unwrap_or(device.max_qpus().min(12));
    for (i, value) in run_on(&device, qpus)?.iter().enumerate() {
        println!("{i}: {value}");
    }
    Ok(())
}

#[allow(dead_code)]
fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

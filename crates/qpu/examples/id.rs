//! Twelve QPUs each write their number into their own 16 elements (QPULib's `ID`).
//!
//! `cargo run -p qpu --example id` prints the 192 elements; it takes no arguments besides
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
pub fn run(device: &Device) -> qpu::Result<Vec<i32>> {
    let mut array = device.alloc::<i32>(192)?;
    let mut kernel = compile(id)?;
    kernel.set_num_qpus(12)?;
    kernel.run(device, &mut array)?;
    Ok(array.to_vec())
}

/// Print 192 elements written by 12 QPUs, 16 each (QPULib's `ID`).
///
/// Each QPU stores its own number into its 16 elements. The backend is chosen automatically
/// (a Raspberry Pi if there is one, else the emulator); set QPU_BACKEND=emulator, pi or
/// interpreter to choose it.
#[derive(Parser)]
#[command(name = "id")]
#[allow(dead_code)] // only `main` uses it; the tests include this file as a module
struct Cli {}

#[allow(dead_code)]
fn try_main(_cli: &Cli) -> qpu::Result<()> {
    for (i, value) in run(&Device::auto()?)?.iter().enumerate() {
        println!("{i}: {value}");
    }
    Ok(())
}

#[allow(dead_code)]
fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

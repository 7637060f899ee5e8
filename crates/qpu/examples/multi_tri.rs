//! Triangular numbers of 0..64 on 4 QPUs, each taking its own 16 (QPULib's `MultiTri`).
//!
//! `cargo run -p qpu --example multi_tri` prints them; it takes no arguments besides `--help`.

use std::process::ExitCode;

use clap::Parser;
use qpu::lang::*;
use qpu::{compile, Device};

#[path = "support/exit.rs"]
mod exit;

/// Each QPU handles the 16 elements starting at `16 * me()`.
pub fn tri(mut p: Ptr<Int>) {
    p += me() << 4;
    let mut n = Int::var(p.load());
    let mut sum = Int::var(0);
    while_(any(n.gt(0)), || {
        where_(n.gt(0), || {
            sum += n;
            n -= 1;
        });
    });
    p.store(sum);
}

/// Run on 4 QPUs over `0..64`.
pub fn run(device: &Device) -> qpu::Result<Vec<i32>> {
    let input: Vec<i32> = (0..64).collect();
    let mut array = device.alloc_from(&input)?;
    let mut kernel = compile(tri)?;
    kernel.set_num_qpus(4)?;
    kernel.run(device, &mut array)?;
    Ok(array.to_vec())
}

/// Print the triangular numbers of 0..64, computed on 4 QPUs (QPULib's `MultiTri`).
///
/// Each QPU takes its own 16 numbers. The backend is chosen automatically (a Raspberry Pi if
/// there is one, else the emulator); set QPU_BACKEND=emulator, emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "multi_tri")]
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

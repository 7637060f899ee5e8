//! The first 16 triangular numbers, one per lane (QPULib's `Tri` example).
//!
//! `cargo run -p qpu --example tri` prints them; it takes no arguments besides `--help`.

use std::process::ExitCode;

use clap::Parser;
use qpu::lang::*;
use qpu::{compile, Device};

#[path = "support/exit.rs"]
mod exit;

/// Replace each element `n` with `0 + 1 + … + n`.
pub fn tri(p: Ptr<Int>) {
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

/// Run `tri` over `0..16` and return the array.
pub fn run(device: &Device) -> qpu::Result<Vec<i32>> {
    let input: Vec<i32> = (0..16).collect();
    let mut array = device.alloc_from(&input)?;
    compile(tri)?.run(device, &mut array)?;
    Ok(array.to_vec())
}

/// Print the first 16 triangular numbers, one per lane of a QPU (QPULib's `Tri`).
///
/// The backend is chosen automatically (a Raspberry Pi if there is one, else the emulator);
/// set QPU_BACKEND=emulator, emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "tri")]
#[allow(dead_code)] // only `main` uses it; the tests include this file as a module
struct Cli {}

#[allow(dead_code)]
fn try_main(_cli: &Cli) -> qpu::Result<()> {
    let result = run(&Device::auto()?)?;
    for (i, value) in result.iter().enumerate() {
        println!("{i}: {value}");
    }
    Ok(())
}

#[allow(dead_code)]
fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

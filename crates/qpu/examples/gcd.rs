//! Euclid's algorithm on 16 pairs at once (QPULib's README, example 1).
//!
//! `cargo run -p qpu --example gcd` runs vector version 1; add `-- --unrolled` for version 2,
//! whose loop body is unrolled 32 times by an ordinary Rust `for` loop.

use std::process::ExitCode;

use clap::Parser;
use qpu::lang::*;
use qpu::{compile, Device};

#[path = "support/exit.rs"]
mod exit;
#[path = "support/glibc_rand.rs"]
mod glibc_rand;

/// Vector version 1.
pub fn gcd(p: Ptr<Int>, q: Ptr<Int>, r: Ptr<Int>) {
    let mut a = Int::var(p.load());
    let mut b = Int::var(q.load());
    while_(any(a.ne(b)), || {
        where_(a.gt(b), || a -= b);
        where_(a.lt(b), || b -= a);
    });
    r.store(a);
}

/// Vector version 2: the Rust loop runs at build time, so it unrolls the body 32 times.
pub fn gcd_unrolled(p: Ptr<Int>, q: Ptr<Int>, r: Ptr<Int>) {
    let mut a = Int::var(p.load());
    let mut b = Int::var(q.load());
    while_(any(a.ne(b)), || {
        for _ in 0..32 {
            where_(a.gt(b), || a -= b);
            where_(a.lt(b), || b -= a);
        }
    });
    r.store(a);
}

/// The README's inputs: 16 pairs in 100..=199 from `srand(0)`.
pub fn inputs() -> (Vec<i32>, Vec<i32>) {
    let mut rng = glibc_rand::GlibcRand::new(0);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..16 {
        a.push(100 + rng.rand() % 100);
        b.push(100 + rng.rand() % 100);
    }
    (a, b)
}

/// Run version 1 (or 2) on `device` and return the 16 GCDs.
pub fn run(device: &Device, unrolled: bool, a: &[i32], b: &[i32]) -> qpu::Result<Vec<i32>> {
    let a = device.alloc_from(a)?;
    let b = device.alloc_from(b)?;
    let mut r = device.alloc::<i32>(16)?;
    let kernel = if unrolled {
        compile(gcd_unrolled)?
    } else {
        compile(gcd)?
    };
    kernel.run(device, (&a, &b, &mut r))?;
    Ok(r.to_vec())
}

/// Compute 16 GCDs at once on a QPU with Euclid's algorithm (QPULib's README, example 1).
///
/// Prints the 16 results and the run report. The inputs are QPULib's (C's `srand(0);
/// rand()`). The backend is chosen automatically (a Raspberry Pi if there is one, else the
/// emulator); set QPU_BACKEND=emulator, emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "gcd")]
#[allow(dead_code)] // only `main` uses it; the tests include this file as a module
struct Cli {
    /// Run vector version 2, whose loop body is unrolled 32 times
    #[arg(long)]
    unrolled: bool,
}

#[allow(dead_code)]
fn try_main(cli: &Cli) -> qpu::Result<()> {
    let unrolled = cli.unrolled;
    let device = Device::auto()?;
    let (a, b) = inputs();
    let (pa, pb) = (device.alloc_from(&a)?, device.alloc_from(&b)?);
    let mut r = device.alloc::<i32>(16)?;
    let kernel = if unrolled {
        compile(gcd_unrolled)?
    } else {
        compile(gcd)?
    };
    let report = kernel.run(&device, (&pa, &pb, &mut r))?;
    for i in 0..16 {
        println!("gcd({}, {}) = {}", a[i], b[i], r[i]);
    }
    println!("{report}");
    Ok(())
}

#[allow(dead_code)]
fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

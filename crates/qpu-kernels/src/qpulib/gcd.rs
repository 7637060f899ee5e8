//! Euclid's algorithm on 16 pairs at once (QPULib's README, example 1), in QPULib's two
//! vector versions: version 1 tests the loop condition after every step; version 2 unrolls
//! the loop body 32 times with an ordinary Rust `for` loop, which runs when the kernel is
//! recorded.
//!
//! The example `cargo run -p qpu-kernels --example gcd` prints the 16 results.

use qpu::lang::*;
use qpu::runtime::RunReport;
use qpu::{compile, Device};

use super::glibc_rand::GlibcRand;

/// Vector version 1: `r = gcd(p, q)` lane by lane, by repeated subtraction.
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

/// QPULib's README's inputs: 16 pairs in 100..=199 from C's `srand(0); rand()`.
pub fn inputs() -> (Vec<i32>, Vec<i32>) {
    let mut rng = GlibcRand::new(0);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..16 {
        a.push(100 + rng.rand() % 100);
        b.push(100 + rng.rand() % 100);
    }
    (a, b)
}

/// Run version 1 (or 2, if `unrolled`) on `device` over the 16 pairs `a`, `b`; returns the
/// 16 GCDs.
pub fn run(device: &Device, unrolled: bool, a: &[i32], b: &[i32]) -> qpu::Result<Vec<i32>> {
    Ok(run_with_report(device, unrolled, a, b)?.0)
}

/// [`run`], also returning the run's report.
pub fn run_with_report(
    device: &Device,
    unrolled: bool,
    a: &[i32],
    b: &[i32],
) -> qpu::Result<(Vec<i32>, RunReport)> {
    let a = device.alloc_from(a)?;
    let b = device.alloc_from(b)?;
    let mut r = device.alloc::<i32>(16)?;
    let kernel = if unrolled {
        compile(gcd_unrolled)?
    } else {
        compile(gcd)?
    };
    let report = kernel.run(device, (&a, &b, &mut r))?;
    Ok((r.to_vec(), report))
}

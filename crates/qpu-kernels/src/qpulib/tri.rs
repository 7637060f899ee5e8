//! The first 16 triangular numbers, one per lane (QPULib's `Tri`).
//!
//! The example `cargo run -p qpu-kernels --example tri` prints them.

use qpu::lang::*;
use qpu::{compile, Device};

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

/// Run [`tri`] over `0..16` on one QPU of `device` and return the array.
pub fn run(device: &Device) -> qpu::Result<Vec<i32>> {
    let input: Vec<i32> = (0..16).collect();
    let mut array = device.alloc_from(&input)?;
    compile(tri)?.run(device, &mut array)?;
    Ok(array.to_vec())
}

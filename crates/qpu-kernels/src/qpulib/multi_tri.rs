//! The triangular numbers of 0..64 on 4 QPUs, each taking its own 16 (QPULib's `MultiTri`).
//!
//! The example `cargo run -p qpu-kernels --example multi_tri` prints them.

use qpu::lang::*;
use qpu::{compile, Device};

/// `Tri` on QPU `me()`'s own 16 elements: those starting at `p + 16 * me()`.
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

/// Run [`tri`] on 4 QPUs of `device` over `0..64` and return the array.
pub fn run(device: &Device) -> qpu::Result<Vec<i32>> {
    let input: Vec<i32> = (0..64).collect();
    let mut array = device.alloc_from(&input)?;
    let mut kernel = compile(tri)?;
    kernel.set_num_qpus(4)?;
    kernel.run(device, &mut array)?;
    Ok(array.to_vec())
}

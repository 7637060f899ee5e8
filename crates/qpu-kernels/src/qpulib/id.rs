//! Each QPU writes its number into its own 16 elements (QPULib's `ID`, on 12 QPUs).
//!
//! The example `cargo run -p qpu-kernels --example id` prints the elements.

use qpu::lang::*;
use qpu::{compile, Device};

/// Store `me()` in the 16 elements at `p + 16 * me()`.
pub fn id(mut p: Ptr<Int>) {
    p += me() << 4;
    p.store(me());
}

/// Run [`id`] on 12 QPUs of `device` over a zeroed 192-element array and return it.
pub fn run(device: &Device) -> qpu::Result<Vec<i32>> {
    run_on(device, 12)
}

/// Run [`id`] on `qpus` QPUs of `device` over a zeroed array of 16 elements per QPU and
/// return it.
pub fn run_on(device: &Device, qpus: u32) -> qpu::Result<Vec<i32>> {
    let mut array = device.alloc::<i32>(16 * qpus as usize)?;
    let mut kernel = compile(id)?;
    kernel.set_num_qpus(qpus)?;
    kernel.run(device, &mut array)?;
    Ok(array.to_vec())
}

//! Twelve QPUs each write their number into their own 16 elements (QPULib's `ID`).

use qpu::lang::*;
use qpu::{compile, Device};

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

#[allow(dead_code)]
fn main() -> qpu::Result<()> {
    for (i, value) in run(&Device::auto()?)?.iter().enumerate() {
        println!("{i}: {value}");
    }
    Ok(())
}

//! A kernel with more values live at once than a V3D register file holds (80 variables read
//! at the end), for the tests that run it through the V3D backends, with its scalar
//! reference.

use qpu::lang::*;
use qpu::{compile, Device};

/// Variables the kernel keeps live to its end.
pub const VARIABLES: usize = 80;

/// Each QPU takes its own 16 words of `p`: 80 variables from each word, mixed in a loop of
/// three iterations, summed back into the word.
pub fn many_live(mut p: Ptr<Int>) {
    p += me() << 4;
    let x = Int::var(p.load());
    let vars: Vec<Int> = (0..VARIABLES as i32)
        .map(|i| Int::var(x * (i % 9 + 1) - i))
        .collect();
    let k = Int::var(0);
    while_(any(k.lt(3)), || {
        for i in 0..VARIABLES {
            vars[i].set(vars[i] ^ (vars[(i + 1) % VARIABLES] + k));
        }
        k.set(k + 1);
    });
    let sum = Int::var(0);
    for v in &vars {
        sum.set(sum + *v);
    }
    p.store(sum);
}

/// `many_live` for one word, in scalar Rust.
pub fn scalar(x: i32) -> i32 {
    let mut vars: Vec<i32> = (0..VARIABLES as i32)
        .map(|i| x.wrapping_mul(i % 9 + 1).wrapping_sub(i))
        .collect();
    for k in 0..3 {
        for i in 0..VARIABLES {
            vars[i] ^= vars[(i + 1) % VARIABLES].wrapping_add(k);
        }
    }
    vars.iter().fold(0, |s: i32, &v| s.wrapping_add(v))
}

/// The input: 16 words per QPU.
pub fn input(qpus: u32) -> Vec<i32> {
    (0..16 * qpus as i32).map(|i| i * 7919 - 40_000).collect()
}

/// The spill area each QPU needs for `many_live` on `version` (the tests check it is not 0).
pub fn spill_bytes_per_qpu(version: qpu_isa::v3d::V3dVersion) -> u32 {
    let kernel = compile(many_live).expect("compiles");
    qpu::compiler::v3d::compile(kernel.ast(), version)
        .expect("compiles for V3D")
        .spill_bytes_per_qpu()
}

/// Runs `many_live` on `qpus` QPUs of `device` over [`input`].
pub fn run(device: &Device, qpus: u32) -> qpu::Result<Vec<i32>> {
    let mut array = device.alloc_from(&input(qpus))?;
    let mut kernel = compile(many_live)?;
    kernel.set_num_qpus(qpus)?;
    kernel.run(device, &mut array)?;
    Ok(array.to_vec())
}

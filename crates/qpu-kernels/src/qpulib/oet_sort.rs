//! Odd-even transposition sort of 32 integers held as two vectors (QPULib's `OET`).
//!
//! `evens` holds elements 0, 2, 4, … and `odds` elements 1, 3, 5, …, loaded and stored with
//! a stride of 2. Each iteration compares the pairs (2i, 2i+1), then the pairs (2i+1, 2i+2)
//! by rotating `evens` one lane; 16 iterations (32 phases) sort any 32 elements.
//!
//! The example `cargo run -p qpu-kernels --example oet_sort` sorts 100, 99, …, 69.

use qpu::lang::*;
use qpu::{compile, Device};

/// Sort the 32 ints at `p` in place, ascending.
pub fn oet(p: Ptr<Int>) {
    let evens = Int::var(p.load_strided(2));
    let odds = Int::var((p + 1).load_strided(2));
    for_range(0, 16, 1, |_| {
        let evens2 = Int::var(min(evens, odds));
        let odds2 = Int::var(max(evens, odds));
        let evens3 = Int::var(rotate(evens2, 15));
        let odds3 = Int::var(odds2);
        where_(index().ne(15), || odds2.set(min(evens3, odds3)));
        where_(index().ne(0), || evens2.set(rotate(max(evens3, odds3), 1)));
        evens.set(evens2);
        odds.set(odds2);
    });
    p.store_strided(evens, 2);
    (p + 1).store_strided(odds, 2);
}

/// Sort `data` (32 elements) with [`oet`] on one QPU of `device`.
pub fn run(device: &Device, data: &[i32]) -> qpu::Result<Vec<i32>> {
    let mut array = device.alloc_from(data)?;
    compile(oet)?.run(device, &mut array)?;
    Ok(array.to_vec())
}

//! A semaphore operation completes the QPU's earlier stores first, on every backend: a QPU
//! that passes a `sema_dec` after another QPU's `sema_inc` reads what that QPU stored before
//! it (the barrier the FFT's passes rely on).

use qpu::compiler::v3d::V3dVersion;
use qpu::compiler::{Gpu, Options};
use qpu::lang::*;
use qpu::{compile, Device};

/// QPUs 1.. store non-blocking, then release semaphore 0; QPU 0 takes every release and
/// then reads and sums their rows.
fn kernel(p: Ptr<Int>) {
    if_(all(me().eq(0)), || {
        for_range(1, num_qpus(), 1, |_| sema_dec(0));
        let sum = Int::var(0);
        for_range(1, num_qpus(), 1, |q| sum.set(sum + (p + (q << 4)).load()));
        p.store(sum);
    })
    .else_(|| {
        store(me() * 10 + index(), p + (me() << 4) + index());
        sema_inc(0);
    });
}

#[test]
fn stores_before_a_release_are_seen_after_the_acquire() {
    for device in [
        Device::interpreter(),
        Device::emulator(),
        Device::v3d_emulator(V3dVersion::V42),
    ] {
        let mut k = compile(kernel).unwrap();
        k.set_num_qpus(4).unwrap();
        let mut out = device.alloc_from(&[0i32; 64]).unwrap();
        k.run(&device, &mut out).unwrap();
        for i in 0..16 {
            assert_eq!(out[i], 60 + 3 * i as i32, "lane {i}");
        }
    }
}

/// On the VideoCore IV the wait is explicit: between the store's DMA start (the write of
/// `vw_addr`) and the semaphore release comes a read of `vw_wait`.
#[test]
fn the_vc4_release_waits_for_the_store_dma() {
    let k = compile(kernel).unwrap();
    let listing = k
        .compile_for(Gpu::Vc4, Options::default())
        .unwrap()
        .disassemble();
    let lines: Vec<&str> = listing.lines().collect();
    let release = lines
        .iter()
        .position(|l| l.contains("srel") && !l.trim_start().starts_with('#'))
        .expect("a semaphore release");
    let start = lines[..release]
        .iter()
        .rposition(|l| l.contains("vw_addr"))
        .expect("a store before it");
    assert!(
        lines[start..release].iter().any(|l| l.contains("vw_wait")),
        "{}",
        lines[start..=release].join("\n")
    );
}

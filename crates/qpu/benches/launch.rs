//! Launch overhead on the emulator backends (the VideoCore IV one, then the Pi 4 and Pi 5
//! ones): host time per run of a kernel that does almost
//! nothing (one 16-element load and one store) on two 512x506 `f32` arrays, the size of the
//! HeatMap example's grid. What the emulated QPU does costs about a microsecond of it; the
//! rest is what a launch costs around the kernel (compile cache lookup, uniforms, arrays).
//!
//! Run: `cargo bench -p qpu --bench launch` (`QPU_LAUNCH_BATCHES=n` timed batches of
//! `QPU_LAUNCH_RUNS=m` launches each, defaults 11 and 50). Prints the best and median time
//! per launch over the batches.

use std::time::Instant;

use qpu::lang::*;
use qpu::{compile, Device};
use qpu_isa::v3d::V3dVersion;

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
        .max(1)
}

fn main() {
    let batches = env_count("QPU_LAUNCH_BATCHES", 11);
    let runs = env_count("QPU_LAUNCH_RUNS", 50);
    for device in [
        Device::emulator(),
        Device::v3d_emulator(V3dVersion::V42),
        Device::v3d_emulator(V3dVersion::V71),
    ] {
        measure(&device, batches, runs);
    }
}

/// Times `batches` batches of `runs` launches on `device` and prints the best and median.
fn measure(device: &Device, batches: usize, runs: usize) {
    let len = 512 * 506;
    let input: Vec<f32> = (0..len).map(|i| i as f32).collect();
    let src = device.alloc_from(&input).expect("allocates");
    let mut dst = device.alloc::<f32>(len).expect("allocates");
    let kernel =
        compile(|src: Ptr<Float>, dst: Ptr<Float>| dst.store(src.load() + 1.0)).expect("compiles");
    // The first run compiles the kernel (cached afterwards).
    kernel.run(device, (&src, &mut dst)).expect("runs");
    let mut per_launch: Vec<f64> = (0..batches)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..runs {
                kernel.run(device, (&src, &mut dst)).expect("runs");
            }
            start.elapsed().as_secs_f64() / runs as f64
        })
        .collect();
    per_launch.sort_by(f64::total_cmp);
    assert_eq!(dst[7], 7.0 + 1.0);
    println!(
        "launch overhead, {}, 2 x {len} f32 arrays: best {:.1} us  median {:.1} us per \
         launch ({batches} batches of {runs})",
        device.backend().name(),
        per_launch[0] * 1e6,
        per_launch[batches / 2] * 1e6
    );
}

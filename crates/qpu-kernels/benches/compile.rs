//! Compile time of QPULib's example kernels (`qpu_kernels::qpulib`; the HeatMap step above
//! all: QPULib compiles it in 0.83 ms on its authors' machine), for the VideoCore IV and both
//! V3D versions. Prints the best and the median host time per compile over the timed runs.
//!
//! Run: `cargo bench -p qpu-kernels --bench compile` (`QPU_COMPILE_RUNS=n` timed compiles
//! per kernel and GPU, default 200). Deterministic cost: `QPU_COMPILE_PROFILE=vc4|vc6|vc7`
//! compiles HeatMap 20 times inside `profiled_compiles`, for
//! `valgrind --tool=callgrind --toggle-collect='*profiled_compiles*' target/release/deps/compile-<hash>`.

use std::time::{Duration, Instant};

use qpu::compiler::{Gpu, Options, Program};
use qpu_kernels::qpulib::{gcd, heatmap, rot3d, tri};

/// A recorded kernel, compiled on demand for a GPU with default options
/// (`Kernel::compile_for`, the entry point every backend uses).
type Compile = Box<dyn Fn(Gpu) -> Program>;

fn compiler<P: 'static>(kernel: qpu::Kernel<P>) -> Compile {
    Box::new(move |gpu| {
        kernel
            .compile_for(gpu, Options::default())
            .expect("compiles")
    })
}

fn kernels() -> Vec<(&'static str, Compile)> {
    vec![
        ("heatmap", compiler(qpu::compile(heatmap::step).unwrap())),
        ("rot3d", compiler(qpu::compile(rot3d::rot3d_3).unwrap())),
        ("gcd", compiler(qpu::compile(gcd::gcd).unwrap())),
        ("tri", compiler(qpu::compile(tri::tri).unwrap())),
    ]
}

fn gpus() -> [(&'static str, Gpu); 3] {
    [("vc4", Gpu::Vc4), ("vc6", Gpu::Vc6), ("vc7", Gpu::Vc7)]
}

#[inline(never)]
fn profiled_compiles(compile: &Compile, gpu: Gpu) {
    for _ in 0..20 {
        std::hint::black_box(compile(gpu));
    }
}

fn main() {
    let kernels = kernels();
    if let Ok(which) = std::env::var("QPU_COMPILE_PROFILE") {
        let (_, gpu) = gpus()
            .into_iter()
            .find(|(name, _)| *name == which)
            .expect("QPU_COMPILE_PROFILE is vc4, vc6 or vc7");
        profiled_compiles(&kernels[0].1, gpu);
        return;
    }
    let runs: usize = std::env::var("QPU_COMPILE_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);
    println!("| kernel | GPU | best | median |");
    println!("|---|---|---|---|");
    for (name, kernel) in &kernels {
        for (gpu_name, gpu) in gpus() {
            let mut times: Vec<Duration> = (0..runs.max(1))
                .map(|_| {
                    let start = Instant::now();
                    std::hint::black_box(kernel(gpu));
                    start.elapsed()
                })
                .collect();
            times.sort();
            println!(
                "| {name} | {gpu_name} | {:.3} ms | {:.3} ms |",
                times[0].as_secs_f64() * 1e3,
                times[times.len() / 2].as_secs_f64() * 1e3
            );
        }
    }
}

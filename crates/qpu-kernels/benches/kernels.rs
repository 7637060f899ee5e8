//! Emulator speed on compiled kernels: QPULib's HeatMap step (512x506 grid) and Rot3D v3
//! (192,000 vertices), on 1 and 12 QPUs, as `qpu bench` sets them up. Prints issued
//! (emulated) instructions per host second: best and median of the timed runs.
//!
//! Run: `cargo bench -p qpu-kernels --bench kernels` (`QPU_KERNEL_RUNS=n` timed runs per
//! workload, default 5). Deterministic cost: with `QPU_KERNEL_PROFILE=heat1|heat12|rot1|rot12`
//! the binary runs that workload once (after a first run that compiles it) inside
//! `profiled_run`, for
//! `valgrind --tool=callgrind --toggle-collect='*profiled_run*' target/release/deps/kernels-<hash>`.

use std::time::Instant;

use qpu::{compile, Device};
use qpu_kernels::qpulib::heatmap;
use qpu_kernels::qpulib::rot3d::rot3d_3;

type Run = Box<dyn FnMut() -> u64>;

/// The workloads: name, profiling key, and a closure that runs the kernel once and returns
/// the instructions all QPUs issued.
fn workloads(device: &'static Device) -> Vec<(String, &'static str, Run)> {
    let mut out: Vec<(String, &'static str, Run)> = Vec::new();
    for (qpus, key) in [(1u32, "heat1"), (12, "heat12")] {
        let (width, height) = (496usize, 504usize);
        let (ncols, nrows) = (width + 16, height + 2);
        let initial: Vec<f32> = (0..ncols * nrows)
            .map(|i| if i % 97 == 0 { (i % 1000) as f32 } else { 0.0 })
            .collect();
        let mut k = compile(heatmap::step).expect("heatmap compiles");
        k.set_num_qpus(qpus).unwrap();
        let src = device.alloc_from(&initial).unwrap();
        let mut dst = device.alloc::<f32>(initial.len()).unwrap();
        out.push((
            format!("heatmap step, {qpus} QPU(s)"),
            key,
            Box::new(move || {
                let report = k
                    .run(
                        device,
                        (&src, &mut dst, ncols as i32, width as i32, height as i32),
                    )
                    .unwrap();
                report.qpus.iter().map(|q| q.steps).sum()
            }),
        ));
    }
    for (qpus, key) in [(1u32, "rot1"), (12, "rot12")] {
        let n = 192_000usize;
        let coords: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let mut k = compile(rot3d_3).expect("rot3d compiles");
        k.set_num_qpus(qpus).unwrap();
        let mut x = device.alloc_from(&coords).unwrap();
        let mut y = device.alloc_from(&coords).unwrap();
        let (cos, sin) = (0.3f32.cos(), 0.3f32.sin());
        out.push((
            format!("rot3d v3, {qpus} QPU(s)"),
            key,
            Box::new(move || {
                let report = k.run(device, (n as i32, cos, sin, &mut x, &mut y)).unwrap();
                report.qpus.iter().map(|q| q.steps).sum()
            }),
        ));
    }
    out
}

#[inline(never)]
fn profiled_run(run: &mut Run) -> u64 {
    run()
}

fn main() {
    let device: &'static Device = Box::leak(Box::new(Device::auto().expect("a device")));
    let mut workloads = workloads(device);
    if let Ok(key) = std::env::var("QPU_KERNEL_PROFILE") {
        let Some((name, _, run)) = workloads.iter_mut().find(|w| w.1 == key) else {
            eprintln!("QPU_KERNEL_PROFILE={key}: expected one of heat1, heat12, rot1, rot12");
            std::process::exit(2);
        };
        // A first run compiles the kernel (cached): profile the second.
        run();
        let issued = profiled_run(run);
        println!("{name}: {issued} issued instructions");
        return;
    }
    let runs: usize = std::env::var("QPU_KERNEL_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(5)
        .max(1);
    println!("backend: {}", device.backend().name());
    for (name, _, run) in &mut workloads {
        let issued = run();
        let mut rates: Vec<f64> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                run();
                issued as f64 / start.elapsed().as_secs_f64()
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        println!(
            "{name:<26} {issued:>10} issued instructions  best {:>6.1} M/s  median {:>6.1} M/s",
            rates[runs - 1] / 1e6,
            rates[runs / 2] / 1e6
        );
    }
}

//! Rotate vertices about the Z axis (QPULib's README, example 2), in three versions:
//! blocking loads and stores; gather/receive/store pipelining; and the pipelined kernel
//! split across QPUs.
//!
//! `cargo run --release -p qpu --example rot3d` checks every version against the scalar code
//! and prints QPULib's table (version, QPUs, time). Where the backend models the GPU's time
//! (the emulator, at 250 MHz) or measures it (a Pi), the table shows that time; the host time
//! is shown separately, since emulating 12 QPUs takes the host longer than emulating one.
//! `--qpus 1,4,12` chooses the QPU counts of version 3's rows.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use qpu::lang::*;
use qpu::runtime::RunReport;
use qpu::{compile, Device};

#[path = "support/exit.rs"]
mod exit;

/// Scalar version on the host, with the QPU's float arithmetic ([`qpu::float`]: products
/// and sums truncate toward zero) so that its results match the kernels' bit for bit.
pub fn rot3d_scalar(n: usize, cos: f32, sin: f32, x: &mut [f32], y: &mut [f32]) {
    use qpu::float::{add, mul, sub};
    for i in 0..n {
        let (x_old, y_old) = (x[i], y[i]);
        x[i] = sub(mul(x_old, cos), mul(y_old, sin));
        y[i] = add(mul(y_old, cos), mul(x_old, sin));
    }
}

/// Scalar version with IEEE single-precision arithmetic, rounding to nearest: what the Pi 4/5
/// GPU (V3D) computes, for the backends that run V3D code.
pub fn rot3d_scalar_nearest(n: usize, cos: f32, sin: f32, x: &mut [f32], y: &mut [f32]) {
    for i in 0..n {
        let (x_old, y_old) = (x[i], y[i]);
        x[i] = x_old * cos - y_old * sin;
        y[i] = y_old * cos + x_old * sin;
    }
}

/// Whether `device` runs V3D code (Pi 4/5, or their emulators), whose floats round to
/// nearest rather than toward zero.
pub fn runs_v3d_code(device: &Device) -> bool {
    matches!(
        device.backend().name(),
        "emulator-vc6" | "emulator-vc7" | "pi-v3d"
    )
}

/// Vector version 1: 16 vertices per iteration, blocking loads and stores.
pub fn rot3d_1(n: Int, cos: Float, sin: Float, x: Ptr<Float>, y: Ptr<Float>) {
    for_range(0, n, 16, |i| {
        let x_old = Float::var(x.at(i).load());
        let y_old = Float::var(y.at(i).load());
        x.at(i).store(x_old * cos - y_old * sin);
        y.at(i).store(y_old * cos + x_old * sin);
    });
}

/// Vector version 2: prefetch the next iteration's vectors while this one computes.
pub fn rot3d_2(n: Int, cos: Float, sin: Float, x: Ptr<Float>, y: Ptr<Float>) {
    let mut p = Ptr::var(x + index());
    let mut q = Ptr::var(y + index());
    gather(p);
    gather(q);
    let (x_old, y_old) = (Float::var(0.0), Float::var(0.0));
    for_range(0, n, 16, |_| {
        gather(p + 16);
        gather(q + 16);
        receive(x_old);
        receive(y_old);
        store(x_old * cos - y_old * sin, p);
        store(y_old * cos + x_old * sin, q);
        p += 16;
        q += 16;
    });
    // Discard the vectors prefetched by the last iteration.
    receive(x_old);
    receive(y_old);
}

/// Vector version 3: QPU `me()` takes every `num_qpus()`-th block of 16 vertices.
pub fn rot3d_3(n: Int, cos: Float, sin: Float, x: Ptr<Float>, y: Ptr<Float>) {
    let inc = Int::var(num_qpus() << 4);
    let mut p = Ptr::var(x + index() + (me() << 4));
    let mut q = Ptr::var(y + index() + (me() << 4));
    gather(p);
    gather(q);
    let (x_old, y_old) = (Float::var(0.0), Float::var(0.0));
    for_range(0, n, inc, |_| {
        gather(p + inc);
        gather(q + inc);
        receive(x_old);
        receive(y_old);
        store(x_old * cos - y_old * sin, p);
        store(y_old * cos + x_old * sin, q);
        p += inc;
        q += inc;
    });
    // Discard the vectors prefetched by the last iteration.
    receive(x_old);
    receive(y_old);
}

/// Number of vertices in QPULib's Rot3D program.
pub const N: usize = 19_200;
/// Rotation angle used by QPULib's Rot3D program (its literal, deliberately not `PI`).
#[allow(clippy::approx_constant)]
pub const THETA: f32 = 3.14159;

/// How long one run took: the backend's report (with the GPU's modelled or measured time,
/// where it has one) and the host's wall-clock time for the launch.
#[allow(dead_code)] // only `main` reads it; the tests include this file as a module
pub struct Timing {
    /// The backend's report of the run.
    pub report: RunReport,
    /// Host time from launch to results (for the emulator: the time to emulate the run).
    pub host: Duration,
}

/// Run vector version `version` (1..=3) on `num_qpus` QPUs over vertices `(i, i)`,
/// returning the rotated coordinates and how long the run took. The arrays are padded with
/// zero vertices to a multiple of 16 per QPU, so that any `n` and QPU count work.
pub fn run(
    device: &Device,
    version: u32,
    num_qpus: u32,
    n: usize,
) -> qpu::Result<(Vec<f32>, Vec<f32>, Timing)> {
    let padded = n.next_multiple_of(16 * num_qpus as usize);
    let coords: Vec<f32> = (0..padded)
        .map(|i| if i < n { i as f32 } else { 0.0 })
        .collect();
    let mut x = device.alloc_from(&coords)?;
    let mut y = device.alloc_from(&coords)?;
    let mut kernel = match version {
        1 => compile(rot3d_1)?,
        2 => compile(rot3d_2)?,
        _ => compile(rot3d_3)?,
    };
    kernel.set_num_qpus(num_qpus)?;
    let start = Instant::now();
    let report = kernel.run(
        device,
        (padded as i32, THETA.cos(), THETA.sin(), &mut x, &mut y),
    )?;
    let host = start.elapsed();
    let (mut x, mut y) = (x.to_vec(), y.to_vec());
    x.truncate(n);
    y.truncate(n);
    Ok((x, y, Timing { report, host }))
}

/// What a backend tells about the GPU's own time for a run.
#[derive(Debug, Clone, Copy, PartialEq)]
enum GpuClock {
    /// Modelled from the cycle count at this clock (MHz): the emulator.
    Modelled(f64),
    /// Measured on the hardware: the Pi.
    Measured,
    /// Not known: the interpreter runs the kernel's statements, with no notion of cycles.
    Unknown,
}

/// The GPU time of a run in seconds, and how it was obtained.
fn gpu_time(report: &RunReport) -> (GpuClock, Option<f64>) {
    let counter = |name: &str| {
        report
            .counters
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, v)| v)
    };
    match (report.cycles, counter("modelled_ns"), counter("elapsed_ns")) {
        (Some(cycles), Some(ns), _) if ns > 0 => (
            GpuClock::Modelled(cycles as f64 * 1e3 / ns as f64),
            Some(ns as f64 * 1e-9),
        ),
        (_, _, Some(ns)) => (GpuClock::Measured, Some(ns as f64 * 1e-9)),
        _ => (GpuClock::Unknown, None),
    }
}

/// Rotate 19,200 vertices with QPULib's three vector versions and print their times.
///
/// Checks each version (QPULib's README, example 2) against the scalar code and prints
/// QPULib's timing table. Where the backend models the GPU's time (the emulator, at 250 MHz)
/// or measures it (a Pi), the table shows it next to the host's time. The backend is chosen
/// automatically (a Raspberry Pi if there is one, else the emulator); set
/// QPU_BACKEND=emulator, emulator-vc6, emulator-vc7, pi, pi-v3d or interpreter to choose it.
#[derive(Parser)]
#[command(name = "rot3d")]
#[allow(dead_code)] // only `main` uses it; the tests include this file as a module
pub struct Cli {
    /// QPU counts (1..=12) to run vector version 3 on, one table row each
    #[arg(
        long,
        value_name = "N",
        value_delimiter = ',',
        num_args = 1..,
        default_value = "1,2,12",
        value_parser = clap::value_parser!(u32).range(1..=12)
    )]
    qpus: Vec<u32>,
}

#[allow(dead_code)]
fn try_main(cli: &Cli) -> Result<(), Box<dyn std::error::Error>> {
    let device = Device::auto()?;
    let mut x: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let mut y = x.clone();
    let start = Instant::now();
    if runs_v3d_code(&device) {
        rot3d_scalar_nearest(N, THETA.cos(), THETA.sin(), &mut x, &mut y);
    } else {
        rot3d_scalar(N, THETA.cos(), THETA.sin(), &mut x, &mut y);
    }
    let scalar = start.elapsed();

    let setups = [(1, 1), (2, 1)]
        .into_iter()
        .chain(cli.qpus.iter().map(|&q| (3, q)));
    let mut rows = Vec::new();
    for (version, num_qpus) in setups {
        let (vx, vy, timing) = run(&device, version, num_qpus, N)?;
        if vx != x || vy != y {
            return Err(format!(
                "vector version {version} on {num_qpus} QPU(s) disagrees with the scalar code"
            )
            .into());
        }
        rows.push((version, num_qpus, timing));
    }

    let backend = device.backend().name();
    let clock = gpu_time(&rows[0].2.report).0;
    let (gpu_heading, host_heading) = match clock {
        GpuClock::Modelled(mhz) => (
            format!("GPU time (s), modelled at {mhz:.0} MHz"),
            "Host time (s), emulation",
        ),
        GpuClock::Measured => ("GPU time (s), measured".to_string(), "Host time (s)"),
        GpuClock::Unknown => ("GPU time (s)".to_string(), "Host time (s), interpreter"),
    };
    let (gw, hw) = (gpu_heading.len(), host_heading.len());
    println!("Times taken to rotate an object with {N} vertices on the {backend}:");
    println!();
    println!("  Version  | Number of QPUs | {gpu_heading} | {host_heading} |");
    println!(
        "  ---------| -------------: | {:->gw$}: | {:->hw$}: |",
        "",
        "",
        gw = gw - 1,
        hw = hw - 1
    );
    let secs = |s: f64| format!("{s:.6}");
    println!(
        "  Scalar   | 0              | {:>gw$} | {:>hw$} |",
        "-",
        secs(scalar.as_secs_f64())
    );
    for (version, num_qpus, timing) in &rows {
        let gpu = gpu_time(&timing.report)
            .1
            .map_or_else(|| "not modelled".to_string(), secs);
        println!(
            "  Vector {version} | {num_qpus:<14} | {gpu:>gw$} | {:>hw$} |",
            secs(timing.host.as_secs_f64())
        );
    }
    println!();
    let notes = match clock {
        GpuClock::Modelled(mhz) => [
            format!("GPU time: what the {backend}'s cycle model says a Pi's QPUs take, at {mhz:.0} MHz."),
            "Host time: how long this machine took. For the vector versions that is the time to \
             emulate"
                .to_string(),
            "the QPUs, all on one host thread: it says nothing about how the versions compare on \
             a Pi."
                .to_string(),
        ],
        GpuClock::Measured => [
            "GPU time: measured on the Pi, from launch to completion.".to_string(),
            "Host time: the whole call, which also copies the arrays and compiles the kernel."
                .to_string(),
            String::new(),
        ],
        GpuClock::Unknown => [
            format!("The {backend} does not model GPU time. Host time is how long this machine"),
            "took to interpret the kernels, which says nothing about a Pi's speed; the emulator"
                .to_string(),
            "models it (QPU_BACKEND=emulator).".to_string(),
        ],
    };
    for line in notes.iter().filter(|line| !line.is_empty()) {
        println!("{line}");
    }
    Ok(())
}

#[allow(dead_code)]
fn main() -> ExitCode {
    exit::finish(try_main(&Cli::parse()))
}

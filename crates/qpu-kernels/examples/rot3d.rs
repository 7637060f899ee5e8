//! Rotate vertices about the Z axis (QPULib's README, example 2), in three versions:
//! blocking loads and stores; gather/receive/store pipelining; and the pipelined kernel
//! split across QPUs ([`qpu_kernels::qpulib::rot3d`]).
//!
//! `cargo run --release -p qpu-kernels --example rot3d` checks every version against the
//! scalar code and prints QPULib's table (version, QPUs, time). Where the backend models the
//! GPU's time (the emulator, at 250 MHz) or measures it (a Pi), the table shows that time;
//! the host time is shown separately, since emulating 12 QPUs takes the host longer than
//! emulating one. `--qpus 1,4,12` chooses the QPU counts of version 3's rows.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use qpu::runtime::RunReport;
use qpu::Device;
use qpu_kernels::qpulib::rot3d::{
    rot3d_scalar, rot3d_scalar_nearest, run, runs_v3d_code, N, THETA,
};

#[path = "support/exit.rs"]
mod exit;

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

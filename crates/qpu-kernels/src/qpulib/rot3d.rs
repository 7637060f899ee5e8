//! Rotate vertices about the Z axis (QPULib's README, example 2), in QPULib's three vector
//! versions: blocking loads and stores; gather/receive/store pipelining; and the pipelined
//! kernel split across QPUs. Beside them, the scalar code they are checked against.
//!
//! The example `cargo run --release -p qpu-kernels --example rot3d` checks every version
//! against the scalar code and prints QPULib's timing table.

use std::time::{Duration, Instant};

use qpu::lang::*;
use qpu::runtime::RunReport;
use qpu::{compile, Device};

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

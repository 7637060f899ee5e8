//! Rotate vertices about the Z axis (QPULib's README, example 2), in three versions:
//! blocking loads and stores; gather/receive/store pipelining; and the pipelined kernel
//! split across QPUs.
//!
//! `cargo run -p qpu --example rot3d` prints the README's table (version, QPUs, run time) for
//! this machine's interpreter, after checking every version against the scalar code.

use std::time::Instant;

use qpu::lang::*;
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

/// Run vector version `version` (1..=3) on `num_qpus` QPUs over vertices `(i, i)`,
/// returning the rotated coordinates and the run time.
pub fn run(
    device: &Device,
    version: u32,
    num_qpus: u32,
    n: usize,
) -> qpu::Result<(Vec<f32>, Vec<f32>, std::time::Duration)> {
    let coords: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut x = device.alloc_from(&coords)?;
    let mut y = device.alloc_from(&coords)?;
    let mut kernel = match version {
        1 => compile(rot3d_1)?,
        2 => compile(rot3d_2)?,
        _ => compile(rot3d_3)?,
    };
    kernel.set_num_qpus(num_qpus)?;
    let start = Instant::now();
    kernel.run(device, (n as i32, THETA.cos(), THETA.sin(), &mut x, &mut y))?;
    Ok((x.to_vec(), y.to_vec(), start.elapsed()))
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let device = Device::auto()?;
    let mut x: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let mut y = x.clone();
    let start = Instant::now();
    rot3d_scalar(N, THETA.cos(), THETA.sin(), &mut x, &mut y);
    let scalar = start.elapsed();

    println!(
        "Times taken to rotate an object with {N} vertices (qpu {}):",
        device.backend().name()
    );
    println!();
    println!("  Version  | Number of QPUs | Run-time (s) |");
    println!("  ---------| -------------: | -----------: |");
    println!(
        "  Scalar   | 0              | {:12.6} |",
        scalar.as_secs_f64()
    );
    for (version, num_qpus) in [(1, 1), (2, 1), (3, 1), (3, 2), (3, 12)] {
        let (vx, vy, time) = run(&device, version, num_qpus, N)?;
        if vx != x || vy != y {
            return Err(format!("vector version {version} disagrees with the scalar code").into());
        }
        println!(
            "  Vector {version} | {num_qpus:<14} | {:12.6} |",
            time.as_secs_f64()
        );
    }
    Ok(())
}

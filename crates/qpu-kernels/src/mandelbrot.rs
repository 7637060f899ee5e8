//! The Mandelbrot set: escape-time iteration counts for a grid of points, one pixel per lane,
//! rows shared out among the QPUs.
//!
//! ```
//! use qpu_kernels::mandelbrot::{Mandelbrot, View};
//!
//! let view = View { width: 40, height: 3, ..View::default() };
//! let (counts, _) = Mandelbrot::new()?.render(&qpu::Device::interpreter(), &view)?;
//! assert_eq!(counts.len(), 40 * 3);
//! # Ok::<(), qpu::Error>(())
//! ```
//!
//! The arithmetic is the QPU's: on the VideoCore IV products and sums round toward zero
//! ([`qpu::float`]), which the scalar [`View::reference`] follows operation by operation;
//! the Pi 4/5 GPUs (V3D) round to nearest even, which [`View::reference_nearest`] follows
//! with Rust's own `f32` operations. [`View::reference_for`] picks the one a device's
//! float unit uses, so the counts agree exactly on every backend. (Escape counts are
//! sensitive to the last bit near the set's boundary: the two roundings give different
//! counts for some pixels.)

use qpu::float::{add, mul, sub};
use qpu::lang::*;
use qpu::runtime::RunReport;
use qpu::{Device, Kernel};

/// The kernel: for each pixel (x, y) of a `width` × `height` grid, c = (x0 + x·dx,
/// y0 + y·dy); iterate z ← z² + c from 0 while |z|² < 4, at most `max_iter` times, and store
/// the number of iterations at `out[y·width + x]`. QPU `me()` takes rows `me()`,
/// `me() + num_qpus()`, ….
#[allow(clippy::too_many_arguments)]
pub fn kernel(
    out: Ptr<Int>,
    width: Int,
    height: Int,
    x0: Float,
    y0: Float,
    dx: Float,
    dy: Float,
    max_iter: Int,
) {
    let (zr, zi, zr2, zi2) = (
        Float::var(0.0),
        Float::var(0.0),
        Float::var(0.0),
        Float::var(0.0),
    );
    let (cr, ci) = (Float::var(0.0), Float::var(0.0));
    let n = Int::var(0);
    for_(
        me(),
        |y| y.lt(height),
        |y| y + num_qpus(),
        |y| {
            ci.set(y0 + y.to_float() * dy);
            let row = Ptr::var(out + y * width);
            for_range(0, width, 16, |x| {
                cr.set(x0 + (x + index()).to_float() * dx);
                zr.set(0.0);
                zi.set(0.0);
                zr2.set(0.0);
                zi2.set(0.0);
                n.set(0);
                let running = || (zr2 + zi2).lt(4.0) & n.lt(max_iter);
                while_(any(running()), || {
                    where_(running(), || {
                        zi.set(zr * zi * 2.0 + ci);
                        zr.set(zr2 - zi2 + cr);
                        n.set(n + 1);
                    });
                    zr2.set(zr * zr);
                    zi2.set(zi * zi);
                });
                (row + x).store_first(width - x, n);
            });
        },
    );
}

/// The kernel's parameters, in order.
pub type Params = (Ptr<Int>, Int, Int, Float, Float, Float, Float, Int);

/// A rectangle of the complex plane sampled on a grid, and the iteration limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Real part of the left column.
    pub x0: f32,
    /// Imaginary part of the top row.
    pub y0: f32,
    /// Real step between columns.
    pub dx: f32,
    /// Imaginary step between rows.
    pub dy: f32,
    /// Iterations at most.
    pub max_iter: u32,
}

impl Default for View {
    /// The whole set, 640 × 480, x in [-2.5, 1), y in [-1.3125, 1.3125), 256 iterations.
    fn default() -> View {
        View {
            width: 640,
            height: 480,
            x0: -2.5,
            y0: -1.3125,
            dx: 3.5 / 640.0,
            dy: 2.625 / 480.0,
            max_iter: 256,
        }
    }
}

impl View {
    /// The same counts in scalar Rust with the QPU's float arithmetic, operation by
    /// operation as the kernel does them.
    pub fn reference(&self) -> Vec<u32> {
        let mut counts = Vec::with_capacity((self.width * self.height) as usize);
        for y in 0..self.height {
            let ci = add(self.y0, mul(y as f32, self.dy));
            for x in 0..self.width {
                let cr = add(self.x0, mul(x as f32, self.dx));
                let (mut zr, mut zi, mut zr2, mut zi2, mut n) = (0.0, 0.0, 0.0, 0.0, 0);
                while add(zr2, zi2) < 4.0 && n < self.max_iter {
                    zi = add(mul(mul(zr, zi), 2.0), ci);
                    zr = add(sub(zr2, zi2), cr);
                    n += 1;
                    zr2 = mul(zr, zr);
                    zi2 = mul(zi, zi);
                }
                counts.push(n);
            }
        }
        counts
    }

    /// The same counts in scalar Rust with IEEE single precision rounded to nearest even, the
    /// V3D float unit's arithmetic (Pi 4/5), operation by operation as the kernel does them.
    pub fn reference_nearest(&self) -> Vec<u32> {
        let mut counts = Vec::with_capacity((self.width * self.height) as usize);
        for y in 0..self.height {
            let ci = self.y0 + y as f32 * self.dy;
            for x in 0..self.width {
                let cr = self.x0 + x as f32 * self.dx;
                let (mut zr, mut zi, mut zr2, mut zi2, mut n) = (0.0f32, 0.0f32, 0.0, 0.0, 0);
                while zr2 + zi2 < 4.0 && n < self.max_iter {
                    zi = zr * zi * 2.0 + ci;
                    zr = zr2 - zi2 + cr;
                    n += 1;
                    zr2 = zr * zr;
                    zi2 = zi * zi;
                }
                counts.push(n);
            }
        }
        counts
    }

    /// The reference for the float unit `device` runs kernels on: [`View::reference_nearest`]
    /// for the V3D backends (`emulator-vc6`, `emulator-vc7`, `pi-v3d`), else
    /// [`View::reference`].
    pub fn reference_for(&self, device: &Device) -> Vec<u32> {
        if runs_v3d_code(device) {
            self.reference_nearest()
        } else {
            self.reference()
        }
    }
}

/// Whether `device` runs V3D code (Pi 4/5 or their emulators), whose floats round to nearest
/// even rather than toward zero.
pub fn runs_v3d_code(device: &Device) -> bool {
    matches!(
        device.backend().name(),
        "emulator-vc6" | "emulator-vc7" | "pi-v3d"
    )
}

/// The compiled Mandelbrot kernel.
pub struct Mandelbrot {
    kernel: Kernel<Params>,
}

impl Mandelbrot {
    /// Compile the kernel (for one QPU; see [`Mandelbrot::kernel`]).
    pub fn new() -> qpu::Result<Mandelbrot> {
        Ok(Mandelbrot {
            kernel: qpu::compile(kernel)?,
        })
    }

    /// Compile the kernel for `num_qpus` QPUs (1..=16; at most the device's GPU has), as
    /// every library type sets its QPU count.
    pub fn with_qpus(num_qpus: u32) -> qpu::Result<Mandelbrot> {
        let mut m = Mandelbrot::new()?;
        m.kernel.set_num_qpus(num_qpus)?;
        Ok(m)
    }

    /// The compiled kernel (its listing, its QPU count).
    pub fn kernel(&mut self) -> &mut Kernel<Params> {
        &mut self.kernel
    }

    /// Iteration counts of `view`, row by row, with the device's report.
    pub fn render(&self, device: &Device, view: &View) -> qpu::Result<(Vec<u32>, RunReport)> {
        let arg = |name: &str, v: u32| {
            i32::try_from(v).map_err(|_| qpu::Error::Arguments(format!("{name} {v} is too large")))
        };
        let (w, h, max) = (
            arg("width", view.width)?,
            arg("height", view.height)?,
            arg("max_iter", view.max_iter)?,
        );
        let pixels = (view.width as usize)
            .checked_mul(view.height as usize)
            .ok_or_else(|| qpu::Error::Arguments("the image is too large".to_string()))?;
        let mut out = device.alloc::<u32>(pixels)?;
        let report = self.kernel.run(
            device,
            (&mut out, w, h, view.x0, view.y0, view.dx, view.dy, max),
        )?;
        Ok((out.to_vec(), report))
    }
}

/// An iteration count as a colour: black inside the set, a smooth ramp outside.
pub fn colour(count: u32, max_iter: u32) -> [u8; 3] {
    if count >= max_iter {
        return [0, 0, 0];
    }
    let t = count as f32 / max_iter as f32;
    let ramp = |k: f32| (255.0 * k.clamp(0.0, 1.0)) as u8;
    [
        ramp(9.0 * (1.0 - t) * t * t * t),
        ramp(15.0 * (1.0 - t) * (1.0 - t) * t * t),
        ramp(8.5 * (1.0 - t) * (1.0 - t) * (1.0 - t) * t),
    ]
}

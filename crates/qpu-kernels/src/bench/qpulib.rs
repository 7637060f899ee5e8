//! QPULib's examples' rows ([`crate::qpulib`]): static and issued instructions, cycles,
//! modelled time and compile time on the strict emulator, beside QPULib's figures for the
//! same setups (counted by running QPULib's own emulator on its examples), and on the V3D
//! emulators.

use std::sync::Arc;

use qpu::compiler::v3d::V3dVersion;
use qpu::compiler::{CompileError, Program};
use qpu::runtime::{Backend, Emulator, Launch, RunReport, SharedMemory};
use qpu::{compile, Device};

use super::{
    compile_time, listing_of, v3d, vc4, CompileVc4, ExampleNumbers, V3dExampleNumbers, V3dRun,
};
use crate::qpulib::heatmap::{self, Grid};
use crate::qpulib::{gcd, oet_sort, rot3d, tri};

fn numbers(
    name: &str,
    compile: CompileVc4<'_>,
    backend: &Emulator,
    qpulib: (Option<usize>, Option<u64>),
    correct: bool,
) -> qpu::Result<ExampleNumbers> {
    let (static_instructions, compile_time) = compile_time(compile)?;
    let report = backend.last_report().ok_or_else(|| qpu::Error::Backend {
        backend: backend.name().to_string(),
        message: "no run report".to_string(),
    })?;
    Ok(ExampleNumbers {
        name: name.to_string(),
        qpus: report.qpus.len() as u32,
        static_instructions,
        issued_instructions: report.total.instructions,
        cycles: report.cycles,
        time_us: report.cycles as f64 / 250.0,
        compile_time,
        qpulib_static: qpulib.0,
        qpulib_issued: qpulib.1,
        correct,
        metric: None,
        log2n: None,
        batch: None,
    })
}

/// A device on a fresh emulator backend, and a handle to read its reports.
fn emulator() -> (Device, Arc<Emulator>) {
    let emu = Arc::new(Emulator::new());
    (Device::new(SharedEmulator(emu.clone())), emu)
}

struct SharedEmulator(Arc<Emulator>);

impl Backend for SharedEmulator {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn alloc(&self, words: usize) -> qpu::Result<Box<dyn SharedMemory>> {
        self.0.alloc(words)
    }
    fn run(&self, launch: &mut Launch<'_>) -> qpu::Result<RunReport> {
        self.0.run(launch)
    }
}

/// The GCD of each pair by Euclid's remainder algorithm (an independent route from the
/// kernel's subtractions).
fn euclid_gcds(a: &[i32], b: &[i32]) -> Vec<i32> {
    let euclid = |mut a: i32, mut b: i32| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    a.iter().zip(b).map(|(&a, &b)| euclid(a, b)).collect()
}

/// The HeatMap rows' initial map on QPULib's grid (496 × 504 inside the border): a point
/// every 97 floats set to its index modulo 1000.
fn heat_initial() -> Vec<f32> {
    let grid = Grid::QPULIB;
    let mut initial = vec![0.0f32; grid.ncols() * grid.nrows()];
    for (i, v) in initial.iter_mut().enumerate() {
        if i % 97 == 0 {
            *v = (i % 1000) as f32;
        }
    }
    initial
}

/// Whether the Rot3D rows' output `xs`, `ys` is `reference` (one of the scalar versions in
/// [`rot3d`]) applied to vertices `(c, c)` for each `c` of `coords`, bit for bit.
fn rotated(
    reference: fn(usize, f32, f32, &mut [f32], &mut [f32]),
    coords: &[f32],
    (cos, sin): (f32, f32),
    xs: &[f32],
    ys: &[f32],
) -> bool {
    let (mut want_x, mut want_y) = (coords.to_vec(), coords.to_vec());
    reference(coords.len(), cos, sin, &mut want_x, &mut want_y);
    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
    bits(xs) == bits(&want_x) && bits(ys) == bits(&want_y)
}

/// The example kernels `qpu bench --listing` prints, by name.
pub const KERNELS: [&str; 5] = ["gcd", "tri", "oet_sort", "rot3d", "heatmap"];

/// The compiled listing of the example kernel `name` (one of [`KERNELS`]; `None` for any
/// other name) for launches of up to `max_qpus` QPUs, each instruction annotated with its
/// static cycle note ([`qpu::compiler::Compiled::disassemble_with_cycles`]).
pub fn listing(name: &str, max_qpus: u32) -> qpu::Result<Option<String>> {
    if !KERNELS.contains(&name) {
        return Ok(None);
    }
    if !(1..=12).contains(&max_qpus) {
        return Err(qpu::Error::NumQpus(max_qpus));
    }
    let options = qpu::compiler::Options {
        max_qpus,
        ..Default::default()
    };
    let program = example(name, qpu::compiler::Gpu::Vc4, options)?;
    Ok(Some(listing_of(&program)))
}

/// The example `name` (one of [`KERNELS`]) compiled for `gpu` with `options`.
fn example(
    name: &str,
    gpu: qpu::compiler::Gpu,
    options: qpu::compiler::Options,
) -> qpu::Result<Program> {
    Ok(match name {
        "gcd" => compile(gcd::gcd)?.compile_for(gpu, options)?,
        "tri" => compile(tri::tri)?.compile_for(gpu, options)?,
        "oet_sort" => compile(oet_sort::oet)?.compile_for(gpu, options)?,
        "rot3d" => compile(rot3d::rot3d_3)?.compile_for(gpu, options)?,
        "heatmap" => compile(heatmap::step)?.compile_for(gpu, options)?,
        other => {
            return Err(qpu::Error::Arguments(format!(
                "no example kernel named {other:?}"
            )))
        }
    })
}

/// The listing of the example kernel `name` (one of [`KERNELS`]; `None` for any other
/// name) compiled for V3D `version`, in the V3D assembler's syntax (the V3D code does not
/// depend on the QPU count).
pub fn v3d_listing(name: &str, version: V3dVersion) -> qpu::Result<Option<String>> {
    if !KERNELS.contains(&name) {
        return Ok(None);
    }
    let program = example(name, version.into(), Default::default())?;
    Ok(Some(listing_of(&program)))
}

/// Run every measured example on the emulator (QPULib's setups where it has numbers).
pub fn run_all() -> qpu::Result<Vec<ExampleNumbers>> {
    let mut rows = Vec::new();
    let (device, emu) = emulator();

    let (a, b) = gcd::inputs();
    let k = compile(gcd::gcd)?;
    let (pa, pb) = (device.alloc_from(&a)?, device.alloc_from(&b)?);
    let mut r = device.alloc::<i32>(16)?;
    k.run(&device, (&pa, &pb, &mut r))?;
    let want = euclid_gcds(&a, &b);
    rows.push(numbers(
        "gcd (16 pairs, 1 QPU)",
        &|| vc4(&k),
        &emu,
        (Some(90), Some(737)),
        r.to_vec() == want,
    )?);

    let k = compile(tri::tri)?;
    let mut p = device.alloc_from(&(0..16).collect::<Vec<i32>>())?;
    k.run(&device, &mut p)?;
    let want: Vec<i32> = (0..16).map(|n| n * (n + 1) / 2).collect();
    rows.push(numbers(
        "tri (0..16, 1 QPU)",
        &|| vc4(&k),
        &emu,
        (Some(77), Some(190)),
        p.to_vec() == want,
    )?);

    let k = compile(oet_sort::oet)?;
    let unsorted: Vec<i32> = (0..32).map(|i| 100 - i).collect();
    let mut p = device.alloc_from(&unsorted)?;
    k.run(&device, &mut p)?;
    let mut want = unsorted;
    want.sort_unstable();
    rows.push(numbers(
        "oet_sort (32 ints, 1 QPU)",
        &|| vc4(&k),
        &emu,
        (Some(110), None),
        p.to_vec() == want,
    )?);

    let n = 192_000usize;
    let coords: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut k = compile(rot3d::rot3d_3)?;
    for qpus in [1, 12] {
        let mut x = device.alloc_from(&coords)?;
        let mut y = device.alloc_from(&coords)?;
        k.set_num_qpus(qpus)?;
        let (cos, sin) = (rot3d::THETA.cos(), rot3d::THETA.sin());
        k.run(&device, (n as i32, cos, sin, &mut x, &mut y))?;
        let correct = rotated(
            rot3d::rot3d_scalar,
            &coords,
            (cos, sin),
            &x.to_vec(),
            &y.to_vec(),
        );
        let qpulib = if qpus == 1 {
            (Some(111), Some(420_063))
        } else {
            (Some(111), Some(420_723))
        };
        rows.push(numbers(
            &format!(
                "rot3d v3 (192,000 vertices, {qpus} QPU{})",
                if qpus > 1 { "s" } else { "" }
            ),
            &|| vc4(&k),
            &emu,
            qpulib,
            correct,
        )?);
    }

    let grid = Grid::QPULIB;
    let initial = heat_initial();
    let (ncols, width, height) = (grid.ncols() as i32, grid.width as i32, grid.height as i32);
    let mut k = compile(heatmap::step)?;
    let src = device.alloc_from(&initial)?;
    for qpus in [1, 12] {
        let mut dst = device.alloc::<f32>(initial.len())?;
        k.set_num_qpus(qpus)?;
        k.run(&device, (&src, &mut dst, ncols, width, height))?;
        // QPULib published HeatMap's instruction count for one QPU only.
        let qpulib = if qpus == 1 {
            (Some(223), Some(1_530_198))
        } else {
            (Some(223), None)
        };
        rows.push(numbers(
            &format!(
                "heatmap (one 512x506 step, {qpus} QPU{})",
                if qpus > 1 { "s" } else { "" }
            ),
            &|| vc4(&k),
            &emu,
            qpulib,
            dst.to_vec() == heatmap::scalar_step(grid, &initial),
        )?);
    }
    Ok(rows)
}

/// The examples of [`run_all`] compiled for V3D `version` and run on its emulator. Kernels
/// the first-slice V3D compiler refuses (a construct it does not support yet) get the
/// compiler's message instead of numbers.
pub fn run_all_v3d(version: V3dVersion) -> qpu::Result<Vec<V3dExampleNumbers>> {
    let device = Device::v3d_emulator(version);
    let mut rows = Vec::new();
    // Runs `run` (which returns its report and whether the output is right), or records the
    // compiler's refusal.
    let mut row = |name: &str,
                   qpus: u32,
                   compiled: Result<Program, CompileError>,
                   run: &mut dyn FnMut() -> qpu::Result<(RunReport, bool)>|
     -> qpu::Result<()> {
        let compiled = match compiled {
            Ok(c) => c,
            Err(e @ CompileError::Unsupported { .. }) => {
                rows.push(V3dExampleNumbers {
                    name: name.to_string(),
                    qpus,
                    outcome: Err(e.to_string()),
                });
                return Ok(());
            }
            Err(e) => return Err(e.into()),
        };
        let (report, correct) = run()?;
        rows.push(V3dExampleNumbers {
            name: name.to_string(),
            qpus,
            outcome: Ok(V3dRun::of(compiled.words().len(), &report, correct)),
        });
        Ok(())
    };

    let (a, b) = gcd::inputs();
    let k = compile(gcd::gcd)?;
    row("gcd (16 pairs, 1 QPU)", 1, v3d(&k, version), &mut || {
        let (pa, pb) = (device.alloc_from(&a)?, device.alloc_from(&b)?);
        let mut r = device.alloc::<i32>(16)?;
        let report = k.run(&device, (&pa, &pb, &mut r))?;
        let want = euclid_gcds(&a, &b);
        Ok((report, r.to_vec() == want))
    })?;

    let k = compile(tri::tri)?;
    row("tri (0..16, 1 QPU)", 1, v3d(&k, version), &mut || {
        let mut p = device.alloc_from(&(0..16).collect::<Vec<i32>>())?;
        let report = k.run(&device, &mut p)?;
        let want: Vec<i32> = (0..16).map(|n| n * (n + 1) / 2).collect();
        Ok((report, p.to_vec() == want))
    })?;

    let k = compile(oet_sort::oet)?;
    row(
        "oet_sort (32 ints, 1 QPU)",
        1,
        v3d(&k, version),
        &mut || {
            let unsorted: Vec<i32> = (0..32).map(|i| 100 - i).collect();
            let mut p = device.alloc_from(&unsorted)?;
            let report = k.run(&device, &mut p)?;
            let mut want = unsorted.clone();
            want.sort_unstable();
            Ok((report, p.to_vec() == want))
        },
    )?;

    let n = 192_000usize;
    let coords: Vec<f32> = (0..n).map(|i| i as f32).collect();
    // Every QPU the version has.
    let max = device.max_qpus();
    let mut k = compile(rot3d::rot3d_3)?;
    for qpus in [1, max] {
        k.set_num_qpus(qpus)?;
        let name = format!(
            "rot3d v3 (192,000 vertices, {qpus} QPU{})",
            if qpus > 1 { "s" } else { "" }
        );
        let compiled = v3d(&k, version);
        row(&name, qpus, compiled, &mut || {
            let mut x = device.alloc_from(&coords)?;
            let mut y = device.alloc_from(&coords)?;
            let (cos, sin) = (rot3d::THETA.cos(), rot3d::THETA.sin());
            let report = k.run(&device, (n as i32, cos, sin, &mut x, &mut y))?;
            // IEEE single precision, rounding to nearest: the V3D's float arithmetic.
            let correct = rotated(
                rot3d::rot3d_scalar_nearest,
                &coords,
                (cos, sin),
                &x.to_vec(),
                &y.to_vec(),
            );
            Ok((report, correct))
        })?;
    }

    let grid = Grid::QPULIB;
    let initial = heat_initial();
    let (ncols, width, height) = (grid.ncols() as i32, grid.width as i32, grid.height as i32);
    let k = compile(heatmap::step)?;
    row(
        "heatmap (one 512x506 step, 1 QPU)",
        1,
        v3d(&k, version),
        &mut || {
            let src = device.alloc_from(&initial)?;
            let mut dst = device.alloc::<f32>(initial.len())?;
            let report = k.run(&device, (&src, &mut dst, ncols, width, height))?;
            Ok((
                report,
                dst.to_vec() == heatmap::scalar_step_nearest(grid, &initial),
            ))
        },
    )?;
    Ok(rows)
}

/// Runs the example `name` (one of [`KERNELS`]) once on `device` on `qpus` QPUs (the ones
/// that take a QPU count: rot3d and heatmap; the others run on one) with the setup of its
/// row in [`run_all`], and returns the run's report (what `qpu profile` draws); `None` for
/// another name.
pub fn run_example(name: &str, device: &Device, qpus: u32) -> qpu::Result<Option<RunReport>> {
    Ok(Some(match name {
        "gcd" => {
            let (a, b) = gcd::inputs();
            let k = compile(gcd::gcd)?;
            let (pa, pb) = (device.alloc_from(&a)?, device.alloc_from(&b)?);
            let mut r = device.alloc::<i32>(16)?;
            k.run(device, (&pa, &pb, &mut r))?
        }
        "tri" => {
            let mut p = device.alloc_from(&(0..16).collect::<Vec<i32>>())?;
            compile(tri::tri)?.run(device, &mut p)?
        }
        "oet_sort" => {
            let unsorted: Vec<i32> = (0..32).map(|i| 100 - i).collect();
            let mut p = device.alloc_from(&unsorted)?;
            compile(oet_sort::oet)?.run(device, &mut p)?
        }
        "rot3d" => {
            let n = 192_000usize;
            let coords: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let mut k = compile(rot3d::rot3d_3)?;
            k.set_num_qpus(qpus)?;
            let (mut x, mut y) = (device.alloc_from(&coords)?, device.alloc_from(&coords)?);
            let (cos, sin) = (rot3d::THETA.cos(), rot3d::THETA.sin());
            k.run(device, (n as i32, cos, sin, &mut x, &mut y))?
        }
        "heatmap" => {
            let grid = Grid::QPULIB;
            let initial = heat_initial();
            let mut k = compile(heatmap::step)?;
            k.set_num_qpus(qpus)?;
            let src = device.alloc_from(&initial)?;
            let mut dst = device.alloc::<f32>(initial.len())?;
            let (ncols, width, height) =
                (grid.ncols() as i32, grid.width as i32, grid.height as i32);
            k.run(device, (&src, &mut dst, ncols, width, height))?
        }
        _ => return Ok(None),
    }))
}

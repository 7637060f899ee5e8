//! The example kernels compiled for V3D 4.2 and 7.1 and run on the V3D emulator, checked
//! against scalar Rust (with the V3D's round-to-nearest float arithmetic, which Rust's `f32`
//! operations share) or the reference interpreter.

// qpu's V3D compiler tests run compiled code the same way.
#[path = "../../qpu/tests/support/v3d_run.rs"]
mod v3d_run;

use qpu::compiler::v3d::{self, V3dCompiled};
use qpu_emu::v3d::V3dConfig;
use qpu_isa::v3d::V3dVersion;
use qpu_kernels::qpulib::{heatmap, id, multi_tri, oet_sort, rot3d};
use v3d_run::{run_v3d, Arg};

const VERSIONS: [V3dVersion; 2] = [V3dVersion::V42, V3dVersion::V71];

fn compile(kernel: &qpu::lang::ast::Kernel, version: V3dVersion) -> V3dCompiled {
    v3d::compile(kernel, version).unwrap_or_else(|e| panic!("{version:?}: {e}"))
}

fn run(compiled: &V3dCompiled, qpus: u32, args: &[Arg]) -> Vec<Vec<u32>> {
    run_v3d(compiled, qpus, args).0
}

#[test]
fn id_on_every_qpu_count() {
    let kernel = qpu::compile(id::id).unwrap();
    for version in VERSIONS {
        let compiled = compile(kernel.ast(), version);
        for qpus in 1..=V3dConfig::max_qpus(version) as u32 {
            let out = run(&compiled, qpus, &[Arg::Array(vec![0; 16 * qpus as usize])]);
            let want: Vec<u32> = (0..16 * qpus).map(|i| i / 16).collect();
            assert_eq!(out[0], want, "{version:?} on {qpus} QPUs");
        }
    }
}

#[test]
fn multi_tri_on_every_qpu_count() {
    // Each QPU sums its own 16 numbers: n QPUs cover 16·n of them.
    let kernel = qpu::compile(multi_tri::tri).unwrap();
    for version in VERSIONS {
        let compiled = compile(kernel.ast(), version);
        for qpus in 1..=V3dConfig::max_qpus(version) as u32 {
            let len = 16 * qpus as i32;
            let want: Vec<u32> = (0..len).map(|n| (1..=n % 70).sum::<i32>() as u32).collect();
            let out = run(
                &compiled,
                qpus,
                &[Arg::Array((0..len).map(|n| (n % 70) as u32).collect())],
            );
            assert_eq!(out[0], want, "{version:?} on {qpus} QPUs");
        }
    }
}

#[test]
fn oet_sort_sorts() {
    let kernel = qpu::compile(oet_sort::oet).unwrap();
    let data: Vec<i32> = (0..32).map(|i| ((i * 37) % 32) * 3 - 40).collect();
    let mut want = data.clone();
    want.sort();
    for version in VERSIONS {
        let out = run(
            &compile(kernel.ast(), version),
            1,
            &[Arg::Array(data.iter().map(|&x| x as u32).collect())],
        );
        let got: Vec<i32> = out[0].iter().map(|&x| x as i32).collect();
        assert_eq!(got, want, "{version:?}");
    }
}

/// Rot3D version 3's loop on the V3D: its pointers hold consecutive addresses in consecutive
/// lanes, so each store takes its pointer as the address (no broadcast of lane 0, no lane
/// offsets), each gather takes `p + inc·4` in one addition (a multiple of 4 needs no
/// clearing), and `inc·4` is computed once in front of the loop. Pinned by the issued count of
/// a 1-QPU run of 1,024 vertices (64 iterations): 862 on 4.2 and 734 on 7.1, where 4.2
/// issued 1,181 before.
#[test]
fn rot3d_loop_addresses_are_computed_once_and_used_as_they_are() {
    let kernel = qpu::compile(rot3d::rot3d_3).unwrap();
    let (cos, sin) = (rot3d::THETA.cos(), rot3d::THETA.sin());
    let n = 1024usize;
    for (version, bound) in [(V3dVersion::V42, 870), (V3dVersion::V71, 740)] {
        let compiled = compile(kernel.ast(), version);
        let listing = compiled.disassemble();
        let body: Vec<&str> = listing.lines().skip_while(|l| !l.ends_with(':')).collect();
        assert!(
            !body
                .iter()
                .any(|l| l.contains("rep,") || l.contains("r5rep")),
            "{version:?}: a broadcast remains in\n{listing}"
        );
        assert!(
            !body.iter().any(|l| l.contains("and tmua")),
            "{version:?}: an address is still cleared in\n{listing}"
        );
        let words = |v: Vec<f32>| {
            let mut w: Vec<u32> = v.iter().map(|f| f.to_bits()).collect();
            w.resize(n + 16, 0);
            w
        };
        let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 3.0).collect();
        let y: Vec<f32> = (0..n).map(|i| 1.5 - i as f32 * 0.125).collect();
        let (out, report) = run_v3d(
            &compiled,
            1,
            &[
                Arg::Word(n as u32),
                Arg::Word(cos.to_bits()),
                Arg::Word(sin.to_bits()),
                Arg::Array(words(x.clone())),
                Arg::Array(words(y.clone())),
            ],
        );
        for i in 0..n {
            assert_eq!(
                out[0][i],
                (x[i] * cos - y[i] * sin).to_bits(),
                "{version:?} {i}"
            );
            assert_eq!(
                out[1][i],
                (y[i] * cos + x[i] * sin).to_bits(),
                "{version:?} {i}"
            );
        }
        let issued = report.instructions();
        assert!(issued <= bound, "{version:?}: {issued} instructions issued");
    }
}

#[test]
fn rot3d_versions_match_scalar_rust() {
    let (cos, sin) = (rot3d::THETA.cos(), rot3d::THETA.sin());
    let kernels = [
        qpu::compile(rot3d::rot3d_1).unwrap(),
        qpu::compile(rot3d::rot3d_2).unwrap(),
        qpu::compile(rot3d::rot3d_3).unwrap(),
    ];
    for (k, kernel) in kernels.iter().enumerate() {
        for version in VERSIONS {
            let compiled = compile(kernel.ast(), version);
            // Versions 1 and 2 do all the work on every QPU; run them on one. Version 3
            // splits it: every QPU count the version has.
            let counts: Vec<u32> = if k == 2 {
                (1..=V3dConfig::max_qpus(version) as u32).collect()
            } else {
                vec![1]
            };
            for qpus in counts {
                let n = 16 * qpus as usize * 5;
                let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.37 - 11.0).collect();
                let y: Vec<f32> = (0..n).map(|i| 5.5 - i as f32 * 0.11).collect();
                let (mut wx, mut wy) = (x.clone(), y.clone());
                for i in 0..n {
                    // The V3D rounds each product and sum to nearest, as Rust's f32 does.
                    wx[i] = x[i] * cos - y[i] * sin;
                    wy[i] = y[i] * cos + x[i] * sin;
                }
                // Room for the prefetch past the end (versions 2 and 3).
                let pad = |v: &[f32]| {
                    let mut w: Vec<u32> = v.iter().map(|f| f.to_bits()).collect();
                    w.resize(n + 16 * qpus as usize, 0);
                    w
                };
                let out = run(
                    &compiled,
                    qpus,
                    &[
                        Arg::Word(n as u32),
                        Arg::Word(cos.to_bits()),
                        Arg::Word(sin.to_bits()),
                        Arg::Array(pad(&x)),
                        Arg::Array(pad(&y)),
                    ],
                );
                let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
                assert_eq!(
                    out[0][..n],
                    bits(&wx)[..],
                    "rot3d_{} {version:?} {qpus} QPUs",
                    k + 1
                );
                assert_eq!(out[1][..n], bits(&wy)[..]);
            }
        }
    }
}

/// One heat-diffusion step on the host, in the kernel's operation order, rounding to
/// nearest as the V3D does; the column left of the first reads 0, as the kernel's cursor
/// starts.
fn heat_step(input: &[f32], ncols: usize, width: usize, height: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; input.len()];
    let at = |r: usize, c: isize| {
        if c < 0 {
            0.0
        } else {
            input[r * ncols + c as usize]
        }
    };
    for y in 0..height {
        for c in 0..width as isize {
            let sum = at(y, c - 1)
                + at(y, c)
                + at(y, c + 1)
                + at(y + 1, c - 1)
                + at(y + 1, c + 1)
                + at(y + 2, c - 1)
                + at(y + 2, c)
                + at(y + 2, c + 1);
            let centre = at(y + 1, c);
            out[(y + 1) * ncols + c as usize] = centre - heatmap::K * (centre - sum * 0.125);
        }
    }
    out
}

#[test]
fn heatmap_step_matches_scalar_rust() {
    let kernel = qpu::compile(heatmap::step).unwrap();
    let (width, height) = (48usize, 7usize);
    let (ncols, nrows) = (width + 16, height + 2);
    let input: Vec<f32> = (0..ncols * nrows)
        .map(|i| ((i * 7919) % 1000) as f32 * 0.75 - 100.0)
        .collect();
    let want = heat_step(&input, ncols, width, height);
    let mut padded: Vec<u32> = input.iter().map(|f| f.to_bits()).collect();
    padded.resize(input.len() + 32, 0);
    for version in VERSIONS {
        let compiled = compile(kernel.ast(), version);
        // Rows are dealt out in turn: beyond 7 QPUs some get none.
        for qpus in 1..=V3dConfig::max_qpus(version) as u32 {
            let out = run(
                &compiled,
                qpus,
                &[
                    // Room for the cursors' prefetch past the last row.
                    Arg::Array(padded.clone()),
                    Arg::Array(vec![0; ncols * nrows]),
                    Arg::Word(ncols as u32),
                    Arg::Word(width as u32),
                    Arg::Word(height as u32),
                ],
            );
            let got: Vec<f32> = out[1].iter().map(|&b| f32::from_bits(b)).collect();
            assert_eq!(got, want, "{version:?} on {qpus} QPUs");
        }
    }
}

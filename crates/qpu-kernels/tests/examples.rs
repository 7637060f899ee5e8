//! QPULib's examples ([`qpu_kernels::qpulib`]) run on the interpreter and checked against
//! scalar Rust, and the command lines of the example binaries that take settings.

#[path = "support/heat.rs"]
mod heat;
use heat::scalar_heat_step;
// The example binaries, for their command lines.
#[path = "../examples/heatmap.rs"]
mod heatmap_example;
#[path = "../examples/rot3d.rs"]
mod rot3d_example;

use clap::error::ErrorKind;
use clap::Parser;
use qpu::Device;
use qpu_kernels::qpulib::{gcd, heatmap, id, multi_tri, oet_sort, rot3d, tri};

/// A small deterministic generator for test inputs (not the thing under test).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }
}

fn scalar_gcd(mut a: i32, mut b: i32) -> i32 {
    while a != b {
        if a > b {
            a -= b;
        } else {
            b -= a;
        }
    }
    a
}

#[test]
fn gcd_prints_the_readme_lines() {
    // The 16 lines QPULib's README shows for this program.
    let readme = [
        (183, 186, 3),
        (177, 115, 1),
        (193, 135, 1),
        (186, 192, 6),
        (149, 121, 1),
        (162, 127, 1),
        (190, 159, 1),
        (163, 126, 1),
        (140, 126, 14),
        (172, 136, 4),
        (111, 168, 3),
        (167, 129, 1),
        (182, 130, 26),
        (162, 123, 3),
        (167, 135, 1),
        (129, 102, 3),
    ];
    let (a, b) = gcd::inputs();
    let device = Device::interpreter();
    for unrolled in [false, true] {
        let r = gcd::run(&device, unrolled, &a, &b).unwrap();
        for i in 0..16 {
            assert_eq!(
                (a[i], b[i], r[i]),
                readme[i],
                "unrolled={unrolled}, line {i}"
            );
        }
    }
}

#[test]
fn gcd_v1_and_v2_match_scalar_euclid_on_random_pairs() {
    let mut rng = Lcg(7);
    let device = Device::interpreter();
    for _ in 0..4 {
        let a: Vec<i32> = (0..16).map(|_| 1 + (rng.next() % 2000) as i32).collect();
        let b: Vec<i32> = (0..16).map(|_| 1 + (rng.next() % 2000) as i32).collect();
        let expected: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| scalar_gcd(x, y)).collect();
        assert_eq!(gcd::run(&device, false, &a, &b).unwrap(), expected);
        assert_eq!(gcd::run(&device, true, &a, &b).unwrap(), expected);
    }
}

#[test]
fn tri_gives_triangular_numbers() {
    let result = tri::run(&Device::interpreter()).unwrap();
    let expected: Vec<i32> = (0..16).map(|n| (1..=n).sum()).collect();
    assert_eq!(result, expected);
}

#[test]
fn multi_tri_splits_64_numbers_over_4_qpus() {
    let result = multi_tri::run(&Device::interpreter()).unwrap();
    let expected: Vec<i32> = (0..64).map(|n| (1..=n).sum()).collect();
    assert_eq!(result, expected);
}

#[test]
fn id_has_each_of_12_qpus_write_its_number() {
    let result = id::run(&Device::interpreter()).unwrap();
    let expected: Vec<i32> = (0..192).map(|i| i / 16).collect();
    assert_eq!(result, expected);
}

#[test]
fn oet_sort_sorts_like_slice_sort() {
    let device = Device::interpreter();
    let mut inputs: Vec<Vec<i32>> = vec![(0..32).map(|i| 100 - i).collect()];
    let mut rng = Lcg(3);
    for _ in 0..5 {
        inputs.push((0..32).map(|_| rng.next() as i32).collect());
    }
    let mut extremes: Vec<i32> = (0..32)
        .map(|i| if i % 3 == 0 { i32::MAX } else { i32::MIN + i })
        .collect();
    extremes[5] = 0;
    inputs.push(extremes);
    for input in inputs {
        let mut expected = input.clone();
        expected.sort();
        assert_eq!(
            oet_sort::run(&device, &input).unwrap(),
            expected,
            "input {input:?}"
        );
    }
}

#[test]
fn rot3d_all_versions_match_scalar_rotation() {
    let device = Device::interpreter();
    let n = 16 * 12 * 4;
    let mut x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut y = x.clone();
    rot3d::rot3d_scalar(n, rot3d::THETA.cos(), rot3d::THETA.sin(), &mut x, &mut y);
    for (version, num_qpus) in [(1, 1), (2, 1), (3, 1), (3, 2), (3, 3), (3, 12)] {
        let (vx, vy, _) = rot3d::run(&device, version, num_qpus, n).unwrap();
        assert_eq!(vx, x, "x of version {version} on {num_qpus} QPUs");
        assert_eq!(vy, y, "y of version {version} on {num_qpus} QPUs");
    }
}

#[test]
fn rot3d_v3_on_12_qpus_with_the_programs_size() {
    let device = Device::interpreter();
    let n = rot3d::N;
    let mut x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut y = x.clone();
    rot3d::rot3d_scalar(n, rot3d::THETA.cos(), rot3d::THETA.sin(), &mut x, &mut y);
    let (vx, vy, _) = rot3d::run(&device, 3, 12, n).unwrap();
    assert!(vx == x && vy == y);
}

#[test]
fn heatmap_matches_scalar_simulation_on_1_2_and_4_qpus() {
    let grid = heatmap::Grid {
        width: 48,
        height: 8,
    };
    // Hot spots that fill the grid; and one tiny spot whose spreading values fall into the
    // denormal range, which the hardware flushes to zero.
    type Spot = (usize, usize, f32);
    let cases: [(&[Spot], usize); 2] = [
        (
            &[
                (1, 0, 250_000.0),
                (4, 17, 1000.0),
                (8, 47, 64_000.0),
                (5, 31, 3.5),
            ],
            40,
        ),
        (&[(4, 20, 1.0e-36)], 6),
    ];
    let device = Device::interpreter();
    for (spots, steps) in cases {
        let mut initial = vec![0.0f32; grid.nrows() * grid.ncols()];
        for &(y, x, t) in spots {
            initial[y * grid.ncols() + x] = t;
        }
        let mut expected = initial.clone();
        let mut scratch = vec![0.0f32; initial.len()];
        for _ in 0..steps {
            scalar_heat_step(grid, &expected, &mut scratch);
            std::mem::swap(&mut expected, &mut scratch);
        }
        for num_qpus in [1, 2, 4] {
            let result = heatmap::run(&device, grid, &initial, steps, num_qpus).unwrap();
            for (i, (&got, &want)) in result.iter().zip(&expected).enumerate() {
                assert_eq!(got.to_bits(), want.to_bits(), "{num_qpus} QPUs, index {i}");
            }
        }
    }
}

#[test]
fn heatmap_initial_map_matches_qpulib_hot_spots() {
    // The first three rand() results after srand(0) are 1804289383, 846930886, 1681692777
    // (glibc); QPULib takes t = r0 % 256, x = r1 % 496, y = 1 + r2 % 504 for the first spot.
    let grid = heatmap::Grid::QPULIB;
    let map = grid.initial();
    let (t, x, y) = (
        1_804_289_383 % 256,
        846_930_886 % 496,
        1 + 1_681_692_777 % 504,
    );
    assert_eq!(map[y * grid.ncols() + x], (1000 * t) as f32);
    assert_eq!(map.iter().filter(|&&v| v != 0.0).count(), 10);
}

/// The kind of error clap reports for `args`, or `None` if they parse.
fn cli_error<C: Parser>(args: &[&str]) -> Option<ErrorKind> {
    C::try_parse_from(args).err().map(|e| e.kind())
}

#[test]
fn heatmap_rejects_bad_arguments_instead_of_defaulting() {
    use heatmap_example::Cli;
    // The README's positional form and the named form both parse.
    assert_eq!(cli_error::<Cli>(&["heatmap"]), None);
    assert_eq!(
        cli_error::<Cli>(&["heatmap", "1500", "12", "out.png"]),
        None
    );
    let named = ["heatmap", "--steps", "5", "--qpus", "1", "-o", "x.png"];
    assert_eq!(cli_error::<Cli>(&named), None);
    for bad in [
        &["heatmap", "abc"][..],
        &["heatmap", "10", "0"],
        &["heatmap", "10", "13"],
        &["heatmap", "--qpus", "0"],
        &["heatmap", "--qpus", "13"],
        &["heatmap", "--steps", "-1"],
    ] {
        let kind = cli_error::<Cli>(bad);
        assert!(
            matches!(
                kind,
                Some(ErrorKind::ValueValidation | ErrorKind::UnknownArgument)
            ),
            "{bad:?} gave {kind:?}"
        );
    }
    assert_eq!(
        cli_error::<Cli>(&["heatmap", "10", "2", "--qpus", "3"]),
        Some(ErrorKind::ArgumentConflict)
    );
    assert_eq!(
        cli_error::<Cli>(&["heatmap", "10", "2", "a.png", "x"]),
        Some(ErrorKind::UnknownArgument)
    );
}

#[test]
fn heatmap_reports_an_unwritable_output_before_running() {
    let dir = std::env::temp_dir().join("qpu-heatmap-test-no-such-directory");
    let path = dir.join("out.png");
    let path = path.to_str().unwrap();
    // A million steps would take hours: the error must come before the run.
    let cli = heatmap_example::Cli::try_parse_from(["heatmap", "1000000", "12", path]).unwrap();
    let start = std::time::Instant::now();
    let error = heatmap_example::try_main(&cli).unwrap_err().to_string();
    assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
    // The OS reason in words (Display), e.g. "No such file or directory (os error 2)", not
    // the Debug form `Os { code: 2, .. }`.
    assert!(
        error.starts_with(&format!("cannot write {path}: ")) && error.contains("(os error "),
        "message {error:?}"
    );
    assert!(!error.contains("Os {"), "message {error:?}");
    assert!(!dir.exists());
}

#[test]
fn rot3d_rejects_qpu_counts_outside_1_to_12() {
    use rot3d_example::Cli;
    assert_eq!(cli_error::<Cli>(&["rot3d"]), None);
    assert_eq!(cli_error::<Cli>(&["rot3d", "--qpus", "1,7,12"]), None);
    for bad in ["0", "13", "1,13", "two"] {
        assert_eq!(
            cli_error::<Cli>(&["rot3d", "--qpus", bad]),
            Some(ErrorKind::ValueValidation),
            "--qpus {bad}"
        );
    }
}

#[test]
fn rot3d_pads_vertex_counts_that_do_not_divide_among_the_qpus() {
    // 19,200 vertices are 1,200 vectors, which 7 QPUs cannot share evenly; nor can 40
    // vertices fill whole vectors.
    let device = Device::interpreter();
    for (n, num_qpus) in [(rot3d::N, 7), (40, 1), (40, 3)] {
        let mut x: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let mut y = x.clone();
        rot3d::rot3d_scalar(n, rot3d::THETA.cos(), rot3d::THETA.sin(), &mut x, &mut y);
        for version in [1, 2, 3] {
            let qpus = if version == 3 { num_qpus } else { 1 };
            let (vx, vy, timing) = rot3d::run(&device, version, qpus, n).unwrap();
            assert!(
                vx == x && vy == y,
                "version {version}, {qpus} QPUs, {n} vertices"
            );
            assert_eq!(timing.report.num_qpus, qpus);
        }
    }
}

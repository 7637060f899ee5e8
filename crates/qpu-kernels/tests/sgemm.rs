//! The SGEMM kernel: bit for bit against the scalar model of its arithmetic (the QPU's
//! rounding, the kernel's order), and within rounding of `matrixmultiply`'s f32 SGEMM (an
//! independent implementation), on the interpreter and the strict emulator, for shapes from
//! 1×1×1 to a few hundred, odd sizes, transposes, α and β, 1–12 QPUs.

use qpu::Device;
use qpu_kernels::sgemm::{reference, Sgemm, Transpose};

fn matrix(rows: usize, cols: usize, seed: usize) -> Vec<f32> {
    (0..rows * cols)
        .map(|i| (((i + seed) * 7919) % 97) as f32 / 16.0 - 3.0)
        .collect()
}

fn transpose(m: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0.0; m.len()];
    for i in 0..rows {
        for j in 0..cols {
            t[j * rows + i] = m[i * cols + j];
        }
    }
    t
}

/// C ← αAB + βC by ndarray (`general_mat_mul`, matrixmultiply's kernels), in f32.
#[allow(clippy::too_many_arguments)]
fn independent(
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    a: &[f32],
    b: &[f32],
    beta: f32,
    c: &mut [f32],
) {
    let a = ndarray::ArrayView2::from_shape((m, k), a).unwrap();
    let b = ndarray::ArrayView2::from_shape((k, n), b).unwrap();
    let mut out = ndarray::ArrayViewMut2::from_shape((m, n), c).unwrap();
    ndarray::linalg::general_mat_mul(alpha, &a, &b, beta, &mut out);
}

#[allow(clippy::too_many_arguments)]
fn check(
    device: &Device,
    qpus: u32,
    (m, n, k): (usize, usize, usize),
    (ta, tb): (Transpose, Transpose),
    alpha: f32,
    beta: f32,
) {
    let (a, b) = (matrix(m, k, 1), matrix(k, n, 2));
    let c0 = matrix(m, n, 3);
    // The stored operands: transposed where op() transposes them back.
    let (sa, lda) = match ta {
        Transpose::No => (a.clone(), k),
        Transpose::Yes => (transpose(&a, m, k), m),
    };
    let (sb, ldb) = match tb {
        Transpose::No => (b.clone(), n),
        Transpose::Yes => (transpose(&b, k, n), k),
    };
    let mut c = c0.clone();
    Sgemm::with_qpus(qpus)
        .unwrap()
        .run(
            device, ta, tb, m, n, k, alpha, &sa, lda, &sb, ldb, beta, &mut c, n,
        )
        .unwrap();
    let mut want = c0.clone();
    reference(m, n, k, alpha, &a, &b, beta, &mut want);
    let what = format!(
        "{} {m}x{n}x{k} {ta:?}/{tb:?} on {qpus} QPUs",
        device.describe()
    );
    assert!(c == want, "{what}: differs from the scalar model");
    // Within rounding of an independent SGEMM: the QPU truncates each product and sum, so
    // each of the k + 2 steps may lose up to one unit in the last place of the running
    // magnitude (bounded by Σ|a||b|·|α| + |β·c|).
    let mut other = c0.clone();
    independent(m, n, k, alpha, &a, &b, beta, &mut other);
    for i in 0..m {
        for j in 0..n {
            let scale: f32 = (0..k)
                .map(|kk| (a[i * k + kk] * b[kk * n + j]).abs())
                .sum::<f32>()
                * alpha.abs()
                + (beta * c0[i * n + j]).abs();
            let tolerance = scale * (k + 2) as f32 * f32::EPSILON * 2.0 + f32::MIN_POSITIVE;
            let (got, expected) = (c[i * n + j], other[i * n + j]);
            assert!(
                (got - expected).abs() <= tolerance,
                "{what}: C[{i}][{j}] = {got}, ndarray says {expected} (tolerance {tolerance})"
            );
        }
    }
}

#[test]
fn small_and_odd_shapes_on_both_backends() {
    let shapes = [(1, 1, 1), (3, 5, 7), (17, 33, 9), (16, 16, 16), (20, 1, 30)];
    for device in [Device::interpreter(), Device::emulator()] {
        for &shape in &shapes {
            for qpus in [1, 5] {
                check(
                    &device,
                    qpus,
                    shape,
                    (Transpose::No, Transpose::No),
                    1.0,
                    0.0,
                );
            }
        }
    }
}

#[test]
fn transposes_alpha_and_beta() {
    let device = Device::emulator();
    for (ta, tb) in [
        (Transpose::Yes, Transpose::No),
        (Transpose::No, Transpose::Yes),
        (Transpose::Yes, Transpose::Yes),
    ] {
        check(&device, 3, (19, 21, 23), (ta, tb), -0.75, 1.5);
    }
    check(
        &Device::interpreter(),
        2,
        (9, 18, 5),
        (Transpose::Yes, Transpose::Yes),
        2.0,
        -1.0,
    );
}

#[test]
fn larger_shapes_on_1_to_12_qpus() {
    let device = Device::emulator();
    for (qpus, shape) in [(12, (130, 100, 70)), (7, (64, 96, 128)), (1, (48, 40, 36))] {
        check(
            &device,
            qpus,
            shape,
            (Transpose::No, Transpose::No),
            1.25,
            0.5,
        );
    }
}

#[test]
fn beta_zero_ignores_what_c_held() {
    // BLAS: with β = 0, C is output only; NaNs in it must not come through.
    let (m, n, k) = (5, 20, 3);
    let (a, b) = (matrix(m, k, 4), matrix(k, n, 5));
    let mut c = vec![f32::NAN; m * n];
    Sgemm::with_qpus(2)
        .unwrap()
        .run(
            &Device::emulator(),
            Transpose::No,
            Transpose::No,
            m,
            n,
            k,
            1.0,
            &a,
            k,
            &b,
            n,
            0.0,
            &mut c,
            n,
        )
        .unwrap();
    let mut want = vec![0.0; m * n];
    reference(m, n, k, 1.0, &a, &b, 0.0, &mut want);
    assert_eq!(c, want);
}

#[test]
fn leading_dimensions_and_sizes_are_checked() {
    let sgemm = Sgemm::with_qpus(1).unwrap();
    let device = Device::interpreter();
    let (a, b) = (vec![1.0f32; 6], vec![1.0f32; 9]);
    let mut c = vec![0.0f32; 4];
    // lda below A's 3 columns.
    let err = sgemm
        .run(
            &device,
            Transpose::No,
            Transpose::No,
            2,
            2,
            3,
            1.0,
            &a,
            2,
            &b,
            2,
            0.0,
            &mut c,
            2,
        )
        .unwrap_err();
    assert!(err.to_string().contains("A's leading dimension 2"), "{err}");
    // C too short for 2 rows of 3.
    let err = sgemm
        .run(
            &device,
            Transpose::No,
            Transpose::No,
            2,
            3,
            3,
            1.0,
            &a,
            3,
            &b,
            3,
            0.0,
            &mut c,
            3,
        )
        .unwrap_err();
    assert!(err.to_string().contains("C holds 4 floats"), "{err}");
    // Sizes whose extent overflows are an error, not a panic.
    let err = sgemm
        .run(
            &device,
            Transpose::No,
            Transpose::No,
            usize::MAX / 2,
            2,
            3,
            1.0,
            &a,
            usize::MAX / 2,
            &b,
            3,
            0.0,
            &mut c,
            2,
        )
        .unwrap_err();
    assert!(err.to_string().contains("A holds 6 floats"), "{err}");
    // Empty products do nothing.
    assert!(sgemm
        .run(
            &device,
            Transpose::No,
            Transpose::No,
            0,
            2,
            3,
            1.0,
            &a,
            3,
            &b,
            2,
            0.0,
            &mut c,
            2
        )
        .unwrap()
        .is_none());
    assert!(Sgemm::with_qpus(13).is_err());
}

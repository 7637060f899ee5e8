//! SGEMM: C ← α·op(A)·op(B) + β·C for row-major f32 matrices of any size, op = identity or
//! transpose (BLAS's `sgemm` with row-major storage).
//!
//! ```
//! use qpu_kernels::sgemm::{Sgemm, Transpose};
//!
//! let device = qpu::Device::interpreter();
//! let (a, b) = ([1.0f32, 2.0, 3.0, 4.0], [5.0f32, 6.0, 7.0, 8.0]);
//! let mut c = [0.0f32; 4];
//! let sgemm = Sgemm::with_qpus(1)?;
//! sgemm.run(&device, Transpose::No, Transpose::No, 2, 2, 2, 1.0, &a, 2, &b, 2, 0.0, &mut c, 2)?;
//! assert_eq!(c, [19.0, 22.0, 43.0, 50.0]);
//! # Ok::<(), qpu::Error>(())
//! ```
//!
//! # How it runs
//! C is cut into tiles of [`ROWS`] rows × 16 columns, shared out among the QPUs column
//! block by column block (QPUs running at the same time read the same rows of B). For a
//! tile, the QPU keeps 16 accumulators (one row of 16 columns each) and walks k: row k of
//! B's column block arrives as one 16-lane vector through the TMU (requested [`AHEAD`] rows
//! ahead), and the 16 elements A[i][k] arrive broadcast through the uniform stream
//! ([`qpu::lang::UniformStream`]), so each multiply-add is one `fmul` (reading the uniform
//! itself) and one `fadd`, dual-issued: 16 words and a TMU request per k.
//!
//! The host packs op(A) into panels of 16 rows in k-major order (the order the stream
//! reads), pads op(B) to [`padded_width`] columns (plus [`AHEAD`] zero rows for the last
//! requests) and stages C in the same padded layout. The kernel is compiled for each padded
//! width (row offsets are constants, so a tile's 16 stores go out as four 4-row DMAs).
//!
//! The emulator models uniform reads as free (it has no uniform-cache timing); on a Pi each
//! 64-byte line of a panel is fetched through the uniform cache.

use std::collections::HashMap;
use std::sync::Mutex;

use qpu::lang::*;
use qpu::runtime::RunReport;
use qpu::{Device, Kernel};

/// Rows of C per tile (accumulators per QPU).
pub const ROWS: usize = 16;
/// B rows requested ahead of their use (the TMU FIFO holds 4).
pub const AHEAD: usize = 4;
/// k steps per loop iteration (k is padded to a multiple of this with zeros).
const UNROLL: usize = 4;

/// Whether an operand is used as stored or transposed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transpose {
    /// op(X) = X.
    No,
    /// op(X) = Xᵀ.
    Yes,
}

/// The kernel's parameters: packed A, padded B, padded C, k (padded), row blocks, tiles,
/// α, β.
pub type Params = (
    Ptr<Float>,
    Ptr<Float>,
    Ptr<Float>,
    Int,
    Int,
    Int,
    Float,
    Float,
);

/// The kernel for padded row length `ldb` (floats, a multiple of 16): see the module docs.
/// `k` is a multiple of 4; `a` holds the panels (`ROWS · k` floats each), `b` `k + AHEAD`
/// rows and `c` the padded C, both `ldb` floats per row.
#[allow(clippy::too_many_arguments)]
pub fn kernel(
    ldb: i32,
    a: Ptr<Float>,
    b: Ptr<Float>,
    c: Ptr<Float>,
    k: Int,
    row_blocks: Int,
    tiles: Int,
    alpha: Float,
    beta: Float,
) {
    let acc: [Float; ROWS] = std::array::from_fn(|_| Float::var(0.0));
    let bk = Float::var(0.0);
    let p = Ptr::var(b);
    // Tiles go column block by column block (t = cb · row_blocks + rb), so the QPUs running
    // at the same time read the same rows of B: one fetch from memory serves the TMU cache
    // of a slice and the L2 cache of all. Rather than divide, each QPU steps rb by
    // num_qpus() and carries into cb; its A panel and C rows move with rb.
    let rb = Int::var(me());
    let cb = Int::var(0);
    let panel = Ptr::var(a + me() * k * ROWS as i32);
    let c_rows = Ptr::var(c + me() * (ldb * ROWS as i32));
    let panel_size = Int::var(k * ROWS as i32);
    let carry = || {
        while_(any(rb.ge(row_blocks)), || {
            rb.set(rb - row_blocks);
            cb.set(cb + 1);
            panel.set(panel - row_blocks * panel_size);
            c_rows.set(c_rows - row_blocks * (ldb * ROWS as i32));
        });
    };
    carry();
    for_(
        me(),
        |t| t.lt(tiles),
        |t| t + num_qpus(),
        |_| {
            let s = UniformStream::at(panel);
            for r in &acc {
                r.set(0.0);
            }
            p.set(b + (cb << 4) + index());
            for u in 0..AHEAD as i32 {
                gather(p + ldb * u);
            }
            p.set(p + ldb * AHEAD as i32);
            for_range(0, k, UNROLL as i32, |_| {
                for u in 0..UNROLL as i32 {
                    receive(bk);
                    gather(p + ldb * u);
                    for r in &acc {
                        r.set(*r + s.next() * bk);
                    }
                }
                p.set(p + ldb * UNROLL as i32);
            });
            for _ in 0..AHEAD {
                receive(bk);
            }
            let tile = c_rows + (cb << 4);
            let old: [Float; ROWS] =
                std::array::from_fn(|r| Float::var((tile + ldb * r as i32).load()));
            for (r, (sum, old)) in acc.iter().zip(&old).enumerate() {
                (tile + ldb * r as i32).store(*sum * alpha + beta * *old);
            }
            rb.set(rb + num_qpus());
            panel.set(panel + num_qpus() * panel_size);
            c_rows.set(c_rows + num_qpus() * (ldb * ROWS as i32));
            carry();
        },
    );
}

/// SGEMM on the QPUs: kernels compiled per padded width, run on a chosen number of QPUs.
pub struct Sgemm {
    num_qpus: u32,
    kernels: Mutex<HashMap<usize, std::sync::Arc<Kernel<Params>>>>,
}

impl Default for Sgemm {
    fn default() -> Sgemm {
        Sgemm::new()
    }
}

impl Sgemm {
    /// SGEMM on one QPU.
    pub fn new() -> Sgemm {
        Sgemm {
            num_qpus: 1,
            kernels: Mutex::new(HashMap::new()),
        }
    }

    /// SGEMM on `num_qpus` QPUs (1..=12), as every library type sets its QPU count.
    pub fn with_qpus(num_qpus: u32) -> qpu::Result<Sgemm> {
        if !(1..=12).contains(&num_qpus) {
            return Err(qpu::Error::NumQpus(num_qpus));
        }
        Ok(Sgemm {
            num_qpus,
            ..Sgemm::new()
        })
    }

    /// The QPUs each run uses.
    pub fn num_qpus(&self) -> u32 {
        self.num_qpus
    }

    /// The kernel for padded width `ldb`, compiled on first use.
    pub fn kernel(&self, ldb: usize) -> qpu::Result<std::sync::Arc<Kernel<Params>>> {
        let mut kernels = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = kernels.get(&ldb) {
            return Ok(k.clone());
        }
        let width = i32::try_from(ldb)
            .map_err(|_| qpu::Error::Arguments(format!("{ldb} columns are too many")))?;
        let mut kernel = qpu::compile(
            move |a: Ptr<Float>,
                  b: Ptr<Float>,
                  c: Ptr<Float>,
                  k: Int,
                  row_blocks: Int,
                  tiles: Int,
                  alpha: Float,
                  beta: Float| {
                self::kernel(width, a, b, c, k, row_blocks, tiles, alpha, beta)
            },
        )?;
        kernel.set_num_qpus(self.num_qpus)?;
        let kernel = std::sync::Arc::new(kernel);
        kernels.insert(ldb, kernel.clone());
        Ok(kernel)
    }

    /// C ← α·op(A)·op(B) + β·C, row-major: op(A) is m × k, op(B) k × n, C m × n; `lda`,
    /// `ldb`, `ldc` are the stored matrices' row lengths (BLAS's leading dimensions). With
    /// β = 0, C's old contents are not read (NaNs in it do not propagate). Returns the
    /// device's report of the run.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        device: &Device,
        trans_a: Transpose,
        trans_b: Transpose,
        m: usize,
        n: usize,
        k: usize,
        alpha: f32,
        a: &[f32],
        lda: usize,
        b: &[f32],
        ldb: usize,
        beta: f32,
        c: &mut [f32],
        ldc: usize,
    ) -> qpu::Result<Option<RunReport>> {
        let bad = |what: String| Err(qpu::Error::Arguments(format!("sgemm: {what}")));
        let need = |rows: usize, cols: usize, ld: usize, len: usize, name: &str| {
            if rows == 0 || cols == 0 {
                return Ok(());
            }
            if ld < cols {
                return bad(format!(
                    "{name}'s leading dimension {ld} is below its {cols} columns"
                ));
            }
            let end = (rows - 1).checked_mul(ld).and_then(|x| x.checked_add(cols));
            if end.is_none_or(|end| end > len) {
                return bad(format!(
                    "{name} holds {len} floats, fewer than {rows} rows of {ld}"
                ));
            }
            Ok(())
        };
        let (a_rows, a_cols) = match trans_a {
            Transpose::No => (m, k),
            Transpose::Yes => (k, m),
        };
        let (b_rows, b_cols) = match trans_b {
            Transpose::No => (k, n),
            Transpose::Yes => (n, k),
        };
        need(a_rows, a_cols, lda, a.len(), "A")?;
        need(b_rows, b_cols, ldb, b.len(), "B")?;
        need(m, n, ldc, c.len(), "C")?;
        if m == 0 || n == 0 {
            return Ok(None);
        }
        let op_a = |i: usize, j: usize| match trans_a {
            Transpose::No => a[i * lda + j],
            Transpose::Yes => a[j * lda + i],
        };
        let op_b = |i: usize, j: usize| match trans_b {
            Transpose::No => b[i * ldb + j],
            Transpose::Yes => b[j * ldb + i],
        };
        let (mp, np, kp) = (
            m.next_multiple_of(ROWS),
            n.next_multiple_of(16),
            k.next_multiple_of(UNROLL),
        );
        let too_big = || qpu::Error::Arguments("sgemm: the matrices are too large".to_string());
        let as_i32 = |v: usize| i32::try_from(v).map_err(|_| too_big());
        // A in panels of ROWS rows, k-major: panel p, step kk, row r.
        let mut packed = vec![0.0f32; mp * kp];
        for i in 0..m {
            let (panel, r) = (i / ROWS, i % ROWS);
            for kk in 0..k {
                packed[panel * ROWS * kp + kk * ROWS + r] = op_a(i, kk);
            }
        }
        let ld = padded_width(n);
        let mut padded_b = vec![0.0f32; (kp + AHEAD) * ld];
        for kk in 0..k {
            for j in 0..n {
                padded_b[kk * ld + j] = op_b(kk, j);
            }
        }
        let mut padded_c = vec![0.0f32; mp * ld];
        if beta != 0.0 {
            for i in 0..m {
                padded_c[i * ld..i * ld + n].copy_from_slice(&c[i * ldc..i * ldc + n]);
            }
        }
        let (row_blocks, tiles) = (mp / ROWS, (mp / ROWS) * (np / 16));
        let kernel = self.kernel(ld)?;
        let pa = device.alloc_from(&packed)?;
        let pb = device.alloc_from(&padded_b)?;
        let mut pc = device.alloc_from(&padded_c)?;
        let report = kernel.run(
            device,
            (
                &pa,
                &pb,
                &mut pc,
                as_i32(kp)?,
                as_i32(row_blocks)?,
                as_i32(tiles)?,
                alpha,
                beta,
            ),
        )?;
        let out = pc.to_vec();
        for i in 0..m {
            c[i * ldc..i * ldc + n].copy_from_slice(&out[i * ld..i * ld + n]);
        }
        Ok(Some(report))
    }
}

/// The row length (floats) of the padded B and C for `n` columns, which selects the kernel:
/// `n` rounded up to 16, then to an odd number of 64-byte lines, so that the rows of a
/// column block fall in different slots of the direct-mapped TMU cache (an even count puts
/// every 4th or 8th row in the same slot: 256 × 256 ran at 8.6 GFLOPS instead of 15.4).
pub fn padded_width(n: usize) -> usize {
    let np = n.next_multiple_of(16);
    if (np / 16) % 2 == 1 {
        np
    } else {
        np + 16
    }
}

/// The kernel's result computed in scalar Rust with the QPU's float arithmetic (products and
/// sums rounded toward zero, [`qpu::float`]) in the kernel's order: Σ over k from 0, then
/// `sum·α + β·C`. Row-major, no transposes, `c` updated in place.
#[allow(clippy::too_many_arguments)]
pub fn reference(
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    a: &[f32],
    b: &[f32],
    beta: f32,
    c: &mut [f32],
) {
    in_order(
        qpu::float::add,
        qpu::float::mul,
        (m, n, k),
        alpha,
        a,
        b,
        beta,
        c,
    );
}

/// [`reference`] with IEEE single precision rounded to nearest even, the V3D float unit's
/// arithmetic (Pi 4/5), in the same order.
#[allow(clippy::too_many_arguments)]
pub fn reference_nearest(
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    a: &[f32],
    b: &[f32],
    beta: f32,
    c: &mut [f32],
) {
    in_order(|x, y| x + y, |x, y| x * y, (m, n, k), alpha, a, b, beta, c);
}

/// The kernel's order of operations with the given float `add` and `mul`.
#[allow(clippy::too_many_arguments)]
fn in_order(
    add: impl Fn(f32, f32) -> f32,
    mul: impl Fn(f32, f32) -> f32,
    (m, n, k): (usize, usize, usize),
    alpha: f32,
    a: &[f32],
    b: &[f32],
    beta: f32,
    c: &mut [f32],
) {
    for i in 0..m {
        for j in 0..n {
            let mut sum = 0.0f32;
            for kk in 0..k {
                sum = add(sum, mul(a[i * k + kk], b[kk * n + j]));
            }
            let old = if beta == 0.0 { 0.0 } else { c[i * n + j] };
            c[i * n + j] = add(mul(sum, alpha), mul(beta, old));
        }
    }
}

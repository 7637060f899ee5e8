//! Complex f32 FFTs of length 2^8 … 2^22, forward and inverse, many per launch, with
//! rustfft-style plans; real-input FFTs of 2^9 … 2^23 points ([`RealFft`], half the work);
//! 2D FFTs ([`Fft2d`]).
//!
//! ```
//! use num_complex::Complex32;
//! use qpu_kernels::fft::FftPlanner;
//!
//! let device = qpu::Device::interpreter();
//! let fft = FftPlanner::new().plan_fft_forward(256)?;
//! let mut data = vec![Complex32::new(0.0, 0.0); 256];
//! data[1] = Complex32::new(1.0, 0.0);
//! fft.process(&device, &mut data)?;
//! // The DFT of a unit impulse at n = 1 is e^{-2πik/256}.
//! assert!((data[64] - Complex32::new(0.0, -1.0)).norm() < 1e-5);
//! # Ok::<(), qpu::Error>(())
//! ```
//!
//! Like rustfft, transforms are unnormalised: the inverse of the forward transform
//! multiplies by the length.
//!
//! # How it runs
//! A batch of at least [`Fft::split_below`] sequences runs whole sequences per QPU (sequence
//! `me()`, `me() + num_qpus()`, …, no synchronisation). A smaller batch, a single transform
//! above all, would leave QPUs idle, so it runs a second kernel that splits every pass's
//! steps (below) over up to [`SPLIT_QPUS`] QPUs, with a semaphore barrier between passes —
//! how GPU_FFT shares one transform among its QPUs. A sequence of N = 16·M points is seen as M vectors of 16 lanes, lane l of vector v holding
//! x[16v + l] (the four-step FFT):
//! 1. M-point DFTs down the columns, one per lane, in Stockham passes of radix 16 (then 2,
//!    4 or 8): each step loads R vectors, multiplies by twiddles that are the same in every
//!    lane (so they come broadcast through the uniform stream), does an R-point DFT in
//!    registers and stores R vectors 16·Ns floats apart (a store run). No lane ever talks
//!    to another.
//! 2. For each block of 16 columns k1: a transposing load (16 vectors, 16 floats apart per
//!    lane) brings lane l's column into vector l, a twiddle ω_N^{l·k1} (from 2^9 on the
//!    product of a factor per block, from the uniform stream, and a fixed 16 × 16 table),
//!    and a 16-point DFT across the vectors gives X[k1 + M·k2] in natural order: vector k2
//!    is 16 consecutive outputs.
//!
//! The kernel is compiled per length and direction; the twiddle tables are computed on the
//! host in f64. The VideoCore IV truncates every float result toward zero, so each
//! operation shrinks its result by up to half a unit in the last place, a quarter or so on
//! average, and these losses add up coherently: left alone, the output comes out shrunk by
//! 0.35 ppm at 2^8 and 0.8 at 2^16, most of the error. The plan measures that mean gain on
//! pseudo-random probes run through a host model of the kernel's arithmetic and divides the
//! transposing step's twiddles by it (every value is multiplied by one of them once); on
//! the V3D generations, which round to nearest, the twiddles are left unscaled
//! ([`Device::gpu`] says which).

mod real;
mod two_d;

pub use real::RealFft;
pub use two_d::{Fft2d, Fft2dReport};

use std::f64::consts::PI;

use num_complex::Complex32;
use qpu::compiler::Gpu;
use qpu::lang::*;
use qpu::runtime::RunReport;
use qpu::{Device, Kernel};

/// Transform direction: the sign of the exponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FftDirection {
    /// e^{-2πink/N}.
    Forward,
    /// e^{+2πink/N} (unnormalised).
    Inverse,
}

impl FftDirection {
    pub(crate) fn sign(self) -> f64 {
        match self {
            FftDirection::Forward => -1.0,
            FftDirection::Inverse => 1.0,
        }
    }
}

/// Floats from a sequence's real parts to its imaginary parts. The TMU cache is
/// direct-mapped with 64 slots of 64 bytes (a 4 KiB period): from 2^9 points on, parts
/// exactly `len` apart would share slots and evict each other in the transposing step, so
/// 16 lines more (measured on the emulator: 2^10 went from 0.20 to 0.10 ms per transform).
fn im_offset(len: usize) -> usize {
    if len >= 512 {
        len + 256
    } else {
        len
    }
}

/// Floats per sequence in the kernel's buffers.
fn sequence_floats(len: usize) -> usize {
    2 * im_offset(len)
}

/// Shortest supported length (GPU_FFT's too): 16 columns of 16.
pub const MIN_LEN: usize = 256;
/// Longest supported length (GPU_FFT's longest too).
pub const MAX_LEN: usize = 1 << 22;

/// Plans FFTs for a number of QPUs.
#[derive(Debug, Clone, Copy)]
pub struct FftPlanner {
    num_qpus: u32,
}

impl Default for FftPlanner {
    fn default() -> FftPlanner {
        FftPlanner::new()
    }
}

impl FftPlanner {
    /// Plans for one QPU.
    pub fn new() -> FftPlanner {
        FftPlanner { num_qpus: 1 }
    }

    /// Plans for `num_qpus` QPUs (1..=12), as every library type sets its QPU count.
    pub fn with_qpus(num_qpus: u32) -> qpu::Result<FftPlanner> {
        if !(1..=12).contains(&num_qpus) {
            return Err(qpu::Error::NumQpus(num_qpus));
        }
        Ok(FftPlanner { num_qpus })
    }

    /// The QPUs the planned transforms run on.
    pub fn num_qpus(&self) -> u32 {
        self.num_qpus
    }

    /// A forward FFT of `len` points (a power of two, 2^8 ..= 2^22).
    pub fn plan_fft_forward(&self, len: usize) -> qpu::Result<Fft> {
        self.plan_fft(len, FftDirection::Forward)
    }

    /// An inverse (unnormalised) FFT of `len` points.
    pub fn plan_fft_inverse(&self, len: usize) -> qpu::Result<Fft> {
        self.plan_fft(len, FftDirection::Inverse)
    }

    /// An FFT of `len` points in `direction`.
    pub fn plan_fft(&self, len: usize, direction: FftDirection) -> qpu::Result<Fft> {
        Fft::new(len, direction, self.num_qpus)
    }

    /// A real-input FFT of `len` real points (2^9 ..= 2^23) in `direction`: forward from
    /// reals to the first `len / 2 + 1` values of their spectrum, inverse back ([`RealFft`]).
    pub fn plan_real_fft(&self, len: usize, direction: FftDirection) -> qpu::Result<RealFft> {
        RealFft::new(len, direction, self.num_qpus)
    }

    /// A 2D FFT of `rows × cols` points, row-major, each a power of two from 2^8 to 2^22
    /// ([`Fft2d`]).
    pub fn plan_fft_2d(
        &self,
        rows: usize,
        cols: usize,
        direction: FftDirection,
    ) -> qpu::Result<Fft2d> {
        Fft2d::new(rows, cols, direction, self.num_qpus)
    }
}

/// The Stockham passes for M columns: radix 16 while it divides, then the rest.
fn radices(m: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut left = m;
    while left >= 16 {
        out.push(16);
        left /= 16;
    }
    if left > 1 {
        out.push(left);
    }
    out
}

/// The kernel's parameters: buffers a and b (per sequence: real parts, then imaginary), the
/// uniform twiddles, the transposing step's twiddles (real parts, then imaginary), number of
/// sequences.
pub type Params = (Ptr<Float>, Ptr<Float>, Ptr<Float>, Ptr<Float>, Int);

/// A planned FFT: its compiled kernel and twiddle tables.
pub struct Fft {
    len: usize,
    direction: FftDirection,
    kernel: Kernel<Params>,
    /// The split kernel, for lengths from [`SPLIT_MIN_LEN`] on more than one QPU.
    split: Option<Kernel<Params>>,
    /// The Stockham passes' twiddles.
    uniforms: Vec<f32>,
    /// The transposing step's ([`step2_twiddles`]): its table and uniform factors, for a
    /// GPU that truncates float results (the VideoCore IV: scaled, see [`Fft::new`]) and for
    /// one that rounds them to nearest (the V3D generations: unscaled).
    step2: [(Vec<f32>, Vec<f32>); 2],
}

/// A complex value: in the kernel ([`Cv`]) a vector of 16 lanes of real and imaginary
/// parts; in the plan's host model of the kernel's arithmetic ([`Trunc`], f64) one number.
#[derive(Clone, Copy)]
struct Cx<T> {
    re: T,
    im: T,
}

/// A complex vector of the kernel.
type Cv = Cx<Float>;

impl Cv {
    fn var() -> Cv {
        Cx {
            re: Float::var(0.0),
            im: Float::var(0.0),
        }
    }
}

/// The arithmetic [`dft`] is written in: the kernel's floats (each result a new variable),
/// the VideoCore IV's truncating f32 arithmetic on the host ([`Trunc`]), or exact f64.
trait Arith: Copy {
    fn konst(x: f32) -> Self;
    fn add(self, other: Self) -> Self;
    fn sub(self, other: Self) -> Self;
    /// `self · c − other · s`, as the kernel computes it: two products, one difference.
    fn mul_sub(self, c: Self, other: Self, s: Self) -> Self;
    /// `self · s + other · c`.
    fn mul_add(self, s: Self, other: Self, c: Self) -> Self;
}

impl Arith for Float {
    fn konst(x: f32) -> Float {
        Float::from(x)
    }
    fn add(self, other: Float) -> Float {
        Float::var(self + other)
    }
    fn sub(self, other: Float) -> Float {
        Float::var(self - other)
    }
    fn mul_sub(self, c: Float, other: Float, s: Float) -> Float {
        Float::var(self * c - other * s)
    }
    fn mul_add(self, s: Float, other: Float, c: Float) -> Float {
        Float::var(self * s + other * c)
    }
}

impl Arith for f64 {
    fn konst(x: f32) -> f64 {
        f64::from(x)
    }
    fn add(self, other: f64) -> f64 {
        self + other
    }
    fn sub(self, other: f64) -> f64 {
        self - other
    }
    fn mul_sub(self, c: f64, other: f64, s: f64) -> f64 {
        self * c - other * s
    }
    fn mul_add(self, s: f64, other: f64, c: f64) -> f64 {
        self * s + other * c
    }
}

/// An f32 value computed as the VideoCore IV's `fadd`, `fsub` and `fmul` do: the exact
/// result truncated toward zero (see `qpu-emu`'s float module for the evidence).
#[derive(Clone, Copy)]
struct Trunc(f64);

impl Trunc {
    /// `x` (exact: a product or sum of two f32 values here fits in an f64, bar sums of
    /// values 2^29 apart, too rare to move a mean) toward zero to an f32.
    fn of(x: f64) -> Trunc {
        let near = x as f32;
        // Sign and magnitude: one step down in the bits is one step toward zero.
        let word = if f64::from(near).abs() > x.abs() {
            f32::from_bits(near.to_bits() - 1)
        } else {
            near
        };
        Trunc(f64::from(word))
    }
}

impl Arith for Trunc {
    fn konst(x: f32) -> Trunc {
        Trunc(f64::from(x))
    }
    fn add(self, other: Trunc) -> Trunc {
        Trunc::of(self.0 + other.0)
    }
    fn sub(self, other: Trunc) -> Trunc {
        Trunc::of(self.0 - other.0)
    }
    fn mul_sub(self, c: Trunc, other: Trunc, s: Trunc) -> Trunc {
        Trunc::of(Trunc::of(self.0 * c.0).0 - Trunc::of(other.0 * s.0).0)
    }
    fn mul_add(self, s: Trunc, other: Trunc, c: Trunc) -> Trunc {
        Trunc::of(Trunc::of(self.0 * s.0).0 + Trunc::of(other.0 * c.0).0)
    }
}

/// Receive `vars` in order, four requests in flight: `request(i)` issues the gather for
/// `vars[i]` (it may also step a pointer), `after(i)` runs once `vars[i]` has arrived.
fn fetch(vars: &[Float], request: &mut dyn FnMut(usize), after: &mut dyn FnMut(usize)) {
    const DEPTH: usize = GATHER_FIFO_DEPTH as usize;
    for i in 0..vars.len().min(DEPTH) {
        request(i);
    }
    for (i, v) in vars.iter().enumerate() {
        receive(*v);
        if i + DEPTH < vars.len() {
            request(i + DEPTH);
        }
        after(i);
    }
}

/// `v · (c + i·s)` as new variables (6 operations, no copies).
fn twiddled<T: Arith>(v: Cx<T>, c: T, s: T) -> Cx<T> {
    Cx {
        re: v.re.mul_sub(c, v.im, s),
        im: v.re.mul_add(s, v.im, c),
    }
}

/// An in-register DFT of `v.len()` (2, 4, 8 or 16) complex vectors, natural order in and
/// out: radix-2 decimation in time after a bit-reversal of the Rust handles (free). Every
/// result is a new variable, so no operation is a copy; products by ±i are folded into the
/// butterfly's additions.
fn dft<T: Arith>(v: &[Cx<T>], sign: f64) -> Vec<Cx<T>> {
    let n = v.len();
    let bits = n.trailing_zeros();
    let mut x: Vec<Cx<T>> = (0..n)
        .map(|i| v[i.reverse_bits() >> (usize::BITS - bits)])
        .collect();
    let mut half = 1;
    while half < n {
        for start in (0..n).step_by(2 * half) {
            for j in 0..half {
                let (a, b) = (x[start + j], x[start + j + half]);
                // b · ω_{2·half}^j.
                let angle = sign * PI * j as f64 / half as f64;
                let (c, s) = (angle.cos(), angle.sin());
                let (top, bottom) = if j == 0 {
                    (
                        Cx {
                            re: a.re.add(b.re),
                            im: a.im.add(b.im),
                        },
                        Cx {
                            re: a.re.sub(b.re),
                            im: a.im.sub(b.im),
                        },
                    )
                } else if 4 * j == 2 * half {
                    // ω = ±i: b·ω = (∓b.im, ±b.re).
                    let minus = |a: Cx<T>, b: Cx<T>| Cx {
                        re: a.re.sub(b.im),
                        im: a.im.add(b.re),
                    };
                    let plus = |a: Cx<T>, b: Cx<T>| Cx {
                        re: a.re.add(b.im),
                        im: a.im.sub(b.re),
                    };
                    if s > 0.0 {
                        (minus(a, b), plus(a, b))
                    } else {
                        let top = plus(a, b);
                        (top, minus(a, b))
                    }
                } else {
                    let t = twiddled(b, T::konst(c as f32), T::konst(s as f32));
                    (
                        Cx {
                            re: a.re.add(t.re),
                            im: a.im.add(t.im),
                        },
                        Cx {
                            re: a.re.sub(t.re),
                            im: a.im.sub(t.im),
                        },
                    )
                };
                x[start + j] = top;
                x[start + j + half] = bottom;
            }
        }
        half *= 2;
    }
    x
}

/// Semaphore a QPU raises when it has finished a pass (split mode, see [`barrier`]).
const ARRIVED: u32 = 0;
/// Semaphores QPU 0 raises to let the others start the next pass, alternating between
/// consecutive barriers (see [`barrier`]).
const RELEASE: [u32; 2] = [1, 2];

/// Barrier `k` (0, 1, … in the order they run) between two passes over the shared buffers:
/// no QPU leaves it before every QPU has arrived, and what each stored before it is then in
/// memory (a semaphore operation waits for the QPU's stores first). QPUs 1.. each raise
/// [`ARRIVED`] and wait on their release; QPU 0 takes `num_qpus() - 1` arrivals, then raises
/// the release as often — the master/worker barrier GPU_FFT's shaders build from the
/// VideoCore IV's 16 hardware semaphores (the guide's `sacq`/`srel`). A release semaphore
/// may not be reused by the very next barrier: a QPU released early could run on to it and
/// take a second token meant for a QPU still waiting on this one, so they alternate (by the
/// time barrier k + 2 releases anyone, every QPU has left barrier k + 1, hence k). Counts stay
/// within 0..=11 (at most 12 QPUs), below the semaphores' 15.
fn barrier(k: usize) {
    let release = RELEASE[k % 2];
    if_(all(me().eq(0)), || {
        for_range(1, num_qpus(), 1, |_| sema_dec(ARRIVED));
        for_range(1, num_qpus(), 1, |_| sema_inc(release));
    })
    .else_(|| {
        sema_inc(ARRIVED);
        sema_dec(release);
    });
}

/// Shortest length whose batches may be split over the QPUs: below it a pass has too few
/// steps to share (2^8: one per pass and sequence).
pub const SPLIT_MIN_LEN: usize = 1 << 10;

/// QPUs a split transform runs on at most. On the VideoCore IV every store is a VDW DMA of at
/// most the QPU's share of the VPM's 64 rows (`64 >> ceil(log2 QPUs)`), all through one DMA
/// engine, and a split pass is bound by it: 8 QPUs store 8 rows per DMA where 12 store 4,
/// which models faster at every length (2^12: 0.34 against 0.43 ms; 2^16: 4.8 against 5.8;
/// 2^20: 183 against 205). GPU_FFT runs on 8 QPUs too.
pub const SPLIT_QPUS: u32 = 8;

/// Loads, twiddles, DFTs and stores one step of a Stockham pass of radix `r` (the module
/// docs): `from`/`to` plus `offset` are the sequence's buffers, `j` the step, `twiddles` the
/// uniform stream positioned at the step's R − 1 twiddles (unused in the first pass, `ns` 1).
#[allow(clippy::too_many_arguments)]
fn stockham_step(
    len: usize,
    sign: f64,
    r: usize,
    ns: usize,
    regs: &[Cv],
    (from, to, offset): (Ptr<Float>, Ptr<Float>, Int),
    j: Int,
    twiddles: &dyn Fn() -> UniformStream<Float>,
) {
    let m = len / 16;
    let n = im_offset(len) as i32;
    let v = &regs[..r];
    let vars: Vec<Float> = v.iter().flat_map(|c| [c.re, c.im]).collect();
    let (stride_in, stride_out) = ((m / r * 16) as i32, (ns * 16) as i32);
    // Element q of this step: vector j + q·M/R, real part then imaginary.
    let p = Ptr::var(from + offset + (j << 4) + index());
    fetch(
        &vars,
        &mut |i| {
            if i % 2 == 0 {
                gather(p);
            } else {
                gather(p + n);
                p.set(p + stride_in);
            }
        },
        &mut |_| {},
    );
    let mut inputs = v.to_vec();
    if ns > 1 {
        // e^{±2πi·q·(j mod Ns)/(Ns·R)} for q = 1..R, from the host's table.
        let s = twiddles();
        for x in &mut inputs[1..] {
            let (c, sn) = (Float::var(s.next()), Float::var(s.next()));
            *x = twiddled(*x, c, sn);
        }
    }
    let w = dft(&inputs, sign);
    // Output index (j / Ns)·Ns·R + (j mod Ns), then every Ns vectors.
    let k = j & (ns as i32 - 1);
    let out = Int::var(((j - k) * r as i32 + k) << 4);
    // Non-blocking: the DMAs run while the next step computes.
    let base = to + offset + out;
    for (q, c) in w.iter().enumerate() {
        store(c.re, base + q as i32 * stride_out + index());
    }
    for (q, c) in w.iter().enumerate() {
        store(c.im, base + (n + q as i32 * stride_out) + index());
    }
}

/// Whether the transposing step's twiddles ω_N^{l·k1}, k1 = 16j + r, are factored into
/// ω_M^{l·j} (M = N/16: the same in every lane, so from the uniform stream, 16 per block)
/// times ω_N^{l·r} (a fixed 16 × 16 table, which stays in the TMU cache). A full table of N
/// twiddles costs as many TMU line fills as the data; factoring costs a complex product per
/// column instead. At 2^8 there is one block and the full table is the fixed one. Measured
/// on the emulator (cycles, 12 QPUs), factoring pays for the split kernel (2^12, one
/// transform: 94,090 → 85,628; 2^16: 5.25 → 4.83 ms) and for whole sequences (batch of 10,
/// 2^9: 121,601 → 117,332; 2^11: 359,716 → 353,776; batch of 12, 2^14: 3.94 → 3.85 M)
/// except at 2^12, where a batch of 10 read its 33 KiB table from the L2 cache and the
/// products cost more than the fills saved (643,060 → 652,544). Both kernels factor alike,
/// so that a transform's bits do not depend on the batch it runs in.
fn factored(len: usize) -> bool {
    len > MIN_LEN
}

/// Block `j` of the transposing step: transposing loads, twiddles ω_N^{l·k1}, 16-point DFTs
/// across vectors, from `from` to `to` (plus `offset`); `twiddles` is the uniform stream at
/// the block's 16 factors when they are [`factored`] (`tw` then holds the fixed table).
fn transpose_block(
    len: usize,
    sign: f64,
    regs: &[Cv],
    (from, to, offset): (Ptr<Float>, Ptr<Float>, Int),
    tw: Ptr<Float>,
    j: Int,
    twiddles: &dyn Fn() -> UniformStream<Float>,
) {
    let m = len / 16;
    let n = im_offset(len) as i32;
    let v = &regs[..16];
    let block = Int::var(j << 8);
    // Column l: lane r reads row 16j + r; its twiddles are a vector of the table.
    let p = Ptr::var(from + offset + block + (index() << 4));
    let (q, tw_im) = if factored(len) {
        (Ptr::var(tw + index()), 256)
    } else {
        (Ptr::var(tw + block + index()), n)
    };
    let s = factored(len).then(twiddles);
    let (wr, wi) = (Float::var(0.0), Float::var(0.0));
    let order: Vec<Float> = v.iter().flat_map(|c| [c.re, c.im, wr, wi]).collect();
    let mut inputs = v.to_vec();
    fetch(
        &order,
        &mut |i| match i % 4 {
            0 => gather(p),
            1 => {
                gather(p + n);
                p.set(p + 1);
            }
            2 => gather(q),
            _ => {
                gather(q + tw_im);
                q.set(q + 16);
            }
        },
        // Each column is twiddled as soon as its four values arrive.
        &mut |i| {
            if i % 4 == 3 {
                let mut x = v[i / 4];
                if let Some(s) = s {
                    let (c, sn) = (Float::var(s.next()), Float::var(s.next()));
                    x = twiddled(x, c, sn);
                }
                inputs[i / 4] = twiddled(x, wr, wi);
            }
        },
    );
    let w = dft(&inputs, sign);
    let base = to + offset + (j << 4);
    for (k2, c) in w.iter().enumerate() {
        store(c.re, base + k2 as i32 * m as i32 + index());
    }
    for (k2, c) in w.iter().enumerate() {
        store(c.im, base + (n + k2 as i32 * m as i32) + index());
    }
}

/// The kernel for `len` points in `direction` (see the module docs), each QPU transforming
/// whole sequences: sequences me(), me() + num_qpus(), …, every pass, with no
/// synchronisation. Sequence t occupies [`sequence_floats`] floats of `a`: its real parts,
/// then from [`im_offset`] its imaginary parts; `b` is the same size; `tw` holds the
/// transposing step's twiddles (real parts, then from [`im_offset`] imaginary).
fn kernel(
    len: usize,
    direction: FftDirection,
    a: Ptr<Float>,
    b: Ptr<Float>,
    uniforms: Ptr<Float>,
    tw: Ptr<Float>,
    count: Int,
) {
    let m = len / 16;
    let sign = direction.sign();
    let regs: Vec<Cv> = (0..16).map(|_| Cv::var()).collect();
    for_(
        me(),
        |t| t.lt(count),
        |t| t + num_qpus(),
        |t| {
            let offset = Int::var(t * sequence_floats(len) as i32);
            // The passes read the twiddle table in order.
            let s = UniformStream::at(uniforms);
            // Pass i reads `from` and writes `to`, alternating a and b.
            let (mut from, mut to) = (a, b);
            let mut ns = 1usize;
            for r in radices(m) {
                for_range(0, (m / r) as i32, 1, |j| {
                    let buffers = (from, to, offset);
                    stockham_step(len, sign, r, ns, &regs, buffers, j, &|| s);
                });
                ns *= r;
                std::mem::swap(&mut from, &mut to);
            }
            for_range(0, (m / 16) as i32, 1, |j| {
                let buffers = (from, to, offset);
                transpose_block(len, sign, &regs, buffers, tw, j, &|| s);
            });
        },
    );
}

/// The same transform with every pass split over the QPUs (for batches smaller than the QPU
/// count): each pass's steps, over all `count` sequences, are dealt round-robin (step i to
/// QPU i mod num_qpus(), step i being step `i mod steps` of sequence `i / steps`), with a
/// [`barrier`] after every pass but the last, since a pass reads what every QPU wrote in the
/// one before. Each step points the uniform stream at its own twiddles.
fn split_kernel(
    len: usize,
    direction: FftDirection,
    a: Ptr<Float>,
    b: Ptr<Float>,
    uniforms: Ptr<Float>,
    tw: Ptr<Float>,
    count: Int,
) {
    let m = len / 16;
    let sign = direction.sign();
    let per = sequence_floats(len) as i32;
    let regs: Vec<Cv> = (0..16).map(|_| Cv::var()).collect();
    // The steps of a pass of `steps` per sequence: `body(sequence offset, step)`.
    let pass = |steps: usize, body: &mut dyn FnMut(Int, Int)| {
        let log2 = steps.trailing_zeros() as i32;
        for_range(me(), count << log2, num_qpus(), |i| {
            let offset = Int::var((i >> log2) * per);
            body(offset, i & (steps as i32 - 1));
        });
    };
    let (mut from, mut to) = (a, b);
    let mut ns = 1usize;
    // Where the pass's twiddles start in the uniform table.
    let mut table = 0i32;
    for (k, r) in radices(m).into_iter().enumerate() {
        let steps = m / r;
        pass(steps, &mut |offset, j| {
            let twiddles = || UniformStream::at(uniforms + (j * (2 * (r as i32 - 1)) + table));
            stockham_step(len, sign, r, ns, &regs, (from, to, offset), j, &twiddles);
        });
        if ns > 1 {
            table += (steps * 2 * (r - 1)) as i32;
        }
        barrier(k);
        ns *= r;
        std::mem::swap(&mut from, &mut to);
    }
    pass(m / 16, &mut |offset, j| {
        let twiddles = || UniformStream::at(uniforms + (j * 32 + table));
        let buffers = (from, to, offset);
        transpose_block(len, sign, &regs, buffers, tw, j, &twiddles);
    });
}

/// Pseudo-random probe values in [−0.5, 0.5), as f32 (xorshift64; fixed seed, so plans are
/// reproducible).
struct Probe(u64);

impl Probe {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        f64::from((self.0 >> 40) as f32 / (1u64 << 24) as f32 - 0.5)
    }

    fn complex(&mut self) -> (Cx<Trunc>, Cx<f64>) {
        let (re, im) = (self.next(), self.next());
        (
            Cx {
                re: Trunc(re),
                im: Trunc(im),
            },
            Cx { re, im },
        )
    }
}

/// Probes per stage of the gain measurements: 256 DFTs of 16 points give the gain to about
/// 10^-9, far below the f32 steps (6·10^-8 … 1.2·10^-7) the scaled twiddles take.
const PROBES: usize = 256;

/// The mean gain `Σ got·exact / Σ |exact|²` of DFTs whose twiddled inputs `probe(i)` gives
/// (for i < [`PROBES`]), in the VideoCore IV's truncating arithmetic against exact f64.
fn gain(sign: f64, probe: &mut dyn FnMut(usize) -> (Vec<Cx<Trunc>>, Vec<Cx<f64>>)) -> f64 {
    let (mut dot, mut norm) = (0.0, 0.0);
    for i in 0..PROBES {
        let (got, exact) = probe(i);
        for (g, e) in dft(&got, sign).iter().zip(dft(&exact, sign)) {
            dot += g.re.0 * e.re + g.im.0 * e.im;
            norm += e.re * e.re + e.im * e.im;
        }
    }
    dot / norm
}

/// The gain of `len` points' Stockham passes (their twiddles from `uniforms`, as the kernel
/// reads them), each measured on fresh probes and multiplied.
fn passes_gain(len: usize, sign: f64, uniforms: &[f32]) -> f64 {
    let m = len / 16;
    let mut probe = Probe(0x9e37_79b9_7f4a_7c15);
    let (mut total, mut ns, mut table) = (1.0, 1, 0);
    for r in radices(m) {
        let steps = m / r;
        total *= gain(sign, &mut |i| {
            // Steps spread over the pass (an odd stride visits them all).
            let at = table + (i * 97 % steps) * 2 * (r - 1);
            (0..r)
                .map(|q| {
                    let (t, e) = probe.complex();
                    if ns == 1 || q == 0 {
                        return (t, e);
                    }
                    let (c, s) = (uniforms[at + 2 * (q - 1)], uniforms[at + 2 * q - 1]);
                    let (tc, ts) = (Trunc::konst(c), Trunc::konst(s));
                    (twiddled(t, tc, ts), twiddled(e, c.into(), s.into()))
                })
                .unzip()
        });
        if ns > 1 {
            table += steps * 2 * (r - 1);
        }
        ns *= r;
    }
    total
}

/// The transposing step's twiddles ω_N^{l·k1}, k1 = 16j + r, the block factors times
/// `scale`: the TMU table (real parts, then imaginary) and the uniform factors (16 complex
/// per block). [`factored`]: the table is ω_N^{l·r} at 16l + r (imaginary parts 256 floats
/// on), block j's factors ω_M^{l·j}; otherwise the table is the whole ω_N^{l·k1}, at
/// (16j + l)·16 + r (imaginary parts [`im_offset`] floats on), with no factors.
fn step2_twiddles(len: usize, sign: f64, scale: f64) -> (Vec<f32>, Vec<f32>) {
    let m = len / 16;
    let omega = |k: usize, n: usize| {
        let angle = sign * 2.0 * PI * (k % n) as f64 / n as f64;
        (angle.cos(), angle.sin())
    };
    if factored(len) {
        let mut table = vec![0.0f32; 512];
        for l in 0..16 {
            for r in 0..16 {
                let (c, s) = omega(l * r, len);
                (table[16 * l + r], table[256 + 16 * l + r]) = (c as f32, s as f32);
            }
        }
        let factors = (0..m / 16)
            .flat_map(|j| (0..16).map(move |l| omega(l * j, m)))
            .flat_map(|(c, s)| [(scale * c) as f32, (scale * s) as f32])
            .collect();
        (table, factors)
    } else {
        let mut table = vec![0.0f32; im_offset(len) + len];
        for j in 0..m / 16 {
            for l in 0..16 {
                for r in 0..16 {
                    let at = (16 * j + l) * 16 + r;
                    let (c, s) = omega(l * (16 * j + r), len);
                    table[at] = (scale * c) as f32;
                    table[im_offset(len) + at] = (scale * s) as f32;
                }
            }
        }
        (table, Vec::new())
    }
}

/// The gain of the transposing step with the twiddles [`step2_twiddles`] gives (its columns
/// twiddled as the kernel does, then 16-point DFTs).
fn transposing_gain(len: usize, sign: f64, (table, factors): &(Vec<f32>, Vec<f32>)) -> f64 {
    let blocks = len / 256;
    let mut probe = Probe(0x2545_f491_4f6c_dd1d);
    gain(sign, &mut |i| {
        // Block j, lane r.
        let (j, r) = (i * 97 % blocks, i % 16);
        (0..16)
            .map(|l| {
                let (mut t, mut e) = probe.complex();
                let (at, im) = if factored(len) {
                    let (c, s) = (factors[32 * j + 2 * l], factors[32 * j + 2 * l + 1]);
                    t = twiddled(t, Trunc::konst(c), Trunc::konst(s));
                    e = twiddled(e, c.into(), s.into());
                    (16 * l + r, 256)
                } else {
                    ((16 * j + l) * 16 + r, im_offset(len))
                };
                let (c, s) = (table[at], table[im + at]);
                let (tc, ts) = (Trunc::konst(c), Trunc::konst(s));
                (twiddled(t, tc, ts), twiddled(e, c.into(), s.into()))
            })
            .unzip()
    })
}

impl Fft {
    /// Plan and compile an FFT of `len` points in `direction` for `num_qpus` QPUs.
    pub fn new(len: usize, direction: FftDirection, num_qpus: u32) -> qpu::Result<Fft> {
        if !len.is_power_of_two() || !(MIN_LEN..=MAX_LEN).contains(&len) {
            return Err(qpu::Error::Arguments(format!(
                "FFT length {len}: lengths are powers of two from {MIN_LEN} to {MAX_LEN}"
            )));
        }
        let mut kernel = qpu::compile(
            move |a: Ptr<Float>,
                  b: Ptr<Float>,
                  uniforms: Ptr<Float>,
                  tw: Ptr<Float>,
                  count: Int| {
                self::kernel(len, direction, a, b, uniforms, tw, count)
            },
        )?;
        kernel.set_num_qpus(num_qpus)?;
        let split = if len >= SPLIT_MIN_LEN && num_qpus > 1 {
            let mut split = qpu::compile(
                move |a: Ptr<Float>,
                      b: Ptr<Float>,
                      uniforms: Ptr<Float>,
                      tw: Ptr<Float>,
                      count: Int| {
                    split_kernel(len, direction, a, b, uniforms, tw, count)
                },
            )?;
            split.set_num_qpus(num_qpus.min(SPLIT_QPUS))?;
            Some(split)
        } else {
            None
        };
        let (m, sign) = (len / 16, direction.sign());
        // The Stockham passes' twiddles, in the order the kernel reads them.
        let mut uniforms = Vec::new();
        let mut ns = 1;
        for r in radices(m) {
            if ns > 1 {
                for j in 0..m / r {
                    let k = j % ns;
                    for q in 1..r {
                        let angle = sign * 2.0 * PI * (q * k) as f64 / (ns * r) as f64;
                        uniforms.push(angle.cos() as f32);
                        uniforms.push(angle.sin() as f32);
                    }
                }
            }
            ns *= r;
        }
        // Truncation makes every result smaller on average, so the kernel's output comes
        // out shrunk by a fraction of a ppm — most of its error (2^8: 0.35 of 0.37 ppm). The
        // transposing step's twiddles touch every value once, so scaling them by the
        // inverse of the gain the other operations have costs nothing; the scaled twiddles
        // that were ±1 no longer multiply exactly, so the gain is measured twice.
        // Rounding to nearest (the V3D generations) has no such bias.
        let passes = passes_gain(len, sign, &uniforms);
        let mut scale = 1.0;
        for _ in 0..2 {
            let step2 = step2_twiddles(len, sign, scale);
            scale = 1.0 / (passes * transposing_gain(len, sign, &step2));
        }
        let step2 = [
            step2_twiddles(len, sign, scale),
            step2_twiddles(len, sign, 1.0),
        ];
        Ok(Fft {
            len,
            direction,
            kernel,
            split,
            uniforms,
            step2,
        })
    }

    /// Points per transform.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a plan has at least 256 points.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The direction.
    pub fn direction(&self) -> FftDirection {
        self.direction
    }

    /// The compiled kernel that transforms whole sequences per QPU (its listing, its QPU
    /// count): batches of at least [`Fft::split_below`] sequences run on it.
    pub fn kernel(&mut self) -> &mut Kernel<Params> {
        &mut self.kernel
    }

    /// The compiled kernel that splits every pass over the QPUs, if the plan has one (from
    /// [`SPLIT_MIN_LEN`] points on more than one QPU): smaller batches run on it.
    pub fn split_kernel(&mut self) -> Option<&mut Kernel<Params>> {
        self.split.as_mut()
    }

    /// The kernel a batch of `count` sequences runs on: the split one below
    /// [`Fft::split_below`], else the whole-sequence one.
    pub fn kernel_for(&self, count: usize) -> &Kernel<Params> {
        match &self.split {
            Some(split) if count < self.split_below() => split,
            _ => &self.kernel,
        }
    }

    /// Batches of fewer sequences than this run on the split kernel (0 if there is none).
    /// Below the QPU count the whole-sequence kernel leaves QPUs idle; measured on the
    /// emulator (ms per transform, 12 QPUs), the split kernel wins there from 2^13 points
    /// (2^14, batch 10: 1.39 against 1.42; 2^16: 5.0 against 5.9) and below two thirds of
    /// the QPU count for shorter lengths (2^12, batch 6: 0.29 against 0.33), while at 2^10
    /// and 2^12 a batch of 10 is faster whole (0.069 against 0.079, 0.26 against 0.28).
    pub fn split_below(&self) -> usize {
        let qpus = self.kernel.num_qpus() as usize;
        match self.split {
            None => 0,
            Some(_) if self.len >= 1 << 13 => qpus,
            Some(_) => (2 * qpus).div_ceil(3),
        }
    }

    /// Transform `buffer` in place: consecutive sequences of [`Fft::len`] points, as many as
    /// it holds (its length must be a multiple). Returns the device's report.
    pub fn process(&self, device: &Device, buffer: &mut [Complex32]) -> qpu::Result<RunReport> {
        if !buffer.len().is_multiple_of(self.len) || buffer.is_empty() {
            return Err(qpu::Error::Arguments(format!(
                "FFT of {} points: the buffer holds {} values, not a positive multiple",
                self.len,
                buffer.len()
            )));
        }
        let count = i32::try_from(buffer.len() / self.len)
            .map_err(|_| qpu::Error::Arguments("too many sequences".to_string()))?;
        // Per sequence: its real parts, then its imaginary parts.
        let per = sequence_floats(self.len);
        let mut split = vec![0.0f32; per * buffer.len() / self.len];
        for (sequence, words) in buffer.chunks(self.len).zip(split.chunks_mut(per)) {
            let (re, im) = words.split_at_mut(im_offset(self.len));
            for (c, (r, i)) in sequence.iter().zip(re.iter_mut().zip(im)) {
                (*r, *i) = (c.re, c.im);
            }
        }
        let mut a = device.alloc_from(&split)?;
        let mut b = device.alloc::<f32>(split.len())?;
        // The uniforms: the passes' twiddles, then the transposing step's factors.
        let (table, factors) = &self.step2[usize::from(device.gpu() != Gpu::Vc4)];
        let mut words = [&self.uniforms[..], factors].concat();
        if words.is_empty() {
            words.push(0.0);
        }
        let uniforms = device.alloc_from(&words)?;
        let tw = device.alloc_from(table)?;
        let kernel = self.kernel_for(count as usize);
        let report = kernel.run(device, (&mut a, &mut b, &uniforms, &tw, count))?;
        // The passes alternate a → b → a …; the transposing step writes the other one.
        let passes = radices(self.len / 16).len();
        let out = if passes.is_multiple_of(2) {
            b.to_vec()
        } else {
            a.to_vec()
        };
        for (sequence, words) in buffer.chunks_mut(self.len).zip(out.chunks(per)) {
            let (re, im) = words.split_at(im_offset(self.len));
            for (c, (r, i)) in sequence.iter_mut().zip(re.iter().zip(im)) {
                *c = Complex32::new(*r, *i);
            }
        }
        Ok(report)
    }
}

/// Relative RMS error, in parts per million, of `output` (transforms of `len` points of
/// `input`, consecutive) against the same transforms in f64: ‖output − exact‖ / ‖exact‖
/// over all of them (GPU_FFT's accuracy measure).
pub fn rms_error_ppm(
    input: &[Complex32],
    output: &[Complex32],
    len: usize,
    direction: FftDirection,
) -> f64 {
    let sign = direction.sign();
    let (mut err, mut norm) = (0.0f64, 0.0f64);
    // A direct f64 DFT per output is O(n²); instead a radix-2 FFT in f64 here (the tests
    // also compare with rustfft).
    for (x, y) in input.chunks(len).zip(output.chunks(len)) {
        let exact = fft_f64(x, sign);
        for (e, got) in exact.iter().zip(y) {
            let d = (f64::from(got.re) - e.0, f64::from(got.im) - e.1);
            err += d.0 * d.0 + d.1 * d.1;
            norm += e.0 * e.0 + e.1 * e.1;
        }
    }
    (err / norm).sqrt() * 1e6
}

/// An f64 radix-2 FFT (recursive, for checking only).
fn fft_f64(x: &[Complex32], sign: f64) -> Vec<(f64, f64)> {
    let n = x.len();
    let mut a: Vec<(f64, f64)> = x
        .iter()
        .map(|c| (f64::from(c.re), f64::from(c.im)))
        .collect();
    let bits = n.trailing_zeros();
    for i in 0..n {
        let j = i.reverse_bits() >> (usize::BITS - bits);
        if i < j {
            a.swap(i, j);
        }
    }
    let mut half = 1;
    while half < n {
        for start in (0..n).step_by(2 * half) {
            for j in 0..half {
                let angle = sign * PI * j as f64 / half as f64;
                let (c, s) = (angle.cos(), angle.sin());
                let (p, q) = (a[start + j], a[start + j + half]);
                let t = (q.0 * c - q.1 * s, q.0 * s + q.1 * c);
                a[start + j] = (p.0 + t.0, p.1 + t.1);
                a[start + j + half] = (p.0 - t.0, p.1 - t.1);
            }
        }
        half *= 2;
    }
    a
}

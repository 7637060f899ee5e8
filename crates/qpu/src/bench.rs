//! Numbers for the examples: static and issued instructions, cycles, modelled time and
//! compile time on the strict emulator, beside QPULib's figures for the same setups (counted
//! by running QPULib's own emulator on its examples).
//!
//! The kernels here are the examples' kernels, written out again because the library cannot
//! depend on its own examples; a test (`tests/differential_examples.rs`) checks that each one
//! records exactly the same kernel as its example.
//!
//! ```no_run
//! for row in qpu::bench::run_all()? {
//!     println!("{row}");
//! }
//! # Ok::<(), qpu::Error>(())
//! ```

use std::fmt;
use std::time::Duration;

use crate::lang::*;
use crate::runtime::{Backend, Emulator};
use crate::{compile, Device};

/// One example's numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct ExampleNumbers {
    /// Example and setup, e.g. "gcd (16 pairs, 1 QPU)".
    pub name: String,
    /// QPUs used.
    pub qpus: u32,
    /// Instructions in the compiled kernel.
    pub static_instructions: usize,
    /// Instructions issued by all QPUs (branch delay slots included).
    pub issued_instructions: u64,
    /// Modelled clocks from launch to the last QPU's end.
    pub cycles: u64,
    /// Modelled time at 250 MHz, in microseconds.
    pub time_us: f64,
    /// Compile time of the kernel (best of 20 compiles, or of those that fit in a quarter
    /// of a second).
    pub compile_time: Duration,
    /// QPULib's static instruction count for the same kernel, where measured.
    pub qpulib_static: Option<usize>,
    /// QPULib's issued instructions for the same setup, where measured.
    pub qpulib_issued: Option<u64>,
    /// Whether the run's output equals a scalar Rust reference (bit for bit, with the
    /// hardware's float arithmetic from [`crate::float`]).
    pub correct: bool,
    /// For library workloads: the figure the workload is judged by, beside its target.
    pub metric: Option<Metric>,
    /// For FFT rows: log2 of the transform length.
    pub log2n: Option<u32>,
    /// For FFT rows: transforms per launch.
    pub batch: Option<u32>,
}

/// A library workload's figure of merit (e.g. SHA-256 hashes per second), modelled at
/// 250 MHz, and the published figure it is measured against.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// The unit: "ms/transform", "MH/s", "GFLOPS" or "ppm".
    pub unit: &'static str,
    /// This run's figure.
    pub value: f64,
    /// The target (a hand-written program's published figure).
    pub target: f64,
    /// Whether larger values are better (rates) or smaller (times, errors).
    pub higher_is_better: bool,
}

impl Metric {
    /// Whether `value` reaches `target`.
    pub fn met(&self) -> bool {
        if self.higher_is_better {
            self.value >= self.target
        } else {
            self.value <= self.target
        }
    }
}

impl ExampleNumbers {
    /// The numbers of a kernel run on the emulator: its `report`, the kernel's size and
    /// best-of-20 compile time, and whether its output was checked `correct`.
    pub fn from_run(
        name: &str,
        ast: &crate::lang::ast::Kernel,
        report: &crate::runtime::RunReport,
        correct: bool,
    ) -> crate::Result<ExampleNumbers> {
        let (static_instructions, compile_time) = compile_time(ast)?;
        let cycles = report.cycles.ok_or_else(|| crate::Error::Backend {
            backend: report.backend.clone(),
            message: "the backend does not model cycles".to_string(),
        })?;
        Ok(ExampleNumbers {
            name: name.to_string(),
            qpus: report.num_qpus,
            static_instructions,
            issued_instructions: report.qpus.iter().map(|q| q.steps).sum(),
            cycles,
            time_us: cycles as f64 / 250.0,
            compile_time,
            qpulib_static: None,
            qpulib_issued: None,
            correct,
            metric: None,
            log2n: None,
            batch: None,
        })
    }
}

impl fmt::Display for ExampleNumbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        write!(
            f,
            "{:<38} static {:>5} (QPULib {:>4})  issued {:>10} (QPULib {:>10})  cycles {:>10}  \
             {:>10.1} us @250MHz  compile {:>7.3} ms  {}",
            self.name,
            self.static_instructions,
            opt(self.qpulib_static.map(|v| v as u64)),
            self.issued_instructions,
            opt(self.qpulib_issued),
            self.cycles,
            self.time_us,
            self.compile_time.as_secs_f64() * 1e3,
            if self.correct { "correct" } else { "WRONG" }
        )
    }
}

/// GCD, vector version 1 (examples/gcd.rs).
pub fn gcd(p: Ptr<Int>, q: Ptr<Int>, r: Ptr<Int>) {
    let mut a = Int::var(p.load());
    let mut b = Int::var(q.load());
    while_(any(a.ne(b)), || {
        where_(a.gt(b), || a -= b);
        where_(a.lt(b), || b -= a);
    });
    r.store(a);
}

/// Triangular numbers (examples/tri.rs).
pub fn tri(p: Ptr<Int>) {
    let mut n = Int::var(p.load());
    let mut sum = Int::var(0);
    while_(any(n.gt(0)), || {
        where_(n.gt(0), || {
            sum += n;
            n -= 1;
        });
    });
    p.store(sum);
}

/// Odd-even transposition sort (examples/oet_sort.rs).
pub fn oet(p: Ptr<Int>) {
    let evens = Int::var(p.load_strided(2));
    let odds = Int::var((p + 1).load_strided(2));
    for_(
        0,
        |count| count.lt(16),
        |count| count + 1,
        |_| {
            let evens2 = Int::var(min(evens, odds));
            let odds2 = Int::var(max(evens, odds));
            let evens3 = Int::var(rotate(evens2, 15));
            let odds3 = Int::var(odds2);
            where_(index().ne(15), || odds2.set(min(evens3, odds3)));
            where_(index().ne(0), || evens2.set(rotate(max(evens3, odds3), 1)));
            evens.set(evens2);
            odds.set(odds2);
        },
    );
    p.store_strided(evens, 2);
    (p + 1).store_strided(odds, 2);
}

/// Rot3D vector version 3 (examples/rot3d.rs).
pub fn rot3d_3(n: Int, cos: Float, sin: Float, x: Ptr<Float>, y: Ptr<Float>) {
    let inc = Int::var(num_qpus() << 4);
    let mut p = Ptr::var(x + index() + (me() << 4));
    let mut q = Ptr::var(y + index() + (me() << 4));
    gather(p);
    gather(q);
    let (x_old, y_old) = (Float::var(0.0), Float::var(0.0));
    for_(
        0,
        |i| i.lt(n),
        |i| i + inc,
        |_| {
            gather(p + inc);
            gather(q + inc);
            receive(x_old);
            receive(y_old);
            store(x_old * cos - y_old * sin, p);
            store(y_old * cos + x_old * sin, q);
            p += inc;
            q += inc;
        },
    );
    receive(x_old);
    receive(y_old);
}

/// HeatMap's sliding window of three vectors of one row (examples/heatmap.rs).
struct Cursor {
    addr: Ptr<Float>,
    prev: Float,
    current: Float,
    next: Float,
}

impl Cursor {
    fn new(start: Ptr<Float>) -> Cursor {
        Cursor {
            addr: Ptr::var(start),
            prev: Float::var(0.0),
            current: Float::var(0.0),
            next: Float::var(0.0),
        }
    }

    fn init(&mut self, p: Ptr<Float>) {
        gather(p);
        self.current.set(0.0);
        self.addr.set(p + 16);
    }

    fn prime(&self) {
        receive(self.next);
        gather(self.addr);
    }

    fn advance(&mut self) {
        self.addr += 16;
        self.prev.set(self.current);
        gather(self.addr);
        self.current.set(self.next);
        receive(self.next);
    }

    fn finish(&self) {
        receive(self.next);
    }

    fn shift_left(&self) -> Float {
        let result = Float::var(rotate(self.current, 15));
        let next_rot = Float::var(rotate(self.next, 15));
        where_(index().eq(15), || result.set(next_rot));
        result
    }

    fn shift_right(&self) -> Float {
        let result = Float::var(rotate(self.current, 1));
        let prev_rot = Float::var(rotate(self.prev, 1));
        where_(index().eq(0), || result.set(prev_rot));
        result
    }
}

/// HeatMap's dissipation constant.
const K: f32 = 0.25;

/// One HeatMap step (examples/heatmap.rs).
pub fn heatmap_step(
    mut map: Ptr<Float>,
    mut map_out: Ptr<Float>,
    pitch: Int,
    width: Int,
    height: Int,
) {
    let mut row = [Cursor::new(map), Cursor::new(map), Cursor::new(map)];
    map += pitch * me() + index();
    map_out += pitch;
    for_(
        me(),
        |y| y.lt(height),
        |y| y + num_qpus(),
        |y| {
            let mut p = Ptr::var(map_out + y * pitch);
            for (i, cursor) in row.iter_mut().enumerate() {
                cursor.init(map + i as i32 * pitch);
            }
            for cursor in &row {
                cursor.prime();
            }
            for_(
                0,
                |x| x.lt(width),
                |x| x + 16,
                |_| {
                    for cursor in row.iter_mut() {
                        cursor.advance();
                    }
                    let left = row.each_ref().map(Cursor::shift_right);
                    let right = row.each_ref().map(Cursor::shift_left);
                    let sum = left[0]
                        + row[0].current
                        + right[0]
                        + left[1]
                        + right[1]
                        + left[2]
                        + row[2].current
                        + right[2];
                    store(row[1].current - K * (row[1].current - sum * 0.125), p);
                    p += 16;
                },
            );
            for cursor in &row {
                cursor.finish();
            }
            map += pitch * num_qpus();
        },
    );
}

/// Best compile time of 20 compiles (fewer for large kernels: as many as fit in a quarter
/// of a second, at least 3).
fn compile_time(ast: &crate::lang::ast::Kernel) -> crate::Result<(usize, Duration)> {
    let mut best = Duration::MAX;
    let mut size = 0;
    let start = std::time::Instant::now();
    for i in 0..20 {
        if i >= 3 && start.elapsed() > Duration::from_millis(250) {
            break;
        }
        let c = crate::compiler::compile(ast)?;
        best = best.min(c.compile_time);
        size = c.words.len();
    }
    Ok((size, best))
}

fn numbers(
    name: &str,
    ast: &crate::lang::ast::Kernel,
    backend: &Emulator,
    qpulib: (Option<usize>, Option<u64>),
    correct: bool,
) -> crate::Result<ExampleNumbers> {
    let (static_instructions, compile_time) = compile_time(ast)?;
    let report = backend.last_report().ok_or_else(|| crate::Error::Backend {
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
fn emulator() -> (Device, std::sync::Arc<Emulator>) {
    let emu = std::sync::Arc::new(Emulator::new());
    (Device::new(SharedEmulator(emu.clone())), emu)
}

struct SharedEmulator(std::sync::Arc<Emulator>);

impl Backend for SharedEmulator {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn alloc(&self, words: usize) -> crate::Result<Box<dyn crate::runtime::SharedMemory>> {
        self.0.alloc(words)
    }
    fn run(
        &self,
        launch: &mut crate::runtime::Launch<'_>,
    ) -> crate::Result<crate::runtime::RunReport> {
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

/// The HeatMap benchmark's grid: the interior size, the floats per row and the initial map
/// (a point every 97 floats set to its index modulo 1000).
struct HeatGrid {
    width: usize,
    height: usize,
    ncols: usize,
    initial: Vec<f32>,
}

fn heat_grid() -> HeatGrid {
    let (width, height) = (496usize, 504usize);
    let (ncols, nrows) = (width + 16, height + 2);
    let mut initial = vec![0.0f32; ncols * nrows];
    for (i, v) in initial.iter_mut().enumerate() {
        if i % 97 == 0 {
            *v = (i % 1000) as f32;
        }
    }
    HeatGrid {
        width,
        height,
        ncols,
        initial,
    }
}

/// glibc's `rand()`, shared with the examples (until this module moves to qpu-kernels) so the
/// GCD inputs are QPULib's README's.
#[allow(dead_code, missing_docs)]
#[path = "../../qpu-kernels/src/qpulib/glibc_rand.rs"]
mod glibc_rand;

/// The 16 GCD inputs of QPULib's README: `srand(0)`, then pairs in 100..=199.
fn glibc_pairs() -> (Vec<i32>, Vec<i32>) {
    let mut rng = glibc_rand::GlibcRand::new(0);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..16 {
        a.push(100 + rng.rand() % 100);
        b.push(100 + rng.rand() % 100);
    }
    (a, b)
}

/// One HeatMap step in scalar Rust, in the kernel's operation order and with the
/// hardware's float arithmetic: rows 1..=height and columns 0..width of the output, zero
/// elsewhere; neighbours outside the row read 0. `src` has `ncols` floats per row and
/// `height + 2` rows (a zero border above and below).
pub fn heat_step_reference(src: &[f32], ncols: usize, width: usize, height: usize) -> Vec<f32> {
    use crate::float::{add, mul, sub};
    heat_step_with(src, ncols, width, height, [add, sub, mul])
}

/// [`heat_step_reference`] with IEEE single-precision arithmetic rounding to nearest (the
/// V3D's float unit).
fn heat_step_ieee(src: &[f32], ncols: usize, width: usize, height: usize) -> Vec<f32> {
    heat_step_with(
        src,
        ncols,
        width,
        height,
        [|a, b| a + b, |a, b| a - b, |a, b| a * b],
    )
}

/// One HeatMap step with the float operations `[add, sub, mul]`, in the kernel's order.
fn heat_step_with(
    src: &[f32],
    ncols: usize,
    width: usize,
    height: usize,
    [add, sub, mul]: [fn(f32, f32) -> f32; 3],
) -> Vec<f32> {
    let at = |r: usize, c: isize| {
        if c < 0 || c >= ncols as isize {
            0.0
        } else {
            src[r * ncols + c as usize]
        }
    };
    let mut dst = vec![0.0f32; src.len()];
    for r in 1..=height {
        for c in 0..width as isize {
            let terms = [
                at(r - 1, c - 1),
                at(r - 1, c),
                at(r - 1, c + 1),
                at(r, c - 1),
                at(r, c + 1),
                at(r + 1, c - 1),
                at(r + 1, c),
                at(r + 1, c + 1),
            ];
            let sum = terms[1..].iter().fold(terms[0], |s, &t| add(s, t));
            let cur = at(r, c);
            let diff = sub(cur, mul(sum, 0.125));
            dst[r * ncols + c as usize] = sub(cur, mul(K, diff));
        }
    }
    dst
}

/// The example kernels `qpu bench --listing` prints, by name.
pub const KERNELS: [&str; 5] = ["gcd", "tri", "oet_sort", "rot3d", "heatmap"];

/// The compiled listing of the example kernel `name` (one of [`KERNELS`]; `None` for any
/// other name) for launches of up to `max_qpus` QPUs, each instruction annotated with its
/// static cycle note ([`crate::compiler::Compiled::disassemble_with_cycles`]).
pub fn listing(name: &str, max_qpus: u32) -> crate::Result<Option<String>> {
    let Some(ast) = example(name)? else {
        return Ok(None);
    };
    if !(1..=12).contains(&max_qpus) {
        return Err(crate::Error::NumQpus(max_qpus));
    }
    let options = crate::compiler::Options {
        max_qpus,
        ..Default::default()
    };
    let compiled = crate::compiler::compile_with(&ast, options)?;
    Ok(Some(compiled.disassemble_with_cycles()))
}

/// The kernel of the example `name` (one of [`KERNELS`]).
fn example(name: &str) -> crate::Result<Option<crate::lang::ast::Kernel>> {
    Ok(Some(match name {
        "gcd" => compile(gcd)?.ast().clone(),
        "tri" => compile(tri)?.ast().clone(),
        "oet_sort" => compile(oet)?.ast().clone(),
        "rot3d" => compile(rot3d_3)?.ast().clone(),
        "heatmap" => compile(heatmap_step)?.ast().clone(),
        _ => return Ok(None),
    }))
}

/// The listing of the example kernel `name` (one of [`KERNELS`]; `None` for any other
/// name) compiled for V3D `version`, in the V3D assembler's syntax (the V3D code does not
/// depend on the QPU count).
pub fn v3d_listing(name: &str, version: qpu_isa::v3d::V3dVersion) -> crate::Result<Option<String>> {
    let Some(ast) = example(name)? else {
        return Ok(None);
    };
    Ok(Some(
        crate::compiler::v3d::compile(&ast, version)?.disassemble(),
    ))
}

/// Run every measured example on the emulator (QPULib's setups where it has numbers).
pub fn run_all() -> crate::Result<Vec<ExampleNumbers>> {
    let mut rows = Vec::new();
    let (device, emu) = emulator();

    let (a, b) = glibc_pairs();
    let k = compile(gcd)?;
    let (pa, pb) = (device.alloc_from(&a)?, device.alloc_from(&b)?);
    let mut r = device.alloc::<i32>(16)?;
    k.run(&device, (&pa, &pb, &mut r))?;
    let want = euclid_gcds(&a, &b);
    rows.push(numbers(
        "gcd (16 pairs, 1 QPU)",
        k.ast(),
        &emu,
        (Some(90), Some(737)),
        r.to_vec() == want,
    )?);

    let k = compile(tri)?;
    let mut p = device.alloc_from(&(0..16).collect::<Vec<i32>>())?;
    k.run(&device, &mut p)?;
    let want: Vec<i32> = (0..16).map(|n| n * (n + 1) / 2).collect();
    rows.push(numbers(
        "tri (0..16, 1 QPU)",
        k.ast(),
        &emu,
        (Some(77), Some(190)),
        p.to_vec() == want,
    )?);

    let k = compile(oet)?;
    let unsorted: Vec<i32> = (0..32).map(|i| 100 - i).collect();
    let mut p = device.alloc_from(&unsorted)?;
    k.run(&device, &mut p)?;
    let mut want = unsorted;
    want.sort_unstable();
    rows.push(numbers(
        "oet_sort (32 ints, 1 QPU)",
        k.ast(),
        &emu,
        (Some(110), None),
        p.to_vec() == want,
    )?);

    let n = 192_000usize;
    let coords: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut k = compile(rot3d_3)?;
    for qpus in [1, 12] {
        let mut x = device.alloc_from(&coords)?;
        let mut y = device.alloc_from(&coords)?;
        k.set_num_qpus(qpus)?;
        // QPULib's Rot3D angle literal (deliberately not PI).
        #[allow(clippy::approx_constant)]
        let theta = 3.14159f32;
        let (cos, sin) = (theta.cos(), theta.sin());
        k.run(&device, (n as i32, cos, sin, &mut x, &mut y))?;
        use crate::float::{add, mul, sub};
        let (xs, ys) = (x.to_vec(), y.to_vec());
        let correct = coords.iter().zip(xs.iter().zip(&ys)).all(|(&c, (&x, &y))| {
            x.to_bits() == sub(mul(c, cos), mul(c, sin)).to_bits()
                && y.to_bits() == add(mul(c, cos), mul(c, sin)).to_bits()
        });
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
            k.ast(),
            &emu,
            qpulib,
            correct,
        )?);
    }

    let HeatGrid {
        width,
        height,
        ncols,
        initial,
    } = heat_grid();
    let mut k = compile(heatmap_step)?;
    let src = device.alloc_from(&initial)?;
    for qpus in [1, 12] {
        let mut dst = device.alloc::<f32>(initial.len())?;
        k.set_num_qpus(qpus)?;
        k.run(
            &device,
            (&src, &mut dst, ncols as i32, width as i32, height as i32),
        )?;
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
            k.ast(),
            &emu,
            qpulib,
            dst.to_vec() == heat_step_reference(&initial, ncols, width, height),
        )?);
    }
    Ok(rows)
}

/// One example on a V3D emulator (`qpu bench --gpu vc6|vc7`): its numbers, or why the
/// first-slice V3D compiler does not take it yet.
#[derive(Debug, Clone, PartialEq)]
pub struct V3dExampleNumbers {
    /// Example and setup, as in [`run_all`].
    pub name: String,
    /// QPUs used.
    pub qpus: u32,
    /// The numbers, or the compiler's reason for refusing the kernel.
    pub outcome: std::result::Result<V3dRun, String>,
}

impl V3dRun {
    /// The numbers of a run of a kernel of `static_instructions` words.
    pub fn of(
        static_instructions: usize,
        report: &crate::runtime::RunReport,
        correct: bool,
    ) -> V3dRun {
        V3dRun {
            static_instructions,
            issued_instructions: report.qpus.iter().map(|q| q.steps).sum(),
            cycles: report.cycles.unwrap_or(0),
            clock_mhz: report.clock_mhz.unwrap_or(0.0),
            counters: report.counters.clone(),
            correct,
        }
    }

    /// The modelled time at the board's clock, in microseconds.
    pub fn time_us(&self) -> f64 {
        self.cycles as f64 / self.clock_mhz
    }

    /// A counter of the run by its perfmon name (0 if the model does not keep it).
    pub fn counter(&self, name: &str) -> u64 {
        self.counters
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, v)| *v)
    }
}

/// What one V3D run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct V3dRun {
    /// Instructions in the compiled kernel.
    pub static_instructions: usize,
    /// Instructions issued by all QPUs.
    pub issued_instructions: u64,
    /// The V3D emulator's modelled cycles (the model is fitted to published Pi 4/5
    /// timings: `qpu-emu`'s `v3d/timing.rs`).
    pub cycles: u64,
    /// The modelled board's clock (500 MHz Pi 4, 960 MHz Pi 5).
    pub clock_mhz: f64,
    /// The run's counters under the Linux kernel's V3D perfmon names.
    pub counters: Vec<(String, u64)>,
    /// Whether the output equals a scalar Rust reference (integers exactly; floats with
    /// IEEE round-to-nearest arithmetic, which is what the V3D's float unit does).
    pub correct: bool,
}

/// The examples of [`run_all`] compiled for V3D `version` and run on its emulator. Kernels
/// the first-slice V3D compiler refuses (a construct it does not support yet) get the
/// compiler's message instead of numbers.
pub fn run_all_v3d(version: qpu_isa::v3d::V3dVersion) -> crate::Result<Vec<V3dExampleNumbers>> {
    let device = Device::v3d_emulator(version);
    let mut rows = Vec::new();
    // Runs `run` (which returns its report and whether the output is right), or records the
    // compiler's refusal.
    let mut row = |name: &str,
                   qpus: u32,
                   ast: &crate::lang::ast::Kernel,
                   run: &mut dyn FnMut() -> crate::Result<(crate::runtime::RunReport, bool)>|
     -> crate::Result<()> {
        let compiled = match crate::compiler::v3d::compile(ast, version) {
            Ok(c) => c,
            Err(e @ crate::compiler::CompileError::Unsupported { .. }) => {
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
            outcome: Ok(V3dRun::of(compiled.words.len(), &report, correct)),
        });
        Ok(())
    };

    let (a, b) = glibc_pairs();
    let k = compile(gcd)?;
    row("gcd (16 pairs, 1 QPU)", 1, k.ast(), &mut || {
        let (pa, pb) = (device.alloc_from(&a)?, device.alloc_from(&b)?);
        let mut r = device.alloc::<i32>(16)?;
        let report = k.run(&device, (&pa, &pb, &mut r))?;
        let want = euclid_gcds(&a, &b);
        Ok((report, r.to_vec() == want))
    })?;

    let k = compile(tri)?;
    row("tri (0..16, 1 QPU)", 1, k.ast(), &mut || {
        let mut p = device.alloc_from(&(0..16).collect::<Vec<i32>>())?;
        let report = k.run(&device, &mut p)?;
        let want: Vec<i32> = (0..16).map(|n| n * (n + 1) / 2).collect();
        Ok((report, p.to_vec() == want))
    })?;

    let k = compile(oet)?;
    row("oet_sort (32 ints, 1 QPU)", 1, k.ast(), &mut || {
        let unsorted: Vec<i32> = (0..32).map(|i| 100 - i).collect();
        let mut p = device.alloc_from(&unsorted)?;
        let report = k.run(&device, &mut p)?;
        let mut want = unsorted.clone();
        want.sort_unstable();
        Ok((report, p.to_vec() == want))
    })?;

    let n = 192_000usize;
    let coords: Vec<f32> = (0..n).map(|i| i as f32).collect();
    // Every QPU the version has.
    let max = qpu_emu::v3d::V3dConfig::max_qpus(version) as u32;
    let mut k = compile(rot3d_3)?;
    for qpus in [1, max] {
        k.set_num_qpus(qpus)?;
        let name = format!(
            "rot3d v3 (192,000 vertices, {qpus} QPU{})",
            if qpus > 1 { "s" } else { "" }
        );
        let ast = k.ast().clone();
        row(&name, qpus, &ast, &mut || {
            let mut x = device.alloc_from(&coords)?;
            let mut y = device.alloc_from(&coords)?;
            #[allow(clippy::approx_constant)]
            let theta = 3.14159f32;
            let (cos, sin) = (theta.cos(), theta.sin());
            let report = k.run(&device, (n as i32, cos, sin, &mut x, &mut y))?;
            let (xs, ys) = (x.to_vec(), y.to_vec());
            // IEEE single precision, rounding to nearest: the V3D's float arithmetic.
            let correct = coords.iter().zip(xs.iter().zip(&ys)).all(|(&c, (&x, &y))| {
                x.to_bits() == (c * cos - c * sin).to_bits()
                    && y.to_bits() == (c * cos + c * sin).to_bits()
            });
            Ok((report, correct))
        })?;
    }

    let HeatGrid {
        width,
        height,
        ncols,
        initial,
    } = heat_grid();
    let k = compile(heatmap_step)?;
    row("heatmap (one 512x506 step, 1 QPU)", 1, k.ast(), &mut || {
        let src = device.alloc_from(&initial)?;
        let mut dst = device.alloc::<f32>(initial.len())?;
        let report = k.run(
            &device,
            (&src, &mut dst, ncols as i32, width as i32, height as i32),
        )?;
        Ok((
            report,
            dst.to_vec() == heat_step_ieee(&initial, ncols, width, height),
        ))
    })?;
    Ok(rows)
}

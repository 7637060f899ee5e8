//! The rows `qpu bench` prints: each kernel run on an emulator, its output checked against a
//! reference, with static and issued instructions, modelled cycles and time, and compile
//! time.
//!
//! - [`qpulib`]: QPULib's examples ([`crate::qpulib`]) with QPULib's setups, beside
//!   QPULib's figures for them (counted by running QPULib's own emulator on its examples);
//! - [`library`]: the library workloads, each beside the hand-written program's published
//!   figure.
//!
//! [`run_all`], [`run_all_v3d`], [`KERNELS`] and [`listing`] cover both, in that order.
//!
//! ```no_run
//! for row in qpu_kernels::bench::run_all()? {
//!     println!("{row}");
//! }
//! # Ok::<(), qpu::Error>(())
//! ```

use std::fmt;
use std::time::Duration;

use qpu::compiler::v3d::V3dVersion;
use qpu::compiler::{CompileError, Gpu, Options, Program};
use qpu::runtime::RunReport;

/// Compiles a row's kernel (for the VideoCore IV with default options, in
/// [`ExampleNumbers::from_run`]): `|| kernel.compile_for(Gpu::Vc4, Options::default())`.
pub type CompileVc4<'a> = &'a dyn Fn() -> Result<Program, CompileError>;

pub mod library;
pub mod qpulib;

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
    /// hardware's float arithmetic from [`qpu::float`]).
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
        compile: CompileVc4<'_>,
        report: &RunReport,
        correct: bool,
    ) -> qpu::Result<ExampleNumbers> {
        let (static_instructions, compile_time) = compile_time(compile)?;
        let cycles = report.cycles.ok_or_else(|| qpu::Error::Backend {
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

/// `kernel` compiled for the VideoCore IV with default options (the rows' compile column).
pub(crate) fn vc4<P>(kernel: &qpu::Kernel<P>) -> Result<Program, CompileError> {
    kernel.compile_for(Gpu::Vc4, Options::default())
}

/// `kernel` compiled for V3D `version` with default options.
pub(crate) fn v3d<P>(
    kernel: &qpu::Kernel<P>,
    version: V3dVersion,
) -> Result<Program, CompileError> {
    kernel.compile_for(Gpu::from(version), Options::default())
}

/// A program's listing: the VideoCore IV's with each instruction's static cycle note, V3D's
/// in its assembler's syntax.
pub(crate) fn listing_of(program: &Program) -> String {
    match program {
        Program::Vc4(code) => code.disassemble_with_cycles(),
        Program::V3d(code) => code.disassemble(),
    }
}

/// Best compile time of 20 compiles (fewer for large kernels: as many as fit in a quarter
/// of a second, at least 3), and the compiled kernel's size in instructions.
fn compile_time(compile: CompileVc4<'_>) -> qpu::Result<(usize, Duration)> {
    let mut best = Duration::MAX;
    let mut size = 0;
    let start = std::time::Instant::now();
    for i in 0..20 {
        if i >= 3 && start.elapsed() > Duration::from_millis(250) {
            break;
        }
        let c = compile()?;
        best = best.min(c.compile_time());
        size = c.words().len();
    }
    Ok((size, best))
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

impl V3dRun {
    /// The numbers of a run of a kernel of `static_instructions` words.
    pub fn of(static_instructions: usize, report: &RunReport, correct: bool) -> V3dRun {
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

/// Every row `qpu bench` prints: QPULib's examples ([`qpulib::run_all`]), then the library
/// workloads ([`library::run_all`]).
pub fn run_all() -> qpu::Result<Vec<ExampleNumbers>> {
    let mut rows = qpulib::run_all()?;
    rows.extend(library::run_all()?);
    Ok(rows)
}

/// Every row `qpu bench --gpu vc6|vc7` prints for V3D `version`: QPULib's examples
/// ([`qpulib::run_all_v3d`]), then the library workloads ([`library::run_all_v3d`]).
pub fn run_all_v3d(version: V3dVersion) -> qpu::Result<Vec<V3dExampleNumbers>> {
    let mut rows = qpulib::run_all_v3d(version)?;
    rows.extend(library::run_all_v3d(version)?);
    Ok(rows)
}

/// The kernels `qpu bench --listing` prints, by name: [`qpulib::KERNELS`], then
/// [`library::KERNELS`].
pub const KERNELS: [&str; qpulib::KERNELS.len() + library::KERNELS.len()] = {
    let mut all = [""; qpulib::KERNELS.len() + library::KERNELS.len()];
    let mut i = 0;
    while i < qpulib::KERNELS.len() {
        all[i] = qpulib::KERNELS[i];
        i += 1;
    }
    while i < all.len() {
        all[i] = library::KERNELS[i - qpulib::KERNELS.len()];
        i += 1;
    }
    all
};

/// The compiled listing of the kernel `name` (one of [`KERNELS`]; `None` for any other
/// name): for the VideoCore IV with each instruction's static cycle note, for launches of up
/// to `max_qpus` QPUs, or for V3D `version` (whose code does not depend on the count).
pub fn listing(
    name: &str,
    max_qpus: u32,
    version: Option<V3dVersion>,
) -> qpu::Result<Option<String>> {
    let example = match version {
        None => qpulib::listing(name, max_qpus)?,
        Some(version) => qpulib::v3d_listing(name, version)?,
    };
    match example {
        Some(text) => Ok(Some(text)),
        None => library::listing(name, max_qpus, version),
    }
}

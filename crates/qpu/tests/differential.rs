//! Random differential testing on every device: each seed makes one random kernel
//! (`support/random_kernel.rs`), which runs through the public runtime path
//! (`Kernel::from_ast`, `Kernel::run`) on the reference interpreter and on each emulator:
//! `Device::interpreter_for(Gpu::Vc4)` against `Device::emulator()`, and
//! `Device::interpreter_for(Gpu::Vc6 / Gpu::Vc7)` against `Device::v3d_emulator(V42 / V71)`.
//! Every output word must be identical between each emulator and the interpreter modelling
//! its generation's float unit (NaNs, infinities, signed zeros, denormals and out-of-range
//! conversions included).
//!
//! Each program is generated from a seed (reproducible: `QPU_DIFF_SEED=<seed>` reruns one).
//! A campaign checks the programs of consecutive seeds from a first seed that is drawn afresh
//! on every run, so each run (CI's included) covers a different slice of the program space;
//! `QPU_DIFF_FIRST_SEED=<seed>` reruns a slice. Each campaign writes its first seed and program
//! count to stderr even when libtest captures the test's output, then its counts (programs
//! the interpreter rejects, programs a V3D compiler refuses as unsupported, per device), and
//! puts them in its failure message.
//!
//! Programs use ints and floats, every operator, `where_`/`if_`/`while_` nesting with bounded
//! loops (some counted to `e & 3`, some opening with a `where_` on their own test, some
//! sliding a window along gathered vectors), rotates and shifts by any amount (window edges
//! too), loads (also through pointers whose lanes hold consecutive words), gathers and
//! receives (with loads while gathered values wait, and on one path of an `if_` each),
//! blocking and non-blocking stores (strided, partial, whole float words) to bounded
//! buffers, uniform-stream reads from the inputs (pointed and re-pointed anywhere in them),
//! semaphores, `me()`/`num_qpus()` on 1–16 QPUs (wrapped to each device's count), special
//! float values and random float bits, and variables read before being assigned
//! (zero-initialised). Loads outside the inputs whose values nothing uses are undefined on
//! every device, and harmless.
//!
//! A program the interpreter rejects (a uniform read past the inputs, say) is counted and
//! skipped on that device; so is one a V3D compiler refuses with `CompileError::Unsupported`
//! (counted per version; the campaign fails if more than `MAX_UNSUPPORTED_PERCENT` of its
//! programs are refused, so that the V3D side keeps being tested). A failing program is shrunk
//! (statements removed while the disagreement on that device persists) and printed as kernel
//! text with its seed and the device it failed on.
//!
//! Regression seeds recorded before the generator knew a feature keep their old programs (see
//! the generator's flags): there, float variables stay finite (clamped with a NaN-safe
//! `min(1e4, max(x, -1e4))`), `to_int` gets a clamped argument, SFU arguments are positive
//! (`|x| + 1`), and float outputs are stored as `x + 0.0`; `regression_programs_are_unchanged`
//! pins their text. The V3D back end's former campaign (`tests/v3d_differential.rs`, with its
//! own generator and `QPU_V3D_DIFF_*` variables) is folded in: its seeds now make other
//! programs.
//!
//! CI runs `DEFAULT_PROGRAMS` programs (and `SPILL_PROGRAMS` that spill);
//! `QPU_DIFF_PROGRAMS=100000 cargo test --release -p qpu --test all differential:: --
//! --ignored` runs the long campaign (`QPU_DIFF_PRESSURE=80` makes every program spill).

#[path = "support/random_kernel.rs"]
mod random_kernel;

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use qpu::compiler::{CompileError, Gpu, Options, Program};
use qpu::lang::ast::{Kernel as Ast, Stmt, StmtKind};
use qpu::lang::{Float, Int, Ptr};
use qpu::{Device, Kernel};
use qpu_isa::v3d::V3dVersion;

use random_kernel::{case, Case, REGION};

/// Programs in CI's campaign, each run on the three devices. Sized so that this campaign
/// costs no more than the two it replaced (2,000 + 60 VideoCore IV programs, 500 + 6 per
/// V3D version): on 2026-11-29, on the 2-core VM, the test binary in the test profile
/// (`cargo test -p qpu --test all --no-run`, then `<binary> differential`, under
/// `/usr/bin/time`, three alternating runs each) took 23.2–24.1 s of CPU (12.0–12.2 s wall)
/// for the old two, 21.4–21.9 s of CPU (11.0–11.6 s wall) for these; with another build
/// beside it, 22.8–23.3 s (20.1–22.7 s wall) and 21.3–21.5 s (14.4–21.6 s wall).
const DEFAULT_PROGRAMS: u64 = 1_000;
/// Programs in the spilling run (each is larger).
const SPILL_PROGRAMS: u64 = 40;
/// Variables live throughout in the spilling run: more than any generation's registers.
const SPILL_PRESSURE: u32 = 80;
/// The most programs, in percent, a V3D compiler may refuse as unsupported.
const MAX_UNSUPPORTED_PERCENT: u64 = 5;

/// The kernels' parameters: `inp`, `finp`, `out`, `fout`, `x`, `y`.
type Params = (Ptr<Int>, Ptr<Float>, Ptr<Int>, Ptr<Float>, Int, Float);

/// A GPU generation, checked as its emulator against the interpreter with its float unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Vc4,
    V42,
    V71,
}

const TARGETS: [Target; 3] = [Target::Vc4, Target::V42, Target::V71];

impl Target {
    fn gpu(self) -> Gpu {
        match self {
            Target::Vc4 => Gpu::Vc4,
            Target::V42 => Gpu::Vc6,
            Target::V71 => Gpu::Vc7,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The interpreter with this generation's float unit, and the emulator. Generated loops
    /// run at most a few hundred iterations; a compiled program that runs away is a
    /// disagreement, found quickly.
    fn devices(self) -> (Device, Device) {
        let emulator = match self {
            Target::Vc4 => Device::emulator(),
            Target::V42 => Device::v3d_emulator(V3dVersion::V42),
            Target::V71 => Device::v3d_emulator(V3dVersion::V71),
        };
        (
            Device::interpreter_for(self.gpu()).with_step_limit(1_000_000),
            emulator.with_step_limit(20_000_000),
        )
    }
}

/// Each target's interpreter and emulator.
struct Devices([(Device, Device); 3]);

impl Devices {
    fn new() -> Devices {
        Devices(TARGETS.map(Target::devices))
    }

    fn of(&self, target: Target) -> &(Device, Device) {
        &self.0[target.index()]
    }
}

/// The output words (`out`, then `fout`) of `ast` run on `qpus` QPUs with the inputs of `c`
/// on `device`.
fn run(c: &Case, ast: &Ast, qpus: u32, device: &Device) -> qpu::Result<Vec<u32>> {
    let mut kernel = Kernel::<Params>::from_ast(ast.clone());
    kernel.set_num_qpus(qpus)?;
    let words = (REGION * 16 * kernel.num_qpus()) as usize;
    let inp = device.alloc_from(&c.inp)?;
    let finp: Vec<f32> = c.finp.iter().map(|&w| f32::from_bits(w)).collect();
    let finp = device.alloc_from(&finp)?;
    let mut out = device.alloc::<u32>(words)?;
    let mut fout = device.alloc::<f32>(words)?;
    let y = f32::from_bits(c.y);
    kernel.run(device, (&inp, &finp, &mut out, &mut fout, c.x, y))?;
    let mut result = out.to_vec();
    result.extend(fout.iter().map(|f| f.to_bits()));
    Ok(result)
}

/// How one program fared on one target.
enum Outcome {
    Agree,
    /// The interpreter rejects the program: nothing to compare.
    Rejected(String),
    /// The target's compiler refuses it (`CompileError::Unsupported`).
    Unsupported(String),
    Differ(String),
}

/// The compiler's verdict on `ast` for `target`, if it refuses it as unsupported.
fn unsupported(ast: &Ast, target: Target) -> Option<String> {
    let kernel = Kernel::<Params>::from_ast(ast.clone());
    match kernel.compile_for(target.gpu(), Options::default()) {
        Err(e @ CompileError::Unsupported { .. }) => Some(e.to_string()),
        _ => None,
    }
}

fn compare(c: &Case, ast: &Ast, target: Target, devices: &Devices) -> Outcome {
    let (interpreter, emulator) = devices.of(target);
    // The interpreter runs as many QPUs as the emulator (which may have fewer).
    let qpus = c.qpus_for(emulator.max_qpus());
    let expected = match run(c, ast, qpus, interpreter) {
        Ok(words) => words,
        Err(e) => return Outcome::Rejected(e.to_string()),
    };
    let got = match run(c, ast, qpus, emulator) {
        Ok(words) => words,
        Err(e) => {
            return match unsupported(ast, target) {
                Some(why) => Outcome::Unsupported(why),
                None => Outcome::Differ(format!("the emulator failed: {e}")),
            }
        }
    };
    assert_eq!(got.len(), expected.len(), "the same arrays");
    let out_words = got.len() / 2;
    match got.iter().zip(&expected).position(|(a, b)| a != b) {
        None => Outcome::Agree,
        Some(i) if i < out_words => Outcome::Differ(format!(
            "outputs differ: int word {i}: got {:#x}, expected {:#x}",
            got[i], expected[i]
        )),
        Some(i) => Outcome::Differ(format!(
            "outputs differ: float word {}: got {} ({:#x}), expected {} ({:#x})",
            i - out_words,
            f32::from_bits(got[i]),
            got[i],
            f32::from_bits(expected[i]),
            expected[i]
        )),
    }
}

/// The disagreement of `ast` on `target`, if any.
fn disagreement(c: &Case, ast: &Ast, target: Target, devices: &Devices) -> Option<String> {
    match compare(c, ast, target, devices) {
        Outcome::Differ(why) => Some(why),
        _ => None,
    }
}

/// Remove statements (depth-first) while the program still disagrees on `target`, trying at
/// most a few hundred candidates.
fn shrink(c: &Case, mut kernel: Ast, target: Target, devices: &Devices) -> Ast {
    /// Each statement's path: (index, branch) pairs, the branch of the last one unused.
    fn paths(stmts: &[Stmt], prefix: &[(usize, u8)], out: &mut Vec<Vec<(usize, u8)>>) {
        for (i, s) in stmts.iter().enumerate() {
            let mut p = prefix.to_vec();
            p.push((i, 0));
            out.push(p);
            let children: Vec<(&Vec<Stmt>, u8)> = match &s.kind {
                StmtKind::If {
                    then, otherwise, ..
                }
                | StmtKind::Where {
                    then, otherwise, ..
                } => vec![(then, 1), (otherwise, 2)],
                StmtKind::While { body, .. } => vec![(body, 1)],
                _ => vec![],
            };
            for (child, which) in children {
                let mut q = prefix.to_vec();
                q.push((i, which));
                paths(child, &q, out);
            }
        }
    }
    fn remove(stmts: &mut Vec<Stmt>, path: &[(usize, u8)]) {
        let (i, which) = path[0];
        if path.len() == 1 {
            stmts.remove(i);
            return;
        }
        let list = match &mut stmts[i].kind {
            StmtKind::If { then, .. } | StmtKind::Where { then, .. } if which == 1 => then,
            StmtKind::If { otherwise, .. } | StmtKind::Where { otherwise, .. } if which == 2 => {
                otherwise
            }
            StmtKind::While { body, .. } => body,
            _ => return,
        };
        remove(list, &path[1..]);
    }
    let mut budget = 400;
    loop {
        let mut all = Vec::new();
        paths(&kernel.body, &[], &mut all);
        let mut progress = false;
        for p in all.iter().rev() {
            if budget == 0 {
                return kernel;
            }
            budget -= 1;
            let mut candidate = kernel.clone();
            remove(&mut candidate.body, p);
            if candidate.body != kernel.body
                && disagreement(c, &candidate, target, devices).is_some()
            {
                kernel = candidate;
                progress = true;
                break;
            }
        }
        if !progress {
            return kernel;
        }
    }
}

/// Per-target counts of a campaign.
#[derive(Default)]
struct Stats {
    agreed: [AtomicU64; 3],
    rejected: [AtomicU64; 3],
    unsupported: [AtomicU64; 3],
}

impl Stats {
    /// Count `outcome`, printing (to the captured output) the first reason of each kind.
    fn count(&self, seed: u64, target: Target, outcome: &Outcome) {
        let (counter, what, why) = match outcome {
            Outcome::Agree => (&self.agreed, "", ""),
            Outcome::Rejected(why) => (&self.rejected, "the interpreter rejects", why.as_str()),
            Outcome::Unsupported(why) => (&self.unsupported, "the compiler refuses", why.as_str()),
            Outcome::Differ(_) => return,
        };
        if counter[target.index()].fetch_add(1, Ordering::Relaxed) == 0 && !what.is_empty() {
            println!("{target:?}: the first program that {what} (seed {seed}): {why}");
        }
    }

    fn get(counters: &[AtomicU64; 3], target: Target) -> u64 {
        counters[target.index()].load(Ordering::Relaxed)
    }

    fn summary(&self) -> String {
        TARGETS
            .map(|t| {
                format!(
                    "{t:?}: {} agree, {} rejected by the interpreter, {} unsupported",
                    Stats::get(&self.agreed, t),
                    Stats::get(&self.rejected, t),
                    Stats::get(&self.unsupported, t)
                )
            })
            .join("; ")
    }
}

/// Check the program of `seed` on every target; count what is not compared in `stats`.
fn check_seed(seed: u64, pressure: u32, stats: &Stats, devices: &Devices) -> Result<(), String> {
    let c = case(seed, pressure);
    for target in TARGETS {
        let outcome = compare(&c, &c.kernel, target, devices);
        stats.count(seed, target, &outcome);
        let Outcome::Differ(first) = outcome else {
            continue;
        };
        let small = shrink(&c, c.kernel.clone(), target, devices);
        if std::env::var_os("QPU_DIFF_DUMP").is_some() {
            let kernel = Kernel::<Params>::from_ast(small.clone());
            let options = Options {
                max_qpus: c.qpus_for(devices.of(target).1.max_qpus()),
                ..Options::default()
            };
            if let Ok(compiled) = kernel.compile_for(target.gpu(), options) {
                eprintln!("{}", compiled.disassemble());
            }
        }
        let why = disagreement(&c, &small, target, devices).unwrap_or(first);
        let emulator = &devices.of(target).1;
        return Err(format!(
            "seed {seed} on {} against the interpreter for {:?} ({} QPUs, x = {}, y = {}): \
             {why}\nshrunk kernel (v0 inp, v1 finp, v2 out, v3 fout, v4 x, v5 y):\n{small}\n{}",
            emulator.describe(),
            target.gpu(),
            c.qpus_for(emulator.max_qpus()),
            c.x,
            f32::from_bits(c.y),
            rerun(seed, pressure)
        ));
    }
    Ok(())
}

/// [`check_seed`], with a panic (in a compiler, say) turned into a failure naming the seed.
fn check_seed_caught(
    seed: u64,
    pressure: u32,
    stats: &Stats,
    devices: &Devices,
) -> Result<(), String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check_seed(seed, pressure, stats, devices)
    }))
    .unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        Err(format!(
            "seed {seed}: panicked: {what}\n{}",
            rerun(seed, pressure)
        ))
    })
}

/// How to rerun the one program of `seed`.
fn rerun(seed: u64, pressure: u32) -> String {
    let mut how = format!("rerun with QPU_DIFF_SEED={seed}");
    if pressure != 0 {
        how.push_str(&format!(" QPU_DIFF_PRESSURE={pressure}"));
    }
    how
}

/// A first seed nobody chose: the standard library's per-process random hash keys (drawn from
/// the OS), mixed with the time and the process id. Kept below 2^48 to stay short to type.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(now);
    hasher.write_u32(std::process::id());
    hasher.finish() >> 16
}

/// The campaign's first seed: `QPU_DIFF_FIRST_SEED` if set, else a fresh one.
fn first_seed() -> u64 {
    match std::env::var("QPU_DIFF_FIRST_SEED") {
        Ok(text) => text.trim().parse().unwrap_or_else(|e| {
            panic!("QPU_DIFF_FIRST_SEED={text:?} is not a seed (a number in 0..2^64): {e}")
        }),
        Err(_) => fresh_seed(),
    }
}

/// Write `line` to the process's stderr even while libtest captures the test's output:
/// libtest captures what the `print!`/`eprint!` macro family writes (and shows it only for
/// failing tests), not writes to the `Stderr` handle itself.
fn announce(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}");
}

/// Check `programs` programs from consecutive seeds on every target, on all cores. `name`
/// (the test's) labels the announcement lines and the failure message.
fn campaign(name: &str, programs: u64, pressure: u32) {
    if let Ok(seed) = std::env::var("QPU_DIFF_SEED") {
        let seed: u64 = seed.parse().expect("QPU_DIFF_SEED is a number");
        let pressure = std::env::var("QPU_DIFF_PRESSURE")
            .ok()
            .and_then(|p| p.parse().ok())
            .unwrap_or(pressure);
        announce(&format!("{name}: the one program of QPU_DIFF_SEED={seed}"));
        // Shown with `--nocapture` (or when the test fails).
        println!("{}", case(seed, pressure).kernel);
        let stats = Stats::default();
        let result = check_seed_caught(seed, pressure, &stats, &Devices::new());
        announce(&format!("{name}: {}", stats.summary()));
        if let Err(e) = result {
            panic!("{e}");
        }
        return;
    }
    let first_seed = first_seed();
    let slice = format!(
        "{programs} programs from first seed {first_seed} (QPU_DIFF_FIRST_SEED={first_seed} \
         reruns them)"
    );
    announce(&format!("{name}: {slice}"));
    let failed = AtomicBool::new(false);
    let stats = Stats::default();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (failed, stats) = (&failed, &stats);
                s.spawn(move || {
                    let mut failures = Vec::new();
                    let mut i = t;
                    while i < programs && !failed.load(Ordering::Relaxed) {
                        let seed = first_seed.wrapping_add(i);
                        // Fresh devices for each program: kept, their compile caches would
                        // fill with every kernel (each has its own id), for no time saved.
                        let devices = Devices::new();
                        if let Err(e) = check_seed_caught(seed, pressure, stats, &devices) {
                            failed.store(true, Ordering::Relaxed);
                            failures.push(e);
                            break;
                        }
                        i += threads;
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    let summary = stats.summary();
    announce(&format!("{name}: {summary}"));
    if let Some(f) = failures.first() {
        panic!(
            "{} failing program(s) among {slice}; first:\n{f}\n({summary})",
            failures.len()
        );
    }
    let rejected = Stats::get(&stats.rejected, Target::Vc4);
    assert!(
        rejected * 10 < programs,
        "too many generated programs are invalid: {rejected} of {slice} ({summary})"
    );
    for target in [Target::V42, Target::V71] {
        let refused = Stats::get(&stats.unsupported, target);
        assert!(
            refused * 100 <= programs * MAX_UNSUPPORTED_PERCENT,
            "{target:?} refuses too many programs as unsupported: {refused} of {slice} \
             ({summary})"
        );
    }
}

#[test]
fn random_kernels_agree_on_every_device() {
    campaign("random_kernels_agree_on_every_device", DEFAULT_PROGRAMS, 0);
}

/// Seeds the long campaign once failed on: a spilled prologue temporary (4294976583), a
/// kernel lowered for spilling that ended up needing no slot (4294978933), and the others
/// listed with the generator that made them.
#[test]
fn former_failures_stay_fixed() {
    let devices = Devices::new();
    let stats = Stats::default();
    for seed in random_kernel::FORMER_FAILURES
        .into_iter()
        .chain(random_kernel::FORMER_EXTENDED_FAILURES)
        .chain(random_kernel::FORMER_STREAM_FAILURES)
    {
        if let Err(e) = check_seed_caught(seed, 0, &stats, &devices) {
            panic!("{e}");
        }
    }
}

/// Programs with 80 extra variables live throughout: more than the registers of every
/// generation, so spill code runs inside loops, conditionals and `where_` bodies.
#[test]
fn random_kernels_that_spill_agree() {
    campaign(
        "random_kernels_that_spill_agree",
        SPILL_PROGRAMS,
        SPILL_PRESSURE,
    );
}

/// The spilling run's pressure makes programs spill on every generation.
#[test]
fn spill_pressure_spills_everywhere() {
    for seed in 0..4 {
        let c = case(seed, SPILL_PRESSURE);
        let kernel = Kernel::<Params>::from_ast(c.kernel.clone());
        for target in TARGETS {
            let spill_bytes = match kernel.compile_for(target.gpu(), Options::default()) {
                Ok(Program::Vc4(compiled)) => compiled.spill_bytes_per_qpu(),
                Ok(Program::V3d(compiled)) => compiled.spill_bytes_per_qpu(),
                // Counted, not checked, in the spilling run.
                Err(CompileError::Unsupported { .. }) => continue,
                Err(e) => panic!("seed {seed} on {target:?}: {e}"),
            };
            assert!(spill_bytes > 0, "seed {seed} does not spill on {target:?}");
        }
    }
}

#[test]
#[ignore = "long campaign: QPU_DIFF_PROGRAMS=100000 cargo test --release -p qpu --test all differential:: -- --ignored"]
fn long_campaign() {
    let programs = std::env::var("QPU_DIFF_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    // QPU_DIFF_PRESSURE=80 makes every program spill.
    let pressure = std::env::var("QPU_DIFF_PRESSURE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    campaign("long_campaign", programs, pressure);
}

/// FNV-1a (64-bit) of `text`: a fixed hash, the same on every platform and Rust version.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Everything a regression seed's program is: its printed kernel, QPU count and inputs.
fn case_text(c: &Case) -> String {
    format!(
        "{}\nqpus {} x {} y {:#x}\ninp {:x?}\nfinp {:x?}\n",
        c.kernel, c.num_qpus, c.x, c.y, c.inp, c.finp
    )
}

/// The regression seeds' programs, pinned: hashes of [`case_text`] computed once with the
/// generator that found them, so that a change to the generator that makes any of them
/// generate a different program fails here.
#[test]
fn regression_programs_are_unchanged() {
    let hashes: Vec<(u64, u64)> = random_kernel::FORMER_FAILURES
        .into_iter()
        .chain(random_kernel::FORMER_EXTENDED_FAILURES)
        .chain(random_kernel::FORMER_STREAM_FAILURES)
        .map(|seed| (seed, fnv1a(&case_text(&case(seed, 0)))))
        .collect();
    assert_eq!(hashes, PINNED_REGRESSION_PROGRAMS);
}

const PINNED_REGRESSION_PROGRAMS: [(u64, u64); 5] = [
    (4_294_976_583, 0x03bf_a24b_67ec_c031),
    (4_294_978_933, 0x1a63_036f_40c5_29dc),
    (97_422_158_492_068, 0xd3f3_9e66_9359_6ab9),
    (4_366_653_031_186, 0x348a_8bc8_05fd_26c4),
    (246_619_925_283_692, 0xe87d_9cfe_741f_428a),
];

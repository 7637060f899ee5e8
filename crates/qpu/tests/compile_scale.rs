//! The compiler's memory grows linearly with kernel size: kernels unrolled with Rust loops
//! (10,000 statements here) compile within a fixed heap budget, for the VideoCore IV and for
//! both V3D versions. Before the passes were made linear, 10,000 unrolled statements took
//! 1 GB and 20,000 took 4 GB on the VideoCore IV; on V3D 4,000 took 218 MB and 4.5 s, and
//! 20,000 about 2.8 GB, until its packer kept its ready list and its register allocator
//! walked liveness block by block.
//!
//! The peak of the process's resident set is measured around the compilation (Linux's
//! `/proc/self/status`, reset through `/proc/self/clear_refs`), each kernel in a child
//! process of its own (the test binary run again for one ignored test): tests running in
//! parallel in one process would add to each other's peaks.

use qpu::lang::*;

/// The process's resident set now and at its peak since the last reset, in bytes (Linux).
fn rss() -> Option<(usize, usize)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))?
            .split_whitespace()
            .nth(1)?
            .parse::<usize>()
            .ok()
            .map(|kb| kb * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

const STATEMENTS: usize = 10_000;

/// The compilers measured: the VideoCore IV's and the V3D's for 4.2 and 7.1.
#[derive(Clone, Copy, Debug)]
enum Target {
    Vc4,
    V3d(qpu::compiler::v3d::V3dVersion),
}

const TARGETS: [Target; 3] = [
    Target::Vc4,
    Target::V3d(qpu::compiler::v3d::V3dVersion::V42),
    Target::V3d(qpu::compiler::v3d::V3dVersion::V71),
];

/// Peak growth of the resident set (bytes) while compiling the kernel `f` records for
/// `target` (`None` where the platform does not report it), and the kernel's instruction
/// count.
fn compile_peak(target: Target, f: impl Fn(Ptr<Int>)) -> (Option<usize>, usize) {
    let kernel = qpu::compile(f).expect("records");
    // Writing 5 to clear_refs resets the peak (VmHWM) to the current resident set.
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let before = rss();
    let words = match target {
        Target::Vc4 => qpu::compiler::compile(kernel.ast())
            .expect("compiles")
            .words()
            .len(),
        Target::V3d(version) => qpu::compiler::v3d::compile(kernel.ast(), version)
            .expect("compiles")
            .words()
            .len(),
    };
    let peak = match (reset, before, rss()) {
        (true, Some((base, _)), Some((_, high))) => Some(high.saturating_sub(base)),
        _ => None,
    };
    (peak, words)
}

const MIB: usize = 1 << 20;

/// The three shapes of 10,000 statements, by name.
const SHAPES: [&str; 3] = ["unrolled arithmetic", "branches", "loops"];

/// The peak growth and instruction count of compiling shape `shape` for `target`.
fn compile_shape(target: Target, shape: &str) -> (Option<usize>, usize) {
    match shape {
        "unrolled arithmetic" => compile_peak(target, |p: Ptr<Int>| {
            let x = Int::var(p.load());
            for i in 0..STATEMENTS {
                x.set(x * 3 + (i as i32 & 7));
            }
            p.store(x)
        }),
        "branches" => compile_peak(target, |p: Ptr<Int>| {
            let x = Int::var(p.load());
            for i in 0..STATEMENTS {
                if_(any(x.gt(i as i32)), || x.set(x - 1));
            }
            p.store(x)
        }),
        _ => compile_peak(target, |p: Ptr<Int>| {
            let x = Int::var(p.load());
            for i in 0..STATEMENTS {
                let j = Int::var(0);
                while_(any(j.lt(2)), || j.set(j + 100_000 + i as i32));
                x.set(x + j);
            }
            p.store(x)
        }),
    }
}

/// Set in the child process [`ten_thousand_statements_compile_in_bounded_memory`] starts:
/// the target (its index in [`TARGETS`]) and shape (its index in [`SHAPES`]) to measure.
const MEASURE: &str = "QPU_COMPILE_SCALE_MEASURE";

/// The measurement itself, in a process of its own (the resident set is the whole
/// process's, so tests running beside it in one process would add to its peak): prints
/// `measured <peak bytes or -> <instructions>`.
#[test]
#[ignore = "run in a child process by ten_thousand_statements_compile_in_bounded_memory"]
fn measure_one_shape() {
    let Ok(which) = std::env::var(MEASURE) else {
        return;
    };
    let (t, shape) = which.split_once(':').expect("target:shape");
    let target = TARGETS[t.parse::<usize>().expect("a target index")];
    let shape = SHAPES[shape.parse::<usize>().expect("a shape index")];
    let (peak, words) = compile_shape(target, shape);
    println!(
        "measured {} {words}",
        peak.map_or("-".to_string(), |p| p.to_string())
    );
}

#[test]
fn ten_thousand_statements_compile_in_bounded_memory() {
    let bounds_mib = [160, 64, 96];
    let min_words = [8, 6, 15];
    for (t, target) in TARGETS.iter().enumerate() {
        for (k, shape) in SHAPES.iter().enumerate() {
            let what = format!("{shape} ({target:?})");
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--exact",
                    "compile_scale::measure_one_shape",
                    "--ignored",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env(MEASURE, format!("{t}:{k}"))
                .output()
                .expect("the test binary runs again");
            let stdout = String::from_utf8_lossy(&out.stdout);
            let line = stdout
                .lines()
                .find_map(|l| l.split_once("measured ").map(|(_, rest)| rest))
                .unwrap_or_else(|| {
                    panic!(
                        "{what}: no measurement: {stdout}{}",
                        String::from_utf8_lossy(&out.stderr)
                    )
                });
            let (peak, words) = line.split_once(' ').expect("two numbers");
            let words: usize = words.parse().unwrap();
            assert!(
                words > min_words[k] * STATEMENTS,
                "{what}: {words} instructions"
            );
            if let Ok(peak) = peak.parse::<usize>() {
                assert!(
                    peak < bounds_mib[k] * MIB,
                    "{what}: resident set grew by {} MiB while compiling (bound {} MiB)",
                    peak / MIB,
                    bounds_mib[k]
                );
            }
        }
    }
}

/// 100,000 unrolled statements on every target, each under 1 GB of growth; prints the
/// compile times (`cargo test --release -p qpu --test all compile_scale:: -- --ignored
/// --nocapture`; a benchmark, so the times are not asserted).
#[test]
#[ignore = "a minute of compiling: the 100,000-statement measurement"]
fn a_hundred_thousand_statements() {
    const N: usize = 100_000;
    for target in TARGETS {
        let start = std::time::Instant::now();
        let (peak, words) = compile_peak(target, |p: Ptr<Int>| {
            let x = Int::var(p.load());
            for i in 0..N {
                x.set(x * 3 + (i as i32 & 7));
            }
            p.store(x)
        });
        let seconds = start.elapsed().as_secs_f64();
        eprintln!(
            "{target:?}: {N} statements, {words} instructions, {seconds:.2} s (recording \
             included), {:?} MiB",
            peak.map(|p| p / MIB)
        );
        assert!(words > 8 * N);
        if let Some(peak) = peak {
            assert!(peak < 1024 * MIB, "{target:?}: {} MiB", peak / MIB);
        }
    }
}

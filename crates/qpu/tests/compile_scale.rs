//! The compiler's memory grows linearly with kernel size: kernels unrolled with Rust loops
//! (10,000 statements here) compile within a fixed heap budget, for the VideoCore IV and for
//! both V3D versions. Before the passes were made linear, 10,000 unrolled statements took
//! 1 GB and 20,000 took 4 GB on the VideoCore IV; on V3D 4,000 took 218 MB and 4.5 s, and
//! 20,000 about 2.8 GB, until its packer kept its ready list and its register allocator
//! walked liveness block by block.
//!
//! The peak of the process's resident set is measured around the compilation (Linux's
//! `/proc/self/status`, reset through `/proc/self/clear_refs`), so the kernels are compiled
//! one after another in one test: parallel tests would add to each other's peaks.

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
            .words
            .len(),
        Target::V3d(version) => qpu::compiler::v3d::compile(kernel.ast(), version)
            .expect("compiles")
            .words
            .len(),
    };
    let peak = match (reset, before, rss()) {
        (true, Some((base, _)), Some((_, high))) => Some(high.saturating_sub(base)),
        _ => None,
    };
    (peak, words)
}

const MIB: usize = 1 << 20;

#[test]
fn ten_thousand_statements_compile_in_bounded_memory() {
    let check = |what: &str, (peak, words): (Option<usize>, usize), min_words, bound_mib| {
        assert!(
            words > min_words * STATEMENTS,
            "{what}: {words} instructions"
        );
        if let Some(peak) = peak {
            assert!(
                peak < bound_mib * MIB,
                "{what}: resident set grew by {} MiB while compiling (bound {bound_mib} MiB)",
                peak / MIB
            );
        }
    };
    for target in TARGETS {
        let what = |shape: &str| format!("{shape} ({target:?})");
        let unrolled = compile_peak(target, |p: Ptr<Int>| {
            let x = Int::var(p.load());
            for i in 0..STATEMENTS {
                x.set(x * 3 + (i as i32 & 7));
            }
            p.store(x)
        });
        check(&what("unrolled arithmetic"), unrolled, 8, 160);
        let branches = compile_peak(target, |p: Ptr<Int>| {
            let x = Int::var(p.load());
            for i in 0..STATEMENTS {
                if_(any(x.gt(i as i32)), || x.set(x - 1));
            }
            p.store(x)
        });
        check(&what("branches"), branches, 6, 64);
        let loops = compile_peak(target, |p: Ptr<Int>| {
            let x = Int::var(p.load());
            for i in 0..STATEMENTS {
                let j = Int::var(0);
                while_(any(j.lt(2)), || j.set(j + 100_000 + i as i32));
                x.set(x + j);
            }
            p.store(x)
        });
        check(&what("loops"), loops, 15, 96);
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

//! Golden listings: the machine code the compiler emits for each of QPULib's example kernels
//! ([`qpu_kernels::qpulib`], those `qpu bench` measures) and one kernel that spills, for the
//! VideoCore IV (`tests/listings/*.qasm`) and both V3D versions
//! (`tests/listings/v3d/*.{v42,v71}.s`), checked in so that every change to code generation
//! shows up in review as a diff of listings. After an intended change, rewrite them with
//! `QPU_BLESS=1 cargo test -p qpu-kernels --test all listings::` and review the diff.
//!
//! Listings leave out the `# file:line` comments (they would change with unrelated edits
//! to the kernels' source files); `Kernel::disassemble()` has them.

use std::path::PathBuf;

use qpu::lang::*;
use qpu_isa::v3d::V3dVersion;
use qpu_kernels::qpulib::{gcd, heatmap, oet_sort, rot3d, tri};

fn check(name: &str, kernel: &qpu::lang::ast::Kernel) {
    let compiled = qpu::compiler::compile(kernel).expect("compiles");
    let listing = qpu_isa::vc4::disasm::program(compiled.instructions());
    compare(name, &format!("{name}.qasm"), listing);
    for version in V3dVersion::ALL {
        let compiled = qpu::compiler::v3d::compile(kernel, version).expect("compiles for V3D");
        let listing = qpu_isa::v3d::disasm::program(version, compiled.instructions());
        let suffix = match version {
            V3dVersion::V42 => "v42",
            V3dVersion::V71 => "v71",
        };
        compare(name, &format!("v3d/{name}.{suffix}.s"), listing);
    }
}

fn compare(name: &str, file: &str, listing: String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/listings")
        .join(file);
    if std::env::var_os("QPU_BLESS").is_some() {
        std::fs::write(&path, &listing).expect("writes the listing");
        return;
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; create it with QPU_BLESS=1 cargo test -p qpu-kernels --test all listings::",
            path.display()
        )
    });
    if golden != listing {
        let first = golden
            .lines()
            .zip(listing.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(golden.lines().count().min(listing.lines().count()));
        panic!(
            "{name}: the compiled code differs from {} from line {} on ({} lines checked in, {} \
             now). If the change is intended, rewrite the listings with QPU_BLESS=1 cargo \
             test -p qpu-kernels --test all listings:: and review the diff.\nnow:\n{listing}",
            path.display(),
            first + 1,
            golden.lines().count(),
            listing.lines().count(),
        );
    }
}

fn ast<P, R, F: qpu::runtime::KernelFn<P, R>>(f: F) -> qpu::lang::ast::Kernel {
    qpu::compile(f).expect("records").ast().clone()
}

#[test]
fn gcd() {
    check("gcd", &ast(gcd::gcd));
}

#[test]
fn tri() {
    check("tri", &ast(tri::tri));
}

#[test]
fn oet_sort() {
    check("oet_sort", &ast(oet_sort::oet));
}

#[test]
fn rot3d() {
    check("rot3d_v3", &ast(rot3d::rot3d_3));
}

#[test]
fn heatmap() {
    check("heatmap_step", &ast(heatmap::step));
}

#[test]
fn spilling_kernel() {
    // Seventy values live at once: more than the registers, so the spill path is covered.
    check(
        "spill_70",
        &ast(|p: Ptr<Int>| {
            let vs: Vec<Int> = (0..70).map(|i| Int::var(p.load() + i)).collect();
            let mut sum = Int::var(0);
            for v in &vs {
                sum += *v * *v;
            }
            for v in &vs {
                sum += *v;
            }
            p.store(sum)
        }),
    );
}

/// The cycle-annotated listing (what `QPU_DUMP_IR` prints): every instruction has a note;
/// issue clocks rise by 4 within a block; each loop note counts the words from its label
/// to the branch's last delay slot, as the listing shows them.
#[test]
fn cycle_notes_count_what_the_listing_shows() {
    let compiled = qpu::compiler::compile(&ast(heatmap::step)).unwrap();
    let annotated = compiled.disassemble_with_cycles();
    let mut labels = std::collections::HashMap::new();
    let mut index = 0usize;
    let mut previous: Option<u64> = None;
    let mut loops = 0;
    for line in annotated.lines() {
        if let Some(label) = line.strip_prefix(':') {
            labels.insert(label.to_string(), index);
            previous = None;
            continue;
        }
        let clock: u64 = line
            .split('@')
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no issue clock on {line:?}"));
        if let Some(p) = previous {
            assert_eq!(clock, p + 4, "{line}");
        }
        previous = Some(clock);
        if let Some(note) = line.split("loop: ").nth(1) {
            let words: usize = note.split_whitespace().next().unwrap().parse().unwrap();
            let target = line
                .split("r:")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            assert_eq!(words, index + 4 - labels[target], "{line}");
            loops += 1;
        }
        index += 1;
    }
    assert!(loops >= 2, "{annotated}");
}

/// A load used at once waits for the TMU: the note gives the timing model's hit latency
/// (36 clocks) less the 4 clocks per instruction since the lookup was requested.
#[test]
fn cycle_notes_show_a_load_waiting() {
    let kernel = ast(|p: Ptr<Int>, q: Ptr<Int>| q.store(p.load()));
    let compiled = qpu::compiler::compile(&kernel).unwrap();
    let annotated = compiled.disassemble_with_cycles();
    let lines: Vec<&str> = annotated.lines().filter(|l| !l.starts_with(':')).collect();
    let request = lines.iter().position(|l| l.contains("tmu1_s")).unwrap();
    let load = lines.iter().position(|l| l.contains("ldtmu1")).unwrap();
    let wait = 36 - 4 * (load - request);
    assert!(
        lines[load].contains(&format!("tmu wait ~{wait}")),
        "{}",
        lines[load]
    );
}

//! The `qpu` binary end to end: asm then disasm round-trips the golden programs bit-exactly,
//! and bad input fails with a message and a non-zero status.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn qpu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qpu"))
        .args(args)
        .output()
        .expect("run qpu")
}

/// The output of a successful `qpu ARGS`, run once per test binary however many tests ask
/// for it (the `bench` commands emulate every example and library workload: seconds each).
/// Tests that ask at once wait for the one run.
fn cached(args: &[&str]) -> String {
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex, OnceLock};
    type Runs = Mutex<BTreeMap<Vec<String>, Arc<OnceLock<String>>>>;
    static RUNS: Runs = Mutex::new(BTreeMap::new());
    let key = args.iter().map(|a| a.to_string()).collect();
    let cell = RUNS.lock().unwrap().entry(key).or_default().clone();
    cell.get_or_init(|| ok(qpu(args))).clone()
}

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../qpu-isa/tests/golden")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qpu-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The words of a program file `qpu asm` wrote in `format` (bin or hex).
fn words_in(path: &Path, format: &str) -> Vec<u64> {
    if format == "bin" {
        qpu_isa::vc4::words::from_binary(&std::fs::read(path).unwrap()).unwrap()
    } else {
        qpu_isa::vc4::words::from_hex(&std::fs::read_to_string(path).unwrap()).unwrap()
    }
}

fn ok(output: Output) -> String {
    assert!(
        output.status.success(),
        "qpu failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn asm_then_disasm_round_trips_golden_programs() {
    for program in ["hello", "isa-tour"] {
        let source = golden(&format!("{program}.qasm"));
        let expected = qpu_isa::vc4::words::from_hex(
            &std::fs::read_to_string(golden(&format!("{program}.hex"))).unwrap(),
        )
        .unwrap();
        for format in ["bin", "hex"] {
            let first = scratch(&format!("{program}.{format}"));
            ok(qpu(&[
                "asm",
                source.to_str().unwrap(),
                "-o",
                first.to_str().unwrap(),
            ]));
            let words = words_in(&first, format);
            assert_eq!(words, expected, "{program} as {format}");
            let listing = scratch(&format!("{program}-{format}.qasm"));
            std::fs::write(&listing, ok(qpu(&["disasm", first.to_str().unwrap()]))).unwrap();
            let second = scratch(&format!("{program}-again.{format}"));
            ok(qpu(&[
                "asm",
                listing.to_str().unwrap(),
                "-o",
                second.to_str().unwrap(),
            ]));
            assert_eq!(
                std::fs::read(&first).unwrap().len(),
                std::fs::read(&second).unwrap().len()
            );
            let again = if format == "bin" {
                qpu_isa::vc4::words::from_binary(&std::fs::read(&second).unwrap()).unwrap()
            } else {
                qpu_isa::vc4::words::from_hex(&std::fs::read_to_string(&second).unwrap()).unwrap()
            };
            assert_eq!(again, expected, "{program}: disasm then asm as {format}");
        }
    }
}

#[test]
fn disasm_lists_address_word_and_text() {
    let out = ok(qpu(&["disasm", golden("hello.hex").to_str().unwrap()]));
    let third = out.lines().nth(2).unwrap();
    assert!(third.starts_with("add vpm, ra1, unif"), "{third}");
    assert!(third.ends_with("# 0x0010: 0x10020c270c060dc0"), "{third}");
}

#[test]
fn bad_input_fails_clearly() {
    let bad = scratch("bad.qasm");
    std::fs::write(&bad, "nop\nadd r0, ra1, ra2\n").unwrap();
    let out = qpu(&[
        "asm",
        bad.to_str().unwrap(),
        "-o",
        scratch("bad.bin").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.qasm: line 2, column 14"), "{err}");

    let odd = scratch("odd.bin");
    std::fs::write(&odd, [0u8; 12]).unwrap();
    let out = qpu(&["disasm", odd.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a multiple of 8"));

    let reserved = scratch("reserved.hex");
    std::fs::write(
        &reserved,
        "0x009e7000, 0x100009e7,\n0x099e7000, 0x100009e7,\n",
    )
    .unwrap();
    let out = qpu(&["disasm", reserved.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("instruction 1") && err.contains("reserved value 9"),
        "{err}"
    );

    let out = qpu(&["disasm", scratch("missing.bin").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.bin"));
}

#[test]
fn emu_names_an_empty_program_a_missing_end_and_missing_uniforms() {
    let run = |name: &str, text: &str, extra: &[&str]| {
        let path = scratch(name);
        std::fs::write(&path, text).unwrap();
        let mut args = vec!["emu", path.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = qpu(&args);
        assert!(!out.status.success(), "{name} ran");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = run("empty.qasm", "", &[]);
    assert!(err.contains("the program has no instructions"), "{err}");
    let err = run("no_end.qasm", "mov r0, 1\nnop\n", &[]);
    assert!(err.contains("ran past the end of the program"), "{err}");
    let three = "mov r0, unif\nmov r1, unif\nmov r2, unif\nnop; thrend\nnop\nnop\n";
    let err = run("unif.qasm", three, &["--uniform", "1", "--uniform", "2"]);
    assert!(
        err.contains("uniform read number 3") && err.contains("holds only 2 uniform(s)"),
        "{err}"
    );
    let err = run("unif0.qasm", three, &[]);
    assert!(err.contains("uniform read number 1"), "{err}");
}

#[test]
fn emu_runs_the_seed_hello_world() {
    // out[i] = 100 + 0x1234 = 0x1298 for all 16 lanes.
    for program in ["hello.qasm", "hello.hex"] {
        let out = ok(qpu(&[
            "emu",
            golden(program).to_str().unwrap(),
            "--uniform",
            "100",
            "--buffer",
            "out=64",
            "--uniform",
            "@out",
            "--dump",
            "out:uint",
        ]));
        let words: Vec<u32> = out
            .lines()
            .filter(|l| l.trim_start().starts_with('['))
            .flat_map(|l| {
                l.split(']')
                    .nth(1)
                    .unwrap()
                    .split_whitespace()
                    .map(|w| w.parse::<u32>().unwrap())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(words, vec![100 + 0x1234; 16], "{out}");
        assert!(out.contains("run: "), "{out}");
    }
}

#[test]
fn emu_reports_bad_arguments_and_faults() {
    let hello = golden("hello.qasm");
    let hello = hello.to_str().unwrap();
    let fails = |args: &[&str], fragment: &str| {
        let out = qpu(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(fragment), "{args:?}: {err}");
    };
    fails(
        &["emu", hello, "--uniform", "@nowhere"],
        "no buffer named `nowhere`",
    );
    fails(&["emu", hello, "--buffer", "out"], "expected NAME=SIZE");
    fails(&["emu", hello, "--buffer", "out=0"], "SIZE is 0");
    // A huge bad argument is not echoed whole.
    let huge = "y".repeat(100_000);
    let out = qpu(&["emu", hello, "--uniform", &huge]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.len() < 300 && err.contains("(100000 characters)"),
        "{err}"
    );
    fails(&["emu", hello, "--qpus", "13"], "13 QPUs");
    fails(&["emu", hello, "--uniform", "zz"], "--uniform `zz`");
    // The second uniform is missing: the DMA address is 0, outside any allocation.
    fails(
        &["emu", hello, "--uniform", "100", "--uniform", "0"],
        "hello.qasm",
    );
    // An endless loop hits the instruction budget instead of hanging.
    let endless = scratch("endless.qasm");
    std::fs::write(&endless, ":top\nbrr -, r:top\nnop\nnop\nnop\n").unwrap();
    fails(
        &[
            "emu",
            endless.to_str().unwrap(),
            "--max-instructions",
            "1000",
        ],
        "pass --max-instructions",
    );
    // With the instruction budget raised past the cycle budget, the cycle budget stops it,
    // and the message names that flag.
    fails(
        &[
            "emu",
            endless.to_str().unwrap(),
            "--max-instructions",
            "18446744073709551615",
            "--max-cycles",
            "4000",
        ],
        "cycle budget of 4000 exceeded",
    );
    fails(
        &["emu", endless.to_str().unwrap(), "--max-cycles", "4000"],
        "pass --max-cycles",
    );
    fails(
        &["emu", hello, "--clock-mhz", "1e300"],
        "outside 1 to 10000",
    );
    // Control characters (in a token, or in a file name) reach the terminal escaped.
    let escape = scratch("escape.qasm");
    std::fs::write(&escape, "mov r0, \u{1b}[31mred\n").unwrap();
    let out_path = scratch("escape.bin");
    let missing = format!(
        "{}/no\u{1b}[31mfile.qasm",
        out_path.parent().unwrap().display()
    );
    for args in [
        vec![
            "asm",
            escape.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ],
        vec!["emu", missing.as_str()],
    ] {
        let out = qpu(&args);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains('\u{1b}') && err.contains("\\u{1b}"), "{err}");
    }
    fails(&["emu", hello, "--clock-mhz", "NaN"], "outside 1 to 10000");
}

#[test]
fn asm_refuses_to_overwrite_its_source() {
    let source = scratch("self.qasm");
    let text = "nop; thrend\nnop\nnop\n";
    std::fs::write(&source, text).unwrap();
    let path = source.to_str().unwrap();
    let out = qpu(&["asm", path, "-o", path]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is the input file"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&source).unwrap(),
        text,
        "source unchanged"
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    // A program long enough that its listing overflows the pipe buffer.
    let source = scratch("long.qasm");
    std::fs::write(&source, "nop\n".repeat(20_000) + "nop; thrend\nnop\nnop\n").unwrap();
    let bin = scratch("long.bin");
    ok(qpu(&[
        "asm",
        source.to_str().unwrap(),
        "-o",
        bin.to_str().unwrap(),
    ]));
    let mut child = Command::new(env!("CARGO_BIN_EXE_qpu"))
        .args(["disasm", bin.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line's worth, then close the pipe, as `| head -1` does.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "status {:?}: {err}", output.status);
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bench_prints_every_example_within_qpulibs_counts() {
    let out = cached(&["bench"]);
    let (examples, library) = out.split_once("| library workload").expect("two tables");
    let rows: Vec<&str> = examples
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| example"))
        .collect();
    assert_eq!(rows.len(), 8, "{out}");
    // Library rows: the figure, the target, whether it is met, and a checked output.
    let library: Vec<Vec<&str>> = library
        .lines()
        .filter(|l| l.starts_with("| "))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    assert!(library.iter().any(|c| c[1].starts_with("sha256")), "{out}");
    assert!(
        library.iter().any(|c| c[1].starts_with("fft 2^16")),
        "{out}"
    );
    for cells in &library {
        // SHA-256 and SGEMM meet their targets; the FFT's rows say whether they do.
        if !cells[1].starts_with("fft") {
            assert_eq!(cells[4], "yes", "target missed: {cells:?}");
        }
        assert!(["yes", "NO"].contains(&cells[4]), "{cells:?}");
        assert_eq!(cells[9], "yes", "wrong output: {cells:?}");
    }
    for row in rows {
        // "| name | static (qpulib) | issued (qpulib) | ..."
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let issued: Vec<&str> = cells[3]
            .split(['(', ')', ' '])
            .filter(|s| !s.is_empty())
            .collect();
        let ours: u64 = issued[0].parse().unwrap();
        if let Ok(qpulib) = issued[1].parse::<u64>() {
            assert!(ours <= qpulib, "{row}");
        }
        assert_eq!(cells[7], "yes", "{row}");
    }
}

#[test]
fn bench_json_has_every_row_with_its_numbers() {
    let out = cached(&["bench", "--json"]);
    let rows: serde_json::Value = serde_json::from_str(&out).expect("bench --json prints JSON");
    let rows = rows.as_array().expect("an array");
    assert!(rows.len() > 8, "{out}");
    assert!(rows[7]["name"].as_str().unwrap().starts_with("mandelbrot"));
    for row in &rows[8..] {
        // Library workloads: their figure and unit, and whether the target holds.
        let metric = row["metric"]
            .as_str()
            .expect("library rows name their metric");
        assert!(
            ["ms/transform", "MH/s", "GFLOPS", "ppm"].contains(&metric),
            "{row}"
        );
        let value = row["value"].as_f64().expect("a value");
        let target = row["target"].as_f64().expect("a target");
        let lower = ["ms/transform", "ppm"].contains(&metric);
        assert_eq!(
            row["met"],
            if lower {
                value <= target
            } else {
                value >= target
            }
        );
        if row["name"].as_str().unwrap().starts_with("fft") {
            let batch = row["batch"].as_u64().expect("a batch") as f64;
            assert!(row["log2n"].as_u64().is_some());
            if metric == "ms/transform" {
                let per = row["modelled_us"].as_f64().unwrap() / 1e3 / batch;
                assert!((value - per).abs() < 1e-12, "{row}");
            }
        } else {
            assert_eq!(row["met"], true, "{row}");
        }
    }
    let sha = rows
        .iter()
        .find(|r| r["name"].as_str().unwrap().starts_with("sha256"))
        .expect("a sha256 row");
    assert_eq!(sha["metric"], "MH/s");
    // The rate is the messages over the modelled time.
    let messages: f64 = sha["name"].as_str().unwrap()[8..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let rate = messages / sha["modelled_us"].as_f64().unwrap();
    assert!(
        (sha["value"].as_f64().unwrap() - rate).abs() < 1e-9,
        "{sha}"
    );
    for row in rows {
        for key in ["name", "qpus", "issued", "cycles", "modelled_us", "correct"] {
            assert!(row.get(key).is_some(), "{key} missing in {row}");
        }
        assert_eq!(row["correct"], true, "{row}");
        let (cycles, us) = (
            row["cycles"].as_u64().unwrap(),
            row["modelled_us"].as_f64().unwrap(),
        );
        assert!((cycles as f64 / 250.0 - us).abs() < 1e-6, "{row}");
    }
    assert_eq!(rows[0]["name"], "gcd (16 pairs, 1 QPU)");
    assert_eq!(rows[6]["qpus"], 12);
}

#[test]
fn bench_listing_prints_an_annotated_kernel_that_assembles() {
    let out = ok(qpu(&["bench", "--listing", "rot3d", "--qpus", "12"]));
    // Every back branch names its loop's length; the text (cycle notes are comments)
    // assembles back.
    assert!(out.contains("instructions per iteration"), "{out}");
    assert!(out.contains("thrend"), "{out}");
    let listing = scratch("rot3d.qasm");
    std::fs::write(&listing, &out).unwrap();
    ok(qpu(&[
        "asm",
        listing.to_str().unwrap(),
        "-o",
        scratch("rot3d.bin").to_str().unwrap(),
    ]));
    for (args, says) in [
        (
            &["bench", "--listing", "fir"][..],
            "no example kernel named \"fir\"",
        ),
        (
            &["bench", "--listing", "gcd", "--qpus", "13"],
            "invalid number of QPUs 13",
        ),
        (&["bench", "--qpus", "2"], "--listing"),
    ] {
        let out = qpu(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn bench_listing_for_a_v3d_gpu_assembles_to_the_compiled_words() {
    for (gpu, version) in [
        ("vc6", qpu_isa::v3d::V3dVersion::V42),
        ("vc7", qpu_isa::v3d::V3dVersion::V71),
    ] {
        let out = ok(qpu(&["bench", "--listing", "heatmap", "--gpu", gpu]));
        // The V3D program end, and the text is the V3D assembler's: it assembles back to
        // the words the compiler makes for the same kernel.
        assert!(out.contains("thrsw"), "{out}");
        let words: Vec<u64> = qpu_isa::v3d::assemble(version, &out)
            .unwrap_or_else(|e| panic!("{gpu}: {e}\n{out}"))
            .iter()
            .map(|i| i.encode(version).unwrap())
            .collect();
        let kernel = qpu::compile(qpu_kernels::qpulib::heatmap::step).unwrap();
        let compiled = qpu::compiler::v3d::compile(kernel.ast(), version).unwrap();
        assert_eq!(words, compiled.words(), "{gpu}");
    }
    let out = qpu(&["bench", "--listing", "fir", "--gpu", "vc7"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no example kernel named \"fir\""));
    // The library's kernels too (qpu_kernels::bench::library::KERNELS), on every GPU, and their
    // VideoCore IV listings assemble back.
    for name in ["mandelbrot", "sha256", "sgemm", "fft"] {
        for gpu in ["vc6", "vc7"] {
            let out = ok(qpu(&["bench", "--listing", name, "--gpu", gpu]));
            assert!(out.contains("thrsw"), "{name} {gpu}: {out}");
        }
        let out = ok(qpu(&["bench", "--listing", name, "--qpus", "12"]));
        let listing = scratch(&format!("{name}.qasm"));
        std::fs::write(&listing, &out).unwrap();
        ok(qpu(&[
            "asm",
            listing.to_str().unwrap(),
            "-o",
            scratch(&format!("{name}.bin")).to_str().unwrap(),
        ]));
    }
}

/// `--gpu vc6|vc7`: V3D programs assemble to the hand-derived words of the qpu-isa golden
/// tests, disassemble to text that assembles back to the same words, and errors name the
/// file, line and column (or the instruction index for an undecodable word).
#[test]
fn v3d_asm_and_disasm_round_trip() {
    let cases: &[(&str, &str, &[u64])] = &[
        (
            "vc6",
            "top: nop ; nop\nadd tmua, rf1, r2 ; nop ; thrsw\nnop ; fmul rf2, rf3, 2.0\nb.anya top\n",
            &[
                0x3c00_3186_bb80_0000,
                0x3c20_318c_3881_6040,
                0x55e0_1086_bbf8_00e9,
                // b.anya to index 0 from index 3: (0 - 7) * 8 = -56 = 0xffff_ffc8.
                0x02ff_ffce_ff00_1000,
            ],
        ),
        (
            "vc7",
            "nop ; nop\nadd rf1, rf2, rf3 ; nop\nnop ; nop ; ldtmu.rf5, wrtmuc\n",
            &[
                0x3800_3186_bb03_f000,
                0x3800_2181_3803_f083,
                0x3b41_7186_bb03_f000,
            ],
        ),
    ];
    for &(gpu, source, expected) in cases {
        let src = scratch(&format!("{gpu}.qasm"));
        std::fs::write(&src, source).unwrap();
        for format in ["bin", "hex"] {
            let first = scratch(&format!("{gpu}.{format}"));
            ok(qpu(&[
                "asm",
                "--gpu",
                gpu,
                src.to_str().unwrap(),
                "-o",
                first.to_str().unwrap(),
            ]));
            let words = words_in(&first, format);
            assert_eq!(words, expected, "{gpu} as {format}");
            let listing = scratch(&format!("{gpu}-{format}.qasm"));
            let text = ok(qpu(&["disasm", "--gpu", gpu, first.to_str().unwrap()]));
            assert!(text.contains("# 0x0008: "), "{text}");
            if gpu == "vc6" {
                // The loop's branch target is listed as a label.
                assert!(
                    text.contains("L0:\n") && text.contains("b.anya L0"),
                    "{text}"
                );
            }
            std::fs::write(&listing, text).unwrap();
            let second = scratch(&format!("{gpu}-again.{format}"));
            ok(qpu(&[
                "asm",
                "--gpu",
                gpu,
                listing.to_str().unwrap(),
                "-o",
                second.to_str().unwrap(),
            ]));
            assert_eq!(
                std::fs::read(&first).unwrap(),
                std::fs::read(&second).unwrap()
            );
        }
    }
    // V3D 7.1 has no accumulators: the error names file, line and column.
    let bad = scratch("bad-vc7.qasm");
    std::fs::write(&bad, "nop ; nop\nadd rf1, r0, rf2 ; nop\n").unwrap();
    let out = qpu(&[
        "asm",
        "--gpu",
        "vc7",
        bad.to_str().unwrap(),
        "-o",
        scratch("bad.bin").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2, column 10") && err.contains("no accumulators"),
        "{err}"
    );
    // An all-zero word is no V3D instruction.
    let zero = scratch("zero.bin");
    std::fs::write(&zero, [0u8; 8]).unwrap();
    let out = qpu(&["disasm", "--gpu", "vc6", zero.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("instruction 0") && err.contains("op_mul"),
        "{err}"
    );
}

/// `emu --gpu vc6|vc7`: a V3D kernel that stores workgroup id · 16 + lane, dispatched as one
/// batch per QPU; the dump holds exactly those numbers (worked out by hand), and a hazard
/// is an error naming the QPU, the PC and the rule's source.
#[test]
fn emu_runs_v3d_kernels() {
    let end = "nop ; nop ; thrsw\nnop ; nop ; thrsw\nnop ; nop\nnop ; nop\nnop ; nop ; thrsw\nnop ; nop\nnop ; nop\n";
    let kernels = [
        (
            "vc6",
            "eidx r0 ; nop ; ldunif\n shl r1, rf0, 4 ; nop\n add r1, r1, r0 ; nop\n shl r0, r1, 2 ; nop\n add r0, r0, r5 ; nop\n or tmud, r1, r1 ; nop\n or tmua, r0, r0 ; nop\n tmuwt ; nop\n",
        ),
        (
            "vc7",
            "eidx rf4 ; nop ; ldunif\n shl rf5, rf3, 4 ; nop\n add rf5, rf5, rf4 ; nop\n shl rf4, rf5, 2 ; nop\n add rf4, rf4, rf0 ; nop\n or tmud, rf5, rf5 ; nop\n or tmua, rf4, rf4 ; nop\n tmuwt ; nop\n",
        ),
    ];
    for (gpu, body) in kernels {
        let path = scratch(&format!("ids-{gpu}.qasm"));
        std::fs::write(&path, format!("{body}{end}")).unwrap();
        let out = ok(qpu(&[
            "emu",
            "--gpu",
            gpu,
            path.to_str().unwrap(),
            "--qpus",
            "4",
            "--buffer",
            "out=256",
            "--uniform",
            "@out",
            "--dump",
            "out:uint",
        ]));
        let words: Vec<u32> = out
            .lines()
            .filter(|l| l.trim_start().starts_with('['))
            .flat_map(|l| {
                l.split(']')
                    .nth(1)
                    .unwrap()
                    .split_whitespace()
                    .map(|w| w.parse::<u32>().unwrap())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(words, (0..64).collect::<Vec<u32>>(), "{gpu}: {out}");
        assert!(out.contains("calibrated model"), "{out}");
        assert!(out.contains("4 batches on 4 QPUs"), "{out}");
        // The same program as machine words (qpu asm --gpu … -o x.hex) runs the same.
        let hex = scratch(&format!("ids-{gpu}.hex"));
        ok(qpu(&[
            "asm",
            "--gpu",
            gpu,
            path.to_str().unwrap(),
            "-o",
            hex.to_str().unwrap(),
        ]));
        let again = ok(qpu(&[
            "emu",
            "--gpu",
            gpu,
            hex.to_str().unwrap(),
            "--qpus",
            "4",
            "--buffer",
            "out=256",
            "--uniform",
            "@out",
            "--dump",
            "out:uint",
        ]));
        assert_eq!(again, out);
    }
    // An SFU result read too early (V3D 4.2 only has the r4 form).
    let bad = scratch("sfu.qasm");
    std::fs::write(
        &bad,
        format!("eidx r0 ; nop\n or recip, r0, r0 ; nop\n or r1, r4, r4 ; nop\n{end}"),
    )
    .unwrap();
    let out = qpu(&["emu", "--gpu", "vc6", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("QPU 0") && err.contains("qpu_validate.c") && err.contains("r4"),
        "{err}"
    );
    let out = qpu(&["emu", "--gpu", "vc6", bad.to_str().unwrap(), "--qpus", "9"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("9 QPUs"));
}

#[test]
fn bench_gpu_runs_the_examples_on_the_v3d_emulators() {
    for (gpu, most) in [("vc6", "8 QPUs"), ("vc7", "16 QPUs")] {
        let out = cached(&["bench", "--gpu", gpu]);
        let rows: Vec<Vec<&str>> = out
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| example"))
            .map(|l| l.split('|').map(str::trim).collect())
            .collect();
        // Every example has a row: numbers and a checked output, or the compiler's reason;
        // then the library workloads (sha256, mandelbrot, sgemm, fft 2^8 and 2^12), which
        // must all compile and match their references.
        assert_eq!(rows.len(), 11, "{out}");
        for (row, name) in
            rows[6..]
                .iter()
                .zip(["sha256", "mandelbrot", "sgemm", "fft 2^8", "fft 2^12"])
        {
            assert!(row[1].starts_with(name) && row[9] == "yes", "{out}");
        }
        let clock = if gpu == "vc6" {
            "at 500 MHz"
        } else {
            "at 960 MHz"
        };
        for row in &rows {
            if row[2].starts_with("not compiled") {
                assert!(row[2].contains("is not supported"), "{out}");
            } else {
                let issued: u64 = row[3].parse().expect("issued");
                let cycles: u64 = row[4].parse().expect("cycles");
                assert!(issued > 0 && cycles > 0, "{out}");
                assert!(row[5].ends_with(clock), "{out}");
                // The modelled time is the cycles at the board's clock.
                let us: f64 = row[5].split(' ').next().unwrap().parse().unwrap();
                let mhz = if gpu == "vc6" { 500.0 } else { 960.0 };
                assert!((us - cycles as f64 / mhz).abs() <= 0.06, "{out}");
                assert_eq!(row[9], "yes", "{out}");
            }
        }
        assert!(
            rows[0][1].starts_with("gcd") && rows[0][9] == "yes",
            "{out}"
        );
        assert!(out.contains(most), "{gpu}: {out}");
        // The same rows as JSON, each run's counters under the kernel's perfmon names.
        let json: serde_json::Value =
            serde_json::from_str(&ok(qpu(&["bench", "--gpu", gpu, "--json"]))).unwrap();
        let runs = json.as_array().unwrap();
        assert_eq!(runs.len(), rows.len());
        for (run, row) in runs.iter().zip(&rows) {
            if row[2].starts_with("not compiled") {
                assert!(run["not_compiled"].is_string());
                continue;
            }
            let perfmon = &run["perfmon"];
            assert_eq!(
                perfmon["QPU-active"].as_u64().unwrap(),
                run["issued"].as_u64().unwrap()
            );
            assert_eq!(
                perfmon["cycle-count"].as_u64().unwrap(),
                run["cycles"].as_u64().unwrap()
            );
            assert_eq!(
                run["cycles"].as_u64().unwrap(),
                row[4].parse::<u64>().unwrap()
            );
            assert!(perfmon["QPU-stalls-TMU"].as_u64().is_some());
            assert!(perfmon["L2T-TMU-read-miss"].as_u64().is_some());
        }
    }
}

/// Every table in the docs between `<!-- qpu ARGS -->` and `<!-- end -->` is what `qpu ARGS`
/// prints, compile times aside (they depend on the machine): change a row of `qpu bench`
/// without pasting the new output into the docs and this fails, naming the file, the
/// command and the first line that differs.
#[test]
fn docs_tables_are_the_output_of_the_commands_they_name() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    // "1.529 ms |" → "X ms |": the compile column.
    let mask = |line: &str| -> String {
        line.split(" | ")
            .map(|cell| {
                let number = cell.strip_suffix(" ms").unwrap_or("");
                if !number.is_empty() && number.parse::<f64>().is_ok() && !cell.contains('/') {
                    "X ms".to_string()
                } else {
                    cell.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let mut checked = 0;
    for entry in std::fs::read_dir(&docs).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let Some(command) = line
                .strip_prefix("<!-- qpu ")
                .and_then(|l| l.strip_suffix(" -->"))
            else {
                continue;
            };
            let block: Vec<&str> = lines
                .by_ref()
                .take_while(|l| *l != "<!-- end -->")
                .collect();
            let args: Vec<&str> = command.split_whitespace().collect();
            let printed = cached(&args);
            let want: Vec<String> = printed.trim_end().lines().map(mask).collect();
            let got: Vec<String> = block.iter().map(|l| mask(l)).collect();
            if let Some(i) = (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i)) {
                panic!(
                    "{}: the table of `qpu {command}` differs at its line {}:\n  docs:    {:?}\n  command: {:?}\nrun the command and paste its output",
                    path.display(),
                    i + 1,
                    got.get(i),
                    want.get(i)
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} generated tables found in docs/");
}

/// `qpu profile` writes a page any XML parser reads: one lane per QPU, drawn in the
/// cause colours, each QPU's totals adding up to its run, stall totals equal to the run
/// report's counters, and (with `--png`) a picture of the lanes.
#[test]
fn profile_writes_a_page_whose_lanes_add_up_to_the_run() {
    let dir = std::env::temp_dir().join(format!("qpu-profile-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (html, picture) = (dir.join("heat.html"), dir.join("heat.png"));
    let out = ok(qpu(&[
        "profile",
        "heatmap",
        "--qpus",
        "4",
        "-o",
        html.to_str().unwrap(),
        "--png",
        picture.to_str().unwrap(),
    ]));
    assert!(out.contains("4 QPUs"), "{out}");
    let text = std::fs::read_to_string(&html).unwrap();
    let doc = page(&text);
    let svg = "http://www.w3.org/2000/svg";
    let labels: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name((svg, "text")))
        .filter_map(|n| n.text())
        .filter(|t| t.starts_with("QPU "))
        .collect();
    assert_eq!(labels, ["QPU 0", "QPU 1", "QPU 2", "QPU 3"]);
    // Under the QPUs, the two DMA engines' lanes; HeatMap's stores keep VDW at work.
    let units: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name((svg, "text")))
        .filter_map(|n| n.text())
        .filter(|t| *t == "VDR" || *t == "VDW")
        .collect();
    assert_eq!(units, ["VDR", "VDW"]);
    let fills: std::collections::BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name((svg, "rect")))
        .filter_map(|n| n.attribute("fill"))
        .collect();
    // Issuing and DMA stalls at least (HeatMap's stores wait for the one DMA engine).
    assert!(
        fills.contains("#3c8d2f") && fills.contains("#c0392b"),
        "{fills:?}"
    );
    // The tables: per QPU (QPU, instructions, issuing, tmu, vpm, dma, semaphore, mutex),
    // then the counters.
    let rows = table_rows(&doc);
    let counter = |name: &str| -> u64 {
        rows.iter()
            .find(|r| r.len() == 2 && r[0] == name)
            .unwrap_or_else(|| panic!("no counter {name}"))[1]
            .parse()
            .unwrap()
    };
    let per_qpu: Vec<Vec<u64>> = rows
        .iter()
        .filter(|r| r.len() == 8)
        .map(|r| r.iter().map(|c| c.parse().unwrap()).collect())
        .collect();
    assert_eq!(per_qpu.len(), 4);
    for (k, name) in ["tmu", "vpm", "dma", "semaphore", "mutex"]
        .iter()
        .enumerate()
    {
        let sum: u64 = per_qpu.iter().map(|r| r[3 + k]).sum();
        assert_eq!(sum, counter(&format!("stall_{name}")), "{name} stalls");
    }
    // Issuing clocks are 4 per instruction (the model's issue rate) for every QPU.
    for r in &per_qpu {
        assert_eq!(
            r[2],
            4 * r[1],
            "QPU {}: issuing {} for {} instructions",
            r[0],
            r[2],
            r[1]
        );
    }
    // TMU traffic (HeatMap reads its grid through the TMU): every request is a result
    // that was read, never more outstanding than the QPU's two FIFOs hold.
    let traffic = numbers(&doc, "TMU traffic");
    assert_eq!(traffic.len(), 4);
    assert_eq!(lane_labels(&doc, "TMU").len(), 4);
    let results: u64 = traffic.iter().map(|r| r[1]).sum();
    assert_eq!(results, counter("tmu_requests"));
    for r in &traffic {
        assert_eq!(r[3], 2 * qpu_isa::vc4::latency::TMU_FIFO_DEPTH as u64);
        assert!(r[2] >= 1 && r[2] <= r[3], "{r:?}");
    }
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&picture).unwrap(),
    ));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (800, 4 * 22));
    std::fs::remove_dir_all(&dir).ok();
}

/// `qpu profile --gpu vc6` draws the V3D emulator's run: one lane per QPU, and the TMU
/// stalls of the lanes add up to the perfmon counter `QPU-stalls-TMU` of the run.
#[test]
fn profile_on_v3d_draws_its_tmu_stalls() {
    let dir = std::env::temp_dir().join(format!("qpu-profile-v3d-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let html = dir.join("heat.html");
    ok(qpu(&[
        "profile",
        "heatmap",
        "--gpu",
        "vc6",
        "--qpus",
        "4",
        "-o",
        html.to_str().unwrap(),
    ]));
    let text = std::fs::read_to_string(&html).unwrap();
    let doc = page(&text);
    let rows = table_rows(&doc);
    // QPU, instructions, issuing, then the causes the V3D model has: tmu, barrier.
    assert_eq!(
        header(&doc, "Per QPU (clocks)"),
        [
            "QPU",
            "instructions",
            "issuing",
            "tmu stalls",
            "barrier stalls"
        ]
    );
    let per_qpu = numbers(&doc, "Per QPU (clocks)");
    assert_eq!(per_qpu.len(), 4);
    let counter = |name: &str| -> u64 {
        rows.iter()
            .find(|r| r.len() == 2 && r[0] == name)
            .unwrap_or_else(|| panic!("no counter {name}"))[1]
            .parse()
            .unwrap()
    };
    let tmu: u64 = per_qpu.iter().map(|r| r[3]).sum();
    assert!(tmu > 0);
    assert_eq!(tmu, counter("QPU-stalls-TMU"));
    let bubble: u64 = per_qpu.iter().map(|r| r[4]).sum();
    assert_eq!(bubble, counter("QPU-wait-bubble"));
    for r in &per_qpu {
        assert_eq!(r[2], 4 * r[1], "QPU {}: 4 clocks an instruction", r[0]);
    }
    // The legend says what the model does not have.
    let note = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("note"))
        .and_then(|n| n.text())
        .expect("a note");
    assert!(note.contains("QPU-stalls-SFU") && note.contains("QPU-stalls-uniforms"));
    // TMU traffic: one lane per QPU, never more results outstanding than the QPU's result
    // FIFO holds (Mesa's 16 words, shared by its threads).
    assert_eq!(lane_labels(&doc, "TMU").len(), 4);
    let traffic = numbers(&doc, "TMU traffic");
    assert_eq!(traffic.len(), 4);
    for r in &traffic {
        assert_eq!(r[3], u64::from(qpu_isa::v3d::latency::TMU_OUTPUT_FIFO));
        assert!(r[1] > 0 && r[2] >= 1 && r[2] <= r[3], "{r:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A profile page parsed as XML (it declares its doctype, which the parser must accept).
fn page(text: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(text, options).expect("well-formed XHTML")
}

/// The header cells of the table after the heading `title`.
fn header(doc: &roxmltree::Document<'_>, title: &str) -> Vec<String> {
    table_after(doc, title)
        .and_then(|t| t.descendants().find(|n| n.has_tag_name("tr")))
        .map(|tr| {
            tr.children()
                .filter(|c| c.has_tag_name("th"))
                .map(|th| th.text().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The data rows, as numbers, of the table after the heading `title` (none if the page
/// has no such heading).
fn numbers(doc: &roxmltree::Document<'_>, title: &str) -> Vec<Vec<u64>> {
    let Some(table) = table_after(doc, title) else {
        return Vec::new();
    };
    table
        .descendants()
        .filter(|n| n.has_tag_name("tr"))
        .map(|tr| {
            tr.children()
                .filter(|c| c.has_tag_name("td"))
                .map(|td| td.text().unwrap_or("").parse().expect("a number"))
                .collect::<Vec<u64>>()
        })
        .filter(|cells| !cells.is_empty())
        .collect()
}

/// The first table after the `h2` heading `title`.
fn table_after<'a>(
    doc: &'a roxmltree::Document<'_>,
    title: &str,
) -> Option<roxmltree::Node<'a, 'a>> {
    let heading = doc
        .descendants()
        .find(|n| n.has_tag_name("h2") && n.text() == Some(title))?;
    heading.next_siblings().find(|n| n.has_tag_name("table"))
}

/// The SVG lane labels of the page that start with `prefix`.
fn lane_labels<'a>(doc: &'a roxmltree::Document<'_>, prefix: &str) -> Vec<&'a str> {
    doc.descendants()
        .filter(|n| n.has_tag_name(("http://www.w3.org/2000/svg", "text")))
        .filter_map(|n| n.text())
        .filter(|t| t.starts_with(prefix))
        .collect()
}

/// The cells of every table row of `doc` with data cells, row by row.
fn table_rows(doc: &roxmltree::Document<'_>) -> Vec<Vec<String>> {
    doc.descendants()
        .filter(|n| n.has_tag_name("tr"))
        .map(|tr| {
            tr.children()
                .filter(|c| c.has_tag_name("td"))
                .map(|td| td.text().unwrap_or("").to_string())
                .collect::<Vec<_>>()
        })
        .filter(|cells| !cells.is_empty())
        .collect()
}

/// The library workloads profile too: the FFT's bench setup on 2 QPUs draws 2 lanes.
#[test]
fn profile_takes_library_workloads() {
    let html = std::env::temp_dir().join(format!("qpu-profile-fft-{}.html", std::process::id()));
    let out = ok(qpu(&[
        "profile",
        "fft",
        "--qpus",
        "2",
        "-o",
        html.to_str().unwrap(),
    ]));
    assert!(out.contains("2 QPUs"), "{out}");
    let text = std::fs::read_to_string(&html).unwrap();
    let rows = table_rows(&page(&text));
    assert_eq!(rows.iter().filter(|r| r.len() == 8).count(), 2);
    std::fs::remove_file(&html).ok();
    let err = qpu(&["profile", "nothing"]);
    assert!(!err.status.success());
    assert!(String::from_utf8_lossy(&err.stderr).contains("sha256"));
}

/// `qpu emu --profile` on V3D with two threads per QPU: a lane per thread under each QPU's,
/// and the per-thread table adds up: each QPU's threads issued for 4 clocks an
/// instruction of the QPU's, their TMU stalls are the QPU's, and while one thread ran the
/// other was switched out (the two threads' clocks cover the QPU's run).
#[test]
fn emu_profile_draws_a_lane_per_v3d_thread() {
    let dir = std::env::temp_dir().join(format!("qpu-profile-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Each batch adds 1 to its workgroup's 16 words: a load, a thread switch while it is
    // on its way, and a store (the emulator's own test of latency hiding).
    let source = dir.join("add1.s");
    std::fs::write(
        &source,
        "eidx r0 ; nop ; ldunif
        shl r0, r0, 2 ; nop
        shl r1, rf0, 6 ; nop
        add r0, r0, r1 ; nop
        add rf1, r0, r5 ; nop
        or tmua, rf1, rf1 ; nop ; thrsw
        nop ; nop
        nop ; nop
        nop ; nop ; ldtmu.rf2
        add rf2, rf2, 1 ; nop
        or tmud, rf2, rf2 ; nop
        or tmua, rf1, rf1 ; nop
        tmuwt ; nop
        nop ; nop ; thrsw
        nop ; nop ; thrsw
        nop ; nop
        nop ; nop
        nop ; nop ; thrsw
        nop ; nop
        nop ; nop
        ",
    )
    .unwrap();
    let html = dir.join("threads.html");
    let out = ok(qpu(&[
        "emu",
        source.to_str().unwrap(),
        "--gpu",
        "vc6",
        "--qpus",
        "2",
        "--threads",
        "2",
        "--batches",
        "8",
        "--buffer",
        "buf=512",
        "--uniform",
        "@buf",
        "--dump",
        "buf:uint",
        "--profile",
        html.to_str().unwrap(),
    ]));
    assert!(out.contains("8 batches on 2 QPUs x 2 thread(s)"), "{out}");
    let text = std::fs::read_to_string(&html).unwrap();
    let doc = page(&text);
    assert_eq!(lane_labels(&doc, "QPU "), ["QPU 0", "QPU 1"]);
    assert_eq!(
        lane_labels(&doc, "thread "),
        ["thread 0", "thread 1", "thread 0", "thread 1"]
    );
    let per_qpu = numbers(&doc, "Per QPU (clocks)");
    let per_thread = numbers(&doc, "Per thread (clocks)");
    assert_eq!(per_qpu.len(), 2);
    assert_eq!(per_thread.len(), 4);
    for q in &per_qpu {
        let threads: Vec<&Vec<u64>> = per_thread.iter().filter(|t| t[0] == q[0]).collect();
        assert_eq!(threads.len(), 2);
        let sum = |k: usize| threads.iter().map(|t| t[k]).sum::<u64>();
        assert_eq!(sum(2), 4 * q[1], "QPU {}: issuing", q[0]);
        assert_eq!(sum(2), q[2], "QPU {}: issuing", q[0]);
        assert_eq!(sum(3), q[3], "QPU {}: TMU stalls", q[0]);
        let run = q[2] + q[3] + q[4];
        for t in &threads {
            assert!(t[4] > 0, "QPU {} thread {} never switched out", q[0], t[1]);
            assert!(
                t[2] + t[3] + t[4] + t[5] <= run,
                "{t:?} beyond the run of {run}"
            );
        }
    }
    let fills: std::collections::BTreeSet<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("fill"))
        .collect();
    // Issuing, TMU stalls, switched out, TMU results in flight.
    for colour in ["#3c8d2f", "#d9822b", "#c8d7e6", "#1f7a8c"] {
        assert!(fills.contains(colour), "{colour} not in {fills:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Where Debian's Chromium is, for the headless-browser check.
const CHROMIUM: &str = "/usr/bin/chromium";

/// The profile page as a browser draws it: Chromium (when installed; CI does not install
/// it, and the check is then skipped with a note) takes a 1200×1400 screenshot of
/// HeatMap's 12-QPU page, which must be a PNG of that size showing the lanes in the
/// page's colours: issuing, DMA stalls, TMU traffic and a DMA engine at work.
#[test]
fn profile_page_renders_in_a_headless_browser() {
    if !Path::new(CHROMIUM).exists() {
        eprintln!(
            "note: {CHROMIUM} not found: the headless-browser check of the profile page is skipped"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("qpu-profile-chromium-{}", std::process::id()));
    let profile = dir.join("browser-profile");
    std::fs::create_dir_all(&profile).unwrap();
    let (html, shot) = (dir.join("heat.html"), dir.join("shot.png"));
    ok(qpu(&[
        "profile",
        "heatmap",
        "--qpus",
        "12",
        "-o",
        html.to_str().unwrap(),
    ]));
    // Tall enough for the 12 QPUs' lanes and the DMA engines' under them.
    let (width, height) = (1200u32, 1400u32);
    let pixels = screenshot(&html, &shot, &profile, width, height);
    // The page's colours, each on many more pixels than its legend swatch covers (lane
    // columns blend at their edges, so near matches count).
    let near = |p: &[u8], c: [u8; 3]| (0..3).all(|k| p[k].abs_diff(c[k]) <= 6);
    for (what, colour) in [
        ("issuing", [0x3c, 0x8d, 0x2f]),
        ("DMA stalls", [0xc0, 0x39, 0x2b]),
        ("TMU results arrived", [0x7f, 0xc8, 0xd6]),
        ("a DMA engine at work", [0x55, 0x55, 0x55]),
    ] {
        let count = pixels.chunks(3).filter(|p| near(p, colour)).count();
        assert!(count >= 2000, "{what}: {count} pixels of {colour:?}");
    }
    let white = pixels
        .chunks(3)
        .filter(|p| near(p, [255, 255, 255]))
        .count();
    assert!(white < pixels.len() / 3 * 95 / 100, "the page is blank");
    std::fs::remove_dir_all(&dir).ok();
}

/// A `width`×`height` headless Chromium screenshot of `page` into `shot`, as RGB bytes
/// (checked to be a PNG of that size). `profile` is the browser's own empty directory;
/// the browser fetches nothing (no network, sync, updates or first-run pages).
fn screenshot(page: &Path, shot: &Path, profile: &Path, width: u32, height: u32) -> Vec<u8> {
    let mut browser = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("file://{}", page.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start chromium");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = browser.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(120) {
            browser.kill().ok();
            browser.wait().ok();
            panic!("chromium took over two minutes");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(status.success(), "chromium: {status}");
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(shot).expect("a screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    assert_eq!((reader.info().width, reader.info().height), (width, height));
    let mut buffer = vec![0u8; reader.output_buffer_size().expect("an image size")];
    let frame = reader.next_frame(&mut buffer).expect("the image");
    assert_eq!(frame.bit_depth, png::BitDepth::Eight);
    let step = match frame.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("a {other:?} screenshot"),
    };
    buffer[..frame.buffer_size()]
        .chunks(step)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect()
}

//! Batched stores: in a `for_range` loop, `store(v, p)` with `p` advancing by a fixed step
//! becomes one multi-row VDW DMA per batch of iterations. Every case here is checked against
//! a scalar model of the stores done one at a time, in program order, on the interpreter and
//! on the emulator, over trip counts around the batch sizes (64 rows per QPU on 1 QPU down
//! to 4 on 12, halved for two streams), steps that do and do not allow a batch (overlapping,
//! zero, negative, beyond the stride field), streams that overlap each other, and 1–12 QPUs.

use qpu::lang::*;
use qpu::{compile, Device};

/// Elements each QPU owns in the output: room for 140 rows of up to 80 elements apart.
const REGION: i32 = 140 * 80 + 64;

/// One stream: `rows` stores of 16 lanes `1000 * i + lane + 100_000 * qpu`, the first at
/// element `origin` of this QPU's region, then every `step` elements (`step` may be
/// negative); the pointer advances before the store when `advance_first`.
fn one_stream_expected(
    qpus: i32,
    rows: i32,
    step: i32,
    origin: i32,
    advance_first: bool,
) -> Vec<i32> {
    let mut out = vec![-1; (REGION * qpus) as usize];
    for q in 0..qpus {
        let mut p = q * REGION + origin;
        for i in 0..rows {
            if advance_first {
                p += step;
            }
            for lane in 0..16 {
                out[(p + lane) as usize] = 1000 * i + lane + 100_000 * q;
            }
            if !advance_first {
                p += step;
            }
        }
    }
    out
}

fn run_one_stream(
    device: &Device,
    qpus: u32,
    rows: i32,
    step: i32,
    origin: i32,
    advance_first: bool,
) -> Vec<i32> {
    let mut out = device
        .alloc_from(&vec![-1; (REGION * qpus as i32) as usize])
        .unwrap();
    let kernel_fn = move |out: Ptr<Int>, rows: Int, step: Int, origin: Int| {
        let mut p = Ptr::var(out + me() * REGION + origin + index());
        // Count in threes, to keep the loop counter apart from the row number.
        for_range(0, rows * 3, 3, |i| {
            if advance_first {
                p += step;
            }
            store(i / 3 * 1000 + index() + me() * 100_000, p);
            if !advance_first {
                p += step;
            }
        });
    };
    let mut kernel = compile(kernel_fn).unwrap();
    kernel.set_num_qpus(qpus).unwrap();
    kernel
        .run(device, (&mut out, rows, step, origin))
        .unwrap_or_else(|e| panic!("{}: {e}", device.describe()));
    out.to_vec()
}

#[test]
fn one_stream_lands_like_one_store_at_a_time() {
    // (step, origin): contiguous, spaced, at the stride field's edge, overlapping, in
    // place, and backwards.
    let steps = [
        (16, 100),
        (17, 100),
        (80, 100),
        (8, 100),
        (0, 100),
        (-16, 139 * 80),
    ];
    for qpus in [1, 3, 12] {
        for &rows in &[0, 1, 3, 4, 5, 31, 32, 33, 64, 65, 139] {
            for &(step, origin) in &steps {
                for advance_first in [false, true] {
                    let origin = if advance_first { origin - step } else { origin };
                    if step < 0 && rows > 139 || origin < 0 {
                        continue;
                    }
                    let want = one_stream_expected(qpus, rows, step, origin, advance_first);
                    for device in [Device::interpreter(), Device::emulator()] {
                        let got =
                            run_one_stream(&device, qpus as u32, rows, step, origin, advance_first);
                        assert!(
                            got == want,
                            "{}: {qpus} QPUs, {rows} rows, step {step}, advance first \
                             {advance_first}: first difference at element {:?}",
                            device.describe(),
                            got.iter().zip(&want).position(|(a, b)| a != b)
                        );
                    }
                }
            }
        }
    }
}

/// Two streams `a` at `p` and `b` at `q = p + distance`, both advancing by `step`: stores
/// to the same element must keep program order (the later iteration wins).
fn two_streams_expected(qpus: i32, rows: i32, step: i32, distance: i32) -> Vec<i32> {
    let mut out = vec![-1; (REGION * qpus) as usize];
    for q in 0..qpus {
        let (mut a, mut b) = (q * REGION, q * REGION + distance);
        for i in 0..rows {
            for lane in 0..16 {
                out[(a + lane) as usize] = 1000 * i + lane + 100_000 * q;
                out[(b + lane) as usize] = -(1000 * i + lane + 100_000 * q);
            }
            a += step;
            b += step;
        }
    }
    out
}

#[test]
fn two_streams_keep_program_order_where_they_overlap() {
    let kernel_fn = |out: Ptr<Int>, rows: Int, step: Int, distance: Int| {
        let mut a = Ptr::var(out + me() * REGION + index());
        let mut b = Ptr::var(out + me() * REGION + distance + index());
        for_range(0, rows, 1, |i| {
            let v = Int::var(i * 1000 + index() + me() * 100_000);
            store(v, a);
            store(Int::from(0) - v, b);
            a += step;
            b += step;
        });
    };
    let mut kernel = compile(kernel_fn).unwrap();
    // (step, distance): far apart, interleaved one row apart, at the same place, a batch
    // apart exactly on 5–8 QPUs (2 rows of 16), a staged batch apart exactly on 9–12 QPUs
    // (4 rows: the second stream waits in registers), and one row short of that.
    for (step, distance) in [
        (16, 5000),
        (32, 16),
        (16, 16),
        (16, 0),
        (16, 32),
        (16, 64),
        (16, 48),
        (80, 7000),
    ] {
        check_two_streams(
            &mut kernel,
            (step, distance),
            &[1, 2, 9, 12],
            &[0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 70],
        );
    }
}

/// Run a two-stream kernel (`out`, `rows`, `step`, `distance`) on the interpreter and the
/// emulator for each QPU count and row count, against [`two_streams_expected`].
fn check_two_streams(
    kernel: &mut qpu::runtime::Kernel<(Ptr<Int>, Int, Int, Int)>,
    (step, distance): (i32, i32),
    qpu_counts: &[u32],
    row_counts: &[i32],
) {
    for &qpus in qpu_counts {
        kernel.set_num_qpus(qpus).unwrap();
        for &rows in row_counts {
            if (rows + 1) * step + distance >= REGION {
                continue;
            }
            let want = two_streams_expected(qpus as i32, rows, step, distance);
            for device in [Device::interpreter(), Device::emulator()] {
                let mut out = device
                    .alloc_from(&vec![-1; (REGION * qpus as i32) as usize])
                    .unwrap();
                kernel
                    .run(&device, (&mut out, rows, step, distance))
                    .unwrap_or_else(|e| panic!("{}: {e}", device.describe()));
                let got = out.to_vec();
                assert!(
                    got == want,
                    "{}: {qpus} QPUs, {rows} rows, step {step}, distance {distance}: \
                     first difference at element {:?}",
                    device.describe(),
                    got.iter().zip(&want).position(|(a, b)| a != b)
                );
            }
        }
    }
}

/// Emulated cycles of 12 QPUs storing `rows` contiguous rows each.
fn store_cycles(rows: i32) -> u64 {
    let device = Device::emulator();
    let mut out = device.alloc::<i32>((rows * 16 * 12) as usize).unwrap();
    let mut kernel = compile(|out: Ptr<Int>, rows: Int| {
        let mut p = Ptr::var(out + me() * rows * 16 + index());
        for_range(0, rows, 1, |i| {
            store(i, p);
            p += 16;
        });
    })
    .unwrap();
    kernel.set_num_qpus(12).unwrap();
    let report = kernel.run(&device, (&mut out, rows)).unwrap();
    let got = out.to_vec();
    for (n, v) in got.iter().enumerate() {
        assert_eq!(*v, (n as i32 / 16) % rows);
    }
    report.cycles.expect("the emulator models cycles")
}

#[test]
fn batches_share_the_dma_engine_better_than_rows() {
    // One DMA engine serves every QPU: a 64-byte row costs it about 137 clocks alone, a
    // batch of 4 rows about 156 (vdw_time in the emulator's timing model). 12 QPUs × 64
    // rows one at a time would need at least 768 × 137 = 105,216 clocks.
    let cycles = store_cycles(64);
    assert!(cycles < 768 * 137 / 3, "{cycles} cycles");
}

#[test]
fn two_streams_advanced_before_their_stores_land_like_one_store_at_a_time() {
    // The pointers advance first: each batch's first rows are one step past where the
    // previous batch's pointers stood (staged on 9–12 QPUs, counted on fewer).
    let kernel_fn = |out: Ptr<Int>, rows: Int, step: Int, distance: Int| {
        let mut a = Ptr::var(out + me() * REGION + index() - step);
        let mut b = Ptr::var(out + me() * REGION + distance + index() - step);
        for_range(0, rows, 1, |i| {
            a += step;
            b += step;
            let v = Int::var(i * 1000 + index() + me() * 100_000);
            store(v, a);
            store(Int::from(0) - v, b);
        });
    };
    let mut kernel = compile(kernel_fn).unwrap();
    for case in [(16, 5000), (16, 64), (16, 48), (80, 7000)] {
        check_two_streams(&mut kernel, case, &[3, 12], &[0, 1, 3, 4, 5, 8, 9, 70]);
    }
}

#[test]
fn two_streams_on_twelve_qpus_go_out_four_rows_per_dma() {
    // Each of 12 QPUs owns 4 VPM rows: two streams in 2 rows each would take 12 × 64 DMAs
    // of 2 rows, at least 768 × 143 clocks (vdw_time) of the one DMA engine. Staged, the
    // second stream waits in registers and both go out 4 rows at a time: 384 × 156.
    let rows = 64;
    let device = Device::emulator();
    let mut out = device.alloc::<i32>((rows * 32 * 12) as usize).unwrap();
    let mut kernel = compile(|out: Ptr<Int>, rows: Int| {
        let mut p = Ptr::var(out + me() * rows * 32 + index());
        let mut q = Ptr::var(p + rows * 16);
        for_range(0, rows, 1, |i| {
            store(i, p);
            store(i + 1000, q);
            p += 16;
            q += 16;
        });
    })
    .unwrap();
    kernel.set_num_qpus(12).unwrap();
    let report = kernel.run(&device, (&mut out, rows)).unwrap();
    let want: Vec<i32> = (0..12 * 2 * rows)
        .flat_map(|r| {
            let v = (r % rows) + if (r / rows) % 2 == 1 { 1000 } else { 0 };
            std::iter::repeat_n(v, 16)
        })
        .collect();
    assert!(out.to_vec() == want);
    let cycles = report.cycles.expect("the emulator models cycles");
    // 60,440 cycles; 110,336 with 2-row batches.
    assert!(cycles < 768 * 143 * 6 / 10, "{cycles} cycles");
}

/// A batched store that runs past its array is the same error on both backends: the first
/// lane outside, its element and argument, and the store's line.
#[test]
fn a_batched_store_past_the_end_names_the_first_lane_outside() {
    use qpu::error::{ArrayPlace, Error, RunErrorKind};
    for device in [Device::interpreter(), Device::emulator()] {
        // 10 rows of 16 fit; the 11th (element 160) is past the end.
        let mut out = device.alloc::<i32>(160).unwrap();
        let line = line!() + 4;
        let kernel = compile(|out: Ptr<Int>, rows: Int| {
            let mut p = Ptr::var(out + index());
            for_range(0, rows, 1, |i| {
                store(i, p);
                p += 16;
            });
        })
        .unwrap();
        let Err(Error::Run(e)) = kernel.run(&device, (&mut out, 12)) else {
            panic!("{}: expected a run error", device.describe());
        };
        assert_eq!(
            e.kind,
            RunErrorKind::OutOfBounds {
                access: "store",
                lane: 0,
                address: out.bus_address() + 640,
                place: Some(ArrayPlace {
                    argument: 0,
                    element: 160,
                    len: 160
                }),
            },
            "{}: {e}",
            device.describe()
        );
        assert_eq!(e.location.map(|l| l.line), Some(line), "{e}");
    }
}

// ---------------------------------------------------------------------------------------
// Store runs: consecutive stores at `base + first + k·step` in straight-line code share
// multi-row DMAs (4 rows each, what every QPU owns of the VPM on up to 12 QPUs).

/// `count` stores of `1000 k + lane + 100_000 qpu` at element `origin + k·step` of each
/// QPU's region, one at a time in program order.
fn run_expected(qpus: i32, count: i32, step: i32, origin: i32) -> Vec<i32> {
    let mut out = vec![-1; (REGION * qpus) as usize];
    for q in 0..qpus {
        for k in 0..count {
            let p = q * REGION + origin + k * step;
            for lane in 0..16 {
                out[(p + lane) as usize] = 1000 * k + lane + 100_000 * q;
            }
        }
    }
    out
}

fn run_stores(device: &Device, qpus: u32, count: i32, step: i32, origin: i32) -> (Vec<i32>, u64) {
    let mut out = device
        .alloc_from(&vec![-1; (REGION * qpus as i32) as usize])
        .unwrap();
    let mut kernel = compile(move |out: Ptr<Int>| {
        let base = out + me() * REGION;
        for k in 0..count {
            // Alternate the two store forms: a run may mix them.
            let value = index() + 1000 * k + me() * 100_000;
            if k % 2 == 0 {
                (base + (origin + k * step)).store(value);
            } else {
                store(value, base + (origin + k * step) + index());
            }
        }
    })
    .unwrap();
    kernel.set_num_qpus(qpus).unwrap();
    let report = kernel
        .run(device, &mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", device.describe()));
    (out.to_vec(), report.cycles.unwrap_or(0))
}

#[test]
fn store_runs_land_like_one_store_at_a_time() {
    // Steps: rows back to back, spaced, overlapping (no run), in place (no run), backwards
    // (no run); counts around the 4-row DMA.
    for (step, origin) in [(16, 0), (17, 5), (80, 0), (8, 3), (0, 0), (-16, 130 * 16)] {
        for count in [1, 2, 3, 4, 5, 8, 9, 13] {
            for qpus in [1, 5, 12] {
                let want = run_expected(qpus as i32, count, step, origin);
                for device in [Device::interpreter(), Device::emulator()] {
                    let (got, _) = run_stores(&device, qpus, count, step, origin);
                    assert!(
                        got == want,
                        "{}: step {step}, {count} stores, {qpus} QPUs",
                        device.describe()
                    );
                }
            }
        }
    }
}

#[test]
fn a_load_between_stores_sees_the_earlier_store() {
    // The second value reads the first store's memory: the stores are not one run.
    let kernel = compile(|p: Ptr<Int>| {
        p.store(index() + 7);
        (p + 16).store(p.load() * 2);
        (p + 32).store(index());
    })
    .unwrap();
    let want: Vec<i32> = (0..16)
        .map(|l| l + 7)
        .chain((0..16).map(|l| (l + 7) * 2))
        .chain(0..16)
        .collect();
    for device in [Device::interpreter(), Device::emulator()] {
        let mut p = device.alloc::<i32>(48).unwrap();
        kernel.run(&device, &mut p).unwrap();
        assert_eq!(p.to_vec(), want, "{}", device.describe());
    }
}

#[test]
fn a_store_run_costs_two_dmas_for_eight_rows() {
    // Eight rows one at a time keep the DMA engine busy at least 8 × 137 clocks (vdw_time);
    // as two 4-row DMAs, about 2 × 156 (the run measures 848 clocks in all, 1,888 without).
    let (got, cycles) = run_stores(&Device::emulator(), 1, 8, 16, 0);
    assert_eq!(got, run_expected(1, 8, 16, 0));
    assert!(cycles < 8 * 137, "{cycles} cycles");
}

#[test]
fn a_store_run_past_the_end_names_the_element_and_a_store_of_the_run() {
    use qpu::error::{Error, RunErrorKind};
    let first_line = line!() + 3;
    let kernel = compile(|p: Ptr<Int>| {
        // Three stores; the array has room for two rows.
        p.store(index());
        (p + 16).store(index() + 1);
        (p + 32).store(index() + 2);
    })
    .unwrap();
    for device in [Device::interpreter(), Device::emulator()] {
        let mut out = device.alloc::<i32>(32).unwrap();
        let Err(Error::Run(e)) = kernel.run(&device, &mut out) else {
            panic!("{}: expected a run error", device.describe());
        };
        let RunErrorKind::OutOfBounds { place, access, .. } = &e.kind else {
            panic!("{}: {e}", device.describe());
        };
        assert_eq!(*access, "store");
        let place = place.as_ref().expect("the array is named");
        assert_eq!(
            (place.argument, place.element, place.len),
            (0, 32, 32),
            "{e}"
        );
        // The interpreter names the third store; a DMA covering several stores' rows names
        // the last of them, which here is the same line.
        assert_eq!(e.location.map(|l| l.line), Some(first_line + 2), "{e}");
    }
}

#[test]
fn store_runs_in_a_kernel_that_spills_land_like_one_store_at_a_time() {
    // Seventy values live across a run of 9 stores: the kernel spills. The allocator adds
    // the spill support itself; reloads go through each QPU's first VPM row, outside the
    // stretches where the run's rows wait for their DMA, so the run keeps all 4 rows a QPU
    // owns on 12 QPUs per DMA.
    let mut kernel = compile(|p: Ptr<Int>, out: Ptr<Int>| {
        let vs: Vec<Int> = (0..70).map(|i| Int::var(p.load() * (i + 1))).collect();
        let base = out + me() * 160;
        for k in 0..9i32 {
            store(vs[k as usize * 7], base + k * 16 + index());
        }
        let total = Int::var(0);
        for v in &vs {
            total.set(total + *v);
        }
        (base + 144).store(total);
    })
    .unwrap();
    assert_spills(&kernel);
    // The run goes out as 4-row DMAs (units field 4 - 1 = 3, i.e. 0x01800000 added).
    let listing = kernel.disassemble().unwrap();
    assert!(listing.contains(", 0x01800000"), "{listing}");
    let input: Vec<i32> = (0..16).map(|l| l * 3 - 7).collect();
    lands_on_every_qpu(&mut kernel, &input, &[1, 5, 12], |x, k| match k {
        0..9 => x * (k * 7 + 1),
        _ => (1..=70).map(|i| x * i).sum::<i32>(),
    });
}

/// The test needs a kernel that spills: fails if it no longer does.
fn assert_spills<P>(kernel: &qpu::Kernel<P>) {
    let compiled = qpu::compiler::compile(kernel.ast()).unwrap();
    assert!(
        compiled.spill_bytes_per_qpu() > 0,
        "the kernel no longer spills"
    );
}

/// Runs `kernel` (input `p`, then 160 output words per QPU: 10 rows) on the interpreter
/// and the emulator on each of `qpu_counts`, and checks each QPU's row `k` against
/// `row(x, k)` for each input lane `x`.
fn lands_on_every_qpu(
    kernel: &mut qpu::Kernel<(Ptr<Int>, Ptr<Int>)>,
    input: &[i32],
    qpu_counts: &[u32],
    row: impl Fn(i32, i32) -> i32,
) {
    for &qpus in qpu_counts {
        let one: Vec<i32> = (0..10)
            .flat_map(|k| input.iter().map(move |&x| (x, k)))
            .map(|(x, k)| row(x, k))
            .collect();
        let want = one.repeat(qpus as usize);
        kernel.set_num_qpus(qpus).unwrap();
        for device in [Device::interpreter(), Device::emulator()] {
            let p = device.alloc_from(input).unwrap();
            let mut out = device.alloc::<i32>(160 * qpus as usize).unwrap();
            kernel.run(&device, (&p, &mut out)).unwrap();
            assert!(out.to_vec() == want, "{} on {qpus} QPUs", device.describe());
        }
    }
}

#[test]
fn a_spilling_kernel_keeps_what_a_store_run_stores_out_of_memory() {
    // The run is the only reader of the nine values it stores, so they are the cheapest to
    // spill; but their reloads would come between the run's VPM writes and its DMA, through
    // the VPM row the run is filling. The allocator keeps them in registers and spills
    // others (without that, the run stores reloaded data over its own rows).
    let mut kernel = compile(|p: Ptr<Int>, out: Ptr<Int>| {
        let vs: Vec<Int> = (0..70).map(|i| Int::var(p.load() * (i + 1))).collect();
        let base = out + me() * 160;
        let total = Int::var(0);
        for v in &vs[9..] {
            total.set(total + *v);
        }
        for (k, v) in vs[..9].iter().enumerate() {
            store(*v, base + k as i32 * 16 + index());
        }
        (base + 144).store(total);
    })
    .unwrap();
    assert_spills(&kernel);
    let input: Vec<i32> = (0..16).map(|l| l * 5 - 40).collect();
    lands_on_every_qpu(&mut kernel, &input, &[1, 4, 12], |x, k| match k {
        0..9 => x * (k + 1),
        _ => (10..=70).map(|i| x * i).sum::<i32>(),
    });
}

#[test]
fn store_runs_use_every_row_the_qpu_count_leaves() {
    // Sixteen rows: one DMA on 1–4 QPUs (16 rows each), two on 5–8, four on 9–12.
    let kernel = compile(|out: Ptr<Int>| {
        for k in 0..16i32 {
            (out + k * 16).store(index() + k);
        }
    })
    .unwrap();
    let dmas = |max_qpus: u32| {
        let options = qpu::compiler::Options {
            max_qpus,
            ..qpu::compiler::Options::default()
        };
        let compiled = qpu::compiler::compile_with(kernel.ast(), options).unwrap();
        assert_eq!(compiled.max_qpus(), max_qpus);
        compiled
            .disassemble()
            .lines()
            .filter(|l| l.contains("vw_addr"))
            .count()
    };
    assert_eq!((dmas(1), dmas(4), dmas(8), dmas(12)), (1, 1, 2, 4));
    // And the runtime compiles each launch for its own count: the rows land alike (every
    // QPU stores the same rows).
    let want: Vec<i32> = (0..16).flat_map(|k| (0..16).map(move |l| l + k)).collect();
    let mut kernel = kernel;
    for qpus in [1, 3, 7, 12] {
        kernel.set_num_qpus(qpus).unwrap();
        let device = Device::emulator();
        let mut out = device.alloc::<i32>(256).unwrap();
        kernel.run(&device, &mut out).unwrap();
        assert_eq!(out.to_vec(), want, "{qpus} QPUs");
    }
}

/// Input vectors each QPU owns in [`sliding_window`]'s kernel: a row of up to 70 outputs
/// reads 72.
const WINDOW_IN: i32 = 72 * 16;
/// Output elements each QPU owns there.
const WINDOW_OUT: i32 = 70 * 16;

/// HeatMap's cursor in miniature: `prev`, `cur` and `next` slide along a gathered row, and
/// each step stores `3·prev + 5·cur + 7·next` plus `cur` rotated by one lane with lane 0
/// taken from `prev` (a `where_` on `index()`), `n` steps per QPU.
fn sliding_window(device: &Device, qpus: u32, n: i32) -> Vec<i32> {
    let inp: Vec<i32> = (0..WINDOW_IN * qpus as i32).map(window_input).collect();
    let inp = device.alloc_from(&inp).unwrap();
    let mut out = device
        .alloc_from(&vec![-1; (WINDOW_OUT * qpus as i32) as usize])
        .unwrap();
    let mut kernel = window_kernel();
    kernel.set_num_qpus(qpus).unwrap();
    kernel
        .run(device, (&inp, &mut out, n))
        .unwrap_or_else(|e| panic!("{}: {e}", device.describe()));
    out.to_vec()
}

/// [`sliding_window`]'s kernel.
fn window_kernel() -> qpu::Kernel<(Ptr<Int>, Ptr<Int>, Int)> {
    compile(|inp: Ptr<Int>, out: Ptr<Int>, n: Int| {
        let mut addr = Ptr::var(inp + me() * WINDOW_IN + index());
        let mut p = Ptr::var(out + me() * WINDOW_OUT + index());
        let (prev, cur, next) = (Int::var(0), Int::var(0), Int::var(0));
        gather(addr);
        addr += 16;
        receive(next);
        gather(addr);
        for_range(0, n * 16, 16, |_| {
            addr += 16;
            prev.set(cur);
            gather(addr);
            cur.set(next);
            receive(next);
            let edge = Int::var(rotate(cur, 1));
            let from_prev = Int::var(rotate(prev, 1));
            where_(index().eq(0), || edge.set(from_prev));
            store(prev * 3 + cur * 5 + next * 7 + edge, p);
            p += 16;
        });
        receive(next);
    })
    .unwrap()
}

fn window_input(k: i32) -> i32 {
    k.wrapping_mul(7919) % 100_003 - 50_000
}

fn sliding_window_expected(qpus: u32, n: i32) -> Vec<i32> {
    let mut out = vec![-1; (WINDOW_OUT * qpus as i32) as usize];
    for q in 0..qpus as i32 {
        let a = |k: i32, lane: i32| window_input(q * WINDOW_IN + k * 16 + lane);
        for t in 0..n {
            for lane in 0..16 {
                let prev = |l: i32| if t == 0 { 0 } else { a(t - 1, l) };
                let edge = if lane == 0 { prev(15) } else { a(t, lane - 1) };
                let v = (prev(lane) * 3)
                    .wrapping_add(a(t, lane) * 5)
                    .wrapping_add(a(t + 1, lane) * 7)
                    .wrapping_add(edge);
                out[(q * WINDOW_OUT + t * 16 + lane) as usize] = v;
            }
        }
    }
    out
}

#[test]
fn a_sliding_window_unrolled_by_its_cycle_lands_like_one_step_at_a_time() {
    // Trip counts around the unrolling (3 copies: remainders 0, 1 and 2, no full copy) and
    // the batches (64 rows on 1 QPU down to 8 on 8, where the loop is unrolled; 4 on 12,
    // where it is not).
    for qpus in [1, 2, 3, 8, 12] {
        for n in [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 31, 32, 33, 63, 64, 65, 70,
        ] {
            let want = sliding_window_expected(qpus, n);
            for device in [Device::interpreter(), Device::emulator()] {
                let got = sliding_window(&device, qpus, n);
                assert!(
                    got == want,
                    "{}: {qpus} QPUs, {n} steps: first difference at element {:?}",
                    device.describe(),
                    got.iter().zip(&want).position(|(a, b)| a != b)
                );
            }
        }
    }
}

#[test]
fn a_sliding_window_is_unrolled_where_a_batch_runs_the_copies_twice() {
    let kernel = window_kernel();
    let loops = |max_qpus: u32| {
        let options = qpu::compiler::Options {
            max_qpus,
            ..Default::default()
        };
        let listing = qpu::compiler::compile_with(kernel.ast(), options)
            .unwrap()
            .disassemble_with_cycles();
        let sizes: Vec<u32> = listing
            .lines()
            .filter_map(|l| l.split("loop: ").nth(1))
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect();
        (sizes.len(), sizes)
    };
    let (one, sizes_one) = loops(1);
    let (twelve, sizes_twelve) = loops(12);
    // On 1 QPU (64 rows a batch) the batch runs its remainder, then the three copies: one
    // loop more than on 12 (4 rows), which keeps the plain loop.
    assert_eq!(one, twelve + 1, "{sizes_one:?} / {sizes_twelve:?}");
    // Three iterations of the copies take fewer instructions than three plain ones: the
    // window's six copies per three steps are gone.
    let plain = sizes_twelve[0];
    let unrolled = sizes_one[1];
    assert!(unrolled < 3 * plain, "{sizes_one:?} / {sizes_twelve:?}");
}

/// A window of `len` variables sliding along a gathered row (`w[0] = w[1]; …; receive(w[len
/// - 1])`), each step storing `Σ (j + 2)·w[j]`, plus the loop counter when `reads_counter`
/// (then its advance stays in the body): unrolled by 2, 3 or 4 copies. `n` steps per QPU.
fn window_of(device: &Device, qpus: u32, n: i32, len: usize, reads_counter: bool) -> Vec<i32> {
    let inp: Vec<i32> = (0..WINDOW_IN * qpus as i32).map(window_input).collect();
    let inp = device.alloc_from(&inp).unwrap();
    let mut out = device
        .alloc_from(&vec![-1; (WINDOW_OUT * qpus as i32) as usize])
        .unwrap();
    let mut kernel = compile(move |inp: Ptr<Int>, out: Ptr<Int>, n: Int| {
        let mut addr = Ptr::var(inp + me() * WINDOW_IN + index());
        let mut p = Ptr::var(out + me() * WINDOW_OUT + index());
        let w: Vec<Int> = (0..len).map(|_| Int::var(0)).collect();
        gather(addr);
        addr += 16;
        receive(w[len - 1]);
        gather(addr);
        for_range(0, n * 16, 16, |x| {
            addr += 16;
            for j in 0..len - 1 {
                w[j].set(w[j + 1]);
            }
            gather(addr);
            receive(w[len - 1]);
            let sum = w
                .iter()
                .enumerate()
                .skip(1)
                .fold(w[0] * 2, |acc, (j, v)| acc + *v * (j as i32 + 2));
            store(if reads_counter { sum + x } else { sum }, p);
            p += 16;
        });
        receive(w[len - 1]);
    })
    .unwrap();
    kernel.set_num_qpus(qpus).unwrap();
    kernel
        .run(device, (&inp, &mut out, n))
        .unwrap_or_else(|e| panic!("{}: {e}", device.describe()));
    out.to_vec()
}

fn window_of_expected(qpus: u32, n: i32, len: usize, reads_counter: bool) -> Vec<i32> {
    let mut out = vec![-1; (WINDOW_OUT * qpus as i32) as usize];
    for q in 0..qpus as i32 {
        // Step t sees the vectors t - len + 2 ..= t + 1 (0 before the first).
        let a = |k: i32, lane: i32| {
            if k < 0 {
                0
            } else {
                window_input(q * WINDOW_IN + k * 16 + lane)
            }
        };
        for t in 0..n {
            for lane in 0..16 {
                let mut sum = 0i32;
                for j in 0..len as i32 {
                    let k = t + 1 - (len as i32 - 1) + j;
                    sum = sum.wrapping_add(a(k, lane).wrapping_mul(j + 2));
                }
                if reads_counter {
                    sum = sum.wrapping_add(t * 16);
                }
                out[(q * WINDOW_OUT + t * 16 + lane) as usize] = sum;
            }
        }
    }
    out
}

#[test]
fn windows_of_two_three_and_four_land_like_one_step_at_a_time() {
    for len in [2, 3, 4] {
        for reads_counter in [false, true] {
            for qpus in [1, 8] {
                for n in [0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 31, 32, 33, 64, 65, 70] {
                    let want = window_of_expected(qpus, n, len, reads_counter);
                    for device in [Device::interpreter(), Device::emulator()] {
                        let got = window_of(&device, qpus, n, len, reads_counter);
                        assert!(
                            got == want,
                            "{}: window of {len}, counter read {reads_counter}, {qpus} QPUs, \
                             {n} steps: first difference at element {:?}",
                            device.describe(),
                            got.iter().zip(&want).position(|(a, b)| a != b)
                        );
                    }
                }
            }
        }
    }
}

//! Every example kernel compiled and run on the strict emulator (hazard checks on), on
//! 1, 2, 4, 8 and 12 QPUs where the kernel takes a QPU count, checked against scalar Rust.

#[path = "support/heat.rs"]
mod heat;
use heat::scalar_heat_step;

use qpu::{compile, Device};
use qpu_kernels::qpulib::{gcd, heatmap, id, multi_tri, oet_sort, rot3d, tri};

const QPU_COUNTS: [u32; 5] = [1, 2, 4, 8, 12];

fn scalar_gcd(mut a: i32, mut b: i32) -> i32 {
    while a != b {
        if a > b {
            a -= b;
        } else {
            b -= a;
        }
    }
    a
}

fn triangular(n: i32) -> i32 {
    (1..=n).sum()
}

#[test]
fn gcd_v1_and_v2() {
    let (a, b) = gcd::inputs();
    let device = Device::emulator();
    let expected: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| scalar_gcd(x, y)).collect();
    for unrolled in [false, true] {
        let r = gcd::run(&device, unrolled, &a, &b).unwrap();
        assert_eq!(r, expected, "unrolled={unrolled}");
    }
}

#[test]
fn tri_single_qpu() {
    let r = tri::run(&Device::emulator()).unwrap();
    assert_eq!(r, (0..16).map(triangular).collect::<Vec<_>>());
}

#[test]
fn multi_tri_on_every_qpu_count() {
    let device = Device::emulator();
    let mut kernel = compile(multi_tri::tri).unwrap();
    for n in QPU_COUNTS {
        let input: Vec<i32> = (0..16 * n as i32).collect();
        let mut array = device.alloc_from(&input).unwrap();
        kernel.set_num_qpus(n).unwrap();
        let report = kernel.run(&device, &mut array).unwrap();
        assert_eq!(report.qpus.len(), n as usize);
        let expected: Vec<i32> = input.iter().map(|&x| triangular(x)).collect();
        assert_eq!(array.to_vec(), expected, "{n} QPUs");
    }
    assert_eq!(
        multi_tri::run(&device).unwrap(),
        (0..64).map(triangular).collect::<Vec<_>>()
    );
}

#[test]
fn id_on_every_qpu_count_raises_one_interrupt() {
    let device = Device::emulator();
    let mut kernel = compile(id::id).unwrap();
    for n in QPU_COUNTS {
        let mut array = device.alloc::<i32>(16 * n as usize).unwrap();
        kernel.set_num_qpus(n).unwrap();
        let report = kernel.run(&device, &mut array).unwrap();
        let expected: Vec<i32> = (0..16 * n as i32).map(|i| i / 16).collect();
        assert_eq!(array.to_vec(), expected, "{n} QPUs");
        let irqs = report
            .counters
            .iter()
            .find(|(name, _)| name == "host_interrupts")
            .map(|(_, v)| *v);
        assert_eq!(irqs, Some(1), "{n} QPUs");
    }
    assert_eq!(
        id::run(&device).unwrap(),
        (0..192).map(|i| i / 16).collect::<Vec<_>>()
    );
}

#[test]
fn oet_sort_sorts() {
    let device = Device::emulator();
    let mut inputs: Vec<Vec<i32>> = vec![(0..32).map(|i| 100 - i).collect()];
    let mut x = 12345u32;
    for _ in 0..3 {
        inputs.push(
            (0..32)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    x as i32
                })
                .collect(),
        );
    }
    inputs.push(
        (0..32)
            .map(|i| if i % 3 == 0 { i32::MAX } else { i32::MIN + i })
            .collect(),
    );
    for input in inputs {
        let mut expected = input.clone();
        expected.sort();
        assert_eq!(oet_sort::run(&device, &input).unwrap(), expected);
    }
}

#[test]
fn rot3d_all_versions_and_qpu_counts() {
    let device = Device::emulator();
    let n = 16 * 12 * 3;
    let mut x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut y = x.clone();
    rot3d::rot3d_scalar(n, rot3d::THETA.cos(), rot3d::THETA.sin(), &mut x, &mut y);
    let mut runs = vec![(1, 1), (2, 1)];
    runs.extend(QPU_COUNTS.iter().map(|&q| (3, q)));
    for (version, num_qpus) in runs {
        let (vx, vy, _) = rot3d::run(&device, version, num_qpus, n).unwrap();
        assert_eq!(vx, x, "x of version {version} on {num_qpus} QPUs");
        assert_eq!(vy, y, "y of version {version} on {num_qpus} QPUs");
    }
}

#[test]
fn heatmap_on_every_qpu_count() {
    let grid = heatmap::Grid {
        width: 48,
        height: 24,
    };
    let mut initial = vec![0.0f32; grid.nrows() * grid.ncols()];
    for (y, x, t) in [
        (1, 0, 250_000.0),
        (4, 17, 1000.0),
        (24, 47, 64_000.0),
        (5, 31, 3.5),
    ] {
        initial[y * grid.ncols() + x] = t;
    }
    let steps = 6;
    let mut expected = initial.clone();
    let mut scratch = vec![0.0f32; initial.len()];
    for _ in 0..steps {
        scalar_heat_step(grid, &expected, &mut scratch);
        std::mem::swap(&mut expected, &mut scratch);
    }
    let device = Device::emulator();
    for num_qpus in QPU_COUNTS {
        let result = heatmap::run(&device, grid, &initial, steps, num_qpus).unwrap();
        for (i, (&got, &want)) in result.iter().zip(&expected).enumerate() {
            assert_eq!(got.to_bits(), want.to_bits(), "{num_qpus} QPUs, index {i}");
        }
    }
}

/// 100 vectors live at once: more than the 64 registers and 4 accumulators, so the compiler
/// must spill (QPULib aborted at 57).
fn hundred_live(p: qpu::lang::Ptr<qpu::lang::Int>, q: qpu::lang::Ptr<qpu::lang::Int>) {
    use qpu::lang::*;
    let values: Vec<Int> = (0..100)
        .map(|i| Int::var(p.at(16 * i).load() * (i + 1)))
        .collect();
    let sum = Int::var(0);
    for v in values.iter().rev() {
        sum.set(sum * 3 + *v);
    }
    (q + (me() << 4)).store(sum);
}

#[test]
fn a_hundred_live_vectors_spill_and_agree() {
    let kernel = compile(hundred_live).unwrap();
    let compiled = qpu::compiler::compile(kernel.ast()).unwrap();
    assert!(compiled.spill_bytes_per_qpu() > 0, "the kernel must spill");
    let input: Vec<i32> = (0..1600).map(|i| (i * 7919) % 1000 - 500).collect();
    let mut expected = [0i32; 16];
    for (lane, slot) in expected.iter_mut().enumerate() {
        let mut sum = 0i32;
        for i in (0..100).rev() {
            let v = input[16 * i + lane].wrapping_mul(i as i32 + 1);
            sum = sum.wrapping_mul(3).wrapping_add(v);
        }
        *slot = sum;
    }
    let device = Device::emulator();
    let p = device.alloc_from(&input).unwrap();
    let mut kernel = kernel;
    for n in [1, 4, 12] {
        let mut q = device.alloc::<i32>(16 * n as usize).unwrap();
        kernel.set_num_qpus(n).unwrap();
        kernel.run(&device, (&p, &mut q)).unwrap();
        for qpu in 0..n as usize {
            assert_eq!(
                &q[16 * qpu..16 * qpu + 16],
                &expected[..],
                "{n} QPUs, QPU {qpu}"
            );
        }
    }
    // The interpreter agrees too.
    let interp = Device::interpreter();
    let p = interp.alloc_from(&input).unwrap();
    let mut q = interp.alloc::<i32>(16 * 12).unwrap();
    kernel.run(&interp, (&p, &mut q)).unwrap();
    assert_eq!(&q[..16], &expected[..]);
}

/// `kernel.disassemble()` prints assembler syntax that assembles back to the same machine
/// code (what `qpu asm` does with it).
#[test]
fn listings_assemble_back_to_the_same_words() {
    let asts = [
        compile(gcd::gcd).unwrap().ast().clone(),
        compile(oet_sort::oet).unwrap().ast().clone(),
        compile(rot3d::rot3d_3).unwrap().ast().clone(),
        compile(heatmap::step).unwrap().ast().clone(),
        compile(hundred_live).unwrap().ast().clone(),
    ];
    for ast in &asts {
        let compiled = qpu::compiler::compile(ast).unwrap();
        let listing = compiled.disassemble();
        let again = qpu_isa::vc4::assemble(&listing).unwrap_or_else(|e| panic!("{e}\n{listing}"));
        let words: Vec<u64> = again
            .iter()
            .map(qpu_isa::vc4::Instruction::encode)
            .collect();
        assert_eq!(words, compiled.words());
    }
    let listing = compile(gcd::gcd).unwrap().disassemble().unwrap();
    assert!(listing.contains("thrend") && listing.contains("brr"));
}

/// Pointers that advance together in a short loop share one offset in the compiled code
/// (`opt::share_induction_offsets`); where the loop ends, each pointer still needed must
/// hold its final address. Two gathered streams summed into a third, then one more gather
/// through the first pointer after the loop, for trip counts from none to several, against
/// scalar Rust.
#[test]
fn pointers_sharing_an_offset_end_where_the_scalar_loop_does() {
    use qpu::lang::*;
    let a: Vec<i32> = (0..256).map(|i| i * 3 + 1).collect();
    let b: Vec<i32> = (0..256).map(|i| 1000 - i * 7).collect();
    // (The loop's last requests read one vector past the last one summed: both inputs
    // have room.)
    for n in [0, 1, 2, 5, 9] {
        let device = Device::emulator();
        let da = device.alloc_from(&a).unwrap();
        let db = device.alloc_from(&b).unwrap();
        let mut out = device.alloc_from(&[-1i32; 176]).unwrap();
        let kernel = compile(|pa: Ptr<Int>, pb: Ptr<Int>, out: Ptr<Int>, n: Int| {
            let mut p = Ptr::var(pa + index());
            let mut q = Ptr::var(pb + index());
            let mut o = Ptr::var(out + index());
            let x = Int::var(0);
            let y = Int::var(0);
            // Rot3D's shape: each iteration requests the next vectors.
            gather(p);
            gather(q);
            for_(
                0,
                |i| i.lt(n),
                |i| i + 1,
                |_| {
                    gather(p + 16);
                    gather(q + 16);
                    receive(x);
                    receive(y);
                    store(x + y, o);
                    p += 16;
                    q += 16;
                    o += 16;
                },
            );
            receive(x);
            receive(y);
            gather(p);
            receive(x);
            store(x, o);
        })
        .unwrap();
        kernel.run(&device, (&da, &db, &mut out, n)).unwrap();
        let mut expected = vec![-1i32; 176];
        for i in 0..n as usize {
            for lane in 0..16 {
                expected[16 * i + lane] = a[16 * i + lane] + b[16 * i + lane];
            }
        }
        let end = 16 * n as usize;
        expected[end..end + 16].copy_from_slice(&a[end..end + 16]);
        assert_eq!(out.to_vec(), expected, "{n} iterations");
    }
}

/// A `while_(any(x != y))` loop whose body is only `where_` blocks on `x < y`, `x > y` or
/// `x != y` is tested once per 4 copies of its body (`lower::idle_once_done`): the copies
/// after the condition fails must change nothing. Euclid's algorithm with a per-lane step
/// count (`where_(a != b)`) and a running sum, on pairs that are equal on entry, converge in
/// 1 to 5 steps, or take many, on the interpreter and the VideoCore IV and V3D emulators,
/// against scalar Rust.
#[test]
fn copies_of_an_idle_loop_body_change_nothing_after_the_loop_ends() {
    use qpu::lang::*;
    let pairs: [(i32, i32); 16] = [
        (7, 7),
        (8, 4),
        (4, 8),
        (9, 6),
        (10, 4),
        (5, 3),
        (12, 5),
        (1, 2),
        (6, 1),
        (183, 186),
        (199, 100),
        (1, 1000),
        (999, 1),
        (144, 89),
        (3, 3),
        (2, 2),
    ];
    let scalar = |(mut a, mut b): (i32, i32)| {
        let (mut steps, mut sum) = (0, 0);
        while a != b {
            if a > b {
                a -= b;
            }
            if a < b {
                b -= a;
                sum += b;
            }
            if a != b {
                steps += 1;
            }
        }
        (a, steps, sum)
    };
    let kernel = compile(|p: Ptr<Int>, q: Ptr<Int>, out: Ptr<Int>| {
        let mut a = Int::var(p.load());
        let mut b = Int::var(q.load());
        let mut steps = Int::var(0);
        let mut sum = Int::var(0);
        while_(any(a.ne(b)), || {
            where_(a.gt(b), || a -= b);
            where_(b.gt(a), || {
                b -= a;
                sum += b;
            });
            where_(a.ne(b), || steps += 1);
        });
        out.store(a);
        (out + 16).store(steps);
        (out + 32).store(sum);
    })
    .unwrap();
    let listing = kernel.disassemble().unwrap();
    // The body's first flag-setting min appears once before the loop and once per copy.
    let mins = listing
        .lines()
        .filter(|l| l.starts_with("min.setf"))
        .count();
    assert!(mins >= 8, "the loop body is not unrolled:\n{listing}");
    let want: Vec<i32> = {
        let r: Vec<(i32, i32, i32)> = pairs.iter().map(|&p| scalar(p)).collect();
        r.iter()
            .map(|t| t.0)
            .chain(r.iter().map(|t| t.1))
            .chain(r.iter().map(|t| t.2))
            .collect()
    };
    // The V3D compiler copies such bodies too.
    let devices = || {
        use qpu_isa::v3d::V3dVersion;
        [
            Device::interpreter(),
            Device::emulator(),
            Device::v3d_emulator(V3dVersion::V42),
            Device::v3d_emulator(V3dVersion::V71),
        ]
    };
    for device in devices() {
        let pa = device.alloc_from(&pairs.map(|p| p.0)).unwrap();
        let pb = device.alloc_from(&pairs.map(|p| p.1)).unwrap();
        let mut out = device.alloc::<i32>(48).unwrap();
        kernel.run(&device, (&pa, &pb, &mut out)).unwrap();
        assert_eq!(out.to_vec(), want, "{}", device.describe());
    }
    // Counting every step, not only the lanes still unequal, is not idle: tested each step,
    // the count is the loop's trip count (the most steps of any lane).
    let counted = compile(|p: Ptr<Int>, q: Ptr<Int>, out: Ptr<Int>| {
        let mut a = Int::var(p.load());
        let mut b = Int::var(q.load());
        let mut trips = Int::var(0);
        while_(any(a.ne(b)), || {
            where_(a.gt(b), || a -= b);
            where_(a.lt(b), || b -= a);
            trips += 1;
        });
        out.store(trips);
    })
    .unwrap();
    let trips = pairs
        .iter()
        .map(|&(mut a, mut b)| {
            let mut n = 0;
            while a != b {
                if a > b {
                    a -= b;
                }
                if a < b {
                    b -= a;
                }
                n += 1;
            }
            n
        })
        .max()
        .unwrap();
    for device in devices() {
        let pa = device.alloc_from(&pairs.map(|p| p.0)).unwrap();
        let pb = device.alloc_from(&pairs.map(|p| p.1)).unwrap();
        let mut out = device.alloc::<i32>(16).unwrap();
        counted.run(&device, (&pa, &pb, &mut out)).unwrap();
        assert_eq!(out.to_vec(), vec![trips; 16], "{}", device.describe());
    }
}

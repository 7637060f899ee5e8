//! `debug(label, value)`: the same records, with QPU, label and line, on the interpreter and
//! the emulator; values computed independently here.

use qpu::lang::*;
use qpu::runtime::{DebugValue, DEBUG_RECORDS};
use qpu::{compile, Device};

#[test]
fn debug_records_every_execution_with_qpu_label_and_line() {
    let line = line!() + 6;
    let mut kernel = compile(|p: Ptr<Int>, f: Ptr<Float>| {
        let x = Int::var(index() + me() * 100);
        let y = Float::var(1.5);
        let i = Int::var(0);
        while_(any(i.lt(3)), || {
            debug("x", x);
            x.set(x * 2);
            i.set(i + 1);
        });
        debug("y", y * 2.0);
        (p + me() * 16).store(x);
        (f + me() * 16).store(y);
    })
    .unwrap();
    kernel.set_num_qpus(2).unwrap();
    for device in [Device::interpreter(), Device::emulator()] {
        let name = device.describe();
        let mut p = device.alloc::<i32>(32).unwrap();
        let mut f = device.alloc::<f32>(32).unwrap();
        let report = kernel.run(&device, (&mut p, &mut f)).unwrap();
        // The kernel's own results are unchanged by recording.
        let want: Vec<i32> = (0..32).map(|k| ((k % 16) + (k / 16) * 100) * 8).collect();
        assert_eq!(p.to_vec(), want, "{name}");
        assert_eq!(report.debug.len(), 8, "{name}: 4 records per QPU");
        for qpu in 0..2u32 {
            let mine: Vec<_> = report.debug.iter().filter(|r| r.qpu == qpu).collect();
            for (step, record) in mine[..3].iter().enumerate() {
                assert_eq!(record.label, "x");
                assert_eq!(record.location.line, line, "{name}");
                let lanes: [i32; 16] =
                    std::array::from_fn(|k| (k as i32 + qpu as i32 * 100) << step);
                assert_eq!(record.value, DebugValue::Int(lanes), "{name}");
            }
            assert_eq!(mine[3].label, "y");
            assert_eq!(mine[3].value, DebugValue::Float([3.0; 16]), "{name}");
            assert!(mine[3].to_string().contains("y = [3.0"), "{}", mine[3]);
        }
    }
}

#[test]
fn records_beyond_the_limit_are_not_kept() {
    let kernel = compile(|n: Int| {
        let i = Int::var(0);
        while_(any(i.lt(n)), || {
            debug("i", i);
            i.set(i + 1);
        });
    })
    .unwrap();
    for device in [Device::interpreter(), Device::emulator()] {
        let report = kernel.run(&device, DEBUG_RECORDS as i32 + 5).unwrap();
        assert_eq!(report.debug.len(), DEBUG_RECORDS, "{}", device.describe());
        let last = report.debug.last().unwrap();
        assert_eq!(last.value, DebugValue::Int([DEBUG_RECORDS as i32 - 1; 16]));
    }
}

#[test]
fn debug_inside_where_is_a_build_error() {
    let err = compile(|p: Ptr<Int>| {
        where_(index().lt(3), || debug("p", p.load()));
    })
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("`debug` is not allowed inside `where_`"),
        "{err}"
    );
}

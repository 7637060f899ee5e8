//! One memory rule on every backend: a store outside the kernel's arrays is an error naming
//! the lane, the array, the element and the kernel's line; a load or gather there reads an
//! undefined value, an error only where it is used (stored, used as an address, or deciding
//! a branch) — so the common prefetch one vector past an array's end still runs.

use qpu::error::{ArrayPlace, Error, RunError, RunErrorKind};
use qpu::lang::*;
use qpu::{compile, Device};
use qpu_isa::v3d::V3dVersion;

fn devices() -> [Device; 2] {
    [Device::interpreter(), Device::emulator()]
}

/// The backends on which a store outside the arrays is the same error: the above and the
/// Pi 4/5 emulators. (On those a load past an array's end reads the zeroed margin after it,
/// as on a Pi 4/5, instead of an undefined value.)
fn store_devices() -> [Device; 4] {
    [
        Device::interpreter(),
        Device::emulator(),
        Device::v3d_emulator(V3dVersion::V42),
        Device::v3d_emulator(V3dVersion::V71),
    ]
}

/// The run error of `result`, or a panic naming the backend.
fn run_error(device: &Device, result: qpu::Result<qpu::runtime::RunReport>) -> RunError {
    match result {
        Err(Error::Run(e)) => e,
        Err(other) => panic!("{}: expected a run error, got {other}", device.describe()),
        Ok(_) => panic!(
            "{}: expected a run error, but the kernel ran",
            device.describe()
        ),
    }
}

#[test]
fn a_store_past_the_end_names_lane_array_element_and_line() {
    for device in store_devices() {
        let mut data = device.alloc::<i32>(20).unwrap();
        let line = line!() + 1;
        let kernel = compile(|p: Ptr<Int>| (p + 16).store(index())).unwrap();
        let e = run_error(&device, kernel.run(&device, &mut data));
        let name = device.describe();
        assert_eq!(
            e.kind,
            RunErrorKind::OutOfBounds {
                access: "store",
                lane: 4,
                address: data.bus_address() + 80,
                place: Some(ArrayPlace {
                    argument: 0,
                    element: 20,
                    len: 20
                }),
            },
            "{name}"
        );
        assert_eq!(e.location.map(|l| l.line), Some(line), "{name}: {e}");
        assert!(
            e.to_string().contains("0 past the end of its 20 elements"),
            "{e}"
        );
    }
}

#[test]
fn a_store_far_past_the_end_never_reaches_the_next_array() {
    for device in store_devices() {
        let mut a = device.alloc::<i32>(20).unwrap();
        let mut b = device.alloc_from(&[5i32; 64]).unwrap();
        let kernel = compile(|p: Ptr<Int>, _q: Ptr<Int>| {
            (p + 1024).store(7);
            (p + 1000).store(7)
        })
        .unwrap();
        let e = run_error(&device, kernel.run(&device, (&mut a, &mut b)));
        assert!(
            matches!(
                e.kind,
                RunErrorKind::OutOfBounds {
                    access: "store",
                    lane: 0,
                    place: Some(ArrayPlace {
                        argument: 0,
                        element: 1024,
                        len: 20
                    }),
                    ..
                }
            ),
            "{}: {e}",
            device.describe()
        );
        assert_eq!(b.to_vec(), vec![5; 64], "{}", device.describe());
    }
}

#[test]
fn a_value_loaded_past_the_end_is_an_error_where_stored_naming_the_load() {
    for device in devices() {
        let input = device.alloc_from(&[1i32; 20]).unwrap();
        let mut out = device.alloc::<i32>(16).unwrap();
        let load_line = line!() + 2;
        let kernel = compile(|p: Ptr<Int>, q: Ptr<Int>| {
            let x = Int::var((p + 16).load());
            q.store(x + 1)
        })
        .unwrap();
        let e = run_error(&device, kernel.run(&device, (&input, &mut out)));
        let name = device.describe();
        let RunErrorKind::UndefinedValueUsed {
            what,
            lanes,
            made_at,
            how,
        } = &e.kind
        else {
            panic!("{name}: expected an undefined value, got {e}");
        };
        assert_eq!(*what, "the value stored", "{name}");
        assert_eq!(
            *lanes, 0xfff0,
            "{name}: lanes 4..15 read past the 20 elements"
        );
        assert_eq!(made_at.map(|l| l.line), Some(load_line), "{name}: {e}");
        assert!(how.contains("element 20 of argument 0"), "{name}: {how}");
        assert_eq!(
            e.location.map(|l| l.line),
            Some(load_line + 1),
            "{name}: {e}"
        );
        assert_eq!(out.to_vec(), vec![0; 16], "{name}: nothing was stored");
    }
}

#[test]
fn a_prefetch_past_the_end_that_is_discarded_runs() {
    // QPULib's HeatMap and Rot3D idiom: gather the next vector before using this one.
    for device in devices() {
        let input = device.alloc_from(&(0..32).collect::<Vec<i32>>()).unwrap();
        let mut out = device.alloc::<i32>(32).unwrap();
        let kernel = compile(|p: Ptr<Int>, q: Ptr<Int>| {
            let x = Int::var(0);
            let i = Int::var(0);
            gather(p + index());
            while_(i.lt(32), || {
                gather(p + i + 16 + index());
                receive(x);
                (q + i).store(x * 2);
                i.set(i + 16);
            });
            receive(x);
        })
        .unwrap();
        let report = kernel.run(&device, (&input, &mut out)).unwrap();
        let want: Vec<i32> = (0..32).map(|v| v * 2).collect();
        assert_eq!(out.to_vec(), want, "{}", device.describe());
        if device.backend().name() == "interpreter" {
            assert_eq!(report.qpus[0].stray_gathers, 16);
        }
    }
}

#[test]
fn zero_length_arrays_are_legal_and_never_accessible() {
    for device in devices() {
        let mut empty = device.alloc::<i32>(0).unwrap();
        let nothing = compile(|_p: Ptr<Int>| {}).unwrap();
        nothing.run(&device, &mut empty).unwrap();

        let store = compile(|p: Ptr<Int>| p.store(1)).unwrap();
        let e = run_error(&device, store.run(&device, &mut empty));
        assert!(
            matches!(
                e.kind,
                RunErrorKind::OutOfBounds {
                    access: "store",
                    lane: 0,
                    place: Some(ArrayPlace {
                        element: 0,
                        len: 0,
                        ..
                    }),
                    ..
                }
            ),
            "{}: {e}",
            device.describe()
        );

        let copy = compile(|p: Ptr<Int>, q: Ptr<Int>| q.store(p.load())).unwrap();
        let mut out = device.alloc::<i32>(16).unwrap();
        let e = run_error(&device, copy.run(&device, (&empty, &mut out)));
        assert!(
            matches!(
                e.kind,
                RunErrorKind::UndefinedValueUsed { lanes: 0xffff, .. }
            ),
            "{}: {e}",
            device.describe()
        );
    }
}

/// What used an undefined value, and in which lanes, when `kernel` runs on a 16-element
/// input and a 16-element output.
fn undefined_use(
    device: &Device,
    kernel: &qpu::Kernel<(Ptr<Int>, Ptr<Int>)>,
) -> (&'static str, u16) {
    let input = device.alloc_from(&[3i32; 16]).unwrap();
    let mut out = device.alloc::<i32>(16).unwrap();
    let e = run_error(device, kernel.run(device, (&input, &mut out)));
    match e.kind {
        RunErrorKind::UndefinedValueUsed { what, lanes, .. } => (what, lanes),
        _ => panic!(
            "{}: expected an undefined value, got {e}",
            device.describe()
        ),
    }
}

#[test]
fn an_undefined_value_cannot_decide_a_branch_or_give_an_address() {
    let branch = compile(|p: Ptr<Int>, q: Ptr<Int>| {
        let x = Int::var((p + 8).load());
        if_(any(x.gt(0)), || q.store(1));
    })
    .unwrap();
    let address = compile(|p: Ptr<Int>, q: Ptr<Int>| {
        let x = Int::var((p + 4).load());
        gather(p + (x & 3));
        let y = Int::var(0);
        receive(y);
        q.store(y)
    })
    .unwrap();
    for device in devices() {
        assert_eq!(
            undefined_use(&device, &branch),
            ("the condition deciding the branch", 0xff00),
            "{}",
            device.describe()
        );
        assert_eq!(
            undefined_use(&device, &address),
            ("the load or gather address", 0xf000),
            "{}",
            device.describe()
        );
    }
}

#[test]
fn errors_are_the_same_on_both_backends_for_a_where_on_undefined_lanes() {
    // A where_ deciding on undefined lanes leaves the lanes it may assign undefined; storing
    // them is the error.
    let kernel = compile(|p: Ptr<Int>, q: Ptr<Int>| {
        let x = Int::var((p + 12).load());
        let y = Int::var(5);
        where_(x.gt(0), || y.set(9));
        q.store(y)
    })
    .unwrap();
    for device in devices() {
        assert_eq!(
            undefined_use(&device, &kernel),
            ("the value stored", 0xfff0),
            "{}",
            device.describe()
        );
    }
}

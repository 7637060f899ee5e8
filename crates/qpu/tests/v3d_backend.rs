//! The V3D emulator backends (`emulator-vc6`, `emulator-vc7`): examples' kernels compiled by
//! the first-slice V3D compiler and run through `Device`, checked against scalar Rust; the
//! backend's errors.

#![allow(clippy::duplicate_mod)]

#[path = "../examples/gcd.rs"]
mod gcd;
#[path = "../examples/multi_tri.rs"]
mod multi_tri;
#[path = "support/scalar.rs"]
mod scalar;
#[path = "../examples/tri.rs"]
mod tri;

use qpu::lang::*;
use qpu::runtime::select::BackendKind;
use qpu::{compile, Device};
use qpu_isa::v3d::V3dVersion;

const VERSIONS: [V3dVersion; 2] = [V3dVersion::V42, V3dVersion::V71];

#[test]
fn gcd_gives_the_16_gcds_on_both_versions() {
    let (a, b) = gcd::inputs();
    let want: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| scalar::gcd(x, y)).collect();
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        for unrolled in [false, true] {
            assert_eq!(
                gcd::run(&device, unrolled, &a, &b).unwrap(),
                want,
                "{version:?} unrolled {unrolled}"
            );
        }
    }
}

#[test]
fn triangular_numbers_on_one_and_four_qpus() {
    let triangle = |n: i32| n * (n + 1) / 2;
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        let one: Vec<i32> = (0..16).map(triangle).collect();
        assert_eq!(tri::run(&device).unwrap(), one, "{version:?}");
        let four: Vec<i32> = (0..64).map(triangle).collect();
        assert_eq!(multi_tri::run(&device).unwrap(), four, "{version:?}");
    }
}

#[test]
fn every_qpu_the_version_has_takes_part() {
    // id stores each lane's QPU number; with n QPUs, each number appears 16 times per QPU's
    // share.
    for (version, n) in [(V3dVersion::V42, 8u32), (V3dVersion::V71, 12)] {
        let device = Device::v3d_emulator(version);
        let mut out = device.alloc::<i32>(16 * n as usize).unwrap();
        let mut kernel = compile(|p: Ptr<Int>| {
            let p = p + me() * 16 + index();
            p.store(me() * 100 + num_qpus());
        })
        .unwrap();
        kernel.set_num_qpus(n).unwrap();
        let report = kernel.run(&device, &mut out).unwrap();
        for q in 0..n as usize {
            for lane in 0..16 {
                assert_eq!(out[q * 16 + lane], q as i32 * 100 + n as i32, "{version:?}");
            }
        }
        assert_eq!(report.num_qpus, n);
        assert_eq!(report.qpus.len(), n as usize);
        assert!(report.qpus.iter().all(|q| q.steps > 0));
    }
}

#[test]
fn the_backend_names_and_their_qpu_limits() {
    for (value, kind) in [
        ("emulator-vc6", BackendKind::EmulatorVc6),
        ("Emulator-VC7", BackendKind::EmulatorVc7),
        ("emulator-vc4", BackendKind::Emulator),
    ] {
        assert_eq!(BackendKind::parse(value).unwrap(), kind, "{value}");
    }
    // V3D 4.2 has 8 QPUs: 12 is refused by name, before anything runs.
    let device = Device::v3d_emulator(V3dVersion::V42);
    let mut out = device.alloc::<i32>(16 * 12).unwrap();
    let mut kernel = compile(|p: Ptr<Int>| (p + me() * 16).store(index())).unwrap();
    kernel.set_num_qpus(12).unwrap();
    let error = kernel.run(&device, &mut out).unwrap_err().to_string();
    assert!(error.contains("this V3D has 8"), "{error}");
}

#[test]
fn unsupported_constructs_and_read_only_stores_are_errors() {
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        // Semaphores are outside the V3D compiler: refused at their line, not miscompiled.
        let mut data = device.alloc_from(&[1i32; 16]).unwrap();
        let kernel = compile(|p: Ptr<Int>| {
            p.store(p.load() + 1);
            sema_inc(1);
        })
        .unwrap();
        let error = kernel.run(&device, &mut data).unwrap_err().to_string();
        assert!(
            error.contains("semaphore operation is not supported")
                && error.contains("v3d_backend.rs:"),
            "{error}"
        );
        // A store into an array passed as &SharedArray.
        let data = device.alloc_from(&[1i32; 16]).unwrap();
        let kernel = compile(|p: Ptr<Int>| p.store(p.load() + 1)).unwrap();
        let error = kernel.run(&device, &data).unwrap_err().to_string();
        assert!(error.contains("&SharedArray"), "{error}");
        assert_eq!(data.to_vec(), vec![1; 16], "the host's array is unchanged");
    }
}

#[test]
fn a_read_just_past_an_array_is_harmless_and_a_store_there_is_reported() {
    for version in VERSIONS {
        let device = Device::v3d_emulator(version);
        // Reading the vector after the array (a prefetch) reads zeros; the array is intact.
        let mut data = device.alloc_from(&[7i32; 16]).unwrap();
        let kernel = compile(|p: Ptr<Int>| {
            let past = Int::var((p + 16).load());
            p.store(p.load() + past);
        })
        .unwrap();
        kernel.run(&device, &mut data).unwrap();
        assert_eq!(data.to_vec(), vec![7; 16], "{version:?}");
        // Storing there is an error, not a silent write.
        let kernel = compile(|p: Ptr<Int>| (p + 16).store(index() + 1)).unwrap();
        let error = kernel.run(&device, &mut data).unwrap_err().to_string();
        assert!(
            error.contains("past the end of an array"),
            "{version:?}: {error}"
        );
    }
}

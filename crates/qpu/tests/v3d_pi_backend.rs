//! The Pi 4/5 backend (`pi-v3d`) against `qpu_pi`'s stand-in of the `v3d` driver, whose jobs
//! run on the V3D emulator: examples' kernels through `Device`, checked against scalar Rust.

#![allow(clippy::duplicate_mod)]

#[path = "../examples/gcd.rs"]
mod gcd;
#[path = "../examples/multi_tri.rs"]
mod multi_tri;

use std::sync::Arc;

use qpu::lang::*;
use qpu::runtime::V3dPi;
use qpu::{compile, Device};
use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator};
use qpu_isa::v3d::V3dVersion as IsaVersion;
use qpu_pi::v3d::standin::{FakeV3d, FakeV3dConfig, JobOutcome};
use qpu_pi::v3d::V3d;

/// A device on a stand-in V3D whose jobs run on the V3D emulator: every buffer object is
/// copied into the machine at its GPU address and back after the job; a faulting job hangs,
/// as it would on the GPU.
fn device(config: FakeV3dConfig) -> (FakeV3d, Device) {
    let version = match config.version {
        qpu_pi::v3d::V3dVersion::V42 => IsaVersion::V42,
        qpu_pi::v3d::V3dVersion::V71 => IsaVersion::V71,
    };
    let qpus = (config.slices * config.qpus_per_slice) as usize;
    let fake = FakeV3d::new(config);
    fake.set_executor(Box::new(move |job, memory| {
        let mut config = V3dConfig::new(version);
        config.qpus = qpus;
        let mut emu = V3dEmulator::new(config).expect("a valid machine");
        let buffers = memory.buffers();
        for (address, words) in &buffers {
            let mem = emu.memory_mut();
            mem.alloc_at(*address, words.len() as u32 * 4)
                .expect("apart");
            mem.write_u32s(*address, words).expect("allocated");
        }
        if emu
            .dispatch(&CsdJob::per_qpu(job.cfg[5] & !7, job.cfg[6], job.batches))
            .is_err()
        {
            return JobOutcome::Hang;
        }
        for (address, words) in &buffers {
            let after = emu
                .memory()
                .read_u32s(*address, words.len() as u32)
                .expect("allocated");
            assert!(memory.write_buffer(*address, &after));
        }
        JobOutcome::Done
    }));
    let v3d = V3d::with_driver(Arc::new(fake.clone())).expect("opens");
    (fake, Device::new(V3dPi::with_v3d(v3d)))
}

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

#[test]
fn gcd_and_multi_tri_on_a_pi4_and_a_pi5() {
    let (a, b) = gcd::inputs();
    let gcds: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| scalar_gcd(x, y)).collect();
    let triangles: Vec<i32> = (0..64).map(|n| n * (n + 1) / 2).collect();
    for config in [FakeV3dConfig::pi4(), FakeV3dConfig::pi5()] {
        let (fake, device) = device(config);
        assert!(
            device.describe().contains("pi-v3d"),
            "{}",
            device.describe()
        );
        assert_eq!(gcd::run(&device, false, &a, &b).unwrap(), gcds);
        assert_eq!(multi_tri::run(&device).unwrap(), triangles);
        // Each run's buffers went back to the driver.
        assert_eq!(fake.live_buffers(), 0);
        // multi_tri ran 4 batches.
        assert_eq!(fake.jobs().last().unwrap().batches, 4);
    }
}

#[test]
fn errors_reach_the_user_and_release_the_buffers() {
    let (fake, device) = device(FakeV3dConfig::pi4());
    // A kernel the machine stops (a store far outside any buffer): the job never finishes.
    let mut data = device.alloc_from(&[0i32; 16]).unwrap();
    let kernel = compile(|p: Ptr<Int>| (p + 0x0100_0000).store(index())).unwrap();
    let error = kernel.run(&device, &mut data).unwrap_err().to_string();
    assert!(error.contains("did not finish"), "{error}");
    // A store into an array passed as &SharedArray.
    let data = device.alloc_from(&[1i32; 16]).unwrap();
    let kernel = compile(|p: Ptr<Int>| p.store(p.load() + 1)).unwrap();
    let error = kernel.run(&device, &data).unwrap_err().to_string();
    assert!(error.contains("&SharedArray"), "{error}");
    assert_eq!(data.to_vec(), vec![1; 16]);
    // More QPUs than the GPU has.
    let mut out = device.alloc::<i32>(16 * 12).unwrap();
    let mut kernel = compile(|p: Ptr<Int>| (p + me() * 16).store(index())).unwrap();
    kernel.set_num_qpus(12).unwrap();
    let error = kernel.run(&device, &mut out).unwrap_err().to_string();
    assert!(error.contains("this GPU has 8"), "{error}");
    assert_eq!(fake.live_buffers(), 0);
}

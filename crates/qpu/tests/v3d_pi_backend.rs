//! The Pi 4/5 path against `qpu_pi`'s stand-in of the `v3d` driver, whose jobs run on the V3D
//! emulator: a hand-written program through `qpu_pi::v3d` alone (buffer objects, the CSD
//! words for the version the identification words report, the wait), then examples' kernels
//! through the `pi-v3d` backend, all checked against scalar Rust.

#![allow(clippy::duplicate_mod)]

#[path = "../examples/gcd.rs"]
mod gcd;
#[path = "../examples/multi_tri.rs"]
mod multi_tri;
#[path = "support/scalar.rs"]
mod scalar;
#[path = "support/spill.rs"]
mod spill;

use std::sync::Arc;

use qpu::error::{Error, RunErrorKind};
use qpu::lang::*;
use qpu::runtime::V3dPi;
use qpu::{compile, Device};
use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator};
use qpu_isa::v3d::V3dVersion as IsaVersion;
use qpu_pi::v3d::standin::{FakeV3d, FakeV3dConfig, JobOutcome};
use qpu_pi::v3d::{Dispatch, V3d};
use qpu_pi::LaunchBuffer;

/// A stand-in V3D whose jobs run on the V3D emulator (see [`device`]), opened.
fn v3d(config: FakeV3dConfig) -> (FakeV3d, V3d, IsaVersion) {
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
    (fake, v3d, version)
}

/// A device on a stand-in V3D whose jobs run on the V3D emulator: every buffer object is
/// copied into the machine at its GPU address and back after the job; a faulting job hangs,
/// as it would on the GPU.
fn device(config: FakeV3dConfig) -> (FakeV3d, Device) {
    let (fake, v3d, _) = v3d(config);
    (fake, Device::new(V3dPi::with_v3d(v3d)))
}

/// Batch w stores `k + w + lane` at `out + 64·w + 4·lane`. Uniforms: out, k. The workgroup id
/// arrives in rf0 (4.2) or rf3 (7.1); `ldunif` writes r5 (4.2) or rf0 (7.1); temporaries are
/// accumulators on 4.2 and register-file registers on 7.1, which has none.
fn ids_kernel(version: IsaVersion) -> String {
    let (t0, t1, u, wg) = match version {
        IsaVersion::V42 => ("r0", "r1", "r5", "rf0"),
        IsaVersion::V71 => ("rf4", "rf5", "rf0", "rf3"),
    };
    format!(
        "
        eidx {t0} ; nop ; ldunif
        shl {t1}, {wg}, 6 ; nop
        add rf10, {u}, {t1} ; nop ; ldunif
        add rf11, {u}, {wg} ; nop
        shl {t1}, {t0}, 2 ; nop
        add rf10, rf10, {t1} ; nop
        add rf11, rf11, {t0} ; nop
        or tmud, rf11, rf11 ; nop
        or tmua, rf10, rf10 ; nop
        tmuwt ; nop
        nop ; nop ; thrsw
        nop ; nop ; thrsw
        nop ; nop
        nop ; nop
        nop ; nop ; thrsw
        nop ; nop
        nop ; nop
        "
    )
}

#[test]
fn a_hand_written_program_runs_through_the_driver_layer() {
    for config in [FakeV3dConfig::pi4(), FakeV3dConfig::pi5()] {
        let (fake, v3d, version) = v3d(config);
        let qpus = v3d.info().qpus;
        let program = qpu_isa::v3d::assemble(version, &ids_kernel(version)).expect("assembles");
        let halves: Vec<u32> = program
            .iter()
            .map(|i| qpu_isa::v3d::encode(version, i).expect("encodes"))
            .flat_map(|w| [w as u32, (w >> 32) as u32])
            .collect();
        let mut code = v3d.alloc(halves.len() * 4).unwrap();
        code.write_words(0, &halves).unwrap();
        let mut out = v3d.alloc(qpus as usize * 64).unwrap();
        let k = 1000u32;
        let mut uniforms = v3d.alloc(8).unwrap();
        uniforms.write_words(0, &[out.gpu_address(), k]).unwrap();
        let dispatch = Dispatch {
            code: code.gpu_address(),
            uniforms: uniforms.gpu_address(),
            batches: qpus,
        };
        v3d.launch(
            &dispatch,
            &mut [
                LaunchBuffer::Read(code.as_words().unwrap()),
                LaunchBuffer::Write(out.as_words_mut().unwrap()),
                LaunchBuffer::Read(uniforms.as_words().unwrap()),
            ],
            std::time::Duration::from_secs(5),
        )
        .unwrap_or_else(|e| panic!("{version:?}: {e}"));
        let got = out.as_words().unwrap()[..qpus as usize * 16].to_vec();
        let want: Vec<u32> = (0..qpus)
            .flat_map(|w| (0..16).map(move |lane| k + w + lane))
            .collect();
        assert_eq!(got, want, "{version:?}");
        // The stand-in ran what the words asked for, whatever word 4's rule for the version.
        assert_eq!(fake.jobs()[0].batches, qpus);
    }
}

#[test]
fn gcd_and_multi_tri_on_a_pi4_and_a_pi5() {
    let (a, b) = gcd::inputs();
    let gcds: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| scalar::gcd(x, y)).collect();
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
        // Each run's buffers went back to the driver, but for the two kernels' code, which
        // the device keeps until it drops.
        assert_eq!(fake.live_buffers(), 2);
        // multi_tri ran 4 batches.
        assert_eq!(fake.jobs().last().unwrap().batches, 4);
        drop(device);
        assert_eq!(fake.live_buffers(), 0);
    }
}

#[test]
fn a_kernel_that_spills_gets_its_spill_area_on_a_pi4_and_a_pi5() {
    for (config, qpus) in [(FakeV3dConfig::pi4(), 8), (FakeV3dConfig::pi5(), 12)] {
        let (fake, v3d, version) = v3d(config);
        assert!(
            spill::spill_bytes_per_qpu(version) > 0,
            "{version:?} spills"
        );
        let device = Device::new(V3dPi::with_v3d(v3d));
        for n in [1, qpus] {
            let want: Vec<i32> = spill::input(n).into_iter().map(spill::scalar).collect();
            assert_eq!(spill::run(&device, n).unwrap(), want, "{n} QPUs");
            // The job listed the spill area's buffer beside code, uniforms and the array.
            assert_eq!(fake.jobs().last().unwrap().handles.len(), 4);
        }
        // Only the code of the two kernels `spill::run` compiled stays.
        assert_eq!(fake.live_buffers(), 2);
        drop(device);
        assert_eq!(fake.live_buffers(), 0);
    }
}

/// A mutex on semaphore 0 around a read-modify-write of one shared vector, opened by QPU 0.
fn mutex(p: Ptr<Int>) {
    if_(all(me().eq(0)), || sema_inc(0));
    for_range(0, 5, 1, |_| {
        sema_dec(0);
        p.store(p.load() + 1 + index());
        sema_inc(0);
    });
}

#[test]
fn a_semaphore_kernel_gets_its_shared_semaphore_area_on_a_pi4_and_a_pi5() {
    for (config, qpus) in [(FakeV3dConfig::pi4(), 8u32), (FakeV3dConfig::pi5(), 12)] {
        let (fake, v3d, _) = v3d(config);
        let device = Device::new(V3dPi::with_v3d(v3d));
        let mut kernel = compile(mutex).unwrap();
        for n in [1, qpus] {
            kernel.set_num_qpus(n).unwrap();
            let mut data = device.alloc_from(&[0i32; 16]).unwrap();
            kernel.run(&device, &mut data).unwrap();
            let want: Vec<i32> = (0..16).map(|i| 5 * n as i32 * (1 + i)).collect();
            assert_eq!(data.to_vec(), want, "{n} QPUs: no update lost");
            // The job listed the semaphore area's buffer beside code, uniforms and the array.
            assert_eq!(fake.jobs().last().unwrap().handles.len(), 4);
        }
        // Only the kernel's code stays.
        assert_eq!(fake.live_buffers(), 1);
        drop(device);
        assert_eq!(fake.live_buffers(), 0);
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
    drop(data);
    // A store into an array passed as &SharedArray: an error, and nothing is copied back or
    // could be protected: the array is the buffer object the kernel wrote, and shows its
    // stores (as on the VideoCore IV Pi).
    let data = device.alloc_from(&[1i32; 16]).unwrap();
    let kernel = compile(|p: Ptr<Int>| p.store(p.load() + 1)).unwrap();
    let error = kernel.run(&device, &data).unwrap_err().to_string();
    assert!(error.contains("&SharedArray"), "{error}");
    assert_eq!(data.to_vec(), vec![2; 16]);
    drop(data);
    // More QPUs than the GPU has.
    let mut out = device.alloc::<i32>(16 * 12).unwrap();
    let mut kernel = compile(|p: Ptr<Int>| (p + me() * 16).store(index())).unwrap();
    kernel.set_num_qpus(12).unwrap();
    let error = kernel.run(&device, &mut out).unwrap_err().to_string();
    assert!(error.contains("this GPU has 8"), "{error}");
    drop(out);
    // Only the code of the kernel that ran stays: the hung job's was released when the next
    // run found it invalid, and the third kernel was refused before its code was loaded.
    assert_eq!(fake.live_buffers(), 1);
    drop(device);
    assert_eq!(fake.live_buffers(), 0);
}

/// Each QPU stores `3·x + me` for its 16 inputs into its 16 outputs.
fn triple(input: Ptr<Int>, out: Ptr<Int>) {
    (out + me() * 16).store((input + me() * 16).load() * 3 + me());
}

#[test]
fn arrays_are_buffer_objects_the_job_works_on_in_place() {
    for (config, n) in [(FakeV3dConfig::pi4(), 8u32), (FakeV3dConfig::pi5(), 12)] {
        let (fake, device) = device(config);
        let values: Vec<i32> = (0..16 * n as i32).map(|i| i * 7 - 300).collect();
        let input = device.alloc_from(&values).unwrap();
        let mut out = device.alloc::<i32>(16 * n as usize).unwrap();
        // The arrays' buffer objects, and nothing else, are alive before the first run.
        assert_eq!(fake.live_buffers(), 2);
        let mut kernel = compile(triple).unwrap();
        kernel.set_num_qpus(n).unwrap();
        kernel.run(&device, (&input, &mut out)).unwrap();
        let want: Vec<i32> = values
            .iter()
            .enumerate()
            .map(|(i, &x)| 3 * x + (i / 16) as i32)
            .collect();
        assert_eq!(out.to_vec(), want);
        // The pointers the kernel received are the buffer objects' GPU addresses: the job
        // was given the arrays' own buffers (plus code and uniforms), not copies.
        let job = fake.jobs().last().unwrap().clone();
        assert_eq!(job.handles.len(), 4, "{job:?}");
        for array in [input.bus_address(), out.bus_address()] {
            assert!(
                job.gpu_addresses.contains(&array),
                "{array:#x} not among the job's buffers {:x?}",
                job.gpu_addresses
            );
        }
        // The per-run buffers went back, the kernel's code stays; each array's buffer goes
        // back when it drops.
        assert_eq!(fake.live_buffers(), 3);
        drop(input);
        assert_eq!(fake.live_buffers(), 2);
        // Host writes land in the buffer the next job reads.
        let mut again = device.alloc_from(&values).unwrap();
        again[0] = 1000;
        kernel.set_num_qpus(1).unwrap();
        kernel.run(&device, (&again, &mut out)).unwrap();
        assert_eq!(out[0], 3000);
        assert_eq!(out[1], 3 * values[1]);
        assert_eq!(out[16], want[16], "QPU 1's outputs were left alone");
        drop((again, out));
        assert_eq!(fake.live_buffers(), 1);
        drop(device);
        assert_eq!(fake.live_buffers(), 0);
    }
}

#[test]
fn a_store_into_a_read_only_array_names_its_first_changed_address() {
    let (_, device) = device(FakeV3dConfig::pi5());
    let data = device.alloc_from(&[4i32; 48]).unwrap();
    // The second vector only: the first changed word is element 16.
    let kernel = compile(|p: Ptr<Int>| (p + 16).store(index() + 100)).unwrap();
    match kernel.run(&device, &data).unwrap_err() {
        Error::Run(run) => assert_eq!(
            run.kind,
            RunErrorKind::ReadOnly {
                address: data.bus_address() + 64
            }
        ),
        other => panic!("expected a read-only violation, got {other}"),
    }
    let mut want = vec![4; 48];
    for (i, w) in want[16..32].iter_mut().enumerate() {
        *w = i as i32 + 100;
    }
    assert_eq!(data.to_vec(), want);
}

#[test]
fn a_read_past_an_array_reads_zeros_and_a_store_there_is_reported() {
    for config in [FakeV3dConfig::pi4(), FakeV3dConfig::pi5()] {
        let (_, device) = device(config);
        // A whole page of elements: the vector after them is only in the margin.
        let mut data = device.alloc_from(&[7i32; 1024]).unwrap();
        let kernel = compile(|p: Ptr<Int>| {
            let past = Int::var((p + 1024).load());
            (p + 1008).store((p + 1008).load() + past);
        })
        .unwrap();
        kernel.run(&device, &mut data).unwrap();
        assert_eq!(data.to_vec(), vec![7; 1024]);
        // Storing there is an error naming the address, not a silent write.
        let kernel = compile(|p: Ptr<Int>| (p + 1024).store(index() + 1)).unwrap();
        let error = kernel.run(&device, &mut data).unwrap_err().to_string();
        let end = format!("{:#010x}", data.bus_address() + 4096);
        assert!(
            error.contains("a store past the end of an array") && error.contains(&end),
            "{error}"
        );
        assert_eq!(data.to_vec(), vec![7; 1024]);
    }
}

#[test]
fn after_a_hung_job_the_arrays_are_detached_and_new_ones_run() {
    let (fake, device) = device(FakeV3dConfig::pi4());
    let mut lent = device.alloc_from(&[1i32; 16]).unwrap();
    let other = device.alloc_from(&[5i32; 16]).unwrap();
    let hang = compile(|p: Ptr<Int>| (p + 0x0100_0000).store(index())).unwrap();
    let error = hang.run(&device, &mut lent).unwrap_err().to_string();
    assert!(error.contains("did not finish"), "{error}");
    // Both arrays are detached: host copies of what their buffers held, usable on the host.
    assert_eq!(lent.to_vec(), vec![1; 16]);
    assert_eq!(other.to_vec(), vec![5; 16]);
    lent[3] = 9;
    assert_eq!(lent[3], 9);
    // Passing them to a kernel is an error saying why and what to do.
    let kernel = compile(|p: Ptr<Int>, q: Ptr<Int>| q.store(p.load() + 1)).unwrap();
    let error = kernel.run(&device, (&other, &mut lent)).unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("array argument 0")
            && text.contains(&format!("{:#010x}", other.bus_address()))
            && text.contains("no longer in GPU memory")
            && text.contains("Allocate new arrays"),
        "{text}"
    );
    assert!(matches!(error, Error::Backend { .. }), "{error:?}");
    // New arrays run.
    let input = device.alloc_from(&[41i32; 16]).unwrap();
    let mut out = device.alloc::<i32>(16).unwrap();
    kernel.run(&device, (&input, &mut out)).unwrap();
    assert_eq!(out.to_vec(), vec![42; 16]);
    drop((lent, other, input, out));
    // The code of the kernel that ran last stays; the hung kernel's was released.
    assert_eq!(fake.live_buffers(), 1);
    drop(device);
    assert_eq!(fake.live_buffers(), 0);
}

#[test]
fn an_array_passed_twice_is_one_buffer_object_of_the_job() {
    let (fake, device) = device(FakeV3dConfig::pi5());
    let kernel =
        compile(|a: Ptr<Int>, b: Ptr<Int>, out: Ptr<Int>| out.store(a.load() + (b + 16).load()))
            .unwrap();
    let x = device.alloc_from(&(0..32).collect::<Vec<i32>>()).unwrap();
    let mut out = device.alloc::<i32>(16).unwrap();
    kernel.run(&device, (&x, &x, &mut out)).unwrap();
    let want: Vec<i32> = (0..16).map(|i| i + (i + 16)).collect();
    assert_eq!(out.to_vec(), want);
    // x, out, code and uniforms: each buffer object listed once.
    let job = fake.jobs().last().unwrap().clone();
    assert_eq!(job.handles.len(), 4, "{job:?}");
    let x_listed = job.gpu_addresses.iter().filter(|&&a| a == x.bus_address());
    assert_eq!(x_listed.count(), 1);
}

//! The Pi 4/5 path against `qpu_pi`'s stand-in of the `v3d` driver, whose jobs run on the V3D
//! emulator: a hand-written program through `qpu_pi::v3d` alone (buffer objects, the CSD
//! words for the version the identification words report, the wait), then examples' kernels
//! through the `pi-v3d` backend, all checked against scalar Rust.

// QPULib's examples from `qpu_kernels::qpulib` (which depends on this crate), file by file;
// other test modules include some of the same files.
#![allow(clippy::duplicate_mod)]

#[path = "../../qpu-kernels/src/qpulib/gcd.rs"]
#[allow(dead_code)]
mod gcd;
#[path = "../../qpu-kernels/src/qpulib/glibc_rand.rs"]
#[allow(dead_code)]
mod glibc_rand;
#[path = "../../qpu-kernels/src/qpulib/multi_tri.rs"]
#[allow(dead_code)]
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
use qpu_emu::v3d::calibration::END;
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
        // Only the job's buffer objects, as the GPU sees only those (other threads may be
        // writing their own arrays meanwhile).
        let buffers: Vec<(u32, Vec<u32>)> = memory
            .buffers()
            .into_iter()
            .filter(|(address, _)| job.gpu_addresses.contains(address))
            .collect();
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
        // Back only the words the job changed, as the GPU writes only those.
        for (address, words) in &buffers {
            let after = emu
                .memory()
                .read_u32s(*address, words.len() as u32)
                .expect("allocated");
            for (i, (&new, &old)) in after.iter().zip(words).enumerate() {
                if new != old {
                    assert!(memory.write(address + 4 * i as u32, new));
                }
            }
        }
        JobOutcome::Done
    }));
    let v3d = V3d::with_driver(Arc::new(fake.clone())).expect("opens");
    (fake, v3d, version)
}

/// A device on a stand-in V3D whose jobs run on the V3D emulator: the job's buffer objects
/// are copied into the machine at their GPU addresses and the words the job changed back
/// after it; a faulting job hangs, as it would on the GPU.
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
        {END}"
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

/// The buffer object holding a job's code: (handle, GPU address). CSD configuration word 5 is
/// the code address with flags in bits 2:0 (Mesa `v3d_launch_grid_csd`, `v3dx_draw.c`; the
/// kernel's v3d uapi `drm_v3d_submit_csd.cfg`), and the backend puts the code at the start of
/// its buffer object.
fn code_of(job: &qpu_pi::v3d::standin::CsdJob) -> (u32, u32) {
    let address = job.cfg[5] & !7;
    let index = job
        .gpu_addresses
        .iter()
        .position(|&a| a == address)
        .unwrap_or_else(|| panic!("no buffer of the job starts at the code address {address:#x}"));
    (job.handles[index], address)
}

/// Adds `k` to each of the 16 elements of `p`.
fn add(p: Ptr<Int>, k: Int) {
    p.store(p.load() + k);
}

#[test]
fn a_kernel_run_twice_loads_its_code_once() {
    for (config, n) in [(FakeV3dConfig::pi4(), 8u32), (FakeV3dConfig::pi5(), 12)] {
        let (fake, device) = device(config);
        let mut values: Vec<i32> = (0..16 * n as i32).map(|i| i * 5 - 70).collect();
        let mut input = device.alloc_from(&values).unwrap();
        let mut out = device.alloc::<i32>(16 * n as usize).unwrap();
        let mut kernel = compile(triple).unwrap();
        kernel.set_num_qpus(n).unwrap();
        let scalar = |values: &[i32]| -> Vec<i32> {
            values
                .iter()
                .enumerate()
                .map(|(i, &x)| 3 * x + (i / 16) as i32)
                .collect()
        };
        kernel.run(&device, (&input, &mut out)).unwrap();
        assert_eq!(out.to_vec(), scalar(&values));
        // The two arrays and the kernel's code.
        assert_eq!(fake.live_buffers(), 3);
        let first = code_of(&fake.jobs()[0]);
        values[5] = 1234;
        input[5] = 1234;
        kernel.run(&device, (&input, &mut out)).unwrap();
        assert_eq!(out.to_vec(), scalar(&values));
        // The second job read the same buffer object, and no other was created for it.
        let jobs = fake.jobs();
        assert_eq!(jobs.len(), 2);
        assert_eq!(code_of(&jobs[1]), first);
        assert_eq!(fake.live_buffers(), 3);
        // A kernel compiled again is another kernel, with code of its own.
        let mut again = compile(triple).unwrap();
        again.set_num_qpus(n).unwrap();
        again.run(&device, (&input, &mut out)).unwrap();
        assert_eq!(out.to_vec(), scalar(&values));
        assert_ne!(code_of(fake.jobs().last().unwrap()), first);
        assert_eq!(fake.live_buffers(), 4);
        drop((input, out));
        assert_eq!(fake.live_buffers(), 2);
        drop(device);
        assert_eq!(fake.live_buffers(), 0);
    }
}

#[test]
fn the_code_of_the_16_most_recently_run_kernels_stays() {
    let (fake, device) = device(FakeV3dConfig::pi5());
    let mut want: Vec<i32> = (0..16).map(|i| i * 3 - 20).collect();
    let mut data = device.alloc_from(&want).unwrap();
    let kernels: Vec<_> = (0..17).map(|_| compile(add).unwrap()).collect();
    // Runs kernel `i` (adding `i + 1`), checks the array and returns the job's code.
    let mut run = |i: usize| {
        kernels[i].run(&device, (&mut data, i as i32 + 1)).unwrap();
        for w in &mut want {
            *w += i as i32 + 1;
        }
        assert_eq!(data.to_vec(), want, "kernel {i}");
        code_of(fake.jobs().last().unwrap())
    };
    let codes: Vec<(u32, u32)> = (0..16).map(&mut run).collect();
    for (i, code) in codes.iter().enumerate() {
        assert!(!codes[..i].contains(code), "kernel {i} has code of its own");
    }
    // The array and 16 kernels' code.
    assert_eq!(fake.live_buffers(), 17);
    // Kernel 0 runs again from its buffer, and is now the most recently used.
    assert_eq!(run(0), codes[0]);
    assert_eq!(fake.live_buffers(), 17);
    // A 17th kernel evicts the least recently used one, kernel 1 (not kernel 0, loaded first).
    let newest = run(16);
    assert!(!codes.contains(&newest));
    assert_eq!(fake.live_buffers(), 17);
    assert_eq!(run(0), codes[0]);
    for (i, code) in codes.iter().enumerate().skip(3) {
        assert_eq!(run(i), *code, "kernel {i} kept");
    }
    assert_eq!(run(16), newest);
    // Kernel 1's code is loaded anew (evicting kernel 2's, now the least recently used).
    let reloaded = run(1);
    assert!(
        !codes.contains(&reloaded) && reloaded != newest,
        "{reloaded:?}"
    );
    assert_eq!(fake.live_buffers(), 17);
    assert_eq!(run(1), reloaded);
    assert_ne!(run(2), codes[2]);
    drop(data);
    assert_eq!(fake.live_buffers(), 16);
}

/// Stores `2·p[i] + i` at `p + offset`: far outside any buffer (a faulting, hence hung, job)
/// for a large offset.
fn store_at(p: Ptr<Int>, offset: Int) {
    (p + offset).store(p.load() * 2 + index());
}

#[test]
fn after_a_hung_job_its_kernel_runs_again_from_new_code() {
    for config in [FakeV3dConfig::pi4(), FakeV3dConfig::pi5()] {
        let (fake, device) = device(config);
        let values: Vec<i32> = (0..16).map(|i| 100 - 9 * i).collect();
        let scalar = |values: &[i32]| -> Vec<i32> {
            values
                .iter()
                .enumerate()
                .map(|(i, &x)| 2 * x + i as i32)
                .collect()
        };
        let kernel = compile(store_at).unwrap();
        let other = compile(add).unwrap();
        let mut data = device.alloc_from(&values).unwrap();
        other.run(&device, (&mut data, 1)).unwrap();
        let other_code = code_of(fake.jobs().last().unwrap());
        kernel.run(&device, (&mut data, 0)).unwrap();
        let values: Vec<i32> = values.iter().map(|x| x + 1).collect();
        assert_eq!(data.to_vec(), scalar(&values));
        let code = code_of(fake.jobs().last().unwrap());
        // The data and two kernels' code.
        assert_eq!(fake.live_buffers(), 3);
        let error = kernel
            .run(&device, (&mut data, 0x0100_0000))
            .unwrap_err()
            .to_string();
        assert!(error.contains("did not finish"), "{error}");
        // The hung job ran the kept code.
        assert_eq!(code_of(fake.jobs().last().unwrap()), code);
        drop(data);
        // The same kernel runs again, from a new buffer object (the old one may be written by
        // the job that never finished), with the right results.
        let mut data = device.alloc_from(&values).unwrap();
        kernel.run(&device, (&mut data, 0)).unwrap();
        assert_eq!(data.to_vec(), scalar(&values));
        let fresh = code_of(fake.jobs().last().unwrap());
        assert_ne!(fresh, code);
        // Both invalid code buffers were released: the data and the fresh code are left.
        assert_eq!(fake.live_buffers(), 2);
        // The other kernel, whose code the failure invalidated too, gets new code as well.
        other.run(&device, (&mut data, 5)).unwrap();
        let values: Vec<i32> = scalar(&values).iter().map(|x| x + 5).collect();
        assert_eq!(data.to_vec(), values);
        let other_fresh = code_of(fake.jobs().last().unwrap());
        assert!(other_fresh != other_code && other_fresh != fresh);
        assert_eq!(fake.live_buffers(), 3);
        // And the fresh code is kept.
        kernel.run(&device, (&mut data, 0)).unwrap();
        assert_eq!(data.to_vec(), scalar(&values));
        assert_eq!(code_of(fake.jobs().last().unwrap()), fresh);
        assert_eq!(fake.live_buffers(), 3);
    }
}

/// Bytes the stand-in's buffer objects take here: an array of 16 elements with its 4 KiB
/// margin is two pages; a small kernel's code, and its uniforms, one page each.
const PAGE: u64 = 4096;

#[test]
fn when_memory_runs_out_other_kernels_code_is_released_and_the_creation_retried() {
    let small = |memory_bytes: u64| {
        device(FakeV3dConfig {
            memory_bytes,
            ..FakeV3dConfig::pi4()
        })
    };
    let first = compile(add).unwrap();
    let second = compile(add).unwrap();
    let copy = compile(|p: Ptr<Int>, q: Ptr<Int>| q.store(p.load() + 1)).unwrap();

    // The code's own buffer object: an array and two kernels' code, then a second array,
    // fill the memory; a third kernel's code and uniforms fit once the kept code is released.
    let (fake, device) = small(6 * PAGE);
    let mut a = device.alloc_from(&[7i32; 16]).unwrap();
    first.run(&device, (&mut a, 2)).unwrap();
    second.run(&device, (&mut a, 1)).unwrap();
    assert_eq!(fake.live_buffers(), 3);
    // Its creation does not need the kept code released.
    let mut b = device.alloc::<i32>(16).unwrap();
    assert_eq!(fake.live_buffers(), 4);
    copy.run(&device, (&a, &mut b)).unwrap();
    assert_eq!(b.to_vec(), vec![11; 16]);
    // a, b and the copy kernel's code.
    assert_eq!(fake.live_buffers(), 3);
    drop((a, b, device));
    assert_eq!(fake.live_buffers(), 0);

    // A run's other buffer objects (here the uniforms): the running kernel's code stays.
    let (fake, device) = small(4 * PAGE);
    let mut a = device.alloc_from(&[7i32; 16]).unwrap();
    first.run(&device, (&mut a, 2)).unwrap();
    second.run(&device, (&mut a, 3)).unwrap();
    assert_eq!(a.to_vec(), vec![12; 16]);
    let kept = code_of(fake.jobs().last().unwrap());
    assert_eq!(fake.live_buffers(), 2);
    second.run(&device, (&mut a, 3)).unwrap();
    assert_eq!(code_of(fake.jobs().last().unwrap()), kept);
    assert_eq!(a.to_vec(), vec![15; 16]);
    drop((a, device));

    // An array.
    let (fake, device) = small(4 * PAGE);
    let mut a = device.alloc_from(&[7i32; 16]).unwrap();
    first.run(&device, (&mut a, 2)).unwrap();
    assert_eq!(fake.live_buffers(), 2);
    let b = device.alloc_from(&[1i32; 16]).unwrap();
    assert_eq!(fake.live_buffers(), 2);
    assert_eq!((a.to_vec(), b.to_vec()), (vec![9; 16], vec![1; 16]));
    // Memory that no released code makes room for is still an error.
    let error = device.alloc::<i32>(16).unwrap_err().to_string();
    assert!(error.contains("exhausted"), "{error}");
}

#[test]
fn threads_running_kernels_on_one_device_share_the_kept_code() {
    let (fake, device) = device(FakeV3dConfig::pi5());
    let kernels = [compile(add).unwrap(), compile(store_at).unwrap()];
    std::thread::scope(|scope| {
        for t in 0..4 {
            let (device, kernels) = (&device, &kernels);
            scope.spawn(move || {
                let mut want: Vec<i32> = (0..16).map(|i| i - 8 * t).collect();
                let mut data = device.alloc_from(&want).unwrap();
                for round in 0..5 {
                    kernels[0].run(device, (&mut data, round)).unwrap();
                    kernels[1].run(device, (&mut data, 0)).unwrap();
                    for (i, w) in want.iter_mut().enumerate() {
                        *w = 2 * (*w + round) + i as i32;
                    }
                    assert_eq!(data.to_vec(), want, "thread {t}, round {round}");
                }
            });
        }
    });
    // 40 jobs, two code buffers between them.
    let jobs = fake.jobs();
    assert_eq!(jobs.len(), 40);
    let mut codes: Vec<(u32, u32)> = jobs.iter().map(code_of).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), 2, "{codes:x?}");
    assert_eq!(fake.live_buffers(), 2);
}

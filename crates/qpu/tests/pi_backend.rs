//! The Pi backend end to end, without a Pi: `qpu_pi`'s stand-in plays the firmware, GPU
//! memory and V3D registers, and its executor runs each launch's programs on the strict
//! emulator over the stand-in's GPU memory at the same bus addresses. Results are checked
//! against scalar Rust. Shared arrays are the stand-in's GPU memory itself: host writes through
//! an array are what the GPU reads at its bus address, and kernel results are what the array
//! shows, with no copies. A run's own GPU memory (uniforms, spill area) is released after every
//! run, failed or not; arrays when they drop; cached code when the device drops.
//!
//! Also: backend selection on this machine (which has no Pi).

// QPULib's examples from `qpu_kernels::qpulib` (which depends on this crate), file by file;
// other test modules include some of the same files.
#![allow(clippy::duplicate_mod)]

#[path = "../../qpu-kernels/src/qpulib/gcd.rs"]
#[allow(dead_code)]
mod gcd;
#[path = "../../qpu-kernels/src/qpulib/glibc_rand.rs"]
#[allow(dead_code)]
mod glibc_rand;
#[path = "../../qpu-kernels/src/qpulib/id.rs"]
#[allow(dead_code)]
mod id;
#[path = "../../qpu-kernels/src/qpulib/multi_tri.rs"]
#[allow(dead_code)]
mod multi_tri;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use qpu::lang::*;
use qpu::runtime::select::{choose, BackendKind};
use qpu::runtime::Pi;
use qpu::{compile, Device, Error};
use qpu_emu::memory::Memory;
use qpu_emu::vc4::{Emulator, EmulatorConfig};
use qpu_pi::standin::{BusMemory, Executor, FakeConfig, FakeVideoCore, JobOutcome};
use qpu_pi::{Job, LaunchMode, LaunchOptions};

/// Bus address of the stand-in's first GPU memory word: the uncached alias (the backend
/// allocates with `MEM_FLAG_DIRECT`) of the start of the VideoCore memory split.
fn gpu_memory_base(config: &FakeConfig) -> u32 {
    0xC000_0000 | config.vc_base
}

/// Emulated memory holding one zeroed allocation of `bytes` at bus address `base`.
///
/// `qpu_emu` places each allocation at the next multiple of its alignment after the previous
/// one (and a guard page). Four-byte fillers aligned to each set bit of `base`, highest
/// first, step through base's binary prefixes; the last allocation then lands on `base`.
fn memory_at(base: u32, bytes: u32) -> Memory {
    let lowest = base & base.wrapping_neg();
    assert!(
        lowest >= 1 << 13,
        "base {base:#x} leaves no room for guard pages"
    );
    let mut memory = Memory::new();
    let mut prefix = 0;
    for bit in (0..32).rev().map(|shift| 1u32 << shift) {
        if base & bit != 0 && bit != lowest {
            prefix |= bit;
            assert_eq!(memory.alloc(4, bit).unwrap(), prefix);
        }
    }
    assert_eq!(memory.alloc(bytes, lowest).unwrap(), base);
    memory
}

/// Runs `jobs` (one launch) on the emulator over the whole of the stand-in's GPU memory.
fn run_on_emulator(gpu_memory: &mut BusMemory<'_>, jobs: &[Job], base: u32, words: u32) {
    let mut emulator = Emulator::new(EmulatorConfig::with_qpus(jobs.len())).unwrap();
    *emulator.memory_mut() = memory_at(base, words * 4);
    let before: Vec<u32> = (0..words)
        .map(|i| gpu_memory.read(base + 4 * i).expect("inside GPU memory"))
        .collect();
    emulator.memory_mut().write_u32s(base, &before).unwrap();
    let programs: Vec<(u32, u32)> = jobs.iter().map(|job| (job.uniforms, job.code)).collect();
    if let Err(error) = emulator.run(&programs) {
        panic!("the emulator rejected a launched program: {error}");
    }
    let after = emulator.memory().read_u32s(base, words).unwrap();
    for (i, (old, new)) in before.iter().zip(&after).enumerate() {
        if old != new {
            assert!(gpu_memory.write(base + 4 * i as u32, *new));
        }
    }
}

/// An executor that runs qpu's launches on the emulator. The stand-in hands over one job at
/// a time; under qpu's launch contract every program's second uniform is the QPU count, so
/// jobs are held until the whole launch has arrived (its programs synchronise with each other
/// and must run together).
fn emulating_executor(config: &FakeConfig) -> Executor {
    let base = gpu_memory_base(config);
    let words = config.gpu_mem_bytes / 4;
    let mut pending: Vec<Job> = Vec::new();
    Box::new(move |gpu_memory: &mut BusMemory<'_>, job: Job| {
        pending.push(job);
        let first = pending[0];
        let count = gpu_memory
            .read(first.uniforms + 4)
            .expect("uniforms in GPU memory");
        if pending.len() == count as usize {
            let jobs = std::mem::take(&mut pending);
            run_on_emulator(gpu_memory, &jobs, base, words);
        }
        JobOutcome::Complete
    })
}

/// A stand-in Pi whose GPU runs programs on the emulator, and a device on it.
struct StandIn {
    core: FakeVideoCore,
    device: Device,
    /// Allocations the GPU itself keeps while open (its scratch page).
    baseline: usize,
}

impl StandIn {
    fn new(config: FakeConfig, options: LaunchOptions) -> StandIn {
        let core = FakeVideoCore::new(config.clone());
        core.set_executor(emulating_executor(&config));
        let gpu = core.open_gpu().unwrap();
        let baseline = core.live_allocations();
        let device = Device::new(Pi::with_gpu(gpu).with_launch_options(options));
        StandIn {
            core,
            device,
            baseline,
        }
    }

    fn with_mode(mode: LaunchMode) -> StandIn {
        let options = LaunchOptions {
            mode,
            ..LaunchOptions::with_timeout(Duration::from_secs(5))
        };
        StandIn::new(small_config(), options)
    }

    /// Every run's GPU memory released, and no contract violation seen: what stays allocated
    /// is the device's scratch page, the `live_arrays` arrays still alive and the code of the
    /// `kernels` kernels run so far (all of them cached while they are few).
    fn assert_clean(&self, live_arrays: usize, kernels: usize) {
        let expected = self.baseline + live_arrays + kernels;
        assert_eq!(
            self.core.live_allocations(),
            expected,
            "GPU memory leaked (or an array was not GPU memory)"
        );
        assert_eq!(self.core.locked_allocations(), expected);
        assert_eq!(self.core.violations(), Vec::<String>::new());
    }

    /// Drops the device: everything it allocated is released, cached code included.
    fn close(self) {
        let StandIn { core, device, .. } = self;
        drop(device);
        assert_eq!(core.live_allocations(), 0, "GPU memory leaked at close");
        assert!(!core.qpus_enabled());
        assert_eq!(core.violations(), Vec::<String>::new());
    }
}

/// A 1 MiB memory split keeps the executor's copies cheap.
fn small_config() -> FakeConfig {
    FakeConfig {
        gpu_mem_bytes: 1 << 20,
        ..FakeConfig::default()
    }
}

fn counter(report: &qpu::runtime::RunReport, name: &str) -> Option<u64> {
    report
        .counters
        .iter()
        .find(|(counter, _)| counter == name)
        .map(|&(_, value)| value)
}

/// Euclid's remainder form: a different route to the GCD than the kernel's subtractions.
fn scalar_gcd(mut a: i32, mut b: i32) -> i32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn triangular(n: i32) -> i32 {
    n * (n + 1) / 2
}

#[test]
fn gcd_runs_on_both_launch_paths() {
    let (a, b) = gcd::inputs();
    let expected: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| scalar_gcd(x, y)).collect();
    for (mode, direct) in [(LaunchMode::Mailbox, 0), (LaunchMode::Direct, 1)] {
        let pi = StandIn::with_mode(mode);
        for unrolled in [false, true] {
            assert_eq!(
                gcd::run(&pi.device, unrolled, &a, &b).unwrap(),
                expected,
                "{mode:?}, unrolled={unrolled}"
            );
        }
        // The report: this backend, no modelled cycles, the path taken and the wall time.
        let input_a = pi.device.alloc_from(&a).unwrap();
        let input_b = pi.device.alloc_from(&b).unwrap();
        let mut result = pi.device.alloc::<i32>(16).unwrap();
        let report = compile(gcd::gcd)
            .unwrap()
            .run(&pi.device, (&input_a, &input_b, &mut result))
            .unwrap();
        assert_eq!(report.backend, "pi");
        assert_eq!(report.num_qpus, 1);
        assert_eq!(report.cycles, None);
        assert_eq!(counter(&report, "direct_launch"), Some(direct));
        assert!(counter(&report, "elapsed_ns").is_some());
        // The read-only inputs came through unchanged.
        assert_eq!(&input_a[..], &a[..]);
        assert_eq!(&input_b[..], &b[..]);
        assert_eq!(pi.core.jobs_run().len(), 3);
        // Three arrays alive; three kernels' code (gcd and gcd_unrolled, then gcd again, which
        // is a new kernel object) cached.
        pi.assert_clean(3, 3);
        drop((input_a, input_b, result));
        pi.close();
    }
}

#[test]
fn multi_qpu_kernels_run_on_every_qpu_count() {
    let pi = StandIn::with_mode(LaunchMode::Auto);
    let mut kernel = compile(multi_tri::tri).unwrap();
    for n in [1, 2, 4, 8, 12] {
        let input: Vec<i32> = (0..16 * n as i32).collect();
        let mut array = pi.device.alloc_from(&input).unwrap();
        kernel.set_num_qpus(n).unwrap();
        let report = kernel.run(&pi.device, &mut array).unwrap();
        assert_eq!(report.num_qpus, n);
        let expected: Vec<i32> = input.iter().map(|&x| triangular(x)).collect();
        assert_eq!(array.to_vec(), expected, "{n} QPUs");
    }
    let ids = id::run(&pi.device).unwrap();
    assert_eq!(ids, (0..192).map(|i| i / 16).collect::<Vec<i32>>());
    // 1 + 2 + 4 + 8 + 12 programs for the triangles, 12 for the ids.
    assert_eq!(pi.core.jobs_run().len(), 27 + 12);
    pi.assert_clean(0, 2);
    pi.close();
}

/// Keeps 80 vectors live at once, more than the register files hold, so the kernel spills;
/// each QPU works on its own 16 elements.
fn spilling(mut input: Ptr<Int>, mut output: Ptr<Int>) {
    input += me() << 4;
    output += me() << 4;
    let x = Int::var(input.load());
    let terms: Vec<Int> = (0..80).map(|i| Int::var((x << (i % 5)) + i)).collect();
    let mut total = Int::var(0);
    for (i, term) in terms.into_iter().enumerate().rev() {
        total += term ^ (i as i32);
    }
    output.store(total);
}

fn spilling_scalar(x: i32) -> i32 {
    (0..80)
        .rev()
        .map(|i| (x << (i % 5)).wrapping_add(i) ^ i)
        .fold(0i32, |sum, term| sum.wrapping_add(term))
}

#[test]
fn spilling_kernels_get_a_spill_area_per_qpu() {
    let mut kernel = compile(spilling).unwrap();
    let compiled = qpu::compiler::compile(kernel.ast()).unwrap();
    assert!(
        compiled.spill_bytes_per_qpu() > 0,
        "the kernel no longer spills; this test needs one that does"
    );
    let pi = StandIn::with_mode(LaunchMode::Direct);
    for n in [1, 3, 12] {
        let input: Vec<i32> = (0..16 * n as i32).map(|i| i * 37 - 500).collect();
        let source = pi.device.alloc_from(&input).unwrap();
        let mut output = pi.device.alloc::<i32>(input.len()).unwrap();
        kernel.set_num_qpus(n).unwrap();
        kernel.run(&pi.device, (&source, &mut output)).unwrap();
        let expected: Vec<i32> = input.iter().map(|&x| spilling_scalar(x)).collect();
        assert_eq!(output.to_vec(), expected, "{n} QPUs");
    }
    pi.assert_clean(0, 1);
    pi.close();
}

#[test]
fn a_store_to_a_read_only_array_is_reported_and_memory_released() {
    let pi = StandIn::with_mode(LaunchMode::Mailbox);
    let original: Vec<i32> = (0..16).collect();
    let array = pi.device.alloc_from(&original).unwrap();
    let kernel = compile(|p: Ptr<Int>| p.store(p.load() + 1)).unwrap();
    let error = kernel.run(&pi.device, &array).unwrap_err();
    match &error {
        Error::Run(run) => {
            assert_eq!(
                run.kind,
                qpu::error::RunErrorKind::ReadOnly {
                    address: array.bus_address()
                }
            );
        }
        other => panic!("expected a read-only violation, got {other}"),
    }
    // Nothing is copied back, and nothing could be protected: the array is the GPU memory the
    // kernel wrote, and shows its stores.
    let stored: Vec<i32> = original.iter().map(|x| x + 1).collect();
    assert_eq!(&array[..], &stored[..]);
    pi.assert_clean(1, 1);
    drop(array);
    pi.close();
}

#[test]
fn a_hung_kernel_times_out_detaches_arrays_and_releases_memory() {
    for mode in [LaunchMode::Mailbox, LaunchMode::Direct] {
        let config = small_config();
        let core = FakeVideoCore::new(config);
        let hangs = Arc::new(Mutex::new(0));
        let counted = hangs.clone();
        // A runaway program: it stores to the first word of its array (uniform 2 under the
        // launch contract [qpu, n, p]) and never ends.
        core.set_executor(Box::new(move |memory: &mut BusMemory<'_>, job: Job| {
            *counted.lock().unwrap() += 1;
            let array = memory
                .read(job.uniforms + 8)
                .expect("uniforms in GPU memory");
            assert!(memory.write(array, 0xbad));
            JobOutcome::Hang
        }));
        let gpu = core.open_gpu().unwrap();
        let baseline = core.live_allocations();
        let options = LaunchOptions {
            mode,
            timeout: Duration::from_millis(30),
            probe_timeout: Duration::from_millis(10),
            ..LaunchOptions::default()
        };
        let device = Device::new(Pi::with_gpu(gpu).with_launch_options(options));
        let mut array = device.alloc_from(&[5i32; 16]).unwrap();
        let bus = array.bus_address();
        let kernel = compile(|p: Ptr<Int>| p.store(p.load() * 2)).unwrap();
        let error = kernel.run(&device, &mut array).unwrap_err();
        let Error::Backend { backend, message } = &error else {
            panic!("expected a backend error, got {error:?}");
        };
        assert_eq!(backend, "pi");
        // qpu_pi's whole text: what happened, the probe's verdict and the fix.
        assert!(message.contains("did not finish within 30ms"), "{message}");
        assert!(message.contains("reboot"), "{message}");
        assert!(message.contains("raise the timeout"), "{message}");
        assert!(*hangs.lock().unwrap() >= 1);
        assert!(core.is_wedged());
        // The array is now a host copy of what its GPU memory held: the runaway's store and
        // the untouched rest.
        let mut expected = [5; 16];
        expected[0] = 0xbad;
        assert_eq!(&array[..], &expected, "{mode:?}");
        // Writes to it stay on the host; the GPU memory (still allocated, since the runaway
        // may write it) is not touched again.
        array[1] = 9;
        assert_eq!(core.read_bus(bus + 4), Some(5));
        // It cannot be passed to a kernel again.
        let error = kernel.run(&device, &mut array).unwrap_err();
        assert!(
            error.to_string().contains("no longer in GPU memory"),
            "{error}"
        );
        // The array and the kernel's cached code are all that is left; both go with their
        // owners.
        assert_eq!(core.live_allocations(), baseline + 2, "{mode:?}");
        drop(array);
        assert_eq!(core.live_allocations(), baseline + 1, "{mode:?}");
        drop(device);
        assert_eq!(core.live_allocations(), 0, "{mode:?}");
        assert_eq!(core.violations(), Vec::<String>::new());
    }
}

#[test]
fn a_failed_allocation_names_the_size_and_releases_what_was_allocated() {
    // 64 KiB of GPU memory: the device's scratch page, then room for one 36 KiB array
    // (32 KiB of data and its margin) but not a second.
    let config = FakeConfig {
        gpu_mem_bytes: 64 * 1024,
        ..FakeConfig::default()
    };
    let pi = StandIn::new(config, LaunchOptions::default());
    let a = pi.device.alloc_from(&vec![1i32; 8192]).unwrap();
    // Arrays are GPU memory, so the second one fails when it is allocated.
    let error = pi.device.alloc::<i32>(8192).unwrap_err();
    let message = error.to_string();
    assert!(
        message.starts_with(
            "cannot allocate 8192 words of shared memory: pi: GPU memory allocation of 36864 \
             bytes failed"
        ),
        "{message}"
    );
    assert!(message.contains("0 MiB (gpu_mem)"), "{message}");
    assert!(message.contains("gpu_mem="), "{message}");
    pi.assert_clean(1, 0);

    // Two 8 KiB arrays, one page of code and one of uniforms fill the remaining 24 KiB.
    let copy = compile(|p: Ptr<Int>, q: Ptr<Int>| q.store(p.load())).unwrap();
    let mut c = pi.device.alloc::<i32>(16).unwrap();
    let small = pi.device.alloc_from(&[4i32; 16]).unwrap();
    copy.run(&pi.device, (&small, &mut c)).unwrap();
    assert_eq!(&c[..], &[4; 16]);
    pi.assert_clean(3, 1);

    // A second kernel's code takes the last page, so its uniforms do not fit: the run fails
    // before launching and releases what it allocated for itself.
    let add_one = compile(|p: Ptr<Int>, q: Ptr<Int>| q.store(p.load() + 1)).unwrap();
    let error = add_one.run(&pi.device, (&small, &mut c)).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("pi: GPU memory allocation of 4096 bytes failed"),
        "{error}"
    );
    assert_eq!(
        pi.core.jobs_run().len(),
        1,
        "nothing runs without its memory"
    );
    assert_eq!(&c[..], &[4; 16]);
    pi.assert_clean(3, 2);

    // A third kernel's code does not fit at all: the cached code of the other two is released
    // to make room, and the run goes ahead.
    let add_two = compile(|p: Ptr<Int>, q: Ptr<Int>| q.store(p.load() + 2)).unwrap();
    add_two.run(&pi.device, (&small, &mut c)).unwrap();
    assert_eq!(&c[..], &[6; 16]);
    pi.assert_clean(3, 1);
    drop((a, c, small));
    pi.close();
}

#[test]
fn the_device_describes_the_gpu() {
    let pi = StandIn::with_mode(LaunchMode::Auto);
    let description = pi.device.describe();
    assert!(
        description.starts_with("pi: Raspberry Pi VideoCore IV: "),
        "{description}"
    );
    assert!(
        description.contains("launch paths: mailbox + direct"),
        "{description}"
    );
}

#[test]
fn asking_for_the_pi_here_explains_what_is_missing() {
    match qpu_pi::probe() {
        Err(probe_error) => {
            let expected = format!("pi: {probe_error}");
            assert_eq!(Device::pi().unwrap_err().to_string(), expected);
            let error = Device::auto_with(Some("PI"), qpu_pi::probe).unwrap_err();
            assert_eq!(error.to_string(), expected);
            if probe_error.is_no_gpu() {
                assert!(
                    expected.starts_with("pi: no Raspberry Pi GPU found: "),
                    "{expected}"
                );
            }
        }
        // On a Pi the explicit choice is the Pi.
        Ok(_) => assert_eq!(
            choose(Some("pi"), qpu_pi::probe).unwrap().kind,
            BackendKind::Pi
        ),
    }
}

#[test]
fn the_automatic_choice_here_falls_back_to_the_emulator_and_says_why() {
    match qpu_pi::probe() {
        Err(probe_error) => {
            let choice = choose(None, qpu_pi::probe).unwrap();
            assert_eq!(choice.kind, BackendKind::Emulator);
            assert!(choice.fallback);
            assert_eq!(choice.reason, format!("automatic: {probe_error}"));
            let device = Device::auto_with(None, qpu_pi::probe).unwrap();
            assert_eq!(device.backend().name(), "emulator");
            assert_eq!(
                device.describe(),
                format!("emulator (automatic: {probe_error})")
            );
            // The fallback device runs kernels.
            let (a, b) = gcd::inputs();
            let expected: Vec<i32> = a.iter().zip(&b).map(|(&x, &y)| scalar_gcd(x, y)).collect();
            assert_eq!(gcd::run(&device, false, &a, &b).unwrap(), expected);
        }
        Ok(_) => {
            let choice = choose(None, qpu_pi::probe).unwrap();
            assert_eq!(choice.kind, BackendKind::Pi);
        }
    }
}

/// An array's bus address and the words a launched program found there.
type Sighting = (u32, Vec<u32>);

/// ALLOCATE_MEMORY requests the stand-in has received so far.
fn allocations_requested(core: &FakeVideoCore) -> usize {
    let allocate = qpu_pi::property::Tag::AllocateMemory.id();
    core.tags_received()
        .iter()
        .filter(|&&tag| tag == allocate)
        .count()
}

#[test]
fn arrays_are_gpu_memory_read_and_written_in_place() {
    let config = small_config();
    let core = FakeVideoCore::new(config.clone());
    // Record what each launched program finds at its array's bus address (uniform 2 under the
    // launch contract [qpu, n, p]) before the emulator runs it.
    let seen: Arc<Mutex<Vec<Sighting>>> = Arc::default();
    let record = seen.clone();
    let mut emulate = emulating_executor(&config);
    core.set_executor(Box::new(move |memory: &mut BusMemory<'_>, job: Job| {
        let array = memory
            .read(job.uniforms + 8)
            .expect("uniforms in GPU memory");
        let words = (0..16)
            .map(|i| memory.read(array + 4 * i).unwrap())
            .collect();
        record.lock().unwrap().push((array, words));
        emulate(memory, job)
    }));
    let gpu = core.open_gpu().unwrap();
    let baseline = core.live_allocations();
    let device = Device::new(
        Pi::with_gpu(gpu).with_launch_options(LaunchOptions::with_timeout(Duration::from_secs(5))),
    );

    let mut array = device.alloc::<i32>(16).unwrap();
    assert_eq!(core.live_allocations(), baseline + 1, "one GPU allocation");
    let bus = array.bus_address();
    let base = gpu_memory_base(&config);
    assert!(
        (base..base + config.gpu_mem_bytes).contains(&bus),
        "{bus:#x} is in the stand-in's GPU memory"
    );
    // Each array is followed by a zeroed margin of a page: the next one starts two pages on.
    let next = device.alloc::<i32>(16).unwrap();
    assert_eq!(next.bus_address(), bus + 2 * 4096);
    drop(next);

    // Host writes through the array are in GPU memory at once, before any launch.
    for (i, x) in array.iter_mut().enumerate() {
        *x = 7 * i as i32 - 40;
    }
    let host_written: Vec<u32> = array.iter().map(|&x| x as u32).collect();
    let in_gpu_memory = |core: &FakeVideoCore| -> Vec<u32> {
        (0..16)
            .map(|i| core.read_bus(bus + 4 * i).unwrap())
            .collect()
    };
    assert_eq!(in_gpu_memory(&core), host_written);
    assert!(core.jobs_run().is_empty());

    let kernel = compile(|p: Ptr<Int>| p.store(p.load() * p.load() + 1)).unwrap();
    let requested = allocations_requested(&core);
    kernel.run(&device, &mut array).unwrap();
    // The program found the host's values at the array's own bus address ...
    assert_eq!(*seen.lock().unwrap(), vec![(bus, host_written.clone())]);
    // ... and its results are in that memory, which is what the array shows.
    let expected: Vec<i32> = (0..16).map(|i| (7 * i - 40) * (7 * i - 40) + 1).collect();
    assert_eq!(&array[..], &expected[..]);
    let expected_words: Vec<u32> = expected.iter().map(|&x| x as u32).collect();
    assert_eq!(in_gpu_memory(&core), expected_words);
    // The run allocated its code and its uniforms, nothing for the array.
    assert_eq!(allocations_requested(&core) - requested, 2);

    // Again: the code is cached, so only the uniforms are allocated; the array is used as is.
    let requested = allocations_requested(&core);
    kernel.run(&device, &mut array).unwrap();
    assert_eq!(allocations_requested(&core) - requested, 1);
    let again: Vec<i32> = expected.iter().map(|&x| x.wrapping_mul(x) + 1).collect();
    assert_eq!(&array[..], &again[..]);
    assert_eq!(seen.lock().unwrap()[1], (bus, expected_words));
    assert_eq!(core.jobs_run().len(), 2, "two launches, no copy jobs");

    // Dropping the array releases its GPU memory; dropping the device releases the code.
    assert_eq!(core.live_allocations(), baseline + 2);
    drop(array);
    assert_eq!(core.live_allocations(), baseline + 1);
    drop(device);
    assert_eq!(core.live_allocations(), 0);
    assert_eq!(core.violations(), Vec::<String>::new());
}

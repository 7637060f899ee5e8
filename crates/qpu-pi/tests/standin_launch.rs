//! The device, memory and launch logic run against the in-process stand-in.

use qpu_pi::launch::probe_program_words;
use qpu_pi::standin::{FakeConfig, FakeVideoCore, JobOutcome};
use qpu_pi::{registers, LaunchMode, LaunchOptions, LaunchPath, PiError, ProbeOutcome};
use std::time::Duration;

/// A model of a tiny kernel: uniforms = [output bus address, input value]; writes 2 × input.
fn doubling_kernel(core: &FakeVideoCore) {
    core.set_executor(Box::new(|memory, job| {
        let (Some(out), Some(value)) = (memory.read(job.uniforms), memory.read(job.uniforms + 4))
        else {
            return JobOutcome::Hang;
        };
        memory.write(out, value.wrapping_mul(2));
        JobOutcome::Complete
    }));
}

fn short_timeouts(mode: LaunchMode) -> LaunchOptions {
    LaunchOptions {
        timeout: Duration::from_millis(30),
        probe_timeout: Duration::from_millis(30),
        mode,
        ..LaunchOptions::default()
    }
}

#[test]
fn open_enables_qpus_and_reports_the_board() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu().unwrap();
    assert!(core.qpus_enabled());
    assert_eq!(
        gpu.firmware_revision(),
        FakeConfig::default().firmware_revision
    );
    assert_eq!(gpu.gpu_memory_split(), Some((0x3b40_0000, 4 * 1024 * 1024)));
    assert!(gpu.has_direct_path());
    let text = gpu.describe();
    assert!(text.contains("Raspberry Pi 3 Model B"), "{text}");
    assert!(text.contains("gpu_mem 4 MiB"), "{text}");
    assert!(text.contains("mailbox + direct"), "{text}");
    // Firmware revision, board revision, VC memory, enable QPU, then the scratch page.
    assert_eq!(
        &core.tags_received()[..6],
        &[0x1, 0x10002, 0x10006, 0x30012, 0x3000c, 0x3000d]
    );
    drop(gpu);
    assert!(!core.qpus_enabled(), "QPUs are powered down on close");
    assert_eq!(core.live_allocations(), 0);
    assert!(core.violations().is_empty(), "{:?}", core.violations());
}

#[test]
fn memory_is_shared_between_host_and_gpu() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu().unwrap();
    let mut buffer = gpu.alloc(100).unwrap();
    assert_eq!(buffer.size_bytes(), 4096);
    assert_eq!(buffer.len_words(), 1024);
    // MEM_FLAG_DIRECT selects the uncached 0xC alias.
    assert_eq!(buffer.bus_address() >> 30, 0b11);
    assert_eq!(
        buffer.physical_address(),
        buffer.bus_address() & 0x3fff_ffff
    );
    // MEM_FLAG_ZERO: fresh memory reads as zero.
    assert!(buffer.to_vec().unwrap().iter().all(|&w| w == 0));
    buffer.write_words(10, &[1, 2, 3]).unwrap();
    let bus = buffer.bus_address_of(11).unwrap();
    assert_eq!(bus, buffer.bus_address() + 44);
    assert_eq!(
        core.read_bus(bus),
        Some(2),
        "the GPU sees what the host wrote"
    );
    let mut out = [0; 3];
    buffer.read_words(10, &mut out).unwrap();
    assert_eq!(out, [1, 2, 3]);
    assert!(matches!(
        buffer.read_u32(1024),
        Err(PiError::OutOfBounds {
            index: 1024,
            len: 1024
        })
    ));
    assert!(buffer.write_words(1022, &[0; 3]).is_err());
}

#[test]
fn buffers_are_released_on_drop_and_on_panic() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu().unwrap();
    let baseline = core.live_allocations(); // the scratch page
    {
        let _a = gpu.alloc(4096).unwrap();
        let _b = gpu.alloc(3 * 4096).unwrap();
        assert_eq!(core.live_allocations(), baseline + 2);
        assert_eq!(core.locked_allocations(), baseline + 2);
    }
    assert_eq!(core.live_allocations(), baseline);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _buffer = gpu.alloc(4096).unwrap();
        panic!("kernel setup failed");
    }));
    assert!(result.is_err());
    assert_eq!(
        core.live_allocations(),
        baseline,
        "unwinding released the buffer"
    );
    assert_eq!(gpu.release_failures(), 0);
    assert!(core.violations().is_empty(), "{:?}", core.violations());
}

#[test]
fn buffers_may_outlive_the_device_handle() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu().unwrap();
    let mut buffer = gpu.alloc(16).unwrap();
    drop(gpu);
    assert!(core.qpus_enabled(), "a live buffer keeps the device open");
    buffer.write_u32(0, 5).unwrap();
    assert_eq!(buffer.read_u32(0).unwrap(), 5);
    drop(buffer);
    assert!(!core.qpus_enabled());
    assert_eq!(core.live_allocations(), 0);
}

#[test]
fn allocation_failure_names_size_and_gpu_mem() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu().unwrap();
    let error = gpu.alloc(8 * 1024 * 1024).unwrap_err();
    assert!(
        matches!(
            error,
            PiError::AllocationFailed {
                requested: 8_388_608,
                gpu_mem_bytes: Some(4_194_304)
            }
        ),
        "{error:?}"
    );
    let text = error.to_string();
    assert!(text.contains("8388608 bytes"), "{text}");
    assert!(text.contains("4 MiB (gpu_mem)"), "{text}");
    assert!(text.contains("gpu_mem="), "{text}");
}

#[test]
fn qpu_enable_refusal_is_explained() {
    let core = FakeVideoCore::new(FakeConfig {
        qpu_enable_status: 0x8000_0000,
        ..FakeConfig::default()
    });
    let error = core.open_gpu().unwrap_err();
    assert!(matches!(
        error,
        PiError::QpuEnableRefused {
            status: 0x8000_0000
        }
    ));
    let text = error.to_string();
    assert!(text.contains("gpu_mem=16"), "{text}");
    assert!(text.contains("vc4-kms-v3d"), "{text}");
    assert_eq!(core.live_allocations(), 0);
}

fn prepare_jobs(gpu: &qpu_pi::Gpu, count: usize) -> (qpu_pi::GpuMemory, Vec<(u32, u32)>) {
    // Layout: words 0..count outputs; uniforms pairs from word 1024; fake code at word 3000.
    assert!(count <= 512);
    let mut buffer = gpu.alloc(16384).unwrap();
    let code = buffer.bus_address_of(3000).unwrap();
    let mut jobs = Vec::new();
    for index in 0..count {
        let out = buffer.bus_address_of(index).unwrap();
        let uniform_word = 1024 + 2 * index;
        buffer
            .write_words(uniform_word, &[out, 100 + index as u32])
            .unwrap();
        jobs.push((buffer.bus_address_of(uniform_word).unwrap(), code));
    }
    (buffer, jobs)
}

#[test]
fn direct_launch_runs_every_job_and_clears_caches() {
    let core = FakeVideoCore::default();
    doubling_kernel(&core);
    let gpu = core.open_gpu().unwrap();
    let (buffer, jobs) = prepare_jobs(&gpu, 5);
    let options = LaunchOptions {
        mode: LaunchMode::Direct,
        ..LaunchOptions::default()
    };
    let report = gpu.launch_with(&jobs, &options).unwrap();
    assert_eq!(report.path, LaunchPath::Direct);
    assert_eq!(report.jobs, 5);
    let mut out = [0; 5];
    buffer.read_words(0, &mut out).unwrap();
    assert_eq!(out, [200, 202, 204, 206, 208]);
    assert_eq!(core.cache_clears(), (1, 1));
    // GPU_FFT's interrupt setup before a direct launch.
    assert_eq!(core.register_value(registers::DBCFG), Some(0));
    assert_eq!(core.register_value(registers::DBQITE), Some(0));
    assert_eq!(core.register_value(registers::DBQITC), Some(u32::MAX));
    let run: Vec<(u32, u32)> = core
        .jobs_run()
        .iter()
        .map(|j| (j.uniforms, j.code))
        .collect();
    assert_eq!(run, jobs);
    assert!(core.violations().is_empty(), "{:?}", core.violations());
}

#[test]
fn direct_launch_feeds_more_jobs_than_the_queue_holds() {
    let core = FakeVideoCore::default();
    doubling_kernel(&core);
    let gpu = core.open_gpu().unwrap();
    let (buffer, jobs) = prepare_jobs(&gpu, 40);
    let options = LaunchOptions {
        mode: LaunchMode::Direct,
        ..LaunchOptions::default()
    };
    gpu.launch_with(&jobs, &options).unwrap();
    let out = buffer.to_vec().unwrap();
    for (index, word) in out[..40].iter().enumerate() {
        assert_eq!(*word, 2 * (100 + index as u32), "job {index}");
    }
    assert_eq!(core.jobs_run().len(), 40);
}

#[test]
fn direct_launch_counts_completions_past_256() {
    // The SRQCS completion counter is 8 bits wide.
    let core = FakeVideoCore::new(FakeConfig {
        completion_polls: 0,
        ..FakeConfig::default()
    });
    doubling_kernel(&core);
    let gpu = core.open_gpu().unwrap();
    for count in [256, 300] {
        let (buffer, jobs) = prepare_jobs(&gpu, count);
        let options = LaunchOptions {
            mode: LaunchMode::Direct,
            ..LaunchOptions::default()
        };
        let report = gpu.launch_with(&jobs, &options).unwrap();
        assert_eq!(report.jobs, count);
        let out = buffer.to_vec().unwrap();
        assert_eq!(out[count - 1], 2 * (100 + count as u32 - 1), "{count} jobs");
    }
    assert_eq!(core.jobs_run().len(), 556);
}

#[test]
fn mailbox_launch_passes_the_control_block() {
    let core = FakeVideoCore::default();
    doubling_kernel(&core);
    let gpu = core.open_gpu_mailbox_only().unwrap();
    assert!(!gpu.has_direct_path());
    let (buffer, jobs) = prepare_jobs(&gpu, 12);
    let report = gpu.launch(&jobs, Duration::from_millis(500)).unwrap();
    assert_eq!(report.path, LaunchPath::Mailbox);
    let mut out = [0; 12];
    buffer.read_words(0, &mut out).unwrap();
    assert_eq!(out[11], 2 * 111);
    assert_eq!(core.flush_requests(), vec![true]);
    let run: Vec<(u32, u32)> = core
        .jobs_run()
        .iter()
        .map(|j| (j.uniforms, j.code))
        .collect();
    assert_eq!(run, jobs);
    assert!(core.violations().is_empty(), "{:?}", core.violations());
}

#[test]
fn mailbox_launch_refuses_more_jobs_than_qpus() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu().unwrap();
    let (_buffer, jobs) = prepare_jobs(&gpu, 13);
    let error = gpu
        .launch_with(&jobs, &short_timeouts(LaunchMode::Mailbox))
        .unwrap_err();
    assert!(
        matches!(error, PiError::JobCount { count: 13, .. }),
        "{error}"
    );
    assert!(core.jobs_run().is_empty());
}

#[test]
fn auto_mode_picks_by_duration_and_timeout() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu().unwrap();
    let (_buffer, jobs) = prepare_jobs(&gpu, 2);
    let mid = gpu.launch(&jobs, Duration::from_millis(500)).unwrap();
    assert_eq!(mid.path, LaunchPath::Mailbox);
    let long = gpu.launch(&jobs, Duration::from_secs(5)).unwrap();
    assert_eq!(long.path, LaunchPath::Direct);
    let short = gpu
        .launch_with(
            &jobs,
            &LaunchOptions {
                timeout: Duration::from_millis(500),
                expected_duration: Some(Duration::from_micros(50)),
                ..LaunchOptions::default()
            },
        )
        .unwrap();
    assert_eq!(short.path, LaunchPath::Direct);
}

#[test]
fn bad_jobs_never_reach_the_hardware() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu().unwrap();
    let error = gpu
        .launch(&[(0xC000_0000, 0xC000_0004)], Duration::from_secs(1))
        .unwrap_err();
    assert!(matches!(error, PiError::BadJob { index: 0, .. }), "{error}");
    assert!(gpu.launch(&[], Duration::from_secs(1)).is_err());
    assert!(core.jobs_run().is_empty());
}

#[test]
fn direct_timeout_on_a_wedged_gpu_says_reboot() {
    let core = FakeVideoCore::default(); // hangs wedge the GPU
    core.set_executor(Box::new(|_, _| JobOutcome::Hang));
    let gpu = core.open_gpu().unwrap();
    let (mut buffer, jobs) = prepare_jobs(&gpu, 2);
    let error = gpu
        .launch_with(&jobs, &short_timeouts(LaunchMode::Direct))
        .unwrap_err();
    let PiError::Timeout {
        path,
        timeout,
        ref probe,
    } = error
    else {
        panic!("expected a timeout, got {error:?}");
    };
    assert_eq!(path, LaunchPath::Direct);
    assert_eq!(timeout, Duration::from_millis(30));
    assert!(
        matches!(
            probe,
            ProbeOutcome::NoResponse {
                path: LaunchPath::Direct,
                ..
            }
        ),
        "{probe:?}"
    );
    assert!(error.to_string().contains("reboot"), "{error}");
    assert!(core.is_wedged());
    // Outputs are marked invalid until rewritten.
    assert!(!buffer.is_valid());
    assert!(matches!(
        buffer.read_u32(0),
        Err(PiError::OutputInvalid { .. })
    ));
    buffer.write_u32(0, 1).unwrap();
    buffer.mark_valid();
    assert_eq!(buffer.read_u32(0).unwrap(), 1);
}

#[test]
fn direct_timeout_with_a_responsive_gpu_reports_so() {
    let core = FakeVideoCore::new(FakeConfig {
        hang_wedges_gpu: false,
        ..FakeConfig::default()
    });
    let gpu = core.open_gpu().unwrap();
    let (_buffer, jobs) = prepare_jobs(&gpu, 1);
    let user_code = jobs[0].1;
    // Only the user's program hangs; the probe program (at another address) completes.
    core.set_executor(Box::new(move |_, job| {
        if job.code == user_code {
            JobOutcome::Hang
        } else {
            JobOutcome::Complete
        }
    }));
    let error = gpu
        .launch_with(&jobs, &short_timeouts(LaunchMode::Direct))
        .unwrap_err();
    let PiError::Timeout { probe, .. } = &error else {
        panic!("expected a timeout, got {error:?}");
    };
    assert_eq!(
        probe,
        &ProbeOutcome::Responded {
            path: LaunchPath::Direct
        }
    );
    assert!(error.to_string().contains("still responds"), "{error}");
    // The probe ran the probe program.
    let probe_job = *core.jobs_run().last().unwrap();
    let words: Vec<u32> = (0..8)
        .map(|i| core.read_bus(probe_job.code + 4 * i).unwrap())
        .collect();
    assert_eq!(words, probe_program_words());
}

#[test]
fn mailbox_timeout_runs_the_probe_by_mailbox() {
    let core = FakeVideoCore::default();
    core.set_executor(Box::new(|_, _| JobOutcome::Hang));
    let gpu = core.open_gpu_mailbox_only().unwrap();
    let (buffer, jobs) = prepare_jobs(&gpu, 3);
    let error = gpu
        .launch_with(&jobs, &short_timeouts(LaunchMode::Auto))
        .unwrap_err();
    assert!(
        matches!(
            error,
            PiError::Timeout {
                path: LaunchPath::Mailbox,
                probe: ProbeOutcome::NoResponse {
                    path: LaunchPath::Mailbox,
                    ..
                },
                ..
            }
        ),
        "{error:?}"
    );
    assert!(buffer.read_u32(0).is_err());
}

#[test]
fn direct_mode_without_registers_is_an_error() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu_mailbox_only().unwrap();
    let (_buffer, jobs) = prepare_jobs(&gpu, 1);
    assert!(matches!(
        gpu.launch_with(&jobs, &short_timeouts(LaunchMode::Direct)),
        Err(PiError::DirectUnavailable { .. })
    ));
}

/// Delegates to the stand-in but fails EXECUTE_QPU the way the kernel does when the firmware
/// does not answer within its one-second transaction limit.
struct KernelTimesOut(Box<dyn qpu_pi::Mailbox>);

impl qpu_pi::Mailbox for KernelTimesOut {
    fn call(&mut self, message: &mut [u32]) -> std::io::Result<()> {
        if message.get(2) == Some(&qpu_pi::property::Tag::ExecuteQpu.id()) {
            return Err(std::io::Error::from_raw_os_error(libc::ETIMEDOUT));
        }
        self.0.call(message)
    }
}

#[test]
fn kernel_mailbox_timeout_becomes_a_timeout_error() {
    let core = FakeVideoCore::default();
    let gpu = qpu_pi::Gpu::from_parts(
        core.pi_info().unwrap(),
        Box::new(KernelTimesOut(core.mailbox())),
        core.physical_memory(),
        qpu_pi::Registers::None,
    )
    .unwrap();
    let (buffer, jobs) = prepare_jobs(&gpu, 2);
    let error = gpu
        .launch_with(&jobs, &short_timeouts(LaunchMode::Mailbox))
        .unwrap_err();
    let PiError::Timeout {
        path,
        timeout,
        probe,
    } = &error
    else {
        panic!("expected a timeout, got {error:?}");
    };
    assert_eq!(*path, LaunchPath::Mailbox);
    assert!(*timeout <= Duration::from_millis(30));
    // The probe goes the same way and cannot run either; the message says so.
    let ProbeOutcome::NotRun { reason } = probe else {
        panic!("expected NotRun, got {probe:?}");
    };
    assert!(reason.contains("EXECUTE_QPU"), "{reason}");
    assert!(reason.contains("1 s transaction timeout"), "{reason}");
    assert!(!buffer.is_valid());
}

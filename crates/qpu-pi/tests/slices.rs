//! GPU memory as slices: host writes through a slice are what the GPU reads at the buffer's
//! bus address, GPU writes are what the slice shows afterwards, and launches borrow the
//! slices instead of copying them. Run against the in-process stand-in, whose executor plays
//! the QPUs over the same memory.

use qpu_pi::standin::{BusMemory, FakeConfig, FakeVideoCore, JobOutcome};
use qpu_pi::{Gpu, GpuMemory, Job, LaunchBuffer, LaunchMode, LaunchOptions, PiError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Word offsets in the program buffer: uniforms first, the (never executed) code after.
const UNIFORMS_WORD: usize = 0;
const CODE_WORD: usize = 16;

/// A model kernel: uniforms = [input bus, output bus, count]; output[i] = 3 * input[i] + 1.
/// It records the input it read, so tests can see what the GPU saw.
fn affine_kernel(core: &FakeVideoCore) -> Arc<Mutex<Vec<u32>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    core.set_executor(Box::new(move |memory: &mut BusMemory<'_>, job: Job| {
        let read = |memory: &BusMemory<'_>, offset: u32| memory.read(job.uniforms + 4 * offset);
        let (Some(input), Some(output), Some(count)) =
            (read(memory, 0), read(memory, 1), read(memory, 2))
        else {
            return JobOutcome::Hang;
        };
        let mut record = record.lock().unwrap();
        for i in 0..count {
            let Some(x) = memory.read(input + 4 * i) else {
                return JobOutcome::Hang;
            };
            record.push(x);
            assert!(memory.write(output + 4 * i, x.wrapping_mul(3).wrapping_add(1)));
        }
        JobOutcome::Complete
    }));
    seen
}

/// A program buffer whose one job runs the affine kernel from `input` to `output`.
fn program(gpu: &Gpu, input: u32, output: u32, count: u32) -> (GpuMemory, Vec<(u32, u32)>) {
    let mut program = gpu.alloc(4096).unwrap();
    program
        .write_words(UNIFORMS_WORD, &[input, output, count])
        .unwrap();
    let job = (
        program.bus_address_of(UNIFORMS_WORD).unwrap(),
        program.bus_address_of(CODE_WORD).unwrap(),
    );
    (program, vec![job])
}

fn options() -> LaunchOptions {
    LaunchOptions {
        mode: LaunchMode::Direct,
        timeout: Duration::from_millis(50),
        probe_timeout: Duration::from_millis(20),
        ..LaunchOptions::default()
    }
}

#[test]
fn a_slice_is_the_memory_the_gpu_sees() {
    let core = FakeVideoCore::default();
    let gpu = core.open_gpu().unwrap();
    let mut buffer = gpu.alloc(64).unwrap();
    let bus = buffer.bus_address();
    // One whole zeroed page, viewed directly.
    assert_eq!(buffer.as_words().unwrap(), &[0; 1024][..]);
    let words = buffer.as_words_mut().unwrap();
    for (i, word) in words.iter_mut().enumerate().take(5) {
        *word = 0x1000 + i as u32;
    }
    // No copy and no launch: the GPU side reads the host's stores at the bus address.
    let seen: Vec<Option<u32>> = (0..6).map(|i| core.read_bus(bus + 4 * i)).collect();
    assert_eq!(
        seen,
        vec![
            Some(0x1000),
            Some(0x1001),
            Some(0x1002),
            Some(0x1003),
            Some(0x1004),
            Some(0)
        ]
    );
    // Word accesses and slices agree.
    assert_eq!(buffer.read_u32(3).unwrap(), 0x1003);
    buffer.write_u32(1023, 7).unwrap();
    assert_eq!(buffer.as_words().unwrap()[1023], 7);
    assert_eq!(core.read_bus(bus + 4 * 1023), Some(7));
    assert!(core.jobs_run().is_empty());
}

#[test]
fn launches_borrow_the_slices_and_copy_nothing() {
    let core = FakeVideoCore::default();
    let seen = affine_kernel(&core);
    let gpu = core.open_gpu().unwrap();
    let mut input = gpu.alloc(16 * 4).unwrap();
    let mut output = gpu.alloc(16 * 4).unwrap();
    let values: Vec<u32> = (0..16).map(|i| i * 1000 + 7).collect();
    input.as_words_mut().unwrap()[..16].copy_from_slice(&values);
    let (_program, jobs) = program(&gpu, input.bus_address(), output.bus_address(), 16);
    // The slices' bus addresses are the buffers'.
    assert_eq!(
        gpu.bus_address_of_slice(&input.as_words().unwrap()[..16]),
        Some(input.bus_address())
    );
    assert_eq!(
        gpu.bus_address_of_slice(&output.as_words().unwrap()[4..8]),
        Some(output.bus_address() + 16)
    );

    let report = gpu
        .launch_buffers(
            &jobs,
            &mut [
                LaunchBuffer::Read(&input.as_words().unwrap()[..16]),
                LaunchBuffer::Write(&mut output.as_words_mut().unwrap()[..16]),
            ],
            &options(),
        )
        .unwrap();
    assert_eq!(report.jobs, 1);
    assert_eq!(core.jobs_run().len(), 1, "one job, and no copy jobs");
    // The GPU read what the host wrote through the slice ...
    assert_eq!(*seen.lock().unwrap(), values);
    // ... and the host reads what the GPU wrote, through the slice.
    let expected: Vec<u32> = values.iter().map(|&x| 3 * x + 1).collect();
    assert_eq!(&output.as_words().unwrap()[..16], &expected[..]);
    assert!(output.as_words().unwrap()[16..].iter().all(|&w| w == 0));
    assert!(core.violations().is_empty(), "{:?}", core.violations());
}

#[test]
fn a_written_read_only_buffer_is_reported_with_the_first_changed_word() {
    let core = FakeVideoCore::default();
    affine_kernel(&core);
    let gpu = core.open_gpu().unwrap();
    let mut data = gpu.alloc(64).unwrap();
    data.as_words_mut().unwrap()[..8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    // The kernel writes its output over words 4.. of the same buffer, passed read-only.
    let (_program, jobs) = program(&gpu, data.bus_address(), data.bus_address() + 16, 4);
    let error = gpu
        .launch_buffers(
            &jobs,
            &mut [LaunchBuffer::Read(&data.as_words().unwrap()[..8])],
            &options(),
        )
        .unwrap_err();
    // Word 4 is the first to change (5 -> 3 * 1 + 1 = 4).
    assert!(
        matches!(
            error,
            PiError::ReadOnlyWritten { index: 0, bus_address } if bus_address == data.bus_address() + 16
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("passed read-only"), "{error}");
    assert_eq!(&data.as_words().unwrap()[4..8], &[4, 7, 10, 13]);
}

#[test]
fn slices_outside_this_devices_gpu_memory_are_refused_before_launching() {
    let core = FakeVideoCore::default();
    affine_kernel(&core);
    let gpu = core.open_gpu().unwrap();
    let mut output = gpu.alloc(64).unwrap();
    let (_program, jobs) = program(&gpu, output.bus_address(), output.bus_address(), 1);
    let host = vec![0u32; 16];
    assert_eq!(gpu.bus_address_of_slice(&host), None);
    let error = gpu
        .launch_buffers(
            &jobs,
            &mut [
                LaunchBuffer::Write(&mut output.as_words_mut().unwrap()[..1]),
                LaunchBuffer::Read(&host),
            ],
            &options(),
        )
        .unwrap_err();
    assert!(
        matches!(
            error,
            PiError::NotGpuMemory {
                index: 1,
                len: 16,
                ..
            }
        ),
        "{error:?}"
    );
    // Another device's GPU memory is not this device's.
    let other_core = FakeVideoCore::new(FakeConfig::default());
    let other_gpu = other_core.open_gpu().unwrap();
    let foreign = other_gpu.alloc(64).unwrap();
    assert_eq!(gpu.bus_address_of_slice(foreign.as_words().unwrap()), None);
    let error = gpu
        .launch_buffers(
            &jobs,
            &mut [LaunchBuffer::Read(foreign.as_words().unwrap())],
            &options(),
        )
        .unwrap_err();
    assert!(
        matches!(error, PiError::NotGpuMemory { index: 0, .. }),
        "{error:?}"
    );
    assert!(core.jobs_run().is_empty(), "nothing was launched");
}

#[test]
fn after_a_timeout_slices_are_refused_until_the_buffer_is_rewritten() {
    let core = FakeVideoCore::default();
    core.set_executor(Box::new(|memory: &mut BusMemory<'_>, job: Job| {
        // A runaway program: it scribbles on its output, then never ends.
        let output = memory.read(job.uniforms + 4).unwrap_or(0);
        memory.write(output, 0xbad);
        JobOutcome::Hang
    }));
    let gpu = core.open_gpu().unwrap();
    let input = gpu.alloc(64).unwrap();
    let mut output = gpu.alloc(64).unwrap();
    let (_program, jobs) = program(&gpu, input.bus_address(), output.bus_address(), 4);
    let error = gpu
        .launch_buffers(
            &jobs,
            &mut [
                LaunchBuffer::Read(input.as_words().unwrap()),
                LaunchBuffer::Write(output.as_words_mut().unwrap()),
            ],
            &options(),
        )
        .unwrap_err();
    assert!(matches!(error, PiError::Timeout { .. }), "{error:?}");
    for buffer in [&input, &output] {
        assert!(matches!(
            buffer.as_words(),
            Err(PiError::OutputInvalid { bus_address }) if bus_address == buffer.bus_address()
        ));
    }
    assert!(matches!(
        output.as_words_mut(),
        Err(PiError::OutputInvalid { .. })
    ));
    // What is left can still be copied out, word by word.
    let mut left = [0; 2];
    output.salvage_words(0, &mut left).unwrap();
    assert_eq!(left, [0xbad, 0]);
    // A launch given an invalid buffer refuses it. (A slice borrowed before the failure.)
    let mut fresh = gpu.alloc(64).unwrap();
    let fresh_bus = fresh.bus_address();
    let borrowed = fresh.as_words().unwrap();
    let _ = gpu.launch_buffers(&jobs, &mut [], &options()).unwrap_err();
    let error = gpu
        .launch_buffers(&jobs, &mut [LaunchBuffer::Read(borrowed)], &options())
        .unwrap_err();
    assert!(
        matches!(error, PiError::BufferInvalid { index: 0, bus_address } if bus_address == fresh_bus),
        "{error:?}"
    );
    // Rewriting it and declaring it valid gives the slice back.
    fresh.write_words(0, &[9; 4]).unwrap();
    fresh.mark_valid();
    assert_eq!(&fresh.as_words().unwrap()[..5], &[9, 9, 9, 9, 0]);
}

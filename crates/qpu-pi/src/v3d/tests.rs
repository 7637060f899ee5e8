//! The V3D path against the stand-in, with values worked out by hand from the documented
//! layouts (see the module docs for the sources).

use super::standin::{FakeV3d, FakeV3dConfig, JobOutcome};
use super::*;

fn open(config: FakeV3dConfig) -> (FakeV3d, V3d) {
    let fake = FakeV3d::new(config);
    let v3d = V3d::with_driver(Arc::new(fake.clone())).expect("opens");
    (fake, v3d)
}

#[test]
fn identification_words_give_version_revision_and_qpu_count() {
    // Pi 4: IDENT0 major 4 in bits 31:24; IDENT1 minor 2, 2 slices, 4 QPUs per slice.
    let pi4 = V3dInfo::from_idents("n".into(), 0x0400_0000, 0x0000_0422, 0).unwrap();
    assert_eq!((pi4.version, pi4.qpus), (V3dVersion::V42, 8));
    // Pi 5: 7.1, 4 slices of 4, hub revision 7 in bits 15:8.
    let pi5 = V3dInfo::from_idents("n".into(), 0x0700_0000, 0x0000_0441, 0x0700).unwrap();
    assert_eq!(
        (pi5.version, pi5.qpus, pi5.revision),
        (V3dVersion::V71, 16, 7)
    );
    // Other fields of the words are ignored.
    let noisy = V3dInfo::from_idents("n".into(), 0x04ab_cdef, 0xf000_0422, 0xff00_0000).unwrap();
    assert_eq!(
        (noisy.version, noisy.qpus, noisy.revision),
        (V3dVersion::V42, 8, 0)
    );
    // V3D 3.3 (not a Pi) and a core with no QPUs are refused, by name.
    let old = V3dInfo::from_idents("n".into(), 0x0300_0000, 0x0000_0443, 0).unwrap_err();
    assert!(old.to_string().contains("V3D 3.3"), "{old}");
    assert!(V3dInfo::from_idents("n".into(), 0x0400_0000, 0x0000_0002, 0).is_err());
}

#[test]
fn the_stand_in_reads_as_the_boards_it_models() {
    let (_, pi4) = open(FakeV3dConfig::pi4());
    assert_eq!(
        (pi4.info().version, pi4.info().qpus, pi4.info().revision),
        (V3dVersion::V42, 8, 0)
    );
    let (_, pi5) = open(FakeV3dConfig::pi5());
    assert_eq!(
        (pi5.info().version, pi5.info().qpus, pi5.info().revision),
        (V3dVersion::V71, 16, 7)
    );
}

#[test]
fn configuration_words_follow_the_documented_layout() {
    let d = Dispatch {
        code: 0x0001_0000,
        uniforms: 0x0002_0040,
        batches: 8,
    };
    // Workgroups of 16 (bits 31:16 of word 0), 16 per supergroup (written as 0 in bits
    // 11:8), 16 batches per supergroup (15 in bits 15:12), 16 invocations (bits 7:0).
    let common = [0x0010_0000, 0x0001_0000, 0x0001_0000, 0xF010];
    let pi4 = d.config_words(V3dVersion::V42, 0).unwrap();
    assert_eq!(pi4[..4], common);
    assert_eq!(pi4[4], 7, "batches minus one on 4.2");
    assert_eq!(pi4[5..], [0x0001_0000, 0x0002_0040]);
    // 7.1 counts batches without the minus one from revision 6 on.
    assert_eq!(d.config_words(V3dVersion::V71, 7).unwrap()[4], 8);
    assert_eq!(d.config_words(V3dVersion::V71, 5).unwrap()[4], 7);
    for (version, revision) in [
        (V3dVersion::V42, 0),
        (V3dVersion::V71, 5),
        (V3dVersion::V71, 7),
    ] {
        let cfg = d.config_words(version, revision).unwrap();
        assert_eq!(Dispatch::batches_of(&cfg, version, revision), 8);
    }
    // Bad dispatches are refused before anything reaches the driver.
    for bad in [
        Dispatch { code: 0, ..d },
        Dispatch {
            code: 0x0001_0004,
            ..d
        },
        Dispatch { uniforms: 2, ..d },
        Dispatch { batches: 0, ..d },
    ] {
        assert!(bad.config_words(V3dVersion::V42, 0).is_err(), "{bad:?}");
    }
}

#[test]
fn discovery_picks_the_node_whose_driver_is_v3d() {
    let nodes: Vec<PathBuf> = ["renderD128", "renderD129"]
        .iter()
        .map(|n| PathBuf::from("/dev/dri").join(n))
        .collect();
    let vc4 = FakeV3dConfig {
        driver: "vc4".to_string(),
        ..FakeV3dConfig::pi4()
    };
    // The display device (vc4) comes first on some boots; the GPU is the other node.
    let found = find_v3d(&nodes, |p| {
        Ok(FakeV3d::new(if p.ends_with("renderD128") {
            vc4.clone()
        } else {
            FakeV3dConfig::pi5()
        }))
    })
    .unwrap();
    assert_eq!(found.driver_name().unwrap(), "v3d");
    // Only the display device: the error names each node and what it was.
    let error = find_v3d(&nodes[..1], |_| Ok(FakeV3d::new(vc4.clone()))).unwrap_err();
    let text = error.to_string();
    assert!(matches!(error, PiError::NoV3dNode { .. }));
    assert!(text.contains("renderD128: driver vc4"), "{text}");
    assert!(error.is_no_gpu());
    // No nodes at all.
    let none = find_v3d::<FakeV3d>(&[], |_| unreachable!()).unwrap_err();
    assert!(
        none.to_string().contains("no /dev/dri/renderD* nodes"),
        "{none}"
    );
    // A node this user may not open is reported as such, not as "no GPU".
    let denied = find_v3d::<FakeV3d>(&nodes[..1], |p| {
        Err(PiError::DrmCall {
            call: "open",
            node: p.display().to_string(),
            source: std::io::Error::from_raw_os_error(libc::EACCES),
            hint: ". Fix: add this user to the render group".to_string(),
        })
    })
    .unwrap_err();
    assert!(!denied.is_no_gpu());
    assert!(denied.to_string().contains("render group"), "{denied}");
}

#[test]
fn a_kernel_without_compute_jobs_is_refused_with_the_reason() {
    let fake = FakeV3d::new(FakeV3dConfig {
        supports_csd: false,
        ..FakeV3dConfig::pi4()
    });
    let error = V3d::with_driver(Arc::new(fake)).unwrap_err();
    assert!(error.to_string().contains("SUPPORTS_CSD = 0"), "{error}");
}

#[test]
fn buffers_are_zeroed_shared_and_released_on_drop() {
    let (fake, v3d) = open(FakeV3dConfig::pi4());
    let mut a = v3d.alloc(100).unwrap();
    let b = v3d.alloc(4096).unwrap();
    // Whole pages, at distinct non-zero page-aligned GPU addresses.
    assert_eq!(a.len_words(), 1024);
    assert_ne!(a.gpu_address(), 0);
    assert_eq!(a.gpu_address() % 4096, 0);
    assert!(b.gpu_address() >= a.gpu_address() + 4096);
    assert_eq!(a.read_words(0, 1024).unwrap(), vec![0; 1024]);
    a.write_words(10, &[1, 2, 3]).unwrap();
    assert_eq!(a.read_words(9, 5).unwrap(), vec![0, 1, 2, 3, 0]);
    assert_eq!(a.gpu_address_of(10).unwrap(), a.gpu_address() + 40);
    // Out of range: an error naming the index and the length.
    let error = a.write_u32(1024, 5).unwrap_err();
    assert!(
        matches!(
            error,
            PiError::OutOfBounds {
                index: 1024,
                len: 1024
            }
        ),
        "{error}"
    );
    assert!(a.read_words(1020, 5).is_err());
    assert_eq!(fake.live_buffers(), 2);
    drop(a);
    drop(b);
    assert_eq!(fake.live_buffers(), 0);
}

#[test]
fn exhausted_memory_is_an_error_and_leaks_nothing() {
    let (fake, v3d) = open(FakeV3dConfig {
        memory_bytes: 8192,
        ..FakeV3dConfig::pi4()
    });
    let a = v3d.alloc(8192).unwrap();
    let error = v3d.alloc(1).unwrap_err();
    assert!(error.to_string().contains("CREATE_BO"), "{error}");
    drop(a);
    assert_eq!(fake.live_buffers(), 0);
    // Freed memory is usable again.
    assert!(v3d.alloc(8192).is_ok());
}

#[test]
fn a_launch_submits_the_words_and_waits_for_the_job() {
    let (fake, v3d) = open(FakeV3dConfig::pi5());
    let code = v3d.alloc(64).unwrap();
    let mut data = v3d.alloc(64).unwrap();
    data.write_u32(0, 41).unwrap();
    // An executor standing in for the QPUs: each batch adds one to the first data word.
    let target = data.gpu_address();
    fake.set_executor(Box::new(move |job, memory| {
        for _ in 0..job.batches {
            let v = memory.read(target).expect("mapped");
            assert!(memory.write(target, v + 1));
        }
        JobOutcome::Done
    }));
    let dispatch = Dispatch {
        code: code.gpu_address(),
        uniforms: 0,
        batches: 16,
    };
    v3d.launch(
        &dispatch,
        &mut [
            LaunchBuffer::Read(code.as_words().unwrap()),
            LaunchBuffer::Write(data.as_words_mut().unwrap()),
        ],
        Duration::from_secs(1),
    )
    .unwrap();
    assert_eq!(data.read_u32(0).unwrap(), 41 + 16);
    let jobs = fake.jobs();
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].handles, vec![code.handle(), data.handle()]);
    assert_eq!(
        jobs[0].gpu_addresses,
        vec![code.gpu_address(), data.gpu_address()]
    );
    // Pi 5 (7.1.7): word 4 is the batch count itself.
    assert_eq!(jobs[0].cfg[4], 16);
    assert_eq!(jobs[0].cfg[5], code.gpu_address());
}

#[test]
fn a_hung_job_times_out_with_an_explanation() {
    let (fake, v3d) = open(FakeV3dConfig::pi4());
    let code = v3d.alloc(64).unwrap();
    fake.set_executor(Box::new(|_, _| JobOutcome::Hang));
    let dispatch = Dispatch {
        code: code.gpu_address(),
        uniforms: 0,
        batches: 1,
    };
    let error = v3d
        .launch(
            &dispatch,
            &mut [LaunchBuffer::Read(code.as_words().unwrap())],
            Duration::from_millis(20),
        )
        .unwrap_err();
    assert!(matches!(error, PiError::V3dTimeout { .. }), "{error}");
    let text = error.to_string();
    assert!(text.contains("20ms") && text.contains("reset"), "{text}");
}

#[test]
fn a_refused_submission_says_which_node_to_use() {
    let (_, v3d) = open(FakeV3dConfig {
        refuse_submit: true,
        ..FakeV3dConfig::pi4()
    });
    let code = v3d.alloc(64).unwrap();
    let dispatch = Dispatch {
        code: code.gpu_address(),
        uniforms: 0,
        batches: 1,
    };
    let error = v3d
        .launch(
            &dispatch,
            &mut [LaunchBuffer::Read(code.as_words().unwrap())],
            Duration::from_secs(1),
        )
        .unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("SUBMIT_CSD") && text.contains("render node"),
        "{text}"
    );
    // Nothing ran: the buffers stay valid.
    assert!(code.is_valid());
    // A launch with no buffers at all is refused before the driver.
    assert!(v3d
        .launch(&dispatch, &mut [], Duration::from_secs(1))
        .is_err());
}

/// A dispatch of one batch of the code in `code`.
fn one_batch(code: &V3dBuffer) -> Dispatch {
    Dispatch {
        code: code.gpu_address(),
        uniforms: 0,
        batches: 1,
    }
}

#[test]
fn slices_are_the_memory_the_job_reads_and_writes() {
    let (fake, v3d) = open(FakeV3dConfig::pi4());
    let code = v3d.alloc(64).unwrap();
    let mut input = v3d.alloc(64).unwrap();
    let mut output = v3d.alloc(64).unwrap();
    // Written through the slice, seen by the job at the buffer's GPU address.
    input.as_words_mut().unwrap()[..4].copy_from_slice(&[3, 5, 7, 11]);
    let (from, to) = (input.gpu_address(), output.gpu_address());
    fake.set_executor(Box::new(move |_, memory| {
        // The job squares four words into the output.
        for i in 0..4 {
            let x = memory.read(from + 4 * i).expect("mapped");
            assert!(memory.write(to + 4 * i, x * x));
        }
        JobOutcome::Done
    }));
    v3d.launch(
        &one_batch(&code),
        &mut [
            LaunchBuffer::Read(code.as_words().unwrap()),
            LaunchBuffer::Read(&input.as_words().unwrap()[..4]),
            LaunchBuffer::Write(&mut output.as_words_mut().unwrap()[..4]),
        ],
        Duration::from_secs(1),
    )
    .unwrap();
    // The results are in the output's slice: no copy was made in either direction.
    assert_eq!(output.as_words().unwrap()[..5], [9, 25, 49, 121, 0]);
    assert_eq!(output.read_words(0, 4).unwrap(), vec![9, 25, 49, 121]);
    // Each buffer object was listed once, at its GPU address.
    let job = &fake.jobs()[0];
    assert_eq!(
        job.gpu_addresses,
        vec![
            code.gpu_address(),
            input.gpu_address(),
            output.gpu_address()
        ]
    );
}

#[test]
fn a_store_into_a_read_only_slice_or_outside_the_slices_is_reported_with_its_address() {
    let (fake, v3d) = open(FakeV3dConfig::pi5());
    let code = v3d.alloc(64).unwrap();
    let mut data = v3d.alloc(64).unwrap();
    let base = data.gpu_address();
    let target = Arc::new(std::sync::Mutex::new(0u32));
    let shared = Arc::clone(&target);
    fake.set_executor(Box::new(move |_, memory| {
        let address = *shared.lock().unwrap();
        assert!(memory.write(address, 0xdead_beef));
        JobOutcome::Done
    }));
    let run = |data: &mut V3dBuffer, write: bool| {
        let words = &mut data.as_words_mut().unwrap()[..16];
        let lent = if write {
            LaunchBuffer::Write(words)
        } else {
            LaunchBuffer::Read(words)
        };
        v3d.launch(
            &one_batch(&code),
            &mut [LaunchBuffer::Read(code.as_words().unwrap()), lent],
            Duration::from_secs(1),
        )
    };
    // Word 5 of a slice lent read-only.
    *target.lock().unwrap() = base + 20;
    let error = run(&mut data, false).unwrap_err();
    assert!(
        matches!(
            error,
            PiError::V3dReadOnlyWritten { index: 1, gpu_address } if gpu_address == base + 20
        ),
        "{error}"
    );
    assert!(error.to_string().contains(&format!("{:08x}", base + 20)));
    // Word 16, just past a 16-word slice lent writable: outside every lent slice.
    *target.lock().unwrap() = base + 64;
    let error = run(&mut data, true).unwrap_err();
    assert!(
        matches!(
            error,
            PiError::V3dOutsideSliceWritten { index: 1, gpu_address } if gpu_address == base + 64
        ),
        "{error}"
    );
    // The same store again changes nothing, so it is no longer reported; a store inside the
    // writable slice never is.
    assert!(run(&mut data, true).is_ok());
    *target.lock().unwrap() = base + 60;
    assert!(run(&mut data, true).is_ok());
    assert_eq!(data.as_words().unwrap()[15], 0xdead_beef);
    // Stores into buffers the job was not lent cannot be checked (the code's buffer was lent
    // whole, so a store there is a read-only violation).
    *target.lock().unwrap() = code.gpu_address();
    assert!(matches!(
        run(&mut data, true),
        Err(PiError::V3dReadOnlyWritten { index: 0, .. })
    ));
}

#[test]
fn a_hung_job_invalidates_every_buffer_of_the_device() {
    let (fake, v3d) = open(FakeV3dConfig::pi4());
    let code = v3d.alloc(64).unwrap();
    let mut written = v3d.alloc(64).unwrap();
    let bystander = v3d.alloc(64).unwrap();
    // A slice borrowed before the failure (as another thread might hold one).
    let early = bystander.as_words().unwrap();
    let target = written.gpu_address();
    fake.set_executor(Box::new(move |_, memory| {
        // What it stored before it stopped finishing.
        assert!(memory.write(target, 77));
        JobOutcome::Hang
    }));
    let error = v3d
        .launch(
            &one_batch(&code),
            &mut [
                LaunchBuffer::Read(code.as_words().unwrap()),
                LaunchBuffer::Write(written.as_words_mut().unwrap()),
            ],
            Duration::from_millis(10),
        )
        .unwrap_err();
    assert!(matches!(error, PiError::V3dTimeout { .. }), "{error}");
    // Every buffer of the device, lent or not, lends no slice and reads nothing...
    for buffer in [&code, &written, &bystander] {
        assert!(!buffer.is_valid());
        let error = buffer.as_words().unwrap_err();
        assert!(
            matches!(error, PiError::V3dBufferInvalid { gpu_address } if gpu_address == buffer.gpu_address()),
            "{error}"
        );
        assert!(error.to_string().contains("salvage_words"), "{error}");
        assert!(buffer.read_u32(0).is_err());
    }
    assert!(written.as_words_mut().is_err());
    // ...but what is left can be salvaged word by word.
    let mut left = [0; 2];
    written.salvage_words(0, &mut left).unwrap();
    assert_eq!(left, [77, 0]);
    // A launch refuses a slice of an invalid buffer, by its position.
    let fresh = v3d.alloc(64).unwrap();
    let error = v3d
        .launch(
            &one_batch(&fresh),
            &mut [
                LaunchBuffer::Read(fresh.as_words().unwrap()),
                LaunchBuffer::Read(early),
            ],
            Duration::from_secs(1),
        )
        .unwrap_err();
    assert!(
        matches!(error, PiError::V3dLaunchBufferInvalid { index: 1, gpu_address } if gpu_address == bystander.gpu_address()),
        "{error}"
    );
    // New buffers are valid and run; a buffer declared valid again lends slices again.
    assert!(fresh.is_valid());
    fake.set_executor(Box::new(|_, _| JobOutcome::Done));
    bystander.mark_valid();
    v3d.launch(
        &one_batch(&fresh),
        &mut [
            LaunchBuffer::Read(fresh.as_words().unwrap()),
            LaunchBuffer::Read(bystander.as_words().unwrap()),
        ],
        Duration::from_secs(1),
    )
    .unwrap();
    written.write_words(0, &[1]).unwrap();
    written.mark_valid();
    assert_eq!(written.as_words().unwrap()[0], 1);
}

#[test]
fn a_launch_refuses_slices_outside_this_devices_buffers() {
    let (_, v3d) = open(FakeV3dConfig::pi4());
    let (_, other) = open(FakeV3dConfig::pi4());
    let code = v3d.alloc(64).unwrap();
    let foreign = other.alloc(64).unwrap();
    let host = [0u32; 16];
    // Host memory, and another device's buffer.
    for (index, words) in [(1, &host[..]), (1, foreign.as_words().unwrap())] {
        let error = v3d
            .launch(
                &one_batch(&code),
                &mut [
                    LaunchBuffer::Read(code.as_words().unwrap()),
                    LaunchBuffer::Read(words),
                ],
                Duration::from_secs(1),
            )
            .unwrap_err();
        assert!(
            matches!(error, PiError::V3dNotBufferMemory { index: i, len, .. } if i == index && len == words.len()),
            "{error}"
        );
        assert!(error.to_string().contains("V3d::alloc"), "{error}");
    }
}

#[test]
fn a_measured_launch_reads_the_named_counters_over_its_job() {
    let (fake, v3d) = open(FakeV3dConfig::pi4());
    assert_eq!(v3d.perfmon_counters().unwrap()[1], "cycle-count");
    let code = v3d.alloc(64).unwrap();
    let dispatch = Dispatch {
        code: code.gpu_address(),
        uniforms: 0,
        batches: 8,
    };
    let measure = |names: &[&str]| {
        v3d.launch_measured(
            &dispatch,
            &mut [LaunchBuffer::Read(code.as_words().unwrap())],
            Duration::from_secs(1),
            names,
        )
    };
    // The stand-in's counter i reads 1000·(i + 1) plus the jobs its monitor counted (one).
    let got = measure(&["QPU-stalls-TMU", "cycle-count"]).unwrap();
    assert_eq!(
        got,
        vec![
            ("QPU-stalls-TMU".to_string(), 4001),
            ("cycle-count".to_string(), 2001)
        ]
    );
    assert_eq!(fake.jobs().len(), 1);
    // A name the kernel does not offer is refused before anything runs.
    let error = measure(&["QPU-stalls-elsewhere"]).unwrap_err().to_string();
    assert!(error.contains("QPU-stalls-elsewhere"), "{error}");
    assert_eq!(fake.jobs().len(), 1);
    // A kernel without the counter names says what is missing.
    let (_, old) = open(FakeV3dConfig {
        perfmon_counters: Vec::new(),
        ..FakeV3dConfig::pi4()
    });
    let error = old.perfmon_counters().unwrap_err().to_string();
    assert!(
        error.contains("DRM_IOCTL_V3D_PERFMON_GET_COUNTER"),
        "{error}"
    );
}

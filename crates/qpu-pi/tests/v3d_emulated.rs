//! The Pi 4/5 path end to end against the stand-in driver, with the stand-in running jobs on
//! qpu-emu's V3D machine: buffers from CREATE_BO/MMAP_BO, a program assembled for the version
//! the identification words report, the CSD words `V3d::launch` builds, and the results read
//! back through the mapping. The expected sums are computed on the host in the same order.

use std::sync::Arc;
use std::time::Duration;

use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator};
use qpu_isa::v3d::{self as isa, V3dVersion as IsaVersion};
use qpu_pi::v3d::standin::{FakeV3d, FakeV3dConfig, JobOutcome};
use qpu_pi::v3d::{Dispatch, V3d, V3dVersion};

/// The program's end: the last-thread-switch pair and the slots the V3D requires after it.
const END: &str = "
    nop ; nop ; thrsw
    nop ; nop ; thrsw
    nop ; nop
    nop ; nop
    nop ; nop ; thrsw
    nop ; nop
    nop ; nop
";

/// Batch w (workgroup id w) adds 16-float chunks w, w + n, w + 2n, … lane by lane and stores
/// its 16 sums at out + 64·w. Uniforms: in, out, chunks per batch, bytes between chunks.
fn sum_kernel(version: IsaVersion) -> String {
    let (t0, t1, t2, u, wg) = match version {
        IsaVersion::V42 => ("r0", "r1", "r2", "r5", "rf0"),
        IsaVersion::V71 => ("rf4", "rf5", "rf6", "rf0", "rf3"),
    };
    format!(
        "
        shl {t1}, {wg}, 6 ; nop
        eidx {t0} ; nop ; ldunif
        shl {t0}, {t0}, 2 ; nop
        add rf10, {u}, {t0} ; nop ; ldunif
        add rf11, {u}, {t0} ; nop ; ldunif
        or rf13, {u}, {u} ; nop ; ldunif
        or rf14, {u}, {u} ; nop
        add rf10, rf10, {t1} ; nop
        add rf11, rf11, {t1} ; nop
        sub rf12, {t1}, {t1} ; nop
    loop:
        or tmua, rf10, rf10 ; nop
        sub.pushz rf13, rf13, 1 ; nop
        nop ; nop ; ldtmu.{t2}
        b.anyna loop
        fadd rf12, rf12, {t2} ; nop
        add rf10, rf10, rf14 ; nop
        nop ; nop
        or tmud, rf12, rf12 ; nop
        or tmua, rf11, rf11 ; nop
        tmuwt ; nop
        {END}"
    )
}

/// Runs each job on a fresh V3D machine holding copies of every buffer object at its GPU
/// address, then copies the buffers back.
fn emulate(fake: &FakeV3d, version: IsaVersion, qpus: usize) {
    fake.set_executor(Box::new(move |job, memory| {
        let mut config = V3dConfig::new(version);
        config.qpus = qpus;
        let mut emu = V3dEmulator::new(config).expect("a valid machine");
        let buffers = memory.buffers();
        for (address, words) in &buffers {
            let mem = emu.memory_mut();
            mem.alloc_at(*address, words.len() as u32 * 4)
                .expect("buffers do not overlap");
            mem.write_u32s(*address, words).expect("allocated");
        }
        // The stand-in dispatches what the words ask for: `batches` batches from the code
        // and uniforms addresses (flag bits 2:0 of word 5 cleared).
        let run = emu.dispatch(&CsdJob::per_qpu(job.cfg[5] & !7, job.cfg[6], job.batches));
        if run.is_err() {
            // A faulting job never completes on the hardware: the wait times out.
            return JobOutcome::Hang;
        }
        for (address, words) in &buffers {
            let after = emu
                .memory()
                .read_u32s(*address, words.len() as u32)
                .expect("still allocated");
            assert!(memory.write_buffer(*address, &after));
        }
        JobOutcome::Done
    }));
}

fn run_sum(config: FakeV3dConfig) {
    let fake = FakeV3d::new(config);
    let v3d = V3d::with_driver(Arc::new(fake.clone())).expect("opens");
    let info = v3d.info().clone();
    let version = match info.version {
        V3dVersion::V42 => IsaVersion::V42,
        V3dVersion::V71 => IsaVersion::V71,
    };
    let qpus = info.qpus;
    emulate(&fake, version, qpus as usize);

    let program = isa::assemble(version, &sum_kernel(version)).expect("assembles");
    let words: Vec<u64> = program
        .iter()
        .map(|i| isa::encode(version, i).expect("encodes"))
        .collect();
    let mut code = v3d.alloc(words.len() * 8).unwrap();
    let halves: Vec<u32> = words
        .iter()
        .flat_map(|w| [*w as u32, (*w >> 32) as u32])
        .collect();
    code.write_words(0, &halves).unwrap();

    let per_batch = 5u32;
    let chunks = qpus * per_batch;
    let input: Vec<f32> = (0..chunks * 16)
        .map(|i| (i % 97) as f32 * 0.25 - 3.0)
        .collect();
    let mut data_in = v3d.alloc(input.len() * 4).unwrap();
    data_in
        .write_words(0, &input.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
        .unwrap();
    let out = v3d.alloc(qpus as usize * 64).unwrap();
    let mut uniforms = v3d.alloc(16).unwrap();
    uniforms
        .write_words(
            0,
            &[
                data_in.gpu_address(),
                out.gpu_address(),
                per_batch,
                qpus * 64,
            ],
        )
        .unwrap();

    let dispatch = Dispatch {
        code: code.gpu_address(),
        uniforms: uniforms.gpu_address(),
        batches: qpus,
    };
    v3d.launch(
        &dispatch,
        &[&code, &data_in, &out, &uniforms],
        Duration::from_secs(5),
    )
    .unwrap_or_else(|e| panic!("{info:?}: {e}"));

    let sums = out.read_words(0, qpus as usize * 16).unwrap();
    for w in 0..qpus {
        for lane in 0..16 {
            let mut want = 0.0f32;
            for j in 0..per_batch {
                want += input[((w + j * qpus) * 16 + lane) as usize];
            }
            assert_eq!(
                f32::from_bits(sums[(w * 16 + lane) as usize]),
                want,
                "{info:?}: batch {w} lane {lane}"
            );
        }
    }
    // Word 4 followed the version's rule and still meant `qpus` batches.
    let job = &fake.jobs()[0];
    assert_eq!(job.batches, qpus);
}

#[test]
fn pi4_runs_an_array_sum_on_its_8_qpus() {
    run_sum(FakeV3dConfig::pi4());
}

#[test]
fn pi5_runs_an_array_sum_on_its_16_qpus() {
    run_sum(FakeV3dConfig::pi5());
}

#[test]
fn a_faulting_program_times_out_like_a_hung_gpu() {
    let fake = FakeV3d::new(FakeV3dConfig::pi4());
    let v3d = V3d::with_driver(Arc::new(fake.clone())).unwrap();
    emulate(&fake, IsaVersion::V42, 8);
    // One instruction reading a register nothing wrote, then no end: the machine stops.
    let program = isa::assemble(IsaVersion::V42, "or tmua, rf20, rf20 ; nop").unwrap();
    let word = isa::encode(IsaVersion::V42, &program[0]).unwrap();
    let mut code = v3d.alloc(8).unwrap();
    code.write_words(0, &[word as u32, (word >> 32) as u32])
        .unwrap();
    let dispatch = Dispatch {
        code: code.gpu_address(),
        uniforms: 0,
        batches: 1,
    };
    let error = v3d
        .launch(&dispatch, &[&code], Duration::from_millis(50))
        .unwrap_err();
    assert!(error.to_string().contains("did not finish"), "{error}");
}

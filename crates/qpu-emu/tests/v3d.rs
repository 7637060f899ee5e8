//! The V3D machine through its public API: an array sum written in V3D assembly for each
//! version, run on several QPUs; the result is checked against a sum computed on the host
//! in the same order.

use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator};
use qpu_isa::v3d::{self, V3dVersion};

use qpu_emu::v3d::calibration::END;

/// Each batch (one per QPU, workgroup id w) adds chunks w, w + n, w + 2n, … of 16 floats
/// lane by lane and stores its 16 partial sums at out + 64·w. Uniforms: in, out, chunks per
/// batch, bytes between a batch's chunks.
fn sum_kernel(version: V3dVersion) -> String {
    // Temporaries: accumulators on 4.2; register-file registers on 7.1, whose payload (the
    // workgroup id) is in rf3 and whose ldunif lands in rf0. The sum starts as t1 − t1 (0
    // whatever t1 holds, like `xor rf12, rf12, rf12`).
    let (t0, t1, t2, u, wg) = match version {
        V3dVersion::V42 => ("r0", "r1", "r2", "r5", "rf0"),
        V3dVersion::V71 => ("rf4", "rf5", "rf6", "rf0", "rf3"),
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

#[test]
fn array_sum_on_several_qpus() {
    for (version, qpus) in [
        (V3dVersion::V42, 8u32),
        (V3dVersion::V71, 12),
        (V3dVersion::V71, 16),
    ] {
        let per_batch = 5u32;
        let chunks = qpus * per_batch;
        let input: Vec<f32> = (0..chunks * 16)
            .map(|i| (i % 97) as f32 * 0.25 - 3.0)
            .collect();
        let mut config = V3dConfig::new(version);
        config.qpus = qpus as usize;
        let mut emu = V3dEmulator::new(config).unwrap();
        let program = v3d::assemble(version, &sum_kernel(version)).unwrap();
        let code = emu.load_instructions(&program).unwrap();
        let mem = emu.memory_mut();
        let pin = mem.alloc(chunks * 64, 64).unwrap();
        let pout = mem.alloc(qpus * 64, 64).unwrap();
        let bits: Vec<u32> = input.iter().map(|x| x.to_bits()).collect();
        mem.write_u32s(pin, &bits).unwrap();
        let uniforms = emu
            .load_uniforms(&[pin, pout, per_batch, qpus * 64])
            .unwrap();
        let report = emu
            .dispatch(&CsdJob::per_qpu(code, uniforms, qpus))
            .unwrap_or_else(|e| panic!("{version:?}: {e}"));
        let out = emu.memory().read_u32s(pout, qpus * 16).unwrap();
        for w in 0..qpus {
            for lane in 0..16 {
                let mut want = 0.0f32;
                for j in 0..per_batch {
                    want += input[((w + j * qpus) * 16 + lane) as usize];
                }
                assert_eq!(
                    f32::from_bits(out[(w * 16 + lane) as usize]),
                    want,
                    "{version:?} batch {w} lane {lane}"
                );
            }
        }
        assert_eq!(report.batches, u64::from(qpus));
        assert!(report
            .qpus
            .iter()
            .all(|q| q.tmu_loads == u64::from(per_batch)));
    }
}

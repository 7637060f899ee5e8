//! Programs in the shapes that py-videocore6 (Pi 4) and py-videocore7 (Pi 5) run on real
//! boards, each written out here in this assembler's syntax: what they rely on works, with
//! the result scalar Rust expects, and the nearest variant the evidence does not cover stays
//! refused.

use super::tests::{machine, rule_of, run_on, END};
use super::*;
use qpu_isa::v3d;

const V42: V3dVersion = V3dVersion::V42;

/// 16 lanes × `rows` words 0, 1, 2, … in a fresh buffer; returns (source, destination).
fn buffers(emu: &mut V3dEmulator, rows: u32) -> (u32, u32) {
    let mem = emu.memory_mut();
    let src = mem.alloc(64 * rows, 64).unwrap();
    let dst = mem.alloc(64 * rows, 64).unwrap();
    mem.write_u32s(src, &(0..16 * rows).collect::<Vec<u32>>())
        .unwrap();
    mem.write_u32s(dst, &vec![u32::MAX; 16 * rows as usize])
        .unwrap();
    (src, dst)
}

/// py-videocore6 tests/test_parallel.py `qpu_serial`, unrolled: each row is loaded with a
/// `thrsw` on its `tmua`, stored with another, and the next row's load comes two
/// instructions after that (`tmuwt` between): a `thrsw` in the delay slots of the last.
/// Launched, as py-videocore6 launches it, without CSD threading.
fn serial_copy(rows: u32) -> String {
    let mut text = String::from(
        "eidx r0 ; nop ; ldunif
        shl r0, r0, 2 ; nop
        add rf2, r5, r0 ; nop ; ldunif
        add rf3, r5, r0 ; nop
        or r3, 8, 8 ; nop
        shl r3, r3, 3 ; nop
        ",
    );
    for _ in 0..rows {
        text.push_str(
            "add rf2, rf2, r3 ; mov tmua, rf2 ; thrsw
            nop ; nop
            nop ; nop
            nop ; nop ; ldtmu.r0
            or tmud, r0, r0 ; nop
            add rf3, rf3, r3 ; mov tmua, rf3 ; thrsw
            tmuwt ; nop
            ",
        );
    }
    text.push_str(END);
    text
}

#[test]
fn a_thrsw_two_after_another_runs_on_a_one_thread_qpu() {
    let mut emu = machine(V42, 1, 1);
    let (src, dst) = buffers(&mut emu, 4);
    run_on(&mut emu, &serial_copy(4), &[src, dst], 1).unwrap();
    assert_eq!(
        emu.memory().read_u32s(dst, 64).unwrap(),
        (0..64).collect::<Vec<u32>>()
    );
    // With two threads per QPU the second switch would come before the first took effect
    // and hand the QPU to another thread: no program we know does that.
    let mut emu = machine(V42, 1, 2);
    let (src, dst) = buffers(&mut emu, 4);
    assert_eq!(
        rule_of(run_on(&mut emu, &serial_copy(4), &[src, dst], 1)),
        V3dRule::ThrswTooClose
    );
}

/// py-videocore6 examples/scopy.py's copy step: `or tmud, r0, r0 ; nop ; ldtmu.r0` stores the
/// word popped before while popping the next.
#[test]
fn a_tmu_data_write_and_ldtmu_share_an_instruction_on_4_2() {
    let copy = |pair: &str| {
        format!(
            "eidx r0 ; nop ; ldunif
            shl r0, r0, 2 ; nop
            add rf2, r5, r0 ; nop ; ldunif
            add rf3, r5, r0 ; nop
            or r3, 8, 8 ; nop
            shl r3, r3, 3 ; nop
            add rf2, rf2, r3 ; mov tmua, rf2
            add rf2, rf2, r3 ; mov tmua, rf2
            nop ; nop ; ldtmu.r0
            {pair}
            add rf3, rf3, r3 ; mov tmua, rf3
            or tmud, r0, r0 ; nop
            add rf3, rf3, r3 ; mov tmua, rf3
            tmuwt ; nop
            {END}"
        )
    };
    let mut emu = machine(V42, 1, 1);
    let (src, dst) = buffers(&mut emu, 2);
    run_on(
        &mut emu,
        &copy("or tmud, r0, r0 ; nop ; ldtmu.r0"),
        &[src, dst],
        1,
    )
    .unwrap();
    assert_eq!(
        emu.memory().read_u32s(dst, 32).unwrap(),
        (0..32).collect::<Vec<u32>>()
    );
    // An SFU write beside ldtmu has no such evidence: still one peripheral too many.
    let mut emu = machine(V42, 1, 1);
    let (src, dst) = buffers(&mut emu, 2);
    let text = copy("or tmud, r0, r0 ; nop\n nop ; mov recip, r3 ; ldtmu.r0");
    assert_eq!(
        rule_of(run_on(&mut emu, &text, &[src, dst], 1)),
        V3dRule::PeripheralConflict
    );
}

/// A divergent loop as Mesa's nir_to_vir.c ends it, `b.anya.msfp` back to the top: lane i
/// counts to i. Every lane of a whole batch was dispatched, so every lane's flag counts.
#[test]
fn mesa_loop_back_edges_with_the_multisample_flag_condition() {
    for (version, unif) in [(V42, "r5"), (V3dVersion::V71, "rf0")] {
        for suffix in ["msfp", "msfq"] {
            let text = format!(
                "eidx rf1 ; nop ; ldunif
                shl rf2, rf1, 2 ; nop
                add rf2, rf2, {unif} ; nop
                xor rf6, rf6, rf6 ; nop
                sub.pushn rf5, rf6, rf1 ; nop
            top:
                add.ifa rf6, rf6, 1 ; nop
                sub.pushn rf5, rf6, rf1 ; nop
                b.anya.{suffix} top
                nop ; nop
                nop ; nop
                nop ; nop
                or tmud, rf6, rf6 ; nop
                or tmua, rf2, rf2 ; nop
                tmuwt ; nop
                {END}"
            );
            let mut emu = machine(version, 1, 1);
            let out = emu.memory_mut().alloc(64, 64).unwrap();
            let report = run_on(&mut emu, &text, &[out], 1).unwrap();
            assert_eq!(
                emu.memory().read_u32s(out, 16).unwrap(),
                (0..16).collect::<Vec<u32>>(),
                "{version:?} {suffix}"
            );
            // 15 trips through the loop for lane 15.
            assert!(report.instructions() > 15 * 6, "{version:?} {suffix}");
            // The flag still decides: undefined in a counted lane, it is an error.
            let broken = text.replace("xor rf6, rf6, rf6 ; nop", "nop ; nop");
            let mut emu = machine(version, 1, 1);
            let out = emu.memory_mut().alloc(64, 64).unwrap();
            let (what, _, _) = super::tests::undefined_use(run_on(&mut emu, &broken, &[out], 1));
            assert_eq!(what, "the flag deciding the branch");
        }
    }
}

/// py-videocore6 tests/test_tmu.py's "naive" vec2/vec3/vec4 writes on a Pi 4: the config
/// goes to `tmuc`, lane i writes `n` words at byte 68·i (the diagonal of a 16×16 array),
/// and word k lands at (i + k) mod 4 within the lane's 16-byte block.
#[test]
fn vector_lookups_wrap_in_their_16_byte_block_on_4_2() {
    for n in 2..=4u32 {
        let mut text = format!(
            "eidx r0 ; nop ; ldunif
            or r1, 8, 8 ; nop
            shl r1, r1, 3 ; nop
            add r1, r1, 4 ; nop
            nop ; umul24 r1, r1, r0
            add rf1, r1, r5 ; nop
            not tmuc, {} ; nop
            ",
            7 - n
        );
        for k in 0..n {
            text.push_str(&format!(
                "eidx r2 ; nop\n add r2, r2, 1 ; nop\n or r3, 8, 8 ; nop\n shl r3, r3, 1 ; nop\n nop ; umul24 r3, r3, {k}\n add tmud, r2, r3 ; nop\n"
            ));
        }
        text.push_str(&format!("or tmua, rf1, rf1 ; nop\n tmuwt ; nop\n{END}"));
        let mut emu = machine(V42, 1, 1);
        let out = emu.memory_mut().alloc(1024, 64).unwrap();
        emu.memory_mut().write_u32s(out, &[0; 256]).unwrap();
        run_on(&mut emu, &text, &[out], 1).unwrap_or_else(|e| panic!("vec{n}: {e}"));
        let mut want = [0u32; 256];
        for i in 0..16u32 {
            for k in 0..n {
                want[(16 * i + 4 * (i / 4) + (i % 4 + k) % 4) as usize] = 1 + 16 * k + i;
            }
        }
        assert_eq!(emu.memory().read_u32s(out, 256).unwrap(), want, "vec{n}");
    }
    // A vector store given fewer data words than its config names stays refused.
    let text = format!(
        "eidx r0 ; nop ; ldunif\n shl r0, r0, 4 ; nop\n add rf1, r0, r5 ; nop\n not tmuc, 3 ; nop\n \
         or tmud, r0, r0 ; nop\n or tmud, r0, r0 ; nop\n or tmua, rf1, rf1 ; nop\n tmuwt ; nop\n{END}"
    );
    let mut emu = machine(V42, 1, 1);
    let out = emu.memory_mut().alloc(1024, 64).unwrap();
    let fault = super::tests::fault_of(run_on(&mut emu, &text, &[out], 1));
    assert!(
        matches!(&fault, V3dFault::Unsupported(m) if m.contains("2 tmud word(s) with a lookup config for 4")),
        "{fault:?}"
    );
}

/// py-videocore6 tests/test_tmu.py `test_tmu_vec_read` (Pi 4): one config uniform,
/// 0xfffafbfc, with the first (`tmuau`) lookup; the next lookups take its next bytes (a
/// vec4, a vec3, a vec2, then plain words), each unaligned by one word and wrapped in its
/// block. Each lane sums what it read (its lane number standing in for words a lookup did
/// not return) over the four lookups.
#[test]
fn one_config_uniform_configures_the_following_lookups_on_4_2() {
    let configs = [4u32, 3, 2, 1];
    let mut text = String::from(
        "nop ; nop ; ldunif
        or rf10, r5, r5 ; nop ; ldunif
        eidx r0 ; nop
        shl r0, r0, 2 ; nop
        add rf11, r5, r0 ; nop
        xor rf12, rf12, rf12 ; nop
        or rf13, 8, 8 ; nop
        shl rf13, rf13, 5 ; nop
        ",
    );
    for (j, &c) in configs.iter().enumerate() {
        text.push_str(&format!(
            "eidx r0 ; nop
            shl r0, r0, 4 ; nop
            add r0, r0, 4 ; nop
            add {}, rf10, r0 ; nop
            nop ; nop ; ldtmu.r0
            ",
            if j == 0 { "tmuau" } else { "tmua" }
        ));
        for (k, r) in ["r1", "r2", "r3"].iter().enumerate() {
            if c as usize > k + 1 {
                text.push_str(&format!("nop ; nop ; ldtmu.{r}\n"));
            } else {
                text.push_str(&format!("eidx {r} ; nop\n"));
            }
        }
        text.push_str(
            "add r0, r0, r1 ; nop
            add r2, r2, r3 ; nop
            add r0, r0, r2 ; nop
            add rf12, rf12, r0 ; nop
            add rf10, rf10, rf13 ; nop
            ",
        );
    }
    // The fifth lookup: the bytes are used up, so a plain 32-bit store.
    text.push_str(&format!(
        "or tmud, rf12, rf12 ; nop\n or tmua, rf11, rf11 ; nop\n tmuwt ; nop\n{END}"
    ));
    let mut emu = machine(V42, 1, 1);
    let src = emu.memory_mut().alloc(1024, 64).unwrap();
    emu.memory_mut()
        .write_u32s(src, &(0..256).collect::<Vec<u32>>())
        .unwrap();
    let dst = emu.memory_mut().alloc(64, 64).unwrap();
    run_on(&mut emu, &text, &[src, dst, 0xfffa_fbfc], 1).unwrap();
    let want: Vec<u32> = (0..16u32)
        .map(|e| {
            configs
                .iter()
                .enumerate()
                .map(|(j, &c)| {
                    let word = |w: u32| 64 * j as u32 + 4 * e + w;
                    (0..c).map(|k| word((k + 1) % 4)).sum::<u32>() + e * (4 - c)
                })
                .sum()
        })
        .collect();
    assert_eq!(emu.memory().read_u32s(dst, 16).unwrap(), want);
    // Given plain configs the same code pops words no lookup returns: refused where it
    // would hang.
    let mut emu = machine(V42, 1, 1);
    let src = emu.memory_mut().alloc(1024, 64).unwrap();
    let dst = emu.memory_mut().alloc(64, 64).unwrap();
    assert_eq!(
        rule_of(run_on(&mut emu, &text, &[src, dst, u32::MAX], 1)),
        V3dRule::LdtmuEmpty
    );
}

/// py-videocore7's `vfmax` encodings (add opcodes 240-244: input a unpacked as two halves,
/// from an f32, low or high half replicated, or swapped), which Mesa's 7.1 tables lack;
/// py-videocore7 tests/test_alu.py checks them against numpy on a Pi 5. Expected values come
/// from the `half` crate.
#[test]
fn seven_one_vfmax_decodes_as_py_videocore7_encodes_it() {
    use half::f16;
    let mut rng = super::tests::Rng(0x5eed_f00d);
    let mut half_value = || loop {
        let h = f16::from_bits(rng.next() as u16);
        if h.is_finite() && h != f16::ZERO && h != f16::NEG_ZERO {
            return h;
        }
    };
    let pack = |lo: f16, hi: f16| u32::from(hi.to_bits()) << 16 | u32::from(lo.to_bits());
    let halves = |w: u32| (f16::from_bits(w as u16), f16::from_bits((w >> 16) as u16));
    for unpack in ["", "ff", "ll", "hh", "swp"] {
        let mut a = [0u32; 16];
        let mut b = [0u32; 16];
        for i in 0..16 {
            a[i] = if unpack == "ff" {
                half_value().to_f32().to_bits()
            } else {
                pack(half_value(), half_value())
            };
            b[i] = pack(half_value(), half_value());
        }
        let suffix = if unpack.is_empty() {
            String::new()
        } else {
            format!(".{unpack}")
        };
        let got = super::tests::run_op(
            V3dVersion::V71,
            &format!("vfmax rf3, rf1{suffix}, rf2 ; nop"),
            &a,
            &b,
        );
        for i in 0..16 {
            let (alo, ahi) = halves(a[i]);
            let (x_lo, x_hi) = match unpack {
                "" => (alo, ahi),
                "ff" => {
                    let h = f16::from_f32(f32::from_bits(a[i]));
                    (h, h)
                }
                "ll" => (alo, alo),
                "hh" => (ahi, ahi),
                _ => (ahi, alo),
            };
            let (blo, bhi) = halves(b[i]);
            let max = |x: f16, y: f16| if x.to_f32() >= y.to_f32() { x } else { y };
            assert_eq!(
                got[i],
                pack(max(x_lo, blo), max(x_hi, bhi)),
                "{unpack} lane {i}: {:#x} {:#x}",
                a[i],
                b[i]
            );
        }
    }
}

/// py-videocore6 and 7 tests/test_branch.py `test_uniform_branch_reg`: a branch that moves
/// the uniform stream to the address in lane 1 of a register (`ub, bdu 3`), here loaded by
/// the TMU from an array whose lane 1 points at the fifth uniform.
#[test]
fn a_branch_repositions_the_uniform_stream_from_a_register() {
    for (version, u) in [(V42, "r5"), (V3dVersion::V71, "rf0")] {
        let text = |reg: &str| {
            format!(
                "nop ; nop ; ldunif
                eidx rf5 ; nop
                shl rf5, rf5, 2 ; nop
                add rf5, rf5, {u} ; nop ; ldunif
                or rf6, {u}, {u} ; nop
                eidx rf7 ; nop
                shl rf7, rf7, 2 ; nop
                add rf6, rf6, rf7 ; nop
                or tmua, rf5, rf5 ; nop
                nop ; nop ; ldtmu.rf2
                b next, ub, bdu 3, raddr_a {reg}
                nop ; nop
                nop ; nop
                nop ; nop
            next:
                nop ; nop ; ldunif
                or tmud, {u}, {u} ; nop
                or tmua, rf6, rf6 ; nop
                tmuwt ; nop
                {END}"
            )
        };
        let mut emu = machine(version, 1, 1);
        let x = emu.memory_mut().alloc(64, 64).unwrap();
        let out = emu.memory_mut().alloc(64, 64).unwrap();
        // Uniforms: x, out, 3, 4, 5, 6; x[1] = the address of the 5.
        let unif = emu.load_uniforms(&[x, out, 3, 4, 5, 6]).unwrap();
        let mut xs = [0u32; 16];
        xs[1] = unif + 16;
        emu.memory_mut().write_u32s(x, &xs).unwrap();
        let program = v3d::assemble(version, &text("2")).unwrap();
        let code = emu.load_instructions(&program).unwrap();
        emu.dispatch(&CsdJob::per_qpu(code, unif, 1)).unwrap();
        assert_eq!(emu.memory().read_u32s(out, 16).unwrap(), vec![5; 16]);
        // From a register nothing wrote: an undefined address, refused at the branch.
        let program = v3d::assemble(version, &text("30")).unwrap();
        let code = emu.load_instructions(&program).unwrap();
        let fault = super::tests::fault_of(emu.dispatch(&CsdJob::per_qpu(code, unif, 1)));
        assert!(
            matches!(
                fault,
                V3dFault::Rule(V3dRule::UndefinedValueUsed { lanes: 2, .. })
            ),
            "{fault:?}"
        );
    }
}

/// py-videocore6 tests/test_parallel.py `test_barrier` (Pi 4), for one workgroup of 8
/// batches on 8 QPUs: batch `id` waits id·16 loop trips, copies x[id] to y[id], meets the
/// others at `barrierid syncb` + `thrsw`, then copies y[(id + 1) mod 8] to z[id]. Without
/// the barrier the early batches would read rows not yet written.
pub(super) fn barrier_program(with_barrier: bool) -> String {
    let barrier = if with_barrier {
        "barrierid syncb ; nop ; thrsw"
    } else {
        "nop ; nop"
    };
    format!(
        "nop ; nop ; ldunif
        or rf10, r5, r5 ; nop ; ldunif
        or rf11, r5, r5 ; nop ; ldunif
        or rf12, r5, r5 ; nop
        tidx rf1 ; nop
        shr rf1, rf1, 2 ; nop
        and rf1, rf1, 15 ; nop
        shl rf2, rf1, 4 ; nop
        add rf2, rf2, 1 ; nop
    delay:
        sub.pushz rf2, rf2, 1 ; nop
        b.anyna delay
        nop ; nop
        nop ; nop
        nop ; nop
        eidx rf3 ; nop
        shl rf3, rf3, 2 ; nop
        shl rf4, rf1, 6 ; nop
        add rf4, rf4, rf3 ; nop
        add rf5, rf10, rf4 ; nop
        add rf6, rf11, rf4 ; nop
        add rf12, rf12, rf4 ; nop
        or tmua, rf5, rf5 ; nop
        nop ; nop ; ldtmu.rf7
        or tmud, rf7, rf7 ; nop
        or tmua, rf6, rf6 ; nop
        tmuwt ; nop
        {barrier}
        nop ; nop
        nop ; nop
        add rf8, rf1, 1 ; nop
        and rf8, rf8, 7 ; nop
        shl rf8, rf8, 6 ; nop
        add rf8, rf8, rf3 ; nop
        add rf8, rf11, rf8 ; nop
        or tmua, rf8, rf8 ; nop
        nop ; nop ; ldtmu.rf9
        or tmud, rf9, rf9 ; nop
        or tmua, rf12, rf12 ; nop
        tmuwt ; nop
        {END}"
    )
}

#[test]
fn a_workgroup_barrier_waits_for_every_batch_of_the_workgroup() {
    let run = |with_barrier: bool, batches: u32| {
        let mut emu = machine(V42, 8, 1);
        let mem = emu.memory_mut();
        let (x, y, z) = (
            mem.alloc(512, 64).unwrap(),
            mem.alloc(512, 64).unwrap(),
            mem.alloc(512, 64).unwrap(),
        );
        let xs: Vec<u32> = (0..128).map(|i| 1000 + i).collect();
        mem.write_u32s(x, &xs).unwrap();
        let program = v3d::assemble(V42, &barrier_program(with_barrier)).unwrap();
        let code = emu.load_instructions(&program).unwrap();
        let unif = emu.load_uniforms(&[x, y, z]).unwrap();
        let job = CsdJob {
            code,
            uniforms: unif,
            workgroups: [1, 1, 1],
            workgroup_size: 16 * batches,
            single_segment: false,
        };
        let result = emu.dispatch(&job);
        (result, emu.memory().read_u32s(z, 128).unwrap(), xs)
    };
    let (result, z, xs) = run(true, 8);
    result.unwrap();
    let mut want = xs.clone();
    want.rotate_left(16);
    assert_eq!(z, want);
    // Without the barrier the first batches read rows the others have not written yet.
    let (result, z, _) = run(false, 8);
    assert!(result.is_err() || z != want);
    // A workgroup of 16 batches cannot all be resident on 8 one-thread QPUs: the eight
    // that arrive would wait forever.
    let (result, _, _) = run(true, 16);
    match result {
        Err(EmuError::V3dFault {
            fault: V3dFault::Rule(V3dRule::BarrierNeverCompletes { arrived, batches }),
            ..
        }) => assert_eq!((arrived, batches), (8, 16)),
        other => panic!("{other:?}"),
    }
}

/// py-videocore7 tests/test_tmu.py's atomics (Pi 5): the op in a `tmuc` config (0x87 add,
/// 0x9f cmpxchg), the operand through `tmudref` (cmpxchg: compared value there, the value
/// stored through `tmuoff`), the old word back through `ldtmu`.
#[test]
fn seven_one_atomics_through_tmudref_and_tmuoff() {
    let text = |config: u32, data: &str| {
        format!(
            "nop ; nop ; ldunifrf.rf11
            eidx rf1 ; nop
            shl rf1, rf1, 2 ; nop
            add rf11, rf11, rf1 ; nop
            nop ; nop ; ldunifrf.rf16
            mov tmuc, rf16 ; nop
            {data}
            mov tmua, rf11 ; nop ; thrsw
            nop ; nop
            nop ; nop
            nop ; nop ; ldtmu.rf12
            mov rf2, 4 ; nop
            shl rf2, rf2, 4 ; nop
            add rf11, rf11, rf2 ; nop
            mov tmud, rf12 ; nop
            mov tmua, rf11 ; nop
            tmuwt ; nop
            {END}
            # config {config:#x}"
        )
    };
    let run = |config: u32, data: &str, initial: [u32; 16]| {
        let mut emu = machine(V3dVersion::V71, 1, 1);
        let buf = emu.memory_mut().alloc(128, 64).unwrap();
        emu.memory_mut().write_u32s(buf, &initial).unwrap();
        run_on(&mut emu, &text(config, data), &[buf, config], 1).unwrap();
        let words = emu.memory().read_u32s(buf, 32).unwrap();
        (words[..16].to_vec(), words[16..].to_vec())
    };
    let initial: [u32; 16] = std::array::from_fn(|i| 100 + 3 * i as u32);
    // add of lane + 5 (eidx + 5 in rf3).
    let (memory, old) = run(
        0xffff_ff87,
        "eidx rf3 ; nop\n add rf3, rf3, 5 ; nop\n mov tmudref, rf3 ; nop",
        initial,
    );
    assert_eq!(old, initial.to_vec());
    let want: Vec<u32> = (0..16).map(|i| initial[i] + i as u32 + 5).collect();
    assert_eq!(memory, want);
    // cmpxchg: compare with 100 + 3i in even lanes (matches) and 0 in odd ones.
    let (memory, old) = run(
        0xffff_ff9f,
        "eidx rf3 ; nop
        and rf4, rf3, 1 ; nop
        shl rf5, rf3, 1 ; nop
        add rf5, rf5, rf3 ; nop
        mov rf6, 10 ; nop
        shl rf6, rf6, 3 ; nop
        add rf6, rf6, 10 ; nop
        add rf6, rf6, 10 ; nop
        add rf5, rf5, rf6 ; nop
        sub.pushz rf4, rf4, 0 ; nop
        xor rf7, rf7, rf7 ; nop
        mov.ifa rf7, rf5 ; nop
        mov tmudref, rf7 ; nop
        mov tmuoff, -1 ; nop",
        initial,
    );
    assert_eq!(old, initial.to_vec());
    let want: Vec<u32> = (0..16)
        .map(|i| if i % 2 == 0 { u32::MAX } else { initial[i] })
        .collect();
    assert_eq!(memory, want);
    // An add with two operand words is no atomic any source describes: refused.
    let mut emu = machine(V3dVersion::V71, 1, 1);
    let buf = emu.memory_mut().alloc(128, 64).unwrap();
    let two = "eidx rf3 ; nop\n mov tmudref, rf3 ; nop\n mov tmuoff, rf3 ; nop";
    let fault = super::tests::fault_of(run_on(
        &mut emu,
        &text(0xffff_ff87, two),
        &[buf, 0xffff_ff87],
        1,
    ));
    assert!(matches!(fault, V3dFault::Unsupported(_)), "{fault:?}");
}

/// 7.1's `shuffle`, `quad_rotate` and `flpop` on random data against scalar Rust (see the
/// machine's comments for the evidence behind each reading).
#[test]
fn seven_one_shuffle_quad_rotate_and_flpop() {
    let mut rng = super::tests::Rng(0xabcd_1234);
    let a: [u32; 16] = std::array::from_fn(|_| rng.next() as u32);
    let idx: [u32; 16] = std::array::from_fn(|_| rng.next() as u32 % 16);
    let v71 = V3dVersion::V71;
    let got = super::tests::run_op(v71, "shuffle rf3, rf1, rf2 ; nop", &a, &idx);
    assert_eq!(got, std::array::from_fn(|i| a[idx[i] as usize]));
    for n in 1..4usize {
        let got = super::tests::run_op(v71, &format!("quad_rotate rf3, rf1, {n} ; nop"), &a, &idx);
        assert_eq!(
            got,
            std::array::from_fn(|i| a[(i & !3) + (i + n) % 4]),
            "by {n}"
        );
    }
    let got = super::tests::run_op(v71, "flpop rf3, rf1 ; nop", &a, &idx);
    assert_eq!(got, a.map(|x| x >> 2));
    // What flpop leaves in the flags is unknown: a condition on them is an error where it
    // decides something.
    let text = "eidx rf1 ; nop\n flpop rf2, rf1 ; nop\n b.anya there\n nop ; nop\n nop ; nop\n nop ; nop\n there:";
    let mut emu = machine(v71, 1, 1);
    let (what, _, origin) =
        super::tests::undefined_use(run_on(&mut emu, &format!("{text}\n{END}"), &[], 1));
    assert_eq!(what, "the flag deciding the branch");
    assert!(origin.contains("flpop"), "{origin}");
}

/// How batches land on QPUs: one per QPU first (py-videocore6 tests/test_parallel.py on a
/// Pi 4: with fewer batches than thread slots the ids (tidx & 0b111110) >> 1 "could be
/// discontiguous"; with 16 batches on 8 two-thread QPUs they are 0..16 once each).
#[test]
fn batches_go_one_per_qpu_before_a_qpu_gets_a_second() {
    // Batch b stores tidx into word b (its workgroup id, X only here: payload0, rf0 on 4.2).
    let text = format!(
        "nop ; nop ; ldunif
        shl rf3, rf0, 2 ; nop
        add rf3, rf3, r5 ; nop
        tidx rf4 ; nop
        or tmud, rf4, rf4 ; nop
        or tmua, rf3, rf3 ; nop
        tmuwt ; nop
        {END}"
    );
    for batches in [8u32, 16] {
        let mut emu = machine(V42, 8, 2);
        let out = emu.memory_mut().alloc(64, 64).unwrap();
        run_on(&mut emu, &text, &[out], batches).unwrap();
        let tidx = emu.memory().read_u32s(out, batches).unwrap();
        let ids: Vec<u32> = tidx.iter().map(|t| (t & 0b11_1110) >> 1).collect();
        let qpus: Vec<u32> = tidx.iter().map(|t| (t >> 2) & 15).collect();
        if batches == 8 {
            // Each on its own QPU, in the first slot: even ids, not 0..8.
            assert_eq!(qpus, (0..8).collect::<Vec<u32>>());
            assert_eq!(ids, (0..8).map(|q| 2 * q).collect::<Vec<u32>>());
        } else {
            let mut sorted = ids.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..16).collect::<Vec<u32>>(), "{ids:?}");
        }
    }
}

/// `tmuwt` with a destination (Mesa always gives it one): the value is undefined, harmless
/// unused and an error where stored.
#[test]
fn tmuwt_writes_an_undefined_value() {
    for (version, u) in [(V42, "r5"), (V3dVersion::V71, "rf0")] {
        let text = |store: &str| {
            format!(
                "eidx rf1 ; nop ; ldunif
                shl rf1, rf1, 2 ; nop
                add rf1, rf1, {u} ; nop
                or tmud, rf1, rf1 ; nop
                or tmua, rf1, rf1 ; nop
                tmuwt rf2 ; nop
                or tmud, {store}, {store} ; nop
                or tmua, rf1, rf1 ; nop
                tmuwt ; nop
                {END}"
            )
        };
        let mut emu = machine(version, 1, 1);
        let out = emu.memory_mut().alloc(64, 64).unwrap();
        run_on(&mut emu, &text("rf1"), &[out], 1).unwrap();
        let (what, _, origin) =
            super::tests::undefined_use(run_on(&mut emu, &text("rf2"), &[out], 1));
        assert_eq!(what, "the value stored");
        assert!(origin.contains("tmuwt"), "{origin}");
    }
}

/// A compute shader in the shape Mesa's v3d compiler gives one (nir_to_vir.c), run as Mesa
/// launches it with four threads per QPU: uniforms into registers with `ldunifrf`, TMU loads
/// hidden behind a `thrsw` while a flag pushed before the switch is used after it (flags
/// survive switches from 4.2 on), a divergent loop whose back edge is `b.anyna.msfp`, a
/// `tmuwt` with a destination, then the end sequence. Each of four batches computes 16
/// GCDs by subtraction, plus 15 in the lanes the early flag marks.
#[test]
fn a_mesa_shaped_compute_shader_on_four_threads() {
    let text = format!(
        "nop ; nop ; ldunifrf.rf10
        nop ; nop ; ldunifrf.rf11
        nop ; nop ; ldunifrf.rf12
        eidx rf1 ; nop
        shl rf2, rf1, 2 ; nop
        shl rf3, rf0, 6 ; nop
        add rf2, rf2, rf3 ; nop
        add rf10, rf10, rf2 ; nop
        add rf11, rf11, rf2 ; nop
        add rf12, rf12, rf2 ; nop
        sub.pushn rf9, rf1, 8 ; nop
        or tmua, rf10, rf10 ; nop
        or tmua, rf11, rf11 ; nop ; thrsw
        nop ; nop
        nop ; nop
        nop ; nop ; ldtmu.rf4
        nop ; nop ; ldtmu.rf5
        xor rf6, rf6, rf6 ; nop
        or.ifa rf6, 15, 15 ; nop
    top:
        min.pushc rf9, rf4, rf5 ; nop
        sub.ifa rf4, rf4, rf5 ; nop
        min.pushc rf9, rf5, rf4 ; nop
        sub.ifa rf5, rf5, rf4 ; nop
        xor.pushz rf9, rf4, rf5 ; nop
        b.anyna.msfp top
        nop ; nop
        nop ; nop
        nop ; nop
        add rf4, rf4, rf6 ; nop
        or tmud, rf4, rf4 ; nop
        or tmua, rf12, rf12 ; nop
        tmuwt rf7 ; nop
        {END}"
    );
    let mut rng = super::tests::Rng(0x6cd);
    let a: Vec<u32> = (0..64).map(|_| 1 + rng.next() as u32 % 999).collect();
    let b: Vec<u32> = (0..64).map(|_| 1 + rng.next() as u32 % 999).collect();
    let gcd = |mut x: u32, mut y: u32| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    let mut emu = machine(V42, 1, 4);
    let mem = emu.memory_mut();
    let (pa, pb, out) = (
        mem.alloc(256, 64).unwrap(),
        mem.alloc(256, 64).unwrap(),
        mem.alloc(256, 64).unwrap(),
    );
    mem.write_u32s(pa, &a).unwrap();
    mem.write_u32s(pb, &b).unwrap();
    let report = run_on(&mut emu, &text, &[pa, pb, out], 4).unwrap();
    assert_eq!(report.qpus[0].batches, 4);
    let want: Vec<u32> = (0..64)
        .map(|i| gcd(a[i], b[i]) + if i % 16 < 8 { 15 } else { 0 })
        .collect();
    assert_eq!(emu.memory().read_u32s(out, 64).unwrap(), want);
}

/// py-videocore6 and 7 tests/test_tmu.py `test_tmu_read_tmu_write_uniform_read` (Pi 4, Pi 5):
/// a TMU write of 2 over 1, `tmuwt`, the uniform stream pointed at the word (`ub` from a
/// register), a uniform read: the uniform stream still sees 1, so the stored sum is 2 ("!?
/// not 3 ?" in the test), while a TMU read of the word sees 2.
#[test]
fn the_uniform_stream_does_not_see_the_dispatchs_tmu_writes() {
    for version in [V42, V3dVersion::V71] {
        // Then the word is read back through the TMU into a third array.
        let text = format!(
            "eidx rf10 ; nop ; ldunifrf.rf0
            shl rf10, rf10, 2 ; nop
            add rf0, rf0, rf10 ; nop ; ldunifrf.rf1
            add rf1, rf1, rf10 ; nop ; ldunifrf.rf2
            add rf2, rf2, rf10 ; nop
            or tmua, rf0, rf0 ; nop ; thrsw
            nop ; nop
            nop ; nop
            nop ; nop ; ldtmu.rf10
            add tmud, rf10, 1 ; nop
            or tmua, rf0, rf0 ; nop
            tmuwt ; nop
            b set, ub, bdu 3, raddr_a 0
            nop ; nop
            nop ; nop
            nop ; nop
        set:
            nop ; nop ; ldunifrf.rf10
            add tmud, rf10, 1 ; nop
            or tmua, rf1, rf1 ; nop
            tmuwt ; nop
            or tmua, rf0, rf0 ; nop
            nop ; nop ; ldtmu.rf11
            or tmud, rf11, rf11 ; nop
            or tmua, rf2, rf2 ; nop
            tmuwt ; nop
            {END}"
        );
        let mut emu = machine(version, 1, 1);
        let mem = emu.memory_mut();
        let (data, result, reread) = (
            mem.alloc(64, 64).unwrap(),
            mem.alloc(64, 64).unwrap(),
            mem.alloc(64, 64).unwrap(),
        );
        mem.write_u32s(data, &[1; 16]).unwrap();
        run_on(&mut emu, &text, &[data, result, reread], 1)
            .unwrap_or_else(|e| panic!("{version:?}: {e}"));
        assert_eq!(emu.memory().read_u32s(data, 16).unwrap(), vec![2; 16]);
        assert_eq!(emu.memory().read_u32s(result, 16).unwrap(), vec![2; 16]);
        assert_eq!(emu.memory().read_u32s(reread, 16).unwrap(), vec![2; 16]);
    }
}

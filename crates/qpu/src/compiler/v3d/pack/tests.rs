//! Unit tests of the packer: which pairs merge, and the rules a packed block keeps.

use super::*;

fn alu(version: V3dVersion, line: &str) -> AluInstruction {
    match v3d::assemble(version, line).expect("test line assembles")[..] {
        [Instruction::Alu(a)] => a,
        _ => panic!("not one ALU instruction: {line}"),
    }
}

fn slots(version: V3dVersion, line: &str) -> Slots {
    Slots::of(&alu(version, line)).expect("decodes")
}

fn merged(version: V3dVersion, a: &str, b: &str) -> Option<String> {
    let m = merge(version, &slots(version, a), &slots(version, b))?;
    let ins = m.encode(version)?;
    Some(v3d::disasm::instruction(version, &Instruction::Alu(ins)))
}

const V42: V3dVersion = V3dVersion::V42;
const V71: V3dVersion = V3dVersion::V71;

#[test]
fn an_add_op_and_a_mul_op_share_two_read_ports_on_4_2() {
    let m = merged(V42, "add rf10, rf1, rf2 ; nop", "nop ; mov rf11, rf1").unwrap();
    assert_eq!(m, "add rf10, rf1, rf2 ; mov rf11, rf1");
    // A third register needs a third port.
    assert_eq!(
        merged(V42, "add rf10, rf1, rf2 ; nop", "nop ; mov rf11, rf3"),
        None
    );
    // A small immediate takes port B: one register beside it.
    assert!(merged(V42, "add rf10, rf1, 1 ; nop", "nop ; mov rf11, rf1").is_some());
    assert_eq!(
        merged(V42, "add rf10, rf1, 1 ; nop", "nop ; mov rf11, rf2"),
        None
    );
    // Two different small immediates never share an instruction; the same one does.
    assert_eq!(
        merged(V42, "add rf10, rf1, 1 ; nop", "nop ; mov rf11, 2"),
        None
    );
    assert!(merged(V42, "add rf10, rf1, 1 ; nop", "nop ; mov rf11, 1").is_some());
    // Accumulators cost no port.
    assert!(merged(V42, "add rf10, rf1, rf2 ; nop", "nop ; fmul rf11, r0, r1").is_some());
}

#[test]
fn on_7_1_every_input_has_its_own_address_but_one_small_immediate() {
    assert!(merged(V71, "add rf10, rf1, rf2 ; nop", "nop ; fmul rf11, rf3, rf4").is_some());
    assert_eq!(
        merged(V71, "add rf10, rf1, 1 ; nop", "nop ; mov rf11, 2"),
        None
    );
    assert_eq!(
        merged(V71, "add rf10, rf1, 1 ; nop", "nop ; mov rf11, 1"),
        None
    );
    assert!(merged(V71, "add rf10, rf1, 1 ; nop", "nop ; mov rf11, rf2").is_some());
}

#[test]
fn add_and_sub_move_to_the_mul_alu_and_mov_to_the_add_alu() {
    let m = merged(V42, "shl rf10, rf1, rf2 ; nop", "sub rf11, rf2, rf1 ; nop").unwrap();
    assert_eq!(m, "shl rf10, rf1, rf2 ; sub rf11, rf2, rf1");
    assert_eq!(
        merged(V42, "shl rf10, rf1, rf2 ; nop", "shr rf11, rf2, rf1 ; nop"),
        None
    );
    // A flag push stays on its ALU.
    assert_eq!(
        merged(
            V42,
            "shl rf10, rf1, rf2 ; nop",
            "sub.pushz rf11, rf2, rf1 ; nop"
        ),
        None
    );
    let m = merged(V42, "nop ; mov rf10, rf1", "nop ; mov rf11, rf2").unwrap();
    assert_eq!(m, "or rf11, rf2, rf2 ; mov rf10, rf1");
    let m = merged(V71, "nop ; mov rf10, rf1", "nop ; mov rf11, rf2").unwrap();
    assert_eq!(m, "mov rf11, rf2 ; mov rf10, rf1");
    assert_eq!(
        merged(
            V42,
            "nop ; umul24 rf10, rf1, rf2",
            "nop ; fmul rf11, rf1, rf2"
        ),
        None
    );
}

#[test]
fn signals_ride_on_alu_instructions_within_the_cond_field() {
    let m = merged(V42, "add rf10, rf1, rf2 ; nop", "nop ; nop ; ldunifrf.rf12").unwrap();
    assert_eq!(m, "add rf10, rf1, rf2 ; nop ; ldunifrf.rf12");
    assert!(merged(V71, "nop ; mov rf10, rf1", "nop ; nop ; ldtmu.rf12").is_some());
    // The signal's address fills the cond field: no flags beside it, one such signal.
    assert_eq!(
        merged(
            V42,
            "add.pushz rf10, rf1, rf2 ; nop",
            "nop ; nop ; ldunifrf.rf12"
        ),
        None
    );
    assert_eq!(
        merged(V42, "nop ; mov.ifa rf10, rf1", "nop ; nop ; ldtmu.rf12"),
        None
    );
    assert_eq!(
        merged(V42, "nop ; nop ; ldtmu.rf11", "nop ; nop ; ldunifrf.rf12"),
        None
    );
}

#[test]
fn flags_of_both_alus_combine_where_the_cond_field_allows() {
    assert!(merged(
        V42,
        "add.ifa rf10, rf1, rf2 ; nop",
        "nop ; mov.ifa rf11, rf1"
    )
    .is_some());
    assert!(merged(
        V42,
        "min.pushc nop, rf1, rf2 ; nop",
        "nop ; mov.ifa rf11, rf1"
    )
    .is_some());
    // One flag push per instruction.
    assert_eq!(
        merged(
            V42,
            "add.pushz rf10, rf1, rf2 ; nop",
            "nop ; fmul.pushn rf11, rf1, rf2"
        ),
        None
    );
    // 4.2 has no signal code for ldunifrf beside a small immediate.
    assert_eq!(
        merged(V42, "shl rf10, rf1, 2 ; nop", "nop ; nop ; ldunifrf.rf12"),
        None
    );
}

fn packed(version: V3dVersion, text: &str) -> Vec<String> {
    let instrs = v3d::assemble(version, text).expect("test program assembles");
    let locs = vec![None; instrs.len()];
    let how = Packing {
        version,
        fifo: 16,
        facts: &Facts::V3D,
        dual_issue: true,
    };
    let (out, out_locs) = pack(&how, &instrs, &locs);
    assert_eq!(out.len(), out_locs.len());
    out.iter()
        .map(|i| v3d::disasm::instruction(version, i))
        .collect()
}

fn position(lines: &[String], needle: &str) -> usize {
    lines
        .iter()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} not in {lines:#?}"))
}

#[test]
fn an_sfu_result_is_read_two_instructions_later_and_independent_work_fills_the_gap() {
    for version in V3dVersion::ALL {
        let lines = packed(
            version,
            "recip rf10, rf5 ; nop
             nop ; nop
             nop ; nop
             add rf11, rf10, rf10 ; nop
             add rf12, rf6, rf7 ; nop
             add rf13, rf6, rf7 ; nop",
        );
        let recip = position(&lines, "recip");
        let use_ = position(&lines, "rf11");
        assert!(use_ >= recip + 2, "{lines:#?}");
        assert!(lines.len() < 6, "{lines:#?}");
    }
}

#[test]
fn uniform_reads_keep_their_order() {
    let lines = packed(
        V42,
        "nop ; nop ; ldunifrf.rf4
         nop ; nop ; ldunifrf.rf5
         eidx rf6 ; nop
         nop ; nop ; ldunifrf.rf7
         add rf8, rf6, rf6 ; nop",
    );
    let order: Vec<usize> = ["rf4", "rf5", "rf7"]
        .iter()
        .map(|r| position(&lines, &format!("ldunifrf.{r}")))
        .collect();
    assert!(order[0] < order[1] && order[1] < order[2], "{lines:#?}");
    assert_eq!(lines.len(), 3, "{lines:#?}");
}

#[test]
fn ldunifa_waits_three_instructions_after_the_unifa_write() {
    let lines = packed(
        V71,
        "nop ; mov unifa, rf5
         nop ; nop
         nop ; nop
         nop ; nop
         nop ; nop ; ldunifarf.rf6
         add rf7, rf8, rf9 ; nop",
    );
    assert!(position(&lines, "ldunifarf") >= position(&lines, "unifa") + 4);
}

#[test]
fn a_branch_moves_up_over_independent_work_into_its_delay_slots() {
    let lines = packed(
        V42,
        "sub.pushz rf10, rf10, 1 ; nop
         add rf11, rf12, rf13 ; nop
         add rf14, rf12, rf13 ; nop
         b.anyna L1
         nop ; nop
         nop ; nop
         nop ; nop
         add rf15, rf12, rf13 ; nop
         L1:
         add rf16, rf12, rf13 ; nop
         nop ; nop ; thrsw
         nop ; nop ; thrsw
         nop ; nop
         nop ; nop
         nop ; nop ; thrsw
         nop ; nop
         nop ; nop",
    );
    let branch = position(&lines, "b.anyna");
    // The flag push stays before the branch; the adds run in its slots.
    assert!(position(&lines, "pushz") < branch);
    assert!(lines[branch + 1].contains("add"), "{lines:#?}");
    // The target is still the instruction with rf16.
    let Instruction::Branch(b) = v3d::assemble(V42, &lines.join("\n")).unwrap()[branch] else {
        panic!("not a branch")
    };
    let target = (branch as i64 + 4 + i64::from(b.offset as i32) / 8) as usize;
    assert!(lines[target].contains("rf16"), "{lines:#?}");
}

#[test]
fn tmu_requests_and_results_keep_their_order_and_peripherals_stay_apart() {
    let lines = packed(
        V42,
        "add tmua, rf4, rf5 ; nop
         nop ; nop ; ldtmu.rf6
         add tmua, rf4, rf7 ; nop
         nop ; nop ; ldtmu.rf8
         add rf9, rf6, rf8 ; nop",
    );
    let first = position(&lines, "ldtmu.rf6");
    let second = position(&lines, "ldtmu.rf8");
    assert!(first < second);
    for l in &lines {
        assert!(!(l.contains("tmua") && l.contains("ldtmu")), "{lines:#?}");
    }
    // The second load is issued before the first result is read.
    assert!(lines.iter().filter(|l| l.contains("tmua")).count() == 2);
    assert!(lines[1].contains("tmua"), "{lines:#?}");
}

#[test]
fn a_rotation_takes_an_add_op_that_leaves_port_b_to_its_amount() {
    let m = merged(
        V42,
        "nop ; mov rf10, r0 ; rot.1",
        "or rf11, rf12, rf12 ; nop",
    )
    .unwrap();
    assert_eq!(m, "or rf11, rf12, rf12 ; mov rf10, r0 ; rot.1");
    // A mov beside it moves to the add ALU; the rotated mov stays on the mul ALU.
    assert!(merged(V42, "nop ; mov rf10, r0 ; rot.1", "nop ; mov r0, rf12").is_some());
    // Two registers or a small immediate would need port B.
    assert_eq!(
        merged(
            V42,
            "nop ; mov rf10, r0 ; rot.1",
            "add rf11, rf12, rf13 ; nop"
        ),
        None
    );
    assert_eq!(
        merged(V42, "nop ; mov rf10, r0 ; rot.1", "add rf11, rf12, 1 ; nop"),
        None
    );
    // 7.1: no mul write to a TMU register beside a rotate.
    assert!(merged(V71, "rotate rf10, rf11, 3 ; nop", "nop ; mov rf12, rf13").is_some());
    assert_eq!(
        merged(V71, "rotate rf10, rf11, 3 ; nop", "nop ; mov tmud, rf13"),
        None
    );
}

const END: &str = "
    nop ; nop ; thrsw
    nop ; nop ; thrsw
    nop ; nop
    nop ; nop
    nop ; nop ; thrsw
    nop ; nop
    nop ; nop";

#[test]
fn the_last_thread_switch_pair_rides_on_the_last_instructions() {
    let lines = packed(
        V42,
        &format!("add rf10, rf1, rf2 ; nop\nshl rf11, rf10, rf3 ; nop\ntmuwt ; nop{END}"),
    );
    let thrsw: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("thrsw"))
        .collect();
    // The pair on the last two instructions, the final thrsw three after the first, two
    // slots.
    assert_eq!(thrsw.len(), 3, "{lines:#?}");
    assert_eq!(thrsw[1], thrsw[0] + 1);
    assert_eq!(thrsw[2], thrsw[0] + 3, "{lines:#?}");
    assert_eq!(lines.len(), thrsw[2] + 3, "{lines:#?}");
    assert_eq!(thrsw[0], 0, "{lines:#?}");
    // 4.2 has no signal code for thrsw beside a small immediate.
    let lines = packed(V42, &format!("shl rf11, rf10, 2 ; nop{END}"));
    assert_eq!(lines[0], "shl rf11, rf10, 2 ; nop");
    assert_eq!(lines[1], "nop ; nop ; thrsw");
    // Not when a branch jumps to the end: it would skip the folded thrsw.
    let lines = packed(
        V42,
        &format!(
            "sub.pushz rf10, rf10, 1 ; nop\nb.anyna E\nnop ; nop\nnop ; nop\nnop ; nop\n\
             add rf11, rf1, rf2 ; nop\nE:{END}"
        ),
    );
    assert!(lines[lines.len() - 7].ends_with("; thrsw"), "{lines:#?}");
}

#[test]
fn a_flag_push_repeated_on_unchanged_inputs_is_dropped() {
    let text = "xor.pushz nop, rf38, 0 ; nop
         nop ; mov.ifa rf24, rf25
         xor.pushz nop, rf38, 0 ; nop
         nop ; mov.ifa rf26, rf27";
    let lines = packed(V71, text);
    assert_eq!(
        lines.iter().filter(|l| l.contains("pushz")).count(),
        1,
        "{lines:#?}"
    );
    // Not when an input changed in between, nor when flag B is read anywhere.
    let lines = packed(
        V71,
        "xor.pushz nop, rf38, 0 ; nop
         add rf38, rf38, 1 ; nop
         xor.pushz nop, rf38, 0 ; nop
         nop ; mov.ifa rf26, rf27",
    );
    assert_eq!(
        lines.iter().filter(|l| l.contains("pushz")).count(),
        2,
        "{lines:#?}"
    );
    let lines = packed(V71, &format!("{text}\nnop ; mov.ifb rf28, rf29"));
    assert_eq!(
        lines.iter().filter(|l| l.contains("pushz")).count(),
        2,
        "{lines:#?}"
    );
}

/// `tmu_state` of an assembled program, with branch targets found as `pack_blocks` does.
fn tmu_counts(text: &str, fifo: u32) -> Vec<u32> {
    let instrs = v3d::assemble(V42, text).expect("test program assembles");
    let mut targets = HashMap::default();
    for (i, ins) in instrs.iter().enumerate() {
        if let Instruction::Branch(b) = ins {
            targets.insert(i, (i as i64 + 4 + i64::from(b.offset as i32) / 8) as usize);
        }
    }
    tmu_state(&instrs, &targets, fifo).0
}

#[test]
fn tmu_results_outstanding_are_the_most_on_any_path() {
    // The request at 11 is made only when the branch at 2 is taken, and that path comes
    // back to 6 (a program-order count would see one result waiting there): one or two
    // results wait at 6, and the packer must assume two.
    let counts = tmu_counts(
        "add tmua, rf4, rf5 ; nop
         sub.pushz rf10, rf10, 1 ; nop
         b.anyna L1
         nop ; nop
         nop ; nop
         nop ; nop
         L2:
         nop ; nop ; ldtmu.rf8
         b L3
         nop ; nop
         nop ; nop
         nop ; nop
         L1:
         add tmua, rf4, rf7 ; nop
         b L2
         nop ; nop
         nop ; nop
         nop ; nop
         L3:
         nop ; nop",
        16,
    );
    assert_eq!(counts[..8], [0, 1, 1, 1, 1, 1, 2, 1]);
    assert_eq!(counts[11..], [1, 2, 2, 2, 2, 1, 1]);
    // A loop that leaves one more request waiting each time round settles at the FIFO's
    // size instead of counting forever; an unconditional branch does not fall through.
    let counts = tmu_counts(
        "L0:
         add tmua, rf4, rf5 ; nop
         sub.pushz rf10, rf10, 1 ; nop
         b.anyna L0
         nop ; nop
         nop ; nop
         nop ; nop
         b L2
         nop ; nop
         nop ; nop
         nop ; nop
         add tmua, rf4, rf5 ; nop
         L2:
         nop ; nop",
        4,
    );
    assert_eq!(counts[0], 4);
    assert_eq!(counts[6], 4);
    assert_eq!(counts[10], 0, "never reached");
    assert_eq!(counts[11], 4);
}

#[test]
fn a_result_requested_before_the_block_is_read_before_a_longer_chain_of_uniform_reads() {
    for version in V3dVersion::ALL {
        let lines = packed(
            version,
            "and tmua, rf1, -4 ; nop
             L1:
             nop ; nop ; ldunifarf.rf20
             nop ; nop ; ldunifarf.rf21
             nop ; nop ; ldunifarf.rf22
             nop ; nop ; ldunifarf.rf23
             nop ; nop ; ldunifarf.rf24
             nop ; nop ; ldunifarf.rf25
             nop ; nop ; ldtmu.rf10
             nop ; fmul rf11, rf10, rf20
             and tmua, rf1, -4 ; nop
             b.anya L1
             nop ; nop
             nop ; nop
             nop ; nop",
        );
        // In the loop's block, both are signals with a destination: one per instruction.
        // The result requested before the block (the previous iteration's) goes first.
        let ldtmu = position(&lines, "ldtmu");
        let first_uniform = position(&lines, "ldunifarf");
        assert!(ldtmu < first_uniform, "{version:?} {lines:#?}");
    }
}

/// The branch's output position and the line its (relative) target is at.
fn branch_and_target(version: V3dVersion, lines: &[String]) -> (usize, usize) {
    let branch = position(lines, "b.any");
    let Instruction::Branch(b) = v3d::assemble(version, &lines.join("\n")).unwrap()[branch] else {
        panic!("not a branch")
    };
    let target = (branch as i64 + 4 + i64::from(b.offset as i32) / 8) as usize;
    (branch, target)
}

#[test]
fn a_loops_empty_delay_slots_take_copies_of_its_first_instructions() {
    // A chain: nothing of the body can move into the slots.
    let body = |after: &str| {
        format!(
            "L0:
             add rf11, rf10, 3 ; nop
             sub.pushz rf10, rf11, 4 ; nop
             b.anyna L0
             nop ; nop
             nop ; nop
             nop ; nop
             {after}{END}"
        )
    };
    for version in [V42, V71] {
        // rf11 is dead after the loop: the copy runs in the first slot (once more on exit,
        // harmlessly), and the branch goes to the instruction after the original.
        let lines = packed(version, &body("add rf20, rf10, rf10 ; nop\n"));
        let (branch, target) = branch_and_target(version, &lines);
        assert_eq!(lines[branch + 1], "add rf11, rf10, 3 ; nop", "{lines:#?}");
        assert_eq!(lines[branch + 2], "nop ; nop", "{lines:#?}");
        assert!(lines[target].starts_with("sub.pushz"), "{lines:#?}");
        assert_eq!(lines[target - 1], "add rf11, rf10, 3 ; nop", "{lines:#?}");
        // rf11 read after the loop: the extra run on exit would change it, so no copy.
        let lines = packed(version, &body("add rf20, rf11, rf10 ; nop\n"));
        let (branch, target) = branch_and_target(version, &lines);
        assert_eq!(lines[branch + 1], "nop ; nop", "{lines:#?}");
        assert!(lines[target].starts_with("add rf11"), "{lines:#?}");
        // A uniform read at the top must run once per iteration: no copy either.
        let lines = packed(
            version,
            &format!(
                "L0:
                 nop ; nop ; ldunifrf.rf11
                 sub.pushz rf10, rf11, 4 ; nop
                 b.anyna L0
                 nop ; nop
                 nop ; nop
                 nop ; nop
                 add rf20, rf10, rf10 ; nop{END}"
            ),
        );
        let (branch, target) = branch_and_target(version, &lines);
        assert_eq!(lines[branch + 1], "nop ; nop", "{lines:#?}");
        assert!(lines[target].contains("ldunifrf"), "{lines:#?}");
    }
}

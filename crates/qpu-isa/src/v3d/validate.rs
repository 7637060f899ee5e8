//! Static validation of a V3D program before it runs, the check Mesa runs on every shader
//! it schedules (`src/broadcom/compiler/qpu_validate.c`): every rule of [`super::rules`] that
//! the program text decides, walking the instructions in order as Mesa does (the last
//! branch, `thrsw`, SFU write and `unifa` write are the ones earlier in the program). The
//! decisions are the ones the emulator makes while it runs (`placement.rs`), so a program
//! the validator passes breaks none of these rules in the emulator along straight-line
//! code.
//!
//! Decided here (each rule's source is in [`V3dRule::source`]):
//! * instruction by instruction: [`V3dRule::SmallImmediate`] (7.1),
//!   [`V3dRule::RotateDestination`] (7.1), [`V3dRule::PeripheralConflict`],
//!   [`V3dRule::TwoUniformReads`], [`V3dRule::DoubleWrite`];
//! * by distance from earlier instructions: [`V3dRule::BranchInBranchDelaySlot`],
//!   [`V3dRule::BranchInThrswDelaySlot`], [`V3dRule::ThrswInBranchDelaySlot`],
//!   [`V3dRule::ThrswTooClose`] (as for a QPU running several threads: the emulator
//!   allows it with one), [`V3dRule::TwoLastThrsw`],
//!   [`V3dRule::SfuInThrswDelaySlot`], [`V3dRule::SfuTooSoon`] (4.2),
//!   [`V3dRule::RotateTooSoon`] (4.2), [`V3dRule::LdunifaTooSoon`],
//!   [`V3dRule::LdunifaWithoutUnifa`] (no `unifa` write earlier in the program);
//! * at the program end (the `thrsw` after the last-thread-switch pair and its two delay
//!   slots): [`V3dRule::RfWriteAfterThrend`], [`V3dRule::TmuwtLast`].
//!
//! Left to the run, because they depend on values or on the path taken:
//! [`V3dRule::TmuOutputFifoOverflow`] (results outstanding), [`V3dRule::LdtmuEmpty`],
//! [`V3dRule::TmuDataOverflow`] (`tmud` writes before the `tmua`),
//! [`V3dRule::MultopAcrossThrsw`], [`V3dRule::UndefinedValueUsed`] (undefined values
//! used on the path taken), and
//! [`V3dRule::RegisterOutOfRange`] (it depends on the threads per QPU of the dispatch).
//!
//! Like Mesa's walk, the validator takes the instruction before another in the program as
//! the one executed before it. At the target of a relative branch the branch's last delay
//! slot also executes right before it; the validator checks that edge for the 4.2 rotate
//! rule (one instruction back) only, and leaves the longer distances across a taken branch
//! (SFU latency, `ldunifa`, delay slots) to the run.
//!
//! ```
//! use qpu_isa::v3d::{validate, V3dRule};
//! use qpu_isa::v3d::{self, V3dVersion};
//!
//! // r4 read right after the SFU write: its result is not there yet.
//! let program = v3d::assemble(V3dVersion::V42, "
//!     eidx r0 ; nop
//!     or recip, r0, r0 ; nop
//!     or r1, r4, r4 ; nop
//!     nop ; nop ; thrsw
//!     nop ; nop ; thrsw
//!     nop ; nop
//!     nop ; nop
//!     nop ; nop ; thrsw
//!     nop ; nop
//!     nop ; nop
//! ")?;
//! let found = validate(V3dVersion::V42, &program);
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].index, 2);
//! assert_eq!(found[0].rule, V3dRule::SfuTooSoon { what: "an r4 read" });
//! assert!(found[0].to_string().starts_with("instruction 2 `or r1, r4, r4 ; nop`: an r4 read"));
//! assert!(found[0].to_string().ends_with("[Mesa src/broadcom/compiler/qpu_validate.c]"));
//! # Ok::<(), qpu_isa::v3d::AsmError>(())
//! ```

use crate::v3d::{
    disasm, AddOp, AluInstruction, BranchDest, Inputs, Instruction, MulOp, Signal, V3dVersion,
    Waddr,
};

use super::latency;
use super::placement::{self, AluFacts, Placement};
use super::rules::V3dRule;

/// A rule broken at one instruction of a V3D program.
pub type V3dViolation = crate::Violation<V3dRule>;

impl crate::CitedRule for V3dRule {
    fn citation(&self) -> String {
        self.source().to_string()
    }
}

/// Every rule `program` breaks that its text decides, in program order (at most one per
/// instruction: the first the emulator would meet).
pub fn validate(version: V3dVersion, program: &[Instruction]) -> Vec<V3dViolation> {
    let mut place = Placement::new(false, true);
    let mut prev_acc_writes = 0u8;
    let branched = accumulators_written_before_targets(version, program);
    let mut found = Vec::new();
    for (index, instr) in program.iter().enumerate() {
        let at = index as u64;
        let rule = match instr {
            Instruction::Branch(_) => {
                prev_acc_writes = 0;
                place.branch(at).err()
            }
            Instruction::Alu(alu) => {
                let before = prev_acc_writes | branched[index];
                let rule = alu_rule(version, &mut place, alu, at, before);
                prev_acc_writes = placement::acc_writes(version, alu);
                rule
            }
        };
        if let Some(rule) = rule {
            found.push(V3dViolation {
                index,
                instruction: disasm::instruction(version, instr),
                rule,
            });
        }
    }
    found
}

/// For each instruction, the accumulators written by the last delay slot of each relative
/// branch that targets it: that slot executes right before the target when the branch is
/// taken (bit n = rn; for the one-instruction 4.2 rotate rule, the only rule checked along
/// this edge).
fn accumulators_written_before_targets(version: V3dVersion, program: &[Instruction]) -> Vec<u8> {
    let slots = latency::BRANCH_DELAY_SLOTS as usize;
    let mut before = vec![0u8; program.len()];
    for (b, instr) in program.iter().enumerate() {
        let Instruction::Branch(branch) = instr else {
            continue;
        };
        let Some(Instruction::Alu(last_slot)) = program.get(b + slots) else {
            continue;
        };
        if branch.bdi != BranchDest::Rel {
            continue;
        }
        // Relative targets count from the instruction after the delay slots.
        let target = (b + slots + 1) as i64 + i64::from(branch.offset as i32) / 8;
        if let Some(t) = usize::try_from(target).ok().filter(|&t| t < program.len()) {
            before[t] |= placement::acc_writes(version, last_slot);
        }
    }
    before
}

/// The first rule an ALU instruction at `at` breaks, in the order the emulator checks
/// them; `place` records the instruction whether or not it breaks one.
fn alu_rule(
    version: V3dVersion,
    place: &mut Placement,
    alu: &AluInstruction,
    at: u64,
    prev_acc_writes: u8,
) -> Option<V3dRule> {
    let add_live = alu.add.op != AddOp::Nop;
    let mul_live = alu.mul.op != MulOp::Nop;
    let own = placement::small_immediates(version, alu.signals, add_live, mul_live)
        .err()
        .or_else(|| placement::rotate_destination(alu).then_some(V3dRule::RotateDestination));
    let facts = AluFacts::of(version, alu);
    let placed = place.alu(at, version, alu, &facts).err();
    let rotated = rotate_rule(alu, prev_acc_writes);
    let uniforms = placement::two_uniform_reads(version, alu).then_some(V3dRule::TwoUniformReads);
    let sigs = alu.signals;
    let ldunifa = (sigs.contains(Signal::Ldunifa) || sigs.contains(Signal::Ldunifarf))
        .then(|| place.ldunifa(at).err())
        .flatten();
    let unifa = |live: bool, w: Waddr| live && w == Waddr::UNIFA;
    if unifa(add_live, alu.add.waddr) || unifa(mul_live, alu.mul.waddr) {
        place.unifa_written(at);
    }
    own.or(placed)
        .or(rotated)
        .or(uniforms)
        .or(ldunifa)
        .or_else(|| placement::double_write(version, alu))
}

/// 4.2's `rot` on a mul input whose accumulator (or r5 amount) the previous instruction
/// wrote.
fn rotate_rule(alu: &AluInstruction, prev_acc_writes: u8) -> Option<V3dRule> {
    let Inputs::V42 {
        mul_a,
        mul_b,
        raddr_b,
        ..
    } = alu.inputs
    else {
        return None;
    };
    if !alu.signals.contains(Signal::Rot) || alu.mul.op == MulOp::Nop {
        return None;
    }
    let inputs = usize::from(alu.mul_arity()).min(2);
    [mul_a, mul_b][..inputs]
        .iter()
        .any(|&mux| placement::rotate_too_soon(mux, raddr_b, prev_acc_writes))
        .then_some(V3dRule::RotateTooSoon)
}

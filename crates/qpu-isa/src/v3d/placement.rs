//! The decisions behind the V3D rules that the program text settles: what one instruction's
//! fields break on their own, and what its distance from the last branch, thread switch, SFU
//! write and `unifa` write breaks. The executing machine calls these with the count of
//! instructions it has executed, the static validator ([`super::validate`]) with program
//! indices, so each rule is decided in one place.

use crate::v3d::{
    AddOp, AluInstruction, CondField, Info, MulOp, Mux, Register, Signal, Signals, V3dVersion,
    Waddr,
};

use super::latency;
use super::rules::V3dRule;

/// A register's name in a rule's message: `rN` for a 4.2 accumulator, `rfN` otherwise.
pub fn register_name(r: Register) -> String {
    match r {
        Register::Acc(n) => format!("r{n}"),
        Register::Rf(n) => format!("rf{n}"),
    }
}

/// The add ALU's destination when its op runs (a `nop` op writes nothing).
fn add_waddr(alu: &AluInstruction) -> Option<Waddr> {
    (alu.add.op != AddOp::Nop).then_some(alu.add.waddr)
}

/// The mul ALU's destination when its op runs.
fn mul_waddr(alu: &AluInstruction) -> Option<Waddr> {
    (alu.mul.op != MulOp::Nop).then_some(alu.mul.waddr)
}

/// Mesa `v3d_qpu_magic_waddr_is_tmu` ([`Waddr::is_tmu`]).
fn is_tmu(w: Option<Waddr>) -> bool {
    w.is_some_and(Waddr::is_tmu)
}

/// An SFU write ([`Waddr::is_sfu`]).
fn is_sfu(version: V3dVersion, w: Option<Waddr>) -> bool {
    w.is_some_and(|w| w.is_sfu(version))
}

/// The accumulators an instruction writes (bit n = rn), for the 4.2 rotate rule
/// ([`AluInstruction::info`]).
pub fn acc_writes(version: V3dVersion, alu: &AluInstruction) -> u8 {
    alu.info(version).acc_writes()
}

/// Two writes to one register in one instruction: no source says which wins (7.1's
/// `quad`/`rep` and `ldunif` all land in rf0). The rule names the first register written
/// twice.
pub fn double_write(version: V3dVersion, alu: &AluInstruction) -> Option<V3dRule> {
    alu.info(version)
        .written_twice()
        .map(|reg| V3dRule::DoubleWrite {
            register: register_name(reg),
        })
}

/// More than one uniform-stream read in one instruction (`ldunif`, `ldunifrf`, `wrtmuc`, a
/// `tmuau` write): no source gives their order.
pub fn two_uniform_reads(version: V3dVersion, alu: &AluInstruction) -> bool {
    alu.info(version).uniform_reads > 1
}

/// The 7.1 small-immediate rules (Mesa qpu_validate.c): one per instruction, and the ALU
/// whose input it is must run. 4.2 has one (`raddr_b`) and no such rule.
pub fn small_immediates(
    version: V3dVersion,
    sigs: Signals,
    add_live: bool,
    mul_live: bool,
) -> Result<(), V3dRule> {
    if version == V3dVersion::V42 {
        return Ok(());
    }
    let count = [
        Signal::SmallImmA,
        Signal::SmallImmB,
        Signal::SmallImmC,
        Signal::SmallImmD,
    ]
    .iter()
    .filter(|&&s| sigs.contains(s))
    .count();
    if count > 1 {
        return Err(V3dRule::SmallImmediate {
            detail: "only one small immediate per instruction",
        });
    }
    if (sigs.contains(Signal::SmallImmA) || sigs.contains(Signal::SmallImmB)) && !add_live {
        return Err(V3dRule::SmallImmediate {
            detail: "small immediate a/b with no add operation",
        });
    }
    if (sigs.contains(Signal::SmallImmC) || sigs.contains(Signal::SmallImmD)) && !mul_live {
        return Err(V3dRule::SmallImmediate {
            detail: "small immediate c/d with no mul operation",
        });
    }
    Ok(())
}

/// A 7.1 `rotate`, `quad_rotate` or `shuffle` writing a magic register, or sharing its
/// instruction with a mul write to a TMU register (py-videocore7 tests/test_registers.py
/// and tests/test_guard.py).
pub fn rotate_destination(alu: &AluInstruction) -> bool {
    matches!(alu.add.op, AddOp::Rot | AddOp::Rotq | AddOp::Shuffle)
        && (alu.add.waddr.is_magic() && alu.add.waddr != Waddr::NOP
            || alu.mul.op != MulOp::Nop && alu.mul.waddr.is_magic() && alu.mul.waddr.is_tmu())
}

/// Whether a 4.2 `rot` on a mul input through `mux` (amount in `raddr_b`, 0 meaning "by
/// r5") reads an accumulator the previous instruction wrote (`prev_acc_writes`, bit n = rn):
/// py-videocore6 tests/test_signals.py puts a nop in between.
pub fn rotate_too_soon(mux: Mux, raddr_b: u8, prev_acc_writes: u8) -> bool {
    let source = matches!(mux, Mux::Acc(r) if prev_acc_writes & (1 << r) != 0);
    let amount = raddr_b == 0 && prev_acc_writes & (1 << 5) != 0;
    source || amount
}

/// Whether the 4.2 instruction reads r4 through one of its ALUs' inputs.
fn reads_r4(info: &Info) -> bool {
    info.reads.contains(&Some(Register::Acc(4)))
}

/// Whether the instruction writes r4 (an ALU, or a signal whose address is magic 4).
fn writes_r4(info: &Info, alu: &AluInstruction) -> bool {
    let acc4 = Some(Register::Acc(4));
    info.writes[..2].contains(&acc4)
        || matches!(alu.cond, CondField::SigAddr(w) if w.is_magic() && w.index() == 4)
}

/// What the rules ask of one ALU instruction's own fields, worked out once: the machine
/// keeps it with the decoded instruction, so that executing it again only tests flags.
/// Where one of the `*_broken` flags is set, the rule's own function gives the rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AluFacts {
    /// The accumulators the instruction writes (bit n = rn), for the 4.2 rotate rule.
    pub acc_writes: u8,
    /// [`small_immediates`] refuses it.
    pub small_immediates_broken: bool,
    /// [`rotate_destination`].
    pub rotate_destination: bool,
    /// [`two_uniform_reads`].
    pub two_uniform_reads: bool,
    /// [`double_write`] finds a register written twice.
    pub double_write: bool,
    peripheral_conflict: bool,
    sfu_write: bool,
    thrsw: bool,
}

impl AluFacts {
    /// The facts of `alu` on `version`.
    pub fn of(version: V3dVersion, alu: &AluInstruction) -> AluFacts {
        let v42 = version == V3dVersion::V42;
        let sigs = alu.signals;
        let (add, mul) = (add_waddr(alu), mul_waddr(alu));
        // One of TMU, SFU, TSY, TLB, VPM (and on 4.2 ldtmu) per instruction.
        let is_other = |w: Option<Waddr>| w.is_some_and(Waddr::is_tlb_vpm_or_tsy);
        let writes_peripheral: Vec<Option<Waddr>> = [add, mul]
            .into_iter()
            .filter(|&w| is_tmu(w) || is_sfu(version, w) || is_other(w))
            .collect();
        // On 4.2 Mesa counts `ldtmu` as a peripheral too. Hardware evidence overrides that
        // for a `tmud` write: py-videocore6's examples/scopy.py, whose README gives its Pi 4
        // results, issues `or tmud, r0, r0 ; nop ; ldtmu.r0` in its copy loop. Other pairs
        // with `ldtmu` have no such evidence and stay refused.
        let ldtmu_counts = v42
            && sigs.contains(Signal::Ldtmu)
            && !(writes_peripheral.len() == 1 && writes_peripheral[0] == Some(Waddr::TMUD));
        let peripherals = writes_peripheral.len()
            + usize::from(ldtmu_counts)
            + usize::from(sigs.contains(Signal::Ldtlb))
            + usize::from(sigs.contains(Signal::Ldtlbu));
        let info = alu.info(version);
        AluFacts {
            acc_writes: info.acc_writes(),
            small_immediates_broken: small_immediates(
                version,
                sigs,
                alu.add.op != AddOp::Nop,
                alu.mul.op != MulOp::Nop,
            )
            .is_err(),
            rotate_destination: rotate_destination(alu),
            two_uniform_reads: info.uniform_reads > 1,
            double_write: info.written_twice().is_some(),
            peripheral_conflict: peripherals > 1,
            sfu_write: is_sfu(version, add) || is_sfu(version, mul),
            thrsw: sigs.contains(Signal::Thrsw),
        }
    }
}

/// Where an instruction stream stands with respect to the rules that look back: the last
/// branch, thread switch, program end, SFU write and `unifa` write, each by the position
/// (executed-instruction count for the machine, program index for the validator) at which
/// it was issued. Mesa's qpu_validate.c keeps the same record as it walks a shader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    last_branch: Option<u64>,
    last_thrsw: Option<u64>,
    /// The last-thread-switch pair was seen (or the run is single-segment).
    last_thrsw_found: bool,
    /// The thread switch that ends the program.
    thrend: Option<u64>,
    /// The QPU runs more than one thread, so a `thrsw` may hand it to another.
    multithreaded: bool,
    last_sfu: Option<u64>,
    last_unifa: Option<u64>,
}

impl Placement {
    /// A fresh stream; in single-segment mode the first `thrsw` ends the program. With
    /// `multithreaded`, the QPU runs more than one thread (the static validator assumes
    /// so: it checks for any launch).
    pub fn new(single_segment: bool, multithreaded: bool) -> Placement {
        Placement {
            last_thrsw_found: single_segment,
            multithreaded,
            ..Placement::default()
        }
    }

    /// Mesa qpu_validate.c `in_branch_delay_slots`: ip − last_branch_ip < 3.
    fn in_branch_slots(&self, at: u64) -> bool {
        self.last_branch.is_some_and(|b| at - b < 3)
    }

    /// Mesa qpu_validate.c `in_thrsw_delay_slots`: ip − last_thrsw_ip < 3.
    fn in_thrsw_slots(&self, at: u64) -> bool {
        self.last_thrsw.is_some_and(|t| at - t < 3)
    }

    /// Whether the program-end `thrsw` has been issued.
    pub fn ending(&self) -> bool {
        self.thrend.is_some()
    }

    /// Whether an SFU result is still on its way to r4 at `at`.
    pub fn sfu_pending(&self, at: u64) -> bool {
        self.last_sfu.is_some_and(|s| at - s < latency::SFU_R4)
    }

    /// A branch at `at` (Mesa qpu_validate.c): not in another branch's delay slots, nor in a
    /// `thrsw`'s. The branch is recorded either way.
    pub fn branch(&mut self, at: u64) -> Result<(), V3dRule> {
        let rule = if self.in_branch_slots(at) {
            Err(V3dRule::BranchInBranchDelaySlot)
        } else if self.in_thrsw_slots(at) {
            Err(V3dRule::BranchInThrswDelaySlot)
        } else {
            Ok(())
        };
        self.last_branch = Some(at);
        rule
    }

    /// The rules of Mesa qpu_validate.c for an ALU instruction at `at`, in this order: one
    /// peripheral per instruction, no SFU write in `thrsw` delay slots, SFU latency (4.2),
    /// `thrsw` placement, and the register-file and `tmuwt` rules of the program end. Its
    /// SFU write and thread switch are recorded whether or not a rule is broken. On
    /// success, says whether a thread switch starts here and whether it ends the program.
    pub fn alu(
        &mut self,
        at: u64,
        version: V3dVersion,
        alu: &AluInstruction,
        facts: &AluFacts,
    ) -> Result<Option<bool>, V3dRule> {
        let sfu_write = facts.sfu_write;
        // Most instructions: nothing to check or record.
        if !facts.peripheral_conflict
            && !sfu_write
            && !facts.thrsw
            && self.thrend.is_none()
            && !self.sfu_pending(at)
        {
            return Ok(None);
        }
        let v42 = version == V3dVersion::V42;
        let (add, mul) = (add_waddr(alu), mul_waddr(alu));
        let mut broken: Option<V3dRule> = None;
        let mut check = |rule: Option<V3dRule>| {
            if broken.is_none() {
                broken = rule;
            }
        };
        check(
            facts
                .peripheral_conflict
                .then_some(V3dRule::PeripheralConflict),
        );

        // An SFU result would land in the other thread.
        check((sfu_write && self.in_thrsw_slots(at)).then_some(V3dRule::SfuInThrswDelaySlot));

        // 4.2: the SFU result reaches r4 two instructions after the write.
        if self.sfu_pending(at) {
            let what = if sfu_write {
                Some("another SFU write")
            } else if reads_r4(&alu.info(version)) {
                Some("an r4 read")
            } else if writes_r4(&alu.info(version), alu) {
                Some("an r4 write")
            } else {
                None
            };
            check(what.map(|what| V3dRule::SfuTooSoon { what }));
        }
        if sfu_write {
            self.last_sfu = Some(at);
        }

        // Thread switches: two in a row mark the last switch; the one after it ends the
        // program.
        let mut switch = None;
        if facts.thrsw {
            check(
                self.in_branch_slots(at)
                    .then_some(V3dRule::ThrswInBranchDelaySlot),
            );
            if at > 0 && self.last_thrsw == Some(at - 1) {
                check(self.last_thrsw_found.then_some(V3dRule::TwoLastThrsw));
                self.last_thrsw_found = true;
            } else {
                // Mesa's validator refuses a `thrsw` in another's delay slots. On a QPU with
                // one thread py-videocore6 and 7 do it in loops that pass on Pi 4s and 5s
                // (tests/test_parallel.py `qpu_serial`, tests/test_alu.py's load prologue,
                // examples/sgemm.py: a `thrsw` two instructions after the last), launched
                // without CSD threading: there is no other thread to switch to, and each
                // switch hands the QPU straight back. With several threads no program we
                // know does it, so it stays refused there.
                if self.multithreaded {
                    check(self.in_thrsw_slots(at).then_some(V3dRule::ThrswTooClose));
                }
                let end = self.last_thrsw_found;
                if end {
                    self.thrend = Some(at);
                }
                self.last_thrsw = Some(at);
                switch = Some(end);
            }
        }

        // The program-end thrsw and its two delay slots.
        if let Some(pos) = self.thrend.map(|end| at - end).filter(|&p| p <= 2) {
            check(end_rule(v42, pos, alu, add, mul));
        }
        match broken {
            Some(rule) => Err(rule),
            None => Ok(switch),
        }
    }

    /// An `ldunifa`/`ldunifarf` at `at`: after a `unifa` write, and more than
    /// [`latency::UNIFA_TO_LDUNIFA`] instructions after it.
    pub fn ldunifa(&self, at: u64) -> Result<(), V3dRule> {
        let Some(write) = self.last_unifa else {
            return Err(V3dRule::LdunifaWithoutUnifa);
        };
        let distance = at - write;
        if distance <= latency::UNIFA_TO_LDUNIFA {
            return Err(V3dRule::LdunifaTooSoon { distance });
        }
        Ok(())
    }

    /// Records a `unifa` write at `at`.
    pub fn unifa_written(&mut self, at: u64) {
        self.last_unifa = Some(at);
    }
}

/// The rules for the program-end `thrsw` (`pos` 0) and its delay slots (Mesa
/// qpu_validate.c): 4.2 writes no register-file register there; 7.1 makes no ALU write in
/// the `thrsw` instruction itself and writes neither rf2 nor rf3; no `tmuwt` in the last
/// instruction (GFXH-1625).
fn end_rule(
    v42: bool,
    pos: u64,
    alu: &AluInstruction,
    add: Option<Waddr>,
    mul: Option<Waddr>,
) -> Option<V3dRule> {
    for w in [add, mul].into_iter().flatten() {
        if w.is_magic() {
            continue;
        }
        let detail = if v42 {
            "V3D 4.2 allows none in the final thrsw and its delay slots"
        } else if pos == 0 {
            "V3D 7.1 allows no ALU write in the final thrsw instruction"
        } else if matches!(w.index(), 2 | 3) {
            "V3D 7.1 allows no rf2/rf3 write in the final thrsw and its delay slots"
        } else {
            continue;
        };
        return Some(V3dRule::RfWriteAfterThrend { detail });
    }
    if let CondField::SigAddr(w) = alu.cond {
        if alu.signals.writes_address() && !w.is_magic() && (v42 || matches!(w.index(), 2 | 3)) {
            return Some(V3dRule::RfWriteAfterThrend {
                detail: "signal write to the register file in the end slots",
            });
        }
    }
    (pos == 2 && alu.add.op == AddOp::Tmuwt).then_some(V3dRule::TmuwtLast)
}

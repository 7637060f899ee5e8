//! Static validation of a whole program before it runs, the way Mesa's vc4 driver checks
//! its own output (`vc4_qpu_validate.c`): every rule of [`super::rules`] that can be decided
//! from the code alone, along every path its relative branches make visible. Rules that
//! depend on values (TMU FIFO depth, VPM counts, undefined values) are left to the run.
//!
//! ```
//! let program = qpu_isa::vc4::assemble("mov ra1, 1\nadd r0, ra1, 1\nnop; thrend\nnop\nnop")?;
//! let found = qpu_isa::vc4::validate(&program);
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].index, 1);
//! assert!(found[0].to_string().contains("ra1 is read"));
//! # Ok::<(), qpu_isa::vc4::AsmError>(())
//! ```

use crate::vc4::info::Info;
use crate::vc4::latency;
use crate::vc4::{BranchCond, Instruction, Rule};
use crate::Violation;

/// Every statically visible rule violation of `program`, in program order (at most one per
/// instruction: the first rule found).
pub fn validate(program: &[Instruction]) -> Vec<Violation> {
    let code: Vec<Info> = program.iter().map(Instruction::info).collect();
    let preds = predecessors(program, &code);
    let mut found = Vec::new();
    for (index, d) in code.iter().enumerate() {
        let rule = d
            .fault
            .clone()
            .or_else(|| neighbour_rule(&code, &preds, index));
        if let Some(rule) = rule {
            found.push(Violation {
                index,
                instruction: crate::vc4::disasm::instruction(&program[index]),
                rule,
            });
        }
    }
    found
}

/// For each instruction, the instructions that can execute right before it: the previous
/// one unless control cannot fall through, and the last delay slot of each relative branch
/// that targets it.
fn predecessors(program: &[Instruction], code: &[Info]) -> Vec<Vec<usize>> {
    let n = code.len();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    let slots = latency::BRANCH_DELAY_SLOTS;
    for i in 1..n {
        let after_jump = i > slots
            && matches!(program[i - 1 - slots], Instruction::Branch(b) if b.cond == BranchCond::Always);
        let after_end = i > latency::THREAD_END_DELAY_SLOTS
            && code[i - 1 - latency::THREAD_END_DELAY_SLOTS].is_thread_end;
        if !after_jump && !after_end {
            preds[i].push(i - 1);
        }
    }
    for (b, instr) in program.iter().enumerate() {
        if let Instruction::Branch(branch) = instr {
            if !branch.relative || branch.use_raddr_a || branch.imm % 8 != 0 {
                continue;
            }
            // Relative targets count from the instruction after the delay slots.
            let target = (b + 1 + slots) as i64 + i64::from(branch.imm / 8);
            if (0..n as i64).contains(&target) && b + slots < n {
                let target = target as usize;
                if !preds[target].contains(&(b + slots)) {
                    preds[target].push(b + slots);
                }
            }
        }
    }
    preds
}

/// Rules between an instruction and those executed shortly before it.
fn neighbour_rule(code: &[Info], preds: &[Vec<usize>], i: usize) -> Option<Rule> {
    let d = &code[i];
    for &p in &preds[i] {
        let prev = &code[p];
        let clash = d.phys_reads & prev.phys_writes;
        if clash != 0 {
            let bit = clash.trailing_zeros();
            return Some(Rule::RegfileReadAfterWrite {
                file: if bit < 32 {
                    crate::vc4::RegFile::A
                } else {
                    crate::vc4::RegFile::B
                },
                reg: (bit % 32) as u8,
            });
        }
        let rotated = d.rotate_sources & prev.acc_writes;
        if rotated != 0 {
            return Some(Rule::RotateAfterWrite {
                accumulator: rotated.trailing_zeros() as u8,
            });
        }
    }
    // Instructions one and two back, along any path.
    let mut recent: Vec<usize> = preds[i].clone();
    for &p in &preds[i] {
        recent.extend(&preds[p]);
    }
    for &p in &recent {
        let prev = &code[p];
        if prev.sfu_write && d.reads_r4 {
            return Some(Rule::R4ReadDuringSfu);
        }
        if prev.sfu_write && d.writes_r4 {
            return Some(Rule::R4WriterDuringSfu);
        }
        if prev.writes_uniforms_address && d.reads_uniform {
            return Some(Rule::UniformAfterAddressWrite);
        }
        if prev.noswap_write && d.tmu_write {
            return Some(Rule::TmuNoswapTooLate);
        }
    }
    // Delay slots, in program order.
    let back = |k: usize| i.checked_sub(k).map(|j| &code[j]);
    let in_branch_slots =
        (1..=latency::BRANCH_DELAY_SLOTS).any(|k| back(k).is_some_and(|p| p.is_branch));
    if in_branch_slots && d.is_branch {
        return Some(Rule::BranchInDelaySlot);
    }
    if in_branch_slots && d.is_thread_end {
        return Some(Rule::ThreadEndInBranchDelaySlot);
    }
    let in_end_slots =
        (1..=latency::THREAD_END_DELAY_SLOTS).any(|k| back(k).is_some_and(|p| p.is_thread_end));
    if in_end_slots && d.is_branch {
        return Some(Rule::BranchInThreadEndSlot);
    }
    if in_end_slots || d.is_thread_end {
        if let Some(what) = d.thread_end_forbidden {
            return Some(Rule::ThreadEndSlotAccess { what });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(source: &str) -> Vec<(usize, Rule)> {
        let program = crate::vc4::assemble(source).expect("assembles");
        validate(&program)
            .into_iter()
            .map(|v| (v.index, v.rule))
            .collect()
    }

    const END: &str = "nop; thrend\nnop\nnop\n";

    #[test]
    fn clean_code_passes() {
        assert_eq!(
            rules(&format!("mov ra1, 1\nnop\nadd r0, ra1, 1\n{END}")),
            vec![]
        );
    }

    #[test]
    fn a_branch_target_sees_the_last_delay_slot() {
        // The last delay slot writes ra2; the target (reached only by the branch, since the
        // branch is unconditional) reads it at once.
        let source =
            format!("brr -, r:target\nnop\nnop\nmov ra2, 1\nnop\n:target\nadd r0, ra2, 1\n{END}");
        let found = rules(&source);
        assert_eq!(
            found,
            vec![(
                5,
                Rule::RegfileReadAfterWrite {
                    file: crate::vc4::RegFile::A,
                    reg: 2
                }
            )]
        );
        // Code after an unconditional branch's slots is not reached by falling through.
        let source =
            format!("brr -, r:next\nnop\nnop\nnop\n:next\nmov ra2, 1\nnop\nmov r0, ra2\n{END}");
        assert_eq!(rules(&source), vec![]);
    }

    #[test]
    fn distance_rules_and_slots() {
        assert_eq!(
            rules(&format!("mov recip, r0\nnop\nmov r1, r4\n{END}")),
            vec![(2, Rule::R4ReadDuringSfu)]
        );
        assert_eq!(
            rules(&format!("mov unif_addr, r0\nnop\nmov r1, unif\n{END}")),
            vec![(2, Rule::UniformAfterAddressWrite)]
        );
        assert_eq!(
            rules("brr -, r:x\nnop\nbrr -, r:x\nnop\nnop\nnop\n:x\nnop; thrend\nnop\nnop\n"),
            vec![(2, Rule::BranchInDelaySlot)]
        );
        assert_eq!(
            rules("nop; thrend\nmov r0, unif\nnop\n"),
            vec![(
                1,
                Rule::ThreadEndSlotAccess {
                    what: "reads a uniform"
                }
            )]
        );
        assert_eq!(
            rules(&format!("mov r1, 1\nnop; mov r0, r1 >> 1\n{END}")),
            vec![(1, Rule::RotateAfterWrite { accumulator: 1 })]
        );
    }
}

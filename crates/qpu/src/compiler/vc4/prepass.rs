//! Scheduling before register allocation.
//!
//! The scheduler after allocation ([`super::schedule`]) packs ops into instruction words,
//! but by then the allocator has reused registers, and every reuse is an ordering the packer
//! must keep: in a loop body, a chain of float adds that shares an accumulator with rotation
//! temporaries ends up after all of them, one op per word. This pass reorders each straight-
//! line block of the IR first, as a list scheduler that models two ALUs per word (one add
//! and one mul op, moves on either), choosing by the longest path to the block's end. Only
//! true dependencies and the order of I/O, flags and r4/r5 constrain it (the same effects
//! the packer uses). Independent chains then interleave, and the allocator assigns
//! registers to that order.
//!
//! A reorder can lengthen live ranges. Blocks whose peak of live values grows by more than
//! [`SLACK`] keep their order, and the compiler retries without this pass when allocation
//! fails (see `compile_with`).

use super::ir::*;
use super::schedule::{dependencies, effects, successors_and_priority, Res};

/// How many more live values a reordered block may need at its peak.
const SLACK: usize = 4;
/// At most this many accumulator-only values live at once (of the four accumulators).
const ACC_ONLY: usize = 2;

/// Reorder every block of `code` (labels, branches, semaphores and thread ends stay where
/// they are; `Source` markers follow their ops). Registers below `first_temporary` are
/// variables, live past their block.
pub fn reorder(code: &mut Vec<Op<VReg>>, first_temporary: u32, acc_only: &[VReg]) {
    let acc_only: rustc_hash::FxHashSet<VReg> = acc_only.iter().copied().collect();
    let mut out = Vec::with_capacity(code.len());
    let mut block: Vec<(Op<VReg>, u32)> = Vec::new();
    let mut here = u32::MAX;
    let mut emitted = u32::MAX;
    for op in code.drain(..) {
        match op {
            Op::Source(s) => here = s,
            Op::Label(_) | Op::Branch { .. } | Op::Sema { .. } | Op::ThreadEnd => {
                flush(
                    &mut block,
                    &mut out,
                    &mut emitted,
                    first_temporary,
                    &acc_only,
                );
                if here != emitted && here != u32::MAX {
                    out.push(Op::Source(here));
                    emitted = here;
                }
                out.push(op);
            }
            _ => block.push((op, here)),
        }
    }
    keep_order(&mut block, &mut out, &mut emitted);
    *code = out;
}

/// Emit `block` as it is.
fn keep_order(block: &mut Vec<(Op<VReg>, u32)>, out: &mut Vec<Op<VReg>>, emitted: &mut u32) {
    for (op, source) in block.drain(..) {
        if source != *emitted && source != u32::MAX {
            out.push(Op::Source(source));
            *emitted = source;
        }
        out.push(op);
    }
}

fn flush(
    block: &mut Vec<(Op<VReg>, u32)>,
    out: &mut Vec<Op<VReg>>,
    emitted: &mut u32,
    first_temporary: u32,
    acc_only: &rustc_hash::FxHashSet<VReg>,
) {
    let ops: Vec<Op<VReg>> = block.iter().map(|(op, _)| op.clone()).collect();
    let original = peak_live(&ops, &(0..ops.len()).collect::<Vec<_>>(), first_temporary);
    let order = schedule(&ops, original + SLACK, first_temporary, acc_only);
    let keep = peak_live(&ops, &order, first_temporary) > original + SLACK;
    for i in 0..block.len() {
        let (op, source) = &block[if keep { i } else { order[i] }];
        if *source != *emitted && *source != u32::MAX {
            out.push(Op::Source(*source));
            *emitted = *source;
        }
        out.push(op.clone());
    }
    block.clear();
}

/// Which ALU an op needs: 0 = either (a move), 1 = add, 2 = mul, 3 = a whole word.
fn unit(op: &Op<VReg>) -> u8 {
    match op {
        Op::Alu {
            rotate: Some(_), ..
        } => 2,
        Op::Alu {
            op: AluOp::Add(_), ..
        } => 1,
        Op::Alu {
            op: AluOp::Mul(_), ..
        } => 2,
        Op::Alu { op: AluOp::Mov, .. } => 0,
        Op::Signal(_) => 4,
        _ => 3,
    }
}

/// A list schedule of one block: the ops' new order. While `limit` values the block defines
/// are live, ops that free registers go first.
fn schedule(
    ops: &[Op<VReg>],
    limit: usize,
    first_temporary: u32,
    acc_only: &rustc_hash::FxHashSet<VReg>,
) -> Vec<usize> {
    let n = ops.len();
    if n < 3 {
        return (0..n).collect();
    }
    let fx: Vec<_> = ops.iter().map(effects).collect();
    let preds = dependencies(&fx, |res: Res<VReg>, sfu, _| match res {
        Res::R4 if sfu => 3,
        _ => 1,
    });
    let (succs, prio) = successors_and_priority(&preds);
    // Uses left in the block of each value it defines (variables never die here).
    let mut left = rustc_hash::FxHashMap::<VReg, usize>::default();
    for op in ops {
        if let Some(d) = op.def() {
            left.entry(d).or_insert(0);
        }
    }
    for op in ops {
        op.uses(|r| {
            if let Some(n) = left.get_mut(&r) {
                *n += 1;
            }
        });
    }
    let mut live = 0usize;
    let mut is_live = rustc_hash::FxHashSet::<VReg>::default();
    // The change in live values if op `j` ran now.
    let delta = |j: usize,
                 left: &rustc_hash::FxHashMap<VReg, usize>,
                 is_live: &rustc_hash::FxHashSet<VReg>| {
        let mut d = 0i32;
        if let Some(v) = ops[j].def() {
            if !is_live.contains(&v) {
                d += 1;
            }
        }
        ops[j].uses(|r| {
            if r.0 >= first_temporary && left.get(&r) == Some(&1) && is_live.contains(&r) {
                d -= 1;
            }
        });
        d
    };
    let mut waiting: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut earliest = vec![0usize; n];
    let mut available: Vec<usize> = (0..n).filter(|&j| waiting[j] == 0).collect();
    let mut order = Vec::with_capacity(n);
    let mut cycle = 0;
    while order.len() < n {
        // Values that must sit in an accumulator (rotation sources) start only while
        // fewer than ACC_ONLY of them are live: there are four accumulators.
        let acc_live = is_live.iter().filter(|v| acc_only.contains(v)).count();
        let mut ready: Vec<usize> = available
            .iter()
            .copied()
            .filter(|&j| earliest[j] <= cycle)
            .filter(|&j| {
                acc_live < ACC_ONLY || !ops[j].def().is_some_and(|d| acc_only.contains(&d))
            })
            .collect();
        if ready.is_empty() {
            // Only accumulator-only values are ready: let them through rather than stall.
            ready = available
                .iter()
                .copied()
                .filter(|&j| earliest[j] <= cycle)
                .collect();
        }
        if live >= limit {
            ready.sort_by_key(|&j| (delta(j, &left, &is_live), std::cmp::Reverse(prio[j]), j));
        } else {
            ready.sort_by(|&x, &y| prio[y].cmp(&prio[x]).then(x.cmp(&y)));
        }
        // One word: up to one add-only and one mul-only op (moves fill either), or one
        // op that takes a whole word; a signal rides along.
        let (mut add, mut mul, mut whole, mut signal) = (false, false, false, false);
        let mut chosen = Vec::new();
        for &j in &ready {
            let fits = match unit(&ops[j]) {
                0 => !whole && (!add || !mul),
                1 => !whole && !add,
                2 => !whole && !mul,
                3 => chosen.is_empty(),
                _ => !signal,
            };
            if !fits {
                continue;
            }
            match unit(&ops[j]) {
                0 if !add => add = true,
                0 => mul = true,
                1 => add = true,
                2 => mul = true,
                3 => whole = true,
                _ => signal = true,
            }
            chosen.push(j);
            if whole || (add && mul) {
                break;
            }
        }
        for &c in &chosen {
            if let Some(v) = ops[c].def() {
                if is_live.insert(v) {
                    live += 1;
                }
            }
            ops[c].uses(|r| {
                if let Some(n) = left.get_mut(&r) {
                    *n -= 1;
                    if *n == 0 && r.0 >= first_temporary && is_live.remove(&r) {
                        live -= 1;
                    }
                }
            });
            order.push(c);
            available.retain(|&j| j != c);
            for &(s, l) in &succs[c] {
                earliest[s] = earliest[s].max(cycle + l);
                waiting[s] -= 1;
                if waiting[s] == 0 {
                    available.push(s);
                }
            }
        }
        cycle += 1;
    }
    order
}

/// The most values live at once in `ops` taken in `order`, counting the values the block
/// defines: from their definition to their last use in the block, or to its end for
/// variables and values it does not use again.
fn peak_live(ops: &[Op<VReg>], order: &[usize], first_temporary: u32) -> usize {
    let mut last_use = rustc_hash::FxHashMap::default();
    for (pos, &i) in order.iter().enumerate() {
        ops[i].uses(|r| {
            last_use.insert(r, pos);
        });
    }
    let mut ends = vec![0i32; order.len() + 1];
    let mut starts = vec![0i32; order.len() + 1];
    let mut defined = rustc_hash::FxHashSet::default();
    for (pos, &i) in order.iter().enumerate() {
        if let Some(d) = ops[i].def() {
            if !defined.insert(d) {
                continue;
            }
            starts[pos] += 1;
            let end = match last_use.get(&d) {
                Some(&u) if u > pos && d.0 >= first_temporary => u,
                _ => order.len(),
            };
            ends[end] += 1;
        }
    }
    let (mut live, mut peak) = (0i32, 0i32);
    for pos in 0..=order.len() {
        live += starts[pos] - ends[pos];
        peak = peak.max(live);
    }
    peak as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use qpu_isa::vc4::{AddOp, Cond, MulOp};

    fn v(n: u32) -> Src<VReg> {
        Src::Reg(VReg(n))
    }

    fn add(d: u32, a: Src<VReg>, b: Src<VReg>) -> Op<VReg> {
        Op::alu(AluOp::Add(AddOp::Fadd), Dst::Reg(VReg(d)), a, b)
    }

    fn mul(d: u32, a: Src<VReg>, b: Src<VReg>) -> Op<VReg> {
        Op::alu(AluOp::Mul(MulOp::Fmul), Dst::Reg(VReg(d)), a, b)
    }

    /// The ops of `code` other than labels, branches and markers, as (kind, destination).
    fn shape(code: &[Op<VReg>]) -> Vec<String> {
        code.iter()
            .filter_map(|op| match op {
                Op::Alu {
                    op: AluOp::Add(_),
                    dst: Dst::Reg(d),
                    ..
                } => Some(format!("add v{}", d.0)),
                Op::Alu {
                    op: AluOp::Mul(_),
                    dst: Dst::Reg(d),
                    ..
                } => Some(format!("mul v{}", d.0)),
                Op::Source(s) => Some(format!("#{s}")),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_add_chain_and_a_mul_chain_interleave() {
        // Two dependent chains, one after the other: v10..v13 on the add ALU, v20..v23 on
        // the mul ALU (v1, v2 inputs; variables are below 5).
        let mut code = vec![Op::Label(Label(0))];
        code.push(add(10, v(1), v(2)));
        for d in 11..14 {
            code.push(add(d, v(d - 1), v(2)));
        }
        code.push(mul(20, v(1), v(2)));
        for d in 21..24 {
            code.push(mul(d, v(d - 1), v(2)));
        }
        code.push(Op::Branch {
            cond: qpu_isa::vc4::BranchCond::Always,
            target: Label(0),
        });
        reorder(&mut code, 5, &[]);
        assert_eq!(
            shape(&code),
            [
                "add v10", "mul v20", "add v11", "mul v21", "add v12", "mul v22", "add v13",
                "mul v23"
            ]
        );
    }

    #[test]
    fn dependencies_flags_and_sources_survive() {
        let flag_test = Op::Alu {
            op: AluOp::Add(AddOp::Sub),
            dst: Dst::None,
            a: v(1),
            b: v(2),
            cond: Cond::Always,
            sf: true,
            rotate: None,
        };
        let masked = Op::Alu {
            op: AluOp::Add(AddOp::Add),
            dst: Dst::Reg(VReg(11)),
            a: v(10),
            b: v(2),
            cond: Cond::ZeroSet,
            sf: false,
            rotate: None,
        };
        let mut code = vec![
            Op::Source(0),
            mul(10, v(1), v(2)),
            Op::Source(1),
            flag_test.clone(),
            masked.clone(),
            Op::Source(2),
            mul(12, v(1), v(1)),
            add(13, v(12), v(11)),
        ];
        reorder(&mut code, 5, &[]);
        let at = |op: &Op<VReg>| code.iter().position(|o| o == op).unwrap();
        // The masked add reads the flags and v10 and writes v11 in the lanes that pass.
        assert!(at(&flag_test) < at(&masked));
        assert!(at(&mul(10, v(1), v(2))) < at(&masked));
        assert!(at(&masked) < at(&add(13, v(12), v(11))));
        assert!(at(&mul(12, v(1), v(1))) < at(&add(13, v(12), v(11))));
        // Every op is still preceded by its own source marker.
        let mut here = None;
        for op in &code {
            match op {
                Op::Source(s) => here = Some(*s),
                op if *op == masked || *op == flag_test => assert_eq!(here, Some(1)),
                op if *op == mul(10, v(1), v(2)) => assert_eq!(here, Some(0)),
                _ => assert_eq!(here, Some(2)),
            }
        }
    }
}

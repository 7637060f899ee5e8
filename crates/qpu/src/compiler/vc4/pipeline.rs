//! Software pipelining of a loop's result chain: the loop rotated by one stage.
//!
//! A loop body that ends in a long serial computation whose only effect is a VPM write (a
//! stencil's weighted sum, say: HeatMap's eight additions, two multiplies and two
//! subtractions) runs that chain one instruction at a time, with nothing else to pack beside
//! it. Here the chain (`B`) of iteration `i` moves into iteration `i + 1`, ahead of that
//! iteration's own loads, rotations and loop test (`A`), so the scheduler can interleave the
//! two:
//!
//! ```text
//! L:  A B test; brr L            L:  A; brr.not Lexit          (the first iteration's A)
//!                        ==>     L2: B A; brr L2               (B of i, A of i + 1)
//!                                Lexit: B                      (the last iteration's B)
//! ```
//!
//! The ops run in the same order as before, only grouped differently across the branch, so
//! the result is the same for every trip count. `B` is chosen so that nothing later in the
//! body depends on it: its ops are pure (no flags, no I/O but the final VPM write, no
//! lane conditions), each value they define is used only by `B`, and nothing after them in
//! the body writes what they read or touches the VPM. The values `B` reads from `A` are
//! copied at the end of `A` (`A` of the next iteration may redefine them while `B` still
//! needs them); the chain's first operations may stay in `A` to keep those copies few.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use qpu_isa::vc4::Cond;

use super::ir::*;

/// The most values the chain may read from the rest of the body (one copy each per
/// iteration); chains reading more give their first operations back to `A`. (HeatMap's
/// loop: 2 gives 41 instructions per iteration, 4 gives 39, 6 and more 41–42; without the
/// copies, 40–41.)
const MAX_CROSSING: usize = 4;
/// Shorter chains are not worth the copies and the code.
const MIN_CHAIN: usize = 3;
/// Longer loop bodies are left as they are (choosing the chain is quadratic in the body).
const MAX_BODY_OPS: usize = 400;

/// A plain computation the chain may contain: no flags, conditions, rotations or I/O reads;
/// the result in a register or the VPM.
fn pure(op: &Op<VReg>) -> bool {
    matches!(
        op,
        Op::Alu {
            dst: Dst::Reg(_) | Dst::Write(IoWrite::Vpm),
            a,
            b,
            cond: Cond::Always,
            sf: false,
            rotate: None,
            ..
        } if [a, b].iter().all(|s| matches!(s, Src::Reg(_) | Src::Imm(_)))
    )
}

/// Whether an op reads or writes an I/O register (r4 and r5 included), or is a signal or a
/// semaphore: the chain's VPM write keeps its place among those. (Flags do not matter:
/// the chain neither sets nor reads them.)
fn io(op: &Op<VReg>) -> bool {
    match op {
        Op::Alu { dst, a, b, .. } => {
            matches!(dst, Dst::Write(_))
                || [a, b]
                    .iter()
                    .any(|s| matches!(s, Src::Read(_) | Src::R4 | Src::R5))
        }
        Op::Ldi { dst, .. } => matches!(dst, Dst::Write(_)),
        Op::Signal(_) | Op::Sema { .. } => true,
        _ => false,
    }
}

/// Every register an op reads or writes, once per mention.
fn mention(op: &Op<VReg>, mut visit: impl FnMut(VReg)) {
    op.uses(&mut visit);
    if let Some(d) = op.def() {
        visit(d);
    }
}

/// Registers an op reads.
fn reads(op: &Op<VReg>) -> Vec<VReg> {
    let mut r = Vec::new();
    op.uses(|v| r.push(v));
    r
}

/// The chain of a loop body (indices into `body`, ascending), or empty.
fn chain(body: &[Op<VReg>], elsewhere: &HashSet<VReg>) -> Vec<usize> {
    let Some(w) = body.iter().rposition(|op| {
        matches!(
            op,
            Op::Alu {
                dst: Dst::Write(IoWrite::Vpm),
                ..
            }
        )
    }) else {
        return Vec::new();
    };
    // What the ops after the current position that stay out of the chain write, and
    // whether one of them does I/O: an op may join only if none of them writes what it
    // reads and none does I/O (kept up to date walking backwards, so the choice is linear
    // in the body rather than quadratic).
    let mut written_after: HashSet<VReg> = HashSet::default();
    let mut io_after = false;
    let stays = |op: &Op<VReg>, written_after: &mut HashSet<VReg>, io_after: &mut bool| {
        *io_after |= io(op);
        written_after.extend(op.def());
    };
    for op in &body[w + 1..] {
        stays(op, &mut written_after, &mut io_after);
    }
    let later_ok = |op: &Op<VReg>, written_after: &HashSet<VReg>, io_after: bool| {
        !io_after && reads(op).iter().all(|r| !written_after.contains(r))
    };
    let mut in_chain = vec![false; body.len()];
    if !pure(&body[w]) || !later_ok(&body[w], &written_after, io_after) {
        return Vec::new();
    }
    in_chain[w] = true;
    let mut defs: HashMap<VReg, u32> = HashMap::default();
    // Where each register is read.
    let mut readers: HashMap<VReg, Vec<usize>> = HashMap::default();
    for (j, op) in body.iter().enumerate() {
        if let Some(d) = op.def() {
            *defs.entry(d).or_default() += 1;
        }
        op.uses(|r| readers.entry(r).or_default().push(j));
    }
    for at in (0..w).rev() {
        let op = &body[at];
        let joins = op.def().is_some_and(|d| {
            // Every read of the value (none before its definition: not loop-carried) is
            // the chain's, and there is at least one.
            pure(op)
                && defs[&d] == 1
                && !elsewhere.contains(&d)
                && readers
                    .get(&d)
                    .is_some_and(|rs| rs.iter().all(|&j| j > at && in_chain[j]))
                && later_ok(op, &written_after, io_after)
        });
        if joins {
            in_chain[at] = true;
        } else {
            stays(op, &mut written_after, &mut io_after);
        }
    }
    let mut members: Vec<usize> = (0..body.len()).filter(|&j| in_chain[j]).collect();
    // Give the first operations back while the chain reads too many values of the body.
    while members.len() >= MIN_CHAIN && crossing(body, &members).len() > MAX_CROSSING {
        members.remove(0);
    }
    if members.len() < MIN_CHAIN {
        return Vec::new();
    }
    members
}

/// The registers the chain reads that the rest of the body defines (ascending).
fn crossing(body: &[Op<VReg>], members: &[usize]) -> Vec<VReg> {
    let defined_outside: HashSet<VReg> = body
        .iter()
        .enumerate()
        .filter(|(j, _)| !members.contains(j))
        .filter_map(|(_, op)| op.def())
        .collect();
    let mut out: Vec<VReg> = members
        .iter()
        .flat_map(|&j| reads(&body[j]))
        .filter(|r| defined_outside.contains(r))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Rotate each one-block loop whose body ends in such a chain (see the module docs).
/// `vregs` is the number of virtual registers (the copies are numbered from it).
pub(crate) fn pipeline_chains(code: &mut Vec<Op<VReg>>, vregs: &mut u32) {
    let mut next_label = code
        .iter()
        .filter_map(|op| match op {
            Op::Label(l) | Op::Branch { target: l, .. } => Some(l.0 + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    // How often the program mentions each register (reads and writes), counted once.
    let mut mentions: HashMap<VReg, u32> = HashMap::default();
    for op in code.iter() {
        mention(op, |r| *mentions.entry(r).or_default() += 1);
    }
    let mut out: Vec<Op<VReg>> = Vec::with_capacity(code.len() + 64);
    let mut i = 0;
    let mut here = u32::MAX;
    while i < code.len() {
        if let Op::Source(s) = code[i] {
            here = s;
        }
        let Op::Label(l) = code[i] else {
            out.push(code[i].clone());
            i += 1;
            continue;
        };
        let end = (i + 1..code.len()).find(|&e| code[e].ends_block());
        let back = end.and_then(|e| match code[e] {
            Op::Branch { cond, target } if target == l => {
                negate_branch(cond).map(|exit| (e, cond, exit))
            }
            _ => None,
        });
        let Some((e, cond, exit_cond)) = back else {
            out.push(code[i].clone());
            i += 1;
            continue;
        };
        // The body's ops with the source each comes from (markers dropped, re-made below).
        let mut ops: Vec<(Op<VReg>, u32)> = Vec::new();
        let mut src = here;
        for op in &code[i + 1..e] {
            match op {
                Op::Source(s) => src = *s,
                _ => ops.push((op.clone(), src)),
            }
        }
        let body: Vec<Op<VReg>> = ops.iter().map(|(op, _)| op.clone()).collect();
        // Registers the program mentions outside this body: more mentions in all than in it.
        let mut inside: HashMap<VReg, u32> = HashMap::default();
        for op in &body {
            mention(op, |r| *inside.entry(r).or_default() += 1);
        }
        let elsewhere: HashSet<VReg> = inside
            .iter()
            .filter(|&(r, n)| mentions.get(r).is_some_and(|all| all > n))
            .map(|(r, _)| *r)
            .collect();
        let members = if body.len() > MAX_BODY_OPS {
            Vec::new()
        } else {
            chain(&body, &elsewhere)
        };
        if members.is_empty() {
            out.extend_from_slice(&code[i..=e]);
            here = src;
            i = e + 1;
            continue;
        }
        let copies: Vec<(VReg, VReg)> = crossing(&body, &members)
            .into_iter()
            .map(|x| {
                *vregs += 1;
                (x, VReg(*vregs - 1))
            })
            .collect();
        let copy_of: HashMap<VReg, VReg> = copies.iter().copied().collect();
        let mut a: Vec<(Op<VReg>, u32)> = ops
            .iter()
            .enumerate()
            .filter(|(j, _)| !members.contains(j))
            .map(|(_, o)| o.clone())
            .collect();
        let last_source = ops.last().map_or(here, |o| o.1);
        for &(x, c) in &copies {
            a.push((Op::mov(Dst::Reg(c), Src::Reg(x)), last_source));
        }
        let b: Vec<(Op<VReg>, u32)> = members
            .iter()
            .map(|&j| {
                let (op, s) = &ops[j];
                (op.map(|r| copy_of.get(&r).copied().unwrap_or(r)), *s)
            })
            .collect();
        let emit = |out: &mut Vec<Op<VReg>>, part: &[(Op<VReg>, u32)]| {
            let mut last = u32::MAX - 1;
            for (op, s) in part {
                if *s != last && *s != u32::MAX {
                    out.push(Op::Source(*s));
                }
                last = *s;
                out.push(op.clone());
            }
        };
        let (head, exit) = (Label(next_label), Label(next_label + 1));
        next_label += 2;
        out.push(Op::Label(l));
        emit(&mut out, &a);
        out.push(Op::Branch {
            cond: exit_cond,
            target: exit,
        });
        out.push(Op::Label(head));
        emit(&mut out, &b);
        emit(&mut out, &a);
        out.push(Op::Branch { cond, target: head });
        out.push(Op::Label(exit));
        emit(&mut out, &b);
        here = src;
        i = e + 1;
    }
    *code = out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use qpu_isa::vc4::{AddOp, BranchCond, MulOp};

    fn v(n: u32) -> Src<VReg> {
        Src::Reg(VReg(n))
    }

    fn fadd(d: u32, a: Src<VReg>, b: Src<VReg>) -> Op<VReg> {
        Op::alu(AluOp::Add(AddOp::Fadd), Dst::Reg(VReg(d)), a, b)
    }

    /// L0: ldtmu0; v1 = mov r4; v2 = fadd v1, v9; v3 = fadd v2, v1; v4 = fmul v3, v3;
    ///     vpm = fadd v4, v1; v5 = add v5, v8; flags = min v6, v5; brr.anyc L0
    fn stencil_loop() -> Vec<Op<VReg>> {
        vec![
            Op::Label(Label(0)),
            Op::Signal(qpu_isa::vc4::Signal::LoadTmu0),
            Op::mov(Dst::Reg(VReg(1)), Src::R4),
            fadd(2, v(1), v(9)),
            fadd(3, v(2), v(1)),
            Op::alu(AluOp::Mul(MulOp::Fmul), Dst::Reg(VReg(4)), v(3), v(3)),
            Op::alu(
                AluOp::Add(AddOp::Fadd),
                Dst::Write(IoWrite::Vpm),
                v(4),
                v(1),
            ),
            Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(VReg(5)), v(5), v(8)),
            Op::Alu {
                op: AluOp::Add(AddOp::Min),
                dst: Dst::None,
                a: v(6),
                b: v(5),
                cond: Cond::Always,
                sf: true,
                rotate: None,
            },
            Op::Branch {
                cond: BranchCond::AnyCarrySet,
                target: Label(0),
            },
            Op::ThreadEnd,
        ]
    }

    #[test]
    fn the_chain_moves_into_the_next_iteration() {
        let mut code = stencil_loop();
        let mut vregs = 10;
        pipeline_chains(&mut code, &mut vregs);
        let a = "    signal ldtmu0\n    v1 = mov r4\n    v5 = add v5, v8\n    \
                 flags = min v6, v5\n    v10 = mov v1\n";
        let b = "    v2 = fadd v10, v9\n    v3 = fadd v2, v10\n    v4 = fmul v3, v3\n    \
                 vpm = fadd v4, v10\n";
        assert_eq!(
            listing(&code),
            format!("L0:\n{a}    brr.allnc L2\nL1:\n{b}{a}    brr.anyc L1\nL2:\n{b}    thrend\n")
        );
        assert_eq!(vregs, 11);
    }

    #[test]
    fn a_chain_that_later_work_depends_on_stays() {
        // The loop test reads a value of the chain: nothing moves.
        let mut reads_chain = stencil_loop();
        reads_chain[7] = Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(VReg(5)), v(5), v(3));
        // An op after the chain rewrites what the chain's VPM write reads.
        let mut overwrites = stencil_loop();
        overwrites[7] = Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(VReg(1)), v(1), v(8));
        // A VPM write after the chain's (its order must stay).
        let mut second_write = stencil_loop();
        second_write.insert(7, Op::mov(Dst::Write(IoWrite::Vpm), v(5)));
        for original in [reads_chain, overwrites, second_write] {
            let mut code = original.clone();
            let mut vregs = 10;
            pipeline_chains(&mut code, &mut vregs);
            assert_eq!(listing(&code), listing(&original));
        }
    }
}

//! IR clean-ups before register allocation.

use rustc_hash::FxHashMap as HashMap;

use qpu_isa::Cond;

use super::ir::*;

/// Whether `op` computes a value from its operands alone (no I/O, flags or lanes masked).
fn pure_computation(op: &Op<VReg>) -> bool {
    match op {
        Op::Ldi {
            dst: Dst::Reg(_),
            cond: Cond::Always,
            ..
        } => true,
        Op::Alu {
            dst: Dst::Reg(_),
            a,
            b,
            cond: Cond::Always,
            sf: false,
            rotate: None,
            ..
        } => [a, b]
            .iter()
            .all(|s| matches!(s, Src::Reg(_) | Src::Imm(_) | Src::Read(IoRead::ElemNum))),
        _ => false,
    }
}

/// Loop-invariant code motion: a constant or a pure computation inside a loop whose
/// register has no other definition, and whose operands are not written inside the loop,
/// moves to just before the loop's first instruction (innermost loops first, so nested
/// loops hoist outwards). Equal computations there share one register. If registers run
/// short, the allocator re-materialises hoisted constants instead of spilling them.
///
/// Only temporaries (`first_temporary` and up) move: a variable's register may be read before
/// its assignment in the loop (a value from the previous iteration, or the initial zero).
/// Rotation sources (`pinned`, which must sit in an accumulator next to their rotation) stay.
pub fn hoist_invariants(code: &mut Vec<Op<VReg>>, first_temporary: u32, pinned: &[VReg]) {
    // Ops removed as duplicates leave this inert placeholder until the end, so a loop's
    // rewrite never moves code outside it: each loop is rewritten in place, in time linear
    // in its length (the whole program is not rescanned per change).
    const GONE: Op<VReg> = Op::Source(u32::MAX);
    let mut defs: HashMap<VReg, usize> = HashMap::default();
    for op in code.iter() {
        if let Some(d) = op.def() {
            *defs.entry(d).or_default() += 1;
        }
    }
    let mut label_at = HashMap::default();
    for (i, op) in code.iter().enumerate() {
        if let Op::Label(l) = op {
            label_at.insert(*l, i);
        }
    }
    // Loops as (start, end) index ranges, innermost (shortest) first. Nested loops are
    // rewritten inner first; a rewrite keeps every loop's bounds except its own start.
    let mut loops: Vec<(usize, usize)> = code
        .iter()
        .enumerate()
        .filter_map(|(i, op)| match op {
            Op::Branch { target, .. } if label_at[target] < i => Some((label_at[target], i)),
            _ => None,
        })
        .collect();
    loops.sort_by_key(|&(s, e)| e - s);
    // Registers merged with an equal computation; applied to the whole program at the end.
    let mut rename: HashMap<VReg, VReg> = HashMap::default();
    let resolve = |rename: &HashMap<VReg, VReg>, mut r: VReg| {
        while let Some(&to) = rename.get(&r) {
            r = to;
        }
        r
    };
    for &(first_start, end) in &loops {
        // Where the loop's label is now (hoisting moves it down past the hoisted ops).
        let mut start = first_start;
        while !matches!(code[start], Op::Label(_)) {
            start += 1;
        }
        loop {
            let mut written = rustc_hash::FxHashSet::default();
            for op in &code[start..=end] {
                if let Some(d) = op.def() {
                    written.insert(d);
                }
            }
            let movable: Vec<usize> = (start + 1..end)
                .filter(|&k| {
                    let op = &code[k];
                    let mut invariant = true;
                    op.uses(|r| invariant &= !written.contains(&resolve(&rename, r)));
                    pure_computation(op)
                        && invariant
                        && op.def().is_some_and(|d| {
                            defs[&d] == 1 && d.0 >= first_temporary && !pinned.contains(&d)
                        })
                })
                .collect();
            if movable.is_empty() {
                break;
            }
            // Computations already sitting right before the loop, by what they compute.
            let strip = |rename: &HashMap<VReg, VReg>, op: &Op<VReg>| {
                let d = op.def();
                op.map(|r| {
                    if Some(r) == d {
                        VReg(u32::MAX)
                    } else {
                        resolve(rename, r)
                    }
                })
            };
            let mut known: Vec<(Op<VReg>, VReg)> = Vec::new();
            let mut k = start;
            while k > 0 && (pure_computation(&code[k - 1]) || code[k - 1] == GONE) {
                if let Some(d) = code[k - 1].def() {
                    if defs[&d] == 1 && d.0 >= first_temporary {
                        known.push((strip(&rename, &code[k - 1]), d));
                    }
                }
                k -= 1;
            }
            let mut hoisted = Vec::new();
            for &m in &movable {
                let op = code[m].map(|r| resolve(&rename, r));
                let d = op.def().expect("pure computations define");
                let shape = strip(&rename, &op);
                match known.iter().find(|(o, _)| *o == shape) {
                    Some(&(_, keep)) => {
                        rename.insert(d, keep);
                    }
                    None => {
                        known.push((shape, d));
                        hoisted.push(op);
                    }
                }
            }
            // Rewrite start..end: placeholders, the hoisted ops, the label, the rest.
            let mut region: Vec<Op<VReg>> = Vec::with_capacity(end - start);
            region.extend(std::iter::repeat_n(GONE, movable.len() - hoisted.len()));
            region.extend(hoisted);
            let label_at = region.len();
            let mut next = movable.iter().peekable();
            for (k, op) in code[start..end].iter().enumerate() {
                if next.peek() == Some(&&(start + k)) {
                    next.next();
                } else {
                    region.push(op.clone());
                }
            }
            code.splice(start..end, region);
            start += label_at;
        }
    }
    code.retain(|op| *op != GONE);
    if !rename.is_empty() {
        for op in code.iter_mut() {
            *op = op.map(|r| resolve(&rename, r));
        }
    }
}

/// Drop a flag-setting test (no destination) that repeats the previous flag-setting op of
/// its basic block on the same operands when nothing those operands read has been written
/// since: the flags already hold its result. (`where_(index().eq(0), ..)` written three
/// times in a row tests once.)
pub fn reuse_flags(code: &mut Vec<Op<VReg>>) {
    let mut last: Option<Op<VReg>> = None;
    let mut keep = vec![true; code.len()];
    for (i, op) in code.iter().enumerate() {
        match op {
            Op::Label(_) | Op::Branch { .. } | Op::ThreadEnd | Op::Sema { .. } => last = None,
            Op::Alu {
                dst: Dst::None,
                sf: true,
                cond: Cond::Always,
                a,
                b,
                rotate: None,
                ..
            } => {
                let pure = |s: &Src<VReg>| {
                    matches!(s, Src::Reg(_) | Src::Imm(_))
                        || matches!(s, Src::Read(IoRead::ElemNum))
                };
                if last.as_ref() == Some(op) {
                    keep[i] = false;
                } else {
                    last = (pure(a) && pure(b)).then(|| op.clone());
                }
            }
            _ => {
                let sets_flags = matches!(op, Op::Alu { sf: true, .. });
                let writes_operand = match (&last, op.def()) {
                    (Some(Op::Alu { a, b, .. }), Some(d)) => *a == Src::Reg(d) || *b == Src::Reg(d),
                    _ => false,
                };
                if sets_flags || writes_operand {
                    last = None;
                }
            }
        }
    }
    let mut index = 0;
    code.retain(|_| {
        index += 1;
        keep[index - 1]
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use qpu_isa::{AddOp, BranchCond, SmallImm};

    fn v(n: u32) -> Src<VReg> {
        Src::Reg(VReg(n))
    }

    fn test(a: Src<VReg>, b: Src<VReg>) -> Op<VReg> {
        Op::Alu {
            op: AluOp::Add(AddOp::Sub),
            dst: Dst::None,
            a,
            b,
            cond: Cond::Always,
            sf: true,
            rotate: None,
        }
    }

    fn masked_add(d: u32, a: Src<VReg>, b: Src<VReg>) -> Op<VReg> {
        Op::Alu {
            op: AluOp::Add(AddOp::Add),
            dst: Dst::Reg(VReg(d)),
            a,
            b,
            cond: Cond::ZeroSet,
            sf: false,
            rotate: None,
        }
    }

    #[test]
    fn a_repeated_flag_test_is_dropped_until_an_operand_changes() {
        let mut code = vec![
            test(v(1), v(2)),
            masked_add(3, v(3), v(1)),
            test(v(1), v(2)),
            masked_add(4, v(4), v(1)),
            Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(VReg(1)), v(1), v(2)),
            test(v(1), v(2)),
        ];
        reuse_flags(&mut code);
        assert_eq!(
            listing(&code),
            "    flags = sub v1, v2\n    v3.ifz = add v3, v1\n    v4.ifz = add v4, v1\n    \
             v1 = add v1, v2\n    flags = sub v1, v2\n"
        );
    }

    #[test]
    fn invariant_temporaries_leave_the_loop_and_equal_ones_merge() {
        // v0 is a variable (below first_temporary = 5); v5..v7 are temporaries.
        let body = Label(0);
        let mut code = vec![
            Op::Label(body),
            Op::Ldi {
                dst: Dst::Reg(VReg(5)),
                imm: 0x1234,
                cond: Cond::Always,
            },
            Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(VReg(0)), v(0), v(5)),
            Op::Ldi {
                dst: Dst::Reg(VReg(6)),
                imm: 0x1234,
                cond: Cond::Always,
            },
            // Depends on the loop-carried variable: stays.
            Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(VReg(7)), v(0), v(6)),
            Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(VReg(0)), v(7), v(6)),
            test(v(0), Src::Imm(SmallImm::from_int(0).unwrap())),
            Op::Branch {
                cond: BranchCond::AnyZeroClear,
                target: body,
            },
        ];
        hoist_invariants(&mut code, 5, &[]);
        assert_eq!(
            listing(&code),
            "    v5 = ldi 0x1234\nL0:\n    v0 = add v0, v5\n    v7 = add v0, v5\n    \
             v0 = add v7, v5\n    flags = sub v0, 0\n    brr.anynz L0\n"
        );
    }
}

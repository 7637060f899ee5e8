//! IR clean-ups before register allocation.

use std::collections::HashMap;

use qpu_isa::Cond;

use super::ir::*;

/// Move 32-bit constants out of loops: a load immediate inside a loop whose register has no
/// other definition moves to just before the loop's first instruction (innermost loops
/// first, so nested loops hoist outwards), and equal constants there share one register.
/// If registers run short, the allocator re-materialises such constants instead of
/// spilling them.
pub fn hoist_constants(code: &mut Vec<Op<VReg>>) {
    loop {
        let mut defs: HashMap<VReg, usize> = HashMap::new();
        for op in code.iter() {
            if let Some(d) = op.def() {
                *defs.entry(d).or_default() += 1;
            }
        }
        let mut label_at = HashMap::new();
        for (i, op) in code.iter().enumerate() {
            if let Op::Label(l) = op {
                label_at.insert(*l, i);
            }
        }
        // Loops as (start, end) index ranges, innermost (shortest) first.
        let mut loops: Vec<(usize, usize)> = code
            .iter()
            .enumerate()
            .filter_map(|(i, op)| match op {
                Op::Branch { target, .. } if label_at[target] < i => Some((label_at[target], i)),
                _ => None,
            })
            .collect();
        loops.sort_by_key(|&(s, e)| e - s);
        let mut changed = false;
        for &(start, end) in &loops {
            let movable: Vec<usize> = (start + 1..end)
                .filter(|&k| {
                    matches!(
                        code[k],
                        Op::Ldi {
                            dst: Dst::Reg(r),
                            cond: Cond::Always,
                            ..
                        } if defs[&r] == 1
                    )
                })
                .collect();
            if movable.is_empty() {
                continue;
            }
            // Constants already sitting right before the loop.
            let mut known: HashMap<u32, VReg> = HashMap::new();
            let mut k = start;
            while k > 0 {
                match code[k - 1] {
                    Op::Ldi {
                        dst: Dst::Reg(r),
                        imm,
                        cond: Cond::Always,
                    } if defs[&r] == 1 => {
                        known.entry(imm).or_insert(r);
                        k -= 1;
                    }
                    _ => break,
                }
            }
            let mut rename: HashMap<VReg, VReg> = HashMap::new();
            let mut hoisted = Vec::new();
            for &m in movable.iter().rev() {
                let op = code.remove(m);
                if let Op::Ldi {
                    dst: Dst::Reg(r),
                    imm,
                    ..
                } = op
                {
                    match known.get(&imm) {
                        Some(&keep) => {
                            rename.insert(r, keep);
                        }
                        None => {
                            known.insert(imm, r);
                            hoisted.push(op);
                        }
                    }
                }
            }
            // The loop start did not move (all removals were after it).
            for op in hoisted {
                code.insert(start, op);
            }
            if !rename.is_empty() {
                for op in code.iter_mut() {
                    *op = op.map(|r| rename.get(&r).copied().unwrap_or(r));
                }
            }
            changed = true;
            break;
        }
        if !changed {
            return;
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

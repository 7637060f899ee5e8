//! IR clean-ups before register allocation.

use rustc_hash::FxHashMap as HashMap;

use qpu_isa::vc4::Cond;

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

/// Reads of a TMU result straight from r4.
///
/// A `receive`/load is a signal that puts the result in r4 and a copy to its variable. When
/// the variable dies in its block and every use of it can sit before the next r4 write (an
/// SFU or the next TMU result), the uses read r4 and the copy goes. Uses after the next r4
/// write move up to right after the copy, if they are plain register computations that
/// depend on nothing in between: Rot3D receives x and then y, and x's multiplications move
/// above y's receive. Besides the copy, this saves the register-file read latency and the
/// port clashes of the copied value. Values that must sit in an accumulator (rotation
/// sources) are not moved: moved up, they would hold one of the four accumulators for long.
pub fn forward_r4(code: &mut Vec<Op<VReg>>, vregs: u32, acc_only: &[VReg]) {
    let cfg = super::regalloc::cfg(code);
    let (_, live_out) = super::regalloc::liveness(code, &cfg, vregs as usize);
    let mut out = Vec::with_capacity(code.len());
    for (b, &(start, end)) in cfg.blocks.iter().enumerate() {
        let mut block: Vec<Op<VReg>> = code[start..end].to_vec();
        let mut i = 0;
        while i + 1 < block.len() {
            if matches!(block[i], Op::Signal(_)) {
                if let Some(v) = r4_copy(&block[i + 1]) {
                    if live_out[b].binary_search(&v.0).is_err()
                        && forward(&mut block, i + 1, v, acc_only)
                    {
                        continue;
                    }
                }
            }
            i += 1;
        }
        out.extend(block);
    }
    *code = out;
}

/// Uniform-stream reads are lowered as `t = mov unif`, one per read, in evaluation order.
/// Where the temporary `t` has exactly one use, later in the same block with nothing in
/// between that reads a uniform or points the stream (so the reads keep their order), that
/// instruction reads the uniform itself and the copy goes: `acc += s.next() * x` becomes
/// `fmul t2, unif, x; fadd acc, acc, t2`. Not when the user already reads a uniform (one
/// instruction reads at most one) or rotates.
pub fn fold_uniform_reads(code: &mut Vec<Op<VReg>>, first_temporary: u32, reads: &[VReg]) {
    let unif = Src::Read(IoRead::Uniform);
    let reads: rustc_hash::FxHashSet<VReg> = reads.iter().copied().collect();
    let mut uses: HashMap<VReg, u32> = HashMap::default();
    for op in code.iter() {
        op.uses(|r| *uses.entry(r).or_default() += 1);
    }
    let mut out: Vec<Op<VReg>> = Vec::with_capacity(code.len());
    let mut pending: Option<(usize, VReg)> = None;
    for op in code.drain(..) {
        if matches!(op, Op::Source(_)) {
            out.push(op);
            continue;
        }
        let mut op = op;
        if let Some((at, t)) = pending.take() {
            let mut reads_t = false;
            op.uses(|r| reads_t |= r == t);
            let mut touches_stream = false;
            if let Op::Alu { a, b, dst, .. } = &op {
                touches_stream =
                    *a == unif || *b == unif || *dst == Dst::Write(IoWrite::UniformsAddress);
            }
            let control = matches!(op, Op::Label(_) | Op::Branch { .. } | Op::ThreadEnd);
            if reads_t {
                if let Op::Alu {
                    a, b, rotate: None, ..
                } = &mut op
                {
                    if *a != unif && *b != unif {
                        for s in [a, b] {
                            if *s == Src::Reg(t) {
                                *s = unif;
                            }
                        }
                        out[at] = Op::Source(u32::MAX);
                    }
                }
            } else if !touches_stream && !control {
                // Not yet used: keep looking.
                pending = Some((at, t));
            }
        }
        if let Op::Alu {
            op: AluOp::Mov,
            dst: Dst::Reg(t),
            a,
            cond: Cond::Always,
            sf: false,
            rotate: None,
            ..
        } = &op
        {
            if *a == unif && t.0 >= first_temporary && uses.get(t) == Some(&1) && reads.contains(t)
            {
                pending = Some((out.len(), *t));
            }
        }
        out.push(op);
    }
    out.retain(|op| *op != Op::Source(u32::MAX));
    *code = out;
}

/// An I/O write of a value that a later op of the same block stores back into one of its
/// operands: `tmu0_s = add p, inc … p = add p, inc` (a prefetching loop's `gather(p + inc)`
/// before its `p += inc`). When nothing in between writes either operand or reads `p`, the
/// increment moves up and the I/O write copies its result: `p = add p, inc; tmu0_s = mov p`.
/// One add instead of two, and the copy may go to either ALU (Rot3D's loop does two
/// pointer adds on the add ALU instead of four).
pub fn share_io_increments(code: &mut [Op<VReg>]) {
    // How far ahead the increment is looked for (a gather and its pointer's increment sit
    // close together; a bound keeps long straight-line code linear).
    const SHARE_WINDOW: usize = 64;
    // A pure two-operand computation's parts: (opcode, a, b), operands registers or small
    // immediates only (an I/O read such as a uniform could not be read twice).
    fn parts(op: &Op<VReg>) -> Option<(AluOp, Src<VReg>, Src<VReg>)> {
        match op {
            Op::Alu {
                op: alu @ AluOp::Add(_),
                a,
                b,
                cond: Cond::Always,
                sf: false,
                rotate: None,
                ..
            } if [a, b]
                .iter()
                .all(|s| matches!(s, Src::Reg(_) | Src::Imm(_))) =>
            {
                Some((*alu, *a, *b))
            }
            _ => None,
        }
    }
    // The same opcode on the same operands, in either order where the opcode commutes
    // (the integer ones whose result does not depend on the order).
    fn same_value(
        (op, a, b): (AluOp, Src<VReg>, Src<VReg>),
        (op2, a2, b2): (AluOp, Src<VReg>, Src<VReg>),
    ) -> bool {
        use qpu_isa::vc4::AddOp::*;
        let commutes = matches!(op, AluOp::Add(Add | Min | Max | And | Or | Xor));
        op == op2 && ((a, b) == (a2, b2) || (commutes && (a, b) == (b2, a2)))
    }
    let mut i = 0;
    while i < code.len() {
        let (
            Op::Alu {
                dst: Dst::Write(io),
                ..
            },
            Some(computed),
        ) = (&code[i], parts(&code[i]))
        else {
            i += 1;
            continue;
        };
        let io = *io;
        let (_, a, b) = computed;
        let operands: Vec<VReg> = [a, b]
            .iter()
            .filter_map(|s| match s {
                Src::Reg(r) => Some(*r),
                _ => None,
            })
            .collect();
        // The later op recomputing the value into one of its own operands, if nothing in
        // between disturbs it; `None` once something does (or the block ends).
        let mut found = None;
        for (j, op) in code.iter().enumerate().skip(i + 1).take(SHARE_WINDOW) {
            if op.ends_block() {
                break;
            }
            if parts(op).is_some_and(|other| same_value(other, computed)) {
                if let Some(p) = op.def().filter(|p| operands.contains(p)) {
                    found = Some((j, p));
                    break;
                }
            }
            if op.def().is_some_and(|d| operands.contains(&d)) {
                break;
            }
        }
        let Some((j, p)) = found else {
            i += 1;
            continue;
        };
        // `p` keeps its old value up to `j`: nothing in between may read it.
        let mut read = false;
        for op in &code[i + 1..j] {
            op.uses(|r| read |= r == p);
        }
        if read {
            i += 1;
            continue;
        }
        // The increment moves up to `i` (a rotation within the window, not a shift of the
        // whole program), the I/O write after it copies its result.
        code[i..=j].rotate_right(1);
        code[i + 1] = Op::mov(Dst::Write(io), Src::Reg(p));
        i += 2;
    }
}

/// How many times each register is read or written in `code` (an op reading a register
/// twice counts once; a conditional write counts as a read and a write).
fn mention_counts(code: &[Op<VReg>]) -> HashMap<VReg, u32> {
    let mut mentions: HashMap<VReg, u32> = HashMap::default();
    for op in code {
        op.uses(|r| *mentions.entry(r).or_default() += 1);
        if let Some(d) = op.def() {
            *mentions.entry(d).or_default() += 1;
        }
    }
    mentions
}

/// A rotation that only feeds one conditional copy becomes that copy: `t = rot(s, n) …
/// d.ifz = mov t` turns into `d.ifz = rot(s, n)`. The guide (section "Vector rotation"
/// and the condition codes of the write) has the mul ALU rotate its result before the
/// per-lane write condition applies, so the masked rotation writes exactly the lanes the
/// copy wrote, with the values the copy would have written. HeatMap's window edges
/// (`where_(index().eq(0), || left.set(rotate(prev, 1)))`) are this shape.
///
/// It applies when `t` is defined once and read once, by a rotation by a constant whose
/// operands are registers or small immediates that nothing in between redefines, in the
/// same block as the copy. The rotation's source (which must sit in an accumulator, one of
/// `acc_only`) then lives up to the copy, so nothing in between may define another
/// accumulator-only value: the accumulators in use there stay those in use at the rotation.
pub fn fuse_masked_rotations(code: &mut Vec<Op<VReg>>, acc_only: &[VReg]) {
    const FUSE_WINDOW: usize = 16;
    let acc_only: rustc_hash::FxHashSet<VReg> = acc_only.iter().copied().collect();
    let mentions = mention_counts(code);
    let plain = |s: &Src<VReg>| matches!(s, Src::Reg(_) | Src::Imm(_));
    let mut removed = vec![false; code.len()];
    for j in 0..code.len() {
        let Op::Alu {
            op: AluOp::Mov,
            dst: dst @ Dst::Reg(_),
            a: Src::Reg(t),
            cond,
            sf: false,
            rotate: None,
            ..
        } = code[j]
        else {
            continue;
        };
        // A definition and this read: nothing else may see `t`.
        if cond == Cond::Always || mentions.get(&t) != Some(&2) {
            continue;
        }
        // The rotation is looked for a bounded distance back (where_ puts its masked copy
        // right after the flag test), so long straight-line code stays linear.
        let mut found = None;
        for i in (j.saturating_sub(FUSE_WINDOW)..j).rev() {
            let op = &code[i];
            if op.ends_block() {
                break;
            }
            if op.def() == Some(t) {
                found = Some(i);
                break;
            }
        }
        let Some(i) = found else { continue };
        let Op::Alu {
            op: rot_op @ AluOp::Mul(_),
            a,
            b,
            cond: Cond::Always,
            sf: false,
            rotate: rotate @ Some(Rotation::By(_)),
            ..
        } = code[i]
        else {
            continue;
        };
        if !plain(&a) || !plain(&b) {
            continue;
        }
        let operand = |r: VReg| Src::Reg(r) == a || Src::Reg(r) == b;
        if code[i + 1..j].iter().any(|op| {
            op.def()
                .is_some_and(|d| operand(d) || acc_only.contains(&d))
        }) {
            continue;
        }
        code[j] = Op::Alu {
            op: rot_op,
            dst,
            a,
            b,
            cond,
            sf: false,
            rotate,
        };
        removed[i] = true;
    }
    let mut index = 0;
    code.retain(|_| {
        index += 1;
        !removed[index - 1]
    });
}

/// A rotation's source built in place: `t = mov x; … t.cond = mov y; … s = mov t; d =
/// rot(s, n)`, where `s` is the accumulator the rotation needs and `t` feeds nothing but
/// that copy, becomes `s = mov x; … s.cond = mov y; … d = rot(s, n)`: one copy fewer. The
/// driver's window-edge rewrite (`common::rewrite::select_before_rotating`, which selects
/// the edge lane before rotating) leaves exactly this shape for HeatMap's edges.
///
/// It applies when `s` is defined once and read once, `t` is defined only by copies in the
/// same block (the first unconditional) and read only by the copy into `s`, within a short
/// span that defines no other accumulator-only value. The copies into `s` move down to the
/// rotation, so the accumulator is busy only there; each copy's source must keep its value
/// (and a conditional copy its flags) up to the rotation.
pub fn build_rotation_sources_in_place(code: &mut Vec<Op<VReg>>, acc_only: &[VReg]) {
    const WINDOW: usize = 8;
    let acc_only: rustc_hash::FxHashSet<VReg> = acc_only.iter().copied().collect();
    let mentions = mention_counts(code);
    let plain_copy = |op: &Op<VReg>| match op {
        Op::Alu {
            op: AluOp::Mov,
            dst: Dst::Reg(d),
            a: Src::Reg(x),
            b: Src::Reg(x2),
            cond,
            sf: false,
            rotate: None,
        } if x == x2 => Some((*d, *x, *cond)),
        _ => None,
    };
    let mut moved: Vec<(usize, Vec<Op<VReg>>)> = Vec::new();
    let mut removed = vec![false; code.len()];
    for y in 0..code.len() {
        let Op::Alu {
            op: AluOp::Mul(qpu_isa::vc4::MulOp::V8min),
            a: Src::Reg(s),
            b: Src::Reg(s2),
            rotate: Some(Rotation::By(_)),
            ..
        } = code[y]
        else {
            continue;
        };
        if s != s2 || !acc_only.contains(&s) || mentions.get(&s) != Some(&2) || y == 0 {
            continue;
        }
        let x = y - 1;
        let Some((d, t, Cond::Always)) = plain_copy(&code[x]) else {
            continue;
        };
        if d != s || acc_only.contains(&t) || removed[x] {
            continue;
        }
        // `t`'s definitions, walking back from the copy within the block and the window.
        let mut defs = Vec::new();
        let mut first = None;
        for i in (0..x)
            .rev()
            .take(WINDOW)
            .take_while(|&i| !code[i].ends_block())
        {
            let op = &code[i];
            if op.def() == Some(t) {
                let Some((_, _, cond)) = plain_copy(op) else {
                    break;
                };
                defs.push(i);
                if cond == Cond::Always {
                    first = Some(i);
                    break;
                }
            } else if op.def().is_some_and(|r| acc_only.contains(&r)) {
                break;
            }
        }
        let Some(first) = first else { continue };
        // `t` is mentioned by its definitions (a conditional one reads it too) and the one
        // copy, nowhere else.
        let own = defs
            .iter()
            .map(|&i| if first == i { 1 } else { 2 })
            .sum::<u32>()
            + 1;
        if mentions.get(&t) != Some(&own)
            || (first..x).any(|i| !defs.contains(&i) && code[i].def() == Some(t))
        {
            continue;
        }
        // The definitions move down to the rotation (the accumulator then lives only
        // there): each source must keep its value, and a conditional copy its flags, up to
        // the rotation.
        let keeps = defs.iter().all(|&i| {
            let (_, from, cond) = plain_copy(&code[i]).expect("a copy");
            (i + 1..y).all(|j| {
                code[j].def() != Some(from)
                    && (cond == Cond::Always || defs.contains(&j) || !writes_flags(&code[j]))
            })
        });
        if !keeps {
            continue;
        }
        for &i in &defs {
            removed[i] = true;
        }
        let mut ops: Vec<Op<VReg>> = defs.iter().rev().map(|&i| code[i].clone()).collect();
        for op in &mut ops {
            if let Op::Alu { dst, .. } = op {
                *dst = Dst::Reg(s);
            }
        }
        moved.push((x, ops));
    }
    if moved.is_empty() {
        return;
    }
    let old = std::mem::take(code);
    let mut moved = moved.into_iter().peekable();
    for (i, op) in old.into_iter().enumerate() {
        if moved.peek().is_some_and(|(x, _)| *x == i) {
            code.extend(moved.next().expect("peeked").1);
        } else if !removed[i] {
            code.push(op);
        }
    }
}

/// Whether `op` sets the flags.
fn writes_flags(op: &Op<VReg>) -> bool {
    super::schedule::effects(op)
        .writes
        .iter()
        .any(|(r, _)| *r == super::schedule::Res::Flags)
}

/// `v` if `op` is `v = mov r4`.
fn r4_copy(op: &Op<VReg>) -> Option<VReg> {
    match op {
        Op::Alu {
            op: AluOp::Mov,
            dst: Dst::Reg(v),
            a: Src::R4,
            cond: Cond::Always,
            sf: false,
            rotate: None,
            ..
        } => Some(*v),
        _ => None,
    }
}

/// Whether `op` writes r4 (a TMU result or an SFU start).
fn writes_r4(op: &Op<VReg>) -> bool {
    matches!(
        op,
        Op::Signal(_)
            | Op::Alu {
                dst: Dst::Write(IoWrite::Sfu(_)),
                ..
            }
    )
}

/// Forward the copy `v = mov r4` at `block[at]` into its uses (moving late ones up); false,
/// leaving `block` as it was, if some use cannot read r4.
fn forward(block: &mut Vec<Op<VReg>>, at: usize, v: VReg, acc_only: &[VReg]) -> bool {
    // The uses of this value of v: up to v's next full write (a partial write keeps lanes).
    let mut uses = Vec::new();
    for (j, op) in block.iter().enumerate().skip(at + 1) {
        let mut reads = false;
        op.uses(|r| reads |= r == v);
        let defines = op.def() == Some(v);
        if reads {
            match op {
                Op::Alu {
                    a,
                    b,
                    dst,
                    cond,
                    rotate: None,
                    ..
                } if (*a == Src::Reg(v) || *b == Src::Reg(v))
                    && !(*cond != Cond::Always && *dst == Dst::Reg(v)) =>
                {
                    uses.push(j)
                }
                _ => return false,
            }
        }
        if defines {
            if !op.writes_all_lanes() {
                return false;
            }
            break;
        }
    }
    if uses.is_empty() {
        return false;
    }
    let next_r4 = (at + 1..block.len()).find(|&j| writes_r4(&block[j]));
    // Uses after the next r4 write move up to just after the copy, in order.
    let late: Vec<usize> = uses
        .iter()
        .copied()
        .filter(|&u| next_r4.is_some_and(|w| u > w))
        .collect();
    let mut moved = block.clone();
    for (insert_at, &u) in (at + 1..).zip(late.iter()) {
        let op = moved[u].clone();
        // A plain register computation: no I/O read (uniforms, VPM) whose order matters.
        let movable = matches!(
            &op,
            Op::Alu {
                dst: Dst::Reg(_),
                a,
                b,
                cond: Cond::Always,
                sf: false,
                rotate: None,
                ..
            } if !matches!(a, Src::Read(_)) && !matches!(b, Src::Read(_))
        );
        if !movable || op.def().is_some_and(|d| acc_only.contains(&d)) {
            return false;
        }
        let d = op.def();
        let mut reads = Vec::new();
        op.uses(|r| reads.push(r));
        // Nothing between may define an operand, or read or write the result.
        for between in &moved[insert_at..u] {
            let mut conflict = between
                .def()
                .is_some_and(|x| reads.contains(&x) || Some(x) == d);
            between.uses(|r| conflict |= Some(r) == d);
            if conflict {
                return false;
            }
        }
        moved.remove(u);
        moved.insert(insert_at, op);
    }
    // Every use now sits before the next r4 write: read r4 there.
    let next_r4 = (at + 1..moved.len()).find(|&j| writes_r4(&moved[j]));
    for op in moved
        .iter_mut()
        .skip(at + 1)
        .take(next_r4.map_or(usize::MAX, |w| w - at - 1))
    {
        let redefines = op.def() == Some(v);
        if let Op::Alu { a, b, .. } = op {
            for s in [a, b] {
                if *s == Src::Reg(v) {
                    *s = Src::R4;
                }
            }
        }
        if redefines {
            break;
        }
    }
    // Any use left after the next r4 write (there should be none) would be wrong.
    let mut left = false;
    if let Some(w) = next_r4 {
        for op in &moved[w..] {
            if op.def() == Some(v) {
                break;
            }
            op.uses(|r| left |= r == v);
        }
    }
    if left {
        return false;
    }
    moved.remove(at);
    *block = moved;
    true
}

/// Pointers that advance by the same step in a loop share one offset: `p = add p, s …
/// tmu0_s = mov p` for each of several `p` becomes `o = add o, s` once and `tmu0_s = add p,
/// o` per pointer, the pointers themselves staying put in the loop (HeatMap's three row
/// cursors and its store pointer all advance by 64 bytes per iteration: four increments
/// become one). `o` starts at zero on the way into the loop, and on the way out each pointer
/// still needed takes its final value, `p = add p, o`.
///
/// Applies to a single-block loop whose back branch is the only branch to its label, to
/// pointers written once in the body (`p = add p, s` with `s` a small immediate or a
/// register the body does not write) and read there only after that, by plain copies; and
/// to loop bodies of at most `max_body` ops. Short bodies are bound by the ops they issue,
/// so each increment saved is an instruction saved; long ones (HeatMap's) are bound by
/// their dependence chains, where the saving is lost to the fix-ups on the way out
/// (measured in `qpu bench`: Rot3D's 16 vertices take 10 instructions instead of 11,
/// HeatMap's loop stays at 37 and the whole step issues 1% more).
pub(crate) fn share_induction_offsets(code: &mut Vec<Op<VReg>>, vregs: &mut u32, max_body: usize) {
    let mut branches_to: HashMap<Label, usize> = HashMap::default();
    for op in code.iter() {
        if let Op::Branch { target, .. } = op {
            *branches_to.entry(*target).or_default() += 1;
        }
    }
    let mut i = 0;
    while i < code.len() {
        let Op::Label(l) = code[i] else {
            i += 1;
            continue;
        };
        let Some(end) = (i + 1..code.len()).find(|&e| code[e].ends_block()) else {
            break;
        };
        let is_loop = matches!(code[end], Op::Branch { cond, target }
            if target == l && cond != qpu_isa::vc4::BranchCond::Always);
        if !is_loop || branches_to.get(&l) != Some(&1) {
            i = end;
            continue;
        }
        let body_ops = code[i + 1..end]
            .iter()
            .filter(|op| !matches!(op, Op::Source(_)))
            .count();
        // (The length first: the group search is quadratic in the body.)
        if body_ops > max_body {
            i = end;
            continue;
        }
        let group = induction_group(&code[i + 1..end]);
        if group.len() < 2 {
            i = end;
            continue;
        }
        // Pointers needed after the loop: live where its exit leads.
        let cfg = super::regalloc::cfg(code);
        let (live_in, _) = super::regalloc::liveness(code, &cfg, *vregs as usize);
        let exit_live: Vec<u32> = cfg
            .blocks
            .iter()
            .position(|&(from, _)| from == end + 1)
            .map(|b| live_in[b].to_vec())
            .unwrap_or_default();
        let offset = VReg(*vregs);
        *vregs += 1;
        let step = group[0].2;
        let first = group
            .iter()
            .map(|&(_, at, _)| at)
            .min()
            .expect("two pointers");
        let pointers: Vec<VReg> = group.iter().map(|&(p, _, _)| p).collect();
        for &(_, at, _) in &group {
            code[i + 1 + at] = if at == first {
                Op::alu(
                    AluOp::Add(qpu_isa::vc4::AddOp::Add),
                    Dst::Reg(offset),
                    Src::Reg(offset),
                    step,
                )
            } else {
                Op::Source(u32::MAX)
            };
        }
        for op in &mut code[i + 1..end] {
            if let Some((dst, p)) = copy_of(op).filter(|(_, p)| pointers.contains(p)) {
                *op = Op::alu(
                    AluOp::Add(qpu_isa::vc4::AddOp::Add),
                    dst,
                    Src::Reg(p),
                    Src::Reg(offset),
                );
            }
        }
        let fixups: Vec<Op<VReg>> = pointers
            .iter()
            .filter(|p| exit_live.binary_search(&p.0).is_ok())
            .map(|&p| {
                Op::alu(
                    AluOp::Add(qpu_isa::vc4::AddOp::Add),
                    Dst::Reg(p),
                    Src::Reg(p),
                    Src::Reg(offset),
                )
            })
            .collect();
        let added = fixups.len();
        code.splice(end + 1..end + 1, fixups);
        let zero = Src::Imm(qpu_isa::vc4::SmallImm::from_int(0).expect("0 is a small immediate"));
        code.insert(i, Op::mov(Dst::Reg(offset), zero));
        i = end + 2 + added;
    }
    code.retain(|op| *op != Op::Source(u32::MAX));
}

/// A copy `dst = mov p` of a register: `(dst, p)`.
fn copy_of(op: &Op<VReg>) -> Option<(Dst<VReg>, VReg)> {
    match op {
        Op::Alu {
            op: AluOp::Mov,
            dst,
            a: Src::Reg(p),
            cond: Cond::Always,
            sf: false,
            rotate: None,
            ..
        } => Some((*dst, *p)),
        _ => None,
    }
}

/// The largest set of pointers of a loop body that advance by one step: (pointer, index
/// of its increment, step). See [`share_induction_offsets`].
fn induction_group(body: &[Op<VReg>]) -> Vec<(VReg, usize, Src<VReg>)> {
    let mut writes: HashMap<VReg, usize> = HashMap::default();
    for op in body {
        if let Some(d) = op.def() {
            *writes.entry(d).or_default() += 1;
        }
    }
    let mut candidates: Vec<(VReg, usize, Src<VReg>)> = Vec::new();
    for (at, op) in body.iter().enumerate() {
        let Op::Alu {
            op: AluOp::Add(qpu_isa::vc4::AddOp::Add),
            dst: Dst::Reg(p),
            a,
            b,
            cond: Cond::Always,
            sf: false,
            rotate: None,
        } = op
        else {
            continue;
        };
        let step = match (a, b) {
            (Src::Reg(x), s) | (s, Src::Reg(x)) if x == p && *s != Src::Reg(*p) => *s,
            _ => continue,
        };
        let invariant = match step {
            Src::Imm(_) => true,
            Src::Reg(s) => !writes.contains_key(&s),
            _ => false,
        };
        if !invariant || writes[p] != 1 {
            continue;
        }
        // Read only after the increment, and only by copies.
        let mut fits = true;
        for (k, other) in body.iter().enumerate() {
            if k == at {
                continue;
            }
            let mut reads = false;
            other.uses(|r| reads |= r == *p);
            if reads && (k < at || copy_of(other).is_none_or(|(d, _)| d == Dst::Reg(*p))) {
                fits = false;
            }
        }
        if fits {
            candidates.push((*p, at, step));
        }
    }
    // The step most pointers share (the first such, for a stable result).
    let mut best: Vec<(VReg, usize, Src<VReg>)> = Vec::new();
    for &(_, _, step) in &candidates {
        let group: Vec<_> = candidates
            .iter()
            .copied()
            .filter(|&(_, _, s)| s == step)
            .collect();
        if group.len() > best.len() {
            best = group;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use qpu_isa::vc4::{AddOp, BranchCond, SmallImm};

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

    fn add(d: Dst<VReg>, a: Src<VReg>, b: Src<VReg>) -> Op<VReg> {
        Op::alu(AluOp::Add(AddOp::Add), d, a, b)
    }

    /// `L0: p = add p, s; tmu0_s = mov p; q = add q, s; tmu0_s = mov q; n -= 1; brr L0`,
    /// then `out = mov p` after the loop (p is needed there, q is not).
    fn two_pointer_loop() -> Vec<Op<VReg>> {
        let s = v(2);
        vec![
            Op::mov(Dst::Reg(VReg(0)), Src::Read(IoRead::Uniform)),
            Op::mov(Dst::Reg(VReg(1)), Src::Read(IoRead::Uniform)),
            Op::mov(Dst::Reg(VReg(2)), Src::Read(IoRead::Uniform)),
            Op::mov(Dst::Reg(VReg(3)), Src::Read(IoRead::Uniform)),
            Op::Label(Label(0)),
            add(Dst::Reg(VReg(0)), v(0), s),
            Op::mov(Dst::Write(IoWrite::TmuS(0)), v(0)),
            add(Dst::Reg(VReg(1)), s, v(1)),
            Op::mov(Dst::Write(IoWrite::TmuS(0)), v(1)),
            Op::Alu {
                op: AluOp::Add(AddOp::Sub),
                dst: Dst::Reg(VReg(3)),
                a: v(3),
                b: Src::Imm(SmallImm::from_int(1).unwrap()),
                cond: Cond::Always,
                sf: true,
                rotate: None,
            },
            Op::Branch {
                cond: BranchCond::AnyZeroClear,
                target: Label(0),
            },
            Op::mov(Dst::Write(IoWrite::Vpm), v(0)),
        ]
    }

    #[test]
    fn pointers_with_one_step_share_an_offset() {
        let mut code = two_pointer_loop();
        let mut vregs = 4;
        share_induction_offsets(&mut code, &mut vregs, 40);
        assert_eq!(vregs, 5);
        let o = v(4);
        let zero = Src::Imm(SmallImm::from_int(0).unwrap());
        assert_eq!(
            code[4..],
            [
                Op::mov(Dst::Reg(VReg(4)), zero),
                Op::Label(Label(0)),
                add(Dst::Reg(VReg(4)), o, v(2)),
                add(Dst::Write(IoWrite::TmuS(0)), v(0), o),
                add(Dst::Write(IoWrite::TmuS(0)), v(1), o),
                two_pointer_loop()[9].clone(),
                two_pointer_loop()[10].clone(),
                // Only p is live after the loop.
                add(Dst::Reg(VReg(0)), v(0), o),
                Op::mov(Dst::Write(IoWrite::Vpm), v(0)),
            ]
        );
    }

    #[test]
    fn pointer_offsets_keep_out_of_long_loops_and_unlike_pointers() {
        // A body longer than the limit stays.
        let mut code = two_pointer_loop();
        let before = code.clone();
        share_induction_offsets(&mut code, &mut 4, 4);
        assert_eq!(code, before);
        // Different steps: nothing shared.
        let mut code = two_pointer_loop();
        code[7] = add(Dst::Reg(VReg(1)), v(1), v(3));
        let before = code.clone();
        share_induction_offsets(&mut code, &mut 4, 40);
        assert_eq!(code, before);
        // A pointer read before its increment, or by anything but a copy, stays out of the
        // group (leaving one pointer: nothing to share).
        for (at, op) in [
            (5, Op::mov(Dst::Write(IoWrite::TmuS(0)), v(0))),
            (6, add(Dst::Write(IoWrite::TmuS(0)), v(0), v(3))),
        ] {
            let mut code = two_pointer_loop();
            code.insert(at, op);
            let before = code.clone();
            share_induction_offsets(&mut code, &mut 4, 40);
            assert_eq!(code, before);
        }
    }

    #[test]
    fn a_gather_of_the_next_pointer_shares_the_increment() {
        // gather(p + inc); x = receive; p += inc   (p = v0, inc = v1)
        let tmu = Dst::Write(IoWrite::TmuS(0));
        let mut code = vec![
            add(tmu, v(0), v(1)),
            Op::Signal(qpu_isa::vc4::Signal::LoadTmu0),
            Op::mov(Dst::Reg(VReg(2)), Src::R4),
            add(Dst::Reg(VReg(0)), v(1), v(0)),
        ];
        share_io_increments(&mut code);
        assert_eq!(
            listing(&code),
            "    v0 = add v1, v0\n    tmu0_s = mov v0\n    signal ldtmu0\n    v2 = mov r4\n"
        );
    }

    #[test]
    fn the_increment_stays_where_the_old_pointer_is_read_or_an_operand_changes() {
        let tmu = Dst::Write(IoWrite::TmuS(0));
        // p read in between (a store of the old pointer's data would move): unchanged.
        let read_between = vec![
            add(tmu, v(0), v(1)),
            Op::mov(Dst::Write(IoWrite::VwAddr), v(0)),
            add(Dst::Reg(VReg(0)), v(0), v(1)),
        ];
        // inc written in between: the later add computes another value.
        let written_between = vec![
            add(tmu, v(0), v(1)),
            add(Dst::Reg(VReg(1)), v(1), v(1)),
            add(Dst::Reg(VReg(0)), v(0), v(1)),
        ];
        // A label in between: another block.
        let other_block = vec![
            add(tmu, v(0), v(1)),
            Op::Label(Label(3)),
            add(Dst::Reg(VReg(0)), v(0), v(1)),
        ];
        // A uniform read twice would read two uniforms.
        let unif = Src::Read(IoRead::Uniform);
        let uniform = vec![add(tmu, v(0), unif), add(Dst::Reg(VReg(0)), v(0), unif)];
        for original in [read_between, written_between, other_block, uniform] {
            let mut code = original.clone();
            share_io_increments(&mut code);
            assert_eq!(code, original);
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

    fn fmul(d: u32, a: Src<VReg>, b: Src<VReg>) -> Op<VReg> {
        Op::alu(
            AluOp::Mul(qpu_isa::vc4::MulOp::Fmul),
            Dst::Reg(VReg(d)),
            a,
            b,
        )
    }

    fn receive(d: u32) -> [Op<VReg>; 2] {
        [
            Op::Signal(qpu_isa::vc4::Signal::LoadTmu0),
            Op::mov(Dst::Reg(VReg(d)), Src::R4),
        ]
    }

    #[test]
    fn a_received_value_used_only_in_its_block_is_read_from_r4() {
        // x = receive; y = receive; x*c, y*c, x*s (v1 = c, v2 = s).
        let mut code = vec![Op::Label(Label(0))];
        code.extend(receive(10));
        code.extend(receive(11));
        code.push(fmul(20, v(10), v(1)));
        code.push(fmul(21, v(11), v(1)));
        code.push(fmul(22, v(10), v(2)));
        code.push(Op::alu(
            AluOp::Add(AddOp::Fadd),
            Dst::Write(IoWrite::Vpm),
            v(20),
            v(21),
        ));
        code.push(Op::alu(
            AluOp::Add(AddOp::Fadd),
            Dst::Write(IoWrite::Vpm),
            v(22),
            v(22),
        ));
        forward_r4(&mut code, 30, &[]);
        // x's products move above y's receive; both copies are gone.
        assert_eq!(
            listing(&code),
            "L0:\n    signal ldtmu0\n    v20 = fmul r4, v1\n    v22 = fmul r4, v2\n    \
             signal ldtmu0\n    v21 = fmul r4, v1\n    vpm = fadd v20, v21\n    \
             vpm = fadd v22, v22\n"
        );
    }

    #[test]
    fn a_received_value_live_after_its_block_keeps_its_copy() {
        let mut code = vec![Op::Label(Label(0))];
        code.extend(receive(10));
        code.push(fmul(20, v(10), v(1)));
        code.push(Op::Branch {
            cond: BranchCond::AllZeroSet,
            target: Label(0),
        });
        // v10 is read after the branch.
        code.push(fmul(21, v(10), v(1)));
        let before = listing(&code);
        forward_r4(&mut code, 30, &[]);
        assert_eq!(listing(&code), before);
    }

    fn rotation_where(d: u32, s: u32, by: u8, cond: Cond) -> Op<VReg> {
        Op::Alu {
            op: AluOp::Mul(qpu_isa::vc4::MulOp::V8min),
            dst: Dst::Reg(VReg(d)),
            a: v(s),
            b: v(s),
            cond,
            sf: false,
            rotate: Some(Rotation::By(by)),
        }
    }

    fn rotation(d: u32, s: u32, by: u8) -> Op<VReg> {
        rotation_where(d, s, by, Cond::Always)
    }

    fn masked_copy(d: u32, s: u32) -> Op<VReg> {
        Op::Alu {
            op: AluOp::Mov,
            dst: Dst::Reg(VReg(d)),
            a: v(s),
            b: v(s),
            cond: Cond::ZeroSet,
            sf: false,
            rotate: None,
        }
    }

    #[test]
    fn a_rotation_feeding_only_a_masked_copy_becomes_a_masked_rotation() {
        let flags = test(
            Src::Read(IoRead::ElemNum),
            Src::Imm(SmallImm::from_int(0).unwrap()),
        );
        let mut code = vec![rotation(1, 0, 1), flags.clone(), masked_copy(2, 1)];
        fuse_masked_rotations(&mut code, &[VReg(0)]);
        assert_eq!(code, vec![flags, rotation_where(2, 0, 1, Cond::ZeroSet)]);
    }

    #[test]
    fn a_rotation_read_twice_or_with_its_source_changed_stays() {
        let flags = test(
            Src::Read(IoRead::ElemNum),
            Src::Imm(SmallImm::from_int(0).unwrap()),
        );
        // Read again after the masked copy.
        let twice = vec![
            rotation(1, 0, 1),
            flags.clone(),
            masked_copy(2, 1),
            add(Dst::Reg(VReg(3)), v(1), v(1)),
        ];
        // Its source written between the rotation and the copy.
        let source = vec![
            rotation(1, 0, 15),
            add(Dst::Reg(VReg(0)), v(4), v(4)),
            masked_copy(2, 1),
        ];
        // A block boundary between them.
        let label = vec![rotation(1, 0, 1), Op::Label(Label(0)), masked_copy(2, 1)];
        // An unconditional copy is a plain copy (coalescing's business).
        let plain = vec![rotation(1, 0, 1), Op::mov(Dst::Reg(VReg(2)), v(1))];
        // Another accumulator-only value (a second rotation's source) defined in between:
        // fusing would keep two sources in accumulators at once.
        let pressure = vec![
            rotation(1, 0, 1),
            Op::mov(Dst::Reg(VReg(5)), v(4)),
            rotation(6, 5, 15),
            masked_copy(2, 1),
        ];
        for code in [twice, source, label, plain, pressure] {
            let mut fused = code.clone();
            fuse_masked_rotations(&mut fused, &[VReg(0), VReg(5)]);
            assert_eq!(fused, code);
        }
    }

    /// A window edge as the driver's `select_before_rotating` rewrite leaves it after
    /// lowering: `t = mov x; <lane test>; t.ifz = mov y; s = mov t; d = rot(s, n); <other
    /// flags>`, with `s` (v0) accumulator-only.
    fn selected_edge() -> Vec<Op<VReg>> {
        vec![
            Op::mov(Dst::Reg(VReg(1)), v(10)),
            test(v(12), v(13)),
            masked_copy(1, 11),
            Op::mov(Dst::Reg(VReg(0)), v(1)),
            rotation(2, 0, 1),
            test(v(12), v(13)),
        ]
    }

    #[test]
    fn a_rotation_source_is_built_in_its_accumulator() {
        let mut code = selected_edge();
        build_rotation_sources_in_place(&mut code, &[VReg(0)]);
        assert_eq!(
            code,
            vec![
                test(v(12), v(13)),
                Op::mov(Dst::Reg(VReg(0)), v(10)),
                masked_copy(0, 11),
                rotation(2, 0, 1),
                test(v(12), v(13)),
            ],
            "{}",
            listing(&code)
        );
    }

    #[test]
    fn rotation_sources_that_cannot_be_built_in_place_stay() {
        let mut cases = Vec::new();
        // The selected value is read again after the rotation.
        let mut read = selected_edge();
        read.push(add(Dst::Reg(VReg(8)), v(1), v(1)));
        cases.push(read);
        // A copied register changes before the rotation.
        for (at, x) in [(1, 10), (3, 11)] {
            let mut changed = selected_edge();
            changed.insert(at, add(Dst::Reg(VReg(x)), v(12), v(12)));
            cases.push(changed);
        }
        // The flags change between the conditional copy and the rotation.
        let mut flags = selected_edge();
        flags.insert(3, test(v(13), v(12)));
        cases.push(flags);
        // The first definition is conditional (the value comes from elsewhere).
        let mut conditional = selected_edge();
        conditional[0] = masked_copy(1, 10);
        cases.push(conditional);
        // Another accumulator-only value is defined in the span.
        let mut busy = selected_edge();
        busy.insert(1, Op::mov(Dst::Reg(VReg(5)), v(12)));
        busy.push(add(Dst::Reg(VReg(8)), v(5), v(5)));
        cases.push(busy);
        for code in cases {
            let mut built = code.clone();
            build_rotation_sources_in_place(&mut built, &[VReg(0), VReg(5)]);
            assert_eq!(built, code, "{}", listing(&code));
        }
    }
}

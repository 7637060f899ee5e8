//! Register allocation for the V3D code generator's typed instructions.
//!
//! The generator writes every value it computes to a virtual register (`VReg::Virtual`:
//! kernel variables, built-ins, pinned constants, buffered TMU results and a new one for
//! each temporary), and names the reserved registers rf0–rf3 and the accumulators
//! directly. This pass gives each virtual register one of the register-file registers
//! rf4–rf63, or on 4.2 one of the accumulators the caller offers (short-lived values
//! only, see [`allocate`]), and renames the instructions ([`Inst::map`]). The accumulators
//! the generator names are nodes of their own with their colour fixed, so a value in an
//! accumulator is never live where the generator uses it.
//!
//! * **Reads and writes** come from [`Inst::operands`]: each operation's inputs and
//!   destination, a signal's destination (`ldtmu`, `ldunifrf`, `ldunifarf`). A write under
//!   a condition (the `where_` lanes) keeps the other lanes' old value, so it also counts as
//!   a read: the register stays live from before.
//! * **Liveness** is the usual backward data-flow over the instructions' control flow
//!   (labels, conditional and unconditional branches), iterated to a fixed point, so a
//!   value live around a loop's back edge is live in the whole loop.
//! * **Interference**: a written register interferes with every register live after the
//!   write (also when nothing reads the value: the write still lands in its register) and
//!   with the other registers the same instruction writes.
//! * **Colouring**: Chaitin's simplification with Briggs's optimistic colouring (Briggs,
//!   Cooper and Torczon, "Improvements to graph coloring register allocation", 1994), with
//!   the registers handed out round-robin as Mesa's V3D allocator does for the register
//!   file (`v3d_ra_select_rf` in `src/broadcom/compiler/vir_register_allocate.c`), so that
//!   values computed close together land in different registers and the packer is not held
//!   back by false write-after-read dependencies.
//!
//! This pass does not spill by itself: when a value gets no register the caller learns how
//! many did not, how many were live at once at the worst point, where that point is and
//! which values were live there. The code generator then keeps some kernel variables in
//! memory instead (see the module docs of `v3d.rs`) and lowers the kernel again.

/// Why allocation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Shortfall {
    /// Virtual registers that got no register.
    pub uncolored: usize,
    /// The most virtual registers live at once (or written by one instruction while others
    /// are live).
    pub pressure: usize,
    /// The line where that happens.
    pub peak: usize,
    /// The virtual registers live there (the spill candidates), in increasing order.
    pub live_at_peak: Vec<u32>,
}

use super::ir::{Inst, Label, Operands, Phys, VReg};
use crate::compiler::common::interference::BitMatrix;
use crate::compiler::common::liveness::{self, Access, Lists};
use qpu_isa::v3d::V3dVersion;

/// The values one instruction reads and writes (virtual registers as their numbers, the
/// named accumulators as `values + n`, see [`allocate`]), and where control goes after it.
#[derive(Debug, Default)]
struct Line {
    reads: Vec<u32>,
    writes: Vec<u32>,
    /// Registers a signal writes (`ldtmu`): these stay in the register file.
    signal_writes: Vec<u32>,
    label: Option<Label>,
    /// The branch target, and whether the branch may fall through.
    branch: Option<(Label, bool)>,
}

/// The node of a register the generator wrote (`None` for the reserved registers, which are
/// not allocated).
fn node(r: VReg, values: usize) -> Option<u32> {
    match r {
        VReg::Virtual(n) => Some(n),
        VReg::Acc(a) => Some((values + usize::from(a)) as u32),
        VReg::Rf(_) => None,
    }
}

fn line(version: V3dVersion, inst: &Inst<VReg>, values: usize, ops: &mut Operands) -> Line {
    let mut line = Line::default();
    match inst {
        Inst::Label(l) => line.label = Some(*l),
        Inst::Branch { cond, target } => {
            line.branch = Some((*target, *cond != qpu_isa::v3d::BranchCond::Always))
        }
        Inst::Alu(_) => {
            inst.operands(version, ops);
            line.reads
                .extend(ops.reads.iter().filter_map(|&r| node(r, values)));
            for (&w, &by_signal) in ops.writes.iter().zip(&ops.by_signal) {
                if let Some(n) = node(w, values) {
                    line.writes.push(n);
                    if by_signal {
                        line.signal_writes.push(n);
                    }
                }
            }
        }
    }
    line
}

/// A set of virtual registers with constant-time insert, remove and membership and
/// iteration over its members only (the members in a list, each one's place in it by
/// register): walking a long block costs its lines times the values live, not times every
/// value the text names.
struct Live {
    place: Vec<u32>,
    items: Vec<u32>,
    /// How many members are below this bound (the text's own values, not the named
    /// accumulators).
    bound: u32,
    below: usize,
}

impl Live {
    const ABSENT: u32 = u32::MAX;

    fn new(vregs: usize, bound: usize) -> Live {
        Live {
            place: vec![Self::ABSENT; vregs],
            items: Vec::new(),
            bound: bound as u32,
            below: 0,
        }
    }
    fn contains(&self, v: u32) -> bool {
        self.place[v as usize] != Self::ABSENT
    }
    fn insert(&mut self, v: u32) {
        if !self.contains(v) {
            self.place[v as usize] = self.items.len() as u32;
            self.items.push(v);
            self.below += usize::from(v < self.bound);
        }
    }
    fn remove(&mut self, v: u32) {
        let at = self.place[v as usize];
        if at != Self::ABSENT {
            self.items.swap_remove(at as usize);
            if let Some(&moved) = self.items.get(at as usize) {
                self.place[moved as usize] = at;
            }
            self.place[v as usize] = Self::ABSENT;
            self.below -= usize::from(v < self.bound);
        }
    }
    fn reset(&mut self, members: &[u32]) {
        while let Some(&v) = self.items.last() {
            self.remove(v);
        }
        for &v in members {
            self.insert(v);
        }
    }
}

/// The text's basic blocks (a label starts one, a branch ends one): each block's first
/// line, and the values live after its last line.
fn block_liveness(lines: &[Line], values: usize) -> (Vec<usize>, Lists) {
    let len = lines.len();
    let mut starts = vec![0usize];
    for (i, l) in lines.iter().enumerate() {
        if i > 0 && l.label.is_some() && starts.last() != Some(&i) {
            starts.push(i);
        }
        if l.branch.is_some() && i + 1 < len && lines[i + 1].label.is_none() {
            starts.push(i + 1);
        }
    }
    if len == 0 {
        return (Vec::new(), Lists::new(0, &[]));
    }
    let blocks = starts.len();
    let end = |b: usize| starts.get(b + 1).copied().unwrap_or(len);
    let block_of: rustc_hash::FxHashMap<usize, usize> =
        starts.iter().enumerate().map(|(b, &s)| (s, b)).collect();
    let labels: rustc_hash::FxHashMap<Label, usize> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.label.map(|name| (name, i)))
        .collect();
    // The line-by-line successors of each block's last line: the branch's target and, if it
    // may fall through, the next line (the three delay slots after a branch run before it
    // is taken and hold no registers, so the edge may start at the branch itself).
    let successors: Vec<Vec<usize>> = (0..blocks)
        .map(|b| {
            let last = end(b) - 1;
            let next = (end(b) < len).then_some(b + 1);
            match &lines[last].branch {
                Some((target, falls)) => {
                    let mut s: Vec<usize> = labels
                        .get(target)
                        .and_then(|line| block_of.get(line).copied())
                        .into_iter()
                        .collect();
                    if *falls {
                        s.extend(next);
                    }
                    s
                }
                None => next.into_iter().collect(),
            }
        })
        .collect();
    let ranges: Vec<(usize, usize)> = (0..blocks).map(|b| (starts[b], end(b))).collect();
    let (_, live_out) = liveness::solve(&Text {
        lines,
        ranges,
        successors,
        values,
    });
    (starts, live_out)
}

/// The instructions as lines of values read and written, with their blocks: what the
/// shared analyses see.
struct Text<'a> {
    lines: &'a [Line],
    ranges: Vec<(usize, usize)>,
    successors: Vec<Vec<usize>>,
    values: usize,
}

impl liveness::Function for Text<'_> {
    fn blocks(&self) -> &[(usize, usize)] {
        &self.ranges
    }

    fn successors(&self, b: usize) -> &[usize] {
        &self.successors[b]
    }

    fn values(&self) -> usize {
        self.values
    }

    fn operands(&self, i: usize, visit: &mut dyn FnMut(Access)) {
        for &r in &self.lines[i].reads {
            visit(Access::Read(r));
        }
        for &w in &self.lines[i].writes {
            visit(Access::Kill(w));
        }
    }
}

/// What a walk of the instructions against liveness finds: each value's neighbours in the
/// interference graph (values live at once where one is written), the largest number of
/// the text's values live at once, the first line where it is reached and those values,
/// and the values live after a branch or into a label.
struct Walk {
    adjacent: Vec<Vec<u32>>,
    pressure: usize,
    peak: usize,
    live_at_peak: Vec<u32>,
    crosses_blocks: Vec<bool>,
}

fn walk(lines: &[Line], vregs: usize, values: usize) -> Walk {
    let (starts, live_out) = block_liveness(lines, vregs);
    // Up to 4,096 values the neighbours are a bit matrix (each pair once, lists ascending
    // without sorting); above, lists with repeats, sorted and deduplicated at the end.
    let mut matrix = BitMatrix::new(vregs);
    let mut adjacent: Vec<Vec<u32>> = if matrix.is_some() {
        Vec::new()
    } else {
        vec![Vec::new(); vregs]
    };
    let mut crosses_blocks = vec![false; vregs];
    let (mut pressure, mut peak, mut live_at_peak) = (0usize, 0usize, Vec::new());
    let mut live = Live::new(vregs, values);
    let mut extra: Vec<u32> = Vec::new();
    for (b, &start) in starts.iter().enumerate() {
        let end = starts.get(b + 1).copied().unwrap_or(lines.len());
        live.reset(&live_out[b]);
        for i in (start..end).rev() {
            let line = &lines[i];
            // `live` holds the values live after line i.
            let ends_block =
                line.branch.is_some() || lines.get(i + 1).is_some_and(|n| n.label.is_some());
            if ends_block || line.label.is_some() {
                for &v in &live.items {
                    crosses_blocks[v as usize] = true;
                }
            }
            extra.clear();
            for &w in &line.writes {
                if !live.contains(w) && !extra.contains(&w) {
                    extra.push(w);
                }
            }
            let count = live.below + extra.iter().filter(|&&v| (v as usize) < values).count();
            // The first line (in text order) where the most values are live at once.
            if count > pressure || (count == pressure && count > 0 && i < peak) {
                (pressure, peak) = (count, i);
                live_at_peak = live
                    .items
                    .iter()
                    .chain(&extra)
                    .copied()
                    .filter(|&v| (v as usize) < values)
                    .collect();
                live_at_peak.sort_unstable();
            }
            for &w in &line.writes {
                for &v in live.items.iter().chain(&extra) {
                    if v != w {
                        if let Some(m) = matrix.as_mut() {
                            m.insert(w as usize, v as usize);
                        } else {
                            adjacent[w as usize].push(v);
                            adjacent[v as usize].push(w);
                        }
                    }
                }
            }
            for &w in &line.writes {
                live.remove(w);
            }
            for &r in &line.reads {
                live.insert(r);
            }
        }
    }
    if let Some(m) = matrix {
        let (starts, targets) = m.lists();
        adjacent = (0..vregs)
            .map(|v| targets[starts[v] as usize..starts[v + 1] as usize].to_vec())
            .collect();
    } else {
        for a in &mut adjacent {
            a.sort_unstable();
            a.dedup();
        }
    }
    Walk {
        adjacent,
        pressure,
        peak,
        live_at_peak,
        crosses_blocks,
    }
}

/// How many lines of the text (one operation or signal each) a value may live to be
/// offered an accumulator: short-lived values gain most from leaving the register file's
/// read ports free, and few enough of them are live at once for the accumulators offered.
const ACCUMULATOR_SPAN: usize = 12;

/// Gives every virtual register in `insts` a register rf(4 + k), k < `registers`, or one of
/// the accumulators `accumulators` (4.2's numbers of r0–r5), and returns the instructions
/// with the registers written in.
///
/// Accumulators go to values that live within one basic block for at most
/// [`ACCUMULATOR_SPAN`] instructions and are not written by a signal (`ldtmu` and the
/// uniform loads write the register file). On 4.2 an instruction reads at most two
/// register-file registers between both ALUs, while accumulators are read through the input
/// muxes at no port (Mesa `v3d_qpu_uses_mux`, and its allocator favours accumulators for
/// short-lived temporaries on 4.x, `v3d_ra_favor_accum` in `vir_register_allocate.c`); the
/// packer can then pair more operations.
pub(super) fn allocate(
    version: V3dVersion,
    insts: &[Inst<VReg>],
    registers: u32,
    accumulators: &[u8],
) -> Result<Vec<Inst<Phys>>, Shortfall> {
    let mut ops = Operands::default();
    let mut values = 0usize;
    for inst in insts {
        inst.operands(version, &mut ops);
        for r in ops.reads.iter().chain(&ops.writes) {
            if let VReg::Virtual(n) = r {
                values = values.max(*n as usize + 1);
            }
        }
    }
    // The accumulators the generator names are six more nodes, `values + a`, with their
    // colour given: a value in an accumulator must not be live where the generator uses it.
    let vregs = values + 6;
    let lines: Vec<Line> = insts
        .iter()
        .map(|i| line(version, i, values, &mut ops))
        .collect();
    let Walk {
        adjacent,
        pressure,
        peak,
        live_at_peak,
        crosses_blocks,
    } = walk(&lines, vregs, values);
    let short = short_lived(&lines, &crosses_blocks, vregs);
    let mut used = vec![false; vregs];
    for line in &lines {
        for &v in line.reads.iter().chain(&line.writes) {
            used[v as usize] = true;
        }
    }

    // Simplify: take out a node with fewer than `registers` neighbours left, or, when none
    // is, the one with the most (optimistically: it may still find a register).
    let k = registers as usize;
    let mut degree: Vec<usize> = adjacent.iter().map(Vec::len).collect();
    let mut removed = vec![false; vregs];
    // The named accumulators are coloured already: they never enter the stack.
    for v in values..vregs {
        used[v] = false;
        removed[v] = true;
    }
    let mut stack = Vec::new();

    let mut low: Vec<u32> = (0..vregs as u32)
        .filter(|&v| used[v as usize] && degree[v as usize] < k)
        .collect();
    let mut left = used.iter().filter(|&&u| u).count();
    while left > 0 {
        let v = match low.pop() {
            Some(v) if !removed[v as usize] => v,
            Some(_) => continue,
            None => match (0..vregs as u32)
                .filter(|&v| used[v as usize] && !removed[v as usize])
                .max_by_key(|&v| degree[v as usize])
            {
                Some(v) => v,
                None => break,
            },
        };
        removed[v as usize] = true;
        left -= 1;
        stack.push(v);
        for &n in &adjacent[v as usize] {
            let n = n as usize;
            if !removed[n] {
                degree[n] -= 1;
                if degree[n] + 1 == k {
                    low.push(n as u32);
                }
            }
        }
    }

    // Select, in the reverse order, round-robin from the register after the last one given
    // (accumulators first for short-lived values, round-robin too). Colours `registers`
    // and up stand for the accumulators.
    let mut colour: Vec<Option<u32>> = vec![None; vregs];
    for (j, &a) in accumulators.iter().enumerate() {
        colour[values + usize::from(a)] = Some((k + j) as u32);
    }
    let mut next = 0u32;
    let mut next_acc = 0usize;
    let mut uncolored = 0;
    while let Some(v) = stack.pop() {
        let mut taken = vec![false; k + accumulators.len()];
        for &n in &adjacent[v as usize] {
            if let Some(c) = colour[n as usize] {
                taken[c as usize] = true;
            }
        }
        if short[v as usize] {
            let free = (0..accumulators.len())
                .map(|j| (next_acc + j) % accumulators.len())
                .find(|&a| !taken[k + a]);
            if let Some(a) = free {
                colour[v as usize] = Some((k + a) as u32);
                next_acc = (a + 1) % accumulators.len();
                continue;
            }
        }
        match (0..registers)
            .map(|j| (next + j) % registers)
            .find(|&c| !taken[c as usize])
        {
            Some(c) => {
                colour[v as usize] = Some(c);
                next = (c + 1) % registers;
            }
            None => uncolored += 1,
        }
    }
    if uncolored > 0 {
        return Err(Shortfall {
            uncolored,
            pressure,
            peak,
            live_at_peak,
        });
    }
    let first_free = u32::from(super::FIRST_FREE);
    let place: Vec<Option<Phys>> = colour
        .iter()
        .map(|c| {
            c.map(|c| match c.checked_sub(registers) {
                Some(a) => Phys::Acc(accumulators[a as usize]),
                None => Phys::Rf((first_free + c) as u8),
            })
        })
        .collect();
    Ok(insts
        .iter()
        .map(|i| {
            i.map(|r| match r {
                VReg::Virtual(n) => place[n as usize].unwrap_or(Phys::Rf(0)),
                VReg::Rf(n) => Phys::Rf(n),
                VReg::Acc(n) => Phys::Acc(n),
            })
        })
        .collect())
}

/// The values that may take an accumulator: written by no signal, live in one basic block
/// (never live after a branch or into a label) and for at most [`ACCUMULATOR_SPAN`] lines
/// from their first mention to their last.
fn short_lived(lines: &[Line], crosses_blocks: &[bool], vregs: usize) -> Vec<bool> {
    let mut first = vec![usize::MAX; vregs];
    let mut last = vec![0usize; vregs];
    let mut ok = vec![true; vregs];
    for (i, line) in lines.iter().enumerate() {
        for &v in line.reads.iter().chain(&line.writes) {
            first[v as usize] = first[v as usize].min(i);
            last[v as usize] = last[v as usize].max(i);
        }
        for &v in &line.signal_writes {
            ok[v as usize] = false;
        }
    }
    for (v, &crosses) in crosses_blocks.iter().enumerate() {
        if crosses {
            ok[v] = false;
        }
    }
    (0..vregs)
        .map(|v| ok[v] && first[v] != usize::MAX && last[v] - first[v] <= ACCUMULATOR_SPAN)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::ir::{Alu, Dst, Fl, Op, Src};
    use super::*;
    use qpu_isa::v3d::{AddOp, BranchCond, Cond, MulOp, PushFlag, Signal, Waddr};

    fn v(n: u32) -> Src<VReg> {
        Src::Reg(VReg::Virtual(n))
    }

    fn add_with(flags: Fl, d: Dst<VReg>, a: Src<VReg>, b: Src<VReg>) -> Inst<VReg> {
        Inst::Alu(Alu {
            add: Some(Op::new(AddOp::Add, flags, d, &[a, b])),
            ..Alu::NOP
        })
    }

    fn add(d: u32, a: Src<VReg>, b: Src<VReg>) -> Inst<VReg> {
        add_with(Fl::NONE, Dst::v(d), a, b)
    }

    fn mov_with(flags: Fl, d: Dst<VReg>, a: Src<VReg>) -> Inst<VReg> {
        Inst::Alu(Alu {
            mul: Some(Op::new(MulOp::Mov, flags, d, &[a])),
            ..Alu::NOP
        })
    }

    fn mov(d: u32, a: Src<VReg>) -> Inst<VReg> {
        mov_with(Fl::NONE, Dst::v(d), a)
    }

    fn ldtmu(d: u32) -> Inst<VReg> {
        Inst::Alu(Alu {
            sig: Some(Signal::Ldtmu),
            sig_dst: Some(Dst::v(d)),
            ..Alu::NOP
        })
    }

    fn branch(to: u32) -> Vec<Inst<VReg>> {
        let mut out = vec![Inst::Branch {
            cond: BranchCond::AnyNa,
            target: Label(to),
        }];
        out.extend([Inst::nop(), Inst::nop(), Inst::nop()]);
        out
    }

    /// The register-file registers each instruction names, destination first.
    fn registers(insts: &[Inst<Phys>]) -> Vec<Vec<u8>> {
        insts
            .iter()
            .map(|i| {
                let mut regs = Vec::new();
                if let Inst::Alu(a) = i {
                    let mut op = |dst: Dst<Phys>, srcs: &[Src<Phys>]| {
                        if let Dst::Reg(Phys::Rf(r)) = dst {
                            regs.push(r);
                        }
                        for s in srcs {
                            if let Src::Reg(Phys::Rf(r)) = s {
                                regs.push(*r);
                            }
                        }
                    };
                    if let Some(o) = &a.add {
                        op(o.dst, o.inputs());
                    }
                    if let Some(o) = &a.mul {
                        op(o.dst, o.inputs());
                    }
                    if let Some(d) = a.sig_dst {
                        op(d, &[]);
                    }
                }
                regs
            })
            .collect()
    }

    /// Where the instruction's first operation writes.
    fn dest(i: &Inst<Phys>) -> Option<Phys> {
        let Inst::Alu(a) = i else { return None };
        let d = a
            .add
            .map(|o| o.dst)
            .or(a.mul.map(|o| o.dst))
            .or(a.sig_dst)?;
        match d {
            Dst::Reg(p) => Some(p),
            Dst::Magic(_) => None,
        }
    }

    #[test]
    fn reads_writes_and_conditional_writes() {
        let mut ops = Operands::default();
        let cond = add_with(Fl::cond(Cond::IfA), Dst::v(3), v(1), v(2));
        let l = line(V3dVersion::V42, &cond, 10, &mut ops);
        assert_eq!(l.writes, vec![3]);
        assert_eq!(l.reads, vec![3, 1, 2]);
        let rot = Inst::Alu(Alu {
            mul: Some(Op::new(
                MulOp::Mov,
                Fl::NONE,
                Dst::v(4),
                &[Src::Reg(VReg::Acc(0))],
            )),
            sig: Some(Signal::Rot),
            rot: Some(0),
            ..Alu::NOP
        });
        // r0 and r5 (the amount) are the named accumulators' nodes 10 + 0 and 10 + 5.
        let l = line(V3dVersion::V42, &rot, 10, &mut ops);
        assert_eq!((l.writes, l.reads), (vec![4], vec![10, 15]));
        let l = line(V3dVersion::V42, &ldtmu(7), 10, &mut ops);
        assert_eq!((l.writes, l.signal_writes), (vec![7], vec![7]));
        let push = add_with(Fl::push(PushFlag::Z), Dst::Magic(Waddr::NOP), v(2), v(2));
        let l = line(V3dVersion::V42, &push, 10, &mut ops);
        assert_eq!((l.writes, l.reads), (vec![], vec![2, 2]));
        let rep = mov_with(Fl::NONE, Dst::Magic(Waddr::REP), v(1));
        assert_eq!(line(V3dVersion::V42, &rep, 10, &mut ops).writes, vec![15]);
        let b = &branch(3)[0];
        assert_eq!(
            line(V3dVersion::V42, b, 10, &mut ops).branch,
            Some((Label(3), true))
        );
        assert_eq!(
            line(V3dVersion::V42, &Inst::Label(Label(3)), 10, &mut ops).label,
            Some(Label(3))
        );
    }

    /// Short-lived values share registers: 200 values, each read only by the instruction
    /// that writes the next, fit in one.
    #[test]
    fn short_lived_values_reuse_registers() {
        let mut code = vec![mov(0, Src::Imm(1))];
        for n in 1..200 {
            code.push(add(n, v(n - 1), Src::Imm(1)));
        }
        let out = allocate(V3dVersion::V42, &code, 60, &[]).unwrap();
        let mut regs: Vec<u8> = registers(&out).concat();
        regs.sort_unstable();
        regs.dedup();
        assert!(regs.len() <= 60 && regs.iter().all(|&r| (4..64).contains(&r)));
        assert!(allocate(V3dVersion::V42, &code, 1, &[]).is_ok());
    }

    /// A value defined before a loop and read only at its top stays live through the whole
    /// body: nothing written in the body may take its register.
    #[test]
    fn a_value_live_around_the_back_edge_interferes_with_the_loop_body() {
        let mut code = vec![
            mov(0, Src::Imm(5)),
            mov(9, Src::Imm(0)),
            Inst::Label(Label(1)),
            add(1, v(0), Src::Imm(1)),
            add(2, v(1), Src::Imm(2)),
            add_with(Fl::push(PushFlag::Z), Dst::v(9), v(9), v(2)),
        ];
        code.extend(branch(1));
        code.push(add(3, v(9), Src::Imm(0)));
        let out = allocate(V3dVersion::V42, &code, 60, &[]).unwrap();
        let regs = registers(&out);
        let r0 = regs[0][0];
        assert_ne!(
            regs[3][0], r0,
            "%1 overwrote %0, which the next iteration reads"
        );
        assert_ne!(regs[4][0], r0, "%2 overwrote %0");
        // Without the back edge %0 dies at its read and %1 may take it; with it, three
        // registers are needed at once (%0, %9 and %1 or %2).
        assert!(allocate(V3dVersion::V42, &code, 2, &[]).is_err());
        assert!(allocate(V3dVersion::V42, &code, 3, &[]).is_ok());
    }

    /// A conditional write keeps the lanes it does not write: the register must hold the
    /// value from before, so a value written before it is live across everything between.
    #[test]
    fn a_conditional_write_keeps_the_value_live() {
        let code = |flags: Fl| {
            vec![
                mov(0, Src::Imm(1)),
                mov(1, Src::Imm(2)),
                add(2, v(1), Src::Imm(1)),
                mov_with(flags, Dst::v(0), v(2)),
                add(3, v(0), Src::Imm(0)),
            ]
        };
        let conditional = code(Fl::cond(Cond::IfA));
        let r = registers(&allocate(V3dVersion::V42, &conditional, 60, &[]).unwrap()).concat();
        // %0 (instruction 0) must differ from %1 (instruction 1) and %2 (instruction 2).
        assert_ne!(r[0], r[1]);
        assert_ne!(r[0], r[2]);
        assert!(allocate(V3dVersion::V42, &conditional, 2, &[]).is_ok());
        assert!(allocate(V3dVersion::V42, &conditional, 1, &[]).is_err());
        // Made unconditional, %0's first value is dead at once: one register does.
        assert!(allocate(V3dVersion::V42, &code(Fl::NONE), 1, &[]).is_ok());
    }

    #[test]
    fn a_dead_write_does_not_clobber_a_live_value() {
        let code = vec![
            mov(0, Src::Imm(1)),
            mov(1, Src::Imm(2)),
            add(2, v(0), Src::Imm(0)),
        ];
        let r = registers(&allocate(V3dVersion::V42, &code, 60, &[]).unwrap()).concat();
        assert_ne!(r[0], r[1]);
        let short = allocate(V3dVersion::V42, &code, 1, &[]).unwrap_err();
        assert_eq!(short.pressure, 2);
        assert_eq!(short.peak, 1);
        assert_eq!(short.live_at_peak, vec![0, 1]);
    }

    /// Short-lived values take the accumulators offered, round-robin; a value the generator
    /// names an accumulator beside may not take that one while it is live.
    #[test]
    fn short_lived_values_take_accumulators_the_generator_does_not_use_meanwhile() {
        let r1 = VReg::Acc(1);
        let code = vec![
            add(0, v(9), Src::Imm(1)),
            add(1, v(0), Src::Imm(2)),
            add(2, v(1), v(0)),
            mov_with(Fl::NONE, Dst::Reg(r1), v(2)),
            Inst::Alu(Alu {
                add: Some(Op::new(
                    AddOp::Fmax,
                    Fl::NONE,
                    Dst::v(3),
                    &[v(2), Src::Reg(r1)],
                )),
                ..Alu::NOP
            }),
            add(9, v(3), Src::Imm(0)),
        ];
        let out = allocate(V3dVersion::V42, &code, 60, &[1, 2]).unwrap();
        // Every value is short-lived: each takes r1 or r2, in turn.
        assert_eq!(dest(&out[0]), Some(Phys::Acc(1)), "{out:?}");
        assert_eq!(dest(&out[1]), Some(Phys::Acc(2)), "{out:?}");
        // %2 is live where the generator writes r1 (instruction 3): it must not be in r1.
        assert_eq!(dest(&out[2]), Some(Phys::Acc(2)), "{out:?}");
        // Offered none, every value takes the register file.
        let plain = allocate(V3dVersion::V42, &code, 60, &[]).unwrap();
        for i in [0, 1, 2, 4, 5] {
            assert!(matches!(dest(&plain[i]), Some(Phys::Rf(_))), "{plain:?}");
        }
    }

    /// Values a signal writes, values live across a branch or into a label, and values
    /// living longer than the span stay in the register file.
    #[test]
    fn signal_results_block_crossing_and_long_lived_values_stay_in_the_register_file() {
        let mut code = vec![
            ldtmu(0),
            add(1, v(0), Src::Imm(1)),
            add_with(Fl::push(PushFlag::Z), Dst::v(2), v(1), Src::Imm(1)),
        ];
        code.extend(branch(1));
        code.push(Inst::Label(Label(1)));
        code.push(add(3, v(2), Src::Imm(1)));
        code.push(add(4, v(3), Src::Imm(1)));
        for _ in 0..ACCUMULATOR_SPAN {
            code.push(Inst::nop());
        }
        code.push(add(5, v(4), v(3)));
        let out = allocate(V3dVersion::V42, &code, 60, &[2, 3]).unwrap();
        assert!(matches!(dest(&out[0]), Some(Phys::Rf(_))), "{out:?}");
        // %1 lives within the block: an accumulator. %2 crosses the branch: a register.
        assert!(matches!(dest(&out[1]), Some(Phys::Acc(2 | 3))), "{out:?}");
        assert!(matches!(dest(&out[2]), Some(Phys::Rf(_))), "{out:?}");
        // %3 and %4 live across the long gap: registers.
        assert!(matches!(dest(&out[8]), Some(Phys::Rf(_))), "{out:?}");
        assert!(matches!(dest(&out[9]), Some(Phys::Rf(_))), "{out:?}");
    }
}

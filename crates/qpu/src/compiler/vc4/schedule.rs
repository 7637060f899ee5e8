//! Scheduling: allocated IR entries into instruction words.
//!
//! Each basic block is list-scheduled over a dependency graph whose edges carry the
//! hardware's latencies, read from [`qpu_isa::vc4::latency`] (the facts the emulator checks
//! against): a physical register is readable 2 instructions after its write, an accumulator
//! 1 (2 for the source of a rotation), an SFU result in r4 after 3, a TMU result in r4 after
//! one. I/O registers keep program order
//! (uniform stream, VPM/DMA, each TMU FIFO). Where encoding allows, an add-ALU entry and a
//! mul-ALU entry share one word (dual issue); a TMU load signal rides on any word without a
//! small immediate. A block's final branch is placed as early as its flag dependency allows,
//! so the block's last instructions fill its three delay slots; empty slots get NOPs.
//! Finally, at block boundaries (fall-through and branch targets) a NOP separates a register
//! write from a read in the next executed word when the two blocks would otherwise collide.

use rustc_hash::FxHashMap as HashMap;

use qpu_isa::vc4::latency;
use qpu_isa::vc4::{AddOp, BranchCond, Cond, RegFile, Signal};

/// Words that always execute after a branch.
/// The VideoCore IV's branch delay slots (listings and tests count with it).
pub const SLOTS: usize = latency::BRANCH_DELAY_SLOTS;

use super::super::common::target::{Facts, Target, Vc4};
use super::bundle::{Bundle, Unit};
use super::emit::{dest, write_swap, Ports};
use super::ir::*;

/// A scheduled item: a bundle, or a label marking the next bundle's index.
#[derive(Clone, Debug)]
pub enum Item {
    /// A branch target.
    Label(Label),
    /// One instruction word, and its source (an [`Op::Source`] index, or [`NO_SOURCE`]): that
    /// of its first op writing an I/O register, else of its first op in program order.
    Word(Word, u32),
}

/// The source of a word no kernel statement produced.
pub const NO_SOURCE: u32 = u32::MAX;

/// A bundle whose branch target is still a label.
#[derive(Clone, Debug)]
pub enum Word {
    /// Anything but a branch.
    Bundle(Bundle),
    /// A branch.
    Branch(BranchCond, Label),
}

/// What an op reads or writes: a register (`R` is [`Loc`] after allocation, a virtual
/// register before), or machine state the order of ops must respect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Res<R> {
    Loc(R),
    R4,
    R5,
    Flags,
    Tmu(u8),
    Unif,
    Vpm,
}

/// A short list kept inline: an op reads or writes a handful of resources, and the
/// schedulers build thousands of these lists per compilation (a heap list each cost a
/// tenth of compile time). Holds at most `N`.
#[derive(Clone, Copy)]
pub(crate) struct Few<T: Copy, const N: usize> {
    len: usize,
    items: [T; N],
}

impl<T: Copy, const N: usize> Few<T, N> {
    fn new(fill: T) -> Self {
        Few {
            len: 0,
            items: [fill; N],
        }
    }

    pub fn push(&mut self, item: T) {
        self.items[self.len] = item;
        self.len += 1;
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(&self.items[i]) {
                self.items[kept] = self.items[i];
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl<T: Copy, const N: usize> std::ops::Deref for Few<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a Few<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Room for two ops' effects ([`copyable`] merges a word's): an op reads at most five
/// resources (two operands, r5 for a rotation, a conditional destination, the flags) and
/// writes at most three.
const MAX_READS: usize = 10;
const MAX_WRITES: usize = 6;

pub(crate) struct Effects<R: Copy> {
    /// (resource, read is a rotation source)
    pub reads: Few<(Res<R>, bool), MAX_READS>,
    /// (resource, write is an SFU start)
    pub writes: Few<(Res<R>, bool), MAX_WRITES>,
}

impl<R: Copy> Default for Effects<R> {
    fn default() -> Self {
        Effects {
            reads: Few::new((Res::Flags, false)),
            writes: Few::new((Res::Flags, false)),
        }
    }
}

pub(crate) fn effects<R: Copy + PartialEq>(op: &Op<R>) -> Effects<R> {
    let mut e = Effects::default();
    let src = |s: &Src<R>, rot: bool, e: &mut Effects<R>| match s {
        Src::Reg(l) => e.reads.push((Res::Loc(*l), rot)),
        Src::R4 => e.reads.push((Res::R4, false)),
        Src::R5 => e.reads.push((Res::R5, false)),
        Src::Read(IoRead::Uniform) => e.writes.push((Res::Unif, false)),
        Src::Read(_) => e.writes.push((Res::Vpm, false)),
        Src::Imm(_) => {}
    };
    let dst = |d: &Dst<R>, cond: Cond, e: &mut Effects<R>| match d {
        Dst::Reg(l) => {
            e.writes.push((Res::Loc(*l), false));
            if cond != Cond::Always {
                e.reads.push((Res::Loc(*l), false));
            }
        }
        Dst::Write(IoWrite::TmuS(t)) => e.writes.push((Res::Tmu(*t), false)),
        Dst::Write(IoWrite::Sfu(_)) => e.writes.push((Res::R4, true)),
        Dst::Write(IoWrite::R5Rep) => e.writes.push((Res::R5, false)),
        Dst::Write(IoWrite::HostInt) => {}
        // Orders it before the uniform reads that follow; flagged so that they keep their
        // distance (`latency::UNIFORMS_ADDRESS`).
        Dst::Write(IoWrite::UniformsAddress) => e.writes.push((Res::Unif, true)),
        Dst::Write(_) => e.writes.push((Res::Vpm, false)),
        Dst::None => {}
    };
    match op {
        Op::Alu {
            dst: d,
            a,
            b,
            cond,
            sf,
            rotate,
            ..
        } => {
            src(a, rotate.is_some(), &mut e);
            if b != a {
                src(b, rotate.is_some(), &mut e);
            }
            if *rotate == Some(Rotation::ByR5) {
                e.reads.push((Res::R5, true));
            }
            dst(d, *cond, &mut e);
            if *sf {
                e.writes.push((Res::Flags, false));
            }
            if !matches!(cond, Cond::Always | Cond::Never) {
                e.reads.push((Res::Flags, false));
            }
        }
        Op::Ldi { dst: d, cond, .. } => {
            dst(d, *cond, &mut e);
            if !matches!(cond, Cond::Always | Cond::Never) {
                e.reads.push((Res::Flags, false));
            }
        }
        Op::Signal(Signal::LoadTmu0) => {
            e.writes.push((Res::Tmu(0), false));
            e.writes.push((Res::R4, false));
        }
        Op::Signal(_) => {
            e.writes.push((Res::Tmu(1), false));
            e.writes.push((Res::R4, false));
        }
        Op::Branch { .. } => e.reads.push((Res::Flags, false)),
        _ => {}
    }
    e
}

fn raw_latency(facts: &Facts, res: Res<Loc>, sfu_write: bool, rot_read: bool) -> usize {
    match res {
        Res::Loc(Loc::A(_)) | Res::Loc(Loc::B(_)) => facts.regfile,
        Res::Loc(Loc::Acc(_)) | Res::R5 if rot_read => facts.rotate_source,
        Res::R4 if sfu_write => facts.sfu,
        Res::R4 => facts.tmu_load,
        _ => facts.accumulator,
    }
}

/// Dependencies within a segment: preds[j] = [(i, latency)], found in one pass with the
/// last writer and the readers since of every resource; `raw_latency` gives a read's
/// distance from its write.
pub(crate) fn dependencies<R: Copy + Eq + std::hash::Hash>(
    fx: &[Effects<R>],
    raw_latency: impl Fn(Res<R>, bool, bool) -> usize,
) -> Vec<Vec<(usize, usize)>> {
    let mut preds: Vec<Vec<(usize, usize)>> = vec![Vec::new(); fx.len()];
    let mut last_write: HashMap<Res<R>, (usize, bool)> = HashMap::default();
    let mut readers: HashMap<Res<R>, Vec<usize>> = HashMap::default();
    for (j, e) in fx.iter().enumerate() {
        let add = |i: usize, l: usize, preds: &mut Vec<Vec<(usize, usize)>>| {
            if i == j {
                return;
            }
            match preds[j].iter_mut().find(|(p, _)| *p == i) {
                Some(entry) => entry.1 = entry.1.max(l),
                None => preds[j].push((i, l)),
            }
        };
        for &(r, rot) in &e.reads {
            if let Some(&(i, sfu)) = last_write.get(&r) {
                add(i, raw_latency(r, sfu, rot), &mut preds);
            }
        }
        for &(w, _) in &e.writes {
            if let Some(&(i, flagged)) = last_write.get(&w) {
                let distance = match (flagged, w) {
                    (false, _) => 1,
                    (true, Res::Unif) => latency::UNIFORMS_ADDRESS,
                    (true, _) => latency::SFU,
                };
                add(i, distance, &mut preds);
            }
            if let Some(rs) = readers.get(&w) {
                for &i in rs {
                    add(i, 0, &mut preds);
                }
            }
        }
        for &(w, sfu) in &e.writes {
            last_write.insert(w, (j, sfu));
            readers.remove(&w);
        }
        for &(r, _) in &e.reads {
            if !e.writes.iter().any(|(w, _)| *w == r) {
                readers.entry(r).or_default().push(j);
            }
        }
    }
    preds
}

/// The successors of each op, and its priority for list scheduling: the longest
/// latency-weighted path from it to the end of its block (every edge at least 1).
pub(crate) fn successors_and_priority(
    preds: &[Vec<(usize, usize)>],
) -> (Vec<Vec<(usize, usize)>>, Vec<usize>) {
    let n = preds.len();
    let mut succs = vec![Vec::new(); n];
    for (j, ps) in preds.iter().enumerate() {
        for &(i, l) in ps {
            succs[i].push((j, l));
        }
    }
    let mut prio = vec![0usize; n];
    for i in (0..n).rev() {
        prio[i] = succs[i]
            .iter()
            .map(|&(j, l)| prio[j] + l.max(1))
            .max()
            .unwrap_or(0)
            + 1;
    }
    (succs, prio)
}

/// Which units an op may run on.
fn units(op: &Op<Loc>) -> &'static [Unit] {
    match op {
        Op::Alu {
            op: AluOp::Add(_), ..
        } => &[Unit::Add],
        Op::Alu {
            op: AluOp::Mul(_), ..
        } => &[Unit::Mul],
        Op::Alu { op: AluOp::Mov, .. } => &[Unit::Add, Unit::Mul],
        _ => &[],
    }
}

fn dest_space(op: &Op<Loc>) -> Option<RegFile> {
    match op {
        Op::Alu { dst, .. } => dest(dst).0,
        _ => None,
    }
}

/// Whether a TMU write, TMU load or SFU write (at most one per word, §5.4).
fn special_unit(op: &Op<Loc>) -> bool {
    matches!(
        op,
        Op::Alu {
            dst: Dst::Write(IoWrite::TmuS(_) | IoWrite::Sfu(_)),
            ..
        } | Op::Signal(_)
    )
}

/// Try to build a bundle from these ops; returns unit assignment or None.
pub(crate) fn pack(ops: &[&Op<Loc>]) -> Option<Bundle> {
    let mut signal = Signal::None;
    // At most two ALU operations fit a word (no heap: the scheduler tries many packs).
    let mut alu_slots: [Option<&Op<Loc>>; 2] = [None; 2];
    let mut count = 0;
    let mut specials = 0;
    for op in ops {
        match op {
            Op::Signal(s) => {
                if signal != Signal::None {
                    return None;
                }
                signal = *s;
            }
            Op::Alu { .. } => {
                *alu_slots.get_mut(count)? = Some(op);
                count += 1;
            }
            _ => {
                return if ops.len() == 1 {
                    Some(Bundle::Single((*op).clone()))
                } else {
                    None
                }
            }
        }
        if special_unit(op) {
            specials += 1;
        }
    }
    if specials > 1 {
        return None;
    }
    let alus: &[&Op<Loc>] = match alu_slots {
        [None, _] => &[],
        [Some(x), None] => &[x],
        [Some(x), Some(y)] => &[x, y],
    };
    // Ports.
    let mut ports = Ports::empty();
    for op in alus {
        if let Op::Alu { a, b, rotate, .. } = op {
            if let Some(r) = rotate {
                let code = match r {
                    Rotation::By(n) => qpu_isa::vc4::SmallImm::rotation(Some(*n)),
                    Rotation::ByR5 => qpu_isa::vc4::SmallImm::rotation(None),
                }?;
                if ports.b.is_some() || ports.imm.is_some_and(|i| i != code) {
                    return None;
                }
                ports.imm = Some(code);
            }
            if !ports.add(a) || !ports.add(b) {
                return None;
            }
        }
    }
    if signal != Signal::None && ports.imm.is_some() {
        return None;
    }
    // Units and write spaces.
    let assign: Vec<(Op<Loc>, Unit)> = match alus {
        [] => Vec::new(),
        [x] => {
            let u = units(x)[0];
            vec![((*x).clone(), u)]
        }
        [x, y] => {
            let mut found = None;
            'outer: for &ux in units(x) {
                for &uy in units(y) {
                    if ux == uy {
                        continue;
                    }
                    let (add, mul) = if ux == Unit::Add { (x, y) } else { (y, x) };
                    if write_swap(dest_space(add), dest_space(mul)).is_none() {
                        continue;
                    }
                    // Flags come from the add ALU when it works.
                    if let Op::Alu { sf: true, .. } = mul {
                        continue;
                    }
                    // Both writing the same accumulator or I/O register is undefined.
                    if let (Op::Alu { dst: d1, .. }, Op::Alu { dst: d2, .. }) = (add, mul) {
                        if *d1 != Dst::None && d1 == d2 {
                            continue;
                        }
                    }
                    found = Some(vec![((*x).clone(), ux), ((*y).clone(), uy)]);
                    break 'outer;
                }
            }
            found?
        }
        _ => return None,
    };
    Some(Bundle::Alu {
        ops: assign,
        signal,
    })
}

/// Which TMU an op requests from (`Some((t, true))`) or receives from (`Some((t, false))`).
fn tmu_op(op: &Op<Loc>) -> Option<(usize, bool)> {
    match op {
        Op::Alu {
            dst: Dst::Write(IoWrite::TmuS(t)),
            ..
        } => Some((usize::from(*t & 1), true)),
        Op::Signal(Signal::LoadTmu0) => Some((0, false)),
        Op::Signal(_) => Some((1, false)),
        _ => None,
    }
}

/// TMU order from the FIFO, for a segment entered with `entry` requests outstanding per
/// TMU: receive k takes request k - entry of this segment (if that is in it), and a request
/// stays after the receives before it in program order, so the FIFO never holds more than
/// the program had it hold. A receive of a request made before the segment may thus go
/// ahead of this segment's requests (a prefetching loop receives this iteration's data
/// before asking for the next). Returns the (request, receive) pairs, for the scheduler's
/// preference to receive only once the lookup is likely done.
fn tmu_fifo_order(
    ops: &[Op<Loc>],
    entry: [usize; 2],
    preds: &mut [Vec<(usize, usize)>],
) -> Vec<(usize, usize)> {
    // (request, its receive): the receive waits for the lookup if scheduled too soon.
    let mut soft = Vec::new();
    let mut requests: [Vec<usize>; 2] = Default::default();
    let mut receives: [Vec<usize>; 2] = Default::default();
    for (j, op) in ops.iter().enumerate() {
        let Some((t, request)) = tmu_op(op) else {
            continue;
        };
        let add = |preds: &mut [Vec<(usize, usize)>], i: usize, latency: usize| match preds[j]
            .iter_mut()
            .find(|(p, _)| *p == i)
        {
            Some(entry) => entry.1 = entry.1.max(latency),
            None => preds[j].push((i, latency)),
        };
        if request {
            if let Some(&i) = requests[t].last() {
                add(preds, i, 1);
            }
            // After the receives before it in program order (a request never moves up past
            // a receive; that keeps the FIFO within `depth` as the program did).
            if let Some(&i) = receives[t].last() {
                add(preds, i, 1);
            }
            requests[t].push(j);
        } else {
            let k = receives[t].len();
            if k >= entry[t] {
                if let Some(&i) = requests[t].get(k - entry[t]) {
                    add(preds, i, 1);
                    soft.push((i, j));
                }
            }
            receives[t].push(j);
        }
    }
    soft
}

/// Requests outstanding per TMU where each label is entered, where every way in agrees
/// (`None` where they do not, or a way in is not followed).
fn tmu_fifo_at_labels(code: &[Op<Loc>]) -> HashMap<Label, Option<[usize; 2]>> {
    let mut at: HashMap<Label, Option<[usize; 2]>> = HashMap::default();
    // Until nothing changes: a back branch that disagrees makes its label unknown.
    loop {
        let mut changed = false;
        let mut cur: Option<[i64; 2]> = Some([0, 0]);
        let merge = |at: &mut HashMap<Label, Option<[usize; 2]>>, l: Label, v: Option<[i64; 2]>| {
            let v =
                v.and_then(|v| (v[0] >= 0 && v[1] >= 0).then_some([v[0] as usize, v[1] as usize]));
            match at.get(&l) {
                None => {
                    at.insert(l, v);
                    true
                }
                Some(old) if *old != v && old.is_some() => {
                    at.insert(l, None);
                    true
                }
                _ => false,
            }
        };
        for op in code {
            match op {
                Op::Label(l) => {
                    if cur.is_some() || !at.contains_key(l) {
                        changed |= merge(&mut at, *l, cur);
                    }
                    cur = at[l].map(|v| [v[0] as i64, v[1] as i64]);
                }
                Op::Branch { cond, target } => {
                    changed |= merge(&mut at, *target, cur);
                    if *cond == BranchCond::Always {
                        cur = None;
                    }
                }
                Op::ThreadEnd => cur = None,
                _ => {
                    if let (Some((t, request)), Some(c)) = (tmu_op(op), cur.as_mut()) {
                        c[t] += if request { 1 } else { -1 };
                    }
                }
            }
        }
        if !changed {
            return at;
        }
    }
}

/// Schedule one straight-line segment (no labels, branches, semaphores or thread ends).
fn schedule_segment(
    target: &Vc4,
    ops: &[Op<Loc>],
    dual_issue: bool,
    urgent: Option<usize>,
    fifo: Option<[usize; 2]>,
) -> (Vec<Bundle>, Vec<usize>) {
    let n = ops.len();
    let mut fx: Vec<Effects<Loc>> = ops.iter().map(effects).collect();
    let facts = target.facts();
    if fifo.is_some() {
        // TMU order is added below, from the FIFO: a result's signal no longer follows every
        // earlier request of its TMU, only the one it receives.
        for (e, op) in fx.iter_mut().zip(ops) {
            if matches!(op, Op::Signal(_)) {
                e.writes.retain(|(r, _)| !matches!(r, Res::Tmu(_)));
            }
        }
    }
    let mut preds = dependencies(&fx, |r, sfu, rot| raw_latency(facts, r, sfu, rot));
    let soft = match fifo {
        Some(entry) => tmu_fifo_order(ops, entry, &mut preds),
        None => Vec::new(),
    };
    let (succs, mut prio) = successors_and_priority(&preds);
    // TMU requests go early, with what they need: a later receive (often the next
    // iteration's) waits for them.
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = (0..n)
        .filter(|&i| fifo.is_some() && matches!(tmu_op(&ops[i]), Some((_, true))))
        .collect();
    let longest = prio.iter().copied().max().unwrap_or(0);
    while let Some(i) = stack.pop() {
        if !seen[i] {
            seen[i] = true;
            prio[i] += longest;
            stack.extend(preds[i].iter().map(|&(p, _)| p));
        }
    }
    // The flags a closing branch tests are computed as early as possible, so the branch can
    // go early and the block's last instructions fill its delay slots.
    if let Some(u) = urgent {
        let mut stack = vec![u];
        let mut seen = vec![false; n];
        while let Some(i) = stack.pop() {
            if !seen[i] {
                seen[i] = true;
                prio[i] += n;
                stack.extend(preds[i].iter().map(|&(p, _)| p));
            }
        }
    }
    let mut waiting: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut earliest = vec![0usize; n];
    let mut available: Vec<usize> = (0..n).filter(|&j| waiting[j] == 0).collect();
    let mut slot = vec![usize::MAX; n];
    let mut bundles: Vec<Bundle> = Vec::new();
    let mut done = 0;
    let mut cycle = 0usize;
    // Buffers reused from word to word.
    let mut candidates: Vec<usize> = Vec::new();
    let mut chosen: Vec<usize> = Vec::new();
    let mut tried: Vec<usize> = Vec::new();
    let mut trial: Vec<&Op<Loc>> = Vec::new();
    while done < n {
        candidates.clear();
        candidates.extend(available.iter().copied().filter(|&j| earliest[j] <= cycle));
        // A TMU receive whose lookup is not done yet goes after everything else ready: it
        // would stall (better than a NOP, worse than useful work).
        let early = |j: usize| {
            soft.iter().any(|&(i, r)| {
                r == j && slot[i] != usize::MAX && slot[i] + facts.tmu_lookup > cycle
            })
        };
        candidates.sort_by(|&x, &y| {
            early(x)
                .cmp(&early(y))
                .then(prio[y].cmp(&prio[x]))
                .then(x.cmp(&y))
        });
        let Some(&first) = candidates.first() else {
            bundles.push(Bundle::nop());
            cycle += 1;
            continue;
        };
        chosen.clear();
        chosen.push(first);
        let mut bundle = target
            .pack(&[&ops[first]])
            .expect("a single op always encodes");
        if dual_issue && matches!(bundle, Bundle::Alu { .. }) {
            // Then the ready ops by priority, and ops whose last wait is on a chosen one
            // with latency 0 (they only overwrite what it reads: a TMU receive may share
            // the word of the last read of r4).
            // Zero-latency successors are tried first: they would otherwise wait a word.
            tried.clear();
            let mut i = 1;
            while chosen.len() < 3 {
                let successor = chosen
                    .iter()
                    .flat_map(|&c| succs[c].iter())
                    .filter(|&&(_, l)| l == 0)
                    .map(|&(s, _)| s)
                    .find(|&s| {
                        slot[s] == usize::MAX
                            && !chosen.contains(&s)
                            && !tried.contains(&s)
                            && preds[s].iter().all(|&(p, l)| {
                                (slot[p] != usize::MAX && slot[p] + l <= cycle)
                                    || (l == 0 && chosen.contains(&p))
                            })
                    });
                let next = successor.or_else(|| {
                    while i < candidates.len().min(25) {
                        i += 1;
                        if !tried.contains(&candidates[i - 1]) {
                            return Some(candidates[i - 1]);
                        }
                    }
                    None
                });
                let Some(c) = next else {
                    break;
                };
                tried.push(c);
                trial.clear();
                trial.extend(chosen.iter().map(|&i| &ops[i]));
                trial.push(&ops[c]);
                if let Some(b) = target.pack(&trial) {
                    bundle = b;
                    chosen.push(c);
                }
            }
        }
        for &c in &chosen {
            slot[c] = cycle;
            done += 1;
            available.retain(|&j| j != c);
            for &(s, l) in &succs[c] {
                earliest[s] = earliest[s].max(cycle + l);
                waiting[s] -= 1;
                // (A successor chosen into this same word is not available again.)
                if waiting[s] == 0 && !chosen.contains(&s) {
                    available.push(s);
                }
            }
        }
        bundles.push(bundle);
        cycle += 1;
    }
    (bundles, slot)
}

/// Schedule the whole program.
/// With `fifo_order`, TMU receives are ordered by the FIFO rather than after every earlier
/// request (see [`tmu_fifo_order`]), and requests go as early as they can.
pub fn schedule(code: &[Op<Loc>], dual_issue: bool, target: &Vc4, fifo_order: bool) -> Vec<Item> {
    let slots = target.facts().branch_delay_slots;
    let mut items: Vec<Item> = Vec::new();
    let mut segment: Vec<Op<Loc>> = Vec::new();
    // The source of each op in `segment`, and of the op being looked at.
    let mut sources: Vec<u32> = Vec::new();
    let mut here = NO_SOURCE;
    let fifo_at = if fifo_order {
        tmu_fifo_at_labels(code)
    } else {
        HashMap::default()
    };
    let mut fifo_entry: Option<[usize; 2]> = fifo_order.then_some([0, 0]);
    let flush = |segment: &mut Vec<Op<Loc>>,
                 sources: &mut Vec<u32>,
                 items: &mut Vec<Item>,
                 fifo_entry: &mut Option<[usize; 2]>,
                 branch: Option<(&Op<Loc>, u32)>| {
        let fx: Vec<Effects<Loc>> = segment.iter().map(effects).collect();
        let urgent = match branch {
            Some((Op::Branch { cond, .. }, _)) if *cond != BranchCond::Always => (0..segment.len())
                .rev()
                .find(|&i| fx[i].writes.iter().any(|(r, _)| *r == Res::Flags)),
            _ => None,
        };
        let (mut bundles, slot) =
            schedule_segment(target, segment, dual_issue, urgent, *fifo_entry);
        // The FIFO after this segment, for the next one.
        *fifo_entry = fifo_entry.and_then(|mut e| {
            for op in segment.iter() {
                if let Some((t, request)) = tmu_op(op) {
                    if request {
                        e[t] += 1;
                    } else {
                        e[t] = e[t].checked_sub(1)?;
                    }
                }
            }
            Some(e)
        });
        // Each word's source: that of its first op writing an I/O register (what run-time
        // errors are about: stores, loads, DMA), else of its first op in program order.
        let mut word_source = vec![NO_SOURCE; bundles.len()];
        let mut io = vec![false; bundles.len()];
        for (i, &at) in slot.iter().enumerate() {
            let writes_io = matches!(
                segment[i],
                Op::Alu {
                    dst: Dst::Write(_),
                    ..
                }
            ) || matches!(
                segment[i],
                Op::Ldi {
                    dst: Dst::Write(_),
                    ..
                }
            );
            if word_source[at] == NO_SOURCE || (writes_io && !io[at]) {
                word_source[at] = sources[i];
                io[at] |= writes_io;
            }
        }
        if let Some((Op::Branch { cond, target }, branch_source)) = branch {
            // Earliest word after the last flag writer, but at most SLOTS words before the end.
            let after_flags = segment
                .iter()
                .enumerate()
                .filter(|(i, _)| {
                    *cond != BranchCond::Always
                        && fx[*i].writes.iter().any(|(r, _)| *r == Res::Flags)
                })
                .map(|(i, _)| slot[i] + 1)
                .max()
                .unwrap_or(0);
            let at = after_flags.max(bundles.len().saturating_sub(slots));
            let tail: Vec<Bundle> = bundles.split_off(at);
            let tail_sources = word_source.split_off(at);
            for (b, s) in bundles.drain(..).zip(word_source) {
                items.push(Item::Word(Word::Bundle(b), s));
            }
            items.push(Item::Word(Word::Branch(*cond, *target), branch_source));
            let pad = slots - tail.len();
            for (b, s) in tail.into_iter().zip(tail_sources) {
                items.push(Item::Word(Word::Bundle(b), s));
            }
            for _ in 0..pad {
                items.push(Item::Word(Word::Bundle(Bundle::nop()), branch_source));
            }
        } else {
            for (b, s) in bundles.into_iter().zip(word_source) {
                items.push(Item::Word(Word::Bundle(b), s));
            }
        }
        segment.clear();
        sources.clear();
    };
    // Every flush takes the same state.
    macro_rules! flush_now {
        ($branch:expr) => {
            flush(
                &mut segment,
                &mut sources,
                &mut items,
                &mut fifo_entry,
                $branch,
            )
        };
    }
    for op in code {
        match op {
            Op::Source(s) => here = *s,
            Op::Label(l) => {
                flush_now!(None);
                items.push(Item::Label(*l));
                fifo_entry = fifo_at.get(l).copied().flatten();
            }
            Op::Branch { .. } => flush_now!(Some((op, here))),
            Op::Sema { .. } => {
                flush_now!(None);
                items.push(Item::Word(Word::Bundle(Bundle::Single(op.clone())), here));
            }
            Op::ThreadEnd => {
                flush_now!(None);
                for word in [Bundle::Single(Op::ThreadEnd), Bundle::nop(), Bundle::nop()] {
                    items.push(Item::Word(Word::Bundle(word), here));
                }
            }
            _ => {
                segment.push(op.clone());
                sources.push(here);
            }
        }
    }
    flush_now!(None);
    fill_from_targets(&mut items, slots);
    fix_boundaries(&mut items, target.facts());
    items
}

/// Whether a word is an ALU word whose work can be copied into a delay slot: no I/O, no
/// signal, no r4/r5 reads.
fn copyable(word: &Word) -> Option<Effects<Loc>> {
    let Word::Bundle(Bundle::Alu { ops, signal }) = word else {
        return None;
    };
    if *signal != Signal::None || ops.is_empty() {
        return None;
    }
    let mut all = Effects::default();
    for (op, _) in ops {
        let Op::Alu { dst, a, b, .. } = op else {
            return None;
        };
        if matches!(dst, Dst::Write(_)) {
            return None;
        }
        for s in [a, b] {
            if matches!(s, Src::Read(_) | Src::R4 | Src::R5) {
                return None;
            }
        }
        let e = effects(op);
        for &r in &e.reads {
            all.reads.push(r);
        }
        for &w in &e.writes {
            all.writes.push(w);
        }
    }
    Some(all)
}

/// Whether everything `writes` names is overwritten before it is read on the straight path
/// starting at item `from` (conservatively live at the end of that block).
fn dead_after(items: &[Item], from: usize, writes: &[(Res<Loc>, bool)]) -> bool {
    writes.iter().all(|&(res, _)| {
        // Labels do not interrupt the straight path; branches end it (conservatively live).
        for item in &items[from..] {
            let Item::Word(word, _) = item else {
                continue;
            };
            let ops: Vec<&Op<Loc>> = match word {
                Word::Bundle(Bundle::Alu { ops, .. }) => ops.iter().map(|(o, _)| o).collect(),
                Word::Bundle(Bundle::Single(op)) => vec![op],
                Word::Bundle(Bundle::Branch { .. }) | Word::Branch(..) => return false,
            };
            let mut read = false;
            let mut killed = false;
            for op in ops {
                if matches!(op, Op::ThreadEnd) {
                    return true;
                }
                let e = effects(op);
                read |= e.reads.iter().any(|(r, _)| *r == res);
                let all_lanes = match op {
                    Op::Alu { cond, .. } | Op::Ldi { cond, .. } => *cond == Cond::Always,
                    _ => false,
                };
                killed |= all_lanes && e.writes.iter().any(|(w, _)| *w == res);
            }
            if read {
                return false;
            }
            if killed {
                return true;
            }
        }
        false
    })
}

/// What holds in every lane on a loop's exit path, right after its back branch falls
/// through, for the copies of the loop's first words that fill its delay slots.
///
/// A loop `while any(x != y)` ends its body with `sub.setf -, x, y` and branches back with
/// `anynz`; falling through means x == y in every lane. A `min` of the two then sets no
/// carry anywhere (min's carry is `a > b`, see lower.rs), so an op that writes only where
/// the carry is set writes nothing: the next iteration's `where (x > y)` assignments can
/// fill the delay slots although x and y are live after the loop (Euclid's algorithm).
struct ExitFacts {
    /// Two registers equal in every lane.
    equal: Option<(Loc, Loc)>,
    /// The carry flag is clear in every lane.
    carry_clear: bool,
}

impl ExitFacts {
    /// The facts where the branch at `items[at]` with `cond` falls through.
    fn at_branch(items: &[Item], at: usize, cond: BranchCond) -> ExitFacts {
        let mut facts = ExitFacts {
            equal: None,
            carry_clear: false,
        };
        if cond != BranchCond::AnyZeroClear {
            return facts;
        }
        // The last flag write before the branch, in its block, and whether its operands
        // change after it.
        let mut written: Vec<Loc> = Vec::new();
        for item in items[..at].iter().rev() {
            let Item::Word(Word::Bundle(Bundle::Alu { ops, .. }), _) = item else {
                return facts;
            };
            for (op, _) in ops {
                if let Op::Alu {
                    dst: Dst::Reg(d), ..
                } = op
                {
                    written.push(*d);
                }
            }
            let setter = ops.iter().find_map(|(op, _)| match op {
                Op::Alu { sf: true, .. } => Some(op),
                _ => None,
            });
            if let Some(op) = setter {
                if let Op::Alu {
                    op: AluOp::Add(AddOp::Sub),
                    a: Src::Reg(x),
                    b: Src::Reg(y),
                    cond: Cond::Always,
                    ..
                } = op
                {
                    // Only writes after the setter count; a write in its own word lands
                    // after the operands were read, so it counts too.
                    if !written.contains(x) && !written.contains(y) {
                        facts.equal = Some((*x, *y));
                    }
                }
                return facts;
            }
        }
        facts
    }

    /// Whether `bundle` leaves resource `r` unwritten on the exit path: its writer is
    /// conditional on a carry that is clear.
    fn suppressed(&self, bundle: &Bundle, r: Res<Loc>) -> bool {
        let Bundle::Alu { ops, .. } = bundle else {
            return false;
        };
        self.carry_clear
            && ops.iter().all(|(op, _)| match op {
                Op::Alu {
                    dst: Dst::Reg(d),
                    cond,
                    ..
                } if Res::Loc(*d) == r => *cond == Cond::CarrySet,
                _ => true,
            })
            && matches!(r, Res::Loc(_))
    }

    /// The facts after `bundle` runs on the exit path.
    fn run(&mut self, bundle: &Bundle) {
        let Bundle::Alu { ops, .. } = bundle else {
            *self = ExitFacts {
                equal: None,
                carry_clear: false,
            };
            return;
        };
        let before = self.carry_clear;
        for (op, _) in ops {
            let Op::Alu {
                op: alu,
                dst,
                a,
                b,
                cond,
                sf,
                ..
            } = op
            else {
                continue;
            };
            if let (Dst::Reg(d), Some((x, y))) = (dst, self.equal) {
                let written = !(before && *cond == Cond::CarrySet);
                if written && (*d == x || *d == y) {
                    self.equal = None;
                }
            }
            if *sf {
                self.carry_clear = *cond == Cond::Always
                    && *alu == AluOp::Add(AddOp::Min)
                    && match (a, b, self.equal) {
                        (Src::Reg(p), Src::Reg(q), Some((x, y))) => {
                            (*p, *q) == (x, y) || (*p, *q) == (y, x)
                        }
                        _ => false,
                    };
            }
        }
    }
}

/// Fill the empty delay slots of a backward (loop) branch with copies of the first words of
/// its target, and branch past them instead. On loop exit the copies run once more, so only
/// words without I/O whose results are dead after the loop qualify.
fn fill_from_targets(items: &mut Vec<Item>, slots: usize) {
    let mut next_label = u32::MAX / 2;
    // Positions of the labels before item `i` (only backward branches are filled).
    let mut seen: HashMap<Label, usize> = HashMap::default();
    let mut resumes: Vec<(usize, Label)> = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let (cond, target, branch_source) = match &items[i] {
            Item::Word(Word::Branch(cond, target), source) => (*cond, *target, *source),
            Item::Label(l) => {
                seen.insert(*l, i);
                i += 1;
                continue;
            }
            Item::Word(..) => {
                i += 1;
                continue;
            }
        };
        let Some(&label_pos) = seen.get(&target) else {
            i += 1;
            continue;
        };
        if cond == BranchCond::Always {
            i += 1;
            continue;
        }
        // The delay slots: items i+1..=i+slots must all be words.
        let slots_ok =
            (1..=slots).all(|k| matches!(items.get(i + k), Some(Item::Word(Word::Bundle(_), _))));
        if !slots_ok {
            i += 1;
            continue;
        }
        // Trailing empty slots.
        let mut empty = 0;
        while empty < slots {
            match &items[i + slots - empty] {
                Item::Word(Word::Bundle(b), _) if *b == Bundle::nop() => empty += 1,
                _ => break,
            }
        }
        let first_empty = i + slots + 1 - empty;
        let mut exit = ExitFacts::at_branch(items, i, cond);
        for item in &items[i + 1..first_empty] {
            if let Item::Word(Word::Bundle(b), _) = item {
                exit.run(b);
            }
        }
        let mut copied = 0;
        let mut source = label_pos + 1;
        while copied < empty {
            let Some(Item::Word(word, word_source)) = items.get(source) else {
                break;
            };
            let Some(fx) = copyable(word) else {
                break;
            };
            let Word::Bundle(bundle) = word else {
                break;
            };
            // What the copy writes must be dead after the loop, or not written at all on
            // the way out.
            let writes: Vec<(Res<Loc>, bool)> = fx
                .writes
                .iter()
                .copied()
                .filter(|&(r, _)| !exit.suppressed(bundle, r))
                .collect();
            if !dead_after(items, i + slots + 1, &writes) {
                break;
            }
            exit.run(bundle);
            // The copy must not read what the word before it wrote (regfile latency).
            let prev = match &items[first_empty + copied - 1] {
                Item::Word(w, _) => w.clone(),
                Item::Label(_) => break,
            };
            if !compatible(&prev, word) {
                break;
            }
            items[first_empty + copied] = Item::Word(word.clone(), *word_source);
            copied += 1;
            source += 1;
        }
        if copied > 0 {
            let resume = Label(next_label);
            next_label += 1;
            // The resume label goes in after the scan (inserting now would shift every later
            // item: quadratic in the number of loops).
            resumes.push((label_pos + 1 + copied, resume));
            items[i] = Item::Word(Word::Branch(cond, resume), branch_source);
        }
        i += 1;
    }
    if resumes.is_empty() {
        return;
    }
    resumes.sort_by_key(|&(at, _)| at);
    let old = std::mem::take(items);
    let mut pending = resumes.into_iter().peekable();
    for (at, item) in old.into_iter().enumerate() {
        while let Some((_, label)) = pending.next_if(|&(p, _)| p == at) {
            items.push(Item::Label(label));
        }
        items.push(item);
    }
    items.extend(pending.map(|(_, label)| Item::Label(label)));
}

/// Physical registers written by a word (file, index).
fn phys_writes(w: &Word) -> Vec<(RegFile, u8)> {
    let mut out = Vec::new();
    let mut add = |d: &Dst<Loc>| match d {
        Dst::Reg(Loc::A(i)) => out.push((RegFile::A, *i)),
        Dst::Reg(Loc::B(i)) => out.push((RegFile::B, *i)),
        _ => {}
    };
    match w {
        Word::Bundle(Bundle::Alu { ops, .. }) => {
            for (op, _) in ops {
                if let Op::Alu { dst, .. } = op {
                    add(dst);
                }
            }
        }
        Word::Bundle(Bundle::Single(Op::Ldi { dst, .. })) => add(dst),
        _ => {}
    }
    out
}

fn acc_writes(w: &Word) -> Vec<Res<Loc>> {
    let mut out = Vec::new();
    let mut add = |d: &Dst<Loc>| match d {
        Dst::Reg(Loc::Acc(i)) => out.push(Res::Loc(Loc::Acc(*i))),
        Dst::Write(IoWrite::R5Rep) => out.push(Res::R5),
        _ => {}
    };
    match w {
        Word::Bundle(Bundle::Alu { ops, .. }) => {
            for (op, _) in ops {
                if let Op::Alu { dst, .. } = op {
                    add(dst);
                }
            }
        }
        Word::Bundle(Bundle::Single(Op::Ldi { dst, .. })) => add(dst),
        _ => {}
    }
    out
}

/// Whether word `cur` may directly follow word `prev` in execution.
fn compatible(prev: &Word, cur: &Word) -> bool {
    let writes = phys_writes(prev);
    let accs = acc_writes(prev);
    let Word::Bundle(Bundle::Alu { ops, .. }) = cur else {
        return true;
    };
    for (op, _) in ops {
        let Op::Alu { a, b, rotate, .. } = op else {
            continue;
        };
        for s in [a, b] {
            match s {
                Src::Reg(Loc::A(i)) if writes.contains(&(RegFile::A, *i)) => return false,
                Src::Reg(Loc::B(i)) if writes.contains(&(RegFile::B, *i)) => return false,
                Src::Reg(Loc::Acc(i))
                    if rotate.is_some() && accs.contains(&Res::Loc(Loc::Acc(*i))) =>
                {
                    return false
                }
                _ => {}
            }
        }
        if *rotate == Some(Rotation::ByR5) && accs.contains(&Res::R5) {
            return false;
        }
    }
    true
}

/// Whether `w` reads a uniform.
fn reads_uniform(w: &Word) -> bool {
    let Word::Bundle(Bundle::Alu { ops, .. }) = w else {
        return false;
    };
    ops.iter().any(|(op, _)| {
        matches!(op, Op::Alu { a, b, .. }
            if *a == Src::Read(IoRead::Uniform) || *b == Src::Read(IoRead::Uniform))
    })
}

/// Whether `w` writes the uniforms address.
fn writes_uniforms_address(w: &Word) -> bool {
    let Word::Bundle(Bundle::Alu { ops, .. }) = w else {
        return false;
    };
    ops.iter().any(|(op, _)| {
        matches!(
            op,
            Op::Alu {
                dst: Dst::Write(IoWrite::UniformsAddress),
                ..
            }
        )
    })
}

/// Insert NOPs where a block's first word would read a register its predecessor's last
/// executed word wrote, or a uniform too soon after a uniforms-address write (the first two
/// words of a block). One pass: a NOP reads nothing, and inserting one before a word changes
/// no other word's predecessors, so every collision can be found on the original list.
fn fix_boundaries(items: &mut Vec<Item>, facts: &Facts) {
    // Word indices and label positions.
    let mut label_at: HashMap<Label, usize> = HashMap::default();
    let mut words: Vec<&Word> = Vec::new();
    for item in items.iter() {
        match item {
            Item::Label(l) => {
                label_at.insert(*l, words.len());
            }
            Item::Word(w, _) => words.push(w),
        }
    }
    // Predecessors of each word in execution: (word, whether it arrives by a branch).
    let n = words.len();
    let mut preds: Vec<Vec<(usize, bool)>> = vec![Vec::new(); n];
    let mut no_fall = vec![false; n + 1];
    for (i, w) in words.iter().enumerate() {
        match w {
            Word::Branch(cond, target) => {
                let t = label_at[target];
                if t < n {
                    preds[t].push((i + facts.branch_delay_slots, true));
                }
                if *cond == BranchCond::Always && i + facts.branch_delay_slots < n {
                    no_fall[i + facts.branch_delay_slots + 1] = true;
                }
            }
            Word::Bundle(Bundle::Single(Op::ThreadEnd)) if i + facts.thread_end_delay_slots < n => {
                no_fall[i + facts.thread_end_delay_slots + 1] = true;
            }
            _ => {}
        }
    }
    for i in 1..n {
        if !no_fall[i] {
            preds[i].push((i - 1, false));
        }
    }
    // Per word: None, or Some(whether only the fall-through predecessor collides, NOPs
    // needed). A branch whose last delay slot is the word just before its target arrives by
    // the branch, not by falling through, even though it is the same word.
    let fixes: Vec<Option<(bool, usize)>> = (0..n)
        .map(|i| {
            let bad: Vec<(usize, bool)> = preds[i]
                .iter()
                .copied()
                .filter(|&(p, _)| p < n && !compatible(words[p], words[i]))
                .collect();
            // A uniform read must be the third word after a uniforms-address write on every
            // path (two words between): one or two NOPs, on every path into this word.
            if reads_uniform(words[i]) {
                let near: Vec<(usize, bool)> = preds[i]
                    .iter()
                    .filter(|&&(p, _)| p < n)
                    .map(|&(p, by_branch)| {
                        let needed = if writes_uniforms_address(words[p]) {
                            2
                        } else if preds[p]
                            .iter()
                            .any(|&(q, _)| q < n && writes_uniforms_address(words[q]))
                        {
                            1
                        } else {
                            0
                        };
                        (needed, by_branch)
                    })
                    .filter(|&(needed, _)| needed > 0)
                    .collect();
                if let Some(needed) = near.iter().map(|&(n, _)| n).max() {
                    // Only the fall-through path needs them when no branch arrives too soon
                    // (a loop entered right after pointing the stream: not every iteration).
                    let fall_only = near.iter().all(|&(_, by_branch)| !by_branch)
                        && bad.iter().all(|&(_, by_branch)| !by_branch);
                    return Some((fall_only, needed.max(usize::from(!bad.is_empty()))));
                }
            }
            (!bad.is_empty()).then(|| (bad.iter().all(|&(_, by_branch)| !by_branch), 1))
        })
        .collect();
    if fixes.iter().all(Option::is_none) {
        return;
    }
    let old = std::mem::take(items);
    let mut word = 0;
    // Labels met since the last word: a fall-through-only NOP goes before them.
    let mut labels: Vec<Item> = Vec::new();
    for item in old {
        match item {
            Item::Label(_) => labels.push(item),
            Item::Word(w, source) => {
                let nop = || Item::Word(Word::Bundle(Bundle::nop()), source);
                match fixes[word] {
                    // Pad the fall-through path only (before the labels), not every entry.
                    Some((true, count)) => {
                        items.extend(std::iter::repeat_with(nop).take(count));
                        items.append(&mut labels);
                    }
                    Some((false, count)) => {
                        items.append(&mut labels);
                        items.extend(std::iter::repeat_with(nop).take(count));
                    }
                    None => items.append(&mut labels),
                }
                items.push(Item::Word(w, source));
                word += 1;
            }
        }
    }
    items.append(&mut labels);
}

/// Resolve labels: the final bundle list, and each bundle's source ([`NO_SOURCE`] if none).
pub fn resolve(items: &[Item]) -> (Vec<Bundle>, Vec<u32>) {
    let mut label_at: HashMap<Label, usize> = HashMap::default();
    let mut count = 0;
    for item in items {
        match item {
            Item::Label(l) => {
                label_at.insert(*l, count);
            }
            Item::Word(..) => count += 1,
        }
    }
    items
        .iter()
        .filter_map(|item| match item {
            Item::Label(_) => None,
            Item::Word(Word::Bundle(b), source) => Some((b.clone(), *source)),
            Item::Word(Word::Branch(cond, target), source) => Some((
                Bundle::Branch {
                    cond: *cond,
                    target: label_at[target],
                },
                *source,
            )),
        })
        .unzip()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiler::vc4::bundle::Unit;
    use qpu_isa::vc4::SmallImm;

    fn word(op: Op<Loc>) -> Item {
        Item::Word(
            Word::Bundle(Bundle::Alu {
                ops: vec![(op, Unit::Add)],
                signal: Signal::None,
            }),
            NO_SOURCE,
        )
    }

    fn nop() -> Item {
        Item::Word(Word::Bundle(Bundle::nop()), NO_SOURCE)
    }

    fn shape(items: &[Item]) -> String {
        items
            .iter()
            .map(|item| match item {
                Item::Label(l) => format!("{l}:"),
                Item::Word(Word::Branch(_, l), _) => format!("brr {l}"),
                Item::Word(Word::Bundle(b), _) if *b == Bundle::nop() => "nop".to_string(),
                Item::Word(Word::Bundle(Bundle::Alu { ops, .. }), _) => ops[0].0.to_string(),
                Item::Word(Word::Bundle(other), _) => format!("{other:?}"),
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// `brr.cond L` (from `cond`), `nops` NOPs, a word writing ra6, `L:`, a word reading ra6:
    /// the shape after `fix_boundaries`.
    fn padded(cond: BranchCond, target: Label, nops: usize) -> String {
        let one = Src::Imm(SmallImm::from_int(1).unwrap());
        let mut items = vec![Item::Word(Word::Branch(cond, target), NO_SOURCE)];
        items.extend((0..nops).map(|_| nop()));
        items.extend([
            word(Op::mov(Dst::Reg(Loc::A(6)), one)),
            Item::Label(target),
            word(Op::mov(Dst::Reg(Loc::Acc(0)), Src::Reg(Loc::A(6)))),
        ]);
        fix_boundaries(&mut items, &Facts::VC4);
        shape(&items)
    }

    fn branch_at(items: &[Item]) -> usize {
        items
            .iter()
            .position(|i| matches!(i, Item::Word(Word::Branch(..), _)))
            .unwrap()
    }

    /// Euclid's loop after allocation (a in r1, b in r0), then code that reads both and
    /// sets the flags; the back branch's three delay slots are empty.
    fn euclid(back: BranchCond) -> Vec<Item> {
        let (a, b) = (Src::Reg(Loc::Acc(1)), Src::Reg(Loc::Acc(0)));
        let alu = |op, dst, x, y, cond, sf| {
            word(Op::Alu {
                op,
                dst,
                a: x,
                b: y,
                cond,
                sf,
                rotate: None,
            })
        };
        let (min, sub) = (AluOp::Add(AddOp::Min), AluOp::Add(AddOp::Sub));
        let (r0, r1) = (Dst::Reg(Loc::Acc(0)), Dst::Reg(Loc::Acc(1)));
        vec![
            Item::Label(Label(0)),
            alu(min, Dst::None, a, b, Cond::Always, true),
            alu(sub, r1, a, b, Cond::CarrySet, false),
            alu(min, Dst::None, b, a, Cond::Always, true),
            alu(sub, r0, b, a, Cond::CarrySet, false),
            alu(sub, Dst::None, a, b, Cond::Always, true),
            Item::Word(Word::Branch(back, Label(0)), NO_SOURCE),
            nop(),
            nop(),
            nop(),
            alu(sub, Dst::None, a, a, Cond::Always, true),
            word(Op::mov(Dst::Reg(Loc::A(2)), a)),
            word(Op::mov(Dst::Reg(Loc::A(3)), b)),
        ]
    }

    #[test]
    fn a_loop_that_exits_on_equal_values_fills_its_slots_with_the_next_iterations_work() {
        let mut items = euclid(BranchCond::AnyZeroClear);
        fill_from_targets(&mut items, 3);
        // Falling through means a == b: the min clears the carry, so the `.ifc` subtraction
        // writes nothing on the way out although a is live after the loop.
        let at = branch_at(&items);
        let slots: Vec<String> = items[at + 1..at + 4]
            .iter()
            .map(|i| match i {
                Item::Word(Word::Bundle(Bundle::Alu { ops, .. }), _) => ops[0].0.to_string(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            slots,
            [
                "flags = min r1, r0",
                "r1.ifc = sub r1, r0",
                "flags = min r0, r1"
            ]
        );
        assert!(matches!(items[at], Item::Word(Word::Branch(_, l), _) if l != Label(0)));
    }

    #[test]
    fn without_the_equal_exit_only_dead_results_fill_slots() {
        // `allnz` falls through when some lane is equal, not every lane.
        let mut items = euclid(BranchCond::AllZeroClear);
        fill_from_targets(&mut items, 3);
        // The flags are rewritten after the loop, so the first `min` still fills a slot.
        let at = branch_at(&items);
        assert!(matches!(&items[at + 2], Item::Word(Word::Bundle(b), _) if *b == Bundle::nop()));
    }

    fn gather() -> Op<Loc> {
        Op::mov(Dst::Write(IoWrite::TmuS(0)), Src::Reg(Loc::A(1)))
    }

    #[test]
    fn the_fifo_is_known_where_every_way_in_agrees() {
        let back = |l| Op::Branch {
            cond: BranchCond::AnyZeroClear,
            target: Label(l),
        };
        // Two requests ahead, then a loop receiving one and requesting one.
        let balanced = vec![
            gather(),
            gather(),
            Op::Label(Label(0)),
            gather(),
            Op::Signal(Signal::LoadTmu0),
            back(0),
        ];
        assert_eq!(tmu_fifo_at_labels(&balanced)[&Label(0)], Some([2, 0]));
        // A loop that requests more than it receives: unknown.
        let growing = vec![Op::Label(Label(0)), gather(), back(0)];
        assert_eq!(tmu_fifo_at_labels(&growing)[&Label(0)], None);
    }

    #[test]
    fn receives_of_earlier_requests_do_not_wait_for_this_segments_requests() {
        let ops = [
            gather(),
            gather(),
            Op::Signal(Signal::LoadTmu0),
            Op::Signal(Signal::LoadTmu0),
        ];
        let deps = |entry| {
            let mut preds = vec![Vec::new(); 4];
            tmu_fifo_order(&ops, entry, &mut preds);
            preds
        };
        // Two requests outstanding on entry: the receives take those.
        let prefetched = deps([2, 0]);
        assert!(prefetched[2].is_empty() && prefetched[3].is_empty());
        // None outstanding: each receive waits for its own request.
        let fresh = deps([0, 0]);
        assert!(fresh[2].iter().any(|&(p, _)| p == 0));
        assert!(fresh[3].iter().any(|&(p, _)| p == 1));
        // A request after a receive stays after it.
        let ops = [Op::Signal(Signal::LoadTmu0), gather()];
        let mut preds = vec![Vec::new(); 2];
        tmu_fifo_order(&ops, [4, 0], &mut preds);
        assert!(preds[1].iter().any(|&(p, _)| p == 0));
    }

    #[test]
    fn a_tmu_receive_shares_the_word_of_the_last_read_of_r4() {
        // The receive overwrites r4, which the multiply reads: in one word the multiply
        // still reads the old value.
        let ops = [
            Op::alu(
                AluOp::Mul(qpu_isa::vc4::MulOp::Fmul),
                Dst::Reg(Loc::Acc(1)),
                Src::R4,
                Src::Reg(Loc::A(3)),
            ),
            Op::Signal(Signal::LoadTmu0),
        ];
        let (bundles, slot) = schedule_segment(
            &crate::compiler::common::target::Vc4,
            &ops,
            true,
            None,
            Some([1, 0]),
        );
        assert_eq!(bundles.len(), 1, "{bundles:?}");
        assert_eq!(slot, [0, 0]);
    }

    #[test]
    fn a_collision_reached_by_a_branch_is_padded_on_the_branch_path() {
        // The branch's last delay slot writes ra6 and sits right before the target, which
        // reads ra6: the branch path needs the NOP (after the label), not the fall-through.
        assert_eq!(
            padded(BranchCond::Always, Label(7), 2),
            "brr L7 | nop | nop | ra6 = mov 1 | L7: | nop | r0 = mov ra6"
        );
    }

    #[test]
    fn a_fall_through_collision_is_padded_before_the_labels() {
        // Reached both by falling through (collides) and by a branch from a word that does
        // not write ra6: only the fall-through path gets the NOP.
        assert_eq!(
            padded(BranchCond::AllZeroSet, Label(3), 3),
            "brr L3 | nop | nop | nop | ra6 = mov 1 | nop | L3: | r0 = mov ra6"
        );
    }

    #[test]
    fn each_word_keeps_the_source_of_its_io_write() {
        // Two ops from sources 1 and 2 share a word: the word is attributed to the VPM write.
        let code = vec![
            Op::Source(1),
            Op::mov(Dst::Reg(Loc::Acc(0)), Src::Reg(Loc::A(1))),
            Op::Source(2),
            Op::mov(Dst::Write(IoWrite::Vpm), Src::Reg(Loc::B(2))),
        ];
        let (bundles, sources) = resolve(&schedule(
            &code,
            true,
            &crate::compiler::common::target::Vc4,
            false,
        ));
        assert_eq!(bundles.len(), 1, "{bundles:?}");
        assert_eq!(sources, vec![2]);
    }
}

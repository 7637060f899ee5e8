//! Register allocation: virtual registers to accumulators r0–r3 and the 32 + 32 physical
//! registers of files A and B, with spilling to memory.
//!
//! 1. Liveness over the control-flow graph (a conditional write also reads its
//!    destination: unwritten lanes keep their value).
//! 2. An interference graph; copies do not make their two sides interfere, so they can share
//!    a location and disappear.
//! 3. Greedy colouring, most valuable values first (uses weighted by loop depth); when that
//!    leaves values without a location, Chaitin and Briggs's simplification order, then the
//!    order of range starts (linear scan's), whichever spills least. Encoding constraints
//!    steer the choice: one read per register file per instruction (two operands prefer
//!    different files), a small immediate takes the B read (its partner goes to A or an
//!    accumulator, or, when file A is full along its range, to B with a fix-up copy rather
//!    than spill), rotation sources must be in r0–r3.
//! 4. Operands that still break a port rule get a copy into an accumulator temporary just
//!    before the instruction, and allocation runs again.
//! 5. Values that find no location are spilled. Constants (one unconditional load immediate)
//!    are loaded again before each use and need no memory; when something must spill, the
//!    colouring order weighs each value's uses by what its reloads would cost, so constants
//!    give way first. Any other spilled value: every definition is followed by a VPM write
//!    and VDW store to this QPU's spill area, every use preceded by a VDR load into a VPM
//!    row and a VPM read (DMA in both directions, so a reload always sees the last store: VDW
//!    writes bypass the TMU cache, vc4asm issue #5, so a TMU read could see an old value).
//!    A kernel lowered without spill support gets it here when something must live in
//!    memory (`lower::add_spill_support`); where its QPUs' VPM rows are shared with store
//!    runs or batches, values whose spill code would land while those rows wait for their
//!    DMA are pinned to registers, and a neighbour spills in their place.

use rustc_hash::FxHashMap as HashMap;

use qpu_isa::vc4::Cond;

use super::ir::*;
use super::lower::Lowered;
use crate::compiler::common::interference::BitMatrix;
use crate::compiler::common::liveness::{self, group, Access, Lists};

/// Why allocation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AllocError {
    /// Spilling is needed but the kernel was lowered without spill support.
    NeedSpills,
    /// Even after spilling, values that cannot be spilled did not fit.
    TooManyValues(String),
}

/// The allocated kernel.
pub struct Allocated {
    /// The IR over machine locations.
    pub code: Vec<Op<Loc>>,
    /// Spill slots (64 bytes each) per QPU.
    pub spill_slots: u32,
}

/// Basic blocks of a linear IR: (start, end) index ranges and successors.
pub struct Cfg {
    /// Blocks as half-open ranges of op indices.
    pub blocks: Vec<(usize, usize)>,
    /// Successor block indices.
    pub succs: Vec<Vec<usize>>,
}

/// Split `code` into basic blocks.
pub fn cfg<R: Copy + PartialEq>(code: &[Op<R>]) -> Cfg {
    let mut starts = vec![0];
    for (i, op) in code.iter().enumerate() {
        match op {
            Op::Label(_) if i > 0 => starts.push(i),
            Op::Branch { .. } | Op::ThreadEnd => starts.push(i + 1),
            _ => {}
        }
    }
    starts.push(code.len());
    starts.dedup();
    let blocks: Vec<(usize, usize)> = starts
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|(s, e)| s < e)
        .collect();
    let mut label_block = HashMap::default();
    for (b, &(s, _)) in blocks.iter().enumerate() {
        if let Op::Label(l) = code[s] {
            label_block.insert(l, b);
        }
    }
    let succs = blocks
        .iter()
        .enumerate()
        .map(|(b, &(_, e))| {
            let mut out = Vec::new();
            let fall = b + 1 < blocks.len();
            match &code[e - 1] {
                Op::Branch { cond, target } => {
                    out.push(label_block[target]);
                    if *cond != qpu_isa::vc4::BranchCond::Always && fall {
                        out.push(b + 1);
                    }
                }
                Op::ThreadEnd => {}
                _ if fall => out.push(b + 1),
                _ => {}
            }
            out
        })
        .collect();
    Cfg { blocks, succs }
}

/// Loop depth of every op: how many backward branches span it.
fn loop_depths<R: Copy + PartialEq>(code: &[Op<R>]) -> Vec<u32> {
    let mut label_at = HashMap::default();
    for (i, op) in code.iter().enumerate() {
        if let Op::Label(l) = op {
            label_at.insert(*l, i);
        }
    }
    let mut depth = vec![0u32; code.len()];
    for (i, op) in code.iter().enumerate() {
        if let Op::Branch { target, .. } = op {
            let t = label_at[target];
            if t <= i {
                for d in &mut depth[t..=i] {
                    *d += 1;
                }
            }
        }
    }
    depth
}

/// A set of values as a member list plus each value's position in it: O(1) insert and
/// remove, iteration in O(members) (a bit set's iteration costs O(values), which made
/// building the graph quadratic in kernel size). The position table is shared by the blocks.
struct Live {
    members: Vec<u32>,
    position: Vec<u32>,
}

impl Graph {
    /// The values interfering with `v`.
    fn neighbours(&self, v: usize) -> &[u32] {
        &self.adj.1[self.adj.0[v] as usize..self.adj.0[v + 1] as usize]
    }
}

impl Live {
    const ABSENT: u32 = u32::MAX;

    fn new(n: usize) -> Live {
        Live {
            members: Vec::new(),
            position: vec![Live::ABSENT; n],
        }
    }
    fn set(&mut self, v: usize) {
        if self.position[v] == Live::ABSENT {
            self.position[v] = self.members.len() as u32;
            self.members.push(v as u32);
        }
    }
    fn clear(&mut self, v: usize) {
        let at = self.position[v];
        if at != Live::ABSENT {
            self.position[v] = Live::ABSENT;
            let last = self.members.pop().expect("a member");
            if last as usize != v {
                self.members[at as usize] = last;
                self.position[last as usize] = at;
            }
        }
    }
    fn empty(&mut self) {
        for &v in &self.members {
            self.position[v as usize] = Live::ABSENT;
        }
        self.members.clear();
    }
}

struct Graph {
    /// Interference: value `v`'s neighbours, without repeats, are
    /// `adj.1[adj.0[v]..adj.0[v + 1]]` (ascending, or in [`Graph::edges`]' order for the
    /// largest kernels).
    adj: (Vec<u32>, Vec<u32>),
    /// The interference edges in the order the walk met them, both directions of each pair
    /// (repeats too in the largest kernels): the simplification order, which depends on the
    /// order of neighbours, reads them grouped ([`group`]).
    edges: Vec<(u32, u32)>,
    /// Operand pairs read by one instruction.
    pairs: Lists,
    /// Values read by two one-operand ops of one loop block that could share a word (one on
    /// each ALU): in different files they may (see [`word_partners`]).
    soft_pairs: Vec<Vec<usize>>,
    /// Copy partners.
    copies: Lists,
    not_a: Vec<bool>,
    not_b: Vec<bool>,
    weight: Vec<f64>,
    /// First and last op index where the value is live or touched.
    span: Vec<(usize, usize)>,
    touched: Vec<bool>,
    /// Each block's live-out values (for the next round, see [`build`]).
    live_out: Lists,
}

/// Live-in and live-out values of each block (each list ascending, no repeats): the shared
/// solver ([`liveness::solve`]) over the ops' uses and full-lane writes (a conditional write
/// does not end a value's life: unwritten lanes keep it).
pub(crate) fn liveness(code: &[Op<VReg>], cfg: &Cfg, n: usize) -> (Lists, Lists) {
    liveness::solve(&Ir { code, cfg, n })
}

/// The IR over virtual registers with its blocks, as the shared analyses see it.
struct Ir<'a> {
    code: &'a [Op<VReg>],
    cfg: &'a Cfg,
    n: usize,
}

impl liveness::Function for Ir<'_> {
    fn blocks(&self) -> &[(usize, usize)] {
        &self.cfg.blocks
    }

    fn successors(&self, b: usize) -> &[usize] {
        &self.cfg.succs[b]
    }

    fn values(&self) -> usize {
        self.n
    }

    fn operands(&self, i: usize, visit: &mut dyn FnMut(Access)) {
        let op = &self.code[i];
        op.uses(|r| visit(Access::Read(r.0)));
        if let (Some(d), true) = (op.def(), op.writes_all_lanes()) {
            visit(Access::Kill(d.0));
        }
    }
}

/// The interference graph of `code`. `live_out`, when given, is each block's live-out set
/// as the previous allocation round found it: valid when that round only added port fix-up
/// copies (each a new value read right after it is made, in the same block, so no block's
/// live sets change); debug builds check it against a fresh solve.
fn build(code: &[Op<VReg>], n: usize, live_out: Option<Lists>) -> Graph {
    let cfg = cfg(code);
    let live_out = match live_out {
        Some(known) => {
            debug_assert!(
                known == liveness(code, &cfg, n).1,
                "carried liveness differs"
            );
            known
        }
        None => liveness(code, &cfg, n).1,
    };

    let depth = loop_depths(code);
    let mut g = Graph {
        adj: (Vec::new(), Vec::new()),
        edges: Vec::new(),
        pairs: Lists::new(n, &[]),
        soft_pairs: vec![Vec::new(); n],
        copies: Lists::new(n, &[]),
        not_a: vec![false; n],
        not_b: vec![false; n],
        weight: vec![0.0; n],
        span: vec![(usize::MAX, 0); n],
        touched: vec![false; n],
        live_out: Lists::new(0, &[]),
    };
    let mut live = Live::new(n);
    // Room for the usual density (a few dozen edges per op) up front: growing this vector
    // by doubling cost more than filling it.
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(code.len() * 32);
    // For kernels of up to 4,096 values the interference is a bit matrix: each pair is
    // recorded once however often it meets, and the neighbour lists come from the rows,
    // ascending. Larger kernels push edges and drop repeats after grouping.
    let mut matrix = BitMatrix::new(n);
    let (mut pairs, mut copies) = (
        Vec::with_capacity(code.len() * 2),
        Vec::with_capacity(code.len()),
    );
    let widen = |sp: &mut (usize, usize), i: usize| {
        sp.0 = sp.0.min(i);
        sp.1 = sp.1.max(i);
    };
    for (b, &(s, e)) in cfg.blocks.iter().enumerate() {
        live.empty();
        for &r in &live_out[b] {
            live.set(r as usize);
            // Live out of the block: live at its last op (and back to its definition, or
            // to the block's start, which the end of this loop records).
            if e > s {
                widen(&mut g.span[r as usize], e - 1);
            }
        }
        for i in (s..e).rev() {
            let op = &code[i];
            let copy_src = op.as_copy().map(|(_, s)| s.0);
            if let Some(d) = op.def() {
                for &l in &live.members {
                    if l != d.0 && Some(l) != copy_src {
                        if let Some(m) = matrix.as_mut() {
                            if !m.insert(d.0 as usize, l as usize) {
                                continue;
                            }
                        }
                        edges.push((d.0, l));
                        edges.push((l, d.0));
                    }
                }
                let d = d.0 as usize;
                if op.writes_all_lanes() {
                    live.clear(d);
                }
            }
            op.uses(|r| live.set(r.0 as usize));
            let w = 8f64.powi(depth[i].min(6) as i32);
            let mut touch = |r: usize| {
                g.weight[r] += w;
                g.touched[r] = true;
                let sp = &mut g.span[r];
                sp.0 = sp.0.min(i);
                sp.1 = sp.1.max(i);
            };
            op.uses(|r| touch(r.0 as usize));
            if let Some(d) = op.def() {
                touch(d.0 as usize);
            }
            if let Some((d, s)) = op.as_copy() {
                copies.push((d.0, s.0));
                copies.push((s.0, d.0));
            }
            if let Op::Alu { a, b, .. } = op {
                for (x, y) in [(a, b), (b, a)] {
                    if let Src::Reg(v) = x {
                        let v = v.0 as usize;
                        match y {
                            Src::Reg(w) if w.0 as usize != v => pairs.push((v as u32, w.0)),
                            Src::Imm(_) | Src::Read(IoRead::VwWait) => g.not_b[v] = true,
                            Src::Read(IoRead::ElemNum | IoRead::VrWait) => g.not_a[v] = true,
                            _ => {}
                        }
                    }
                }
            }
        }
        // Live into the block: live at its first op.
        for &r in &live.members {
            widen(&mut g.span[r as usize], s);
        }
    }
    g.pairs = Lists::new(n, &pairs);
    g.copies = Lists::new(n, &copies);
    for (b, &(s, e)) in cfg.blocks.iter().enumerate() {
        if depth[s] > 0 && loop_block(code, &cfg, b) {
            word_partners(&code[s..e], &mut g.soft_pairs);
        }
    }
    // A value read beside both a B-port operand (a small immediate) and an A-port one
    // (`elem_num`) could only live in an accumulator; a long-lived one (a loop counter)
    // would then spill. Let it take any register: the port fix-up copies it into an
    // accumulator where an instruction needs that, one move instead of a spill.
    for v in 0..n {
        if g.not_a[v] && g.not_b[v] {
            g.not_a[v] = false;
            g.not_b[v] = false;
        }
    }
    if let Some(m) = matrix {
        g.adj = m.lists();
        g.edges = edges;
        g.live_out = live_out;
        return g;
    }
    let (offsets, targets) = group(n, &edges);
    // Drop repeated edges (a value defined several times while another is live) with a
    // stamp per value: linear, no sorting.
    let mut seen = vec![u32::MAX; n];
    let mut kept = Vec::with_capacity(targets.len());
    let mut starts = Vec::with_capacity(n + 1);
    for v in 0..n {
        starts.push(kept.len() as u32);
        for &u in &targets[offsets[v] as usize..offsets[v + 1] as usize] {
            if std::mem::replace(&mut seen[u as usize], v as u32) != v as u32 {
                kept.push(u);
            }
        }
    }
    starts.push(kept.len() as u32);
    g.adj = (starts, kept);
    g.edges = edges;
    g.live_out = live_out;
    g
}

/// Whether block `b` branches back to its own start (an innermost loop's body).
fn loop_block(code: &[Op<VReg>], cfg: &Cfg, b: usize) -> bool {
    cfg.succs[b].contains(&b) && matches!(code[cfg.blocks[b].0], Op::Label(_))
}

/// The most ops of a loop block [`word_partners`] looks at (its pairs grow as the square).
const PARTNER_BLOCK_OPS: usize = 96;

/// For a loop body: pairs of values `(u, v)` each read alone by an op, one op for each ALU
/// (an add-ALU op and a mul-ALU op, or a copy, which either ALU does), so the scheduler
/// may pack them into one word, which reads one register of each file. Values so paired
/// prefer different files (a weak preference, below the one for two operands of one op).
fn word_partners(block: &[Op<VReg>], soft: &mut [Vec<usize>]) {
    if block.len() > PARTNER_BLOCK_OPS {
        return;
    }
    // (the value read, may it go on the add ALU, on the mul ALU)
    let single: Vec<(usize, bool, bool)> = block
        .iter()
        .filter_map(|op| {
            let Op::Alu { op: alu, a, b, .. } = op else {
                return None;
            };
            let reg = |s: &Src<VReg>| match s {
                Src::Reg(r) => Some(r.0 as usize),
                _ => None,
            };
            let v = match (reg(a), reg(b)) {
                (Some(x), None) | (None, Some(x)) => x,
                (Some(x), Some(y)) if x == y => x,
                _ => return None,
            };
            let (add, mul) = match alu {
                AluOp::Add(_) => (true, false),
                AluOp::Mul(_) => (false, true),
                AluOp::Mov => (true, true),
            };
            Some((v, add, mul))
        })
        .collect();
    for (i, &(u, add_u, mul_u)) in single.iter().enumerate() {
        for &(v, add_v, mul_v) in &single[i + 1..] {
            if u != v && ((add_u && mul_v) || (mul_u && add_v)) && !soft[u].contains(&v) {
                soft[u].push(v);
                soft[v].push(u);
            }
        }
    }
}

fn file_of(l: Loc) -> u8 {
    match l {
        Loc::Acc(_) => 0,
        Loc::A(_) => 1,
        Loc::B(_) => 2,
    }
}

/// How many times dearer a reload from a spill slot is than a load immediate: the reload is
/// a VDR DMA from memory and a VPM read (about 30 instruction times, the DMA round trip
/// imrc measured on a Pi 3), the load immediate one instruction.
const SPILL_RELOAD_COST: f64 = 32.0;

/// Values defined once, by an unconditional load immediate: spilling them re-materialises
/// the constant at each use instead of storing it.
fn constants(code: &[Op<VReg>], n: usize) -> Vec<bool> {
    let mut defs = vec![0u32; n];
    let mut ldi = vec![false; n];
    for op in code {
        if let Some(d) = op.def() {
            defs[d.0 as usize] += 1;
            if matches!(
                op,
                Op::Ldi {
                    cond: Cond::Always,
                    ..
                }
            ) {
                ldi[d.0 as usize] = true;
            }
        }
    }
    (0..n).map(|v| ldi[v] && defs[v] == 1).collect()
}

/// The order in which `colour` gives values their locations. By priority: the values that
/// must have one first, then dense values (many loop-weighted uses over a short range) before
/// sparse ones, so the sparse ones are left without (and spilled). With `simplify`, Chaitin
/// and Briggs's order instead: repeatedly set aside a value with fewer neighbours than there
/// are registers (or, when none is left, the sparsest), and colour in the reverse order, so
/// that every value set aside with few neighbours is sure of a location.
fn colouring_order(
    g: &Graph,
    n: usize,
    acc_only: &[bool],
    unspillable: &[bool],
    costs: &[bool],
    simplify: bool,
    linear: bool,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).filter(|&v| g.touched[v]).collect();
    if linear {
        // By where each value's range starts, as a linear-scan allocator would: optimal
        // for straight-line code (an interval graph), where the priority order can leave
        // registers fragmented among values that never meet.
        order.sort_by_key(|&v| (!acc_only[v], !unspillable[v], g.span[v].0, v));
        return order;
    }
    // Dense values first: many (loop-weighted) uses over a short range. Long ranges with few
    // uses come last, so they are the ones left without a location (and spilled). A use
    // of a spilled constant costs one load immediate, of any other spilled value a DMA round
    // trip through memory (tens of instructions' time), so constants yield first.
    // (Computed once per value, not per comparison.)
    let priority: Vec<f64> = (0..n)
        .map(|v| {
            let cost = if !costs.is_empty() && !costs[v] {
                SPILL_RELOAD_COST
            } else {
                1.0
            };
            cost * g.weight[v] / (g.span[v].1.saturating_sub(g.span[v].0) + 1) as f64
        })
        .collect();
    order.sort_by(|&x, &y| {
        acc_only[y]
            .cmp(&acc_only[x])
            // Values that cannot be spilled (globals, spill temporaries) must find a place.
            .then(unspillable[y].cmp(&unspillable[x]))
            .then(
                priority[y]
                    .partial_cmp(&priority[x])
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
            .then(x.cmp(&y))
    });
    if !simplify {
        return order;
    }
    // Registers a value may take: 64 (files A and B), 4 for accumulator-only ones.
    const REGISTERS: usize = 64;
    // Neighbours in the order the walk met them, repeats dropped (the order `low` fills
    // in, and so the colouring, depends on it).
    let (offsets, targets) = group(n, &g.edges);
    let mut seen = vec![u32::MAX; n];
    let mut met: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (v, list) in met.iter_mut().enumerate() {
        for &u in &targets[offsets[v] as usize..offsets[v + 1] as usize] {
            if std::mem::replace(&mut seen[u as usize], v as u32) != v as u32 {
                list.push(u);
            }
        }
    }
    let mut degree: Vec<usize> = (0..n).map(|v| g.neighbours(v).len()).collect();
    let mut removed = vec![false; n];
    let mut stack = Vec::with_capacity(order.len());
    // `order` is by priority, highest first: the last not yet removed is the sparsest.
    let mut low: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&v| degree[v] < REGISTERS)
        .collect();
    let mut next_sparse = order.len();
    while stack.len() < order.len() {
        let v = match low.pop() {
            Some(v) if !removed[v] => v,
            Some(_) => continue,
            None => loop {
                next_sparse -= 1;
                let v = order[next_sparse];
                if !removed[v] {
                    break v;
                }
            },
        };
        removed[v] = true;
        stack.push(v);
        for &u in &met[v] {
            let u = u as usize;
            if removed[u] || !g.touched[u] {
                continue;
            }
            degree[u] -= 1;
            if degree[u] == REGISTERS - 1 {
                low.push(u);
            }
        }
    }
    stack.reverse();
    // Values that must have a location still go first.
    stack.sort_by_key(|&v| (!acc_only[v], !unspillable[v]));
    stack
}

/// How `colour` orders values: see [`colouring_order`].
#[derive(Clone, Copy)]
struct Order<'a> {
    /// Empty, or per value whether it is a constant (spill costs then weigh the priority).
    costs: &'a [bool],
    /// Chaitin and Briggs's simplification order instead of priority order.
    simplify: bool,
    /// Order by where ranges start (tried last, when the others spill).
    linear: bool,
}

/// A register file's penalty for each [`word_partners`] partner already in it.
const SOFT_PAIR_PENALTY: i64 = 40;

/// Locations as bits of a set: 0-3 r0-r3, 4-35 A0-A31, 36-67 B0-B31.
fn bit(l: Loc) -> u32 {
    match l {
        Loc::Acc(i) => i as u32,
        Loc::A(i) => 4 + i as u32,
        Loc::B(i) => 36 + i as u32,
    }
}

/// `1 << b` for each location bit `b` (see [`bit`]), and 0 for every other index (the
/// colouring's "no location" is `u8::MAX`).
static LOCATION_BITS: [u128; 256] = {
    let mut bits = [0u128; 256];
    let mut b = 0;
    while b < 68 {
        bits[b] = 1 << b;
        b += 1;
    }
    bits
};

/// Colour the graph in `order` ([`colouring_order`]); returns locations (None = uncoloured).
fn colour(
    g: &Graph,
    n: usize,
    acc_only: &[bool],
    order: &[usize],
    strict: &[bool],
    hot_density: f64,
) -> Vec<Option<Loc>> {
    let mut loc: Vec<Option<Loc>> = vec![None; n];
    // Each value's location as its bit (`NONE` without one): the neighbour scan below is
    // the allocator's innermost loop.
    const NONE: u8 = u8::MAX;
    let mut at: Vec<u8> = vec![NONE; n];
    let mut file_load = [0usize; 3];
    // Accumulators are handed out round-robin, so that short-lived temporaries (rotation
    // sources above all) do not all share r0 and serialise the schedule.
    let mut next_acc = 0u8;
    for &v in order {
        // Each neighbour's location bit from a table (a variable 128-bit shift costs several
        // instructions, and this loop runs once per edge); `NONE` maps to no bit.
        let mut taken: u128 = 0;
        for &u in g.neighbours(v) {
            taken |= LOCATION_BITS[at[u as usize] as usize];
        }
        let mut copied: u128 = 0;
        for &p in &g.copies[v] {
            if let Some(l) = loc[p as usize] {
                copied |= 1 << bit(l);
            }
        }
        // Penalty for each register file from the operand partners (index 1 = A, 2 = B).
        let mut file_penalty = [0i64; 3];
        for &p in &g.pairs[v] {
            let p = p as usize;
            let hard = strict[v] || strict[p];
            match loc[p].map(file_of) {
                Some(f @ (1 | 2)) => file_penalty[f as usize] += if hard { 5000 } else { 300 },
                None if hard => {
                    // Leave the file the partner can use to the partner.
                    if g.not_b[p] {
                        file_penalty[1] += 2000;
                    }
                    if g.not_a[p] {
                        file_penalty[2] += 2000;
                    }
                }
                _ => {}
            }
        }
        for &p in &g.soft_pairs[v] {
            if let Some(f @ (1 | 2)) = loc[p].map(file_of) {
                file_penalty[f as usize] += SOFT_PAIR_PENALTY;
            }
        }
        let short = g.span[v].1.saturating_sub(g.span[v].0) <= 4;
        // Values used densely inside loops also earn an accumulator (no read-after-write
        // delay, no read-port conflicts) when one is free for their whole range.
        let hot = g.weight[v] / (g.span[v].1.saturating_sub(g.span[v].0) + 1) as f64 >= hot_density;
        let mut best: Option<(i64, Loc)> = None;
        let files: &[fn(u8) -> Loc] = if acc_only[v] {
            &[Loc::Acc]
        } else {
            &[Loc::Acc, Loc::A, Loc::B]
        };
        // A value read beside a small immediate (or elem_num) belongs in the other file;
        // when that file is full along its range, it takes a register in the wrong one
        // rather than spill, and the port fix-ups copy it into an accumulator where the
        // two reads meet.
        for (k, make) in files.iter().chain(files.iter().skip(1)).enumerate() {
            let second_pass = k >= files.len();
            if second_pass && (best.is_some() || acc_only[v]) {
                break;
            }
            if make(0) != Loc::Acc(0) {
                // A register-file register: every free one scores the same except for the
                // copy bonus, so the best is the lowest-numbered free register a copy
                // partner holds, else the lowest free one.
                let f = file_of(make(0));
                if !second_pass && ((f == 1 && g.not_a[v]) || (f == 2 && g.not_b[v])) {
                    continue;
                }
                let shift = bit(make(0));
                let free = !(taken >> shift) as u32;
                let partner = free & (copied >> shift) as u32;
                let (i, bonus) = match (partner, free) {
                    (0, 0) => continue,
                    (0, free) => (free.trailing_zeros(), 0),
                    (partner, _) => (partner.trailing_zeros(), 1000),
                };
                let score = bonus - file_penalty[f as usize] - file_load[f as usize] as i64 / 4;
                match best {
                    Some((s, _)) if s >= score => {}
                    _ => best = Some((score, make(i as u8))),
                }
                continue;
            }
            for i in 0..4 {
                let l = make(i);
                if taken >> bit(l) & 1 == 1 {
                    continue;
                }
                let mut score: i64 = 0;
                if copied >> bit(l) & 1 == 1 {
                    score += 1000;
                }
                score += if short || hot { 200 } else { -200 };
                if acc_only[v] {
                    score -= i64::from((i + 4 - next_acc) % 4);
                }
                match best {
                    Some((s, _)) if s >= score => {}
                    _ => best = Some((score, l)),
                }
            }
        }
        if let Some((_, l)) = best {
            loc[v] = Some(l);
            at[v] = bit(l) as u8;
            file_load[file_of(l) as usize] += 1;
            if let (Loc::Acc(i), true) = (l, acc_only[v]) {
                next_acc = (i + 1) % 4;
            }
        }
    }
    loc
}

/// Port check of one ALU op after allocation: which operand (0 = a, 1 = b) to move into an
/// accumulator, if the two reads cannot share the instruction.
fn port_conflict(a: &Src<Loc>, b: &Src<Loc>) -> Option<usize> {
    if a == b {
        return None;
    }
    // Port demand of each operand: 0 = none (acc, r4, r5), 1 = A, 2 = B, 3 = either.
    let demand = |s: &Src<Loc>| match s {
        Src::Reg(Loc::Acc(_)) | Src::R4 | Src::R5 => 0,
        Src::Reg(Loc::A(_)) | Src::Read(IoRead::ElemNum | IoRead::VrWait) => 1,
        Src::Reg(Loc::B(_)) | Src::Imm(_) | Src::Read(IoRead::VwWait) => 2,
        Src::Read(IoRead::Uniform | IoRead::Vpm) => 3,
    };
    let (da, db) = (demand(a), demand(b));
    let clash = match (da, db) {
        (0, _) | (_, 0) => false,
        (3, 3) => true,
        (3, _) | (_, 3) => false,
        (x, y) => x == y,
    };
    if !clash {
        return None;
    }
    // Move the operand that is a plain register if possible (cheapest copy).
    Some(if matches!(b, Src::Reg(_) | Src::Imm(_)) {
        1
    } else {
        0
    })
}

/// Allocate registers for `lowered`, rewriting it with fix-up copies and spill code.
///
/// With `add_support`, a kernel lowered without spill support gets it here when values
/// must live in memory ([`super::lower::add_spill_support`]), instead of a second lowering;
/// values read or written where VPM rows wait for their DMA then must find registers.
pub fn allocate(lowered: &mut Lowered, add_support: bool) -> Result<Allocated, AllocError> {
    let mut acc_only: Vec<bool> = vec![false; lowered.vregs as usize];
    for v in &lowered.acc_only {
        acc_only[v.0 as usize] = true;
    }
    let mut unspillable: Vec<bool> = vec![false; lowered.vregs as usize];
    for v in &lowered.unspillable {
        unspillable[v.0 as usize] = true;
    }
    // Values that may not go to memory, though they keep their place in the colouring
    // order (see `bound_to_registers`): a pinned value left without a location makes a
    // neighbour spill instead.
    let mut pinned: Vec<bool> = Vec::new();
    let mut spill_slots = 0u32;
    let mut slot_of: HashMap<u32, u32> = HashMap::default();
    // The block liveness a round of port fix-ups leaves as it was (see `build`).
    let mut carried: Option<Lists> = None;
    for round in 0..64 {
        let n = lowered.vregs as usize;
        acc_only.resize(n, false);
        unspillable.resize(n, false);
        // Later rounds only add values written before they are read (spill reloads, port
        // fix-up copies).
        if round == 0 {
            zero_uninitialised(lowered);
        }
        let n = lowered.vregs as usize;
        acc_only.resize(n, false);
        unspillable.resize(n, false);
        let g = build(&lowered.code, n, carried.take());
        let remat = constants(&lowered.code, n);
        // Density (loop-weighted uses per op of range) above which a value may take an
        // accumulator; 2 measured best on the examples (`qpu bench`).
        let mut strict = vec![false; n];
        // Each order is computed once per round (it does not depend on `strict`).
        let mut orders: Vec<((bool, bool, bool), Vec<usize>)> = Vec::new();
        let mut colour_with = |order: Order<'_>, strict: &[bool]| {
            let key = (order.costs.is_empty(), order.simplify, order.linear);
            let at = match orders.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => {
                    let Order {
                        costs,
                        simplify,
                        linear,
                    } = order;
                    let o =
                        colouring_order(&g, n, &acc_only, &unspillable, costs, simplify, linear);
                    orders.push((key, o));
                    orders.len() - 1
                }
            };
            colour(&g, n, &acc_only, &orders[at].1, strict, 2.0)
        };
        // Values without a location that would need memory (constants are loaded again).
        let spilled = |loc: &[Option<Loc>]| {
            (0..n)
                .filter(|&v| g.touched[v] && loc[v].is_none() && !remat[v])
                .count()
        };
        // Spill costs enter the order only when something must spill, so that kernels that
        // fit keep the order measured best for them.
        let mut order = Order {
            costs: &[],
            simplify: false,
            linear: false,
        };
        let mut loc = colour_with(order, &strict);
        if spilled(&loc) > 0 {
            order.costs = &remat;
            loc = colour_with(order, &strict);
        }
        // Still spilling: try the simplification order, then the linear one, and keep
        // whichever spills fewest.
        for other_order in [
            Order {
                simplify: true,
                ..order
            },
            Order {
                linear: true,
                ..order
            },
        ] {
            if spilled(&loc) == 0 {
                break;
            }
            let other = colour_with(other_order, &strict);
            if spilled(&other) < spilled(&loc) {
                order = other_order;
                loc = other;
            }
        }
        // Operand pairs that ended up in one register file: colour again insisting on
        // different files for them, before falling back to copies.
        let mut clashes = false;
        for op in &lowered.code {
            if let Op::Alu { a, b, .. } = op {
                let m = |s: &Src<VReg>| match *s {
                    Src::Reg(r) => loc[r.0 as usize].map(Src::Reg),
                    Src::Imm(i) => Some(Src::Imm(i)),
                    Src::R4 => Some(Src::R4),
                    Src::R5 => Some(Src::R5),
                    Src::Read(io) => Some(Src::Read(io)),
                };
                if let (Some(x), Some(y)) = (m(a), m(b)) {
                    if port_conflict(&x, &y).is_some() {
                        for s in [a, b] {
                            if let Src::Reg(r) = s {
                                strict[r.0 as usize] = true;
                                clashes = true;
                            }
                        }
                    }
                }
            }
        }
        if clashes {
            loc = colour_with(order, &strict);
        }

        // Values without a location: spill them (or, for unspillable ones, a neighbour).
        let mut to_spill: Vec<usize> = Vec::new();
        for v in 0..n {
            if g.touched[v] && loc[v].is_none() {
                let fixed =
                    |u: usize| unspillable[u] || acc_only[u] || pinned.get(u) == Some(&true);
                if !fixed(v) {
                    to_spill.push(v);
                } else {
                    let victim = g
                        .neighbours(v)
                        .iter()
                        .map(|&u| u as usize)
                        .filter(|&u| !fixed(u) && loc[u].is_some())
                        .min_by(|&x, &y| {
                            g.weight[x]
                                .partial_cmp(&g.weight[y])
                                .unwrap_or(std::cmp::Ordering::Equal)
                                .then(x.cmp(&y))
                        });
                    match victim {
                        Some(u) => to_spill.push(u),
                        None => {
                            return Err(AllocError::TooManyValues(format!(
                                "value v{v} cannot be placed and no neighbour can be spilled"
                            )))
                        }
                    }
                }
            }
        }
        if !to_spill.is_empty() {
            to_spill.sort_unstable();
            to_spill.dedup();
            // Constants are loaded again where they are used: only other values need the
            // spill area (and spill support, from the lowering or added here).
            let supported = lowered.globals.is_some_and(|g| g.spill_base.is_some());
            if !supported && to_spill.iter().any(|&v| !remat[v]) {
                let added = add_support
                    .then(|| super::lower::add_spill_support(lowered))
                    .flatten()
                    .ok_or(AllocError::NeedSpills)?;
                let n = lowered.vregs as usize;
                unspillable.resize(n, false);
                for v in added {
                    unspillable[v as usize] = true;
                }
                let shared_row = lowered.globals.is_some_and(|g| g.rows.is_some());
                pinned = vec![false; n];
                let mut chosen = false;
                for v in bound_to_registers(&lowered.code, shared_row, &remat) {
                    pinned[v] = true;
                    chosen |= to_spill.binary_search(&v).is_ok();
                }
                // A value chosen for memory must stay in a register after all: choose again.
                if chosen {
                    continue;
                }
            }
            let globals = lowered.globals.filter(|g| g.spill_base.is_some());
            for &v in to_spill.iter().filter(|&&v| !remat[v]) {
                slot_of.entry(v as u32).or_insert_with(|| {
                    spill_slots += 1;
                    spill_slots - 1
                });
            }
            spill(lowered, &to_spill, &slot_of, globals, &mut unspillable);
            continue;
        }

        // Port fix-ups.
        let mut fixed = false;
        let mut out: Vec<Op<VReg>> = Vec::with_capacity(lowered.code.len());
        let code = std::mem::take(&mut lowered.code);
        for op in code {
            if let Op::Alu {
                op: alu,
                dst,
                a,
                b,
                cond,
                sf,
                rotate,
            } = op
            {
                let m = |s: &Src<VReg>| match *s {
                    Src::Reg(r) => Src::Reg(loc[r.0 as usize].expect("coloured")),
                    Src::Imm(i) => Src::Imm(i),
                    Src::R4 => Src::R4,
                    Src::R5 => Src::R5,
                    Src::Read(io) => Src::Read(io),
                };
                if let Some(which) = port_conflict(&m(&a), &m(&b)) {
                    let t = VReg(lowered.vregs);
                    lowered.vregs += 1;
                    acc_only.push(true);
                    unspillable.push(true);
                    let moved = if which == 0 { a } else { b };
                    out.push(Op::mov(Dst::Reg(t), moved));
                    let (a2, b2) = if which == 0 {
                        (Src::Reg(t), if b == a { Src::Reg(t) } else { b })
                    } else {
                        (a, Src::Reg(t))
                    };
                    out.push(Op::Alu {
                        op: alu,
                        dst,
                        a: a2,
                        b: b2,
                        cond,
                        sf,
                        rotate,
                    });
                    fixed = true;
                    continue;
                }
                out.push(op);
            } else {
                out.push(op);
            }
        }
        lowered.code = out;
        if fixed {
            carried = Some(g.live_out);
            continue;
        }
        let code = lowered
            .code
            .iter()
            .map(|op| op.map(|r| loc[r.0 as usize].unwrap_or(Loc::Acc(0))))
            // Copies whose two sides share a location vanish.
            .filter(|op| !matches!(op.as_copy(), Some((d, s)) if d == s))
            .collect();
        return Ok(Allocated { code, spill_slots });
    }
    Err(AllocError::TooManyValues(
        "register allocation did not converge".to_string(),
    ))
}

/// Values (other than constants, which are loaded again, not reloaded) whose spill code
/// would land where VPM rows wait for their DMA ([`super::lower::vpm_pending`]): a spill
/// store there would move the VPM write pointer and take the QPU's first row, and with
/// `shared_row` (reloads through that row too) so would a reload.
fn bound_to_registers(code: &[Op<VReg>], shared_row: bool, remat: &[bool]) -> Vec<usize> {
    let mut bound = Vec::new();
    for (op, (before, after)) in code.iter().zip(super::lower::vpm_pending(code)) {
        if after {
            if let Some(d) = op.def() {
                bound.push(d.0 as usize);
            }
        }
        if before && shared_row {
            op.uses(|r| bound.push(r.0 as usize));
        }
    }
    bound.retain(|&v| !remat.get(v).copied().unwrap_or(false));
    bound
}

/// Give every value that may be read before it is written an explicit zero at entry (the
/// language's variables start as zero).
fn zero_uninitialised(lowered: &mut Lowered) {
    let n = lowered.vregs as usize;
    let cfg = cfg(&lowered.code);
    let (live_in, _) = liveness(&lowered.code, &cfg, n);
    let missing: Vec<usize> = live_in
        .get(0)
        .map(|b| b.iter().map(|&v| v as usize).collect())
        .unwrap_or_default();
    if missing.is_empty() {
        return;
    }
    let at = lowered
        .code
        .iter()
        .position(|op| *op == Op::Label(lowered.body))
        .map_or(0, |i| i + 1);
    let zeros = missing.into_iter().map(|v| {
        Op::mov(
            Dst::Reg(VReg(v as u32)),
            Src::Imm(qpu_isa::vc4::SmallImm::from_int(0).expect("0 is a small immediate")),
        )
    });
    lowered.code.splice(at..at, zeros);
}

/// Rewrite `lowered` so the values in `spilled` live in memory.
fn spill(
    lowered: &mut Lowered,
    spilled: &[usize],
    slot_of: &HashMap<u32, u32>,
    g: Option<super::lower::Globals>,
    unspillable: &mut Vec<bool>,
) {
    let is_spilled = |r: VReg| spilled.binary_search(&(r.0 as usize)).is_ok();
    // The spill area's registers; `allocate` only spills values other than constants when
    // the kernel was lowered with spill support.
    let memory = || {
        let g = g.expect("spill support for a value kept in memory");
        let support = "spill support for a value kept in memory";
        (
            g,
            g.spill_base.expect(support),
            g.vdr_row.expect(support),
            g.vpm_read.expect(support),
        )
    };
    let code = std::mem::take(&mut lowered.code);
    // Constants (a single unconditional load immediate) are re-materialised, not stored.
    let mut def_count: HashMap<u32, u32> = HashMap::default();
    let mut constant: HashMap<u32, u32> = HashMap::default();
    for op in &code {
        if let Some(d) = op.def() {
            *def_count.entry(d.0).or_default() += 1;
            if let Op::Ldi {
                imm,
                cond: Cond::Always,
                ..
            } = op
            {
                constant.insert(d.0, *imm);
            }
        }
    }
    constant.retain(|v, _| def_count[v] == 1);
    let mut out = Vec::with_capacity(code.len() * 2);
    let mut fresh = |lowered: &mut Lowered| {
        let t = VReg(lowered.vregs);
        lowered.vregs += 1;
        unspillable.push(true);
        t
    };
    for op in code {
        let mut reloads: HashMap<u32, VReg> = HashMap::default();
        let mut needs: Vec<VReg> = Vec::new();
        op.uses(|r| {
            if is_spilled(r) {
                needs.push(r);
            }
        });
        for r in needs {
            if reloads.contains_key(&r.0) {
                continue;
            }
            let t = fresh(lowered);
            if let Some(&imm) = constant.get(&r.0) {
                out.push(Op::Ldi {
                    dst: Dst::Reg(t),
                    imm,
                    cond: Cond::Always,
                });
                reloads.insert(r.0, t);
                continue;
            }
            let (_, spill_base, vdr_row, vpm_read) = memory();
            let offset = fresh(lowered);
            let slot = slot_of[&r.0];
            out.push(Op::Ldi {
                dst: Dst::Reg(offset),
                imm: slot * 64,
                cond: Cond::Always,
            });
            // Make sure the last spill store has reached memory.
            out.push(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
            out.push(Op::mov(Dst::Write(IoWrite::VrSetup), Src::Reg(vdr_row)));
            out.push(Op::alu(
                AluOp::Add(qpu_isa::vc4::AddOp::Add),
                Dst::Write(IoWrite::VrAddr),
                Src::Reg(spill_base),
                Src::Reg(offset),
            ));
            out.push(Op::mov(Dst::None, Src::Read(IoRead::VrWait)));
            out.push(Op::mov(Dst::Write(IoWrite::VrSetup), Src::Reg(vpm_read)));
            out.push(Op::mov(Dst::Reg(t), Src::Read(IoRead::Vpm)));
            reloads.insert(r.0, t);
        }
        let def = op.def().filter(|&d| is_spilled(d));
        if def.is_some_and(|d| constant.contains_key(&d.0)) {
            continue;
        }
        let def_temp = def.map(|d| match reloads.get(&d.0) {
            Some(&t) => t,
            None => fresh(lowered),
        });
        let rewritten = op.map(|r| {
            if let Some(&t) = reloads.get(&r.0) {
                t
            } else if Some(r) == def {
                def_temp.expect("temp for the spilled definition")
            } else {
                r
            }
        });
        out.push(rewritten);
        if let (Some(d), Some(t)) = (def, def_temp) {
            let (g, spill_base, _, _) = memory();
            let slot = slot_of[&d.0];
            let offset = fresh(lowered);
            out.push(Op::Ldi {
                dst: Dst::Reg(offset),
                imm: slot * 64,
                cond: Cond::Always,
            });
            out.push(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
            out.push(Op::mov(Dst::Write(IoWrite::VwSetup), Src::Reg(g.vpm_write)));
            out.push(Op::mov(Dst::Write(IoWrite::Vpm), Src::Reg(t)));
            out.push(Op::mov(Dst::Write(IoWrite::VwSetup), Src::Reg(g.vdw_row)));
            out.push(Op::alu(
                AluOp::Add(qpu_isa::vc4::AddOp::Add),
                Dst::Write(IoWrite::VwAddr),
                Src::Reg(spill_base),
                Src::Reg(offset),
            ));
        }
    }
    lowered.code = out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use qpu_isa::vc4::{AddOp, BranchCond, SmallImm};

    fn v(n: u32) -> Src<VReg> {
        Src::Reg(VReg(n))
    }

    #[test]
    fn one_operand_ops_for_different_alus_in_a_loop_prefer_different_files() {
        // Loop body: v0 += v1 (two operands), tmu0_s = mov v2, v3 = fmul v4, v4 (one value
        // each, mul ALU), v5 = sub v6, 1 (add ALU, one value beside an immediate).
        let one = Src::Imm(SmallImm::from_int(1).unwrap());
        let body = vec![
            Op::Label(Label(0)),
            Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(VReg(0)), v(0), v(1)),
            Op::mov(Dst::Write(IoWrite::TmuS(0)), v(2)),
            Op::alu(
                AluOp::Mul(qpu_isa::vc4::MulOp::Fmul),
                Dst::Reg(VReg(3)),
                v(4),
                v(4),
            ),
            Op::alu(AluOp::Add(AddOp::Sub), Dst::Reg(VReg(5)), v(6), one),
        ];
        let mut soft = vec![Vec::new(); 7];
        word_partners(&body, &mut soft);
        // The copy may pair with either; the multiply only with add-ALU ops and copies.
        assert_eq!(soft[2], vec![4, 6]);
        assert_eq!(soft[4], vec![2, 6]);
        assert_eq!(soft[6], vec![2, 4]);
        // Two-operand ops take no part (they fill both read ports themselves).
        assert!(soft[0].is_empty() && soft[1].is_empty());
        // Two add-ALU ops never share a word: no preference between their values.
        let adds = vec![
            Op::alu(AluOp::Add(AddOp::Sub), Dst::Reg(VReg(5)), v(6), one),
            Op::alu(AluOp::Add(AddOp::Sub), Dst::Reg(VReg(3)), v(2), one),
        ];
        let mut soft = vec![Vec::new(); 7];
        word_partners(&adds, &mut soft);
        assert!(soft.iter().all(Vec::is_empty));
    }

    #[test]
    fn liveness_follows_values_around_loops_and_stops_at_full_writes() {
        // b0: v0 = 1; v1 = 2      b1 (loop): v0 = v0 + v1; test v0; branch back to b1
        // b2: v2 = v0             (v1 is live around the loop, v2 nowhere across blocks)
        let one = Src::Imm(SmallImm::from_int(1).unwrap());
        let code = vec![
            Op::mov(Dst::Reg(VReg(0)), one),
            Op::mov(Dst::Reg(VReg(1)), one),
            Op::Label(Label(0)),
            Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(VReg(0)), v(0), v(1)),
            Op::Alu {
                op: AluOp::Add(AddOp::Sub),
                dst: Dst::None,
                a: v(0),
                b: one,
                cond: qpu_isa::vc4::Cond::Always,
                sf: true,
                rotate: None,
            },
            Op::Branch {
                cond: BranchCond::AnyZeroClear,
                target: Label(0),
            },
            Op::mov(Dst::Reg(VReg(2)), v(0)),
        ];
        let cfg = cfg(&code);
        assert_eq!(cfg.blocks, vec![(0, 2), (2, 6), (6, 7)]);
        let (live_in, live_out) = liveness(&code, &cfg, 3);
        let lists = |sets: &Lists| (0..3).map(|b| sets[b].to_vec()).collect::<Vec<_>>();
        assert_eq!(lists(&live_in), vec![vec![], vec![0, 1], vec![0]]);
        assert_eq!(lists(&live_out), vec![vec![0, 1], vec![0, 1], vec![]]);
        assert_eq!(live_in.get(3), None);
    }

    #[test]
    fn values_beside_small_immediates_overflow_into_file_b_instead_of_spilling() {
        // 40 values, all live at once, each later read beside a small immediate (`sub x,
        // 1`: the immediate takes the B read, so each value belongs in file A or an
        // accumulator: 36 places). The kernel has no spill support, so a spill would fail
        // the allocation; instead the rest take B registers, and a fix-up copy into an
        // accumulator serves each read that meets the immediate.
        const N: u32 = 40;
        let one = Src::Imm(SmallImm::from_int(1).unwrap());
        let mut code = vec![Op::mov(Dst::Reg(VReg(0)), Src::Read(IoRead::Uniform))];
        for i in 1..N {
            code.push(Op::alu(
                AluOp::Add(AddOp::Add),
                Dst::Reg(VReg(i)),
                v(i - 1),
                one,
            ));
        }
        for i in 0..N {
            code.push(Op::alu(
                AluOp::Add(AddOp::Sub),
                Dst::Write(IoWrite::TmuS(0)),
                v(i),
                one,
            ));
        }
        let mut lowered = Lowered {
            code,
            vregs: N,
            acc_only: vec![],
            unspillable: vec![],
            globals: None,
            uniforms: 1,
            body: Label(0),
            first_temporary: N,
            sources: vec![],
            stream_reads: vec![],
        };
        let allocated = allocate(&mut lowered, false).expect("fits without spilling");
        assert_eq!(allocated.spill_slots, 0);
        let mut in_b = 0;
        for op in &allocated.code {
            if let Op::Alu { a, b, dst, .. } = op {
                // Every op encodes: no two reads of one file, no B register beside the
                // immediate.
                assert_eq!(port_conflict(a, b), None, "{op:?}");
                if let Dst::Reg(Loc::B(_)) = dst {
                    in_b += 1;
                }
            }
        }
        assert!(in_b >= (N - 36) as usize, "{in_b} values in file B");
        // The values still reach the TMU in order: 40 subtractions, each from its own value.
        let writes = allocated
            .code
            .iter()
            .filter(|op| {
                matches!(
                    op,
                    Op::Alu {
                        dst: Dst::Write(_),
                        ..
                    }
                )
            })
            .count();
        assert_eq!(writes, N as usize);
    }

    /// Like the spill test kernel of `tests/batched_stores.rs`: seventy values live across
    /// a run of nine stores, so it spills and its QPUs own several VPM rows. Here the run
    /// is the only reader of the values it stores, so those are the cheapest to spill.
    fn spilling_store_run() -> Lowered {
        use crate::lang::{index, me, store, Int, Ptr};
        let kernel = crate::compile(|p: Ptr<Int>, out: Ptr<Int>| {
            let vs: Vec<Int> = (0..70).map(|i| Int::var(p.load() * (i + 1))).collect();
            let base = out + me() * 160;
            let total = Int::var(0);
            for v in &vs[9..] {
                total.set(total + *v);
            }
            for (k, v) in vs[..9].iter().enumerate() {
                store(*v, base + k as i32 * 16 + index());
            }
            (base + 144).store(total);
        })
        .expect("records");
        super::super::lower::lower(kernel.ast(), false, 12)
    }

    #[test]
    fn spill_support_is_added_by_the_allocator_not_a_second_lowering() {
        let lowered = spilling_store_run();
        assert!(lowered.globals.is_some_and(|g| g.spill_base.is_none()));
        // Without leave to add it, the allocator can only report the need.
        assert_eq!(
            allocate(&mut lowered.clone(), false).err(),
            Some(AllocError::NeedSpills)
        );
        let mut with = lowered.clone();
        let allocated = allocate(&mut with, true).expect("allocates with spill code");
        assert!(allocated.spill_slots > 0);
        // The spill area is the uniform after the two arguments.
        assert_eq!(with.uniforms, lowered.uniforms + 1);
        assert!(with.globals.is_some_and(|g| g.spill_base.is_some()));
        let uniform_reads = |code: &[Op<Loc>]| {
            code.iter()
                .filter(|op| matches!(op, Op::Alu { a, .. } if *a == Src::Read(IoRead::Uniform)))
                .count() as u32
        };
        assert_eq!(uniform_reads(&allocated.code), with.uniforms);
        // Reloads share the QPU's first VPM row with the run, so none lies where the run's
        // rows wait for their DMA; nor does a spill store's VPM write.
        let pending = super::super::lower::vpm_pending(&allocated.code);
        let mut reloads = 0;
        for (i, op) in allocated.code.iter().enumerate() {
            if let Op::Alu {
                dst: Dst::Write(IoWrite::VrSetup),
                ..
            } = op
            {
                reloads += 1;
                assert!(!pending[i].0, "reload at {i} inside a pending stretch");
            }
        }
        assert!(reloads > 0);
        // A store (the run's, or a spill store) starts with a wait for the last DMA and a
        // VPM write setup; none starts while another store's rows wait for their DMA.
        let mut starts = 0;
        for (i, pair) in allocated.code.windows(2).enumerate() {
            if let [Op::Alu { a, .. }, Op::Alu {
                dst: Dst::Write(IoWrite::VwSetup),
                ..
            }] = pair
            {
                if *a == Src::Read(IoRead::VwWait) {
                    starts += 1;
                    assert!(
                        !pending[i + 1].0,
                        "a store starts at {} among waiting rows",
                        i + 1
                    );
                }
            }
        }
        assert!(starts > 9, "{starts} stores");
    }

    #[test]
    fn pending_vpm_rows_follow_every_path_to_the_dma() {
        // b0: vw_setup; vpm = 1; branch to b2 if zero   b1: vw_addr (DMA)   b2: label; x = 1
        // On the path that skips the DMA the rows still wait at b2.
        let one = Src::Imm(SmallImm::from_int(1).unwrap());
        let code: Vec<Op<VReg>> = vec![
            Op::mov(Dst::Write(IoWrite::VwSetup), v(0)),
            Op::mov(Dst::Write(IoWrite::Vpm), one),
            Op::Branch {
                cond: BranchCond::AllZeroSet,
                target: Label(1),
            },
            Op::mov(Dst::Write(IoWrite::VwAddr), v(1)),
            Op::mov(Dst::Reg(VReg(2)), one),
            Op::Label(Label(1)),
            Op::mov(Dst::Reg(VReg(3)), one),
        ];
        let states = super::super::lower::vpm_pending(&code);
        assert_eq!(
            states,
            vec![
                (false, true),
                (true, true),
                (true, true),
                (true, false),
                (false, false),
                (true, true),
                (true, true),
            ]
        );
    }

    #[test]
    fn grouping_keeps_push_order_per_key() {
        let (offsets, items) = group(3, &[(2, 7), (0, 5), (2, 1), (0, 9)]);
        assert_eq!(offsets, vec![0, 2, 2, 4]);
        assert_eq!(items, vec![5, 9, 7, 1]);
    }
}

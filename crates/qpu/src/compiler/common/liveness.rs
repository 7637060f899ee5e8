//! Block liveness, the one solver both register allocators use: each block's live-in and
//! live-out values, for values numbered `0..n`, from each instruction's reads and the
//! writes that end a value's life. An instruction reads its inputs before it writes.
//!
//! Computed value by value: a value is pushed backwards from the blocks that read it before
//! any write ending its life there, through predecessors, until blocks that end it. Time and
//! memory are linear in the code plus the sizes of the results (a bit set per block would be
//! blocks × values), and the result is the least solution of the usual data-flow equations
//! (live-in = reads before a kill ∪ (live-out − kills); live-out = ∪ successors' live-in),
//! which an iteration to a fixed point from empty sets reaches too.

/// What one instruction does to a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// Reads it.
    Read(u32),
    /// Writes it so that the old value is dead (every lane written).
    Kill(u32),
}

/// `pairs` (key, item) grouped by key, keys `0..n`, items in push order per key: (offsets of
/// length `n + 1`, items). One allocation for all keys, instead of one per key.
pub(crate) fn group(n: usize, pairs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = vec![0u32; n + 1];
    for &(key, _) in pairs {
        offsets[key as usize + 1] += 1;
    }
    for k in 0..n {
        offsets[k + 1] += offsets[k];
    }
    let mut fill = offsets.clone();
    let mut items = vec![0u32; pairs.len()];
    for &(key, item) in pairs {
        items[fill[key as usize] as usize] = item;
        fill[key as usize] += 1;
    }
    (offsets, items)
}

/// A list of values per key (per block: ascending, without repeats, for [`solve`]), in
/// one allocation (see [`group`]): `lists[k]` is key `k`'s.
#[derive(Debug, PartialEq)]
pub(crate) struct Lists {
    at: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// `pairs` (key, value) as lists for keys `0..n`, values in push order.
    pub(crate) fn new(n: usize, pairs: &[(u32, u32)]) -> Lists {
        let (at, items) = group(n, pairs);
        Lists { at, items }
    }

    /// Key `k`'s values, if there is such a key.
    pub(crate) fn get(&self, k: usize) -> Option<&[u32]> {
        (k + 1 < self.at.len()).then(|| &self[k])
    }
}

impl std::ops::Index<usize> for Lists {
    type Output = [u32];
    fn index(&self, k: usize) -> &[u32] {
        &self.items[self.at[k] as usize..self.at[k + 1] as usize]
    }
}

/// Code as the shared analyses see it, whatever its instructions (regalloc2's `Function`
/// is the model): blocks of instructions, their successors, the values it names, and what
/// each instruction does to them. The VideoCore IV allocator's IR, the V3D allocator's
/// instructions and the V3D packer's machine instructions (whose operands come from
/// `qpu_isa::v3d::AluInstruction::info`) each implement it.
pub(crate) trait Function {
    /// The basic blocks as half-open instruction ranges.
    fn blocks(&self) -> &[(usize, usize)];
    /// Block `b`'s successors (block indices).
    fn successors(&self, b: usize) -> &[usize];
    /// How many values the operands name (`0..values()`).
    fn values(&self) -> usize;
    /// Calls `visit` for instruction `i`'s reads, then for the writes that end a value's
    /// life (every lane written).
    fn operands(&self, i: usize, visit: &mut dyn FnMut(Access));
}

/// Live-in and live-out values of each block of `f` (each list ascending, no repeats).
pub(crate) fn solve(f: &impl Function) -> (Lists, Lists) {
    let blocks = f.blocks();
    let n = f.values();
    let nb = blocks.len();
    // (value, block) pairs: blocks reading it before any kill there, and blocks killing it.
    let mut exposed: Vec<(u32, u32)> = Vec::new();
    let mut kills: Vec<(u32, u32)> = Vec::new();
    // Per value, the last block (+1) that killed it / that listed it as exposed.
    let mut written_in = vec![0u32; n];
    let mut exposed_in = vec![0u32; n];
    for (b, &(s, e)) in blocks.iter().enumerate() {
        let stamp = b as u32 + 1;
        for i in s..e {
            f.operands(i, &mut |a| match a {
                Access::Read(v) => {
                    let v = v as usize;
                    if written_in[v] != stamp && exposed_in[v] != stamp {
                        exposed_in[v] = stamp;
                        exposed.push((v as u32, b as u32));
                    }
                }
                Access::Kill(v) => {
                    let v = v as usize;
                    if written_in[v] != stamp {
                        written_in[v] = stamp;
                        kills.push((v as u32, b as u32));
                    }
                }
            });
        }
    }
    let (exposed_at, exposed) = group(n, &exposed);
    let (kills_at, kills) = group(n, &kills);
    let edges: Vec<(u32, u32)> = (0..nb)
        .flat_map(|b| f.successors(b).iter().map(move |&t| (t as u32, b as u32)))
        .collect();
    let (preds_at, preds) = group(nb, &edges);
    let range = |at: &[u32], v: usize| at[v] as usize..at[v + 1] as usize;
    // (block, value) pairs, values ascending: grouped by block at the end.
    let mut live_in: Vec<(u32, u32)> = Vec::new();
    let mut live_out: Vec<(u32, u32)> = Vec::new();
    // Per block, the last value (+1) that was marked killed / live in / live out there.
    let mut killed = vec![0u32; nb];
    let mut in_mark = vec![0u32; nb];
    let mut out_mark = vec![0u32; nb];
    let mut work: Vec<u32> = Vec::new();
    for v in 0..n {
        let stamp = v as u32 + 1;
        for &b in &kills[range(&kills_at, v)] {
            killed[b as usize] = stamp;
        }
        work.extend_from_slice(&exposed[range(&exposed_at, v)]);
        while let Some(b) = work.pop() {
            let b = b as usize;
            if in_mark[b] == stamp {
                continue;
            }
            in_mark[b] = stamp;
            live_in.push((b as u32, v as u32));
            for &p in &preds[range(&preds_at, b)] {
                let p = p as usize;
                if out_mark[p] != stamp {
                    out_mark[p] = stamp;
                    live_out.push((p as u32, v as u32));
                    if killed[p] != stamp {
                        work.push(p as u32);
                    }
                }
            }
        }
    }
    (Lists::new(nb, &live_in), Lists::new(nb, &live_out))
}

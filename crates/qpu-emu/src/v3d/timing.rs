//! The V3D cycle model: instruction issue, each slice's TMU, the shared L2T cache and the
//! memory behind it — calibrated against programs timed on real Pi 4 and Pi 5 boards.
//!
//! What a dispatch's time is made of, and where each figure comes from. The calibration
//! programs are in `tests/v3d_calibration.rs`, each published figure pinned beside its
//! model there; the parameters below were fitted to them, and the fit is the evidence:
//! no per-instruction V3D timing is published.
//! * **Issue**: a QPU issues one instruction every 4 clocks (16 lanes through 4-lane ALUs;
//!   py-videocore6 and 7 state peak rates as clock × slices × 4 QPUs × 4 lanes × 2 ops, and
//!   py-videocore6's tests/test_qpu.py reads the clock off a 5-instruction loop as
//!   iterations × 5 × 4 / seconds).
//! * **Each slice's TMU** (4 QPUs share one; 2 slices on a Pi 4, 4 on a Pi 5) takes one
//!   request at a time, in the order they arrive, and spends a fixed time on each distinct
//!   64-byte line the request touches: a 16-lane gather from 16 rows costs 16 lines, a
//!   contiguous 16-lane load one. Fitted to the SGEMMs of py-videocore6 (Pi 4, 8 QPUs,
//!   1024³ in 0.555 s) and py-videocore7 (Pi 5, 12 QPUs, 768×1024×1024 in 0.0814 s; 1024³
//!   in 0.101 s), whose inner loops issue a 16-row gather and a one-line load and then
//!   compute for about 40 instructions. On the Pi 5 a stored line costs the TMU 16 times
//!   what a loaded one does: fitted to py-videocore7's one-QPU copy (1.69 GB/s), the only
//!   published single-QPU figure; it could as well be a longer latency for vec4 loads,
//!   which a Pi 5 owner's `TMU-active-cycles` reading would tell apart.
//! * **The L2T** (shared by all slices): 8-way set-associative, least recently used,
//!   64-byte lines, the set the line number modulo 512 (256 KiB: a modelling choice, no
//!   source here states the size). A hit returns after a fixed latency; a line already
//!   on its way from memory is waited for, not fetched twice; a miss queues for memory.
//!   Stores write through to memory without allocating.
//! * **Memory**: one queue for the whole GPU, busy a fixed time per line read and a longer
//!   one per line written. Fitted to py-videocore6's read-only (summation, 7.24 GB/s) and
//!   write-only (memset, 3.75 GB/s) streams on a Pi 4; the copy (scopy, 2.42 GB/s) then
//!   follows within 2% with no parameter of its own. On a Pi 5 fitted to py-videocore7's
//!   all-QPU copy (4.14 GB/s), with the Pi 4's ratio of write to read cost.
//! * **Latency**: fixed clocks from the TMU passing a line (hit) or the line leaving memory
//!   (miss) to its data in the QPU's result FIFO.
//! * **Back-pressure**: a QPU that issues a request while its slice's TMU has more than 16
//!   lines of work queued stalls until there is room.
//!
//! Time advances in whole clocks on each QPU; the TMUs and the memory queue keep sixteenths
//! of a clock, so that a rate like 4.4 clocks a line holds over millions of lines. QPUs run
//! in time order (the dispatcher always steps the QPU whose clock is earliest), so requests
//! reach the shared queues in the order the hardware would see them.
//!
//! What the model leaves out, because no published figure needs it: the uniform and
//! instruction caches (uniform reads and instruction fetches are free), TMU texture
//! filtering, and any cost of a thread switch beyond the delay slots.

use qpu_isa::v3d::V3dVersion;

/// Bytes in an L2T line (Mesa `v3d_device_info`/the kernel's cache-flush granularity; the
/// model's unit of TMU and memory work).
pub(crate) const LINE_BYTES: u32 = 64;

/// A board's timing parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Board {
    /// Clocks between two instructions of one QPU.
    pub clocks_per_instruction: u64,
    /// QPUs sharing one TMU.
    pub qpus_per_slice: usize,
    /// Sixteenths of a clock a slice's TMU spends per distinct line of a load.
    pub tmu_sixteenths_per_line: u64,
    /// Sixteenths of a clock a slice's TMU spends per distinct line of a store.
    pub tmu_store_sixteenths_per_line: u64,
    /// Clocks of TMU work that may wait before the issuing QPU stalls (16 lines').
    pub tmu_queue_clocks: u64,
    /// Clocks from the TMU passing a line that hits in the L2T to its data at the QPU.
    pub hit_latency: u64,
    /// Clocks from a line leaving memory to its data at the QPU.
    pub miss_latency: u64,
    /// Sixteenths of a clock the memory queue is busy per line read.
    pub read_sixteenths: u64,
    /// Sixteenths of a clock the memory queue is busy per line written.
    pub write_sixteenths: u64,
    /// L2T sets and ways (lines = sets × ways).
    pub l2t_sets: usize,
    pub l2t_ways: usize,
}

impl Board {
    /// The Pi 4's V3D 4.2 (BCM2711) or the Pi 5's V3D 7.1 (BCM2712). Each figure's fit is
    /// in the module documentation; `tests/v3d_calibration.rs` holds the programs.
    pub fn of(version: V3dVersion) -> Board {
        match version {
            // Pi 4 at 500 MHz: memory reads 14.5 bytes a clock (summation, 7.24 GB/s) = 4.4
            // clocks a line, writes 7.5 bytes a clock (memset, 3.75 GB/s) = 8.6 clocks a
            // line; TMU and latency from the SGEMM.
            V3dVersion::V42 => Board {
                clocks_per_instruction: 4,
                qpus_per_slice: V3dVersion::QPUS_PER_SLICE as usize,
                tmu_sixteenths_per_line: 80,
                tmu_store_sixteenths_per_line: 80,
                tmu_queue_clocks: 16 * 5,
                hit_latency: 40,
                miss_latency: 200,
                read_sixteenths: 71,
                write_sixteenths: 137,
                l2t_sets: 512,
                l2t_ways: 8,
            },
            // Pi 5 at 960 MHz: the all-QPU scopy copies 4.31 bytes a clock (4.14 GB/s),
            // reading and writing a line 14.9 clocks together, split as on the Pi 4; TMU
            // and latency from the SGEMMs, the store cost from the one-QPU scopy.
            V3dVersion::V71 => Board {
                clocks_per_instruction: 4,
                qpus_per_slice: V3dVersion::QPUS_PER_SLICE as usize,
                tmu_sixteenths_per_line: 32,
                tmu_store_sixteenths_per_line: 512,
                tmu_queue_clocks: 16 * 2,
                hit_latency: 30,
                miss_latency: 90,
                read_sixteenths: 81,
                write_sixteenths: 157,
                l2t_sets: 512,
                l2t_ways: 8,
            },
        }
    }
}

/// Counts the model keeps for the run report, in the perfmon counters' terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryCounters {
    /// Lines a TMU read found in the L2T (`L2T-TMU-read-hits`).
    pub l2t_read_hits: u64,
    /// Lines a TMU read fetched from memory (`L2T-TMU-read-miss`).
    pub l2t_read_misses: u64,
    /// Lines written to memory (`L2T-memory-writes`).
    pub memory_line_writes: u64,
    /// Clocks the slices' TMUs were busy, summed over slices (`TMU-active-cycles`).
    pub tmu_active_cycles: u64,
    /// Clock at which the last store reached memory.
    pub last_store_done: u64,
}

#[derive(Clone, Copy)]
struct Way {
    tag: u32,
    /// Clock the line's data is in the cache (a fill still in flight is later than now).
    ready: u64,
    /// Last use, for LRU.
    used: u64,
}

/// The shared state of the machine's TMUs, L2T and memory during a dispatch.
pub(crate) struct MemorySystem {
    board: Board,
    /// Per slice: when its TMU finishes the work queued so far, in sixteenths of a clock.
    tmu_free: Vec<u64>,
    /// The memory queue's free time, in sixteenths of a clock.
    memory_free: u64,
    ways: Vec<Option<Way>>,
    uses: u64,
    pub counters: MemoryCounters,
}

/// When a request's parts are done.
pub(crate) struct Timed {
    /// The clock at which the QPU could issue it (later than asked when the TMU is full).
    pub issued: u64,
    /// The clock its data reaches the QPU (loads) or memory (stores).
    pub done: u64,
}

impl MemorySystem {
    pub fn new(version: V3dVersion, qpus: usize) -> MemorySystem {
        let board = Board::of(version);
        let slices = qpus.div_ceil(board.qpus_per_slice).max(1);
        MemorySystem {
            board,
            tmu_free: vec![0; slices],
            memory_free: 0,
            ways: vec![None; board.l2t_sets * board.l2t_ways],
            uses: 0,
            counters: MemoryCounters::default(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The slice a QPU sits in: QPU numbers alternate between slices. ASSUMPTION, from two
    /// published runs: py-videocore7's SGEMM launches 12 batches on a Pi 5, which by its
    /// own thread numbering ((tidx >> 2) & 15, 0 to 11, one parameter row each) land on
    /// QPUs 0–11, and it ran 1.24× faster per QPU than the same loop on all 16 QPUs; with
    /// slices taking QPUs 4 at a time, QPUs 0–11 would fill three slices as fully as 16 fill
    /// four, and the per-QPU speed would match.
    pub fn slice_of(&self, qpu: usize) -> usize {
        qpu % self.tmu_free.len()
    }

    /// Queues `lines` lines of TMU work for a request issued at `clock`; returns the clock
    /// the QPU could issue it and the clock the TMU has passed it on.
    fn tmu(&mut self, slice: usize, lines: usize, per_line: u64, clock: u64) -> (u64, u64) {
        let b = self.board;
        let free = &mut self.tmu_free[slice];
        let issued = clock.max((*free).div_ceil(16).saturating_sub(b.tmu_queue_clocks));
        let start = (issued * 16).max(*free);
        let work = lines.max(1) as u64 * per_line;
        *free = start + work;
        self.counters.tmu_active_cycles += work.div_ceil(16);
        (issued, free.div_ceil(16))
    }

    /// Occupies the memory queue for one line from `from` (a clock); returns the clock
    /// the line leaves it.
    fn memory(&mut self, from: u64, sixteenths: u64) -> u64 {
        let start = self.memory_free.max(from * 16);
        self.memory_free = start + sixteenths;
        self.memory_free.div_ceil(16)
    }

    fn set_of(&self, line: u32) -> std::ops::Range<usize> {
        let set = (line as usize) % self.board.l2t_sets;
        set * self.board.l2t_ways..(set + 1) * self.board.l2t_ways
    }

    /// A read of `line` by the TMU at `at`: the clock its data reaches the QPU.
    fn read_line(&mut self, line: u32, at: u64) -> u64 {
        self.uses += 1;
        let uses = self.uses;
        let range = self.set_of(line);
        let b = self.board;
        if let Some(w) = self.ways[range.clone()]
            .iter_mut()
            .flatten()
            .find(|w| w.tag == line)
        {
            w.used = uses;
            self.counters.l2t_read_hits += 1;
            return (at + b.hit_latency).max(w.ready);
        }
        self.counters.l2t_read_misses += 1;
        let ready = self.memory(at, b.read_sixteenths) + b.miss_latency;
        // Replace the least recently used way (an empty one first).
        let victim = range
            .clone()
            .min_by_key(|&i| self.ways[i].map_or(0, |w| w.used))
            .expect("a set has ways");
        self.ways[victim] = Some(Way {
            tag: line,
            ready,
            used: uses,
        });
        ready
    }

    /// A TMU load from QPU `qpu` at `clock` touching `lines` (distinct line numbers).
    pub fn load(&mut self, qpu: usize, lines: &[u32], clock: u64) -> Timed {
        let slice = self.slice_of(qpu);
        let per_line = self.board.tmu_sixteenths_per_line;
        let (issued, passed) = self.tmu(slice, lines.len(), per_line, clock);
        let done = lines
            .iter()
            .map(|&l| self.read_line(l, passed))
            .max()
            .unwrap_or(passed + self.board.hit_latency);
        Timed { issued, done }
    }

    /// A TMU store from QPU `qpu` at `clock` writing `lines`.
    pub fn store(&mut self, qpu: usize, lines: &[u32], clock: u64) -> Timed {
        let slice = self.slice_of(qpu);
        let per_line = self.board.tmu_store_sixteenths_per_line;
        let (issued, passed) = self.tmu(slice, lines.len(), per_line, clock);
        let w = self.board.write_sixteenths;
        let mut done = passed;
        for _ in lines {
            done = done.max(self.memory(passed, w));
        }
        self.counters.memory_line_writes += lines.len() as u64;
        self.counters.last_store_done = self.counters.last_store_done.max(done);
        Timed { issued, done }
    }
}

/// The distinct lines the active lanes of a request touch (`words` words per lane from
/// `word_address(lane address, word)`), in `out`.
pub(crate) fn lines_of(
    addrs: &[u32; 16],
    mask: u16,
    words: usize,
    word_address: impl Fn(u32, usize) -> u32,
    out: &mut Vec<u32>,
) {
    out.clear();
    for w in 0..words {
        for (i, &a) in addrs.iter().enumerate() {
            if mask & (1 << i) != 0 {
                let line = word_address(a, w) / LINE_BYTES;
                if !out.contains(&line) {
                    out.push(line);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_is_cheaper_than_a_miss_and_a_fill_in_flight_is_waited_for() {
        let mut m = MemorySystem::new(V3dVersion::V42, 8);
        let b = *m.board();
        let first = m.load(0, &[7], 0);
        // The TMU passes the line after 80 sixteenths; memory takes 71 more (rounded up to
        // whole clocks), then the miss latency.
        let pass = b.tmu_sixteenths_per_line / 16;
        let memory = (b.tmu_sixteenths_per_line + b.read_sixteenths).div_ceil(16);
        assert_eq!(first.done, memory + b.miss_latency);
        assert!(first.done > pass + b.hit_latency);
        // The same line right after: the fill is still in flight, so its data comes then.
        let again = m.load(1, &[7], 1);
        assert_eq!(again.done, first.done);
        // Much later: a hit.
        let late = m.load(1, &[7], 10_000);
        assert_eq!(late.done, 10_000 + pass + b.hit_latency);
        assert_eq!(m.counters.l2t_read_misses, 1);
        assert_eq!(m.counters.l2t_read_hits, 2);
    }

    #[test]
    fn memory_streams_at_its_rate_whatever_the_order() {
        // 1,600 lines read back to back from both slices: 71/16 clocks each once the first
        // has passed its TMU (the TMUs, 5 clocks a line each, keep ahead of memory).
        let mut m = MemorySystem::new(V3dVersion::V42, 8);
        let mut last = 0;
        for n in 0..1600u32 {
            last = m.load((n % 8) as usize, &[n * 1000], 0).done;
        }
        let b = *m.board();
        assert_eq!(
            last,
            (b.tmu_sixteenths_per_line + 1600 * 71).div_ceil(16) + b.miss_latency
        );
    }

    #[test]
    fn a_full_tmu_makes_the_qpu_wait() {
        let mut m = MemorySystem::new(V3dVersion::V42, 8);
        let b = *m.board();
        // 16-line gathers from one QPU at clock 0: the TMU queue fills after the allowance.
        let lines: Vec<u32> = (0..16).collect();
        let mut issued = Vec::new();
        for _ in 0..4 {
            issued.push(m.load(0, &lines, 0).issued);
        }
        let per = 16 * b.tmu_sixteenths_per_line / 16;
        assert_eq!(issued[0], 0);
        assert_eq!(issued[1], per.saturating_sub(b.tmu_queue_clocks));
        assert_eq!(issued[3], 3 * per - b.tmu_queue_clocks);
        assert!(issued[3] > 0);
    }

    #[test]
    fn lines_of_a_gather_and_of_a_contiguous_load() {
        let mut out = Vec::new();
        let contiguous: [u32; 16] = std::array::from_fn(|i| 0x1000 + 4 * i as u32);
        lines_of(&contiguous, 0xffff, 1, |a, w| a + 4 * w as u32, &mut out);
        assert_eq!(out, vec![0x1000 / 64]);
        let rows: [u32; 16] = std::array::from_fn(|i| 0x1000 + 4096 * i as u32);
        lines_of(&rows, 0xffff, 1, |a, w| a + 4 * w as u32, &mut out);
        assert_eq!(out.len(), 16);
        // vec4 per lane, 16 lanes: 256 bytes, 4 lines; inactive lanes touch nothing.
        let vec4: [u32; 16] = std::array::from_fn(|i| 0x1000 + 16 * i as u32);
        lines_of(&vec4, 0xffff, 4, |a, w| a + 4 * w as u32, &mut out);
        assert_eq!(out.len(), 4);
        lines_of(&vec4, 0x0001, 4, |a, w| a + 4 * w as u32, &mut out);
        assert_eq!(out.len(), 1);
    }
}

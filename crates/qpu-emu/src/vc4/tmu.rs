//! The TMUs' timing: per-slice TMU servers with their L1 caches, and the global L2 cache.
//! Lookups are functional at request time (memory's current contents); caches only decide
//! how long a lookup takes: requests queue per TMU in arrival order, each missed 64-byte
//! line is filled from the L2 cache (one fill at a time per TMU), and an L2 miss goes to
//! memory (parameters in [`Timing`]).

use crate::vc4::timing::Timing;

/// The V3D L2 cache (global, set-associative, LRU) in front of SDRAM.
#[derive(Clone, Debug)]
pub(crate) struct L2Cache {
    /// Per set, the resident line numbers, most recently used first.
    sets: Vec<Vec<u32>>,
    ways: usize,
}

impl L2Cache {
    pub fn new(timing: &Timing) -> L2Cache {
        let lines = (timing.l2c_bytes / timing.cache_line_bytes.max(1)).max(1);
        let ways = timing.l2c_ways.clamp(1, lines) as usize;
        let sets = (lines as usize / ways).max(1);
        L2Cache {
            sets: vec![Vec::with_capacity(ways); sets],
            ways,
        }
    }

    /// Looks a line up, making it most recently used; true on a hit.
    pub fn access(&mut self, line: u32) -> bool {
        let count = self.sets.len();
        let set = &mut self.sets[line as usize % count];
        if let Some(pos) = set.iter().position(|&l| l == line) {
            let l = set.remove(pos);
            set.insert(0, l);
            true
        } else {
            if set.len() == self.ways {
                set.pop();
            }
            set.insert(0, line);
            false
        }
    }
}

/// One TMU: a request server with a direct-mapped cache.
#[derive(Clone, Debug)]
pub(crate) struct TmuUnit {
    /// Clock at which the TMU can start the next request.
    free_at: u64,
    /// Line number held by each cache slot.
    tags: Vec<Option<u32>>,
}

/// When a lookup's data is ready, and how many lines it fetched.
pub(crate) struct LookupTiming {
    pub ready_at: u64,
    pub misses: u64,
}

impl TmuUnit {
    pub fn new(timing: &Timing) -> TmuUnit {
        let lines = (timing.tmu_cache_bytes / timing.cache_line_bytes.max(1)).max(1);
        TmuUnit {
            free_at: 0,
            tags: vec![None; lines as usize],
        }
    }

    /// Schedules one 16-lane direct lookup issued at clock `now`. Lanes are fetched in element
    /// order [measured: vc4asm]; each missing line is filled from the L2C (or memory), one
    /// fill at a time (#17, assumption).
    pub fn lookup(
        &mut self,
        now: u64,
        addresses: &[u32; 16],
        l2c: &mut L2Cache,
        timing: &Timing,
    ) -> LookupTiming {
        let start = now.max(self.free_at);
        // Line size and slot count are powers of two (checked by `Timing::validate`).
        let line_shift = timing.cache_line_bytes.max(1).trailing_zeros();
        let mut fill = 0;
        let mut misses = 0;
        let slot_mask = self.tags.len() - 1;
        // A lane in the same line as the lane before it always hits (that lane left the
        // line in its slot), so only line changes need the cache; when all 16 lanes are in
        // the first lane's line (16 consecutive words in one line, a broadcast), that line
        // is the only one looked up.
        let first = addresses[0] >> line_shift;
        let one_line = addresses
            .iter()
            .fold(0, |other, &addr| other | ((addr >> line_shift) ^ first))
            == 0;
        let lanes = if one_line {
            &addresses[..1]
        } else {
            &addresses[..]
        };
        let mut previous = None;
        for &addr in lanes {
            let line = addr >> line_shift;
            if previous == Some(line) {
                continue;
            }
            previous = Some(line);
            let slot = line as usize & slot_mask;
            if self.tags[slot] != Some(line) {
                self.tags[slot] = Some(line);
                misses += 1;
                fill += timing.l2c_hit_fill;
                if !l2c.access(line) {
                    fill += timing.mem_latency;
                }
            }
        }
        self.free_at = start + timing.tmu_request_occupancy + fill;
        LookupTiming {
            ready_at: start + timing.tmu_hit_latency + fill,
            misses,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TmuUnit::lookup` as the lane-by-lane walk it shortens: every line change in
    /// element order goes to the cache.
    fn lookup_lane_by_lane(
        tmu: &mut TmuUnit,
        now: u64,
        addresses: &[u32; 16],
        l2c: &mut L2Cache,
        timing: &Timing,
    ) -> (u64, u64) {
        let start = now.max(tmu.free_at);
        let line_shift = timing.cache_line_bytes.max(1).trailing_zeros();
        let (mut fill, mut misses) = (0, 0);
        let slot_mask = tmu.tags.len() - 1;
        let mut previous = None;
        for &addr in addresses {
            let line = addr >> line_shift;
            if previous == Some(line) {
                continue;
            }
            previous = Some(line);
            let slot = line as usize & slot_mask;
            if tmu.tags[slot] != Some(line) {
                tmu.tags[slot] = Some(line);
                misses += 1;
                fill += timing.l2c_hit_fill;
                if !l2c.access(line) {
                    fill += timing.mem_latency;
                }
            }
        }
        tmu.free_at = start + timing.tmu_request_occupancy + fill;
        (start + timing.tmu_hit_latency + fill, misses)
    }

    /// The one-line shortcut (and any later one) against the walk, over consecutive words,
    /// broadcasts, near-consecutive and scattered lanes, and several line sizes.
    #[test]
    fn shortcuts_match_the_lane_by_lane_walk() {
        let mut next = crate::xorshift64(0x2545_f491_4f6c_dd1du64);
        for line_bytes in [1, 2, 4, 16, 64, 256] {
            let t = Timing {
                cache_line_bytes: line_bytes,
                ..Timing::VC4
            };
            let (mut l2, mut tmu) = (L2Cache::new(&t), TmuUnit::new(&t));
            let (mut l2_ref, mut tmu_ref) = (l2.clone(), tmu.clone());
            for step in 0..4000u64 {
                let r = next();
                let base = match r % 4 {
                    0 => (r >> 8) as u32 & 0xffff,
                    1 => u32::MAX - ((r >> 8) as u32 & 0x7f),
                    _ => 0x1000 + ((r >> 8) as u32 & 0x3ffc),
                };
                let addresses: [u32; 16] = match (r >> 40) % 4 {
                    // Consecutive words (some wrap past 2^32).
                    0 => std::array::from_fn(|i| base.wrapping_add(4 * i as u32)),
                    // A broadcast.
                    1 => [base; 16],
                    // Consecutive words with one lane elsewhere.
                    2 => std::array::from_fn(|i| {
                        if i == (r >> 50) as usize % 16 {
                            base ^ 0x40
                        } else {
                            base.wrapping_add(4 * i as u32)
                        }
                    }),
                    _ => std::array::from_fn(|_| 0x1000 + (next() as u32 & 0x1ffc)),
                };
                let now = step * 40;
                let fast = tmu.lookup(now, &addresses, &mut l2, &t);
                let walk = lookup_lane_by_lane(&mut tmu_ref, now, &addresses, &mut l2_ref, &t);
                assert_eq!((fast.ready_at, fast.misses), walk, "{addresses:x?}");
                assert_eq!(tmu.free_at, tmu_ref.free_at);
                assert_eq!(tmu.tags, tmu_ref.tags);
            }
        }
    }

    #[test]
    fn second_lookup_of_the_same_lines_hits() {
        let t = Timing::VC4;
        let mut l2 = L2Cache::new(&t);
        let mut tmu = TmuUnit::new(&t);
        let addrs: [u32; 16] = std::array::from_fn(|i| 0x1000 + 4 * i as u32);
        let first = tmu.lookup(0, &addrs, &mut l2, &t);
        assert_eq!(first.misses, 1);
        assert_eq!(first.ready_at, 36 + 12 + 80);
        let second = tmu.lookup(1000, &addrs, &mut l2, &t);
        assert_eq!(second.misses, 0);
        assert_eq!(second.ready_at, 1036);
        // A line 4 KiB away evicts it from the direct-mapped TMU cache but stays in the L2C.
        let far: [u32; 16] = [0x2000; 16];
        tmu.lookup(2000, &far, &mut l2, &t);
        let again = tmu.lookup(3000, &addrs, &mut l2, &t);
        assert_eq!(again.ready_at, 3000 + 36 + 12);
    }
}

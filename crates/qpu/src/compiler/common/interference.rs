//! An interference relation as a bit matrix, for the register allocators of both
//! generations: each pair is recorded once however often the walk meets it (a value
//! defined many times while another is live meets it many times), and the neighbour lists
//! come out of the rows ascending, with no sorting. For n values it takes n² bits, so the
//! allocators use it up to [`BitMatrix::MAX_VALUES`] values and fall back to edge lists
//! above (4,096 values: 2 MiB).

/// A symmetric relation over values `0..n`.
pub(crate) struct BitMatrix {
    stride: usize,
    rows: Vec<u64>,
    /// Pairs recorded, each counted both ways: the length of [`Self::lists`]' values.
    entries: usize,
}

impl BitMatrix {
    /// The most values a matrix is made for.
    pub(crate) const MAX_VALUES: usize = 4096;

    /// The empty relation over `n` values, if `n` is at most [`Self::MAX_VALUES`].
    pub(crate) fn new(n: usize) -> Option<BitMatrix> {
        (n <= Self::MAX_VALUES).then(|| {
            let stride = n.div_ceil(64);
            BitMatrix {
                stride,
                rows: vec![0; n * stride],
                entries: 0,
            }
        })
    }

    /// Relates `x` and `y` (both ways); false if they already were.
    #[inline]
    pub(crate) fn insert(&mut self, x: usize, y: usize) -> bool {
        let (at, bit) = (x * self.stride + y / 64, 1u64 << (y % 64));
        if self.rows[at] & bit != 0 {
            return false;
        }
        self.rows[at] |= bit;
        self.rows[y * self.stride + x / 64] |= 1 << (x % 64);
        self.entries += 2;
        true
    }

    /// Each value's related values, ascending: (offsets of length n + 1, values), value `v`'s
    /// list being `values[offsets[v]..offsets[v + 1]]`.
    pub(crate) fn lists(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.rows.len().checked_div(self.stride).unwrap_or(0);
        let mut starts = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(self.entries);
        for v in 0..n {
            starts.push(targets.len() as u32);
            for (k, &word) in self.rows[v * self.stride..(v + 1) * self.stride]
                .iter()
                .enumerate()
            {
                let mut word = word;
                while word != 0 {
                    targets.push((k * 64) as u32 + word.trailing_zeros());
                    word &= word - 1;
                }
            }
        }
        starts.push(targets.len() as u32);
        (starts, targets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_recorded_once_both_ways_and_listed_ascending() {
        let mut m = BitMatrix::new(130).expect("small enough");
        assert!(m.insert(129, 3));
        assert!(!m.insert(3, 129));
        assert!(m.insert(3, 70));
        assert!(m.insert(0, 3));
        let (starts, targets) = m.lists();
        let list = |v: usize| &targets[starts[v] as usize..starts[v + 1] as usize];
        assert_eq!(list(3), &[0, 70, 129]);
        assert_eq!(list(129), &[3]);
        assert_eq!(list(1), &[] as &[u32]);
        assert_eq!(starts.len(), 131);
        assert!(BitMatrix::new(BitMatrix::MAX_VALUES + 1).is_none());
    }
}

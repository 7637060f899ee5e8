//! The C library's `rand()` as glibc computes it, so that the examples get the same inputs
//! (and print the same lines) as QPULib's C++ programs, which call `srand(0)` then `rand()`.
//!
//! glibc's default generator is an additive lagged-Fibonacci generator over 34 words of state
//! (degree 31, separation 3), seeded by a Lehmer sequence (multiplier 16807, modulus
//! 2^31 - 1); the first 310 outputs are discarded and each output drops the low bit.
//! `srand(0)` seeds like `srand(1)`.

/// glibc's `rand()` generator after `srand(seed)`.
pub struct GlibcRand {
    state: [u32; 34],
    next: usize,
}

impl GlibcRand {
    /// The generator as `srand(seed)` leaves it.
    pub fn new(seed: u32) -> GlibcRand {
        let mut state = [0u32; 34];
        state[0] = if seed == 0 { 1 } else { seed };
        for i in 1..31 {
            // 16807 * state[i-1] mod (2^31 - 1), in signed 64-bit to avoid overflow.
            let product = 16807 * state[i - 1] as i32 as i64;
            let mut word = product % 2_147_483_647;
            if word < 0 {
                word += 2_147_483_647;
            }
            state[i] = word as u32;
        }
        for i in 31..34 {
            state[i] = state[i - 31];
        }
        let mut rng = GlibcRand { state, next: 0 };
        for _ in 34..344 {
            rng.step();
        }
        rng
    }

    fn step(&mut self) -> u32 {
        // Ring buffer of the last 34 values: new = r[i-31] + r[i-3].
        let i = self.next;
        let value = self.state[(i + 34 - 31) % 34].wrapping_add(self.state[(i + 34 - 3) % 34]);
        self.state[i] = value;
        self.next = (i + 1) % 34;
        value
    }

    /// The next `rand()` result, in `0..=RAND_MAX` (2^31 - 1).
    pub fn rand(&mut self) -> i32 {
        (self.step() >> 1) as i32
    }
}

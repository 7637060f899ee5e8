//! SHA-256 (FIPS 180-4) of many messages at once: each lane of a QPU hashes its own message,
//! so one QPU hashes 16 messages and 12 QPUs hash 192 side by side.
//!
//! ```
//! use qpu_kernels::sha256::Sha256;
//!
//! let device = qpu::Device::interpreter();
//! let sha = Sha256::new()?;
//! let digests = sha.digest_all(&device, &[&b"abc"[..], b""])?;
//! assert_eq!(
//!     digests[0][..4],
//!     [0xba, 0x78, 0x16, 0xbf], // FIPS 180-4's example: SHA-256("abc") = ba7816bf...
//! );
//! # Ok::<(), qpu::Error>(())
//! ```
//!
//! The host pads each message (FIPS 180-4 §5.1.1: a 1 bit, zeros, the 64-bit length) and
//! lays the 32-bit big-endian words out lane by lane; the kernel runs the compression
//! function. Messages of different lengths share a batch: a lane's state stops changing after
//! its last block.
//!
//! # Memory layout (what [`kernel`] reads and writes)
//!
//! Messages are taken 16 at a time (a *batch*, one message per lane). For batch `g`:
//! - `meta[32g + l]` is the number of blocks of lane `l`'s message (0 for lanes past the last
//!   message) and `meta[32g + 16 + l]` the index of the batch's first block;
//! - block `b` of the batch is 256 words at `blocks[256·(first + b)]`, word `w` of lane `l`'s
//!   block at `+ 16w + l`; a batch has as many blocks as its longest message;
//! - the digest's word `i` for lane `l` is written to `out[128g + 16i + l]`.

use qpu::lang::*;
use qpu::runtime::{RunReport, SharedArray};
use qpu::{Device, Kernel};

/// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
/// first 64 primes.
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// FIPS 180-4 §5.3.3: the initial hash value (fractional parts of the square roots of the
/// first 8 primes).
const H0: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Words per block and lane group: 16 words × 16 lanes.
const BLOCK_WORDS: usize = 256;

/// Σ0 (FIPS 180-4 §4.1.2, 4.4).
fn big_sigma0(x: Int) -> Int {
    x.ror(2) ^ x.ror(13) ^ x.ror(22)
}

/// Σ1 (4.5).
fn big_sigma1(x: Int) -> Int {
    x.ror(6) ^ x.ror(11) ^ x.ror(25)
}

/// σ0 (4.6).
fn small_sigma0(x: Int) -> Int {
    x.ror(7) ^ x.ror(18) ^ x.lshr(3)
}

/// σ1 (4.7).
fn small_sigma1(x: Int) -> Int {
    x.ror(17) ^ x.ror(19) ^ x.lshr(10)
}

/// Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g), in three operations: g ⊕ (e ∧ (f ⊕ g)).
fn ch(e: Int, f: Int, g: Int) -> Int {
    g ^ (e & (f ^ g))
}

/// The 64 rounds over one block whose message schedule starts in `w`. `s` holds the working
/// variables a..h; instead of moving all eight each round, the Rust array is rotated, so the
/// round writes only the two variables that change (new `e` into `d`'s register, new `a`
/// into `h`'s) — after 64 rounds the names are back where they started.
///
/// Maj(a, b, c) is computed as b ⊕ ((a ⊕ b) ∧ (b ⊕ c)): this round's a ⊕ b is the next
/// round's b ⊕ c, so it costs two operations per round, not four.
fn compress(s: &mut [Int; 8], w: &[Int; 16], receive_word: &mut dyn FnMut(usize)) {
    let mut b_xor_c = Int::var(s[1] ^ s[2]);
    for (t, &k) in K.iter().enumerate() {
        if t < 16 {
            receive_word(t);
        } else {
            // W_t = σ1(W_{t-2}) + W_{t-7} + σ0(W_{t-15}) + W_{t-16}, in a ring of 16.
            let wt = w[t % 16];
            wt.set(
                wt + small_sigma1(w[(t - 2) % 16])
                    + w[(t - 7) % 16]
                    + small_sigma0(w[(t - 15) % 16]),
            );
        }
        let [a, b, _c, d, e, f, g, h] = *s;
        let t1 = Int::var(h + big_sigma1(e) + ch(e, f, g) + k as i32 + w[t % 16]);
        let a_xor_b = Int::var(a ^ b);
        d.set(d + t1);
        h.set(t1 + big_sigma0(a) + (b ^ (a_xor_b & b_xor_c)));
        b_xor_c = a_xor_b;
        s.rotate_right(1);
    }
}

/// The kernel: hashes batch `me()`, `me() + num_qpus()`, … of `batches` (see the module
/// documentation for the layout of `meta`, `blocks` and `out`).
pub fn kernel(meta: Ptr<Int>, blocks: Ptr<Int>, out: Ptr<Int>, batches: Int) {
    for_(
        me(),
        |g| g.lt(batches),
        |g| g + num_qpus(),
        |g| {
            let m = meta + (g << 5);
            let count = Int::var(m.load());
            let first = Int::var((m + 16).load());
            let hash = H0.map(|h| Int::var(h as i32));
            let s = H0.map(|_| Int::var(0));
            let w: [Int; 16] = std::array::from_fn(|_| Int::var(0));
            let mut p = Ptr::var(blocks + (first << 8) + index());
            let b = Int::var(0);
            while_(any(b.lt(count)), || {
                for (v, h) in s.iter().zip(&hash) {
                    v.set(*h);
                }
                // Four words in flight: receive word t just before round t needs it.
                for t in 0..4i32 {
                    gather(p + t * 16);
                }
                let mut s_round = s;
                compress(&mut s_round, &w, &mut |t| {
                    receive(w[t]);
                    if t + 4 < 16 {
                        gather(p + ((t + 4) * 16) as i32);
                    }
                });
                where_(b.lt(count), || {
                    for (h, v) in hash.iter().zip(&s) {
                        h.set(*h + *v);
                    }
                });
                p += BLOCK_WORDS as i32;
                b.set(b + 1);
            });
            let o = out + (g << 7);
            for (i, h) in hash.iter().enumerate() {
                (o + (i * 16) as i32).store(*h);
            }
        },
    );
}

/// The kernel's parameters: `meta`, `blocks`, `out`, number of batches.
pub type Params = (Ptr<Int>, Ptr<Int>, Ptr<Int>, Int);

/// A compiled SHA-256 kernel and the number of QPUs it runs on.
pub struct Sha256 {
    kernel: Kernel<Params>,
}

impl Sha256 {
    /// Compile the kernel for one QPU.
    pub fn new() -> qpu::Result<Sha256> {
        Ok(Sha256 {
            kernel: qpu::compile(kernel)?,
        })
    }

    /// Compile the kernel for `num_qpus` QPUs (1..=16; at most the device's GPU has), as
    /// every library type sets its QPU count.
    pub fn with_qpus(num_qpus: u32) -> qpu::Result<Sha256> {
        let mut sha = Sha256::new()?;
        sha.kernel.set_num_qpus(num_qpus)?;
        Ok(sha)
    }

    /// The compiled kernel (for its listing, or to change the QPU count).
    pub fn kernel(&mut self) -> &mut Kernel<Params> {
        &mut self.kernel
    }

    /// SHA-256 of each message, in order.
    pub fn digest_all<M: AsRef<[u8]>>(
        &self,
        device: &Device,
        messages: &[M],
    ) -> qpu::Result<Vec<[u8; 32]>> {
        self.digest_all_with_report(device, messages)
            .map(|(digests, _)| digests)
    }

    /// SHA-256 of each message, with the device's report of the run (cycles on the emulator).
    pub fn digest_all_with_report<M: AsRef<[u8]>>(
        &self,
        device: &Device,
        messages: &[M],
    ) -> qpu::Result<(Vec<[u8; 32]>, RunReport)> {
        let staged = Staged::new(messages)?;
        let meta = device.alloc_from(&staged.meta)?;
        let blocks = device.alloc_from(&staged.blocks)?;
        let mut out: SharedArray<u32> = device.alloc(staged.batches * 128)?;
        let batches = i32::try_from(staged.batches).map_err(|_| {
            qpu::Error::Arguments(format!("{} messages are too many", messages.len()))
        })?;
        let report = self
            .kernel
            .run(device, (&meta, &blocks, &mut out, batches))?;
        let words = out.to_vec();
        let digests = (0..messages.len())
            .map(|m| {
                let (g, l) = (m / 16, m % 16);
                let mut digest = [0u8; 32];
                for (i, bytes) in digest.chunks_exact_mut(4).enumerate() {
                    bytes.copy_from_slice(&words[128 * g + 16 * i + l].to_be_bytes());
                }
                digest
            })
            .collect();
        Ok((digests, report))
    }
}

/// Messages padded and laid out for the kernel.
struct Staged {
    meta: Vec<u32>,
    blocks: Vec<u32>,
    batches: usize,
}

impl Staged {
    fn new<M: AsRef<[u8]>>(messages: &[M]) -> qpu::Result<Staged> {
        let batches = messages.len().div_ceil(16);
        let mut meta = vec![0u32; batches * 32];
        let mut blocks = Vec::new();
        for (g, batch) in messages.chunks(16).enumerate() {
            let counts: Vec<usize> = batch
                .iter()
                .map(|m| padded_blocks(m.as_ref().len()))
                .collect();
            let first = blocks.len() / BLOCK_WORDS;
            let longest = counts.iter().copied().max().unwrap_or(0);
            let too_big = || {
                qpu::Error::Arguments(format!(
                    "SHA-256 input of {} blocks does not fit the kernel's 32-bit block indices",
                    first + longest
                ))
            };
            let first_u32 = u32::try_from(first).map_err(|_| too_big())?;
            let end = first.checked_add(longest).ok_or_else(too_big)?;
            if end > (i32::MAX as usize) >> 10 {
                return Err(too_big());
            }
            blocks.resize(end * BLOCK_WORDS, 0);
            for (l, m) in batch.iter().enumerate() {
                meta[32 * g + l] = counts[l] as u32;
                let padded = pad(m.as_ref());
                for (b, block) in padded.chunks_exact(64).enumerate() {
                    for (w, word) in block.chunks_exact(4).enumerate() {
                        let word = u32::from_be_bytes(word.try_into().expect("4 bytes"));
                        blocks[(first + b) * BLOCK_WORDS + 16 * w + l] = word;
                    }
                }
            }
            meta[32 * g + 16..32 * g + 32].fill(first_u32);
        }
        Ok(Staged {
            meta,
            blocks,
            batches,
        })
    }
}

/// Blocks of a padded message of `len` bytes: the message, one 0x80 byte and the 8-byte
/// length, rounded up to 64 bytes.
fn padded_blocks(len: usize) -> usize {
    (len + 9).div_ceil(64)
}

/// FIPS 180-4 §5.1.1: the message, a 1 bit, zeros to 56 mod 64 bytes, the length in bits
/// as a 64-bit big-endian integer.
fn pad(message: &[u8]) -> Vec<u8> {
    let mut padded = Vec::with_capacity(padded_blocks(message.len()) * 64);
    padded.extend_from_slice(message);
    padded.push(0x80);
    padded.resize(padded_blocks(message.len()) * 64 - 8, 0);
    padded.extend_from_slice(&(message.len() as u64).wrapping_mul(8).to_be_bytes());
    padded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_follows_fips_180_4() {
        // FIPS 180-4 §5.1.1's example: "abc" is 24 bits, so 423 zero bits follow the 1 bit.
        let p = pad(b"abc");
        assert_eq!(p.len(), 64);
        assert_eq!(&p[..4], &[b'a', b'b', b'c', 0x80]);
        assert!(p[4..56].iter().all(|&b| b == 0));
        assert_eq!(&p[56..], &24u64.to_be_bytes());
        // 55 bytes still fit one block; 56 need a second for the length.
        assert_eq!(padded_blocks(55), 1);
        assert_eq!(padded_blocks(56), 2);
        assert_eq!(pad(&[7; 56]).len(), 128);
        assert_eq!(padded_blocks(0), 1);
    }

    #[test]
    fn staging_lays_words_out_lane_by_lane() {
        let messages: Vec<Vec<u8>> = (0..17).map(|i| vec![i as u8; i * 4]).collect();
        let s = Staged::new(&messages).unwrap();
        assert_eq!(s.batches, 2);
        // Batch 0: lanes 0..=13 fit one block (up to 52 bytes), 14 and 15 need two.
        assert_eq!(
            &s.meta[..16],
            &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2]
        );
        assert_eq!(&s.meta[16..32], &[0; 16]);
        // Batch 1 (message 16, 64 bytes: two blocks) starts after batch 0's two blocks.
        assert_eq!(s.meta[32], 2);
        assert_eq!(&s.meta[33..48], &[0; 15]);
        assert_eq!(&s.meta[48..64], &[2; 16]);
        assert_eq!(s.blocks.len(), 4 * BLOCK_WORDS);
        // Lane 3's first word: 3, 3, 3, 3 big-endian; its word 3 is the 0x80 after 12 bytes.
        assert_eq!(s.blocks[3], 0x0303_0303);
        assert_eq!(s.blocks[16 * 3 + 3], 0x8000_0000);
        // Lane 3's length word (bits 96) is word 15 of its only block.
        assert_eq!(s.blocks[16 * 15 + 3], 96);
    }
}

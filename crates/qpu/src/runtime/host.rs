//! Shared arrays kept in host memory under simulated bus addresses.
//!
//! The interpreter and the emulator keep shared arrays as ordinary vectors. Each gets a
//! distinct, page-aligned bus address from the range Pi GPU memory is usually seen through, so
//! pointer values look real and two live arrays never share one; a 64 KiB guard of unused
//! addresses follows each array, so running past one never reaches another. A dropped array
//! gives its addresses back for the next allocation. The emulator lends each argument array
//! to its emulated memory at exactly this address for a run (no copy), so its errors and the
//! interpreter's name the addresses `SharedArray::bus_address` shows. (On the Pi backend the
//! arrays are GPU memory itself; see [`super::pi`].)

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::SharedMemory;
use crate::error::{Error, Result};

/// Simulated addresses start at the Pi's uncached alias (0xC000_0000), as mailbox-allocated
/// GPU memory is usually seen.
pub(super) const BUS_BASE: u32 = 0xC000_0000;
/// Page alignment, like mailbox allocations on the Pi.
const ALIGN: u64 = 4096;
/// Unused addresses left after each array (64 KiB: 16,384 elements), so an index that runs
/// past one array — by a vector or by a thousand elements — lands on no array at all and is
/// reported, instead of silently hitting the next array.
pub(super) const GUARD: u64 = 64 * 1024;

/// Locks `mutex`, carrying on after a panic in another holder: everything guarded with it in
/// the runtime is updated by single inserts or replacements, never left half-written.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Live allocations: base address → size in bytes.
#[derive(Default)]
struct AddressSpace {
    live: BTreeMap<u32, u64>,
}

impl AddressSpace {
    /// First-fit search for `bytes` (plus the guard after them) in the simulated bus window.
    fn reserve(&mut self, bytes: u64) -> Option<u32> {
        let bytes = bytes.div_ceil(ALIGN) * ALIGN + GUARD;
        let mut candidate = BUS_BASE as u64;
        for (&base, &size) in &self.live {
            if candidate + bytes <= base as u64 {
                break;
            }
            candidate = (base as u64 + size).div_ceil(ALIGN) * ALIGN;
        }
        if candidate + bytes > u32::MAX as u64 + 1 {
            return None;
        }
        self.live.insert(candidate as u32, bytes);
        Some(candidate as u32)
    }
}

struct HostMemory {
    words: Vec<u32>,
    bus_address: u32,
    space: Arc<Mutex<AddressSpace>>,
}

impl SharedMemory for HostMemory {
    fn bus_address(&self) -> u32 {
        self.bus_address
    }
    fn words(&self) -> &[u32] {
        &self.words
    }
    fn words_mut(&mut self) -> &mut [u32] {
        &mut self.words
    }
}

impl Drop for HostMemory {
    fn drop(&mut self) {
        lock(&self.space).live.remove(&self.bus_address);
    }
}

/// The allocator of one backend's host-side shared arrays.
#[derive(Default)]
pub(super) struct HostArrays {
    space: Arc<Mutex<AddressSpace>>,
}

impl HostArrays {
    /// `words` zeroed words with a fresh simulated bus address.
    pub(super) fn alloc(&self, words: usize) -> Result<Box<dyn SharedMemory>> {
        let alloc_error = |reason: &str| Error::Alloc {
            words,
            reason: reason.to_string(),
        };
        let bytes = (words as u64)
            .checked_mul(4)
            .ok_or_else(|| alloc_error("size overflows"))?;
        let bus_address = lock(&self.space)
            .reserve(bytes)
            .ok_or_else(|| alloc_error("the 1 GiB simulated bus window is full"))?;
        Ok(Box::new(HostMemory {
            words: vec![0; words],
            bus_address,
            space: self.space.clone(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_distinct_page_aligned_and_reused_after_drop() {
        let arrays = HostArrays::default();
        let a = arrays.alloc(1).unwrap();
        let b = arrays.alloc(1025).unwrap();
        let c = arrays.alloc(0).unwrap();
        let d = arrays.alloc(1).unwrap();
        let guard = GUARD as u32;
        assert_eq!(a.bus_address(), BUS_BASE);
        // Each array is followed by a guard; 1025 words need two pages.
        assert_eq!(b.bus_address(), BUS_BASE + 4096 + guard);
        assert_eq!(c.bus_address(), BUS_BASE + 3 * 4096 + 2 * guard);
        // An empty array has an address but no words.
        assert_eq!(d.bus_address(), BUS_BASE + 3 * 4096 + 3 * guard);
        let freed = b.bus_address();
        drop(b);
        assert_eq!(arrays.alloc(16).unwrap().bus_address(), freed);
    }

    #[test]
    fn a_full_window_is_an_allocation_error() {
        let arrays = HostArrays::default();
        // The window is 1 GiB = 2^28 words; ask for more in one go.
        let error = arrays
            .alloc(1 << 28)
            .err()
            .expect("too large with its guard");
        assert!(
            matches!(&error, Error::Alloc { reason, .. } if reason.contains("window is full")),
            "{error}"
        );
    }
}

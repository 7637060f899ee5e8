//! Emulated main memory, addressed by 32-bit VideoCore bus addresses.
//!
//! Memory exists only where the emulator's user allocated it: every other address is an
//! error, never a host crash. Allocations are laid out upwards from [`Memory::FIRST_ADDRESS`]
//! with an unmapped guard gap of [`Memory::GUARD_BYTES`] between neighbours, so a kernel that
//! runs a row or a word past the end of its buffer hits unmapped space and is reported
//! instead of silently scribbling over the next buffer. Bus address 0 is never handed out
//! (hand-written kernels use 0 as "no pointer").
//!
//! Alias bits (the top two bits of a Pi bus address, which only select a cache policy on
//! hardware) are not stripped: the addresses returned by [`Memory::alloc`] are the ones a
//! kernel must use.
//!
//! A caller can also lend its own words to the memory at a bus address it chooses
//! ([`LendingMemory::lend`] read-only, [`LendingMemory::lend_mut`] writable, or for one
//! run, [`Emulator::run_lending`](crate::vc4::Emulator::run_lending)): the emulated machine then
//! reads and writes the caller's words in place, without copying them in or out, the way the
//! QPUs work on GPU memory the host has mapped (the `qpu` crate's emulator backend runs
//! kernels on its shared arrays so). Words are seen as their little-endian bytes, as on the
//! VideoCore; the emulator assumes a little-endian host for lent words, as every Raspberry Pi
//! and every host the project builds on is. A write into a read-only lent range is an error
//! ([`MemoryError::ReadOnly`]) and leaves the words unchanged.
//!
//! ```
//! use qpu_emu::memory::Memory;
//!
//! let mut mem = Memory::new();
//! let buf = mem.alloc(64, 16)?;
//! mem.write_u32(buf + 60, 0x1298)?;
//! assert_eq!(mem.read_u32(buf + 60)?, 0x1298);
//! assert!(mem.read_u32(buf + 64).is_err()); // one word past the end
//! # Ok::<(), qpu_emu::memory::MemoryError>(())
//! ```

use thiserror::Error;

/// Why a memory access or allocation failed. Every variant names the bus address involved.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MemoryError {
    /// The access does not start inside any allocation.
    #[error("bus address {addr:#010x} ({len} bytes) is outside every allocation")]
    Unmapped {
        /// First byte of the access.
        addr: u32,
        /// Length of the access in bytes.
        len: u32,
    },
    /// The access starts inside an allocation but runs past its end.
    #[error(
        "access of {len} bytes at bus address {addr:#010x} runs past the end of the \
         {size}-byte allocation at {base:#010x} (which ends at {end:#010x})",
        end = u64::from(*base) + u64::from(*size)
    )]
    PastEnd {
        /// First byte of the access.
        addr: u32,
        /// Length of the access in bytes.
        len: u32,
        /// Base address of the allocation the access starts in.
        base: u32,
        /// Size of that allocation in bytes.
        size: u32,
    },
    /// A write into words lent read-only ([`LendingMemory::lend`]).
    #[error(
        "write of {len} bytes at bus address {addr:#010x} into the read-only {size}-byte \
         range at {base:#010x}"
    )]
    ReadOnly {
        /// First byte of the write.
        addr: u32,
        /// Length of the write in bytes.
        len: u32,
        /// Base address of the read-only range.
        base: u32,
        /// Size of that range in bytes.
        size: u32,
    },
    /// A word access whose address is not a multiple of its size.
    #[error("bus address {addr:#010x} is not {align}-byte aligned")]
    Unaligned {
        /// The offending address.
        addr: u32,
        /// The alignment the access needs.
        align: u32,
    },
    /// The requested alignment is not a power of two.
    #[error("allocation alignment {align} is not a power of two")]
    BadAlignment {
        /// The requested alignment.
        align: u32,
    },
    /// A zero-byte allocation was requested (it would have no address to hand out).
    #[error("allocation of 0 bytes requested")]
    ZeroSize,
    /// A placed allocation ([`Memory::alloc_at`]) would overlap an existing one.
    #[error(
        "cannot place {len} bytes at bus address {addr:#010x}: they overlap the allocation at \
         {other:#010x}"
    )]
    Overlap {
        /// Requested base address.
        addr: u32,
        /// Requested length in bytes.
        len: u32,
        /// Base address of the allocation in the way.
        other: u32,
    },
    /// The allocation would exceed the memory's size cap or the 32-bit bus address space.
    #[error(
        "out of memory: cannot allocate {requested} bytes (aligned to {align}) with \
         {allocated} of {limit} bytes already allocated"
    )]
    OutOfMemory {
        /// Requested size in bytes.
        requested: u32,
        /// Requested alignment in bytes.
        align: u32,
        /// Bytes already allocated.
        allocated: u64,
        /// The memory's total size cap in bytes.
        limit: u64,
    },
}

/// The contents of an allocation: owned bytes, or words a caller lent for as long as `'a`.
#[derive(Debug)]
enum Contents<'a> {
    Owned(Vec<u8>),
    Lent(&'a [u32]),
    LentMut(&'a mut [u32]),
}

/// One allocation: its bus address and its contents.
#[derive(Debug)]
struct Allocation<'a> {
    base: u32,
    contents: Contents<'a>,
}

impl Allocation<'_> {
    /// Size in bytes.
    fn len(&self) -> usize {
        match &self.contents {
            Contents::Owned(bytes) => bytes.len(),
            Contents::Lent(words) => 4 * words.len(),
            Contents::LentMut(words) => 4 * words.len(),
        }
    }

    /// One past the last byte, as u64 so an allocation ending at 2^32 does not overflow.
    fn end(&self) -> u64 {
        u64::from(self.base) + self.len() as u64
    }

    /// The contents as bytes (lent words as their in-memory bytes: little-endian on the
    /// hosts the emulator supports, see the module docs).
    #[inline]
    fn bytes(&self) -> &[u8] {
        match &self.contents {
            Contents::Owned(bytes) => bytes,
            Contents::Lent(words) => bytemuck::cast_slice(words),
            Contents::LentMut(words) => bytemuck::cast_slice(words),
        }
    }

    /// The contents as writable bytes, or `None` when they were lent read-only.
    #[inline]
    fn bytes_mut(&mut self) -> Option<&mut [u8]> {
        match &mut self.contents {
            Contents::Owned(bytes) => Some(bytes),
            Contents::Lent(_) => None,
            Contents::LentMut(words) => Some(bytemuck::cast_slice_mut(words)),
        }
    }
}

/// Emulated main memory that owns all its allocations: what an [`Emulator`](crate::vc4::Emulator)
/// keeps between runs.
pub type Memory = LendingMemory<'static>;

/// Sparse emulated main memory: a set of allocations at bus addresses, each owned by the
/// memory or lent to it by the caller for the lifetime `'a` ([`Memory`] lends nothing, or
/// only `'static` words).
///
/// Allocations are never freed; they are kept in a vector sorted by base address and found
/// by binary search.
#[derive(Debug)]
pub struct LendingMemory<'a> {
    allocations: Vec<Allocation<'a>>,
    /// Lowest address the next allocation may use (before alignment).
    next_free: u64,
    allocated: u64,
    limit: u64,
}

impl Default for LendingMemory<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> LendingMemory<'a> {
    /// Bus address where the first allocation is placed (at the earliest). Everything below
    /// it, including address 0, stays unmapped.
    pub const FIRST_ADDRESS: u32 = 0x0001_0000;
    /// Unmapped bytes left between consecutive allocations. One 4 KiB page catches
    /// off-by-one words, off-by-one 64-byte VPM rows and off-by-one 16-lane strides alike.
    pub const GUARD_BYTES: u32 = 4096;
    /// Default cap on the total bytes allocated (1 GiB, the largest memory of a Pi that
    /// has a VideoCore IV), so a huge request is an error instead of a host abort.
    pub const DEFAULT_LIMIT: u64 = 1 << 30;

    /// Empty memory with the default size cap.
    pub fn new() -> Self {
        Self::with_limit(Self::DEFAULT_LIMIT)
    }

    /// Empty memory that refuses to allocate more than `limit` bytes in total.
    pub fn with_limit(limit: u64) -> Self {
        LendingMemory {
            allocations: Vec::new(),
            next_free: u64::from(Self::FIRST_ADDRESS),
            allocated: 0,
            limit,
        }
    }

    /// Allocates `bytes` zero-filled bytes aligned to `align` (a power of two; 0 or 1 mean
    /// no alignment) and returns their bus address, which is never 0.
    pub fn alloc(&mut self, bytes: u32, align: u32) -> Result<u32, MemoryError> {
        if bytes == 0 {
            return Err(MemoryError::ZeroSize);
        }
        let align = align.max(1);
        if !align.is_power_of_two() {
            return Err(MemoryError::BadAlignment { align });
        }
        let out_of_memory = MemoryError::OutOfMemory {
            requested: bytes,
            align,
            allocated: self.allocated,
            limit: self.limit,
        };
        if self.allocated + u64::from(bytes) > self.limit {
            return Err(out_of_memory);
        }
        let align = u64::from(align);
        let mut base = self.next_free.div_ceil(align) * align;
        // Skip over allocations placed with `alloc_at`, keeping a guard on both sides.
        let guard = u64::from(Self::GUARD_BYTES);
        let first = self
            .allocations
            .partition_point(|a| a.end() + guard <= base);
        for placed in &self.allocations[first..] {
            if base + u64::from(bytes) + guard <= u64::from(placed.base) {
                break;
            }
            base = (placed.end() + guard).div_ceil(align) * align;
        }
        let end = base + u64::from(bytes);
        if end > 1 << 32 {
            return Err(out_of_memory);
        }
        let base = u32::try_from(base).map_err(|_| out_of_memory.clone())?;
        let at = self.allocations.partition_point(|a| a.base < base);
        self.allocations.insert(
            at,
            Allocation {
                base,
                contents: Contents::Owned(vec![0; bytes as usize]),
            },
        );
        self.allocated += u64::from(bytes);
        self.next_free = end + guard;
        Ok(base)
    }

    /// Allocates `bytes` zero-filled bytes at exactly the bus address `addr` (so a caller can
    /// mirror another address space, as the `qpu` crate's emulator backend mirrors its shared
    /// arrays' addresses). No guard is implied: the caller keeps placed allocations apart. A
    /// zero-byte placement allocates nothing, so every access at `addr` stays unmapped.
    pub fn alloc_at(&mut self, addr: u32, bytes: u32) -> Result<(), MemoryError> {
        if bytes == 0 {
            return Ok(());
        }
        if self.allocated + u64::from(bytes) > self.limit {
            return Err(self.out_of_room(bytes));
        }
        self.place(addr, bytes, Contents::Owned(vec![0; bytes as usize]))?;
        self.allocated += u64::from(bytes);
        Ok(())
    }

    /// Maps the caller's `words` read-only at exactly the bus address `addr`, for as long as
    /// the memory lives: reads see them in place, and a write into them is
    /// [`MemoryError::ReadOnly`]. As for [`LendingMemory::alloc_at`], no guard is implied and an
    /// empty slice maps nothing. Lent words do not count towards the size cap (the memory
    /// allocates nothing for them).
    ///
    /// ```
    /// use qpu_emu::memory::{LendingMemory, MemoryError};
    ///
    /// let table = [7u32, 8, 9];
    /// let mut mem = LendingMemory::new();
    /// mem.lend(0xC000_0000, &table)?;
    /// assert_eq!(mem.read_u32(0xC000_0008)?, 9);
    /// assert!(matches!(mem.write_u32(0xC000_0000, 1), Err(MemoryError::ReadOnly { .. })));
    /// # Ok::<(), MemoryError>(())
    /// ```
    pub fn lend(&mut self, addr: u32, words: &'a [u32]) -> Result<(), MemoryError> {
        if words.is_empty() {
            return Ok(());
        }
        let bytes = Self::lent_bytes(addr, words.len())?;
        self.place(addr, bytes, Contents::Lent(words))
    }

    /// Maps the caller's `words` readable and writable at exactly the bus address `addr`, for
    /// as long as the memory lives: the machine reads and writes them in place, so the caller
    /// sees every store once the memory is dropped. Otherwise as [`LendingMemory::lend`].
    ///
    /// ```
    /// use qpu_emu::memory::LendingMemory;
    ///
    /// let mut out = [0u32; 4];
    /// let mut mem = LendingMemory::new();
    /// mem.lend_mut(0xC000_0000, &mut out)?;
    /// mem.write_u32(0xC000_000C, 0x1298)?;
    /// drop(mem);
    /// assert_eq!(out, [0, 0, 0, 0x1298]);
    /// # Ok::<(), qpu_emu::memory::MemoryError>(())
    /// ```
    pub fn lend_mut(&mut self, addr: u32, words: &'a mut [u32]) -> Result<(), MemoryError> {
        if words.is_empty() {
            return Ok(());
        }
        let bytes = Self::lent_bytes(addr, words.len())?;
        self.place(addr, bytes, Contents::LentMut(words))
    }

    /// The memory without its lent words (their ranges unmapped again), its own allocations
    /// kept as they are.
    pub fn into_owned(self) -> Memory {
        let allocations = self
            .allocations
            .into_iter()
            .filter_map(|a| match a.contents {
                Contents::Owned(bytes) => Some(Allocation {
                    base: a.base,
                    contents: Contents::Owned(bytes),
                }),
                Contents::Lent(_) | Contents::LentMut(_) => None,
            })
            .collect();
        LendingMemory {
            allocations,
            next_free: self.next_free,
            allocated: self.allocated,
            limit: self.limit,
        }
    }

    /// The size in bytes of `len` lent words at `addr`, which must be word-aligned.
    fn lent_bytes(addr: u32, len: usize) -> Result<u32, MemoryError> {
        if !addr.is_multiple_of(4) {
            return Err(MemoryError::Unaligned { addr, align: 4 });
        }
        u32::try_from(len)
            .ok()
            .and_then(|len| len.checked_mul(4))
            .ok_or(MemoryError::OutOfMemory {
                requested: u32::MAX,
                align: 4,
                allocated: 0,
                limit: 1 << 32,
            })
    }

    /// The error for `bytes` that do not fit at `addr` (the cap or the address space).
    fn out_of_room(&self, bytes: u32) -> MemoryError {
        MemoryError::OutOfMemory {
            requested: bytes,
            align: 1,
            allocated: self.allocated,
            limit: self.limit,
        }
    }

    /// Inserts `contents` (`bytes` long, at least 1) at exactly `addr`, unless that would run
    /// past the 32-bit address space or overlap an allocation.
    fn place(&mut self, addr: u32, bytes: u32, contents: Contents<'a>) -> Result<(), MemoryError> {
        let end = u64::from(addr) + u64::from(bytes);
        if end > 1 << 32 {
            return Err(self.out_of_room(bytes));
        }
        let at = self.allocations.partition_point(|a| a.base < addr);
        let before = at.checked_sub(1).map(|i| &self.allocations[i]);
        let clash = before
            .filter(|a| a.end() > u64::from(addr))
            .or_else(|| self.allocations.get(at).filter(|a| u64::from(a.base) < end));
        if let Some(other) = clash {
            return Err(MemoryError::Overlap {
                addr,
                len: bytes,
                other: other.base,
            });
        }
        self.allocations.insert(
            at,
            Allocation {
                base: addr,
                contents,
            },
        );
        Ok(())
    }

    /// Total bytes allocated so far (guards excluded).
    pub fn allocated_bytes(&self) -> u64 {
        self.allocated
    }

    /// The (base, size) of the allocation containing `addr`, if any.
    pub fn allocation_containing(&self, addr: u32) -> Option<(u32, u32)> {
        self.find(addr).map(|index| {
            let allocation = &self.allocations[index];
            (allocation.base, allocation.len() as u32)
        })
    }

    /// Index of the allocation whose byte range contains `addr`.
    fn find(&self, addr: u32) -> Option<usize> {
        // First allocation starting after addr; the candidate is the one before it.
        let after = self.allocations.partition_point(|a| a.base <= addr);
        let index = after.checked_sub(1)?;
        (u64::from(addr) < self.allocations[index].end()).then_some(index)
    }

    /// Locates `len` bytes at `addr` inside one allocation: (allocation index, offset).
    fn locate(&self, addr: u32, len: u32) -> Result<(usize, usize), MemoryError> {
        let index = self.find(addr).ok_or(MemoryError::Unmapped { addr, len })?;
        let allocation = &self.allocations[index];
        if u64::from(addr) + u64::from(len) > allocation.end() {
            return Err(MemoryError::PastEnd {
                addr,
                len,
                base: allocation.base,
                size: allocation.len() as u32,
            });
        }
        Ok((index, (addr - allocation.base) as usize))
    }

    /// Reads the little-endian 32-bit word at the 4-byte aligned address `addr`.
    pub fn read_u32(&self, addr: u32) -> Result<u32, MemoryError> {
        if !addr.is_multiple_of(4) {
            return Err(MemoryError::Unaligned { addr, align: 4 });
        }
        let (index, offset) = self.locate(addr, 4)?;
        let bytes = &self.allocations[index].bytes()[offset..offset + 4];
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    /// [`Memory::read_u32`] for a stream of reads that mostly stay in one allocation (the
    /// uniforms): `hint` is the index of the allocation the last read found, tried first;
    /// otherwise (and for every error) the search of `read_u32` runs and updates it.
    #[inline]
    pub(crate) fn read_u32_near(&self, addr: u32, hint: &mut usize) -> Result<u32, MemoryError> {
        if let Some(a) = self.allocations.get(*hint) {
            let offset = addr.wrapping_sub(a.base) as usize;
            if addr.is_multiple_of(4) && addr >= a.base {
                if let Some(&[b0, b1, b2, b3]) = a.bytes().get(offset..offset.wrapping_add(4)) {
                    return Ok(u32::from_le_bytes([b0, b1, b2, b3]));
                }
            }
        }
        let value = self.read_u32(addr)?;
        if let Some(index) = self.find(addr) {
            *hint = index;
        }
        Ok(value)
    }

    /// [`Memory::read_bytes`] for lookups that mostly stay in one allocation (TMU gathers):
    /// `hint` is the index of the allocation the last read found, tried first; otherwise
    /// (and for every error) the search of `read_bytes` runs, and a success updates it.
    #[inline]
    pub(crate) fn read_bytes_near(
        &self,
        addr: u32,
        len: u32,
        hint: &mut usize,
    ) -> Result<&[u8], MemoryError> {
        if let Some(a) = self.allocations.get(*hint) {
            if addr >= a.base {
                let offset = (addr - a.base) as usize;
                if let Some(bytes) = a.bytes().get(offset..offset.wrapping_add(len as usize)) {
                    return Ok(bytes);
                }
            }
        }
        let (index, offset) = self.locate(addr, len)?;
        *hint = index;
        Ok(&self.allocations[index].bytes()[offset..offset + len as usize])
    }

    /// Writes `value` little-endian at the 4-byte aligned address `addr`.
    pub fn write_u32(&mut self, addr: u32, value: u32) -> Result<(), MemoryError> {
        if !addr.is_multiple_of(4) {
            return Err(MemoryError::Unaligned { addr, align: 4 });
        }
        let (index, offset) = self.locate(addr, 4)?;
        self.writable(index, addr, 4, offset)?
            .copy_from_slice(&value.to_le_bytes());
        Ok(())
    }

    /// [`Memory::write_u32`] for a run of writes that mostly stay in one allocation (a TMU
    /// store's lanes): `hint` is the index of the allocation the last write found, tried
    /// first when it is writable; otherwise (and for every error) `write_u32` runs, and a
    /// success updates it.
    #[inline]
    pub(crate) fn write_u32_near(
        &mut self,
        addr: u32,
        value: u32,
        hint: &mut usize,
    ) -> Result<(), MemoryError> {
        if let Some(a) = self.allocations.get_mut(*hint) {
            let offset = addr.wrapping_sub(a.base) as usize;
            if addr.is_multiple_of(4) && addr >= a.base {
                if let Some(word) = a
                    .bytes_mut()
                    .and_then(|bytes| bytes.get_mut(offset..offset.wrapping_add(4)))
                {
                    word.copy_from_slice(&value.to_le_bytes());
                    return Ok(());
                }
            }
        }
        self.write_u32(addr, value)?;
        if let Some(index) = self.find(addr) {
            *hint = index;
        }
        Ok(())
    }

    /// The `len` bytes at `addr`, which must lie inside one allocation.
    pub fn read_bytes(&self, addr: u32, len: u32) -> Result<&[u8], MemoryError> {
        let (index, offset) = self.locate(addr, len)?;
        Ok(&self.allocations[index].bytes()[offset..offset + len as usize])
    }

    /// Mutable view of the `len` bytes at `addr`, which must lie inside one allocation that
    /// was not lent read-only.
    pub fn bytes_mut(&mut self, addr: u32, len: u32) -> Result<&mut [u8], MemoryError> {
        let (index, offset) = self.locate(addr, len)?;
        self.writable(index, addr, len, offset)
    }

    /// The `len` bytes at `offset` in allocation `index` (which holds them), for a write at
    /// `addr`: an error if the allocation was lent read-only.
    fn writable(
        &mut self,
        index: usize,
        addr: u32,
        len: u32,
        offset: usize,
    ) -> Result<&mut [u8], MemoryError> {
        let allocation = &mut self.allocations[index];
        let (base, size) = (allocation.base, allocation.len() as u32);
        match allocation.bytes_mut() {
            Some(bytes) => Ok(&mut bytes[offset..offset + len as usize]),
            None => Err(MemoryError::ReadOnly {
                addr,
                len,
                base,
                size,
            }),
        }
    }

    /// Copies `data` to `addr`; the whole range must lie inside one allocation.
    pub fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), MemoryError> {
        let len = u32::try_from(data.len()).map_err(|_| MemoryError::Unmapped {
            addr,
            len: u32::MAX,
        })?;
        self.bytes_mut(addr, len)?.copy_from_slice(data);
        Ok(())
    }

    /// Reads `count` consecutive little-endian words starting at the aligned address `addr`.
    pub fn read_u32s(&self, addr: u32, count: u32) -> Result<Vec<u32>, MemoryError> {
        if !addr.is_multiple_of(4) {
            return Err(MemoryError::Unaligned { addr, align: 4 });
        }
        let len = count.checked_mul(4).ok_or(MemoryError::Unmapped {
            addr,
            len: u32::MAX,
        })?;
        let bytes = self.read_bytes(addr, len)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect())
    }

    /// Writes `words` little-endian, consecutively, from the aligned address `addr`.
    pub fn write_u32s(&mut self, addr: u32, words: &[u32]) -> Result<(), MemoryError> {
        if !addr.is_multiple_of(4) {
            return Err(MemoryError::Unaligned { addr, align: 4 });
        }
        let len = u32::try_from(words.len())
            .ok()
            .and_then(|n| n.checked_mul(4))
            .ok_or(MemoryError::Unmapped {
                addr,
                len: u32::MAX,
            })?;
        let bytes = self.bytes_mut(addr, len)?;
        for (chunk, word) in bytes.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_nonzero_aligned_and_separated_by_guards() {
        let mut mem = Memory::new();
        let a = mem.alloc(100, 16).unwrap();
        let b = mem.alloc(8, 256).unwrap();
        let c = mem.alloc(1, 1).unwrap();
        assert_ne!(a, 0);
        assert_eq!(a % 16, 0);
        assert_eq!(b % 256, 0);
        assert!(u64::from(b) >= u64::from(a) + 100 + u64::from(Memory::GUARD_BYTES));
        assert!(u64::from(c) >= u64::from(b) + 8 + u64::from(Memory::GUARD_BYTES));
        assert_eq!(mem.allocation_containing(a + 99), Some((a, 100)));
        assert_eq!(mem.allocation_containing(a + 100), None);
        assert_eq!(mem.allocated_bytes(), 109);
    }

    #[test]
    fn placed_allocations_keep_their_address_and_refuse_overlap() {
        let mut mem = Memory::new();
        let a = mem.alloc(64, 16).unwrap();
        mem.alloc_at(0xC000_0000, 80).unwrap();
        mem.alloc_at(0xC001_0000, 0).unwrap();
        assert_eq!(
            mem.allocation_containing(0xC000_004C),
            Some((0xC000_0000, 80))
        );
        assert!(mem.read_u32(0xC000_0050).is_err());
        assert!(mem.read_u32(0xC001_0000).is_err());
        assert_eq!(
            mem.alloc_at(0xBFFF_FFF0, 32),
            Err(MemoryError::Overlap {
                addr: 0xBFFF_FFF0,
                len: 32,
                other: 0xC000_0000
            })
        );
        assert!(matches!(
            mem.alloc_at(a + 60, 8),
            Err(MemoryError::Overlap { other, .. }) if other == a
        ));
        // Ordinary allocations go around placed ones, guards included.
        mem.alloc_at(a + 64 + 2 * Memory::GUARD_BYTES, 16).unwrap();
        let b = mem.alloc(64, 16).unwrap();
        assert!(b >= a + 64 + 3 * Memory::GUARD_BYTES + 16, "{b:#x}");
        assert_eq!(mem.allocated_bytes(), 64 + 80 + 16 + 64);
    }

    #[test]
    fn lent_words_are_used_in_place_within_their_bounds() {
        let table = [0x1122_3344u32, 5, 6];
        let mut out = [0u32; 4];
        let mut mem = LendingMemory::new();
        let own = mem.alloc(16, 16).unwrap();
        mem.lend(0xC000_0000, &table).unwrap();
        mem.lend_mut(0xC001_0000, &mut out).unwrap();
        mem.lend(0xC002_0000, &[]).unwrap();
        // Lent words are not allocated by the memory.
        assert_eq!(mem.allocated_bytes(), 16);
        assert_eq!(mem.read_u32(0xC000_0004), Ok(5));
        assert_eq!(mem.read_bytes(0xC000_0000, 2), Ok(&[0x44, 0x33][..]));
        assert_eq!(
            mem.allocation_containing(0xC000_0008),
            Some((0xC000_0000, 12))
        );
        assert_eq!(
            mem.read_u32(0xC000_000C),
            Err(MemoryError::Unmapped {
                addr: 0xC000_000C,
                len: 4
            })
        );
        assert_eq!(
            mem.read_u32s(0xC000_0008, 2),
            Err(MemoryError::PastEnd {
                addr: 0xC000_0008,
                len: 8,
                base: 0xC000_0000,
                size: 12
            })
        );
        let read_only = MemoryError::ReadOnly {
            addr: 0xC000_0004,
            len: 4,
            base: 0xC000_0000,
            size: 12,
        };
        assert_eq!(mem.write_u32(0xC000_0004, 9), Err(read_only.clone()));
        assert_eq!(mem.bytes_mut(0xC000_0004, 4).err(), Some(read_only));
        assert!(
            mem.read_u32(0xC002_0000).is_err(),
            "an empty slice maps nothing"
        );
        mem.write_u32s(0xC001_0004, &[1, 2]).unwrap();
        mem.write_bytes(0xC001_000C, &[0xaa, 0xbb]).unwrap();
        assert!(mem.write_u32(0xC001_0010, 3).is_err());
        // Overlapping lent words and unaligned ones are refused.
        assert!(matches!(
            mem.lend(0xBFFF_FFFC, &table),
            Err(MemoryError::Overlap {
                other: 0xC000_0000,
                ..
            })
        ));
        assert!(matches!(
            mem.lend(own + 8, &table),
            Err(MemoryError::Overlap { other, .. }) if other == own
        ));
        assert_eq!(
            mem.lend(0xC003_0002, &table),
            Err(MemoryError::Unaligned {
                addr: 0xC003_0002,
                align: 4
            })
        );
        // Without its lent words the memory keeps its own allocations.
        let mut owned = mem.into_owned();
        assert!(owned.read_u32(0xC000_0000).is_err());
        assert!(owned.read_u32(0xC001_0000).is_err());
        owned.write_u32(own + 12, 4).unwrap();
        assert_eq!(owned.allocated_bytes(), 16);
        assert_eq!(out, [0, 1, 2, 0xbbaa]);
        assert_eq!(table, [0x1122_3344, 5, 6]);
    }

    #[test]
    fn fresh_memory_reads_zero_and_words_are_little_endian() {
        let mut mem = Memory::new();
        let a = mem.alloc(16, 4).unwrap();
        assert_eq!(mem.read_u32(a + 12).unwrap(), 0);
        mem.write_u32(a + 4, 0x1122_3344).unwrap();
        assert_eq!(mem.read_bytes(a + 4, 4).unwrap(), &[0x44, 0x33, 0x22, 0x11]);
        mem.write_bytes(a + 9, &[0xaa, 0xbb]).unwrap();
        assert_eq!(mem.read_u32(a + 8).unwrap(), 0x00bb_aa00);
        mem.write_u32s(a, &[1, 2]).unwrap();
        assert_eq!(mem.read_u32s(a, 4).unwrap(), vec![1, 2, 0x00bb_aa00, 0]);
    }

    #[test]
    fn off_by_one_accesses_are_caught() {
        let mut mem = Memory::new();
        let a = mem.alloc(64, 64).unwrap();
        let _b = mem.alloc(64, 64).unwrap();
        assert_eq!(
            mem.read_u32(a + 64),
            Err(MemoryError::Unmapped {
                addr: a + 64,
                len: 4
            })
        );
        assert_eq!(
            mem.read_u32(a - 4),
            Err(MemoryError::Unmapped {
                addr: a - 4,
                len: 4
            })
        );
        assert_eq!(
            mem.write_bytes(a + 60, &[0; 8]),
            Err(MemoryError::PastEnd {
                addr: a + 60,
                len: 8,
                base: a,
                size: 64
            })
        );
        assert_eq!(
            mem.read_u32(0),
            Err(MemoryError::Unmapped { addr: 0, len: 4 })
        );
        assert_eq!(
            mem.read_u32(u32::MAX - 3),
            Err(MemoryError::Unmapped {
                addr: u32::MAX - 3,
                len: 4
            })
        );
    }

    #[test]
    fn unaligned_word_accesses_are_errors() {
        let mut mem = Memory::new();
        let a = mem.alloc(16, 4).unwrap();
        assert_eq!(
            mem.read_u32(a + 2),
            Err(MemoryError::Unaligned {
                addr: a + 2,
                align: 4
            })
        );
        assert_eq!(
            mem.write_u32(a + 1, 5),
            Err(MemoryError::Unaligned {
                addr: a + 1,
                align: 4
            })
        );
    }

    #[test]
    fn bad_requests_are_errors_not_aborts() {
        let mut mem = Memory::with_limit(1 << 20);
        assert_eq!(mem.alloc(0, 4), Err(MemoryError::ZeroSize));
        assert_eq!(mem.alloc(4, 3), Err(MemoryError::BadAlignment { align: 3 }));
        assert!(matches!(
            mem.alloc(u32::MAX, 4),
            Err(MemoryError::OutOfMemory {
                requested: u32::MAX,
                ..
            })
        ));
        assert!(matches!(
            mem.alloc((1 << 20) + 1, 4),
            Err(MemoryError::OutOfMemory { .. })
        ));
        // The cap counts all allocations together.
        mem.alloc(1 << 19, 4).unwrap();
        assert!(mem.alloc(1 << 19, 4).is_ok());
        assert!(matches!(
            mem.alloc(1, 1),
            Err(MemoryError::OutOfMemory { .. })
        ));
    }

    #[test]
    fn the_bus_address_space_runs_out_cleanly() {
        // A cap above 4 GiB leaves the 32-bit address space as the limit; large alignments
        // reach its end without allocating much host memory.
        let mut mem = Memory::with_limit(u64::MAX);
        assert_eq!(mem.alloc(16, 1 << 31), Ok(0x8000_0000));
        assert!(matches!(
            mem.alloc(16, 1 << 31),
            Err(MemoryError::OutOfMemory { requested: 16, .. })
        ));
        // Smaller requests still fit below the top of the address space.
        let top = mem.alloc(16, 1 << 30).unwrap();
        assert_eq!(top, 0xc000_0000);
    }

    #[test]
    fn errors_name_the_address() {
        let mut mem = Memory::new();
        let a = mem.alloc(8, 8).unwrap();
        let message = mem.read_u32(a + 8).unwrap_err().to_string();
        assert!(message.contains(&format!("{:#010x}", a + 8)), "{message}");
        let message = mem.read_bytes(a + 4, 8).unwrap_err().to_string();
        assert!(message.contains(&format!("{a:#010x}")), "{message}");
    }

    /// `read_bytes_near` gives what `read_bytes` gives for every hint, including stale and
    /// out-of-range ones, and ranges that leave the hinted allocation.
    #[test]
    fn hinted_reads_match_plain_reads() {
        let first = [1u32, 2, 3, 4];
        let second = [5u32, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
        let mut mem = LendingMemory::new();
        mem.lend(0xC000_0000, &first).unwrap();
        mem.lend(0xC000_0010, &second).unwrap();
        mem.lend(0xC001_0000, &second).unwrap();
        for addr in (0xBFFF_FFF0u32..0xC000_0060)
            .step_by(4)
            .chain([0xC001_0000, 0xFFFF_FFFC])
        {
            for len in [4, 16, 64] {
                for start in 0..5 {
                    let mut hint = start;
                    assert_eq!(
                        mem.read_bytes_near(addr, len, &mut hint),
                        mem.read_bytes(addr, len),
                        "{addr:#x} + {len}, hint {start}"
                    );
                }
            }
        }
    }

    /// `write_u32_near` does what `write_u32` does for every hint, including stale and
    /// out-of-range ones: the same result, and the same words afterwards, also for words lent
    /// read-only, unaligned addresses and addresses outside every allocation.
    #[test]
    fn hinted_writes_match_plain_writes() {
        let table = [1u32, 2, 3, 4];
        let fresh = || {
            let mut mem = LendingMemory::new();
            mem.lend(0xC000_0000, &table).unwrap();
            mem.alloc_at(0xC000_0010, 64).unwrap();
            mem.alloc_at(0xC001_0000, 16).unwrap();
            mem
        };
        let snapshot = |mem: &LendingMemory<'_>| {
            [(0xC000_0000u32, 4u32), (0xC000_0010, 16), (0xC001_0000, 4)]
                .map(|(addr, n)| mem.read_u32s(addr, n).unwrap())
        };
        for addr in (0xBFFF_FFF0u32..0xC000_0060).step_by(2).chain([
            0xC001_0000,
            0xC001_000C,
            0xC001_0010,
            0xFFFF_FFFC,
        ]) {
            for start in 0..5 {
                let (mut plain, mut hinted) = (fresh(), fresh());
                let mut hint = start;
                assert_eq!(
                    hinted.write_u32_near(addr, 0x1298, &mut hint),
                    plain.write_u32(addr, 0x1298),
                    "{addr:#x}, hint {start}"
                );
                assert_eq!(
                    snapshot(&hinted),
                    snapshot(&plain),
                    "{addr:#x}, hint {start}"
                );
            }
        }
    }
}

//! GPU memory: firmware allocations, their bus and physical addresses, and host mappings.
//!
//! Facts used:
//! - The VideoCore sees SDRAM through four 1 GiB bus aliases selected by the top two address
//!   bits; the allocation flags pick the alias (`MEM_FLAG_DIRECT`: "0xC alias uncached",
//!   `MEM_FLAG_COHERENT`: "0x8 alias", firmware wiki / Broadcom `mailbox.h`). The ARM physical
//!   address is the bus address with those two bits cleared: GPU_FFT's `BUS_TO_PHYS(x)` is
//!   `x & ~0xC0000000`.
//! - GPU_FFT allocates with `MEM_FLAG_DIRECT` on Pi 2 and later because "ARM cannot see VC4 L2
//!   on Pi 2", and maps the memory through `/dev/mem` opened `O_RDWR|O_SYNC`, which gives an
//!   uncached ARM mapping. This crate does the same on every board: the ARM and the QPUs then
//!   see the same bytes without cache maintenance.
//! - Which kind of uncached: Linux picks the page attributes of a /dev/mem mapping in
//!   `phys_mem_access_prot` (`arch/arm/mm/mmu.c`, `arch/arm64/mm/mmu.c`): memory outside the
//!   kernel's own RAM map gets `pgprot_noncached`. The VideoCore's split is outside it (Linux
//!   is given only the ARM part of the `gpu_mem` split), so GPU memory is mapped
//!   Strongly-ordered (ARMv7) / Device-nGnRnE (ARMv8). There, unaligned accesses raise an
//!   alignment fault, and so does AArch64's `DC ZVA` cache-zeroing instruction (ARM
//!   Architecture Reference Manuals, "Alignment" and `DC ZVA`). Single aligned word accesses,
//!   as this crate makes, are always fine. Slices of the mapping (`GpuMemory::as_words`) are
//!   too when used element by element (though the compiler may turn a copying loop into a
//!   `memcpy` call), but a bulk `copy_from_slice`/`fill` compiles to the C
//!   library's `memcpy`/`memset`, which may use unaligned, overlapping or `DC ZVA` accesses and
//!   then dies with SIGBUS. Not yet seen on hardware; see `RUNNING_ON_PI.md`.

use crate::error::PiError;
use std::io;
use std::ptr::NonNull;

/// Clears the two alias bits of a bus address, giving the ARM physical address.
pub const fn bus_to_physical(bus: u32) -> u32 {
    bus & !0xC000_0000
}

/// The bus alias bits of a bus address (0x0, 0x4, 0x8 or 0xC in the top nibble).
pub const fn bus_alias(bus: u32) -> u32 {
    bus & 0xC000_0000
}

/// Page size used for allocation granularity and mapping alignment.
pub const PAGE_BYTES: usize = 4096;

/// Rounds a byte count up to whole pages; `None` on overflow or beyond the 32-bit bus.
pub fn round_to_pages(bytes: usize) -> Option<usize> {
    let pages = bytes.checked_add(PAGE_BYTES - 1)? / PAGE_BYTES;
    let rounded = pages.checked_mul(PAGE_BYTES)?;
    (rounded <= u32::MAX as usize).then_some(rounded)
}

/// A window of physical memory mapped into this process.
///
/// Indices are in words from the start of the window. Out-of-range indices read as 0 and
/// writes to them are ignored; callers check bounds first and report errors.
///
/// # Safety
///
/// The buffers of both backends ([`GpuMemory`](crate::GpuMemory),
/// [`V3dBuffer`](crate::v3d::V3dBuffer)) turn [`Self::memory_words`] into Rust slices, so an
/// implementation that returns `Some(base)` promises, for as long as the region value exists
/// (from its creation until its `drop` starts):
/// - `base` is aligned for `u32`, and the `len_words() * 4` bytes from `base` on are mapped
///   readable and writable in this process at that address;
/// - those bytes belong to no Rust allocation and no other object hands out references to
///   them: this region is the process's only way to them (the device on the other side of the
///   mapping is the only other agent);
/// - `read_word(i)` and `write_word(i, _)` access the word at `base + i` and never create a
///   reference to the window (raw or volatile accesses only), so they cannot invalidate a
///   slice borrowed from `base`.
///
/// Windows whose accesses have side effects (register blocks) return `None`.
pub unsafe trait MappedRegion: Send {
    /// Window length in 32-bit words.
    fn len_words(&self) -> usize;
    /// Reads one word.
    fn read_word(&self, index: usize) -> u32;
    /// Writes one word.
    fn write_word(&mut self, index: usize, value: u32);
    /// Word 0 of the window when it is plain memory that may be viewed as a slice (see the
    /// trait's safety section); `None` for register windows.
    fn memory_words(&self) -> Option<NonNull<u32>>;
}

/// Maps physical memory into this process.
pub trait PhysicalMemory: Send {
    /// Maps `len_bytes` bytes starting at physical address `physical`.
    fn map(&mut self, physical: u64, len_bytes: usize) -> io::Result<Box<dyn MappedRegion>>;
}

/// `/dev/mem`, opened `O_RDWR | O_SYNC` so mappings are uncached.
#[cfg(target_os = "linux")]
pub struct DevMem {
    file: std::fs::File,
}

#[cfg(target_os = "linux")]
impl DevMem {
    /// Opens `/dev/mem`.
    pub fn open() -> io::Result<Self> {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_SYNC)
            .open(crate::system::paths::DEV_MEM)?;
        Ok(DevMem { file })
    }
}

#[cfg(target_os = "linux")]
impl PhysicalMemory for DevMem {
    fn map(&mut self, physical: u64, len_bytes: usize) -> io::Result<Box<dyn MappedRegion>> {
        use std::os::fd::AsRawFd;
        let page_offset = (physical % PAGE_BYTES as u64) as usize;
        let aligned = physical - page_offset as u64;
        let map_len = len_bytes
            .checked_add(page_offset)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "mapping too long"))?;
        if len_bytes == 0 || !len_bytes.is_multiple_of(4) || !physical.is_multiple_of(4) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "mappings must start on a 4-byte boundary and be a non-zero multiple of 4 bytes",
            ));
        }
        let offset = libc::off_t::try_from(aligned).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("physical address 0x{aligned:x} does not fit off_t"),
            )
        })?;
        // SAFETY: mmap with a null hint chooses a fresh address range, so no existing Rust
        // object is aliased. The descriptor is a live /dev/mem handle; the kernel checks the
        // offset and length and returns MAP_FAILED on any problem, which is handled below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                self.file.as_raw_fd(),
                offset,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Box::new(DevMemRegion {
            base,
            map_len,
            // SAFETY: page_offset < map_len, so the pointer stays inside the new mapping, and
            // it is a multiple of 4 (physical was checked to be 4-byte aligned above and the
            // mapping itself is page-aligned), so the u32 pointer is aligned.
            words: unsafe { base.cast::<u8>().add(page_offset) }.cast::<u32>(),
            len_words: len_bytes / 4,
        }))
    }
}

/// One `/dev/mem` mapping; unmapped on drop.
#[cfg(target_os = "linux")]
struct DevMemRegion {
    base: *mut libc::c_void,
    map_len: usize,
    words: *mut u32,
    len_words: usize,
}

// SAFETY: the region owns its mapping exclusively; device memory may be touched from any thread
// and every access is a single volatile word access.
#[cfg(target_os = "linux")]
unsafe impl Send for DevMemRegion {}

// SAFETY: `words` points `page_offset` bytes into a fresh `mmap` of `map_len >= len_words * 4
// + page_offset` bytes made in `DevMem::map` and only unmapped in `drop`, so the window stays
// mapped, readable and writable (PROT_READ | PROT_WRITE) at that address for the region's whole
// life. It is 4-byte aligned (see `DevMem::map`). A null-hint mmap picks addresses no Rust
// allocation uses, and the region never gives out references itself: `read_word`/`write_word`
// are volatile raw-pointer accesses.
#[cfg(target_os = "linux")]
unsafe impl MappedRegion for DevMemRegion {
    fn len_words(&self) -> usize {
        self.len_words
    }

    fn memory_words(&self) -> Option<NonNull<u32>> {
        NonNull::new(self.words)
    }

    fn read_word(&self, index: usize) -> u32 {
        if index >= self.len_words {
            return 0;
        }
        // SAFETY: index < len_words, so the word lies inside the live mapping created in
        // DevMem::map; volatile because the GPU changes this memory behind the compiler's back.
        unsafe { self.words.add(index).read_volatile() }
    }

    fn write_word(&mut self, index: usize, value: u32) {
        if index >= self.len_words {
            return;
        }
        // SAFETY: as in read_word; the mapping is writable (PROT_WRITE).
        unsafe { self.words.add(index).write_volatile(value) }
    }
}

#[cfg(target_os = "linux")]
impl Drop for DevMemRegion {
    fn drop(&mut self) {
        // SAFETY: base/map_len are exactly what mmap returned and were given; the region is
        // dropped once. No reference into it outlives it: the only slices over the window are
        // borrowed from the `GpuMemory` that owns this region, so they end before it drops.
        unsafe {
            libc::munmap(self.base, self.map_len);
        }
    }
}

/// Checks that `start..start+count` lies inside a buffer of `len` words.
pub(crate) fn check_range(start: usize, count: usize, len: usize) -> Result<(), PiError> {
    match start.checked_add(count) {
        Some(end) if end <= len => Ok(()),
        _ => Err(PiError::OutOfBounds { index: start, len }),
    }
}

/// Which backend's buffer a [`MappedWords`] belongs to, for its errors.
#[derive(Clone, Copy, Debug)]
pub(crate) enum BufferKind {
    /// A VideoCore IV firmware allocation ([`GpuMemory`](crate::GpuMemory)), by bus address.
    Vc4 { bus_address: u32 },
    /// A V3D buffer object ([`V3dBuffer`](crate::v3d::V3dBuffer)), by GPU address.
    V3d { gpu_address: u32 },
}

impl BufferKind {
    fn invalid(self) -> PiError {
        match self {
            BufferKind::Vc4 { bus_address } => PiError::OutputInvalid { bus_address },
            BufferKind::V3d { gpu_address } => PiError::V3dBufferInvalid { gpu_address },
        }
    }

    fn no_slice(self) -> PiError {
        match self {
            BufferKind::Vc4 { bus_address } => PiError::NoSliceAccess { bus_address },
            BufferKind::V3d { gpu_address } => PiError::V3dNoSliceAccess { gpu_address },
        }
    }

    fn released(self) -> PiError {
        PiError::Internal(match self {
            BufferKind::Vc4 { .. } => "GPU buffer used after unmapping".to_string(),
            BufferKind::V3d { .. } => "V3D buffer used after release".to_string(),
        })
    }
}

/// The host side of a GPU buffer, as both Pi backends keep it: its mapping and length. Word
/// accesses work at any time (they make no reference to the memory); slice views and checked
/// reads only while the owner says the buffer is valid (`valid`: no job of a failed launch
/// may still be writing it). The owner releases the mapping in its `drop`, before it gives
/// the memory back.
pub(crate) struct MappedWords {
    region: Option<Box<dyn MappedRegion>>,
    len_words: usize,
    kind: BufferKind,
}

impl MappedWords {
    pub(crate) fn new(region: Box<dyn MappedRegion>, len_words: usize, kind: BufferKind) -> Self {
        MappedWords {
            region: Some(region),
            len_words,
            kind,
        }
    }

    pub(crate) fn len_words(&self) -> usize {
        self.len_words
    }

    /// Unmaps: no access works afterwards.
    pub(crate) fn release(&mut self) {
        drop(self.region.take());
    }

    fn region(&self) -> Result<&dyn MappedRegion, PiError> {
        self.region.as_deref().ok_or_else(|| self.kind.released())
    }

    fn region_mut(&mut self) -> Result<&mut dyn MappedRegion, PiError> {
        let kind = self.kind;
        match self.region.as_deref_mut() {
            Some(region) => Ok(region),
            None => Err(kind.released()),
        }
    }

    fn check_valid(&self, valid: bool) -> Result<(), PiError> {
        if valid {
            Ok(())
        } else {
            Err(self.kind.invalid())
        }
    }

    /// Word 0 of the mapping and its length in words, for the slice views.
    fn slice_parts(&self, valid: bool) -> Result<(NonNull<u32>, usize), PiError> {
        self.check_valid(valid)?;
        let region = self.region()?;
        let base = region.memory_words().ok_or_else(|| self.kind.no_slice())?;
        Ok((base, region.len_words().min(self.len_words)))
    }

    /// The whole buffer as a slice of its mapping (see `GpuMemory::as_words` and
    /// `V3dBuffer::as_words`).
    pub(crate) fn as_words(&self, valid: bool) -> Result<&[u32], PiError> {
        let (base, len) = self.slice_parts(valid)?;
        // SAFETY: `from_raw_parts` needs `base` non-null and aligned, `len` initialised u32s
        // readable from it for the whole borrow, no mutation of them while the borrow lives,
        // and `len * 4 <= isize::MAX`.
        // - Non-null, aligned, readable: `MappedRegion` is an unsafe trait whose implementors
        //   promise that `Some(base)` from `memory_words` is u32-aligned and mapped readable and
        //   writable for `len_words()` words until the region drops (`len` is at most that). The
        //   region drops only in `release`, which takes `&mut self`, and the slice borrows
        //   `self`, so the mapping outlives the slice.
        // - Initialised: mapped memory always holds bits, and every bit pattern is a valid u32.
        // - No mutation by this process while borrowed: the region is the process's only way to
        //   these bytes (its contract; the firmware never hands out overlapping allocations,
        //   and each backend maps each allocation or buffer object once). Every path here that
        //   writes them (`write_u32`, `write_words`, `as_words_mut`) takes `&mut self`, which
        //   the borrow checker refuses while this `&self` borrow lives.
        // - No mutation by the GPU while borrowed: the QPUs write memory only while a launch
        //   runs. Both backends' launches (`Gpu::launch_buffers`, `V3d::launch`) take every
        //   slice their programs may write as `&mut [u32]` (so no slice of it can exist
        //   elsewhere then) and read-only ones as `&[u32]`, checking afterwards that those did
        //   not change. A launch that failed or timed out may leave a program running, so it
        //   marks every buffer of its device invalid, and the owner passes that as `valid`,
        //   which this function refuses (above) until the owner's `mark_valid`. Programs can
        //   reach memory they were not lent (raw bus addresses through `Gpu::launch`, any
        //   buffer object through the V3D's MMU); that is outside what Rust can check, as
        //   `/proc/self/mem` is, and the launches report it when it was a lent buffer's.
        // - Size: the mapping exists in this address space, so it is below isize::MAX bytes.
        // The slice sees what the GPU wrote without cache maintenance: on the VideoCore IV the
        // ARM mapping is uncached (/dev/mem with O_SYNC) and the 0xC bus alias bypasses the
        // VideoCore's L2 (module docs); a V3D buffer object's mapping is write-combined
        // (uncached; Linux `v3d_create_object`), and the kernel follows each CSD job with a
        // cache-clean job its wait covers (`v3d_setup_csd_jobs_and_bos`).
        Ok(unsafe { std::slice::from_raw_parts(base.as_ptr(), len) })
    }

    /// The same, writable.
    pub(crate) fn as_words_mut(&mut self, valid: bool) -> Result<&mut [u32], PiError> {
        let (base, len) = self.slice_parts(valid)?;
        // SAFETY: as in `as_words` (alignment, mapping lifetime tied to the borrow, size, the
        // GPU not writing while no launch runs, invalid buffers refused), plus exclusivity:
        // this borrow is `&mut self`, so no other slice of this buffer (from `as_words` or an
        // earlier `as_words_mut`) and no word access can exist while it lives, and `base` is a
        // raw pointer from the region, not derived from a shared reference, so writing through
        // it is allowed (the mapping is writable).
        Ok(unsafe { std::slice::from_raw_parts_mut(base.as_ptr(), len) })
    }

    /// Copies `out.len()` words from `start` on, one volatile word at a time, valid or not.
    pub(crate) fn salvage(&self, start: usize, out: &mut [u32]) -> Result<(), PiError> {
        check_range(start, out.len(), self.len_words)?;
        let region = self.region()?;
        for (offset, word) in out.iter_mut().enumerate() {
            *word = region.read_word(start + offset);
        }
        Ok(())
    }

    /// The same, refused while the buffer is invalid.
    pub(crate) fn read_words(
        &self,
        valid: bool,
        start: usize,
        out: &mut [u32],
    ) -> Result<(), PiError> {
        check_range(start, out.len(), self.len_words)?;
        self.check_valid(valid)?;
        self.salvage(start, out)
    }

    /// Writes `words` from word `start` on (also on an invalid buffer, to refill it).
    pub(crate) fn write_words(&mut self, start: usize, words: &[u32]) -> Result<(), PiError> {
        check_range(start, words.len(), self.len_words)?;
        let region = self.region_mut()?;
        for (offset, &word) in words.iter().enumerate() {
            region.write_word(start + offset, word);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bus_addresses_translate_by_clearing_alias_bits() {
        // The four aliases of physical 0x0123_4000.
        for alias in [0x0000_0000u32, 0x4000_0000, 0x8000_0000, 0xC000_0000] {
            assert_eq!(bus_to_physical(alias | 0x0123_4000), 0x0123_4000);
            assert_eq!(bus_alias(alias | 0x0123_4000), alias);
        }
        // Pi 3 with gpu_mem=76: the VideoCore split starts at 0x3b400000.
        assert_eq!(bus_to_physical(0xFB40_0000), 0x3B40_0000);
        // Pi 1: SDRAM bus alias 0x40000000 (bcm_host_get_sdram_address on BCM2835).
        assert_eq!(bus_to_physical(0x5C00_0000), 0x1C00_0000);
    }

    #[test]
    fn page_rounding() {
        assert_eq!(round_to_pages(0), Some(0));
        assert_eq!(round_to_pages(1), Some(4096));
        assert_eq!(round_to_pages(4096), Some(4096));
        assert_eq!(round_to_pages(4097), Some(8192));
        assert_eq!(round_to_pages(usize::MAX), None);
        if usize::BITS > 32 {
            assert_eq!(round_to_pages(u32::MAX as usize + 1), None);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn dev_mem_refuses_unaligned_mappings_before_mmap() {
        // Opening /dev/mem needs root; where it opens, the checks must refuse before mmap.
        let Ok(mut dev_mem) = DevMem::open() else {
            return;
        };
        for (physical, len) in [(2u64, 4usize), (0, 0), (0, 6)] {
            let error = dev_mem.map(physical, len).err().expect("refused");
            assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        }
    }

    #[test]
    fn ranges() {
        assert!(check_range(0, 4, 4).is_ok());
        assert!(check_range(3, 1, 4).is_ok());
        assert!(matches!(
            check_range(3, 2, 4),
            Err(PiError::OutOfBounds { index: 3, len: 4 })
        ));
        assert!(check_range(usize::MAX, 2, 4).is_err());
    }
}

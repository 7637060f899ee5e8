//! A shared array on a Pi backend: GPU memory viewed through its mapping, until a failed
//! launch detaches it to a host copy (see the module docs of [`super::pi`] and
//! [`super::v3d_pi`]).

use std::sync::OnceLock;

use qpu_pi::v3d::V3dBuffer;
use qpu_pi::{GpuMemory, LaunchBuffer, PiError};

use super::staging::TAIL_MARGIN;
use super::{Buffer, BufferWords, SharedMemory};
use crate::error::{Error, Result};

/// The bytes of GPU memory an array of `words` words takes: the words and the zeroed margin
/// after them (a kernel prefetching one vector past the end reads zeros there).
pub(super) fn array_bytes(words: usize) -> Result<usize> {
    words
        .checked_mul(4)
        .and_then(|bytes| bytes.checked_add(TAIL_MARGIN as usize))
        .ok_or_else(|| Error::Alloc {
            words,
            reason: "size overflows".to_string(),
        })
}

/// A launch's arrays as the buffers a Pi launch borrows: exclusively those passed as `&mut`,
/// shared those passed as `&SharedArray`.
pub(super) fn lend_arrays<'b>(buffers: &'b mut [Buffer<'_>]) -> Vec<LaunchBuffer<'b>> {
    buffers
        .iter_mut()
        .map(|buffer| match &mut buffer.words {
            BufferWords::ReadOnly(words) => LaunchBuffer::Read(words),
            BufferWords::ReadWrite(words) => LaunchBuffer::Write(words),
        })
        .collect()
}

/// The GPU memory an array lives in: VideoCore IV memory from the firmware, or a Pi 4/5
/// buffer object.
pub(super) trait ArrayMemory: Send {
    /// The address the QPUs see for word 0.
    fn address(&self) -> u32;
    /// The mapping as words, unless the memory is marked invalid.
    fn words(&self) -> Result<&[u32], PiError>;
    /// The same, writable.
    fn words_mut(&mut self) -> Result<&mut [u32], PiError>;
    /// Copies the words from `start` into `out` one word at a time, also from invalid memory.
    fn salvage(&self, start: usize, out: &mut [u32]) -> Result<(), PiError>;
    /// Copies `src` in from word 0 when the mapping needs word-sized accesses (device memory);
    /// `None` when a plain slice copy is fine.
    fn write_each(&mut self, src: &[u32]) -> Option<Result<(), PiError>>;
    /// Copies words out from word 0 into `dst`, as for [`Self::write_each`].
    fn read_each(&self, dst: &mut [u32]) -> Option<Result<(), PiError>>;
}

impl ArrayMemory for GpuMemory {
    fn address(&self) -> u32 {
        self.bus_address()
    }
    fn words(&self) -> Result<&[u32], PiError> {
        self.as_words()
    }
    fn words_mut(&mut self) -> Result<&mut [u32], PiError> {
        self.as_words_mut()
    }
    fn salvage(&self, start: usize, out: &mut [u32]) -> Result<(), PiError> {
        self.salvage_words(start, out)
    }
    // The uncached mapping is device memory: one aligned word at a time through qpu_pi.
    fn write_each(&mut self, src: &[u32]) -> Option<Result<(), PiError>> {
        Some(self.write_words(0, src))
    }
    fn read_each(&self, dst: &mut [u32]) -> Option<Result<(), PiError>> {
        Some(self.read_words(0, dst))
    }
}

impl ArrayMemory for V3dBuffer {
    fn address(&self) -> u32 {
        self.gpu_address()
    }
    fn words(&self) -> Result<&[u32], PiError> {
        self.as_words()
    }
    fn words_mut(&mut self) -> Result<&mut [u32], PiError> {
        self.as_words_mut()
    }
    fn salvage(&self, start: usize, out: &mut [u32]) -> Result<(), PiError> {
        self.salvage_words(start, out)
    }
    // The mapping is write-combined normal memory (Linux `v3d_create_object`), where whole
    // slice copies are fine.
    fn write_each(&mut self, _: &[u32]) -> Option<Result<(), PiError>> {
        None
    }
    fn read_each(&self, _: &mut [u32]) -> Option<Result<(), PiError>> {
        None
    }
}

/// A shared array in GPU memory, viewed through its mapping.
pub(super) struct GpuArray<M> {
    memory: M,
    /// Words visible to the host; the margin and page rounding after them are not.
    len: usize,
    /// After a failed launch: a host copy of what the memory held when the array was next
    /// touched. Once set, the array never goes back to its GPU memory.
    detached: OnceLock<Box<[u32]>>,
}

impl<M: ArrayMemory> GpuArray<M> {
    /// The first `len` words of `memory` as an array.
    pub(super) fn new(memory: M, len: usize) -> GpuArray<M> {
        GpuArray {
            memory,
            len,
            detached: OnceLock::new(),
        }
    }

    /// The first `len` words of the memory, or `None` when they cannot be borrowed (the
    /// memory is marked invalid).
    fn gpu_words(&self) -> Option<&[u32]> {
        if self.detached.get().is_some() {
            return None;
        }
        self.memory.words().ok()?.get(..self.len)
    }

    /// The host copy, made on first use from what the memory holds now.
    fn detach(&self) -> &[u32] {
        self.detached.get_or_init(|| {
            let mut copy = vec![0; self.len];
            // Word by word: no reference to memory a runaway program may still write.
            let _ = self.memory.salvage(0, &mut copy);
            copy.into_boxed_slice()
        })
    }
}

impl<M: ArrayMemory> SharedMemory for GpuArray<M> {
    fn bus_address(&self) -> u32 {
        self.memory.address()
    }

    fn write_words(&mut self, src: &[u32]) {
        let done =
            self.gpu_words().is_some() && matches!(self.memory.write_each(src), Some(Ok(())));
        if !done {
            self.words_mut()[..src.len()].copy_from_slice(src);
        }
    }

    fn read_words(&self, dst: &mut [u32]) {
        let done = self.gpu_words().is_some() && matches!(self.memory.read_each(dst), Some(Ok(())));
        if !done {
            dst.copy_from_slice(&self.words()[..dst.len()]);
        }
    }

    fn words(&self) -> &[u32] {
        match self.gpu_words() {
            Some(words) => words,
            None => self.detach(),
        }
    }

    fn words_mut(&mut self) -> &mut [u32] {
        if self.gpu_words().is_none() {
            self.detach();
        }
        let len = self.len;
        if self.detached.get().is_none() {
            match self.memory.words_mut() {
                Ok(words) if words.len() >= len => return &mut words[..len],
                // Only when another thread's launch failed since the check above: the memory
                // may no longer be read, so the copy starts zeroed.
                _ => {
                    let _ = self.detached.set(vec![0; len].into_boxed_slice());
                }
            }
        }
        match self.detached.get_mut() {
            Some(copy) => copy,
            None => &mut [],
        }
    }
}

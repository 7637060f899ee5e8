//! An in-process stand-in for the VideoCore firmware, its memory and the V3D registers.
//!
//! It follows the documented contracts this crate relies on, and records every violation of
//! them, so the launch and memory logic can be tested on machines without a Pi:
//! - the property interface (firmware wiki): size word, request code 0, tag headers with the
//!   request bit clear, value buffers large enough, an end tag; responses set bit 31 and the
//!   length, and word 1 becomes 0x8000_0000; a malformed buffer is answered the way the Linux
//!   vcio driver reports it (the ioctl fails with `EINVAL`); unknown tags stay unanswered;
//! - allocate/lock/unlock/release with handles and bus addresses in the alias the flags select;
//!   memory starts zeroed with `MEM_FLAG_ZERO` and all ones otherwise (the wiki's default);
//! - execute-QPU reading (uniforms, code) pairs from GPU memory and answering 0 or
//!   0x8000_0000 on timeout;
//! - the V3D scheduler registers: SRQUA latches, SRQPC enqueues (an overflowing 17th request
//!   sets the error bit), SRQCS reports queue length, requests and completions and clears them
//!   when 1s are written to bits 7, 8 and 16; IDENT0 reads "V3D" version 2.
//!
//! It does not execute QPU code. Each job is handed to an executor closure that may read and
//! write GPU memory by bus address (a test can plug in a model of its kernel, or an emulator)
//! and says whether the job completes or hangs.

use crate::board::BoardInfo;
use crate::error::PiError;
use crate::gpu::{Gpu, Registers};
use crate::launch::{Job, QPU_COUNT};
use crate::mailbox::Mailbox;
use crate::memory::{bus_to_physical, MappedRegion, PhysicalMemory};
use crate::property::{self, mem_flag, Tag, TAG_RESPONSE_BIT};
use crate::registers::{self, RegisterFile};
use crate::system::{PiInfo, V3D_REGISTER_BYTES};
use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex, MutexGuard};

/// The stand-in's GPU memory: one heap block that never moves, reached only through raw
/// pointers, as SDRAM is reached by both the ARM (through mappings) and the QPUs.
///
/// No Rust reference to the block is ever made here, so the slices that
/// [`GpuMemory`](crate::GpuMemory) borrows over a mapped window are the only references into
/// it, exactly as with `/dev/mem`. The model's own accesses (executors, [`FakeVideoCore::read_bus`],
/// allocation fills) play the GPU's part: they are raw accesses from outside Rust's view of
/// those slices, and the same launch contract applies to them (see `GpuMemory::as_words`).
struct Ram {
    base: *mut u32,
    len_words: usize,
}

// SAFETY: `Ram` owns its block exclusively (it frees it on drop) and holds no thread-bound
// state; the raw pointer only stops the compiler from deriving Send automatically. The state
// that contains it is only reached through a `Mutex`.
unsafe impl Send for Ram {}

impl Ram {
    fn zeroed(len_words: usize) -> Ram {
        let block: Box<[u32]> = vec![0; len_words].into_boxed_slice();
        Ram {
            base: Box::into_raw(block).cast::<u32>(),
            len_words,
        }
    }

    fn len_words(&self) -> usize {
        self.len_words
    }

    /// Word `index`, or `None` past the end.
    fn read(&self, index: usize) -> Option<u32> {
        (index < self.len_words).then(|| {
            // SAFETY: index < len_words, so the word lies inside the block allocated in
            // `zeroed`, which lives until `drop`; the pointer came from `Box::into_raw`, so it is
            // aligned and carries the whole block's provenance. Volatile, like a device access.
            unsafe { self.base.add(index).read_volatile() }
        })
    }

    /// Writes word `index`; false past the end.
    fn write(&mut self, index: usize, value: u32) -> bool {
        if index >= self.len_words {
            return false;
        }
        // SAFETY: as in `read`; the block is writable (it came from a `Box`).
        unsafe { self.base.add(index).write_volatile(value) };
        true
    }

    /// Word `index` as a pointer, for a mapped window starting there.
    fn word_pointer(&self, index: usize) -> Option<NonNull<u32>> {
        if index > self.len_words {
            return None;
        }
        // `wrapping_add` keeps this free of unsafe; `index <= len_words` keeps the result inside
        // the block or one past its end, so it is a valid pointer for the window's accesses.
        NonNull::new(self.base.wrapping_add(index))
    }
}

impl Drop for Ram {
    fn drop(&mut self) {
        // SAFETY: `base` and `len_words` are exactly the pointer and length of the boxed slice
        // made in `zeroed`, rebuilt once here. Every window mapped over the block holds a clone
        // of the `FakeVideoCore` that owns this state, so no window outlives the block.
        drop(unsafe {
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                self.base,
                self.len_words,
            ))
        });
    }
}

/// What an executor says about a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobOutcome {
    /// The program ended (and raised the host interrupt).
    Complete,
    /// The program never ends.
    Hang,
}

/// GPU memory as an executor sees it: 32-bit words by bus address.
pub struct BusMemory<'a> {
    state: &'a mut FakeState,
}

impl BusMemory<'_> {
    /// Reads the word at `bus_address`, or `None` outside the GPU memory split.
    pub fn read(&self, bus_address: u32) -> Option<u32> {
        self.state
            .ram_index(bus_address)
            .and_then(|i| self.state.ram.read(i))
    }

    /// Writes the word at `bus_address`; false outside the GPU memory split.
    pub fn write(&mut self, bus_address: u32, value: u32) -> bool {
        match self.state.ram_index(bus_address) {
            Some(i) => self.state.ram.write(i, value),
            None => false,
        }
    }
}

/// A job handler: gets GPU memory and the job, says whether the job completes.
pub type Executor = Box<dyn FnMut(&mut BusMemory<'_>, Job) -> JobOutcome + Send>;

/// Settings of the stand-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeConfig {
    /// Revision code the firmware reports (default a02082, a Pi 3 Model B).
    pub revision_code: u32,
    /// Firmware revision the firmware reports.
    pub firmware_revision: u32,
    /// ARM physical address where the VideoCore memory split starts.
    pub vc_base: u32,
    /// Size of the split (what `gpu_mem=` configures).
    pub gpu_mem_bytes: u32,
    /// ARM physical address of the peripheral window.
    pub peripheral_base: u32,
    /// Status SET_ENABLE_QPU answers when enabling (0 = success).
    pub qpu_enable_status: u32,
    /// How many SRQCS reads a queued job takes to complete on the direct path.
    pub completion_polls: u32,
    /// Whether a hung job blocks every later job (a wedged GPU) or only its own QPU.
    pub hang_wedges_gpu: bool,
}

impl Default for FakeConfig {
    fn default() -> Self {
        FakeConfig {
            revision_code: 0xa02082,
            firmware_revision: 0x5e0c_1b2a,
            vc_base: 0x3b40_0000,
            gpu_mem_bytes: 4 * 1024 * 1024,
            peripheral_base: 0x3f00_0000,
            qpu_enable_status: 0,
            completion_polls: 3,
            hang_wedges_gpu: true,
        }
    }
}

#[derive(Debug, Clone)]
struct Allocation {
    offset: usize,
    size: usize,
    flags: u32,
    locked: bool,
}

struct QueuedJob {
    job: Job,
    polls_left: u32,
}

struct FakeState {
    config: FakeConfig,
    ram: Ram,
    allocations: BTreeMap<u32, Allocation>,
    next_handle: u32,
    qpus_enabled: bool,
    tags: Vec<u32>,
    violations: Vec<String>,
    executor: Option<Executor>,
    wedged: bool,
    hung: usize,
    queue: VecDeque<QueuedJob>,
    uniforms_latch: u32,
    requests: u32,
    completed: u32,
    queue_error: bool,
    l2_clears: usize,
    slice_clears: usize,
    other_registers: BTreeMap<u32, u32>,
    jobs_run: Vec<Job>,
    flush_requests: Vec<bool>,
}

impl FakeState {
    fn ram_index(&self, bus_address: u32) -> Option<usize> {
        let physical = bus_to_physical(bus_address);
        let offset = physical.checked_sub(self.config.vc_base)? as usize;
        if !offset.is_multiple_of(4) || offset >= self.ram.len_words() * 4 {
            return None;
        }
        Some(offset / 4)
    }

    fn alias_for(flags: u32) -> u32 {
        // Firmware wiki / mailbox.h: DIRECT = "0xC alias uncached", COHERENT = "0x8 alias";
        // DIRECT|COHERENT (L1_NONALLOCATING) is the remaining cached alias 0x4; NORMAL 0x0.
        match flags & mem_flag::L1_NONALLOCATING {
            mem_flag::DIRECT => 0xC000_0000,
            mem_flag::COHERENT => 0x8000_0000,
            mem_flag::L1_NONALLOCATING => 0x4000_0000,
            _ => 0x0000_0000,
        }
    }

    fn allocate(&mut self, size: u32, alignment: u32, flags: u32) -> u32 {
        let size = size as usize;
        let alignment = (alignment as usize).max(4);
        if size == 0 || !alignment.is_power_of_two() {
            self.violations
                .push(format!("ALLOCATE_MEMORY size {size} alignment {alignment}"));
            return 0;
        }
        // First fit between existing allocations, in address order.
        let mut spans: Vec<(usize, usize)> = self
            .allocations
            .values()
            .map(|a| (a.offset, a.offset + a.size))
            .collect();
        spans.sort_unstable();
        let mut candidate = 0usize;
        for (start, end) in spans {
            if candidate.div_ceil(alignment) * alignment + size <= start {
                break; // the gap before this allocation fits
            }
            candidate = candidate.max(end);
        }
        let offset = candidate.div_ceil(alignment) * alignment;
        if offset + size > self.ram.len_words() * 4 {
            return 0;
        }
        let fill = if flags & mem_flag::ZERO != 0 {
            0
        } else {
            u32::MAX
        };
        if flags & mem_flag::NO_INIT == 0 {
            let words = size.div_ceil(4);
            for index in offset / 4..offset / 4 + words {
                self.ram.write(index, fill);
            }
        }
        let handle = self.next_handle;
        self.next_handle += 1;
        self.allocations.insert(
            handle,
            Allocation {
                offset,
                size,
                flags,
                locked: false,
            },
        );
        handle
    }

    fn lock(&mut self, handle: u32) -> u32 {
        let vc_base = self.config.vc_base;
        match self.allocations.get_mut(&handle) {
            Some(allocation) => {
                allocation.locked = true;
                Self::alias_for(allocation.flags) | (vc_base + allocation.offset as u32)
            }
            None => {
                self.violations
                    .push(format!("LOCK_MEMORY of unknown handle {handle}"));
                0
            }
        }
    }

    fn unlock(&mut self, handle: u32) -> u32 {
        match self.allocations.get_mut(&handle) {
            Some(allocation) if allocation.locked => {
                allocation.locked = false;
                0
            }
            Some(_) => {
                self.violations
                    .push(format!("UNLOCK_MEMORY of unlocked handle {handle}"));
                1
            }
            None => {
                self.violations
                    .push(format!("UNLOCK_MEMORY of unknown handle {handle}"));
                1
            }
        }
    }

    fn release(&mut self, handle: u32) -> u32 {
        match self.allocations.remove(&handle) {
            Some(allocation) => {
                if allocation.locked {
                    self.violations
                        .push(format!("RELEASE_MEMORY of still-locked handle {handle}"));
                }
                0
            }
            None => {
                self.violations
                    .push(format!("RELEASE_MEMORY of unknown handle {handle}"));
                1
            }
        }
    }

    fn run_job(&mut self, job: Job) -> JobOutcome {
        self.jobs_run.push(job);
        if self.wedged || self.hung >= QPU_COUNT {
            return JobOutcome::Hang;
        }
        let mut executor = self.executor.take();
        let outcome = match executor.as_mut() {
            Some(run) => run(&mut BusMemory { state: self }, job),
            None => JobOutcome::Complete,
        };
        self.executor = executor;
        if outcome == JobOutcome::Hang {
            self.hung += 1;
            if self.config.hang_wedges_gpu {
                self.wedged = true;
            }
        }
        outcome
    }

    fn execute_qpu(&mut self, count: u32, control: u32, no_flush: u32) -> u32 {
        self.flush_requests.push(no_flush == 0);
        if !self.qpus_enabled {
            self.violations
                .push("EXECUTE_QPU while the QPUs are disabled".to_string());
            return 1;
        }
        let mut timed_out = false;
        for index in 0..count {
            let pair = control + index * 8;
            let (Some(uniforms), Some(code)) = (
                BusMemory { state: self }.read(pair),
                BusMemory { state: self }.read(pair + 4),
            ) else {
                self.violations.push(format!(
                    "EXECUTE_QPU control block 0x{control:08x} outside GPU memory"
                ));
                return 1;
            };
            if self.run_job(Job { uniforms, code }) == JobOutcome::Hang {
                timed_out = true;
            }
        }
        if timed_out {
            0x8000_0000
        } else {
            0
        }
    }

    /// Applies one tag; returns the response values, or `None` for an unknown tag.
    fn answer(&mut self, tag: Tag, request: &[u32]) -> Vec<u32> {
        match tag {
            Tag::FirmwareRevision => vec![self.config.firmware_revision],
            Tag::BoardRevision => vec![self.config.revision_code],
            Tag::VcMemory => vec![self.config.vc_base, self.config.gpu_mem_bytes],
            Tag::AllocateMemory => vec![self.allocate(request[0], request[1], request[2])],
            Tag::LockMemory => vec![self.lock(request[0])],
            Tag::UnlockMemory => vec![self.unlock(request[0])],
            Tag::ReleaseMemory => vec![self.release(request[0])],
            Tag::ExecuteQpu => vec![self.execute_qpu(request[0], request[1], request[2])],
            Tag::SetEnableQpu => {
                if request[0] != 0 {
                    if self.config.qpu_enable_status != 0 {
                        return vec![self.config.qpu_enable_status];
                    }
                    self.qpus_enabled = true;
                } else {
                    self.qpus_enabled = false;
                }
                vec![0]
            }
        }
    }

    /// Processes a property buffer in place, as the firmware would.
    fn property_call(&mut self, message: &mut [u32]) -> io::Result<()> {
        if message.len() < 3 || message[0] as usize != message.len() * 4 {
            self.violations.push(format!(
                "size word {} does not match a {}-byte buffer",
                message.first().copied().unwrap_or(0),
                message.len() * 4
            ));
            return Err(io::Error::from_raw_os_error(libc::EFAULT));
        }
        if message[1] != property::REQUEST_CODE {
            self.violations
                .push(format!("request code 0x{:08x}", message[1]));
            return Err(io::Error::from_raw_os_error(libc::EINVAL));
        }
        let mut position = 2;
        loop {
            let Some(&tag_id) = message.get(position) else {
                self.violations.push("no end tag".to_string());
                return Err(io::Error::from_raw_os_error(libc::EINVAL));
            };
            if tag_id == property::END_TAG {
                break;
            }
            let (Some(&buffer_bytes), Some(&request_word)) =
                (message.get(position + 1), message.get(position + 2))
            else {
                self.violations.push("tag header cut short".to_string());
                return Err(io::Error::from_raw_os_error(libc::EINVAL));
            };
            let buffer_words = buffer_bytes as usize / 4;
            let values_start = position + 3;
            if buffer_bytes % 4 != 0 || values_start + buffer_words > message.len() {
                self.violations.push(format!(
                    "tag 0x{tag_id:08x} value buffer overruns the message"
                ));
                return Err(io::Error::from_raw_os_error(libc::EINVAL));
            }
            if request_word & TAG_RESPONSE_BIT != 0 {
                self.violations
                    .push(format!("tag 0x{tag_id:08x} sent with the response bit set"));
            }
            self.tags.push(tag_id);
            if let Some(tag) = Tag::from_id(tag_id) {
                let request_bytes = (request_word & !TAG_RESPONSE_BIT) as usize;
                let needed_request = tag.request_words() * 4;
                let needed_buffer = tag.value_buffer_words() * 4;
                if request_bytes < needed_request || (buffer_bytes as usize) < needed_buffer {
                    self.violations.push(format!(
                        "{tag}: request {request_bytes} bytes, buffer {buffer_bytes} bytes"
                    ));
                    return Err(io::Error::from_raw_os_error(libc::EINVAL));
                }
                let request: Vec<u32> =
                    message[values_start..values_start + tag.request_words()].to_vec();
                let response = self.answer(tag, &request);
                message[values_start..values_start + response.len()].copy_from_slice(&response);
                message[position + 2] = TAG_RESPONSE_BIT | (response.len() * 4) as u32;
            }
            // Unknown tags: left untouched, response bit clear (wiki).
            position = values_start + buffer_words;
        }
        message[1] = property::RESPONSE_SUCCESS;
        Ok(())
    }

    fn tick(&mut self) {
        if self.wedged || self.hung >= QPU_COUNT {
            return;
        }
        let Some(head) = self.queue.front_mut() else {
            return;
        };
        if head.polls_left > 0 {
            head.polls_left -= 1;
            return;
        }
        let Some(finished) = self.queue.pop_front() else {
            return;
        };
        if self.run_job(finished.job) == JobOutcome::Complete {
            self.completed = (self.completed + 1) & 0xff;
        }
    }

    fn read_register(&mut self, offset: u32) -> u32 {
        match offset {
            registers::IDENT0 => registers::IDENT0_EXPECTED,
            registers::SRQCS => {
                self.tick();
                (self.queue.len().min(63) as u32)
                    | if self.queue_error {
                        registers::SRQCS_ERROR
                    } else {
                        0
                    }
                    | ((self.requests & 0xff) << 8)
                    | ((self.completed & 0xff) << 16)
            }
            other => self.other_registers.get(&other).copied().unwrap_or(0),
        }
    }

    fn write_register(&mut self, offset: u32, value: u32) {
        match offset {
            registers::SRQCS => {
                if value & registers::SRQCS_ERROR != 0 {
                    self.queue_error = false;
                }
                if value & (1 << 8) != 0 {
                    self.requests = 0;
                }
                if value & (1 << 16) != 0 {
                    self.completed = 0;
                }
            }
            registers::SRQUA => self.uniforms_latch = value,
            registers::SRQPC => {
                if !self.qpus_enabled {
                    self.violations
                        .push("SRQPC written while the QPUs are disabled".to_string());
                }
                if self.queue.len() >= registers::REQUEST_QUEUE_DEPTH as usize {
                    self.queue_error = true;
                    return;
                }
                self.requests = (self.requests + 1) & 0xff;
                let polls = self.config.completion_polls;
                self.queue.push_back(QueuedJob {
                    job: Job {
                        uniforms: self.uniforms_latch,
                        code: value,
                    },
                    polls_left: polls,
                });
            }
            registers::L2CACTL => {
                if value & registers::L2CACTL_CLEAR != 0 {
                    self.l2_clears += 1;
                }
            }
            registers::SLCACTL => {
                if value != 0 {
                    self.slice_clears += 1;
                }
            }
            other => {
                self.other_registers.insert(other, value);
            }
        }
    }
}

/// The stand-in. Cheap to clone; every clone shares one state.
#[derive(Clone)]
pub struct FakeVideoCore {
    state: Arc<Mutex<FakeState>>,
}

impl std::fmt::Debug for FakeVideoCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        f.debug_struct("FakeVideoCore")
            .field("config", &state.config)
            .field("allocations", &state.allocations.len())
            .finish()
    }
}

impl Default for FakeVideoCore {
    fn default() -> Self {
        FakeVideoCore::new(FakeConfig::default())
    }
}

impl FakeVideoCore {
    /// A stand-in with these settings.
    pub fn new(config: FakeConfig) -> Self {
        let words = config.gpu_mem_bytes as usize / 4;
        FakeVideoCore {
            state: Arc::new(Mutex::new(FakeState {
                config,
                ram: Ram::zeroed(words),
                allocations: BTreeMap::new(),
                next_handle: 1,
                qpus_enabled: false,
                tags: Vec::new(),
                violations: Vec::new(),
                executor: None,
                wedged: false,
                hung: 0,
                queue: VecDeque::new(),
                uniforms_latch: 0,
                requests: 0,
                completed: 0,
                queue_error: false,
                l2_clears: 0,
                slice_clears: 0,
                other_registers: BTreeMap::new(),
                jobs_run: Vec::new(),
                flush_requests: Vec::new(),
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, FakeState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Installs the job handler.
    pub fn set_executor(&self, executor: Executor) {
        self.lock().executor = Some(executor);
    }

    /// The board checks' result for the configured board, as [`crate::probe`] would give it.
    pub fn pi_info(&self) -> Result<PiInfo, PiError> {
        let config = self.lock().config.clone();
        let board = BoardInfo::decode(config.revision_code).ok_or(PiError::UnknownRevision {
            code: config.revision_code,
            source_path: "stand-in configuration".to_string(),
        })?;
        Ok(PiInfo {
            model: Some(format!("{} (stand-in)", board.board.name())),
            board,
            peripheral_base: config.peripheral_base,
            v3d_physical: config.peripheral_base + 0x00c0_0000,
            process_pointer_bits: (core::mem::size_of::<*const u8>() * 8) as u32,
            mailbox_ioctl: crate::ioctl::MBOX_PROPERTY_REQUEST,
            notes: Vec::new(),
        })
    }

    /// A mailbox connected to this stand-in.
    pub fn mailbox(&self) -> Box<dyn Mailbox> {
        Box::new(FakeMailbox(self.clone()))
    }

    /// A physical-memory mapper over the stand-in's GPU memory and V3D block.
    pub fn physical_memory(&self) -> Box<dyn PhysicalMemory> {
        Box::new(FakePhysical(self.clone()))
    }

    /// The stand-in's V3D registers.
    pub fn registers(&self) -> Box<dyn RegisterFile> {
        Box::new(FakeRegisters(self.clone()))
    }

    /// Opens a [`Gpu`] on this stand-in, with V3D registers mapped through its physical memory
    /// (the same route [`Gpu::open`] takes on a Pi).
    pub fn open_gpu(&self) -> Result<Gpu, PiError> {
        Gpu::from_parts(
            self.pi_info()?,
            self.mailbox(),
            self.physical_memory(),
            Registers::Map,
        )
    }

    /// Opens a [`Gpu`] on this stand-in without the direct path.
    pub fn open_gpu_mailbox_only(&self) -> Result<Gpu, PiError> {
        Gpu::from_parts(
            self.pi_info()?,
            self.mailbox(),
            self.physical_memory(),
            Registers::None,
        )
    }

    /// Number of allocations not yet released.
    pub fn live_allocations(&self) -> usize {
        self.lock().allocations.len()
    }

    /// Number of allocations currently locked.
    pub fn locked_allocations(&self) -> usize {
        self.lock()
            .allocations
            .values()
            .filter(|a| a.locked)
            .count()
    }

    /// Whether the QPUs are enabled.
    pub fn qpus_enabled(&self) -> bool {
        self.lock().qpus_enabled
    }

    /// Every tag id received, in order.
    pub fn tags_received(&self) -> Vec<u32> {
        self.lock().tags.clone()
    }

    /// Contract violations seen so far (an empty list means every call was well-formed).
    pub fn violations(&self) -> Vec<String> {
        self.lock().violations.clone()
    }

    /// Every job started, by either path, in order.
    pub fn jobs_run(&self) -> Vec<Job> {
        self.lock().jobs_run.clone()
    }

    /// For each EXECUTE_QPU call, whether it asked the firmware to flush.
    pub fn flush_requests(&self) -> Vec<bool> {
        self.lock().flush_requests.clone()
    }

    /// Times L2CACTL was written with the clear bit, and SLCACTL with any clear bits.
    pub fn cache_clears(&self) -> (usize, usize) {
        let state = self.lock();
        (state.l2_clears, state.slice_clears)
    }

    /// Last value written to a register this model does not interpret (DBCFG, DBQITE, ...).
    pub fn register_value(&self, offset: u32) -> Option<u32> {
        self.lock().other_registers.get(&offset).copied()
    }

    /// Whether a hang has wedged the modelled GPU.
    pub fn is_wedged(&self) -> bool {
        self.lock().wedged
    }

    /// Reads GPU memory by bus address.
    pub fn read_bus(&self, bus_address: u32) -> Option<u32> {
        let mut state = self.lock();
        BusMemory { state: &mut state }.read(bus_address)
    }
}

struct FakeMailbox(FakeVideoCore);

impl Mailbox for FakeMailbox {
    fn call(&mut self, message: &mut [u32]) -> io::Result<()> {
        self.0.lock().property_call(message)
    }
}

struct FakeRegisters(FakeVideoCore);

impl RegisterFile for FakeRegisters {
    fn read(&mut self, offset: u32) -> u32 {
        self.0.lock().read_register(offset)
    }

    fn write(&mut self, offset: u32, value: u32) {
        self.0.lock().write_register(offset, value);
    }
}

struct FakePhysical(FakeVideoCore);

enum Window {
    /// GPU memory from this word of the stand-in's RAM on.
    Ram {
        base: NonNull<u32>,
    },
    V3d,
}

struct FakeRegion {
    core: FakeVideoCore,
    window: Window,
    len_words: usize,
}

// SAFETY: the only non-Send part is the RAM pointer; the block it points into is owned by the
// shared state that `core` keeps alive, and device memory may be touched from any thread.
unsafe impl Send for FakeRegion {}

impl PhysicalMemory for FakePhysical {
    fn map(&mut self, physical: u64, len_bytes: usize) -> io::Result<Box<dyn MappedRegion>> {
        let state = self.0.lock();
        let v3d = u64::from(state.config.peripheral_base) + 0x00c0_0000;
        let vc_base = u64::from(state.config.vc_base);
        let ram_bytes = (state.ram.len_words() * 4) as u64;
        if len_bytes == 0 || !len_bytes.is_multiple_of(4) || !physical.is_multiple_of(4) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "unaligned mapping",
            ));
        }
        let outside = || {
            // /dev/mem would map it; the stand-in refuses what it does not model.
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("physical 0x{physical:x}+{len_bytes} is outside the modelled memory"),
            )
        };
        let window = if physical == v3d && len_bytes <= V3D_REGISTER_BYTES {
            Window::V3d
        } else if physical >= vc_base && physical + len_bytes as u64 <= vc_base + ram_bytes {
            let first_word = ((physical - vc_base) / 4) as usize;
            Window::Ram {
                base: state.ram.word_pointer(first_word).ok_or_else(outside)?,
            }
        } else {
            return Err(outside());
        };
        drop(state);
        Ok(Box::new(FakeRegion {
            core: self.0.clone(),
            window,
            len_words: len_bytes / 4,
        }))
    }
}

// SAFETY: a RAM window's `base` points `first_word` words into the stand-in's RAM block, and
// `map` checked that the whole window lies inside the block. The block never moves and lives as
// long as the shared state, which `core` keeps alive for the region's whole life, so the window
// stays readable and writable. It is u32-aligned (a word pointer into a `[u32]` block). The block
// is no Rust allocation anyone holds references to (`Ram` only makes raw accesses), and
// `read_word`/`write_word` below are raw volatile accesses. Like /dev/mem, the stand-in maps
// whatever window it is asked for; `Gpu` maps each firmware allocation exactly once, and the
// firmware model never hands out overlapping allocations. Register windows return `None`.
unsafe impl MappedRegion for FakeRegion {
    fn len_words(&self) -> usize {
        self.len_words
    }

    fn read_word(&self, index: usize) -> u32 {
        if index >= self.len_words {
            return 0;
        }
        match self.window {
            // SAFETY: index < len_words, inside the window described above.
            Window::Ram { base } => unsafe { base.as_ptr().add(index).read_volatile() },
            Window::V3d => self.core.lock().read_register((index * 4) as u32),
        }
    }

    fn write_word(&mut self, index: usize, value: u32) {
        if index >= self.len_words {
            return;
        }
        match self.window {
            // SAFETY: index < len_words, inside the window described above, which is writable.
            Window::Ram { base } => unsafe { base.as_ptr().add(index).write_volatile(value) },
            Window::V3d => self.core.lock().write_register((index * 4) as u32, value),
        }
    }

    fn memory_words(&self) -> Option<NonNull<u32>> {
        match self.window {
            Window::Ram { base } => Some(base),
            Window::V3d => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_documented_messages() {
        let core = FakeVideoCore::default();
        let mut mailbox = core.mailbox();
        let mut message = property::build_request(Tag::BoardRevision, &[]).unwrap();
        mailbox.call(&mut message).unwrap();
        assert_eq!(
            message,
            vec![28, 0x8000_0000, 0x10002, 4, 0x8000_0004, 0xa02082, 0]
        );
        assert!(core.violations().is_empty());
    }

    #[test]
    fn unknown_tags_stay_unanswered() {
        let core = FakeVideoCore::default();
        let mut message = vec![28, 0, 0x0004_0001, 4, 0, 0, 0];
        core.mailbox().call(&mut message).unwrap();
        assert_eq!(message[1], 0x8000_0000);
        assert_eq!(message[4], 0, "response bit stays clear");
    }

    #[test]
    fn malformed_buffers_fail_like_the_kernel() {
        let core = FakeVideoCore::default();
        let mut no_end = vec![24, 0, 0x10002, 4, 0, 0];
        assert_eq!(
            core.mailbox().call(&mut no_end).unwrap_err().raw_os_error(),
            Some(libc::EINVAL)
        );
        let mut short_buffer = vec![28, 0, 0x3000c, 4, 12, 0, 0];
        assert!(core.mailbox().call(&mut short_buffer).is_err());
        assert_eq!(core.violations().len(), 2);
    }

    #[test]
    fn allocation_aliases_and_fill() {
        let core = FakeVideoCore::default();
        let mut mailbox = core.mailbox();
        let direct = property::allocate_memory(mailbox.as_mut(), 4096, 4096, mem_flag::DIRECT)
            .unwrap()
            .unwrap();
        let bus = property::lock_memory(mailbox.as_mut(), direct)
            .unwrap()
            .unwrap();
        assert_eq!(bus, 0xC000_0000 | 0x3b40_0000);
        // Without MEM_FLAG_ZERO the default fill is all ones.
        assert_eq!(core.read_bus(bus), Some(u32::MAX));
        let coherent = property::allocate_memory(
            mailbox.as_mut(),
            4096,
            4096,
            mem_flag::COHERENT | mem_flag::ZERO,
        )
        .unwrap()
        .unwrap();
        let bus2 = property::lock_memory(mailbox.as_mut(), coherent)
            .unwrap()
            .unwrap();
        assert_eq!(bus2, 0x8000_0000 | (0x3b40_0000 + 4096));
        assert_eq!(core.read_bus(bus2), Some(0));
    }
}

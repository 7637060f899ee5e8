//! The opened GPU: QPUs powered, GPU memory allocation, launches.

use crate::cleanup::{self, Registration};
use crate::error::PiError;
use crate::launch::{
    self, choose_path, validate_jobs, DirectFailure, Job, LaunchOptions, LaunchPath, LaunchReport,
    ProbeOutcome, QPU_COUNT,
};
use crate::mailbox::Mailbox;
use crate::memory::{
    self, bus_to_physical, check_range, BufferKind, MappedWords, PhysicalMemory, PAGE_BYTES,
};
use crate::property::{self, mem_flag, ExecuteStatus};
use crate::registers::{self, MappedRegisters, RegisterFile};
use crate::system::{PiInfo, V3D_REGISTER_BYTES};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

/// Flags for every allocation: the uncached 0xC alias (see [`crate::memory`]) and zeroed
/// contents so stale data never looks like a result.
pub const ALLOCATION_FLAGS: u32 = mem_flag::DIRECT | mem_flag::ZERO;

/// Word offsets inside the scratch page allocated when the device opens.
const PROBE_CODE_WORD: usize = 0;
const PROBE_CONTROL_WORD: usize = 16;
const LAUNCH_CONTROL_WORD: usize = 64;

/// What the device knows about one live buffer: whether its contents can be trusted, and where
/// it is for the GPU (bus address) and for this process (host address of its mapping).
#[derive(Debug)]
struct BufferState {
    valid: AtomicBool,
    bus_address: u32,
    /// Address of word 0 of the host mapping; 0 once the mapping is going away (or when the
    /// region offers no slice view), so launches never resolve a slice to a dying buffer.
    host_address: AtomicUsize,
    len_words: usize,
}

impl BufferState {
    /// Bus address of `words` when they lie wholly inside this buffer's mapping.
    fn bus_address_of(&self, words: &[u32]) -> Option<u32> {
        let host = self.host_address.load(Ordering::Acquire);
        let start = words.as_ptr().addr();
        let offset = start.checked_sub(host)?;
        let end = offset.checked_add(words.len().checked_mul(4)?)?;
        (host != 0 && end <= self.len_words * 4 && offset.is_multiple_of(4))
            .then(|| self.bus_address + offset as u32)
    }
}

/// State shared by the device and every buffer it allocated (buffers may outlive the device
/// handle; the QPUs stay powered until the last one is gone).
struct Shared {
    mailbox: Mutex<Box<dyn Mailbox>>,
    buffers: Mutex<Vec<Weak<BufferState>>>,
    /// Descriptor registered with the signal-time cleanup, for real devices only.
    cleanup_fd: Option<i32>,
    qpus_enabled: AtomicBool,
    release_failures: AtomicUsize,
}

fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding one of these locks leaves nothing half-written that matters more
    // than releasing GPU memory, so poisoning is ignored.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    fn mailbox(&self) -> MutexGuard<'_, Box<dyn Mailbox>> {
        lock(&self.mailbox)
    }

    fn invalidate_buffers(&self) {
        for buffer in lock(&self.buffers).iter().filter_map(Weak::upgrade) {
            buffer.valid.store(false, Ordering::Release);
        }
    }

    /// The live buffer whose mapping holds all of `words`, with their bus address.
    fn resolve(&self, words: &[u32]) -> Option<(Arc<BufferState>, u32)> {
        lock(&self.buffers)
            .iter()
            .filter_map(Weak::upgrade)
            .find_map(|buffer| {
                let bus = buffer.bus_address_of(words)?;
                Some((buffer, bus))
            })
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        if self.qpus_enabled.swap(false, Ordering::AcqRel) {
            let mut mailbox = self.mailbox();
            if property::set_qpu_enabled(mailbox.as_mut(), false).is_err() {
                self.release_failures.fetch_add(1, Ordering::Relaxed);
            }
            if self.cleanup_fd.is_some() {
                cleanup::set_qpus_enabled(false);
            }
        }
        if let Some(fd) = self.cleanup_fd {
            cleanup::clear_mailbox_fd(fd);
        }
    }
}

/// A block of GPU memory: allocated and locked by the firmware, mapped uncached into this
/// process. Released on drop (and on SIGINT/SIGTERM for devices opened with [`Gpu::open`]).
pub struct GpuMemory {
    shared: Arc<Shared>,
    handle: u32,
    bus_address: u32,
    size_bytes: usize,
    words: MappedWords,
    state: Arc<BufferState>,
    registration: Option<Registration>,
}

impl std::fmt::Debug for GpuMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuMemory")
            .field("handle", &self.handle)
            .field("bus_address", &format_args!("0x{:08x}", self.bus_address))
            .field("size_bytes", &self.size_bytes)
            .field("valid", &self.is_valid())
            .finish()
    }
}

impl GpuMemory {
    /// The firmware's handle.
    pub fn handle(&self) -> u32 {
        self.handle
    }

    /// Bus address of the first byte, as the QPUs and the V3D see it.
    pub fn bus_address(&self) -> u32 {
        self.bus_address
    }

    /// ARM physical address of the first byte.
    pub fn physical_address(&self) -> u32 {
        bus_to_physical(self.bus_address)
    }

    /// Size in bytes (whole pages).
    pub fn size_bytes(&self) -> usize {
        self.size_bytes
    }

    /// Size in 32-bit words.
    pub fn len_words(&self) -> usize {
        self.size_bytes / 4
    }

    /// Bus address of word `index`.
    pub fn bus_address_of(&self, index: usize) -> Result<u32, PiError> {
        check_range(index, 1, self.len_words())?;
        Ok(self.bus_address + (index * 4) as u32)
    }

    /// False after a launch on this device failed or timed out, until [`Self::mark_valid`].
    pub fn is_valid(&self) -> bool {
        self.state.valid.load(Ordering::Acquire)
    }

    /// Declares the contents trustworthy again: the caller knows no program of a failed launch
    /// still writes this buffer (the launch that failed was not writing it, or the GPU has been
    /// reset since), and has rewritten what it needs (with [`Self::write_words`]).
    pub fn mark_valid(&self) {
        self.state.valid.store(true, Ordering::Release);
    }

    /// The whole buffer as a slice of the uncached mapping: reads go straight to the memory
    /// the QPUs see, with no copy.
    ///
    /// Fails with [`PiError::OutputInvalid`] while the buffer is marked invalid: a launch that
    /// could write it failed or timed out, so one of its programs may still be writing, and no
    /// Rust reference to the memory may exist while the GPU writes it. Rewrite it with
    /// [`Self::write_words`] (word accesses, no references) and call [`Self::mark_valid`], or
    /// copy out what is left with [`Self::salvage_words`].
    pub fn as_words(&self) -> Result<&[u32], PiError> {
        self.words.as_words(self.is_valid())
    }

    /// The whole buffer as a mutable slice of the uncached mapping: writes land in the memory
    /// the QPUs read, with no copy. Fails like [`Self::as_words`] while the buffer is invalid.
    pub fn as_words_mut(&mut self) -> Result<&mut [u32], PiError> {
        let valid = self.is_valid();
        self.words.as_words_mut(valid)
    }

    /// Reads `out.len()` words starting at `start` whether or not the buffer is valid, one
    /// volatile word at a time (no reference to the memory is made). After a failed launch
    /// this is what is left: possibly half-written, and possibly still changing.
    pub fn salvage_words(&self, start: usize, out: &mut [u32]) -> Result<(), PiError> {
        self.words.salvage(start, out)
    }

    /// Reads word `index`.
    pub fn read_u32(&self, index: usize) -> Result<u32, PiError> {
        let mut word = [0];
        self.read_words(index, &mut word)?;
        Ok(word[0])
    }

    /// Writes word `index`. Writing is allowed on an invalid buffer (to refill it).
    pub fn write_u32(&mut self, index: usize, value: u32) -> Result<(), PiError> {
        self.words.write_words(index, &[value])
    }

    /// Reads `out.len()` words starting at `start`.
    pub fn read_words(&self, start: usize, out: &mut [u32]) -> Result<(), PiError> {
        self.words.read_words(self.is_valid(), start, out)
    }

    /// Writes `words` starting at `start`.
    pub fn write_words(&mut self, start: usize, words: &[u32]) -> Result<(), PiError> {
        self.words.write_words(start, words)
    }

    /// Copies the whole buffer out.
    pub fn to_vec(&self) -> Result<Vec<u32>, PiError> {
        let mut words = vec![0; self.len_words()];
        self.read_words(0, &mut words)?;
        Ok(words)
    }
}

impl Drop for GpuMemory {
    fn drop(&mut self) {
        // Leave the signal registry first: once released, the firmware may hand the same handle
        // to someone else, and the signal path must never release that.
        drop(self.registration.take());
        // Launches must stop resolving slices to this buffer before its host addresses can be
        // reused by another mapping.
        self.state.host_address.store(0, Ordering::Release);
        self.words.release();
        let mut mailbox = self.shared.mailbox();
        let unlocked = property::unlock_memory(mailbox.as_mut(), self.handle);
        let released = property::release_memory(mailbox.as_mut(), self.handle);
        if unlocked.is_err() || released.is_err() {
            self.shared.release_failures.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// An opened VideoCore IV: QPUs enabled, ready to allocate memory and launch programs.
pub struct Gpu {
    shared: Arc<Shared>,
    physical: Mutex<Box<dyn PhysicalMemory>>,
    registers: Option<Mutex<Box<dyn RegisterFile>>>,
    info: PiInfo,
    firmware_revision: u32,
    vc_memory: Option<(u32, u32)>,
    scratch: Mutex<GpuMemory>,
    launches: Mutex<()>,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu")
            .field("describe", &self.describe())
            .finish()
    }
}

/// Where [`Gpu::from_parts`] gets its V3D registers.
pub enum Registers {
    /// Map the V3D block through the given physical memory at `info.v3d_physical`.
    Map,
    /// Use this register file.
    Provided(Box<dyn RegisterFile>),
    /// No direct path: launches go through the mailbox only.
    None,
}

impl Gpu {
    /// Checks the board (see [`crate::probe`]), opens `/dev/vcio` and `/dev/mem`, enables the
    /// QPUs and maps the V3D registers. Installs the SIGINT/SIGTERM cleanup.
    pub fn open() -> Result<Gpu, PiError> {
        #[cfg(target_os = "linux")]
        {
            let info = crate::system::probe()?;
            let mailbox = crate::mailbox::VcioMailbox::open()
                .map_err(|error| open_error(crate::system::paths::VCIO, error))?;
            let fd = mailbox.raw_fd();
            let physical = crate::memory::DevMem::open()
                .map_err(|error| open_error(crate::system::paths::DEV_MEM, error))?;
            cleanup::install_signal_cleanup()?;
            Gpu::assemble(
                info,
                Box::new(mailbox),
                Box::new(physical),
                Registers::Map,
                Some(fd),
            )
        }
        #[cfg(not(target_os = "linux"))]
        {
            Err(PiError::Unsupported(format!(
                "this backend needs Linux on a Raspberry Pi; this build targets {}",
                std::env::consts::OS
            )))
        }
    }

    /// Builds a device from explicit parts: a mailbox, a physical-memory mapper and a register
    /// source. Used with [`crate::standin::FakeVideoCore`] to run the launch and memory logic
    /// without a Pi. No signal-time cleanup is registered for such devices.
    pub fn from_parts(
        info: PiInfo,
        mailbox: Box<dyn Mailbox>,
        physical: Box<dyn PhysicalMemory>,
        registers: Registers,
    ) -> Result<Gpu, PiError> {
        Gpu::assemble(info, mailbox, physical, registers, None)
    }

    fn assemble(
        info: PiInfo,
        mut mailbox: Box<dyn Mailbox>,
        mut physical: Box<dyn PhysicalMemory>,
        registers: Registers,
        cleanup_fd: Option<i32>,
    ) -> Result<Gpu, PiError> {
        let firmware_revision = property::firmware_revision(mailbox.as_mut())?;
        let mut info = info;
        match property::board_revision(mailbox.as_mut()) {
            Ok(code) if code != info.board.code => info.notes.push(format!(
                "firmware reports revision code {code:x}, the kernel reported {:x}",
                info.board.code
            )),
            Ok(_) => {}
            Err(error) => info
                .notes
                .push(format!("board revision query failed: {error}")),
        }
        let vc_memory = match property::vc_memory(mailbox.as_mut()) {
            Ok(split) => Some(split),
            Err(error) => {
                info.notes
                    .push(format!("GPU memory split query failed: {error}"));
                None
            }
        };
        match property::set_qpu_enabled(mailbox.as_mut(), true) {
            Ok(()) => {}
            Err(PiError::TagFailed { status, .. }) => {
                return Err(PiError::QpuEnableRefused { status })
            }
            Err(other) => return Err(other),
        }
        if let Some(fd) = cleanup_fd {
            cleanup::set_mailbox_fd(fd);
            cleanup::set_qpus_enabled(true);
        }
        let shared = Arc::new(Shared {
            mailbox: Mutex::new(mailbox),
            buffers: Mutex::new(Vec::new()),
            cleanup_fd,
            qpus_enabled: AtomicBool::new(true),
            release_failures: AtomicUsize::new(0),
        });
        // From here on, dropping `shared` powers the QPUs down again.

        let registers: Option<Box<dyn RegisterFile>> = match registers {
            Registers::Map => {
                let region = physical
                    .map(u64::from(info.v3d_physical), V3D_REGISTER_BYTES)
                    .map_err(|source| PiError::Mapping {
                        physical: u64::from(info.v3d_physical),
                        len: V3D_REGISTER_BYTES,
                        source,
                    })?;
                Some(Box::new(MappedRegisters::new(region)))
            }
            Registers::Provided(file) => Some(file),
            Registers::None => None,
        };
        let registers = match registers {
            Some(mut file) => {
                let ident0 = file.read(registers::IDENT0);
                if ident0 != registers::IDENT0_EXPECTED {
                    return Err(PiError::V3dNotResponding {
                        physical: u64::from(info.v3d_physical),
                        ident0,
                        expected: registers::IDENT0_EXPECTED,
                    });
                }
                Some(Mutex::new(file))
            }
            None => None,
        };

        let mut scratch = allocate(&shared, physical.as_mut(), PAGE_BYTES, vc_memory)?;
        scratch.write_words(PROBE_CODE_WORD, &launch::probe_program_words())?;
        let probe_code = scratch.bus_address_of(PROBE_CODE_WORD)?;
        // The probe's control block: one (uniforms, code) pair; it reads no uniforms, so the
        // uniforms address just points at valid memory.
        scratch.write_words(PROBE_CONTROL_WORD, &[probe_code, probe_code])?;

        Ok(Gpu {
            shared,
            physical: Mutex::new(physical),
            registers,
            info,
            firmware_revision,
            vc_memory,
            scratch: Mutex::new(scratch),
            launches: Mutex::new(()),
        })
    }

    /// What the board checks found.
    pub fn info(&self) -> &PiInfo {
        &self.info
    }

    /// The firmware revision reported at open.
    pub fn firmware_revision(&self) -> u32 {
        self.firmware_revision
    }

    /// The VideoCore memory split (base, bytes), as the firmware reported it at open.
    pub fn gpu_memory_split(&self) -> Option<(u32, u32)> {
        self.vc_memory
    }

    /// Whether launches can use the V3D registers directly.
    pub fn has_direct_path(&self) -> bool {
        self.registers.is_some()
    }

    /// How many unlock/release/disable calls failed during drops so far.
    pub fn release_failures(&self) -> usize {
        self.shared.release_failures.load(Ordering::Relaxed)
    }

    /// One line saying which GPU this is.
    pub fn describe(&self) -> String {
        let split = match self.vc_memory {
            Some((_, bytes)) => format!("gpu_mem {} MiB", bytes / (1024 * 1024)),
            None => "gpu_mem unknown".to_string(),
        };
        format!(
            "Raspberry Pi VideoCore IV: {}; firmware 0x{:08x}; {split}; launch paths: mailbox{}",
            self.info.describe(),
            self.firmware_revision,
            if self.has_direct_path() {
                " + direct"
            } else {
                ""
            }
        )
    }

    /// Allocates `bytes` of GPU memory (rounded up to whole 4 KiB pages), zeroed.
    pub fn alloc(&self, bytes: usize) -> Result<GpuMemory, PiError> {
        let mut physical = lock(&self.physical);
        allocate(&self.shared, physical.as_mut(), bytes, self.vc_memory)
    }

    /// Bus address of `words` when they lie inside a live, mapped buffer of this device.
    pub fn bus_address_of_slice(&self, words: &[u32]) -> Option<u32> {
        self.shared.resolve(words).map(|(_, bus)| bus)
    }

    /// Launches like [`Self::launch_with`], borrowing the buffers the programs use for the
    /// launch's duration: [`LaunchBuffer::Write`] for those they may write (borrowed
    /// exclusively, so no other slice of them exists while the GPU runs) and
    /// [`LaunchBuffer::Read`] for those they only read.
    ///
    /// Before anything starts, each slice must lie inside a valid buffer of this device
    /// ([`PiError::NotGpuMemory`], [`PiError::BufferInvalid`]). Read-only buffers are
    /// snapshotted and compared afterwards; a change is [`PiError::ReadOnlyWritten`]. The
    /// programs find the buffers through the bus addresses in their uniforms
    /// ([`Self::bus_address_of_slice`] gives them); nothing is copied.
    pub fn launch_buffers(
        &self,
        jobs: &[(u32, u32)],
        buffers: &mut [LaunchBuffer<'_>],
        options: &LaunchOptions,
    ) -> Result<LaunchReport, PiError> {
        let mut snapshots = Vec::with_capacity(buffers.len());
        for (index, buffer) in buffers.iter().enumerate() {
            let words = buffer.words();
            let Some((state, bus_address)) = self.shared.resolve(words) else {
                return Err(PiError::NotGpuMemory {
                    index,
                    host_address: words.as_ptr().addr(),
                    len: words.len(),
                });
            };
            if !state.valid.load(Ordering::Acquire) {
                return Err(PiError::BufferInvalid { index, bus_address });
            }
            snapshots.push(match buffer {
                LaunchBuffer::Read(words) => Some((bus_address, read_volatile_words(words))),
                LaunchBuffer::Write(_) => None,
            });
        }
        for buffer in buffers.iter_mut() {
            if let LaunchBuffer::Write(words) = buffer {
                // The programs write through bus addresses the host handed them, as a syscall
                // writes into a buffer it was lent: exposing the exclusive borrow's provenance
                // makes those foreign writes ones this borrow permits.
                let _ = words.as_mut_ptr().expose_provenance();
            }
        }
        let report = self.launch_with(jobs, options)?;
        for (index, (buffer, snapshot)) in buffers.iter().zip(&snapshots).enumerate() {
            let Some((bus_address, before)) = snapshot else {
                continue;
            };
            let words = buffer.words();
            let changed = (0..words.len()).find(|&offset| {
                // Read through the mapping's own provenance (exposed when it was allocated),
                // not the shared borrow, which promised the words would not change.
                let address = words.as_ptr().addr() + 4 * offset;
                let pointer = std::ptr::with_exposed_provenance::<u32>(address);
                // SAFETY: `address` is word `offset < words.len()` of a slice that lies inside
                // a live mapping of this device (resolved above; the slice's borrow keeps its
                // `GpuMemory`, and so the mapping, alive until this call returns), so it is
                // aligned and readable; the mapping's provenance was exposed in `allocate`.
                // Volatile, so the read really happens after the launch.
                let now = unsafe { pointer.read_volatile() };
                before.get(offset) != Some(&now)
            });
            if let Some(offset) = changed {
                return Err(PiError::ReadOnlyWritten {
                    index,
                    bus_address: bus_address + 4 * offset as u32,
                });
            }
        }
        Ok(report)
    }

    /// Launches one program per `(uniforms_bus_address, code_bus_address)` pair and waits up
    /// to `timeout` for all of them, choosing the path automatically.
    pub fn launch(&self, jobs: &[(u32, u32)], timeout: Duration) -> Result<LaunchReport, PiError> {
        self.launch_with(jobs, &LaunchOptions::with_timeout(timeout))
    }

    /// Launches with explicit options. On failure every buffer of this device is marked
    /// invalid; on timeout a probe job reports whether the GPU still responds.
    pub fn launch_with(
        &self,
        jobs: &[(u32, u32)],
        options: &LaunchOptions,
    ) -> Result<LaunchReport, PiError> {
        let jobs: Vec<Job> = jobs.iter().copied().map(Job::from).collect();
        let path = choose_path(jobs.len(), options, self.has_direct_path())?;
        if jobs.is_empty() {
            return Err(PiError::JobCount {
                count: 0,
                path,
                problem: "nothing to run".to_string(),
            });
        }
        validate_jobs(&jobs)?;
        let _exclusive = lock(&self.launches);
        match path {
            LaunchPath::Direct => self.launch_direct(&jobs, options),
            LaunchPath::Mailbox => self.launch_mailbox(&jobs, options),
        }
    }

    fn launch_direct(
        &self,
        jobs: &[Job],
        options: &LaunchOptions,
    ) -> Result<LaunchReport, PiError> {
        let Some(registers) = &self.registers else {
            return Err(PiError::DirectUnavailable {
                reason: "the V3D registers are not mapped on this device".to_string(),
            });
        };
        let outcome = launch::direct_launch(lock(registers).as_mut(), jobs, options.timeout);
        match outcome {
            Ok(elapsed) => Ok(LaunchReport {
                path: LaunchPath::Direct,
                elapsed,
                jobs: jobs.len(),
            }),
            Err(DirectFailure::TimedOut) => {
                self.shared.invalidate_buffers();
                Err(PiError::Timeout {
                    path: LaunchPath::Direct,
                    timeout: options.timeout,
                    probe: self.run_probe(options.probe_timeout),
                })
            }
            Err(DirectFailure::QueueError(srqcs)) => {
                self.shared.invalidate_buffers();
                Err(PiError::QueueError { srqcs })
            }
        }
    }

    fn launch_mailbox(
        &self,
        jobs: &[Job],
        options: &LaunchOptions,
    ) -> Result<LaunchReport, PiError> {
        if jobs.len() > QPU_COUNT {
            return Err(PiError::JobCount {
                count: jobs.len(),
                path: LaunchPath::Mailbox,
                problem: format!(
                    "EXECUTE_QPU starts one program per QPU and VideoCore IV has {QPU_COUNT}; \
                     use LaunchMode::Direct or split the launch"
                ),
            });
        }
        let control_bus = {
            let mut scratch = lock(&self.scratch);
            let pairs: Vec<u32> = jobs
                .iter()
                .flat_map(|job| [job.uniforms, job.code])
                .collect();
            scratch.write_words(LAUNCH_CONTROL_WORD, &pairs)?;
            scratch.bus_address_of(LAUNCH_CONTROL_WORD)?
        };
        let timeout_ms = u32::try_from(options.timeout.as_millis())
            .unwrap_or(u32::MAX)
            .max(1);
        let started = Instant::now();
        let status = {
            let mut mailbox = self.shared.mailbox();
            property::execute_qpu(
                mailbox.as_mut(),
                jobs.len() as u32,
                control_bus,
                !options.flush_caches,
                timeout_ms,
            )
        };
        let elapsed = started.elapsed();
        // When the kernel gave up (ETIMEDOUT after its one-second limit) the wait was shorter
        // than asked; report the wait that actually happened.
        let mut waited = options.timeout;
        let timed_out = match status {
            Ok(ExecuteStatus::Completed) => {
                return Ok(LaunchReport {
                    path: LaunchPath::Mailbox,
                    elapsed,
                    jobs: jobs.len(),
                })
            }
            Ok(ExecuteStatus::TimedOut) => true,
            Ok(ExecuteStatus::Failed(status)) => {
                self.shared.invalidate_buffers();
                return Err(PiError::ExecuteFailed { status });
            }
            Err(PiError::MailboxCall { ref source, .. })
                if source.raw_os_error() == Some(libc::ETIMEDOUT) =>
            {
                waited = waited.min(elapsed);
                true
            }
            Err(other) => {
                self.shared.invalidate_buffers();
                return Err(other);
            }
        };
        debug_assert!(timed_out);
        self.shared.invalidate_buffers();
        Err(PiError::Timeout {
            path: LaunchPath::Mailbox,
            timeout: waited,
            probe: self.run_probe(options.probe_timeout),
        })
    }

    /// Runs the probe program once and reports whether it completed.
    fn run_probe(&self, probe_timeout: Duration) -> ProbeOutcome {
        let (probe_code, control_bus) = {
            let scratch = lock(&self.scratch);
            match (
                scratch.bus_address_of(PROBE_CODE_WORD),
                scratch.bus_address_of(PROBE_CONTROL_WORD),
            ) {
                (Ok(code), Ok(control)) => (code, control),
                (Err(error), _) | (_, Err(error)) => {
                    return ProbeOutcome::NotRun {
                        reason: error.to_string(),
                    }
                }
            }
        };
        if let Some(registers) = &self.registers {
            let job = Job {
                uniforms: probe_code,
                code: probe_code,
            };
            return match launch::direct_launch(lock(registers).as_mut(), &[job], probe_timeout) {
                Ok(_) => ProbeOutcome::Responded {
                    path: LaunchPath::Direct,
                },
                Err(_) => ProbeOutcome::NoResponse {
                    path: LaunchPath::Direct,
                    waited: probe_timeout,
                },
            };
        }
        let timeout_ms = u32::try_from(probe_timeout.as_millis())
            .unwrap_or(u32::MAX)
            .max(1);
        let mut mailbox = self.shared.mailbox();
        match property::execute_qpu(mailbox.as_mut(), 1, control_bus, false, timeout_ms) {
            Ok(ExecuteStatus::Completed) => ProbeOutcome::Responded {
                path: LaunchPath::Mailbox,
            },
            Ok(ExecuteStatus::TimedOut) => ProbeOutcome::NoResponse {
                path: LaunchPath::Mailbox,
                waited: probe_timeout,
            },
            Ok(ExecuteStatus::Failed(status)) => ProbeOutcome::NotRun {
                reason: format!("EXECUTE_QPU status 0x{status:08x}"),
            },
            Err(error) => ProbeOutcome::NotRun {
                reason: error.to_string(),
            },
        }
    }
}

/// A buffer a launch uses, borrowed for the launch (see [`Gpu::launch_buffers`] and
/// [`crate::v3d::V3d::launch`]).
#[derive(Debug)]
pub enum LaunchBuffer<'a> {
    /// The programs only read it; it must be unchanged afterwards.
    Read(&'a [u32]),
    /// The programs may write it.
    Write(&'a mut [u32]),
}

impl LaunchBuffer<'_> {
    /// The words, whichever the access.
    pub fn words(&self) -> &[u32] {
        match self {
            LaunchBuffer::Read(words) => words,
            LaunchBuffer::Write(words) => words,
        }
    }
}

/// Copies `words` one volatile read at a time. The mapping is Device / Strongly-ordered
/// memory on the ARM side (see `crate::memory`), where the wide or unaligned accesses a
/// `memcpy` may use can fault; single aligned word reads cannot.
fn read_volatile_words(words: &[u32]) -> Vec<u32> {
    words
        .iter()
        .map(|word| {
            // SAFETY: a reference to a live u32 is aligned and readable.
            unsafe { std::ptr::from_ref(word).read_volatile() }
        })
        .collect()
}

/// Allocates, locks and maps GPU memory, undoing each step if a later one fails.
fn allocate(
    shared: &Arc<Shared>,
    physical: &mut dyn PhysicalMemory,
    bytes: usize,
    vc_memory: Option<(u32, u32)>,
) -> Result<GpuMemory, PiError> {
    let gpu_mem_bytes = vc_memory.map(|(_, size)| size);
    let size = memory::round_to_pages(bytes.max(4)).ok_or(PiError::AllocationFailed {
        requested: bytes,
        gpu_mem_bytes,
    })?;
    let size_u32 = size as u32; // round_to_pages guarantees it fits
    let (handle, bus_address) = {
        let mut mailbox = shared.mailbox();
        let handle = property::allocate_memory(
            mailbox.as_mut(),
            size_u32,
            PAGE_BYTES as u32,
            ALLOCATION_FLAGS,
        )?
        .ok_or(PiError::AllocationFailed {
            requested: size,
            gpu_mem_bytes,
        })?;
        match property::lock_memory(mailbox.as_mut(), handle) {
            Ok(Some(bus)) => (handle, bus),
            Ok(None) => {
                let _ = property::release_memory(mailbox.as_mut(), handle);
                return Err(PiError::LockFailed { handle });
            }
            Err(error) => {
                let _ = property::release_memory(mailbox.as_mut(), handle);
                return Err(error);
            }
        }
    };
    let physical_address = u64::from(bus_to_physical(bus_address));
    let region = match physical.map(physical_address, size) {
        Ok(region) => region,
        Err(source) => {
            let mut mailbox = shared.mailbox();
            let _ = property::unlock_memory(mailbox.as_mut(), handle);
            let _ = property::release_memory(mailbox.as_mut(), handle);
            return Err(PiError::Mapping {
                physical: physical_address,
                len: size,
                source,
            });
        }
    };
    let registration = if shared.cleanup_fd.is_some() {
        cleanup::register(handle)
    } else {
        None
    };
    let state = Arc::new(BufferState {
        valid: AtomicBool::new(true),
        bus_address,
        host_address: AtomicUsize::new(
            region
                .memory_words()
                .map_or(0, |base| base.as_ptr().expose_provenance()),
        ),
        len_words: region.len_words(),
    });
    {
        let mut buffers = lock(&shared.buffers);
        buffers.retain(|weak| weak.strong_count() > 0);
        buffers.push(Arc::downgrade(&state));
    }
    Ok(GpuMemory {
        shared: Arc::clone(shared),
        handle,
        bus_address,
        size_bytes: size,
        words: MappedWords::new(region, size / 4, BufferKind::Vc4 { bus_address }),
        state,
        registration,
    })
}

#[cfg(target_os = "linux")]
fn open_error(path: &str, error: std::io::Error) -> PiError {
    match error.kind() {
        std::io::ErrorKind::NotFound if path == crate::system::paths::VCIO => {
            PiError::VcioMissing {
                path: path.to_string(),
            }
        }
        std::io::ErrorKind::PermissionDenied => PiError::PermissionDenied {
            path: path.to_string(),
            detail: crate::system::SystemProbe::describe(&crate::system::HostSystem, path),
            fix: "run the program as root (sudo)".to_string(),
        },
        _ => PiError::Io {
            what: format!("cannot open {path}"),
            source: error,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_and_buffers_cross_threads() {
        // The runtime keeps a device in a shared handle and moves buffers between threads.
        fn send_sync<T: Send + Sync>() {}
        fn send<T: Send>() {}
        send_sync::<Gpu>();
        send::<GpuMemory>();
    }

    #[test]
    fn allocation_flags_are_uncached_and_zeroed() {
        // 0x4 (DIRECT, the 0xC alias) | 0x10 (ZERO): GPU_FFT's flag for Pi 2 and later, plus
        // zero fill.
        assert_eq!(ALLOCATION_FLAGS, 0x14);
    }
}

//! Launching QPU programs: by the firmware's execute-QPU tag, or directly through the V3D
//! scheduler registers as GPU_FFT 2.0 and later do for short jobs.
//!
//! Direct launch sequence (GPU_FFT 3.0 `gpu_fft_base_exec_direct`, register meanings from the
//! reference guide §10):
//! 1. disallow and clear QPU interrupts (DBCFG = 0, DBQITE = 0, DBQITC = all ones);
//! 2. clear the L2 cache (L2CACTL.L2CCLR) and the slice caches (SLCACTL);
//! 3. reset the request queue's error flag and counters (SRQCS);
//! 4. per job: write the uniforms address to SRQUA, then the code address to SRQPC;
//! 5. poll SRQCS until the completed count equals the number of jobs.
//!
//! GPU_FFT chooses the direct path when the work is under `GPU_FFT_BUSY_WAIT_LIMIT`, which its
//! comment calls "~1ms", and uses the mailbox otherwise, to avoid hogging the ARM with a long
//! busy wait. This crate busy-waits for the first millisecond and then sleeps between polls, so a
//! long direct launch costs little CPU; the mailbox path is kept for mid-length jobs because the
//! kernel's firmware transaction gives up after one second (`rpi_firmware_transaction`,
//! `wait_for_completion_timeout(&fw->c, HZ)`), so the mailbox cannot wait longer than that.

use crate::error::PiError;
use crate::registers::{self, RegisterFile};
use std::fmt;
use std::time::{Duration, Instant};

/// Number of QPUs on VideoCore IV (reference guide §2: 12 QPUs in 3 slices).
pub const QPU_COUNT: usize = 12;

/// Jobs expected to run at most this long go by the direct path in [`LaunchMode::Auto`]
/// (GPU_FFT's busy-wait limit, "~1ms").
pub const SHORT_JOB: Duration = Duration::from_millis(1);

/// Longest wait the mailbox path can honour: the kernel's one-second firmware transaction limit.
pub const MAILBOX_WAIT_LIMIT: Duration = Duration::from_secs(1);

/// One program launch: bus addresses of its uniforms and of its first instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// Bus address of the uniforms stream.
    pub uniforms: u32,
    /// Bus address of the code (64-bit instructions).
    pub code: u32,
}

impl From<(u32, u32)> for Job {
    fn from((uniforms, code): (u32, u32)) -> Self {
        Job { uniforms, code }
    }
}

/// How a launch reaches the QPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaunchPath {
    /// The firmware's EXECUTE_QPU property tag (about 100 µs per call per GPU_FFT's docs).
    Mailbox,
    /// Writes to the V3D scheduler registers.
    Direct,
}

impl fmt::Display for LaunchPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LaunchPath::Mailbox => "mailbox (EXECUTE_QPU)",
            LaunchPath::Direct => "direct V3D registers",
        })
    }
}

/// Which path to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LaunchMode {
    /// Direct for short jobs or waits beyond the mailbox's one-second limit; mailbox otherwise.
    #[default]
    Auto,
    /// Always the mailbox.
    Mailbox,
    /// Always the registers.
    Direct,
}

/// Launch settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchOptions {
    /// How long to wait for every job to finish.
    pub timeout: Duration,
    /// Path selection.
    pub mode: LaunchMode,
    /// How long the caller expects the jobs to take, if it knows; steers [`LaunchMode::Auto`].
    pub expected_duration: Option<Duration>,
    /// Ask the firmware to flush caches around a mailbox launch (its `noflush` argument is the
    /// negation). The direct path always clears the V3D caches.
    pub flush_caches: bool,
    /// How long the post-timeout probe job may take.
    pub probe_timeout: Duration,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            timeout: Duration::from_secs(10),
            mode: LaunchMode::Auto,
            expected_duration: None,
            flush_caches: true,
            probe_timeout: Duration::from_millis(200),
        }
    }
}

impl LaunchOptions {
    /// Default options with this timeout.
    pub fn with_timeout(timeout: Duration) -> Self {
        LaunchOptions {
            timeout,
            ..LaunchOptions::default()
        }
    }
}

/// What a successful launch did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchReport {
    /// The path used.
    pub path: LaunchPath,
    /// Wall time from the first request to the last completion.
    pub elapsed: Duration,
    /// Jobs run.
    pub jobs: usize,
}

/// Result of the probe job run after a timeout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeOutcome {
    /// The probe job completed: the QPUs still run programs.
    Responded {
        /// How the probe was launched.
        path: LaunchPath,
    },
    /// The probe job did not complete in time: the GPU is wedged.
    NoResponse {
        /// How the probe was launched.
        path: LaunchPath,
        /// How long it was given.
        waited: Duration,
    },
    /// The probe could not be launched.
    NotRun {
        /// Why.
        reason: String,
    },
}

impl fmt::Display for ProbeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeOutcome::Responded { path } => write!(
                f,
                "A probe job launched by {path} afterwards completed: the GPU still responds \
                 (the timed-out programs may keep some QPUs busy until they end)"
            ),
            ProbeOutcome::NoResponse { path, waited } => write!(
                f,
                "A probe job launched by {path} did not complete within {waited:?} either: the \
                 GPU is wedged and only a reboot recovers it"
            ),
            ProbeOutcome::NotRun { reason } => {
                write!(
                    f,
                    "The GPU's state is unknown: the probe job could not run ({reason})"
                )
            }
        }
    }
}

/// Checks job addresses before anything reaches the hardware.
pub fn validate_jobs(jobs: &[Job]) -> Result<(), PiError> {
    for (index, job) in jobs.iter().enumerate() {
        if job.code == 0 {
            return Err(PiError::BadJob {
                index,
                problem: "code bus address is 0".to_string(),
            });
        }
        // Instructions are 64-bit words.
        if job.code % 8 != 0 {
            return Err(PiError::BadJob {
                index,
                problem: format!("code bus address 0x{:08x} is not 8-byte aligned", job.code),
            });
        }
        if job.uniforms % 4 != 0 {
            return Err(PiError::BadJob {
                index,
                problem: format!(
                    "uniforms bus address 0x{:08x} is not 4-byte aligned",
                    job.uniforms
                ),
            });
        }
    }
    Ok(())
}

/// Picks the launch path.
pub fn choose_path(
    jobs: usize,
    options: &LaunchOptions,
    direct_available: bool,
) -> Result<LaunchPath, PiError> {
    match options.mode {
        LaunchMode::Mailbox => Ok(LaunchPath::Mailbox),
        LaunchMode::Direct => {
            if direct_available {
                Ok(LaunchPath::Direct)
            } else {
                Err(PiError::DirectUnavailable {
                    reason: "the V3D registers are not mapped on this device".to_string(),
                })
            }
        }
        LaunchMode::Auto => {
            if !direct_available {
                return Ok(LaunchPath::Mailbox);
            }
            let short = options
                .expected_duration
                .is_some_and(|expected| expected <= SHORT_JOB);
            let beyond_mailbox = options.timeout > MAILBOX_WAIT_LIMIT;
            if short || beyond_mailbox || jobs > QPU_COUNT {
                Ok(LaunchPath::Direct)
            } else {
                Ok(LaunchPath::Mailbox)
            }
        }
    }
}

/// Why a direct launch stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DirectFailure {
    /// Not all jobs completed in time.
    TimedOut,
    /// SRQCS flagged a queue error; the value read.
    QueueError(u32),
}

/// Waits, spinning for the first millisecond and sleeping briefly after that.
fn pause(started: Instant) {
    if started.elapsed() < SHORT_JOB {
        std::hint::spin_loop();
    } else {
        std::thread::sleep(Duration::from_micros(100));
    }
}

/// Runs `jobs` through the V3D scheduler and waits for them.
pub(crate) fn direct_launch(
    registers: &mut dyn RegisterFile,
    jobs: &[Job],
    timeout: Duration,
) -> Result<Duration, DirectFailure> {
    use std::sync::atomic::{fence, Ordering};

    // Whatever the host wrote to GPU memory must be visible before the first request.
    fence(Ordering::SeqCst);
    registers.write(registers::DBCFG, 0);
    registers.write(registers::DBQITE, 0);
    registers.write(registers::DBQITC, u32::MAX);
    registers.write(registers::L2CACTL, registers::L2CACTL_CLEAR);
    registers.write(registers::SLCACTL, registers::SLCACTL_CLEAR_ALL);
    registers.write(registers::SRQCS, registers::SRQCS_RESET);

    let started = Instant::now();
    let target = (jobs.len() % 256) as u32;
    let mut submitted = 0usize;
    loop {
        let status = registers.read(registers::SRQCS);
        if status & registers::SRQCS_ERROR != 0 {
            return Err(DirectFailure::QueueError(status));
        }
        // Keep the request queue fed without overflowing it.
        let mut queued = registers::srqcs_queue_length(status);
        while submitted < jobs.len() && queued < registers::REQUEST_QUEUE_DEPTH {
            let job = jobs[submitted];
            registers.write(registers::SRQUA, job.uniforms);
            registers.write(registers::SRQPC, job.code);
            submitted += 1;
            queued += 1;
        }
        // The completed count is 8 bits wide. Comparing it mod 256 is sound because at most
        // 16 queued + 12 running programs are outstanding at any time, far fewer than 256, so
        // once every request is in, the count matches `target` only when all have finished.
        if submitted == jobs.len() && registers::srqcs_completed(status) == target {
            let confirm = registers.read(registers::SRQCS);
            if registers::srqcs_completed(confirm) == target
                && registers::srqcs_queue_length(confirm) == 0
            {
                fence(Ordering::SeqCst);
                return Ok(started.elapsed());
            }
        }
        if started.elapsed() >= timeout {
            return Err(DirectFailure::TimedOut);
        }
        pause(started);
    }
}

/// Encodes one instruction from its fields (reference guide §3): sig [63:60], cond_add [51:49], waddr_add [43:38],
/// waddr_mul [37:32], raddr_a [23:18], raddr_b [17:12], low word = ALU or immediate fields.
const fn instruction(sig: u64, cond_add: u64, waddr_add: u64, waddr_mul: u64, low: u64) -> u64 {
    (sig << 60) | (cond_add << 49) | (waddr_add << 38) | (waddr_mul << 32) | low
}

/// Signal "no signal" (1), "program end" (3), "load immediate" (14).
const SIG_NONE: u64 = 1;
const SIG_THREAD_END: u64 = 3;
const SIG_LOAD_IMMEDIATE: u64 = 14;
/// Write address 38 = host interrupt; 39 = no write.
const WADDR_HOST_INTERRUPT: u64 = 38;
const WADDR_NOP: u64 = 39;
/// Read address 39 = no read, in both raddr_a and raddr_b; add and mul opcodes 0 = nop.
const LOW_NOP_READS: u64 = (39 << 18) | (39 << 12);

/// The probe program: raise the host interrupt (what the firmware's execute-QPU waits for), end
/// the thread, and fill the two delay slots that follow a program end with no-ops.
pub const PROBE_PROGRAM: [u64; 4] = [
    // ldi host_int, 1 (condition "always" = 1 on the add output; mul output discarded)
    instruction(SIG_LOAD_IMMEDIATE, 1, WADDR_HOST_INTERRUPT, WADDR_NOP, 1),
    instruction(SIG_THREAD_END, 0, WADDR_NOP, WADDR_NOP, LOW_NOP_READS),
    instruction(SIG_NONE, 0, WADDR_NOP, WADDR_NOP, LOW_NOP_READS),
    instruction(SIG_NONE, 0, WADDR_NOP, WADDR_NOP, LOW_NOP_READS),
];

/// The probe program as little-endian 32-bit words (low half first), ready to copy into GPU
/// memory.
pub fn probe_program_words() -> [u32; 8] {
    let mut words = [0u32; 8];
    for (index, instruction) in PROBE_PROGRAM.iter().enumerate() {
        words[2 * index] = *instruction as u32;
        words[2 * index + 1] = (*instruction >> 32) as u32;
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_program_matches_known_encodings() {
        // "nop" and "thrend" as they appear (low word, high word) in hex dumps of hand-written
        // VideoCore IV shaders such as GPU_FFT's: 0x009e7000, 0x100009e7 and
        // 0x009e7000, 0x300009e7.
        let words = probe_program_words();
        assert_eq!(&words[2..4], &[0x009e_7000, 0x3000_09e7]);
        assert_eq!(&words[4..6], &[0x009e_7000, 0x1000_09e7]);
        assert_eq!(&words[6..8], &[0x009e_7000, 0x1000_09e7]);
        // "mov interrupt, 1" is 0x00000001, 0xe00209a7 in assembler listings of shipped
        // VideoCore IV shaders (e.g. the OpenVG tessellation shaders in Raspberry Pi userland).
        assert_eq!(&words[0..2], &[0x0000_0001, 0xE002_09A7]);
    }

    #[test]
    fn probe_program_fields_decode() {
        let ldi = PROBE_PROGRAM[0];
        assert_eq!(ldi >> 60, 14);
        assert_eq!((ldi >> 49) & 7, 1);
        assert_eq!((ldi >> 38) & 63, 38);
        assert_eq!((ldi >> 32) & 63, 39);
        assert_eq!(ldi as u32, 1);
        assert_eq!(PROBE_PROGRAM[1] >> 60, 3);
    }

    #[test]
    fn job_validation() {
        assert!(validate_jobs(&[Job {
            uniforms: 0xC000_1000,
            code: 0xC000_2000
        }])
        .is_ok());
        let error = validate_jobs(&[
            Job {
                uniforms: 0xC000_1000,
                code: 0xC000_2000,
            },
            Job {
                uniforms: 0xC000_1000,
                code: 0xC000_2004,
            },
        ])
        .unwrap_err();
        assert!(matches!(error, PiError::BadJob { index: 1, .. }), "{error}");
        assert!(validate_jobs(&[Job {
            uniforms: 2,
            code: 8
        }])
        .is_err());
        assert!(validate_jobs(&[Job {
            uniforms: 0,
            code: 0
        }])
        .is_err());
    }

    #[test]
    fn auto_path_choice() {
        let mut options = LaunchOptions::with_timeout(Duration::from_millis(500));
        assert_eq!(choose_path(4, &options, true).unwrap(), LaunchPath::Mailbox);
        options.expected_duration = Some(Duration::from_micros(200));
        assert_eq!(choose_path(4, &options, true).unwrap(), LaunchPath::Direct);
        options.expected_duration = Some(Duration::from_millis(50));
        assert_eq!(choose_path(4, &options, true).unwrap(), LaunchPath::Mailbox);
        assert_eq!(choose_path(13, &options, true).unwrap(), LaunchPath::Direct);
        options.timeout = Duration::from_secs(5);
        assert_eq!(choose_path(4, &options, true).unwrap(), LaunchPath::Direct);
        // Without mapped registers Auto falls back to the mailbox and Direct is an error.
        assert_eq!(
            choose_path(4, &options, false).unwrap(),
            LaunchPath::Mailbox
        );
        options.mode = LaunchMode::Direct;
        assert!(matches!(
            choose_path(4, &options, false),
            Err(PiError::DirectUnavailable { .. })
        ));
        options.mode = LaunchMode::Mailbox;
        assert_eq!(choose_path(4, &options, true).unwrap(), LaunchPath::Mailbox);
    }

    #[test]
    fn probe_outcome_messages() {
        let wedged = ProbeOutcome::NoResponse {
            path: LaunchPath::Direct,
            waited: Duration::from_millis(200),
        };
        assert!(wedged.to_string().contains("reboot"));
        let fine = ProbeOutcome::Responded {
            path: LaunchPath::Mailbox,
        };
        assert!(fine.to_string().contains("still responds"));
    }
}

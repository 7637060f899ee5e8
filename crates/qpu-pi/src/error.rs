//! The crate's one error type.

use crate::launch::{LaunchPath, ProbeOutcome};
use crate::property::Tag;
use std::io;
use std::time::Duration;

/// Where config.txt lives: Raspberry Pi OS Bookworm moved it to /boot/firmware.
pub const CONFIG_TXT: &str = "/boot/firmware/config.txt (or /boot/config.txt on older systems)";

/// Everything that can go wrong between this process and the VideoCore IV.
#[derive(Debug, thiserror::Error)]
pub enum PiError {
    /// This machine has no Raspberry Pi GPU (not a Pi, or the device tree says otherwise).
    #[error("no Raspberry Pi GPU found: {missing}")]
    NoPiGpu {
        /// What was looked for and not found, path by path.
        missing: String,
    },

    /// A Raspberry Pi whose GPU is not a VideoCore IV.
    #[error(
        "{board} has a {gpu} GPU; this backend drives only VideoCore IV (Pi 1, Zero, Zero W, \
         Zero 2 W, 2, 3, CM1, CM3, CM3+). Run on the emulator instead: QPU_BACKEND=emulator"
    )]
    UnsupportedBoard {
        /// The decoded board.
        board: String,
        /// Its GPU generation.
        gpu: String,
    },

    /// A revision code the documentation does not describe.
    #[error(
        "unrecognised Raspberry Pi revision code 0x{code:x} (from {source_path}); the board \
         cannot be identified, so the GPU is not touched"
    )]
    UnknownRevision {
        /// The code read.
        code: u32,
        /// Where it was read from.
        source_path: String,
    },

    /// The Linux vc4 DRM driver owns the V3D block, so the firmware refuses QPU mailbox calls.
    #[error(
        "the vc4 graphics driver owns the GPU ({evidence}), and the firmware refuses QPU \
         requests while it does. Fix: in {config_txt} comment out the line \
         `dtoverlay=vc4-kms-v3d` (or `dtoverlay=vc4-fkms-v3d`), keep `gpu_mem` at 64 or more, \
         and reboot. This turns off the accelerated desktop (OpenGL) on this Pi",
        config_txt = CONFIG_TXT
    )]
    KmsDriverOwnsGpu {
        /// What showed the driver is active.
        evidence: String,
    },

    /// `/dev/vcio` is absent.
    #[error(
        "{path} does not exist, so the firmware mailbox cannot be reached. It is created by the \
         Raspberry Pi kernel's vcio driver (device tree compatible \"raspberrypi,vcio\"), which \
         Raspberry Pi OS kernels include; kernels without it (some generic distribution \
         kernels) cannot run this backend. Do not create the node by hand with mknod: current \
         kernels assign its number dynamically"
    )]
    VcioMissing {
        /// The path tried.
        path: String,
    },

    /// A device node exists but this process may not open it.
    #[error("permission denied opening {path} ({detail}). Fix: {fix}")]
    PermissionDenied {
        /// The device node.
        path: String,
        /// Owner, group and mode of the node, and who we are.
        detail: String,
        /// The one-line fix.
        fix: String,
    },

    /// The device tree is present but unreadable or malformed where we need it.
    #[error("device tree problem at {path}: {problem}")]
    DeviceTree {
        /// The file.
        path: String,
        /// What is wrong.
        problem: String,
    },

    /// An OS call failed.
    #[error("{what}: {source}")]
    Io {
        /// What we were doing.
        what: String,
        /// The OS error.
        #[source]
        source: io::Error,
    },

    /// The ioctl carrying a property tag failed.
    #[error("mailbox call for {tag} failed: {source}{hint}")]
    MailboxCall {
        /// The tag sent.
        tag: Tag,
        /// The OS error.
        #[source]
        source: io::Error,
        /// What the OS error means for this driver.
        hint: &'static str,
    },

    /// The firmware answered the whole buffer with an error code.
    #[error("firmware rejected the request for {tag}: response code 0x{code:08x}")]
    RequestRejected {
        /// The tag sent.
        tag: Tag,
        /// Word 1 of the response.
        code: u32,
    },

    /// The firmware did not set the response bit of the tag (it does not know the tag).
    #[error(
        "firmware did not answer {tag}: the tag's response bit is clear, so this firmware does \
         not implement it. Update the firmware (sudo apt full-upgrade)"
    )]
    TagNotAnswered {
        /// The tag sent.
        tag: Tag,
    },

    /// The response could not be read as the documented format.
    #[error("malformed firmware response to {tag}: {problem}")]
    MalformedResponse {
        /// The tag sent.
        tag: Tag,
        /// What was wrong.
        problem: String,
    },

    /// A tag answered with a failing status value.
    #[error("firmware reported failure for {tag}: status 0x{status:08x}")]
    TagFailed {
        /// The tag sent.
        tag: Tag,
        /// The status value returned.
        status: u32,
    },

    /// The firmware refused to power the QPUs.
    #[error(
        "the firmware refused to enable the QPUs (status 0x{status:08x}). Usual causes: \
         `gpu_mem=16` in {config_txt} (the cut-down firmware has no 3D block; set gpu_mem=64 or \
         more), or the vc4 graphics driver owns the GPU (remove `dtoverlay=vc4-kms-v3d`); \
         reboot after changing config.txt",
        config_txt = CONFIG_TXT
    )]
    QpuEnableRefused {
        /// Status value of SET_ENABLE_QPU.
        status: u32,
    },

    /// GPU memory allocation failed.
    #[error(
        "GPU memory allocation of {requested} bytes failed; the GPU's memory split is {split}. \
         Fix: free other GPU buffers, allocate less, or raise `gpu_mem=` in {config_txt} and \
         reboot",
        split = gpu_mem_text(*gpu_mem_bytes),
        config_txt = CONFIG_TXT
    )]
    AllocationFailed {
        /// Bytes requested (after rounding to whole pages).
        requested: usize,
        /// Size of the VideoCore memory split as the firmware reports it.
        gpu_mem_bytes: Option<u32>,
    },

    /// The firmware could not lock an allocation to a bus address.
    #[error("firmware could not lock GPU memory handle {handle} to a bus address")]
    LockFailed {
        /// The allocation handle.
        handle: u32,
    },

    /// The V3D register block does not identify itself.
    #[error(
        "V3D registers at physical 0x{physical:08x} read IDENT0 = 0x{ident0:08x}, expected \
         0x{expected:08x} (\"V3D\", version 2): the 3D block is powered off or the peripheral \
         base is wrong"
    )]
    V3dNotResponding {
        /// Physical address mapped.
        physical: u64,
        /// What IDENT0 read.
        ident0: u32,
        /// What it should read.
        expected: u32,
    },

    /// A job description is unusable.
    #[error("job {index}: {problem}")]
    BadJob {
        /// Index of the job in the launch.
        index: usize,
        /// What is wrong.
        problem: String,
    },

    /// The launch was given no jobs or more than the path accepts.
    #[error("cannot launch {count} jobs by {path}: {problem}")]
    JobCount {
        /// Jobs requested.
        count: usize,
        /// The launch path.
        path: LaunchPath,
        /// The limit broken.
        problem: String,
    },

    /// The direct path was requested but the V3D registers are not mapped.
    #[error("direct V3D register launch is unavailable: {reason}")]
    DirectUnavailable {
        /// Why.
        reason: String,
    },

    /// The jobs did not finish in time. All GPU memory of this device is marked invalid.
    #[error(
        "QPU jobs launched by {path} did not finish within {timeout:?}; every GPU buffer of \
         this device is marked invalid. {probe}. If the kernel is just slow, raise the timeout \
         or split the work into smaller launches"
    )]
    Timeout {
        /// How the jobs were launched.
        path: LaunchPath,
        /// The timeout that expired.
        timeout: Duration,
        /// What the post-timeout probe job found.
        probe: ProbeOutcome,
    },

    /// The firmware's execute-QPU answered with an unexpected status.
    #[error("EXECUTE_QPU failed with status 0x{status:08x}; GPU buffers are marked invalid")]
    ExecuteFailed {
        /// The status value.
        status: u32,
    },

    /// The V3D scheduler flagged a request queue error.
    #[error(
        "the V3D QPU request queue reported an error (SRQCS = 0x{srqcs:08x}); GPU buffers are \
         marked invalid"
    )]
    QueueError {
        /// The SRQCS value read.
        srqcs: u32,
    },

    /// A buffer was read, or borrowed as a slice, after a failed launch.
    #[error(
        "GPU buffer at bus 0x{bus_address:08x} holds invalid data: a launch that could write it \
         failed or timed out, and one of its programs may still be writing. Rewrite it \
         (write_words) and call mark_valid() before reading it or borrowing it as a slice"
    )]
    OutputInvalid {
        /// Bus address of the buffer.
        bus_address: u32,
    },

    /// A buffer's mapping offers word access only, so it cannot be viewed as a slice.
    #[error(
        "GPU buffer at bus 0x{bus_address:08x} is mapped through a region without a base \
         pointer (MappedRegion::memory_words returned None), so it has no slice view; use \
         read_words/write_words"
    )]
    NoSliceAccess {
        /// Bus address of the buffer.
        bus_address: u32,
    },

    /// A slice passed to a launch is not GPU memory of this device.
    #[error(
        "launch buffer {index} ({len} words at host address 0x{host_address:x}) is not inside \
         any live GPU buffer of this device; the QPUs can only reach GPU memory allocated with \
         Gpu::alloc on the same device"
    )]
    NotGpuMemory {
        /// Position of the buffer in the launch.
        index: usize,
        /// Host address of the slice's first word.
        host_address: usize,
        /// Its length in words.
        len: usize,
    },

    /// A buffer passed to a launch was marked invalid by an earlier failed launch.
    #[error(
        "launch buffer {index} (GPU memory at bus 0x{bus_address:08x}) is marked invalid: an \
         earlier launch that could write it failed or timed out. Rewrite it and call \
         mark_valid(), or allocate a new buffer"
    )]
    BufferInvalid {
        /// Position of the buffer in the launch.
        index: usize,
        /// Bus address of the slice's first word.
        bus_address: u32,
    },

    /// The programs changed a buffer they were given read-only.
    #[error(
        "launch buffer {index} was passed read-only, but the programs wrote it (first changed \
         word at bus 0x{bus_address:08x})"
    )]
    ReadOnlyWritten {
        /// Position of the buffer in the launch.
        index: usize,
        /// Bus address of the first word that changed.
        bus_address: u32,
    },

    /// A word index outside a buffer.
    #[error("word index {index} is outside a GPU buffer of {len} words")]
    OutOfBounds {
        /// Requested index (start of the range).
        index: usize,
        /// Buffer length in words.
        len: usize,
    },

    /// Mapping physical memory failed.
    #[error("could not map {len} bytes of physical memory at 0x{physical:08x}: {source}")]
    Mapping {
        /// Physical address.
        physical: u64,
        /// Length.
        len: usize,
        /// The OS error.
        #[source]
        source: io::Error,
    },

    /// No DRM render node is driven by the `v3d` driver (Pi 4/5 path).
    #[error(
        "no V3D GPU found: no DRM render node is driven by the `v3d` driver ({looked}). The Pi \
         4/400/CM4 and Pi 5/500/CM5 GPU is reached through that driver, which the \
         `dtoverlay=vc4-kms-v3d` line of {CONFIG_TXT} loads (Raspberry Pi OS's default)"
    )]
    NoV3dNode {
        /// The nodes tried and what each turned out to be.
        looked: String,
    },

    /// A call into the `v3d` DRM driver failed.
    #[error("{call} on {node} failed: {source}{hint}")]
    DrmCall {
        /// The ioctl or system call.
        call: &'static str,
        /// The device node.
        node: String,
        /// The OS error.
        #[source]
        source: io::Error,
        /// What the error means here and what to do.
        hint: String,
    },

    /// A V3D job did not finish within the timeout (WAIT_BO returned ETIME).
    #[error(
        "the V3D job did not finish within {timeout:?} (WAIT_BO timed out). The v3d driver \
         resets the GPU when a batch makes no progress for 500 ms, so the GPU may have been \
         reset: check `dmesg`, and split long work into more, shorter batches"
    )]
    V3dTimeout {
        /// The timeout that expired.
        timeout: Duration,
    },

    /// A V3D buffer object was read, or borrowed as a slice, after a failed launch.
    #[error(
        "V3D buffer object at GPU address 0x{gpu_address:08x} holds invalid data: a launch on \
         this device failed or timed out, and its job may still be writing. Rewrite it \
         (write_words) and call mark_valid() before reading it or borrowing it as a slice, or \
         copy out what is left with salvage_words"
    )]
    V3dBufferInvalid {
        /// GPU address of the buffer.
        gpu_address: u32,
    },

    /// A V3D buffer object's mapping offers word access only, so it cannot be viewed as a
    /// slice.
    #[error(
        "V3D buffer object at GPU address 0x{gpu_address:08x} is mapped through a region \
         without a base pointer (MappedRegion::memory_words returned None), so it has no slice \
         view; use read_words/write_words"
    )]
    V3dNoSliceAccess {
        /// GPU address of the buffer.
        gpu_address: u32,
    },

    /// A slice passed to a V3D launch is not in a buffer object of this device.
    #[error(
        "launch buffer {index} ({len} words at host address 0x{host_address:x}) is not inside \
         any live buffer object of this V3D; a job can only be lent slices of buffers \
         allocated with V3d::alloc on the same device"
    )]
    V3dNotBufferMemory {
        /// Position of the slice in the launch.
        index: usize,
        /// Host address of the slice's first word.
        host_address: usize,
        /// Its length in words.
        len: usize,
    },

    /// A slice passed to a V3D launch lies in a buffer marked invalid by a failed launch.
    #[error(
        "launch buffer {index} (GPU address 0x{gpu_address:08x}) is marked invalid: an earlier \
         launch on this device failed or timed out, and its job may still be writing. Rewrite \
         it and call mark_valid(), or allocate a new buffer"
    )]
    V3dLaunchBufferInvalid {
        /// Position of the slice in the launch.
        index: usize,
        /// GPU address of the slice's first word.
        gpu_address: u32,
    },

    /// A V3D job changed a slice it was lent read-only.
    #[error(
        "launch buffer {index} was lent read-only, but the job wrote it (first changed word at \
         GPU address 0x{gpu_address:08x})"
    )]
    V3dReadOnlyWritten {
        /// Position of the slice in the launch.
        index: usize,
        /// GPU address of the first word that changed.
        gpu_address: u32,
    },

    /// A V3D job changed words of a buffer object it was lent outside every lent slice.
    #[error(
        "the job wrote outside the slices it was lent: the word at GPU address \
         0x{gpu_address:08x} is in the buffer object of launch buffer {index} but in no lent \
         slice (a store past the end of an array lands there)"
    )]
    V3dOutsideSliceWritten {
        /// Position of the first slice lying in that buffer object.
        index: usize,
        /// GPU address of the first word that changed.
        gpu_address: u32,
    },

    /// The V3D found cannot run this crate's jobs.
    #[error("unsupported V3D GPU: {problem}")]
    V3dUnsupported {
        /// What is missing or unknown.
        problem: String,
    },

    /// This platform cannot reach the hardware at all (not Linux).
    #[error("no Raspberry Pi GPU found: {0}")]
    Unsupported(String),

    /// A bug in this crate; please report.
    #[error("internal error in qpu-pi: {0}")]
    Internal(String),
}

fn gpu_mem_text(bytes: Option<u32>) -> String {
    match bytes {
        Some(bytes) => format!("{} MiB (gpu_mem)", bytes / (1024 * 1024)),
        None => "unknown (the firmware did not report it)".to_string(),
    }
}

impl PiError {
    /// Wraps a failed mailbox ioctl, explaining what the vcio driver's errors mean.
    pub(crate) fn from_mailbox_io(tag: Tag, source: io::Error) -> PiError {
        let hint = match source.raw_os_error() {
            // rpi_firmware_property_list returns -EINVAL when the firmware's response code is
            // not success; the kernel log then says "Request 0x... returned status 0x...".
            Some(libc::EINVAL) => {
                " (the kernel's firmware driver returns EINVAL when the firmware answers with an \
                 error status; `dmesg` shows the status word)"
            }
            // rpi_firmware_transaction waits one second (HZ) for the firmware.
            Some(libc::ETIMEDOUT) => {
                " (the kernel gave up waiting for the firmware after its 1 s transaction timeout)"
            }
            Some(libc::ENOTTY) => " (this file is not the vcio mailbox device)",
            _ => "",
        };
        PiError::MailboxCall { tag, source, hint }
    }

    /// Whether this error means "there is no usable Pi GPU here" (as opposed to a failure of a
    /// GPU that exists). Backend selection falls back to the emulator on these.
    pub fn is_no_gpu(&self) -> bool {
        matches!(
            self,
            PiError::NoPiGpu { .. }
                | PiError::NoV3dNode { .. }
                | PiError::UnsupportedBoard { .. }
                | PiError::UnknownRevision { .. }
                | PiError::Unsupported(_)
        )
    }
}

//! qpu-pi: run QPU programs on a Raspberry Pi's VideoCore IV GPU, and fail clearly when that
//! is not possible.
//!
//! Its one job is the hardware boundary: board and driver checks ([`probe`]), the firmware's
//! mailbox property interface over `/dev/vcio` ([`property`]), GPU memory that the ARM and the
//! QPUs share ([`GpuMemory`]), and launches by mailbox or by the V3D registers
//! ([`Gpu::launch`]). All of the workspace's `unsafe` code lives here, behind small traits
//! ([`Mailbox`], [`PhysicalMemory`], [`RegisterFile`], [`SystemProbe`]) so the logic above them
//! runs in tests against [`standin::FakeVideoCore`].
//!
//! **Status: this backend has not yet been run on hardware by the project.** It is written to
//! the documented contracts (each fact is cited beside the code that uses it) and tested
//! against the stand-in. See `RUNNING_ON_PI.md` in this crate.
//!
//! ```
//! use qpu_pi::standin::FakeVideoCore;
//! use std::time::Duration;
//!
//! // On a machine that is not a supported Pi, probing explains what is missing.
//! if let Err(error) = qpu_pi::probe() {
//!     assert!(error.is_no_gpu() || !error.to_string().is_empty());
//! }
//!
//! // The same API against the in-process stand-in (on a Pi: `qpu_pi::Gpu::open()?`).
//! let core = FakeVideoCore::default();
//! let gpu = core.open_gpu()?;
//! let mut buffer = gpu.alloc(64)?;              // one zeroed, uncached 4 KiB page
//! buffer.write_u32(0, 0xdead_beef)?;
//! assert_eq!(buffer.read_u32(0)?, 0xdead_beef);
//! // Or as a slice of the mapping itself: what the GPU sees at the bus address, no copy.
//! buffer.as_words_mut()?[1] = 7;
//! assert_eq!(core.read_bus(buffer.bus_address() + 4), Some(7));
//!
//! // One program: (uniforms bus address, code bus address). The stand-in does not execute
//! // QPU code; it completes every job unless given an executor that says otherwise.
//! let code = buffer.bus_address_of(16)?;
//! let uniforms = buffer.bus_address_of(2)?;
//! let report = gpu.launch(&[(uniforms, code)], Duration::from_millis(500))?;
//! assert_eq!(report.jobs, 1);
//! drop(buffer);
//! drop(gpu);
//! assert_eq!(core.live_allocations(), 0); // everything released
//! # Ok::<(), qpu_pi::PiError>(())
//! ```

pub mod board;
pub mod cleanup;
pub mod error;
pub mod gpu;
pub mod ioctl;
pub mod launch;
pub mod mailbox;
pub mod memory;
pub mod property;
pub mod registers;
pub mod standin;
pub mod system;
pub mod v3d;

pub use board::{BoardInfo, BoardType, GpuGeneration, Processor};
pub use cleanup::install_signal_cleanup;
pub use error::PiError;
pub use gpu::{Gpu, GpuMemory, LaunchBuffer, Registers};
pub use launch::{Job, LaunchMode, LaunchOptions, LaunchPath, LaunchReport, ProbeOutcome};
pub use mailbox::Mailbox;
#[cfg(target_os = "linux")]
pub use mailbox::VcioMailbox;
pub use memory::{bus_to_physical, MappedRegion, PhysicalMemory};
pub use registers::RegisterFile;
pub use system::{probe, probe_with, HostSystem, PiInfo, SystemProbe};

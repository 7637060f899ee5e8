//! Backend selection: the Pi when this machine has a supported one, the emulator otherwise,
//! or whatever the `QPU_BACKEND` environment variable names.
//!
//! | `QPU_BACKEND` | device |
//! |---|---|
//! | unset or empty | automatic: the Pi when [`qpu_pi::probe`] finds a supported board (and its GPU opens), `pi-v3d` on a Pi 4/5 (when its v3d node opens), else the emulator |
//! | `pi` | the Pi; off a supported Pi, [`Device::auto`] fails with `qpu_pi`'s explanation (`no Raspberry Pi GPU found: ...`) |
//! | `emulator` (or `emulator-vc4`) | the strict emulator (VideoCore IV) |
//! | `emulator-vc6` | the V3D 4.2 emulator (Pi 4), kernels compiled by the first-slice V3D compiler |
//! | `emulator-vc7` | the V3D 7.1 emulator (Pi 5), likewise |
//! | `interpreter` | the reference interpreter |
//! | `pi-v3d` | a Pi 4/5 GPU through the Linux `v3d` DRM driver, kernels compiled by the V3D compiler (not yet run on hardware) |
//!
//! Values are case-insensitive; anything else is an error listing these. The choice is
//! reported once: [`Device::describe`] says which backend runs and why, and the first
//! automatic fallback to the emulator in a process prints one line on stderr (setting
//! `QPU_BACKEND` explicitly silences it).
//!
//! ```
//! use qpu::runtime::select::{choose, BackendKind};
//!
//! // The decision alone, for a given QPU_BACKEND value and probe:
//! let choice = choose(Some("Emulator"), qpu_pi::probe)?;
//! assert_eq!(choice.kind, BackendKind::Emulator);
//! assert_eq!(choice.reason, "QPU_BACKEND=emulator");
//! assert!(choose(Some("gpu"), qpu_pi::probe).is_err());
//! # Ok::<(), qpu::Error>(())
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use qpu_pi::{PiError, PiInfo};

use super::pi::pi_error;
use super::{Device, Pi};
use crate::error::{Error, Result};

/// The environment variable that overrides the automatic choice.
pub const BACKEND_ENV: &str = "QPU_BACKEND";

/// The backends a device can run on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// A Raspberry Pi's VideoCore IV ([`super::Pi`]).
    Pi,
    /// The strict emulator ([`super::Emulator`]).
    Emulator,
    /// The reference interpreter ([`super::Interpreter`]).
    Interpreter,
    /// The V3D 4.2 (Pi 4) emulator ([`super::V3dEmulatorBackend`]).
    EmulatorVc6,
    /// The V3D 7.1 (Pi 5) emulator ([`super::V3dEmulatorBackend`]).
    EmulatorVc7,
    /// A Pi 4/5 through the `v3d` DRM driver ([`super::V3dPi`]).
    PiV3d,
}

impl BackendKind {
    /// Every kind, in the order error messages list them.
    pub const ALL: [BackendKind; 6] = [
        BackendKind::Pi,
        BackendKind::Emulator,
        BackendKind::Interpreter,
        BackendKind::EmulatorVc6,
        BackendKind::EmulatorVc7,
        BackendKind::PiV3d,
    ];

    /// The name `QPU_BACKEND` uses for it.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Pi => "pi",
            BackendKind::Emulator => "emulator",
            BackendKind::Interpreter => "interpreter",
            BackendKind::EmulatorVc6 => "emulator-vc6",
            BackendKind::EmulatorVc7 => "emulator-vc7",
            BackendKind::PiV3d => "pi-v3d",
        }
    }

    /// Parses a `QPU_BACKEND` value (case-insensitive, surrounding blanks ignored).
    pub fn parse(value: &str) -> Result<BackendKind> {
        let wanted = value.trim();
        // `emulator-vc4` names the VideoCore IV emulator explicitly, beside vc6 and vc7.
        if wanted.eq_ignore_ascii_case("emulator-vc4") {
            return Ok(BackendKind::Emulator);
        }
        BackendKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                let valid: Vec<&str> = BackendKind::ALL.iter().map(|kind| kind.name()).collect();
                selection_error(format!(
                    "unknown backend {value:?}; valid values are {} (any case), or leave it \
                     unset to choose automatically",
                    valid.join(", ")
                ))
            })
    }
}

impl std::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

fn selection_error(message: String) -> Error {
    Error::Backend {
        backend: BACKEND_ENV.to_string(),
        message,
    }
}

/// A backend choice and the reason for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The backend.
    pub kind: BackendKind,
    /// Why, in a few words: `QPU_BACKEND=emulator`, `automatic: Raspberry Pi 3 Model B ...`,
    /// `automatic: no Raspberry Pi GPU found: ...`.
    pub reason: String,
    /// Whether `QPU_BACKEND` named the backend (rather than the automatic choice).
    pub requested: bool,
    /// Whether the automatic choice fell back from the Pi to the emulator.
    pub fallback: bool,
}

impl Choice {
    fn automatic_fallback(why: impl std::fmt::Display) -> Choice {
        Choice {
            kind: BackendKind::Emulator,
            // One line, whatever the underlying message looks like.
            reason: format!("automatic: {why}").replace(['\n', '\r'], " "),
            requested: false,
            fallback: true,
        }
    }
}

/// Decides the backend from a `QPU_BACKEND` value (`None` when unset) and, for the automatic
/// choice only, the result of probing for a Pi (`qpu_pi::probe` in [`Device::auto`]).
pub fn choose(
    requested: Option<&str>,
    probe: impl FnOnce() -> std::result::Result<PiInfo, PiError>,
) -> Result<Choice> {
    match requested.map(str::trim).filter(|value| !value.is_empty()) {
        Some(value) => {
            let kind = BackendKind::parse(value)?;
            Ok(Choice {
                kind,
                reason: format!("{BACKEND_ENV}={kind}"),
                requested: true,
                fallback: false,
            })
        }
        None => Ok(match probe() {
            Ok(info) => Choice {
                kind: BackendKind::Pi,
                reason: format!("automatic: {}", info.describe()),
                requested: false,
                fallback: false,
            },
            // A Pi 4/5: its GPU is reached through the v3d DRM driver instead.
            Err(PiError::UnsupportedBoard { board, gpu })
                if qpu_pi::GpuGeneration::is_v3d_name(&gpu) =>
            {
                Choice {
                    kind: BackendKind::PiV3d,
                    reason: format!("automatic: {board} has a {gpu} GPU (the v3d DRM path)"),
                    requested: false,
                    fallback: false,
                }
            }
            Err(error) => Choice::automatic_fallback(error),
        }),
    }
}

/// Whether this process has already announced an automatic fallback.
static FALLBACK_ANNOUNCED: AtomicBool = AtomicBool::new(false);

impl Device {
    /// The device `QPU_BACKEND` asks for, or the automatic choice (see the [module
    /// docs](self)). With `QPU_BACKEND=pi` off a supported Pi this is an error saying what is
    /// missing; the automatic choice never fails on the Pi's account, it falls back to the
    /// emulator and says why once on stderr.
    pub fn auto() -> Result<Device> {
        let requested = match std::env::var(BACKEND_ENV) {
            Ok(value) => Some(value),
            Err(std::env::VarError::NotPresent) => None,
            Err(std::env::VarError::NotUnicode(value)) => {
                return Err(selection_error(format!(
                    "the value {value:?} is not valid UTF-8"
                )))
            }
        };
        Device::auto_with(requested.as_deref(), qpu_pi::probe)
    }

    /// [`Device::auto`] with the `QPU_BACKEND` value and the probe given explicitly.
    pub fn auto_with(
        requested: Option<&str>,
        probe: impl FnOnce() -> std::result::Result<PiInfo, PiError>,
    ) -> Result<Device> {
        let choice = choose(requested, probe)?;
        let (mut device, choice) = match choice.kind {
            BackendKind::Emulator => (Device::emulator(), choice),
            BackendKind::Interpreter => (Device::interpreter(), choice),
            BackendKind::EmulatorVc6 => {
                (Device::v3d_emulator(qpu_isa::v3d::V3dVersion::V42), choice)
            }
            BackendKind::EmulatorVc7 => {
                (Device::v3d_emulator(qpu_isa::v3d::V3dVersion::V71), choice)
            }
            BackendKind::PiV3d => match Device::pi_v3d() {
                Ok(device) => (device, choice),
                Err(error) if !choice.requested => (
                    Device::emulator(),
                    Choice::automatic_fallback(format_args!(
                        "a Pi 4/5 was found but its GPU could not be opened through the v3d \
                         driver: {error}"
                    )),
                ),
                Err(error) => return Err(error),
            },
            BackendKind::Pi => match qpu_pi::Gpu::open() {
                Ok(gpu) => (Device::new(Pi::with_gpu(gpu)), choice),
                Err(error) if !choice.requested => (
                    Device::emulator(),
                    Choice::automatic_fallback(format_args!(
                        "a Raspberry Pi was found but its GPU could not be opened: {error}"
                    )),
                ),
                Err(error) => return Err(pi_error(error)),
            },
        };
        if choice.fallback && !FALLBACK_ANNOUNCED.swap(true, Ordering::Relaxed) {
            eprintln!(
                "qpu: running kernels on the emulator ({}); set {BACKEND_ENV}=emulator to \
                 silence this or {BACKEND_ENV}=pi to insist on the GPU",
                choice.reason
            );
        }
        device.origin = Some(choice.reason);
        Ok(device)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_pi() -> std::result::Result<PiInfo, PiError> {
        Err(PiError::NoPiGpu {
            missing: "/proc/device-tree/compatible does not exist".to_string(),
        })
    }

    fn unreachable_probe() -> std::result::Result<PiInfo, PiError> {
        panic!("an explicit QPU_BACKEND must not probe")
    }

    #[test]
    fn a_pi4_or_pi5_chooses_the_v3d_path_and_falls_back_when_it_cannot_open() {
        for gpu in ["VideoCore VI", "VideoCore VII"] {
            let probe = || {
                Err(PiError::UnsupportedBoard {
                    board: "Raspberry Pi 4 Model B".to_string(),
                    gpu: gpu.to_string(),
                })
            };
            let choice = choose(None, probe).unwrap();
            assert_eq!(choice.kind, BackendKind::PiV3d);
            assert!(!choice.requested && !choice.fallback);
            assert!(choice.reason.contains(gpu), "{}", choice.reason);
            // This machine has no v3d render node: the automatic choice runs on the emulator
            // and says why; asking for pi-v3d explicitly is an error instead.
            let device = Device::auto_with(None, probe).unwrap();
            assert_eq!(device.backend().name(), "emulator");
            assert!(device.describe().contains("v3d"), "{}", device.describe());
        }
        let error = Device::auto_with(Some("pi-v3d"), unreachable_probe)
            .expect_err("no v3d node here")
            .to_string();
        assert!(error.contains("pi-v3d"), "{error}");
    }

    #[test]
    fn values_parse_in_any_case() {
        for (value, kind) in [
            ("pi", BackendKind::Pi),
            ("PI", BackendKind::Pi),
            ("Emulator", BackendKind::Emulator),
            (" interpreter\n", BackendKind::Interpreter),
            ("INTERPRETER", BackendKind::Interpreter),
        ] {
            assert_eq!(BackendKind::parse(value), Ok(kind), "{value:?}");
        }
    }

    #[test]
    fn unknown_values_list_the_valid_ones() {
        for value in ["gpu", "emu", "pi4", "auto", "emulator,pi"] {
            let message = BackendKind::parse(value).unwrap_err().to_string();
            assert!(
                message.starts_with("QPU_BACKEND: unknown backend"),
                "{message}"
            );
            assert!(message.contains(&format!("{value:?}")), "{message}");
            assert!(message.contains("pi, emulator, interpreter"), "{message}");
        }
    }

    #[test]
    fn an_explicit_value_wins_without_probing() {
        let choice = choose(Some("interpreter"), unreachable_probe).unwrap();
        assert_eq!(
            choice,
            Choice {
                kind: BackendKind::Interpreter,
                reason: "QPU_BACKEND=interpreter".to_string(),
                requested: true,
                fallback: false
            }
        );
        assert_eq!(
            choose(Some("pi"), unreachable_probe).unwrap().kind,
            BackendKind::Pi
        );
        assert!(choose(Some("quantum"), unreachable_probe).is_err());
    }

    #[test]
    fn unset_or_empty_means_automatic() {
        for requested in [None, Some(""), Some("  ")] {
            let choice = choose(requested, no_pi).unwrap();
            assert_eq!(choice.kind, BackendKind::Emulator);
            assert!(choice.fallback);
            assert_eq!(
                choice.reason,
                "automatic: no Raspberry Pi GPU found: /proc/device-tree/compatible does not exist"
            );
        }
    }

    #[test]
    fn automatic_choice_takes_a_detected_pi() {
        let core = qpu_pi::standin::FakeVideoCore::default();
        let choice = choose(None, || core.pi_info()).unwrap();
        assert_eq!(choice.kind, BackendKind::Pi);
        assert!(!choice.fallback);
        let board = core.pi_info().unwrap().describe();
        assert_eq!(choice.reason, format!("automatic: {board}"));
    }

    #[test]
    fn fallback_reasons_stay_on_one_line() {
        let choice = choose(None, || {
            Err(PiError::Internal("first line\nsecond line".to_string()))
        })
        .unwrap();
        assert_eq!(choice.kind, BackendKind::Emulator);
        assert!(!choice.reason.contains('\n'), "{}", choice.reason);
        assert!(choice.reason.contains("first line second line"));
    }

    #[test]
    fn a_detected_pi_whose_gpu_cannot_open_falls_back_automatically() {
        // The stand-in's board passes the probe, but this machine's GPU cannot be opened.
        if qpu_pi::Gpu::open().is_ok() {
            return; // on a working Pi there is nothing to fall back from
        }
        let core = qpu_pi::standin::FakeVideoCore::default();
        let device = Device::auto_with(None, || core.pi_info()).unwrap();
        assert_eq!(device.backend().name(), "emulator");
        let description = device.describe();
        assert!(
            description.starts_with(
                "emulator (automatic: a Raspberry Pi was found but its GPU could not be opened: "
            ),
            "{description}"
        );
        // Asked for explicitly, the same failure is an error.
        let error = Device::auto_with(Some("pi"), || core.pi_info()).unwrap_err();
        assert!(error.to_string().starts_with("pi: "), "{error}");
    }

    #[test]
    fn devices_describe_their_origin() {
        let device = Device::auto_with(Some("Interpreter"), unreachable_probe).unwrap();
        assert_eq!(device.backend().name(), "interpreter");
        assert_eq!(device.describe(), "interpreter (QPU_BACKEND=interpreter)");
        let device = Device::auto_with(None, no_pi).unwrap();
        assert_eq!(device.backend().name(), "emulator");
        assert_eq!(
            device.describe(),
            "emulator (automatic: no Raspberry Pi GPU found: /proc/device-tree/compatible does \
             not exist)"
        );
        assert_eq!(Device::emulator().describe(), "emulator");
    }
}

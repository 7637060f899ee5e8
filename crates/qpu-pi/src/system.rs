//! Board and driver checks, made before any ioctl, through a file-system seam.
//!
//! Facts used:
//! - `/proc/device-tree/compatible` holds NUL-separated strings such as `raspberrypi,3-model-b`
//!   and `brcm,bcm2837`; `/proc/cpuinfo`'s `Revision` line holds the revision code (Raspberry Pi
//!   documentation, "Raspberry Pi revision codes", section "Check Raspberry Pi model and CPU
//!   across distributions"). The firmware also stores the code big-endian in the device tree
//!   property `/proc/device-tree/system/linux,revision`.
//! - `/proc/device-tree/soc/ranges` maps the peripheral bus window (child address 0x7e000000)
//!   to its ARM physical base; userland's `bcm_host_get_peripheral_address` reads the big-endian
//!   word at byte 4 of that file, and the word at byte 8 when the word at 4 is zero (BCM2711's
//!   two-cell parent address).
//! - The V3D block sits at bus address 0x7ec00000, 0x1000 bytes (`v3d@7ec00000` in the kernel's
//!   `bcm2835-common.dtsi`).
//! - The firmware refuses `qpu_enable`/`execute_qpu` while the device tree's v3d node is enabled,
//!   i.e. while the Linux vc4 driver owns the 3D block (raspberrypi/firmware#669; #981: "With
//!   [vc4-kms-v3d] the ARM takes control of the QPUs").
//! - `/dev/mem` mappings need root; Broadcom's `mapmem` prints "This program should be run as
//!   root".

use crate::board::{BoardInfo, GpuGeneration};
use crate::error::PiError;
use std::io;

/// Read-only access to the files the checks look at, so the checks run against a stand-in.
pub trait SystemProbe {
    /// Reads a whole file.
    fn read(&self, path: &str) -> io::Result<Vec<u8>>;
    /// Names of a directory's entries.
    fn list_dir(&self, path: &str) -> io::Result<Vec<String>>;
    /// Opens the path for reading and writing and closes it again.
    fn check_read_write(&self, path: &str) -> io::Result<()>;
    /// Owner, group and mode of a path, for error messages.
    fn describe(&self, path: &str) -> String;
    /// The effective user id of this process.
    fn effective_uid(&self) -> u32;
}

/// The real file system.
#[derive(Debug, Default, Clone, Copy)]
pub struct HostSystem;

impl SystemProbe for HostSystem {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn list_dir(&self, path: &str) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(path)? {
            names.push(entry?.file_name().to_string_lossy().into_owned());
        }
        Ok(names)
    }

    fn check_read_write(&self, path: &str) -> io::Result<()> {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map(drop)
    }

    fn describe(&self, path: &str) -> String {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match std::fs::metadata(path) {
                Ok(meta) => format!(
                    "owner uid {}, group gid {}, mode {:o}; this process runs as uid {}",
                    meta.uid(),
                    meta.gid(),
                    meta.mode() & 0o7777,
                    self.effective_uid()
                ),
                Err(error) => format!("cannot stat: {error}"),
            }
        }
        #[cfg(not(unix))]
        {
            format!("{path}: no unix permissions on this platform")
        }
    }

    fn effective_uid(&self) -> u32 {
        #[cfg(unix)]
        {
            // SAFETY: geteuid has no preconditions and cannot fail.
            unsafe { libc::geteuid() }
        }
        #[cfg(not(unix))]
        {
            u32::MAX
        }
    }
}

/// Paths the checks read.
pub mod paths {
    /// Device-tree compatible strings.
    pub const COMPATIBLE: &str = "/proc/device-tree/compatible";
    /// Device-tree model string.
    pub const MODEL: &str = "/proc/device-tree/model";
    /// Revision code stored by the firmware (big-endian u32).
    pub const DT_REVISION: &str = "/proc/device-tree/system/linux,revision";
    /// CPU information with the `Revision` line.
    pub const CPUINFO: &str = "/proc/cpuinfo";
    /// The SoC bus node.
    pub const SOC: &str = "/proc/device-tree/soc";
    /// The peripheral window mapping.
    pub const SOC_RANGES: &str = "/proc/device-tree/soc/ranges";
    /// Loaded kernel modules.
    pub const MODULES: &str = "/proc/modules";
    /// The mailbox device.
    pub const VCIO: &str = "/dev/vcio";
    /// Physical memory.
    pub const DEV_MEM: &str = "/dev/mem";
}

/// Bus address of the peripheral window's start as seen by the VideoCore.
pub const PERIPHERAL_BUS_BASE: u32 = 0x7e00_0000;
/// Bus address of the V3D register block (`v3d@7ec00000`).
pub const V3D_BUS_ADDRESS: u32 = 0x7ec0_0000;
/// Size of the V3D register block (`reg = <0x7ec00000 0x1000>`).
pub const V3D_REGISTER_BYTES: usize = 0x1000;

/// What the checks found: a supported board with a free GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PiInfo {
    /// The decoded board.
    pub board: BoardInfo,
    /// The device tree's model string, if present.
    pub model: Option<String>,
    /// ARM physical address of the peripheral window.
    pub peripheral_base: u32,
    /// ARM physical address of the V3D registers.
    pub v3d_physical: u32,
    /// Pointer width of this process, which selects the mailbox ioctl number.
    pub process_pointer_bits: u32,
    /// The mailbox ioctl request number in use.
    pub mailbox_ioctl: u32,
    /// Things worth knowing that did not stop the checks.
    pub notes: Vec<String>,
}

impl PiInfo {
    /// One line for logs and `describe()`.
    pub fn describe(&self) -> String {
        format!(
            "{} — peripherals at 0x{:08x}, V3D at 0x{:08x}, {}-bit process (mailbox ioctl 0x{:08x})",
            self.model.clone().unwrap_or_else(|| self.board.to_string()),
            self.peripheral_base,
            self.v3d_physical,
            self.process_pointer_bits,
            self.mailbox_ioctl
        )
    }
}

/// Runs every check against the real machine. Makes no ioctl.
pub fn probe() -> Result<PiInfo, PiError> {
    if !cfg!(target_os = "linux") {
        return Err(PiError::Unsupported(format!(
            "this backend needs Linux on a Raspberry Pi; this build targets {}",
            std::env::consts::OS
        )));
    }
    probe_with(&HostSystem)
}

fn nul_strings(bytes: &[u8]) -> Vec<String> {
    bytes
        .split(|&b| b == 0)
        .filter(|part| !part.is_empty())
        .map(|part| String::from_utf8_lossy(part).into_owned())
        .collect()
}

fn be_word(bytes: &[u8], offset: usize) -> Option<u32> {
    let word = bytes.get(offset..offset + 4)?;
    Some(u32::from_be_bytes([word[0], word[1], word[2], word[3]]))
}

fn cpuinfo_revision(text: &str) -> Option<u32> {
    text.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        if key.trim() != "Revision" {
            return None;
        }
        u32::from_str_radix(value.trim(), 16).ok()
    })
}

/// Reads the revision code: the device-tree property first, `/proc/cpuinfo` second.
fn revision_code(system: &dyn SystemProbe) -> Option<(u32, &'static str)> {
    if let Ok(bytes) = system.read(paths::DT_REVISION) {
        if let Some(code) = be_word(&bytes, 0) {
            return Some((code, paths::DT_REVISION));
        }
    }
    let text = system.read(paths::CPUINFO).ok()?;
    cpuinfo_revision(&String::from_utf8_lossy(&text)).map(|code| (code, paths::CPUINFO))
}

/// Peripheral window from `soc/ranges`: (child bus address, parent physical address).
fn soc_ranges(bytes: &[u8]) -> Result<(u32, u32), String> {
    let child = be_word(bytes, 0).ok_or("shorter than 8 bytes")?;
    let first = be_word(bytes, 4).ok_or("shorter than 8 bytes")?;
    // A zero high cell means a two-cell parent address (bcm_host's rule); the low cell follows.
    let parent = if first == 0 {
        be_word(bytes, 8).ok_or("two-cell parent address cut short")?
    } else {
        first
    };
    Ok((child, parent))
}

/// Runs every check against `system`. Makes no ioctl.
pub fn probe_with(system: &dyn SystemProbe) -> Result<PiInfo, PiError> {
    let mut notes = Vec::new();

    // 1. Is this a Raspberry Pi at all?
    let compatible = system.read(paths::COMPATIBLE).ok().map(|b| nul_strings(&b));
    let revision = revision_code(system);
    match (&compatible, revision) {
        (None, None) => {
            return Err(PiError::NoPiGpu {
                missing: format!(
                    "{} does not exist (no device tree, so not an ARM board), {} is absent and \
                     {} has no 'Revision' line",
                    paths::COMPATIBLE,
                    paths::DT_REVISION,
                    paths::CPUINFO
                ),
            })
        }
        (Some(strings), _) if !strings.iter().any(|s| s.starts_with("raspberrypi,")) => {
            return Err(PiError::NoPiGpu {
                missing: format!(
                    "{} lists {:?}, none of them a \"raspberrypi,\" board",
                    paths::COMPATIBLE,
                    strings
                ),
            })
        }
        _ => {}
    }
    let model = system
        .read(paths::MODEL)
        .ok()
        .and_then(|b| nul_strings(&b).into_iter().next());

    // 2. Which board, which GPU?
    let Some((code, code_path)) = revision else {
        return Err(PiError::NoPiGpu {
            missing: format!(
                "the device tree names a Raspberry Pi but neither {} nor the 'Revision' line of \
                 {} gives its revision code",
                paths::DT_REVISION,
                paths::CPUINFO
            ),
        });
    };
    let board = BoardInfo::decode(code).ok_or_else(|| PiError::UnknownRevision {
        code,
        source_path: code_path.to_string(),
    })?;
    match board.gpu() {
        Some(GpuGeneration::VideoCoreIv) => {}
        Some(other) => {
            return Err(PiError::UnsupportedBoard {
                board: match &model {
                    Some(model) => format!("{model} [{board}]"),
                    None => board.to_string(),
                },
                gpu: other.to_string(),
            })
        }
        None => {
            return Err(PiError::UnsupportedBoard {
                board: board.to_string(),
                gpu: "unknown".to_string(),
            })
        }
    }

    // 3. Does the Linux vc4 driver own the 3D block?
    if let Some(evidence) = kms_owner_evidence(system) {
        return Err(PiError::KmsDriverOwnsGpu { evidence });
    }

    // 4. Device nodes and permissions.
    check_node(
        system,
        paths::VCIO,
        "run the program as root (sudo), or give your user access to /dev/vcio: \
         sudo usermod -aG video $USER, then log out and in again",
    )?;
    check_node(
        system,
        paths::DEV_MEM,
        "run the program as root (sudo): mapping GPU memory and V3D registers through /dev/mem \
         needs root",
    )?;

    // 5. Where are the peripherals?
    let documented = board.processor.documented_peripheral_base();
    let (child, peripheral_base) = match system.read(paths::SOC_RANGES) {
        Ok(bytes) => soc_ranges(&bytes).map_err(|problem| PiError::DeviceTree {
            path: paths::SOC_RANGES.to_string(),
            problem,
        })?,
        Err(error) => {
            let base = documented.ok_or_else(|| PiError::DeviceTree {
                path: paths::SOC_RANGES.to_string(),
                problem: format!("unreadable ({error}) and no documented base for this SoC"),
            })?;
            notes.push(format!(
                "{} unreadable ({error}); using the documented base 0x{base:08x}",
                paths::SOC_RANGES
            ));
            (PERIPHERAL_BUS_BASE, base)
        }
    };
    if child != PERIPHERAL_BUS_BASE {
        return Err(PiError::DeviceTree {
            path: paths::SOC_RANGES.to_string(),
            problem: format!(
                "first range starts at bus 0x{child:08x}, expected the peripheral window at \
                 0x{PERIPHERAL_BUS_BASE:08x}"
            ),
        });
    }
    if let Some(expected) = documented {
        if expected != peripheral_base {
            notes.push(format!(
                "device tree puts peripherals at 0x{peripheral_base:08x}; the documentation \
                 lists 0x{expected:08x} for {} (the device tree wins)",
                board.processor
            ));
        }
    }
    let v3d_physical = peripheral_base + (V3D_BUS_ADDRESS - PERIPHERAL_BUS_BASE);
    let pointer_bits = (core::mem::size_of::<*const u8>() * 8) as u32;
    Ok(PiInfo {
        board,
        model,
        peripheral_base,
        v3d_physical,
        process_pointer_bits: pointer_bits,
        mailbox_ioctl: crate::ioctl::MBOX_PROPERTY_REQUEST,
        notes,
    })
}

/// Evidence that the vc4 DRM driver owns V3D, or `None` when the firmware keeps it.
fn kms_owner_evidence(system: &dyn SystemProbe) -> Option<String> {
    let entries = system.list_dir(paths::SOC).ok()?;
    let node = entries.iter().find(|name| name.starts_with("v3d@"))?;
    let status_path = format!("{}/{node}/status", paths::SOC);
    let status = system
        .read(&status_path)
        .ok()
        .map(|b| nul_strings(&b).join(""));
    // Device-tree nodes without a status property are enabled; "okay" and "ok" both enable.
    let enabled = match status.as_deref() {
        None => true,
        Some(s) => s == "okay" || s == "ok",
    };
    if !enabled {
        return None;
    }
    let mut evidence = match status {
        Some(s) => format!("device tree node {}/{node} has status \"{s}\"", paths::SOC),
        None => format!(
            "device tree node {}/{node} has no status property, so it is enabled",
            paths::SOC
        ),
    };
    if let Ok(modules) = system.read(paths::MODULES) {
        let text = String::from_utf8_lossy(&modules);
        if text
            .lines()
            .any(|line| line.split_whitespace().next() == Some("vc4"))
        {
            evidence.push_str(", and the vc4 kernel module is loaded");
        }
    }
    Some(evidence)
}

fn check_node(system: &dyn SystemProbe, path: &str, fix: &str) -> Result<(), PiError> {
    match system.check_read_write(path) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            if path == paths::VCIO {
                Err(PiError::VcioMissing {
                    path: path.to_string(),
                })
            } else {
                Err(PiError::Io {
                    what: format!("{path} does not exist (kernel built without /dev/mem?)"),
                    source: error,
                })
            }
        }
        Err(error) if error.kind() == io::ErrorKind::PermissionDenied => {
            Err(PiError::PermissionDenied {
                path: path.to_string(),
                detail: system.describe(path),
                fix: fix.to_string(),
            })
        }
        Err(error) => Err(PiError::Io {
            what: format!("cannot open {path}"),
            source: error,
        }),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A file system made of a map. Paths not in the map do not exist.
    #[derive(Default)]
    pub(crate) struct FakeSystem {
        pub files: BTreeMap<String, Vec<u8>>,
        pub denied: Vec<String>,
        pub uid: u32,
    }

    impl FakeSystem {
        pub(crate) fn with(mut self, path: &str, contents: &[u8]) -> Self {
            self.files.insert(path.to_string(), contents.to_vec());
            self
        }

        /// A Pi 3 Model B as Raspberry Pi OS presents it with the legacy (non-KMS) stack.
        pub(crate) fn pi3_legacy() -> Self {
            FakeSystem::default()
                .with(paths::COMPATIBLE, b"raspberrypi,3-model-b\0brcm,bcm2837\0")
                .with(paths::MODEL, b"Raspberry Pi 3 Model B Rev 1.2\0")
                .with(paths::DT_REVISION, &0xa02082u32.to_be_bytes())
                .with(
                    paths::SOC_RANGES,
                    &[
                        0x7e, 0, 0, 0, 0x3f, 0, 0, 0, 0x01, 0, 0, 0, 0x40, 0, 0, 0, 0x40, 0, 0, 0,
                        0, 0x04, 0, 0,
                    ],
                )
                .with("/proc/device-tree/soc/v3d@7ec00000/status", b"disabled\0")
                .with(paths::VCIO, b"")
                .with(paths::DEV_MEM, b"")
        }
    }

    impl SystemProbe for FakeSystem {
        fn read(&self, path: &str) -> io::Result<Vec<u8>> {
            self.files
                .get(path)
                .cloned()
                .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
        }

        fn list_dir(&self, path: &str) -> io::Result<Vec<String>> {
            let prefix = format!("{path}/");
            let mut names: Vec<String> = self
                .files
                .keys()
                .filter_map(|p| p.strip_prefix(&prefix))
                .map(|rest| rest.split('/').next().unwrap_or(rest).to_string())
                .collect();
            names.dedup();
            if names.is_empty() {
                Err(io::Error::from(io::ErrorKind::NotFound))
            } else {
                Ok(names)
            }
        }

        fn check_read_write(&self, path: &str) -> io::Result<()> {
            if self.denied.iter().any(|d| d == path) {
                return Err(io::Error::from(io::ErrorKind::PermissionDenied));
            }
            self.read(path).map(drop)
        }

        fn describe(&self, path: &str) -> String {
            format!(
                "{path}: owner uid 0, group gid 44, mode 660; uid {}",
                self.uid
            )
        }

        fn effective_uid(&self) -> u32 {
            self.uid
        }
    }

    #[test]
    fn this_x86_machine_has_no_pi_gpu() {
        // Runs against the real /proc of whatever machine runs the tests; on the project's
        // x86 machines that must be a clear "no Raspberry Pi GPU found" error.
        if cfg!(not(any(target_arch = "arm", target_arch = "aarch64"))) {
            let error = probe().unwrap_err();
            assert!(error.is_no_gpu(), "{error}");
            let text = error.to_string();
            assert!(text.starts_with("no Raspberry Pi GPU found: "), "{text}");
            assert!(text.contains("/proc/device-tree/compatible"), "{text}");
        }
    }

    #[test]
    fn pi3_with_legacy_stack_passes() {
        let info = probe_with(&FakeSystem::pi3_legacy()).unwrap();
        assert_eq!(info.board.code, 0xa02082);
        assert_eq!(info.peripheral_base, 0x3f00_0000);
        assert_eq!(info.v3d_physical, 0x3fc0_0000);
        assert_eq!(
            info.model.as_deref(),
            Some("Raspberry Pi 3 Model B Rev 1.2")
        );
        assert!(info.notes.is_empty(), "{:?}", info.notes);
    }

    #[test]
    fn pi1_ranges_give_0x20000000() {
        let system = FakeSystem::pi3_legacy()
            .with(
                paths::COMPATIBLE,
                b"raspberrypi,model-b-plus\0brcm,bcm2835\0",
            )
            .with(paths::DT_REVISION, &0x0010u32.to_be_bytes())
            .with(
                paths::SOC_RANGES,
                &[0x7e, 0, 0, 0, 0x20, 0, 0, 0, 0x01, 0, 0, 0],
            );
        let info = probe_with(&system).unwrap();
        assert_eq!(info.peripheral_base, 0x2000_0000);
        assert_eq!(info.v3d_physical, 0x20c0_0000);
    }

    #[test]
    fn two_cell_ranges_use_the_low_cell() {
        assert_eq!(
            soc_ranges(&[0x7e, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0, 0, 0, 0x01, 0x80, 0, 0]),
            Ok((0x7e00_0000, 0xfe00_0000))
        );
        assert!(soc_ranges(&[0x7e, 0, 0]).is_err());
    }

    #[test]
    fn revision_falls_back_to_cpuinfo() {
        let mut system = FakeSystem::pi3_legacy();
        system.files.remove(paths::DT_REVISION);
        system = system.with(
            paths::CPUINFO,
            b"processor\t: 0\nHardware\t: BCM2835\nRevision\t: 900092\nSerial\t\t: 00000000\n",
        );
        let info = probe_with(&system).unwrap();
        assert_eq!(info.board.code, 0x900092);
    }

    #[test]
    fn pi4_is_refused_by_name_with_emulator_hint() {
        let system = FakeSystem::pi3_legacy()
            .with(paths::COMPATIBLE, b"raspberrypi,4-model-b\0brcm,bcm2711\0")
            .with(paths::MODEL, b"Raspberry Pi 4 Model B Rev 1.1\0")
            .with(paths::DT_REVISION, &0xa03111u32.to_be_bytes());
        let error = probe_with(&system).unwrap_err();
        let text = error.to_string();
        assert!(matches!(error, PiError::UnsupportedBoard { .. }));
        assert!(text.contains("Raspberry Pi 4 Model B"), "{text}");
        assert!(text.contains("VideoCore VI"), "{text}");
        assert!(text.contains("QPU_BACKEND=emulator"), "{text}");
        assert!(error.is_no_gpu());
    }

    #[test]
    fn pi5_is_refused() {
        let system = FakeSystem::pi3_legacy()
            .with(paths::COMPATIBLE, b"raspberrypi,5-model-b\0brcm,bcm2712\0")
            .with(paths::MODEL, b"Raspberry Pi 5 Model B Rev 1.0\0")
            .with(paths::DT_REVISION, &0xc04170u32.to_be_bytes());
        let text = probe_with(&system).unwrap_err().to_string();
        assert!(text.contains("Raspberry Pi 5"), "{text}");
        assert!(text.contains("VideoCore VII"), "{text}");
    }

    #[test]
    fn other_arm_board_is_not_a_pi() {
        let system = FakeSystem::default().with(paths::COMPATIBLE, b"pine64,pinebook\0");
        let error = probe_with(&system).unwrap_err();
        assert!(error.to_string().starts_with("no Raspberry Pi GPU found"));
        assert!(error.to_string().contains("pine64,pinebook"));
    }

    #[test]
    fn kms_driver_is_detected_and_explained() {
        let system = FakeSystem::pi3_legacy()
            .with("/proc/device-tree/soc/v3d@7ec00000/status", b"okay\0")
            .with(
                paths::MODULES,
                b"snd 1 0 - Live 0x0\nvc4 270336 4 - Live 0x0\n",
            );
        let error = probe_with(&system).unwrap_err();
        let text = error.to_string();
        assert!(matches!(error, PiError::KmsDriverOwnsGpu { .. }));
        assert!(text.contains("v3d@7ec00000"), "{text}");
        assert!(text.contains("vc4 kernel module is loaded"), "{text}");
        assert!(text.contains("dtoverlay=vc4-kms-v3d"), "{text}");
        assert!(text.contains("config.txt"), "{text}");
    }

    #[test]
    fn v3d_node_without_status_is_enabled() {
        let mut system = FakeSystem::pi3_legacy();
        system
            .files
            .remove("/proc/device-tree/soc/v3d@7ec00000/status");
        system = system.with(
            "/proc/device-tree/soc/v3d@7ec00000/compatible",
            b"brcm,bcm2835-v3d\0",
        );
        assert!(matches!(
            probe_with(&system),
            Err(PiError::KmsDriverOwnsGpu { .. })
        ));
    }

    #[test]
    fn missing_vcio_is_explained_without_mknod_advice() {
        let mut system = FakeSystem::pi3_legacy();
        system.files.remove(paths::VCIO);
        let error = probe_with(&system).unwrap_err();
        assert!(matches!(error, PiError::VcioMissing { .. }));
        let text = error.to_string();
        assert!(text.contains("/dev/vcio does not exist"), "{text}");
        assert!(text.contains("Do not create the node by hand"), "{text}");
    }

    #[test]
    fn permission_errors_name_file_and_fix() {
        let mut system = FakeSystem::pi3_legacy();
        system.denied.push(paths::DEV_MEM.to_string());
        system.uid = 1000;
        let text = probe_with(&system).unwrap_err().to_string();
        assert!(text.contains("/dev/mem"), "{text}");
        assert!(text.contains("sudo"), "{text}");
        assert!(text.contains("uid 1000"), "{text}");

        let mut system = FakeSystem::pi3_legacy();
        system.denied.push(paths::VCIO.to_string());
        let text = probe_with(&system).unwrap_err().to_string();
        assert!(text.contains("/dev/vcio"), "{text}");
        assert!(text.contains("usermod -aG video"), "{text}");
    }

    #[test]
    fn unknown_revision_code_is_refused() {
        let system = FakeSystem::pi3_legacy().with(paths::DT_REVISION, &0x0001u32.to_be_bytes());
        assert!(matches!(
            probe_with(&system),
            Err(PiError::UnknownRevision { code: 1, .. })
        ));
    }

    #[test]
    fn unexpected_ranges_are_noted_and_wrong_windows_refused() {
        let system = FakeSystem::pi3_legacy().with(
            paths::SOC_RANGES,
            &[0x7e, 0, 0, 0, 0x3e, 0, 0, 0, 0x01, 0, 0, 0],
        );
        let info = probe_with(&system).unwrap();
        assert_eq!(info.peripheral_base, 0x3e00_0000);
        assert_eq!(info.notes.len(), 1);
        let system = FakeSystem::pi3_legacy().with(
            paths::SOC_RANGES,
            &[0x40, 0, 0, 0, 0x3f, 0, 0, 0, 0x01, 0, 0, 0],
        );
        assert!(matches!(
            probe_with(&system),
            Err(PiError::DeviceTree { .. })
        ));
    }

    #[test]
    fn cpuinfo_parsing() {
        assert_eq!(cpuinfo_revision("Revision\t: a02082\n"), Some(0xa02082));
        assert_eq!(cpuinfo_revision("model name : x\n"), None);
        assert_eq!(cpuinfo_revision("Revision : zz\n"), None);
    }
}

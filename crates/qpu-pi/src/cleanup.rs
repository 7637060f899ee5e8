//! Release of GPU memory when the process is interrupted (Ctrl-C, SIGTERM).
//!
//! Memory the firmware hands out stays allocated until released or until reboot (a leak users
//! of mailbox-based QPU libraries report after Ctrl-C, e.g. in GPU_FFT and QPULib issue threads).
//! `Drop` covers normal exits and panics that unwind; this module covers the two signals that
//! end a program from outside. A signal handler may only do async-signal-safe work, so the
//! registry is a fixed array of atomics (no allocation, no locks) and the release is two raw
//! ioctls on a buffer built on the stack.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};
use std::sync::Once;

/// How many allocations the registry tracks at once. Allocations beyond this still work and
/// are still released on drop; they are only missed by the signal-time cleanup.
pub const SLOTS: usize = 256;

static LIVE: [AtomicU32; SLOTS] = [const { AtomicU32::new(0) }; SLOTS];
static MAILBOX_FD: AtomicI32 = AtomicI32::new(-1);
static QPUS_ENABLED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// In unit tests the handler reports handles on this descriptor instead of calling the firmware.
#[cfg(test)]
static REPORT_FD: AtomicI32 = AtomicI32::new(-1);

/// A handle's place in the registry; leaving the registry happens on drop.
#[derive(Debug)]
pub(crate) struct Registration {
    slot: usize,
    handle: u32,
}

impl Drop for Registration {
    fn drop(&mut self) {
        // Only clears the slot if it still holds our handle (the signal path may have taken it).
        let _ =
            LIVE[self.slot].compare_exchange(self.handle, 0, Ordering::AcqRel, Ordering::Acquire);
    }
}

/// Records a live allocation handle. `None` when every slot is taken.
pub(crate) fn register(handle: u32) -> Option<Registration> {
    if handle == 0 {
        return None;
    }
    (0..SLOTS).find_map(|slot| {
        LIVE[slot]
            .compare_exchange(0, handle, Ordering::AcqRel, Ordering::Acquire)
            .ok()
            .map(|_| Registration { slot, handle })
    })
}

/// Tells the handler which mailbox descriptor to release through.
pub(crate) fn set_mailbox_fd(fd: i32) {
    MAILBOX_FD.store(fd, Ordering::Release);
}

/// Forgets the descriptor if it is still `fd` (the device that set it is closing).
pub(crate) fn clear_mailbox_fd(fd: i32) {
    let _ = MAILBOX_FD.compare_exchange(fd, -1, Ordering::AcqRel, Ordering::Acquire);
}

/// Records whether the QPUs are powered, so the handler can turn them off.
pub(crate) fn set_qpus_enabled(enabled: bool) {
    QPUS_ENABLED.store(enabled, Ordering::Release);
}

/// Takes every registered handle out of the registry, calling `release` on each.
fn drain(mut release: impl FnMut(u32)) -> usize {
    let mut released = 0;
    for slot in &LIVE {
        let handle = slot.swap(0, Ordering::AcqRel);
        if handle != 0 {
            release(handle);
            released += 1;
        }
    }
    released
}

/// Number of handles currently registered.
pub fn live_count() -> usize {
    LIVE.iter()
        .filter(|slot| slot.load(Ordering::Acquire) != 0)
        .count()
}

/// Sends one-word tag `tag_id` with `value` on `fd`. Async-signal-safe: stack buffer, one ioctl.
#[cfg(target_os = "linux")]
fn raw_one_word_tag(fd: i32, tag_id: u32, value: u32) {
    // Same layout as property::build_request for a one-word tag: 7 words = 28 bytes.
    let mut message: [u32; 7] = [28, crate::property::REQUEST_CODE, tag_id, 4, 4, value, 0];
    let _ = crate::mailbox::raw_property_call(fd, message.as_mut_ptr());
}

/// Writes "released <handle>\n" to `fd` without allocating (unit-test reporting).
#[cfg(test)]
fn report_release(fd: i32, handle: u32) {
    let mut buffer = *b"released 0000000000\n";
    let mut value = handle;
    let mut position = 18;
    loop {
        buffer[position] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
        position -= 1;
    }
    let start = position;
    let digits_and_newline = &buffer[start..];
    // SAFETY: write(2) is async-signal-safe; both buffers are live stack arrays and the
    // lengths are their own.
    unsafe {
        libc::write(fd, b"released ".as_ptr().cast(), 9);
        libc::write(
            fd,
            digits_and_newline.as_ptr().cast(),
            digits_and_newline.len(),
        );
    }
}

/// The work done inside the signal handler.
#[cfg(target_os = "linux")]
fn release_everything() {
    let fd = MAILBOX_FD.load(Ordering::Acquire);
    if fd < 0 {
        return;
    }
    #[cfg(test)]
    {
        let report = REPORT_FD.load(Ordering::Acquire);
        if report >= 0 {
            drain(|handle| report_release(report, handle));
            return;
        }
    }
    drain(|handle| {
        raw_one_word_tag(fd, crate::property::Tag::UnlockMemory.id(), handle);
        raw_one_word_tag(fd, crate::property::Tag::ReleaseMemory.id(), handle);
    });
    if QPUS_ENABLED.swap(false, Ordering::AcqRel) {
        raw_one_word_tag(fd, crate::property::Tag::SetEnableQpu.id(), 0);
    }
}

/// Installs the SIGINT/SIGTERM handlers once per process. They release every registered
/// allocation, power the QPUs down, then let the signal's default action end the process.
/// Handlers the application installed earlier still run (signal-hook chains them).
pub fn install_signal_cleanup() -> Result<(), crate::error::PiError> {
    #[cfg(target_os = "linux")]
    {
        let mut result = Ok(());
        INSTALL.call_once(|| {
            for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
                // SAFETY: the action only touches atomics, issues ioctl/write system calls on
                // stack buffers, and calls emulate_default_handler, which signal-hook documents
                // as async-signal-safe. Nothing in it allocates or locks.
                let registered = unsafe {
                    signal_hook::low_level::register(signal, move || {
                        release_everything();
                        let _ = signal_hook::low_level::emulate_default_handler(signal);
                    })
                };
                if let Err(source) = registered {
                    result = Err(crate::error::PiError::Io {
                        what: format!("installing the cleanup handler for signal {signal}"),
                        source,
                    });
                    return;
                }
            }
        });
        result
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = &INSTALL;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The registry is process-wide and unit tests run in parallel, so tests use handles from
    // their own range and never call drain() on the shared registry.

    #[test]
    fn register_and_drop_free_the_slot() {
        let a = register(0x7100_0001).expect("slot");
        let b = register(0x7100_0002).expect("slot");
        let holds = |handle: u32| LIVE.iter().any(|s| s.load(Ordering::Acquire) == handle);
        assert!(holds(0x7100_0001) && holds(0x7100_0002));
        drop(a);
        assert!(!holds(0x7100_0001));
        assert!(holds(0x7100_0002));
        drop(b);
        assert!(!holds(0x7100_0002));
        assert!(register(0).is_none(), "handle 0 means 'no allocation'");
    }

    #[test]
    fn registration_drop_does_not_clear_a_reused_slot() {
        let registration = register(0x7200_0001).expect("slot");
        let slot = registration.slot;
        // Simulate the signal path taking the handle and another allocation reusing the slot.
        LIVE[slot].store(0x7200_0002, Ordering::Release);
        drop(registration);
        assert_eq!(LIVE[slot].load(Ordering::Acquire), 0x7200_0002);
        LIVE[slot].store(0, Ordering::Release);
    }

    #[test]
    #[ignore = "run only as the child process of signal_releases_registered_handles"]
    fn signal_child() {
        if std::env::var_os("QPU_PI_SIGNAL_CHILD").is_none() {
            return;
        }
        REPORT_FD.store(1, Ordering::Release);
        set_mailbox_fd(1);
        install_signal_cleanup().expect("install");
        let keep_a = register(7).expect("slot");
        let dropped = register(9).expect("slot");
        let keep_b = register(11).expect("slot");
        drop(dropped);
        // SAFETY: plain write(2) of a static buffer.
        unsafe { libc::write(1, b"ready\n".as_ptr().cast(), 6) };
        std::thread::sleep(std::time::Duration::from_secs(30));
        drop((keep_a, keep_b));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn signal_releases_registered_handles() {
        use std::io::{BufRead, BufReader, Read};
        use std::os::unix::process::ExitStatusExt;
        use std::process::{Command, Stdio};

        let mut child = Command::new(std::env::current_exe().expect("test binary path"))
            .args([
                "--exact",
                "cleanup::tests::signal_child",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("QPU_PI_SIGNAL_CHILD", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn child test");
        let mut reader = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut seen = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).expect("read child output") == 0 {
                panic!("child ended before it was ready; output so far:\n{seen}");
            }
            seen.push_str(&line);
            if line.trim_end().ends_with("ready") {
                break;
            }
        }
        let pid = child.id() as libc::pid_t;
        // SAFETY: sends SIGTERM to our own child process, which is still running.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
        reader.read_to_string(&mut seen).expect("read rest");
        let status = child.wait().expect("wait child");
        assert_eq!(status.signal(), Some(libc::SIGTERM), "output:\n{seen}");
        assert!(seen.contains("released 7\n"), "output:\n{seen}");
        assert!(seen.contains("released 11\n"), "output:\n{seen}");
        assert!(!seen.contains("released 9\n"), "output:\n{seen}");
    }

    #[test]
    fn report_formats_numbers() {
        let mut fds = [0; 2];
        // SAFETY: pipe fills the two-element array it is given.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        report_release(fds[1], 4_294_967_295);
        report_release(fds[1], 0);
        report_release(fds[1], 42);
        // SAFETY: closing the write end we own.
        unsafe { libc::close(fds[1]) };
        let mut text = String::new();
        use std::io::Read;
        use std::os::fd::FromRawFd;
        // SAFETY: fds[0] is the pipe's read end, owned here and closed by File's drop.
        let mut file = unsafe { std::fs::File::from_raw_fd(fds[0]) };
        file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "released 4294967295\nreleased 0\nreleased 42\n");
    }
}

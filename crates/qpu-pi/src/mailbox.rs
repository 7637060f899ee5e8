//! The mailbox seam: the one OS call the property interface needs, behind a trait.

use std::io;

/// Sends a property message to the VideoCore firmware and lets it overwrite the message with
/// the response.
///
/// Contract (firmware wiki "Mailbox property interface"): `message[0]` holds the byte size of
/// the whole message, `message[1]` is 0 on entry; on success the implementation has replaced
/// the buffer with the firmware's response. An implementation returns `Err` when the message
/// could not be delivered at all (the Linux vcio driver also returns `EINVAL` when the firmware
/// answered with an error status, and `ETIMEDOUT` when the firmware did not answer in time).
pub trait Mailbox: Send {
    /// Performs one property call.
    fn call(&mut self, message: &mut [u32]) -> io::Result<()>;
}

impl<M: Mailbox + ?Sized> Mailbox for Box<M> {
    fn call(&mut self, message: &mut [u32]) -> io::Result<()> {
        (**self).call(message)
    }
}

/// Checks the size word against the slice so the kernel never reads past it: the vcio driver
/// trusts `message[0]` and copies that many bytes from the pointer it is given.
pub(crate) fn check_size_word(message: &[u32]) -> io::Result<()> {
    let declared = message.first().copied().unwrap_or(0) as usize;
    if message.len() < 3 || declared != message.len() * 4 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "property message size word says {declared} bytes but the buffer holds {}",
                message.len() * 4
            ),
        ));
    }
    Ok(())
}

/// The Linux mailbox device, `/dev/vcio`.
#[cfg(target_os = "linux")]
pub struct VcioMailbox {
    file: std::fs::File,
}

#[cfg(target_os = "linux")]
impl VcioMailbox {
    /// The device node the Raspberry Pi kernel's vcio driver creates.
    pub const PATH: &'static str = "/dev/vcio";

    /// Opens `/dev/vcio` for reading and writing.
    pub fn open() -> io::Result<Self> {
        Self::open_path(Self::PATH)
    }

    /// Opens a vcio device at another path (a bind mount or a container's device path).
    pub fn open_path(path: &str) -> io::Result<Self> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)?;
        Ok(VcioMailbox { file })
    }

    /// The raw descriptor, for the signal-time cleanup registry.
    pub(crate) fn raw_fd(&self) -> i32 {
        use std::os::fd::AsRawFd;
        self.file.as_raw_fd()
    }
}

#[cfg(target_os = "linux")]
impl Mailbox for VcioMailbox {
    fn call(&mut self, message: &mut [u32]) -> io::Result<()> {
        check_size_word(message)?;
        raw_property_call(self.raw_fd(), message.as_mut_ptr())
    }
}

/// Issues `IOCTL_MBOX_PROPERTY` on `fd` with `message`. Also used from the signal handler, so it
/// allocates nothing and touches no locks.
#[cfg(target_os = "linux")]
pub(crate) fn raw_property_call(fd: i32, message: *mut u32) -> io::Result<()> {
    // SAFETY: callers pass a pointer to a live, writable buffer whose first word is its own
    // byte size (VcioMailbox::call checks this with check_size_word; the signal-time callers
    // build fixed-size arrays whose size word is a compile-time constant). The driver reads and
    // writes exactly that many bytes. The request number is the _IOWR encoding for this
    // process's pointer width (crate::ioctl). `as _` adapts to the request parameter type,
    // which is c_ulong on glibc and c_int on musl.
    let result = unsafe { libc::ioctl(fd, crate::ioctl::MBOX_PROPERTY_REQUEST as _, message) };
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_word_must_match_buffer() {
        assert!(check_size_word(&[28, 0, 1, 4, 0, 0, 0]).is_ok());
        let error = check_size_word(&[32, 0, 1, 4, 0, 0, 0]).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        assert!(check_size_word(&[]).is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn bad_size_word_never_reaches_the_kernel() {
        // /dev/null accepts opens everywhere; the size check must refuse before any ioctl.
        let mut mailbox = VcioMailbox::open_path("/dev/null").expect("open /dev/null");
        let mut message = [64, 0, 1, 4, 0, 0, 0];
        let error = mailbox.call(&mut message).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn ioctl_on_a_non_vcio_file_fails_cleanly() {
        let mut mailbox = VcioMailbox::open_path("/dev/null").expect("open /dev/null");
        let mut message = [28, 0, 1, 4, 0, 0, 0];
        let error = mailbox.call(&mut message).unwrap_err();
        // /dev/null has no ioctls: the kernel answers ENOTTY. (qemu-user, used for the
        // optional ARM test runs, does not forward unknown ioctls and answers ENOSYS.)
        assert!(
            matches!(
                error.raw_os_error(),
                Some(libc::ENOTTY) | Some(libc::ENOSYS)
            ),
            "{error:?}"
        );
    }
}

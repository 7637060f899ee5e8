//! The ioctl request number of the vcio mailbox device.
//!
//! Facts used (Linux `include/uapi/asm-generic/ioctl.h`, the generic encoding ARM and AArch64
//! use): a request number packs `nr` into bits 0..8, `type` into bits 8..16, the argument size
//! into bits 16..30 (14 bits) and the direction into bits 30..32, where write = 1 and read = 2.
//! `_IOWR` sets both direction bits.
//!
//! The Raspberry Pi kernel's vcio driver (`drivers/char/broadcom/vcio.c`) defines
//! `IOCTL_MBOX_PROPERTY` as `_IOWR(100, 0, char *)`. The size field therefore holds
//! `sizeof(char *)`, which is 4 on armv7 and 8 on aarch64: the two request numbers differ, and
//! a 32-bit process on a 64-bit kernel reaches the driver's separate compat handler, which
//! expects the 4-byte form (`IOCTL_MBOX_PROPERTY32`, `_IOWR(100, 0, compat_uptr_t)`).

/// `_IOC_NRSHIFT`, `_IOC_TYPESHIFT`, `_IOC_SIZESHIFT`, `_IOC_DIRSHIFT` of the generic encoding.
const NR_SHIFT: u32 = 0;
const TYPE_SHIFT: u32 = 8;
const SIZE_SHIFT: u32 = 16;
const DIR_SHIFT: u32 = 30;
/// The size field is 14 bits wide (`_IOC_SIZEBITS`).
const SIZE_BITS: u32 = 14;
/// `_IOC_WRITE` and `_IOC_READ`.
const DIR_WRITE: u32 = 1;
const DIR_READ: u32 = 2;

/// The vcio driver's ioctl "magic" (`VCIO_IOC_MAGIC`).
pub const VCIO_IOC_MAGIC: u8 = 100;

/// Encodes a read-write ioctl request number the way `_IOWR(ty, nr, T)` does for a `T` of
/// `argument_size` bytes. Returns `None` when the size does not fit the 14-bit field.
pub const fn iowr(ty: u8, nr: u8, argument_size: usize) -> Option<u32> {
    if argument_size >= (1 << SIZE_BITS) {
        return None;
    }
    Some(
        ((DIR_READ | DIR_WRITE) << DIR_SHIFT)
            | ((ty as u32) << TYPE_SHIFT)
            | ((nr as u32) << NR_SHIFT)
            | ((argument_size as u32) << SIZE_SHIFT),
    )
}

/// Encodes a write-only ioctl request number the way `_IOW(ty, nr, T)` does for a `T` of
/// `argument_size` bytes. Returns `None` when the size does not fit the 14-bit field.
pub const fn iow(ty: u8, nr: u8, argument_size: usize) -> Option<u32> {
    if argument_size >= (1 << SIZE_BITS) {
        return None;
    }
    Some(
        (DIR_WRITE << DIR_SHIFT)
            | ((ty as u32) << TYPE_SHIFT)
            | ((nr as u32) << NR_SHIFT)
            | ((argument_size as u32) << SIZE_SHIFT),
    )
}

/// `IOCTL_MBOX_PROPERTY` for a process whose pointers are `pointer_bytes` wide.
pub const fn mbox_property_request(pointer_bytes: usize) -> u32 {
    match iowr(VCIO_IOC_MAGIC, 0, pointer_bytes) {
        Some(request) => request,
        // A pointer is never 16 KiB wide; keep the function total without panicking.
        None => 0,
    }
}

/// `IOCTL_MBOX_PROPERTY` for this process (`sizeof(char *)` of the build target).
pub const MBOX_PROPERTY_REQUEST: u32 = mbox_property_request(core::mem::size_of::<*mut u8>());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_number_encodes_pointer_width() {
        // Computed by hand from the field layout: dir 3 << 30 = 0xC000_0000, size << 16,
        // type 100 = 0x64 << 8 = 0x6400, nr 0.
        assert_eq!(mbox_property_request(4), 0xC000_0000 | (4 << 16) | 0x6400);
        assert_eq!(mbox_property_request(4), 0xC004_6400);
        assert_eq!(mbox_property_request(8), 0xC008_6400);
        assert_ne!(mbox_property_request(4), mbox_property_request(8));
    }

    #[test]
    fn this_build_uses_its_own_pointer_width() {
        let expected = if cfg!(target_pointer_width = "64") {
            0xC008_6400
        } else {
            0xC004_6400
        };
        assert_eq!(MBOX_PROPERTY_REQUEST, expected);
    }

    #[test]
    fn fields_decode_back() {
        let request = iowr(0x12, 0x34, 0x56).expect("small size fits");
        assert_eq!(request & 0xff, 0x34);
        assert_eq!((request >> 8) & 0xff, 0x12);
        assert_eq!((request >> 16) & 0x3fff, 0x56);
        assert_eq!(request >> 30, 3);
    }

    #[test]
    fn oversized_argument_is_refused() {
        assert_eq!(iowr(1, 1, 1 << 14), None);
        assert!(iowr(1, 1, (1 << 14) - 1).is_some());
    }
}

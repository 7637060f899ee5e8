//! Messages of the firmware's mailbox property interface, and the calls this crate makes.
//!
//! Message layout (Raspberry Pi firmware wiki, "Mailbox property interface", section "Buffer
//! contents" and "Tag format"; the kernel's `rpi_firmware_property_list` builds the same):
//!
//! | word | request                              | response                                   |
//! |------|--------------------------------------|--------------------------------------------|
//! | 0    | total buffer size in bytes           | unchanged                                  |
//! | 1    | 0 = "process request"                | 0x8000_0000 success, 0x8000_0001 parse error |
//! | 2    | tag id                               | unchanged                                  |
//! | 3    | value buffer size in bytes           | unchanged                                  |
//! | 4    | request length, bit 31 clear         | bit 31 set, bits 30..0 = response length   |
//! | 5..  | value buffer (request values)        | value buffer (response values)             |
//! | last | end tag 0                            |                                            |
//!
//! The wiki also says: the response overwrites the request; unknown tags are ignored and then
//! the response bit stays clear; a response may be longer than the buffer (the length says how
//! long it wanted to be, the data is truncated). This crate sends exactly one tag per message so
//! a failure always names the tag that failed.
//!
//! The wiki asks for a 16-byte aligned buffer because the mailbox register carries only the
//! upper 28 address bits; on Linux the vcio driver copies the user buffer into its own DMA
//! buffer (`vcio_user_property_list` → `rpi_firmware_property_list`), and that function puts
//! the end tag in the buffer's last word, so the end tag is the last word here too and no
//! padding is added.
//!
//! Tag ids: Linux `include/soc/bcm2835/raspberrypi-firmware.h` (`enum rpi_firmware_property_tag`).
//! Value layouts: Broadcom's `mailbox.c` shipped with `hello_fft` (GPU_FFT), which fills in
//! each of these tags word by word.

use crate::error::PiError;
use crate::mailbox::Mailbox;
use std::fmt;

/// Word 1 of a request: "process request".
pub const REQUEST_CODE: u32 = 0x0000_0000;
/// Word 1 of a response when the firmware processed the buffer.
pub const RESPONSE_SUCCESS: u32 = 0x8000_0000;
/// Word 1 of a response when the firmware could not parse the buffer.
pub const RESPONSE_PARSE_ERROR: u32 = 0x8000_0001;
/// Bit 31 of a tag's request/response word: set by the firmware in a response.
pub const TAG_RESPONSE_BIT: u32 = 0x8000_0000;
/// The end tag.
pub const END_TAG: u32 = 0;

/// Flags of the "allocate memory" tag (firmware wiki "Allocate Memory"; the same list appears
/// with its comments in Broadcom's `mailbox.h` and the kernel's `vc_mem` header).
pub mod mem_flag {
    /// May be resized to 0 at any time; for cached data only.
    pub const DISCARDABLE: u32 = 1 << 0;
    /// Normal allocating alias; "don't use from ARM".
    pub const NORMAL: u32 = 0 << 2;
    /// The 0xC bus alias, uncached.
    pub const DIRECT: u32 = 1 << 2;
    /// The 0x8 bus alias: non-allocating in L2 but coherent.
    pub const COHERENT: u32 = 2 << 2;
    /// DIRECT | COHERENT: allocating in L2 (the 0x4 alias; GPU_FFT uses it on Pi 1 only).
    pub const L1_NONALLOCATING: u32 = DIRECT | COHERENT;
    /// Initialise the buffer to zeros.
    pub const ZERO: u32 = 1 << 4;
    /// Leave the buffer uninitialised (the default initialises it to all ones).
    pub const NO_INIT: u32 = 1 << 5;
    /// Likely to stay locked for long periods.
    pub const HINT_PERMALOCK: u32 = 1 << 6;
}

/// The property tags this crate uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tag {
    /// `RPI_FIRMWARE_GET_FIRMWARE_REVISION`: no request values, response: revision.
    FirmwareRevision,
    /// `RPI_FIRMWARE_GET_BOARD_REVISION`: no request values, response: revision code.
    BoardRevision,
    /// `RPI_FIRMWARE_GET_VC_MEMORY`: no request values, response: base address, size in
    /// bytes of the VideoCore's memory split (what `gpu_mem=` in config.txt configures).
    VcMemory,
    /// `RPI_FIRMWARE_ALLOCATE_MEMORY`: request size, alignment, flags; response handle
    /// (0 on failure).
    AllocateMemory,
    /// `RPI_FIRMWARE_LOCK_MEMORY`: request handle; response bus address (0 on failure).
    LockMemory,
    /// `RPI_FIRMWARE_UNLOCK_MEMORY`: request handle; response status (0 = success).
    UnlockMemory,
    /// `RPI_FIRMWARE_RELEASE_MEMORY`: request handle; response status (0 = success).
    ReleaseMemory,
    /// `RPI_FIRMWARE_EXECUTE_QPU`: request number of QPUs, bus address of the control block
    /// ((uniforms, code) pairs), no-flush flag, timeout in ms; response status (0 = success,
    /// 0x8000_0000 = timeout, per GPU_FFT's `gpu_fft_base_exec`).
    ExecuteQpu,
    /// `RPI_FIRMWARE_SET_ENABLE_QPU`: request 1 = enable, 0 = disable; response status
    /// (0 = success).
    SetEnableQpu,
}

impl Tag {
    /// Every tag, for tests and for the stand-in.
    pub const ALL: [Tag; 9] = [
        Tag::FirmwareRevision,
        Tag::BoardRevision,
        Tag::VcMemory,
        Tag::AllocateMemory,
        Tag::LockMemory,
        Tag::UnlockMemory,
        Tag::ReleaseMemory,
        Tag::ExecuteQpu,
        Tag::SetEnableQpu,
    ];

    /// The tag id sent to the firmware (raspberrypi-firmware.h).
    pub const fn id(self) -> u32 {
        match self {
            Tag::FirmwareRevision => 0x0000_0001,
            Tag::BoardRevision => 0x0001_0002,
            Tag::VcMemory => 0x0001_0006,
            Tag::AllocateMemory => 0x0003_000c,
            Tag::LockMemory => 0x0003_000d,
            Tag::UnlockMemory => 0x0003_000e,
            Tag::ReleaseMemory => 0x0003_000f,
            Tag::ExecuteQpu => 0x0003_0011,
            Tag::SetEnableQpu => 0x0003_0012,
        }
    }

    /// The tag for an id, if it is one this crate knows.
    pub fn from_id(id: u32) -> Option<Tag> {
        Tag::ALL.into_iter().find(|tag| tag.id() == id)
    }

    /// The kernel header's name without its `RPI_FIRMWARE_` prefix.
    pub const fn name(self) -> &'static str {
        match self {
            Tag::FirmwareRevision => "GET_FIRMWARE_REVISION",
            Tag::BoardRevision => "GET_BOARD_REVISION",
            Tag::VcMemory => "GET_VC_MEMORY",
            Tag::AllocateMemory => "ALLOCATE_MEMORY",
            Tag::LockMemory => "LOCK_MEMORY",
            Tag::UnlockMemory => "UNLOCK_MEMORY",
            Tag::ReleaseMemory => "RELEASE_MEMORY",
            Tag::ExecuteQpu => "EXECUTE_QPU",
            Tag::SetEnableQpu => "SET_ENABLE_QPU",
        }
    }

    /// Number of request value words.
    pub const fn request_words(self) -> usize {
        match self {
            Tag::FirmwareRevision | Tag::BoardRevision | Tag::VcMemory => 0,
            Tag::AllocateMemory => 3,
            Tag::LockMemory | Tag::UnlockMemory | Tag::ReleaseMemory | Tag::SetEnableQpu => 1,
            Tag::ExecuteQpu => 4,
        }
    }

    /// Number of response value words this crate reads.
    pub const fn response_words(self) -> usize {
        match self {
            Tag::VcMemory => 2,
            _ => 1,
        }
    }

    /// Size of the value buffer: room for whichever of request and response is longer.
    pub const fn value_buffer_words(self) -> usize {
        let request = self.request_words();
        let response = self.response_words();
        if request > response {
            request
        } else {
            response
        }
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (tag 0x{:08x})", self.name(), self.id())
    }
}

/// Index of the first value word of the (single) tag in a message.
pub const VALUE_OFFSET: usize = 5;

/// Builds the words of a one-tag property request.
///
/// Returns an error if `values` does not have the tag's documented request length.
pub fn build_request(tag: Tag, values: &[u32]) -> Result<Vec<u32>, PiError> {
    if values.len() != tag.request_words() {
        return Err(PiError::Internal(format!(
            "{tag} takes {} request words, {} given",
            tag.request_words(),
            values.len()
        )));
    }
    let value_words = tag.value_buffer_words();
    // Header (2) + tag header (3) + value buffer + end tag (1).
    let total_words = 2 + 3 + value_words + 1;
    let mut message = Vec::with_capacity(total_words);
    message.push((total_words * 4) as u32);
    message.push(REQUEST_CODE);
    message.push(tag.id());
    message.push((value_words * 4) as u32);
    // Request length in bytes with bit 31 clear (wiki "Tag format").
    message.push((values.len() * 4) as u32);
    message.extend_from_slice(values);
    message.resize(VALUE_OFFSET + value_words, 0);
    message.push(END_TAG);
    debug_assert_eq!(message.len(), total_words);
    Ok(message)
}

/// Checks a response to a one-tag request and returns its value words.
pub fn parse_response(tag: Tag, message: &[u32]) -> Result<Vec<u32>, PiError> {
    let value_words = tag.value_buffer_words();
    let expected_len = 2 + 3 + value_words + 1;
    if message.len() != expected_len {
        return Err(PiError::MalformedResponse {
            tag,
            problem: format!("{} words, expected {expected_len}", message.len()),
        });
    }
    match message[1] {
        RESPONSE_SUCCESS => {}
        RESPONSE_PARSE_ERROR => {
            return Err(PiError::RequestRejected {
                tag,
                code: message[1],
            })
        }
        other => return Err(PiError::RequestRejected { tag, code: other }),
    }
    if message[2] != tag.id() {
        return Err(PiError::MalformedResponse {
            tag,
            problem: format!("tag id changed to 0x{:08x}", message[2]),
        });
    }
    let status = message[4];
    if status & TAG_RESPONSE_BIT == 0 {
        // The wiki: unknown tags are ignored and the response bit is not set.
        return Err(PiError::TagNotAnswered { tag });
    }
    let response_bytes = (status & !TAG_RESPONSE_BIT) as usize;
    let wanted = tag.response_words() * 4;
    if response_bytes < wanted {
        return Err(PiError::MalformedResponse {
            tag,
            problem: format!("response length {response_bytes} bytes, expected at least {wanted}"),
        });
    }
    if message[expected_len - 1] != END_TAG {
        return Err(PiError::MalformedResponse {
            tag,
            problem: format!(
                "end tag overwritten with 0x{:08x}",
                message[expected_len - 1]
            ),
        });
    }
    Ok(message[VALUE_OFFSET..VALUE_OFFSET + tag.response_words()].to_vec())
}

/// Sends one tag through `mailbox` and returns the checked response values.
pub fn call(mailbox: &mut dyn Mailbox, tag: Tag, values: &[u32]) -> Result<Vec<u32>, PiError> {
    let mut message = build_request(tag, values)?;
    mailbox
        .call(&mut message)
        .map_err(|source| PiError::from_mailbox_io(tag, source))?;
    parse_response(tag, &message)
}

fn single(tag: Tag, values: Vec<u32>) -> Result<u32, PiError> {
    values
        .first()
        .copied()
        .ok_or_else(|| PiError::MalformedResponse {
            tag,
            problem: "no response value".to_string(),
        })
}

/// The firmware revision (a build timestamp on current firmware).
pub fn firmware_revision(mailbox: &mut dyn Mailbox) -> Result<u32, PiError> {
    single(
        Tag::FirmwareRevision,
        call(mailbox, Tag::FirmwareRevision, &[])?,
    )
}

/// The board revision code (see [`crate::board`]).
pub fn board_revision(mailbox: &mut dyn Mailbox) -> Result<u32, PiError> {
    single(Tag::BoardRevision, call(mailbox, Tag::BoardRevision, &[])?)
}

/// The VideoCore memory split: (base address, size in bytes).
pub fn vc_memory(mailbox: &mut dyn Mailbox) -> Result<(u32, u32), PiError> {
    let values = call(mailbox, Tag::VcMemory, &[])?;
    match values.as_slice() {
        [base, size] => Ok((*base, *size)),
        _ => Err(PiError::MalformedResponse {
            tag: Tag::VcMemory,
            problem: "expected base and size".to_string(),
        }),
    }
}

/// Turns the QPUs on or off. A non-zero status is a failure.
pub fn set_qpu_enabled(mailbox: &mut dyn Mailbox, enabled: bool) -> Result<(), PiError> {
    let status = single(
        Tag::SetEnableQpu,
        call(mailbox, Tag::SetEnableQpu, &[u32::from(enabled)])?,
    )?;
    if status != 0 {
        return Err(PiError::TagFailed {
            tag: Tag::SetEnableQpu,
            status,
        });
    }
    Ok(())
}

/// Allocates GPU memory; returns the firmware's handle, or `None` when the firmware answered
/// with handle 0 (out of memory).
pub fn allocate_memory(
    mailbox: &mut dyn Mailbox,
    size: u32,
    alignment: u32,
    flags: u32,
) -> Result<Option<u32>, PiError> {
    let handle = single(
        Tag::AllocateMemory,
        call(mailbox, Tag::AllocateMemory, &[size, alignment, flags])?,
    )?;
    Ok((handle != 0).then_some(handle))
}

/// Locks an allocation in place; returns its bus address, or `None` when the firmware answered 0.
pub fn lock_memory(mailbox: &mut dyn Mailbox, handle: u32) -> Result<Option<u32>, PiError> {
    let bus = single(Tag::LockMemory, call(mailbox, Tag::LockMemory, &[handle])?)?;
    Ok((bus != 0).then_some(bus))
}

/// Unlocks an allocation. A non-zero status is a failure.
pub fn unlock_memory(mailbox: &mut dyn Mailbox, handle: u32) -> Result<(), PiError> {
    let status = single(
        Tag::UnlockMemory,
        call(mailbox, Tag::UnlockMemory, &[handle])?,
    )?;
    if status != 0 {
        return Err(PiError::TagFailed {
            tag: Tag::UnlockMemory,
            status,
        });
    }
    Ok(())
}

/// Releases an allocation. A non-zero status is a failure.
pub fn release_memory(mailbox: &mut dyn Mailbox, handle: u32) -> Result<(), PiError> {
    let status = single(
        Tag::ReleaseMemory,
        call(mailbox, Tag::ReleaseMemory, &[handle])?,
    )?;
    if status != 0 {
        return Err(PiError::TagFailed {
            tag: Tag::ReleaseMemory,
            status,
        });
    }
    Ok(())
}

/// What the firmware said about an execute-QPU request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecuteStatus {
    /// Status 0: every program signalled completion.
    Completed,
    /// Status 0x8000_0000: the firmware's own timeout expired.
    TimedOut,
    /// Any other status word.
    Failed(u32),
}

/// Runs `num_qpus` programs whose (uniforms, code) bus-address pairs sit at `control_bus`.
pub fn execute_qpu(
    mailbox: &mut dyn Mailbox,
    num_qpus: u32,
    control_bus: u32,
    no_flush: bool,
    timeout_ms: u32,
) -> Result<ExecuteStatus, PiError> {
    let status = single(
        Tag::ExecuteQpu,
        call(
            mailbox,
            Tag::ExecuteQpu,
            &[num_qpus, control_bus, u32::from(no_flush), timeout_ms],
        )?,
    )?;
    Ok(match status {
        0 => ExecuteStatus::Completed,
        0x8000_0000 => ExecuteStatus::TimedOut,
        other => ExecuteStatus::Failed(other),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;

    #[test]
    fn tag_ids_match_the_kernel_header() {
        // Values transcribed from raspberrypi-firmware.h.
        let expected = [
            (Tag::FirmwareRevision, 0x0000_0001),
            (Tag::BoardRevision, 0x0001_0002),
            (Tag::VcMemory, 0x0001_0006),
            (Tag::AllocateMemory, 0x0003_000c),
            (Tag::LockMemory, 0x0003_000d),
            (Tag::UnlockMemory, 0x0003_000e),
            (Tag::ReleaseMemory, 0x0003_000f),
            (Tag::ExecuteQpu, 0x0003_0011),
            (Tag::SetEnableQpu, 0x0003_0012),
        ];
        for (tag, id) in expected {
            assert_eq!(tag.id(), id, "{tag:?}");
            assert_eq!(Tag::from_id(id), Some(tag));
        }
        assert_eq!(Tag::from_id(0x0004_0001), None);
    }

    #[test]
    fn allocate_request_matches_documented_words() {
        // Word for word what Broadcom's mem_alloc() sends: size 36 bytes, request code 0,
        // tag 0x3000c, buffer 12, data 12, size, align, flags, end tag.
        let message = build_request(Tag::AllocateMemory, &[4096, 4096, 0x14]).unwrap();
        assert_eq!(message, vec![36, 0, 0x3000c, 12, 12, 4096, 4096, 0x14, 0]);
    }

    #[test]
    fn execute_qpu_request_matches_documented_words() {
        let message = build_request(Tag::ExecuteQpu, &[8, 0xC000_1000, 1, 2000]).unwrap();
        assert_eq!(
            message,
            vec![40, 0, 0x30011, 16, 16, 8, 0xC000_1000, 1, 2000, 0]
        );
    }

    #[test]
    fn one_word_requests_match_documented_words() {
        // qpu_enable(1), mem_lock(h), mem_unlock(h), mem_free(h) in Broadcom's mailbox.c.
        assert_eq!(
            build_request(Tag::SetEnableQpu, &[1]).unwrap(),
            vec![28, 0, 0x30012, 4, 4, 1, 0]
        );
        assert_eq!(
            build_request(Tag::LockMemory, &[7]).unwrap(),
            vec![28, 0, 0x3000d, 4, 4, 7, 0]
        );
        assert_eq!(
            build_request(Tag::UnlockMemory, &[7]).unwrap(),
            vec![28, 0, 0x3000e, 4, 4, 7, 0]
        );
        assert_eq!(
            build_request(Tag::ReleaseMemory, &[7]).unwrap(),
            vec![28, 0, 0x3000f, 4, 4, 7, 0]
        );
    }

    #[test]
    fn get_requests_reserve_room_for_the_response() {
        assert_eq!(
            build_request(Tag::BoardRevision, &[]).unwrap(),
            vec![28, 0, 0x10002, 4, 0, 0, 0]
        );
        assert_eq!(
            build_request(Tag::VcMemory, &[]).unwrap(),
            vec![32, 0, 0x10006, 8, 0, 0, 0, 0]
        );
    }

    #[test]
    fn size_word_counts_every_byte() {
        for tag in Tag::ALL {
            let values = vec![0; tag.request_words()];
            let message = build_request(tag, &values).unwrap();
            assert_eq!(message[0] as usize, message.len() * 4, "{tag:?}");
            assert_eq!(*message.last().unwrap(), END_TAG);
            assert_eq!(
                message[4] & TAG_RESPONSE_BIT,
                0,
                "request bit 31 must be clear"
            );
        }
    }

    #[test]
    fn wrong_request_length_is_an_error() {
        assert!(build_request(Tag::AllocateMemory, &[1, 2]).is_err());
    }

    fn answered(tag: Tag, values: &[u32]) -> Vec<u32> {
        let mut message = build_request(tag, &vec![0; tag.request_words()]).unwrap();
        message[1] = RESPONSE_SUCCESS;
        message[4] = TAG_RESPONSE_BIT | (values.len() * 4) as u32;
        message[VALUE_OFFSET..VALUE_OFFSET + values.len()].copy_from_slice(values);
        message
    }

    #[test]
    fn parses_a_good_response() {
        let message = answered(Tag::VcMemory, &[0x3b40_0000, 0x04c0_0000]);
        assert_eq!(
            parse_response(Tag::VcMemory, &message).unwrap(),
            vec![0x3b40_0000, 0x04c0_0000]
        );
    }

    #[test]
    fn parse_error_code_names_the_tag() {
        let mut message = answered(Tag::LockMemory, &[0]);
        message[1] = RESPONSE_PARSE_ERROR;
        let error = parse_response(Tag::LockMemory, &message).unwrap_err();
        assert!(matches!(
            error,
            PiError::RequestRejected {
                tag: Tag::LockMemory,
                code: RESPONSE_PARSE_ERROR
            }
        ));
        assert!(error.to_string().contains("LOCK_MEMORY"), "{error}");
    }

    #[test]
    fn unanswered_tag_is_reported() {
        let mut message = answered(Tag::ExecuteQpu, &[0]);
        message[4] = 16; // response bit clear: the firmware ignored the tag
        let error = parse_response(Tag::ExecuteQpu, &message).unwrap_err();
        assert!(matches!(
            error,
            PiError::TagNotAnswered {
                tag: Tag::ExecuteQpu
            }
        ));
        assert!(error.to_string().contains("EXECUTE_QPU"));
    }

    #[test]
    fn short_response_is_reported() {
        let mut message = answered(Tag::VcMemory, &[1, 2]);
        message[4] = TAG_RESPONSE_BIT | 4;
        assert!(matches!(
            parse_response(Tag::VcMemory, &message),
            Err(PiError::MalformedResponse {
                tag: Tag::VcMemory,
                ..
            })
        ));
    }

    #[test]
    fn longer_response_than_needed_is_accepted() {
        // The wiki allows responses that report a longer length than the buffer holds.
        let mut message = answered(Tag::BoardRevision, &[0xa02082]);
        message[4] = TAG_RESPONSE_BIT | 16;
        assert_eq!(
            parse_response(Tag::BoardRevision, &message).unwrap(),
            vec![0xa02082]
        );
    }

    struct Scripted(Vec<u32>);
    impl Mailbox for Scripted {
        fn call(&mut self, message: &mut [u32]) -> io::Result<()> {
            message.copy_from_slice(&self.0);
            Ok(())
        }
    }

    #[test]
    fn failing_status_becomes_a_typed_error() {
        let mut mailbox = Scripted(answered(Tag::UnlockMemory, &[1]));
        let error = unlock_memory(&mut mailbox, 5).unwrap_err();
        assert!(matches!(
            error,
            PiError::TagFailed {
                tag: Tag::UnlockMemory,
                status: 1
            }
        ));
        let mut mailbox = Scripted(answered(Tag::SetEnableQpu, &[0x8000_0000]));
        assert!(matches!(
            set_qpu_enabled(&mut mailbox, true),
            Err(PiError::TagFailed {
                tag: Tag::SetEnableQpu,
                status: 0x8000_0000
            })
        ));
    }

    #[test]
    fn execute_status_words_map_to_outcomes() {
        for (word, outcome) in [
            (0, ExecuteStatus::Completed),
            (0x8000_0000, ExecuteStatus::TimedOut),
            (3, ExecuteStatus::Failed(3)),
        ] {
            let mut mailbox = Scripted(answered(Tag::ExecuteQpu, &[word]));
            assert_eq!(
                execute_qpu(&mut mailbox, 1, 0xC000_0000, false, 100).unwrap(),
                outcome
            );
        }
    }

    #[test]
    fn zero_handle_and_zero_bus_address_mean_failure() {
        let mut mailbox = Scripted(answered(Tag::AllocateMemory, &[0]));
        assert_eq!(allocate_memory(&mut mailbox, 4096, 4096, 0).unwrap(), None);
        let mut mailbox = Scripted(answered(Tag::LockMemory, &[0]));
        assert_eq!(lock_memory(&mut mailbox, 3).unwrap(), None);
        let mut mailbox = Scripted(answered(Tag::LockMemory, &[0xC012_3000]));
        assert_eq!(lock_memory(&mut mailbox, 3).unwrap(), Some(0xC012_3000));
    }

    struct Failing(io::ErrorKind);
    impl Mailbox for Failing {
        fn call(&mut self, _message: &mut [u32]) -> io::Result<()> {
            Err(io::Error::from(self.0))
        }
    }

    #[test]
    fn ioctl_failure_names_the_tag() {
        let error = firmware_revision(&mut Failing(io::ErrorKind::InvalidInput)).unwrap_err();
        assert!(
            matches!(
                error,
                PiError::MailboxCall {
                    tag: Tag::FirmwareRevision,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(error.to_string().contains("GET_FIRMWARE_REVISION"));
    }
}

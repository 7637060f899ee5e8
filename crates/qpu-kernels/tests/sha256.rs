//! The SHA-256 kernel against the RustCrypto `sha2` crate, on the interpreter and on the
//! strict emulator, for 1–12 QPUs and messages from empty to several blocks.

use qpu::Device;
use qpu_kernels::sha256::Sha256;
use sha2::Digest;

mod common;
use common::bytes;

fn reference(messages: &[Vec<u8>]) -> Vec<[u8; 32]> {
    messages
        .iter()
        .map(|m| sha2::Sha256::digest(m).into())
        .collect()
}

#[test]
fn every_padding_boundary_matches_sha2_on_both_backends() {
    // Lengths around each block boundary (55/56 bytes: the length word moves to a new block;
    // 63/64; 119/120), empty, and multi-block messages, mixed in one batch.
    let lengths = [
        0, 1, 3, 54, 55, 56, 57, 63, 64, 65, 100, 119, 120, 128, 200, 300, 17, 9,
    ];
    let messages: Vec<Vec<u8>> = lengths
        .iter()
        .enumerate()
        .map(|(i, &len)| bytes(i as u64, len))
        .collect();
    let want = reference(&messages);
    let sha = Sha256::new().unwrap();
    for device in [Device::interpreter(), Device::emulator()] {
        let got = sha.digest_all(&device, &messages).unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g,
                w,
                "{}: message {i} ({} bytes)",
                device.describe(),
                lengths[i]
            );
        }
    }
}

#[test]
fn known_answers_from_fips_180_4() {
    // FIPS 180-4's examples (NIST's SHA256.pdf): "abc", and the two-block 448-bit message.
    let hex = |d: &[u8; 32]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let sha = Sha256::new().unwrap();
    let got = sha
        .digest_all(
            &Device::emulator(),
            &[
                &b"abc"[..],
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            ],
        )
        .unwrap();
    assert_eq!(
        hex(&got[0]),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        hex(&got[1]),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
}

#[test]
fn many_batches_on_1_to_12_qpus_match_sha2() {
    // 12 QPUs × 16 lanes × 2 batches + a partial batch, with lengths from 0 to 150 bytes.
    let messages: Vec<Vec<u8>> = (0..12 * 16 * 2 + 5)
        .map(|i| bytes(1000 + i as u64, (i * 37) % 151))
        .collect();
    let want = reference(&messages);
    for qpus in [1, 2, 3, 7, 12] {
        let sha = Sha256::with_qpus(qpus).unwrap();
        let got = sha.digest_all(&Device::emulator(), &messages).unwrap();
        assert!(got == want, "{qpus} QPUs: digests differ from sha2");
    }
    // The interpreter, once, on 12 QPUs (it is the reference the emulator is tested against).
    let got = Sha256::with_qpus(12)
        .unwrap()
        .digest_all(&Device::interpreter(), &messages[..40])
        .unwrap();
    assert!(got == want[..40], "interpreter: digests differ from sha2");
}

#[test]
fn no_messages_hash_to_nothing() {
    let sha = Sha256::new().unwrap();
    let none: [&[u8]; 0] = [];
    assert!(sha
        .digest_all(&Device::emulator(), &none)
        .unwrap()
        .is_empty());
}

//! Decoding any 64-bit word as a V3D 4.2 or 7.1 instruction must not panic; a word that
//! decodes must re-encode to itself, and its disassembly must assemble back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qpu_isa::v3d::{asm, decode, disasm, encode, V3dVersion};

fuzz_target!(|data: &[u8]| {
    for chunk in data.chunks_exact(8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        for version in V3dVersion::ALL {
            if let Ok(instr) = decode(version, word) {
                assert_eq!(encode(version, &instr), Ok(word));
                let text = disasm::instruction(version, &instr);
                let back = asm::assemble(version, &text).expect(&text);
                assert_eq!(back.len(), 1, "{text}");
                assert_eq!(encode(version, &back[0]), Ok(word), "{text}");
            }
        }
    }
});

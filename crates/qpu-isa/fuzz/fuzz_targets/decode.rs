//! Decoding any 64-bit word must not panic; a word that decodes must re-encode to itself and
//! survive the text round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qpu_isa::vc4::{assemble_instruction, disasm, Instruction};

fuzz_target!(|data: &[u8]| {
    for chunk in data.chunks_exact(8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        if let Ok(instr) = Instruction::decode(word) {
            assert_eq!(instr.encode(), word);
            let text = disasm::instruction(&instr);
            assert_eq!(assemble_instruction(&text), Ok(instr), "{text}");
        }
    }
});

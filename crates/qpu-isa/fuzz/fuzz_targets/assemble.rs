//! Assembling any text must not panic; what assembles must disassemble and reassemble to the
//! same instructions.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qpu_isa::vc4::{assemble, disasm};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(program) = assemble(text) {
        let canonical = disasm::program(&program);
        assert_eq!(assemble(&canonical).as_ref(), Ok(&program), "{canonical}");
    }
});

//! Golden programs: assembling our text must give words derived independently (by hand from
//! the guide's bit tables for hello, by vc4asm for the tour), and disassembling those words
//! must assemble back to them bit-exactly.

use qpu_isa::vc4::{assemble, disasm, words, Instruction};

fn golden(name: &str) -> String {
    let path = format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn encode(instrs: &[Instruction]) -> Vec<u64> {
    instrs.iter().map(Instruction::encode).collect()
}

fn check_program(qasm: &str, hex: &str) {
    let expected = words::from_hex(&golden(hex)).unwrap();
    let ours = encode(&assemble(&golden(qasm)).unwrap());
    assert_eq!(ours.len(), expected.len(), "{qasm}: instruction count");
    for (i, (o, e)) in ours.iter().zip(&expected).enumerate() {
        assert_eq!(
            o, e,
            "{qasm}: instruction {i}: ours {o:#018x}, expected {e:#018x}"
        );
    }
    // Words -> text -> words is exact, and the canonical text is a fixed point.
    let decoded: Vec<Instruction> = expected
        .iter()
        .map(|&w| Instruction::decode(w).unwrap())
        .collect();
    let text = disasm::program(&decoded);
    assert!(
        !text.contains(".inst"),
        "{qasm}: the natural syntax covers every golden word:\n{text}"
    );
    let again = assemble(&text)
        .unwrap_or_else(|e| panic!("{qasm}: canonical text does not assemble: {e}\n{text}"));
    assert_eq!(
        encode(&again),
        expected,
        "{qasm}: canonical text reassembles differently:\n{text}"
    );
    assert_eq!(
        disasm::program(&again),
        text,
        "{qasm}: canonical text is not a fixed point"
    );
}

#[test]
fn hello_world_matches_hand_derived_words() {
    check_program("hello.qasm", "hello.hex");
}

#[test]
fn isa_tour_matches_an_independent_assembler() {
    check_program("isa-tour.qasm", "isa-tour.hex");
}

#[test]
fn branch_targets_disassemble_to_labels() {
    let program = assemble("loop:\nsub.setf r0, r0, 1\nbrr.anynz -, r:loop\nnop\nnop\nnop\nbrr -, r:end\nnop\nnop\nnop\nnop\n:end\nnop; thrend\nnop\nnop\n").unwrap();
    let Instruction::Branch(back) = program[1] else {
        panic!()
    };
    // Target 0 from branch 1: (0 - (1 + 4)) * 8 bytes.
    assert_eq!(back.imm, -40);
    let Instruction::Branch(forward) = program[5] else {
        panic!()
    };
    // Target 10 from branch 5: (10 - (5 + 4)) * 8 bytes.
    assert_eq!(forward.imm, 8);
    let text = disasm::program(&program);
    assert!(text.contains("brr.anynz -, r:L0"), "{text}");
    assert!(text.contains(":L10"), "{text}");
    assert_eq!(assemble(&text).unwrap(), program);
}

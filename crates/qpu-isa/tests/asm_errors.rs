//! The assembler rejects what the hardware cannot encode, saying where and why.

use qpu_isa::vc4::{assemble, AsmError};

fn error(text: &str) -> AsmError {
    match assemble(text) {
        Ok(instrs) => panic!("`{text}` assembled to {instrs:?}"),
        Err(e) => e,
    }
}

fn assert_error(text: &str, line: usize, column: usize, fragment: &str) {
    let e = error(text);
    assert_eq!((e.line, e.column), (line, column), "{text}: {e}");
    assert!(
        e.message.contains(fragment),
        "{text}: message `{}` lacks `{fragment}`",
        e.message
    );
}

#[test]
fn two_reads_from_one_file() {
    assert_error("add r0, ra1, ra2", 1, 14, "register file A is already read");
    assert_error("add r0, rb1, rb2", 1, 14, "register file B is already read");
    // Reading the same register twice is one read.
    assert!(assemble("add r0, ra1, ra1").is_ok());
    // A shared name moves to the free file.
    assert!(assemble("add r0, ra1, unif").is_ok());
}

#[test]
fn small_immediate_and_file_b_read() {
    assert_error("add r0, rb1, 3", 1, 14, "replaces the file-B read");
    assert_error(
        "add r0, r1, 3; fmul r2, r1, 2.0",
        1,
        29,
        "only one small immediate",
    );
    assert_error("add r0, r1, 100", 1, 13, "does not fit a small immediate");
    assert_error(
        "nop; fmul r2, r1, r1 >> 3; thrend",
        1,
        28,
        "cannot share an instruction with a small immediate",
    );
}

#[test]
fn operations_on_the_wrong_side() {
    assert_error("fmul r0, r1, r2", 1, 1, "is a mul-ALU operation");
    assert_error("nop; add r0, r1, r2", 1, 6, "is an add-ALU operation");
    assert_error(
        "add r0, r1 >> 2, r2",
        1,
        9,
        "rotation applies to the mul ALU",
    );
}

#[test]
fn destinations_and_packs() {
    assert_error(
        "add ra0, r1, r2; fmul ra1, r1, r2",
        1,
        23,
        "write different register files",
    );
    assert_error(
        "add rb0.16a, r1, r2",
        1,
        5,
        "needs a destination in register file A",
    );
    assert_error("add r0, ra0.16a, r4.8a", 1, 18, "pm bit");
    assert_error("add r0, r1, r2.16a", 1, 13, "unpack applies only");
    assert_error("add r0, unif, vpm.zz", 1, 15, "not an unpack mode");
}

#[test]
fn syntax_errors_say_what_was_expected_and_found() {
    assert_error("nop\nadd r0, r1", 2, 1, "takes 3 operands");
    assert_error(
        "addd r0, r1, r2",
        1,
        1,
        "expected an ALU operation, found `addd`",
    );
    assert_error("add r0, r1, ", 1, 12, "expected an operand after `,`");
    assert_error(
        "add r0, zz, r1",
        1,
        9,
        "expected a source operand, found `zz`",
    );
    assert_error(
        "add vw_wait, r0, r1",
        1,
        5,
        "expected a destination register",
    );
    assert_error("ldi r0, 0x100000000", 1, 9, "expected a 32-bit integer");
    assert_error("sacq -, 16", 1, 9, "semaphore number 0..15");
    assert_error("brr -, r:nowhere", 1, 10, "undefined label `nowhere`");
    assert_error("x:\nx:\nnop", 2, 1, "defined twice");
    assert_error("bra -, r:x\n:x", 1, 10, "use `brr` for labels");
    assert_error("nop; thrend; thrsw", 1, 14, "only one signal");
    assert_error(".inst 0x10000000099e7000", 1, 7, "reserved value 9");
    assert_error("add r0, r1, r2 @", 1, 16, "unexpected character `@`");
}

#[test]
fn no_panic_on_junk() {
    for text in [
        "",
        ";",
        ";;",
        "nop;",
        "ldi",
        "ldi r0",
        "ldi.es r0, [1,2]",
        "brr",
        "brr -,",
        "mov",
        "[",
        "]]",
        "-",
        ":",
        "a:b:c",
        "nop >> 3",
        "add r0, r1, r2 >>",
        "ldi -, -",
        ".inst",
        ".inst 0xzz",
    ] {
        let _ = assemble(text);
    }
}

#[test]
fn flag_setting_without_a_destination_still_writes_in_every_lane() {
    // Flags change only where the flag-setting ALU's condition passes [measured], so a
    // `.setf` with a `-` destination must default to `always`, not `never`.
    let [qpu_isa::vc4::Instruction::Alu(alu)] = assemble("sub.setf -, ra0, rb1").unwrap()[..]
    else {
        panic!()
    };
    assert_eq!(alu.write.cond_add, qpu_isa::vc4::Cond::Always);
    let [qpu_isa::vc4::Instruction::Alu(alu)] = assemble("nop; fmul.setf -, r0, r1").unwrap()[..]
    else {
        panic!()
    };
    assert_eq!(
        (alu.write.cond_add, alu.write.cond_mul),
        (qpu_isa::vc4::Cond::Never, qpu_isa::vc4::Cond::Always)
    );
    let [qpu_isa::vc4::Instruction::Alu(alu)] = assemble("mov -, vw_wait").unwrap()[..] else {
        panic!()
    };
    assert_eq!(alu.write.cond_add, qpu_isa::vc4::Cond::Never);
}

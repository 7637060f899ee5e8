//! Property tests: binary and text round trips over arbitrary instructions.

use proptest::prelude::*;
use qpu_isa::vc4::*;

fn pick<T: Copy + std::fmt::Debug + 'static>(all: &'static [T]) -> impl Strategy<Value = T> {
    proptest::sample::select(all)
}

fn reg_addr() -> impl Strategy<Value = RegAddr> {
    (0u8..64).prop_map(|a| RegAddr::new(a).expect("6-bit"))
}

fn pack() -> impl Strategy<Value = Pack> {
    prop_oneof![
        pick(PackA::ALL).prop_map(Pack::RegfileA),
        pick(PackMul::ALL).prop_map(Pack::Mul)
    ]
}

fn write_back() -> impl Strategy<Value = WriteBack> {
    (
        pack(),
        pick(Cond::ALL),
        pick(Cond::ALL),
        any::<bool>(),
        any::<bool>(),
        reg_addr(),
        reg_addr(),
    )
        .prop_map(
            |(pack, cond_add, cond_mul, set_flags, ws, waddr_add, waddr_mul)| WriteBack {
                pack,
                cond_add,
                cond_mul,
                set_flags,
                write_swap: WriteSwap::from_bit(ws),
                waddr_add,
                waddr_mul,
            },
        )
}

fn read_b() -> impl Strategy<Value = ReadB> {
    prop_oneof![
        (pick(Signal::ALL), reg_addr())
            .prop_map(|(signal, raddr_b)| ReadB::Register { signal, raddr_b }),
        (0u8..64).prop_map(|c| ReadB::SmallImm(SmallImm::new(c).expect("6-bit"))),
    ]
}

fn alu() -> impl Strategy<Value = Instruction> {
    (
        read_b(),
        pick(Unpack::ALL),
        write_back(),
        pick(AddOp::ALL),
        pick(MulOp::ALL),
        reg_addr(),
        [
            pick(InputMux::ALL),
            pick(InputMux::ALL),
            pick(InputMux::ALL),
            pick(InputMux::ALL),
        ],
    )
        .prop_map(
            |(b, unpack, write, op_add, op_mul, raddr_a, [add_a, add_b, mul_a, mul_b])| {
                Instruction::Alu(AluInstruction {
                    b,
                    unpack,
                    write,
                    op_add,
                    op_mul,
                    raddr_a,
                    add_a,
                    add_b,
                    mul_a,
                    mul_b,
                })
            },
        )
}

fn instruction() -> impl Strategy<Value = Instruction> {
    prop_oneof![
        4 => alu(),
        1 => (pick(LoadImmMode::ALL), any::<u32>(), write_back())
            .prop_map(|(mode, imm, write)| Instruction::LoadImm(LoadImmInstruction { mode, imm, write })),
        1 => (any::<bool>(), 0u8..16, 0u32..1 << 27, write_back()).prop_map(|(acquire, s, unused, write)| {
            Instruction::Semaphore(SemaphoreInstruction {
                acquire,
                semaphore: SemaphoreId::new(s).expect("0..16"),
                unused,
                write,
            })
        }),
        1 => (pick(BranchCond::ALL), any::<bool>(), any::<bool>(), 0u8..32, any::<bool>(), reg_addr(), reg_addr(), any::<i32>(), 0u8..16)
            .prop_map(|(cond, relative, use_raddr_a, a, ws, waddr_add, waddr_mul, imm, unused)| {
                Instruction::Branch(BranchInstruction {
                    cond,
                    relative,
                    use_raddr_a,
                    raddr_a: RegAddr::new(a).expect("5-bit"),
                    write_swap: WriteSwap::from_bit(ws),
                    waddr_add,
                    waddr_mul,
                    imm,
                    unused,
                })
            }),
    ]
}

/// Whether the disassembler must show the mul-side destination of a load immediate: it is
/// written, or it carries the pack.
fn second_destination(w: &WriteBack) -> bool {
    let packed = !matches!(
        w.pack,
        Pack::RegfileA(PackA::None) | Pack::Mul(PackMul::None)
    );
    let pack_on_add = matches!(w.pack, Pack::RegfileA(_)) && w.write_swap.add_file() == RegFile::A;
    w.waddr_mul != RegAddr::NOP || (packed && !pack_on_add)
}

/// Clears the fields the natural syntax has no place for (don't-care bits; an unpack with no
/// operand it applies to; a pm bit with nothing packed), the way an assembler would leave
/// them. Such instructions must disassemble without the `.inst` fallback.
fn canonical(instr: Instruction) -> Instruction {
    let canonical_write = |w: &mut WriteBack, second_dst: bool| {
        if w.pack == Pack::Mul(PackMul::None) {
            w.pack = Pack::RegfileA(PackA::None);
        }
        // One written condition covers both destinations.
        let add_default = Cond::default_for(w.waddr_add == RegAddr::NOP, w.set_flags);
        let cond = (w.cond_add != add_default).then_some(w.cond_add);
        w.cond_mul = if second_dst {
            cond.unwrap_or(Cond::default_for(w.waddr_mul == RegAddr::NOP, false))
        } else {
            Cond::Never
        };
    };
    match instr {
        Instruction::Alu(mut alu) => {
            if alu.unpack != Unpack::None {
                // Give the unpack an operand to apply to.
                if alu.op_add == AddOp::Nop {
                    alu.op_add = AddOp::Add;
                }
                alu.add_a = if alu.write.pack.pm() {
                    InputMux::R4
                } else {
                    InputMux::A
                };
            } else if alu.write.pack == Pack::Mul(PackMul::None) {
                alu.write.pack = Pack::RegfileA(PackA::None);
            }
            Instruction::Alu(alu)
        }
        Instruction::LoadImm(mut ldi) => {
            let second = second_destination(&ldi.write);
            canonical_write(&mut ldi.write, second);
            Instruction::LoadImm(ldi)
        }
        Instruction::Semaphore(mut sema) => {
            sema.unused = 0;
            let second = second_destination(&sema.write);
            canonical_write(&mut sema.write, second);
            Instruction::Semaphore(sema)
        }
        Instruction::Branch(mut br) => {
            br.unused = 0;
            if !br.use_raddr_a {
                br.raddr_a = RegAddr::new(0).expect("0");
                // `brr rbX, raY, t` reads as a register offset: keep such links to the add side.
                if br.write_swap.mul_file() == RegFile::A && br.waddr_mul.is_physical() {
                    br.waddr_mul = RegAddr::NOP;
                }
            }
            Instruction::Branch(br)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn decode_inverts_encode(instr in instruction()) {
        prop_assert_eq!(Instruction::decode(instr.encode()), Ok(instr));
    }

    #[test]
    fn decode_never_panics_and_is_lossless(word in any::<u64>()) {
        if let Ok(instr) = Instruction::decode(word) {
            prop_assert_eq!(instr.encode(), word);
            let text = disasm::instruction(&instr);
            prop_assert_eq!(assemble_instruction(&text), Ok(instr), "{}", text);
        }
    }

    #[test]
    fn text_round_trips_every_instruction(instr in instruction()) {
        let text = disasm::instruction(&instr);
        prop_assert_eq!(assemble_instruction(&text), Ok(instr), "{}", text);
    }

    #[test]
    fn canonical_instructions_use_the_natural_syntax(instr in instruction().prop_map(canonical)) {
        let text = disasm::instruction(&instr);
        prop_assert!(!text.starts_with(".inst"), "{:?} -> {}", instr, text);
        prop_assert_eq!(assemble_instruction(&text), Ok(instr), "{}", text);
        // The canonical text is a fixed point.
        prop_assert_eq!(disasm::instruction(&assemble_instruction(&text).unwrap()), text);
    }

    #[test]
    fn assembler_never_panics(text in "[ -~]{0,60}") {
        let _ = assemble(&text);
    }
}

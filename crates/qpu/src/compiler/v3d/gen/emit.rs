//! Emitting instructions: one add- or mul-ALU operation or signal each, temporaries,
//! constants built from small immediates, broadcasts, SFU calls and rotations.

use super::super::*;

impl Gen<'_> {
    pub(in crate::compiler::v3d) fn emit(&mut self, inst: Inst<VReg>) {
        self.lines.push(inst);
        self.locations.push(self.here);
    }

    /// An instruction standing for a latency the packer keeps (or a delay slot it fills).
    pub(in crate::compiler::v3d) fn nop(&mut self) {
        self.emit(Inst::nop());
    }

    /// A signal alone (`ldtmu`, `ldunifrf`, `ldunifarf` writing `dst`; `thrsw`).
    pub(in crate::compiler::v3d) fn signal(&mut self, sig: Signal, dst: Option<Dst<VReg>>) {
        self.emit(Inst::Alu(Alu {
            sig: Some(sig),
            sig_dst: dst,
            ..Alu::NOP
        }));
    }

    pub(in crate::compiler::v3d) fn label(&mut self) -> Label {
        self.labels += 1;
        Label(self.labels)
    }

    pub(in crate::compiler::v3d) fn place(&mut self, label: Label) {
        // Labels are not instructions: they carry no location.
        self.lines.push(Inst::Label(label));
    }

    pub(in crate::compiler::v3d) fn branch(&mut self, cond: BranchCond, target: Label) {
        self.emit(Inst::Branch { cond, target });
        // Three delay slots (Mesa qpu_validate.c), left empty here; the packer fills them.
        for _ in 0..3 {
            self.nop();
        }
    }

    pub(in crate::compiler::v3d) fn unsupported(
        &self,
        construct: impl Into<String>,
    ) -> CompileError {
        CompileError::Unsupported {
            construct: construct.into(),
            target: version_name(self.version),
            location: self.here.unwrap_or(self.kernel.location),
        }
    }

    pub(in crate::compiler::v3d) fn temp(&mut self) -> Result<u32, CompileError> {
        let r = self.next_vreg;
        self.next_vreg = r.checked_add(1).ok_or_else(|| {
            CompileError::RegisterAllocation(format!(
                "the kernel at {} needs more than 2^32 values",
                self.kernel.location
            ))
        })?;
        Ok(r)
    }

    /// The virtual register of buffer position `i` (see `buffered`).
    pub(in crate::compiler::v3d) fn buffer(&mut self, i: u32) -> Result<u32, CompileError> {
        while self.buffers.len() <= i as usize {
            let r = self.temp()?;
            self.buffers.push(r);
        }
        Ok(self.buffers[i as usize])
    }

    pub(in crate::compiler::v3d) fn constant(&mut self, bits: u32) -> Result<Src, CompileError> {
        if small_imm_index(bits).is_some() {
            return Ok(Src::Imm(bits));
        }
        if let Some(&r) = self.const_reg.get(&bits) {
            return Ok(Src::Reg(r));
        }
        // Built from 4-bit pieces, most significant first (V3D has no load-immediate).
        let t = self.temp()?;
        let d = Dst::v(t);
        let nibbles: Vec<u32> = (0..8).rev().map(|i| (bits >> (4 * i)) & 15).collect();
        let first = nibbles.iter().position(|&n| n != 0).unwrap_or(7);
        self.mov(d, Src::Imm(nibbles[first]), Fl::NONE);
        for &n in &nibbles[first + 1..] {
            self.add2(AddOp::Shl, Fl::NONE, d, Src::Reg(t), Src::Imm(4))?;
            if n != 0 {
                self.add2(AddOp::Or, Fl::NONE, d, Src::Reg(t), Src::Imm(n))?;
            }
        }
        Ok(Src::Reg(t))
    }

    /// At most one small immediate per instruction (one value on 4.2, one signal on 7.1):
    /// moves `a` into a register when both inputs are immediates.
    pub(in crate::compiler::v3d) fn operands(
        &mut self,
        a: Src,
        b: Src,
    ) -> Result<(Src, Src), CompileError> {
        match (a, b) {
            (Src::Imm(x), Src::Imm(y)) if x != y || self.version == V3dVersion::V71 => {
                let t = self.temp()?;
                self.mov(Dst::v(t), a, Fl::NONE);
                Ok((Src::Reg(t), b))
            }
            _ => Ok((a, b)),
        }
    }

    /// The add-ALU operation `op` with `flags`, alone in an instruction.
    pub(in crate::compiler::v3d) fn add_op(
        &mut self,
        op: AddOp,
        flags: Fl,
        dest: Dst<VReg>,
        srcs: &[Src],
    ) {
        let srcs: Vec<ir::Src<VReg>> = srcs.iter().map(|s| s.ir()).collect();
        self.emit(Inst::Alu(Alu {
            add: Some(Op::new(op, flags, dest, &srcs)),
            ..Alu::NOP
        }));
    }

    /// The mul-ALU operation `op` with `flags`, alone in an instruction.
    pub(in crate::compiler::v3d) fn mul_op(
        &mut self,
        op: MulOp,
        flags: Fl,
        dest: Dst<VReg>,
        srcs: &[Src],
    ) {
        let srcs: Vec<ir::Src<VReg>> = srcs.iter().map(|s| s.ir()).collect();
        self.emit(Inst::Alu(Alu {
            mul: Some(Op::new(op, flags, dest, &srcs)),
            ..Alu::NOP
        }));
    }

    /// A two-input add-ALU operation (an immediate moved to a register first if both
    /// inputs are different immediates).
    pub(in crate::compiler::v3d) fn add2(
        &mut self,
        op: AddOp,
        flags: Fl,
        dest: Dst<VReg>,
        a: Src,
        b: Src,
    ) -> Result<(), CompileError> {
        let (a, b) = self.operands(a, b)?;
        self.add_op(op, flags, dest, &[a, b]);
        Ok(())
    }

    /// A one-input add-ALU operation.
    pub(in crate::compiler::v3d) fn add1(&mut self, op: AddOp, flags: Fl, dest: Dst<VReg>, a: Src) {
        self.add_op(op, flags, dest, &[a]);
    }

    /// A two-input mul-ALU operation.
    pub(in crate::compiler::v3d) fn mul2(
        &mut self,
        op: MulOp,
        flags: Fl,
        dest: Dst<VReg>,
        a: Src,
        b: Src,
    ) -> Result<(), CompileError> {
        let (a, b) = self.operands(a, b)?;
        self.mul_op(op, flags, dest, &[a, b]);
        Ok(())
    }

    /// The mul ALU's `mov` (it exists on both versions and takes a single input, so an
    /// immediate needs no second port).
    pub(in crate::compiler::v3d) fn mov(&mut self, dest: Dst<VReg>, a: Src, flags: Fl) {
        self.mul_op(MulOp::Mov, flags, dest, &[a]);
    }

    /// A register holding lane 0 of `value` in every lane (4.2 `r5rep`, 7.1 `rep`), or
    /// `value` itself when it is already lane-uniform.
    pub(in crate::compiler::v3d) fn broadcast(
        &mut self,
        value: Src,
        uniform: bool,
    ) -> Result<Src, CompileError> {
        if uniform || matches!(value, Src::Imm(_)) {
            return Ok(value);
        }
        let read = match self.version {
            V3dVersion::V42 => Src::Acc(5),
            V3dVersion::V71 => Src::Phys(0),
        };
        self.mov(Dst::Magic(Waddr::REP), value, Fl::NONE);
        let t = self.temp()?;
        self.mov(Dst::v(t), read, Fl::NONE);
        Ok(Src::Reg(t))
    }

    /// A special function as the add-ALU op (V3D 4.1+; on 7.1 the only form), writing any
    /// register. Mesa's scheduler gives an SFU instruction a latency of 2
    /// (`qpu_schedule.c`, `instruction_latency`; a read in the very next instruction stalls,
    /// `read_stalls`). The two nops after it stand for that latency: the packer keeps
    /// readers two instructions away and fills the gap with independent work.
    pub(in crate::compiler::v3d) fn sfu(&mut self, op: AddOp, dest: u32, a: Src) {
        self.add1(op, Fl::NONE, Dst::v(dest), a);
        self.nop();
        self.nop();
    }

    /// `dest` lane i = `value` lane (i − n) mod 16, n = lane 0 of `amount`.
    pub(in crate::compiler::v3d) fn rotate(
        &mut self,
        dest: u32,
        value: Src,
        amount: Src,
    ) -> Result<(), CompileError> {
        let d = Dst::v(dest);
        let constant = match amount {
            Src::Imm(n) => Some(n & 15),
            Src::Reg(_) | Src::Phys(_) | Src::Acc(_) => None,
        };
        if constant == Some(0) {
            self.mov(d, value, Fl::NONE);
            return Ok(());
        }
        match self.version {
            V3dVersion::V42 => {
                // The `rot` signal rotates the mul ALU's inputs; from an accumulator across
                // all 16 lanes, out[i] = in[(i − n) mod 16], by a small immediate or by r5
                // (py-videocore6 tests/test_signals.py, on a Pi 4). Neither the source
                // accumulator nor r5 may be written by the instruction just before it.
                self.mov(Dst::Reg(VReg::Acc(0)), value, Fl::NONE);
                // The amount as `raddr_b`: a small-immediate index, 0 for "by r5".
                let by = match constant {
                    Some(n) => small_imm_index(n).expect("1..=15 are small immediates"),
                    None => {
                        self.mov(Dst::Reg(VReg::Acc(5)), amount, Fl::NONE);
                        0
                    }
                };
                self.nop();
                self.emit(Inst::Alu(Alu {
                    mul: Some(Op::new(MulOp::Mov, Fl::NONE, d, &[Src::Acc(0).ir()])),
                    sig: Some(Signal::Rot),
                    rot: Some(by),
                    ..Alu::NOP
                }));
            }
            V3dVersion::V71 => {
                // The add-ALU `rotate` turns the other way, out[i] = in[(i + n) mod 16]
                // (py-videocore7 tests/test_parallel.py, on a Pi 5), so rotate by −n. A
                // free instruction before it, as 4.2 needs (no source states 7.1's rule).
                let by = match constant {
                    Some(n) => Src::Imm((16 - n) & 15),
                    None => {
                        let t = self.temp()?;
                        self.add1(AddOp::Neg, Fl::NONE, Dst::v(t), amount);
                        Src::Reg(t)
                    }
                };
                let v = match value {
                    Src::Reg(_) | Src::Phys(_) | Src::Acc(_) => value,
                    Src::Imm(_) => {
                        let t = self.temp()?;
                        self.mov(Dst::v(t), value, Fl::NONE);
                        Src::Reg(t)
                    }
                };
                self.nop();
                self.add2(AddOp::Rot, Fl::NONE, d, v, by)?;
            }
        }
        Ok(())
    }
}

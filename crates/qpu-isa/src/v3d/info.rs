//! What an ALU instruction reads and writes, worked out from its fields in one place (the
//! role iced-x86's `InstructionInfo` plays for x86): the registers its inputs come from and
//! its writes land in, the streams and units it uses, and its flag effects. The compiler's
//! packer builds its dependency graph from it and the emulator's placement rules check
//! double writes, accumulator writes and uniform reads with it, so neither derives them from
//! the fields again.
//!
//! Sources: Mesa `src/broadcom/qpu/qpu_instr.c` (`v3d_qpu_writes_r5`, `v3d_qpu_uses_sfu`,
//! `v3d_qpu_writes_tmu`, `v3d_qpu_reads_flags`, `v3d_qpu_writes_flags`,
//! `v3d_qpu_uses_mux`), the signal table of `qpu_instr.h`, and py-videocore6/7 for where
//! 7.1's implicit writes land (rf0, see [`Waddr::register`]).

use super::{
    AddOp, AluInstruction, CondField, InputSource, Inputs, MulOp, Mux, Register, Signal,
    V3dVersion, Waddr,
};

/// One ALU instruction's reads and writes (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// The registers the inputs the operations read come from, as add a, add b, mul a,
    /// mul b (`None` for a small immediate, an input no operation reads, or the port that
    /// carries a 4.2 `rot` amount).
    pub reads: [Option<Register>; 4],
    /// The registers written, in the order the writes land: the add ALU, the mul ALU, then
    /// the signals `ldunif`, `ldunifrf`, `ldunifa`/`ldunifarf` and `ldtmu` (`None` where no
    /// register is written: a `nop` operation, a magic peripheral address, an absent
    /// signal). `ldunif` and `ldunifa` write 4.2's r5 and 7.1's rf0.
    pub writes: [Option<Register>; 6],
    /// Reads of the uniform stream: `ldunif`, `ldunifrf`, `wrtmuc` and `tmuau` writes.
    pub uniform_reads: u8,
    /// Reads the second uniform stream (`ldunifa`, `ldunifarf`).
    pub reads_unifa: bool,
    /// Writes the second stream's pointer (`unifa`).
    pub writes_unifa: bool,
    /// Writes a TMU register (a request's data, address or configuration).
    pub writes_tmu: bool,
    /// Pops a TMU result (`ldtmu`).
    pub reads_tmu: bool,
    /// Waits for this thread's TMU writes (`tmuwt`).
    pub tmu_wait: bool,
    /// Starts an SFU function: an SFU add op, or on 4.2 a write to an SFU register.
    pub sfu: bool,
    /// Uses the mul ALU's rtop register (`umul24`, `multop`).
    pub rtop: bool,
    /// Rotates: 4.2's `rot` signal (on the mul ALU's inputs) or a 7.1 rotate or shuffle op.
    pub rotates: bool,
    /// Reads the flags (a write condition on either ALU).
    pub reads_flags: bool,
    /// Pushes or updates the flags.
    pub writes_flags: bool,
}

/// The SFU functions the add ALU starts (both versions).
fn sfu_op(op: AddOp) -> bool {
    matches!(
        op,
        AddOp::Recip | AddOp::Rsqrt | AddOp::Rsqrt2 | AddOp::Exp | AddOp::Log | AddOp::Sin
    )
}

impl AluInstruction {
    /// What this instruction reads and writes, for `version`.
    pub fn info(&self, version: V3dVersion) -> Info {
        let sigs = self.signals;
        let add_live = self.add.op != AddOp::Nop;
        let mul_live = self.mul.op != MulOp::Nop;
        let add_waddr = add_live.then_some(self.add.waddr);
        let mul_waddr = mul_live.then_some(self.mul.waddr);
        let rot42 = version == V3dVersion::V42 && sigs.contains(Signal::Rot);

        let mut reads = [None; 4];
        let arity = [self.add_arity(), self.mul_arity()];
        for (n, read) in reads.iter_mut().enumerate() {
            if n % 2 >= usize::from(arity[n / 2]) {
                continue;
            }
            // With 4.2's `rot`, port B carries the amount, not an operand.
            if let (true, Inputs::V42 { .. }) = (rot42, self.inputs) {
                if self.mux(n) == Some(Mux::B) {
                    continue;
                }
            }
            *read = match self.input(n) {
                InputSource::Acc(r) => Some(Register::Acc(r)),
                InputSource::Rf(r) => Some(Register::Rf(r)),
                InputSource::SmallImm(_) => None,
            };
        }

        let implicit = match version {
            V3dVersion::V42 => Register::Acc(5),
            V3dVersion::V71 => Register::Rf(0),
        };
        let sig_reg = match self.cond {
            CondField::SigAddr(w) => w.register(version),
            CondField::Flags(_) => None,
        };
        let when = |sig: Signal, reg: Option<Register>| if sigs.contains(sig) { reg } else { None };
        let ldunifa = if sigs.contains(Signal::Ldunifarf) {
            sig_reg
        } else {
            when(Signal::Ldunifa, Some(implicit))
        };
        let writes = [
            add_waddr.and_then(|w| w.register(version)),
            mul_waddr.and_then(|w| w.register(version)),
            when(Signal::Ldunif, Some(implicit)),
            when(Signal::Ldunifrf, sig_reg),
            ldunifa,
            when(Signal::Ldtmu, sig_reg),
        ];

        let waddrs = [add_waddr, mul_waddr];
        let any = |test: &dyn Fn(Waddr) -> bool| waddrs.iter().flatten().any(|&w| test(w));
        let tmuau = waddrs.iter().filter(|&&w| w == Some(Waddr::TMUAU)).count() as u8;
        let flags = self.flags();
        Info {
            reads,
            writes,
            uniform_reads: u8::from(sigs.contains(Signal::Ldunif))
                + u8::from(sigs.contains(Signal::Ldunifrf))
                + u8::from(sigs.contains(Signal::Wrtmuc))
                + tmuau,
            reads_unifa: sigs.contains(Signal::Ldunifa) || sigs.contains(Signal::Ldunifarf),
            writes_unifa: any(&|w| w == Waddr::UNIFA),
            writes_tmu: any(&|w| w.is_tmu()),
            reads_tmu: sigs.contains(Signal::Ldtmu),
            tmu_wait: add_live && self.add.op == AddOp::Tmuwt,
            sfu: (add_live && sfu_op(self.add.op)) || any(&|w| w.is_sfu(version)),
            rtop: mul_live && matches!(self.mul.op, MulOp::Umul24 | MulOp::Multop),
            rotates: rot42
                || (version == V3dVersion::V71
                    && add_live
                    && matches!(self.add.op, AddOp::Rot | AddOp::Rotq | AddOp::Shuffle)),
            reads_flags: flags.ac.is_some() || flags.mc.is_some(),
            writes_flags: flags.apf.is_some()
                || flags.mpf.is_some()
                || flags.auf.is_some()
                || flags.muf.is_some(),
        }
    }

    /// The 4.2 mux of input `n` (0 add a, 1 add b, 2 mul a, 3 mul b); `None` on 7.1.
    fn mux(&self, n: usize) -> Option<Mux> {
        match self.inputs {
            Inputs::V42 {
                add_a,
                add_b,
                mul_a,
                mul_b,
                ..
            } => Some([add_a, add_b, mul_a, mul_b][n]),
            Inputs::V71 { .. } => None,
        }
    }
}

impl Info {
    /// The accumulators written (bit n = rn).
    pub fn acc_writes(&self) -> u8 {
        self.writes.iter().fold(0, |bits, w| match w {
            Some(Register::Acc(n)) => bits | 1 << n,
            _ => bits,
        })
    }

    /// The first register written twice, if any.
    pub fn written_twice(&self) -> Option<Register> {
        self.writes.iter().enumerate().find_map(|(i, w)| {
            let w = (*w)?;
            self.writes[i + 1..].contains(&Some(w)).then_some(w)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v3d::{assemble, Instruction};

    fn info(version: V3dVersion, text: &str) -> Info {
        let program = assemble(version, text).expect("assembles");
        match program[0] {
            Instruction::Alu(alu) => alu.info(version),
            Instruction::Branch(_) => panic!("not an ALU instruction"),
        }
    }

    #[test]
    fn reads_and_writes_follow_the_fields() {
        let i = info(V3dVersion::V71, "add rf3, rf1, rf2 ; nop");
        assert_eq!(
            i.reads,
            [Some(Register::Rf(1)), Some(Register::Rf(2)), None, None]
        );
        assert_eq!(i.writes[0], Some(Register::Rf(3)));
        assert!(i.writes[1..].iter().all(Option::is_none));
        assert!(!i.reads_flags && !i.writes_flags && !i.writes_tmu);

        // A TMU address write reads a register and writes none; a small immediate is no read.
        let i = info(V3dVersion::V42, "add tmua, rf4, 1 ; nop");
        assert_eq!(i.reads, [Some(Register::Rf(4)), None, None, None]);
        assert_eq!(i.writes, [None; 6]);
        assert!(i.writes_tmu);

        // ldunif lands in r5 on 4.2 and rf0 on 7.1; ldtmu in its address.
        let i = info(V3dVersion::V42, "nop ; nop ; ldunif");
        assert_eq!(i.writes[2], Some(Register::Acc(5)));
        assert_eq!((i.uniform_reads, i.acc_writes()), (1, 1 << 5));
        let i = info(V3dVersion::V71, "nop ; nop ; ldunif");
        assert_eq!(i.writes[2], Some(Register::Rf(0)));
        let i = info(V3dVersion::V71, "nop ; nop ; ldtmu.rf7");
        assert_eq!(i.writes[5], Some(Register::Rf(7)));
        assert!(i.reads_tmu);

        // 7.1's `rep` writes rf0, as ldunif does: one register written twice.
        let i = info(V3dVersion::V71, "mov rep, rf1 ; nop ; ldunif");
        assert_eq!(i.written_twice(), Some(Register::Rf(0)));
    }

    #[test]
    fn units_and_flags() {
        let i = info(V3dVersion::V71, "recip rf2, rf1 ; nop");
        assert!(i.sfu);
        let i = info(V3dVersion::V42, "nop ; umul24 rf2, rf1, rf3");
        assert!(i.rtop);
        let i = info(V3dVersion::V71, "add.pushz rf2, rf1, rf3 ; nop");
        assert!(i.writes_flags && !i.reads_flags);
        let i = info(V3dVersion::V71, "add.ifa rf2, rf1, rf3 ; nop");
        assert!(i.reads_flags && !i.writes_flags);
        let i = info(V3dVersion::V71, "mov unifa, rf1 ; nop");
        assert!(i.writes_unifa);
        let i = info(V3dVersion::V71, "nop ; nop ; ldunifa");
        assert!(i.reads_unifa);
        let i = info(V3dVersion::V71, "tmuwt ; nop");
        assert!(i.tmu_wait);
    }
}

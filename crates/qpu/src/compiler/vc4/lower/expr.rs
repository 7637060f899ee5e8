//! Expressions: operators into ALU ops, I/O writes, the SFU, integer division and
//! multiplication.

use super::*;

impl Lower<'_> {
    /// Evaluate `e` into an operand (a variable's register is returned as is).
    pub(super) fn expr(&mut self, e: &Expr) -> Src<VReg> {
        match e {
            Expr::IntLit(v) => self.constant(*v as u32),
            Expr::FloatLit(v) => self.constant(v.to_bits()),
            Expr::Var(v) => Src::Reg(self.var(*v)),
            Expr::Special(Special::Index) => Src::Read(IoRead::ElemNum),
            Expr::Special(Special::QpuId) => Src::Reg(self.me),
            Expr::Special(Special::NumQpus) => Src::Reg(self.num_qpus),
            _ => {
                let t = self.fresh();
                self.expr_into(e, t, Cond::Always);
                Src::Reg(t)
            }
        }
    }

    /// Evaluate `e` straight into an I/O register: a single ALU operation writes it
    /// directly, anything else is computed first and copied.
    pub(super) fn expr_to_io(&mut self, e: &Expr, io: IoWrite) {
        let op = self.prepare_io(e);
        self.emit_io(op, io);
    }

    /// The right operand of `op`. Shifts and rotates read only the low five bits of their
    /// amount (the guide's table of add operations), so a literal amount is always a small
    /// immediate: `x.ror(22)` reads -10, never a load immediate.
    pub(super) fn rhs(&mut self, op: BinaryOp, e: &Expr) -> Src<VReg> {
        match (op, e) {
            (BinaryOp::Shl | BinaryOp::Asr | BinaryOp::Lsr | BinaryOp::Ror, Expr::IntLit(n)) => {
                shift_imm(*n as u32 & 31)
            }
            _ => self.expr(e),
        }
    }

    /// Evaluate everything `e` needs except its last operation: (operation, a, b).
    pub(super) fn prepare_io(&mut self, e: &Expr) -> (AluOp, Src<VReg>, Src<VReg>) {
        if let Expr::Binary { op, lhs, rhs } = e {
            if let Some(alu) = simple_binary(*op) {
                let a = self.expr(lhs);
                let b = self.rhs(*op, rhs);
                return (alu, a, b);
            }
        }
        let v = self.expr(e);
        (AluOp::Mov, v, v)
    }

    pub(super) fn emit_io(&mut self, (alu, a, b): (AluOp, Src<VReg>, Src<VReg>), io: IoWrite) {
        self.emit(Op::alu(alu, Dst::Write(io), a, b));
    }

    /// Evaluate `e` and write it to `dst` in the lanes where `cond` passes.
    pub(super) fn expr_into(&mut self, e: &Expr, dst: VReg, cond: Cond) {
        let d = Dst::Reg(dst);
        match e {
            Expr::Binary { op, lhs, rhs } => {
                if let Some(alu) = simple_binary(*op) {
                    let a = self.expr(lhs);
                    let b = self.rhs(*op, rhs);
                    self.emit(Op::Alu {
                        op: alu,
                        dst: d,
                        a,
                        b,
                        cond,
                        sf: false,
                        rotate: None,
                    });
                    return;
                }
                let a = self.expr(lhs);
                let b = self.expr(rhs);
                if *op == BinaryOp::IntMul {
                    self.int_mul(a, b, d, cond);
                } else if matches!(op, BinaryOp::IntDiv | BinaryOp::IntRem) {
                    self.int_divide(a, b, d, cond, *op == BinaryOp::IntRem);
                } else {
                    // FloatDiv: a * recip(b), as the language defines it.
                    let r = self.sfu(SfuOp::Recip, b);
                    self.emit(Op::Alu {
                        op: AluOp::Mul(MulOp::Fmul),
                        dst: d,
                        a,
                        b: r,
                        cond,
                        sf: false,
                        rotate: None,
                    });
                }
            }
            Expr::Unary { op, arg } => {
                let a = self.expr(arg);
                let (alu, b) = match op {
                    UnaryOp::IntNot => (AluOp::Add(AddOp::Not), a),
                    UnaryOp::Clz => (AluOp::Add(AddOp::Clz), a),
                    UnaryOp::IntToFloat => (AluOp::Add(AddOp::Itof), a),
                    UnaryOp::FloatToInt => (AluOp::Add(AddOp::Ftoi), a),
                    // |x| with the sign bit cleared (denormals flush to +0).
                    UnaryOp::FloatAbs => (AluOp::Add(AddOp::Fmaxabs), a),
                    UnaryOp::IntAbs => {
                        // max(x, 0 - x): wraps like the definition (abs(MIN) = MIN).
                        let neg = self.fresh();
                        self.emit(Op::alu(AluOp::Add(AddOp::Sub), Dst::Reg(neg), imm(0), a));
                        (AluOp::Add(AddOp::Max), Src::Reg(neg))
                    }
                    UnaryOp::Recip | UnaryOp::Rsqrt | UnaryOp::Exp2 | UnaryOp::Log2 => {
                        let f = match op {
                            UnaryOp::Recip => SfuOp::Recip,
                            UnaryOp::Rsqrt => SfuOp::RecipSqrt,
                            UnaryOp::Exp2 => SfuOp::Exp2,
                            _ => SfuOp::Log2,
                        };
                        let r = self.sfu(f, a);
                        (AluOp::Mov, r)
                    }
                    UnaryOp::Sqrt => {
                        let r = self.sfu(SfuOp::RecipSqrt, a);
                        let r = self.sfu(SfuOp::Recip, r);
                        (AluOp::Mov, r)
                    }
                };
                let a = if alu == AluOp::Mov { b } else { a };
                self.emit(Op::Alu {
                    op: alu,
                    dst: d,
                    a,
                    b,
                    cond,
                    sf: false,
                    rotate: None,
                });
            }
            Expr::Select { cond: test, a, b } => {
                // Both values, then the test's flags; the choice goes through a temporary,
                // since `d` may be one of the values.
                let va = self.expr(a);
                let vb = self.expr(b);
                let flag = self.boolean(test);
                let t = self.fresh();
                self.emit(Op::mov(Dst::Reg(t), vb));
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::Reg(t),
                    a: va,
                    b: va,
                    cond: flag,
                    sf: false,
                    rotate: None,
                });
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: d,
                    a: Src::Reg(t),
                    b: Src::Reg(t),
                    cond,
                    sf: false,
                    rotate: None,
                });
            }
            Expr::Rotate { value, amount } => {
                let v = self.expr(value);
                let rotation = match **amount {
                    Expr::IntLit(n) => match (n & 15) as u8 {
                        0 => None,
                        n => Some(Rotation::By(n)),
                    },
                    _ => {
                        let n = self.expr(amount);
                        self.emit(Op::mov(Dst::Write(IoWrite::R5Rep), n));
                        Some(Rotation::ByR5)
                    }
                };
                let Some(rotation) = rotation else {
                    self.emit(Op::Alu {
                        op: AluOp::Mov,
                        dst: d,
                        a: v,
                        b: v,
                        cond,
                        sf: false,
                        rotate: None,
                    });
                    return;
                };
                // A full 16-lane rotation needs its source in r0-r3.
                let t = self.fresh();
                self.acc_only.push(t);
                self.emit(Op::mov(Dst::Reg(t), v));
                self.emit(Op::Alu {
                    op: AluOp::Mul(MulOp::V8min),
                    dst: d,
                    a: Src::Reg(t),
                    b: Src::Reg(t),
                    cond,
                    sf: false,
                    rotate: Some(rotation),
                });
            }
            Expr::Uniform { .. } => {
                // One read, in evaluation order; `opt::fold_uniform_reads` lets the next
                // instruction read the uniform itself when it is the only use.
                self.stream_reads.push(dst);
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: d,
                    a: Src::Read(IoRead::Uniform),
                    b: Src::Read(IoRead::Uniform),
                    cond,
                    sf: false,
                    rotate: None,
                });
            }
            Expr::Load { addr, stride, .. } => {
                let base = if lane_uniform(addr, &self.uniform_vars) {
                    self.expr(addr)
                } else {
                    // Only lane 0's address counts: broadcast it through r5.
                    let a = self.expr(addr);
                    self.emit(Op::mov(Dst::Write(IoWrite::R5Rep), a));
                    Src::R5
                };
                let offsets = self.fresh();
                let step = 4 * stride;
                if step.is_power_of_two() && step.trailing_zeros() <= 15 {
                    let shift = imm(step.trailing_zeros() as i32);
                    self.emit(Op::alu(
                        AluOp::Add(AddOp::Shl),
                        Dst::Reg(offsets),
                        Src::Read(IoRead::ElemNum),
                        shift,
                    ));
                } else {
                    let c = self.constant(step);
                    self.emit(Op::alu(
                        AluOp::Mul(MulOp::Mul24),
                        Dst::Reg(offsets),
                        Src::Read(IoRead::ElemNum),
                        c,
                    ));
                }
                self.emit(Op::alu(
                    AluOp::Add(AddOp::Add),
                    Dst::Write(IoWrite::TmuS(1)),
                    base,
                    Src::Reg(offsets),
                ));
                self.emit(Op::Signal(Signal::LoadTmu1));
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: d,
                    a: Src::R4,
                    b: Src::R4,
                    cond,
                    sf: false,
                    rotate: None,
                });
            }
            _ => {
                let s = self.expr(e);
                if s == Src::Reg(dst) {
                    return;
                }
                match s {
                    Src::Reg(_) | Src::Imm(_) | Src::Read(_) | Src::R4 | Src::R5 => {
                        self.emit(Op::Alu {
                            op: AluOp::Mov,
                            dst: d,
                            a: s,
                            b: s,
                            cond,
                            sf: false,
                            rotate: None,
                        })
                    }
                }
            }
        }
    }

    /// Start a special function on `x`; returns its result (copied out of r4).
    pub(super) fn sfu(&mut self, f: SfuOp, x: Src<VReg>) -> Src<VReg> {
        self.emit(Op::mov(Dst::Write(IoWrite::Sfu(f)), x));
        let t = self.fresh();
        self.emit(Op::mov(Dst::Reg(t), Src::R4));
        Src::Reg(t)
    }

    /// Signed division or remainder by restoring long division on the magnitudes, one
    /// quotient bit per step from the top, all lanes at once (no divide instruction exists):
    /// step i subtracts `|b| << i` from the remaining dividend where `(dividend >> i) >= |b|`
    /// as unsigned numbers (the carry of the subtraction), then the signs are applied. About
    /// 200 operations; results as [`BinaryOp::IntDiv`] and [`BinaryOp::IntRem`] define them.
    pub(super) fn int_divide(
        &mut self,
        a: Src<VReg>,
        b: Src<VReg>,
        d: Dst<VReg>,
        cond: Cond,
        rem: bool,
    ) {
        let r = |v| Src::Reg(v);
        let alu = |op, dst, a, b, cond, sf| Op::Alu {
            op,
            dst,
            a,
            b,
            cond,
            sf,
            rotate: None,
        };
        // Magnitudes: max(x, -x) wraps MIN to 2^31, which is right as an unsigned number.
        let (na, ua, nb, ub, uq) = (
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
        );
        self.emit(Op::alu(AluOp::Add(AddOp::Sub), Dst::Reg(na), imm(0), a));
        self.emit(Op::alu(AluOp::Add(AddOp::Max), Dst::Reg(ua), a, r(na)));
        self.emit(Op::alu(AluOp::Add(AddOp::Sub), Dst::Reg(nb), imm(0), b));
        self.emit(Op::alu(AluOp::Add(AddOp::Max), Dst::Reg(ub), b, r(nb)));
        self.emit(Op::mov(Dst::Reg(uq), imm(0)));
        for i in (0..32u32).rev() {
            let (t, s) = (self.fresh(), self.fresh());
            let sh = shift_imm(i);
            self.emit(Op::alu(AluOp::Add(AddOp::Shr), Dst::Reg(t), r(ua), sh));
            // Carry clear: t >= |b| unsigned.
            self.emit(alu(
                AluOp::Add(AddOp::Sub),
                Dst::None,
                r(t),
                r(ub),
                Cond::Always,
                true,
            ));
            self.emit(Op::alu(AluOp::Add(AddOp::Shl), Dst::Reg(s), r(ub), sh));
            let (sub, shl, or) = (AddOp::Sub, AddOp::Shl, AddOp::Or);
            let clear = Cond::CarryClear;
            self.emit(alu(
                AluOp::Add(sub),
                Dst::Reg(ua),
                r(ua),
                r(s),
                clear,
                false,
            ));
            self.emit(Op::alu(AluOp::Add(shl), Dst::Reg(uq), r(uq), imm(1)));
            self.emit(alu(
                AluOp::Add(or),
                Dst::Reg(uq),
                r(uq),
                imm(1),
                clear,
                false,
            ));
        }
        // The quotient is negative when the operands' signs differ; the remainder takes the
        // dividend's sign.
        let (magnitude, sign) = if rem {
            (ua, a)
        } else {
            let signs = self.fresh();
            self.emit(Op::alu(AluOp::Add(AddOp::Xor), Dst::Reg(signs), a, b));
            (uq, r(signs))
        };
        let (neg, out) = (self.fresh(), self.fresh());
        self.emit(Op::alu(
            AluOp::Add(AddOp::Sub),
            Dst::Reg(neg),
            imm(0),
            r(magnitude),
        ));
        self.emit(Op::mov(Dst::Reg(out), r(magnitude)));
        self.emit(alu(AluOp::Mov, Dst::None, sign, sign, Cond::Always, true));
        self.emit(alu(
            AluOp::Mov,
            Dst::Reg(out),
            r(neg),
            r(neg),
            Cond::NegativeSet,
            false,
        ));
        self.emit(alu(AluOp::Mov, d, r(out), r(out), cond, false));
    }

    /// 32 × 32 → low 32 bits from 24-bit multiplies: with a = ah·2^24 + al,
    /// a·b mod 2^32 = al·bl + ((ah·bl + al·bh) mod 2^8)·2^24.
    pub(super) fn int_mul(&mut self, a: Src<VReg>, b: Src<VReg>, d: Dst<VReg>, cond: Cond) {
        let (ah, bh, lo, hi1, hi2, hi) = (
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
            self.fresh(),
        );
        let r = |v| Src::Reg(v);
        let c24 = self.constant(24);
        self.emit(Op::alu(AluOp::Add(AddOp::Shr), Dst::Reg(ah), a, c24));
        self.emit(Op::alu(AluOp::Add(AddOp::Shr), Dst::Reg(bh), b, c24));
        self.emit(Op::alu(AluOp::Mul(MulOp::Mul24), Dst::Reg(lo), a, b));
        self.emit(Op::alu(AluOp::Mul(MulOp::Mul24), Dst::Reg(hi1), r(ah), b));
        self.emit(Op::alu(AluOp::Mul(MulOp::Mul24), Dst::Reg(hi2), a, r(bh)));
        self.emit(Op::alu(
            AluOp::Add(AddOp::Add),
            Dst::Reg(hi),
            r(hi1),
            r(hi2),
        ));
        self.emit(Op::alu(AluOp::Add(AddOp::Shl), Dst::Reg(hi), r(hi), c24));
        self.emit(Op::Alu {
            op: AluOp::Add(AddOp::Add),
            dst: d,
            a: r(lo),
            b: r(hi),
            cond,
            sf: false,
            rotate: None,
        });
    }
}

//! Expressions: operators, division, comparisons into flag A and boolean values.

use super::super::*;

impl Gen<'_> {
    /// The value of `e` as an operand (a variable's own register, a constant, or a new
    /// temporary).
    pub(in crate::compiler::v3d) fn eval(&mut self, e: &Expr) -> Result<Src, CompileError> {
        Ok(match e {
            Expr::IntLit(v) => self.constant(*v as u32)?,
            Expr::FloatLit(f) => self.constant(f.to_bits())?,
            Expr::Var(v) if self.spilled[v.0 as usize] => self.reload(v.0 as usize)?,
            Expr::Var(v) => Src::Reg(self.var_reg[v.0 as usize]),
            Expr::Special(Special::Index) => Src::Reg(self.index),
            Expr::Special(Special::QpuId) => Src::Reg(self.me),
            Expr::Special(Special::NumQpus) => Src::Reg(self.num_qpus),
            _ => {
                // The result takes the next temporary; whatever the operands used above it is
                // dead once the value is computed.
                let t = self.temp()?;
                self.eval_into(e, t)?;
                Src::Reg(t)
            }
        })
    }

    /// Computes `e` into register `dest`. Multi-instruction sequences write `dest` only in
    /// their last instruction (or, for `select`, in a way that reads the operands first), so
    /// `dest` may be a variable `e` reads.
    pub(in crate::compiler::v3d) fn eval_into(
        &mut self,
        e: &Expr,
        dest: u32,
    ) -> Result<(), CompileError> {
        let d = Dst::v(dest);
        match e {
            Expr::IntLit(_) | Expr::FloatLit(_) | Expr::Var(_) | Expr::Special(_) => {
                let v = self.eval(e)?;
                if v != Src::Reg(dest) {
                    self.mov(d, v, Fl::NONE);
                }
            }
            Expr::Unary { op, arg } => {
                let a = self.eval(arg)?;
                match op {
                    UnaryOp::IntNot => self.add1(AddOp::Not, Fl::NONE, d, a),
                    UnaryOp::Clz => self.add1(AddOp::Clz, Fl::NONE, d, a),
                    UnaryOp::IntToFloat => self.add1(AddOp::Itof, Fl::NONE, d, a),
                    UnaryOp::FloatToInt => self.add1(AddOp::Ftoiz, Fl::NONE, d, a),
                    UnaryOp::IntAbs => {
                        // max(x, −x); −MIN = MIN, as the language defines.
                        let t = self.temp()?;
                        self.add1(AddOp::Neg, Fl::NONE, Dst::v(t), a);
                        self.add2(AddOp::Max, Fl::NONE, d, a, Src::Reg(t))?;
                    }
                    UnaryOp::FloatAbs => {
                        let t = self.temp()?;
                        self.add2(AddOp::Shl, Fl::NONE, Dst::v(t), a, Src::Imm(1))?;
                        self.add2(AddOp::Shr, Fl::NONE, d, Src::Reg(t), Src::Imm(1))?;
                    }
                    UnaryOp::Recip => self.sfu(AddOp::Recip, dest, a),
                    UnaryOp::Exp2 => self.sfu(AddOp::Exp, dest, a),
                    // The language ignores the sign of rsqrt's and log2's argument (as the
                    // VideoCore IV SFU does); the V3D's gives NaN for a negative one.
                    UnaryOp::Rsqrt | UnaryOp::Log2 | UnaryOp::Sqrt => {
                        let t = self.temp()?;
                        let abs = Dst::v(t);
                        self.add2(AddOp::Shl, Fl::NONE, abs, a, Src::Imm(1))?;
                        self.add2(AddOp::Shr, Fl::NONE, abs, Src::Reg(t), Src::Imm(1))?;
                        match op {
                            UnaryOp::Log2 => self.sfu(AddOp::Log, dest, Src::Reg(t)),
                            UnaryOp::Rsqrt => self.sfu(AddOp::Rsqrt, dest, Src::Reg(t)),
                            // sqrt(x) = recip(rsqrt(x)), as the language defines it.
                            _ => {
                                self.sfu(AddOp::Rsqrt, t, Src::Reg(t));
                                self.sfu(AddOp::Recip, dest, Src::Reg(t));
                            }
                        }
                    }
                }
            }
            Expr::Binary {
                op: BinaryOp::IntMul,
                lhs,
                rhs,
            } if literal_factor(lhs, rhs).is_some() => {
                // By a literal that is 0, ±1 or ±2^k: a move, a negation or a shift instead
                // of three umul24s (products mod 2^32, so a shift by k is exact).
                let (x, c) = literal_factor(lhs, rhs).expect("checked");
                let v = self.eval(x)?;
                let shift = c.unsigned_abs().trailing_zeros();
                match c {
                    0 => self.mov(d, Src::Imm(0), Fl::NONE),
                    1 => self.mov(d, v, Fl::NONE),
                    -1 => self.add1(AddOp::Neg, Fl::NONE, d, v),
                    _ if c > 0 => self.add2(AddOp::Shl, Fl::NONE, d, v, shift_imm(shift))?,
                    _ => {
                        let t = self.temp()?;
                        self.add2(AddOp::Shl, Fl::NONE, Dst::v(t), v, shift_imm(shift))?;
                        self.add1(AddOp::Neg, Fl::NONE, d, Src::Reg(t));
                    }
                }
            }
            Expr::Binary { op, lhs, rhs } => {
                let a = self.eval(lhs)?;
                let b = self.eval(rhs)?;
                self.binary(*op, d, a, b, Fl::NONE)?;
            }
            Expr::Select { cond, a, b } => {
                let va = self.eval(a)?;
                let vb = self.eval(b)?;
                let sense = self.flags(cond)?;
                if va == Src::Reg(dest) {
                    self.mov(d, vb, Fl::cond(sense.not().cond()));
                } else if vb == Src::Reg(dest) {
                    self.mov(d, va, Fl::cond(sense.cond()));
                } else {
                    self.mov(d, vb, Fl::NONE);
                    self.mov(d, va, Fl::cond(sense.cond()));
                }
            }
            Expr::Load { addr, stride, .. } => {
                self.drain()?;
                let (op, base, offsets) = self.vector_address(addr, *stride)?;
                self.add2(op, Fl::NONE, TMUA, base, offsets)?;
                self.signal(Signal::Ldtmu, Some(Dst::v(dest)));
            }
            Expr::Rotate { value, amount } => {
                let v = self.eval(value)?;
                let n = self.eval(amount)?;
                self.rotate(dest, v, n)?;
            }
            Expr::Uniform { .. } => self.signal(Signal::Ldunifarf, Some(Dst::v(dest))),
        }
        Ok(())
    }

    pub(in crate::compiler::v3d) fn binary(
        &mut self,
        op: BinaryOp,
        d: Dst<VReg>,
        a: Src,
        b: Src,
        cond: Fl,
    ) -> Result<(), CompileError> {
        if let Some(alu_op) = single_binary(op) {
            // fmax with one register on both inputs cannot be encoded (the input order
            // selects fmin/fmax); both give that register's value.
            let alu_op = if op == BinaryOp::FloatMax && a == b {
                Alu2::Add(AddOp::Fmin)
            } else {
                alu_op
            };
            if alu_op == Alu2::Add(AddOp::Fmax) && self.version == V3dVersion::V42 {
                if let (Src::Reg(_), Src::Reg(_)) = (a, b) {
                    // fmax is fmin's opcode with input a's mux above b's; both register
                    // operands would take ports A then B (the lower mux first), so b goes
                    // through accumulator r1, whose mux is below both ports.
                    self.mov(Dst::Reg(VReg::Acc(1)), b, Fl::NONE);
                    self.add_op(AddOp::Fmax, cond, d, &[a, Src::Acc(1)]);
                    return Ok(());
                }
            }
            return match alu_op {
                Alu2::Mul(op) => self.mul2(op, cond, d, a, b),
                Alu2::Add(op) => self.add2(op, cond, d, a, b),
            };
        }
        match op {
            BinaryOp::IntMul => {
                // a·b mod 2^32 = al·bl + ((ah·bl + al·bh) << 24), with al, bl the low 24 bits
                // and ah, bh the high 8 (umul24 reads only the low 24 bits of each input).
                let low = self.temp()?;
                self.mul2(MulOp::Umul24, Fl::NONE, Dst::v(low), a, b)?;
                let t = self.temp()?;
                self.add2(AddOp::Shr, Fl::NONE, Dst::v(t), a, Src::Imm(-8i32 as u32))?;
                self.mul2(MulOp::Umul24, Fl::NONE, Dst::v(t), Src::Reg(t), b)?;
                let u = self.temp()?;
                self.add2(AddOp::Shr, Fl::NONE, Dst::v(u), b, Src::Imm(-8i32 as u32))?;
                self.mul2(MulOp::Umul24, Fl::NONE, Dst::v(u), a, Src::Reg(u))?;
                self.add2(AddOp::Add, Fl::NONE, Dst::v(t), Src::Reg(t), Src::Reg(u))?;
                self.add2(
                    AddOp::Shl,
                    Fl::NONE,
                    Dst::v(t),
                    Src::Reg(t),
                    Src::Imm(-8i32 as u32),
                )?;
                self.add2(AddOp::Add, cond, d, Src::Reg(low), Src::Reg(t))
            }
            BinaryOp::IntDiv | BinaryOp::IntRem => self.divide(op, d, a, b, cond),
            BinaryOp::FloatDiv => {
                // lhs · recip(rhs), as the language defines it.
                let r = self.temp()?;
                self.sfu(AddOp::Recip, r, b);
                self.mul2(MulOp::Fmul, cond, d, a, Src::Reg(r))
            }
            _ => unreachable!("single-instruction ops handled above"),
        }
    }

    /// Signed division or remainder by restoring long division of the magnitudes, one
    /// quotient bit per iteration of a 32-iteration loop, then the signs: the quotient is
    /// negated where the operands' signs differ, the remainder takes the dividend's sign. By
    /// zero every step subtracts nothing, so the quotient is all ones (−1, or 1 once negated
    /// for a negative dividend) and the remainder the dividend, as the language defines.
    pub(in crate::compiler::v3d) fn divide(
        &mut self,
        op: BinaryOp,
        d: Dst<VReg>,
        a: Src,
        b: Src,
        cond: Fl,
    ) -> Result<(), CompileError> {
        let reg = |g: &mut Gen<'_>| g.temp().map(|t| (t, Dst::v(t)));
        let (ua, ua_s) = reg(self)?;
        let (ub, ub_s) = reg(self)?;
        let (r, r_s) = reg(self)?;
        let (q, q_s) = reg(self)?;
        let (n, n_s) = reg(self)?;
        let (t, t_s) = reg(self)?;
        // |a|, |b| (|MIN| = 2^31 as an unsigned number).
        self.add1(AddOp::Neg, Fl::NONE, t_s, a);
        self.add2(AddOp::Max, Fl::NONE, ua_s, a, Src::Reg(t))?;
        self.add1(AddOp::Neg, Fl::NONE, t_s, b);
        self.add2(AddOp::Max, Fl::NONE, ub_s, b, Src::Reg(t))?;
        self.mov(r_s, Src::Imm(0), Fl::NONE);
        self.mov(q_s, Src::Imm(0), Fl::NONE);
        // 32 iterations (8 << 2: no small immediate holds 32).
        self.mov(n_s, Src::Imm(8), Fl::NONE);
        self.add2(AddOp::Shl, Fl::NONE, n_s, Src::Reg(n), Src::Imm(2))?;
        let top = self.label();
        self.place(top);
        let top_bit = Src::Imm(shift_bits(31));
        self.add2(AddOp::Shr, Fl::NONE, t_s, Src::Reg(ua), top_bit)?;
        self.add2(AddOp::Shl, Fl::NONE, r_s, Src::Reg(r), Src::Imm(1))?;
        self.add2(AddOp::Or, Fl::NONE, r_s, Src::Reg(r), Src::Reg(t))?;
        self.add2(AddOp::Shl, Fl::NONE, ua_s, Src::Reg(ua), Src::Imm(1))?;
        self.add2(AddOp::Shl, Fl::NONE, q_s, Src::Reg(q), Src::Imm(1))?;
        // C of sub is the unsigned borrow (py-videocore6 test_condition_codes): r < |b|.
        self.add2(
            AddOp::Sub,
            Fl::push(PushFlag::C),
            NOP,
            Src::Reg(r),
            Src::Reg(ub),
        )?;
        self.add2(
            AddOp::Sub,
            Fl::cond(WCond::IfNa),
            r_s,
            Src::Reg(r),
            Src::Reg(ub),
        )?;
        self.add2(
            AddOp::Or,
            Fl::cond(WCond::IfNa),
            q_s,
            Src::Reg(q),
            Src::Imm(1),
        )?;
        self.add2(
            AddOp::Sub,
            Fl::push(PushFlag::Z),
            n_s,
            Src::Reg(n),
            Src::Imm(1),
        )?;
        self.branch(BranchCond::AnyNa, top);
        // The sign: s = −1 where it must flip, else 0; x ^ s − s flips.
        let (value, sign_of) = if op == BinaryOp::IntDiv {
            self.add2(AddOp::Xor, Fl::NONE, t_s, a, b)?;
            (q, Src::Reg(t))
        } else {
            (r, a)
        };
        self.add2(AddOp::Asr, Fl::NONE, t_s, sign_of, top_bit)?;
        self.add2(AddOp::Xor, Fl::NONE, ua_s, Src::Reg(value), Src::Reg(t))?;
        self.add2(AddOp::Sub, cond, d, Src::Reg(ua), Src::Reg(t))
    }

    /// Pushes flag A for a per-lane condition; returns which state of A means "holds".
    pub(in crate::compiler::v3d) fn flags(&mut self, b: &BoolExpr) -> Result<Sense, CompileError> {
        match b {
            BoolExpr::Compare {
                op,
                float,
                lhs,
                rhs,
            } => {
                let l = self.eval(lhs)?;
                let r = self.eval(rhs)?;
                // Mesa nir_to_vir.c ntq_emit_comparison: C of min(a, b) is a > b (signed),
                // Z of xor is a == b. Floats use only C of fcmp(a, b), a <= b: the N and Z of
                // the difference (Mesa's flt/feq) would make −0 < +0 if the hardware sets N
                // for a −0 difference (no source says), and NaN == x where 7.1 turns the NaN
                // difference into 0. So a < b is (a <= b) and not (b <= a), and a == b is
                // (a <= b) and (b <= a): a push and an update, both IEEE.
                if let Some((op, swap, flag, set)) = one_instruction_compare(*float, *op) {
                    let (a, b) = if swap { (r, l) } else { (l, r) };
                    self.add2(op, Fl::push(flag), NOP, a, b)?;
                    return Ok(if set { Sense::A } else { Sense::NotA });
                }
                // Float `<`, `>`, `==`, `!=`: x <= y pushed, then y <= x ANDed in (negated
                // for the strict ones).
                let (x, y, update) = match op {
                    CmpOp::Eq | CmpOp::Ne => (l, r, UpdateFlag::AndC),
                    CmpOp::Lt => (l, r, UpdateFlag::AndNc),
                    _ => (r, l, UpdateFlag::AndNc),
                };
                self.add2(AddOp::Fcmp, Fl::push(PushFlag::C), NOP, x, y)?;
                self.add2(AddOp::Fcmp, Fl::update(update), NOP, y, x)?;
                Ok(if *op == CmpOp::Ne {
                    Sense::NotA
                } else {
                    Sense::A
                })
            }
            BoolExpr::Not(inner) => Ok(self.flags(inner)?.not()),
            BoolExpr::And(x, y) if single_flag(y).is_some() => self.flags_and(x, y),
            // x or y = not (not x and not y).
            BoolExpr::Or(x, y) if single_flag(y).is_some() => {
                let not = |b: &std::sync::Arc<BoolExpr>| BoolExpr::Not(b.clone());
                Ok(self.flags_and(&not(x), &not(y))?.not())
            }
            BoolExpr::And(..) | BoolExpr::Or(..) => {
                let v = self.bool_value(b)?;
                self.add_op(
                    AddOp::Or,
                    Fl::push(PushFlag::Z),
                    NOP,
                    &[Src::Reg(v), Src::Reg(v)],
                );
                Ok(Sense::NotA)
            }
        }
    }

    /// Flag A for `x and y`, where `y` is one flag-setting instruction ([`single_flag`]): the
    /// flags of `x`, then `y`'s instruction with a flag update instead of a push. The update
    /// rules (py-videocore6 test_cond_update, on a Pi 4): `and<f>` sets A to A ∧ f and
    /// `nor<f>` to ¬(A ∨ f), with f negated in the `n` forms. So where A means "x holds",
    /// `and` with "y holds" gives A = x ∧ y; where A means "x fails", `nor` with "y fails"
    /// gives A = ¬(¬x ∨ ¬y) = x ∧ y.
    pub(in crate::compiler::v3d) fn flags_and(
        &mut self,
        x: &BoolExpr,
        y: &BoolExpr,
    ) -> Result<Sense, CompileError> {
        let sense = self.flags(x)?;
        let (op, lhs, rhs, swap, flag, holds_when_set) =
            single_flag(y).expect("checked by the caller");
        // Operands in the order the language evaluates them (uniform-stream reads and loads
        // can tell), then in the order the instruction takes them.
        let l = self.eval(lhs)?;
        let r = self.eval(rhs)?;
        let (a, b) = if swap { (r, l) } else { (l, r) };
        let update = match (sense, holds_when_set) {
            (Sense::A, true) => Update::And,
            (Sense::A, false) => Update::AndN,
            (Sense::NotA, true) => Update::NorN,
            (Sense::NotA, false) => Update::Nor,
        };
        self.add2(op, Fl::update(update_flag(update, flag)), NOP, a, b)?;
        Ok(Sense::A)
    }

    /// A register holding −1 where `b` holds and 0 elsewhere.
    pub(in crate::compiler::v3d) fn bool_value(
        &mut self,
        b: &BoolExpr,
    ) -> Result<u32, CompileError> {
        match b {
            BoolExpr::And(x, y) | BoolExpr::Or(x, y) => {
                let vx = self.bool_value(x)?;
                let vy = self.bool_value(y)?;
                let op = if matches!(b, BoolExpr::And(..)) {
                    AddOp::And
                } else {
                    AddOp::Or
                };
                self.add2(op, Fl::NONE, Dst::v(vx), Src::Reg(vx), Src::Reg(vy))?;
                Ok(vx)
            }
            _ => {
                let sense = self.flags(b)?;
                let t = self.temp()?;
                let d = Dst::v(t);
                self.mov(d, Src::Imm(0), Fl::NONE);
                self.mov(d, Src::Imm(-1i32 as u32), Fl::cond(sense.cond()));
                Ok(t)
            }
        }
    }
}

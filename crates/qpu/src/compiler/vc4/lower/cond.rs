//! Conditions: flags for `any`/`all` loop and branch conditions and per-lane tests.

use super::*;

impl Lower<'_> {
    /// Sets flags for a scalar condition: (per-lane flag test, whether it is `all`).
    pub(super) fn cond(&mut self, cond: &AstCond) -> (Cond, bool) {
        match cond {
            AstCond::Any(b) => (self.boolean(b), false),
            AstCond::All(b) => (self.boolean(b), true),
        }
    }

    /// Sets flags so that `result` passes exactly in the lanes where `b` holds.
    pub(super) fn boolean(&mut self, b: &BoolExpr) -> Cond {
        match b {
            BoolExpr::Compare {
                op,
                float,
                lhs,
                rhs,
            } => {
                let l = self.expr(lhs);
                let r = self.expr(rhs);
                // An integer (in)equality with zero needs only the Z flag of the value
                // itself: a flag-setting copy, with no small immediate, so it can share an
                // instruction with a rotation (whose amount takes the small-immediate field).
                let zero = Src::Imm(SmallImm::from_int(0).expect("0 is a small immediate"));
                if !float && matches!(op, CmpOp::Eq | CmpOp::Ne) && (l == zero || r == zero) {
                    let value = if l == zero { r } else { l };
                    self.emit(Op::Alu {
                        op: AluOp::Mov,
                        dst: Dst::None,
                        a: value,
                        b: value,
                        cond: Cond::Always,
                        sf: true,
                        rotate: None,
                    });
                    return if *op == CmpOp::Eq {
                        Cond::ZeroSet
                    } else {
                        Cond::ZeroClear
                    };
                }
                let (alu, a, b, result) = match (op, float) {
                    (CmpOp::Eq, false) => (AddOp::Sub, l, r, Cond::ZeroSet),
                    (CmpOp::Ne, false) => (AddOp::Sub, l, r, Cond::ZeroClear),
                    // min sets C when a > b (signed), exactly.
                    (CmpOp::Gt, false) => (AddOp::Min, l, r, Cond::CarrySet),
                    (CmpOp::Le, false) => (AddOp::Min, l, r, Cond::CarryClear),
                    (CmpOp::Lt, false) => (AddOp::Min, r, l, Cond::CarrySet),
                    (CmpOp::Ge, false) => (AddOp::Min, r, l, Cond::CarryClear),
                    (CmpOp::Eq, true) => (AddOp::Fsub, l, r, Cond::ZeroSet),
                    (CmpOp::Ne, true) => (AddOp::Fsub, l, r, Cond::ZeroClear),
                    // fmin sets C when a > b (after flushing denormals; false for NaN).
                    (CmpOp::Gt, true) => (AddOp::Fmin, l, r, Cond::CarrySet),
                    (CmpOp::Le, true) => (AddOp::Fmin, l, r, Cond::CarryClear),
                    (CmpOp::Lt, true) => (AddOp::Fmin, r, l, Cond::CarrySet),
                    (CmpOp::Ge, true) => (AddOp::Fmin, r, l, Cond::CarryClear),
                };
                self.emit(Op::Alu {
                    op: AluOp::Add(alu),
                    dst: Dst::None,
                    a,
                    b,
                    cond: Cond::Always,
                    sf: true,
                    rotate: None,
                });
                result
            }
            BoolExpr::Not(inner) => negate(self.boolean(inner)),
            BoolExpr::And(x, y) | BoolExpr::Or(x, y) => {
                let is_and = matches!(b, BoolExpr::And(..));
                let fx = self.boolean(x);
                let t = self.fresh();
                self.emit(Op::mov(Dst::Reg(t), imm(0)));
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::Reg(t),
                    a: imm(-1),
                    b: imm(-1),
                    cond: fx,
                    sf: false,
                    rotate: None,
                });
                let fy = self.boolean(y);
                let (value, cond) = if is_and { (0, negate(fy)) } else { (-1, fy) };
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::Reg(t),
                    a: imm(value),
                    b: imm(value),
                    cond,
                    sf: false,
                    rotate: None,
                });
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::None,
                    a: Src::Reg(t),
                    b: Src::Reg(t),
                    cond: Cond::Always,
                    sf: true,
                    rotate: None,
                });
                Cond::ZeroClear
            }
        }
    }
}

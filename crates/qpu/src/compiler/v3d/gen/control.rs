//! Statements and control flow: assignments under masks, `if_`/`while_` with `any`/`all`
//! branch conditions, `where_`.

use super::super::*;

impl Gen<'_> {
    pub(in crate::compiler::v3d) fn body(
        &mut self,
        stmts: &[Stmt],
        mask: Option<Mask>,
    ) -> Result<(), CompileError> {
        for s in stmts {
            self.stmt(s, mask)?;
        }
        Ok(())
    }

    pub(in crate::compiler::v3d) fn stmt(
        &mut self,
        s: &Stmt,
        mask: Option<Mask>,
    ) -> Result<(), CompileError> {
        let held = self.flags_hold.take();
        let outer = self.here;
        self.here = Some(s.location);
        match &s.kind {
            StmtKind::Assign { var, value } => {
                let v = var.0 as usize;
                if self.spilled[v] {
                    self.assign_spilled(v, value, mask)?
                } else {
                    self.assign(self.var_reg[v], value, mask)?
                }
            }
            StmtKind::If { .. } | StmtKind::While { .. } => self.control(s)?,
            StmtKind::Where {
                cond,
                then,
                otherwise,
            } => self.where_(cond, then, otherwise, mask, held)?,
            StmtKind::Store {
                value,
                addr,
                stride,
                lanes,
                ..
            } => {
                // The lane count, the value, then the address: the order the language gives
                // uniform-stream reads inside them.
                let lanes = match lanes {
                    Some(n) => {
                        let uniform = lane_uniform(n, &self.uniform);
                        let n = self.eval(n)?;
                        Some(self.broadcast(n, uniform)?)
                    }
                    None => None,
                };
                let value = self.eval(value)?;
                let (op, base, offsets) = self.vector_address(addr, *stride)?;
                self.mov(TMUD, value, Fl::NONE);
                let cond = match lanes {
                    // Lanes 0..n: the carry of min(n, lane) is n > lane (Mesa's signed `<`).
                    Some(n) => {
                        self.add2(
                            AddOp::Min,
                            Fl::push(PushFlag::C),
                            NOP,
                            n,
                            Src::Reg(self.index),
                        )?;
                        Fl::cond(WCond::IfA)
                    }
                    None => Fl::NONE,
                };
                self.add2(op, cond, TMUA, base, offsets)?;
            }
            StmtKind::Gather { addr } => {
                // The address first: a load in it pops the gathers already waiting.
                let (op, a, b) = match addr {
                    // An address that is a multiple of 4 goes to the TMU as computed.
                    Expr::Binary {
                        op: op @ (BinaryOp::IntAdd | BinaryOp::IntSub),
                        lhs,
                        rhs,
                    } if shape::is_aligned(addr, &self.aligned) => {
                        let a = self.eval(lhs)?;
                        let b = self.eval(rhs)?;
                        let op = if *op == BinaryOp::IntAdd {
                            AddOp::Add
                        } else {
                            AddOp::Sub
                        };
                        (op, a, b)
                    }
                    // The TMU ignores no address bits: clear the two the language ignores.
                    _ => (AddOp::And, self.eval(addr)?, Src::Imm(-4i32 as u32)),
                };
                if self.gathers >= TMU_FIFO {
                    return Err(self.unsupported(format!(
                        "more than {TMU_FIFO} gathers waiting to be received"
                    )));
                }
                self.add2(op, Fl::NONE, TMUA, a, b)?;
                self.gathers += 1;
                self.gathers_min += 1;
            }
            StmtKind::Receive { var } => {
                let v = var.0 as usize;
                let r = if self.spilled[v] {
                    self.temp()?
                } else {
                    self.var_reg[v]
                };
                if self.buffered > 0 {
                    // The oldest gathered value was popped by a load (`drain`): copy it, then
                    // move the younger ones down so the oldest is again in buffer 0.
                    let oldest = self.buffer(0)?;
                    self.mov(Dst::v(r), Src::Reg(oldest), Fl::NONE);
                    for i in 1..self.buffered {
                        let (to, from) = (self.buffer(i - 1)?, self.buffer(i)?);
                        self.mov(Dst::v(to), Src::Reg(from), Fl::NONE);
                    }
                    self.buffered -= 1;
                } else if self.gathers > 0 {
                    self.signal(Signal::Ldtmu, Some(Dst::v(r)));
                    self.gathers -= 1;
                    self.gathers_min = self.gathers_min.saturating_sub(1);
                } else {
                    return Err(self.unsupported("a `receive` with no gather before it"));
                }
                if self.spilled[v] {
                    self.spill_store(v, Src::Reg(r), Fl::NONE)?;
                }
            }
            StmtKind::UniformsFrom { addr } => {
                // The second uniform pointer: unifa takes lane 0's address, and three
                // instructions must pass before the first ldunifa (Mesa qpu_schedule.c;
                // py-videocore7 tests/test_unifa.py).
                let a = self.eval(addr)?;
                self.mov(UNIFA, a, Fl::NONE);
                for _ in 0..3 {
                    self.nop();
                }
            }
            // The builder refuses them inside `where_` (they act on the whole QPU); a
            // hand-built AST gets an error rather than code that ignores the mask.
            StmtKind::SemaInc(_) | StmtKind::SemaDec(_) if mask.is_some() => {
                return Err(self.unsupported("a semaphore operation inside `where_`"))
            }
            StmtKind::SemaInc(n) => self.semaphore(*n, true)?,
            StmtKind::SemaDec(n) => self.semaphore(*n, false)?,
            StmtKind::Debug { .. } => {}
        }
        self.here = outer;
        Ok(())
    }

    /// An `if_` or `while_`: lowered as it stands; if that fails while gathers wait (a body
    /// that pops them with a load, say), lowered again after popping them into registers
    /// before the condition, so that both paths start with none waiting. Popping early is
    /// always correct (the values are buffered in FIFO order); the first error is kept if
    /// the second attempt fails too.
    pub(in crate::compiler::v3d) fn control(&mut self, s: &Stmt) -> Result<(), CompileError> {
        let (lines, locations) = (self.lines.len(), self.locations.len());
        let state = self.pending();
        let gathers = state.1;
        let dirty = self.spill_dirty.clone();
        let first = match self.control_flow(s) {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        if gathers == 0 {
            return Err(first);
        }
        self.lines.truncate(lines);
        self.locations.truncate(locations);
        self.restore(state);
        self.spill_dirty = dirty;
        self.here = Some(s.location);
        if self.drain().is_err() {
            return Err(first);
        }
        self.control_flow(s).map_err(|_| first)
    }

    pub(in crate::compiler::v3d) fn control_flow(&mut self, s: &Stmt) -> Result<(), CompileError> {
        match &s.kind {
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let taken = self.cond(cond)?;
                let else_label = self.label();
                self.branch(negate_branch(taken), else_label);
                let pending = self.pending();
                // A spill store may be in flight after the `if_` if it may be after
                // either path.
                let dirty = self.spill_dirty.clone();
                self.body(then, None)?;
                let then_dirty = self.spill_dirty.clone();
                if otherwise.is_empty() {
                    self.join(pending, "an `if_` body")?;
                    self.place(else_label);
                    self.spill_dirty.extend(dirty);
                } else {
                    let after_then = self.pending();
                    let end = self.label();
                    self.here = Some(s.location);
                    self.branch(BranchCond::Always, end);
                    self.place(else_label);
                    self.spill_dirty = dirty;
                    self.restore(pending);
                    self.body(otherwise, None)?;
                    self.join(after_then, "an `else_` body")?;
                    self.place(end);
                    self.spill_dirty.extend(then_dirty);
                }
            }
            StmtKind::While { cond, body } => {
                // The condition is tested before the loop and again at the end of each
                // iteration (the same evaluations in the same order as one test at the top),
                // so the body and its test are one basic block the packer schedules together.
                let top = self.label();
                let end = self.label();
                let (taken, sense) = self.cond_sense(cond)?;
                self.branch(negate_branch(taken), end);
                self.place(top);
                // Reading memory or the uniform stream in the condition must happen each time.
                let (Cond::Any(b) | Cond::All(b)) = cond;
                if !b.has_load() {
                    self.flags_hold = Some((b.clone(), sense));
                }
                let pending = self.pending();
                // The back edge may bring a spill store from the body into its top; the exit
                // is reached from the first test or from the last.
                let skipped_dirty = self.spill_dirty.clone();
                spilled_writes(body, &self.spilled, &mut self.spill_dirty);
                // A body that is idle once the condition fails (Euclid's algorithm) runs
                // several copies per test, as on the VideoCore IV (`lower::idle_once_done`).
                let copies = if crate::compiler::vc4::lower::idle_once_done(cond, body) {
                    crate::compiler::vc4::lower::IDLE_UNROLL
                } else {
                    1
                };
                for _ in 0..copies {
                    self.body(body, None)?;
                }
                self.flags_hold = None;
                self.balanced(pending, "a `while_` body")?;
                self.here = Some(s.location);
                let taken = self.cond(cond)?;
                self.branch(taken, top);
                self.place(end);
                self.spill_dirty.extend(skipped_dirty);
            }
            _ => unreachable!("control_flow is called for `if_` and `while_` only"),
        }
        Ok(())
    }

    /// Flags for an `if_`/`while_` condition; returns the branch condition that holds when
    /// the kernel condition does.
    pub(in crate::compiler::v3d) fn cond(
        &mut self,
        cond: &Cond,
    ) -> Result<BranchCond, CompileError> {
        Ok(self.cond_sense(cond)?.0)
    }

    /// [`Gen::cond`], and the sense in which flag A then holds the lanes' condition.
    pub(in crate::compiler::v3d) fn cond_sense(
        &mut self,
        cond: &Cond,
    ) -> Result<(BranchCond, Sense), CompileError> {
        Ok(match cond {
            Cond::Any(b) => match self.flags(b)? {
                Sense::A => (BranchCond::AnyA, Sense::A),
                Sense::NotA => (BranchCond::AnyNa, Sense::NotA),
            },
            Cond::All(b) => match self.flags(b)? {
                Sense::A => (BranchCond::AllA, Sense::A),
                Sense::NotA => (BranchCond::AllNa, Sense::NotA),
            },
        })
    }

    /// A `where_`; `held` is a condition flag A already holds ([`Gen::flags_hold`]).
    pub(in crate::compiler::v3d) fn where_(
        &mut self,
        cond: &BoolExpr,
        then: &[Stmt],
        otherwise: &[Stmt],
        outer: Option<Mask>,
        held: Option<(BoolExpr, Sense)>,
    ) -> Result<(), CompileError> {
        let plain = |stmts: &[Stmt]| {
            stmts.iter().all(|s| match &s.kind {
                StmtKind::Assign { value, .. } => !value.sets_flags(),
                StmtKind::Debug { .. } => true,
                _ => false,
            })
        };
        if outer.is_none() && plain(then) && plain(otherwise) {
            let sense = match held {
                Some((held, sense)) if held == *cond => sense,
                _ => self.flags(cond)?,
            };
            self.body(then, Some(Mask::Flags(sense)))?;
            self.body(otherwise, Some(Mask::Flags(sense.not())))?;
            return Ok(());
        }
        let c = self.bool_value(cond)?;
        let outer_reg = match outer {
            None => None,
            Some(Mask::Reg(r)) => Some(r),
            // A flags mask only wraps plain assignments, never a nested `where_`.
            Some(Mask::Flags(_)) => unreachable!("nested where_ inside a flag-masked body"),
        };
        let then_mask = match outer_reg {
            None => c,
            Some(m) => {
                let t = self.temp()?;
                self.add2(AddOp::And, Fl::NONE, Dst::v(t), Src::Reg(m), Src::Reg(c))?;
                t
            }
        };
        self.body(then, Some(Mask::Reg(then_mask)))?;
        if !otherwise.is_empty() {
            let t = self.temp()?;
            self.add1(AddOp::Not, Fl::NONE, Dst::v(t), Src::Reg(c));
            if let Some(m) = outer_reg {
                self.add2(AddOp::And, Fl::NONE, Dst::v(t), Src::Reg(t), Src::Reg(m))?;
            }
            self.body(otherwise, Some(Mask::Reg(t)))?;
        }
        Ok(())
    }

    /// `dest = value` in the lanes of `mask`.
    pub(in crate::compiler::v3d) fn assign(
        &mut self,
        dest: u32,
        value: &Expr,
        mask: Option<Mask>,
    ) -> Result<(), CompileError> {
        let Some(mask) = mask else {
            return self.eval_into(value, dest);
        };
        // Operands first (they may use temporaries, and in the register-mask case the
        // flags), then the mask, then the one conditional write.
        let sense = |g: &mut Gen<'_>| -> Sense {
            match mask {
                Mask::Flags(s) => s,
                Mask::Reg(m) => {
                    g.add_op(
                        AddOp::Or,
                        Fl::push(PushFlag::Z),
                        NOP,
                        &[Src::Reg(m), Src::Reg(m)],
                    );
                    Sense::NotA
                }
            }
        };
        match value {
            Expr::Binary { op, lhs, rhs } if single_binary(*op).is_some() => {
                let a = self.eval(lhs)?;
                let b = self.eval(rhs)?;
                let s = sense(self);
                self.binary(*op, Dst::v(dest), a, b, Fl::cond(s.cond()))
            }
            _ => {
                let v = self.eval(value)?;
                let s = sense(self);
                self.mov(Dst::v(dest), v, Fl::cond(s.cond()));
                Ok(())
            }
        }
    }
}

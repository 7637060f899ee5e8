//! Memory: TMU loads, stores and gathers (the result FIFO's bookkeeping and draining), the
//! spill area, and semaphores as TMU atomics.

use super::super::*;

impl Gen<'_> {
    /// The byte offset of spill slot `slot` from the spill base: 64 bytes a slot.
    pub(in crate::compiler::v3d) fn spill_offset(
        &mut self,
        slot: u32,
    ) -> Result<Src, CompileError> {
        if slot == 0 {
            return Ok(Src::Imm(0));
        }
        let index = self.constant(slot)?;
        let t = self.temp()?;
        self.add2(AddOp::Shl, Fl::NONE, Dst::v(t), index, Src::Imm(6))?;
        Ok(Src::Reg(t))
    }

    /// A spilled variable's value, read back from its slot into a new temporary: a TMU load
    /// like the kernel's own (`tmua`, then `ldtmu`), so gathered values waiting in the
    /// result FIFO are popped into their buffer registers first.
    pub(in crate::compiler::v3d) fn reload(&mut self, var: usize) -> Result<Src, CompileError> {
        let slot = self.spill_slot[var].expect("a spilled variable has a slot");
        self.drain()?;
        let offset = self.spill_offset(slot)?;
        if self.spill_dirty.contains(&var) {
            // A store to the area may still be in flight: wait for it, so that the load
            // reads what it wrote (Mesa waits with `tmuwt` after every spill store).
            self.add_op(AddOp::Tmuwt, Fl::NONE, NOP, &[]);
            self.spill_dirty.clear();
        }
        self.add2(
            AddOp::Add,
            Fl::NONE,
            TMUA,
            Src::Reg(self.spill_base),
            offset,
        )?;
        let t = self.temp()?;
        self.signal(Signal::Ldtmu, Some(Dst::v(t)));
        Ok(Src::Reg(t))
    }

    /// Stores `value` into a spilled variable's slot, in the lanes where `cond` holds (all
    /// when `None`): `tmud`, then `tmua` under the condition, as a partial store.
    pub(in crate::compiler::v3d) fn spill_store(
        &mut self,
        var: usize,
        value: Src,
        cond: Fl,
    ) -> Result<(), CompileError> {
        let slot = self.spill_slot[var].expect("a spilled variable has a slot");
        let offset = self.spill_offset(slot)?;
        self.mov(TMUD, value, Fl::NONE);
        self.add2(AddOp::Add, cond, TMUA, Src::Reg(self.spill_base), offset)?;
        self.spill_dirty.insert(var);
        Ok(())
    }

    /// `sema_inc(n)` (`increment`) or `sema_dec(n)`: word `n` of the semaphore area counts
    /// semaphore `n`, changed only by TMU atomics from lane 0 (see `atomic`):
    ///
    /// ```text
    /// retry: v = atomic add of 0          (reads the count coherently)
    ///        if v == limit: goto retry    (15 for inc, 0 for dec: wait)
    ///        old = cmpxchg(v, v ± 1)      (stores v ± 1 only if the count is still v)
    ///        if old != v: goto retry      (another QPU changed it in between)
    /// ```
    ///
    /// Correctness: the count changes only through a successful cmpxchg, which replaces a
    /// value `v` that was not at the limit by `v ± 1` in one atomic step, so it stays in
    /// 0..=15 and every `sema_inc`/`sema_dec` moves it by exactly one, once, as in the
    /// interpreter. A QPU that sees the limit or loses the race changes nothing and tries
    /// again. Progress: a cmpxchg fails only when the count changed since it was read, that
    /// is when another QPU's cmpxchg succeeded, so some QPU always gets through (lock-free;
    /// an unbounded wait is the kernel's own deadlock, which the step limit ends). The
    /// count starts at 0 because the launch zeroes the area.
    ///
    /// Stores issued before the operation are waited for first (`tmuwt`), so that a QPU
    /// that takes the semaphore after a `sema_inc` finds them in memory; the loads after a
    /// `sema_dec` are issued after its cmpxchg returned. Gathers waiting in the result FIFO
    /// are popped into their buffer registers first, as before a load.
    pub(in crate::compiler::v3d) fn semaphore(
        &mut self,
        n: u8,
        increment: bool,
    ) -> Result<(), CompileError> {
        self.drain()?;
        if self.needs.stores {
            self.add_op(AddOp::Tmuwt, Fl::NONE, NOP, &[]);
            self.spill_dirty.clear();
        }
        let addr = match u32::from(n) * 4 {
            0 => Src::Reg(self.semaphore_base),
            offset => {
                let offset = self.constant(offset)?;
                let t = self.temp()?;
                self.add2(
                    AddOp::Add,
                    Fl::NONE,
                    Dst::v(t),
                    Src::Reg(self.semaphore_base),
                    offset,
                )?;
                Src::Reg(t)
            }
        };
        let retry = self.label();
        self.place(retry);
        let v = self.atomic(TMU_ATOMIC_ADD, &[Src::Imm(0)], addr)?;
        let limit = if increment { 15 } else { 0 };
        // Every lane holds lane 0's word, so "any lane" is "the count".
        self.add2(AddOp::Xor, Fl::push(PushFlag::Z), NOP, v, Src::Imm(limit))?;
        self.branch(BranchCond::AnyA, retry);
        let new = self.temp()?;
        let op = if increment { AddOp::Add } else { AddOp::Sub };
        self.add2(op, Fl::NONE, Dst::v(new), v, Src::Imm(1))?;
        let old = self.atomic(TMU_ATOMIC_CMPXCHG, &[v, Src::Reg(new)], addr)?;
        self.add2(AddOp::Xor, Fl::push(PushFlag::Z), NOP, old, v)?;
        self.branch(BranchCond::AnyNa, retry);
        Ok(())
    }

    /// One TMU atomic on the word at lane 0 of `addr`, from lane 0 only; returns a register
    /// holding the word's old value in every lane. As Mesa's `ntq_emit_tmu_general` issues
    /// one (src/broadcom/compiler/nir_to_vir.c): the operands go to `tmud` (one word; for
    /// cmpxchg the value compared, then the value stored: Mesa writes NIR's two swap
    /// sources in order, and its SPIR-V front end, spirv_to_nir.c
    /// `fill_common_atomic_sources`, puts the comparator first), the address to `tmua` written under a condition (Mesa does so in
    /// divergent control flow: lanes the condition masks off make no access), and the old
    /// value comes back through the result FIFO, one word per lane (`ldtmu`). The lookup
    /// config goes to `tmuc` first (py-videocore6 tests/test_tmu.py writes it there before
    /// `tmud` on a Pi 4; Mesa passes it as the `tmuau` write's uniform, which a loop could
    /// not re-read here) and is set back to all ones, a plain 32-bit access, afterwards
    /// (py-videocore7 tests/test_tmu.py resets it with −1).
    ///
    /// Nothing else waits in the result FIFO (the caller drained it), so the packer's count
    /// of outstanding results, which sees a `tmua` after `tmud` as a store, stays right:
    /// the `ldtmu` here finds none counted and leaves none. A block writing `tmuc` is one
    /// the packer keeps as generated.
    pub(in crate::compiler::v3d) fn atomic(
        &mut self,
        config: u32,
        data: &[Src],
        addr: Src,
    ) -> Result<Src, CompileError> {
        let config = self.constant(config)?;
        self.mov(TMUC, config, Fl::NONE);
        for &d in data {
            self.mov(TMUD, d, Fl::NONE);
        }
        // Flag A: lane 0 (the only lane whose index is zero).
        self.add2(
            AddOp::Or,
            Fl::push(PushFlag::Z),
            NOP,
            Src::Reg(self.index),
            Src::Reg(self.index),
        )?;
        self.add2(AddOp::Or, Fl::cond(WCond::IfA), TMUA, addr, addr)?;
        self.mov(
            TMUC,
            Src::Imm(qpu_isa::v3d::TmuConfig::PLAIN_WORD),
            Fl::NONE,
        );
        let t = self.temp()?;
        self.signal(Signal::Ldtmu, Some(Dst::v(t)));
        self.broadcast(Src::Reg(t), false)
    }

    /// What receives will find: gathers in the FIFO (the fewest and the most on any path)
    /// and values popped by loads.
    pub(in crate::compiler::v3d) fn pending(&self) -> (u32, u32, u32) {
        (self.gathers_min, self.gathers, self.buffered)
    }

    pub(in crate::compiler::v3d) fn restore(&mut self, (min, max, buffered): (u32, u32, u32)) {
        (self.gathers_min, self.gathers, self.buffered) = (min, max, buffered);
    }

    /// A loop body must leave the gathers waiting and the values buffered as it found them,
    /// so that each receive's source is known when it is compiled (and the count cannot
    /// drift from one iteration to the next).
    pub(in crate::compiler::v3d) fn balanced(
        &self,
        before: (u32, u32, u32),
        what: &str,
    ) -> Result<(), CompileError> {
        if self.pending() != before {
            return Err(self.unsupported(format!(
                "{what} that leaves a different number of gathers waiting (or of gathered \
                 values popped by a load) than it found"
            )));
        }
        Ok(())
    }

    /// Where the two sides of an `if_` meet: gathered values popped by a load must be the
    /// same on both (they sit in registers a receive reads by position); the gathers
    /// waiting may differ (receives pop the FIFO, whatever is in it), so the fewest and the
    /// most of both sides hold after the join.
    pub(in crate::compiler::v3d) fn join(
        &mut self,
        other: (u32, u32, u32),
        what: &str,
    ) -> Result<(), CompileError> {
        let (min, max, buffered) = self.pending();
        if buffered != other.2 {
            return Err(self.unsupported(format!(
                "{what} that leaves a different number of gathered values popped by a load \
                 than the other path"
            )));
        }
        self.restore((min.min(other.0), max.max(other.1), buffered));
        Ok(())
    }

    /// Before a load: pops the results of the gathers waiting in the TMU's FIFO into buffer
    /// registers, so that the load's own `ldtmu` gets its own result. Loads and gathers share
    /// one result FIFO on V3D, read in request order (Mesa `ntq_flush_tmu` likewise reads
    /// every outstanding result, oldest first, before it reads a later one).
    pub(in crate::compiler::v3d) fn drain(&mut self) -> Result<(), CompileError> {
        if self.gathers_min != self.gathers {
            return Err(self.unsupported(format!(
                "a load (or a spilled variable's reload) while {} to {} gathered values \
                 wait, depending on the path taken (an `if_` gathered or received on one \
                 path only): the load's result would follow an unknown number of them",
                self.gathers_min, self.gathers
            )));
        }
        for _ in 0..self.gathers {
            let r = self.buffer(self.buffered)?;
            self.signal(Signal::Ldtmu, Some(Dst::v(r)));
            self.buffered += 1;
        }
        self.gathers = 0;
        self.gathers_min = 0;
        Ok(())
    }

    /// `var = value` in the lanes of `mask` for a spilled variable: the value is computed in
    /// every lane, then stored into the variable's slot in the masked lanes only.
    pub(in crate::compiler::v3d) fn assign_spilled(
        &mut self,
        var: usize,
        value: &Expr,
        mask: Option<Mask>,
    ) -> Result<(), CompileError> {
        let v = self.eval(value)?;
        let cond = match mask {
            None => Fl::NONE,
            Some(Mask::Flags(sense)) => Fl::cond(sense.cond()),
            Some(Mask::Reg(m)) => {
                self.add_op(
                    AddOp::Or,
                    Fl::push(PushFlag::Z),
                    NOP,
                    &[Src::Reg(m), Src::Reg(m)],
                );
                Fl::cond(Sense::NotA.cond())
            }
        };
        self.spill_store(var, v, cond)
    }

    /// The per-lane addresses of a whole-vector access to `addr` with `stride` as an
    /// add-ALU operation and its operands, for `tmua`: lane 0's address plus the lane
    /// offsets, or, when the lanes of `addr` already hold consecutive words and the access
    /// is contiguous, `addr`'s own last addition (or `addr` itself).
    pub(in crate::compiler::v3d) fn vector_address(
        &mut self,
        addr: &Expr,
        stride: u32,
    ) -> Result<(AddOp, Src, Src), CompileError> {
        if stride == 1 && shape::is_contiguous(addr, &self.contiguous, &self.uniform) {
            return Ok(match addr {
                Expr::Binary {
                    op: op @ (BinaryOp::IntAdd | BinaryOp::IntSub),
                    lhs,
                    rhs,
                } => {
                    let a = self.eval(lhs)?;
                    let b = self.eval(rhs)?;
                    (
                        if *op == BinaryOp::IntAdd {
                            AddOp::Add
                        } else {
                            AddOp::Sub
                        },
                        a,
                        b,
                    )
                }
                _ => (AddOp::Add, self.eval(addr)?, Src::Imm(0)),
            });
        }
        let uniform = lane_uniform(addr, &self.uniform);
        let base = self.eval(addr)?;
        let base = self.broadcast(base, uniform)?;
        let offsets = self.lane_offsets(stride)?;
        Ok((AddOp::Add, base, offsets))
    }

    /// Per-lane byte offsets `4 · stride · lane`.
    pub(in crate::compiler::v3d) fn lane_offsets(
        &mut self,
        stride: u32,
    ) -> Result<Src, CompileError> {
        let bytes = stride.wrapping_mul(4);
        if bytes == 4 {
            return Ok(Src::Reg(self.lane4));
        }
        if bytes == 0 {
            return Ok(Src::Imm(0));
        }
        let t = self.temp()?;
        let d = Dst::v(t);
        if bytes.is_power_of_two() {
            let shift = shift_imm(bytes.trailing_zeros());
            self.add2(AddOp::Shl, Fl::NONE, d, Src::Reg(self.index), shift)?;
        } else {
            let c = self.constant(bytes)?;
            self.binary(BinaryOp::IntMul, d, Src::Reg(self.index), c, Fl::NONE)?;
        }
        Ok(Src::Reg(t))
    }
}

//! Statements: runs of stores as multi-row DMAs, assignments, `if_`/`while_`, `where_` and
//! masked blocks, loads, gathers and receives, and the epilogue.

use super::*;

impl Lower<'_> {
    /// A statement list: runs of stores (see [`StoreRun`]) become multi-row DMAs where this
    /// QPU has VPM rows for them; everything else goes one statement at a time.
    pub(super) fn stmts(&mut self, list: &[Stmt]) {
        let mut i = 0;
        while i < list.len() {
            let rows = self.globals.is_some_and(|g| g.rows.is_some());
            if let Some(run) = rows
                .then(|| self.batch.is_none())
                .filter(|&free| free)
                .and_then(|_| store_run(&list[i..]))
            {
                self.store_run(&list[i..i + run.len], &run);
                i += run.len;
                continue;
            }
            self.stmt(&list[i]);
            i += 1;
        }
    }

    /// A store run, [`rows_per_qpu`] rows per DMA: each store writes the next of this QPU's VPM
    /// rows, then one VDW setup with that many units, the memory stride and the first row's
    /// address start the DMA. Blocking stores wait for the last DMA.
    pub(super) fn store_run(&mut self, stores: &[Stmt], run: &StoreRun) {
        let g = self.globals.expect("store runs get VPM globals");
        self.source(stores[0].location);
        let base = self.expr(&run.base);
        let base = match base {
            Src::Reg(r) => r,
            other => {
                let r = self.fresh();
                self.emit(Op::mov(Dst::Reg(r), other));
                r
            }
        };
        let stride = self.constant(VDW_STRIDE | (run.step - 64) as u32);
        let mut blocking = false;
        let spilling = g.spill_base.is_some();
        let run_rows = rows_per_qpu(self.max_qpus) - usize::from(spilling);
        for (chunk_index, chunk) in stores.chunks(run_rows).enumerate() {
            // With spill support every value is computed before the VPM writes: a spilled
            // value's store to memory goes through this QPU's first row, which would clobber
            // the chunk (reloads use their own row, so they may come between).
            let early: Vec<Option<Src<VReg>>> = chunk
                .iter()
                .map(|stmt| {
                    let StmtKind::Store { value, .. } = &stmt.kind else {
                        unreachable!("store runs hold stores only")
                    };
                    spilling.then(|| self.expr(value))
                })
                .collect();
            // The previous DMA may still read these rows.
            self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
            self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), Src::Reg(g.vpm_write)));
            for (stmt, early) in chunk.iter().zip(early) {
                self.source(stmt.location);
                let StmtKind::Store { value, kind, .. } = &stmt.kind else {
                    unreachable!("store runs hold stores only")
                };
                blocking |= *kind == StoreKind::Blocking;
                let v = match early {
                    Some(v) => (AluOp::Mov, v, v),
                    None => self.prepare_io(value),
                };
                self.emit_io(v, IoWrite::Vpm);
            }
            let offset = run
                .first
                .wrapping_add(run.step.wrapping_mul((chunk_index * run_rows) as i32));
            let offset = self.constant(offset as u32);
            let units = self.constant((chunk.len() as u32 - 1) << VdwSetup::UNITS_SHIFT);
            let setup = self.fresh();
            self.emit(Op::alu(
                AluOp::Add(AddOp::Add),
                Dst::Reg(setup),
                Src::Reg(g.vdw_row),
                units,
            ));
            self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), Src::Reg(setup)));
            self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), stride));
            self.emit(Op::alu(
                AluOp::Add(AddOp::Add),
                Dst::Write(IoWrite::VwAddr),
                Src::Reg(base),
                offset,
            ));
        }
        if blocking {
            self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
        }
    }

    pub(super) fn stmt(&mut self, stmt: &Stmt) {
        self.source(stmt.location);
        match &stmt.kind {
            StmtKind::Assign { var, value } => {
                let dst = self.var(*var);
                self.expr_into(value, dst, Cond::Always);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let (flag, all) = self.cond(cond);
                let else_label = self.label();
                // Branch to `else` when the condition fails: not(any) = all(not).
                self.emit(Op::Branch {
                    cond: branch_cond(negate(flag), !all),
                    target: else_label,
                });
                self.stmts(then);
                if otherwise.is_empty() {
                    self.emit(Op::Label(else_label));
                } else {
                    let end = self.label();
                    self.emit(Op::Branch {
                        cond: BranchCond::Always,
                        target: end,
                    });
                    self.emit(Op::Label(else_label));
                    self.stmts(otherwise);
                    self.emit(Op::Label(end));
                }
            }
            StmtKind::While { cond, body } => {
                // Test once on entry, then at the bottom of the body: the bottom test shares
                // a basic block with the body, so scheduling can overlap them and fill the
                // back branch's delay slots with the body's last instructions.
                if self.batch.is_none()
                    && self.globals.and_then(|g| g.rows).is_some()
                    && self.globals.is_some_and(|g| g.spill_base.is_none())
                {
                    if let (Some(streams), Some(count)) = (
                        batched_stores(body),
                        counted(cond, body, &self.uniform_vars),
                    ) {
                        self.batched_loop(stmt.location, cond, body, streams, count);
                        return;
                    }
                }
                let (body_label, end_label) = (self.label(), self.label());
                let (flag, all) = self.cond(cond);
                self.emit(Op::Branch {
                    cond: branch_cond(negate(flag), !all),
                    target: end_label,
                });
                self.emit(Op::Label(body_label));
                let copies = if idle_once_done(cond, body) {
                    IDLE_UNROLL
                } else {
                    1
                };
                for _ in 0..copies {
                    self.stmts(body);
                }
                self.source(stmt.location);
                let (flag, all) = self.cond(cond);
                self.emit(Op::Branch {
                    cond: branch_cond(flag, all),
                    target: body_label,
                });
                self.emit(Op::Label(end_label));
            }
            StmtKind::Where {
                cond,
                then,
                otherwise,
            } => self.where_(cond, then, otherwise, None),
            StmtKind::Store {
                value,
                addr,
                stride,
                kind,
                lanes,
            } => self.store(value, addr, *stride, *kind, lanes.as_ref()),
            StmtKind::Gather { addr } => self.expr_to_io(addr, IoWrite::TmuS(0)),
            StmtKind::UniformsFrom { addr } => self.expr_to_io(addr, IoWrite::UniformsAddress),
            StmtKind::Receive { var } => {
                self.emit(Op::Signal(Signal::LoadTmu0));
                let dst = self.var(*var);
                self.emit(Op::mov(Dst::Reg(dst), Src::R4));
            }
            StmtKind::SemaInc(n) | StmtKind::SemaDec(n) => {
                // Stores before a semaphore operation complete first (as on V3D, where it
                // waits with `tmuwt`): a QPU that takes the semaphore after this one's
                // `sema_inc` finds them in memory. A VDW DMA has written memory only once
                // `vw_wait` returns, and a QPU has one store DMA in flight at a time (the
                // VideoCore IV guide, p.55), so waiting for the last waits for all.
                if self.globals.is_some() {
                    self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
                }
                self.emit(Op::Sema {
                    acquire: matches!(stmt.kind, StmtKind::SemaDec(_)),
                    id: *n,
                });
            }
            // Recorded by `Kernel::run`, which rewrites it into stores first.
            StmtKind::Debug { .. } => {}
        }
    }

    pub(super) fn store(
        &mut self,
        value: &Expr,
        addr: &Expr,
        stride: u32,
        kind: StoreKind,
        lanes: Option<&Expr>,
    ) {
        if let (Some(b), Expr::Var(p)) = (&self.batch, addr) {
            if let Some(i) = b.streams.iter().position(|s| s.stream.ptr == *p) {
                // A batched store only writes its VPM row; the DMA comes when the batch is
                // full or the loop ends. With one stream the VPM write address advances by
                // itself; with two, the first store of each iteration sets it to its row,
                // kmax - k of the batch, and the second follows at the setup's stride.
                let (k, vpm, several) = (b.k, b.streams[i].vpm, b.streams.len() > 1);
                let stash = b.stash;
                if let (Some(stash), 1) = (stash, i) {
                    // Staged: the second stream's value waits in its iteration's register.
                    let r = stash[b.stage];
                    self.expr_into(value, r, Cond::Always);
                    return;
                }
                let v = self.prepare_io(value);
                if several && i == 0 && stash.is_none() {
                    self.emit(Op::alu(
                        AluOp::Add(AddOp::Sub),
                        Dst::Write(IoWrite::VwSetup),
                        Src::Reg(vpm),
                        Src::Reg(k),
                    ));
                }
                self.emit_io(v, IoWrite::Vpm);
                return;
            }
        }
        // A store of the first `n` lanes: n = lane 0 clamped to 0..=16, broadcast through
        // r5; the DMA is skipped for 0.
        let count = lanes.map(|n| {
            let v = self.expr(n);
            self.emit(Op::mov(Dst::Write(IoWrite::R5Rep), v));
            let (c, sixteen) = (self.fresh(), self.constant(16));
            self.emit(Op::alu(
                AluOp::Add(AddOp::Max),
                Dst::Reg(c),
                Src::R5,
                imm(0),
            ));
            self.emit(Op::alu(
                AluOp::Add(AddOp::Min),
                Dst::Reg(c),
                Src::Reg(c),
                sixteen,
            ));
            (c, sixteen)
        });
        // Everything the DMA sequence needs is computed first, so that nothing (spill code
        // included) runs between writing the VPM row and starting its DMA.
        // The last operations of the value and of the address write the VPM and the DMA
        // address directly.
        let v = self.prepare_io(value);
        let a = self.prepare_io(addr);
        let g = self.globals.expect("stores get VPM globals");
        let (dma_setup, stride_setup) = if stride == 1 {
            (Src::Reg(g.vdw_row), None)
        } else {
            let delta = self.constant(VDW_SIXTEEN_UNITS.wrapping_sub(VDW_ONE_ROW));
            let setup = self.fresh();
            self.emit(Op::alu(
                AluOp::Add(AddOp::Add),
                Dst::Reg(setup),
                Src::Reg(g.vdw_row),
                delta,
            ));
            // Bytes skipped between consecutive 4-byte elements.
            let word = self.constant(VDW_STRIDE | (4 * (stride - 1)));
            (Src::Reg(setup), Some(word))
        };
        let mut skip = None;
        let dma_setup = match count {
            None => dma_setup,
            Some((c, sixteen)) => {
                // The transfer's width: the depth (contiguous) or the unit count (strided)
                // field of the VDW setup, 16 less (16 - n).
                let shift = if stride == 1 { 16 } else { 23 };
                let (less, setup) = (self.fresh(), self.fresh());
                self.emit(Op::alu(
                    AluOp::Add(AddOp::Sub),
                    Dst::Reg(less),
                    sixteen,
                    Src::Reg(c),
                ));
                self.emit(Op::alu(
                    AluOp::Add(AddOp::Shl),
                    Dst::Reg(less),
                    Src::Reg(less),
                    shift_imm(shift),
                ));
                self.emit(Op::alu(
                    AluOp::Add(AddOp::Sub),
                    Dst::Reg(setup),
                    dma_setup,
                    Src::Reg(less),
                ));
                // n is the same in every lane: skip the store when it is 0.
                self.emit(Op::Alu {
                    op: AluOp::Mov,
                    dst: Dst::None,
                    a: Src::Reg(c),
                    b: Src::Reg(c),
                    cond: Cond::Always,
                    sf: true,
                    rotate: None,
                });
                let label = self.label();
                self.emit(Op::Branch {
                    cond: BranchCond::AllZeroSet,
                    target: label,
                });
                skip = Some(label);
                Src::Reg(setup)
            }
        };
        // The previous DMA may still read this QPU's VPM row: wait before overwriting it.
        self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
        self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), Src::Reg(g.vpm_write)));
        self.emit_io(v, IoWrite::Vpm);
        self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), dma_setup));
        if let Some(word) = stride_setup {
            self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), word));
        }
        self.emit_io(a, IoWrite::VwAddr);
        if kind == StoreKind::Blocking {
            self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
        }
        if let Some(label) = skip {
            self.emit(Op::Label(label));
        }
    }

    pub(super) fn where_(
        &mut self,
        cond: &BoolExpr,
        then: &[Stmt],
        otherwise: &[Stmt],
        outer: Option<VReg>,
    ) {
        // Assignments whose values set flags are evaluated before their mask is tested, so
        // they need the mask in a register.
        let sets_flags = |stmts: &[Stmt]| {
            stmts
                .iter()
                .any(|s| matches!(&s.kind, StmtKind::Assign { value, .. } if value.sets_flags()))
        };
        let nested = contains_where(then)
            || contains_where(otherwise)
            || sets_flags(then)
            || sets_flags(otherwise);
        let flag = self.boolean(cond);
        if outer.is_none() && !nested {
            for s in then {
                self.masked_assign(s, flag);
            }
            for s in otherwise {
                self.masked_assign(s, negate(flag));
            }
            return;
        }
        // Materialise 0/-1 masks.
        let m = self.fresh();
        self.emit(Op::mov(Dst::Reg(m), imm(0)));
        self.emit(Op::Alu {
            op: AluOp::Mov,
            dst: Dst::Reg(m),
            a: imm(-1),
            b: imm(-1),
            cond: flag,
            sf: false,
            rotate: None,
        });
        if let Some(o) = outer {
            self.emit(Op::alu(
                AluOp::Add(AddOp::And),
                Dst::Reg(m),
                Src::Reg(m),
                Src::Reg(o),
            ));
        }
        let else_mask = if otherwise.is_empty() {
            None
        } else {
            let e = self.fresh();
            match outer {
                // m is a subset of o, so o ^ m = o & !m.
                Some(o) => self.emit(Op::alu(
                    AluOp::Add(AddOp::Xor),
                    Dst::Reg(e),
                    Src::Reg(m),
                    Src::Reg(o),
                )),
                None => self.emit(Op::alu(
                    AluOp::Add(AddOp::Not),
                    Dst::Reg(e),
                    Src::Reg(m),
                    Src::Reg(m),
                )),
            }
            Some(e)
        };
        self.masked_block(then, m);
        if let Some(e) = else_mask {
            self.masked_block(otherwise, e);
        }
    }

    pub(super) fn masked_block(&mut self, stmts: &[Stmt], mask: VReg) {
        let mut flags_valid = false;
        for s in stmts {
            match &s.kind {
                StmtKind::Where {
                    cond,
                    then,
                    otherwise,
                } => {
                    self.where_(cond, then, otherwise, Some(mask));
                    flags_valid = false;
                }
                _ => {
                    // A value that sets flags is computed first, into a temporary.
                    let early = match &s.kind {
                        StmtKind::Assign { var, value } if value.sets_flags() => {
                            let t = self.fresh();
                            self.expr_into(value, t, Cond::Always);
                            flags_valid = false;
                            Some((self.var(*var), t))
                        }
                        _ => None,
                    };
                    if !flags_valid {
                        self.emit(Op::Alu {
                            op: AluOp::Mov,
                            dst: Dst::None,
                            a: Src::Reg(mask),
                            b: Src::Reg(mask),
                            cond: Cond::Always,
                            sf: true,
                            rotate: None,
                        });
                        flags_valid = true;
                    }
                    match early {
                        Some((dst, t)) => self.emit(Op::Alu {
                            op: AluOp::Mov,
                            dst: Dst::Reg(dst),
                            a: Src::Reg(t),
                            b: Src::Reg(t),
                            cond: Cond::ZeroClear,
                            sf: false,
                            rotate: None,
                        }),
                        None => self.masked_assign(s, Cond::ZeroClear),
                    }
                }
            }
        }
    }

    pub(super) fn masked_assign(&mut self, stmt: &Stmt, cond: Cond) {
        if let StmtKind::Assign { var, value } = &stmt.kind {
            let dst = self.var(*var);
            self.expr_into(value, dst, cond);
        }
    }

    pub(super) fn epilogue(&mut self, has_dma: bool) {
        if has_dma {
            self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
        }
        let other = self.label();
        let irq = self.label();
        let wait = self.label();
        // me == 0 sets Z; the id is the same in every lane. With VPM globals the test reads
        // this QPU's write setup instead (its row is 0 exactly on QPU 0): that register lives
        // for the whole kernel anyway, so `me` need not (a kernel short of registers would
        // otherwise spill it).
        match self.globals {
            Some(g) => {
                let c = self.constant(VPM_WRITE_ROW);
                self.emit(Op::Alu {
                    op: AluOp::Add(AddOp::Sub),
                    dst: Dst::None,
                    a: Src::Reg(g.vpm_write),
                    b: c,
                    cond: Cond::Always,
                    sf: true,
                    rotate: None,
                });
            }
            None => self.emit(Op::Alu {
                op: AluOp::Mov,
                dst: Dst::None,
                a: Src::Reg(self.me),
                b: Src::Reg(self.me),
                cond: Cond::Always,
                sf: true,
                rotate: None,
            }),
        }
        self.emit(Op::Branch {
            cond: BranchCond::AllZeroClear,
            target: other,
        });
        // QPU 0: wait for the other QPUs' releases, then interrupt the host once.
        let count = self.fresh();
        self.emit(Op::Alu {
            op: AluOp::Add(AddOp::Sub),
            dst: Dst::Reg(count),
            a: Src::Reg(self.num_qpus),
            b: imm(1),
            cond: Cond::Always,
            sf: true,
            rotate: None,
        });
        self.emit(Op::Branch {
            cond: BranchCond::AllZeroSet,
            target: irq,
        });
        self.emit(Op::Label(wait));
        self.emit(Op::Sema {
            acquire: true,
            id: BARRIER_SEMAPHORE,
        });
        self.emit(Op::Alu {
            op: AluOp::Add(AddOp::Sub),
            dst: Dst::Reg(count),
            a: Src::Reg(count),
            b: imm(1),
            cond: Cond::Always,
            sf: true,
            rotate: None,
        });
        self.emit(Op::Branch {
            cond: BranchCond::AllZeroClear,
            target: wait,
        });
        self.emit(Op::Label(irq));
        self.emit(Op::Ldi {
            dst: Dst::Write(IoWrite::HostInt),
            imm: 1,
            cond: Cond::Always,
        });
        self.emit(Op::ThreadEnd);
        // Other QPUs: release once and end.
        self.emit(Op::Label(other));
        self.emit(Op::Sema {
            acquire: false,
            id: BARRIER_SEMAPHORE,
        });
        self.emit(Op::ThreadEnd);
    }
}

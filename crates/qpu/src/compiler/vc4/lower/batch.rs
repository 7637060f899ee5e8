//! Batched stores: counted loops whose stores move as many VPM rows per DMA as the QPU
//! owns, unrolled batches and the staged second array.

use super::*;

impl Lower<'_> {
    /// An ALU op with a condition and flag setting.
    pub(super) fn alu_full(
        &mut self,
        op: AluOp,
        dst: Dst<VReg>,
        a: Src<VReg>,
        b: Src<VReg>,
        cond: Cond,
        sf: bool,
    ) {
        self.emit(Op::Alu {
            op,
            dst,
            a,
            b,
            cond,
            sf,
            rotate: None,
        });
    }

    /// A counted loop with batched stores, strip-mined: an outer loop over batches, an inner
    /// loop over the iterations of one batch (at most `kmax`, testing `i < lim` where
    /// `lim = min(end, i + kmax·step)`: as cheap as the original test), then one DMA per
    /// stream for the batch's rows.
    pub(super) fn batched_loop(
        &mut self,
        location: SourceLocation,
        cond: &AstCond,
        body: &[Stmt],
        streams: Vec<Stream>,
        count: Counted,
    ) {
        let add = |op| AluOp::Add(op);
        let staged = streams.len() == 2 && rows_per_qpu(self.max_qpus) == STAGED_ROWS;
        let b = self.begin_batch(streams, &count, staged);
        let (outer, inner, end) = (self.label(), self.label(), self.label());
        let (flag, all) = self.cond(cond);
        self.emit(Op::Branch {
            cond: branch_cond(negate(flag), !all),
            target: end,
        });
        self.emit(Op::Label(outer));
        // This batch ends after kmax iterations or with the loop, whichever comes first.
        let (i, lim) = (self.var(count.i), self.fresh());
        let span = self.fresh();
        self.emit(Op::alu(
            add(AddOp::Shl),
            Dst::Reg(span),
            b.count_step,
            Src::Reg(b.log2_kmax),
        ));
        self.emit(Op::alu(
            add(AddOp::Add),
            Dst::Reg(lim),
            Src::Reg(i),
            Src::Reg(span),
        ));
        let end_value = self.expr(&count.end);
        self.emit(Op::alu(
            add(AddOp::Min),
            Dst::Reg(lim),
            Src::Reg(lim),
            end_value,
        ));
        let rows = rows_per_qpu(self.max_qpus);
        // With a plan, also the register of the batch's iteration count.
        let countdown = Countdown::plan(&b, &count, body, rows).map(|c| (c, self.fresh()));
        if let Some((c, trips)) = &countdown {
            // The batch's iterations, ceil((lim - i) / step).
            let bias = self.constant((1 << c.log2_step) - 1);
            self.emit(Op::alu(
                add(AddOp::Sub),
                Dst::Reg(*trips),
                Src::Reg(lim),
                Src::Reg(i),
            ));
            self.emit(Op::alu(
                add(AddOp::Add),
                Dst::Reg(*trips),
                Src::Reg(*trips),
                bias,
            ));
            self.emit(Op::alu(
                add(AddOp::Shr),
                Dst::Reg(*trips),
                Src::Reg(*trips),
                shift_imm(c.log2_step),
            ));
        } else if b.stash.is_none() {
            self.emit(Op::mov(Dst::Reg(b.k), Src::Reg(b.kmax)));
        }
        if b.streams.len() == 1 || b.stash.is_some() {
            self.emit(Op::mov(
                Dst::Write(IoWrite::VwSetup),
                Src::Reg(b.streams[0].vpm),
            ));
        }
        let rows = self.fresh();
        let b = if b.stash.is_some() {
            // Staged: the batch's (at most STAGED_ROWS) iterations unrolled, each storing
            // the second stream into its own register, each but the last leaving when the
            // batch or the loop ends, with `rows` saying how many ran.
            let batch_end = self.label();
            self.batch = Some(b);
            for stage in 0..STAGED_ROWS {
                self.batch.as_mut().expect("set above").stage = stage;
                for s in body {
                    self.stmt(s);
                }
                self.source(location);
                self.emit(Op::mov(Dst::Reg(rows), imm(stage as i32 + 1)));
                if stage + 1 < STAGED_ROWS {
                    self.branch_on_batch(lim, i, BranchCond::AllCarryClear, batch_end);
                }
            }
            self.emit(Op::Label(batch_end));
            self.batch.take().expect("the batch outlives its body")
        } else if let Some((c, trips)) = &countdown {
            self.batch = Some(b);
            let locals = body_locals(self._kernel, body, &c.unrolled.window);
            self.unrolled_batch(
                *trips,
                std::slice::from_ref(&c.plain),
                &c.unrolled.copies,
                &locals,
                location,
            );
            let b = self.batch.take().expect("the batch outlives its body");
            // The advances left out of the body happen once, all iterations' worth.
            self.emit(Op::mov(Dst::Reg(rows), Src::Reg(*trips)));
            for &(var, shift) in &c.sunk {
                let (v, total) = (self.var(var), self.fresh());
                self.emit(Op::alu(
                    add(AddOp::Shl),
                    Dst::Reg(total),
                    Src::Reg(*trips),
                    shift_imm(shift),
                ));
                self.emit(Op::alu(
                    add(AddOp::Add),
                    Dst::Reg(v),
                    Src::Reg(v),
                    Src::Reg(total),
                ));
            }
            b
        } else {
            self.emit(Op::Label(inner));
            self.batch = Some(b);
            for s in body {
                self.stmt(s);
            }
            let b = self.batch.take().expect("the batch outlives its body");
            self.source(location);
            self.emit(Op::alu(
                add(AddOp::Sub),
                Dst::Reg(b.k),
                Src::Reg(b.k),
                imm(1),
            ));
            self.branch_on_batch(lim, i, BranchCond::AnyCarrySet, inner);
            // The batch: kmax - k rows (at least one).
            self.emit(Op::alu(
                add(AddOp::Sub),
                Dst::Reg(rows),
                Src::Reg(b.kmax),
                Src::Reg(b.k),
            ));
            b
        };
        let units = self.fresh();
        self.emit(Op::alu(
            add(AddOp::Shl),
            Dst::Reg(units),
            Src::Reg(rows),
            shift_imm(VdwSetup::UNITS_SHIFT),
        ));
        for (n, s) in b.streams.iter().enumerate() {
            self.source(s.stream.location);
            if n > 0 {
                // One store DMA per QPU at a time (guide p.55).
                self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
            }
            if let (Some(stash), 1) = (b.stash, n) {
                self.unstage(stash, b.streams[0].vpm);
            }
            self.emit(Op::alu(
                add(AddOp::Add),
                Dst::Write(IoWrite::VwSetup),
                Src::Reg(s.vdw_base),
                Src::Reg(units),
            ));
            self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), Src::Reg(s.stride)));
            self.emit(Op::mov(Dst::Write(IoWrite::VwAddr), Src::Reg(s.start)));
            self.batch_start(s.start, &s.stream, b.step);
        }
        // The next batch reuses the rows: wait until the DMA has read them.
        self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
        self.source(location);
        let (flag, all) = self.cond(cond);
        self.emit(Op::Branch {
            cond: branch_cond(flag, all),
            target: outer,
        });
        self.emit(Op::Label(end));
    }

    /// `n = n - 1`, setting the flags, and back to `target` while `n` is not zero (`n` is the
    /// same in every lane).
    pub(super) fn count_down(&mut self, n: VReg, target: Label) {
        self.alu_full(
            AluOp::Add(AddOp::Sub),
            Dst::Reg(n),
            Src::Reg(n),
            imm(1),
            Cond::Always,
            true,
        );
        self.emit(Op::Branch {
            cond: BranchCond::AllZeroClear,
            target,
        });
    }

    /// A counted-down batch of `trips` iterations whose body has a sliding window
    /// ([`window_copies`]): `trips mod k` plain iterations (`plain`, one body), then `trips / k` of the
    /// `k` renamed copies (`copies`), each loop skipped when its count is zero. The plain ones
    /// come first, so the copies start and end with the window's own names. The body's
    /// `locals` ([`body_locals`]) get new registers in each copy and in the plain loop.
    pub(super) fn unrolled_batch(
        &mut self,
        trips: VReg,
        plain: &[Vec<Stmt>],
        copies: &[Vec<Stmt>],
        locals: &[VarId],
        location: SourceLocation,
    ) {
        let add = |op| AluOp::Add(op);
        let k = copies.len() as u32;
        let (q, r) = (self.fresh(), self.fresh());
        if k.is_power_of_two() {
            self.emit(Op::alu(
                add(AddOp::Shr),
                Dst::Reg(q),
                Src::Reg(trips),
                shift_imm(k.trailing_zeros()),
            ));
            self.emit(Op::alu(
                add(AddOp::And),
                Dst::Reg(r),
                Src::Reg(trips),
                imm(k as i32 - 1),
            ));
        } else {
            // k = 3: trips · 43 >> 7 is trips / 3 for trips < 128 (a batch has at most the
            // VPM's 64 rows): 43/128 exceeds 1/3 by 1/384, less than the 1/3 the quotient
            // would need to gain.
            debug_assert_eq!(k, 3, "window cycles are 2 to {MAX_WINDOW_COPIES} long");
            let c = self.constant(43);
            self.emit(Op::alu(
                AluOp::Mul(MulOp::Mul24),
                Dst::Reg(q),
                Src::Reg(trips),
                c,
            ));
            self.emit(Op::alu(
                add(AddOp::Shr),
                Dst::Reg(q),
                Src::Reg(q),
                shift_imm(7),
            ));
            self.emit(Op::alu(
                AluOp::Mul(MulOp::Mul24),
                Dst::Reg(r),
                Src::Reg(q),
                imm(3),
            ));
            self.emit(Op::alu(
                add(AddOp::Sub),
                Dst::Reg(r),
                Src::Reg(trips),
                Src::Reg(r),
            ));
        }
        for (count, parts) in [(r, plain), (q, copies)] {
            let (top, skip) = (self.label(), self.label());
            self.alu_full(
                add(AddOp::Or),
                Dst::None,
                Src::Reg(count),
                Src::Reg(count),
                Cond::Always,
                true,
            );
            self.emit(Op::Branch {
                cond: BranchCond::AllZeroSet,
                target: skip,
            });
            self.emit(Op::Label(top));
            for part in parts {
                let saved: Vec<VReg> = locals
                    .iter()
                    .map(|v| {
                        let fresh = self.fresh();
                        std::mem::replace(&mut self.var_regs[v.0 as usize], fresh)
                    })
                    .collect();
                for s in part {
                    self.stmt(s);
                }
                for (v, old) in locals.iter().zip(saved) {
                    self.var_regs[v.0 as usize] = old;
                }
            }
            self.source(location);
            self.count_down(count, top);
            self.emit(Op::Label(skip));
        }
    }

    /// Branch to `target` on `cond` of the carry `lim > i` (the batch goes on while it is
    /// set): `min` sets C as `boolean` does for `<`.
    pub(super) fn branch_on_batch(&mut self, lim: VReg, i: VReg, cond: BranchCond, target: Label) {
        self.alu_full(
            AluOp::Add(AddOp::Min),
            Dst::None,
            Src::Reg(lim),
            Src::Reg(i),
            Cond::Always,
            true,
        );
        self.emit(Op::Branch { cond, target });
    }

    /// A staged batch's second stream into the rows the first stream's DMA has read: every
    /// register in order from the first row (the DMA takes as many rows as the batch has).
    pub(super) fn unstage(&mut self, stash: [VReg; STAGED_ROWS], vpm: VReg) {
        self.emit(Op::mov(Dst::Write(IoWrite::VwSetup), Src::Reg(vpm)));
        for r in stash {
            self.emit(Op::mov(Dst::Write(IoWrite::Vpm), Src::Reg(r)));
        }
    }

    /// The preheader of a loop with batched stores: where each stream's rows go in the VPM
    /// and in memory, the DMA setups, and how many rows a batch holds (`kmax`).
    /// Staged (see [`STAGED_ROWS`]): both streams go out through the first stream's rows,
    /// at most `STAGED_ROWS` per batch.
    pub(super) fn begin_batch(
        &mut self,
        streams: Vec<Stream>,
        count: &Counted,
        staged: bool,
    ) -> Batch {
        let (log2, first) = self
            .globals
            .and_then(|g| g.rows)
            .expect("batched loops get VPM rows");
        let add = |op| AluOp::Add(op);
        // A DMA of an earlier loop may still read these rows.
        self.emit(Op::mov(Dst::None, Src::Read(IoRead::VwWait)));
        let step = self.expr(&streams[0].step);
        let count_step = self.expr(&count.step);
        // Rows lie `step` bytes apart: the gap after each 64-byte row must fit the VDW stride
        // setup's 16 bits (the width vc4asm measured). Z: it does.
        let (gap, stride, c64) = (self.fresh(), self.fresh(), self.constant(64));
        self.emit(Op::alu(add(AddOp::Sub), Dst::Reg(gap), step, c64));
        let c = self.constant(VDW_STRIDE);
        self.emit(Op::mov(Dst::Reg(stride), c));
        self.alu_full(
            add(AddOp::Shr),
            Dst::None,
            Src::Reg(gap),
            shift_imm(16),
            Cond::Always,
            true,
        );
        self.alu_full(
            add(AddOp::Add),
            Dst::Reg(stride),
            Src::Reg(stride),
            Src::Reg(gap),
            Cond::ZeroSet,
            false,
        );
        // Each stream's share of this QPU's rows (at most 2 streams); 1 row (log2 0) when the
        // gap does not fit.
        let share = if staged {
            // All the rows, up to STAGED_ROWS (a launch on fewer QPUs owns more).
            let s = self.fresh();
            self.emit(Op::alu(
                add(AddOp::Min),
                Dst::Reg(s),
                Src::Reg(log2),
                imm(STAGED_ROWS.trailing_zeros() as i32),
            ));
            s
        } else if streams.len() > 1 {
            let s = self.fresh();
            self.emit(Op::alu(
                add(AddOp::Sub),
                Dst::Reg(s),
                Src::Reg(log2),
                imm(1),
            ));
            s
        } else {
            log2
        };
        let (rows, log2_kmax) = (self.fresh(), self.fresh());
        self.emit(Op::alu(
            add(AddOp::Shl),
            Dst::Reg(rows),
            imm(1),
            Src::Reg(share),
        ));
        self.emit(Op::mov(Dst::Reg(log2_kmax), imm(0)));
        self.alu_full(
            AluOp::Mov,
            Dst::Reg(log2_kmax),
            Src::Reg(share),
            Src::Reg(share),
            Cond::ZeroSet,
            false,
        );
        let starts: Vec<VReg> = streams
            .iter()
            .map(|s| {
                let start = self.fresh();
                self.batch_start(start, s, step);
                start
            })
            .collect();
        if let [a, b] = starts[..] {
            // Two streams whose batches could overlap in memory would land in the wrong order
            // (all of one stream's rows, then the other's): batch only if the starts are at
            // least a batch apart (they stay so, as both advance by the same step).
            let (d, nd, span) = (self.fresh(), self.fresh(), self.fresh());
            self.emit(Op::alu(
                add(AddOp::Sub),
                Dst::Reg(d),
                Src::Reg(a),
                Src::Reg(b),
            ));
            self.emit(Op::alu(add(AddOp::Sub), Dst::Reg(nd), imm(0), Src::Reg(d)));
            self.emit(Op::alu(
                add(AddOp::Max),
                Dst::Reg(d),
                Src::Reg(d),
                Src::Reg(nd),
            ));
            self.emit(Op::alu(
                add(AddOp::Shl),
                Dst::Reg(span),
                step,
                Src::Reg(share),
            ));
            self.alu_full(
                add(AddOp::Sub),
                Dst::None,
                Src::Reg(d),
                Src::Reg(span),
                Cond::Always,
                true,
            );
            self.alu_full(
                AluOp::Mov,
                Dst::Reg(log2_kmax),
                imm(0),
                imm(0),
                Cond::NegativeSet,
                false,
            );
        }
        let kmax = self.fresh();
        self.emit(Op::alu(
            add(AddOp::Shl),
            Dst::Reg(kmax),
            imm(1),
            Src::Reg(log2_kmax),
        ));
        let several = streams.len() > 1;
        let mut regs = Vec::new();
        for (n, (stream, start)) in streams.into_iter().zip(starts).enumerate() {
            let y = if n == 0 || staged {
                first
            } else {
                let y = self.fresh();
                self.emit(Op::alu(
                    add(AddOp::Add),
                    Dst::Reg(y),
                    Src::Reg(first),
                    Src::Reg(rows),
                ));
                y
            };
            let vpm = match regs.first() {
                // Only the first stream's store sets up VPM writes.
                Some(StreamRegs { vpm, .. }) if several => *vpm,
                _ => self.fresh(),
            };
            if several && !staged && n == 0 {
                // One write setup per iteration, at the first stream's row kmax - k, with
                // a stride of `rows`: each later store of the iteration lands in the next
                // stream's row (the streams store in this order).
                let c = self.constant(VPM_WRITE_ROW & !GenericSetup::STRIDE_MASK);
                let stride = self.fresh();
                self.emit(Op::alu(
                    add(AddOp::Shl),
                    Dst::Reg(stride),
                    Src::Reg(rows),
                    imm(GenericSetup::STRIDE_SHIFT as i32),
                ));
                self.emit(Op::alu(add(AddOp::Add), Dst::Reg(vpm), Src::Reg(stride), c));
                self.emit(Op::alu(
                    add(AddOp::Add),
                    Dst::Reg(vpm),
                    Src::Reg(vpm),
                    Src::Reg(y),
                ));
                self.emit(Op::alu(
                    add(AddOp::Add),
                    Dst::Reg(vpm),
                    Src::Reg(vpm),
                    Src::Reg(kmax),
                ));
            } else if n == 0 {
                let c = self.constant(VPM_WRITE_ROW);
                self.emit(Op::alu(add(AddOp::Add), Dst::Reg(vpm), Src::Reg(y), c));
            }
            let vdw_base = match regs.first() {
                // Staged, both streams go out from the same rows: one DMA setup.
                Some(StreamRegs { vdw_base, .. }) if staged => *vdw_base,
                _ => {
                    let (y7, vdw_base) = (self.fresh(), self.fresh());
                    self.emit(Op::alu(
                        add(AddOp::Shl),
                        Dst::Reg(y7),
                        Src::Reg(y),
                        imm(VdwSetup::Y_SHIFT as i32),
                    ));
                    let c = self.constant(VDW_ROWS);
                    self.emit(Op::alu(
                        add(AddOp::Add),
                        Dst::Reg(vdw_base),
                        Src::Reg(y7),
                        c,
                    ));
                    vdw_base
                }
            };
            regs.push(StreamRegs {
                stream,
                start,
                vpm,
                vdw_base,
                stride,
            });
        }
        // A staged batch writes all its registers to the VPM, so none may be undefined.
        let stash = staged.then(|| {
            [(); STAGED_ROWS].map(|_| {
                let r = self.fresh();
                self.emit(Op::mov(Dst::Reg(r), imm(0)));
                r
            })
        });
        Batch {
            k: self.fresh(),
            kmax,
            log2_kmax,
            step,
            count_step,
            streams: regs,
            stash,
            stage: 0,
        }
    }

    /// `start` = the address the stream's next store will use, seen from the top of the body.
    pub(super) fn batch_start(&mut self, start: VReg, s: &Stream, step: Src<VReg>) {
        let p = Src::Reg(self.var(s.ptr));
        if s.advanced_first {
            self.emit(Op::alu(AluOp::Add(AddOp::Add), Dst::Reg(start), p, step));
        } else {
            self.emit(Op::mov(Dst::Reg(start), p));
        }
    }
}

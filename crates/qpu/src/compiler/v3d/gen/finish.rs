//! The prologue (workgroup id, QPU count, parameters, the spill and semaphore areas,
//! pinned constants, lane numbers), the end sequence, register allocation and encoding.

use super::super::*;

impl Gen<'_> {
    pub(in crate::compiler::v3d) fn finish(mut self) -> Result<V3dCompiled, Attempt> {
        let body = std::mem::take(&mut self.lines);
        let body_locations = std::mem::take(&mut self.locations);
        self.here = None;

        // Prologue. The workgroup id (payload word 0: X | Y << 16, Mesa nir_to_vir.c) is
        // me(); its low 16 bits are X.
        let payload = self.version.payload0();
        if self.needs.me {
            let me = Dst::v(self.me);
            self.add2(
                AddOp::Shl,
                Fl::NONE,
                me,
                Src::Phys(payload),
                Src::Imm(shift_bits(16)),
            )?;
            self.add2(
                AddOp::Shr,
                Fl::NONE,
                me,
                Src::Reg(self.me),
                Src::Imm(shift_bits(16)),
            )?;
        }
        // The QPU count goes to the reserved rf1 when nothing reads it.
        let nq = if self.needs.num_qpus {
            Dst::v(self.num_qpus)
        } else {
            Dst::Reg(VReg::Rf(1))
        };
        self.signal(Signal::Ldunifrf, Some(nq));
        // Spilled parameters arrive in temporaries and are stored once the spill base is
        // known.
        let mut spilled_params = Vec::new();
        for p in &self.kernel.params {
            let v = p.var.0 as usize;
            let r = if self.spilled[v] {
                let t = self.temp()?;
                spilled_params.push((v, t));
                t
            } else {
                self.var_reg[v]
            };
            self.signal(Signal::Ldunifrf, Some(Dst::v(r)));
        }
        let spill_bytes_per_qpu = self.spill_slots * SPILL_SLOT_BYTES;
        if spill_bytes_per_qpu > 0 {
            self.signal(Signal::Ldunifrf, Some(Dst::v(self.spill_base)));
        }
        let semaphore_bytes = if self.needs.semaphores {
            self.signal(Signal::Ldunifrf, Some(Dst::v(self.semaphore_base)));
            SEMAPHORE_BYTES
        } else {
            0
        };
        let constants = self.pinned_constants.clone();
        for c in &constants {
            let r = self.const_reg[c];
            self.signal(Signal::Ldunifrf, Some(Dst::v(r)));
        }
        if self.needs.index || self.needs.memory {
            let idx = Dst::v(self.index);
            self.add_op(AddOp::Eidx, Fl::NONE, idx, &[]);
            if self.needs.memory {
                let lane4 = Dst::v(self.lane4);
                self.add2(
                    AddOp::Shl,
                    Fl::NONE,
                    lane4,
                    Src::Reg(self.index),
                    Src::Imm(2),
                )?;
            }
        }
        if spill_bytes_per_qpu > 0 {
            // This lane's word of slot 0: area + me() · bytes per QPU + lane · 4 (Mesa's
            // `v3d_setup_spill_base` likewise adds a per-thread offset and eidx · 4 to the
            // address the driver passes as a uniform).
            let base = Dst::v(self.spill_base);
            let size = self.constant(spill_bytes_per_qpu)?;
            let t = self.temp()?;
            self.mul2(MulOp::Umul24, Fl::NONE, Dst::v(t), Src::Reg(self.me), size)?;
            self.add2(
                AddOp::Add,
                Fl::NONE,
                base,
                Src::Reg(self.spill_base),
                Src::Reg(t),
            )?;
            self.add2(
                AddOp::Add,
                Fl::NONE,
                base,
                Src::Reg(self.spill_base),
                Src::Reg(self.lane4),
            )?;
            for (v, t) in spilled_params {
                self.spill_store(v, Src::Reg(t), Fl::NONE)?;
            }
        }
        for (v, zero) in vars_needing_zero(self.kernel).into_iter().enumerate() {
            if zero && self.spilled[v] {
                self.spill_store(v, Src::Imm(0), Fl::NONE)?;
            } else if zero {
                let r = Dst::v(self.var_reg[v]);
                self.mov(r, Src::Imm(0), Fl::NONE);
            }
        }
        let mut lines = std::mem::take(&mut self.lines);
        let mut locations = std::mem::take(&mut self.locations);
        lines.extend(body);
        locations.extend(body_locations);
        self.lines = lines;
        self.locations = locations;

        // End: wait for the stores, then py-videocore6's exit (the last-thread-switch pair
        // and the final thrsw with its two delay slots; tmuwt must not be the last
        // instruction, GFXH-1625).
        if self.needs.stores {
            self.add_op(AddOp::Tmuwt, Fl::NONE, NOP, &[]);
        }
        for sig in [true, true, false, false, true, false, false] {
            if sig {
                self.signal(Signal::Thrsw, None);
            } else {
                self.nop();
            }
        }

        // r0 is left out: it is every rotation's source, and values kept in it around the
        // rotations cost HeatMap's loop more than they save (`qpu bench --gpu vc6`: 680,941
        // issued with r0–r4, 635,077 with r1–r4).
        let accumulators: &[u8] = match self.version {
            V3dVersion::V42 => &[1, 2, 3, 4],
            V3dVersion::V71 => &[],
        };
        crate::compiler::dump("v3d generate", || listing(&self.lines));
        let lines = match alloc::allocate(self.version, &self.lines, ALLOCATABLE, accumulators) {
            Ok(lines) => lines,
            Err(short) => {
                // The statement where the most values are live at once.
                let peak = self.lines[..short.peak]
                    .iter()
                    .filter(|l| !matches!(l, Inst::Label(_)))
                    .count();
                let at = self
                    .locations
                    .get(peak)
                    .copied()
                    .flatten()
                    .unwrap_or(self.kernel.location);
                return Err(Attempt::Registers {
                    uncolored: short.uncolored,
                    live: short.live_at_peak,
                    message: format!(
                        "the kernel at {} needs {} registers at once (at {at}); V3D has {} for \
                         values (64, minus rf0–rf3 reserved): keep fewer values alive at once",
                        self.kernel.location, short.pressure, ALLOCATABLE
                    ),
                });
            }
        };
        crate::compiler::dump("v3d allocate", || listing(&lines));
        let generated = machine(self.version, &lines)?;
        debug_assert_eq!(generated.len(), self.locations.len());
        let (instructions, locations) = pack::pack(
            &pack::Packing {
                version: self.version,
                fifo: TMU_FIFO,
                facts: V3d(self.version).facts(),
                dual_issue: self.dual_issue,
            },
            &generated,
            &self.locations,
        );
        self.locations = locations;
        let words = instructions
            .iter()
            .enumerate()
            .map(|(index, i)| {
                v3d::encode(self.version, i).map_err(|e| CompileError::Encoding {
                    index,
                    message: e.to_string(),
                })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        debug_assert_eq!(words.len(), self.locations.len());
        Ok(V3dCompiled {
            version: self.version,
            instructions,
            words,
            locations: self.locations,
            constants,
            params: self.kernel.params.len(),
            spill_bytes_per_qpu,
            semaphore_bytes,
            compile_time: Duration::ZERO,
        })
    }
}

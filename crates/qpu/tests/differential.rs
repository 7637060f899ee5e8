//! Random differential testing: random kernels run on the reference interpreter and, compiled,
//! on the strict emulator; every output word must be identical.
//!
//! Each program is generated from a seed (reproducible: `QPU_DIFF_SEED=<seed>` reruns one).
//! A campaign checks the programs of consecutive seeds from a first seed that is drawn afresh
//! on every run, so each run (CI's included) covers a different slice of the program space;
//! `QPU_DIFF_FIRST_SEED=<seed>` reruns a slice. Each campaign writes its first seed and program
//! count to stderr even when libtest captures the test's output, and puts them in its failure
//! message.
//! Programs use ints and floats, every operator, `where_`/`if_`/`while_` nesting with bounded
//! loops, rotates and shifts by any amount, loads, gathers and (blocking and non-blocking)
//! stores (also strided) to bounded buffers, uniform-stream reads from the inputs (pointed
//! and re-pointed anywhere in them), semaphores, `me()`/`num_qpus()` on 1–12 QPUs,
//! and variables read before being assigned (zero-initialised). A failing program is shrunk (statements removed while
//! the disagreement persists) and printed as kernel text with its seed.
//!
//! The interpreter models the VideoCore IV's float unit exactly as the compiled code uses it
//! (`interp::ops::FloatUnit::Vc4`), so programs also meet NaNs, infinities, signed zeros,
//! denormals and out-of-range conversions unclamped, and loads outside the inputs whose
//! values nothing uses (undefined on both, harmless). Regression seeds recorded before the
//! generator knew these keep their old programs: there, float variables stay finite (clamped
//! with a NaN-safe `min(1e4, max(x, -1e4))`), `to_int` gets a clamped argument, SFU
//! arguments are positive (`|x| + 1`), and float outputs are stored as `x + 0.0`.
//!
//! CI runs `DEFAULT_PROGRAMS` programs; `QPU_DIFF_PROGRAMS=100000 cargo test --release -p qpu
//! --test all differential:: -- --ignored` runs the long campaign.

#[path = "support/lane.rs"]
mod lane;

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use qpu::error::SourceLocation;
use qpu::interp;
use qpu::lang::ast::*;
use qpu::runtime::{Backend, Buffer, BufferWords, Emulator, Launch};

const DEFAULT_PROGRAMS: u64 = 2_000;
/// Programs in the spilling run (each is larger).
const SPILL_PROGRAMS: u64 = 60;
const INT_VARS: u32 = 4;
const FLOAT_VARS: u32 = 3;
/// Extra store slots per QPU for stores in the body.
const SLOTS: u32 = 4;
/// Vectors per QPU in each output buffer.
const REGION: u32 = INT_VARS + FLOAT_VARS + SLOTS;
const INPUT_WORDS: usize = 64;
const LOOP_BOUND: i32 = 4;

const HERE: SourceLocation = SourceLocation {
    file: "generated",
    line: 0,
    column: 0,
};

/// SplitMix64: a tiny deterministic generator (the thing under test is the compiler).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

// Parameters: inp: Ptr<Int>, finp: Ptr<Float>, out: Ptr<Int>, fout: Ptr<Float>, x: Int, y: Float.
const P_INP: u32 = 0;
const P_FINP: u32 = 1;
const P_OUT: u32 = 2;
const P_FOUT: u32 = 3;
const P_X: u32 = 4;
const P_Y: u32 = 5;
const FIRST_INT: u32 = 6;
const FIRST_FLOAT: u32 = FIRST_INT + INT_VARS;
/// Loop counters, one per nesting depth.
const FIRST_COUNTER: u32 = FIRST_FLOAT + FLOAT_VARS;
const MAX_DEPTH: u32 = 3;

fn e(x: Expr) -> Arc<Expr> {
    Arc::new(x)
}

fn var(v: u32) -> Expr {
    Expr::Var(VarId(v))
}

fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary {
        op,
        lhs: e(a),
        rhs: e(b),
    }
}

fn un(op: UnaryOp, a: Expr) -> Expr {
    Expr::Unary { op, arg: e(a) }
}

fn stmt(kind: StmtKind) -> Stmt {
    Stmt {
        kind,
        location: HERE,
    }
}

/// NaN-safe clamp of a float into [-bound, bound] (see the module docs).
fn clamp(x: Expr, bound: f32) -> Expr {
    bin(
        BinaryOp::FloatMin,
        Expr::FloatLit(bound),
        bin(BinaryOp::FloatMax, x, Expr::FloatLit(-bound)),
    )
}

struct Gen {
    rng: Rng,
    /// Extra int variables kept live from start to end (register pressure: spilling).
    pressure: u32,
    /// Also generate `select` and integer `/` and `%` (off for the regression seeds recorded
    /// before the generator knew them, so they still make the programs that failed).
    extended: bool,
    /// Also read the uniform stream (`UniformsFrom` and uniform reads; off for every
    /// regression seed recorded before the generator knew them).
    streams: bool,
    /// Also meet special floats (NaNs, infinities, signed zeros, denormals, out-of-range
    /// conversions) and unclamped values: the interpreter models the VideoCore IV's float
    /// unit, so they must agree too (off for every regression seed recorded before).
    specials: bool,
}

/// Float words the generator mixes in when `specials` is on.
const SPECIAL_FLOATS: [u32; 14] = [
    0x7fc0_0000, // NaN
    0xffc0_1234, // negative NaN with a payload
    0x7f80_0000, // inf
    0xff80_0000, // -inf
    0x8000_0000, // -0
    0x0000_0001, // the smallest denormal
    0x8040_0000, // a negative denormal
    0x0080_0000, // the smallest normal
    0x7f7f_ffff, // the largest finite
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x4eff_ffff, // just below 2^31
    0x7149_f2ca, // 1e30
    0xcf32_d05e, // -3e9
];

/// Seeds of programs that once disagreed (found before `select`, `/` and `%` existed).
const FORMER_FAILURES: [u64; 2] = [4_294_976_583, 4_294_978_933];
/// Seeds of programs that once failed, found with the extended generator: a branch whose
/// last delay slot writes a register its target reads at once (the compiler padded the
/// wrong path); a load whose rotation-source copies moved up to read r4 held accumulators
/// across the kernel, and allocation spilled without end.
const FORMER_EXTENDED_FAILURES: [u64; 2] = [97_422_158_492_068, 4_366_653_031_186];
/// Seeds of programs that once failed with the full generator (streams too): a kernel that
/// needed spilling, whose masked rotation kept its accumulator-only source alive across
/// a stretch where allocation had no accumulator left for it ("cannot be placed").
const FORMER_STREAM_FAILURES: [u64; 1] = [246_619_925_283_692];

/// First of the pressure variables (after the loop counters).
const FIRST_PRESSURE: u32 = FIRST_COUNTER + MAX_DEPTH + 1;

impl Gen {
    fn int_leaf(&mut self) -> Expr {
        if self.streams && self.rng.chance(5) {
            return Expr::Uniform {
                elem: ElemType::Int,
            };
        }
        match self.rng.below(9) {
            0 => Expr::IntLit(self.rng.below(33) as i32 - 16),
            1 => Expr::IntLit(self.rng.next() as i32),
            2 => Expr::Special(Special::Index),
            3 => Expr::Special(Special::QpuId),
            4 => Expr::Special(Special::NumQpus),
            5 => var(P_X),
            _ if self.pressure > 0 && self.rng.chance(30) => {
                var(FIRST_PRESSURE + self.rng.below(self.pressure as u64) as u32)
            }
            _ => var(FIRST_INT + self.rng.below(INT_VARS as u64) as u32),
        }
    }

    /// [`clamp`], except that with `specials` some values go through unclamped.
    fn clamp(&mut self, x: Expr, bound: f32) -> Expr {
        if self.specials && self.rng.chance(30) {
            x
        } else {
            clamp(x, bound)
        }
    }

    fn float_leaf(&mut self) -> Expr {
        if self.specials && self.rng.chance(8) {
            let bits = SPECIAL_FLOATS[self.rng.below(SPECIAL_FLOATS.len() as u64) as usize];
            return Expr::FloatLit(f32::from_bits(bits));
        }
        if self.streams && self.rng.chance(5) {
            // Any bits may arrive (the stream also reads the int input): clamp them.
            return clamp(
                Expr::Uniform {
                    elem: ElemType::Float,
                },
                1e4,
            );
        }
        match self.rng.below(7) {
            0 => Expr::FloatLit((self.rng.below(64) as f32 - 32.0) / 4.0),
            1 => Expr::FloatLit(f32::from_bits(0x3f80_0000 + (self.rng.next() as u32 >> 9))),
            2 => var(P_Y),
            _ => var(FIRST_FLOAT + self.rng.below(FLOAT_VARS as u64) as u32),
        }
    }

    /// An in-bounds pointer into an input buffer: base + ((e & mask) << 2).
    fn in_pointer(&mut self, float: bool, mask: i32, depth: u32) -> Expr {
        let base = var(if float { P_FINP } else { P_INP });
        let off = bin(BinaryOp::And, self.int(depth), Expr::IntLit(mask));
        bin(
            BinaryOp::IntAdd,
            base,
            bin(BinaryOp::Shl, off, Expr::IntLit(2)),
        )
    }

    fn int(&mut self, depth: u32) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return self.int_leaf();
        }
        let d = depth - 1;
        match self.rng.below(24) {
            0..=13 => {
                let ops = [
                    BinaryOp::IntAdd,
                    BinaryOp::IntSub,
                    BinaryOp::IntMul,
                    BinaryOp::Mul24,
                    BinaryOp::Shl,
                    BinaryOp::Asr,
                    BinaryOp::Lsr,
                    BinaryOp::Ror,
                    BinaryOp::And,
                    BinaryOp::Or,
                    BinaryOp::Xor,
                    BinaryOp::IntMin,
                    BinaryOp::IntMax,
                    BinaryOp::IntAdd,
                ];
                let op = ops[self.rng.below(ops.len() as u64) as usize];
                bin(op, self.int(d), self.int(d))
            }
            14..=16 => {
                let ops = [UnaryOp::IntNot, UnaryOp::IntAbs, UnaryOp::Clz];
                un(ops[self.rng.below(3) as usize], self.int(d))
            }
            17 => {
                let x = self.float(d);
                un(UnaryOp::FloatToInt, self.clamp(x, 1e9))
            }
            18 | 19 => Expr::Rotate {
                value: e(self.int(d)),
                amount: e(if self.rng.chance(50) {
                    Expr::IntLit(self.rng.below(40) as i32 - 20)
                } else {
                    self.int(d)
                }),
            },
            20 => Expr::Load {
                addr: e(self.in_pointer(false, 15, d)),
                elem: ElemType::Int,
                stride: 1,
            },
            21 => Expr::Load {
                addr: e(self.in_pointer(false, 15, d)),
                elem: ElemType::Int,
                stride: 1 + self.rng.below(3) as u32,
            },
            _ if !self.extended => self.int_leaf(),
            22 => Expr::Select {
                cond: Arc::new(self.boolean(d)),
                a: e(self.int(d)),
                b: e(self.int(d)),
            },
            _ => {
                let op = [BinaryOp::IntDiv, BinaryOp::IntRem][self.rng.below(2) as usize];
                bin(op, self.int(d), self.int(d))
            }
        }
    }

    fn float(&mut self, depth: u32) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return self.float_leaf();
        }
        let d = depth - 1;
        let positive = |g: &mut Gen| {
            if g.specials && g.rng.chance(30) {
                return g.float(d);
            }
            bin(
                BinaryOp::FloatAdd,
                un(UnaryOp::FloatAbs, g.float(d)),
                Expr::FloatLit(1.0),
            )
        };
        match self.rng.below(20) {
            0..=7 => {
                let ops = [
                    BinaryOp::FloatAdd,
                    BinaryOp::FloatSub,
                    BinaryOp::FloatMul,
                    BinaryOp::FloatMin,
                    BinaryOp::FloatMax,
                    BinaryOp::FloatAdd,
                    BinaryOp::FloatMul,
                    BinaryOp::FloatSub,
                ];
                let op = ops[self.rng.below(ops.len() as u64) as usize];
                bin(op, self.float(d), self.float(d))
            }
            8 => bin(BinaryOp::FloatDiv, self.float(d), positive(self)),
            9 => un(UnaryOp::Recip, positive(self)),
            10 => un(UnaryOp::Rsqrt, positive(self)),
            11 => un(UnaryOp::Log2, positive(self)),
            12 => un(UnaryOp::Sqrt, self.float(d)),
            13 => un(
                UnaryOp::Exp2,
                bin(BinaryOp::FloatMin, Expr::FloatLit(10.0), self.float(d)),
            ),
            14 => un(UnaryOp::FloatAbs, self.float(d)),
            15 => un(
                UnaryOp::IntToFloat,
                bin(BinaryOp::Asr, self.int(d), Expr::IntLit(8)),
            ),
            16 => Expr::Rotate {
                value: e(self.float(d)),
                amount: e(self.int(d)),
            },
            17 => Expr::Load {
                addr: e(self.in_pointer(true, 15, d)),
                elem: ElemType::Float,
                stride: 1 + self.rng.below(2) as u32,
            },
            _ => self.float_leaf(),
        }
    }

    fn boolean(&mut self, depth: u32) -> BoolExpr {
        if depth > 0 && self.rng.chance(25) {
            let d = depth - 1;
            return match self.rng.below(3) {
                0 => BoolExpr::Not(Arc::new(self.boolean(d))),
                1 => BoolExpr::And(Arc::new(self.boolean(d)), Arc::new(self.boolean(d))),
                _ => BoolExpr::Or(Arc::new(self.boolean(d)), Arc::new(self.boolean(d))),
            };
        }
        let ops = [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ];
        let op = ops[self.rng.below(6) as usize];
        if self.rng.chance(30) {
            BoolExpr::Compare {
                op,
                float: true,
                lhs: e(self.float(1)),
                rhs: e(self.float(1)),
            }
        } else {
            BoolExpr::Compare {
                op,
                float: false,
                lhs: e(self.int(2)),
                rhs: e(self.int(1)),
            }
        }
    }

    fn assign(&mut self) -> Stmt {
        if self.rng.chance(65) {
            let v = if self.pressure > 0 && self.rng.chance(30) {
                FIRST_PRESSURE + self.rng.below(self.pressure as u64) as u32
            } else {
                FIRST_INT + self.rng.below(INT_VARS as u64) as u32
            };
            stmt(StmtKind::Assign {
                var: VarId(v),
                value: self.int(3),
            })
        } else {
            let v = FIRST_FLOAT + self.rng.below(FLOAT_VARS as u64) as u32;
            stmt(StmtKind::Assign {
                var: VarId(v),
                value: {
                    let x = self.float(2);
                    self.clamp(x, 1e4)
                },
            })
        }
    }

    fn where_body(&mut self, depth: u32) -> Vec<Stmt> {
        let n = 1 + self.rng.below(3);
        (0..n)
            .map(|_| {
                if depth > 0 && self.rng.chance(25) {
                    self.where_stmt(depth - 1)
                } else {
                    self.assign()
                }
            })
            .collect()
    }

    /// HeatMap's window edge: `d = rotate(x, n)`, then one lane (or all but one), chosen by
    /// the lane number, from `rotate(y, n)` (the compiler rotates once, selecting first).
    fn window_edge(&mut self) -> Vec<Stmt> {
        let float = self.rng.chance(40);
        let d = if float {
            FIRST_FLOAT + self.rng.below(FLOAT_VARS as u64) as u32
        } else {
            FIRST_INT + self.rng.below(INT_VARS as u64) as u32
        };
        let n = Expr::IntLit(1 + self.rng.below(15) as i32);
        let rotation = |g: &mut Self| Expr::Rotate {
            value: e(if float { g.float(1) } else { g.int(1) }),
            amount: e(n.clone()),
        };
        let first = rotation(self);
        let second = rotation(self);
        // (The test's sense, then its lane: the order the campaigns' seeds were drawn in.)
        let equal = self.rng.chance(75);
        let cond = lane::lane_test(self.rng.below(16) as i32, equal);
        vec![
            stmt(StmtKind::Assign {
                var: VarId(d),
                value: first,
            }),
            stmt(StmtKind::Where {
                cond,
                then: vec![stmt(StmtKind::Assign {
                    var: VarId(d),
                    value: second,
                })],
                otherwise: Vec::new(),
            }),
        ]
    }

    fn where_stmt(&mut self, depth: u32) -> Stmt {
        let cond = self.boolean(1);
        let then = self.where_body(depth);
        let otherwise = if self.rng.chance(50) {
            self.where_body(depth)
        } else {
            Vec::new()
        };
        stmt(StmtKind::Where {
            cond,
            then,
            otherwise,
        })
    }

    /// A store of `value` into this QPU's slot `slot` of `out`/`fout`.
    fn store_to_slot(&mut self, float: bool, value: Expr, slot: Expr, kind: StoreKind) -> Stmt {
        self.strided_store(float, value, slot, kind, 1)
    }

    /// A store into this QPU's slots from `slot`; with `stride` 2 it covers two slots.
    fn strided_store(
        &mut self,
        float: bool,
        value: Expr,
        slot: Expr,
        kind: StoreKind,
        stride: u32,
    ) -> Stmt {
        let base = var(if float { P_FOUT } else { P_OUT });
        let index = bin(
            BinaryOp::IntAdd,
            bin(
                BinaryOp::IntMul,
                Expr::Special(Special::QpuId),
                Expr::IntLit(REGION as i32),
            ),
            slot,
        );
        let addr = bin(
            BinaryOp::IntAdd,
            base,
            bin(BinaryOp::Shl, index, Expr::IntLit(6)),
        );
        // Sometimes only the first n lanes (n from any int expression, clamped to 0..=16).
        let lanes = (self.extended && self.rng.chance(15)).then(|| self.int(1));
        stmt(StmtKind::Store {
            value,
            addr,
            stride,
            kind,
            lanes,
        })
    }

    fn block(&mut self, depth: u32) -> Vec<Stmt> {
        let n = 1 + self.rng.below(4);
        let mut out = Vec::new();
        for _ in 0..n {
            out.extend(self.statement(depth));
        }
        out
    }

    /// A variable that only takes loads outside the input arrays and is never read.
    fn scratch(&self) -> u32 {
        FIRST_PRESSURE + self.pressure
    }

    fn statement(&mut self, depth: u32) -> Vec<Stmt> {
        if self.specials && self.rng.chance(3) {
            // A load outside the int input whose value nothing uses: undefined, harmless.
            let offset = [-64i32, -4, 4 * INPUT_WORDS as i32][self.rng.below(3) as usize];
            return vec![stmt(StmtKind::Assign {
                var: VarId(self.scratch()),
                value: Expr::Load {
                    addr: e(bin(BinaryOp::IntAdd, var(P_INP), Expr::IntLit(offset))),
                    elem: ElemType::Int,
                    stride: 1,
                },
            })];
        }
        if self.streams && self.rng.chance(4) {
            // Point the stream somewhere in one of the inputs.
            let float = self.rng.chance(50);
            return vec![stmt(StmtKind::UniformsFrom {
                addr: self.in_pointer(float, 31, 1),
            })];
        }
        let choice = self.rng.below(if depth == 0 { 3 } else { 9 });
        match choice {
            0 | 1 => vec![self.assign()],
            2 => {
                // Gathers and receives in pairs (the FIFO holds 4).
                let k = 1 + self.rng.below(3) as usize;
                let mut out = Vec::new();
                let mut targets = Vec::new();
                for _ in 0..k {
                    let float = self.rng.chance(40);
                    out.push(stmt(StmtKind::Gather {
                        addr: self.in_pointer(float, 63, 2),
                    }));
                    targets.push(if float {
                        FIRST_FLOAT + self.rng.below(FLOAT_VARS as u64) as u32
                    } else {
                        FIRST_INT + self.rng.below(INT_VARS as u64) as u32
                    });
                }
                if self.rng.chance(30) {
                    out.push(self.assign());
                }
                for t in targets {
                    out.push(stmt(StmtKind::Receive { var: VarId(t) }));
                    // A gathered float may be anything: clamp it like every float.
                    if t >= FIRST_FLOAT {
                        out.push(stmt(StmtKind::Assign {
                            var: VarId(t),
                            value: clamp(var(t), 1e4),
                        }));
                    }
                }
                out
            }
            3 if self.rng.chance(15) => {
                // A release then an acquire on the same semaphore never blocks (at most 12
                // releases are outstanding, below the limit of 15).
                let n = self.rng.below(15) as u8;
                vec![stmt(StmtKind::SemaInc(n)), stmt(StmtKind::SemaDec(n))]
            }
            3 | 4 if self.rng.chance(20) => self.window_edge(),
            3 | 4 => vec![self.where_stmt(2)],
            5 => {
                let cond = if self.rng.chance(50) {
                    Cond::Any(self.boolean(1))
                } else {
                    Cond::All(self.boolean(1))
                };
                let then = self.block(depth - 1);
                let otherwise = if self.rng.chance(50) {
                    self.block(depth - 1)
                } else {
                    Vec::new()
                };
                vec![stmt(StmtKind::If {
                    cond,
                    then,
                    otherwise,
                })]
            }
            6 | 7 => {
                // while (counter < bound && cond): bounded by the counter.
                let counter = FIRST_COUNTER + depth;
                let limit = BoolExpr::Compare {
                    op: CmpOp::Lt,
                    float: false,
                    lhs: e(var(counter)),
                    rhs: e(Expr::IntLit(1 + self.rng.below(LOOP_BOUND as u64) as i32)),
                };
                let b = self.boolean(1);
                let both = BoolExpr::And(Arc::new(limit), Arc::new(b));
                let cond = if self.rng.chance(60) {
                    Cond::Any(both)
                } else {
                    Cond::All(both)
                };
                let mut body = self.block(depth - 1);
                body.push(stmt(StmtKind::Assign {
                    var: VarId(counter),
                    value: bin(BinaryOp::IntAdd, var(counter), Expr::IntLit(1)),
                }));
                vec![
                    stmt(StmtKind::Assign {
                        var: VarId(counter),
                        value: Expr::IntLit(0),
                    }),
                    stmt(StmtKind::While { cond, body }),
                ]
            }
            _ => {
                let float = self.rng.chance(30);
                let value = if float {
                    bin(
                        BinaryOp::FloatAdd,
                        {
                            let x = self.float(2);
                            self.clamp(x, 1e4)
                        },
                        Expr::FloatLit(0.0),
                    )
                } else {
                    self.int(2)
                };
                let kind = if self.rng.chance(50) {
                    StoreKind::Blocking
                } else {
                    StoreKind::NonBlocking
                };
                if self.rng.chance(25) {
                    // Stride 2 over slot pairs (0,1) or (2,3), offset by 0 or 1 element.
                    let pair = INT_VARS + FLOAT_VARS + 2 * self.rng.below(2) as u32;
                    let start = bin(BinaryOp::IntAdd, Expr::IntLit(pair as i32), Expr::IntLit(0));
                    let mut store = self.strided_store(float, value, start, kind, 2);
                    if self.rng.chance(50) {
                        if let StmtKind::Store { addr, .. } = &mut store.kind {
                            *addr = bin(BinaryOp::IntAdd, addr.clone(), Expr::IntLit(4));
                        }
                    }
                    vec![store]
                } else {
                    let slot = Expr::IntLit(
                        (INT_VARS + FLOAT_VARS + self.rng.below(SLOTS as u64) as u32) as i32,
                    );
                    vec![self.store_to_slot(float, value, slot, kind)]
                }
            }
        }
    }

    fn kernel(&mut self) -> Kernel {
        let mut vars = Vec::new();
        let mut params = Vec::new();
        for (i, ty) in [
            Type::Ptr(ElemType::Int),
            Type::Ptr(ElemType::Float),
            Type::Ptr(ElemType::Int),
            Type::Ptr(ElemType::Float),
            Type::Int,
            Type::Float,
        ]
        .into_iter()
        .enumerate()
        {
            vars.push(VarDecl { ty, location: HERE });
            params.push(Param {
                var: VarId(i as u32),
                ty,
            });
        }
        for _ in 0..INT_VARS {
            vars.push(VarDecl {
                ty: Type::Int,
                location: HERE,
            });
        }
        for _ in 0..FLOAT_VARS {
            vars.push(VarDecl {
                ty: Type::Float,
                location: HERE,
            });
        }
        // The counters, the pressure variables, and the scratch variable (`scratch`).
        for _ in 0..=MAX_DEPTH + self.pressure + 1 {
            vars.push(VarDecl {
                ty: Type::Int,
                location: HERE,
            });
        }
        let mut body = Vec::new();
        if self.streams {
            // The stream reads the int input from its start until a statement moves it.
            body.push(stmt(StmtKind::UniformsFrom { addr: var(P_INP) }));
        }
        // Some variables start from values, others stay zero until assigned.
        for v in 0..INT_VARS {
            if self.rng.chance(60) {
                body.push(stmt(StmtKind::Assign {
                    var: VarId(FIRST_INT + v),
                    value: self.int(2),
                }));
            }
        }
        for v in 0..self.pressure {
            body.push(stmt(StmtKind::Assign {
                var: VarId(FIRST_PRESSURE + v),
                value: self.int(1),
            }));
        }
        body.extend(self.block(MAX_DEPTH));
        // Fold the pressure variables into the first int variable, so all stay live.
        for v in 0..self.pressure {
            body.push(stmt(StmtKind::Assign {
                var: VarId(FIRST_INT),
                value: bin(
                    BinaryOp::Xor,
                    bin(BinaryOp::IntMul, var(FIRST_INT), Expr::IntLit(3)),
                    var(FIRST_PRESSURE + v),
                ),
            }));
        }
        // Every QPU stores every variable into its own region.
        for v in 0..INT_VARS {
            body.push(self.store_to_slot(
                false,
                var(FIRST_INT + v),
                Expr::IntLit(v as i32),
                StoreKind::NonBlocking,
            ));
        }
        for v in 0..FLOAT_VARS {
            body.push(self.store_to_slot(
                true,
                bin(
                    BinaryOp::FloatAdd,
                    var(FIRST_FLOAT + v),
                    Expr::FloatLit(0.0),
                ),
                Expr::IntLit((INT_VARS + v) as i32),
                StoreKind::NonBlocking,
            ));
        }
        Kernel {
            params,
            vars,
            body,
            location: HERE,
        }
    }
}

/// Inputs and QPU count for one program.
struct Case {
    kernel: Kernel,
    num_qpus: u32,
    inp: Vec<u32>,
    finp: Vec<u32>,
    x: u32,
    y: u32,
}

fn case(seed: u64, pressure: u32) -> Case {
    let streams = !FORMER_FAILURES.contains(&seed) && !FORMER_EXTENDED_FAILURES.contains(&seed);
    let mut g = Gen {
        rng: Rng(seed),
        pressure,
        extended: !FORMER_FAILURES.contains(&seed),
        streams,
        specials: streams && !FORMER_STREAM_FAILURES.contains(&seed),
    };
    let kernel = g.kernel();
    let num_qpus = 1 + g.rng.below(12) as u32;
    let inp = (0..INPUT_WORDS).map(|_| g.rng.next() as u32).collect();
    let finp = (0..INPUT_WORDS)
        .map(|_| ((g.rng.below(2000) as f32 - 1000.0) / 8.0).to_bits())
        .collect();
    let x = g.rng.below(64) as u32;
    let y = ((g.rng.below(200) as f32 - 100.0) / 4.0).to_bits();
    Case {
        kernel,
        num_qpus,
        inp,
        finp,
        x,
        y,
    }
}

static NEXT_KERNEL: AtomicU64 = AtomicU64::new(1 << 40);

fn qpu_emu_config() -> qpu_emu::vc4::EmulatorConfig {
    qpu_emu::vc4::EmulatorConfig {
        max_instructions: 5_000_000,
        ..qpu_emu::vc4::EmulatorConfig::default()
    }
}

type Outputs = Result<(Vec<u32>, Vec<u32>), String>;

/// Run on the interpreter (`emulate == false`) or compiled on the emulator.
fn run(c: &Case, kernel: &Kernel, emulate: bool) -> Outputs {
    let out_words = (REGION * 16 * c.num_qpus) as usize;
    let mut inp = c.inp.clone();
    let mut finp = c.finp.clone();
    let mut out = vec![0u32; out_words];
    let mut fout = vec![0u32; out_words];
    let bases = [0x1000_0000u32, 0x1001_0000, 0x1002_0000, 0x1003_0000];
    let args = vec![bases[0], bases[1], bases[2], bases[3], c.x, c.y];
    let mut buffers = vec![
        Buffer {
            bus_address: bases[0],
            words: BufferWords::ReadWrite(&mut inp),
        },
        Buffer {
            bus_address: bases[1],
            words: BufferWords::ReadWrite(&mut finp),
        },
        Buffer {
            bus_address: bases[2],
            words: BufferWords::ReadWrite(&mut out),
        },
        Buffer {
            bus_address: bases[3],
            words: BufferWords::ReadWrite(&mut fout),
        },
    ];
    if emulate {
        // Generated loops run at most a few hundred iterations; a compiled program that
        // runs away is a disagreement, found quickly.
        let backend = Emulator::with_config(qpu_emu_config());
        let mut launch = Launch {
            kernel,
            kernel_id: NEXT_KERNEL.fetch_add(1, Ordering::Relaxed),
            num_qpus: c.num_qpus,
            args,
            buffers,
            step_limit: None,
        };
        backend.run(&mut launch).map_err(|e| e.to_string())?;
    } else {
        interp::run(
            kernel,
            c.num_qpus,
            &args,
            &mut buffers,
            &interp::Config {
                step_limit: 1_000_000,
                float_unit: interp::ops::FloatUnit::Vc4,
            },
        )
        .map_err(|e| e.to_string())?;
    }
    Ok((out, fout))
}

/// None if they agree (or the interpreter rejects the program), else a description.
/// Programs the interpreter rejects are counted in `rejected`, if given.
fn disagreement(c: &Case, kernel: &Kernel, rejected: Option<&AtomicU64>) -> Option<String> {
    let expected = run(c, kernel, false);
    let expected = match expected {
        Ok(o) => o,
        Err(e) => {
            if rejected.is_some_and(|r| r.fetch_add(1, Ordering::Relaxed) == 0) {
                println!("first program the interpreter rejects: {e}");
            }
            return None;
        }
    };
    match run(c, kernel, true) {
        Err(e) => Some(format!("emulator failed: {e}")),
        Ok(got) if got != expected => {
            let (o, f) = &got;
            let first = o
                .iter()
                .zip(&expected.0)
                .position(|(a, b)| a != b)
                .map(|i| {
                    format!(
                        "int word {i}: got {:#x}, expected {:#x}",
                        o[i], expected.0[i]
                    )
                })
                .or_else(|| {
                    f.iter()
                        .zip(&expected.1)
                        .position(|(a, b)| a != b)
                        .map(|i| {
                            format!(
                                "float word {i}: got {} ({:#x}), expected {} ({:#x})",
                                f32::from_bits(f[i]),
                                f[i],
                                f32::from_bits(expected.1[i]),
                                expected.1[i]
                            )
                        })
                });
            Some(format!("outputs differ: {}", first.unwrap_or_default()))
        }
        Ok(_) => None,
    }
}

/// Remove statements (depth-first) while the program still disagrees, trying at most a
/// few hundred candidates.
fn shrink(c: &Case, mut kernel: Kernel) -> Kernel {
    let mut budget = 400;
    fn paths(stmts: &[Stmt], prefix: &[(usize, u8)], out: &mut Vec<Vec<(usize, u8)>>) {
        for (i, s) in stmts.iter().enumerate() {
            let mut p = prefix.to_vec();
            p.push((i, 0));
            out.push(p.clone());
            let children: Vec<(&Vec<Stmt>, u8)> = match &s.kind {
                StmtKind::If {
                    then, otherwise, ..
                }
                | StmtKind::Where {
                    then, otherwise, ..
                } => vec![(then, 1), (otherwise, 2)],
                StmtKind::While { body, .. } => vec![(body, 1)],
                _ => vec![],
            };
            for (child, which) in children {
                let mut q = prefix.to_vec();
                q.push((i, which));
                paths(child, &q, out);
            }
        }
    }
    fn remove(stmts: &mut Vec<Stmt>, path: &[(usize, u8)]) {
        let (i, which) = path[0];
        if path.len() == 1 {
            stmts.remove(i);
            return;
        }
        let list = match (&mut stmts[i].kind, path[1].1) {
            (StmtKind::If { then, .. } | StmtKind::Where { then, .. }, _) if which == 1 => then,
            (StmtKind::If { otherwise, .. } | StmtKind::Where { otherwise, .. }, _)
                if which == 2 =>
            {
                otherwise
            }
            (StmtKind::While { body, .. }, _) => body,
            _ => return,
        };
        remove(list, &path[1..]);
    }
    loop {
        let mut all = Vec::new();
        paths(&kernel.body, &[], &mut all);
        // Only real statement paths (last component selects a statement).
        let mut progress = false;
        for p in all.iter().rev() {
            let mut fixed: Vec<(usize, u8)> = Vec::new();
            // Convert (index, branch) chain into removal path.
            for (k, &(i, w)) in p.iter().enumerate() {
                if k + 1 == p.len() {
                    fixed.push((i, 0));
                } else {
                    fixed.push((i, w));
                }
            }
            if budget == 0 {
                return kernel;
            }
            budget -= 1;
            let mut candidate = kernel.clone();
            remove(&mut candidate.body, &fixed);
            if candidate.body != kernel.body && disagreement(c, &candidate, None).is_some() {
                kernel = candidate;
                progress = true;
                break;
            }
        }
        if !progress {
            return kernel;
        }
    }
}

/// Check the program of `seed`; programs the interpreter rejects are counted in `rejected`.
fn check_seed(seed: u64, pressure: u32, rejected: &AtomicU64) -> Result<(), String> {
    let c = case(seed, pressure);
    match disagreement(&c, &c.kernel, Some(rejected)) {
        None => Ok(()),
        Some(first) => {
            let small = shrink(&c, c.kernel.clone());
            if std::env::var_os("QPU_DIFF_DUMP").is_some() {
                if let Ok(compiled) = qpu::compiler::compile(&small) {
                    eprintln!("{}", compiled.disassemble());
                }
            }
            let why = disagreement(&c, &small, None).unwrap_or(first);
            Err(format!(
                "seed {seed} ({} QPUs, x = {}, y = {}): {why}\nshrunk kernel \
                 (v0 inp, v1 finp, v2 out, v3 fout, v4 x, v5 y):\n{small}\n{}",
                c.num_qpus,
                c.x,
                f32::from_bits(c.y),
                rerun(seed, pressure)
            ))
        }
    }
}

/// [`check_seed`], with a panic (in the compiler, say) turned into a failure naming the seed.
fn check_seed_caught(seed: u64, pressure: u32, rejected: &AtomicU64) -> Result<(), String> {
    std::panic::catch_unwind(|| check_seed(seed, pressure, rejected)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        Err(format!(
            "seed {seed}: panicked: {what}\n{}",
            rerun(seed, pressure)
        ))
    })
}

/// How to rerun the one program of `seed`.
fn rerun(seed: u64, pressure: u32) -> String {
    let mut how = format!("rerun with QPU_DIFF_SEED={seed}");
    if pressure != 0 {
        how.push_str(&format!(" QPU_DIFF_PRESSURE={pressure}"));
    }
    how
}

/// A first seed nobody chose: the standard library's per-process random hash keys (drawn from
/// the OS), mixed with the time and the process id. Kept below 2^48 to stay short to type.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(now);
    hasher.write_u32(std::process::id());
    hasher.finish() >> 16
}

/// The campaign's first seed: `QPU_DIFF_FIRST_SEED` if set, else a fresh one.
fn first_seed() -> u64 {
    match std::env::var("QPU_DIFF_FIRST_SEED") {
        Ok(text) => text.trim().parse().unwrap_or_else(|e| {
            panic!("QPU_DIFF_FIRST_SEED={text:?} is not a seed (a number in 0..2^64): {e}")
        }),
        Err(_) => fresh_seed(),
    }
}

/// Write `line` to the process's stderr even while libtest captures the test's output:
/// libtest captures what the `print!`/`eprint!` macro family writes (and shows it only for
/// failing tests), not writes to the `Stderr` handle itself.
fn announce(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}");
}

/// Check `programs` programs from consecutive seeds, on all cores. `name` (the test's) labels
/// the announcement line and the failure message.
fn campaign(name: &str, programs: u64, pressure: u32) {
    if let Ok(seed) = std::env::var("QPU_DIFF_SEED") {
        let seed: u64 = seed.parse().expect("QPU_DIFF_SEED is a number");
        let pressure = std::env::var("QPU_DIFF_PRESSURE")
            .ok()
            .and_then(|p| p.parse().ok())
            .unwrap_or(pressure);
        announce(&format!("{name}: the one program of QPU_DIFF_SEED={seed}"));
        if let Err(e) = check_seed_caught(seed, pressure, &AtomicU64::new(0)) {
            panic!("{e}");
        }
        return;
    }
    let first_seed = first_seed();
    let slice = format!(
        "{programs} programs from first seed {first_seed} (QPU_DIFF_FIRST_SEED={first_seed} \
         reruns them)"
    );
    announce(&format!("{name}: {slice}"));
    let failed = AtomicBool::new(false);
    let rejected = AtomicU64::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (failed, rejected) = (&failed, &rejected);
                s.spawn(move || {
                    let mut failures = Vec::new();
                    let mut i = t;
                    while i < programs && !failed.load(Ordering::Relaxed) {
                        let seed = first_seed.wrapping_add(i);
                        if let Err(e) = check_seed_caught(seed, pressure, rejected) {
                            failed.store(true, Ordering::Relaxed);
                            failures.push(e);
                            break;
                        }
                        i += threads;
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    let rejected = rejected.load(Ordering::Relaxed);
    println!(
        "differential: {slice}: {rejected} rejected by the interpreter, {} failed",
        failures.len()
    );
    if let Some(f) = failures.first() {
        panic!(
            "{} failing program(s) among {slice}; first:\n{f}",
            failures.len()
        );
    }
    assert!(
        rejected * 10 < programs,
        "too many generated programs are invalid: {rejected} of {slice}"
    );
}

#[test]
fn random_kernels_agree_on_interpreter_and_emulator() {
    campaign(
        "random_kernels_agree_on_interpreter_and_emulator",
        DEFAULT_PROGRAMS,
        0,
    );
}

/// Seeds the long campaign once failed on: a spilled prologue temporary (4294976583), a
/// kernel lowered for spilling that ended up needing no slot (4294978933), and the others
/// listed with the generator that made them.
#[test]
fn former_failures_stay_fixed() {
    for seed in FORMER_FAILURES
        .into_iter()
        .chain(FORMER_EXTENDED_FAILURES)
        .chain(FORMER_STREAM_FAILURES)
    {
        if let Err(e) = check_seed_caught(seed, 0, &AtomicU64::new(0)) {
            panic!("{e}");
        }
    }
}

/// Programs with 80 extra variables live throughout: more than the registers, so spill
/// code runs inside loops, conditionals and `where_` bodies.
#[test]
fn random_kernels_that_spill_agree() {
    campaign("random_kernels_that_spill_agree", SPILL_PROGRAMS, 80);
}

#[test]
#[ignore = "long campaign: QPU_DIFF_PROGRAMS=100000 cargo test --release -p qpu --test all differential:: -- --ignored"]
fn long_campaign() {
    let programs = std::env::var("QPU_DIFF_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    // QPU_DIFF_PRESSURE=80 makes every program spill.
    let pressure = std::env::var("QPU_DIFF_PRESSURE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    campaign("long_campaign", programs, pressure);
}

#[test]
fn generator_is_deterministic_and_varied() {
    let a = case(42, 0);
    let b = case(42, 0);
    assert_eq!(a.kernel, b.kernel);
    let kinds: std::collections::HashSet<String> = (0..50)
        .map(|s| format!("{}", case(s, 0).kernel).len().to_string())
        .collect();
    assert!(kinds.len() > 10, "programs vary");
    // Many programs meet special floats (printed as NaN, inf, or in exponent form).
    let specials = (0..200)
        .filter(|&s| {
            let text = case(s, 0).kernel.to_string();
            text.contains("NaN") || text.contains("inf") || text.contains("e30")
        })
        .count();
    assert!(
        specials >= 40,
        "{specials} of 200 programs with special floats"
    );
}

/// FNV-1a (64-bit) of `text`: a fixed hash, the same on every platform and Rust version.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Everything a regression seed's program is: its printed kernel, QPU count and inputs.
fn case_text(c: &Case) -> String {
    format!(
        "{}\nqpus {} x {} y {:#x}\ninp {:x?}\nfinp {:x?}\n",
        c.kernel, c.num_qpus, c.x, c.y, c.inp, c.finp
    )
}

/// The regression seeds' programs, pinned: hashes of [`case_text`] computed once with the
/// generator that found them, so that a change to the generator that makes any of them
/// generate a different program fails here.
#[test]
fn regression_programs_are_unchanged() {
    let seeds: Vec<u64> = FORMER_FAILURES
        .into_iter()
        .chain(FORMER_EXTENDED_FAILURES)
        .chain(FORMER_STREAM_FAILURES)
        .collect();
    let hashes: Vec<(u64, u64)> = seeds
        .iter()
        .map(|&seed| (seed, fnv1a(&case_text(&case(seed, 0)))))
        .collect();
    assert_eq!(hashes, PINNED_REGRESSION_PROGRAMS);
}

const PINNED_REGRESSION_PROGRAMS: [(u64, u64); 5] = [
    (4_294_976_583, 0x03bf_a24b_67ec_c031),
    (4_294_978_933, 0x1a63_036f_40c5_29dc),
    (97_422_158_492_068, 0xd3f3_9e66_9359_6ab9),
    (4_366_653_031_186, 0x348a_8bc8_05fd_26c4),
    (246_619_925_283_692, 0xe87d_9cfe_741f_428a),
];

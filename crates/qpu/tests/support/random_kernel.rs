//! The one random-kernel generator of the differential campaign (`tests/differential.rs`):
//! a seed makes a kernel AST with the parameters `(inp: Ptr<Int>, finp: Ptr<Float>, out:
//! Ptr<Int>, fout: Ptr<Float>, x: Int, y: Float)`, its inputs and a QPU count, for every
//! device (each GPU generation compiles the same program).
//!
//! Feature flags keep the programs of recorded regression seeds stable: each feature the
//! generator learnt after a seed was recorded is off for that seed, and draws no random
//! numbers when off, so the seed still generates the program that failed (a test pins their
//! printed text). `shapes` is the newest: the shapes the V3D back end's own generator
//! (formerly `tests/v3d_differential.rs`) drew that this one did not.

use std::sync::Arc;

use qpu::error::SourceLocation;
use qpu::lang::ast::*;

const INT_VARS: u32 = 4;
const FLOAT_VARS: u32 = 3;
/// Extra store slots per QPU for stores in the body.
const SLOTS: u32 = 4;
/// Vectors per QPU in each output buffer.
pub const REGION: u32 = INT_VARS + FLOAT_VARS + SLOTS;
/// Words of each input array the generator draws first (loads and gathers stay inside them).
const INPUT_WORDS: usize = 64;
/// Words of each input array with `shapes`: the first `INPUT_WORDS` as before, then more
/// for uniform-stream reads (which advance a word per read) to run into.
const SHAPES_INPUT_WORDS: usize = 1024;
const LOOP_BOUND: i32 = 4;

const HERE: SourceLocation = SourceLocation {
    file: "generated",
    line: 0,
    column: 0,
};

/// SplitMix64: a tiny deterministic generator (the thing under test is the compiler).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
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
/// Loop counters, one per nesting depth (loops run at depths 1 to `MAX_DEPTH`, so the
/// first counter is free: `one_path_gathers` keeps its flag there).
pub const FIRST_COUNTER: u32 = FIRST_FLOAT + FLOAT_VARS;
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

pub struct Gen {
    pub rng: Rng,
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
    /// Also draw the shapes the V3D back end's generator drew (off for every regression seed
    /// recorded before): HeatMap's window edge through a temporary, loops counted to
    /// `e & 3` (some opening with a `where_` on their own test), a window sliding along
    /// gathered vectors in a loop, loads while gathered values wait (in gather addresses,
    /// between receives, in `if_` bodies), a gather and its receive on one path each of two
    /// `if_`s, pointers whose lanes hold consecutive words, whole float words stored,
    /// float literals from random bits and more special values, any int converted to float,
    /// int literals up to ±1000, loads just past the inputs' ends, and 1–16 QPUs.
    pub shapes: bool,
    /// Whether expressions may load (off where a load would be refused on V3D or change
    /// the gathers waiting: see `window_loop` and `one_path_gathers`); only `shapes` turns
    /// it on, so it draws nothing otherwise.
    no_loads: bool,
    /// Window-edge temporaries used so far (each by one `temporary_edge` only).
    edges: u32,
}

/// Variables reserved for the temporaries of `temporary_edge`.
const EDGE_VARS: u32 = 4;

/// More float words `shapes` mixes in: a signalling NaN, +0, the most negative finite,
/// and inexact decimals.
const MORE_SPECIAL_FLOATS: [u32; 6] = [
    0x7f80_0001,
    0x0000_0000,
    0xff7f_ffff,
    0x3dcc_cccd, // 0.1
    0x3eaa_aaab, // 1/3
    0xc2f6_e979, // -123.456
];

/// `index() == lane`, or `index() != lane` when `equal` is false: a window edge's lane test.
fn lane_test(lane: i32, equal: bool) -> BoolExpr {
    BoolExpr::Compare {
        op: if equal { CmpOp::Eq } else { CmpOp::Ne },
        float: false,
        lhs: Arc::new(Expr::Special(Special::Index)),
        rhs: Arc::new(Expr::IntLit(lane)),
    }
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
pub const FORMER_FAILURES: [u64; 2] = [4_294_976_583, 4_294_978_933];
/// Seeds of programs that once failed, found with the extended generator: a branch whose
/// last delay slot writes a register its target reads at once (the compiler padded the
/// wrong path); a load whose rotation-source copies moved up to read r4 held accumulators
/// across the kernel, and allocation spilled without end.
pub const FORMER_EXTENDED_FAILURES: [u64; 2] = [97_422_158_492_068, 4_366_653_031_186];
/// Seeds of programs that once failed with the full generator (streams too): a kernel that
/// needed spilling, whose masked rotation kept its accumulator-only source alive across
/// a stretch where allocation had no accumulator left for it ("cannot be placed").
pub const FORMER_STREAM_FAILURES: [u64; 1] = [246_619_925_283_692];

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
            // Beyond the small immediates, not yet random bits.
            0 if self.shapes && self.rng.chance(30) => {
                Expr::IntLit(self.rng.below(2000) as i32 - 1000)
            }
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
        if self.shapes && self.rng.chance(8) {
            return Expr::FloatLit(f32::from_bits(if self.rng.chance(30) {
                MORE_SPECIAL_FLOATS[self.rng.below(MORE_SPECIAL_FLOATS.len() as u64) as usize]
            } else {
                // Random bits, a quarter of them with the exponent all zeros or all ones.
                let bits = self.rng.next() as u32;
                match self.rng.below(8) {
                    0 => bits & 0x807f_ffff,
                    1 => bits | 0x7f80_0000,
                    _ => bits,
                }
            }));
        }
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
            20 | 21 if self.no_loads => self.int_leaf(),
            20 if self.shapes && self.rng.chance(30) => Expr::Load {
                // Through the pointer whose lanes hold consecutive words (see `kernel`).
                addr: e(bin(
                    BinaryOp::IntAdd,
                    var(self.cursor_in()),
                    Expr::IntLit(4 * self.rng.below(48) as i32),
                )),
                elem: ElemType::Int,
                stride: 1,
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
            15 if self.shapes && self.rng.chance(40) => un(UnaryOp::IntToFloat, self.int(d)),
            15 => un(
                UnaryOp::IntToFloat,
                bin(BinaryOp::Asr, self.int(d), Expr::IntLit(8)),
            ),
            16 => Expr::Rotate {
                value: e(self.float(d)),
                amount: e(self.int(d)),
            },
            17 if self.no_loads => self.float_leaf(),
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
        let cond = lane_test(self.rng.below(16) as i32, equal);
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
    pub fn scratch(&self) -> u32 {
        FIRST_PRESSURE + self.pressure
    }

    /// The first of the `EDGE_VARS` temporaries of `temporary_edge` (`shapes` only, as are
    /// the variables after it).
    fn first_edge(&self) -> u32 {
        self.scratch() + 1
    }

    /// A pointer variable whose lanes hold consecutive words: this QPU's region of `out`
    /// plus 4 · lane (the V3D compiler stores through it without broadcasting lane 0).
    pub fn cursor_out(&self) -> u32 {
        self.first_edge() + EDGE_VARS
    }

    /// The same for `inp`.
    pub fn cursor_in(&self) -> u32 {
        self.cursor_out() + 1
    }

    /// The first of three variables `window_loop` slides along gathered vectors.
    pub fn window(&self) -> u32 {
        self.cursor_in() + 1
    }

    /// The last variable a kernel declares.
    fn last_var(&self) -> u32 {
        if self.shapes {
            self.window() + 2
        } else {
            self.scratch()
        }
    }

    fn int_var(&mut self) -> u32 {
        FIRST_INT + self.rng.below(INT_VARS as u64) as u32
    }

    /// An int variable to assign: sometimes a pressure variable.
    fn int_target(&mut self) -> VarId {
        if self.pressure > 0 && self.rng.chance(30) {
            VarId(FIRST_PRESSURE + self.rng.below(self.pressure as u64) as u32)
        } else {
            VarId(self.int_var())
        }
    }

    /// `v = e`, with `e` an int expression drawn without loads.
    fn assign_without_loads(&mut self) -> Stmt {
        let var = self.int_target();
        self.no_loads = true;
        let value = self.int(2);
        self.no_loads = false;
        stmt(StmtKind::Assign { var, value })
    }

    /// One of the `shapes` statements, or `None` to draw an ordinary one.
    fn shaped_statement(&mut self, depth: u32) -> Option<Vec<Stmt>> {
        Some(match self.rng.below(8) {
            0 if self.edges < EDGE_VARS => self.temporary_edge(),
            1 if depth > 0 => self.counted_loop(depth),
            2 if depth > 0 => self.window_loop(depth),
            3 => self.gathers_with_loads(),
            4 => {
                // Through the pointer whose lanes hold consecutive words, sometimes only
                // the first n lanes.
                let slot = INT_VARS + FLOAT_VARS + self.rng.below(SLOTS as u64) as u32;
                let value = self.int(2);
                let lanes = self.rng.chance(30).then(|| self.int(1));
                vec![stmt(StmtKind::Store {
                    value,
                    addr: bin(
                        BinaryOp::IntAdd,
                        var(self.cursor_out()),
                        Expr::IntLit(64 * slot as i32),
                    ),
                    stride: 1,
                    kind: StoreKind::Blocking,
                    lanes,
                })]
            }
            5 => {
                // A float's whole word (NaN payloads, signed zeros, denormals), into a slot
                // of `fout` or, through the int pointer, of `out` the final stores leave.
                let value = self.float(2);
                let (float, slot) = if self.rng.chance(50) {
                    (
                        true,
                        INT_VARS + FLOAT_VARS + self.rng.below(SLOTS as u64) as u32,
                    )
                } else {
                    (false, INT_VARS + self.rng.below(FLOAT_VARS as u64) as u32)
                };
                let kind = if self.rng.chance(50) {
                    StoreKind::Blocking
                } else {
                    StoreKind::NonBlocking
                };
                vec![self.store_to_slot(float, value, Expr::IntLit(slot as i32), kind)]
            }
            6 => {
                // A load just past an input's end (or before its start) into the variable
                // nothing reads.
                let float = self.rng.chance(50);
                let end = 4 * SHAPES_INPUT_WORDS as i32;
                let offset = [-64, -4, end, end + 60][self.rng.below(4) as usize];
                vec![stmt(StmtKind::Assign {
                    var: VarId(self.scratch()),
                    value: Expr::Load {
                        addr: e(bin(
                            BinaryOp::IntAdd,
                            var(if float { P_FINP } else { P_INP }),
                            Expr::IntLit(offset),
                        )),
                        elem: if float {
                            ElemType::Float
                        } else {
                            ElemType::Int
                        },
                        stride: 1,
                    },
                })]
            }
            _ => return None,
        })
    }

    /// HeatMap's window edge as its kernel writes it: `r = rotate(x, n); t = rotate(y, n);
    /// where_(index() == c (or !=), r = t)` with the temporary `t` read nowhere else, which
    /// the V3D compiler turns into one rotation.
    fn temporary_edge(&mut self) -> Vec<Stmt> {
        let t = VarId(self.first_edge() + self.edges);
        self.edges += 1;
        let first = self.rng.below(INT_VARS as u64) as u32;
        let [r, x, y] = [0, 1, 2].map(|k| VarId(FIRST_INT + (first + k) % INT_VARS));
        let n = Expr::IntLit(1 + self.rng.below(15) as i32);
        let rotation = |v: VarId| Expr::Rotate {
            value: e(Expr::Var(v)),
            amount: e(n.clone()),
        };
        let equal = self.rng.chance(75);
        let cond = lane_test(self.rng.below(16) as i32, equal);
        vec![
            stmt(StmtKind::Assign {
                var: r,
                value: rotation(x),
            }),
            stmt(StmtKind::Assign {
                var: t,
                value: rotation(y),
            }),
            stmt(StmtKind::Where {
                cond,
                then: vec![stmt(StmtKind::Assign {
                    var: r,
                    value: Expr::Var(t),
                })],
                otherwise: Vec::new(),
            }),
        ]
    }

    /// `counter = 0; while any/all(counter < (e & 3) [&& cond]) { body; counter += 1 }`
    /// (so some loops never run), some bodies opening with a `where_` on the loop's own test
    /// (Mandelbrot's shape: the V3D compiler reuses the flags the test left).
    fn counted_loop(&mut self, depth: u32) -> Vec<Stmt> {
        let counter = FIRST_COUNTER + depth;
        let bound = bin(BinaryOp::And, self.int(1), Expr::IntLit(3));
        let mut test = BoolExpr::Compare {
            op: CmpOp::Lt,
            float: false,
            lhs: e(var(counter)),
            rhs: e(bound),
        };
        if self.rng.chance(30) {
            test = BoolExpr::And(Arc::new(test), Arc::new(self.boolean(1)));
        }
        let mut body = Vec::new();
        if self.rng.chance(40) {
            let then = self.where_body(1);
            let otherwise = if self.rng.chance(30) {
                self.where_body(1)
            } else {
                Vec::new()
            };
            body.push(stmt(StmtKind::Where {
                cond: test.clone(),
                then,
                otherwise,
            }));
        }
        body.extend(self.block(depth - 1));
        body.push(stmt(StmtKind::Assign {
            var: VarId(counter),
            value: bin(BinaryOp::IntAdd, var(counter), Expr::IntLit(1)),
        }));
        let cond = if self.rng.chance(70) {
            Cond::Any(test)
        } else {
            Cond::All(test)
        };
        vec![
            stmt(StmtKind::Assign {
                var: VarId(counter),
                value: Expr::IntLit(0),
            }),
            stmt(StmtKind::While { cond, body }),
        ]
    }

    /// A gather from `inp` at a lane-varying address drawn without loads.
    fn plain_gather(&mut self, mask: i32) -> Stmt {
        self.no_loads = true;
        let addr = self.in_pointer(false, mask, 1);
        self.no_loads = false;
        stmt(StmtKind::Gather { addr })
    }

    /// A `for_range`-shaped loop sliding a window of three variables along gathered vectors
    /// (HeatMap's shape, which the V3D compiler unrolls by three): `w0 = w1; w1 = w2;
    /// receive(w2)`, the next gather, assignments without loads (a load would pop the
    /// gather waiting), the window's sum stored, for `x & 7` iterations (so every remainder
    /// by three occurs).
    fn window_loop(&mut self, depth: u32) -> Vec<Stmt> {
        let counter = FIRST_COUNTER + depth;
        let w = self.window();
        let mut body = vec![
            stmt(StmtKind::Assign {
                var: VarId(w),
                value: var(w + 1),
            }),
            stmt(StmtKind::Assign {
                var: VarId(w + 1),
                value: var(w + 2),
            }),
            stmt(StmtKind::Receive { var: VarId(w + 2) }),
            self.plain_gather(15),
        ];
        for _ in 0..1 + self.rng.below(3) {
            body.push(self.assign_without_loads());
        }
        let slot = INT_VARS + FLOAT_VARS + self.rng.below(SLOTS as u64) as u32;
        let sum = bin(
            BinaryOp::IntAdd,
            bin(BinaryOp::IntAdd, var(w), var(w + 1)),
            bin(BinaryOp::Shl, var(w + 2), Expr::IntLit(1)),
        );
        body.push(self.store_to_slot(false, sum, Expr::IntLit(slot as i32), StoreKind::Blocking));
        body.push(stmt(StmtKind::Assign {
            var: VarId(counter),
            value: bin(BinaryOp::IntAdd, var(counter), Expr::IntLit(1)),
        }));
        let cond = Cond::Any(BoolExpr::Compare {
            op: CmpOp::Lt,
            float: false,
            lhs: e(var(counter)),
            rhs: e(bin(BinaryOp::And, var(P_X), Expr::IntLit(7))),
        });
        vec![
            stmt(StmtKind::Assign {
                var: VarId(counter),
                value: Expr::IntLit(0),
            }),
            self.plain_gather(15),
            stmt(StmtKind::While { cond, body }),
            // The gather still waiting.
            stmt(StmtKind::Receive { var: VarId(w) }),
        ]
    }

    /// Gathers, then their receives, with loads while gathered values wait (in later
    /// gathers' addresses and between the receives, some in an `if_` body): on V3D loads
    /// and gathers share the result FIFO, so the compiler pops the gathered values first.
    fn gathers_with_loads(&mut self) -> Vec<Stmt> {
        let n = 1 + self.rng.below(3);
        let mut out = Vec::new();
        for _ in 0..n {
            let float = self.rng.chance(30);
            out.push(stmt(StmtKind::Gather {
                addr: self.in_pointer(float, 63, 1),
            }));
        }
        for _ in 0..n {
            if self.rng.chance(50) {
                let var = self.int_target();
                let value = Expr::Load {
                    addr: e(self.in_pointer(false, 15, 1)),
                    elem: ElemType::Int,
                    stride: 1 + self.rng.below(3) as u32,
                };
                let assign = stmt(StmtKind::Assign { var, value });
                if self.rng.chance(40) {
                    self.no_loads = true;
                    let cond = Cond::Any(self.boolean(1));
                    self.no_loads = false;
                    out.push(stmt(StmtKind::If {
                        cond,
                        then: vec![assign],
                        otherwise: Vec::new(),
                    }));
                } else {
                    out.push(assign);
                }
            }
            // Gathered floats land in int variables: their whole words.
            let var = self.int_target();
            out.push(stmt(StmtKind::Receive { var }));
        }
        out
    }

    /// A gather on one path of an `if_` and its receive on one path of a later `if_` on
    /// the same outcome (kept in the first loop counter, which no loop uses), with gathers
    /// and receives between (and sometimes two of each on the `else_` side): receives pop
    /// the FIFO in order whichever path ran. Only at the end of a kernel without pressure,
    /// and with nothing loading: afterwards the V3D compiler knows only a range for the
    /// gathers waiting, and refuses loads (a spilled variable's reload among them); the
    /// final stores follow, without loads.
    fn one_path_gathers(&mut self) -> Vec<Stmt> {
        self.no_loads = true;
        let flag = VarId(FIRST_COUNTER);
        let set = |v: i32| {
            stmt(StmtKind::Assign {
                var: flag,
                value: Expr::IntLit(v),
            })
        };
        let cond = Cond::Any(self.boolean(1));
        let then = vec![self.plain_gather(63), set(1)];
        self.no_loads = true;
        let otherwise = if self.rng.chance(50) {
            let (x, y) = (self.int_var(), self.int_var());
            vec![
                self.plain_gather(63),
                self.plain_gather(63),
                stmt(StmtKind::Receive { var: VarId(x) }),
                stmt(StmtKind::Receive { var: VarId(y) }),
            ]
        } else {
            Vec::new()
        };
        let mut out = vec![
            set(0),
            stmt(StmtKind::If {
                cond,
                then,
                otherwise,
            }),
        ];
        let n = self.rng.below(3);
        for _ in 0..n {
            out.push(self.plain_gather(63));
        }
        for _ in 0..n {
            let var = VarId(self.int_var());
            out.push(stmt(StmtKind::Receive { var }));
        }
        let target = VarId(self.int_var());
        out.push(stmt(StmtKind::If {
            cond: Cond::Any(BoolExpr::Compare {
                op: CmpOp::Eq,
                float: false,
                lhs: e(var(FIRST_COUNTER)),
                rhs: e(Expr::IntLit(1)),
            }),
            then: vec![stmt(StmtKind::Receive { var: target })],
            otherwise: Vec::new(),
        }));
        // The final stores draw their lane counts without loads too (`kernel` resets it).
        self.no_loads = true;
        out
    }

    fn statement(&mut self, depth: u32) -> Vec<Stmt> {
        if self.shapes && self.rng.chance(30) {
            if let Some(shaped) = self.shaped_statement(depth) {
                return shaped;
            }
        }
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
        if self.shapes {
            // The window-edge temporaries, the two cursors, the sliding window.
            for v in self.first_edge()..=self.last_var() {
                let cursor = v == self.cursor_out() || v == self.cursor_in();
                vars.push(VarDecl {
                    ty: if cursor {
                        Type::Ptr(ElemType::Int)
                    } else {
                        Type::Int
                    },
                    location: HERE,
                });
            }
            let lanes = bin(
                BinaryOp::Shl,
                Expr::Special(Special::Index),
                Expr::IntLit(2),
            );
            let region = bin(
                BinaryOp::Shl,
                bin(
                    BinaryOp::IntMul,
                    Expr::Special(Special::QpuId),
                    Expr::IntLit(REGION as i32),
                ),
                Expr::IntLit(6),
            );
            body.push(stmt(StmtKind::Assign {
                var: VarId(self.cursor_out()),
                value: bin(
                    BinaryOp::IntAdd,
                    bin(BinaryOp::IntAdd, var(P_OUT), region),
                    lanes.clone(),
                ),
            }));
            body.push(stmt(StmtKind::Assign {
                var: VarId(self.cursor_in()),
                value: bin(BinaryOp::IntAdd, var(P_INP), lanes),
            }));
        }
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
        if self.shapes && self.pressure == 0 && self.rng.chance(25) {
            body.extend(self.one_path_gathers());
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
        self.no_loads = false;
        debug_assert_eq!(vars.len() as u32, self.last_var() + 1);
        Kernel {
            params,
            vars,
            body,
            location: HERE,
        }
    }
}

/// One program: its kernel, QPU count and inputs.
pub struct Case {
    pub kernel: Kernel,
    /// The QPU count drawn (1–12, or 1–16 with `shapes`); a device with fewer QPUs runs
    /// [`Case::qpus_for`].
    pub num_qpus: u32,
    pub inp: Vec<u32>,
    pub finp: Vec<u32>,
    pub x: u32,
    pub y: u32,
}

impl Case {
    /// The QPU count on a device with at most `max`: the drawn count, wrapped around.
    pub fn qpus_for(&self, max: u32) -> u32 {
        1 + (self.num_qpus - 1) % max
    }
}

/// The generator for `seed` with every feature on except those newer than the regression
/// seed it is, if it is one.
pub fn generator(seed: u64, pressure: u32) -> Gen {
    let streams = !FORMER_FAILURES.contains(&seed) && !FORMER_EXTENDED_FAILURES.contains(&seed);
    let specials = streams && !FORMER_STREAM_FAILURES.contains(&seed);
    Gen {
        rng: Rng(seed),
        pressure,
        extended: !FORMER_FAILURES.contains(&seed),
        streams,
        specials,
        // (A regression seed recorded from now on keeps every flag on.)
        shapes: specials,
        no_loads: false,
        edges: 0,
    }
}

/// The program of `seed` with `pressure` variables live throughout.
pub fn case(seed: u64, pressure: u32) -> Case {
    let mut g = generator(seed, pressure);
    let kernel = g.kernel();
    let num_qpus = 1 + g.rng.below(if g.shapes { 16 } else { 12 }) as u32;
    let mut inp: Vec<u32> = (0..INPUT_WORDS).map(|_| g.rng.next() as u32).collect();
    let mut finp: Vec<u32> = (0..INPUT_WORDS)
        .map(|_| ((g.rng.below(2000) as f32 - 1000.0) / 8.0).to_bits())
        .collect();
    let x = g.rng.below(64) as u32;
    let y = ((g.rng.below(200) as f32 - 100.0) / 4.0).to_bits();
    if g.shapes {
        // Room for uniform-stream reads to run on.
        inp.extend((INPUT_WORDS..SHAPES_INPUT_WORDS).map(|_| g.rng.next() as u32));
        finp.extend(
            (INPUT_WORDS..SHAPES_INPUT_WORDS)
                .map(|_| ((g.rng.below(2000) as f32 - 1000.0) / 8.0).to_bits()),
        );
    }
    Case {
        kernel,
        num_qpus,
        inp,
        finp,
        x,
        y,
    }
}

#[test]
fn generator_is_deterministic_and_varied() {
    let a = case(42, 0);
    let b = case(42, 0);
    assert_eq!(a.kernel, b.kernel);
    assert_eq!((a.inp, a.finp), (b.inp, b.finp));
    let texts: Vec<String> = (0..300).map(|s| case(s, 0).kernel.to_string()).collect();
    let lengths: std::collections::HashSet<usize> = texts.iter().map(String::len).collect();
    assert!(lengths.len() > 100, "programs vary");
    let count = |what: &str, needle: &dyn Fn(&str) -> bool, least: usize| {
        let n = texts.iter().filter(|t| needle(t)).count();
        println!("{n} of 300 programs with {what}");
        assert!(n >= least, "{n} of 300 programs with {what}");
    };
    let g = generator(0, 0);
    let (cursor_out, cursor_in) = (
        format!("v{} ", g.cursor_out()),
        format!("v{} ", g.cursor_in()),
    );
    let window = format!("receive(v{})", g.window() + 2);
    let scratch = format!("v{} = ", g.scratch());
    let edge = format!("v{} = rotate(", g.first_edge());
    count(
        "special floats",
        &|t| t.contains("NaN") || t.contains("inf") || t.contains("e30"),
        45,
    );
    count("semaphores", &|t| t.contains("sema_inc("), 8);
    count(
        "uniform-stream reads",
        &|t| t.contains("next_uniform()"),
        60,
    );
    // `shapes`: beyond the two assignments that set the cursors.
    count(
        "loads or stores through a cursor",
        &|t| t.matches(&cursor_out).count() + t.matches(&cursor_in).count() > 2,
        60,
    );
    count(
        "a window sliding along gathers",
        &|t| t.contains(&window),
        15,
    );
    count("loads beside the inputs", &|t| t.contains(&scratch), 30);
    count(
        "a window edge through a temporary",
        &|t| t.contains(&edge),
        15,
    );
    count(
        "a receive on one path of an `if_`",
        &|t| t.contains(&format!("if any(v{FIRST_COUNTER} == 1) {{\n    receive(")),
        30,
    );
    count("loops counted to `e & 3`", &|t| t.contains(" & 3))"), 30);
    // Every QPU count up to 16.
    let qpus: std::collections::HashSet<u32> = (0..300).map(|s| case(s, 0).num_qpus).collect();
    assert_eq!(qpus.len(), 16);
}

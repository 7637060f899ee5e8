//! Random differential testing of the V3D compiler: random kernels within its subset run on
//! the reference interpreter and, compiled for V3D 4.2 and 7.1, on the strict V3D emulator;
//! every output word must agree.
//!
//! The subset: integer arithmetic (every operator the backend has), `rotate`, `where_`/`else_` nests,
//! `if_`/`while_` with `any`/`all` (loops bounded by a counter), `select`, loads with strides
//! 1–3 from lane-varying addresses, gathers with their receives (and loads while gathered
//! values wait; at a kernel's end, a gather and its receive each on one side of an `if_`),
//! full and partial stores, uniform-stream reads, semaphore release/acquire pairs,
//! `index()`, `me()`, `num_qpus()`, on 1–8 (4.2) or 1–16 (7.1) QPUs; every float operation
//! (arithmetic, division, the SFU functions, `abs`, `min`/`max`, conversions both ways,
//! comparisons, and whole float words stored) on special values (NaNs, infinities, signed
//! zeros, denormals, out-of-range conversions) and random bit patterns, with the interpreter
//! modelling the version's float unit; and loads outside the input array whose values are
//! never used.
//!
//! `QPU_V3D_DIFF_SEED=<seed>` reruns one program and prints it;
//! `QPU_V3D_DIFF_PROGRAMS=<n>` checks `n` seeds instead of the default 500, from
//! `QPU_V3D_DIFF_FIRST_SEED` (default 0);
//! `QPU_V3D_DIFF_PRESSURE=<k>` adds `k` variables live from the start to the end (read and
//! written by the statements, folded into the first variable at the end), so that with
//! `k = 80` every program has more values live than registers and spills.

#[path = "support/lane.rs"]
mod lane;

use std::sync::Arc;

use qpu::compiler::v3d;
use qpu::error::SourceLocation;
use qpu::interp;
use qpu::lang::ast::*;
use qpu::runtime::{Buffer, BufferWords};
use qpu_emu::v3d::{CsdJob, V3dConfig, V3dEmulator};
use qpu_isa::v3d::V3dVersion;

const PROGRAMS: u64 = 500;
const INT_VARS: u32 = 4;
/// Vectors each QPU stores: its variables, then the statement slots.
const SLOTS: u32 = 4;
const REGION: u32 = INT_VARS + SLOTS;
/// Words of the input array: loads and gathers use the first 64, uniform-stream reads
/// (which start inside the first 32 and advance a word per read) the rest.
const INPUT_WORDS: u32 = 1024;

const HERE: SourceLocation = SourceLocation {
    file: "generated",
    line: 0,
    column: 0,
};

// Parameters: inp: Ptr<Int>, out: Ptr<Int>, x: Int; then the variables, then loop counters.
const P_INP: u32 = 0;
const P_OUT: u32 = 1;
const P_X: u32 = 2;
const FIRST_VAR: u32 = 3;
const FIRST_COUNTER: u32 = FIRST_VAR + INT_VARS;
const MAX_DEPTH: u32 = 3;
/// The first of the pressure variables (after the loop counters).
const FIRST_PRESSURE: u32 = FIRST_COUNTER + MAX_DEPTH;
/// Pressure variables in the short spilling test.
const SPILL_PRESSURE: u32 = 80;

/// SplitMix64.
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

fn a(x: Expr) -> Arc<Expr> {
    Arc::new(x)
}

fn var(v: u32) -> Expr {
    Expr::Var(VarId(v))
}

fn bin(op: BinaryOp, l: Expr, r: Expr) -> Expr {
    Expr::Binary {
        op,
        lhs: a(l),
        rhs: a(r),
    }
}

fn un(op: UnaryOp, x: Expr) -> Expr {
    Expr::Unary { op, arg: a(x) }
}

/// `counter = 0` and `while cond { body; counter += 1 }`.
fn counted_loop(counter: VarId, cond: Cond, mut body: Vec<Stmt>) -> (Stmt, Stmt) {
    body.push(stmt(StmtKind::Assign {
        var: counter,
        value: bin(BinaryOp::IntAdd, Expr::Var(counter), lit(1)),
    }));
    (
        stmt(StmtKind::Assign {
            var: counter,
            value: lit(0),
        }),
        stmt(StmtKind::While { cond, body }),
    )
}

fn stmt(kind: StmtKind) -> Stmt {
    Stmt {
        kind,
        location: HERE,
    }
}

fn lit(v: i32) -> Expr {
    Expr::IntLit(v)
}

/// `base + 4 · (e & mask)`: a byte address inside the input array.
fn input_address(e: Expr, mask: i32) -> Expr {
    bin(
        BinaryOp::IntAdd,
        var(P_INP),
        bin(BinaryOp::Shl, bin(BinaryOp::And, e, lit(mask)), lit(2)),
    )
}

/// This QPU's output slot `slot`: `out + 64 · (REGION · me() + slot)`.
fn slot_address(slot: u32) -> Expr {
    let vector = bin(
        BinaryOp::IntAdd,
        bin(
            BinaryOp::IntMul,
            Expr::Special(Special::QpuId),
            lit(REGION as i32),
        ),
        lit(slot as i32),
    );
    bin(
        BinaryOp::IntAdd,
        var(P_OUT),
        bin(BinaryOp::Shl, vector, lit(6)),
    )
}

struct Gen {
    rng: Rng,
    /// Whether the uniform stream points into the input yet.
    stream: bool,
    /// Extra variables live from the start to the end (register pressure).
    pressure: u32,
    /// Window-edge temporaries used so far (each by one edge only, after the pressure
    /// variables).
    edges: u32,
}

/// Variables reserved for window edges' rotated operands.
const EDGE_VARS: u32 = 4;

/// Float words every generated kernel may meet: NaNs (quiet, with payloads, negative),
/// ±infinity, ±0, denormals, the smallest normal, the largest finite, values out of the
/// int32 range and around its edges, and inexact decimals.
const SPECIAL_FLOATS: [u32; 20] = [
    0x7fc0_0000,
    0x7f80_0001,
    0xffc0_1234,
    0x7f80_0000,
    0xff80_0000,
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x8040_0000,
    0x0080_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x4eff_ffff, // just below 2^31
    0x7149_f2ca, // 1e30
    0xcf32_d05e, // -3e9
    0x3dcc_cccd, // 0.1
    0x3eaa_aaab, // 1/3
    0xc2f6_e979, // -123.456
];

impl Gen {
    fn literal(&mut self) -> Expr {
        lit(match self.rng.below(4) {
            0 => self.rng.below(16) as i32 - 16,
            1 => self.rng.below(16) as i32,
            2 => self.rng.below(2000) as i32 - 1000,
            _ => self.rng.next() as i32,
        })
    }

    fn leaf(&mut self) -> Expr {
        if self.stream && self.rng.chance(5) {
            return Expr::Uniform {
                elem: ElemType::Int,
            };
        }
        match self.rng.below(8) {
            0 => self.literal(),
            1 => Expr::Special(Special::Index),
            2 => Expr::Special(Special::QpuId),
            3 => Expr::Special(Special::NumQpus),
            4 => var(P_X),
            _ if self.pressure > 0 && self.rng.chance(30) => self.pressure_var(),
            _ => var(FIRST_VAR + self.rng.below(u64::from(INT_VARS)) as u32),
        }
    }

    fn pressure_var(&mut self) -> Expr {
        var(FIRST_PRESSURE + self.rng.below(u64::from(self.pressure)) as u32)
    }

    /// A float: any of the language's float operations on integers converted, special
    /// values (NaN with several payloads, ±infinity, ±0, denormals, the extremes, values out
    /// of the int32 range) and random bit patterns. The interpreter computes with the V3D's
    /// float unit, so every result, inexact or special, must agree bit for bit.
    fn float(&mut self, depth: u32) -> Expr {
        if depth >= 3 || self.rng.chance(35) {
            return self.float_leaf(depth);
        }
        if self.rng.chance(65) {
            let op = [
                BinaryOp::FloatAdd,
                BinaryOp::FloatSub,
                BinaryOp::FloatMul,
                BinaryOp::FloatDiv,
                BinaryOp::FloatMin,
                BinaryOp::FloatMax,
            ][self.rng.below(6) as usize];
            bin(op, self.float(depth + 1), self.float(depth + 1))
        } else {
            let op = [
                UnaryOp::FloatAbs,
                UnaryOp::Recip,
                UnaryOp::Rsqrt,
                UnaryOp::Exp2,
                UnaryOp::Log2,
                UnaryOp::Sqrt,
            ][self.rng.below(6) as usize];
            un(op, self.float(depth + 1))
        }
    }

    fn float_leaf(&mut self, depth: u32) -> Expr {
        match self.rng.below(4) {
            0 => {
                // A 12-bit integer converted.
                let e = self.int(depth + 1, false);
                un(
                    UnaryOp::IntToFloat,
                    bin(BinaryOp::Asr, bin(BinaryOp::Shl, e, lit(20)), lit(20)),
                )
            }
            1 => un(UnaryOp::IntToFloat, self.int(depth + 1, false)),
            2 => Expr::FloatLit(f32::from_bits(
                SPECIAL_FLOATS[self.rng.below(SPECIAL_FLOATS.len() as u64) as usize],
            )),
            _ => {
                // Random bits, a quarter of them with the exponent all zeros or all ones.
                let bits = self.rng.next() as u32;
                let bits = match self.rng.below(8) {
                    0 => bits & 0x807f_ffff,
                    1 => bits | 0x7f80_0000,
                    _ => bits,
                };
                Expr::FloatLit(f32::from_bits(bits))
            }
        }
    }

    fn int(&mut self, depth: u32, loads: bool) -> Expr {
        if depth >= 3 || self.rng.chance(30) {
            return self.leaf();
        }
        match self.rng.below(20) {
            0..=10 => {
                let op = [
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
                    BinaryOp::IntDiv,
                    BinaryOp::IntRem,
                ][self.rng.below(15) as usize];
                let l = self.int(depth + 1, loads);
                let r = self.int(depth + 1, loads);
                bin(op, l, r)
            }
            11 | 12 => {
                let op =
                    [UnaryOp::IntNot, UnaryOp::IntAbs, UnaryOp::Clz][self.rng.below(3) as usize];
                let x = self.int(depth + 1, loads);
                un(op, x)
            }
            13 | 14 => {
                let cond = self.bool(depth + 1, loads);
                let x = self.int(depth + 1, loads);
                let y = self.int(depth + 1, loads);
                Expr::Select {
                    cond: Arc::new(cond),
                    a: a(x),
                    b: a(y),
                }
            }
            15 | 16 if loads && self.rng.chance(25) => {
                // Through the pointer whose lanes hold consecutive words (see `kernel`).
                Expr::Load {
                    addr: a(bin(
                        BinaryOp::IntAdd,
                        var(self.cursor_in()),
                        lit(4 * self.rng.below(48) as i32),
                    )),
                    elem: ElemType::Int,
                    stride: 1,
                }
            }
            15 | 16 if loads => {
                let e = self.int(depth + 1, loads);
                let stride = 1 + self.rng.below(3) as u32;
                Expr::Load {
                    addr: a(input_address(e, 15)),
                    elem: ElemType::Int,
                    stride,
                }
            }
            17 => {
                let f = self.float(depth);
                un(UnaryOp::FloatToInt, f)
            }
            18 => {
                let value = self.int(depth + 1, loads);
                let amount = self.int(depth + 1, loads);
                Expr::Rotate {
                    value: a(value),
                    amount: a(amount),
                }
            }
            _ => self.leaf(),
        }
    }

    fn bool(&mut self, depth: u32, loads: bool) -> BoolExpr {
        match self.rng.below(10) {
            0 if depth < 3 => BoolExpr::Not(Arc::new(self.bool(depth + 1, loads))),
            1 if depth < 3 => BoolExpr::And(
                Arc::new(self.bool(depth + 1, loads)),
                Arc::new(self.bool(depth + 1, loads)),
            ),
            2 if depth < 3 => BoolExpr::Or(
                Arc::new(self.bool(depth + 1, loads)),
                Arc::new(self.bool(depth + 1, loads)),
            ),
            3 => BoolExpr::Compare {
                op: self.cmp(),
                float: true,
                lhs: a(self.float(depth + 1)),
                rhs: a(self.float(depth + 1)),
            },
            _ => BoolExpr::Compare {
                op: self.cmp(),
                float: false,
                lhs: a(self.int(depth + 1, loads)),
                rhs: a(self.int(depth + 1, loads)),
            },
        }
    }

    fn cmp(&mut self) -> CmpOp {
        [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ][self.rng.below(6) as usize]
    }

    fn target(&mut self) -> VarId {
        if self.pressure > 0 && self.rng.chance(30) {
            return VarId(FIRST_PRESSURE + self.rng.below(u64::from(self.pressure)) as u32);
        }
        VarId(FIRST_VAR + self.rng.below(u64::from(INT_VARS)) as u32)
    }

    /// Statements allowed inside `where_`: assignments (no loads) and nested `where_`s.
    fn masked(&mut self, depth: u32) -> Vec<Stmt> {
        let n = 1 + self.rng.below(3);
        (0..n)
            .map(|_| {
                if depth < MAX_DEPTH && self.rng.chance(25) {
                    self.where_(depth + 1)
                } else {
                    let var = self.target();
                    let value = self.int(0, false);
                    stmt(StmtKind::Assign { var, value })
                }
            })
            .collect()
    }

    /// HeatMap's window edge: `r = rotate(x, n); t = rotate(y, n); where_(index() == c (or
    /// !=), r = t)` with `t` read nowhere else, which the compiler turns into one rotation.
    fn window_edge(&mut self) -> Vec<Stmt> {
        let t = VarId(FIRST_PRESSURE + self.pressure + self.edges);
        self.edges += 1;
        let first = self.rng.below(u64::from(INT_VARS)) as u32;
        let [r, x, y] = [0, 1, 2].map(|k| VarId(FIRST_VAR + (first + k) % INT_VARS));
        let n = lit(1 + self.rng.below(15) as i32);
        let rotation = |v: VarId| Expr::Rotate {
            value: a(Expr::Var(v)),
            amount: a(n.clone()),
        };
        // (The test's sense, then its lane: the order the campaigns' seeds were drawn in.)
        let equal = self.rng.chance(75);
        let cond = lane::lane_test(self.rng.below(16) as i32, equal);
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

    fn where_(&mut self, depth: u32) -> Stmt {
        let cond = self.bool(1, false);
        self.where_on(cond, depth, 50)
    }

    /// `where_(cond)` with random masked bodies, an `else_` in `with_else` percent.
    fn where_on(&mut self, cond: BoolExpr, depth: u32, with_else: u64) -> Stmt {
        let then = self.masked(depth);
        let otherwise = if self.rng.chance(with_else) {
            self.masked(depth)
        } else {
            Vec::new()
        };
        stmt(StmtKind::Where {
            cond,
            then,
            otherwise,
        })
    }

    fn block(&mut self, depth: u32) -> Vec<Stmt> {
        let n = 1 + self.rng.below(if depth == 0 { 6 } else { 3 });
        let mut out = Vec::new();
        for _ in 0..n {
            out.extend(self.statement(depth));
        }
        out
    }

    fn statement(&mut self, depth: u32) -> Vec<Stmt> {
        let nested = depth < MAX_DEPTH;
        if self.rng.chance(4) {
            // A load outside the input array whose value nothing uses: an undefined value,
            // harmless on every backend.
            let offset = [
                -64i32,
                -4,
                4 * INPUT_WORDS as i32,
                4 * INPUT_WORDS as i32 + 60,
            ][self.rng.below(4) as usize];
            return vec![stmt(StmtKind::Assign {
                var: VarId(self.scratch()),
                value: Expr::Load {
                    addr: a(bin(BinaryOp::IntAdd, var(P_INP), lit(offset))),
                    elem: ElemType::Int,
                    stride: 1,
                },
            })];
        }
        match self.rng.below(12) {
            0..=3 => {
                let var = self.target();
                let value = self.int(0, true);
                vec![stmt(StmtKind::Assign { var, value })]
            }
            4 | 5 if self.edges < EDGE_VARS && self.rng.chance(25) => self.window_edge(),
            4 | 5 => vec![self.where_(depth)],
            6 if nested => {
                let cond = self.bool(1, true);
                let cond = if self.rng.chance(50) {
                    Cond::Any(cond)
                } else {
                    Cond::All(cond)
                };
                let then = self.block(depth + 1);
                let otherwise = if self.rng.chance(50) {
                    self.block(depth + 1)
                } else {
                    Vec::new()
                };
                vec![stmt(StmtKind::If {
                    cond,
                    then,
                    otherwise,
                })]
            }
            7 if nested && self.rng.chance(25) => self.window_loop(depth),
            7 if nested => {
                // counter = 0; while any(counter < (e & 3) [&& cond]) { body; counter += 1 }
                let counter = VarId(FIRST_COUNTER + depth);
                let bound = bin(BinaryOp::And, self.int(1, false), lit(3));
                let mut test = BoolExpr::Compare {
                    op: CmpOp::Lt,
                    float: false,
                    lhs: a(Expr::Var(counter)),
                    rhs: a(bound),
                };
                if self.rng.chance(30) {
                    test = BoolExpr::And(Arc::new(test), Arc::new(self.bool(1, false)));
                }
                // Some bodies open with a `where_` on the loop's own test (Mandelbrot's shape:
                // the compiler reuses the flags the test left).
                let opening = self
                    .rng
                    .chance(40)
                    .then(|| self.where_on(test.clone(), depth, 30));
                let cond = if self.rng.chance(70) {
                    Cond::Any(test)
                } else {
                    Cond::All(test)
                };
                let mut body: Vec<Stmt> = opening.into_iter().collect();
                body.extend(self.block(depth + 1));
                let (init, lp) = counted_loop(counter, cond, body);
                vec![init, lp]
            }
            8 => {
                // Sometimes a float's whole word.
                let value = if self.rng.chance(30) {
                    self.float(0)
                } else {
                    self.int(0, true)
                };
                let lanes = if self.rng.chance(30) {
                    Some(self.int(1, false))
                } else {
                    None
                };
                let slot = INT_VARS + self.rng.below(u64::from(SLOTS)) as u32;
                let addr = if self.rng.chance(40) {
                    // Through the pointer whose lanes hold consecutive words (see `kernel`).
                    bin(
                        BinaryOp::IntAdd,
                        var(self.cursor_out()),
                        lit(64 * slot as i32),
                    )
                } else {
                    slot_address(slot)
                };
                vec![stmt(StmtKind::Store {
                    value,
                    addr,
                    stride: 1,
                    kind: StoreKind::Blocking,
                    lanes,
                })]
            }
            9 => {
                // Gathers, then their receives, with loads while gathered values wait (in
                // later gathers' addresses and between the receives): on V3D they share the
                // result FIFO, so the compiler pops the gathered values first.
                let n = 1 + self.rng.below(3);
                let loads = self.rng.chance(50);
                let mut out = Vec::new();
                for _ in 0..n {
                    let e = self.int(1, loads);
                    out.push(stmt(StmtKind::Gather {
                        addr: input_address(e, 63),
                    }));
                }
                for _ in 0..n {
                    if loads && self.rng.chance(50) {
                        let var = self.target();
                        let e = self.int(1, false);
                        let value = Expr::Load {
                            addr: a(input_address(e, 15)),
                            elem: ElemType::Int,
                            stride: 1 + self.rng.below(3) as u32,
                        };
                        let assign = stmt(StmtKind::Assign { var, value });
                        if self.rng.chance(40) {
                            // In an `if_` body: the compiler pops the gathers before the
                            // condition so that both paths agree.
                            let cond = Cond::Any(self.bool(1, false));
                            out.push(stmt(StmtKind::If {
                                cond,
                                then: vec![assign],
                                otherwise: Vec::new(),
                            }));
                        } else {
                            out.push(assign);
                        }
                    }
                    let var = self.target();
                    out.push(stmt(StmtKind::Receive { var }));
                }
                out
            }
            10 if self.rng.chance(30) => {
                // A release then an acquire on the same semaphore (as tests/differential.rs
                // draws them for the VideoCore IV): never a deadlock, since an increment
                // that waits at 15 waits for QPUs whose next step is a decrement.
                let n = self.rng.below(15) as u8;
                vec![stmt(StmtKind::SemaInc(n)), stmt(StmtKind::SemaDec(n))]
            }
            _ => {
                let var = self.target();
                let value = self.int(0, false);
                vec![stmt(StmtKind::Assign { var, value })]
            }
        }
    }

    /// A gather on one path of an `if_` and its receive on one path of a later `if_` on
    /// the same outcome (kept in the first loop counter: no loop runs any more), with
    /// gathers and receives between (unconditional, and sometimes two of each on the
    /// `else_` side): receives pop the FIFO in order whichever path ran. Only at the end of a
    /// kernel that does not spill: afterwards the compiler knows only a range for the
    /// gathers waiting, and refuses loads (a spilled variable's reload among them).
    fn one_path_gathers(&mut self) -> Vec<Stmt> {
        let flag = VarId(FIRST_COUNTER);
        let set = |v: i32| {
            stmt(StmtKind::Assign {
                var: flag,
                value: lit(v),
            })
        };
        let gather = |g: &mut Gen| {
            let e = g.int(1, false);
            stmt(StmtKind::Gather {
                addr: input_address(e, 63),
            })
        };
        let cond = Cond::Any(self.bool(1, false));
        let then = vec![gather(self), set(1)];
        let otherwise = if self.rng.chance(50) {
            let (x, y) = (self.target(), self.target());
            vec![
                gather(self),
                gather(self),
                stmt(StmtKind::Receive { var: x }),
                stmt(StmtKind::Receive { var: y }),
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
            out.push(gather(self));
        }
        for _ in 0..n {
            let var = self.target();
            out.push(stmt(StmtKind::Receive { var }));
        }
        let target = self.target();
        out.push(stmt(StmtKind::If {
            cond: Cond::Any(BoolExpr::Compare {
                op: CmpOp::Eq,
                float: false,
                lhs: a(var(FIRST_COUNTER)),
                rhs: a(lit(1)),
            }),
            then: vec![stmt(StmtKind::Receive { var: target })],
            otherwise: Vec::new(),
        }));
        out
    }

    /// The first of three variables a loop slides along as a window.
    fn window(&self) -> u32 {
        self.cursor_in() + 1
    }

    /// A `for_range`-shaped loop sliding a window of three variables along gathered vectors
    /// (HeatMap's shape, which the compiler unrolls by three): `w0 = w1; w1 = w2;
    /// receive(w2)`, the next gather, random assignments, the window's sum stored, for
    /// `x & 7` iterations (so every remainder by three occurs).
    fn window_loop(&mut self, depth: u32) -> Vec<Stmt> {
        let counter = VarId(FIRST_COUNTER + depth);
        let first = self.window();
        let w = move |k: u32| VarId(first + k);
        let gather = |g: &mut Gen| {
            let e = g.int(1, false);
            stmt(StmtKind::Gather {
                addr: input_address(e, 15),
            })
        };
        let mut body = vec![
            stmt(StmtKind::Assign {
                var: w(0),
                value: Expr::Var(w(1)),
            }),
            stmt(StmtKind::Assign {
                var: w(1),
                value: Expr::Var(w(2)),
            }),
            stmt(StmtKind::Receive { var: w(2) }),
            gather(self),
        ];
        // Assignments only: other statements could gather past the FIFO, or load on one
        // path of an `if_` while the prefetch waits.
        for _ in 0..1 + self.rng.below(3) {
            let var = self.target();
            let value = self.int(0, false);
            body.push(stmt(StmtKind::Assign { var, value }));
        }
        let slot = INT_VARS + self.rng.below(u64::from(SLOTS)) as u32;
        body.push(stmt(StmtKind::Store {
            value: bin(
                BinaryOp::IntAdd,
                bin(BinaryOp::IntAdd, var(w(0).0), var(w(1).0)),
                bin(BinaryOp::Shl, var(w(2).0), lit(1)),
            ),
            addr: slot_address(slot),
            stride: 1,
            kind: StoreKind::Blocking,
            lanes: None,
        }));
        let cond = Cond::Any(BoolExpr::Compare {
            op: CmpOp::Lt,
            float: false,
            lhs: a(Expr::Var(counter)),
            rhs: a(bin(BinaryOp::And, var(P_X), lit(7))),
        });
        let (init, lp) = counted_loop(counter, cond, body);
        vec![
            init,
            gather(self),
            lp,
            // The gather still waiting.
            stmt(StmtKind::Receive { var: w(0) }),
        ]
    }

    /// A pointer variable whose lanes hold consecutive words: this QPU's output region plus
    /// 4 · lane (the compiler stores through it without broadcasting lane 0).
    fn cursor_out(&self) -> u32 {
        FIRST_PRESSURE + self.pressure + EDGE_VARS
    }

    /// The same for the input array.
    fn cursor_in(&self) -> u32 {
        self.cursor_out() + 1
    }

    /// A variable that only takes loads outside the input array, never read.
    fn scratch(&self) -> u32 {
        self.window() + 3
    }

    fn kernel(&mut self) -> Kernel {
        // Every uniform-stream read comes after the stream is pointed into the input.
        let start = self.int(1, false);
        let lanes = bin(BinaryOp::Shl, Expr::Special(Special::Index), lit(2));
        let mut body = vec![
            stmt(StmtKind::Assign {
                var: VarId(self.cursor_out()),
                value: bin(BinaryOp::IntAdd, slot_address(0), lanes.clone()),
            }),
            stmt(StmtKind::Assign {
                var: VarId(self.cursor_in()),
                value: bin(BinaryOp::IntAdd, var(P_INP), lanes),
            }),
            stmt(StmtKind::UniformsFrom {
                addr: input_address(start, 31),
            }),
        ];
        self.stream = true;
        for v in 0..self.pressure {
            let value = self.int(1, false);
            body.push(stmt(StmtKind::Assign {
                var: VarId(FIRST_PRESSURE + v),
                value,
            }));
        }
        body.extend(self.block(0));
        // Fold the pressure variables into the first variable, so all stay live to here.
        for v in 0..self.pressure {
            body.push(stmt(StmtKind::Assign {
                var: VarId(FIRST_VAR),
                value: bin(
                    BinaryOp::Xor,
                    bin(BinaryOp::IntMul, var(FIRST_VAR), lit(3)),
                    var(FIRST_PRESSURE + v),
                ),
            }));
        }
        if self.pressure == 0 && self.rng.chance(25) {
            body.extend(self.one_path_gathers());
        }
        for v in 0..INT_VARS {
            body.push(stmt(StmtKind::Store {
                value: var(FIRST_VAR + v),
                addr: slot_address(v),
                stride: 1,
                kind: StoreKind::NonBlocking,
                lanes: None,
            }));
        }
        let params = [
            (P_INP, Type::Ptr(ElemType::Int)),
            (P_OUT, Type::Ptr(ElemType::Int)),
            (P_X, Type::Int),
        ];
        let cursors = [self.cursor_out(), self.cursor_in()];
        let vars = (0..self.scratch() + 1)
            .map(|v| VarDecl {
                ty: params.iter().find(|p| p.0 == v).map_or(
                    if cursors.contains(&v) {
                        Type::Ptr(ElemType::Int)
                    } else {
                        Type::Int
                    },
                    |p| p.1,
                ),
                location: HERE,
            })
            .collect();
        Kernel {
            params: params
                .iter()
                .map(|&(v, ty)| Param { var: VarId(v), ty })
                .collect(),
            vars,
            body,
            location: HERE,
        }
    }
}

struct Case {
    kernel: Kernel,
    qpus: u32,
    input: Vec<u32>,
    x: u32,
}

fn case(seed: u64, version: V3dVersion, pressure: u32) -> Case {
    let mut g = Gen {
        rng: Rng(seed),
        stream: false,
        pressure,
        edges: 0,
    };
    let kernel = g.kernel();
    let max = match version {
        V3dVersion::V42 => 8,
        V3dVersion::V71 => 16,
    };
    let qpus = 1 + g.rng.below(max) as u32;
    let input = (0..INPUT_WORDS).map(|_| g.rng.next() as u32).collect();
    let x = g.rng.below(64) as u32;
    Case {
        kernel,
        qpus,
        input,
        x,
    }
}

fn interpret(c: &Case, version: V3dVersion) -> Result<Vec<u32>, String> {
    let mut input = c.input.clone();
    let mut out = vec![0u32; (REGION * 16 * c.qpus) as usize];
    let (inp_addr, out_addr) = (0x1000u32, 0x10_0000u32);
    let mut buffers = [
        Buffer {
            bus_address: inp_addr,
            words: BufferWords::ReadWrite(&mut input),
        },
        Buffer {
            bus_address: out_addr,
            words: BufferWords::ReadWrite(&mut out),
        },
    ];
    interp::run(
        &c.kernel,
        c.qpus,
        &[inp_addr, out_addr, c.x],
        &mut buffers,
        &interp::Config {
            float_unit: interp::ops::FloatUnit::of(match version {
                V3dVersion::V42 => qpu::compiler::Gpu::Vc6,
                V3dVersion::V71 => qpu::compiler::Gpu::Vc7,
            }),
            ..interp::Config::default()
        },
    )
    .map_err(|e| format!("interpreter: {e}"))?;
    Ok(out)
}

/// The output words, and whether the kernel spilled.
fn emulate(c: &Case, version: V3dVersion) -> Result<(Vec<u32>, bool), String> {
    let compiled = v3d::compile(&c.kernel, version).map_err(|e| format!("compile: {e}"))?;
    let mut config = V3dConfig::new(version);
    config.qpus = c.qpus as usize;
    config.max_instructions = 20_000_000;
    let mut emu = V3dEmulator::new(config).map_err(|e| e.to_string())?;
    let code = emu
        .load_program(&compiled.words)
        .map_err(|e| e.to_string())?;
    let out_words = REGION * 16 * c.qpus;
    let mem = emu.memory_mut();
    let inp = mem.alloc(INPUT_WORDS * 4, 64).map_err(|e| e.to_string())?;
    let out = mem.alloc(out_words * 4, 64).map_err(|e| e.to_string())?;
    mem.write_u32s(inp, &c.input).map_err(|e| e.to_string())?;
    let spill = match compiled.spill_bytes(c.qpus).ok_or("spill area too large")? {
        0 => 0,
        bytes => emu
            .memory_mut()
            .alloc(bytes, 64)
            .map_err(|e| e.to_string())?,
    };
    let semaphores = match compiled.semaphore_bytes {
        0 => 0,
        bytes => emu
            .memory_mut()
            .alloc(bytes, 64)
            .map_err(|e| e.to_string())?,
    };
    let uniforms = emu
        .load_uniforms(&compiled.uniforms(c.qpus, &[inp, out, c.x], spill, semaphores))
        .map_err(|e| e.to_string())?;
    emu.dispatch(&CsdJob::per_qpu(code, uniforms, c.qpus))
        .map_err(|e| format!("emulator: {e}\n{}", compiled.disassemble()))?;
    let words = emu
        .memory()
        .read_u32s(out, out_words)
        .map_err(|e| e.to_string())?;
    Ok((words, compiled.spill_bytes_per_qpu > 0))
}

/// Runs one program on the interpreter and the emulator; returns whether it spilled.
fn check(seed: u64, version: V3dVersion, pressure: u32) -> Result<bool, String> {
    let c = case(seed, version, pressure);
    let want = interpret(&c, version)?;
    let (got, spilled) = emulate(&c, version)?;
    if got != want {
        let first = got.iter().zip(&want).position(|(g, w)| g != w).unwrap_or(0);
        return Err(format!(
            "{version:?} on {} QPUs: word {first} is {:#x}, the interpreter says {:#x}",
            c.qpus, got[first], want[first]
        ));
    }
    Ok(spilled)
}

#[test]
fn random_kernels_agree_on_interpreter_and_v3d_emulator() {
    let programs = std::env::var("QPU_V3D_DIFF_PROGRAMS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(PROGRAMS);
    let pressure = std::env::var("QPU_V3D_DIFF_PRESSURE")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
        .unwrap_or(0);
    if let Some(seed) = std::env::var("QPU_V3D_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        for version in [V3dVersion::V42, V3dVersion::V71] {
            let c = case(seed, version, pressure);
            eprintln!("{}", c.kernel);
            let spilled =
                check(seed, version, pressure).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            eprintln!("{version:?}: agrees (spilled: {spilled})");
        }
        return;
    }
    let first = std::env::var("QPU_V3D_DIFF_FIRST_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(0);
    campaign(first..first.saturating_add(programs), pressure);
}

/// Checks seeds `seeds` on both versions at `pressure`; panics naming the disagreements.
fn campaign(seeds: std::ops::Range<u64>, pressure: u32) {
    let runs = 2 * (seeds.end - seeds.start);
    eprintln!(
        "seeds {}..{} at pressure {pressure} on 4.2 and 7.1",
        seeds.start, seeds.end
    );
    let mut failures = Vec::new();
    let mut spilled = 0;
    for seed in seeds {
        for version in [V3dVersion::V42, V3dVersion::V71] {
            match check(seed, version, pressure) {
                Ok(s) => spilled += u64::from(s),
                Err(e) => failures.push(format!("seed {seed}: {e}")),
            }
        }
    }
    eprintln!("{runs} runs, {spilled} of them spilling");
    assert!(
        failures.is_empty(),
        "{} of {runs} runs disagree (rerun one with QPU_V3D_DIFF_SEED=<seed> \
         QPU_V3D_DIFF_PRESSURE={pressure}):\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .map(|f| f.lines().take(3).collect::<Vec<_>>().join("\n"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// A few programs with 80 more variables live than the campaign's: each spills on both
/// versions, and each agrees with the interpreter.
#[test]
fn random_kernels_that_spill_agree() {
    for seed in 0..6 {
        for version in [V3dVersion::V42, V3dVersion::V71] {
            let c = case(seed, version, SPILL_PRESSURE);
            let compiled = v3d::compile(&c.kernel, version).unwrap();
            assert!(
                compiled.spill_bytes_per_qpu > 0,
                "seed {seed} {version:?} does not spill"
            );
        }
    }
    campaign(0..6, SPILL_PRESSURE);
}

#[test]
fn generator_makes_varied_programs() {
    let a = case(1, V3dVersion::V42, 0).kernel.to_string();
    let b = case(2, V3dVersion::V42, 0).kernel.to_string();
    assert_ne!(a, b);
    assert_eq!(a, case(1, V3dVersion::V42, 0).kernel.to_string());
    // Some programs load while gathered values wait (a load prints as `*addr` or `load(`).
    let loads_while_waiting = (0..PROGRAMS)
        .filter(|&seed| {
            let text = case(seed, V3dVersion::V42, 0).kernel.to_string();
            let mut waiting = 0u32;
            let mut found = false;
            for line in text.lines().map(str::trim) {
                let loads = line.contains("load(") || line.contains("*(");
                found |= waiting > 0 && loads;
                if line.starts_with("gather(") {
                    waiting += 1;
                } else if line.starts_with("receive(") {
                    waiting = waiting.saturating_sub(1);
                }
            }
            found
        })
        .count();
    assert!(loads_while_waiting >= 20, "{loads_while_waiting}");
    // Some receive on one path of an `if_` a gather on one path of an earlier one filled.
    let one_path = (0..PROGRAMS)
        .filter(|&seed| {
            let text = case(seed, V3dVersion::V42, 0).kernel.to_string();
            text.contains(&format!("if any(v{FIRST_COUNTER} == 1) {{\n    receive("))
        })
        .count();
    assert!(one_path >= 50, "{one_path}");
    // Many meet special floats, inexact float operations and whole float words stored, and
    // some load outside the input array into the variable nothing reads.
    let scratch = format!(
        "v{} = ",
        Gen {
            rng: Rng(0),
            stream: false,
            pressure: 0,
            edges: 0,
        }
        .scratch()
    );
    let count = |needle: &dyn Fn(&str) -> bool| {
        (0..PROGRAMS)
            .filter(|&seed| needle(&case(seed, V3dVersion::V71, 0).kernel.to_string()))
            .count()
    };
    let specials = count(&|t| t.contains("NaN") || t.contains("inf"));
    let inexact = count(&|t| t.contains(" / ") && (t.contains("Recip(") || t.contains("Sqrt(")));
    let unused_loads = count(&|t| t.contains(&scratch));
    assert!(specials >= 50, "{specials}");
    assert!(inexact >= 50, "{inexact}");
    assert!(unused_loads >= 50, "{unused_loads}");
    // Some use semaphores, some of them inside control flow or with gathers waiting.
    let with_semaphores = (0..PROGRAMS)
        .filter(|&seed| {
            let text = case(seed, V3dVersion::V71, 0).kernel.to_string();
            text.contains("sema_inc(") && text.contains("sema_dec(")
        })
        .count();
    assert!(with_semaphores >= 50, "{with_semaphores}");
    // Many store or load through a pointer whose lanes hold consecutive words.
    let g = Gen {
        rng: Rng(0),
        stream: false,
        pressure: 0,
        edges: 0,
    };
    let (out, inp) = (
        format!("v{} ", g.cursor_out()),
        format!("v{} ", g.cursor_in()),
    );
    let through_cursors = (0..PROGRAMS)
        .filter(|&seed| {
            let text = case(seed, V3dVersion::V42, 0).kernel.to_string();
            // Beyond the two assignments that set them.
            text.matches(&out).count() + text.matches(&inp).count() > 2
        })
        .count();
    assert!(through_cursors >= 100, "{through_cursors}");
    // Some slide a window along gathered vectors (the compiler unrolls those loops).
    let window = format!("receive(v{})", g.window() + 2);
    let windows = (0..PROGRAMS)
        .filter(|&seed| {
            case(seed, V3dVersion::V42, 0)
                .kernel
                .to_string()
                .contains(&window)
        })
        .count();
    assert!(windows >= 25, "{windows}");
    // Some `while_` bodies open with a `where_` on the loop's own test.
    fn opens_with_own_where(stmts: &[Stmt]) -> bool {
        stmts.iter().any(|s| match &s.kind {
            StmtKind::While { cond, body } => {
                let (Cond::Any(test) | Cond::All(test)) = cond;
                matches!(body.first().map(|s| &s.kind),
                    Some(StmtKind::Where { cond, .. }) if cond == test)
                    || opens_with_own_where(body)
            }
            StmtKind::If {
                then, otherwise, ..
            }
            | StmtKind::Where {
                then, otherwise, ..
            } => opens_with_own_where(then) || opens_with_own_where(otherwise),
            _ => false,
        })
    }
    let own_where = (0..PROGRAMS)
        .filter(|&seed| opens_with_own_where(&case(seed, V3dVersion::V42, 0).kernel.body))
        .count();
    assert!(own_where >= 25, "{own_where}");
}

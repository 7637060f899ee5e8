//! `debug(label, value)` on every backend: before a launch, [`Kernel::run`](super::Kernel::run)
//! rewrites each debug statement into ordinary stores to two hidden arrays passed as extra
//! parameters, so the interpreter, the emulator and a Pi all record the same thing with the
//! same code; after the run the arrays are decoded into [`DebugRecord`]s.
//!
//! Layout: each QPU `q` owns [`DEBUG_RECORDS`] slots. Slot `s` holds the recorded vector at
//! `values[(q * DEBUG_RECORDS + s) * 16 ..]` and the debug statement's number at
//! `points[q * DEBUG_RECORDS + s]` (every slot starts as -1: unused). A hidden counter
//! picks the next slot; once all are used, further records are not kept.

use std::fmt;
use std::sync::Arc;

use crate::error::SourceLocation;
use crate::lang::ast::{
    BinaryOp, BoolExpr, CmpOp, Cond, ElemType, Expr, Kernel, Param, Special, Stmt, StmtKind,
    StoreKind, Type, VarDecl, VarId,
};

/// Debug records kept per QPU per run.
pub const DEBUG_RECORDS: usize = 1024;

/// One `debug` statement of a kernel.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct DebugPoint {
    label: String,
    location: SourceLocation,
    float: bool,
}

/// A kernel rewritten to record its debug statements: two extra `Ptr<Int>` parameters
/// (values, statement numbers) after the user's.
#[derive(Debug)]
pub(super) struct DebugPlan {
    pub(super) kernel: Arc<Kernel>,
    pub(super) id: u64,
    points: Vec<DebugPoint>,
}

/// The recorded lanes.
#[derive(Debug, Clone, PartialEq)]
pub enum DebugValue {
    /// An Int (or pointer) value.
    Int([i32; 16]),
    /// A Float value.
    Float([f32; 16]),
}

/// One execution of a `debug` statement.
#[derive(Debug, Clone, PartialEq)]
pub struct DebugRecord {
    /// The QPU that ran it.
    pub qpu: u32,
    /// The label passed to `debug`.
    pub label: String,
    /// Where the `debug` call is.
    pub location: SourceLocation,
    /// The 16 lanes.
    pub value: DebugValue,
}

impl fmt::Display for DebugRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "QPU {} {} {} = ", self.qpu, self.location, self.label)?;
        match &self.value {
            DebugValue::Int(lanes) => write!(f, "{lanes:?}"),
            DebugValue::Float(lanes) => write!(f, "{lanes:?}"),
        }
    }
}

fn int(v: i32) -> Expr {
    Expr::IntLit(v)
}

fn bin(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::Binary {
        op,
        lhs: Arc::new(lhs),
        rhs: Arc::new(rhs),
    }
}

/// The kernel with its debug statements turned into stores, or `None` if it has none.
pub(super) fn plan(kernel: &Kernel, id: u64) -> Option<DebugPlan> {
    let mut points = Vec::new();
    collect(&kernel.body, &mut points);
    if points.is_empty() {
        return None;
    }
    let mut rewritten = kernel.clone();
    let mut declare = |ty| {
        rewritten.vars.push(VarDecl {
            ty,
            location: kernel.location,
        });
        VarId(rewritten.vars.len() as u32 - 1)
    };
    let values = declare(Type::Ptr(ElemType::Int));
    let numbers = declare(Type::Ptr(ElemType::Int));
    let counter = declare(Type::Int);
    for var in [values, numbers] {
        rewritten.params.push(Param {
            var,
            ty: Type::Ptr(ElemType::Int),
        });
    }
    let mut next = 0;
    rewritten.body = rewrite(&kernel.body, &mut next, [values, numbers, counter]);
    Some(DebugPlan {
        kernel: Arc::new(rewritten),
        id,
        points,
    })
}

fn collect(stmts: &[Stmt], points: &mut Vec<DebugPoint>) {
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Debug { label, float, .. } => points.push(DebugPoint {
                label: label.clone(),
                location: stmt.location,
                float: *float,
            }),
            StmtKind::If {
                then, otherwise, ..
            }
            | StmtKind::Where {
                then, otherwise, ..
            } => {
                collect(then, points);
                collect(otherwise, points);
            }
            StmtKind::While { body, .. } => collect(body, points),
            _ => {}
        }
    }
}

/// `stmts` with debug statement number `next`, `next + 1`, ... (in the order [`collect`]
/// finds them) replaced by: if the counter is below the limit, store the value and the
/// number in the counter's slot and count.
fn rewrite(stmts: &[Stmt], next: &mut i32, vars: [VarId; 3]) -> Vec<Stmt> {
    let [values, numbers, counter] = vars;
    stmts
        .iter()
        .map(|stmt| {
            let kind = match &stmt.kind {
                StmtKind::Debug { value, .. } => {
                    let number = *next;
                    *next += 1;
                    // This QPU's slot: me * DEBUG_RECORDS + counter.
                    let slot = bin(
                        BinaryOp::IntAdd,
                        bin(
                            BinaryOp::Mul24,
                            Expr::Special(Special::QpuId),
                            int(DEBUG_RECORDS as i32),
                        ),
                        Expr::Var(counter),
                    );
                    let at = |base: VarId, shift: i32| {
                        bin(
                            BinaryOp::IntAdd,
                            Expr::Var(base),
                            bin(BinaryOp::Shl, slot.clone(), int(shift)),
                        )
                    };
                    let inner = |kind| Stmt {
                        kind,
                        location: stmt.location,
                    };
                    StmtKind::If {
                        cond: Cond::Any(BoolExpr::Compare {
                            op: CmpOp::Lt,
                            float: false,
                            lhs: Arc::new(Expr::Var(counter)),
                            rhs: Arc::new(int(DEBUG_RECORDS as i32)),
                        }),
                        then: vec![
                            inner(StmtKind::Store {
                                value: value.clone(),
                                addr: at(values, 6),
                                stride: 1,
                                kind: StoreKind::Blocking,
                                lanes: None,
                            }),
                            inner(StmtKind::Store {
                                value: int(number),
                                addr: at(numbers, 2),
                                stride: 1,
                                kind: StoreKind::Blocking,
                                lanes: Some(int(1)),
                            }),
                            inner(StmtKind::Assign {
                                var: counter,
                                value: bin(BinaryOp::IntAdd, Expr::Var(counter), int(1)),
                            }),
                        ],
                        otherwise: Vec::new(),
                    }
                }
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                } => StmtKind::If {
                    cond: cond.clone(),
                    then: rewrite(then, next, vars),
                    otherwise: rewrite(otherwise, next, vars),
                },
                StmtKind::While { cond, body } => StmtKind::While {
                    cond: cond.clone(),
                    body: rewrite(body, next, vars),
                },
                other => other.clone(),
            };
            Stmt {
                kind,
                location: stmt.location,
            }
        })
        .collect()
}

impl DebugPlan {
    /// Words of the two hidden arrays for `num_qpus` QPUs: (values, numbers).
    pub(super) fn sizes(num_qpus: u32) -> (usize, usize) {
        let slots = num_qpus as usize * DEBUG_RECORDS;
        (slots * 16, slots)
    }

    /// The records in the two arrays, QPU by QPU, each QPU's in the order it made them.
    pub(super) fn decode(
        &self,
        num_qpus: u32,
        values: &[i32],
        numbers: &[i32],
    ) -> Vec<DebugRecord> {
        let mut records = Vec::new();
        for qpu in 0..num_qpus {
            for slot in 0..DEBUG_RECORDS {
                let index = qpu as usize * DEBUG_RECORDS + slot;
                let Some(point) = numbers
                    .get(index)
                    .and_then(|&n| usize::try_from(n).ok())
                    .and_then(|n| self.points.get(n))
                else {
                    break;
                };
                let lanes: [i32; 16] = std::array::from_fn(|i| values[index * 16 + i]);
                records.push(DebugRecord {
                    qpu,
                    label: point.label.clone(),
                    location: point.location,
                    value: if point.float {
                        DebugValue::Float(lanes.map(|v| f32::from_bits(v as u32)))
                    } else {
                        DebugValue::Int(lanes)
                    },
                });
            }
        }
        records
    }
}

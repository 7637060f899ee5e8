//! What the V3D code generator knows about a kernel's values before it lowers them: which
//! loop computations do not change inside the loop (moved in front of it, [`hoist_invariants`]),
//! which pointer variables hold consecutive addresses in consecutive lanes
//! ([`contiguous_vars`]) and which values are multiples of 4 ([`aligned_vars`]).
//!
//! The last two let a memory access take its address as computed. A whole-vector load or
//! store uses lane 0's address plus 4 bytes per lane (the language's rule); when every lane
//! of the address already holds exactly that, the broadcast of lane 0 and the lane offsets
//! are not needed. A gather ignores the address's two low bits (the VideoCore IV TMU does, so
//! the language does; the V3D TMU uses them, so the code clears them), which an address that
//! is a multiple of 4 does not have.

use std::sync::Arc;

use crate::compiler::common::analysis::{lane_uniform, visit_assignments};
use crate::compiler::vc4::lower::window_copies;
use crate::error::SourceLocation;
use crate::lang::ast::{
    BinaryOp, BoolExpr, CmpOp, Cond, Expr, Kernel, Special, Stmt, StmtKind, Type, UnaryOp, VarDecl,
    VarId,
};

/// At most this many values are moved in front of one loop: each keeps a register for the
/// whole loop.
const MAX_HOISTED_PER_LOOP: usize = 8;

/// Moves the loop-invariant computations of every `while_` (outside any `where_`) in front of
/// it, each into a new variable assigned once: integer and float arithmetic (not loads,
/// uniform-stream reads, rotations or selections) whose inputs are literals, built-in
/// values and variables the loop never assigns. Equal computations in one loop share one
/// variable, and a computation already moved in front of an inner loop moves on in front of
/// the outer one when that loop does not change it either. Returns how many computations
/// moved.
///
/// The values are computed before the loop instead of in it: the same values, since their
/// inputs do not change and the operations read no memory and have no other effect, even
/// when the loop body never runs.
pub(super) fn hoist_invariants(kernel: &mut Kernel) -> usize {
    let mut body = std::mem::take(&mut kernel.body);
    let mut made = Vec::new();
    hoist_in(&mut body, &mut kernel.vars, &mut made);
    kernel.body = body;
    made.len()
}

fn hoist_in(stmts: &mut Vec<Stmt>, vars: &mut Vec<VarDecl>, made: &mut Vec<VarId>) {
    let mut i = 0;
    while i < stmts.len() {
        // Inner loops first, so that what they moved out can move further.
        for block in loop_holders(&mut stmts[i].kind) {
            hoist_in(block, vars, made);
        }
        let location = stmts[i].location;
        let StmtKind::While { cond, body } = &mut stmts[i].kind else {
            i += 1;
            continue;
        };
        let mut assigned = vec![false; vars.len()];
        mark_assigned(body, &mut assigned);
        // Values an inner loop moved out that this loop does not change either.
        let mut before: Vec<Stmt> = Vec::new();
        let mut k = 0;
        while k < body.len() {
            let movable = match &body[k].kind {
                StmtKind::Assign { var, value } if made.contains(var) => {
                    invariant(value, &assigned)
                }
                _ => false,
            };
            if movable {
                let stmt = body.remove(k);
                if let StmtKind::Assign { var, .. } = &stmt.kind {
                    assigned[var.0 as usize] = false;
                }
                before.push(stmt);
            } else {
                k += 1;
            }
        }
        let mut hoister = Hoister {
            assigned: &assigned,
            location,
            table: Vec::new(),
            vars,
            made,
        };
        let (Cond::Any(b) | Cond::All(b)) = cond;
        hoister.bool_expr(b);
        hoister.stmts(body);
        let table = std::mem::take(&mut hoister.table);
        for (value, var) in table {
            before.push(Stmt {
                kind: StmtKind::Assign { var, value },
                location,
            });
        }
        let moved = before.len();
        stmts.splice(i..i, before);
        i += moved + 1;
    }
}

/// The statement lists inside `kind` that may hold loops: an `if_`'s two bodies or a loop's
/// body (`where_` bodies hold only assignments and `where_`s).
fn loop_holders(kind: &mut StmtKind) -> Vec<&mut Vec<Stmt>> {
    match kind {
        StmtKind::If {
            then, otherwise, ..
        } => vec![then, otherwise],
        StmtKind::While { body, .. } => vec![body],
        _ => Vec::new(),
    }
}

/// Marks every variable `stmts` assign or receive into.
fn mark_assigned(stmts: &[Stmt], assigned: &mut [bool]) {
    visit_assignments(stmts, false, &mut |var, _, _| assigned[var as usize] = true);
}

/// [`analysis::invariant`](crate::compiler::common::analysis::invariant) for a loop assigning the
/// variables `assigned` marks.
fn invariant(e: &Expr, assigned: &[bool]) -> bool {
    crate::compiler::common::analysis::invariant(e, &|v| assigned[v as usize])
}

/// The type of a moved computation's value.
fn type_of(e: &Expr, vars: &[VarDecl]) -> Type {
    match e {
        Expr::Unary {
            op: UnaryOp::IntNot | UnaryOp::IntAbs | UnaryOp::Clz | UnaryOp::FloatToInt,
            ..
        } => Type::Int,
        Expr::Unary { .. } | Expr::FloatLit(_) => Type::Float,
        Expr::Binary {
            op:
                BinaryOp::FloatAdd
                | BinaryOp::FloatSub
                | BinaryOp::FloatMul
                | BinaryOp::FloatDiv
                | BinaryOp::FloatMin
                | BinaryOp::FloatMax,
            ..
        } => Type::Float,
        Expr::Var(v) => vars[v.0 as usize].ty,
        _ => Type::Int,
    }
}

/// Replaces a loop's invariant computations by variables.
struct Hoister<'a> {
    assigned: &'a [bool],
    /// The loop's location, given to the variables made.
    location: SourceLocation,
    /// The computations moved so far, and their variables.
    table: Vec<(Expr, VarId)>,
    vars: &'a mut Vec<VarDecl>,
    made: &'a mut Vec<VarId>,
}

impl Hoister<'_> {
    fn stmts(&mut self, stmts: &mut [Stmt]) {
        for s in stmts {
            match &mut s.kind {
                StmtKind::Assign { value, .. } => self.expr(value),
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    let (Cond::Any(b) | Cond::All(b)) = cond;
                    self.bool_expr(b);
                    self.stmts(then);
                    self.stmts(otherwise);
                }
                StmtKind::While { cond, body } => {
                    let (Cond::Any(b) | Cond::All(b)) = cond;
                    self.bool_expr(b);
                    self.stmts(body);
                }
                StmtKind::Where {
                    cond,
                    then,
                    otherwise,
                } => {
                    self.bool_expr(cond);
                    self.stmts(then);
                    self.stmts(otherwise);
                }
                StmtKind::Store {
                    value, addr, lanes, ..
                } => {
                    // The order the language evaluates them in (irrelevant for what moves,
                    // which reads no uniform stream, but kept for the table's order).
                    if let Some(n) = lanes {
                        self.expr(n);
                    }
                    self.expr(value);
                    self.expr(addr);
                }
                StmtKind::Gather { addr } | StmtKind::UniformsFrom { addr } => self.expr(addr),
                StmtKind::Debug { value, .. } => self.expr(value),
                StmtKind::Receive { .. } | StmtKind::SemaInc(_) | StmtKind::SemaDec(_) => {}
            }
        }
    }

    fn bool_expr(&mut self, b: &mut BoolExpr) {
        match b {
            BoolExpr::Compare { lhs, rhs, .. } => {
                self.arc(lhs);
                self.arc(rhs);
            }
            BoolExpr::Not(a) => self.arc_bool(a),
            BoolExpr::And(a, c) | BoolExpr::Or(a, c) => {
                self.arc_bool(a);
                self.arc_bool(c);
            }
        }
    }

    fn arc(&mut self, e: &mut Arc<Expr>) {
        let mut copy = (**e).clone();
        self.expr(&mut copy);
        if copy != **e {
            *e = Arc::new(copy);
        }
    }

    fn arc_bool(&mut self, b: &mut Arc<BoolExpr>) {
        let mut copy = (**b).clone();
        self.bool_expr(&mut copy);
        if copy != **b {
            *b = Arc::new(copy);
        }
    }

    /// Replaces the largest invariant computations in `e` by their variables.
    fn expr(&mut self, e: &mut Expr) {
        let computes = matches!(e, Expr::Unary { .. } | Expr::Binary { .. });
        if computes && invariant(e, self.assigned) {
            if let Some(var) = self.variable_for(e) {
                *e = Expr::Var(var);
                return;
            }
        }
        match e {
            Expr::Unary { arg, .. } => self.arc(arg),
            Expr::Binary { lhs, rhs, .. } => {
                self.arc(lhs);
                self.arc(rhs);
            }
            Expr::Rotate { value, amount } => {
                self.arc(value);
                self.arc(amount);
            }
            Expr::Select { cond, a, b } => {
                self.arc_bool(cond);
                self.arc(a);
                self.arc(b);
            }
            Expr::Load { addr, .. } => self.arc(addr),
            Expr::IntLit(_)
            | Expr::FloatLit(_)
            | Expr::Var(_)
            | Expr::Special(_)
            | Expr::Uniform { .. } => {}
        }
    }

    /// The variable holding `e` in front of the loop (a new one unless the loop already
    /// moved an equal computation), or `None` when the loop has moved its maximum.
    fn variable_for(&mut self, e: &Expr) -> Option<VarId> {
        if let Some((_, var)) = self.table.iter().find(|(value, _)| value == e) {
            return Some(*var);
        }
        if self.table.len() >= MAX_HOISTED_PER_LOOP {
            return None;
        }
        let var = VarId(self.vars.len() as u32);
        self.vars.push(VarDecl {
            ty: type_of(e, self.vars),
            location: self.location,
        });
        self.made.push(var);
        self.table.push((e.clone(), var));
        Some(var)
    }
}

/// Unrolls each `for_range`-shaped loop whose body slides a window of variables along
/// (HeatMap's `prev = current; current = next; receive(next)`) by the window's cycle `k`,
/// with the window's variables renamed in each copy so that its copies disappear (the
/// VideoCore IV pipeline's [`window_copies`]). The unrolled loop runs while the next `k`
/// iterations would all run, and the original loop after it runs the rest. That needs the
/// counter and the limit to be the same in every lane (`uniform`), the limit unchanged by
/// the body, and the counter advanced once per iteration, at the body's top level, by a
/// positive literal step. Returns how many loops were unrolled.
pub(super) fn unroll_windows(kernel: &mut Kernel, uniform: &[bool]) -> usize {
    let mut body = std::mem::take(&mut kernel.body);
    let unrolled = unroll_in(&mut body, uniform, kernel.vars.len());
    kernel.body = body;
    unrolled
}

fn unroll_in(stmts: &mut Vec<Stmt>, uniform: &[bool], vars: usize) -> usize {
    let mut unrolled = 0;
    let mut i = 0;
    while i < stmts.len() {
        for block in loop_holders(&mut stmts[i].kind) {
            unrolled += unroll_in(block, uniform, vars);
        }
        if let StmtKind::While { cond, body } = &stmts[i].kind {
            let location = stmts[i].location;
            if let Some(kind) = unrolled_loop(cond, body, uniform, vars, location) {
                stmts.insert(i, Stmt { kind, location });
                unrolled += 1;
                i += 1;
            }
        }
        i += 1;
    }
    unrolled
}

/// The loop running `k` window-renamed copies of `body` while `k` iterations remain, if
/// the loop `while cond { body }` has that shape (see [`unroll_windows`]).
fn unrolled_loop(
    cond: &Cond,
    body: &[Stmt],
    uniform: &[bool],
    vars: usize,
    location: SourceLocation,
) -> Option<StmtKind> {
    let Cond::Any(BoolExpr::Compare {
        op: CmpOp::Lt,
        float: false,
        lhs,
        rhs: limit,
    }) = cond
    else {
        return None;
    };
    let Expr::Var(counter) = **lhs else {
        return None;
    };
    let mut assigned = vec![false; vars];
    let mut counter_writes = 0;
    visit_assignments(body, false, &mut |var, _, _| {
        assigned[var as usize] = true;
        counter_writes += usize::from(var == counter.0);
    });
    // The advance: `counter = counter + step`, at the top level, the counter's only write.
    let step = body.iter().find_map(|s| match &s.kind {
        StmtKind::Assign {
            var,
            value:
                Expr::Binary {
                    op: BinaryOp::IntAdd,
                    lhs,
                    rhs,
                },
        } if *var == counter && **lhs == Expr::Var(counter) => Some(rhs.clone()),
        _ => None,
    })?;
    let steady = |e: &Expr| invariant(e, &assigned) && lane_uniform(e, uniform);
    if counter_writes != 1 || !uniform[counter.0 as usize] || !steady(limit) || !steady(&step) {
        return None;
    }
    // A positive literal step s, small enough that MAX - k·s is an i32.
    let Expr::IntLit(s) = *step else {
        return None;
    };
    let windowed = window_copies(body)?;
    let k = windowed.copies.len() as i64;
    let ceiling = i64::from(i32::MAX) - k * i64::from(s) + 1;
    if s <= 0 || ceiling <= 0 {
        return None;
    }
    let below = |lhs: Expr, rhs: Arc<Expr>| {
        Cond::Any(BoolExpr::Compare {
            op: CmpOp::Lt,
            float: false,
            lhs: Arc::new(lhs),
            rhs,
        })
    };
    let block = |cond: Cond, then: Vec<Stmt>| {
        vec![Stmt {
            kind: StmtKind::If {
                cond,
                then,
                otherwise: Vec::new(),
            },
            location,
        }]
    };
    // The unrolled loop tests `i + (k-1)·s < lim` alone. That is exact while `i + (k-1)·s`
    // does not wrap, which holds when it starts with `i < lim` and `lim <= MAX - k·s`: each
    // test that passes leaves `i < lim + s`, so the next `i + (k-1)·s` stays below MAX.
    let ahead = Expr::Binary {
        op: BinaryOp::IntAdd,
        lhs: Arc::new(Expr::Var(counter)),
        rhs: Arc::new(Expr::IntLit(((k - 1) * i64::from(s)) as i32)),
    };
    let unrolled = vec![Stmt {
        kind: StmtKind::While {
            cond: below(ahead, limit.clone()),
            body: windowed.copies.concat(),
        },
        location,
    }];
    let started = block(below(Expr::Var(counter), limit.clone()), unrolled);
    let [guarded] = <[Stmt; 1]>::try_from(block(
        below((**limit).clone(), Arc::new(Expr::IntLit(ceiling as i32))),
        started,
    ))
    .ok()?;
    Some(guarded.kind)
}

/// Variables whose lane `i` always holds lane 0's value plus `4 · i`: every assignment is
/// unmasked and gives such a value, and none is read before the kernel's top level first
/// assigns it (`needs_zero`). `uniform` marks the lane-uniform variables.
pub(super) fn contiguous_vars(kernel: &Kernel, uniform: &[bool], needs_zero: &[bool]) -> Vec<bool> {
    let mut list: Vec<(usize, Option<Expr>)> = Vec::new();
    visit_assignments(&kernel.body, false, &mut |var, value, masked| {
        list.push((var as usize, value.filter(|_| !masked).cloned()))
    });
    let mut contiguous: Vec<bool> = (0..kernel.vars.len())
        .map(|v| !needs_zero[v] && list.iter().any(|(w, _)| *w == v))
        .collect();
    for p in &kernel.params {
        contiguous[p.var.0 as usize] = false;
    }
    loop {
        let mut changed = false;
        for (var, value) in &list {
            if contiguous[*var]
                && !value
                    .as_ref()
                    .is_some_and(|v| is_contiguous(v, &contiguous, uniform))
            {
                contiguous[*var] = false;
                changed = true;
            }
        }
        if !changed {
            return contiguous;
        }
    }
}

/// Whether lane `i` of `e` is lane 0's value plus `4 · i`: `index() << 2`, such a variable,
/// or one of these plus or minus a lane-uniform value.
pub(super) fn is_contiguous(e: &Expr, contiguous: &[bool], uniform: &[bool]) -> bool {
    match e {
        Expr::Var(v) => contiguous[v.0 as usize],
        Expr::Binary { op, lhs, rhs } => match op {
            BinaryOp::Shl => **lhs == Expr::Special(Special::Index) && **rhs == Expr::IntLit(2),
            BinaryOp::IntAdd => {
                (is_contiguous(lhs, contiguous, uniform) && lane_uniform(rhs, uniform))
                    || (lane_uniform(lhs, uniform) && is_contiguous(rhs, contiguous, uniform))
            }
            BinaryOp::IntSub => {
                is_contiguous(lhs, contiguous, uniform) && lane_uniform(rhs, uniform)
            }
            _ => false,
        },
        _ => false,
    }
}

/// Variables that always hold multiples of 4 in every lane: pointer parameters (the bus
/// addresses of arrays, which are page-aligned) and variables every assignment of which
/// (masked or not) gives such a value; never a received one.
pub(super) fn aligned_vars(kernel: &Kernel) -> Vec<bool> {
    let mut list: Vec<(usize, Option<Expr>)> = Vec::new();
    visit_assignments(&kernel.body, false, &mut |var, value, _| {
        list.push((var as usize, value.cloned()))
    });
    let mut aligned = vec![true; kernel.vars.len()];
    for p in &kernel.params {
        aligned[p.var.0 as usize] = matches!(p.ty, Type::Ptr(_));
    }
    loop {
        let mut changed = false;
        for (var, value) in &list {
            if aligned[*var] && !value.as_ref().is_some_and(|v| is_aligned(v, &aligned)) {
                aligned[*var] = false;
                changed = true;
            }
        }
        if !changed {
            return aligned;
        }
    }
}

/// Whether every lane of `e` is a multiple of 4.
pub(super) fn is_aligned(e: &Expr, aligned: &[bool]) -> bool {
    match e {
        Expr::IntLit(n) => n % 4 == 0,
        Expr::Var(v) => aligned[v.0 as usize],
        Expr::Binary { op, lhs, rhs } => match op {
            BinaryOp::Shl => matches!(**rhs, Expr::IntLit(k) if (k & 31) >= 2),
            BinaryOp::IntAdd | BinaryOp::IntSub | BinaryOp::Or | BinaryOp::Xor => {
                is_aligned(lhs, aligned) && is_aligned(rhs, aligned)
            }
            // The low 24 bits of a multiple of 4 are a multiple of 4 too (`Mul24`).
            BinaryOp::IntMul | BinaryOp::Mul24 | BinaryOp::And => {
                is_aligned(lhs, aligned) || is_aligned(rhs, aligned)
            }
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::vars_needing_zero;
    use super::*;
    use crate::compiler::common::analysis::uniform_variables;
    use crate::lang::{
        any, for_range, gather, index, num_qpus, receive, where_, while_, Float, Int, Ptr,
    };

    fn recorded<P, R, F: crate::runtime::KernelFn<P, R>>(f: F) -> Kernel {
        crate::compile(f).expect("records").ast().clone()
    }

    /// The statements of the first `while_` in `stmts`, and how many statements precede it.
    fn first_loop(stmts: &[Stmt]) -> (usize, &[Stmt]) {
        stmts
            .iter()
            .enumerate()
            .find_map(|(i, s)| match &s.kind {
                StmtKind::While { body, .. } => Some((i, body.as_slice())),
                _ => None,
            })
            .expect("a loop")
    }

    fn reads_any(stmts: &[Stmt], pred: &dyn Fn(&Expr) -> bool) -> bool {
        let look = |e: &Expr| {
            let mut found = false;
            e.walk(&mut |e| found |= pred(e));
            found
        };
        stmts.iter().any(|s| match &s.kind {
            StmtKind::Assign { value, .. } => look(value),
            StmtKind::Store { value, addr, .. } => look(value) || look(addr),
            StmtKind::Gather { addr } => look(addr),
            StmtKind::While { body, .. } => reads_any(body, pred),
            _ => false,
        })
    }

    #[test]
    fn invariant_arithmetic_moves_in_front_of_its_loop_once() {
        let mut kernel = recorded(|p: Ptr<Int>, n: Int| {
            let inc = Int::var(num_qpus() << 4);
            let i = Int::var(0);
            while_(any(i.lt(n)), || {
                // `inc * 3` twice (one variable), `i * 2` changes, and the load stays.
                (p + i).store(inc * 3 + (p + 16).load());
                i.set(i + inc * 3 + i * 2);
            });
        });
        let (before, body) = first_loop(&kernel.body);
        let product = |e: &Expr| matches!(e, Expr::Binary { op: BinaryOp::IntMul, lhs, .. } if matches!(**lhs, Expr::Var(v) if v.0 == 2));
        assert!(reads_any(body, &product), "{body:?}");
        let vars = kernel.vars.len();
        // `inc * 3` and the load's address `p + 64` move; nothing else does.
        assert_eq!(hoist_invariants(&mut kernel), 2);
        let (at, body) = first_loop(&kernel.body);
        assert_eq!(at, before + 2);
        assert!(!reads_any(body, &product), "{body:?}");
        // The new variables hold them in front of the loop, and the loop reads them.
        for (k, stmt) in kernel.body[before..at].iter().enumerate() {
            let made = VarId((vars + k) as u32);
            let StmtKind::Assign { var, value } = &stmt.kind else {
                panic!("{stmt:?}");
            };
            assert_eq!(*var, made);
            let address = matches!(value, Expr::Binary { op: BinaryOp::IntAdd, rhs, .. } if **rhs == Expr::IntLit(64));
            assert!(if k == 0 { product(value) } else { address }, "{value:?}");
            assert!(reads_any(body, &|e| *e == Expr::Var(made)));
        }
        // `i * 2` (i changes) and the load stay in the loop.
        assert!(reads_any(body, &|e| matches!(e, Expr::Load { .. })));
        assert!(reads_any(body, &|e| matches!(
            e,
            Expr::Binary { op: BinaryOp::IntMul, lhs, .. } if matches!(**lhs, Expr::Var(v) if v.0 == 3)
        )));
    }

    #[test]
    fn what_an_inner_loop_moved_out_moves_on_when_the_outer_loop_keeps_it_too() {
        let mut kernel = recorded(|p: Ptr<Float>, n: Int, s: Float| {
            let i = Int::var(0);
            let j = Int::var(0);
            let x = Float::var(0.0);
            while_(any(i.lt(n)), || {
                j.set(0);
                while_(any(j.lt(n)), || {
                    // `s * 2.0` depends on neither loop, `i << 2` only on the outer one.
                    x.set(x + s * 2.0 + (i << 2).to_float());
                    j.set(j + 1);
                });
                i.set(i + 1);
            });
            p.store(x);
        });
        assert_eq!(hoist_invariants(&mut kernel), 2);
        let (at, outer) = first_loop(&kernel.body);
        let (inner_at, inner) = first_loop(outer);
        let scaled = |e: &Expr| {
            matches!(
                e,
                Expr::Binary {
                    op: BinaryOp::FloatMul,
                    ..
                }
            )
        };
        let shifted = |e: &Expr| {
            matches!(
                e,
                Expr::Unary {
                    op: UnaryOp::IntToFloat,
                    ..
                }
            )
        };
        // `s * 2.0` is in front of the outer loop; `(i << 2) as float` in front of the inner
        // one.
        assert!(
            matches!(&kernel.body[at - 1].kind, StmtKind::Assign { value, .. } if scaled(value))
        );
        assert!(
            matches!(&outer[inner_at - 1].kind, StmtKind::Assign { value, .. } if shifted(value))
        );
        assert!(!reads_any(inner, &scaled) && !reads_any(inner, &shifted));
    }

    #[test]
    fn consecutive_addresses_are_known_until_a_masked_write_or_a_receive() {
        let kernel = recorded(|x: Ptr<Int>, y: Ptr<Int>, n: Int| {
            let inc = Int::var(num_qpus() << 4);
            let p = Ptr::var(x + index() + (inc << 1));
            let q = Ptr::var(y + index());
            let r = Ptr::var(y + index());
            let s = Int::var(index() << 2);
            let t = Ptr::var(x + 0);
            let i = Int::var(0);
            gather(x + index());
            while_(any(i.lt(n)), || {
                p.set(p + inc);
                q.set(q + inc * 2);
                where_(i.lt(3), || r.set(r + 1));
                receive(s);
                t.set(t + index());
                i.set(i + 1);
            });
        });
        let uniform = uniform_variables(&kernel);
        let contiguous = contiguous_vars(&kernel, &uniform, &vars_needing_zero(&kernel));
        // Variables 0–2 are the parameters, then inc, p, q, r (written under a `where_`),
        // s (received into), t (`x + 0` is the same address in every lane), i.
        assert_eq!(
            contiguous,
            [false, false, false, false, true, true, false, false, false, false]
        );
    }

    #[test]
    fn multiples_of_four_come_from_pointers_shifts_and_products() {
        let kernel = recorded(|x: Ptr<Int>, n: Int| {
            let a = Int::var(n << 2);
            let _b = Int::var(n * 8 + a);
            let _c = Int::var(n * 2);
            let _d = Ptr::var(x + n);
            let e = Int::var(0);
            where_(n.lt(3), || e.set(e + 6));
            let f = Int::var(index());
            gather(x);
            receive(f);
        });
        // x, n, then a, b, c, d, e, f.
        assert_eq!(
            aligned_vars(&kernel),
            [true, false, true, true, false, true, false, false]
        );
    }

    /// HeatMap's loop shape: `prev = cur; cur = next; receive(next)` in a `for_range`.
    fn windowed(literal_step: bool, limit_changes: bool) -> Kernel {
        recorded(move |p: Ptr<Int>, q: Ptr<Int>, n: Int| {
            let a = Ptr::var(p + index());
            let (prev, cur, next) = (Int::var(0), Int::var(0), Int::var(0));
            let o = Ptr::var(q);
            let lim = Int::var(n);
            gather(a);
            let step = if literal_step {
                Int::from(16)
            } else {
                num_qpus()
            };
            for_range(0, lim, step, |_| {
                prev.set(cur);
                cur.set(next);
                receive(next);
                gather(a);
                o.store(prev + cur + next);
                o.set(o + 16);
                if limit_changes {
                    lim.set(lim - 1);
                }
            });
            receive(prev);
        })
    }

    #[test]
    fn a_sliding_window_loop_is_unrolled_by_its_cycle_in_front_of_itself() {
        let mut kernel = windowed(true, false);
        let original = kernel.clone();
        assert_eq!(
            unroll_windows(&mut kernel, &uniform_variables(&original)),
            1
        );
        let (at, _) = first_loop(&original.body);
        assert_eq!(
            kernel.body[at + 1],
            original.body[at],
            "the original loop follows"
        );
        // if any(lim < MAX - 3·16 + 1) { if any(i < lim) { while any(i + 32 < lim) {…} } }
        let StmtKind::If { cond, then, .. } = &kernel.body[at].kind else {
            panic!("{:?}", kernel.body[at]);
        };
        let Cond::Any(BoolExpr::Compare { rhs, .. }) = cond else {
            panic!("{cond:?}");
        };
        assert_eq!(**rhs, Expr::IntLit(i32::MAX - 48 + 1));
        let StmtKind::If { then, .. } = &then[0].kind else {
            panic!("{then:?}");
        };
        let StmtKind::While { cond, body } = &then[0].kind else {
            panic!("{then:?}");
        };
        let Cond::Any(BoolExpr::Compare { lhs, .. }) = cond else {
            panic!("{cond:?}");
        };
        assert!(
            matches!(&**lhs, Expr::Binary { op: BinaryOp::IntAdd, rhs, .. } if **rhs == Expr::IntLit(32)),
            "{lhs:?}"
        );
        // Three receives and stores; no copy between window variables.
        let count = |f: &dyn Fn(&StmtKind) -> bool| body.iter().filter(|s| f(&s.kind)).count();
        assert_eq!(count(&|k| matches!(k, StmtKind::Receive { .. })), 3);
        assert_eq!(count(&|k| matches!(k, StmtKind::Store { .. })), 3);
        assert_eq!(
            count(&|k| matches!(
                k,
                StmtKind::Assign {
                    value: Expr::Var(_),
                    ..
                }
            )),
            0,
            "{body:?}"
        );
    }

    #[test]
    fn a_window_loop_stays_as_it_is_without_a_literal_step_or_with_a_changing_limit() {
        for kernel in [windowed(false, false), windowed(true, true)] {
            let mut unrolled = kernel.clone();
            assert_eq!(
                unroll_windows(&mut unrolled, &uniform_variables(&kernel)),
                0
            );
            assert_eq!(unrolled, kernel);
        }
    }
}

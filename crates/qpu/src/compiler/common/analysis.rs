//! Analyses of the recorded kernel (the AST) that both generations' back ends ask, defined
//! once.

use crate::lang::ast::{Expr, Kernel, Special, Stmt, StmtKind};

/// Calls `visit(variable, value, masked)` for every assignment in `stmts` at any depth
/// (`value` is `None` for a receive; `masked` inside a `where_`).
pub(crate) fn visit_assignments(
    stmts: &[Stmt],
    masked: bool,
    visit: &mut dyn FnMut(u32, Option<&Expr>, bool),
) {
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Assign { var, value } => visit(var.0, Some(value), masked),
            StmtKind::Receive { var } => visit(var.0, None, masked),
            StmtKind::If {
                then, otherwise, ..
            } => {
                visit_assignments(then, masked, visit);
                visit_assignments(otherwise, masked, visit);
            }
            StmtKind::While { body, .. } => visit_assignments(body, masked, visit),
            StmtKind::Where {
                then, otherwise, ..
            } => {
                visit_assignments(then, true, visit);
                visit_assignments(otherwise, true, visit);
            }
            _ => {}
        }
    }
}

/// Which variables hold the same value in every lane whenever they are read: parameters and
/// variables only ever assigned lane-uniform values ([`lane_uniform`]) outside `where_`.
/// A load or store whose address is lane-uniform needs no lane-0 broadcast, and a loop
/// whose condition is lane-uniform needs no `any`.
pub(crate) fn uniform_variables(kernel: &Kernel) -> Vec<bool> {
    let mut uniform = vec![true; kernel.vars.len()];
    loop {
        let mut changed = false;
        visit_assignments(&kernel.body, false, &mut |var, value, masked| {
            let slot = var as usize;
            let keep = value.is_some_and(|e| !masked && lane_uniform(e, &uniform));
            if uniform[slot] && !keep {
                uniform[slot] = false;
                changed = true;
            }
        });
        if !changed {
            return uniform;
        }
    }
}

/// Whether `e` has the same value in every lane, given which variables do (`vars`):
/// literals, `me()`, `num_qpus()` and the other specials but `index()`, a uniform-stream
/// element (broadcast to every lane), and operations, rotations and selections of such
/// values (rotating equal lanes moves nothing; a uniform condition picks the same side in
/// every lane). Loads are not (each lane reads its own address).
pub(crate) fn lane_uniform(e: &Expr, vars: &[bool]) -> bool {
    match e {
        Expr::IntLit(_) | Expr::FloatLit(_) => true,
        Expr::Var(v) => vars[v.0 as usize],
        Expr::Special(s) => *s != Special::Index,
        Expr::Unary { arg, .. } => lane_uniform(arg, vars),
        Expr::Binary { lhs, rhs, .. } => lane_uniform(lhs, vars) && lane_uniform(rhs, vars),
        Expr::Rotate { value, amount } => lane_uniform(value, vars) && lane_uniform(amount, vars),
        Expr::Uniform { .. } => true,
        Expr::Select { cond, a, b } => {
            let mut all = true;
            cond.walk(&mut |e| all &= lane_uniform(e, vars));
            all && lane_uniform(a, vars) && lane_uniform(b, vars)
        }
        Expr::Load { .. } => false,
    }
}

/// Whether `e` has the same value in every iteration of a loop, `assigned(v)` saying which
/// variables the loop assigns: it reads none of them and no memory or uniform stream (a
/// uniform read advances the stream). Rotations and selections of invariant values are
/// invariant; `me()`, `index()` and the other specials are fixed for a run.
pub(crate) fn invariant(e: &Expr, assigned: &dyn Fn(u32) -> bool) -> bool {
    match e {
        Expr::IntLit(_) | Expr::FloatLit(_) | Expr::Special(_) => true,
        Expr::Var(v) => !assigned(v.0),
        Expr::Unary { arg, .. } => invariant(arg, assigned),
        Expr::Binary { lhs, rhs, .. } => invariant(lhs, assigned) && invariant(rhs, assigned),
        Expr::Rotate { value, amount } => invariant(value, assigned) && invariant(amount, assigned),
        Expr::Select { cond, a, b } => {
            let mut all = true;
            cond.walk(&mut |e| all &= invariant(e, assigned));
            all && invariant(a, assigned) && invariant(b, assigned)
        }
        Expr::Load { .. } | Expr::Uniform { .. } => false,
    }
}

//! Rewrites of the recorded kernel that serve every generation, applied by the driver before
//! a back end sees the kernel (the reference interpreter runs the kernel as recorded, so the
//! differential tests check each rewrite).
//!
//! **Integer division and remainder by a constant power of two** become shifts: neither
//! GPU divides, so `/` and `%` are otherwise a 32-step long division (several hundred
//! instructions per lane vector). For `c = 2^k` (k = 1..=30) and the language's division,
//! which rounds toward zero:
//!
//! * `x / c = (x + ((x >> 31) >>> (32 - k))) >> k`: the term added is `c - 1` for a negative
//!   `x` and 0 otherwise, so the arithmetic shift, which rounds down, rounds toward zero
//!   (Warren, *Hacker's Delight*, 2nd ed., section 10-1). `i32::MIN / c` is exact.
//! * `x / -c = -(x / c)`, `x / 1 = x`, `x / -1 = -x` (wrapping: `i32::MIN / -1 = i32::MIN`,
//!   as the language defines).
//! * `x % ±c = x - ((x / c) << k)` (the remainder takes `x`'s sign), `x % ±1 = 0`.
//!
//! **By any other literal** but 0 and `i32::MIN`, a multiplication by a magic number takes
//! the division's place (Granlund and Montgomery; Warren, chapter 10): see [`by_magic`].
//! `x / 7` issues 36 instructions on the VideoCore IV, 29 on V3D 4.2 and 19 on 7.1, against
//! 203, 331 and 299 for the long division (`cargo test -p qpu --test all
//! operators::division_by_other -- --nocapture`).
//!
//! `x` is evaluated more than once, so it must be small (at most [`MAX_COPIED_NODES`] nodes,
//! so the copies cost less than the division) and read no memory. A dividend that loads
//! (`p.load() / 4`) in an assignment, a store or a gather is first assigned to a new
//! variable by a statement just before (loads are not ordered among themselves, so
//! evaluating it first changes nothing); one that reads the uniform stream, whose reads are
//! ordered, or sits in a loop or branch condition, is left to the long division.
//!
//! **Window edges are selected before their rotation**: two rotations by the same amount,
//! one of them replacing the other's value in one lane (or all but one) under an `index()`
//! test, become one rotation of a vector whose lane was selected beforehand (see
//! [`select_in`]). HeatMap's edges take this shape; each back end then places the selected
//! vector where its rotation reads it (the VideoCore IV's
//! `opt::build_rotation_sources_in_place` builds it in the accumulator).

use std::sync::Arc;

use crate::lang::ast::{
    BinaryOp, BoolExpr, CmpOp, Cond, Expr, Kernel, Special, Stmt, StmtKind, Type, VarDecl, VarId,
};

/// The largest dividend (in expression nodes) the rewrite copies.
const MAX_COPIED_NODES: usize = 8;

/// `kernel` with its divisions and remainders by constant powers of two as shifts, or `None`
/// when it has none.
pub(crate) fn divisions_by_constants(kernel: &Kernel) -> Option<Kernel> {
    // Most kernels have none: look before rebuilding anything.
    let mut found = false;
    visit_exprs(&kernel.body, &mut |e| {
        e.walk(&mut |e| {
            found |= matches!(e, Expr::Binary {
                op: BinaryOp::IntDiv | BinaryOp::IntRem,
                rhs,
                ..
            } if matches!(**rhs, Expr::IntLit(c) if rewritable(c)));
        })
    });
    if !found {
        return None;
    }
    let mut changed = false;
    let mut vars = kernel.vars.clone();
    let body = stmts(&kernel.body, &mut vars, &mut changed);
    changed.then(|| Kernel {
        params: kernel.params.clone(),
        vars,
        body,
        location: kernel.location,
    })
}

/// Calls `visit` for every expression of `stmts`, at any depth (conditions' operands too).
fn visit_exprs(stmts: &[Stmt], visit: &mut dyn FnMut(&Expr)) {
    for s in stmts {
        s.own_exprs(visit);
        for body in s.bodies() {
            visit_exprs(body, visit);
        }
    }
}

fn stmts(list: &[Stmt], vars: &mut Vec<VarDecl>, changed: &mut bool) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(list.len());
    for s in list {
        let hoisted = match &s.kind {
            StmtKind::Assign { .. } | StmtKind::Store { .. } | StmtKind::Gather { .. } => {
                hoist_loaded_dividends(s, vars, &mut out)
            }
            _ => None,
        };
        let s = hoisted.as_ref().unwrap_or(s);
        out.push(Stmt {
            kind: stmt(&s.kind, vars, changed),
            location: s.location,
        });
    }
    out
}

/// `s` with each loading dividend of a division by a power of two replaced by a new
/// variable, whose assignments are pushed to `out` first; `None` if there is none.
fn hoist_loaded_dividends(s: &Stmt, vars: &mut Vec<VarDecl>, out: &mut Vec<Stmt>) -> Option<Stmt> {
    let mut any = false;
    let mut h = |e: &Expr| hoist(e, s.location, vars, out, &mut any);
    let kind = match &s.kind {
        StmtKind::Assign { var, value } => StmtKind::Assign {
            var: *var,
            value: h(value),
        },
        StmtKind::Store {
            value,
            addr,
            stride,
            lanes,
            kind,
        } => {
            // The language's order: the lane count, the value, then the address.
            let lanes = lanes.as_ref().map(&mut h);
            let value = h(value);
            StmtKind::Store {
                value,
                addr: h(addr),
                stride: *stride,
                lanes,
                kind: *kind,
            }
        }
        StmtKind::Gather { addr } => StmtKind::Gather { addr: h(addr) },
        _ => return None,
    };
    any.then_some(Stmt {
        kind,
        location: s.location,
    })
}

fn hoist(
    e: &Expr,
    location: crate::error::SourceLocation,
    vars: &mut Vec<VarDecl>,
    out: &mut Vec<Stmt>,
    any: &mut bool,
) -> Expr {
    let mut sub = |x: &Arc<Expr>| Arc::new(hoist(x, location, vars, out, any));
    match e {
        Expr::Binary {
            op: op @ (BinaryOp::IntDiv | BinaryOp::IntRem),
            lhs,
            rhs,
        } if matches!(**rhs, Expr::IntLit(c) if rewritable(c))
            && lhs.has_load()
            && !lhs.reads_uniform() =>
        {
            let value = hoist(lhs, location, vars, out, any);
            let var = VarId(vars.len() as u32);
            vars.push(VarDecl {
                ty: Type::Int,
                location,
            });
            out.push(Stmt {
                kind: StmtKind::Assign { var, value },
                location,
            });
            *any = true;
            Expr::Binary {
                op: *op,
                lhs: Arc::new(Expr::Var(var)),
                rhs: rhs.clone(),
            }
        }
        Expr::Unary { op, arg } => Expr::Unary {
            op: *op,
            arg: sub(arg),
        },
        Expr::Binary { op, lhs, rhs } => {
            let lhs = sub(lhs);
            Expr::Binary {
                op: *op,
                lhs,
                rhs: sub(rhs),
            }
        }
        Expr::Rotate { value, amount } => {
            let value = sub(value);
            Expr::Rotate {
                value,
                amount: sub(amount),
            }
        }
        Expr::Load { addr, elem, stride } => Expr::Load {
            addr: sub(addr),
            elem: *elem,
            stride: *stride,
        },
        // A select's condition is evaluated after its values; leave what it holds alone.
        other => other.clone(),
    }
}

/// Whether `c` is ±2^k with k at most 30 (module docs).
fn power_of_two(c: i32) -> bool {
    c.unsigned_abs().is_power_of_two() && c.unsigned_abs() <= 1 << 30
}

/// Whether a division or remainder by the literal `c` is rewritten: by ±2^k as shifts, by
/// any other divisor but 0 and `i32::MIN` with a magic multiplier.
fn rewritable(c: i32) -> bool {
    c != 0 && c != i32::MIN
}

/// The magic multiplier and shift for signed division by `d` (3 ≤ d < 2^31, not a power of
/// two): `M` and `s` such that `n / d = ((hi32(n × M) − (M if n < 0)) >> s) + (1 if n < 0)`
/// for every 32-bit `n`, the smallest `s` for which a 32-bit `M` exists (Warren, *Hacker's
/// Delight*, 2nd ed., section 10-4, the algorithm of its figure 10-1; Granlund and
/// Montgomery, *Division by Invariant Integers using Multiplication*, 1994).
fn magic(d: u32) -> (u32, u32) {
    const TWO31: u32 = 1 << 31;
    // The largest n with n mod d = d − 1, n < 2^31 (|n| of the "worst" dividend).
    let anc = TWO31 - 1 - TWO31 % d;
    let mut p = 31u32;
    // q1, r1 = 2^p / anc; q2, r2 = 2^p / d, kept in 32 bits as p grows.
    let (mut q1, mut r1) = (TWO31 / anc, TWO31 % anc);
    let (mut q2, mut r2) = (TWO31 / d, TWO31 % d);
    loop {
        p += 1;
        q1 = q1.wrapping_mul(2);
        r1 = r1.wrapping_mul(2);
        if r1 >= anc {
            q1 = q1.wrapping_add(1);
            r1 = r1.wrapping_sub(anc);
        }
        q2 = q2.wrapping_mul(2);
        r2 = r2.wrapping_mul(2);
        if r2 >= d {
            q2 = q2.wrapping_add(1);
            r2 = r2.wrapping_sub(d);
        }
        let delta = d - r2;
        if !(q1 < delta || (q1 == delta && r1 == 0)) {
            break;
        }
    }
    (q2.wrapping_add(1), p - 32)
}

fn stmt(kind: &StmtKind, vars: &mut Vec<VarDecl>, changed: &mut bool) -> StmtKind {
    let mut e = |x: &Expr| expr(x, changed);
    match kind {
        StmtKind::Assign { var, value } => StmtKind::Assign {
            var: *var,
            value: e(value),
        },
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => StmtKind::If {
            cond: scalar(cond, changed),
            then: stmts(then, vars, changed),
            otherwise: stmts(otherwise, vars, changed),
        },
        StmtKind::While { cond, body } => StmtKind::While {
            cond: scalar(cond, changed),
            body: stmts(body, vars, changed),
        },
        StmtKind::Where {
            cond,
            then,
            otherwise,
        } => StmtKind::Where {
            cond: boolean(cond, changed),
            then: stmts(then, vars, changed),
            otherwise: stmts(otherwise, vars, changed),
        },
        StmtKind::Store {
            value,
            addr,
            stride,
            lanes,
            kind,
        } => StmtKind::Store {
            value: e(value),
            addr: e(addr),
            stride: *stride,
            lanes: lanes.as_ref().map(&mut e),
            kind: *kind,
        },
        StmtKind::Gather { addr } => StmtKind::Gather { addr: e(addr) },
        StmtKind::UniformsFrom { addr } => StmtKind::UniformsFrom { addr: e(addr) },
        other => other.clone(),
    }
}

fn scalar(cond: &Cond, changed: &mut bool) -> Cond {
    match cond {
        Cond::Any(b) => Cond::Any(boolean(b, changed)),
        Cond::All(b) => Cond::All(boolean(b, changed)),
    }
}

fn boolean(b: &BoolExpr, changed: &mut bool) -> BoolExpr {
    b.map(&mut |e| shifts(e, changed))
}

fn expr(e: &Expr, changed: &mut bool) -> Expr {
    e.map(&mut |e| shifts(e, changed))
}

/// `e` without its division or remainder by a literal: shifts for a power of two
/// ([`by_power_of_two`]), a magic multiplication for another divisor ([`by_magic`]); else
/// as it is.
fn shifts(e: Expr, changed: &mut bool) -> Expr {
    match by_power_of_two(&e).or_else(|| by_magic(&e)) {
        Some(shifts) => {
            *changed = true;
            shifts
        }
        None => e,
    }
}

fn bin(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::Binary {
        op,
        lhs: Arc::new(lhs),
        rhs: Arc::new(rhs),
    }
}

fn nodes(e: &Expr) -> usize {
    let mut n = 0;
    e.walk(&mut |_| n += 1);
    n
}

/// The shifts for `x / c` or `x % c` with `c = ±2^k`, `k = 0..=30` (module docs).
/// `e` as (operation, dividend, divisor) if it divides or takes a remainder by a literal,
/// with a dividend small enough to copy and reading no memory (module docs).
fn literal_division(e: &Expr) -> Option<(BinaryOp, &Expr, i32)> {
    let Expr::Binary {
        op: op @ (BinaryOp::IntDiv | BinaryOp::IntRem),
        lhs,
        rhs,
    } = e
    else {
        return None;
    };
    let Expr::IntLit(c) = **rhs else {
        return None;
    };
    let x = &**lhs;
    if x.has_load() || nodes(x) > MAX_COPIED_NODES {
        return None;
    }
    Some((*op, x, c))
}

fn by_power_of_two(e: &Expr) -> Option<Expr> {
    let (op, x, c) = literal_division(e)?;
    if !power_of_two(c) {
        return None;
    }
    let magnitude = c.unsigned_abs();
    let k = magnitude.trailing_zeros() as i32;
    let negate = |v: Expr| bin(BinaryOp::IntSub, Expr::IntLit(0), v);
    // x / 2^k, rounding toward zero.
    let quotient = || {
        if k == 0 {
            return x.clone();
        }
        let sign = bin(BinaryOp::Asr, x.clone(), Expr::IntLit(31));
        let bias = bin(BinaryOp::Lsr, sign, Expr::IntLit(32 - k));
        bin(
            BinaryOp::Asr,
            bin(BinaryOp::IntAdd, x.clone(), bias),
            Expr::IntLit(k),
        )
    };
    Some(match op {
        BinaryOp::IntDiv if c > 0 => quotient(),
        BinaryOp::IntDiv => negate(quotient()),
        _ if k == 0 => Expr::IntLit(0),
        _ => bin(
            BinaryOp::IntSub,
            x.clone(),
            bin(BinaryOp::Shl, quotient(), Expr::IntLit(k)),
        ),
    })
}

/// `x / c` or `x % c` for a literal `c` that is not 0, ±2^k or `i32::MIN`, without a
/// division: with `(M, s)` = [`magic`]`(|c|)` and `hi(x)` the high 32 bits of the unsigned
/// product `x × M`,
///
/// * `q = ((hi(x) − ((x >> 31) & M)) >> s) − (x >> 31)` is `x / |c|`: subtracting `M`
///   where `x` is negative turns the unsigned high product into the signed one (Warren,
///   section 8-3), and for a negative `M` the correction the signed method adds (`+ x`)
///   cancels the one the signed product subtracts; the arithmetic shift rounds down, and
///   `− (x >> 31)` adds the 1 that makes a negative quotient round toward zero;
/// * `x / c = q` for `c > 0` and `−q` for `c < 0`; `x % c = x − q × |c|` (the sign of `x`).
///
/// Neither GPU multiplies 32 × 32 bits in one instruction, so `hi` is built from the
/// 16-bit halves of `x` (`a`, `b`) and of `M` (`m`, `l`), whose products `mul24` gives exactly
/// (each below 2^32): `t = a·l + (b·l >>> 16)`, `u = (t & 0xffff) + b·m`, `hi = a·m + (t
/// >>> 16) + (u >>> 16)` (Warren, figure 8-2), each sum below 2^32.
fn by_magic(e: &Expr) -> Option<Expr> {
    let (op, x, c) = literal_division(e)?;
    if !rewritable(c) || power_of_two(c) {
        return None;
    }
    let d = c.unsigned_abs();
    let (m, shift) = magic(d);
    let lit = |v: u32| Expr::IntLit(v as i32);
    let mul = |a: Expr, b: u32| bin(BinaryOp::Mul24, a, lit(b));
    let high = bin(BinaryOp::Lsr, x.clone(), lit(16));
    let low = bin(BinaryOp::And, x.clone(), lit(0xffff));
    let (m_high, m_low) = (m >> 16, m & 0xffff);
    let t = bin(
        BinaryOp::IntAdd,
        mul(high.clone(), m_low),
        bin(BinaryOp::Lsr, mul(low.clone(), m_low), lit(16)),
    );
    let u = bin(
        BinaryOp::IntAdd,
        bin(BinaryOp::And, t.clone(), lit(0xffff)),
        mul(low, m_high),
    );
    let hi = bin(
        BinaryOp::IntAdd,
        bin(
            BinaryOp::IntAdd,
            mul(high, m_high),
            bin(BinaryOp::Lsr, t, lit(16)),
        ),
        bin(BinaryOp::Lsr, u, lit(16)),
    );
    let sign = || bin(BinaryOp::Asr, x.clone(), lit(31));
    let signed_hi = bin(BinaryOp::IntSub, hi, bin(BinaryOp::And, sign(), lit(m)));
    let q = bin(
        BinaryOp::IntSub,
        bin(BinaryOp::Asr, signed_hi, lit(shift)),
        sign(),
    );
    Some(match op {
        BinaryOp::IntDiv if c > 0 => q,
        BinaryOp::IntDiv => bin(BinaryOp::IntSub, Expr::IntLit(0), q),
        _ => bin(
            BinaryOp::IntSub,
            x.clone(),
            bin(BinaryOp::IntMul, q, lit(d)),
        ),
    })
}

/// `kernel` with its window edges selected before their rotation (see [`select_in`]), or
/// `None` when none has that shape.
pub(crate) fn select_before_rotating(kernel: &Kernel) -> Option<Kernel> {
    // Most kernels have no two rotations in a row: look before copying anything.
    if !has_rotation_pair(&kernel.body) {
        return None;
    }
    let mut mentions = vec![0u32; kernel.vars.len()];
    count_mentions(&kernel.body, &mut mentions);
    let mut body = kernel.body.clone();
    select_in(&mut body, &kernel.vars, &mentions).then(|| Kernel {
        params: kernel.params.clone(),
        vars: kernel.vars.clone(),
        body,
        location: kernel.location,
    })
}

/// Whether `stmts`, at any depth, hold two consecutive assignments of rotations (the start
/// of the shape [`select_in`] rewrites).
fn has_rotation_pair(stmts: &[Stmt]) -> bool {
    let rotation = |s: &Stmt| {
        matches!(
            &s.kind,
            StmtKind::Assign {
                value: Expr::Rotate { .. },
                ..
            }
        )
    };
    stmts.windows(2).any(|w| rotation(&w[0]) && rotation(&w[1]))
        || stmts
            .iter()
            .any(|s| s.bodies().iter().any(|body| has_rotation_pair(body)))
}

/// Adds to `mentions` each variable's reads and writes in `stmts`, at any depth.
fn count_mentions(stmts: &[Stmt], mentions: &mut [u32]) {
    let mention = |v: VarId, mentions: &mut [u32]| {
        if let Some(m) = mentions.get_mut(v.0 as usize) {
            *m = m.saturating_add(1);
        }
    };
    for s in stmts {
        if let StmtKind::Assign { var, .. } | StmtKind::Receive { var } = &s.kind {
            mention(*var, mentions);
        }
        s.own_exprs(&mut |e| {
            e.walk(&mut |e| {
                if let Expr::Var(v) = e {
                    mention(*v, mentions);
                }
            })
        });
        for body in s.bodies() {
            count_mentions(body, mentions);
        }
    }
}

/// **Window edges selected before their rotation**: `r = rotate(a, n); t = rotate(b, n);
/// where_(index().eq(c), || r.set(t))` becomes `t = a; where_(index().eq(c - n), || t.set(b));
/// r = rotate(t, n)`, one rotation instead of two (`ne` likewise). Lane i of a rotation by n
/// is lane i − n of its source, so lane c of the result comes from `b` and every other lane
/// from `a`, as before. `t` must be mentioned nowhere else in the kernel (`mentions` counts
/// each variable's reads and writes), and the four variables distinct, `t` of `a`'s type.
/// HeatMap's window edges take this shape.
fn select_in(stmts: &mut Vec<Stmt>, vars: &[VarDecl], mentions: &[u32]) -> bool {
    let mut changed = false;
    for s in stmts.iter_mut() {
        match &mut s.kind {
            StmtKind::If {
                then, otherwise, ..
            } => {
                changed |= select_in(then, vars, mentions);
                changed |= select_in(otherwise, vars, mentions);
            }
            StmtKind::While { body, .. } => changed |= select_in(body, vars, mentions),
            _ => {}
        }
    }
    let rotation = |s: &Stmt| match &s.kind {
        StmtKind::Assign {
            var,
            value: Expr::Rotate { value, amount },
        } => match (&**value, &**amount) {
            (Expr::Var(source), Expr::IntLit(n)) if n & 15 != 0 => Some((*var, *source, n & 15)),
            _ => None,
        },
        _ => None,
    };
    let mut i = 0;
    while i + 2 < stmts.len() {
        let edge = (|| {
            let (r, a, n) = rotation(&stmts[i])?;
            let (t, b, n2) = rotation(&stmts[i + 1])?;
            let StmtKind::Where {
                cond:
                    BoolExpr::Compare {
                        op: op @ (CmpOp::Eq | CmpOp::Ne),
                        float: false,
                        lhs,
                        rhs,
                    },
                then,
                otherwise,
            } = &stmts[i + 2].kind
            else {
                return None;
            };
            let c = match (&**lhs, &**rhs) {
                (Expr::Special(Special::Index), Expr::IntLit(c))
                | (Expr::IntLit(c), Expr::Special(Special::Index)) => *c,
                _ => return None,
            };
            let copy = match then.as_slice() {
                [Stmt {
                    kind:
                        StmtKind::Assign {
                            var,
                            value: Expr::Var(from),
                        },
                    location,
                }] if *var == r && *from == t => *location,
                _ => return None,
            };
            let distinct = [r, a, t, b]
                .iter()
                .enumerate()
                .all(|(k, x)| [r, a, t, b][k + 1..].iter().all(|y| y != x));
            let (ti, ai) = (t.0 as usize, a.0 as usize);
            if n2 != n
                || !(0..16).contains(&c)
                || !otherwise.is_empty()
                || !distinct
                || vars.get(ti)?.ty != vars.get(ai)?.ty
                || mentions.get(ti) != Some(&2)
            {
                return None;
            }
            let assign = |var, value, location| Stmt {
                kind: StmtKind::Assign { var, value },
                location,
            };
            let lane = Expr::IntLit((c - n).rem_euclid(16));
            Some([
                assign(t, Expr::Var(a), stmts[i + 1].location),
                Stmt {
                    kind: StmtKind::Where {
                        cond: BoolExpr::Compare {
                            op: *op,
                            float: false,
                            lhs: Arc::new(Expr::Special(Special::Index)),
                            rhs: Arc::new(lane),
                        },
                        then: vec![assign(t, Expr::Var(b), copy)],
                        otherwise: Vec::new(),
                    },
                    location: stmts[i + 2].location,
                },
                assign(
                    r,
                    Expr::Rotate {
                        value: Arc::new(Expr::Var(t)),
                        amount: Arc::new(Expr::IntLit(n)),
                    },
                    stmts[i].location,
                ),
            ])
        })();
        match edge {
            Some(new) => {
                stmts.splice(i..i + 3, new);
                changed = true;
                i += 3;
            }
            None => i += 1,
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::ops;
    use crate::lang::ast::VarId;

    /// `e` (literals, variable 0 and binary operations) at `x`, by the interpreter's own
    /// operators.
    fn eval(e: &Expr, x: i32) -> i32 {
        fn go(e: &Expr, x: i32) -> u32 {
            match e {
                Expr::IntLit(v) => *v as u32,
                Expr::Var(_) => x as u32,
                Expr::Binary { op, lhs, rhs } => {
                    ops::binary(*op, go(lhs, x), go(rhs, x), ops::FloatUnit::Vc4)
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        go(e, x) as i32
    }

    /// The rewritten expression, evaluated by the interpreter's own operators, equals the
    /// division it replaces for every divisor ±2^k and dividends at the edges and between.
    #[test]
    fn shifts_divide_and_take_remainders_as_the_language_defines() {
        let dividends = [
            i32::MIN,
            i32::MIN + 1,
            -1_000_003,
            -65,
            -64,
            -63,
            -2,
            -1,
            0,
            1,
            2,
            63,
            64,
            65,
            1_000_003,
            i32::MAX - 1,
            i32::MAX,
        ];
        for k in 0..=30 {
            for c in [1i32 << k, -(1i32 << k)] {
                for op in [BinaryOp::IntDiv, BinaryOp::IntRem] {
                    let e = bin(op, Expr::Var(VarId(0)), Expr::IntLit(c));
                    let shifts = by_power_of_two(&e).expect("rewritten");
                    assert!(!matches!(
                        shifts,
                        Expr::Binary {
                            op: BinaryOp::IntDiv | BinaryOp::IntRem,
                            ..
                        }
                    ));
                    for x in dividends {
                        // Rust's division rounds toward zero and wraps, as the language's.
                        let want = match op {
                            BinaryOp::IntDiv => x.wrapping_div(c),
                            _ => x.wrapping_rem(c),
                        };
                        assert_eq!(eval(&shifts, x), want, "{x} {op:?} {c}");
                    }
                }
            }
        }
    }

    /// The magic multiplication, evaluated by the interpreter's own operators, equals the
    /// language's division and remainder for divisors of every size and sign (including
    /// those whose multiplier needs all 32 bits, 7 and 641 among them) on dividends at the
    /// edges and 20,000 more spread over the whole range; the multiplier is checked against
    /// published values.
    #[test]
    fn magic_multipliers_divide_and_take_remainders_as_the_language_defines() {
        // Hacker's Delight, table 10-1: d = 3 → M = 0x55555556, s = 0; 5 → 0x66666667, 1;
        // 7 → 0x92492493, 2.
        assert_eq!(magic(3), (0x5555_5556, 0));
        assert_eq!(magic(5), (0x6666_6667, 1));
        assert_eq!(magic(7), (0x9249_2493, 2));
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u32 as i32
        };
        let mut dividends = vec![i32::MIN, i32::MIN + 1, -7, -6, -1, 0, 1, 6, 7, i32::MAX];
        dividends.extend((0..20_000).map(|_| next()));
        let divisors = [
            3,
            -3,
            5,
            6,
            7,
            -7,
            10,
            11,
            12,
            13,
            25,
            100,
            125,
            641,
            1000,
            6_700_417,
            65_537,
            1 << 16 | 1,
            1_000_003,
            i32::MAX,
            i32::MAX - 1,
            -i32::MAX,
            i32::MIN + 1,
            -1000,
        ];
        for c in divisors {
            for op in [BinaryOp::IntDiv, BinaryOp::IntRem] {
                let e = bin(op, Expr::Var(VarId(0)), Expr::IntLit(c));
                let rewritten = by_magic(&e).expect("rewritten");
                rewritten.walk(&mut |e| {
                    assert!(!matches!(
                        e,
                        Expr::Binary {
                            op: BinaryOp::IntDiv | BinaryOp::IntRem,
                            ..
                        }
                    ))
                });
                for &x in &dividends {
                    let want = match op {
                        BinaryOp::IntDiv => x.wrapping_div(c),
                        _ => x.wrapping_rem(c),
                    };
                    assert_eq!(eval(&rewritten, x), want, "{x} {op:?} {c}");
                }
            }
        }
    }

    #[test]
    fn other_divisors_and_dividends_that_read_memory_stay() {
        let x = || Arc::new(Expr::Var(VarId(0)));
        for c in [0, 3, -6, 12, i32::MIN] {
            let e = Expr::Binary {
                op: BinaryOp::IntDiv,
                lhs: x(),
                rhs: Arc::new(Expr::IntLit(c)),
            };
            assert!(by_power_of_two(&e).is_none(), "{c}");
        }
        for c in [0, 4, -8, i32::MIN] {
            let e = bin(BinaryOp::IntRem, Expr::Var(VarId(0)), Expr::IntLit(c));
            assert!(by_magic(&e).is_none(), "{c}");
        }
        let load = Expr::Load {
            addr: x(),
            elem: crate::lang::ast::ElemType::Int,
            stride: 1,
        };
        let e = Expr::Binary {
            op: BinaryOp::IntDiv,
            lhs: Arc::new(load),
            rhs: Arc::new(Expr::IntLit(4)),
        };
        assert!(by_power_of_two(&e).is_none());
    }

    /// Runs `kernel` on the interpreter over 16 input words, returning the 16 words it
    /// stores (`p[16..32]`).
    fn run_edges(kernel: &Kernel, input: &[u32]) -> Vec<u32> {
        let mut words = input.to_vec();
        words.resize(32, 0);
        let mut buffers = [crate::runtime::Buffer {
            bus_address: 0x1000,
            words: crate::runtime::BufferWords::ReadWrite(&mut words),
        }];
        crate::interp::run(kernel, 1, &[0x1000], &mut buffers, &Default::default()).expect("runs");
        words[16..].to_vec()
    }

    fn rotations(stmts: &[Stmt]) -> usize {
        let mut n = 0;
        visit_exprs(stmts, &mut |e| {
            e.walk(&mut |e| n += usize::from(matches!(e, Expr::Rotate { .. })))
        });
        n
    }

    /// Window edges at every lane and rotation amount: the rewritten kernel rotates once per
    /// edge where the recorded one rotates twice, and stores what it stores.
    #[test]
    fn window_edges_are_selected_before_rotating() {
        use crate::lang::*;
        let input: Vec<u32> = (0..16).map(|i| 1000 + i * 7).collect();
        for (c, n, ne) in [(0, 1, false), (15, 15, false), (3, 5, true), (9, 2, false)] {
            let kernel = crate::runtime::compile(move |p: Ptr<Int>| {
                let a = Int::var(p.load());
                let b = Int::var(a * 3 + 1);
                let r = Int::var(rotate(a, n));
                let t = Int::var(rotate(b, n));
                let lane = if ne { index().ne(c) } else { index().eq(c) };
                where_(lane, || r.set(t));
                (p + 16).store(r);
            })
            .expect("records");
            let recorded = kernel.ast();
            let rewritten = select_before_rotating(recorded).expect("an edge");
            assert_eq!(rotations(&recorded.body), 2);
            assert_eq!(rotations(&rewritten.body), 1, "lane {c}, by {n}");
            let expected: Vec<u32> = (0..16)
                .map(|i| {
                    let source = (i + 16 - n as usize) % 16;
                    let a = input[source];
                    let b = a.wrapping_mul(3).wrapping_add(1);
                    if (i == c as usize) != ne {
                        b
                    } else {
                        a
                    }
                })
                .collect();
            assert_eq!(run_edges(recorded, &input), expected);
            assert_eq!(run_edges(&rewritten, &input), expected, "lane {c}, by {n}");
        }
        // `t` read again afterwards: left alone.
        let kernel = crate::runtime::compile(|p: Ptr<Int>| {
            let a = Int::var(p.load());
            let r = Int::var(rotate(a, 1));
            let t = Int::var(rotate(a + 1, 1));
            where_(index().eq(0), || r.set(t));
            (p + 16).store(r + t);
        })
        .expect("records");
        assert!(select_before_rotating(kernel.ast()).is_none());
    }
}

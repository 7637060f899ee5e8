//! The lane-number test of a window edge, for the random-program generators.

use std::sync::Arc;

use qpu::lang::ast::{BoolExpr, CmpOp, Expr, Special};

/// `index() == lane`, or `index() != lane` when `equal` is false.
pub fn lane_test(lane: i32, equal: bool) -> BoolExpr {
    BoolExpr::Compare {
        op: if equal { CmpOp::Eq } else { CmpOp::Ne },
        float: false,
        lhs: Arc::new(Expr::Special(Special::Index)),
        rhs: Arc::new(Expr::IntLit(lane)),
    }
}

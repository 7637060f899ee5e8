//! The code generator's methods ([`super::Gen`]), split by concern.

mod control;
mod emit;
mod expr;
mod finish;
mod memory;

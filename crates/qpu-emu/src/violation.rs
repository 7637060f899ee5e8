//! A broken rule found by a static validator, for either generation.

use std::fmt;

use crate::vc4::Rule;

/// A rule broken at one instruction: a VideoCore IV [`Rule`], or with `R` a
/// [`crate::v3d::V3dRule`] ([`crate::v3d::V3dViolation`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Violation<R = Rule> {
    /// The instruction's index in the program.
    pub index: usize,
    /// The instruction, disassembled.
    pub instruction: String,
    /// The rule.
    pub rule: R,
}

/// A hazard or placement rule that names the source it comes from.
pub trait CitedRule: fmt::Display {
    /// The source, as messages print it.
    fn citation(&self) -> String;
}

impl CitedRule for Rule {
    fn citation(&self) -> String {
        self.source().to_string()
    }
}

impl<R: CitedRule> fmt::Display for Violation<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instruction {} `{}`: {} [{}]",
            self.index,
            self.instruction,
            self.rule,
            self.rule.citation()
        )
    }
}

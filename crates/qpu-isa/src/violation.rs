//! A broken rule found by a static validator, for either generation, and the wording of
//! messages both generations' rules share.

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

/// The message of an undefined value used, on either generation: `what` used it in `lanes`,
/// and `origin` says where it was made.
pub fn undefined_value_used(
    f: &mut fmt::Formatter<'_>,
    what: &str,
    lanes: u16,
    origin: &str,
) -> fmt::Result {
    write!(
        f,
        "{what} is undefined in lane(s) {}; the undefined value was made {}",
        lane_list(lanes),
        if origin.is_empty() {
            "earlier in this program"
        } else {
            origin
        }
    )
}

/// The lanes of a 16-lane mask as a list for messages: "0, 3, 7".
pub fn lane_list(lanes: u16) -> String {
    let list: Vec<String> = (0..16)
        .filter(|i| lanes & (1 << i) != 0)
        .map(|i: u32| i.to_string())
        .collect();
    list.join(", ")
}

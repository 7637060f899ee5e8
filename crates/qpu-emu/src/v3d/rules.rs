//! The faults a V3D run can stop with. The hazard and placement rules among them are
//! qpu-isa's ([`V3dRule`]), shared with the static validator.

use std::fmt;

use qpu_isa::v3d::DecodeError;

use crate::memory::MemoryError;

/// Distances, in instructions, behind the rules: one definition, in qpu-isa, that the
/// compiler schedules by too.
pub use qpu_isa::v3d::latency;
/// The rules themselves live in qpu-isa, beside the static validator that reports them.
pub use qpu_isa::v3d::rules::V3dRule;

/// The kind of a TMU request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmuAccess {
    /// A general lookup (a load).
    Load,
    /// A write of `tmud` data.
    Store,
    /// An atomic read-modify-write.
    Atomic,
}

impl fmt::Display for TmuAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TmuAccess::Load => "load",
            TmuAccess::Store => "store",
            TmuAccess::Atomic => "atomic",
        })
    }
}

/// What stopped a V3D thread.
#[derive(Clone, Debug, PartialEq)]
pub enum V3dFault {
    /// A hazard or placement rule was broken.
    Rule(V3dRule),
    /// Memory rejected an access (uniform stream, instruction fetch).
    Memory(MemoryError),
    /// Memory rejected a lane's TMU access (a lane's address outside every buffer, or a
    /// write into words lent read-only). Lanes before it completed their access.
    Tmu {
        /// What the request was.
        access: TmuAccess,
        /// The lane whose access failed (the lowest active one that did).
        lane: u8,
        /// Why memory rejected it.
        source: MemoryError,
    },
    /// The word at the PC is not an instruction of this version.
    Decode(DecodeError),
    /// The PC left the program: no instruction there.
    PastCode(MemoryError),
    /// Something the program relies on that the emulator does not model (graphics-only
    /// signals and registers, atomics, ops whose meaning no source gives).
    Unsupported(String),
}

impl fmt::Display for V3dFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            V3dFault::Rule(rule) => write!(f, "{rule} [{}]", rule.source()),
            V3dFault::Memory(e) => write!(f, "memory access failed: {e}"),
            V3dFault::Tmu {
                access,
                lane,
                source,
            } => write!(f, "TMU {access} in lane {lane} failed: {source}"),
            V3dFault::Decode(e) => write!(f, "not an instruction: {e}"),
            V3dFault::PastCode(e) => write!(
                f,
                "no instruction here ({e}): execution left the program; a program ends at the \
                 thrsw after its last-thread-switch pair (two thrsw in a row), or at its first \
                 thrsw in single-segment mode, plus two delay slots"
            ),
            V3dFault::Unsupported(what) => write!(f, "not modelled: {what}"),
        }
    }
}

impl From<V3dRule> for V3dFault {
    fn from(rule: V3dRule) -> V3dFault {
        V3dFault::Rule(rule)
    }
}

impl From<MemoryError> for V3dFault {
    fn from(e: MemoryError) -> V3dFault {
        V3dFault::Memory(e)
    }
}

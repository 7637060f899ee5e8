//! What the back ends share: the AST analyses both ask ([`analysis`]), the target seam and
//! its latency facts ([`target`]), and the block liveness both register allocators build
//! on ([`liveness`]).

pub(crate) mod analysis;
pub(crate) mod liveness;
pub(crate) mod target;

//! What the back ends share: the AST analyses both ask ([`analysis`]), the target seam and
//! its latency facts ([`target`]), and the block liveness both register allocators build
//! on ([`liveness`]), and the rewrites of the kernel the driver applies before either back end
//! sees it ([`rewrite`]).

pub(crate) mod analysis;
pub(crate) mod interference;
pub(crate) mod liveness;
pub(crate) mod rewrite;
pub(crate) mod target;

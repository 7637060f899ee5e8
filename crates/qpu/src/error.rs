//! The crate's one error type, and the source locations errors point at.

use std::fmt;
use std::panic::Location;

/// A place in the user's Rust source: where a kernel statement or expression was written.
///
/// Captured with `#[track_caller]`, so it names the user's line, not this library's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SourceLocation {
    /// File path as rustc reports it (relative to the workspace or crate root).
    pub file: &'static str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl SourceLocation {
    /// The location of the caller of the current `#[track_caller]` function.
    #[track_caller]
    pub fn caller() -> Self {
        Self::from(Location::caller())
    }
}

impl From<&'static Location<'static>> for SourceLocation {
    fn from(location: &'static Location<'static>) -> Self {
        SourceLocation {
            file: location.file(),
            line: location.line(),
            column: location.column(),
        }
    }
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// What went wrong while recording a kernel (see [`BuildError`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BuildErrorKind {
    /// A value handle made by another kernel build (or outside any build) was used.
    #[error(
        "this value belongs to a different kernel (or was made outside `compile`); \
         kernel values cannot be carried from one kernel build to another"
    )]
    ForeignValue,
    /// A language operation was used while no kernel was being built.
    #[error("kernel operations can only be used inside a function passed to `compile`")]
    NoKernel,
    /// `set`, `+=` and friends need a variable, not an expression.
    #[error(
        "cannot assign to an expression; declare a variable first \
         (e.g. `let x = Int::var(expr);`) and assign to that"
    )]
    AssignToExpression,
    /// `receive` needs a variable to receive into.
    #[error("`receive` needs a variable to write into, not an expression")]
    ReceiveIntoExpression,
    /// Loads, stores, gathers, receives and semaphores are whole-vector operations.
    #[error(
        "{what} is not allowed inside `where_`: memory and semaphore operations act on all 16 \
         lanes at once and cannot be masked per lane; do it before the `where_` (load into a \
         variable) or after it (select the value to store with `where_`, then store)"
    )]
    MemoryInWhere {
        /// The offending operation, e.g. "a load".
        what: &'static str,
    },
    /// `if_`, `while_`, `for_` are branches; inside `where_` only masked assignments exist.
    #[error(
        "{what} is not allowed inside `where_`: a `where_` body may only assign variables and \
         nest further `where_`s (branch outside it, or use a nested `where_`)"
    )]
    ControlInWhere {
        /// The offending statement, e.g. "`while_`".
        what: &'static str,
    },
    /// `Int::var` inside `where_` would leave the lanes outside the mask undefined.
    #[error(
        "declaring a variable inside `where_` is not allowed: lanes outside the mask would be \
         left undefined; declare it before the `where_` and assign it inside"
    )]
    DeclareInWhere,
    /// `.else_()` must directly follow the `if_`/`where_` it belongs to.
    #[error(
        "`else_` must directly follow the `if_`/`where_` it belongs to, with no statement recorded \
         in between, and can be given only once"
    )]
    MisplacedElse,
    /// Static FIFO analysis: more gathers in flight than the TMU FIFO holds.
    #[error(
        "too many outstanding gathers: at least {outstanding} would be in flight but the TMU FIFO \
         holds {limit} per QPU; `receive` one before gathering again"
    )]
    TooManyGathers {
        /// Lower bound on the number of outstanding gathers at this point.
        outstanding: u32,
        /// The hardware limit.
        limit: u32,
    },
    /// Static FIFO analysis: a receive that can never have a gather to pair with.
    #[error("`receive` with no outstanding `gather` to receive from")]
    ReceiveWithoutGather,
    /// A uniform-stream read that may run before any `UniformStream::at` pointed the
    /// stream at memory (it would read the launch's own uniforms).
    #[error(
        "this reads the uniform stream, but on some path no `UniformStream::at(p)` has pointed \
         it at memory yet"
    )]
    UniformReadBeforeStream,
    /// Static FIFO analysis: the kernel ends with gathers that were never received.
    #[error(
        "the kernel can end with {outstanding} gather(s) never received; receive (and discard) \
         every gathered vector before the kernel ends"
    )]
    UnreceivedGathers {
        /// Lower bound on the number of gathers still outstanding at kernel end.
        outstanding: u32,
    },
    /// Semaphore numbers are 0..=14 (15 is reserved for the runtime).
    #[error("semaphore {0} is out of range: kernels may use semaphores 0..=14 (15 is reserved)")]
    SemaphoreOutOfRange(u32),
    /// DMA strides are limited by the setup words' field widths.
    #[error("stride {0} is out of range: strided loads/stores take 1..=2047 elements")]
    StrideOutOfRange(u32),
}

/// One mistake found while recording a kernel, with the user's source location.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct BuildError {
    /// What went wrong.
    pub kind: BuildErrorKind,
    /// Where in the user's source it went wrong.
    pub location: SourceLocation,
}

/// Every mistake found while recording one kernel (at least one).
#[derive(Debug, Clone, PartialEq)]
pub struct BuildErrors(pub Vec<BuildError>);

impl BuildErrors {
    /// The first error, which is usually the one to fix first.
    pub fn first(&self) -> Option<&BuildError> {
        self.0.first()
    }
}

impl fmt::Display for BuildErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kernel build failed with {} error(s)", self.0.len())?;
        for error in &self.0 {
            write!(f, "\n  {error}")?;
        }
        Ok(())
    }
}

/// What went wrong while a kernel ran (reported by a backend).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunErrorKind {
    /// A store outside the arrays passed to the kernel (loads and gathers there read an
    /// undefined value instead: see [`RunErrorKind::UndefinedValueUsed`]).
    #[error(
        "{access} of lane {lane} at address {address:#010x}: {}",
        place.map_or_else(
            || "outside every array passed to the kernel".to_string(),
            |p| p.to_string()
        )
    )]
    OutOfBounds {
        /// "store", "load", "gather", "atomic" (a V3D semaphore) or "uniform read".
        access: &'static str,
        /// The first lane whose address is outside.
        lane: u8,
        /// Its byte address.
        address: u32,
        /// Where that is relative to the nearest array, if the kernel was given any.
        place: Option<ArrayPlace>,
    },
    /// A value the kernel read from outside its arrays (or otherwise undefined) was used:
    /// stored, used as an address, or used to decide an `if_`/`while_`.
    #[error(
        "{what} is undefined in lane(s) {}: {how}{}",
        lane_list(*lanes),
        made_at.map(|l| format!(" (at {l})")).unwrap_or_default()
    )]
    UndefinedValueUsed {
        /// What used it ("the value stored", "the gather address", ...).
        what: &'static str,
        /// The undefined lanes (bit i = lane i).
        lanes: u16,
        /// How the undefined value was made.
        how: String,
        /// The kernel statement that made it, when known.
        made_at: Option<SourceLocation>,
    },
    /// The compiled code did something the emulator's hardware rules reject (a compiler bug
    /// unless the kernel does something the language leaves to the hardware).
    #[error("the emulator stopped the compiled code: {0}")]
    Machine(String),
    /// A store into an array the host passed by shared reference.
    #[error(
        "store to address {address:#010x} hits a shared array passed as `&SharedArray`; \
         pass it as `&mut SharedArray` to let the kernel write it"
    )]
    ReadOnly {
        /// The faulting byte address.
        address: u32,
    },
    /// DMA loads/stores need word-aligned addresses.
    #[error("{access} address {address:#010x} is not a multiple of 4")]
    Unaligned {
        /// "load" or "store".
        access: &'static str,
        /// The faulting byte address.
        address: u32,
    },
    /// A fifth gather while four are outstanding.
    #[error("gather with {limit} gathers already outstanding (the TMU FIFO holds {limit})")]
    GatherOverflow {
        /// The FIFO depth.
        limit: u32,
    },
    /// A receive with an empty FIFO.
    #[error("receive with no outstanding gather")]
    ReceiveEmpty,
    /// A QPU finished with gathered vectors never received.
    #[error("the kernel ended with {0} gathered vector(s) never received")]
    UnreceivedAtEnd(usize),
    /// Every running QPU is waiting on a semaphore.
    #[error("deadlock: every running QPU is blocked on a semaphore")]
    Deadlock,
    /// A hand-built AST put something other than assignments and `Where`s in a `Where` body.
    #[error("the kernel AST has a statement other than an assignment or `Where` inside a `Where`")]
    BranchInWhere,
    /// The run exceeded the backend's step budget.
    #[error(
        "the kernel did not finish within {limit} {unit}; if it is expected to run this long, \
         raise the budget with `Kernel::set_step_limit` or `Device::with_step_limit`, otherwise \
         it likely never ends",
        unit = if *instructions { "instructions" } else { "steps" }
    )]
    StepLimit {
        /// The budget.
        limit: u64,
        /// Whether it counts machine instructions (else interpreter statements).
        instructions: bool,
    },
}

/// "0, 3, 7" (or "12..15") for a lane mask.
pub(crate) fn lane_list(lanes: u16) -> String {
    let list: Vec<u32> = (0..16).filter(|i| lanes & (1 << i) != 0).collect();
    match (list.first(), list.last()) {
        (Some(&a), Some(&b)) if list.len() > 2 && b - a + 1 == list.len() as u32 => {
            format!("{a}..{b}")
        }
        _ => list
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Where an address falls relative to the nearest array passed to a kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArrayPlace {
    /// The argument (0-based parameter position) the array was passed as.
    pub argument: usize,
    /// The element index the address points at (negative: before the array's start).
    pub element: i64,
    /// The array's length in elements.
    pub len: usize,
}

impl fmt::Display for ArrayPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let len = self.len;
        write!(f, "element {} of argument {} ", self.element, self.argument)?;
        if self.element < 0 {
            write!(f, "(before the start of its {len} elements)")
        } else if self.element as u64 >= len as u64 {
            let past = self.element as u64 - len as u64;
            write!(f, "({past} past the end of its {len} elements)")
        } else {
            write!(f, "(of {len} elements)")
        }
    }
}

impl ArrayPlace {
    /// Where `address` is relative to the nearest of `arrays` (argument, bus address, length
    /// in elements): the last array starting at or below it, else the first above it.
    pub fn find(arrays: &[(usize, u32, usize)], address: u32) -> Option<ArrayPlace> {
        let below = arrays.iter().filter(|a| a.1 <= address).max_by_key(|a| a.1);
        let nearest = below.or_else(|| arrays.iter().min_by_key(|a| a.1))?;
        let element = (i64::from(address) - i64::from(nearest.1)).div_euclid(4);
        Some(ArrayPlace {
            argument: nearest.0,
            element,
            len: nearest.2,
        })
    }
}

/// A failure while running a kernel: what, on which QPU, at which kernel statement.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("QPU {qpu}{}: {kind}", location.map(|l| format!(" at {l}")).unwrap_or_default())]
pub struct RunError {
    /// What went wrong.
    pub kind: RunErrorKind,
    /// The QPU (0-based) that hit it.
    pub qpu: u32,
    /// The kernel statement being executed, when known.
    pub location: Option<SourceLocation>,
}

/// Everything that can go wrong in this crate.
#[derive(Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The kernel function recorded an invalid kernel.
    #[error("{0}")]
    Build(BuildErrors),
    /// `set_num_qpus` outside 1..=16.
    #[error("invalid number of QPUs {0}: use 1..=16 (a Pi 5 has 16, a Pi 1-3 12, a Pi 4 8)")]
    NumQpus(u32),
    /// A run asked for more QPUs than the backend's GPU has.
    #[error("{requested} QPUs requested; this {gpu} has {max} (use 1..={max})")]
    TooManyQpus {
        /// The kernel's QPU count.
        requested: u32,
        /// The GPU, by name.
        gpu: &'static str,
        /// Its QPUs.
        max: u32,
    },
    /// Shared memory could not be allocated.
    #[error("cannot allocate {words} words of shared memory: {reason}")]
    Alloc {
        /// Requested size in 32-bit words.
        words: usize,
        /// Why not.
        reason: String,
    },
    /// A shared array from another device was passed to a kernel run.
    #[error(
        "argument {index} is a shared array allocated on another device; allocate it on the \
         device that runs the kernel"
    )]
    WrongDevice {
        /// 0-based parameter position.
        index: usize,
    },
    /// The same memory was passed twice where one of the uses may be written.
    #[error("arguments {first} and {second} share memory")]
    OverlappingArguments {
        /// 0-based parameter position.
        first: usize,
        /// 0-based parameter position.
        second: usize,
    },
    /// The dynamic launch path got arguments that do not fit the kernel's parameters.
    #[error("argument mismatch: {0}")]
    Arguments(String),
    /// The kernel failed while running.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A backend-specific failure (compilation for the target, device I/O, ...).
    #[error("{backend}: {message}")]
    Backend {
        /// The backend's name.
        backend: String,
        /// What went wrong.
        message: String,
    },
}

impl From<BuildErrors> for Error {
    fn from(errors: BuildErrors) -> Self {
        Error::Build(errors)
    }
}

/// This crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `Debug` prints the message: a `main` that returns `qpu::Result` then shows
/// `Error: pi: no Raspberry Pi GPU found: ...` rather than the enum's fields.
impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

//! The kernel API: compile a kernel function, allocate shared arrays on a device, run.
//!
//! ```
//! use qpu::lang::*;
//! use qpu::{compile, Device};
//!
//! fn double(p: Ptr<Int>) {
//!     p.store(p.load() * 2);
//! }
//!
//! let device = Device::interpreter();
//! let mut data = device.alloc_from(&[1i32, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])?;
//! let kernel = compile(double)?;
//! kernel.run(&device, &mut data)?;
//! assert_eq!(data[15], 32);
//! # Ok::<(), qpu::Error>(())
//! ```
//!
//! # Backends
//!
//! A [`Device`] wraps one [`Backend`]: the [`Interpreter`], the [`Emulator`] or the
//! Raspberry Pi ([`Pi`]); [`Device::auto`] picks one (see [`select`]). A backend owns two
//! jobs:
//!
//! 1. **Shared memory** ([`Backend::alloc`]): words that both the host and the QPUs can see,
//!    each allocation with a 32-bit bus address (what kernels receive as pointers) and host
//!    access as a slice ([`SharedMemory`]). On the Pi that is mailbox-allocated GPU memory
//!    mapped into the process; on the interpreter and emulator it is ordinary host memory,
//!    which the emulator lends its emulated machine for each run, so on no backend does a
//!    run copy an array in or out.
//! 2. **Running** ([`Backend::run`]): given a [`Launch`] — the kernel AST and a stable id to
//!    cache its compiled form under, the QPU count, the argument words in parameter order, and
//!    the argument arrays as [`Buffer`]s (with their bus addresses and whether the kernel may
//!    write them) — run the kernel on that many QPUs and return a [`RunReport`]. A
//!    machine-code backend compiles `launch.kernel` (once per `kernel_id`), builds each QPU's
//!    uniform stream and launches, the QPUs working on the buffers in place.

mod debug;
mod emulator;
mod gpu_array;
mod host;
mod interpreter;
mod pi;
mod profile;
pub mod select;
mod staging;
mod v3d_emulator;
mod v3d_pi;

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub use debug::{DebugRecord, DebugValue, DEBUG_RECORDS};
pub use emulator::Emulator;
pub use interpreter::Interpreter;
pub use pi::Pi;
pub use profile::{
    Lookup, QpuTimeline, Stall, ThreadClocks, ThreadLane, ThreadSpan, Timeline, UnitTimeline,
};
pub use v3d_emulator::V3dEmulatorBackend;
pub use v3d_pi::V3dPi;

use crate::error::{Error, Result, SourceLocation};
use crate::lang::ast;
use crate::lang::builder::{with_builder, BuildGuard, Handle};
use crate::lang::{Float, Int, Param, Ptr, Scalar};

/// The most QPUs a kernel can be set to run on: a Pi 5's 16. Each backend refuses more than
/// its GPU has ([`Error::TooManyQpus`]): [`VC4_QPUS`] on a Pi 1-3, 8 on a Pi 4 (V3D 4.2), 16
/// on a Pi 5 (V3D 7.1, as its kernel reports).
pub const MAX_QPUS: u32 = qpu_isa::v3d::V3dVersion::V71.qpus();

/// The VideoCore IV's QPUs (Pi 1-3, Zero).
pub const VC4_QPUS: u32 = qpu_isa::vc4::QPUS;

mod sealed {
    pub trait Sealed {}
    impl Sealed for i32 {}
    impl Sealed for u32 {}
    impl Sealed for f32 {}
}

/// Host element types of shared arrays: `i32`, `u32` (both seen by kernels as [`Int`]) and
/// `f32` (seen as [`Float`]).
pub trait Element: bytemuck::Pod + sealed::Sealed + std::fmt::Debug {
    /// The kernel-side element type.
    type Scalar: Scalar;
}

impl Element for i32 {
    type Scalar = Int;
}
impl Element for u32 {
    type Scalar = Int;
}
impl Element for f32 {
    type Scalar = Float;
}

/// One allocation of shared memory, as a backend provides it.
pub trait SharedMemory: Send {
    /// The address the QPUs see for word 0.
    fn bus_address(&self) -> u32;
    /// The host's view of the words.
    fn words(&self) -> &[u32];
    /// The host's mutable view of the words.
    fn words_mut(&mut self) -> &mut [u32];
    /// Copies `src` into the words from word 0. Backends whose memory is device memory (the
    /// Pi's uncached mapping, where a `memcpy`'s wide or unaligned accesses may fault)
    /// override this to store one aligned word at a time.
    fn write_words(&mut self, src: &[u32]) {
        self.words_mut()[..src.len()].copy_from_slice(src);
    }
    /// Copies the words from word 0 into `dst`, as for [`SharedMemory::write_words`].
    fn read_words(&self, dst: &mut [u32]) {
        dst.copy_from_slice(&self.words()[..dst.len()]);
    }
}

/// An array in memory shared by the host and the QPUs, usable on the host as a slice.
///
/// Pass `&array` to a kernel to let it read the array, `&mut array` to let it also write.
pub struct SharedArray<T: Element> {
    memory: Box<dyn SharedMemory>,
    device: u64,
    elem: PhantomData<T>,
}

impl<T: Element> SharedArray<T> {
    /// The bus address of element 0, as kernels see it.
    pub fn bus_address(&self) -> u32 {
        self.memory.bus_address()
    }

    /// Copies `src` into the array (`src.len()` must equal the array's length). Unlike the
    /// slice method it shadows, this copies word by word on backends whose memory needs it
    /// (the Pi), so prefer it for bulk copies.
    ///
    /// # Panics
    /// If the lengths differ, as `<[T]>::copy_from_slice` does.
    pub fn copy_from_slice(&mut self, src: &[T]) {
        assert_eq!(
            self.len(),
            src.len(),
            "SharedArray::copy_from_slice: lengths differ"
        );
        self.memory.write_words(bytemuck::cast_slice(src));
    }

    /// Copies the array into a new `Vec` (word by word where the backend needs it; see
    /// [`SharedArray::copy_from_slice`]).
    pub fn to_vec(&self) -> Vec<T> {
        let mut words = vec![0u32; self.len()];
        self.memory.read_words(&mut words);
        words.into_iter().map(bytemuck::cast).collect()
    }

    /// Sets every element to `value`.
    pub fn fill(&mut self, value: T) {
        let word: u32 = bytemuck::cast(value);
        self.memory.write_words(&vec![word; self.len()]);
    }

    fn buffer(&self) -> Buffer<'_> {
        Buffer {
            bus_address: self.memory.bus_address(),
            words: BufferWords::ReadOnly(self.memory.words()),
        }
    }

    fn buffer_mut(&mut self) -> Buffer<'_> {
        Buffer {
            bus_address: self.memory.bus_address(),
            words: BufferWords::ReadWrite(self.memory.words_mut()),
        }
    }
}

impl<T: Element> Deref for SharedArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        bytemuck::cast_slice(self.memory.words())
    }
}

impl<T: Element> DerefMut for SharedArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        bytemuck::cast_slice_mut(self.memory.words_mut())
    }
}

impl<T: Element> std::fmt::Debug for SharedArray<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedArray")
            .field("bus_address", &format_args!("{:#010x}", self.bus_address()))
            .field("data", &&**self)
            .finish()
    }
}

/// A kernel argument array as a backend sees it during one run.
#[derive(Debug)]
pub struct Buffer<'a> {
    /// Bus address of word 0.
    pub bus_address: u32,
    /// The words, and whether the kernel may write them.
    pub words: BufferWords<'a>,
}

/// The words of a [`Buffer`].
#[derive(Debug)]
pub enum BufferWords<'a> {
    /// Passed as `&SharedArray`: the kernel must not write it.
    ReadOnly(&'a [u32]),
    /// Passed as `&mut SharedArray`.
    ReadWrite(&'a mut [u32]),
}

impl Buffer<'_> {
    /// Length in words.
    pub fn len(&self) -> usize {
        match &self.words {
            BufferWords::ReadOnly(w) => w.len(),
            BufferWords::ReadWrite(w) => w.len(),
        }
    }

    /// Whether the buffer has no words.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Word `index` (which must be `< len()`; out of range reads as 0).
    pub fn word(&self, index: usize) -> u32 {
        let words: &[u32] = match &self.words {
            BufferWords::ReadOnly(w) => w,
            BufferWords::ReadWrite(w) => w,
        };
        words.get(index).copied().unwrap_or(0)
    }

    /// Write word `index`; `Err` if the buffer is read-only or `index` out of range.
    #[allow(clippy::result_unit_err)]
    pub fn set_word(&mut self, index: usize, value: u32) -> std::result::Result<(), ()> {
        match &mut self.words {
            BufferWords::ReadWrite(w) => w.get_mut(index).map(|slot| *slot = value).ok_or(()),
            BufferWords::ReadOnly(_) => Err(()),
        }
    }
}

/// Everything a backend needs to run a kernel once.
#[derive(Debug)]
pub struct Launch<'a> {
    /// The kernel.
    pub kernel: &'a ast::Kernel,
    /// Identifies `kernel` for the lifetime of the process: compile once per id.
    pub kernel_id: u64,
    /// How many QPUs run it (1..=16).
    pub num_qpus: u32,
    /// One word per parameter, in declaration order: `i32`/`u32` bits, `f32` bits, or a
    /// buffer's bus address. Each QPU receives the same words; its own number and the QPU count
    /// are for the backend to supply (e.g. as the first two uniforms).
    pub args: Vec<u32>,
    /// The arrays passed as arguments (the only memory the kernel may touch).
    pub buffers: Vec<Buffer<'a>>,
    /// The run's budget, when the kernel or device sets one: interpreter steps, or emulated
    /// instructions (summed over QPUs). `None`: the backend's default.
    pub step_limit: Option<u64>,
}

impl Launch<'_> {
    /// (argument position, bus address, length in elements) of each array argument, for
    /// describing addresses in errors.
    pub fn places(&self) -> Vec<(usize, u32, usize)> {
        self.kernel
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p.ty, ast::Type::Ptr(_)))
            .map(|(i, _)| i)
            .zip(&self.buffers)
            .map(|(arg, b)| (arg, b.bus_address, b.len()))
            .collect()
    }
}

/// Per-QPU counters of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QpuStats {
    /// Work units: statements for the interpreter, instructions for machine-code backends.
    pub steps: u64,
    /// Whole-vector stores.
    pub stores: u64,
    /// Gathers.
    pub gathers: u64,
    /// Loaded or gathered lanes whose address was outside every argument array (undefined
    /// values; typically a prefetch past an array's end that is received and discarded).
    /// Counted by the interpreter; the emulator reports 0.
    pub stray_gathers: u64,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// The backend's name.
    pub backend: String,
    /// QPUs used.
    pub num_qpus: u32,
    /// Counters per QPU, indexed by QPU number; empty where the backend cannot count them
    /// (the Pi).
    pub qpus: Vec<QpuStats>,
    /// Cycles, where the backend models or measures them.
    pub cycles: Option<u64>,
    /// The clock those cycles run at, in MHz: the modelled board's (250 on the VideoCore IV
    /// emulator, 500 for a Pi 4 and 960 for a Pi 5 on the V3D emulators).
    pub clock_mhz: Option<f64>,
    /// Backend-specific counters (e.g. stall causes), by name.
    pub counters: Vec<(String, u64)>,
    /// What the kernel's `debug` statements recorded, QPU by QPU in the order each QPU made
    /// them (empty without `debug`).
    pub debug: Vec<DebugRecord>,
    /// Each QPU's stalls over time, when the backend was asked to record them
    /// ([`Device::emulator_with_timeline`]); [`Timeline::html`] draws them.
    pub timeline: Option<Timeline>,
}

impl RunReport {
    /// The run's modelled or measured GPU time in microseconds: its cycles at its clock.
    pub fn gpu_time_us(&self) -> Option<f64> {
        Some(self.cycles? as f64 / self.clock_mhz?)
    }
}

/// Where kernels run and shared memory lives: the interpreter, the emulator or a Pi.
pub trait Backend: Send + Sync {
    /// A short name for reports and errors.
    fn name(&self) -> &str;
    /// One line saying what runs the kernels (the name, unless there is more to tell).
    fn describe(&self) -> String {
        self.name().to_string()
    }
    /// Allocate `words` zeroed 32-bit words of shared memory.
    fn alloc(&self, words: usize) -> Result<Box<dyn SharedMemory>>;
    /// Run a kernel; see [`Launch`].
    fn run(&self, launch: &mut Launch<'_>) -> Result<RunReport>;
    /// The most QPUs a launch may use: the GPU's own count ([`VC4_QPUS`] unless the backend
    /// says otherwise).
    fn max_qpus(&self) -> u32 {
        VC4_QPUS
    }
    /// The GPU generation whose code, and float arithmetic, runs the kernels: the
    /// VideoCore IV unless the backend says otherwise.
    fn compiles_for(&self) -> crate::compiler::Gpu {
        crate::compiler::Gpu::Vc4
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// A backend plus the shared arrays allocated from it.
pub struct Device {
    backend: Box<dyn Backend>,
    id: u64,
    /// How the backend was chosen, when [`Device::auto`] chose it.
    origin: Option<String>,
    /// The budget of every run on this device unless the kernel sets its own.
    step_limit: Option<u64>,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("backend", &self.backend.name())
            .finish()
    }
}

impl Device {
    /// A device running kernels on `backend`.
    pub fn new(backend: impl Backend + 'static) -> Device {
        Device {
            backend: Box::new(backend),
            id: next_id(),
            origin: None,
            step_limit: None,
        }
    }

    /// Fail every run on this device that takes more than `limit` steps: statements on the
    /// interpreter, instructions (summed over QPUs) on the emulator. The defaults are 200
    /// million of either, seconds of host time. (The Pi backend has its own timeout.)
    /// [`Kernel::set_step_limit`] overrides it per kernel.
    pub fn with_step_limit(mut self, limit: u64) -> Device {
        self.step_limit = Some(limit);
        self
    }

    /// A device running kernels on the reference interpreter, with the VideoCore IV's float
    /// arithmetic.
    pub fn interpreter() -> Device {
        Device::new(Interpreter::new())
    }

    /// A device running kernels on the reference interpreter with the float arithmetic of
    /// `gpu` (the generations round, flush and make NaNs differently: see
    /// [`crate::interp::ops`]), so that its results match that GPU's bit for bit.
    pub fn interpreter_for(gpu: crate::compiler::Gpu) -> Device {
        Device::new(Interpreter::for_gpu(gpu))
    }

    /// The backend.
    pub fn backend(&self) -> &dyn Backend {
        &*self.backend
    }

    /// The GPU generation whose code and float arithmetic run the kernels (the VideoCore IV
    /// truncates float results, the V3D generations round them to nearest): libraries whose
    /// numerics depend on it ask here.
    pub fn gpu(&self) -> crate::compiler::Gpu {
        self.backend.compiles_for()
    }

    /// The most QPUs a kernel may run on with this device: 12 on a Pi 1-3 and the
    /// VideoCore IV emulator, 8 on a Pi 4 and `emulator-vc6`, 16 on a Pi 5, `emulator-vc7`
    /// and the interpreter (on a Pi 4 or 5, the count its GPU reports).
    pub fn max_qpus(&self) -> u32 {
        self.backend.max_qpus()
    }

    /// One line saying which backend runs the kernels and, for [`Device::auto`], why:
    /// e.g. `emulator (automatic: no Raspberry Pi GPU found: ...)`.
    pub fn describe(&self) -> String {
        match &self.origin {
            Some(origin) => format!("{} ({origin})", self.backend.describe()),
            None => self.backend.describe(),
        }
    }

    /// Allocate a zeroed shared array of `len` elements.
    pub fn alloc<T: Element>(&self, len: usize) -> Result<SharedArray<T>> {
        Ok(SharedArray {
            memory: self.backend.alloc(len)?,
            device: self.id,
            elem: PhantomData,
        })
    }

    /// Allocate a shared array holding a copy of `data`.
    pub fn alloc_from<T: Element>(&self, data: &[T]) -> Result<SharedArray<T>> {
        let mut array = self.alloc(data.len())?;
        array.copy_from_slice(data);
        Ok(array)
    }
}

/// Arguments collected for one launch.
#[doc(hidden)]
#[derive(Default)]
pub struct ArgList<'a> {
    words: Vec<u32>,
    buffers: Vec<(usize, u64, Buffer<'a>)>,
}

/// A host value that can be passed for a kernel parameter of type `P`:
/// `i32`/`u32` for [`Int`], `f32` for [`Float`], `&SharedArray` / `&mut SharedArray` of
/// `i32`/`u32` for `Ptr<Int>` and of `f32` for `Ptr<Float>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed for a kernel parameter of type `{P}`",
    label = "not an argument for `{P}`",
    note = "pass `i32`/`u32` for `Int`, `f32` for `Float`, and `&SharedArray` or \
            `&mut SharedArray` (of `i32`/`u32` for `Ptr<Int>`, of `f32` for `Ptr<Float>`)"
)]
pub trait Arg<'a, P> {
    #[doc(hidden)]
    fn push(self, list: &mut ArgList<'a>);
}

impl<'a> Arg<'a, Int> for i32 {
    fn push(self, list: &mut ArgList<'a>) {
        list.words.push(self as u32);
    }
}

impl<'a> Arg<'a, Int> for u32 {
    fn push(self, list: &mut ArgList<'a>) {
        list.words.push(self);
    }
}

impl<'a> Arg<'a, Float> for f32 {
    fn push(self, list: &mut ArgList<'a>) {
        list.words.push(self.to_bits());
    }
}

impl<'a, T: Element> Arg<'a, Ptr<T::Scalar>> for &'a SharedArray<T> {
    fn push(self, list: &mut ArgList<'a>) {
        let index = list.words.len();
        list.words.push(self.bus_address());
        list.buffers.push((index, self.device, self.buffer()));
    }
}

impl<'a, T: Element> Arg<'a, Ptr<T::Scalar>> for &'a mut SharedArray<T> {
    fn push(self, list: &mut ArgList<'a>) {
        let index = list.words.len();
        list.words.push(self.bus_address());
        let device = self.device;
        list.buffers.push((index, device, self.buffer_mut()));
    }
}

/// The whole argument list for a kernel with parameter tuple `P`: a tuple of [`Arg`]s in
/// parameter order (or, for one parameter, the bare argument).
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not match the kernel's parameters `{P}`",
    label = "these arguments do not fit the kernel",
    note = "pass a tuple with one argument per kernel parameter, in order (a kernel with one \
            parameter also takes the bare argument): `i32`/`u32` for `Int`, `f32` for \
            `Float`, `&SharedArray` or `&mut SharedArray` for a `Ptr`"
)]
pub trait Args<'a, P> {
    #[doc(hidden)]
    fn push_all(self, list: &mut ArgList<'a>);
}

impl<'a, T: Element> Args<'a, (Ptr<T::Scalar>,)> for &'a SharedArray<T> {
    fn push_all(self, list: &mut ArgList<'a>) {
        Arg::<Ptr<T::Scalar>>::push(self, list);
    }
}

impl<'a, T: Element> Args<'a, (Ptr<T::Scalar>,)> for &'a mut SharedArray<T> {
    fn push_all(self, list: &mut ArgList<'a>) {
        Arg::<Ptr<T::Scalar>>::push(self, list);
    }
}

impl<'a> Args<'a, (Int,)> for i32 {
    fn push_all(self, list: &mut ArgList<'a>) {
        Arg::<Int>::push(self, list);
    }
}

impl<'a> Args<'a, (Float,)> for f32 {
    fn push_all(self, list: &mut ArgList<'a>) {
        Arg::<Float>::push(self, list);
    }
}

/// A Rust function or closure that records a kernel when called with parameter handles.
/// Implemented for `FnOnce(A, B, …) -> R` with up to 12 [`Param`]s; whatever it returns (for
/// example the [`Else`](crate::lang::Else) of a final `if_`) is ignored.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a kernel function",
    label = "expected a closure or function taking at most 12 kernel parameters",
    note = "a kernel's parameters are `Int`, `Float`, `Ptr<Int>` or `Ptr<Float>`, at most 12 \
            of them (the QPU's uniforms carry them); pass more data through a `Ptr` to a \
            shared array"
)]
pub trait KernelFn<P, R> {
    #[doc(hidden)]
    fn record(self);
}

fn param<T: Param>() -> T {
    T::from_handle(with_builder(|b| b.declare_param(T::TYPE)).unwrap_or(Handle::POISON))
}

macro_rules! tuple_impls {
    ($( ( $($p:ident $a:ident),* ) )*) => {$(
        impl<F, R, $($p: Param),*> KernelFn<($($p,)*), R> for F
        where
            F: FnOnce($($p),*) -> R,
        {
            #[allow(non_snake_case)]
            fn record(self) {
                // Parameters are declared left to right, so argument i is parameter i.
                $(let $p = param::<$p>();)*
                let _ = self($($p),*);
            }
        }

        impl<'a, $($p, $a: Arg<'a, $p>),*> Args<'a, ($($p,)*)> for ($($a,)*) {
            #[allow(non_snake_case, unused_variables)]
            fn push_all(self, list: &mut ArgList<'a>) {
                let ($($a,)*) = self;
                $($a.push(list);)*
            }
        }
    )*};
}

tuple_impls! {
    ()
    (P0 A0)
    (P0 A0, P1 A1)
    (P0 A0, P1 A1, P2 A2)
    (P0 A0, P1 A1, P2 A2, P3 A3)
    (P0 A0, P1 A1, P2 A2, P3 A3, P4 A4)
    (P0 A0, P1 A1, P2 A2, P3 A3, P4 A4, P5 A5)
    (P0 A0, P1 A1, P2 A2, P3 A3, P4 A4, P5 A5, P6 A6)
    (P0 A0, P1 A1, P2 A2, P3 A3, P4 A4, P5 A5, P6 A6, P7 A7)
    (P0 A0, P1 A1, P2 A2, P3 A3, P4 A4, P5 A5, P6 A6, P7 A7, P8 A8)
    (P0 A0, P1 A1, P2 A2, P3 A3, P4 A4, P5 A5, P6 A6, P7 A7, P8 A8, P9 A9)
    (P0 A0, P1 A1, P2 A2, P3 A3, P4 A4, P5 A5, P6 A6, P7 A7, P8 A8, P9 A9, P10 A10)
    (P0 A0, P1 A1, P2 A2, P3 A3, P4 A4, P5 A5, P6 A6, P7 A7, P8 A8, P9 A9, P10 A10, P11 A11)
}

/// A compiled kernel whose parameters have the types in tuple `P`.
pub struct Kernel<P> {
    ast: Arc<ast::Kernel>,
    id: u64,
    /// With `debug` statements: the kernel that records them, which runs instead.
    debug: Option<Arc<debug::DebugPlan>>,
    num_qpus: u32,
    step_limit: Option<u64>,
    params: PhantomData<fn(P)>,
}

impl<P> std::fmt::Debug for Kernel<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("id", &self.id)
            .field("num_qpus", &self.num_qpus)
            .field("ast", &self.ast)
            .finish()
    }
}

/// Record the kernel function `f` into a [`Kernel`] (run it once with parameter handles).
///
/// Errors: [`Error::Build`] listing every mistake with its source location.
#[track_caller]
pub fn compile<P, R, F: KernelFn<P, R>>(f: F) -> Result<Kernel<P>> {
    let guard = BuildGuard::begin(SourceLocation::caller());
    f.record();
    Ok(Kernel::from_ast(guard.finish()?))
}

impl<P> Kernel<P> {
    /// A kernel from an AST made by other means than recording (not public API: the crate's
    /// random differential tests generate ASTs and run them through [`Kernel::run`] on every
    /// device). Nothing checks that `P` matches the AST's parameters beyond what every
    /// launch checks (the argument and array counts).
    #[doc(hidden)]
    pub fn from_ast(kernel: ast::Kernel) -> Kernel<P> {
        Kernel {
            debug: debug::plan(&kernel, next_id()).map(Arc::new),
            ast: Arc::new(kernel),
            id: next_id(),
            num_qpus: 1,
            step_limit: None,
            params: PhantomData,
        }
    }

    /// The recorded AST (not public API: for the crate's own tests and tools).
    #[doc(hidden)]
    pub fn ast(&self) -> &ast::Kernel {
        &self.ast
    }

    /// This kernel compiled for `gpu` with `options`: its machine words, listing
    /// ([`Program::disassemble`](crate::compiler::Program::disassemble)) and source map.
    /// Every backend compiles through the same driver, so this is the code a launch on that
    /// GPU runs (the VideoCore IV's depends on `options.max_qpus`, which a launch sets to its
    /// QPU count).
    ///
    /// ```
    /// use qpu::compiler::{Gpu, Options};
    /// use qpu::lang::*;
    ///
    /// let kernel = qpu::compile(|p: Ptr<Int>| p.store(p.load() + 1))?;
    /// for gpu in [Gpu::Vc4, Gpu::Vc6, Gpu::Vc7] {
    ///     let program = kernel.compile_for(gpu, Options::default())?;
    ///     assert!(!program.words().is_empty());
    ///     assert!(program.disassemble().lines().count() > 3);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compile_for(
        &self,
        gpu: crate::compiler::Gpu,
        options: crate::compiler::Options,
    ) -> std::result::Result<crate::compiler::Program, crate::compiler::CompileError> {
        crate::compiler::compile_for_with(&self.ast, gpu, options)
    }

    /// The AST a launch runs: with `debug` statements, the one rewritten to record them.
    pub(crate) fn launch_ast(&self) -> &ast::Kernel {
        self.debug.as_ref().map_or(&self.ast, |plan| &plan.kernel)
    }

    /// How many QPUs the next run uses.
    pub fn num_qpus(&self) -> u32 {
        self.num_qpus
    }

    /// Use `n` QPUs (1..=16) for subsequent runs; a run on a GPU with fewer is refused
    /// ([`Error::TooManyQpus`]).
    pub fn set_num_qpus(&mut self, n: u32) -> Result<()> {
        if !(1..=MAX_QPUS).contains(&n) {
            return Err(Error::NumQpus(n));
        }
        self.num_qpus = n;
        Ok(())
    }

    /// Fail runs of this kernel that take more than `limit` steps (see
    /// [`Device::with_step_limit`], which this overrides); `None` restores the device's.
    pub fn set_step_limit(&mut self, limit: Option<u64>) {
        self.step_limit = limit;
    }

    /// Run on `device` with `args` (a tuple in parameter order, or the bare argument for a
    /// one-parameter kernel). Argument types are checked by the Rust compiler.
    pub fn run<'a, A: Args<'a, P>>(&self, device: &Device, args: A) -> Result<RunReport> {
        let mut list = ArgList::default();
        args.push_all(&mut list);
        let mut buffers = Vec::with_capacity(list.buffers.len());
        for (index, owner, buffer) in list.buffers {
            if owner != device.id {
                return Err(Error::WrongDevice { index });
            }
            buffers.push(buffer);
        }
        let step_limit = self.step_limit.or(device.step_limit);
        let Some(plan) = &self.debug else {
            let mut launch = Launch {
                kernel: &self.ast,
                kernel_id: self.id,
                num_qpus: self.num_qpus,
                args: list.words,
                buffers,
                step_limit,
            };
            return device.backend.run(&mut launch);
        };
        // The recording kernel takes two more arrays: the values and the statement numbers.
        let (value_words, number_words) = debug::DebugPlan::sizes(self.num_qpus);
        let mut values = device.alloc::<i32>(value_words)?;
        let mut numbers = device.alloc::<i32>(number_words)?;
        numbers.fill(-1);
        let mut args = list.words;
        args.extend([values.bus_address(), numbers.bus_address()]);
        buffers.push(values.buffer_mut());
        buffers.push(numbers.buffer_mut());
        let mut launch = Launch {
            kernel: &plan.kernel,
            kernel_id: plan.id,
            num_qpus: self.num_qpus,
            args,
            buffers,
            step_limit,
        };
        let mut report = device.backend.run(&mut launch)?;
        drop(launch);
        report.debug = plan.decode(self.num_qpus, &values, &numbers);
        Ok(report)
    }
}

#[cfg(test)]
mod bulk_copy_tests {
    use super::Device;

    #[test]
    fn bulk_copies_go_through_the_backend() {
        for device in [Device::interpreter(), Device::emulator()] {
            let mut a = device.alloc::<f32>(5).unwrap();
            a.copy_from_slice(&[1.5, -2.0, 0.0, 4.25, 8.0]);
            assert_eq!(a.to_vec(), vec![1.5, -2.0, 0.0, 4.25, 8.0]);
            assert_eq!(a[3], 4.25);
            a.fill(-0.5);
            assert_eq!(a.to_vec(), vec![-0.5; 5]);
            let b = device.alloc_from(&[7i32, 8, 9]).unwrap();
            assert_eq!(&b[..], &[7, 8, 9]);
        }
    }

    #[test]
    #[should_panic(expected = "lengths differ")]
    fn copy_from_slice_checks_lengths() {
        let device = Device::interpreter();
        let mut a = device.alloc::<i32>(2).unwrap();
        a.copy_from_slice(&[1, 2, 3]);
    }
}

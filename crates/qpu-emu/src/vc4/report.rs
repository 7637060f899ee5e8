//! What a run did and how long it would take on a Pi.

use std::fmt;

/// Clocks a QPU spent stalled, by cause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stalls {
    /// `ldtmu` waiting for its lookup (V3D counter 17).
    pub tmu: u64,
    /// VPM reads waiting for their read setup's data.
    pub vpm: u64,
    /// `vr_wait`/`vw_wait` and DMA starts waiting for the DMA engines.
    pub dma: u64,
    /// Semaphore acquire/release blocked.
    pub semaphore: u64,
    /// Mutex acquire blocked.
    pub mutex: u64,
}

impl Stalls {
    /// All stall clocks.
    pub fn total(&self) -> u64 {
        self.tmu + self.vpm + self.dma + self.semaphore + self.mutex
    }

    fn add(&mut self, other: &Stalls) {
        self.tmu += other.tmu;
        self.vpm += other.vpm;
        self.dma += other.dma;
        self.semaphore += other.semaphore;
        self.mutex += other.mutex;
    }
}

/// Why a QPU stalled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StallCause {
    /// `ldtmu` waiting for its lookup.
    Tmu,
    /// A VPM read waiting for its read setup's data.
    Vpm,
    /// `vr_wait`/`vw_wait` or a DMA start waiting for the DMA engines.
    Dma,
    /// A semaphore acquire or release blocked.
    Semaphore,
    /// A mutex acquire blocked.
    Mutex,
    /// (V3D only) every thread of the QPU waiting at a workgroup barrier: the clocks the
    /// V3D perfmon counts as `QPU-wait-bubble`. The VideoCore IV has no such barrier.
    Barrier,
}

impl StallCause {
    /// Every cause, in the order reports list them.
    pub const ALL: [StallCause; 5] = [
        StallCause::Tmu,
        StallCause::Vpm,
        StallCause::Dma,
        StallCause::Semaphore,
        StallCause::Mutex,
    ];

    /// Its name in reports (`tmu`, `vpm`, `dma`, `semaphore`, `mutex`, `barrier`).
    pub fn name(self) -> &'static str {
        match self {
            StallCause::Tmu => "tmu",
            StallCause::Vpm => "vpm",
            StallCause::Dma => "dma",
            StallCause::Semaphore => "semaphore",
            StallCause::Mutex => "mutex",
            StallCause::Barrier => "barrier",
        }
    }
}

/// One stall of a QPU: from clock `start`, `clocks` long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StallSpan {
    /// The clock the QPU stopped issuing.
    pub start: u64,
    /// How long it waited.
    pub clocks: u64,
    /// What it waited for.
    pub cause: StallCause,
}

/// A DMA transfer a QPU started: the engine was busy with it from `start` to `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaJob {
    /// The clock the engine took the job.
    pub start: u64,
    /// The clock it finished.
    pub end: u64,
    /// A VDW store (else a VDR load).
    pub store: bool,
}

/// One TMU result through a QPU's receive FIFO: requested at clock `issued`, in the FIFO
/// from `ready`, read (`ldtmu`) at `read`; a result the program never read counts as read
/// when its QPU (or, on V3D, its thread) ended. Between `issued` and `read` it takes one
/// of the FIFO's entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmuLookup {
    /// The clock the request was made.
    pub issued: u64,
    /// The clock its data arrived.
    pub ready: u64,
    /// The clock the program read it.
    pub read: u64,
}

/// One QPU's share of a run (or the sum over QPUs, see [`RunReport::total`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QpuReport {
    /// The QPU number.
    pub qpu: usize,
    /// Instructions executed.
    pub instructions: u64,
    /// Clock at which the QPU finished its program (for the total: the sum over QPUs of
    /// each QPU's busy clocks).
    pub cycles: u64,
    /// Stall clocks by cause.
    pub stalls: Stalls,
    /// Direct TMU lookups issued.
    pub tmu_requests: u64,
    /// 64-byte lines the TMU caches fetched for this QPU's lookups (V3D counter 25).
    pub tmu_cache_misses: u64,
    /// Bytes moved by VDR loads.
    pub dma_load_bytes: u64,
    /// Bytes moved by VDW stores.
    pub dma_store_bytes: u64,
    /// Host interrupts raised.
    pub host_interrupts: u64,
    /// Uniforms read.
    pub uniforms: u64,
    /// The clock the QPU started its program.
    pub start: u64,
    /// Every stall in clock order, when [`EmulatorConfig::timeline`](super::EmulatorConfig::timeline)
    /// asks for them (empty otherwise, and in the total).
    pub timeline: Vec<StallSpan>,
    /// The DMA transfers it started, in order, when
    /// [`EmulatorConfig::timeline`](super::EmulatorConfig::timeline) asks for them.
    pub dma_jobs: Vec<DmaJob>,
    /// Its TMU results (both FIFOs) in the order they were read, when
    /// [`EmulatorConfig::timeline`](super::EmulatorConfig::timeline) asks for them.
    pub tmu_lookups: Vec<TmuLookup>,
}

impl QpuReport {
    fn add(&mut self, other: &QpuReport) {
        self.instructions += other.instructions;
        self.cycles += other.cycles;
        self.stalls.add(&other.stalls);
        self.tmu_requests += other.tmu_requests;
        self.tmu_cache_misses += other.tmu_cache_misses;
        self.dma_load_bytes += other.dma_load_bytes;
        self.dma_store_bytes += other.dma_store_bytes;
        self.host_interrupts += other.host_interrupts;
        self.uniforms += other.uniforms;
    }
}

/// The result of [`crate::vc4::Emulator::run`].
#[derive(Clone, Debug, PartialEq)]
pub struct RunReport {
    /// One entry per launched program, in launch order (program i ran on QPU i).
    pub qpus: Vec<QpuReport>,
    /// Sums over all QPUs.
    pub total: QpuReport,
    /// Clocks from launch until the last QPU ended and the last DMA completed.
    pub cycles: u64,
    /// The clock used for [`RunReport::wall_time_us`].
    pub clock_mhz: f64,
}

impl RunReport {
    pub(crate) fn new(qpus: Vec<QpuReport>, cycles: u64, clock_mhz: f64) -> RunReport {
        let mut total = QpuReport::default();
        for q in &qpus {
            total.add(q);
        }
        total.qpu = qpus.len();
        RunReport {
            qpus,
            total,
            cycles,
            clock_mhz,
        }
    }

    /// Estimated time on the Pi at [`RunReport::clock_mhz`], in microseconds, excluding the
    /// host's launch overhead.
    pub fn wall_time_us(&self) -> f64 {
        self.cycles as f64 / self.clock_mhz
    }
}

impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:>5} {:>12} {:>12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8} {:>10} {:>10} {:>4}",
            "qpu",
            "instrs",
            "cycles",
            "stall:tmu",
            "stall:vpm",
            "stall:dma",
            "stall:sem",
            "stall:mtx",
            "tmu req",
            "dma load",
            "dma store",
            "irq"
        )?;
        let row = |f: &mut fmt::Formatter<'_>, name: String, q: &QpuReport| {
            writeln!(
                f,
                "{:>5} {:>12} {:>12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8} {:>10} {:>10} {:>4}",
                name,
                q.instructions,
                q.cycles,
                q.stalls.tmu,
                q.stalls.vpm,
                q.stalls.dma,
                q.stalls.semaphore,
                q.stalls.mutex,
                q.tmu_requests,
                q.dma_load_bytes,
                q.dma_store_bytes,
                q.host_interrupts
            )
        };
        for q in &self.qpus {
            row(f, q.qpu.to_string(), q)?;
        }
        row(f, "total".to_string(), &self.total)?;
        write!(
            f,
            "run: {} clocks = {:.3} us at {} MHz ({} instructions)",
            self.cycles,
            self.wall_time_us(),
            self.clock_mhz,
            self.total.instructions
        )
    }
}

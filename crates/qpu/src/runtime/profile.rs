//! Where a run's time went, QPU by QPU: the [`Timeline`] an emulator records when asked
//! ([`Device::emulator_with_timeline`](super::Device::emulator_with_timeline)), and the
//! self-contained HTML page `qpu profile` writes from it (inline SVG and a few lines of
//! script for zooming; nothing fetched from the network).

use std::fmt::Write;

/// A run's QPUs over time.
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline {
    /// The modelled clock, in MHz.
    pub clock_mhz: f64,
    /// Clocks from the launch to the last QPU's end.
    pub cycles: u64,
    /// One entry per QPU, QPU 0 first.
    pub qpus: Vec<QpuTimeline>,
    /// The shared units' busy stretches (the VideoCore IV's DMA engines, `VDR` and `VDW`),
    /// drawn under the QPUs' lanes; empty where the emulator records none.
    pub units: Vec<UnitTimeline>,
    /// The stall causes the emulator models (of `tmu`, `vpm`, `dma`, `semaphore`, `mutex`,
    /// `barrier`): the page's legend and tables list these.
    pub causes: Vec<&'static str>,
    /// Entries of a QPU's TMU result FIFOs together: the most TMU results it can have
    /// outstanding (requested and not yet read), the full height of its TMU lane.
    pub tmu_depth: u32,
    /// What the model does not have (stalls it cannot produce), printed under the legend.
    pub note: String,
}

/// A shared unit's busy stretches, `(start, end)` clocks in the order they were queued.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitTimeline {
    /// The unit's name (`VDR`, `VDW`).
    pub name: &'static str,
    /// When it worked.
    pub busy: Vec<(u64, u64)>,
}

/// Adds the clocks `from..to` to the columns of `out`, which cut `0..span` into equal
/// stretches (a clock past the span lands in the last column).
fn add_clocks(out: &mut [u64], span: u64, from: u64, to: u64) {
    let n = out.len().max(1);
    let span = span.max(1);
    let column = |clock: u64| ((clock as u128 * n as u128 / span as u128) as usize).min(n - 1);
    let column_start = |c: usize| (c as u128 * span as u128 / n as u128) as u64;
    let mut at = from;
    while at < to {
        let c = column(at);
        let end = if c + 1 == n {
            to
        } else {
            column_start(c + 1).max(at + 1).min(to)
        };
        out[c] += end - at;
        at = end;
    }
}

/// The clocks in column `c` of `n` equal stretches of `span`.
fn column_size(span: u64, n: usize, c: usize) -> u64 {
    let span = span.max(1) as u128;
    let n = n.max(1) as u128;
    let c = c as u128;
    ((c + 1) * span / n - c * span / n).max(1) as u64
}

impl UnitTimeline {
    /// The clocks the unit was busy in each of `n` equal stretches of `cycles`.
    pub fn columns(&self, cycles: u64, n: usize) -> Vec<u64> {
        let mut out = vec![0u64; n.max(1)];
        for &(from, to) in &self.busy {
            add_clocks(&mut out, cycles, from, to);
        }
        out
    }
}

/// One QPU's run: issuing from `start` to `end` except during its stalls.
#[derive(Debug, Clone, PartialEq)]
pub struct QpuTimeline {
    /// The QPU number.
    pub qpu: u32,
    /// The clock its program started.
    pub start: u64,
    /// The clock it ended.
    pub end: u64,
    /// Instructions it issued.
    pub instructions: u64,
    /// Its stalls, in clock order.
    pub stalls: Vec<Stall>,
    /// Its threads (V3D), each with what it did when; empty where the QPU runs one program
    /// (the VideoCore IV).
    pub threads: Vec<ThreadLane>,
    /// Its TMU results, each from its request to its read.
    pub tmu: Vec<Lookup>,
}

impl QpuTimeline {
    /// QPU `qpu`'s lane from an emulator's record of its stalls.
    pub(crate) fn of(
        qpu: usize,
        (start, end): (u64, u64),
        instructions: u64,
        spans: &[qpu_emu::vc4::StallSpan],
    ) -> QpuTimeline {
        QpuTimeline {
            qpu: qpu as u32,
            start,
            end,
            instructions,
            stalls: spans
                .iter()
                .map(|s| Stall {
                    start: s.start,
                    clocks: s.clocks,
                    cause: s.cause.name(),
                })
                .collect(),
            threads: Vec::new(),
            tmu: Vec::new(),
        }
    }

    /// Its TMU results as the emulator recorded them.
    fn with_lookups(mut self, lookups: &[qpu_emu::vc4::TmuLookup]) -> QpuTimeline {
        self.tmu = lookups
            .iter()
            .map(|l| Lookup {
                issued: l.issued,
                ready: l.ready,
                read: l.read,
            })
            .collect();
        self
    }

    /// The most TMU results outstanding at once (a result read at the clock another is
    /// requested has left the FIFO first).
    pub fn tmu_peak(&self) -> u32 {
        let mut events: Vec<(u64, i32)> = self
            .tmu
            .iter()
            .flat_map(|l| [(l.issued, 1), (l.read, -1)])
            .collect();
        events.sort_unstable();
        let (mut level, mut peak) = (0i32, 0i32);
        for (_, change) in events {
            level += change;
            peak = peak.max(level);
        }
        peak as u32
    }
}

/// A stall: from clock `start`, `clocks` long, waiting for `cause` (`tmu`, `vpm`, `dma`,
/// `semaphore`, `mutex`, `barrier`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stall {
    /// The clock the QPU stopped issuing.
    pub start: u64,
    /// How long it waited.
    pub clocks: u64,
    /// What it waited for.
    pub cause: &'static str,
}

/// One thread slot of a V3D QPU: what it did when.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadLane {
    /// The slot (0 to threads per QPU − 1).
    pub thread: u32,
    /// Its spans in clock order; between them the slot had no batch.
    pub spans: Vec<ThreadSpan>,
}

/// A thread doing one thing from clock `start` to `end`: `running` (it had the QPU:
/// issuing, or stalled as the QPU's stalls say), `switched out` (ready while another thread
/// ran) or `barrier` (waiting at its workgroup's barrier).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreadSpan {
    /// The first clock.
    pub start: u64,
    /// The clock after the last.
    pub end: u64,
    /// What it did.
    pub activity: &'static str,
}

/// A TMU result: requested at `issued`, arrived at `ready`, read by the program at `read`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lookup {
    /// The clock of the request.
    pub issued: u64,
    /// The clock its data arrived in the FIFO.
    pub ready: u64,
    /// The clock the program read it.
    pub read: u64,
}

/// Colours of the lanes: issuing, then each stall cause; a shared unit at work.
const ISSUE_COLOUR: &str = "#3c8d2f";
const UNIT_COLOUR: &str = "#555555";
const CAUSES: [(&str, &str); 6] = [
    ("tmu", "#d9822b"),
    ("vpm", "#8e44ad"),
    ("dma", "#c0392b"),
    ("semaphore", "#2c6fbb"),
    ("mutex", "#7f8c8d"),
    ("barrier", "#b8860b"),
];
/// A thread switched out: ready, another thread has the QPU.
const SWITCHED_OUT_COLOUR: &str = "#c8d7e6";
/// TMU results requested and on their way, and arrived but not yet read.
const TMU_IN_FLIGHT_COLOUR: &str = "#1f7a8c";
const TMU_WAITING_COLOUR: &str = "#7fc8d6";

/// The VideoCore IV model's stall causes, and what it does not model.
const VC4_CAUSES: [&str; 5] = ["tmu", "vpm", "dma", "semaphore", "mutex"];
const VC4_NOTE: &str = "The VideoCore IV model stalls a QPU for a TMU result, a \
    VPM read, the DMA engines, a semaphore or the mutex. Uniform reads never stall in it, and \
    an SFU result read too early breaks a hazard rule rather than stalling, so no stall is \
    drawn for either. VDR and VDW are the two DMA engines every QPU shares.";
/// The V3D model's stall causes, and what it does not model.
const V3D_CAUSES: [&str; 2] = ["tmu", "barrier"];
const V3D_NOTE: &str = "The V3D model stalls a QPU only for the TMU (a load's \
    data, tmuwt, or room in a full TMU queue: perfmon QPU-stalls-TMU) and, when every thread \
    of the QPU waits at a workgroup barrier, in a barrier bubble (QPU-wait-bubble). It has no \
    SFU or uniform stalls (QPU-stalls-SFU and QPU-stalls-uniforms are 0 by construction: an \
    SFU result read early breaks a rule instead), and a thread switch costs no clocks, so a \
    QPU never idles between threads; a thread that is switched out shows on its own lane.";

/// Columns each QPU's lane is drawn in: each shows the share of its clocks spent issuing
/// and stalled by each cause, so the page stays small however long the run.
const COLUMNS: usize = 800;

/// A thread's clocks by what it did: issuing, stalled for the TMU, switched out, at a
/// barrier.
pub type ThreadClocks = [u64; 4];

impl Timeline {
    /// A timeline with no stall causes listed and no note: the emulators' constructors fill
    /// them in.
    fn new(clock_mhz: f64, cycles: u64, qpus: Vec<QpuTimeline>) -> Timeline {
        Timeline {
            clock_mhz,
            cycles,
            qpus,
            units: Vec::new(),
            causes: Vec::new(),
            tmu_depth: 1,
            note: String::new(),
        }
    }

    /// The VideoCore IV emulator's record of a run: one lane per QPU, its TMU traffic
    /// (against both of its FIFOs, `tmu_fifo_depth` results each), and the two DMA engines.
    pub fn from_vc4(report: &qpu_emu::vc4::RunReport, tmu_fifo_depth: u32) -> Timeline {
        let qpus = report
            .qpus
            .iter()
            .map(|q| {
                QpuTimeline::of(q.qpu, (q.start, q.cycles), q.instructions, &q.timeline)
                    .with_lookups(&q.tmu_lookups)
            })
            .collect();
        let mut timeline = Timeline::new(report.clock_mhz, report.cycles, qpus);
        timeline.units = [("VDR", false), ("VDW", true)]
            .into_iter()
            .map(|(name, store)| {
                let mut busy: Vec<(u64, u64)> = report
                    .qpus
                    .iter()
                    .flat_map(|q| q.dma_jobs.iter())
                    .filter(|j| j.store == store)
                    .map(|j| (j.start, j.end))
                    .collect();
                busy.sort_unstable();
                UnitTimeline { name, busy }
            })
            .collect();
        timeline.causes = VC4_CAUSES.to_vec();
        timeline.tmu_depth = 2 * tmu_fifo_depth;
        timeline.note = VC4_NOTE.to_string();
        timeline
    }

    /// The V3D emulator's record of a dispatch: one lane per QPU, its threads' lanes (with
    /// more than one thread per QPU) and its TMU traffic.
    pub fn from_v3d(report: &qpu_emu::v3d::V3dRunReport) -> Timeline {
        let qpus = report
            .qpus
            .iter()
            .map(|q| {
                let mut lane = QpuTimeline::of(q.qpu, (0, q.cycles), q.instructions, &q.timeline)
                    .with_lookups(&q.tmu_lookups);
                if report.threads > 1 {
                    lane.threads = (0..usize::from(report.threads))
                        .map(|t| ThreadLane {
                            thread: t as u32,
                            spans: q
                                .threads
                                .iter()
                                .filter(|s| s.thread == t)
                                .map(|s| ThreadSpan {
                                    start: s.start,
                                    end: s.end,
                                    activity: s.activity.name(),
                                })
                                .collect(),
                        })
                        .collect();
                }
                lane
            })
            .collect();
        let mut timeline = Timeline::new(report.clock_mhz, report.cycles(), qpus);
        timeline.causes = V3D_CAUSES.to_vec();
        timeline.tmu_depth = qpu_isa::v3d::latency::TMU_OUTPUT_FIFO;
        timeline.note = V3D_NOTE.to_string();
        timeline
    }

    /// The clocks each QPU spent stalled by each cause, and issuing: (cause, clocks) per QPU,
    /// `issue` first, then the causes of [`Timeline::causes`].
    pub fn totals(&self) -> Vec<Vec<(&'static str, u64)>> {
        self.qpus
            .iter()
            .map(|q| {
                let stalled: u64 = q.stalls.iter().map(|s| s.clocks).sum();
                let mut out = vec![("issue", q.end.saturating_sub(q.start + stalled))];
                for &cause in &self.causes {
                    let clocks = q
                        .stalls
                        .iter()
                        .filter(|s| s.cause == cause)
                        .map(|s| s.clocks)
                        .sum();
                    out.push((cause, clocks));
                }
                out
            })
            .collect()
    }

    /// Each QPU's run cut into `n` equal stretches of the run's clocks: per stretch, the
    /// clocks it issued, and the clocks it stalled by cause (in the order of
    /// [`Timeline::colours`] after `issue`: tmu, vpm, dma, semaphore, mutex, barrier).
    pub fn columns(&self, n: usize) -> Vec<(Vec<u64>, Vec<[u64; 6]>)> {
        let n = n.max(1);
        let span = self.cycles.max(1);
        self.qpus
            .iter()
            .map(|q| {
                let mut busy = vec![0u64; n];
                let mut by_cause = vec![vec![0u64; n]; CAUSES.len()];
                let mut clock = q.start;
                for s in &q.stalls {
                    add_clocks(&mut busy, span, clock, s.start.max(clock));
                    let k = CAUSES.iter().position(|(c, _)| *c == s.cause).unwrap_or(0);
                    add_clocks(&mut by_cause[k], span, s.start, s.start + s.clocks);
                    clock = clock.max(s.start + s.clocks);
                }
                add_clocks(&mut busy, span, clock, q.end.max(clock));
                let stalled = (0..n)
                    .map(|c| std::array::from_fn(|k| by_cause[k][c]))
                    .collect();
                (busy, stalled)
            })
            .collect()
    }

    /// Each QPU's threads cut into `n` equal stretches of the run's clocks: per thread and
    /// stretch, its clocks by what it did ([`ThreadClocks`]: issuing, TMU stall, switched
    /// out, barrier). A running thread's clocks are issuing but where the QPU stalled.
    pub fn thread_columns(&self, n: usize) -> Vec<Vec<Vec<ThreadClocks>>> {
        let n = n.max(1);
        let span = self.cycles.max(1);
        self.qpus
            .iter()
            .map(|q| {
                q.threads
                    .iter()
                    .map(|t| {
                        let mut parts = vec![vec![0u64; n]; 4];
                        for s in &t.spans {
                            match s.activity {
                                "running" => {
                                    let mut clock = s.start;
                                    let first = q.stalls.partition_point(|x| x.start < s.start);
                                    for x in
                                        q.stalls[first..].iter().take_while(|x| x.start < s.end)
                                    {
                                        let to = (x.start + x.clocks).min(s.end);
                                        add_clocks(&mut parts[0], span, clock, x.start.max(clock));
                                        add_clocks(&mut parts[1], span, x.start.max(clock), to);
                                        clock = clock.max(to);
                                    }
                                    add_clocks(&mut parts[0], span, clock, s.end.max(clock));
                                }
                                "barrier" => add_clocks(&mut parts[3], span, s.start, s.end),
                                _ => add_clocks(&mut parts[2], span, s.start, s.end),
                            }
                        }
                        (0..n)
                            .map(|c| std::array::from_fn(|k| parts[k][c]))
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }

    /// Each QPU's TMU results cut into `n` equal stretches of the run's clocks: per stretch,
    /// (result-clocks in flight, result-clocks arrived and not yet read); divided by the
    /// stretch's clocks, the mean number of results outstanding.
    pub fn tmu_columns(&self, n: usize) -> Vec<Vec<(u64, u64)>> {
        let n = n.max(1);
        let span = self.cycles.max(1);
        self.qpus
            .iter()
            .map(|q| {
                let (mut flying, mut waiting) = (vec![0u64; n], vec![0u64; n]);
                for l in &q.tmu {
                    let arrived = l.ready.clamp(l.issued, l.read);
                    add_clocks(&mut flying, span, l.issued, arrived);
                    add_clocks(&mut waiting, span, arrived, l.read);
                }
                flying.into_iter().zip(waiting).collect()
            })
            .collect()
    }

    /// The colours [`Timeline::html`] draws with: issuing, then the stall causes in the
    /// order of [`Timeline::columns`], as (name, `#rrggbb`).
    pub fn colours() -> [(&'static str, &'static str); 7] {
        [
            ("issue", ISSUE_COLOUR),
            CAUSES[0],
            CAUSES[1],
            CAUSES[2],
            CAUSES[3],
            CAUSES[4],
            CAUSES[5],
        ]
    }

    /// The colours of thread lanes (switched out) and TMU lanes (in flight, arrived), as
    /// (name, `#rrggbb`).
    pub fn lane_colours() -> [(&'static str, &'static str); 3] {
        [
            ("switched out", SWITCHED_OUT_COLOUR),
            ("tmu in flight", TMU_IN_FLIGHT_COLOUR),
            ("tmu arrived", TMU_WAITING_COLOUR),
        ]
    }

    /// A self-contained HTML page: per QPU a lane over the run's clocks coloured by what
    /// the QPU did in each stretch (issuing, or stalled by cause), on V3D with more than
    /// one thread a lane per thread under it, and a lane of its outstanding TMU results;
    /// the shared units' lanes; zoomable with the mouse wheel; a legend; each QPU's (and
    /// thread's) totals; and `counters` (the run report's) as a table. The page is
    /// well-formed XML (XHTML), so any XML parser reads it.
    pub fn html(&self, title: &str, counters: &[(String, u64)]) -> String {
        let (lane, sub, label) = (22u64, 12u64, 60u64);
        let width = COLUMNS as u64 + label;
        let span = self.cycles.max(1);
        let show_tmu = self.qpus.iter().any(|q| !q.tmu.is_empty());
        let colour_of = |cause: &str| {
            CAUSES
                .iter()
                .find(|(c, _)| *c == cause)
                .map_or(UNIT_COLOUR, |(_, colour)| *colour)
        };
        let mut body = String::new();
        let mut y = 0u64;
        // One column of a lane: `parts` (clocks, colour) stacked from the lane's top, each
        // as tall as its share of the column's `size` clocks.
        let bar = |body: &mut String, x: u64, y: u64, h: u64, size: f64, parts: &[(f64, &str)]| {
            let mut top = y as f64 + 1.0;
            for &(clocks, colour) in parts {
                if clocks <= 0.0 {
                    continue;
                }
                let height = (h - 2) as f64 * (clocks / size).min(1.0);
                let _ = write!(
                    body,
                    r#"<rect x="{x}" y="{top:.2}" width="1" height="{height:.2}" fill="{colour}"/>"#
                );
                top += height;
            }
        };
        let columns = self.columns(COLUMNS);
        let threads = self.thread_columns(COLUMNS);
        let tmu = self.tmu_columns(COLUMNS);
        for (row, q) in self.qpus.iter().enumerate() {
            let _ = write!(
                body,
                r#"<text x="2" y="{}" font-size="11">QPU {}</text>"#,
                y + 15,
                q.qpu
            );
            let (busy, stalled) = &columns[row];
            for c in 0..COLUMNS {
                let size = column_size(span, COLUMNS, c) as f64;
                let mut parts = vec![(busy[c] as f64, ISSUE_COLOUR)];
                parts.extend(
                    CAUSES
                        .iter()
                        .enumerate()
                        .map(|(k, (_, colour))| (stalled[c][k] as f64, *colour)),
                );
                bar(&mut body, label + c as u64, y, lane, size, &parts);
            }
            y += lane;
            for (t, clocks) in q.threads.iter().zip(&threads[row]) {
                let _ = write!(
                    body,
                    r#"<text x="10" y="{}" font-size="9">thread {}</text>"#,
                    y + 10,
                    t.thread
                );
                for (c, k) in clocks.iter().enumerate() {
                    let size = column_size(span, COLUMNS, c) as f64;
                    let parts = [
                        (k[0] as f64, ISSUE_COLOUR),
                        (k[1] as f64, colour_of("tmu")),
                        (k[2] as f64, SWITCHED_OUT_COLOUR),
                        (k[3] as f64, colour_of("barrier")),
                    ];
                    bar(&mut body, label + c as u64, y, sub, size, &parts);
                }
                y += sub;
            }
            if show_tmu {
                let _ = write!(
                    body,
                    r#"<text x="10" y="{}" font-size="9">TMU</text>"#,
                    y + 10
                );
                let depth = f64::from(self.tmu_depth.max(1));
                for (c, &(flying, waiting)) in tmu[row].iter().enumerate() {
                    let size = column_size(span, COLUMNS, c) as f64 * depth;
                    let parts = [
                        (flying as f64, TMU_IN_FLIGHT_COLOUR),
                        (waiting as f64, TMU_WAITING_COLOUR),
                    ];
                    bar(&mut body, label + c as u64, y, sub, size, &parts);
                }
                y += sub;
            }
        }
        for unit in &self.units {
            let _ = write!(
                body,
                r#"<text x="2" y="{}" font-size="11">{}</text>"#,
                y + 15,
                unit.name
            );
            for (c, busy) in unit.columns(span, COLUMNS).into_iter().enumerate() {
                let size = column_size(span, COLUMNS, c) as f64;
                bar(
                    &mut body,
                    label + c as u64,
                    y,
                    lane,
                    size,
                    &[(busy as f64, UNIT_COLOUR)],
                );
            }
            y += lane;
        }
        let axis = y + 14;
        for tick in 0..=4u64 {
            let x = label + tick * COLUMNS as u64 / 4;
            let clocks = span * tick / 4;
            let _ = write!(
                body,
                r#"<text x="{x}" y="{axis}" font-size="10">{:.1} µs</text>"#,
                clocks as f64 / self.clock_mhz
            );
        }
        let height = y + 30;
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" id="lanes" width="100%" viewBox="0 0 {width} {height}" preserveAspectRatio="none" style="height:{}px">{body}</svg>"#,
            height * 2
        );

        let swatch =
            |colour: &str, what: &str| format!(r#"<span style="color:{colour}">■</span> {what} "#);
        let mut legend = swatch(ISSUE_COLOUR, "issuing");
        for &cause in &self.causes {
            legend.push_str(&swatch(colour_of(cause), &format!("{cause} stall")));
        }
        if self.qpus.iter().any(|q| !q.threads.is_empty()) {
            legend.push_str(&swatch(SWITCHED_OUT_COLOUR, "thread switched out"));
        }
        if show_tmu {
            legend.push_str(&swatch(TMU_IN_FLIGHT_COLOUR, "TMU results in flight"));
            legend.push_str(&swatch(
                TMU_WAITING_COLOUR,
                &format!(
                    "TMU results arrived, not read (lane height: {} results)",
                    self.tmu_depth
                ),
            ));
        }
        if !self.units.is_empty() {
            legend.push_str(&swatch(UNIT_COLOUR, "DMA engine at work"));
        }
        let mut totals =
            String::from("<table><tr><th>QPU</th><th>instructions</th><th>issuing</th>");
        for cause in &self.causes {
            let _ = write!(totals, "<th>{cause} stalls</th>");
        }
        totals.push_str("</tr>");
        for (q, row) in self.qpus.iter().zip(self.totals()) {
            let _ = write!(totals, "<tr><td>{}</td><td>{}</td>", q.qpu, q.instructions);
            for (_, clocks) in row {
                let _ = write!(totals, "<td>{clocks}</td>");
            }
            totals.push_str("</tr>");
        }
        totals.push_str("</table>");
        let mut per_thread = String::new();
        if self.qpus.iter().any(|q| !q.threads.is_empty()) {
            per_thread.push_str(
                "<h2>Per thread (clocks)</h2>\n<table><tr><th>QPU</th><th>thread</th><th>issuing</th><th>tmu stalls</th><th>switched out</th><th>barrier</th></tr>",
            );
            for (q, lanes) in self.qpus.iter().zip(self.thread_columns(1)) {
                for (t, clocks) in q.threads.iter().zip(lanes) {
                    let k = clocks[0];
                    let _ = write!(
                        per_thread,
                        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                        q.qpu, t.thread, k[0], k[1], k[2], k[3]
                    );
                }
            }
            per_thread.push_str("</table>\n");
        }
        let mut traffic = String::new();
        if show_tmu {
            traffic.push_str(
                "<h2>TMU traffic</h2>\n<table><tr><th>QPU</th><th>results</th><th>most outstanding</th><th>FIFO entries</th></tr>",
            );
            for q in &self.qpus {
                let _ = write!(
                    traffic,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    q.qpu,
                    q.tmu.len(),
                    q.tmu_peak(),
                    self.tmu_depth
                );
            }
            traffic.push_str("</table>\n");
        }
        let mut table = String::from("<table><tr><th>counter</th><th>value</th></tr>");
        for (name, value) in counters {
            let _ = write!(table, "<tr><td>{}</td><td>{value}</td></tr>", escape(name));
        }
        table.push_str("</table>");
        let title = escape(title);
        let note = escape(&self.note);
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head><meta charset="UTF-8"/><title>{title}</title>
<style>body{{font-family:sans-serif;margin:1em}}table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}</style>
</head>
<body>
<h1>{title}</h1>
<p>{cycles} clocks, {us:.1} µs at {mhz} MHz, {qpus} QPUs. Mouse wheel over the lanes to zoom, drag to pan, double-click to reset.</p>
<p id="legend">{legend}</p>
<p id="note">{note}</p>
{svg}
<h2>Per QPU (clocks)</h2>
{totals}
{per_thread}{traffic}<h2>Counters</h2>
{table}
<script>
//<![CDATA[
(function () {{
  var svg = document.getElementById("lanes");
  var full = svg.viewBox.baseVal, x0 = full.x, w0 = full.width;
  var view = {{x: x0, w: w0}}, drag = null;
  function show() {{ svg.setAttribute("viewBox", view.x + " " + full.y + " " + view.w + " " + full.height); }}
  svg.addEventListener("wheel", function (e) {{
    e.preventDefault();
    var r = svg.getBoundingClientRect(), at = view.x + view.w * (e.clientX - r.left) / r.width;
    var w = Math.min(w0, Math.max(4, view.w * (e.deltaY > 0 ? 1.25 : 0.8)));
    view.x = Math.min(x0 + w0 - w, Math.max(x0, at - (at - view.x) * w / view.w)); view.w = w; show();
  }});
  svg.addEventListener("mousedown", function (e) {{ drag = {{x: e.clientX, v: view.x}}; }});
  window.addEventListener("mouseup", function () {{ drag = null; }});
  window.addEventListener("mousemove", function (e) {{
    if (!drag) return;
    var r = svg.getBoundingClientRect();
    view.x = Math.min(x0 + w0 - view.w, Math.max(x0, drag.v - (e.clientX - drag.x) * view.w / r.width)); show();
  }});
  svg.addEventListener("dblclick", function () {{ view = {{x: x0, w: w0}}; show(); }});
}})();
//]]>
</script>
</body>
</html>
"#,
            cycles = self.cycles,
            us = self.cycles as f64 / self.clock_mhz,
            mhz = self.clock_mhz,
            qpus = self.qpus.len(),
        )
    }
}

/// `text` with the characters XML gives a meaning escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A QPU issuing from clock 0 to 100 with a TMU stall at 10..30 and a DMA stall at
    /// 50..90, cut into 10 columns of 10 clocks: each column's clocks add up to 10, the
    /// stalls land in their columns, and the totals match.
    #[test]
    fn columns_and_totals_split_the_clocks_by_what_the_qpu_did() {
        let timeline = Timeline {
            clock_mhz: 250.0,
            cycles: 100,
            qpus: vec![QpuTimeline {
                qpu: 0,
                start: 0,
                end: 100,
                instructions: 10,
                stalls: vec![
                    Stall {
                        start: 10,
                        clocks: 20,
                        cause: "tmu",
                    },
                    Stall {
                        start: 50,
                        clocks: 40,
                        cause: "dma",
                    },
                ],
                threads: Vec::new(),
                tmu: Vec::new(),
            }],
            units: vec![UnitTimeline {
                name: "VDW",
                busy: vec![(5, 25), (60, 62)],
            }],
            causes: VC4_CAUSES.to_vec(),
            tmu_depth: 8,
            note: String::new(),
        };
        assert_eq!(
            timeline.units[0].columns(100, 10),
            [5, 10, 5, 0, 0, 0, 2, 0, 0, 0]
        );
        let columns = timeline.columns(10);
        let (busy, stalled) = &columns[0];
        for c in 0..10 {
            assert_eq!(busy[c] + stalled[c].iter().sum::<u64>(), 10, "column {c}");
        }
        assert_eq!(stalled[1][0] + stalled[2][0], 20);
        assert_eq!((5..9).map(|c| stalled[c][2]).sum::<u64>(), 40);
        assert_eq!(busy[0] + busy[3] + busy[4] + busy[9], 40);
        assert_eq!(
            timeline.totals()[0],
            [
                ("issue", 40),
                ("tmu", 20),
                ("vpm", 0),
                ("dma", 40),
                ("semaphore", 0),
                ("mutex", 0)
            ]
        );
        let page = timeline.html("a <test> & more", &[("stall_dma".to_string(), 40)]);
        assert!(page.contains("a &lt;test&gt; &amp; more"));
        assert!(page.contains("<td>stall_dma</td><td>40</td>"));
    }
}

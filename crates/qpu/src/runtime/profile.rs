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
}

/// A shared unit's busy stretches, `(start, end)` clocks in the order they were queued.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitTimeline {
    /// The unit's name (`VDR`, `VDW`).
    pub name: &'static str,
    /// When it worked.
    pub busy: Vec<(u64, u64)>,
}

impl UnitTimeline {
    /// The clocks the unit was busy in each of `n` equal stretches of `cycles`.
    pub fn columns(&self, cycles: u64, n: usize) -> Vec<u64> {
        let n = n.max(1);
        let span = cycles.max(1);
        let column = |clock: u64| ((clock as u128 * n as u128 / span as u128) as usize).min(n - 1);
        let column_start = |c: usize| (c as u128 * span as u128 / n as u128) as u64;
        let mut out = vec![0u64; n];
        for &(from, to) in &self.busy {
            let mut at = from;
            while at < to {
                let c = column(at);
                let end = column_start(c + 1).max(at + 1).min(to);
                out[c] += end - at;
                at = end;
            }
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
        }
    }
}

/// A stall: from clock `start`, `clocks` long, waiting for `cause` (`tmu`, `vpm`, `dma`,
/// `semaphore`, `mutex`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stall {
    /// The clock the QPU stopped issuing.
    pub start: u64,
    /// How long it waited.
    pub clocks: u64,
    /// What it waited for.
    pub cause: &'static str,
}

/// Colours of the lanes: issuing, then each stall cause; a shared unit at work.
const ISSUE_COLOUR: &str = "#3c8d2f";
const UNIT_COLOUR: &str = "#555555";
const CAUSES: [(&str, &str); 5] = [
    ("tmu", "#d9822b"),
    ("vpm", "#8e44ad"),
    ("dma", "#c0392b"),
    ("semaphore", "#2c6fbb"),
    ("mutex", "#7f8c8d"),
];

/// Columns each QPU's lane is drawn in: each shows the share of its clocks spent issuing
/// and stalled by each cause, so the page stays small however long the run.
const COLUMNS: usize = 800;

impl Timeline {
    /// The clocks each QPU spent stalled by each cause, and issuing: (cause, clocks) per QPU,
    /// `issue` first.
    pub fn totals(&self) -> Vec<Vec<(&'static str, u64)>> {
        self.qpus
            .iter()
            .map(|q| {
                let stalled: u64 = q.stalls.iter().map(|s| s.clocks).sum();
                let mut out = vec![("issue", q.end.saturating_sub(q.start + stalled))];
                for (cause, _) in CAUSES {
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
    /// clocks it issued, and the clocks it stalled by cause (in the order of [`CAUSES`]:
    /// tmu, vpm, dma, semaphore, mutex).
    pub fn columns(&self, n: usize) -> Vec<(Vec<u64>, Vec<[u64; 5]>)> {
        let n = n.max(1);
        let span = self.cycles.max(1);
        let column = |clock: u64| ((clock as u128 * n as u128 / span as u128) as usize).min(n - 1);
        let column_start = |c: usize| (c as u128 * span as u128 / n as u128) as u64;
        self.qpus
            .iter()
            .map(|q| {
                let mut busy = vec![0u64; n];
                let mut stalled = vec![[0u64; 5]; n];
                let mut add = |from: u64, to: u64, what: Option<usize>| {
                    let mut at = from;
                    while at < to {
                        let c = column(at);
                        let end = column_start(c + 1).max(at + 1).min(to);
                        match what {
                            Some(k) => stalled[c][k] += end - at,
                            None => busy[c] += end - at,
                        }
                        at = end;
                    }
                };
                let mut clock = q.start;
                for s in &q.stalls {
                    add(clock, s.start.max(clock), None);
                    let k = CAUSES.iter().position(|(c, _)| *c == s.cause).unwrap_or(0);
                    add(s.start, s.start + s.clocks, Some(k));
                    clock = clock.max(s.start + s.clocks);
                }
                add(clock, q.end.max(clock), None);
                (busy, stalled)
            })
            .collect()
    }

    /// The colours [`Timeline::html`] draws with: issuing, then the stall causes in the
    /// order of [`Timeline::columns`], as (name, `#rrggbb`).
    pub fn colours() -> [(&'static str, &'static str); 6] {
        [
            ("issue", ISSUE_COLOUR),
            CAUSES[0],
            CAUSES[1],
            CAUSES[2],
            CAUSES[3],
            CAUSES[4],
        ]
    }

    /// A self-contained HTML page: one lane per QPU over the run's clocks, coloured by what
    /// the QPU did in each stretch (issuing, or stalled by cause), zoomable with the mouse
    /// wheel; a legend; each QPU's totals; and `counters` (the run report's) as a table.
    /// The page is well-formed XML (XHTML), so any XML parser reads it.
    pub fn html(&self, title: &str, counters: &[(String, u64)]) -> String {
        let lane = 22u64;
        let label = 60u64;
        let width = COLUMNS as u64 + label;
        let rows = (self.qpus.len() + self.units.len()) as u64;
        let height = lane * rows + 30;
        let span = self.cycles.max(1);
        let mut svg = String::new();
        let _ = write!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" id="lanes" width="100%" viewBox="0 0 {width} {height}" preserveAspectRatio="none" style="height:{}px">"#,
            height * 2
        );
        let columns = self.columns(COLUMNS);
        for (row, q) in self.qpus.iter().enumerate() {
            let y = row as u64 * lane;
            let _ = write!(
                svg,
                r#"<text x="2" y="{}" font-size="11">QPU {}</text>"#,
                y + 15,
                q.qpu
            );
            let (busy, stalled) = &columns[row];
            let column_start = |c: usize| (c as u128 * span as u128 / COLUMNS as u128) as u64;
            for c in 0..COLUMNS {
                let size = (column_start(c + 1) - column_start(c)).max(1) as f64;
                let x = label + c as u64;
                let mut top = y as f64 + 2.0;
                let parts = std::iter::once((busy[c], ISSUE_COLOUR)).chain(
                    CAUSES
                        .iter()
                        .enumerate()
                        .map(|(k, (_, colour))| (stalled[c][k], *colour)),
                );
                for (clocks, colour) in parts {
                    if clocks == 0 {
                        continue;
                    }
                    let h = (lane - 4) as f64 * (clocks as f64 / size).min(1.0);
                    let _ = write!(
                        svg,
                        r#"<rect x="{x}" y="{top:.2}" width="1" height="{h:.2}" fill="{colour}"/>"#
                    );
                    top += h;
                }
            }
        }
        for (k, unit) in self.units.iter().enumerate() {
            let y = (self.qpus.len() + k) as u64 * lane;
            let _ = write!(
                svg,
                r#"<text x="2" y="{}" font-size="11">{}</text>"#,
                y + 15,
                unit.name
            );
            for (c, busy) in unit.columns(span, COLUMNS).into_iter().enumerate() {
                let size = ((c as u128 + 1) * span as u128 / COLUMNS as u128
                    - c as u128 * span as u128 / COLUMNS as u128)
                    .max(1) as f64;
                if busy == 0 {
                    continue;
                }
                let h = (lane - 4) as f64 * (busy as f64 / size).min(1.0);
                let _ = write!(
                    svg,
                    r#"<rect x="{}" y="{}" width="1" height="{h:.2}" fill="{UNIT_COLOUR}"/>"#,
                    label + c as u64,
                    y + 2
                );
            }
        }
        let axis = lane * rows + 14;
        for tick in 0..=4u64 {
            let x = label + tick * COLUMNS as u64 / 4;
            let clocks = span * tick / 4;
            let _ = write!(
                svg,
                r#"<text x="{x}" y="{axis}" font-size="10">{:.1} µs</text>"#,
                clocks as f64 / self.clock_mhz
            );
        }
        svg.push_str("</svg>");

        let mut legend = format!(r#"<span style="color:{ISSUE_COLOUR}">■</span> issuing "#);
        for (cause, colour) in CAUSES {
            let _ = write!(legend, r#"<span style="color:{colour}">■</span> {cause} "#);
        }
        if !self.units.is_empty() {
            let _ = write!(
                legend,
                r#"<span style="color:{UNIT_COLOUR}">■</span> DMA engine at work "#
            );
        }
        let mut totals =
            String::from("<table><tr><th>QPU</th><th>instructions</th><th>issuing</th>");
        for (cause, _) in CAUSES {
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
        let mut table = String::from("<table><tr><th>counter</th><th>value</th></tr>");
        for (name, value) in counters {
            let _ = write!(table, "<tr><td>{}</td><td>{value}</td></tr>", escape(name));
        }
        table.push_str("</table>");
        let title = escape(title);
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
<p>{legend}</p>
{svg}
<h2>Per QPU (clocks)</h2>
{totals}
<h2>Counters</h2>
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
            }],
            units: vec![UnitTimeline {
                name: "VDW",
                busy: vec![(5, 25), (60, 62)],
            }],
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

//! The results of a benchmark set: one [`Row`] per kernel, rendered as a markdown [`Table`].

use crate::case::Work;
use crate::stats::{geometric_mean, median, per_second};
use std::fmt::Write as _;
use std::time::Duration;

/// How the outputs of a kernel's runs compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Check {
    /// Engine runs (warm-up included) compared with the single-threaded reference run.
    pub engine_runs: usize,
    /// How many of them differed.
    pub engine_mismatches: usize,
    /// The first difference found, described.
    pub first_mismatch: Option<String>,
    /// Whether the reference run gave the set's expected outputs (`None`: the set gives none).
    pub expected: Option<Result<(), String>>,
}

impl Check {
    /// Every engine run matched the reference and the reference matched the expectations.
    pub fn passed(&self) -> bool {
        self.engine_mismatches == 0 && !matches!(self.expected, Some(Err(_)))
    }
}

/// The device column of a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceResult {
    /// No device was requested.
    NotRequested,
    /// A device was requested but none could be used.
    NotAvailable(String),
    /// The set says the device cannot run this kernel.
    Unsupported(String),
    /// The device failed to prepare or run it.
    Failed(String),
    /// Measured: the timed dispatches, and how many dispatches' outputs differed from the
    /// engine's reference (with the first difference).
    Measured {
        samples: Vec<Duration>,
        runs: usize,
        mismatches: usize,
        first_mismatch: Option<String>,
        /// How long preparing the kernel on the device took (one-time: buffers, descriptor
        /// sets, pipeline creation), measured once; not part of `samples`.
        setup: Option<Duration>,
    },
}

/// One kernel's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub name: String,
    pub invocations: u64,
    pub work: Work,
    /// The engine's subgroup size in the timed runs.
    pub subgroup_size: u32,
    /// How long compiling the module for the engine took (one-time), if measured.
    pub engine_compile: Option<Duration>,
    /// The engine's timed dispatches (warm-up excluded).
    pub engine: Vec<Duration>,
    /// Whether the JIT ran the engine's last timed dispatch (else the interpreter).
    pub jit: spvx_exec::JitUse,
    /// Whether the JIT runs the kernel in its vector lanes (several invocations per SIMD
    /// vector) rather than one invocation at a time.
    pub vector_lanes: bool,
    /// When the JIT ran the kernel: the interpreter's timed dispatches of the same rounds.
    pub interpreter: Vec<Duration>,
    pub device: DeviceResult,
    pub check: Check,
}

impl Row {
    /// The engine's median time per dispatch.
    pub fn engine_median(&self) -> Option<Duration> {
        median(&self.engine)
    }

    /// The device's median time per dispatch, when measured.
    pub fn device_median(&self) -> Option<Duration> {
        match &self.device {
            DeviceResult::Measured { samples, .. } => median(samples),
            _ => None,
        }
    }

    /// The engine's speed relative to the device: device median / engine median (above 1: the
    /// engine is faster).
    pub fn ratio(&self) -> Option<f64> {
        let e = self.engine_median()?.as_secs_f64();
        let d = self.device_median()?.as_secs_f64();
        (e > 0.0).then(|| d / e)
    }

    /// The device's one-time setup (preparing the kernel), when measured.
    pub fn device_setup(&self) -> Option<Duration> {
        match &self.device {
            DeviceResult::Measured { setup, .. } => *setup,
            _ => None,
        }
    }

    /// The ratio of one run from a module to outputs, one-time setup included: (device setup +
    /// device median) / (engine compile + engine median); `None` unless both setups were
    /// measured.
    pub fn ratio_including_setup(&self) -> Option<f64> {
        let e = (self.engine_compile? + self.engine_median()?).as_secs_f64();
        let d = (self.device_setup()? + self.device_median()?).as_secs_f64();
        (e > 0.0).then(|| d / e)
    }

    /// Every comparison of this row passed.
    pub fn passed(&self) -> bool {
        let device_ok = match &self.device {
            DeviceResult::Measured { mismatches, .. } => *mismatches == 0,
            DeviceResult::Failed(_) => false,
            _ => true,
        };
        self.check.passed() && device_ok
    }
}

/// A benchmark table.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The machine, as written above the table.
    pub machine: String,
    /// The device's name, or why there is none.
    pub device: String,
    /// Warm-up and timed rounds per kernel.
    pub warmup: usize,
    pub rounds: usize,
    pub rows: Vec<Row>,
}

/// The shortest dispatch (on both sides) whose ratio enters the headline's geometric mean.
pub const LONG_KERNEL: Duration = Duration::from_millis(1);

/// The figures `spvx bench` leads with ([`Table::headline`]): the ratios of the kernels whose
/// dispatch took at least [`LONG_KERNEL`] on both sides, and those of the shorter ones, each
/// with its kernel's name, in table order.
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    pub long: Vec<(String, f64)>,
    pub short: Vec<(String, f64)>,
}

impl Headline {
    /// The geometric mean of the long kernels' ratios.
    pub fn geometric_mean(&self) -> Option<f64> {
        geometric_mean(&self.long.iter().map(|(_, r)| *r).collect::<Vec<_>>())
    }

    /// The lowest ratio of the long kernels and its kernel (the first, on a tie).
    pub fn minimum(&self) -> Option<(&str, f64)> {
        self.long
            .iter()
            .fold(None, |m: Option<(&str, f64)>, (n, r)| match m {
                Some((_, best)) if best <= *r => m,
                _ => Some((n.as_str(), *r)),
            })
    }

    /// The geometric mean of the short kernels' ratios.
    pub fn short_geometric_mean(&self) -> Option<f64> {
        geometric_mean(&self.short.iter().map(|(_, r)| *r).collect::<Vec<_>>())
    }

    /// The headline as markdown lines: the long kernels' geometric mean with the minimum,
    /// then the short kernels on a line of their own.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let limit = LONG_KERNEL.as_millis();
        match (self.geometric_mean(), self.minimum()) {
            (Some(g), Some((name, min))) => {
                let _ = writeln!(
                    out,
                    "Headline: geometric mean of the ratio over the {} kernels whose dispatch takes \
                     at least {limit} ms on both sides: {g:.3}; minimum {min:.3} ({name}).",
                    self.long.len()
                );
            }
            _ if self.short.is_empty() => {
                let _ = writeln!(out, "No kernel was measured on the device: no ratio.");
            }
            _ => {
                let _ = writeln!(
                    out,
                    "Headline: no kernel took at least {limit} ms on both sides: no geometric mean."
                );
            }
        }
        if let Some(g) = self.short_geometric_mean() {
            let list: Vec<String> = self
                .short
                .iter()
                .map(|(n, r)| format!("{n} {r:.2}"))
                .collect();
            let _ = writeln!(
                out,
                "Kernels under {limit} ms on either side (launch overhead more than execution; \
                 not in the headline): {} ({}), geometric mean {g:.3}.",
                self.short.len(),
                list.join(", ")
            );
        }
        out
    }
}

/// A time in milliseconds with three significant decimals.
fn ms(d: Duration) -> String {
    let v = d.as_secs_f64() * 1e3;
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// GMAC/s or GB/s of `work` done in `time`.
fn throughput(work: Work, time: Option<Duration>) -> String {
    let Some(t) = time else {
        return "—".into();
    };
    let mut parts = Vec::new();
    if let Some(r) = work.macs.and_then(|m| per_second(m, t)) {
        parts.push(format!("{:.3} GMAC/s", r / 1e9));
    }
    if let Some(r) = work.bytes.and_then(|b| per_second(b, t)) {
        parts.push(format!("{:.2} GB/s", r / 1e9));
    }
    if parts.is_empty() {
        "—".into()
    } else {
        parts.join(", ")
    }
}

/// A cell's text with `|` escaped and kept short.
fn cell(text: &str) -> String {
    let short: String = text.chars().take(70).collect();
    let ell = if text.chars().count() > 70 { "…" } else { "" };
    format!("{}{ell}", short.replace('|', "\\|").replace('\n', " "))
}

impl Row {
    /// Which part of the engine ran the timed dispatches.
    fn engine_kind(&self) -> &'static str {
        match self.jit {
            spvx_exec::JitUse::Ran if self.vector_lanes => "JIT, vector lanes",
            spvx_exec::JitUse::Ran => "JIT",
            spvx_exec::JitUse::FellBack(_) => "interpreter (JIT fell back)",
            _ => "interpreter",
        }
    }

    /// Device time (or why there is none), device setup time, ratio, ratio with setup.
    fn device_cells(&self) -> [String; 4] {
        let dash = || "—".to_string();
        let first = match &self.device {
            DeviceResult::NotRequested => dash(),
            DeviceResult::NotAvailable(why) => format!("not available ({})", cell(why)),
            DeviceResult::Unsupported(why) => format!("unsupported: {}", cell(why)),
            DeviceResult::Failed(why) => format!("failed: {}", cell(why)),
            DeviceResult::Measured { .. } => self.device_median().map_or_else(dash, ms),
        };
        let ratio = |r: Option<f64>| r.map_or_else(dash, |r| format!("{r:.2}"));
        [
            first,
            self.device_setup().map_or_else(dash, ms),
            ratio(self.ratio()),
            ratio(self.ratio_including_setup()),
        ]
    }

    fn check_cell(&self) -> String {
        let mut parts = Vec::new();
        if self.check.engine_mismatches == 0 {
            parts.push(format!(
                "engine {}/{} = ref",
                self.check.engine_runs, self.check.engine_runs
            ));
        } else {
            parts.push(format!(
                "ENGINE MISMATCH {}/{}: {}",
                self.check.engine_mismatches,
                self.check.engine_runs,
                cell(self.check.first_mismatch.as_deref().unwrap_or(""))
            ));
        }
        match &self.check.expected {
            Some(Ok(())) => parts.push("ref = expected".into()),
            Some(Err(e)) => parts.push(format!("REF ≠ EXPECTED: {}", cell(e))),
            None => {}
        }
        if let DeviceResult::Measured {
            runs,
            mismatches,
            first_mismatch,
            ..
        } = &self.device
        {
            if *mismatches == 0 {
                parts.push(format!("device {runs}/{runs} = ref"));
            } else {
                parts.push(format!(
                    "DEVICE MISMATCH {mismatches}/{runs}: {}",
                    cell(first_mismatch.as_deref().unwrap_or(""))
                ));
            }
        }
        parts.join("; ")
    }
}

impl Table {
    /// The geometric mean of the measured ratios, and how many there are.
    pub fn geometric_mean_ratio(&self) -> (Option<f64>, usize) {
        let ratios: Vec<f64> = self.rows.iter().filter_map(Row::ratio).collect();
        (geometric_mean(&ratios), ratios.len())
    }

    /// The geometric mean of the ratios with one-time setup included, and how many.
    pub fn geometric_mean_ratio_including_setup(&self) -> (Option<f64>, usize) {
        let ratios: Vec<f64> = self
            .rows
            .iter()
            .filter_map(Row::ratio_including_setup)
            .collect();
        (geometric_mean(&ratios), ratios.len())
    }

    /// The headline figures: the kernels whose dispatch takes at least [`LONG_KERNEL`] on both
    /// sides apart from the shorter ones (whose ratio measures launch overhead more than
    /// execution).
    pub fn headline(&self) -> Headline {
        let mut long = Vec::new();
        let mut short = Vec::new();
        for r in &self.rows {
            let (Some(ratio), Some(e), Some(d)) = (r.ratio(), r.engine_median(), r.device_median())
            else {
                continue;
            };
            let entry = (r.name.clone(), ratio);
            if e >= LONG_KERNEL && d >= LONG_KERNEL {
                long.push(entry);
            } else {
                short.push(entry);
            }
        }
        Headline { long, short }
    }

    /// Every row passed its checks.
    pub fn passed(&self) -> bool {
        self.rows.iter().all(Row::passed)
    }

    /// The table as markdown: a header paragraph, the table, and the geometric mean.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "Machine: {}. Device: {}.", self.machine, self.device);
        let _ = writeln!(
            out,
            "Per kernel: {} warm-up round(s), then {} timed rounds (at least {} for a kernel with an \
             engine dispatch under {} ms), engine and device alternating. \
             engine ms and device ms are medians of one dispatch, end to end on a module prepared \
             beforehand: engine = `CompiledModule::run` (the inputs the module may write copied into engine \
             memory, the others read where they lie; every workgroup run on the JIT, in its vector lanes where it chooses them, or, for the \
             kernels it does not take, the interpreter (column engine); outputs copied back); interpreter ms = the same dispatch on the interpreter \
             (JIT off) in the same rounds, for the kernels the JIT ran; device = `Prepared::dispatch` of spvx-vk \
             (inputs copied into the mapped buffers, dispatch submitted and waited for, every \
             buffer copied back). Ratio = device ms / engine ms (above 1: the engine is faster). \
             One-time setup, measured once and not in those times: engine compile = \
             `CompiledModule` from the SPIR-V and the JIT's native code; device setup = `VkRunner::prepare` (buffers, \
             descriptor sets, shader module, pipeline, command buffer, and an empty dispatch in \
             which a driver that compiles lazily, such as lavapipe, compiles the shader). Ratio with setup = (device setup + device ms) / (engine compile + \
             engine ms): one run from a module to its outputs on each side (no process start, \
             no device creation).",
            self.warmup,
            self.rounds,
            crate::runner::SHORT_KERNEL_ROUNDS,
            crate::runner::SHORT_KERNEL.as_millis()
        );
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "| kernel | invocations | subgroup | engine | engine ms | device ms | ratio | interpreter ms | engine compile ms | device setup ms | ratio with setup | engine Minv/s | engine rate | device rate | outputs |"
        );
        let _ = writeln!(
            out,
            "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |"
        );
        for r in &self.rows {
            let em = r.engine_median();
            let [dev, setup, ratio, ratio_setup] = r.device_cells();
            let minv = em
                .and_then(|t| per_second(r.invocations, t))
                .map_or("—".into(), |v| format!("{:.2}", v / 1e6));
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(&r.name),
                r.invocations,
                r.subgroup_size,
                r.engine_kind(),
                em.map_or("—".into(), ms),
                dev,
                ratio,
                median(&r.interpreter).map_or("—".into(), ms),
                r.engine_compile.map_or("—".into(), ms),
                setup,
                ratio_setup,
                minv,
                throughput(r.work, em),
                throughput(r.work, r.device_median()),
                r.check_cell()
            );
        }
        let _ = writeln!(out);
        out.push_str(&self.headline().to_markdown());
        if let (Some(g), n) = self.geometric_mean_ratio_including_setup() {
            let _ = writeln!(
                out,
                "Geometric mean of the ratio with one-time setup (engine compile, device setup), over {n} kernels: {g:.3}."
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(engine_ms: u64, device: DeviceResult) -> Row {
        Row {
            name: "k|1".into(),
            invocations: 1000,
            work: Work {
                macs: Some(2_000_000),
                bytes: None,
            },
            subgroup_size: 32,
            engine_compile: Some(Duration::from_millis(1)),
            engine: vec![Duration::from_millis(engine_ms)],
            jit: spvx_exec::JitUse::Ran,
            vector_lanes: false,
            interpreter: Vec::new(),
            device,
            check: Check {
                engine_runs: 2,
                ..Check::default()
            },
        }
    }

    #[test]
    fn ratio_is_device_over_engine() {
        let r = row(
            2,
            DeviceResult::Measured {
                samples: vec![Duration::from_millis(6)],
                runs: 2,
                mismatches: 0,
                first_mismatch: None,
                setup: Some(Duration::from_millis(4)),
            },
        );
        assert_eq!(r.ratio(), Some(3.0));
        // (4 + 6) / (1 + 2)
        assert_eq!(r.ratio_including_setup(), Some(10.0 / 3.0));
        assert!(r.passed());
        let t = Table {
            machine: "m".into(),
            device: "d".into(),
            warmup: 1,
            rounds: 1,
            rows: vec![r],
        };
        let md = t.to_markdown();
        // 2e6 MACs in 2 ms = 1 GMAC/s; 1000 invocations in 2 ms = 0.5 M/s.
        assert!(
            md.contains(
                "| k\\|1 | 1000 | 32 | JIT | 2.00 | 6.00 | 3.00 | — | 1.00 | 4.00 | 3.33 | 0.50 | 1.000 GMAC/s | 0.333 GMAC/s |"
            ),
            "{md}"
        );
        assert!(
            md.contains("at least 1 ms on both sides: 3.000; minimum 3.000 (k|1)."),
            "{md}"
        );
    }

    fn measured(device_ms: f64) -> DeviceResult {
        DeviceResult::Measured {
            samples: vec![Duration::from_secs_f64(device_ms / 1e3)],
            runs: 1,
            mismatches: 0,
            first_mismatch: None,
            setup: None,
        }
    }

    #[test]
    fn the_engine_column_names_the_vector_lanes() {
        let scalar = row(2, DeviceResult::NotRequested);
        let vector = Row {
            vector_lanes: true,
            ..row(2, DeviceResult::NotRequested)
        };
        assert_eq!(scalar.engine_kind(), "JIT");
        assert_eq!(vector.engine_kind(), "JIT, vector lanes");
    }

    #[test]
    fn the_headline_leaves_out_kernels_under_a_millisecond_on_either_side() {
        let named = |name: &str, engine_ms: u64, device: DeviceResult| Row {
            name: name.into(),
            ..row(engine_ms, device)
        };
        let mut tiny = named("tiny", 1, measured(0.5));
        tiny.engine = vec![Duration::from_micros(50)];
        let t = Table {
            machine: "m".into(),
            device: "d".into(),
            warmup: 1,
            rounds: 1,
            rows: vec![
                // ratios 2.0 and 0.5 (the minimum), then 4.0: geometric mean 4^(1/3) · …
                named("fast", 2, measured(4.0)),
                named("slow", 4, measured(2.0)),
                named("mid", 1, measured(4.0)),
                // 0.5 ms on the device: short, although the engine took 1 ms.
                named("short_device", 1, measured(0.5)),
                // 50 µs on the engine: short (ratio 10).
                tiny,
                named("no_device", 3, DeviceResult::NotRequested),
            ],
        };
        let h = t.headline();
        assert_eq!(
            h.long.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            ["fast", "slow", "mid"]
        );
        // (2 · 0.5 · 4)^(1/3) = 4^(1/3)
        let g = h.geometric_mean().unwrap_or(0.0);
        assert!((g - 4f64.powf(1.0 / 3.0)).abs() < 1e-9, "{g}");
        assert_eq!(h.minimum(), Some(("slow", 0.5)));
        // short: 0.5 and 10: geometric mean √5
        let s = h.short_geometric_mean().unwrap_or(0.0);
        assert!((s - 5f64.sqrt()).abs() < 1e-9, "{s}");
        let md = t.to_markdown();
        assert!(
            md.contains("over the 3 kernels whose dispatch takes at least 1 ms on both sides: 1.587; minimum 0.500 (slow)."),
            "{md}"
        );
        assert!(
            md.contains(
                "not in the headline): 2 (short_device 0.50, tiny 10.00), geometric mean 2.236."
            ),
            "{md}"
        );
    }

    #[test]
    fn mismatches_fail_the_row() {
        let mut r = row(1, DeviceResult::NotRequested);
        assert!(r.passed());
        r.check.engine_mismatches = 1;
        assert!(!r.passed());
        let d = row(
            1,
            DeviceResult::Measured {
                samples: vec![Duration::from_millis(1)],
                runs: 1,
                mismatches: 1,
                first_mismatch: Some("x".into()),
                setup: None,
            },
        );
        assert!(!d.passed());
        assert_eq!(
            row(1, DeviceResult::NotAvailable("none".into())).ratio(),
            None
        );
        let slow_setup = row(
            1,
            DeviceResult::Measured {
                samples: vec![Duration::from_millis(3)],
                runs: 1,
                mismatches: 0,
                first_mismatch: None,
                setup: Some(Duration::from_millis(3)),
            },
        );
        assert_eq!(slow_setup.ratio(), Some(3.0));
        // (3 + 3) / (1 + 1)
        assert_eq!(slow_setup.ratio_including_setup(), Some(3.0));
        let mut no_compile = slow_setup.clone();
        no_compile.engine_compile = None;
        assert_eq!(no_compile.ratio_including_setup(), None);
    }
}

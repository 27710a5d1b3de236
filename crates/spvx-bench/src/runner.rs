//! Timing and checking one case: a single-threaded engine reference run, then warm-up and
//! timed rounds in which the engine and the device run alternately, every run's outputs
//! compared bit for bit with the reference.
//!
//! What is timed, the same for both: one dispatch end to end on an already compiled module —
//! for the engine `CompiledModule::run` on a fresh copy of the inputs (copying them into engine
//! memory, running every workgroup, copying the outputs back); for the device
//! [`DeviceKernel::dispatch`] on the kernel prepared once (copying the inputs into its buffers,
//! dispatching, waiting, copying every buffer back). The copy of the inputs made before each
//! engine run is not timed. One-time costs are reported apart: the engine's compilation
//! ([`BenchCase::compile_time`]) and the device's preparation ([`DeviceKernel::setup_time`]).

use crate::case::{BenchCase, DeviceSupport};
use crate::device::{Device, DeviceKernel, DeviceOutputs};
use crate::error::BenchError;
use crate::table::{Check, DeviceResult, Row};
use spvx_exec::{JitUse, Resources, RunConfig};
use spvx_run::ElemType;
use spvx_run::compare::{Tolerance, compare};
use std::time::{Duration, Instant};

/// A kernel with an engine dispatch shorter than this is short: it gets at least
/// [`SHORT_KERNEL_ROUNDS`] timed rounds, since the median of a few sub-millisecond samples
/// varied by a factor of two from run to run on the project's VM.
pub const SHORT_KERNEL: Duration = Duration::from_millis(1);

/// The least number of timed rounds of a short kernel ([`SHORT_KERNEL`]).
pub const SHORT_KERNEL_ROUNDS: usize = 51;

/// Rounds per kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    /// Untimed rounds first (outputs still checked).
    pub warmup: usize,
    /// Timed rounds (at least 1; a short kernel gets at least [`SHORT_KERNEL_ROUNDS`]).
    pub rounds: usize,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            warmup: 1,
            rounds: 5,
        }
    }
}

/// The first difference between two sets of resources, described; `None` when equal.
pub fn first_difference(actual: &Resources, reference: &Resources) -> Option<String> {
    if actual == reference {
        return None;
    }
    for ((key, want), (_, got)) in reference.buffer_elements().zip(actual.buffer_elements()) {
        if let Some(d) = bytes_difference(got, want) {
            let element = if key.2 == 0 {
                String::new()
            } else {
                format!("[{}]", key.2)
            };
            return Some(format!("binding {}.{}{element}: {d}", key.0, key.1));
        }
    }
    Some("a tensor or the set of bindings differs".into())
}

/// Where `got` first differs from `want` (bytes, bit for bit: spvx-run's `compare` as u8
/// elements), shown as the 32-bit word around it.
fn bytes_difference(got: &[u8], want: &[u8]) -> Option<String> {
    let c = compare(want, got, ElemType::U8, Tolerance::EXACT, 1);
    if let Some(d) = c.first_mismatch() {
        let i = d.index;
        let word = i / 4 * 4;
        let show = |b: &[u8]| {
            b.get(word..(word + 4).min(b.len()))
                .map(|s| {
                    s.iter()
                        .rev()
                        .map(|x| format!("{x:02x}"))
                        .collect::<String>()
                })
                .unwrap_or_default()
        };
        return Some(format!(
            "byte {i}: word at {word} is 0x{} (reference 0x{})",
            show(got),
            show(want)
        ));
    }
    c.lengths
        .map(|(want, got)| format!("{got} bytes (reference {want})"))
}

/// The first difference of a device's outputs from the reference run; `None` when every
/// buffer the device returned equals the reference's (a device buffer may be longer: only the
/// reference's length is compared).
pub fn device_difference(outputs: &DeviceOutputs, reference: &Resources) -> Option<String> {
    for ((set, binding, index), got) in outputs {
        let label = if *index == 0 {
            format!("binding {set}.{binding}")
        } else {
            format!("binding {set}.{binding}[{index}]")
        };
        let Some(want) = reference.buffer_element(*set, *binding, *index) else {
            return Some(format!("{label}: not bound on the engine"));
        };
        if got.len() < want.len() {
            return Some(format!(
                "{label}: {} bytes back, reference has {}",
                got.len(),
                want.len()
            ));
        }
        if let Some(d) = bytes_difference(&got[..want.len()], want) {
            return Some(format!("{label}: {d}"));
        }
    }
    None
}

/// Whether the reference run holds the case's expected bytes.
fn check_expected(case: &BenchCase, reference: &Resources) -> Option<Result<(), String>> {
    if case.expected.is_empty() {
        return None;
    }
    for ((set, binding), want) in &case.expected {
        let got = reference
            .buffer(*set, *binding)
            .or_else(|| reference.tensor(*set, *binding).map(|t| t.data.as_slice()));
        let Some(got) = got else {
            return Some(Err(format!("binding {set}.{binding} is not bound")));
        };
        if let Some(d) = bytes_difference(got, want) {
            return Some(Err(format!("binding {set}.{binding}: {d}")));
        }
    }
    Some(Ok(()))
}

/// The device's timed dispatches of one case.
struct DeviceRuns<'a> {
    kernel: Box<dyn DeviceKernel + 'a>,
    samples: Vec<Duration>,
    runs: usize,
    mismatches: usize,
    first_mismatch: Option<String>,
    failure: Option<String>,
}

impl DeviceRuns<'_> {
    fn round(&mut self, case: &BenchCase, reference: &Resources, timed: bool) -> Option<Duration> {
        if self.failure.is_some() {
            return None;
        }
        let start = Instant::now();
        let result = self.kernel.dispatch(&case.resources);
        let elapsed = start.elapsed();
        match result {
            Ok(outputs) => {
                self.runs += 1;
                if let Some(d) = device_difference(&outputs, reference) {
                    self.mismatches += 1;
                    self.first_mismatch.get_or_insert(d);
                }
                if timed {
                    self.samples.push(elapsed);
                }
                Some(elapsed)
            }
            Err(e) => {
                self.failure = Some(e);
                None
            }
        }
    }

    fn result(self) -> DeviceResult {
        match self.failure {
            Some(f) => DeviceResult::Failed(f),
            None => DeviceResult::Measured {
                setup: self.kernel.setup_time(),
                samples: self.samples,
                runs: self.runs,
                mismatches: self.mismatches,
                first_mismatch: self.first_mismatch,
            },
        }
    }
}

/// Runs one case: the reference run, then `opts.warmup + opts.rounds` rounds of engine then
/// device (more timed rounds for a short kernel: [`SHORT_KERNEL`]). `device` is `Ok` with the device to compare with, `Err` with why none is available,
/// or `None` when none was asked for. Progress lines go to `progress`.
pub fn run_case(
    case: &BenchCase,
    device: Option<Result<&mut dyn Device, String>>,
    opts: &BenchOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Row, BenchError> {
    if opts.rounds == 0 {
        return Err(BenchError::Options(
            "at least one timed round is needed".into(),
        ));
    }
    let mut config = case.config.clone();
    if case.subgroup_size_from_device
        && let Some(Ok(d)) = &device
        && let Some(size) = d.subgroup_size()
    {
        config.subgroup_size = size;
    }
    // What the runs at this subgroup size compile besides (the JIT's lanes function at sizes
    // up to 8) is one-time setup too.
    let prepare = std::time::Instant::now();
    case.module.prepare(&config);
    let engine_compile = case.compile_time.map(|t| t + prepare.elapsed());
    let engine_err = |source| BenchError::Engine {
        case: case.name.clone(),
        source,
    };
    progress(&format!(
        "{}: reference run (interpreter, 1 thread)",
        case.name
    ));
    let mut reference = case.resources.clone();
    // The reference is the interpreter on one thread: every timed run (JIT or interpreter,
    // all threads) must give its bytes.
    let single = RunConfig {
        threads: Some(1),
        jit: false,
        ..config.clone()
    };
    case.module
        .run(&mut reference, case.groups, &single)
        .map_err(engine_err)?;
    let mut check = Check {
        expected: check_expected(case, &reference),
        ..Check::default()
    };

    let mut device_runs = None;
    let mut device_result = DeviceResult::NotRequested;
    match (device, &case.device) {
        (None, _) => {}
        (Some(Err(why)), _) => device_result = DeviceResult::NotAvailable(why),
        (Some(Ok(_)), DeviceSupport::Unsupported(why)) => {
            device_result = DeviceResult::Unsupported(why.clone())
        }
        (Some(Ok(d)), DeviceSupport::Supported) => {
            progress(&format!("{}: preparing the device pipeline", case.name));
            match d.prepare(case) {
                Ok(kernel) => {
                    device_runs = Some(DeviceRuns {
                        kernel,
                        samples: Vec::new(),
                        runs: 0,
                        mismatches: 0,
                        first_mismatch: None,
                        failure: None,
                    })
                }
                Err(e) => device_result = DeviceResult::Failed(e),
            }
        }
    }

    let mut engine = Vec::with_capacity(opts.rounds);
    let mut interpreter = Vec::new();
    let mut jit = JitUse::Off;
    let mut vector_lanes = false;
    let mut total = opts.warmup + opts.rounds;
    let mut round = 0;
    while round < total {
        let timed = round >= opts.warmup;
        let mut res = case.resources.clone();
        let start = Instant::now();
        let report = case
            .module
            .run(&mut res, case.groups, &config)
            .map_err(engine_err)?;
        let elapsed = start.elapsed();
        // (Any round can show it: the first may include one-time costs such as page faults.)
        if elapsed < SHORT_KERNEL {
            total = opts.warmup + opts.rounds.max(SHORT_KERNEL_ROUNDS);
        }
        jit = report.jit;
        vector_lanes = report.vector_lanes;
        check.engine_runs += 1;
        if let Some(d) = first_difference(&res, &reference) {
            check.engine_mismatches += 1;
            check.first_mismatch.get_or_insert(d);
        }
        if timed {
            engine.push(elapsed);
        }
        // When the JIT ran it: the interpreter too, in the same round (its speed-up).
        if jit == JitUse::Ran {
            let mut res = case.resources.clone();
            let interp = RunConfig {
                jit: false,
                ..config.clone()
            };
            let start = Instant::now();
            case.module
                .run(&mut res, case.groups, &interp)
                .map_err(engine_err)?;
            let t = start.elapsed();
            check.engine_runs += 1;
            if let Some(d) = first_difference(&res, &reference) {
                check.engine_mismatches += 1;
                check.first_mismatch.get_or_insert(d);
            }
            if timed {
                interpreter.push(t);
            }
        }
        let device_time = device_runs
            .as_mut()
            .and_then(|r| r.round(case, &reference, timed));
        let kind = if timed { "round" } else { "warm-up" };
        progress(&format!(
            "{}: {kind} {}/{total}: engine {:.3} ms{}",
            case.name,
            round + 1,
            elapsed.as_secs_f64() * 1e3,
            device_time.map_or(String::new(), |t| format!(
                ", device {:.3} ms",
                t.as_secs_f64() * 1e3
            ))
        ));
        round += 1;
    }
    if let Some(runs) = device_runs {
        device_result = runs.result();
    }
    Ok(Row {
        name: case.name.clone(),
        invocations: case.invocations(),
        work: case.work,
        subgroup_size: config.subgroup_size,
        engine_compile,
        engine,
        interpreter,
        jit,
        vector_lanes,
        device: device_result,
        check,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_binding_and_byte() {
        let mut a = Resources::new();
        a.set_words(0, 1, &[1, 2, 3]);
        let mut b = a.clone();
        assert_eq!(first_difference(&a, &b), None);
        b.set_words(0, 1, &[1, 2, 0x0403_0201]);
        let d = first_difference(&a, &b).expect("differs");
        assert!(d.starts_with("binding 0.1: byte 8:"), "{d}");
        assert!(d.contains("0x00000003 (reference 0x04030201)"), "{d}");
        let outs: DeviceOutputs = vec![((0, 1, 0), vec![1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 9, 9])];
        assert_eq!(device_difference(&outs, &a), None);
        let short: DeviceOutputs = vec![((0, 1, 0), vec![1, 0, 0, 0])];
        assert!(device_difference(&short, &a).is_some());
        let unbound: DeviceOutputs = vec![((1, 0, 0), vec![])];
        assert!(device_difference(&unbound, &a).is_some());
        // Elements of arrays of buffers are compared with the reference's element.
        a.set_buffer_element(0, 1, 2, vec![7, 7]);
        let element: DeviceOutputs = vec![((0, 1, 2), vec![7, 7])];
        assert_eq!(device_difference(&element, &a), None);
        let wrong: DeviceOutputs = vec![((0, 1, 2), vec![7, 8])];
        let d = device_difference(&wrong, &a).unwrap_or_default();
        assert!(d.starts_with("binding 0.1[2]: byte 1"), "{d}");
    }
}

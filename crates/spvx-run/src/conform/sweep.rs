//! A whole sweep: the forms of the extensions asked for, cut into units (form, chunk), the
//! shard's units run (on the engine in parallel, on a device one at a time), each judged, the
//! units of a form joined into its result, and each case exported when asked.

use super::export;
use super::ext::Ext;
use super::form::{CHUNK, Form, Kind, LOCAL};
use super::inputs;
use super::report::{FORMAT, FormResult, Report};
use super::run::{
    Compiled, DeviceFailure, EngineRun, compile, run_device_with_tensors, run_engine_with,
};
use super::shard::Shard;
use super::verdict::{Counts, Verdict, allowance, judge};
use super::{fixed, intdot, mixdot, smma, tensors};
use spvx_exec::RunConfig;
use spvx_vk::VkRunner;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// Where the forms run.
pub enum Target<'a> {
    /// The engine: the default engine (JIT, threads) against the one-thread interpreter.
    Engine,
    /// A Vulkan device against the engine.
    Device(&'a VkRunner),
}

impl Target<'_> {
    /// The target as reports name it.
    pub fn describe(&self) -> String {
        match self {
            Target::Engine => "engine".to_string(),
            Target::Device(r) => r.report().to_string(),
        }
    }
}

/// A sweep's settings.
#[derive(Clone, Debug)]
pub struct Options {
    pub exts: Vec<Ext>,
    pub seed: u64,
    /// Cases per form (rounded up to a multiple of [`LOCAL`]).
    pub cases: u64,
    pub shard: Shard,
    /// Units run at once on the engine.
    pub jobs: usize,
    /// Only forms whose id contains this text.
    pub only: Option<String>,
    /// Export every case run as an Amber script and a run file into this directory.
    pub amber: Option<PathBuf>,
    /// A vendor profile ([`crate::profile`]): the engine's expected values follow it.
    pub profile: Option<String>,
}

/// The default cases per form.
pub const DEFAULT_CASES: u64 = 1024;

/// Why a sweep stopped.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error("--cases {0}: at least 1")]
    NoCases(u64),
    #[error(transparent)]
    Profile(#[from] crate::profile::UnknownProfile),
    #[error("--only '{0}': no form's id contains it")]
    NoForms(String),
    #[error("--amber {path}: {source}")]
    Export {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// Every form of `exts`, filtered by `only`.
pub fn forms(exts: &[Ext], only: Option<&str>) -> Vec<Form> {
    let mut out = Vec::new();
    for e in exts {
        match e {
            Ext::Intdot => out.extend(intdot::forms()),
            Ext::Mixdot => out.extend(mixdot::forms()),
            Ext::Tensors => out.extend(tensors::forms()),
            Ext::Fixed => out.extend(fixed::forms()),
            Ext::Smma => out.extend(smma::forms()),
        }
    }
    if let Some(o) = only {
        out.retain(|f| f.id.contains(o));
    }
    out
}

/// What running one unit gives.
type UnitResult = Result<(Verdict, Counts), SweepError>;

/// One unit: form index, chunk, invocations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub form: usize,
    pub chunk: u32,
    pub count: u32,
}

/// Cases per form as run: `cases` rounded up to whole workgroups.
pub fn rounded_cases(cases: u64) -> u64 {
    cases.div_ceil(u64::from(LOCAL)) * u64::from(LOCAL)
}

/// The shard's units, in sweep order.
pub fn units(n_forms: usize, cases: u64, shard: Shard) -> Vec<Unit> {
    let cases = rounded_cases(cases);
    let chunks = cases.div_ceil(u64::from(CHUNK));
    let mut out = Vec::new();
    let mut number = 0u64;
    for form in 0..n_forms {
        for c in 0..chunks {
            if shard.takes(number) {
                let count = (cases - c * u64::from(CHUNK)).min(u64::from(CHUNK)) as u32;
                out.push(Unit {
                    form,
                    chunk: c as u32,
                    count,
                });
            }
            number += 1;
        }
    }
    out
}

/// Runs the sweep; `progress(done, total, form id)` hears of each unit finished.
pub fn sweep(
    opts: &Options,
    target: &Target,
    progress: &(dyn Fn(usize, usize, &str) + Sync),
) -> Result<Report, SweepError> {
    if opts.cases == 0 {
        return Err(SweepError::NoCases(opts.cases));
    }
    let mut base = RunConfig::default();
    if let Some(p) = &opts.profile {
        crate::profile::apply(p, &mut base)?;
    }
    let forms = forms(&opts.exts, opts.only.as_deref());
    if forms.is_empty()
        && let Some(o) = &opts.only
    {
        return Err(SweepError::NoForms(o.clone()));
    }
    let units = units(forms.len(), opts.cases, opts.shard);
    let compiled: Vec<OnceLock<Result<Compiled, String>>> =
        forms.iter().map(|_| OnceLock::new()).collect();
    let done = AtomicUsize::new(0);
    let total = units.len();
    let one = |u: &Unit| -> UnitResult {
        let form = &forms[u.form];
        let r = run_unit(opts, &base, target, form, &compiled[u.form], *u);
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress(d, total, &form.id);
        r
    };
    let results: Vec<UnitResult> = match target {
        Target::Device(_) => units.iter().map(one).collect(),
        Target::Engine => {
            let slots: Vec<Mutex<Option<UnitResult>>> =
                units.iter().map(|_| Mutex::new(None)).collect();
            let next = AtomicUsize::new(0);
            std::thread::scope(|s| {
                for _ in 0..opts.jobs.clamp(1, total.max(1)) {
                    s.spawn(|| {
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(u) = units.get(i) else { break };
                            let r = one(u);
                            if let Ok(mut slot) = slots[i].lock() {
                                *slot = Some(r);
                            }
                        }
                    });
                }
            });
            slots
                .into_iter()
                .map(|m| {
                    m.into_inner().ok().flatten().unwrap_or_else(|| {
                        Ok((
                            Verdict::Error {
                                message: "the unit's run panicked".to_string(),
                            },
                            Counts::default(),
                        ))
                    })
                })
                .collect()
        }
    };
    let mut by_form: Vec<Option<FormResult>> = forms.iter().map(|_| None).collect();
    for (u, r) in units.iter().zip(results) {
        let (verdict, counts) = r?;
        let res = FormResult {
            order: u.form as u64,
            id: forms[u.form].id.clone(),
            ext: forms[u.form].ext,
            verdict,
            compared: counts.compared,
            masked: counts.masked,
            chunks: vec![u.chunk],
        };
        match &mut by_form[u.form] {
            Some(f) => f.join(res),
            slot => *slot = Some(res),
        }
    }
    Ok(Report {
        format: FORMAT,
        target: target.describe(),
        seed: opts.seed,
        cases: rounded_cases(opts.cases),
        extensions: opts.exts.clone(),
        shards: vec![opts.shard],
        only: opts.only.clone(),
        profile: opts.profile.clone(),
        forms: by_form.into_iter().flatten().collect(),
    })
}

/// Why the hardware of the run's profile cannot run `form` at all, if it cannot: a profile that
/// names a DPAS platform (`intel-pvc`, …) runs OpSubgroupMatrixMultiplyAccumulateINTEL only at
/// that platform's exec size and with the types its DPAS accepts, so the other forms are
/// UNSUPPORTED for that hardware, on the engine and on a device alike.
fn beyond_profile(opts: &Options, base: &RunConfig, form: &Form, c: &Compiled) -> Option<String> {
    let profile = opts.profile.as_deref()?;
    base.dpas.platform?;
    let mut cfg = base.clone();
    cfg.subgroup_size = form.subgroup_size()?;
    c.engine.check_dpas(&cfg).err().map(|e| {
        let reason = match e {
            spvx_exec::ExecError::Config(m) => m,
            other => other.to_string(),
        };
        format!("the hardware of profile {profile}: {reason}")
    })
}

/// Runs, judges and (when asked) exports one unit.
fn run_unit(
    opts: &Options,
    base: &RunConfig,
    target: &Target,
    form: &Form,
    compiled: &OnceLock<Result<Compiled, String>>,
    u: Unit,
) -> Result<(Verdict, Counts), SweepError> {
    let c = match compiled.get_or_init(|| compile(form)) {
        Ok(c) => c,
        Err(message) => {
            let message = message.clone();
            return Ok((Verdict::Error { message }, Counts::default()));
        }
    };
    let error = |message: String| Ok((Verdict::Error { message }, Counts::default()));
    if let Some(missing) = beyond_profile(opts, base, form, c) {
        return Ok((Verdict::Unsupported { missing }, Counts::default()));
    }
    let inputs = inputs::inputs(form, opts.seed, u.chunk, u.count);
    // The VALVE dots' expected values come from spvx-num's batch functions directly.
    let reference = match &form.kind {
        Kind::MixDot(f) => {
            mixdot::expected(f, &inputs, u.count, &base.mixdot).map(|out| EngineRun {
                out,
                masked: Default::default(),
                tensors: Vec::new(),
            })
        }
        _ => run_engine_with(c, form, &inputs, u.count, true, base),
    };
    let expected = match reference {
        Ok(e) => e,
        Err(m) => return error(m),
    };
    if let Some(dir) = &opts.amber {
        export::write_case(dir, form, c, opts.seed, u.chunk, &inputs, &expected).map_err(
            |source| SweepError::Export {
                path: dir.display().to_string(),
                source,
            },
        )?;
    }
    let (got, got_tensors) = match target {
        Target::Engine => match run_engine_with(c, form, &inputs, u.count, false, base) {
            Ok(g) => (g.out, g.tensors),
            Err(m) => return error(m),
        },
        Target::Device(r) => match run_device_with_tensors(r, c, form, &inputs, u.count) {
            Ok(g) => g,
            Err(DeviceFailure::Unsupported(missing)) => {
                return Ok((Verdict::Unsupported { missing }, Counts::default()));
            }
            Err(DeviceFailure::Error(m)) => return error(format!("{}: {m}", form.id)),
        },
    };
    // The engine target checks the default engine against the interpreter: the same model,
    // so no difference is allowed there.
    let allow = match target {
        Target::Engine => None,
        Target::Device(_) => allowance(form, &inputs),
    };
    let (verdict, counts) = judge(form, u.chunk, &inputs, &expected, &got, allow.as_deref());
    // Tensor forms: the tensors after the run too (writes outside dropped, nothing else
    // touched).
    let verdict = match tensors::judge::tensors(
        form,
        u.chunk,
        u.count,
        &inputs,
        &expected.tensors,
        &got_tensors,
    ) {
        Some(t) => verdict.join(t),
        None => verdict,
    };
    Ok((verdict, counts))
}

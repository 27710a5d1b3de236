//! `spvx diff RUN`: runs the same run on the engine (spvx-exec) and on a Vulkan device
//! (spvx-vk), compares every buffer element by element under the specification's freedoms
//! (spvx-run's `diff` and `compare::SpecJudge`; bit for bit with --bitwise), and prints the
//! first differences with their verdicts. Parsing and printing only.

use crate::cmd::run::output::{print_summary, print_written};
use crate::cmd::run::{RunArgs, plan_of};
use crate::cmd::{CmdResult, error, report};
use spvx_run::ElemType;
use spvx_run::compare::{ElementVerdict, SpecJudge, Tolerance, Verdict, judge_for};
use spvx_run::device::{Loaded, open};
use spvx_run::diff::{BindingDiff, diff_outputs, diff_outputs_judged, write_both};
use std::collections::BTreeMap;
use std::process::ExitCode;

const HELP: &str = "\
RUN is a run file (TOML) or the command-line form of `spvx run` (same options; see
`spvx run --help`). --out DIR (given on the command line; nothing is written without it)
writes both sides' outputs, DIR/engine and DIR/device, as `spvx run --out` does (--format npy:
in the shape and dtype of each binding's type). The engine runs with the device's subgroup size unless --subgroup-size
is given. Each buffer is compared element by element as the type --as gives, else its
expected data's type, else its input data's type, else the scalar type of its block in the
module, else u8.

Each element that differs is judged with what the module says about the binding
(docs/semantics/comparison.md):
  allowed     the specification leaves a freedom that gives the device's value, named: NaN
              payloads; an OpFMul contracted into the OpFAdd/OpFSub using it (no
              NoContraction); GLSL.std.450 Fma computed unfused; a subnormal flushed to zero
              (no DenormPreserve); the Vulkan precision bound of the last operation (OpFDiv
              2.5 ULP, inversesqrt 2 ULP, exp, log, sin, cos); a VALVE accumulation model.
              The engine computes each alternative exactly (a variant of the module).
  undecided   a freedom applies whose extent spvx cannot bound for this element (a bound that
              depends on an operand, an inexact operation before the last one, the unspecified
              rounding mode one ULP away); not a failure.
  VIOLATION   no freedom covers the difference (a failure).
--bitwise compares bit for bit instead: every difference but NaN payloads (and floats within
--ulps) is a mismatch.

EXIT STATUS: 0 when no element is a violation (allowed and undecided differences included); 1
on a violation or an error; 3 when every violation follows undefined behaviour the engine
reported (whose results no spec defines).";

/// Run on the engine and on a Vulkan device and compare the outputs bit for bit.
#[derive(clap::Args)]
#[command(after_long_help = HELP)]
pub struct DiffArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Accept floats at most N units in the last place apart.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub ulps: u64,
    /// Compare bit for bit, without the specification's freedoms.
    #[arg(long)]
    pub bitwise: bool,
    /// Compare binding SET.BINDING as elements of TYPE (u8 ... f64, bf16, e4m3, e5m2).
    #[arg(long = "as", value_name = "SET.BINDING=TYPE")]
    pub types: Vec<String>,
    /// Differences printed per binding.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub show: usize,
    /// Self-test: flip bit BIT of byte BYTE of the engine's output SET.BINDING before comparing.
    #[arg(long, value_name = "SET.BINDING:BYTE:BIT", hide = true)]
    pub flip_engine_bit: Option<String>,
    /// Self-test: set element ELEMENT (a 32-bit word) of the device's output SET.BINDING to
    /// the bits BITS (0x...) before comparing.
    #[arg(long, value_name = "SET.BINDING:ELEMENT=BITS", hide = true)]
    pub set_device_word: Vec<String>,
}

/// `SET.BINDING:ELEMENT=0xBITS`.
fn parse_set_word(t: &str) -> Result<((u32, u32), usize, u32), String> {
    let err = || format!("error: --set-device-word {t}: expected SET.BINDING:ELEMENT=0xBITS");
    let (place, bits) = t.split_once('=').ok_or_else(err)?;
    let (b, e) = place.split_once(':').ok_or_else(err)?;
    let b = parse_binding(b).ok_or_else(err)?;
    let e = e.parse().map_err(|_| err())?;
    let bits = bits.strip_prefix("0x").ok_or_else(err)?;
    let bits = u32::from_str_radix(bits, 16).map_err(|_| err())?;
    Ok((b, e, bits))
}

/// `SET.BINDING`.
fn parse_binding(t: &str) -> Option<(u32, u32)> {
    let (s, b) = t.split_once('.')?;
    Some((s.parse().ok()?, b.parse().ok()?))
}

/// `SET.BINDING=TYPE` options.
fn parse_types(args: &[String]) -> Result<BTreeMap<(u32, u32), ElemType>, String> {
    let mut out = BTreeMap::new();
    for a in args {
        let parsed = a
            .split_once('=')
            .and_then(|(b, t)| Some((parse_binding(b)?, ElemType::from_name(t)?)));
        let Some((b, t)) = parsed else {
            return Err(format!(
                "error: --as {a}: expected SET.BINDING=TYPE, TYPE one of {}",
                ElemType::names()
            ));
        };
        out.insert(b, t);
    }
    Ok(out)
}

/// `SET.BINDING:BYTE:BIT`.
fn parse_flip(t: &str) -> Result<((u32, u32), usize, u8), String> {
    let err = || format!("error: --flip-engine-bit {t}: expected SET.BINDING:BYTE:BIT");
    let mut parts = t.split(':');
    let b = parts.next().and_then(parse_binding).ok_or_else(err)?;
    let byte = parts.next().and_then(|x| x.parse().ok()).ok_or_else(err)?;
    let bit: u8 = parts.next().and_then(|x| x.parse().ok()).ok_or_else(err)?;
    if bit > 7 || parts.next().is_some() {
        return Err(err());
    }
    Ok((b, byte, bit))
}

pub fn run(args: DiffArgs) -> CmdResult {
    let types = parse_types(&args.types)?;
    let flip = args
        .flip_engine_bit
        .as_deref()
        .map(parse_flip)
        .transpose()?;
    let set_words = args
        .set_device_word
        .iter()
        .map(|t| parse_set_word(t))
        .collect::<Result<Vec<_>, _>>()?;
    let mut plan = plan_of(&args.run)?;
    let device = args.run.device_choice()?.unwrap_or_else(|| "vulkan".into());
    let loaded = Loaded::load(&plan, &mut |w| eprintln!("warning: {w}")).map_err(report)?;
    let compiled = loaded.compiled.as_ref().map_err(report)?;
    let runner = open(&device).map_err(error)?;
    if args.run.subgroup_size.is_none() {
        plan.config.subgroup_size = runner.report().subgroup_size;
    }
    // The engine, recording which invocation wrote each output byte (named with mismatches).
    let inputs = loaded.resources();
    let mut res = inputs.clone();
    let config = spvx_exec::RunConfig {
        track_writers: true,
        ..plan.config.clone()
    };
    let report = compiled
        .run(&mut res, plan.groups, &config)
        .map_err(|e| report(loaded.module.placed(e)))?;
    print!("engine: ");
    print_summary(
        &loaded.module,
        &loaded.entry,
        plan.groups,
        compiled.local_size(),
        &report,
    );
    if let Some((b, byte, bit)) = flip {
        let buf = res
            .buffer_mut(b.0, b.1)
            .filter(|x| byte < x.len())
            .ok_or_else(|| {
                format!(
                    "error: --flip-engine-bit: no byte {byte} in binding {}.{}",
                    b.0, b.1
                )
            })?;
        buf[byte] ^= 1 << bit;
    }
    // The device.
    let mut out = loaded
        .run_on_with(&runner, &plan, args.run.subgroup_size)
        .map_err(error)?;
    for ((set, binding), element, bits) in set_words {
        let word = out
            .buffers
            .iter_mut()
            .find(|b| (b.set, b.binding) == (set, binding))
            .and_then(|b| b.bytes.get_mut(element * 4..element * 4 + 4))
            .ok_or_else(|| {
                format!("error: --set-device-word: no element {element} in binding {set}.{binding}")
            })?;
        word.copy_from_slice(&bits.to_le_bytes());
    }
    println!(
        "device: {} (engine subgroup size {})",
        out.device, plan.config.subgroup_size
    );
    // Only an explicit --out: the command-line form's default (the current directory) and a
    // run file's `out` are `spvx run`'s.
    if let Some(dir) = &args.run.out {
        spvx_run::outputs::check_out_dir(dir).map_err(error)?;
        for (d, names) in write_both(&plan, &loaded, &res, &out, dir).map_err(error)? {
            print_written(&names, &d);
        }
    }
    // Buffers, then tensors (their whole byte layout, padding included).
    let tolerance = Tolerance::between_implementations(args.ulps);
    let bitwise = diff_outputs(&plan, &loaded, &res, &out, &types, tolerance, args.show);
    // The judge's alternatives are engine runs: made only when some bytes differ.
    let all_same = bitwise.iter().all(|d| {
        let c = &d.comparison;
        c.mismatches + c.undefined + c.within_ulps == 0 && c.lengths.is_none()
    });
    let outputs = if args.bitwise || all_same {
        bitwise
    } else {
        let mut judge: SpecJudge = judge_for(&loaded, &plan, &inputs, &config);
        judge.tolerance_ulps = args.ulps;
        for why in &judge.unevaluated {
            println!("note: {why}");
        }
        diff_outputs_judged(
            &plan, &loaded, &res, &out, &types, tolerance, &judge, args.show,
        )
    };
    let mut differing = 0;
    for d in &outputs {
        let failed = match &d.spec {
            Some(spec) => print_judged(d, spec, &report),
            None => print_bitwise(d, &report, args.ulps),
        };
        if failed {
            differing += 1;
        }
    }
    let total = outputs.len();
    if differing == 0 {
        println!("SAME: {total} of {total} bindings match");
        return Ok(ExitCode::SUCCESS);
    }
    println!("DIFF: {differing} of {total} bindings differ beyond what the specification allows");
    if report.total_events > 0 {
        println!(
            "note: the engine reported {} undefined-behaviour event(s) (listed above); results of undefined operations are not defined, so these differences are not errors of either side",
            report.total_events
        );
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::FAILURE)
}

/// Who wrote byte `byte` of the binding, for difference lines.
fn writer(d: &BindingDiff, report: &spvx_exec::RunReport, byte: usize) -> String {
    // The engine tracks writers per binding, not per element of an array of buffers.
    match report.writer_of(d.set, d.binding, byte) {
        _ if d.is_array => "writers of array elements are not tracked".to_string(),
        Some(w) => format!("written by {w}"),
        None => "not written by the engine (its input value)".to_string(),
    }
}

/// Prints one binding compared bit for bit; true when it fails.
fn print_bitwise(d: &BindingDiff, report: &spvx_exec::RunReport, ulps: u64) -> bool {
    let (c, elem, label) = (&d.comparison, d.elem, &d.label);
    if let Some((e, d)) = c.lengths {
        println!("DIFF {label}: the engine has {e} bytes, the device {d}");
    }
    if c.mismatches == 0 {
        println!("SAME {label}: {} {elem} elements", c.elements);
    } else {
        println!(
            "DIFF {label}: {} of {} {elem} elements differ",
            c.mismatches, c.elements
        );
    }
    if c.undefined > 0 {
        println!(
            "UNDEFINED {label}: {} element(s) are NaNs with different bits (SPIR-V defines no NaN payloads)",
            c.undefined
        );
    }
    if c.within_ulps > 0 {
        println!(
            "WITHIN {label}: {} element(s) differ by at most {ulps} ULPs",
            c.within_ulps
        );
    }
    for x in &c.listed {
        let what = match x.verdict {
            Verdict::Mismatch => "mismatch".to_string(),
            Verdict::NanPayload => "undefined (NaN payload)".to_string(),
            Verdict::WithinUlps(n) => format!("{n} ULPs apart"),
        };
        println!(
            "  element {} (byte {}): engine {}, device {}: {what}; {}",
            x.index,
            x.byte,
            elem.display(x.expected),
            elem.display(x.actual),
            writer(d, report, x.byte)
        );
    }
    !c.passed()
}

/// Prints one binding judged under the specification; true when it fails (a violation within
/// --ulps is allowed as the tolerance asked for, and named so).
fn print_judged(
    d: &BindingDiff,
    spec: &spvx_run::compare::SpecComparison,
    report: &spvx_exec::RunReport,
) -> bool {
    let (elem, label) = (d.elem, &d.label);
    let violations = spec.violations;
    if let Some((e, d)) = spec.lengths {
        println!("DIFF {label}: the engine has {e} bytes, the device {d}");
    }
    let differing = spec.allowed + spec.undecided + spec.violations;
    if differing == 0 {
        println!("SAME {label}: {} {elem} elements", spec.elements);
    } else if violations == 0 {
        println!(
            "SAME {label}: {} {elem} elements; {differing} differ as the specification allows or cannot decide",
            spec.elements
        );
    } else {
        println!(
            "DIFF {label}: {violations} of {} {elem} elements differ beyond what the specification allows",
            spec.elements
        );
    }
    if spec.allowed > 0 {
        println!(
            "ALLOWED {label}: {} element(s) differ as the specification allows",
            spec.allowed
        );
    }
    if spec.undecided > 0 {
        println!(
            "UNDECIDED {label}: {} element(s) differ under a freedom spvx cannot bound here",
            spec.undecided
        );
    }
    for x in &spec.listed {
        let what = match &x.verdict {
            ElementVerdict::Violation(v) => format!("mismatch; VIOLATION: {v}"),
            v => v.to_string(),
        };
        println!(
            "  element {} (byte {}): engine {}, device {}: {what}; {}",
            x.index,
            x.byte,
            elem.display(x.expected),
            elem.display(x.actual),
            writer(d, report, x.byte)
        );
    }
    violations > 0 || spec.lengths.is_some()
}

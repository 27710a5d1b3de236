//! `spvx diff RUN`: runs the same run on the engine (spvx-exec) and on a Vulkan device
//! (spvx-vk), compares every buffer bit for bit (spvx-run's `diff` and `compare`), and prints
//! the first differences. Parsing and printing only.

use crate::cmd::run::output::print_summary;
use crate::cmd::run::{RunArgs, plan_of};
use crate::cmd::{CmdResult, error, report};
use spvx_run::ElemType;
use spvx_run::compare::{Tolerance, Verdict};
use spvx_run::device::{Loaded, open};
use spvx_run::diff::diff_outputs;
use std::collections::BTreeMap;
use std::process::ExitCode;

const HELP: &str = "\
RUN is a run file (TOML) or the command-line form of `spvx run` (same options; see
`spvx run --help`). The engine runs with the device's subgroup size unless --subgroup-size
is given. Each buffer is compared element by element as the type --as gives, else its
expected data's type, else its input data's type, else the scalar type of its block in the
module, else u8.

Differences:
  mismatch       different bits (a failure)
  undefined      two NaNs with different bits: SPIR-V defines no NaN payloads (not a failure)
  within N ULPs  floats at most --ulps apart (not a failure; only with --ulps). Use it where
                 a spec leaves precision open: Vulkan allows inexact division (2.5 ULP),
                 transcendental GLSL.std.450 functions, OpDot and the matrix products'
                 summation order; +, -, *, conversions and integers are exact.

EXIT STATUS: 0 when every buffer matches; 1 on a mismatch or an error; 3 when every mismatch
follows undefined behaviour the engine reported (whose results no spec defines).";

/// Run on the engine and on a Vulkan device and compare the outputs bit for bit.
#[derive(clap::Args)]
#[command(after_long_help = HELP)]
pub struct DiffArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Accept floats at most N units in the last place apart.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub ulps: u64,
    /// Compare binding SET.BINDING as elements of TYPE (u8 ... f64, bf16, e4m3, e5m2).
    #[arg(long = "as", value_name = "SET.BINDING=TYPE")]
    pub types: Vec<String>,
    /// Differences printed per binding.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub show: usize,
    /// Self-test: flip bit BIT of byte BYTE of the engine's output SET.BINDING before comparing.
    #[arg(long, value_name = "SET.BINDING:BYTE:BIT", hide = true)]
    pub flip_engine_bit: Option<String>,
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
    let mut plan = plan_of(&args.run)?;
    let device = args.run.device.clone().unwrap_or_else(|| "vulkan".into());
    let loaded = Loaded::load(&plan, &mut |w| eprintln!("warning: {w}")).map_err(report)?;
    let compiled = loaded.compiled.as_ref().map_err(report)?;
    let runner = open(&device).map_err(error)?;
    if args.run.subgroup_size.is_none() {
        plan.config.subgroup_size = runner.report().subgroup_size;
    }
    // The engine, recording which invocation wrote each output byte (named with mismatches).
    let mut res = loaded.resources();
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
    let out = loaded.run_on(&runner, &plan).map_err(error)?;
    println!(
        "device: {} (engine subgroup size {})",
        out.device, plan.config.subgroup_size
    );
    // Buffers, then tensors (their whole byte layout, padding included).
    let tolerance = Tolerance::between_implementations(args.ulps);
    let outputs = diff_outputs(&plan, &loaded, &res, &out, &types, tolerance, args.show);
    let mut differing = 0;
    for d in &outputs {
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
                "WITHIN {label}: {} element(s) differ by at most {} ULPs",
                c.within_ulps, args.ulps
            );
        }
        for x in &c.listed {
            let what = match x.verdict {
                Verdict::Mismatch => "mismatch".to_string(),
                Verdict::NanPayload => "undefined (NaN payload)".to_string(),
                Verdict::WithinUlps(n) => format!("{n} ULPs apart"),
            };
            // The engine tracks writers per binding, not per element of an array of buffers.
            let writer = match report.writer_of(d.set, d.binding, x.byte) {
                _ if d.is_array => "writers of array elements are not tracked".to_string(),
                Some(w) => format!("written by {w}"),
                None => "not written by the engine (its input value)".to_string(),
            };
            println!(
                "  element {} (byte {}): engine {}, device {}: {what}; {writer}",
                x.index,
                x.byte,
                elem.display(x.expected),
                elem.display(x.actual)
            );
        }
        if !c.passed() {
            differing += 1;
        }
    }
    let total = outputs.len();
    if differing == 0 {
        println!("SAME: {total} of {total} bindings match");
        return Ok(ExitCode::SUCCESS);
    }
    println!("DIFF: {differing} of {total} bindings differ");
    if report.total_events > 0 {
        println!(
            "note: the engine reported {} undefined-behaviour event(s) (listed above); results of undefined operations are not defined, so these differences are not errors of either side",
            report.total_events
        );
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::FAILURE)
}

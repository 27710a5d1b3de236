//! The command-line form: `spvx run MODULE --groups X[,Y,Z] --buffer SET.BINDING=SOURCE ...`
//! turned into a [`RunPlan`], and the argument syntax only the command line has (binding
//! names, `--spec ID=VALUE`, `--arg N=SOURCE`, `--local X[,Y,Z]`).

use super::RunArgs;
use crate::cmd::error;
use spvx_run::data::{DataSpec, parse_count};
use spvx_run::kernel::{ArgPlan, ArgSource};
use spvx_run::parse::{parse_groups, parse_spec_value};
use spvx_run::{BufferPlan, OutFormat, RunPlan, TensorPlan};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The plan of a command-line run.
pub fn plan(args: &RunArgs) -> Result<RunPlan, String> {
    let groups = match &args.groups {
        Some(g) => parse_groups(g).map_err(|e| format!("error: --groups {g}: {e}"))?,
        None => {
            return Err("error: --groups X[,Y,Z] is required (the number of workgroups)".into());
        }
    };
    let mut buffers = Vec::new();
    for b in &args.buffers {
        let (set, binding, index, source) =
            parse_element_arg(b).map_err(|e| format!("error: --buffer {b}: {e}"))?;
        let element = index.map_or_else(String::new, |i| format!("[{i}]"));
        buffers.push(BufferPlan {
            set,
            binding,
            index,
            data: DataSpec::parse_source(source)
                .map_err(|e| format!("error: --buffer {b}: {e}"))?,
            expect: None,
            origin: format!("--buffer {set}.{binding}{element}"),
        });
    }
    let mut tensors = Vec::new();
    for t in &args.tensors {
        let (set, binding, index, source) =
            parse_element_arg(t).map_err(|e| format!("error: --tensor {t}: {e}"))?;
        let element = index.map_or_else(String::new, |i| format!("[{i}]"));
        tensors.push(TensorPlan {
            set,
            binding,
            index,
            data: DataSpec::parse_source(source)
                .map_err(|e| format!("error: --tensor {t}: {e}"))?,
            shape: None,
            strides: None,
            expect: None,
            origin: format!("--tensor {set}.{binding}{element}"),
        });
    }
    let push = match &args.push {
        Some(p) => Some(DataSpec::parse_source(p).map_err(|e| format!("error: --push {p}: {e}"))?),
        None => None,
    };
    Ok(RunPlan {
        module: args.input.clone(),
        base: PathBuf::new(),
        entry: args.entry.clone(),
        groups,
        buffers,
        tensors,
        push,
        spec: parse_spec_args(&args.spec)?,
        config: args.options().config().map_err(error)?,
        out: Some(args.out.clone().unwrap_or_else(|| PathBuf::from("."))),
        args: args
            .kernel_args
            .iter()
            .map(|a| parse_arg(a))
            .collect::<Result<_, _>>()?,
        local: match &args.local {
            Some(l) => Some(parse_local(l).map_err(|e| format!("error: --local {l}: {e}"))?),
            None => None,
        },
        limits: spvx_val::Limits::default(),
        strict_bindings: args.strict_bindings,
        out_format: args
            .format
            .as_deref()
            .and_then(OutFormat::from_name)
            .unwrap_or_default(),
    })
}

/// The `--spec ID=VALUE` arguments.
pub fn parse_spec_args(args: &[String]) -> Result<BTreeMap<u32, u64>, String> {
    let mut out = BTreeMap::new();
    for s in args {
        let (id, value) = s
            .split_once('=')
            .ok_or_else(|| format!("error: --spec {s}: expected ID=VALUE, e.g. --spec 0=64"))?;
        let id: u32 = id
            .trim()
            .parse()
            .map_err(|_| format!("error: --spec {s}: '{id}' is not a SpecId (a 32-bit number)"))?;
        let bits = parse_spec_value(value).map_err(|e| format!("error: --spec {s}: {e}"))?;
        if out.insert(id, bits).is_some() {
            return Err(format!("error: --spec {s}: SpecId {id} is given twice"));
        }
    }
    Ok(out)
}

/// `SET.BINDING[INDEX]=REST` (the `[INDEX]` of an element of an array of buffers or tensors
/// is optional) → (set, binding, index, REST).
pub fn parse_element_arg(text: &str) -> Result<(u32, u32, Option<u32>, &str), String> {
    let (key, rest) = text
        .split_once('=')
        .ok_or("expected SET.BINDING=SOURCE or SET.BINDING[INDEX]=SOURCE, e.g. 0.1=input.bin")?;
    let Some((key, index)) = key.trim().strip_suffix(']').and_then(|k| k.split_once('[')) else {
        let (set, binding) = parse_binding(key)?;
        return Ok((set, binding, None, rest));
    };
    let index: u32 = index
        .trim()
        .parse()
        .map_err(|_| format!("'{index}' is not an element index (a number from 0)"))?;
    let (set, binding) = parse_binding(key)?;
    Ok((set, binding, Some(index), rest))
}

/// `SET.BINDING` → (set, binding).
pub fn parse_binding(key: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{key}' is not SET.BINDING (two numbers, e.g. 0.1)");
    let (s, b) = key.split_once('.').ok_or_else(bad)?;
    Ok((
        s.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    ))
}

/// `N=SOURCE` of `--arg`: SOURCE as for `--buffer`, or `local:BYTES`.
pub fn parse_arg(text: &str) -> Result<ArgPlan, String> {
    let (n, source) = text
        .split_once('=')
        .ok_or_else(|| format!("error: --arg {text}: expected N=SOURCE, e.g. --arg 0=f32:1.5"))?;
    let index: u32 = n.trim().parse().map_err(|_| {
        format!("error: --arg {text}: '{n}' is not an argument index (0 is the first)")
    })?;
    let source = parse_arg_source(source).map_err(|e| format!("error: --arg {text}: {e}"))?;
    Ok(ArgPlan {
        index,
        source,
        expect: None,
        origin: format!("--arg {index}"),
    })
}

/// `local:BYTES`, or a data SOURCE.
fn parse_arg_source(text: &str) -> Result<ArgSource, String> {
    if let Some(n) = text.strip_prefix("local:") {
        let bytes = parse_count(n)
            .ok_or_else(|| format!("'{text}': local:BYTES needs a byte count, e.g. local:256"))?;
        return Ok(ArgSource::Local(bytes));
    }
    Ok(ArgSource::Data(
        DataSpec::parse_source(text).map_err(|e| e.to_string())?,
    ))
}

/// `X[,Y,Z]` of `--local`: one to three sizes from 1 (missing ones are 1).
pub fn parse_local(text: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err("at most three sizes (X,Y,Z)".into());
    }
    let mut out = [1u32; 3];
    for (slot, p) in out.iter_mut().zip(&parts) {
        let n: u32 = p
            .trim()
            .parse()
            .map_err(|_| format!("'{p}' is not a local size (a number from 1)"))?;
        if n == 0 {
            return Err("a local size of 0 has no invocations; sizes start at 1".into());
        }
        *slot = n;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_and_specs() {
        assert_eq!(
            parse_element_arg("1.2=zeros:4"),
            Ok((1, 2, None, "zeros:4"))
        );
        assert!(parse_element_arg("1=zeros:4").is_err());
        assert!(parse_element_arg("1.2").is_err());
        assert_eq!(
            parse_element_arg("0.1[2]=zeros:4"),
            Ok((0, 1, Some(2), "zeros:4"))
        );
        assert_eq!(parse_element_arg("0.1=a.bin"), Ok((0, 1, None, "a.bin")));
        assert!(parse_element_arg("0.1[x]=a.bin").is_err());
        assert!(parse_element_arg("0.1[-1]=a.bin").is_err());
        assert!(parse_element_arg("0[1]=a.bin").is_err());
        assert_eq!(
            parse_spec_args(&["0=64".into(), "1=f32:1.5".into()])
                .map(|m| m.into_values().collect::<Vec<_>>()),
            Ok(vec![64, 0x3fc0_0000])
        );
        assert!(parse_spec_args(&["0=1".into(), "0=2".into()]).is_err());
        assert_eq!(parse_local("16,2"), Ok([16, 2, 1]));
        assert!(parse_local("0").is_err());
    }
}

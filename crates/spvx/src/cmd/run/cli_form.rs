//! The command-line form: `spvx run MODULE --groups X[,Y,Z] --buffer SET.BINDING=SOURCE ...`
//! turned into a [`RunPlan`], and the small parsers it shares with run files (groups, binding
//! names, specialisation-constant values).

use super::RunArgs;
use super::data::DataSpec;
use super::elem::ElemType;
use super::plan::{BufferPlan, RunPlan, TensorPlan};
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
        config: args.options().config()?,
        out: Some(args.out.clone().unwrap_or_else(|| PathBuf::from("."))),
        args: args
            .kernel_args
            .iter()
            .map(|a| super::kernel_args::parse_arg(a))
            .collect::<Result<_, _>>()?,
        local: match &args.local {
            Some(l) => Some(
                super::kernel_args::parse_local(l)
                    .map_err(|e| format!("error: --local {l}: {e}"))?,
            ),
            None => None,
        },
        limits: spvx_val::Limits::default(),
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

/// A specialisation-constant value: `true`/`false`, an integer (decimal, negative numbers as
/// two's complement, or `0x` bits), or `TYPE:VALUE` with an element type (`f32:1.5`,
/// `f16:0.1`, `i8:-3`), which gives that type's bits.
pub fn parse_spec_value(text: &str) -> Result<u64, String> {
    let t = text.trim();
    match t {
        "true" => return Ok(1),
        "false" => return Ok(0),
        _ => {}
    }
    if let Some((ty, v)) = t.split_once(':') {
        let elem = ElemType::from_name(ty)
            .ok_or_else(|| format!("'{ty}' is not an element type ({})", ElemType::names()))?;
        return elem.encode_text(v);
    }
    if let Ok(v) = t.parse::<i64>() {
        return Ok(v as u64);
    }
    if let Ok(v) = t.parse::<u64>() {
        return Ok(v);
    }
    ElemType::U64.encode_text(t).map_err(|_| {
        format!("'{t}' is not a value: write true/false, an integer, 0x bits, or TYPE:VALUE such as f32:1.5")
    })
}

/// `X[,Y,Z]`: one to three workgroup counts, each at least 1 (missing ones are 1).
pub fn parse_groups(text: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err("at most three counts (X,Y,Z)".into());
    }
    let mut out = [1u32; 3];
    for (slot, p) in out.iter_mut().zip(&parts) {
        let n: u32 = p
            .trim()
            .parse()
            .map_err(|_| format!("'{p}' is not a workgroup count (a number from 1)"))?;
        if n == 0 {
            return Err("a workgroup count of 0 runs nothing; counts start at 1".into());
        }
        *slot = n;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups() {
        assert_eq!(parse_groups("4"), Ok([4, 1, 1]));
        assert_eq!(parse_groups("4,2"), Ok([4, 2, 1]));
        assert_eq!(parse_groups("4,2,3"), Ok([4, 2, 3]));
        assert!(parse_groups("4,2,3,1").is_err());
        assert!(parse_groups("0").is_err());
        assert!(parse_groups("a").is_err());
        assert!(parse_groups("").is_err());
    }

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
        assert_eq!(parse_spec_value("64"), Ok(64));
        assert_eq!(parse_spec_value("-1"), Ok(u64::MAX));
        assert_eq!(parse_spec_value("true"), Ok(1));
        assert_eq!(parse_spec_value("0x10"), Ok(16));
        // f32 1.5 = 0x3fc00000.
        assert_eq!(parse_spec_value("f32:1.5"), Ok(0x3fc0_0000));
        assert!(parse_spec_value("1.5").is_err());
        assert!(parse_spec_value("q8:1").is_err());
    }
}

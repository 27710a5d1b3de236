//! Run files (TOML): the schema, its validation with `file:line:column` errors, and its
//! translation into a [`RunPlan`]. The schema is documented in `spvx run --help` (the
//! `RUN FILES` section of `super::HELP`) and in docs/semantics/run.md.
//!
//! Unknown keys and wrong types are reported by the TOML parser (with line and column);
//! everything else (one data source per table, value ranges, random bounds) here, with the
//! place of the offending value.

use super::cli_form::{parse_groups, parse_spec_value};
use super::data::{DataSpec, Range, parse_count};
use super::elem::ElemType;
use super::kernel_args::{ArgPlan, ArgSource};
use super::options::RunOptions;
use super::plan::{BufferPlan, ExpectPlan, RunPlan, TensorPlan};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range as Span;
use std::path::{Path, PathBuf};
use toml::{Spanned, Value};

/// A run file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunFile {
    module: Spanned<String>,
    entry: Option<String>,
    groups: Spanned<Value>,
    out: Option<String>,
    #[serde(default)]
    spec: BTreeMap<String, Spanned<Value>>,
    #[serde(default)]
    run: RunOptions,
    push: Option<Spanned<DataTable>>,
    #[serde(default)]
    buffer: Vec<Spanned<BufferTable>>,
    #[serde(default)]
    tensor: Vec<Spanned<TensorTable>>,
    #[serde(default)]
    arg: Vec<Spanned<ArgTable>>,
    /// Kernel entry points: the dispatch's local size (as `groups`).
    local: Option<Spanned<Value>>,
}

/// One `[[arg]]` of a Kernel entry point: `data` (buffers and values) or `local` (bytes of
/// local memory).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArgTable {
    index: u32,
    /// A note for people (shown nowhere).
    #[allow(dead_code)]
    name: Option<String>,
    data: Option<Spanned<DataTable>>,
    local: Option<Spanned<Value>>,
    expect: Option<Spanned<DataTable>>,
}

/// One `[[buffer]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BufferTable {
    #[serde(default)]
    set: u32,
    binding: u32,
    /// The element of an array of buffers (absent: a plain binding, or element 0).
    index: Option<u32>,
    /// A note for people (shown nowhere).
    #[allow(dead_code)]
    name: Option<String>,
    data: Spanned<DataTable>,
    expect: Option<Spanned<DataTable>>,
}

/// One `[[tensor]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TensorTable {
    #[serde(default)]
    set: u32,
    binding: u32,
    /// The element of an array of tensors (absent: a plain binding, or element 0).
    index: Option<u32>,
    /// A note for people (shown nowhere).
    #[allow(dead_code)]
    name: Option<String>,
    shape: Option<Vec<u64>>,
    strides: Option<Vec<u64>>,
    data: Spanned<DataTable>,
    expect: Option<Spanned<DataTable>>,
}

type Values = Spanned<Vec<Spanned<Value>>>;

/// A data table: exactly one source key, plus options.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DataTable {
    file: Option<String>,
    zeros: Option<Spanned<Value>>,
    random: Option<Spanned<String>>,
    count: Option<Spanned<u64>>,
    min: Option<Spanned<Value>>,
    max: Option<Spanned<Value>>,
    seed: Option<u64>,
    #[serde(rename = "type")]
    elem: Option<Spanned<String>>,
    u8: Option<Values>,
    i8: Option<Values>,
    u16: Option<Values>,
    i16: Option<Values>,
    u32: Option<Values>,
    i32: Option<Values>,
    u64: Option<Values>,
    i64: Option<Values>,
    f16: Option<Values>,
    bf16: Option<Values>,
    f32: Option<Values>,
    f64: Option<Values>,
    e4m3: Option<Values>,
    e5m2: Option<Values>,
}

/// The text of the run file, for error places and float literals.
struct Source<'a> {
    name: String,
    text: &'a str,
}

impl Source<'_> {
    /// `error: FILE:LINE:COL: message` with the line and a caret.
    fn error(&self, span: &Span<usize>, message: impl std::fmt::Display) -> String {
        let start = span.start.min(self.text.len());
        let before = &self.text[..start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let col = self.text[line_start..start].chars().count() + 1;
        let src = self.text[line_start..].lines().next().unwrap_or("");
        let number = line.to_string();
        let pad = " ".repeat(number.len());
        let width = self.text[start..span.end.clamp(start, self.text.len())]
            .split('\n')
            .next()
            .map_or(1, |s| s.chars().count().max(1));
        format!(
            "error: {message}\n{pad}--> {}:{line}:{col}\n{pad} |\n{number} | {src}\n{pad} | {}{}",
            self.name,
            " ".repeat(col - 1),
            "^".repeat(width)
        )
    }

    /// The literal text of a value.
    fn literal(&self, span: &Span<usize>) -> &str {
        self.text.get(span.clone()).unwrap_or("")
    }
}

/// Reads and checks a run file; `cli` options override its `[run]` table.
pub fn plan(path: &Path, cli: &RunOptions) -> Result<RunPlan, String> {
    let name = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {name}: {e}"))?;
    let src = Source { name, text: &text };
    let file: RunFile = toml::from_str(&text).map_err(|e| match e.span() {
        Some(span) => src.error(&span, e.message()),
        None => format!("error: {}: {}", src.name, e.message()),
    })?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let local = match &file.local {
        Some(l) => Some(groups(&src, l)?),
        None => None,
    };
    let groups = groups(&src, &file.groups)?;
    let mut args = Vec::new();
    for a in &file.arg {
        let table = a.get_ref();
        let source = match (&table.data, &table.local) {
            (Some(d), None) => ArgSource::Data(data_spec(&src, d, false)?),
            (None, Some(l)) => {
                let bytes = match l.get_ref() {
                    Value::Integer(n) => u64::try_from(*n).ok(),
                    Value::String(s) => parse_count(s),
                    _ => None,
                };
                ArgSource::Local(bytes.ok_or_else(|| {
                    src.error(
                        &l.span(),
                        "local is a byte count: a number or a string such as \"4K\"",
                    )
                })?)
            }
            _ => {
                return Err(src.error(
                    &a.span(),
                    "an [[arg]] has exactly one of `data = {...}` (buffers and values) or `local = BYTES`",
                ));
            }
        };
        let expect = match &table.expect {
            Some(e) => Some(ExpectPlan {
                data: data_spec(&src, e, true)?,
                elem: elem_option(&src, e.get_ref())?,
            }),
            None => None,
        };
        args.push(ArgPlan {
            index: table.index,
            source,
            expect,
            origin: src.error_place(&a.span()),
        });
    }
    let mut spec = BTreeMap::new();
    for (key, value) in &file.spec {
        let id: u32 = key.parse().map_err(|_| {
            src.error(
                &value.span(),
                format!("spec key '{key}' is not a SpecId (a 32-bit number)"),
            )
        })?;
        let bits = match value.get_ref() {
            Value::Integer(i) => *i as u64,
            Value::Boolean(b) => u64::from(*b),
            Value::String(s) => parse_spec_value(s).map_err(|e| src.error(&value.span(), e))?,
            Value::Float(_) => {
                return Err(src.error(
                    &value.span(),
                    "a float spec constant needs its type: write a string such as \"f32:1.5\"",
                ));
            }
            _ => {
                return Err(src.error(
                    &value.span(),
                    "a spec constant is an integer, true/false, or a string such as \"f32:1.5\"",
                ));
            }
        };
        spec.insert(id, bits);
    }
    let mut buffers = Vec::new();
    for b in &file.buffer {
        let table = b.get_ref();
        let data = data_spec(&src, &table.data, false)?;
        let expect = match &table.expect {
            Some(e) => Some(ExpectPlan {
                data: data_spec(&src, e, true)?,
                elem: elem_option(&src, e.get_ref())?,
            }),
            None => None,
        };
        buffers.push(BufferPlan {
            set: table.set,
            binding: table.binding,
            index: table.index,
            data,
            expect,
            origin: src.error_place(&b.span()),
        });
    }
    let mut tensors = Vec::new();
    for t in &file.tensor {
        let table = t.get_ref();
        if let (Some(shape), Some(strides)) = (&table.shape, &table.strides)
            && shape.len() != strides.len()
        {
            return Err(src.error(
                &t.span(),
                format!(
                    "{} strides for a shape of {} dimensions",
                    strides.len(),
                    shape.len()
                ),
            ));
        }
        tensors.push(TensorPlan {
            set: table.set,
            binding: table.binding,
            index: table.index,
            data: data_spec(&src, &table.data, false)?,
            shape: table.shape.clone(),
            strides: table.strides.clone(),
            expect: match &table.expect {
                Some(e) => Some(ExpectPlan {
                    data: data_spec(&src, e, true)?,
                    elem: elem_option(&src, e.get_ref())?,
                }),
                None => None,
            },
            origin: src.error_place(&t.span()),
        });
    }
    let push = match &file.push {
        Some(p) => Some(data_spec(&src, p, false)?),
        None => None,
    };
    Ok(RunPlan {
        module: base.join(file.module.get_ref()),
        base: base.clone(),
        entry: file.entry,
        groups,
        buffers,
        tensors,
        push,
        spec,
        config: file.run.overridden_by(cli).config()?,
        out: file.out.map(|o| base.join(o)),
        args,
        local,
        limits: spvx_val::Limits::default(),
    })
}

impl Source<'_> {
    /// `FILE:LINE:COL` of a span.
    fn error_place(&self, span: &Span<usize>) -> String {
        let start = span.start.min(self.text.len());
        let before = &self.text[..start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let col = self.text[line_start..start].chars().count() + 1;
        format!("{}:{line}:{col}", self.name)
    }
}

/// `groups = 4`, `groups = [4, 2]` or `groups = "4,2,1"`.
fn groups(src: &Source, value: &Spanned<Value>) -> Result<[u32; 3], String> {
    let text = match value.get_ref() {
        Value::Integer(i) => i.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let parts: Option<Vec<String>> = items
                .iter()
                .map(|v| v.as_integer().map(|i| i.to_string()))
                .collect();
            parts
                .ok_or_else(|| src.error(&value.span(), "groups are integers"))?
                .join(",")
        }
        _ => {
            return Err(src.error(
                &value.span(),
                "groups is a number or a list of one to three numbers",
            ));
        }
    };
    parse_groups(&text).map_err(|e| src.error(&value.span(), format!("groups: {e}")))
}

/// The element type named by `type = "..."`, if any.
fn elem_option(src: &Source, t: &DataTable) -> Result<Option<ElemType>, String> {
    match &t.elem {
        None => Ok(None),
        Some(name) => ElemType::from_name(name.get_ref())
            .map(Some)
            .ok_or_else(|| {
                src.error(
                    &name.span(),
                    format!(
                        "unknown element type '{}' ({})",
                        name.get_ref(),
                        ElemType::names()
                    ),
                )
            }),
    }
}

/// The one data source a table names.
fn data_spec(src: &Source, table: &Spanned<DataTable>, expect: bool) -> Result<DataSpec, String> {
    let t = table.get_ref();
    let span = table.span();
    let typed: Vec<(ElemType, &Values)> = [
        (ElemType::U8, &t.u8),
        (ElemType::I8, &t.i8),
        (ElemType::U16, &t.u16),
        (ElemType::I16, &t.i16),
        (ElemType::U32, &t.u32),
        (ElemType::I32, &t.i32),
        (ElemType::U64, &t.u64),
        (ElemType::I64, &t.i64),
        (ElemType::F16, &t.f16),
        (ElemType::Bf16, &t.bf16),
        (ElemType::F32, &t.f32),
        (ElemType::F64, &t.f64),
        (ElemType::E4m3, &t.e4m3),
        (ElemType::E5m2, &t.e5m2),
    ]
    .into_iter()
    .filter_map(|(e, v)| v.as_ref().map(|v| (e, v)))
    .collect();
    let sources = typed.len()
        + usize::from(t.file.is_some())
        + usize::from(t.zeros.is_some())
        + usize::from(t.random.is_some());
    if sources != 1 {
        return Err(src.error(
            &span,
            format!(
                "{} data sources here; give exactly one of: file, zeros, random, or a typed list ({})",
                sources,
                ElemType::names()
            ),
        ));
    }
    let random_keys = t.count.is_some() || t.min.is_some() || t.max.is_some() || t.seed.is_some();
    if t.random.is_none() && random_keys {
        return Err(src.error(
            &span,
            "count, min, max and seed belong to a random fill (random = \"TYPE\")",
        ));
    }
    if t.elem.is_some() && t.file.is_none() && t.zeros.is_none() {
        return Err(src.error(
            &span,
            "type = \"...\" is for file and zeros data (lists and random fills are typed already)",
        ));
    }
    if t.elem.is_some() && !expect {
        return Err(src.error(
            &span,
            "type = \"...\" only matters in expect tables (how to compare and print)",
        ));
    }
    if let Some(file) = &t.file {
        return Ok(DataSpec::File(PathBuf::from(file)));
    }
    if let Some(z) = &t.zeros {
        let n = match z.get_ref() {
            Value::Integer(i) if *i >= 0 => Some(*i as u64),
            Value::String(s) => parse_count(s),
            _ => None,
        };
        return n.map(DataSpec::Zeros).ok_or_else(|| {
            src.error(
                &z.span(),
                "zeros is a byte count (an integer, or a string like \"4K\")",
            )
        });
    }
    if let Some(kind) = &t.random {
        if expect {
            return Err(src.error(&kind.span(), "expected data cannot be random"));
        }
        return random_spec(src, t, kind, &span);
    }
    let (elem, values) = typed[0];
    let mut bits = Vec::with_capacity(values.get_ref().len());
    for v in values.get_ref() {
        bits.push(value_bits(src, elem, v)?);
    }
    Ok(DataSpec::Inline { elem, values: bits })
}

/// One inline value: an integer, a float (its literal text, rounded once into the type), or a
/// string (decimal text, inf/nan, or 0x bits).
fn value_bits(src: &Source, elem: ElemType, v: &Spanned<Value>) -> Result<u64, String> {
    let r = match v.get_ref() {
        Value::Integer(i) => elem.encode_int(i128::from(*i)),
        Value::Float(_) if elem.float_format().is_some() => {
            elem.encode_text(src.literal(&v.span()))
        }
        Value::Float(f) => Err(format!("{f} is not an integer ({elem} holds integers)")),
        Value::String(s) => elem.encode_text(s),
        other => Err(format!("a {} is not a {elem} value", other.type_str())),
    };
    r.map_err(|e| src.error(&v.span(), e))
}

/// A random fill: `random = "TYPE"`, `count`, `min`, `max`, `seed` (default 0). Integer types
/// default to their full range.
fn random_spec(
    src: &Source,
    t: &DataTable,
    kind: &Spanned<String>,
    span: &Span<usize>,
) -> Result<DataSpec, String> {
    let elem = ElemType::from_name(kind.get_ref()).ok_or_else(|| {
        src.error(
            &kind.span(),
            format!(
                "unknown element type '{}' ({})",
                kind.get_ref(),
                ElemType::names()
            ),
        )
    })?;
    let count = t
        .count
        .as_ref()
        .ok_or_else(|| src.error(span, "a random fill needs count = N (elements)"))?;
    let number = |b: &Spanned<Value>| -> Result<f64, String> {
        match b.get_ref() {
            Value::Integer(i) => Ok(*i as f64),
            Value::Float(f) => Ok(*f),
            _ => Err(src.error(&b.span(), "a bound is a number")),
        }
    };
    let integer = |b: &Spanned<Value>| -> Result<i128, String> {
        b.get_ref()
            .as_integer()
            .map(i128::from)
            .ok_or_else(|| src.error(&b.span(), format!("{elem} bounds are integers")))
    };
    let range = match (elem.int_range(), &t.min, &t.max) {
        (Some((lo, hi)), min, max) => Range::Int(
            min.as_ref().map(integer).transpose()?.unwrap_or(lo),
            max.as_ref().map(integer).transpose()?.unwrap_or(hi),
        ),
        (None, Some(min), Some(max)) => Range::Float(number(min)?, number(max)?),
        (None, _, _) => {
            return Err(src.error(
                span,
                format!(
                    "a random {elem} fill needs min and max (floats are drawn from [min, max))"
                ),
            ));
        }
    };
    let spec = DataSpec::Random {
        elem,
        count: *count.get_ref(),
        range,
        seed: t.seed.unwrap_or(0),
    };
    // Check the bounds now, for an error at the right place.
    if let DataSpec::Random { range, .. } = &spec {
        super::data::random_bytes(elem, 0, range, 0).map_err(|e| src.error(span, e))?;
    }
    Ok(spec)
}

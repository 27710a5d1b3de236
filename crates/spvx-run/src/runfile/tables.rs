//! The values of a run file that need more than serde: data tables (exactly one source; inline
//! values, zeros, random fills, `type = ...`), workgroup counts and element type names.

use super::Source;
use super::error::{Problem, RunFileError};
use super::schema::{DataTable, Values};
use crate::ElemType;
use crate::data::{DataSpec, Range, parse_count, random_bytes};
use crate::parse::parse_groups;
use std::ops::Range as Span;
use std::path::PathBuf;
use toml::{Spanned, Value};

/// `groups = 4`, `groups = [4, 2]` or `groups = "4,2,1"`.
pub(super) fn groups(src: &Source, value: &Spanned<Value>) -> Result<[u32; 3], RunFileError> {
    let text = match value.get_ref() {
        Value::Integer(i) => i.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let parts: Option<Vec<String>> = items
                .iter()
                .map(|v| v.as_integer().map(|i| i.to_string()))
                .collect();
            parts
                .ok_or_else(|| src.at(&value.span(), Problem::GroupsNotIntegers))?
                .join(",")
        }
        _ => return Err(src.at(&value.span(), Problem::GroupsType)),
    };
    parse_groups(&text).map_err(|e| src.at(&value.span(), Problem::Groups(e)))
}

/// The element type named by `type = "..."`, if any.
pub(super) fn elem_option(src: &Source, t: &DataTable) -> Result<Option<ElemType>, RunFileError> {
    match &t.elem {
        None => Ok(None),
        Some(name) => ElemType::from_name(name.get_ref())
            .map(Some)
            .ok_or_else(|| src.at(&name.span(), Problem::UnknownType(name.get_ref().clone()))),
    }
}

/// The one data source a table names.
pub(super) fn data_spec(
    src: &Source,
    table: &Spanned<DataTable>,
    expect: bool,
) -> Result<DataSpec, RunFileError> {
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
        return Err(src.at(&span, Problem::Sources(sources)));
    }
    let random_keys = t.count.is_some() || t.min.is_some() || t.max.is_some() || t.seed.is_some();
    if t.random.is_none() && random_keys {
        return Err(src.at(&span, Problem::RandomKeys));
    }
    if t.elem.is_some() && t.file.is_none() && t.zeros.is_none() {
        return Err(src.at(&span, Problem::TypeOfTyped));
    }
    if t.elem.is_some() && !expect {
        return Err(src.at(&span, Problem::TypeOutsideExpect));
    }
    let raw = match &t.raw {
        Some(r) if t.file.is_none() => return Err(src.at(&r.span(), Problem::RawWithoutFile)),
        Some(r) => *r.get_ref(),
        None => false,
    };
    if let Some(file) = &t.file {
        let path = PathBuf::from(file);
        return Ok(if raw {
            DataSpec::Raw(path)
        } else {
            DataSpec::File(path)
        });
    }
    if let Some(z) = &t.zeros {
        let n = match z.get_ref() {
            Value::Integer(i) if *i >= 0 => Some(*i as u64),
            Value::String(s) => parse_count(s),
            _ => None,
        };
        return n
            .map(DataSpec::Zeros)
            .ok_or_else(|| src.at(&z.span(), Problem::ZerosCount));
    }
    if let Some(kind) = &t.random {
        if expect {
            return Err(src.at(&kind.span(), Problem::RandomExpect));
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
fn value_bits(src: &Source, elem: ElemType, v: &Spanned<Value>) -> Result<u64, RunFileError> {
    let r = match v.get_ref() {
        Value::Integer(i) => elem.encode_int(i128::from(*i)).map_err(Problem::from),
        Value::Float(_) if elem.float_format().is_some() => elem
            .encode_text(src.literal(&v.span()))
            .map_err(Problem::from),
        Value::Float(f) => Err(Problem::FloatForInteger { value: *f, elem }),
        Value::String(s) => elem.encode_text(s).map_err(Problem::from),
        other => Err(Problem::ValueType {
            found: other.type_str(),
            elem,
        }),
    };
    r.map_err(|p| src.at(&v.span(), p))
}

/// A random fill: `random = "TYPE"`, `count`, `min`, `max`, `seed` (default 0). Integer types
/// default to their full range.
fn random_spec(
    src: &Source,
    t: &DataTable,
    kind: &Spanned<String>,
    span: &Span<usize>,
) -> Result<DataSpec, RunFileError> {
    let elem = ElemType::from_name(kind.get_ref())
        .ok_or_else(|| src.at(&kind.span(), Problem::UnknownType(kind.get_ref().clone())))?;
    let count = t
        .count
        .as_ref()
        .ok_or_else(|| src.at(span, Problem::RandomCount))?;
    let number = |b: &Spanned<Value>| -> Result<f64, RunFileError> {
        match b.get_ref() {
            Value::Integer(i) => Ok(*i as f64),
            Value::Float(f) => Ok(*f),
            _ => Err(src.at(&b.span(), Problem::BoundNotNumber)),
        }
    };
    let integer = |b: &Spanned<Value>| -> Result<i128, RunFileError> {
        b.get_ref()
            .as_integer()
            .map(i128::from)
            .ok_or_else(|| src.at(&b.span(), Problem::IntegerBounds(elem)))
    };
    let range = match (elem.int_range(), &t.min, &t.max) {
        (Some((lo, hi)), min, max) => Range::Int(
            min.as_ref().map(integer).transpose()?.unwrap_or(lo),
            max.as_ref().map(integer).transpose()?.unwrap_or(hi),
        ),
        (None, Some(min), Some(max)) => Range::Float(number(min)?, number(max)?),
        (None, _, _) => return Err(src.at(span, Problem::FloatBounds(elem))),
    };
    // Check the bounds now, for an error at the right place.
    random_bytes(elem, 0, &range, 0).map_err(|e| src.at(span, Problem::Random(e)))?;
    Ok(DataSpec::Random {
        elem,
        count: *count.get_ref(),
        range,
        seed: t.seed.unwrap_or(0),
    })
}

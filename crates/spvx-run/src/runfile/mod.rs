//! Run files (TOML): reading one into a [`RunPlan`], with `file:line:column` errors. The
//! schema is documented in `spvx run --help` (its `RUN FILES` section) and in
//! docs/semantics/run.md.
//!
//! Unknown keys and wrong types are reported by the TOML parser (with line and column);
//! everything else (one data source per table, value ranges, random bounds) here, with the
//! place of the offending value.
//!
//! - `schema`: the tables as serde reads them.
//! - `tables`: data tables, workgroup counts, element type names.
//! - [`error`]: [`RunFileError`] and its [`Problem`]s.

pub mod error;
mod schema;
mod tables;

pub use error::{Problem, RunFileError};

use crate::diagnostic::{TextPlace, file_place};
use crate::kernel::{ArgPlan, ArgSource};
use crate::options::RunOptions;
use crate::parse::parse_spec_value;
use crate::plan::{BufferPlan, ExpectPlan, OutFormat, RunPlan, TensorPlan};
use schema::{DataTable, RunFile};
use std::collections::BTreeMap;
use std::ops::Range as Span;
use std::path::Path;
use tables::{data_spec, elem_option, groups};
use toml::{Spanned, Value};

/// The text of the run file, for error places and float literals.
pub(crate) struct Source<'a> {
    name: String,
    text: &'a str,
}

impl Source<'_> {
    /// `problem` at `span`.
    fn at(&self, span: &Span<usize>, problem: Problem) -> RunFileError {
        RunFileError::At {
            problem: Box::new(problem),
            place: Box::new(TextPlace::of_span(&self.name, self.text, span)),
        }
    }

    /// `FILE:LINE:COL` of a span.
    fn place(&self, span: &Span<usize>) -> String {
        file_place(&self.name, self.text, span)
    }

    /// The literal text of a value.
    fn literal(&self, span: &Span<usize>) -> &str {
        self.text.get(span.clone()).unwrap_or("")
    }
}

/// Reads and checks a run file; `cli` options override its `[run]` table.
pub fn plan(path: &Path, cli: &RunOptions) -> Result<RunPlan, RunFileError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| RunFileError::Read {
        name: name.clone(),
        source,
    })?;
    let src = Source { name, text: &text };
    let file: RunFile = toml::from_str(&text).map_err(|e| match e.span() {
        Some(span) => src.at(&span, Problem::Toml(e.message().to_string())),
        None => RunFileError::Toml {
            name: src.name.clone(),
            message: e.message().to_string(),
        },
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
                    Value::String(s) => crate::data::parse_count(s),
                    _ => None,
                };
                ArgSource::Local(bytes.ok_or_else(|| src.at(&l.span(), Problem::LocalBytes))?)
            }
            _ => return Err(src.at(&a.span(), Problem::ArgSource)),
        };
        args.push(ArgPlan {
            index: table.index,
            source,
            expect: expect_plan(&src, &table.expect)?,
            origin: src.place(&a.span()),
        });
    }
    let mut spec = BTreeMap::new();
    for (key, value) in &file.spec {
        let id: u32 = key
            .parse()
            .map_err(|_| src.at(&value.span(), Problem::SpecId(key.clone())))?;
        let bits = match value.get_ref() {
            Value::Integer(i) => *i as u64,
            Value::Boolean(b) => u64::from(*b),
            Value::String(s) => {
                parse_spec_value(s).map_err(|e| src.at(&value.span(), Problem::SpecValue(e)))?
            }
            Value::Float(_) => return Err(src.at(&value.span(), Problem::FloatSpec)),
            _ => return Err(src.at(&value.span(), Problem::SpecType)),
        };
        spec.insert(id, bits);
    }
    let mut buffers = Vec::new();
    for b in &file.buffer {
        let table = b.get_ref();
        let data = data_spec(&src, &table.data, false)?;
        buffers.push(BufferPlan {
            set: table.set,
            binding: table.binding,
            index: table.index,
            data,
            expect: expect_plan(&src, &table.expect)?,
            origin: src.place(&b.span()),
        });
    }
    let mut tensors = Vec::new();
    for t in &file.tensor {
        let table = t.get_ref();
        if let (Some(shape), Some(strides)) = (&table.shape, &table.strides)
            && shape.len() != strides.len()
        {
            let problem = Problem::Strides {
                strides: strides.len(),
                dims: shape.len(),
            };
            return Err(src.at(&t.span(), problem));
        }
        tensors.push(TensorPlan {
            set: table.set,
            binding: table.binding,
            index: table.index,
            data: data_spec(&src, &table.data, false)?,
            shape: table.shape.clone(),
            strides: table.strides.clone(),
            expect: expect_plan(&src, &table.expect)?,
            origin: src.place(&t.span()),
        });
    }
    let push = match &file.push {
        Some(p) => Some(data_spec(&src, p, false)?),
        None => None,
    };
    let out_format = match &file.format {
        Some(f) => {
            OutFormat::from_name(f.get_ref()).ok_or_else(|| src.at(&f.span(), Problem::Format))?
        }
        None => OutFormat::Bin,
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
        out_format,
        args,
        local,
        limits: spvx_val::Limits::default(),
        strict_bindings: file.strict_bindings,
    })
}

/// An `expect = {...}` table: its data and the `type = ...` to compare as.
fn expect_plan(
    src: &Source,
    table: &Option<Spanned<DataTable>>,
) -> Result<Option<ExpectPlan>, RunFileError> {
    Ok(match table {
        Some(e) => Some(ExpectPlan {
            data: data_spec(src, e, true)?,
            elem: elem_option(src, e.get_ref())?,
        }),
        None => None,
    })
}

//! The run-file schema as serde reads it: unknown keys and wrong types are the TOML parser's
//! errors (with their place); every other rule is checked by the reader (`super`).

use crate::options::RunOptions;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::{Spanned, Value};

/// A run file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RunFile {
    pub module: Spanned<String>,
    pub entry: Option<String>,
    pub groups: Spanned<Value>,
    pub out: Option<String>,
    #[serde(default)]
    pub spec: BTreeMap<String, Spanned<Value>>,
    #[serde(default)]
    pub run: RunOptions,
    pub push: Option<Spanned<DataTable>>,
    #[serde(default)]
    pub buffer: Vec<Spanned<BufferTable>>,
    #[serde(default)]
    pub tensor: Vec<Spanned<TensorTable>>,
    #[serde(default)]
    pub arg: Vec<Spanned<ArgTable>>,
    /// Kernel entry points: the dispatch's local size (as `groups`).
    pub local: Option<Spanned<Value>>,
    /// A buffer the entry point does not use is an error, not a warning.
    #[serde(default)]
    pub strict_bindings: bool,
    /// How output buffers are written: "bin" (default) or "npy".
    pub format: Option<Spanned<String>>,
}

/// One `[[arg]]` of a Kernel entry point: `data` (buffers and values) or `local` (bytes of
/// local memory).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ArgTable {
    pub index: u32,
    /// A note for people (shown nowhere).
    #[allow(dead_code)]
    pub name: Option<String>,
    pub data: Option<Spanned<DataTable>>,
    pub local: Option<Spanned<Value>>,
    pub expect: Option<Spanned<DataTable>>,
}

/// One `[[buffer]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BufferTable {
    #[serde(default)]
    pub set: u32,
    pub binding: u32,
    /// The element of an array of buffers (absent: a plain binding, or element 0).
    pub index: Option<u32>,
    /// A note for people (shown nowhere).
    #[allow(dead_code)]
    pub name: Option<String>,
    pub data: Spanned<DataTable>,
    pub expect: Option<Spanned<DataTable>>,
}

/// One `[[tensor]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TensorTable {
    #[serde(default)]
    pub set: u32,
    pub binding: u32,
    /// The element of an array of tensors (absent: a plain binding, or element 0).
    pub index: Option<u32>,
    /// A note for people (shown nowhere).
    #[allow(dead_code)]
    pub name: Option<String>,
    pub shape: Option<Vec<u64>>,
    pub strides: Option<Vec<u64>>,
    pub data: Spanned<DataTable>,
    pub expect: Option<Spanned<DataTable>>,
}

pub(super) type Values = Spanned<Vec<Spanned<Value>>>;

/// A data table: exactly one source key, plus options.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct DataTable {
    pub file: Option<String>,
    /// `raw = true`: the file's bytes as they are (a `.npy` file's elements without the
    /// dtype check against the binding).
    pub raw: Option<Spanned<bool>>,
    pub zeros: Option<Spanned<Value>>,
    pub random: Option<Spanned<String>>,
    pub count: Option<Spanned<u64>>,
    pub min: Option<Spanned<Value>>,
    pub max: Option<Spanned<Value>>,
    pub seed: Option<u64>,
    #[serde(rename = "type")]
    pub elem: Option<Spanned<String>>,
    pub u8: Option<Values>,
    pub i8: Option<Values>,
    pub u16: Option<Values>,
    pub i16: Option<Values>,
    pub u32: Option<Values>,
    pub i32: Option<Values>,
    pub u64: Option<Values>,
    pub i64: Option<Values>,
    pub f16: Option<Values>,
    pub bf16: Option<Values>,
    pub f32: Option<Values>,
    pub f64: Option<Values>,
    pub e4m3: Option<Values>,
    pub e5m2: Option<Values>,
}

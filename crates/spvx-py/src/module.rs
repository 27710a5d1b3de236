//! Modules: `assemble` (`spvx as`), `disassemble` (`spvx dis`), `validate` (`spvx val`),
//! `reflect` (`spvx reflect --json`), and reading the module a run or reflection is about
//! (a file through spvx-run, as the command line reads it, or bytes from memory).

use crate::errors::{Kind, diagnostics, placed, plain, raise};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use spvx_run::diagnostic::Diagnostic;
use spvx_run::module::LoadedModule;
use spvx_run::reflect::Reflection;
use spvx_spirv::asm::{AsmOptions, DEFAULT_VERSION, assemble as asm, target_env_version};
use spvx_spirv::dis::{DisOptions, disassemble_bytes};
use spvx_val::{Options, TargetEnv};
use std::path::PathBuf;

/// The module of a call: a file (`path`), else `data` (binary or text) called `name`,
/// assembled with `opts` when it is text.
pub fn load(
    path: Option<PathBuf>,
    data: Option<&[u8]>,
    name: &str,
    opts: &AsmOptions,
) -> PyResult<LoadedModule> {
    match (path, data) {
        (Some(p), _) => LoadedModule::read(&p).map_err(|e| placed(Kind::Run, e)),
        (None, Some(d)) => {
            LoadedModule::from_bytes(name.to_string(), d, opts).map_err(|e| placed(Kind::Run, e))
        }
        (None, None) => Err(raise(Kind::Argument, "error: no module given")),
    }
}

/// `spvx as`: SPIR-V text → the binary module's bytes.
#[pyfunction]
#[pyo3(signature = (text, target_env=None, name="<text>"))]
pub fn assemble<'py>(
    py: Python<'py>,
    text: &str,
    target_env: Option<&str>,
    name: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let version = match target_env {
        None => DEFAULT_VERSION,
        Some(env) => target_env_version(env).ok_or_else(|| {
            raise(
                Kind::Argument,
                format!("error: unknown target environment '{env}' (see `spvx as --help`)"),
            )
        })?,
    };
    let module = asm(text, &AsmOptions { version })
        .map_err(|e| diagnostics(Kind::Assemble, &[Diagnostic::assembler(name, text, &e)]))?;
    Ok(PyBytes::new(py, &module.bytes()))
}

/// `spvx dis`: a binary module → text, as spirv-dis 2025.5 prints it.
#[pyfunction]
#[pyo3(signature = (data, raw_id=false, header=true, indent=true, nested_indent=false, offsets=false, comment=false, name="<bytes>"))]
#[allow(clippy::too_many_arguments)]
pub fn disassemble(
    data: &[u8],
    raw_id: bool,
    header: bool,
    indent: bool,
    nested_indent: bool,
    offsets: bool,
    comment: bool,
    name: &str,
) -> PyResult<String> {
    let opts = DisOptions {
        raw_id,
        header,
        indent,
        nested_indent,
        offsets,
        comment,
        color: false,
    };
    disassemble_bytes(data, &opts)
        .map_err(|e| diagnostics(Kind::Disassemble, &[Diagnostic::binary(name, &e)]))
}

/// `spvx val`: nothing when the module (binary or text, called `name`) is valid for
/// `target_env`; otherwise `ValidationError` with every error at its place.
#[pyfunction]
#[pyo3(signature = (data, name, target_env=None))]
pub fn validate(data: &[u8], name: &str, target_env: Option<&str>) -> PyResult<()> {
    let target_env = match target_env {
        None => TargetEnv::default(),
        Some(env) => TargetEnv::parse(env).ok_or_else(|| {
            raise(
                Kind::Argument,
                format!("error: unknown target environment '{env}' (see `spvx val --help`)"),
            )
        })?,
    };
    let asm = AsmOptions {
        version: target_env.max_version,
    };
    let module = LoadedModule::from_bytes(name.to_string(), data, &asm)
        .map_err(|e| placed(Kind::Validation, e))?;
    let opts = Options {
        target_env,
        ..Options::default()
    };
    module
        .validate(&opts)
        .map(|_| ())
        .map_err(|d| diagnostics(Kind::Validation, &d))
}

/// `spvx reflect --json`: what the module declares, as JSON text (the Python side parses it).
#[pyfunction]
#[pyo3(signature = (path=None, data=None, name="<bytes>"))]
pub fn reflect(path: Option<PathBuf>, data: Option<&[u8]>, name: &str) -> PyResult<String> {
    let module = load(path, data, name, &AsmOptions::default())?;
    serde_json::to_string(&Reflection::of(&module)).map_err(|e| plain(Kind::Run, e))
}

//! `spvx._spvx`: the Rust half of the Python package `spvx` (pyo3; the package itself, its
//! wrappers and type stubs are in `python/spvx`). Each function here converts its arguments,
//! calls the library function the `spvx` command line calls for the same job, and converts the
//! result back; it holds no logic of its own. Errors become the package's exceptions
//! (`spvx.SpvxError` and its subclasses) carrying the text the command line prints.
//!
//! Arrays cross the boundary as `.npy` bytes (NumPy writes and reads them on the Python side;
//! spvx-run's `npy` layer, the one the command line uses for `.npy` files, reads and writes
//! them here), so dtype rules and element conventions are the command line's own.
//!
//! - [`errors`]: the exception classes and the rendering of library errors.
//! - [`module`]: `assemble`, `disassemble`, `validate`, `reflect`, and reading a module.
//! - [`run`]: `run` and `diff` (spvx-run's plan on the engine, and against a Vulkan device).
//! - [`dpas`]: `dpas_matmul` (spvx-dpas's GEMM, spvx-run's matrix conventions).
//! - [`calc`]: the fixed-point functions and the mixed float dot products (spvx-num).

mod calc;
mod dpas;
mod errors;
mod module;
mod run;

use pyo3::prelude::*;

/// The native module; `spvx/__init__.py` wraps it.
#[pymodule]
fn _spvx(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(module::assemble, m)?)?;
    m.add_function(wrap_pyfunction!(module::disassemble, m)?)?;
    m.add_function(wrap_pyfunction!(module::validate, m)?)?;
    m.add_function(wrap_pyfunction!(module::reflect, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(run::diff, m)?)?;
    m.add_function(wrap_pyfunction!(dpas::dpas_matmul, m)?)?;
    m.add_function(wrap_pyfunction!(calc::fixed, m)?)?;
    m.add_function(wrap_pyfunction!(calc::fixed_words, m)?)?;
    m.add_function(wrap_pyfunction!(calc::mixdot, m)?)?;
    Ok(())
}

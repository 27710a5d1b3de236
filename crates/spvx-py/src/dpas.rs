//! `dpas_matmul` (`spvx dpas matmul`): D = C + A × B through the DPAS simulator, the matrices
//! as `.npy` bytes with spvx-run's element conventions (`spvx_run::npy::matrix`).

use crate::errors::{Kind, plain, raise};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use spvx_dpas::gemm::matmul_fast;
use spvx_dpas::isa::ExecOptions;
use spvx_dpas::matrix::{MatmulSpec, matmul_instructions};
use spvx_dpas::{BfOutputRounding, DataType, FloatModel, Platform, Precision};
use spvx_run::npy::matrix::{acc_matrix_from_npy, acc_matrix_to_npy, element_matrix_from_npy};

/// A precision by its DPAS name (u1 s1 u2 s2 u4 s4 u8 s8 bf hf tf32 bf8 hf8).
fn precision(name: &str, what: &str) -> PyResult<Precision> {
    name.parse().map_err(|_| {
        raise(
            Kind::Argument,
            format!(
                "error: {what}: unknown precision `{name}` (expected u1 s1 u2 s2 u4 s4 u8 s8 bf hf tf32 bf8 hf8)"
            ),
        )
    })
}

/// D = C + A × B: A, B and C as `.npy` bytes, D returned as `.npy` bytes.
#[pyfunction]
#[pyo3(signature = (a, b, c, a_type, b_type, dst_type, platform="pvc", model="emulator", bf_rounding="rne", instructions=false))]
#[allow(clippy::too_many_arguments)]
pub fn dpas_matmul<'py>(
    py: Python<'py>,
    a: &[u8],
    b: &[u8],
    c: Option<&[u8]>,
    a_type: &str,
    b_type: &str,
    dst_type: &str,
    platform: &str,
    model: &str,
    bf_rounding: &str,
    instructions: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let platform: Platform = platform.parse().map_err(|e| plain(Kind::Argument, e))?;
    let model = FloatModel::named(model).ok_or_else(|| {
        raise(
            Kind::Argument,
            format!(
                "error: unknown float model `{model}` (expected {})",
                FloatModel::NAMES.join(", ")
            ),
        )
    })?;
    let bf_rounding = match bf_rounding {
        "rne" => BfOutputRounding::NearestEven,
        "emulator" => BfOutputRounding::EmulatorNormalOnly,
        other => {
            return Err(raise(
                Kind::Argument,
                format!("error: unknown BF rounding `{other}` (expected rne or emulator)"),
            ));
        }
    };
    let a_type = precision(a_type, "a_type")?;
    let b_type = precision(b_type, "b_type")?;
    let dst: DataType = dst_type
        .parse()
        .map_err(|e| raise(Kind::Argument, format!("error: dst_type: {e}")))?;
    let a = element_matrix_from_npy("A", a, a_type).map_err(|e| plain(Kind::Dpas, e))?;
    let b = element_matrix_from_npy("B", b, b_type).map_err(|e| plain(Kind::Dpas, e))?;
    let half = if a_type == Precision::Fp16 {
        DataType::Hf
    } else {
        DataType::Bf
    };
    let c = c
        .map(|c| acc_matrix_from_npy("C", c, half))
        .transpose()
        .map_err(|e| plain(Kind::Dpas, e))?;
    let spec = MatmulSpec {
        platform,
        a: a_type,
        b: b_type,
        dst,
        options: ExecOptions { model, bf_rounding },
    };
    let d = if instructions {
        matmul_instructions(&spec, &a, &b, c.as_ref())
    } else {
        matmul_fast(&spec, &a, &b, c.as_ref())
    }
    .map_err(|e| plain(Kind::Dpas, e))?;
    let bytes = acc_matrix_to_npy(&d)
        .map_err(|e| raise(Kind::Dpas, format!("error: cannot encode D: {e}")))?;
    Ok(PyBytes::new(py, &bytes))
}

//! `spvx dpas matmul`: D = C + A × B over `.npy` matrices (read and written by spvx-run).

use super::{MatmulArgs, common};
use crate::cmd::CmdResult;
use crate::io::{read_input, write_output};
use spvx_dpas::gemm::matmul_fast;
use spvx_dpas::matrix::{MatmulSpec, matmul_instructions};
use spvx_dpas::{DataType, Precision};
use spvx_run::npy::matrix::{acc_matrix_from_npy, acc_matrix_to_npy, element_matrix_from_npy_raw};
use std::process::ExitCode;

pub(super) fn precision(name: &str, what: &str) -> Result<Precision, String> {
    let canonical = match name.to_ascii_lowercase().as_str() {
        "bf16" => "bf".to_string(),
        "fp16" | "f16" => "hf".to_string(),
        "e5m2" => "bf8".to_string(),
        "e4m3" => "hf8".to_string(),
        other => other.to_string(),
    };
    canonical
        .parse()
        .map_err(|_| format!("error: {what}: unknown precision `{name}` (expected u1 s1 u2 s2 u4 s4 u8 s8 bf hf tf32 bf8 hf8 df)"))
}

pub(super) fn matmul(args: MatmulArgs) -> CmdResult {
    let (platform, options) = common(&args.common)?;
    let a_type = precision(&args.a_type, "--a-type")?;
    let b_type = precision(&args.b_type, "--b-type")?;
    let dst: DataType = args
        .dst_type
        .parse()
        .map_err(|e| format!("error: --dst-type: {e}"))?;
    if a_type == Precision::Df || b_type == Precision::Df {
        return Err(
            "error: df (fp64) DPAS is not supported by `spvx dpas matmul`; run the instructions with `spvx dpas run --platform xe3p`"
                .into(),
        );
    }
    let spec = MatmulSpec {
        platform,
        a: a_type,
        b: b_type,
        dst,
        options,
    };
    if args.bench {
        return super::bench::bench(&spec, args.size, args.rounds);
    }
    // clap requires --a, --b and -o without --bench.
    let (Some(a_path), Some(b_path), Some(output)) = (&args.a, &args.b, &args.output) else {
        return Err("error: --a, --b and -o are required (or --bench)".into());
    };
    let a = element_matrix_from_npy_raw("A", &read_input(a_path)?, a_type, args.raw)
        .map_err(|e| format!("error: {}: {e}", a_path.display()))?;
    let b = element_matrix_from_npy_raw("B", &read_input(b_path)?, b_type, args.raw)
        .map_err(|e| format!("error: {}: {e}", b_path.display()))?;
    let half = if a_type == Precision::Fp16 {
        DataType::Hf
    } else {
        DataType::Bf
    };
    let c = match &args.c {
        Some(path) => Some(
            acc_matrix_from_npy("C", &read_input(path)?, half)
                .map_err(|e| format!("error: {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let d = if args.instructions {
        matmul_instructions(&spec, &a, &b, c.as_ref())
    } else {
        matmul_fast(&spec, &a, &b, c.as_ref())
    }
    .map_err(|e| format!("error: {e}"))?;
    let bytes = acc_matrix_to_npy(&d).map_err(|e| format!("error: cannot encode D: {e}"))?;
    write_output(output, &bytes)?;
    Ok(ExitCode::SUCCESS)
}

//! The int8 GEMM of the benchmark (benches/gemm.spvasm) against an i64 reference of
//! C = A·B with saturation after each packed step (the sums here never saturate).

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

#[test]
fn int8_gemm_matches_reference() {
    let (m, n, k) = (8usize, 64usize, 32usize);
    let k4 = k / 4;
    let a: Vec<u32> = (0..m * k4)
        .map(|i| (i as u32).wrapping_mul(0x9e37_79b9) ^ 0x5a5a_1234)
        .collect();
    let b: Vec<u32> = (0..n * k4)
        .map(|i| (i as u32).wrapping_mul(0x85eb_ca6b).rotate_left(7))
        .collect();
    let asm = assemble(
        include_str!("../benches/gemm.spvasm"),
        &AsmOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let module = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut res = Resources::new();
    res.set_words(0, 0, &a);
    res.set_words(0, 1, &b);
    res.set_words(0, 2, &vec![0; m * n]);
    res.push_constants = [n as u32, k4 as u32]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    module
        .run(
            &mut res,
            [(n / 64) as u32, m as u32, 1],
            &RunConfig::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let c = res.words(0, 2).unwrap_or_default();
    let byte = |w: u32, i: usize| (w >> (8 * i)) as u8 as i8 as i64;
    for row in 0..m {
        for col in 0..n {
            let mut s = 0i64;
            for kk in 0..k {
                s += byte(a[row * k4 + kk / 4], kk % 4) * byte(b[col * k4 + kk / 4], kk % 4);
            }
            assert_eq!(c[row * n + col], s as i32 as u32, "C[{row}][{col}]");
        }
    }
}

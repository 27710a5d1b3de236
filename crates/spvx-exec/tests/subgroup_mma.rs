//! OpSubgroupMatrixMultiplyAccumulateINTEL end to end (assemble → validate → compile → run):
//! each case writes a SPIR-V module whose invocations load their fragments of A, B and C from a
//! buffer (one word per component), run the instruction and store the result's components.
//! The lanes' fragments are made from whole matrices by the distribution the extension's
//! "Mapping Matrix Data to Invocations" section describes (written here from its text), and
//! the expected result is an independent product: exact integer sums wrapped to 32 bits, or
//! the default float model written from its description (fp32 running sum from C, one
//! rounding per product and per addition in increasing k; tf32 low 13 bits ignored; BF/HF
//! results rounded to nearest even).

mod mma_support;

use mma_support::*;
use spvx_exec::{ExecError, RunConfig};

/// Every integer precision pair (signedness from the Signed bits, width from the packed
/// bits) on both subgroup sizes and several M.
#[test]
fn integer_every_flag_combination_both_sizes() {
    let ints = [
        Elem::Int {
            bits: 8,
            signed: false,
        },
        Elem::Int {
            bits: 8,
            signed: true,
        },
        Elem::Int {
            bits: 4,
            signed: false,
        },
        Elem::Int {
            bits: 4,
            signed: true,
        },
    ];
    let mut seed = 1;
    for a in ints {
        for b in ints {
            for n in [8, 16] {
                for m in [1, 2, 3, 4, 8] {
                    let case = Case::new(n, m, a, b, Acc::D, Acc::D);
                    seed += 1;
                    check_case(&case, seed);
                }
            }
        }
    }
}

/// Mixed widths where one lane's component packs more than K / N columns, so the subgroup
/// passes several rows side by side (the extension's third case, generalised to packed
/// components): int4 A in 32-bit components on SIMD8, in 16-bit ones on SIMD16.
#[test]
fn integer_rows_side_by_side() {
    let a = Elem::Int {
        bits: 4,
        signed: true,
    };
    let b = Elem::Int {
        bits: 8,
        signed: false,
    };
    for (n, a_bits) in [(8, 32), (16, 16), (16, 32)] {
        for m in [1, 2, 3, 4, 8] {
            let mut case = Case::new(n, m, a, b, Acc::D, Acc::D);
            case.a_comp = CompTy::Int(a_bits);
            check_case(&case, 1000 + m as u64 + n as u64);
        }
    }
}

/// fp16 and bf16 elements (packed in integer components, or as half components), with every
/// accumulator type each size allows (BF/HF C and results need PVC, i.e. SIMD16).
#[test]
fn float16_elements_and_accumulators() {
    let mut seed = 5000;
    for n in [8, 16] {
        for m in [1, 2, 4, 8] {
            let mut cases = vec![
                Case::new(n, m, Elem::Fp16, Elem::Fp16, Acc::F, Acc::F),
                Case::new(n, m, Elem::Bf16, Elem::Bf16, Acc::F, Acc::F),
            ];
            if n == 16 {
                let mut half_a = Case::new(n, m, Elem::Fp16, Elem::Fp16, Acc::F, Acc::F);
                half_a.a_comp = CompTy::Half;
                cases.push(half_a);
                cases.push(Case::new(n, m, Elem::Fp16, Elem::Fp16, Acc::Hf, Acc::Hf));
                cases.push(Case::new(
                    n,
                    m,
                    Elem::Bf16,
                    Elem::Bf16,
                    Acc::BfBits,
                    Acc::BfBits,
                ));
                cases.push(Case::new(n, m, Elem::Bf16, Elem::Bf16, Acc::F, Acc::BfBits));
                cases.push(Case::new(n, m, Elem::Bf16, Elem::Bf16, Acc::BfBits, Acc::F));
            }
            for case in cases {
                seed += 1;
                check_case(&case, seed);
            }
        }
    }
}

/// tf32 on SIMD16 (K = 8): each 32-bit A component carries rows 2j (lanes 0–7) and 2j + 1
/// (lanes 8–15); the low 13 bits of every element are ignored.
#[test]
fn tf32_simd16() {
    for m in [1, 2, 3, 4, 8] {
        let case = Case::new(16, m, Elem::Tf32, Elem::Tf32, Acc::F, Acc::F);
        check_case(&case, 7000 + m as u64);
    }
}

/// The tf32 A layout by hand, from the extension's case 3 (N = 2K): lane 9 passes column 1 of
/// rows 1, 3 (components 0, 1); lanes 0–7 pass rows 0 and 2. A = identity-like pattern with
/// one non-zero element A[3][1] = 2.0 and B = all 1.0: only row 3 of the result is 2.0.
#[test]
fn tf32_layout_by_hand() {
    let case = Case::new(16, 4, Elem::Tf32, Elem::Tf32, Acc::F, Acc::F);
    let n = 16;
    // Lane words: A (2 components), B (8), C (4).
    let mut words = vec![0u32; n * (2 + 8 + 4)];
    words[9 * 2 + 1] = 2.0f32.to_bits(); // lane 9, component 1 → A[3][1]
    for lane in 0..n {
        for i in 0..8 {
            words[n * 2 + lane * 8 + i] = 1.0f32.to_bits();
        }
    }
    let out = run_case_words(&case, &words).unwrap_or_else(|e| panic!("{e}"));
    for lane in 0..n {
        for r in 0..4 {
            let want = if r == 3 { 2.0f32 } else { 0.0 };
            assert_eq!(out[lane * 4 + r], want.to_bits(), "lane {lane} row {r}");
        }
    }
}

/// The int8 SIMD8 layout by hand (extension examples 2 and 5): lane 1's A word 0 is
/// columns 4..7 of row 0 (column 4 in the low byte); B word 1 of lane 3 is rows 4..7 of
/// column 3.
#[test]
fn int8_layout_by_hand() {
    let case = Case::new(
        8,
        1,
        Elem::Int {
            bits: 8,
            signed: false,
        },
        Elem::Int {
            bits: 8,
            signed: false,
        },
        Acc::D,
        Acc::D,
    );
    let n = 8;
    let mut words = vec![0u32; n * (1 + 8 + 1)];
    words[1] = 0x0000_0300; // A[0][5] = 3
    words[n + 3 * 8 + 1] = 0x0000_0700; // lane 3, B component 1, byte 1 → B[5][3] = 7
    words[n + 8 * n] = 0; // C lane 0
    let out = run_case_words(&case, &words).unwrap_or_else(|e| panic!("{e}"));
    for (lane, &d) in out.iter().enumerate() {
        assert_eq!(d, if lane == 3 { 21 } else { 0 }, "lane {lane}");
    }
}

/// A subgroup size other than 8 or 16 is refused before the run, naming the instruction.
#[test]
fn other_subgroup_sizes_are_an_error() {
    let case = Case::new(
        8,
        2,
        Elem::Int {
            bits: 8,
            signed: true,
        },
        Elem::Int {
            bits: 8,
            signed: true,
        },
        Acc::D,
        Acc::D,
    );
    let m = compile_case(&case).unwrap_or_else(|e| panic!("{e}"));
    for size in [4, 32] {
        let cfg = RunConfig {
            subgroup_size: size,
            ..RunConfig::default()
        };
        let err = run_module(&m, &case, &vec![0; 8 * 10], &cfg).expect_err("must fail");
        let text = err.to_string();
        assert!(matches!(err, ExecError::Config(_)), "{text}");
        assert!(
            text.contains("OpSubgroupMatrixMultiplyAccumulateINTEL"),
            "{text}"
        );
        assert!(text.contains("subgroup size"), "{text}");
    }
}

/// BF results need PVC (SIMD16): on SIMD8 the DPAS legality rule is named (at compile time
/// when no subgroup size could run the instruction, else when the run starts).
#[test]
fn bf16_result_on_simd8_is_an_error() {
    let case = Case::new(8, 2, Elem::Bf16, Elem::Bf16, Acc::F, Acc::BfBits);
    let err = match compile_case(&case) {
        Err(e) => e,
        Ok(m) => {
            let cfg = RunConfig {
                subgroup_size: 8,
                ..RunConfig::default()
            };
            run_module(&m, &case, &[0; 8 * 20], &cfg).expect_err("must fail")
        }
    };
    assert!(err.to_string().contains("dst-type"), "{err}");
}

/// K that is not one DPAS's K is refused at compile time.
#[test]
fn wrong_k_is_a_compile_error() {
    let mut case = Case::new(
        8,
        2,
        Elem::Int {
            bits: 8,
            signed: true,
        },
        Elem::Int {
            bits: 8,
            signed: true,
        },
        Acc::D,
        Acc::D,
    );
    case.k_override = Some(16);
    case.b_count_override = Some(4);
    case.a_comp = CompTy::Int(16);
    let err = compile_case(&case).expect_err("must fail");
    assert!(err.to_string().contains("DPAS"), "{err}");
}

/// tf32 DPAS needs PVC (SIMD16); with subgroup size 8 the run is refused before it starts.
#[test]
fn tf32_on_simd8_is_an_error() {
    let case = Case::new(16, 2, Elem::Tf32, Elem::Tf32, Acc::F, Acc::F);
    let m = compile_case(&case).unwrap_or_else(|e| panic!("{e}"));
    let cfg = RunConfig {
        subgroup_size: 8,
        ..RunConfig::default()
    };
    let err = run_module(&m, &case, &[0; 16 * 20], &cfg).expect_err("must fail");
    assert!(matches!(err, ExecError::Config(_)), "{err}");
    assert!(err.to_string().contains("tf32"), "{err}");
}

//! df (fp64) DPAS on Xe3P: platform and type rules, the register layout of 64-bit channels, and
//! the arithmetic of each model against independent answers: the host's IEEE fma and double
//! arithmetic (not spvx-num's exact sums), exact rationals, and hand-computed vectors.

mod common;

use common::Rng;
use num_rational::BigRational;
use num_traits::{FromPrimitive, Signed};
use spvx_dpas::isa::{ExecOptions, encoding, parse_instruction, parse_program};
use spvx_dpas::{FloatModel, Platform, RegisterFile, Rule, SimError};

const N: usize = 16; // Xe3P exec size
const GRF: usize = 64;
const SD: usize = 8;

/// Register places used by the programs below: Dst r0 (RC rows of 2 GRFs), Src0 r16, Src1 r32
/// (8 depths × 2 GRFs), Src2 r48 (one GRF per row).
const DST: usize = 0;
const SRC0: usize = 16;
const SRC1: usize = 32;
const SRC2: usize = 48;

fn q(regs: &RegisterFile, at: usize) -> f64 {
    let b = regs.bytes(at, 8).unwrap();
    f64::from_le_bytes(b.try_into().unwrap())
}

fn put(regs: &mut RegisterFile, at: usize, v: f64) {
    regs.write_bytes(at, &v.to_le_bytes()).unwrap();
}

/// A random finite double with a spread of exponents and full 52-bit fractions.
fn value(rng: &mut Rng) -> f64 {
    let mant = 1.0 + (rng.next() >> 12) as f64 / (1u64 << 52) as f64;
    let exp = rng.range(-20, 20) as i32;
    let sign = if rng.next() & 1 == 0 { 1.0 } else { -1.0 };
    sign * mant * 2f64.powi(exp)
}

struct Case {
    a: Vec<[f64; SD]>,   // A rows
    b: Vec<[f64; N]>,    // B rows (depth d, column n)
    c: Option<Vec<f64>>, // C, RC × N
    rc: usize,
}

fn random_case(seed: u64, rc: usize, with_c: bool) -> Case {
    let mut rng = Rng(seed);
    Case {
        a: (0..rc)
            .map(|_| std::array::from_fn(|_| value(&mut rng)))
            .collect(),
        b: (0..SD)
            .map(|_| std::array::from_fn(|_| value(&mut rng)))
            .collect(),
        c: with_c.then(|| (0..rc * N).map(|_| value(&mut rng)).collect()),
        rc,
    }
}

/// Places the case in the register layout spvx documents for df (qwords, A rows of SD
/// elements, B depth d = GRF pair SRC1 + 2d), runs `dpas.df.df.8.RC` under `model`, and
/// returns D (RC × N).
fn run(case: &Case, model: &str) -> Vec<f64> {
    let mut regs = RegisterFile::with_grf_bytes(GRF, 128).unwrap();
    for (r, row) in case.a.iter().enumerate() {
        for (d, &v) in row.iter().enumerate() {
            put(&mut regs, SRC2 * GRF + (r * SD + d) * 8, v);
        }
    }
    for (d, row) in case.b.iter().enumerate() {
        for (n, &v) in row.iter().enumerate() {
            put(&mut regs, (SRC1 + 2 * d) * GRF + n * 8, v);
        }
    }
    if let Some(c) = &case.c {
        for (j, &v) in c.iter().enumerate() {
            put(&mut regs, SRC0 * GRF + j * 8, v);
        }
    }
    let src0 = if case.c.is_some() { "r16" } else { "null" };
    let text = format!("dpas.df.df.8.{} (16) r0 {src0} r32 r48\n", case.rc);
    let options = ExecOptions {
        model: FloatModel::named(model).unwrap(),
        ..ExecOptions::default()
    };
    parse_program(&text)
        .unwrap()
        .run(Platform::Xe3p, &mut regs, &options)
        .unwrap();
    (0..case.rc * N)
        .map(|j| q(&regs, DST * GRF + j * 8))
        .collect()
}

fn start(case: &Case, r: usize, n: usize) -> f64 {
    case.c.as_ref().map_or(0.0, |c| c[r * N + n])
}

/// Default model: each stage is one IEEE fma (the host's correctly rounded `mul_add`), in
/// increasing k from Src0.
#[test]
fn default_model_is_an_fma_chain() {
    for (seed, rc, with_c) in [(1, 8, true), (2, 1, false), (3, 5, true)] {
        let case = random_case(seed, rc, with_c);
        let d = run(&case, "emulator");
        for r in 0..rc {
            for n in 0..N {
                let mut acc = start(&case, r, n);
                for k in 0..SD {
                    acc = case.b[k][n].mul_add(case.a[r][k], acc);
                }
                assert_eq!(
                    d[r * N + n].to_bits(),
                    acc.to_bits(),
                    "seed {seed} [{r}][{n}]"
                );
            }
        }
    }
}

/// `df-rounded`: the product rounded to double, then added (host double arithmetic).
#[test]
fn df_rounded_model_rounds_products() {
    let case = random_case(7, 8, true);
    let d = run(&case, "df-rounded");
    let mut differs = false;
    for r in 0..8 {
        for n in 0..N {
            let mut acc = start(&case, r, n);
            let mut fused = acc;
            for k in 0..SD {
                let p = case.b[k][n] * case.a[r][k];
                acc += p;
                fused = case.b[k][n].mul_add(case.a[r][k], fused);
            }
            assert_eq!(d[r * N + n].to_bits(), acc.to_bits(), "[{r}][{n}]");
            differs |= acc.to_bits() != fused.to_bits();
        }
    }
    assert!(differs, "the data should tell the two product rules apart");
}

fn rational(x: f64) -> BigRational {
    BigRational::from_f64(x).unwrap()
}

/// `exact`: one rounding of the exact sum. Checked with rationals: the result is a nearest
/// double to the exact sum (and, on a tie, the even one).
#[test]
fn exact_model_rounds_once() {
    let case = random_case(11, 8, true);
    let d = run(&case, "exact");
    for r in 0..8 {
        for n in 0..N {
            let mut s = rational(start(&case, r, n));
            for k in 0..SD {
                s += rational(case.b[k][n]) * rational(case.a[r][k]);
            }
            let got = d[r * N + n];
            let err = (rational(got) - &s).abs();
            for nb in [got.next_up(), got.next_down()] {
                let other = (rational(nb) - &s).abs();
                assert!(
                    err < other || (err == other && got.to_bits() & 1 == 0),
                    "[{r}][{n}]: {got:e} is not the nearest double to the exact sum"
                );
            }
        }
    }
}

/// Hand-computed: a = b = 1 + 2^-30, C = -(1 + 2^-29). The exact product is
/// 1 + 2^-29 + 2^-60, so the fused stage gives 2^-60 and the rounded product gives 0.
#[test]
fn hand_vector_fused_versus_rounded() {
    let x = 1.0 + 2f64.powi(-30);
    let mut a = [[0.0; SD]; 1];
    a[0][0] = x;
    let mut b = [[0.0; N]; SD];
    b[0] = [x; N];
    let case = Case {
        a: a.to_vec(),
        b: b.to_vec(),
        c: Some(vec![-(1.0 + 2f64.powi(-29)); N]),
        rc: 1,
    };
    assert!(run(&case, "emulator").iter().all(|&v| v == 2f64.powi(-60)));
    assert!(run(&case, "df-rounded").iter().all(|&v| v == 0.0));
    assert!(run(&case, "exact").iter().all(|&v| v == 2f64.powi(-60)));
}

/// Hand-computed layout: B[d][n] = n + 1 at depth 3 only, A[r][3] = r + 1: D[r][n] = (r+1)(n+1)
/// locates every Src1 channel (qword n of GRF pair 32 + 2·3), every Src2 row (GRF 48 + r) and
/// every Dst qword (row r = GRFs 2r, 2r + 1).
#[test]
fn layout_of_64_bit_channels() {
    let mut a = vec![[0.0; SD]; 8];
    for (r, row) in a.iter_mut().enumerate() {
        row[3] = (r + 1) as f64;
    }
    let mut b = vec![[0.0; N]; SD];
    b[3] = std::array::from_fn(|n| (n + 1) as f64);
    let case = Case {
        a,
        b,
        c: None,
        rc: 8,
    };
    let d = run(&case, "emulator");
    for r in 0..8 {
        for n in 0..N {
            assert_eq!(d[r * N + n], ((r + 1) * (n + 1)) as f64);
        }
    }
}

#[test]
fn nan_results_are_canonical_and_specials_follow_ieee() {
    let mut b = vec![[0.0; N]; SD];
    b[0] = [f64::INFINITY; N];
    b[0][1] = f64::from_bits(0x7ff0_0000_dead_beef); // a signalling NaN with a payload
    let mut a = vec![[0.0; SD]; 1];
    a[0][0] = 2.0;
    let case = Case {
        a: a.clone(),
        b: b.clone(),
        c: None,
        rc: 1,
    };
    let d = run(&case, "emulator");
    assert_eq!(d[0], f64::INFINITY);
    assert_eq!(d[1].to_bits(), 0x7ff8_0000_0000_0000);
    // inf · 0 = NaN.
    a[0][0] = 0.0;
    let d = run(
        &Case {
            a,
            b,
            c: None,
            rc: 1,
        },
        "emulator",
    );
    assert_eq!(d[0].to_bits(), 0x7ff8_0000_0000_0000);
}

fn illegal(text: &str, platform: Platform) -> spvx_dpas::Illegal {
    let instr = parse_instruction(text).unwrap();
    match spvx_dpas::isa::check(&instr, platform) {
        Err(e) => e,
        Ok(_) => panic!("{text} accepted on {platform}"),
    }
}

/// DF exists only on Xe3P; elsewhere it is refused by name. The four operands are DF.
#[test]
fn platform_and_type_rules() {
    for p in [Platform::Pvc, Platform::Xe2, Platform::Xe3] {
        let e = illegal("dpas.df.df.8.8 (16) r0 r16 r32 r48", p);
        assert_eq!(e.rule, Rule::PlatformPrecision);
        assert!(e.to_string().contains("df DPAS exists only on Xe3P"), "{e}");
    }
    let e = illegal("dpas.df.df.8.8 (8) r0 r16 r32 r48", Platform::Dg2);
    assert_eq!(e.rule, Rule::PlatformPrecision);
    let e = illegal("dpas.df.bf.8.8 (16) r0 r16 r32 r48", Platform::Xe3p);
    assert_eq!(e.rule, Rule::PrecisionCombination);
    let e = illegal("dpas.df.df.8.8 (16) r0:f r16 r32 r48", Platform::Xe3p);
    assert_eq!(e.rule, Rule::DstType);
    let e = illegal("dpas.df.df.8.8 (16) r0 r16:f r32 r48", Platform::Xe3p);
    assert_eq!(e.rule, Rule::Src0Type);
    let e = illegal("dpas.df.df.8.8 (16) r0 r16 r32:ud r48", Platform::Xe3p);
    assert_eq!(e.rule, Rule::SourceType);
    let e = illegal("dpas.bf.bf.8.8 (16) r0:df r16 r32 r48", Platform::Xe3p);
    assert_eq!(e.rule, Rule::DstType);
    let e = illegal("dpas.hf.hf.8.8 (16) r0 r16 r32:df r48", Platform::Xe3p);
    assert_eq!(e.rule, Rule::SourceType);
    // A df row is two GRFs; GRF alignment suffices (r1 is fine), a half GRF is not.
    let ok = parse_instruction("dpas.df.df.8.8 (16) r1 null r32 r48").unwrap();
    assert!(spvx_dpas::isa::check(&ok, Platform::Xe3p).is_ok());
    let e = illegal("dpas.df.df.8.8 (16) r0.4 null r32 r48", Platform::Xe3p);
    assert_eq!(e.rule, Rule::DstAlignment);
    // Src2 rows are 8 qwords = one GRF.
    let e = illegal("dpas.df.df.8.8 (16) r0 null r32 r48.4", Platform::Xe3p);
    assert_eq!(e.rule, Rule::Src2Alignment);
}

/// The text form names df and the DF operand types, and reads back; df has no vISA binary
/// precision code, so no info dword is produced.
#[test]
fn text_form_and_no_binary_code() {
    let instr = parse_instruction("dpas.df.df.8.4 (16) r2 null r32 r48").unwrap();
    let text = instr.to_string();
    assert_eq!(
        text,
        "dpas.df.df.8.4 (M1, 16) r2.0:df null r32.0:df r48.0:df"
    );
    assert_eq!(parse_instruction(&text).unwrap(), instr);
    assert_eq!(encoding::info_dword(&instr), None);
}

/// Src1 spans 16 GRFs: r32..r47 does not fit a file of 47 GRFs (r31..r46 would).
#[test]
fn src1_spans_sixteen_grfs() {
    let mut regs = RegisterFile::with_grf_bytes(GRF, 47).unwrap();
    let e = parse_program("dpas.df.df.8.1 (16) r0 null r32 r46\n")
        .unwrap()
        .run(Platform::Xe3p, &mut regs, &ExecOptions::default())
        .unwrap_err();
    let SimError::InProgram { source, .. } = e else {
        panic!("{e}")
    };
    assert!(source.to_string().contains("register-bounds"), "{source}");
    assert!(source.to_string().contains("Src1"), "{source}");
}

#[test]
fn matrix_api_refuses_df() {
    use spvx_dpas::matrix::ElementMatrix;
    let e = ElementMatrix::from_bits("A", 1, 1, spvx_dpas::Precision::Df, vec![0]).unwrap_err();
    assert!(e.to_string().contains("df"), "{e}");
}

//! `spvx_run::conform` on SPV_INTEL_subgroup_matrix_multiply_accumulate: every form's engine
//! results (the interpreter that gives the expected values, and the default engine, both at
//! the form's subgroup size) against an independent model written here: the lanes' words
//! gathered back into whole matrices by the extension's "Mapping Matrix Data to Invocations"
//! (A: lane l's component j is row j·q + ⌊l / L⌋, columns (l mod L)·c …, lower columns in lower
//! bits; B: lane n's components are column n, lower rows in lower bits; C and the result:
//! component r is row r), integer products summed exactly and wrapped to 32 bits, float
//! products and sums in host f32 one rounding each in increasing k from C (docs/semantics/
//! dpas.md, "the default model"), BF/HF results rounded by the `half` crate. Also: the inputs
//! reach the edges (integer wrap, NaN, ±Inf, subnormal inputs, cancelled sums, ties).

use half::{bf16, f16};
use spvx_num::dpas::Precision;
use spvx_run::conform::form::Kind;
use spvx_run::conform::run::{compile, run_engine};
use spvx_run::conform::smma::{AComp, Acc, SmmaForm};
use spvx_run::conform::sweep::forms;
use spvx_run::conform::{Ext, Form, inputs};

fn smma(f: &Form) -> SmmaForm {
    match &f.kind {
        Kind::Smma(d) => *d,
        other => panic!("not an smma form: {other:?}"),
    }
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// One subgroup's matrices, element bit patterns, row-major.
struct Mats {
    a: Vec<u32>,
    b: Vec<u32>,
    c: Vec<u32>,
}

/// Elements per A component, lanes per row (L), rows side by side (q), K.
fn layout(f: &SmmaForm) -> (usize, usize, usize, usize) {
    let k = match (f.a, f.b) {
        (Precision::Tf32, _) => 8,
        (Precision::Fp16 | Precision::Bf16, _) => 16,
        (a, b) if a.bits() == 8 || b.bits() == 8 => 32,
        _ => 64,
    };
    let comp = match f.a_comp {
        AComp::Int(b) => b,
        AComp::Half => 16,
        AComp::Float => 32,
    } as usize;
    let per = comp / f.a.bits() as usize;
    let l = k / per;
    (per, l, f.n as usize / l, k)
}

/// Gathers subgroup `sg`'s matrices from the input words.
fn gather(f: &SmmaForm, ins: &[Vec<u32>], sg: usize) -> Mats {
    let (n, m) = (f.n as usize, f.m as usize);
    let (per, l, q, k) = layout(f);
    let sa = m.div_ceil(q);
    let eb = f.b.bits() as usize;
    let per_b = 32 / eb;
    let sb = k / per_b;
    let ea = f.a.bits() as usize;
    let mask = |bits: usize| {
        if bits >= 32 {
            u32::MAX
        } else {
            (1u32 << bits) - 1
        }
    };
    let mut mx = Mats {
        a: vec![0; m * k],
        b: vec![0; k * n],
        c: vec![0; m * n],
    };
    for lane in 0..n {
        let inv = sg * n + lane;
        for j in 0..sa {
            let w = ins[0][inv * sa + j];
            let row = j * q + lane / l;
            if row >= m {
                continue;
            }
            for e in 0..per {
                mx.a[row * k + (lane % l) * per + e] = (w >> (e * ea)) & mask(ea);
            }
        }
        for i in 0..sb {
            let w = ins[1][inv * sb + i];
            for e in 0..per_b {
                mx.b[(i * per_b + e) * n + lane] = (w >> (e * eb)) & mask(eb);
            }
        }
        for r in 0..m {
            mx.c[r * n + lane] = ins[2][inv * m + r];
        }
    }
    mx
}

fn int_value(bits: u32, p: Precision) -> i64 {
    let w = p.bits();
    if p.is_signed_integer() && (bits >> (w - 1)) & 1 == 1 {
        i64::from(bits) - (1i64 << w)
    } else {
        i64::from(bits)
    }
}

fn elem_f32(bits: u32, p: Precision) -> f32 {
    match p {
        Precision::Fp16 => f16::from_bits(bits as u16).to_f32(),
        Precision::Bf16 => f32::from_bits(bits << 16),
        _ => f32::from_bits(bits & 0xffff_e000), // tf32: the low 13 bits are ignored
    }
}

fn acc_f32(bits: u32, a: Acc) -> f32 {
    match a {
        Acc::F32 => f32::from_bits(bits),
        Acc::F16 => f16::from_bits(bits as u16).to_f32(),
        _ => f32::from_bits(bits << 16),
    }
}

/// The result element bits of the model.
fn model(f: &SmmaForm, mx: &Mats, r: usize, col: usize) -> u32 {
    let (n, k) = (f.n as usize, layout(f).3);
    let cv = mx.c[r * n + col];
    if f.c == Acc::Int32 {
        let mut sum = i64::from(cv as i32);
        for i in 0..k {
            sum += int_value(mx.a[r * k + i], f.a) * int_value(mx.b[i * n + col], f.b);
        }
        return sum as u32;
    }
    let mut acc = acc_f32(cv, f.c);
    for i in 0..k {
        let p = elem_f32(mx.a[r * k + i], f.a) * elem_f32(mx.b[i * n + col], f.b);
        acc += p;
    }
    match f.r {
        Acc::F32 => acc.to_bits(),
        Acc::F16 => u32::from(f16::from_f32(acc).to_bits()),
        _ => u32::from(bf16::from_f32(acc).to_bits()),
    }
}

fn is_nan(bits: u32, a: Acc) -> bool {
    match a {
        Acc::F32 => f32::from_bits(bits).is_nan(),
        Acc::F16 => f16::from_bits(bits as u16).is_nan(),
        Acc::Bf16Bits => bf16::from_bits(bits as u16).is_nan(),
        Acc::Int32 => false,
    }
}

#[derive(Default, Debug)]
struct Seen {
    wrapped: usize,
    nan: usize,
    inf: usize,
    subnormal_inputs: usize,
    cancelled: usize,
}

#[test]
fn every_form_on_the_engine_agrees_with_the_independent_model() {
    let all = forms(&[Ext::Smma], None);
    let mut ids: Vec<&str> = all.iter().map(|f| f.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "form ids are unique");
    // Both subgroup sizes, every precision pair, every accumulator pair.
    assert_eq!(all.len(), 365);
    let mut seen = Seen::default();
    let count = 256u32;
    for form in &all {
        let f = smma(form);
        assert_eq!(form.subgroup_size(), Some(f.n));
        let c = compile(form).unwrap_or_else(|e| panic!("{e}"));
        let ins_bytes = inputs::inputs(form, 3, 0, count);
        let ins: Vec<Vec<u32>> = ins_bytes.iter().map(|b| words(b)).collect();
        for reference_run in [true, false] {
            let run = run_engine(&c, form, &ins_bytes, count, reference_run)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(run.masked.is_empty(), "{}: nothing is undefined", form.id);
            let out = words(&run.out);
            let m = f.m as usize;
            for sg in 0..(count / f.n) as usize {
                let mx = gather(&f, &ins, sg);
                for lane in 0..f.n as usize {
                    for r in 0..m {
                        let want = model(&f, &mx, r, lane);
                        let got = out[(sg * f.n as usize + lane) * m + r];
                        if is_nan(want, f.r) {
                            assert!(
                                is_nan(got, f.r),
                                "{} sg {sg} lane {lane} row {r}: NaN expected, got {got:#x}",
                                form.id
                            );
                        } else {
                            assert_eq!(got, want, "{} sg {sg} lane {lane} row {r}", form.id);
                        }
                        if !reference_run {
                            continue;
                        }
                        if f.c == Acc::Int32 {
                            let k = layout(&f).3;
                            let exact: i64 = i64::from(mx.c[r * f.n as usize + lane] as i32)
                                + (0..k)
                                    .map(|i| {
                                        int_value(mx.a[r * k + i], f.a)
                                            * int_value(mx.b[i * f.n as usize + lane], f.b)
                                    })
                                    .sum::<i64>();
                            seen.wrapped += usize::from(i32::try_from(exact).is_err());
                        } else {
                            let v = acc_f32(got, f.r);
                            seen.nan += usize::from(v.is_nan());
                            seen.inf += usize::from(v.is_infinite());
                            // A zero result from non-zero products over a zero C.
                            let k = layout(&f).3;
                            let c0 = acc_f32(mx.c[r * f.n as usize + lane], f.c);
                            let nonzero = (0..k).any(|i| {
                                elem_f32(mx.a[r * k + i], f.a)
                                    * elem_f32(mx.b[i * f.n as usize + lane], f.b)
                                    != 0.0
                            });
                            seen.cancelled += usize::from(c0 == 0.0 && nonzero && v == 0.0);
                        }
                    }
                }
                if reference_run && f.is_float() {
                    seen.subnormal_inputs +=
                        mx.a.iter()
                            .filter(|&&x| elem_f32(x, f.a).is_subnormal())
                            .count();
                }
            }
        }
    }
    assert!(seen.wrapped > 100, "{seen:?}");
    assert!(seen.nan > 100, "{seen:?}");
    assert!(seen.inf > 100, "{seen:?}");
    assert!(seen.subnormal_inputs > 100, "{seen:?}");
    assert!(seen.cancelled > 100, "{seen:?}");
}

/// Rounding ties reach the result: among the float forms' cases some have one non-zero
/// product equal to half an ulp of the result format at C, and the model's result there is C
/// or C + ulp by the even rule (checked above bit for bit); count them.
#[test]
fn ties_are_among_the_inputs() {
    let mut ties = 0;
    for form in forms(&[Ext::Smma], Some("/m2/")) {
        let f = smma(&form);
        if !f.is_float() {
            continue;
        }
        let count = 128u32;
        let ins: Vec<Vec<u32>> = inputs::inputs(&form, 3, 0, count)
            .iter()
            .map(|b| words(b))
            .collect();
        let (n, k) = (f.n as usize, layout(&f).3);
        let mant = match f.r {
            Acc::F32 => 23,
            Acc::F16 => 10,
            _ => 7,
        };
        for sg in 0..(count / f.n) as usize {
            let mx = gather(&f, &ins, sg);
            for r in 0..f.m as usize {
                for col in 0..n {
                    let products: Vec<f64> = (0..k)
                        .map(|i| {
                            f64::from(elem_f32(mx.a[r * k + i], f.a))
                                * f64::from(elem_f32(mx.b[i * n + col], f.b))
                        })
                        .filter(|p| *p != 0.0)
                        .collect();
                    let c = f64::from(acc_f32(mx.c[r * n + col], f.c));
                    if products.len() == 1 && c.is_finite() && c != 0.0 {
                        let ulp = 2f64.powi(c.abs().log2().floor() as i32 - mant);
                        ties += usize::from(products[0].abs() == ulp / 2.0);
                    }
                }
            }
        }
    }
    assert!(ties > 50, "{ties}");
}

/// On a device, a NaN with another payload where a NaN is expected is ALLOWED DIFFERENCE;
/// any other difference of a float form is FAIL; integer forms allow nothing.
#[test]
fn only_nan_payloads_may_differ_on_a_device() {
    use spvx_run::conform::verdict::{Verdict, allowance, judge};
    let all = forms(&[Ext::Smma], Some("smma/sg16/m1/hf-hf/a16/f32-f32"));
    let form = &all[0];
    let c = compile(form).unwrap_or_else(|e| panic!("{e}"));
    let count = 256;
    let ins = inputs::inputs(form, 1, 0, count);
    let expected = run_engine(&c, form, &ins, count, true).unwrap_or_else(|e| panic!("{e}"));
    let out = words(&expected.out);
    let nan_at = out
        .iter()
        .position(|w| f32::from_bits(*w).is_nan())
        .unwrap_or_else(|| panic!("some result is NaN"));
    let mut got = expected.out.clone();
    got[nan_at * 4] ^= 1; // another payload, still a NaN
    let allow = allowance(form, &ins);
    let (v, _) = judge(form, 0, &ins, &expected, &got, allow.as_deref());
    assert!(matches!(v, Verdict::Allowed { .. }), "{v:?}");
    let finite_at = out
        .iter()
        .position(|w| f32::from_bits(*w).is_finite())
        .unwrap_or_else(|| panic!("some result is finite"));
    got[finite_at * 4] ^= 1;
    let (v, _) = judge(form, 0, &ins, &expected, &got, allow.as_deref());
    assert!(matches!(v, Verdict::Fail(_)), "{v:?}");
    let int = &forms(&[Ext::Smma], Some("smma/sg8/m1/u8-u8/"))[0];
    assert!(allowance(int, &ins).is_none());
}

/// An Intel profile names the DPAS platform: the forms its hardware cannot run (another
/// subgroup size than the platform's exec size; Xe3P: integer A and B of different widths) are
/// UNSUPPORTED naming the profile and the rule, the others PASS; every form is still reported.
#[test]
fn an_intel_profile_runs_only_its_platforms_forms() {
    use spvx_run::conform::{Options, Shard, Target, Verdict, sweep::sweep};
    let opts = |profile: &str| Options {
        exts: vec![Ext::Smma],
        seed: 5,
        cases: 32,
        shard: Shard::ALL,
        jobs: 2,
        only: None,
        amber: None,
        profile: Some(profile.to_string()),
    };
    let quiet = |_: usize, _: usize, _: &str| {};
    let all = forms(&[Ext::Smma], None).len();
    for (profile, size, platform) in [("intel-pvc", 16, "pvc"), ("intel-dg2", 8, "dg2")] {
        let r = sweep(&opts(profile), &Target::Engine, &quiet).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.forms.len(), all, "{profile}");
        for f in &r.forms {
            let own = f.id.starts_with(&format!("smma/sg{size}/"));
            match &f.verdict {
                Verdict::Pass => assert!(own, "{profile}: {} passed", f.id),
                Verdict::Unsupported { missing } => {
                    assert!(!own, "{profile}: {} unsupported: {missing}", f.id);
                    assert!(
                        missing.contains(&format!("profile {profile}"))
                            && missing.contains(&format!("DPAS platform {platform}")),
                        "{missing}"
                    );
                }
                other => panic!("{profile}: {}: {other:?}", f.id),
            }
        }
    }
    let r = sweep(&opts("intel-xe3p"), &Target::Engine, &quiet).unwrap_or_else(|e| panic!("{e}"));
    let mixed = r
        .forms
        .iter()
        .find(|f| f.id.starts_with("smma/sg16/") && f.id.contains("/u8-u4/"))
        .unwrap_or_else(|| panic!("no sg16 u8 × u4 form"));
    match &mixed.verdict {
        Verdict::Unsupported { missing } => {
            assert!(missing.contains("platform-precision"), "{missing}")
        }
        other => panic!("{}: {other:?}", mixed.id),
    }
    let same = r
        .forms
        .iter()
        .find(|f| f.id.starts_with("smma/sg16/") && f.id.contains("/u8-u8/"))
        .unwrap_or_else(|| panic!("no sg16 u8 × u8 form"));
    assert_eq!(same.verdict, Verdict::Pass, "{}", same.id);
}

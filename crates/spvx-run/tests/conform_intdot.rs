//! `spvx_run::conform` on SPV_KHR_integer_dot_product: the engine's results on every form's
//! generated cases against an exact reference computed here (num-bigint, from the extension's
//! text) and against spvx-num's undefined-case report evaluated directly; the edges the inputs
//! must reach; a wrong result injected is FAIL with the first failing input; shards partition
//! the sweep and merge into the whole sweep's report; exported Amber scripts run back.

use num_bigint::BigInt;
use spvx_exec::RunConfig;
use spvx_num::intdot::DotKind;
use spvx_run::amber::{Status, Target as AmberTarget, run_script};
use spvx_run::conform::form::Kind;
use spvx_run::conform::intdot::IntDotForm;
use spvx_run::conform::report::Report;
use spvx_run::conform::run::{compile, run_engine};
use spvx_run::conform::sweep::{Options, Target, forms, sweep, units};
use spvx_run::conform::verdict::{Verdict, judge};
use spvx_run::conform::{Ext, Form, Shard, inputs};
use spvx_testtools::temp_dir;

fn intdot(f: &Form) -> IntDotForm {
    match &f.kind {
        Kind::IntDot(d) => *d,
        other => panic!("not an intdot form: {other:?}"),
    }
}

fn form(id: &str) -> Form {
    forms(&[Ext::Intdot], None)
        .into_iter()
        .find(|f| f.id == id)
        .unwrap_or_else(|| panic!("no form {id}"))
}

/// The value of `bits` as a `w`-bit integer.
fn val(bits: u64, w: u32, signed: bool) -> BigInt {
    let b = if w == 64 {
        bits
    } else {
        bits & ((1u64 << w) - 1)
    };
    if signed && (b >> (w - 1)) & 1 == 1 {
        BigInt::from(b) - (BigInt::from(1u8) << w)
    } else {
        BigInt::from(b)
    }
}

fn le(bytes: &[u8], i: usize, size: usize) -> u64 {
    let mut w = [0u8; 8];
    w[..size].copy_from_slice(&bytes[i * size..(i + 1) * size]);
    u64::from_le_bytes(w)
}

/// One case decoded: components of a and b, the accumulator.
struct Case {
    a: Vec<u64>,
    b: Vec<u64>,
    acc: u64,
}

fn case(f: &IntDotForm, ins: &[Vec<u8>], i: usize) -> Case {
    let n = f.comps();
    let comps = |bytes: &[u8]| -> Vec<u64> {
        if f.packed() {
            let word = le(bytes, i, 4);
            (0..4).map(|k| (word >> (8 * k)) & 0xff).collect()
        } else {
            let s = (f.width / 8) as usize;
            (0..n).map(|k| le(bytes, i * n + k, s)).collect()
        }
    };
    Case {
        a: comps(&ins[0]),
        b: comps(&ins[1]),
        acc: if f.acc_sat {
            le(&ins[2], i, (f.result / 8) as usize)
        } else {
            0
        },
    }
}

/// The exact dot product R, from the extension text: Vector 1 sign-extended for OpSDot and
/// OpSUDot, Vector 2 for OpSDot only.
fn exact(f: &IntDotForm, c: &Case) -> BigInt {
    let (sa, sb) = match f.kind {
        DotKind::Signed => (true, true),
        DotKind::Unsigned => (false, false),
        DotKind::Mixed => (true, false),
    };
    c.a.iter()
        .zip(&c.b)
        .map(|(&x, &y)| val(x, f.width, sa) * val(y, f.width, sb))
        .sum()
}

fn range(r: u32, signed: bool) -> (BigInt, BigInt) {
    if signed {
        (
            -(BigInt::from(1u8) << (r - 1)),
            (BigInt::from(1u8) << (r - 1)) - 1,
        )
    } else {
        (BigInt::from(0u8), (BigInt::from(1u8) << r) - 1)
    }
}

/// The reference result bits and whether the spec leaves the AccSat result undefined (some
/// product, or the sum of the positive or of the negative products, outside the result range).
fn reference(f: &IntDotForm, c: &Case) -> (u64, bool) {
    let r = exact(f, c);
    let modulus = BigInt::from(1u8) << f.result;
    let bits = |v: BigInt| -> u64 {
        let m = ((v % &modulus) + &modulus) % &modulus;
        u64::try_from(m).unwrap_or(u64::MAX)
    };
    if !f.acc_sat {
        return (bits(r), false);
    }
    let signed = f.kind != DotKind::Unsigned;
    let (lo, hi) = range(f.result, signed);
    let (sa, sb) = (f.kind != DotKind::Unsigned, f.kind == DotKind::Signed);
    let products: Vec<BigInt> =
        c.a.iter()
            .zip(&c.b)
            .map(|(&x, &y)| val(x, f.width, sa) * val(y, f.width, sb))
            .collect();
    let zero = BigInt::from(0u8);
    let pos: BigInt = products.iter().filter(|p| **p > zero).sum();
    let neg: BigInt = products.iter().filter(|p| **p < zero).sum();
    let undefined = products.iter().any(|p| *p < lo || *p > hi) || pos > hi || neg < lo;
    let total = r + val(c.acc, f.result, signed);
    (bits(total.clamp(lo, hi)), undefined)
}

#[test]
fn every_form_on_the_engine_agrees_with_the_exact_reference_and_masks_exactly_the_undefined_cases()
{
    let all = forms(&[Ext::Intdot], None);
    // 30 vector shapes of lengths 2-4 × 18 signedness/AccSat combinations, 4 packed × 28,
    // and 20 shapes of lengths 8 and 16 (Vector16: Kernel's unsigned types only) × 6.
    assert_eq!(all.len(), 30 * 18 + 4 * 28 + 20 * 6);
    let mut ids: Vec<&str> = all.iter().map(|f| f.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "form ids are unique");
    let mut masked_total = 0;
    for form in &all {
        let f = intdot(form);
        let c = compile(form).unwrap_or_else(|e| panic!("{e}"));
        let count = 256;
        let ins = inputs::inputs(form, 11, 0, count);
        for reference_run in [true, false] {
            let run =
                run_engine(&c, form, &ins, count, reference_run).unwrap_or_else(|e| panic!("{e}"));
            let size = form.output.elem.size();
            for i in 0..count as usize {
                let cs = case(&f, &ins, i);
                let (want, undefined) = reference(&f, &cs);
                let got = le(&run.out, i, size);
                assert_eq!(
                    got, want,
                    "{} case {i}: a {:x?} b {:x?} acc {:#x}",
                    form.id, cs.a, cs.b, cs.acc
                );
                if reference_run {
                    assert_eq!(
                        run.masked.contains(&(i as u32)),
                        undefined,
                        "{} case {i}: masked iff the spec leaves it undefined",
                        form.id
                    );
                    masked_total += usize::from(undefined);
                }
            }
        }
    }
    assert!(
        masked_total > 0,
        "some AccSat cases reach the undefined case"
    );
}

#[test]
fn the_inputs_reach_the_overflow_and_saturation_edges() {
    // (form, R values that must occur among the defined cases, R values among the undefined).
    let f = form("intdot/OpSDotAccSat/s8x4/s8x4/s16");
    let d = intdot(&f);
    let ins = inputs::inputs(&f, 1, 0, 1024);
    let mut rs = Vec::new();
    let mut outs = Vec::new();
    for i in 0..1024 {
        let c = case(&d, &ins, i);
        rs.push((exact(&d, &c), reference(&d, &c).1));
        outs.push(reference(&d, &c).0);
    }
    let has = |v: i64, undefined: bool| {
        rs.iter()
            .any(|(r, u)| *r == BigInt::from(v) && *u == undefined)
    };
    assert!(has(32767, false), "the largest sum that fits");
    assert!(has(32768, true), "the smallest sum that overflows");
    assert!(has(-32768, false), "the most negative sum that fits");
    assert!(has(-32769, true), "the first sum below the range");
    assert!(
        outs.contains(&0x7fff) && outs.contains(&0x8000),
        "saturation at both limits"
    );
    // Extremes: (-128)·(-128) in every component.
    assert!(rs.iter().any(|(r, _)| *r == BigInt::from(4 * 16384)));
    // The plain forms reach their wrap points.
    let f = form("intdot/OpUDot/u8x2/u8x2/u8");
    let d = intdot(&f);
    let ins = inputs::inputs(&f, 1, 0, 1024);
    let rs: Vec<BigInt> = (0..1024).map(|i| exact(&d, &case(&d, &ins, i))).collect();
    for v in [127, 128, 256] {
        assert!(rs.contains(&BigInt::from(v)), "OpUDot u8 reaches R = {v}");
    }
    // 64-bit extremes: (2^64-1)·(2^64-1) for OpUDot.
    let f = form("intdot/OpUDot/u64x2/u64x2/u64");
    let d = intdot(&f);
    let ins = inputs::inputs(&f, 1, 0, 1024);
    let max = BigInt::from(u64::MAX);
    assert!((0..1024).any(|i| exact(&d, &case(&d, &ins, i)) == &max * &max * 2));
}

#[test]
fn a_wrong_result_is_fail_with_the_first_failing_input_and_a_masked_one_is_not_compared() {
    let f = form("intdot/OpSDotAccSat/s8x4/s8x4/s8");
    let c = compile(&f).unwrap_or_else(|e| panic!("{e}"));
    let ins = inputs::inputs(&f, 3, 2, 128);
    let expected = run_engine(&c, &f, &ins, 128, true).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !expected.masked.is_empty(),
        "an s8 AccSat chunk has undefined cases"
    );
    let (v, counts) = judge(&f, 2, &ins, &expected, &expected.out, None);
    assert_eq!(v, Verdict::Pass);
    assert_eq!(counts.compared + counts.masked, 128);
    // Masked elements changed: still PASS.
    let mut got = expected.out.clone();
    for &m in &expected.masked {
        got[m as usize] ^= 0x55;
    }
    assert_eq!(judge(&f, 2, &ins, &expected, &got, None).0, Verdict::Pass);
    // The first defined element and a later one wrong: FAIL naming the first.
    let first = (0..128u32)
        .find(|i| !expected.masked.contains(i))
        .unwrap_or(0);
    let later = (first + 1..128)
        .rev()
        .find(|i| !expected.masked.contains(i))
        .unwrap_or(0);
    got[first as usize] = got[first as usize].wrapping_add(1);
    got[later as usize] ^= 0x80;
    let (v, _) = judge(&f, 2, &ins, &expected, &got, None);
    let Verdict::Fail(fail) = v else {
        panic!("not FAIL: {v:?}")
    };
    assert_eq!(fail.case, 2 * 4096 + u64::from(first));
    assert_eq!(fail.invocation, [first, 0, 0]);
    assert_eq!(fail.mismatches, 2);
    let want = expected.out[first as usize] as i8;
    assert!(
        fail.expected.starts_with(&format!("{want} ")),
        "{}",
        fail.expected
    );
    assert!(
        fail.got.starts_with(&format!("{} ", want.wrapping_add(1))),
        "{}",
        fail.got
    );
    assert!(fail.inputs[0].starts_with("a = [") && fail.inputs[2].starts_with("acc = ["));
}

#[test]
fn inputs_depend_on_seed_form_and_chunk_only() {
    let f = form("intdot/OpSUDot/s16x3/u16x3/s32");
    let g = form("intdot/OpSUDot/u16x3/u16x3/s32");
    assert_eq!(inputs::inputs(&f, 5, 1, 64), inputs::inputs(&f, 5, 1, 64));
    assert_ne!(inputs::inputs(&f, 5, 1, 64), inputs::inputs(&f, 6, 1, 64));
    assert_ne!(inputs::inputs(&f, 5, 1, 64), inputs::inputs(&f, 5, 2, 64));
    assert_ne!(inputs::inputs(&f, 5, 1, 64), inputs::inputs(&g, 5, 1, 64));
}

#[test]
fn shards_partition_the_units_and_merge_into_the_whole_sweep() {
    for n in [1u64, 2, 3, 7] {
        let mut all: Vec<(usize, u32)> = Vec::new();
        for k in 1..=n {
            let s = Shard { index: k, count: n };
            all.extend(units(5, 10_000, s).iter().map(|u| (u.form, u.chunk)));
        }
        all.sort_unstable();
        let whole: Vec<(usize, u32)> = units(5, 10_000, Shard::ALL)
            .iter()
            .map(|u| (u.form, u.chunk))
            .collect();
        assert_eq!(all, whole, "{n} shards");
    }
    assert_eq!(
        units(1, 10_000, Shard::ALL)
            .iter()
            .map(|u| u.count)
            .sum::<u32>(),
        10_048
    );
    let opts = |shard| Options {
        exts: vec![Ext::Intdot],
        seed: 9,
        cases: 2 * 4096 + 64,
        shard,
        jobs: 2,
        only: Some("/s16x2/".to_string()),
        amber: None,
        profile: None,
    };
    let quiet = |_: usize, _: usize, _: &str| {};
    let whole = sweep(&opts(Shard::ALL), &Target::Engine, &quiet).unwrap_or_else(|e| panic!("{e}"));
    assert!(whole.forms.len() >= 4 && whole.forms.iter().all(|f| f.chunks == [0, 1, 2]));
    let parts: Vec<(String, Report)> = (1..=3)
        .map(|k| {
            let r = sweep(&opts(Shard { index: k, count: 3 }), &Target::Engine, &quiet)
                .unwrap_or_else(|e| panic!("{e}"));
            (format!("shard{k}"), r)
        })
        .collect();
    // Merging in any order gives the same report.
    let mut reversed = parts.clone();
    reversed.reverse();
    let merged = Report::merge(parts.clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(merged.forms, whole.forms);
    assert_eq!(
        Report::merge(reversed).unwrap_or_else(|e| panic!("{e}")),
        merged
    );
    assert!(merged.missing_shards().is_empty());
    let partial = Report::merge(parts[..2].to_vec()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(partial.missing_shards(), vec![Shard { index: 3, count: 3 }]);
    // The same shard twice, or shards of another seed, do not merge.
    let dup = Report::merge(vec![parts[0].clone(), parts[0].clone()]);
    assert!(dup.is_err_and(|e| e.to_string().contains("shard 1/3 is also in shard1")));
    let mut other = parts[1].clone();
    other.1.seed = 10;
    let e = Report::merge(vec![parts[0].clone(), other]);
    assert!(e.is_err_and(|e| e.to_string().contains("the seed is 10")));
    // JSON round trip.
    let json = merged.to_json();
    let back: Report = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, merged);
}

#[test]
fn exported_amber_scripts_run_back_with_the_same_verdicts() {
    let tmp = temp_dir("conform-amber");
    let dir = tmp.path().to_path_buf();
    let opts = Options {
        exts: vec![Ext::Intdot],
        seed: 4,
        cases: 128,
        shard: Shard::ALL,
        jobs: 1,
        only: Some("OpSDotAccSat/s8x4/s8x4/".to_string()),
        amber: Some(dir.clone()),
        profile: None,
    };
    let report = sweep(&opts, &Target::Engine, &|_, _, _| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.forms.len(), 8);
    assert!(report.forms.iter().all(|f| f.verdict == Verdict::Pass));
    let target = AmberTarget::Engine(RunConfig::default());
    for f in &report.forms {
        let stem = f.id.replace('/', "_");
        let script = dir.join(format!("{stem}.c0.amber"));
        let o = run_script(&script, &target);
        assert_eq!(
            o.status,
            Status::Pass,
            "{}: {:?}",
            script.display(),
            o.failures
        );
        // The masked (undefined) elements have no EXPECT; the others all do.
        let text = std::fs::read_to_string(&script).unwrap_or_default();
        let expect_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("EXPECT")).collect();
        assert_eq!(o.expects, expect_lines.len());
        let values: usize = expect_lines
            .iter()
            .map(|l| l.split_whitespace().count() - 5)
            .sum();
        assert_eq!(values as u64, f.compared, "{}", f.id);
    }
    // A wrong expected value in a script fails there.
    let script = dir.join("intdot_OpSDotAccSat_s8x4_s8x4_s32.c0.amber");
    let text = std::fs::read_to_string(&script).unwrap_or_default();
    let at = text
        .find("EXPECT out IDX 0 EQ ")
        .map(|i| i + "EXPECT out IDX 0 EQ ".len());
    let Some(at) = at else {
        panic!("no EXPECT at 0 in {text}")
    };
    let end = at + text[at..].find([' ', '\n']).unwrap_or(0);
    let v: i64 = text[at..end].parse().unwrap_or(0);
    let bad = format!("{}{}{}", &text[..at], v ^ 1, &text[end..]);
    std::fs::write(&script, bad).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run_script(&script, &target).status, Status::Fail);
}

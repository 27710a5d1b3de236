//! `spvx_run::conform` on SPV_INTEL_arbitrary_precision_fixed_point: the engine's results (the
//! interpreter that gives the expected values, and the default engine) on every form's
//! generated cases against `spvx_num::fixed::evaluate` called directly, with the result layouts
//! (vector, packed scalar) decoded here; sqrt and floor-quantized reciprocals against exact
//! integer arithmetic (num-bigint); the mask is exactly the spec's undefined inputs; and the
//! inputs reach the edges the issue asks for (format extremes, saturation, ties, domain edges).

use num_bigint::BigUint;
use spvx_num::fixed::{FixedFunction, FixedOp, FixedValue, Overflow, Quantization, evaluate};
use spvx_run::conform::fixed::{FixedForm, Layout, SHAPES, edge_values};
use spvx_run::conform::form::Kind;
use spvx_run::conform::run::{compile, run_engine};
use spvx_run::conform::sweep::forms;
use spvx_run::conform::{Ext, Form, inputs};

fn fixed(f: &Form) -> FixedForm {
    match &f.kind {
        Kind::Fixed(d) => *d,
        other => panic!("not a fixed form: {other:?}"),
    }
}

fn le(bytes: &[u8], i: usize, size: usize) -> u64 {
    let mut w = [0u8; 8];
    w[..size].copy_from_slice(&bytes[i * size..(i + 1) * size]);
    u64::from_le_bytes(w)
}

fn low64(b: &BigUint) -> u64 {
    b.iter_u64_digits().next().unwrap_or(0)
}

/// The output elements spvx-num gives for one input, laid out as the form's result: one value;
/// the vector's sine then cosine; or the packed 2·rW-bit scalar, sine in the high half.
fn reference(f: &FixedForm, x: u64) -> Vec<u64> {
    let o = evaluate(&f.op, &BigUint::from(x)).unwrap_or_else(|e| panic!("{f:?} x={x:#x}: {e}"));
    match (&o.value, f.layout) {
        (FixedValue::Single(v), Layout::Single) => vec![low64(v)],
        (FixedValue::Pair { sin, cos }, Layout::Vector) => vec![low64(sin), low64(cos)],
        (FixedValue::Pair { sin, cos }, Layout::Packed) => {
            vec![(low64(sin) << f.op.result_width) | low64(cos)]
        }
        (v, l) => panic!("{f:?}: value {v:?} with layout {l:?}"),
    }
}

/// Whether the input is negative in a signed format.
fn negative(f: &FixedForm, x: u64) -> bool {
    f.op.signed && (x >> (f.op.input_width - 1)) & 1 == 1
}

#[test]
fn every_form_on_the_engine_agrees_with_spvx_num_and_masks_exactly_the_undefined_inputs() {
    let all = forms(&[Ext::Fixed], None);
    // 5 shapes × (9 single functions + 2 pairs × layouts) × 2 S × 8 Q × 4 O; the pairs have the
    // packed layout where 2·rW ≤ 64 (four of the five shapes).
    assert_eq!(all.len(), (5 * 9 + 4 * 4 + 2) * 64);
    let mut ids: Vec<&str> = all.iter().map(|f| f.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "form ids are unique");
    let count = 64u32;
    let mut masked_total = 0;
    for form in &all {
        let f = fixed(form);
        let c = compile(form).unwrap_or_else(|e| panic!("{e}"));
        let ins = inputs::inputs(form, 5, 0, count);
        let in_size = form.inputs[0].elem.size();
        let out_size = form.output.elem.size();
        let per = form.output.per_invocation;
        for reference_run in [true, false] {
            let run =
                run_engine(&c, form, &ins, count, reference_run).unwrap_or_else(|e| panic!("{e}"));
            for i in 0..count as usize {
                let x = le(&ins[0], i, in_size);
                let undefined = matches!(f.op.function, FixedFunction::Sqrt | FixedFunction::Rsqrt)
                    && negative(&f, x);
                if reference_run {
                    assert_eq!(
                        run.masked.contains(&(i as u32)),
                        undefined,
                        "{} case {i} x={x:#x}: masked iff sqrt/rsqrt of a negative value",
                        form.id
                    );
                    masked_total += usize::from(undefined);
                }
                let got: Vec<u64> = (0..per)
                    .map(|k| le(&run.out, i * per + k, out_size))
                    .collect();
                assert_eq!(got, reference(&f, x), "{} case {i} x={x:#x}", form.id);
            }
        }
    }
    assert!(masked_total > 0);
}

/// sqrt and recip under TRN (floor), every O, on the generated inputs: the result from exact
/// integer arithmetic. x = raw·2^−F, result raw t = ⌊√x·2^Fr⌋ = ⌊√(raw·2^(2Fr−F))⌋ and
/// ⌊2^(F+Fr)/raw⌋, then O: WRAP keeps rW bits, SAT/SAT_SYM clamp to MAX, SAT_ZERO gives 0.
#[test]
fn sqrt_and_recip_agree_with_exact_integer_arithmetic() {
    let mut checked = 0;
    for form in forms(&[Ext::Fixed], Some("/q0o")) {
        let f = fixed(&form);
        let o = &f.op;
        if o.signed || !matches!(o.function, FixedFunction::Sqrt | FixedFunction::Recip) {
            continue;
        }
        let c = compile(&form).unwrap_or_else(|e| panic!("{e}"));
        let count = 256;
        let ins = inputs::inputs(&form, 9, 0, count);
        let run = run_engine(&c, &form, &ins, count, true).unwrap_or_else(|e| panic!("{e}"));
        let fin = i64::from(o.input_width) - i64::from(o.input_int_bits);
        let fr = i64::from(o.result_width) - i64::from(o.result_int_bits);
        let max = (BigUint::from(1u8) << o.result_width) - 1u8;
        for i in 0..count as usize {
            let raw = le(&ins[0], i, form.inputs[0].elem.size());
            let t = if o.function == FixedFunction::Sqrt {
                let e = 2 * fr - fin;
                let y = if e >= 0 {
                    BigUint::from(raw) << e
                } else {
                    BigUint::from(raw) >> (-e)
                };
                y.sqrt()
            } else {
                if raw == 0 {
                    continue; // 1/0: documented, not arithmetic
                }
                (BigUint::from(1u8) << (fin + fr)) / BigUint::from(raw)
            };
            let want = if t <= max {
                t
            } else {
                match o.overflow {
                    Overflow::Wrap => t & &max,
                    Overflow::SatZero => BigUint::from(0u8),
                    _ => max.clone(),
                }
            };
            let got = le(&run.out, i, form.output.elem.size());
            assert_eq!(got, low64(&want), "{} case {i} raw={raw:#x}", form.id);
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn the_inputs_reach_the_edges() {
    let mut saturating_shapes = 0;
    for shape in SHAPES {
        for signed in [false, true] {
            let op = |function, q, o| FixedOp {
                function,
                signed,
                input_width: shape.w,
                input_int_bits: shape.i,
                result_width: shape.rw,
                result_int_bits: shape.ri,
                quantization: q,
                overflow: o,
            };
            let single = |function, q, o| FixedForm {
                op: op(function, q, o),
                layout: Layout::Single,
            };
            // The format's extremes, 0 and ±1 lsb are in every function's edge list.
            let (lo, hi) = if signed {
                (-(1i128 << (shape.w - 1)), (1i128 << (shape.w - 1)) - 1)
            } else {
                (0, (1i128 << shape.w) - 1)
            };
            for function in FixedFunction::ALL {
                let e = edge_values(&single(function, Quantization::Trn, Overflow::Wrap));
                for v in [lo, lo + 1, 0, 1, hi - 1, hi] {
                    assert!(e.contains(&v), "{function} {shape:?} {signed}: {v} missing");
                }
                if signed {
                    assert!(e.contains(&-1));
                }
            }
            // exp: an input whose result saturates next to one whose result does not (the
            // point where SAT gives MAX and WRAP wraps), and under WRAP both sides there.
            let exp = single(FixedFunction::Exp, Quantization::Rnd, Overflow::Sat);
            let e = edge_values(&exp);
            let max = if signed {
                (1u64 << (shape.rw - 1)) - 1
            } else if shape.rw == 64 {
                u64::MAX
            } else {
                (1u64 << shape.rw) - 1
            };
            let res = |x: i128| {
                let bits = (x as u64)
                    & if shape.w == 64 {
                        u64::MAX
                    } else {
                        (1u64 << shape.w) - 1
                    };
                reference(&exp, bits)[0]
            };
            let saturating = e
                .iter()
                .any(|&x| x > lo && res(x) == max && res(x - 1) != max);
            // (Where exp of the largest input fits the result, there is no such point.)
            if res(hi) == max {
                assert!(
                    saturating,
                    "exp {shape:?} {signed}: no saturation edge in {e:?}"
                );
                saturating_shapes += 1;
            }
        }
    }
    assert!(saturating_shapes >= 6, "{saturating_shapes}");
    // sqrt rounding ties at the 13-bit shape (F = 10, Fr = 4): √(raw·2^−10)·2^4 = √raw / 2,
    // a tie when raw is an odd square. RND (ties up) and RND_ZERO (ties toward 0) part there.
    let f = FixedForm {
        op: FixedOp {
            function: FixedFunction::Sqrt,
            signed: false,
            input_width: 13,
            input_int_bits: 3,
            result_width: 13,
            result_int_bits: 9,
            quantization: Quantization::Rnd,
            overflow: Overflow::Wrap,
        },
        layout: Layout::Single,
    };
    let ties: Vec<i128> = edge_values(&f)
        .into_iter()
        .filter(|&x| {
            let r = (x as f64).sqrt().round() as i128;
            x % 2 == 1 && r * r == x
        })
        .collect();
    assert!(ties.len() >= 3, "{ties:?}");
    let zero = FixedForm {
        op: FixedOp {
            quantization: Quantization::RndZero,
            ..f.op
        },
        ..f
    };
    for x in ties {
        let (up, down) = (reference(&f, x as u64)[0], reference(&zero, x as u64)[0]);
        assert_eq!(up, down + 1, "tie at raw {x}");
    }
    // Domain edges: recip of 0 and log of 0 are inputs of every shape.
    for function in [
        FixedFunction::Recip,
        FixedFunction::Log,
        FixedFunction::Rsqrt,
    ] {
        let e = edge_values(&FixedForm {
            op: FixedOp { function, ..f.op },
            layout: Layout::Single,
        });
        assert!(e.contains(&0));
    }
}

/// On a device, a different value at a special input the extension gives no value for is
/// ALLOWED DIFFERENCE naming the input; anywhere else it is FAIL with the first failing input.
#[test]
fn a_device_difference_is_allowed_only_at_the_special_inputs_without_a_value() {
    use spvx_run::conform::verdict::{Verdict, allowance, judge};
    let all = forms(&[Ext::Fixed], Some("OpFixedRecipINTEL/u8i4/u8i7/q0o1"));
    let form = &all[0];
    let c = compile(form).unwrap_or_else(|e| panic!("{e}"));
    let count = 64;
    let ins = inputs::inputs(form, 1, 0, count);
    let expected = run_engine(&c, form, &ins, count, true).unwrap_or_else(|e| panic!("{e}"));
    let zero_at = ins[0]
        .chunks_exact(4)
        .position(|w| w == [0, 0, 0, 0])
        .unwrap_or_else(|| panic!("recip of 0 is among the inputs"));
    let mut got = expected.out.clone();
    got[zero_at * 4] ^= 1;
    let allow = allowance(form, &ins);
    let (v, _) = judge(form, 0, &ins, &expected, &got, allow.as_deref());
    match &v {
        Verdict::Allowed { reason } => assert!(reason.contains("reciprocal of zero"), "{reason}"),
        other => panic!("{other:?}"),
    }
    let other = (zero_at + 1) % count as usize;
    got[other * 4] ^= 1;
    let (v, _) = judge(form, 0, &ins, &expected, &got, allow.as_deref());
    match &v {
        Verdict::Fail(f) => assert_eq!(f.case, other as u64),
        other => panic!("{other:?}"),
    }
}

//! Integers wider than 64 bits (SPV_INTEL_arbitrary_precision_integers) through the engine:
//! hand-written SPIR-V kernels read operands from a buffer and write results, checked against
//! exact big-integer arithmetic (num-bigint) modulo 2^N, with the signed readings as two's
//! complement. Widths 65, 100, 128, 129, 192, 256 (one past a limb, inside one, exact limbs);
//! boundary values (0, 1, −1, MIN, MAX, 2^64 ± 1, …) exhaustively in pairs, and random values
//! through proptest. Undefined cases (division by zero, MIN / −1, shifts past the width) are
//! checked against the documented narrow-integer results and reports.

mod support;
mod wide_support;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use spvx_exec::{CompiledModule, ExecError, Resources, RunConfig, UbKind};
use wide_support::*;

const WIDTHS: [u32; 6] = [65, 100, 128, 129, 192, 256];

/// Binary operations: name and exact result (`None`: undefined, result as documented).
#[derive(Clone, Copy, Debug)]
enum Bin {
    IAdd,
    ISub,
    IMul,
    UDiv,
    SDiv,
    UMod,
    SRem,
    SMod,
    And,
    Or,
    Xor,
}

const BINS: [Bin; 11] = [
    Bin::IAdd,
    Bin::ISub,
    Bin::IMul,
    Bin::UDiv,
    Bin::SDiv,
    Bin::UMod,
    Bin::SRem,
    Bin::SMod,
    Bin::And,
    Bin::Or,
    Bin::Xor,
];

impl Bin {
    fn opcode(self) -> &'static str {
        match self {
            Bin::IAdd => "OpIAdd",
            Bin::ISub => "OpISub",
            Bin::IMul => "OpIMul",
            Bin::UDiv => "OpUDiv",
            Bin::SDiv => "OpSDiv",
            Bin::UMod => "OpUMod",
            Bin::SRem => "OpSRem",
            Bin::SMod => "OpSMod",
            Bin::And => "OpBitwiseAnd",
            Bin::Or => "OpBitwiseOr",
            Bin::Xor => "OpBitwiseXor",
        }
    }

    /// The exact result and whether the case is undefined (reported).
    fn expect(self, a: &BigUint, b: &BigUint, bits: u32) -> (BigUint, bool) {
        let (ua, ub) = (BigInt::from(a.clone()), BigInt::from(b.clone()));
        let (sa, sb) = (signed(a, bits), signed(b, bits));
        let zero = b.is_zero();
        let min = -(BigInt::one() << (bits - 1));
        let v = match self {
            Bin::IAdd => &ua + &ub,
            Bin::ISub => &ua - &ub,
            Bin::IMul => &ua * &ub,
            Bin::And => BigInt::from(a & b),
            Bin::Or => BigInt::from(a | b),
            Bin::Xor => BigInt::from(a ^ b),
            _ if zero => return (BigUint::zero(), true),
            Bin::UDiv => &ua / &ub,
            Bin::UMod => &ua % &ub,
            // BigInt's `/` truncates toward zero and `%` takes the dividend's sign (C99).
            Bin::SDiv => &sa / &sb,
            Bin::SRem => &sa % &sb,
            Bin::SMod => {
                let r = &sa % &sb;
                if !r.is_zero() && r.is_negative() != sb.is_negative() {
                    r + &sb
                } else {
                    r
                }
            }
        };
        let undefined = matches!(self, Bin::SDiv) && sa == min && sb == -BigInt::one();
        (wrap(&v, bits), undefined)
    }
}

fn bin_module(op: Bin, bits: u32) -> CompiledModule {
    let t = format!("t{bits}");
    let e = elem_bytes(bits);
    compile(&module(
        &t,
        e,
        &t,
        e,
        &int_types(&[bits]),
        &format!("%r = {} %{t} %a %b", op.opcode()),
    ))
}

/// Checks `op` on `pairs` at width `bits`: values, and one DivisionByZero event per undefined
/// pair.
fn check_bin(m: &CompiledModule, op: Bin, bits: u32, pairs: &[(BigUint, BigUint)]) {
    let e = elem_bytes(bits);
    let (got, report) = run_pairs(m, pairs, e, e);
    let mut undefined = 0;
    for ((a, b), g) in pairs.iter().zip(&got) {
        let (want, ub) = op.expect(a, b, bits);
        assert_eq!(g, &want, "{op:?} i{bits}: {a:#x}, {b:#x}");
        undefined += ub as u64;
    }
    let reported = report
        .events
        .iter()
        .filter(|e| e.kind == UbKind::DivisionByZero)
        .count() as u64;
    assert_eq!(
        reported, undefined,
        "{op:?} i{bits}: DivisionByZero reports"
    );
}

#[test]
fn binary_ops_on_boundary_pairs() {
    for bits in WIDTHS {
        let b = boundaries(bits);
        let pairs: Vec<_> = b
            .iter()
            .flat_map(|x| b.iter().map(move |y| (x.clone(), y.clone())))
            .collect();
        for op in BINS {
            check_bin(&bin_module(op, bits), op, bits, &pairs);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn binary_ops_on_random_values(
        w in 0..WIDTHS.len(),
        o in 0..BINS.len(),
        seeds in prop::collection::vec((any::<[u64; 5]>(), any::<u8>(), any::<[u64; 5]>(), any::<u8>()), 16),
    ) {
        let (bits, op) = (WIDTHS[w], BINS[o]);
        let pairs: Vec<_> = seeds
            .iter()
            .map(|(la, sa, lb, sb)| (shaped(la, *sa, bits), shaped(lb, *sb, bits)))
            .collect();
        check_bin(&bin_module(op, bits), op, bits, &pairs);
    }

    #[test]
    fn shifts_on_random_values(
        w in 0..WIDTHS.len(),
        values in prop::collection::vec(value_strategy(256), 12),
        amounts in prop::collection::vec(0u32..300, 12),
    ) {
        let bits = WIDTHS[w];
        let m = BigUint::one() << bits;
        let pairs: Vec<_> = values.iter().zip(&amounts).map(|(v, s)| (v % &m, BigUint::from(*s))).collect();
        check_shifts(bits, bits, &pairs);
    }
}

/// The three shifts of `bits`-bit values by amounts of `shift_bits` bits: exact results, and
/// one ShiftOutOfRange report per amount ≥ bits.
fn check_shifts(bits: u32, shift_bits: u32, pairs: &[(BigUint, BigUint)]) {
    let (t, ts) = (format!("t{bits}"), format!("t{shift_bits}"));
    for op in [
        "OpShiftLeftLogical",
        "OpShiftRightLogical",
        "OpShiftRightArithmetic",
    ] {
        // Input elements are as wide as the wider of the two types; the amount is converted.
        let wide = bits.max(shift_bits);
        let tw = format!("t{wide}");
        let body = format!(
            "%x = OpUConvert %{t} %a\n%s = OpUConvert %{ts} %b\n%y = {op} %{t} %x %s\n%r = OpUConvert %{tw} %y"
        );
        let body = body.replace(
            &format!("OpUConvert %{tw} %a"),
            &format!("OpCopyObject %{tw} %a"),
        );
        let body = fix_same_width_converts(&body, bits, shift_bits, wide);
        let m = compile(&module(
            &tw,
            elem_bytes(wide),
            &tw,
            elem_bytes(wide),
            &int_types(&[bits, shift_bits, wide]),
            &body,
        ));
        let (got, report) = run_pairs(&m, pairs, elem_bytes(wide), elem_bytes(wide));
        let mut far = 0;
        for ((a, s), g) in pairs.iter().zip(&got) {
            let a = a % (BigUint::one() << bits);
            let s_big = s.clone();
            let want = if s_big >= BigUint::from(bits) {
                far += 1;
                match op {
                    "OpShiftRightArithmetic" if signed(&a, bits).is_negative() => {
                        (BigUint::one() << bits) - 1u8
                    }
                    _ => BigUint::zero(),
                }
            } else {
                let s = u32::try_from(&s_big).expect("small");
                match op {
                    "OpShiftLeftLogical" => wrap(&(BigInt::from(a.clone()) << s), bits),
                    "OpShiftRightLogical" => &a >> s,
                    // Floor division by 2^s (BigInt's >> rounds toward −∞).
                    _ => wrap(&(signed(&a, bits) >> s), bits),
                }
            };
            assert_eq!(g, &want, "{op} i{bits} by i{shift_bits}: {a:#x} {s_big}");
        }
        let reported = report
            .events
            .iter()
            .filter(|e| matches!(e.kind, UbKind::ShiftOutOfRange { bits: b, .. } if b == bits))
            .count();
        assert_eq!(reported, far, "{op} i{bits}: ShiftOutOfRange reports");
    }
}

/// OpUConvert between equal widths is invalid SPIR-V: use OpCopyObject there.
fn fix_same_width_converts(body: &str, bits: u32, shift_bits: u32, wide: u32) -> String {
    let mut out = body.to_string();
    if bits == wide {
        out = out.replace(
            &format!("%x = OpUConvert %t{bits} %a"),
            &format!("%x = OpCopyObject %t{bits} %a"),
        );
        out = out.replace(
            &format!("%r = OpUConvert %t{wide} %y"),
            &format!("%r = OpCopyObject %t{wide} %y"),
        );
    }
    if shift_bits == wide {
        out = out.replace(
            &format!("%s = OpUConvert %t{shift_bits} %b"),
            &format!("%s = OpCopyObject %t{shift_bits} %b"),
        );
    }
    out
}

#[test]
fn shifts_at_boundaries_and_with_other_amount_widths() {
    for bits in WIDTHS {
        let amounts = [0u32, 1, 63, 64, 65, bits - 1, bits, bits + 1, 1000];
        let pairs: Vec<_> = boundaries(bits)
            .into_iter()
            .flat_map(|v| amounts.iter().map(move |s| (v.clone(), BigUint::from(*s))))
            .collect();
        check_shifts(bits, bits, &pairs);
        check_shifts(bits, 32, &pairs);
    }
    // A narrow base shifted by a wide amount (2^64 + 1: far beyond the width).
    let pairs = vec![
        (BigUint::from(5u8), BigUint::from(3u8)),
        (BigUint::from(5u8), (BigUint::one() << 64u32) + 1u8),
        (BigUint::from(0x80u8), BigUint::from(7u8)),
    ];
    check_shifts(8, 128, &pairs);
}

#[test]
fn unary_ops_and_comparisons() {
    for bits in WIDTHS {
        let t = format!("t{bits}");
        let e = elem_bytes(bits);
        let b = boundaries(bits);
        let pairs: Vec<_> = b
            .iter()
            .flat_map(|x| b.iter().map(move |y| (x.clone(), y.clone())))
            .collect();
        let decls = int_types(&[bits]);
        let neg = compile(&module(
            &t,
            e,
            &t,
            e,
            &decls,
            &format!("%r = OpSNegate %{t} %a"),
        ));
        let not = compile(&module(
            &t,
            e,
            &t,
            e,
            &decls,
            &format!("%r = OpNot %{t} %a"),
        ));
        let (gn, _) = run_pairs(&neg, &pairs, e, e);
        let (gt, _) = run_pairs(&not, &pairs, e, e);
        for ((a, _), (n, t)) in pairs.iter().zip(gn.iter().zip(&gt)) {
            assert_eq!(n, &wrap(&-BigInt::from(a.clone()), bits), "SNegate {a:#x}");
            assert_eq!(t, &(((BigUint::one() << bits) - 1u8) ^ a), "Not {a:#x}");
        }
        type Rel = fn(&BigInt, &BigInt) -> bool;
        let rels: [(&str, bool, Rel); 10] = [
            ("OpIEqual", false, |x, y| x == y),
            ("OpINotEqual", false, |x, y| x != y),
            ("OpUGreaterThan", false, |x, y| x > y),
            ("OpUGreaterThanEqual", false, |x, y| x >= y),
            ("OpULessThan", false, |x, y| x < y),
            ("OpULessThanEqual", false, |x, y| x <= y),
            ("OpSGreaterThan", true, |x, y| x > y),
            ("OpSGreaterThanEqual", true, |x, y| x >= y),
            ("OpSLessThan", true, |x, y| x < y),
            ("OpSLessThanEqual", true, |x, y| x <= y),
        ];
        for (op, is_signed, rel) in rels {
            let body = format!("%c = {op} %bool %a %b\n%r = OpSelect %t32 %c %c1 %c0");
            let m = compile(&module(&t, e, "t32", 4, &decls, &body));
            let (got, _) = run_pairs(&m, &pairs, e, 4);
            for ((a, b), g) in pairs.iter().zip(&got) {
                let (x, y) = if is_signed {
                    (signed(a, bits), signed(b, bits))
                } else {
                    (BigInt::from(a.clone()), BigInt::from(b.clone()))
                };
                assert_eq!(
                    g,
                    &BigUint::from(rel(&x, &y) as u8),
                    "{op} i{bits}: {a:#x} {b:#x}"
                );
            }
        }
    }
}

#[test]
fn conversions_between_widths() {
    let cases = [
        (128, 64),
        (64, 128),
        (32, 100),
        (100, 32),
        (100, 200),
        (200, 100),
        (129, 65),
        (65, 129),
        (256, 128),
        (8, 256),
    ];
    for (from, to) in cases {
        let (tf, tt) = (format!("t{from}"), format!("t{to}"));
        let decls = int_types(&[from, to]);
        let mut vals = boundaries(from);
        vals.push(BigUint::from(0x1234_5678u32) % (BigUint::one() << from));
        let pairs: Vec<_> = vals.iter().map(|v| (v.clone(), BigUint::zero())).collect();
        for (op, is_signed) in [("OpUConvert", false), ("OpSConvert", true)] {
            let m = compile(&module(
                &tf,
                elem_bytes(from),
                &tt,
                elem_bytes(to),
                &decls,
                &format!("%r = {op} %{tt} %a"),
            ));
            let (got, _) = run_pairs(&m, &pairs, elem_bytes(from), elem_bytes(to));
            for ((a, _), g) in pairs.iter().zip(&got) {
                let v = if is_signed {
                    signed(a, from)
                } else {
                    BigInt::from(a.clone())
                };
                assert_eq!(g, &wrap(&v, to), "{op} i{from} -> i{to}: {a:#x}");
            }
        }
    }
}

#[test]
fn constants_wide_literals_and_null() {
    // 0xa0000000b0000000c is the docs' example literal; −5 signed; ConstantNull.
    for bits in [100, 128, 129, 256] {
        let t = format!("t{bits}");
        let e = elem_bytes(bits);
        let decls = format!(
            "{}%s{bits} = OpTypeInt {bits} 1\n%k = OpConstant %{t} 0xa0000000b0000000c\n%m5 = OpConstant %s{bits} -5\n%z = OpConstantNull %{t}\n",
            int_types(&[bits])
        );
        let body = format!(
            "%m5u = OpBitcast %{t} %m5\n%s1 = OpIAdd %{t} %a %k\n%s2 = OpIMul %{t} %s1 %m5u\n%r = OpBitwiseOr %{t} %s2 %z"
        );
        let m = compile(&module(&t, e, &t, e, &decls, &body));
        let pairs: Vec<_> = boundaries(bits)
            .into_iter()
            .map(|v| (v, BigUint::zero()))
            .collect();
        let (got, _) = run_pairs(&m, &pairs, e, e);
        let k = BigInt::parse_bytes(b"a0000000b0000000c", 16).expect("hex");
        for ((a, _), g) in pairs.iter().zip(&got) {
            let want = wrap(&((BigInt::from(a.clone()) + &k) * BigInt::from(-5)), bits);
            assert_eq!(g, &want, "i{bits}: ({a:#x} + k) * -5");
        }
    }
}

#[test]
fn spec_constant_override_gives_low_bits() {
    let t = "t128";
    let decls = format!("{}%sc = OpSpecConstant %t128 7\n", int_types(&[128]));
    let text = module(t, 16, t, 16, &decls, "%r = OpIAdd %t128 %a %sc").replace(
        "OpDecorate %gid BuiltIn",
        "OpDecorate %sc SpecId 3\nOpDecorate %gid BuiltIn",
    );
    let pairs = vec![((BigUint::one() << 100u32), BigUint::zero())];
    let m = compile(&text);
    assert_eq!(
        run_pairs(&m, &pairs, 16, 16).0[0],
        (BigUint::one() << 100u32) + 7u8
    );
    let mut opts = spvx_exec::CompileOptions::default();
    opts.spec_constants.insert(3, u64::MAX);
    let m = support::compile_with(&text, &opts).expect("compiles");
    assert_eq!(
        run_pairs(&m, &pairs, 16, 16).0[0],
        (BigUint::one() << 100u32) + u64::MAX
    );
}

/// Vectors of wide integers: component-wise arithmetic with a scalar broadcast-free layout,
/// shuffles, dynamic extract/insert, select with a vector condition, composite extract/insert,
/// and loads/stores of whole vectors.
#[test]
fn vectors_of_wide_integers() {
    let bits = 100;
    let decls = format!(
        "{}%v3 = OpTypeVector %t100 3\n%v3b = OpTypeVector %bool 3\n",
        int_types(&[bits])
    );
    // in: v3 elements (stride 48); a = in[2i], b = in[2i+1].
    let body = "%sum = OpIAdd %v3 %a %b
%lt = OpULessThan %v3b %a %b
%mn = OpSelect %v3 %lt %a %b
%sh = OpVectorShuffle %v3 %sum %mn 5 0 4
%e0 = OpCompositeExtract %t100 %b 0
%ed = OpVectorExtractDynamic %t100 %a %c2
%ins = OpVectorInsertDynamic %v3 %sh %ed %c1
%q = OpUDiv %t100 %e0 %ed
%r = OpCompositeInsert %v3 %q %ins 2";
    let text = module("v3", 48, "v3", 48, &decls, body);
    let m = compile(&text);
    let mk = |s: u64| -> [BigUint; 3] {
        let big = |x: u64| (BigUint::from(x) << 70u32) + x;
        [big(s), big(s * 3 + 1), big(s * 7 + 5)]
    };
    let mut input = Vec::new();
    let cases = [(mk(1), mk(2)), (mk(9), mk(4)), (mk(0), mk(0))];
    for (a, b) in &cases {
        for v in a.iter().chain(b) {
            put(&mut input, v, 16);
        }
    }
    let mut res = Resources::new();
    res.set_buffer(0, 0, input);
    res.set_buffer(0, 1, vec![0; 48 * cases.len()]);
    let report = m
        .run(&mut res, [cases.len() as u32, 1, 1], &RunConfig::default())
        .expect("runs");
    let out = res.buffer(0, 1).expect("output");
    let m100 = BigUint::one() << 100u32;
    for (i, (a, b)) in cases.iter().enumerate() {
        let sum: Vec<BigUint> = (0..3).map(|k| (&a[k] + &b[k]) % &m100).collect();
        let mn: Vec<BigUint> = (0..3).map(|k| a[k].clone().min(b[k].clone())).collect();
        // shuffle 5 0 4 of (sum ++ mn): mn[2], sum[0], mn[1]; then [1] = a[2]; [2] = b[0] / a[2].
        let q = if a[2].is_zero() {
            BigUint::zero()
        } else {
            &b[0] / &a[2]
        };
        let want = [mn[2].clone(), a[2].clone(), q];
        for (k, w) in want.iter().enumerate() {
            let at = i * 48 + k * 16;
            let got = BigUint::from_bytes_le(&out[at..at + 16]);
            assert_eq!(&got, w, "case {i} component {k}");
        }
        let _ = &sum;
    }
    // No divisor is zero (a[2] never is).
    assert_eq!(report.total_events, 0);
}

#[test]
fn bitcasts_regroup_limbs() {
    // i128 <-> v2 ulong, v4 uint; i96 <-> v3 uint.
    let decls = format!(
        "{}%v2t64 = OpTypeVector %t64 2\n%v4t32 = OpTypeVector %t32 4\n",
        int_types(&[128, 64, 96])
    );
    let body = "%h = OpBitcast %v4t32 %a
%w0 = OpCompositeExtract %t32 %h 0
%w3 = OpCompositeExtract %t32 %h 3
%sw = OpCompositeConstruct %v4t32 %w3 %w0 %w0 %w3
%back = OpBitcast %t128 %sw
%l = OpBitcast %v2t64 %back
%l1 = OpCompositeExtract %t64 %l 1
%t = OpCompositeConstruct %v3t32 %w3 %w3 %w0
%n = OpBitcast %t96 %t
%nw = OpUConvert %t128 %n
%lw = OpUConvert %t128 %l1
%sh = OpShiftLeftLogical %t128 %lw %c2
%x = OpBitwiseXor %t128 %nw %sh
%r = OpIAdd %t128 %x %back";
    let m = compile(&module("t128", 16, "t128", 16, &decls, body));
    let vals = boundaries(128);
    let pairs: Vec<_> = vals.iter().map(|v| (v.clone(), BigUint::zero())).collect();
    let (got, _) = run_pairs(&m, &pairs, 16, 16);
    let m128 = BigUint::one() << 128u32;
    for ((a, _), g) in pairs.iter().zip(&got) {
        let word = |k: u32| (a >> (32 * k)) & BigUint::from(u32::MAX);
        let (w0, w3) = (word(0), word(3));
        let back = &w3 | (&w0 << 32u32) | (&w0 << 64u32) | (&w3 << 96u32);
        let l1 = &back >> 64u32;
        let n = &w3 | (&w3 << 32u32) | (&w0 << 64u32);
        let want = ((n ^ ((l1 << 2u32) % &m128)) + &back) % &m128;
        assert_eq!(g, &want, "{a:#x}");
    }
}

#[test]
fn function_variables_and_phis_carry_wide_values() {
    // A loop: acc = a; repeat b times (b < 8): acc = acc * 3 + a, through an OpPhi, and an
    // array of i192 in a Function variable indexed dynamically.
    let decls = format!(
        "{}%k3 = OpConstant %t192 3\n%c8 = OpConstant %t32 8\n%arr4 = OpTypeArray %t192 %c8\n%ptr_f_arr = OpTypePointer Function %arr4\n%ptr_f_e = OpTypePointer Function %t192\n",
        int_types(&[192])
    );
    let text = module(
        "t192",
        24,
        "t192",
        24,
        &decls,
        "%r = OpCopyObject %t192 %fin",
    )
    .replace(
        "%a = OpLoad %t192 %pa\n%b = OpLoad %t192 %pb\n",
        "%a = OpLoad %t192 %pa
%b = OpLoad %t192 %pb
%n = OpUConvert %t32 %b
OpBranch %head
%head = OpLabel
%acc = OpPhi %t192 %a %entry %next %body
%j = OpPhi %t32 %c0 %entry %j1 %body
%more = OpULessThan %bool %j %n
OpLoopMerge %exit %body None
OpBranchConditional %more %body %exit
%body = OpLabel
%m = OpIMul %t192 %acc %k3
%next = OpIAdd %t192 %m %a
%slot = OpAccessChain %ptr_f_e %var %j
OpStore %slot %next
%j1 = OpIAdd %t32 %j %c1
OpBranch %head
%exit = OpLabel
%last = OpISub %t32 %j %c1
%pl = OpAccessChain %ptr_f_e %var %last
%stored = OpLoad %t192 %pl
%same = OpIEqual %bool %stored %acc
%fin = OpSelect %t192 %same %acc %k3
",
    )
    .replace(
        "%entry = OpLabel\n",
        "%entry = OpLabel\n%var = OpVariable %ptr_f_arr Function\n",
    );
    let m = compile(&text);
    let m192 = BigUint::one() << 192u32;
    let pairs: Vec<_> = [
        (m192.clone() - 1u8, 5u8),
        (BigUint::one() << 150u32, 3u8),
        (BigUint::from(7u8), 1u8),
    ]
    .into_iter()
    .map(|(a, n)| (a, BigUint::from(n)))
    .collect();
    let (got, _) = run_pairs(&m, &pairs, 24, 24);
    for ((a, n), g) in pairs.iter().zip(&got) {
        let mut acc = a.clone();
        for _ in 0..u32::try_from(n).expect("small") {
            acc = (acc * 3u8 + a) % &m192;
        }
        assert_eq!(g, &acc, "{a:#x} x{n}");
    }
}

#[test]
fn division_undefined_cases_are_reported() {
    let bits = 129;
    let min = BigUint::one() << 128u32;
    let minus_one = (BigUint::one() << 129u32) - 1u8;
    let pairs = vec![
        (BigUint::from(5u8), BigUint::zero()),
        (min.clone(), minus_one.clone()),
        (min.clone(), BigUint::one()),
    ];
    let (got, report) = run_pairs(&bin_module(Bin::SDiv, bits), &pairs, 24, 24);
    assert_eq!(got, vec![BigUint::zero(), min.clone(), min.clone()]);
    assert_eq!(report.total_events, 2);
    let (got, report) = run_pairs(&bin_module(Bin::SRem, bits), &pairs, 24, 24);
    assert_eq!(got, vec![BigUint::zero(), BigUint::zero(), BigUint::zero()]);
    assert_eq!(report.total_events, 1);
}

#[test]
fn refused_cases_name_the_problem() {
    // Wider than the engine's limit.
    let text = module(
        "t4097",
        520,
        "t4097",
        520,
        &int_types(&[4097]),
        "%r = OpIAdd %t4097 %a %b",
    );
    match support::compile(&text) {
        Err(ExecError::Unsupported { what, .. }) => assert!(what.contains("4097-bit"), "{what}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
    // The widest accepted width computes.
    let bits = 4096;
    let m = bin_module(Bin::IMul, bits);
    let e = elem_bytes(bits);
    let a = (BigUint::one() << 4095u32) + 12345u32;
    let b = (BigUint::one() << 2000u32) + 3u8;
    let (got, _) = run_pairs(&m, &[(a.clone(), b.clone())], e, e);
    assert_eq!(got[0], (a * b) % (BigUint::one() << 4096u32));
    // An instruction without wide support.
    let text = module(
        "t128",
        16,
        "t128",
        16,
        &format!("{}%c3 = OpConstant %t32 3\n", int_types(&[128])),
        "%r = OpGroupNonUniformBroadcastFirst %t128 %c3 %a",
    )
    .replacen(
        "OpCapability Int64\n",
        "OpCapability Int64\nOpCapability GroupNonUniformBallot\n",
        1,
    );
    match support::compile(&text) {
        Err(ExecError::Unsupported { what, .. }) => {
            assert!(what.contains("OpGroupNonUniformBroadcastFirst"), "{what}")
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

//! Integer dot products whose result is wider than 64 bits (SPV_KHR_integer_dot_product over
//! SPV_INTEL_arbitrary_precision_integers, issue 20): OpSDot, OpUDot and OpSUDot with a
//! 128-bit or 96-bit result and OpSDotAccSat with a 128-bit accumulator, on vectors of four
//! 64-bit components. Before, the engine refused them. Expected values are exact integers
//! computed here with num-bigint, independent of spvx-num (docs/semantics/integer-dot.md,
//! "Results wider than 64 bits").

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig, UbKind};
use spvx_spirv::asm::{AsmOptions, assemble};

/// Invocation i reads a[i], b[i] (vectors of four 64-bit integers) and acc[i] (128 bits) and
/// writes out[4i..4i+4] (128-bit elements): SDot (i128), SDotAccSat (i128, acc), UDot (i96,
/// zero-extended to 128 bits), SUDot (i128).
const TEXT: &str = r#"
OpCapability Shader
OpCapability Int64
OpCapability ArbitraryPrecisionIntegersINTEL
OpCapability DotProductInputAll
OpCapability DotProduct
OpExtension "SPV_INTEL_arbitrary_precision_integers"
OpExtension "SPV_KHR_integer_dot_product"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %a %b %acc %out
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr_v ArrayStride 32
OpMemberDecorate %V 0 Offset 0
OpDecorate %V Block
OpDecorate %arr_w ArrayStride 16
OpMemberDecorate %W 0 Offset 0
OpDecorate %W Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
OpDecorate %acc DescriptorSet 0
OpDecorate %acc Binding 2
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%i128 = OpTypeInt 128 0
%i96 = OpTypeInt 96 0
%v3 = OpTypeVector %uint 3
%v4 = OpTypeVector %u64 4
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%c3 = OpConstant %uint 3
%c4 = OpConstant %uint 4
%arr_v = OpTypeRuntimeArray %v4
%V = OpTypeStruct %arr_v
%arr_w = OpTypeRuntimeArray %i128
%W = OpTypeStruct %arr_w
%ptr_V = OpTypePointer StorageBuffer %V
%ptr_W = OpTypePointer StorageBuffer %W
%ptr_v4 = OpTypePointer StorageBuffer %v4
%ptr_w = OpTypePointer StorageBuffer %i128
%ptr_in_v3 = OpTypePointer Input %v3
%ptr_in_uint = OpTypePointer Input %uint
%gid = OpVariable %ptr_in_v3 Input
%a = OpVariable %ptr_V StorageBuffer
%b = OpVariable %ptr_V StorageBuffer
%acc = OpVariable %ptr_W StorageBuffer
%out = OpVariable %ptr_W StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%gp = OpAccessChain %ptr_in_uint %gid %c0
%i = OpLoad %uint %gp
%pa = OpAccessChain %ptr_v4 %a %c0 %i
%pb = OpAccessChain %ptr_v4 %b %c0 %i
%pc = OpAccessChain %ptr_w %acc %c0 %i
%x = OpLoad %v4 %pa
%y = OpLoad %v4 %pb
%z = OpLoad %i128 %pc
%r0 = OpSDot %i128 %x %y
%r1 = OpSDotAccSat %i128 %x %y %z
%r2n = OpUDot %i96 %x %y
%r2 = OpUConvert %i128 %r2n
%r3 = OpSUDot %i128 %x %y
%k = OpIMul %uint %i %c4
%k1 = OpIAdd %uint %k %c1
%k2 = OpIAdd %uint %k %c2
%k3 = OpIAdd %uint %k %c3
%o0 = OpAccessChain %ptr_w %out %c0 %k
OpStore %o0 %r0
%o1 = OpAccessChain %ptr_w %out %c0 %k1
OpStore %o1 %r1
%o2 = OpAccessChain %ptr_w %out %c0 %k2
OpStore %o2 %r2
%o3 = OpAccessChain %ptr_w %out %c0 %k3
OpStore %o3 %r3
OpReturn
OpFunctionEnd
"#;

/// One case: the two vectors and the accumulator.
struct Case {
    a: [i64; 4],
    b: [i64; 4],
    acc: i128,
}

/// The cases: small values, the extremes (products near 2^126, sums beyond 2^127 and 2^128,
/// sums that cancel), a negative accumulator.
fn cases() -> Vec<Case> {
    let (max, min) = (i64::MAX, i64::MIN);
    vec![
        Case {
            a: [1, -2, 3, -4],
            b: [5, 6, -7, 8],
            acc: 1000,
        },
        Case {
            a: [max, max, max, max],
            b: [max, max, max, max],
            acc: 0,
        },
        Case {
            a: [min, min, min, min],
            b: [min, min, min, min],
            acc: -1,
        },
        Case {
            a: [min, max, -1, 1],
            b: [max, max, min, min],
            acc: i128::MIN + 5,
        },
        Case {
            a: [max, min, 12345, -6789],
            b: [-1, -1, 98765, 4321],
            acc: i128::MAX - 7,
        },
    ]
}

fn words_of(v: &BigUint, n: usize) -> Vec<u32> {
    let mut d = v.to_u32_digits();
    d.resize(n, 0);
    d
}

/// `v` modulo 2^bits, as a bit pattern.
fn wrap(v: &BigInt, bits: u32) -> BigUint {
    let m = BigInt::one() << bits;
    let r = ((v % &m) + &m) % &m;
    r.to_biguint().unwrap_or_default()
}

/// The exact dot product, each component read signed (`sa`, `sb`) or unsigned.
fn exact(a: &[i64; 4], b: &[i64; 4], sa: bool, sb: bool) -> BigInt {
    let read = |x: i64, s: bool| {
        if s {
            BigInt::from(x)
        } else {
            BigInt::from(x as u64)
        }
    };
    a.iter()
        .zip(b)
        .map(|(&x, &y)| read(x, sa) * read(y, sb))
        .sum()
}

/// SDotAccSat with a 128-bit result: saturate(R + acc) and whether the spec calls it
/// undefined (a product, or some order of partial sums, outside the 128-bit range).
fn acc_sat(c: &Case) -> (BigUint, bool) {
    let lo = -(BigInt::one() << 127u32);
    let hi = (BigInt::one() << 127u32) - 1;
    let products: Vec<BigInt> =
        c.a.iter()
            .zip(&c.b)
            .map(|(&x, &y)| BigInt::from(x) * BigInt::from(y))
            .collect();
    let pos: BigInt = products.iter().filter(|p| p.is_positive()).sum();
    let neg: BigInt = products.iter().filter(|p| p.is_negative()).sum();
    let undefined = products.iter().any(|p| *p < lo || *p > hi) || pos > hi || neg < lo;
    let total = exact(&c.a, &c.b, true, true) + BigInt::from(c.acc);
    let sat = total.clamp(lo, hi);
    (wrap(&sat, 128), undefined)
}

fn run() -> (Vec<u32>, Vec<UbKind>) {
    let cs = cases();
    let asm = assemble(TEXT, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    fn vec_words(v: &[i64; 4]) -> Vec<u32> {
        v.iter()
            .flat_map(|&x| [x as u32, (x >> 32) as u32])
            .collect()
    }
    let a: Vec<u32> = cs.iter().flat_map(|c| vec_words(&c.a)).collect();
    let b: Vec<u32> = cs.iter().flat_map(|c| vec_words(&c.b)).collect();
    let acc: Vec<u32> = cs
        .iter()
        .flat_map(|c| (0..4).map(move |k| (c.acc >> (32 * k)) as u32))
        .collect();
    let mut out: Option<(Vec<u32>, Vec<UbKind>)> = None;
    for jit in [false, true] {
        let mut res = Resources::new();
        res.set_words(0, 0, &a);
        res.set_words(0, 1, &b);
        res.set_words(0, 2, &acc);
        res.set_words(0, 3, &vec![0xdead_beef; cs.len() * 16]);
        let cfg = RunConfig {
            jit,
            ..RunConfig::default()
        };
        let report = m
            .run(&mut res, [cs.len() as u32, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("{e}"));
        let got = (
            res.words(0, 3).unwrap_or_default(),
            report.events.iter().map(|e| e.kind.clone()).collect(),
        );
        if let Some(prev) = &out {
            assert_eq!(&got, prev, "JIT and interpreter differ");
        }
        out = Some(got);
    }
    out.unwrap_or_default()
}

#[test]
fn wide_results_are_exact() {
    let (out, events) = run();
    for (i, c) in cases().iter().enumerate() {
        let at = |k: usize| &out[16 * i + 4 * k..16 * i + 4 * k + 4];
        let sdot = wrap(&exact(&c.a, &c.b, true, true), 128);
        assert_eq!(at(0), words_of(&sdot, 4), "SDot, case {i}");
        let (sat, _) = acc_sat(c);
        assert_eq!(at(1), words_of(&sat, 4), "SDotAccSat, case {i}");
        let udot = wrap(&exact(&c.a, &c.b, false, false), 96);
        assert_eq!(at(2), words_of(&udot, 4), "UDot (96 bits), case {i}");
        let sudot = wrap(&exact(&c.a, &c.b, true, false), 128);
        assert_eq!(at(3), words_of(&sudot, 4), "SUDot, case {i}");
    }
    // The AccSat undefined case: reported once per case that hits it.
    let undefined = cases().iter().filter(|c| acc_sat(c).1).count();
    let reported = events
        .iter()
        .filter(|e| matches!(e, UbKind::AccSatOverflow(_)))
        .count();
    assert!(undefined > 0, "the cases should include an undefined one");
    assert_eq!(reported, undefined, "{events:?}");
}

#[test]
fn the_expected_values_are_not_trivial() {
    // Case 1: four products of (2^63 − 1)^2: R = 4·(2^63 − 1)^2 ≥ 2^127, so the SDot result
    // wraps and the AccSat result saturates to 2^127 − 1.
    let c = &cases()[1];
    let r = exact(&c.a, &c.b, true, true);
    assert!(r > (BigInt::one() << 127u32));
    assert_eq!(acc_sat(c).0, (BigUint::one() << 127u32) - 1u32);
}

//! The fixed-point functions (SPV_INTEL_arbitrary_precision_fixed_point) with operands and
//! results wider than 64 bits, through the engine. Algebraic functions are checked against
//! exact integer arithmetic (integer square roots and quotients of num-bigint); the
//! transcendental ones bit for bit against `spvx_num::fixed::evaluate` called directly (the
//! reference the engine must reproduce: this checks the multi-register operand and result
//! plumbing) and, independently, against f64 `sin`/`cos` within a bound.

mod support;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use spvx_exec::{CompiledModule, Resources, RunConfig};
use spvx_num::fixed::{
    FixedFunction, FixedOp, FixedValue, Overflow, Quantization, evaluate, evaluate_exact,
};

/// A kernel: `%a = in[i]` of `%{in_ty}`, `%r = {call}`, `out[i] = %r` of `%{out_ty}`.
fn module(
    in_ty: &str,
    in_stride: usize,
    out_ty: &str,
    out_stride: usize,
    decls: &str,
    call: &str,
) -> String {
    format!(
        r#"OpCapability Shader
OpCapability ArbitraryPrecisionIntegersINTEL
OpCapability ArbitraryPrecisionFixedPointINTEL
OpExtension "SPV_INTEL_arbitrary_precision_integers"
OpExtension "SPV_INTEL_arbitrary_precision_fixed_point"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %in %out
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr_in ArrayStride {in_stride}
OpMemberDecorate %In 0 Offset 0
OpDecorate %In Block
OpDecorate %arr_out ArrayStride {out_stride}
OpMemberDecorate %Out 0 Offset 0
OpDecorate %Out Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%t32 = OpTypeInt 32 0
%v3t32 = OpTypeVector %t32 3
%ptr_in_v3 = OpTypePointer Input %v3t32
%ptr_in_t32 = OpTypePointer Input %t32
%gid = OpVariable %ptr_in_v3 Input
%c0 = OpConstant %t32 0
{decls}%arr_in = OpTypeRuntimeArray %{in_ty}
%In = OpTypeStruct %arr_in
%arr_out = OpTypeRuntimeArray %{out_ty}
%Out = OpTypeStruct %arr_out
%ptr_In = OpTypePointer StorageBuffer %In
%ptr_Out = OpTypePointer StorageBuffer %Out
%ptr_in_elem = OpTypePointer StorageBuffer %{in_ty}
%ptr_out_elem = OpTypePointer StorageBuffer %{out_ty}
%in = OpVariable %ptr_In StorageBuffer
%out = OpVariable %ptr_Out StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %ptr_in_t32 %gid %c0
%i = OpLoad %t32 %gx
%pa = OpAccessChain %ptr_in_elem %in %c0 %i
%a = OpLoad %{in_ty} %pa
%r = {call}
%po = OpAccessChain %ptr_out_elem %out %c0 %i
OpStore %po %r
OpReturn
OpFunctionEnd
"#
    )
}

fn compile(text: &str) -> CompiledModule {
    support::compile(text).unwrap_or_else(|e| panic!("compile failed: {e}\n{text}"))
}

/// Runs `m` with one invocation per input (elements of `in_bytes`), output elements of
/// `out_bytes`.
fn run(m: &CompiledModule, inputs: &[BigUint], in_bytes: usize, out_bytes: usize) -> Vec<BigUint> {
    jit_report(m, inputs, in_bytes, out_bytes).1
}

fn samples(bits: u32) -> Vec<BigUint> {
    let top = BigUint::one() << (bits - 1);
    vec![
        BigUint::from(2u8),
        BigUint::from(3u8),
        BigUint::from(u64::MAX),
        BigUint::one() << 64u32,
        (BigUint::one() << 64u32) + 1u8,
        BigUint::from(0x1234_5678_9abc_def0_u64) * BigUint::from(0xfedc_ba98_7654_3210_u64),
        top.clone(),
        (&top << 1u32) - 1u8,
        top - 12345u32,
    ]
}

/// sqrt of <128, 64, unsigned> into <96, 48>: x = N·2^−64, √x · 2^48 = √(N · 2^32); TRN is
/// the integer square root, RND_CONV (Q = 6) rounds it to nearest (no ties: (2R+1)² is odd).
#[test]
fn sqrt_128_bit_input_96_bit_result() {
    let decls = "%t128 = OpTypeInt 128 0\n%t96 = OpTypeInt 96 0\n";
    for q in [0u32, 6] {
        let m = compile(&module(
            "t128",
            16,
            "t96",
            16,
            decls,
            &format!("OpFixedSqrtINTEL %t96 %a 0 64 48 {q} 0"),
        ));
        let inputs = samples(128);
        let got = run(&m, &inputs, 16, 16);
        for (n, g) in inputs.iter().zip(&got) {
            let scaled = n << 32u32;
            let mut r = scaled.sqrt();
            if q == 6 && scaled > &r * &r + &r {
                r += 1u8;
            }
            assert_eq!(g, &r, "sqrt Q={q} of {n:#x}");
        }
    }
}

/// recip of <128, 64, unsigned> into <128, 64>: 1/x · 2^64 = 2^128 / N, floored (TRN).
#[test]
fn recip_128_bit() {
    let decls = "%t128 = OpTypeInt 128 0\n";
    let m = compile(&module(
        "t128",
        16,
        "t128",
        16,
        decls,
        "OpFixedRecipINTEL %t128 %a 0 64 64 0 0",
    ));
    let inputs = samples(128);
    let got = run(&m, &inputs, 16, 16);
    for (n, g) in inputs.iter().zip(&got) {
        assert_eq!(g, &((BigUint::one() << 128u32) / n), "recip of {n:#x}");
    }
}

/// The op the engine runs for `function` with input <96, 8, signed>, result <rw, 2, signed>,
/// RND_CONV, SAT.
fn trig_op(function: FixedFunction, rw: u32) -> FixedOp {
    FixedOp {
        function,
        signed: true,
        input_width: 96,
        input_int_bits: 8,
        result_width: rw,
        result_int_bits: 2,
        quantization: Quantization::from_spirv(6).expect("Q"),
        overflow: Overflow::from_spirv(1).expect("O"),
    }
}

/// The signed value of a `bits`-bit pattern with `frac` fraction bits, as f64.
fn value(v: &BigUint, bits: u32, frac: u32) -> f64 {
    let mut x = v.to_f64().unwrap_or(f64::NAN);
    if v >= &(BigUint::one() << (bits - 1)) {
        x -= 2f64.powi(bits as i32);
    }
    x / 2f64.powi(frac as i32)
}

fn trig_inputs() -> Vec<BigUint> {
    let m = BigUint::one() << 96u32;
    // x = 1, 0.5, π-ish, −3.25, 100.125, tiny.
    let at = |x: f64| {
        let raw = (x.abs() * 2f64.powi(88)) as u128;
        let raw = BigUint::from(raw);
        if x < 0.0 { &m - raw } else { raw }
    };
    vec![
        at(1.0),
        at(0.5),
        at(std::f64::consts::PI),
        at(-3.25),
        at(100.125),
        BigUint::from(12345u32),
        BigUint::zero(),
    ]
}

/// sin of a 96-bit input into a 96-bit result; sincos packed into one 128-bit scalar (sine in
/// the high 64 bits) and into a vector of two 96-bit components.
#[test]
fn sin_and_sincos_with_wide_operands() {
    let decls = "%t96 = OpTypeInt 96 0\n%t128 = OpTypeInt 128 0\n%v2t96 = OpTypeVector %t96 2\n";
    let inputs = trig_inputs();
    let reference = |op: &FixedOp, x: &BigUint| match evaluate(op, x).expect("evaluates").value {
        FixedValue::Single(v) => (v, BigUint::zero()),
        FixedValue::Pair { sin, cos } => (sin, cos),
    };
    // sin: 96-bit result, 94 fraction bits.
    let m = compile(&module(
        "t96",
        16,
        "t96",
        16,
        decls,
        "OpFixedSinINTEL %t96 %a 1 8 2 6 1",
    ));
    let got = run(&m, &inputs, 16, 16);
    let op = trig_op(FixedFunction::Sin, 96);
    for (x, g) in inputs.iter().zip(&got) {
        assert_eq!(g, &reference(&op, x).0, "sin {x:#x}");
        let xf = value(x, 96, 88);
        let err = (value(g, 96, 94) - xf.sin()).abs();
        assert!(err < 1e-13, "sin {xf}: {err}");
    }
    // sincos packed: 128-bit scalar, rW = 64 each, sine high.
    let m = compile(&module(
        "t96",
        16,
        "t128",
        16,
        decls,
        "OpFixedSinCosINTEL %t128 %a 1 8 2 6 1",
    ));
    let got = run(&m, &inputs, 16, 16);
    let op = trig_op(FixedFunction::SinCos, 64);
    let mask = (BigUint::one() << 64u32) - 1u8;
    for (x, g) in inputs.iter().zip(&got) {
        let (s, c) = reference(&op, x);
        assert_eq!(g >> 64u32, s, "packed sin {x:#x}");
        assert_eq!(g & &mask, c, "packed cos {x:#x}");
        let xf = value(x, 96, 88);
        assert!(
            (value(&(g >> 64u32), 64, 62) - xf.sin()).abs() < 1e-13,
            "sin {xf}"
        );
        assert!(
            (value(&(g & &mask), 64, 62) - xf.cos()).abs() < 1e-13,
            "cos {xf}"
        );
    }
    // sincos into a vector of two 96-bit components (each 16 bytes in memory).
    let m = compile(&module(
        "t96",
        16,
        "v2t96",
        32,
        decls,
        "OpFixedSinCosINTEL %v2t96 %a 1 8 2 6 1",
    ));
    let got = run(&m, &inputs, 16, 32);
    let op = trig_op(FixedFunction::SinCos, 96);
    let m128 = (BigUint::one() << 128u32) - 1u8;
    for (x, g) in inputs.iter().zip(&got) {
        let (s, c) = reference(&op, x);
        assert_eq!(g & &m128, s, "vector sin {x:#x}");
        assert_eq!(g >> 128u32, c, "vector cos {x:#x}");
    }
}

/// SinCos of a 48-bit input with results of 64, 40 and 20 bits: packed into one 128-, 80- or
/// 40-bit scalar (sine high) and, at 40 bits, into a vector of two. Operands up to 64 bits, so
/// the JIT evaluates them through spvx-num's C-ABI function (`jit::lower_fixed`) and puts the
/// 2·rW-bit packed value into two 64-bit limbs (one at 20 bits); each result against the exact
/// path (`evaluate_exact`, not the fast path the JIT calls), the JIT having run (no special
/// input: nothing falls back).
#[test]
fn sincos_packed_across_two_limbs_on_the_jit() {
    let decls = "%t48 = OpTypeInt 48 0\n%t40 = OpTypeInt 40 0\n%t80 = OpTypeInt 80 0\n\
                 %t128 = OpTypeInt 128 0\n%v2t40 = OpTypeVector %t40 2\n";
    let raw = |x: f64| {
        let r = (x.abs() * 2f64.powi(40)) as u64;
        BigUint::from(if x < 0.0 { (1u64 << 48) - r } else { r })
    };
    let inputs: Vec<BigUint> = [1.0, 0.5, std::f64::consts::PI, -3.25, 100.125, 1e-9, 0.0]
        .into_iter()
        .map(raw)
        .collect();
    let op = |rw: u32| FixedOp {
        function: FixedFunction::SinCos,
        signed: true,
        input_width: 48,
        input_int_bits: 8,
        result_width: rw,
        result_int_bits: 2,
        quantization: Quantization::from_spirv(6).expect("Q"),
        overflow: Overflow::from_spirv(1).expect("O"),
    };
    let pair = |rw: u32, x: &BigUint| match evaluate_exact(&op(rw), x).expect("evaluates") {
        o if o.exception.is_none() => match o.value {
            FixedValue::Pair { sin, cos } => (sin, cos),
            FixedValue::Single(_) => panic!("a pair"),
        },
        o => panic!("{x:#x}: {:?}", o.exception),
    };
    for (rw, ty, bytes) in [(64u32, "t128", 16usize), (40, "t80", 16), (20, "t40", 8)] {
        let call = format!("OpFixedSinCosINTEL %{ty} %a 1 8 2 6 1");
        let m = compile(&module("t48", 8, ty, bytes, decls, &call));
        let report = jit_report(&m, &inputs, 8, bytes);
        assert_eq!(report.0, spvx_exec::JitUse::Ran, "rW {rw}");
        let mask = (BigUint::one() << rw) - 1u8;
        for (x, g) in inputs.iter().zip(&report.1) {
            let (s, c) = pair(rw, x);
            assert_eq!(g >> rw, s, "rW {rw}: packed sin {x:#x}");
            assert_eq!(g & &mask, c, "rW {rw}: packed cos {x:#x}");
        }
    }
    let m = compile(&module(
        "t48",
        8,
        "v2t40",
        16,
        decls,
        "OpFixedSinCosINTEL %v2t40 %a 1 8 2 6 1",
    ));
    let (used, got) = jit_report(&m, &inputs, 8, 16);
    assert_eq!(used, spvx_exec::JitUse::Ran);
    let m64 = (BigUint::one() << 64u32) - 1u8;
    for (x, g) in inputs.iter().zip(&got) {
        let (s, c) = pair(40, x);
        assert_eq!(g & &m64, s, "vector sin {x:#x}");
        assert_eq!(g >> 64u32, c, "vector cos {x:#x}");
    }
}

/// [`run`]'s outputs, and how the JIT was used.
fn jit_report(
    m: &CompiledModule,
    inputs: &[BigUint],
    in_bytes: usize,
    out_bytes: usize,
) -> (spvx_exec::JitUse, Vec<BigUint>) {
    let mut input = Vec::new();
    for v in inputs {
        let mut b = v.to_bytes_le();
        b.resize(in_bytes, 0);
        input.extend_from_slice(&b);
    }
    let mut res = Resources::new();
    res.set_buffer(0, 0, input);
    res.set_buffer(0, 1, vec![0; out_bytes * inputs.len()]);
    let report = m
        .run(&mut res, [inputs.len() as u32, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    let out = res.buffer(0, 1).expect("output");
    (
        report.jit,
        out.chunks(out_bytes).map(BigUint::from_bytes_le).collect(),
    )
}

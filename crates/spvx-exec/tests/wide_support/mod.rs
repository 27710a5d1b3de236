//! Helpers of the wide-integer tests: kernels that read wide operands from a buffer and write
//! results, byte conversions, the exact (num-bigint) readings of patterns, boundary values.
#![allow(dead_code)]

use super::support;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use proptest::prelude::*;
use spvx_exec::{CompiledModule, Resources, RunConfig, RunReport};

/// Bytes an integer of `bits` takes in a buffer: 8·ceil(bits/64) above 64 bits (the engine's
/// wide layout), else the next of 1, 2, 4, 8.
pub fn elem_bytes(bits: u32) -> usize {
    if bits > 64 {
        8 * bits.div_ceil(64) as usize
    } else {
        (bits.div_ceil(8) as usize).next_power_of_two()
    }
}

/// `OpTypeInt` declarations `%tN` (unsigned) for the widths, `%t32` always.
pub fn int_types(widths: &[u32]) -> String {
    let mut ws: Vec<u32> = widths.iter().copied().filter(|&w| w != 32).collect();
    ws.sort_unstable();
    ws.dedup();
    ws.iter()
        .map(|w| format!("%t{w} = OpTypeInt {w} 0\n"))
        .collect()
}

/// A kernel with `in` = runtime array of `in_ty` (stride `in_stride`) at binding 0 and `out` =
/// runtime array of `out_ty` at binding 1; invocation `i` loads `%a = in[2i]`,
/// `%b = in[2i + 1]`, runs `body` (which defines `%r` of `out_ty`) and stores `out[i] = %r`.
pub fn module(
    in_ty: &str,
    in_stride: usize,
    out_ty: &str,
    out_stride: usize,
    decls: &str,
    body: &str,
) -> String {
    format!(
        r#"OpCapability Shader
OpCapability Int64
OpCapability ArbitraryPrecisionIntegersINTEL
OpExtension "SPV_INTEL_arbitrary_precision_integers"
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
%bool = OpTypeBool
%t32 = OpTypeInt 32 0
%v3t32 = OpTypeVector %t32 3
%ptr_in_v3 = OpTypePointer Input %v3t32
%ptr_in_t32 = OpTypePointer Input %t32
%gid = OpVariable %ptr_in_v3 Input
%c0 = OpConstant %t32 0
%c1 = OpConstant %t32 1
%c2 = OpConstant %t32 2
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
%i2 = OpIMul %t32 %i %c2
%i21 = OpIAdd %t32 %i2 %c1
%pa = OpAccessChain %ptr_in_elem %in %c0 %i2
%pb = OpAccessChain %ptr_in_elem %in %c0 %i21
%a = OpLoad %{in_ty} %pa
%b = OpLoad %{in_ty} %pb
{body}
%po = OpAccessChain %ptr_out_elem %out %c0 %i
OpStore %po %r
OpReturn
OpFunctionEnd
"#
    )
}

pub fn compile(text: &str) -> CompiledModule {
    support::compile(text).unwrap_or_else(|e| panic!("compile failed: {e}\n{text}"))
}

/// The little-endian bytes of `v` modulo 2^bits in `bytes` bytes.
pub fn put(out: &mut Vec<u8>, v: &BigUint, bytes: usize) {
    let mut b = v.to_bytes_le();
    b.resize(bytes, 0);
    out.extend_from_slice(&b[..bytes]);
}

/// Runs `m` on the pairs (one invocation each): input elements of `in_bytes`, output elements
/// of `out_bytes`; the results and the report.
pub fn run_pairs(
    m: &CompiledModule,
    pairs: &[(BigUint, BigUint)],
    in_bytes: usize,
    out_bytes: usize,
) -> (Vec<BigUint>, RunReport) {
    let mut input = Vec::new();
    for (a, b) in pairs {
        put(&mut input, a, in_bytes);
        put(&mut input, b, in_bytes);
    }
    let mut res = Resources::new();
    res.set_buffer(0, 0, input);
    res.set_buffer(0, 1, vec![0; out_bytes * pairs.len()]);
    let report = m
        .run(&mut res, [pairs.len() as u32, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("run failed: {e}"));
    let out = res.buffer(0, 1).expect("output buffer");
    let values = out.chunks(out_bytes).map(BigUint::from_bytes_le).collect();
    (values, report)
}

pub fn modulus(bits: u32) -> BigInt {
    BigInt::one() << bits
}

/// The two's complement (signed) reading of a `bits`-bit pattern.
pub fn signed(v: &BigUint, bits: u32) -> BigInt {
    let v = BigInt::from(v.clone());
    if v >= (BigInt::one() << (bits - 1)) {
        v - modulus(bits)
    } else {
        v
    }
}

/// `v` modulo 2^bits as a pattern.
pub fn wrap(v: &BigInt, bits: u32) -> BigUint {
    let m = modulus(bits);
    let r = ((v % &m) + &m) % &m;
    r.to_biguint().expect("non-negative")
}

/// Boundary values of a `bits`-bit integer.
pub fn boundaries(bits: u32) -> Vec<BigUint> {
    let m = BigUint::one() << bits;
    let half = BigUint::one() << (bits - 1);
    let one = BigUint::one();
    let mut v = vec![
        BigUint::zero(),
        one.clone(),
        BigUint::from(2u8),
        &m - 1u8,                // −1 / MAX unsigned
        &m - 2u8,                // −2
        half.clone(),            // MIN
        &half - 1u8,             // MAX signed
        &half + 1u8,             // MIN + 1
        BigUint::from(u64::MAX), // one limb full
        BigUint::one() << 64u32, // one past the first limb
        (BigUint::one() << 64u32) + 1u8,
        BigUint::from(3u8) << (bits - 2), // top two bits
    ];
    v.retain(|x| x < &m);
    v
}

/// A random `bits`-bit value from raw limbs and a shape selector (so that small values, values
/// near a limb boundary and full-width values all occur).
pub fn shaped(limbs: &[u64], shape: u8, bits: u32) -> BigUint {
    let m = BigUint::one() << bits;
    let mut v = BigUint::zero();
    for (i, l) in limbs.iter().enumerate() {
        v |= BigUint::from(*l) << (64 * i);
    }
    let v = v % &m;
    match shape % 5 {
        0 => v % (BigUint::one() << 70u32),                       // small
        1 => &m - 1u8 - (v % 1000u32),                            // near −1
        2 => (BigUint::one() << (bits - 1)) + (v % 1000u32) % &m, // near MIN
        _ => v,
    }
}

pub fn value_strategy(bits: u32) -> impl Strategy<Value = BigUint> {
    (prop::collection::vec(any::<u64>(), 5), any::<u8>())
        .prop_map(move |(l, s)| shaped(&l, s, bits))
}

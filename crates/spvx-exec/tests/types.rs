//! 8/16/64-bit integers, fp16 and fp64, conversions, composites, OpConstantNull, and
//! specialisation constants (overrides, OpSpecConstantOp, LocalSizeId). Every expected value
//! is hand-computed from the spec's definitions (noted beside it).

mod support;
use spvx_exec::{CompileOptions, RunConfig};
use support::{compile_with, eval, eval_caps, run_words};

#[test]
fn small_and_wide_integers_wrap_at_their_width() {
    let decls = "%short = OpTypeInt 16 1\n%ushort = OpTypeInt 16 0\n%char = OpTypeInt 8 1\n%uchar = OpTypeInt 8 0\n%ulong = OpTypeInt 64 0\n%long = OpTypeInt 64 1\n%s7 = OpConstant %short 30000\n%big = OpConstant %ulong 0x123456789\n%sh32 = OpConstant %ulong 32\n";
    // 16-bit: x + 30000 wraps modulo 2^16, then sign-extended to 32 bits.
    let out = eval_caps(
        "Int16 Int8 Int64",
        decls,
        "%xs = OpUConvert %ushort %x\n%xss = OpBitcast %short %xs\n%s = OpIAdd %short %xss %s7\n%w = OpSConvert %int %s\n%r = OpBitcast %uint %w",
        &[0, 2767, 2768, 40000],
    );
    // 30000; 32767; 32768 → -32768; 40000 (= -25536 as i16) + 30000 = 4464.
    assert_eq!(out, vec![30000, 32767, (-32768i32) as u32, 4464]);
    // 64-bit: (x * 0x123456789) >> 32, low 32 bits.
    let out = eval_caps(
        "Int16 Int8 Int64",
        decls,
        "%xl = OpUConvert %ulong %x\n%p = OpIMul %ulong %xl %big\n%h = OpShiftRightLogical %ulong %p %sh32\n%r = OpUConvert %uint %h",
        &[0xffff_ffff, 16],
    );
    // 0xffffffff * 0x123456789 = 0x123456789 * 2^32 - 0x123456789 = 0x1_2345_6787_DCBA_9877
    // → >> 32 = 0x1_2345_6787 → low 32 bits 0x23456787.
    // 16 * 0x123456789 = 0x12_3456_7890 → >> 32 = 0x12.
    assert_eq!(out, vec![0x2345_6787, 0x12]);
    // 8-bit signed compare: 0x80 (-128) < 0x7f (127).
    let out = eval_caps(
        "Int16 Int8 Int64",
        decls,
        "%lu = OpUConvert %uchar %x\n%hu = OpUConvert %uchar %u3\n%lo = OpBitcast %char %lu\n%hi = OpBitcast %char %hu\n%c = OpSLessThan %bool %lo %hi\n%r = OpSelect %uint %c %u1 %u0",
        &[0x80, 0x7f, 0x03, 0x1ff],
    );
    // 0x80 → -128 < 3; 127 > 3; 3 = 3; 0x1ff → 0xff = -1 < 3.
    assert_eq!(out, vec![1, 0, 0, 1]);
}

#[test]
fn fp16_and_fp64_arithmetic_round_to_nearest_even() {
    let decls = "%half = OpTypeFloat 16\n%ushort = OpTypeInt 16 0\n%double = OpTypeFloat 64\n%ulong = OpTypeInt 64 0\n%one = OpConstant %half 1.0\n%d1 = OpConstant %double 0.1\n%d2 = OpConstant %double 0.2\n%c32 = OpConstant %ulong 32\n";
    // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: even → 1.0 (0x3c00);
    // 1 + 3·2^-11 is a tie between 1 + 2^-10 and 1 + 2^-9: even → 0x3c02.
    let out = eval_caps(
        "Float16 Int16 Float64 Int64",
        decls,
        "%xs = OpUConvert %ushort %x\n%h = OpBitcast %half %xs\n%s = OpFAdd %half %one %h\n%b = OpBitcast %ushort %s\n%r = OpUConvert %uint %b",
        &[0x1000, 0x1600],
    );
    assert_eq!(out, vec![0x3c00, 0x3c02]);
    // 0.1 + 0.2 in binary64 = 0x3FD3333333333334.
    let out = eval_caps(
        "Float16 Int16 Float64 Int64",
        decls,
        "%s = OpFAdd %double %d1 %d2\n%b = OpBitcast %ulong %s\n%lo = OpUConvert %uint %b\n%sh = OpShiftRightLogical %ulong %b %c32\n%hi = OpUConvert %uint %sh\n%sel = OpIEqual %bool %x %u0\n%r = OpSelect %uint %sel %lo %hi",
        &[0, 1],
    );
    assert_eq!(out, vec![0x3333_3334, 0x3fd3_3333]);
}

#[test]
fn conversions() {
    let decls = "%half = OpTypeFloat 16\n%ushort = OpTypeInt 16 0\n";
    // ConvertFToS(-3.7) = -3 (toward zero); ConvertFToU(1e10) saturates to 0xffffffff.
    let out = eval(
        "",
        "%f = OpBitcast %float %x\n%s = OpConvertFToS %int %f\n%r = OpBitcast %uint %s",
        &[(-3.7f32).to_bits(), 1e10f32.to_bits(), (-1e10f32).to_bits()],
    );
    assert_eq!(out, vec![(-3i32) as u32, i32::MAX as u32, i32::MIN as u32]);
    let out = eval(
        "",
        "%f = OpBitcast %float %x\n%r = OpConvertFToU %uint %f",
        &[1e10f32.to_bits(), (-5.0f32).to_bits(), 7.99f32.to_bits()],
    );
    assert_eq!(out, vec![u32::MAX, 0, 7]);
    // 16777217 → 16777216.0 (tie to even); 0xffffffff → 4294967296.0.
    let out = eval(
        "",
        "%f = OpConvertUToF %float %x\n%r = OpBitcast %uint %f",
        &[16_777_217, u32::MAX],
    );
    assert_eq!(
        out,
        vec![16_777_216f32.to_bits(), 4_294_967_296f32.to_bits()]
    );
    // f32 → f16: 65520 rounds up to 65536, beyond binary16's range → +inf (0x7c00);
    // 0.1 → 0x2e66.
    let out = eval_caps(
        "Float16 Int16",
        decls,
        "%f = OpBitcast %float %x\n%h = OpFConvert %half %f\n%b = OpBitcast %ushort %h\n%r = OpUConvert %uint %b",
        &[65520f32.to_bits(), 0.1f32.to_bits()],
    );
    assert_eq!(out, vec![0x7c00, 0x2e66]);
}

#[test]
fn composites() {
    let decls = r#"
%v4uint = OpTypeVector %uint 4
%arr3 = OpTypeArray %uint %u3
%S = OpTypeStruct %uint %v4uint %arr3
%c10 = OpConstant %uint 10
%c20 = OpConstant %uint 20
%c30 = OpConstant %uint 30
%a3 = OpConstantComposite %arr3 %c10 %c20 %c30
%nullS = OpConstantNull %S
"#;
    // v = (x, 1, 2, 3); w = shuffle(v, v, 3, 0, 5, 2) = (3, x, 1, 2); s = {x, w, a3};
    // s.1.1 = x; s.2[2] = 30; v[x % 4] dynamic; insert 7 at component 2 of w then sum.
    let body = r#"
%v = OpCompositeConstruct %v4uint %x %u1 %u2 %u3
%w = OpVectorShuffle %v4uint %v %v 3 0 5 2
%s = OpCompositeConstruct %S %x %w %a3
%e1 = OpCompositeExtract %uint %s 1 1
%e2 = OpCompositeExtract %uint %s 2 2
%m = OpUMod %uint %x %u4
%dyn = OpVectorExtractDynamic %uint %v %m
%s2 = OpCompositeInsert %S %u2 %s 1 0
%e3 = OpCompositeExtract %uint %s2 1 0
%n = OpCompositeExtract %uint %nullS 1 3
%t0 = OpIAdd %uint %e1 %e2
%t1 = OpIMul %uint %dyn %c10
%t2 = OpIAdd %uint %t0 %t1
%t3 = OpIMul %uint %e3 %c20
%t4 = OpIAdd %uint %t2 %t3
%r = OpIAdd %uint %t4 %n
"#;
    let input = [5u32, 6, 7, 100];
    let out = eval(decls, body, &input);
    for (k, &x) in input.iter().enumerate() {
        let v = [x, 1, 2, 3];
        // e1 = x, e2 = 30, dyn = v[x % 4], e3 = 2 (inserted), n = 0.
        let want = x + 30 + v[(x % 4) as usize] * 10 + 2 * 20;
        assert_eq!(out[k], want);
    }
}

#[test]
fn specialisation_constants_and_local_size_id() {
    let text = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lidx %out
OpExecutionModeId %main LocalSizeId %wx %u1 %u1
OpDecorate %lidx BuiltIn LocalInvocationIndex
OpDecorate %wx SpecId 0
OpDecorate %k SpecId 1
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ptr_in_uint = OpTypePointer Input %uint
%lidx = OpVariable %ptr_in_uint Input
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%out = OpVariable %ptr_sb_Buf StorageBuffer
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%wx = OpSpecConstant %uint 4
%k = OpSpecConstant %uint 100
%k2 = OpSpecConstantOp %uint IMul %k %wx
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %uint %lidx
%v = OpIAdd %uint %i %k2
%p = OpAccessChain %ptr_sb_uint %out %u0 %i
OpStore %p %v
OpReturn
OpFunctionEnd
"#;
    // Defaults: local size 4, k2 = 400.
    let m = compile_with(text, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.local_size(), [4, 1, 1]);
    let (out, _) =
        run_words(&m, &[], 8, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, vec![400, 401, 402, 403, 0, 0, 0, 0]);
    // Overrides: local size 6, k = 7 → k2 = 42.
    let mut opts = CompileOptions::default();
    opts.spec_constants.insert(0, 6);
    opts.spec_constants.insert(1, 7);
    let m = compile_with(text, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.local_size(), [6, 1, 1]);
    let (out, _) =
        run_words(&m, &[], 8, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, vec![42, 43, 44, 45, 46, 47, 0, 0]);
}

#[test]
fn matrix_arithmetic() {
    // M = columns (1,2,3), (4,5,6) (3 rows × 2 columns); v = (x, 2); w = (1, x, 3).
    // M·v = (x + 8, 2x + 10, 3x + 12); w·M = (1 + 2x + 9, 4 + 5x + 18);
    // Mᵀ·w (2×3 · 3) = the same as w·M. (M·v)·(w·M as a 1×2 outer product...) kept simple:
    // r = (M·v)[2] · 1000 + (w·M)[1] · 10 + (Mᵀ)[col 2][row 1] (= M[1][2] = 6).
    let decls = r#"
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%m2x3 = OpTypeMatrix %v3float 2
%m3x2 = OpTypeMatrix %v2float 3
%f1 = OpConstant %float 1
%f2 = OpConstant %float 2
%f3 = OpConstant %float 3
%f4 = OpConstant %float 4
%f5 = OpConstant %float 5
%f6 = OpConstant %float 6
%f10 = OpConstant %float 10
%f1000 = OpConstant %float 1000
%c0 = OpConstantComposite %v3float %f1 %f2 %f3
%c1 = OpConstantComposite %v3float %f4 %f5 %f6
%M = OpConstantComposite %m2x3 %c0 %c1
"#;
    let body = r#"
%xf = OpConvertUToF %float %x
%v = OpCompositeConstruct %v2float %xf %f2
%w = OpCompositeConstruct %v3float %f1 %xf %f3
%mv = OpMatrixTimesVector %v3float %M %v
%wm = OpVectorTimesMatrix %v2float %w %M
%mt = OpTranspose %m3x2 %M
%a = OpCompositeExtract %float %mv 2
%b = OpCompositeExtract %float %wm 1
%c = OpCompositeExtract %float %mt 2 1
%a1 = OpFMul %float %a %f1000
%b1 = OpFMul %float %b %f10
%s = OpFAdd %float %a1 %b1
%s2 = OpFAdd %float %s %c
%r = OpConvertFToU %uint %s2
"#;
    let input = [0u32, 1, 7];
    let out = eval(decls, body, &input);
    for (k, &x) in input.iter().enumerate() {
        let want = (3 * x + 12) * 1000 + (4 + 5 * x + 18) * 10 + 6;
        assert_eq!(out[k], want, "x = {x}");
    }
}

#[test]
fn matrix_products() {
    // With M as above: (Mᵀ·M)[col 1][row 0] = (1,2,3)·(4,5,6) = 32; outer(v, w)[col 1][row 0]
    // = v[0]·w[1] = x²; (M·2)[col 1][row 2] = 12. r = 32·10000 + x²·10 + 12.
    let decls = r#"
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%m2x3 = OpTypeMatrix %v3float 2
%m3x2 = OpTypeMatrix %v2float 3
%m2x2 = OpTypeMatrix %v2float 2
%f1 = OpConstant %float 1
%f2 = OpConstant %float 2
%f3 = OpConstant %float 3
%f4 = OpConstant %float 4
%f5 = OpConstant %float 5
%f6 = OpConstant %float 6
%f10 = OpConstant %float 10
%f10000 = OpConstant %float 10000
%c0 = OpConstantComposite %v3float %f1 %f2 %f3
%c1 = OpConstantComposite %v3float %f4 %f5 %f6
%M = OpConstantComposite %m2x3 %c0 %c1
"#;
    let body = r#"
%xf = OpConvertUToF %float %x
%v = OpCompositeConstruct %v2float %xf %f2
%w = OpCompositeConstruct %v3float %f1 %xf %f3
%mt = OpTranspose %m3x2 %M
%mtm = OpMatrixTimesMatrix %m2x2 %mt %M
%op = OpOuterProduct %m3x2 %v %w
%ms = OpMatrixTimesScalar %m2x3 %M %f2
%a = OpCompositeExtract %float %mtm 1 0
%b = OpCompositeExtract %float %op 1 0
%c = OpCompositeExtract %float %ms 1 2
%a1 = OpFMul %float %a %f10000
%b1 = OpFMul %float %b %f10
%s = OpFAdd %float %a1 %b1
%s2 = OpFAdd %float %s %c
%r = OpConvertFToU %uint %s2
"#;
    let input = [0u32, 3, 9];
    let out = eval(decls, body, &input);
    for (k, &x) in input.iter().enumerate() {
        assert_eq!(out[k], 32 * 10000 + x * x * 10 + 12, "x = {x}");
    }
}

#[test]
fn glsl_geometric_functions() {
    // length((x, 4)) for x = 3 is 5; distance((x, 0), (0, 4)) = 5; cross((1,0,0), (0,x,0))
    // = (0, 0, x); reflect((1, −1), (0, 1)) = (1, 1). r = len·1000 + dist·100 + cross.z·10
    // + reflect.y.
    let decls = r#"
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%f0 = OpConstant %float 0
%f1 = OpConstant %float 1
%fm1 = OpConstant %float -1
%f4 = OpConstant %float 4
%f10 = OpConstant %float 10
%f100 = OpConstant %float 100
%f1000 = OpConstant %float 1000
%e1 = OpConstantComposite %v3float %f1 %f0 %f0
%inc = OpConstantComposite %v2float %f1 %fm1
%nrm = OpConstantComposite %v2float %f0 %f1
%b04 = OpConstantComposite %v2float %f0 %f4
"#;
    let body = r#"
%xf = OpConvertUToF %float %x
%a = OpCompositeConstruct %v2float %xf %f4
%len = OpExtInst %float %glsl Length %a
%p = OpCompositeConstruct %v2float %xf %f0
%dist = OpExtInst %float %glsl Distance %p %b04
%e2 = OpCompositeConstruct %v3float %f0 %xf %f0
%cr = OpExtInst %v3float %glsl Cross %e1 %e2
%cz = OpCompositeExtract %float %cr 2
%rf = OpExtInst %v2float %glsl Reflect %inc %nrm
%ry = OpCompositeExtract %float %rf 1
%t0 = OpFMul %float %len %f1000
%t1 = OpFMul %float %dist %f100
%t2 = OpFMul %float %cz %f10
%t3 = OpFAdd %float %t0 %t1
%t4 = OpFAdd %float %t3 %t2
%t5 = OpFAdd %float %t4 %ry
%r = OpConvertFToU %uint %t5
"#;
    let text = support::kernel(1, decls, body).replacen(
        "OpMemoryModel",
        "%glsl = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel",
        1,
    );
    let m = support::compile(&text).unwrap_or_else(|e| panic!("{e}"));
    let (out, _) =
        run_words(&m, &[3], 1, 1, &RunConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out, vec![5000 + 500 + 30 + 1]);
}

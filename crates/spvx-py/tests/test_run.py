"""spvx.run: GLSL shaders compiled by glslangValidator, run from NumPy arrays, compared with
NumPy's own results; data forms, dtype checks, options, kernels, undefined behaviour."""

import warnings

import numpy as np
import pytest

import spvx
from conftest import EXAMPLES

# c = a * b + K + offset (int32, wrapping), d = x * y (float32, one rounding), K a
# specialisation constant and offset a push constant.
SHADER = """
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const int K = 1;
layout(push_constant) uniform P { int offset; } p;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) writeonly buffer C { int c[]; };
layout(set = 0, binding = 3) readonly buffer X { float x[]; };
layout(set = 0, binding = 4) readonly buffer Y { float y[]; };
layout(set = 0, binding = 5) writeonly buffer D { float d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = a[i] * b[i] + K + p.offset;
    d[i] = x[i] * y[i];
}
"""


def inputs(n=256, seed=7):
    rng = np.random.default_rng(seed)
    a = rng.integers(-(2**31), 2**31, n, dtype=np.int32)
    b = rng.integers(-(2**31), 2**31, n, dtype=np.int32)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    return a, b, x, y


def test_glsl_end_to_end_matches_numpy(compile_glsl):
    spv = compile_glsl(SHADER)
    a, b, x, y = inputs()
    n = len(a)
    out = spvx.run(
        spv,
        {
            (0, 0): a,
            (0, 1): b,
            (0, 2): np.zeros(n, np.int32),
            (0, 3): x,
            (0, 4): y,
            (0, 5): np.zeros(n, np.float32),
        },
        groups=n // 64,
        spec={0: 1000},
        push=np.array([-7], np.int32),
    )
    with np.errstate(over="ignore"):
        want_c = a * b + np.int32(1000) + np.int32(-7)
    assert out[(0, 2)].dtype == np.int32
    np.testing.assert_array_equal(out[(0, 2)], want_c)
    assert out[(0, 5)].dtype == np.float32
    np.testing.assert_array_equal(out[(0, 5)].view(np.uint32), (x * y).view(np.uint32))
    # Inputs come back unchanged; the report says what ran.
    np.testing.assert_array_equal(out[(0, 0)], a)
    assert out.report["entry"] == "main"
    assert out.report["local_size"] == [64, 1, 1]
    assert out.report["groups"] == [n // 64, 1, 1]
    assert out.report["total_events"] == 0
    assert out.report["engine"] in ("JIT", "interpreter")


LAYOUTS = """
#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer M { float m[2][3]; };
layout(std140, set = 0, binding = 1) buffer P { float a[4]; };
layout(std430, set = 0, binding = 2) buffer S { uint count; vec2 v; float data[]; };
void main() {
    count = uint(data.length());
    m[1][2] = a[3] + v.y;
    data[0] = float(count);
}
"""


def test_outputs_have_the_shape_of_their_block(compile_glsl):
    # std430: m is float[2][3] (strides 12, 4); std140: float a[4] has stride 16; S holds
    # count at 0, v at 8 (a vec2 aligns to 8), data from 16: 16 + 3 * 4 bytes hold 3 floats.
    spv = compile_glsl(LAYOUTS, "layouts")
    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = np.arange(16, dtype=np.float32)
    s = np.zeros(7, np.float32)
    s[2:4] = [0.5, 1.5]
    s[4:] = [10, 20, 30]
    out = spvx.run(spv, {(0, 0): m, (0, 1): a, (0, 2): spvx.raw(s)}, 1)
    want_m = m.copy()
    want_m[1, 2] = a[12] + np.float32(1.5)
    assert out[(0, 0)].shape == (2, 3)
    np.testing.assert_array_equal(out[(0, 0)], want_m)
    p = out[(0, 1)]
    assert p.shape == (4,) and p.dtype.names == ("value",) and p.dtype.itemsize == 16
    np.testing.assert_array_equal(p["value"], a[::4])
    r = out[(0, 2)]
    assert r.shape == () and r.dtype.names == ("count", "v", "data")
    assert r.dtype.fields["v"][1] == 8 and r.dtype.fields["data"][1] == 16
    assert r["count"] == 3
    np.testing.assert_array_equal(r["v"], [0.5, 1.5])
    np.testing.assert_array_equal(r["data"], [3, 20, 30])


def test_interpreter_gives_the_same_bits(compile_glsl):
    spv = compile_glsl(SHADER)
    a, b, x, y = inputs(64, seed=3)
    bufs = {(0, 0): a, (0, 1): b, (0, 2): "zeros:256", (0, 3): x, (0, 4): y, (0, 5): "zeros:256"}
    out = spvx.run(spv, bufs, 1, push=spvx.raw(np.array([0], np.int32)), jit=False, threads=1)
    assert out.report["engine"] == "interpreter"
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out[(0, 2)], a * b + np.int32(1))


def test_wrong_dtype_is_refused_by_name(compile_glsl):
    spv = compile_glsl(SHADER)
    a, b, x, y = inputs(64)
    bufs = {(0, 0): a, (0, 1): b, (0, 2): "zeros:256", (0, 3): x.astype(np.float64), (0, 4): y,
            (0, 5): "zeros:256"}
    with pytest.raises(spvx.RunError) as e:
        spvx.run(spv, bufs, 1, push=np.zeros(1, np.int32))
    msg = str(e.value)
    assert msg.startswith("error: buffers[0, 3]: the array holds f64 (<f8) elements")
    assert "but binding 0.3 is a block of f32 (<f4)" in msg
    assert "spvx.raw(array)" in msg
    # The same bytes as raw data are taken as they are.
    bufs[(0, 3)] = spvx.raw(x.astype(np.float64))
    out = spvx.run(spv, bufs, 1, push=np.zeros(1, np.int32))
    assert out[(0, 3)].dtype == np.float32 and len(out[(0, 3)]) == 128


def test_missing_binding_and_bad_arguments(compile_glsl):
    spv = compile_glsl(SHADER)
    with pytest.raises(spvx.RunError, match="binding"):
        spvx.run(spv, {(0, 0): np.zeros(64, np.int32)}, 1)
    with pytest.raises(spvx.ArgumentError, match="unknown field `stric`"):
        spvx.run(spv, {}, 1, stric=True)
    with pytest.raises(spvx.ArgumentError, match="a workgroup count of 0"):
        spvx.run(spv, {}, 0)
    with pytest.raises(spvx.ArgumentError, match="Python float has no width"):
        spvx.run(spv, {}, 1, spec={0: 1.5})
    with pytest.raises(spvx.ArgumentError):
        spvx.run(spv, {0: np.zeros(4, np.int32)}, 1)
    assert issubclass(spvx.ArgumentError, ValueError)


ASM = """
; c[i] = a[i] / b[i] (OpSDiv): b = 0 is undefined behaviour.
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %a %b
               OpExecutionMode %main LocalSize 4 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %arr ArrayStride 4
               OpDecorate %Buf Block
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %a DescriptorSet 0
               OpDecorate %a Binding 0
               OpDecorate %b DescriptorSet 0
               OpDecorate %b Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
        %int = OpTypeInt 32 1
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
      %int_0 = OpConstant %int 0
        %arr = OpTypeRuntimeArray %int
        %Buf = OpTypeStruct %arr
    %ptr_buf = OpTypePointer StorageBuffer %Buf
    %ptr_int = OpTypePointer StorageBuffer %int
     %ptr_in = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_in Input
          %a = OpVariable %ptr_buf StorageBuffer
          %b = OpVariable %ptr_buf StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %g3 = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g3 0
         %pa = OpAccessChain %ptr_int %a %int_0 %i
         %pb = OpAccessChain %ptr_int %b %int_0 %i
         %va = OpLoad %int %pa
         %vb = OpLoad %int %pb
          %q = OpSDiv %int %va %vb
               OpStore %pa %q
               OpReturn
               OpFunctionEnd
"""


def test_text_module_and_undefined_behaviour():
    a = np.array([7, -7, 9, 5], np.int32)
    b = np.array([2, 2, -4, 1], np.int32)
    out = spvx.run(ASM, {(0, 0): a, (0, 1): b}, 1)
    # SPIR-V OpSDiv rounds toward zero (C's division, not NumPy's floor division).
    np.testing.assert_array_equal(out[(0, 0)], [3, -3, -2, 5])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = spvx.run(ASM.encode(), {(0, 0): a, (0, 1): np.array([1, 0, 1, 1], np.int32)}, 1)
    ub = [x for x in w if issubclass(x.category, spvx.UndefinedBehaviourWarning)]
    assert len(ub) == 1 and out.report["total_events"] == 1
    assert "<bytes>:" in str(ub[0].message)  # at its place in the text
    with pytest.raises(spvx.RunError, match="OpSDiv"):
        spvx.run(ASM, {(0, 0): a, (0, 1): np.array([1, 0, 1, 1], np.int32)}, 1, strict=True)


def test_text_that_does_not_assemble_names_its_place():
    with pytest.raises(spvx.RunError) as e:
        spvx.run(ASM.replace("OpSDiv", "OpSDivv"), {}, 1)
    assert "<text>:" in str(e.value)


def test_kernel_entry_point():
    # examples/opencl_rowdot: out[r] = add_sat(A[r] · x, bias), 8 rows of 64 int8.
    rng = np.random.default_rng(5)
    a = rng.integers(-128, 128, (8, 64), dtype=np.int8)
    x = rng.integers(-128, 128, 64, dtype=np.int8)
    bias = np.int32(2**31 - 5000)
    out = spvx.run(
        EXAMPLES / "opencl_rowdot.spv",
        groups=8,
        args={0: a, 1: x, 2: np.zeros(8, np.int32), 3: spvx.local(64), 4: bias},
    )
    exact = a.astype(np.int64) @ x.astype(np.int64) + int(bias)
    want = np.clip(exact, -(2**31), 2**31 - 1).astype(np.int32)
    np.testing.assert_array_equal(out[2].view(np.int32), want)


def test_tensors_example():
    # examples/tensor.spvasm: U[c, r] = 2 T[r, c] + 1 (its run file's expectation).
    t = np.array([[-1, 2, 3, -4], [11, 12, -13, 14], [21, -22, 23, 24]], np.int32)
    out = spvx.run(
        EXAMPLES / "tensor.spvasm",
        {(0, 2): "zeros:64", (0, 3): "zeros:64", (0, 4): np.zeros(4, np.uint32)},
        1,
        tensors={(0, 0): t, (0, 1): np.full((4, 3), 7, np.int32)},
    )
    np.testing.assert_array_equal(out[(0, 1)], 2 * t.T + 1)
    assert out[(0, 1)].shape == (4, 3)
    # The size queries (its run file's expectation).
    assert out[(0, 4)].tolist() == [3, 4, 4, 3]

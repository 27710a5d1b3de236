#!/usr/bin/env python3
"""Writes examples/dpas_mma.spvasm and examples/dpas_mma.toml.

The kernel is an int8 GEMM tile loop with OpSubgroupMatrixMultiplyAccumulateINTEL
(SPV_INTEL_subgroup_matrix_multiply_accumulate), subgroup size 8: D = C + A x B with
A 16x64 signed int8, B 64x16 unsigned int8, C and D 16x16 int32. Workgroup (x, y) is one
subgroup of 8 invocations computing the 8x8 tile of D at rows 8y, columns 8x, in two steps of
K = 32 (the K of one SIMD8 int8 DPAS), the first step's result being the second step's C.

Per-lane data, from the extension's "Mapping Matrix Data to Invocations" (N = 8 < K = 32, so
each invocation packs K/N = 4 columns of A per row into one 32-bit component, lower columns in
the lower bits; B is passed column per invocation in 32-bit components, four rows each, lower
rows in the lower bits; C and the result one column per invocation, component r = row r):
- A is stored row-major, four int8 per word, so lane l's component r of step s is the word
  A[(8y + r)*16 + 8s + l].
- B is stored "VNNI-packed": word Bv[g*16 + n] holds B[4g .. 4g+3][n], lowest row in the low byte;
  lane l's component i of step s is Bv[(8s + i)*16 + 8x + l].

The expected D is computed here with plain Python integers: C + sum of products over all 64 k,
wrapped to 32 bits (two's complement) -- the extension: integer results "equal the low-order N
bits of the correct result". Nothing here calls spvx.

Run: `python3 examples/dpas_mma.py` (rewrites both files), then `spvx run examples/dpas_mma.toml`.
"""

import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
M, N, K = 16, 16, 64
STEPS = K // 32
FLAGS = "MatrixASignedComponentsINTEL|MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL"


def toml_list(items, per_line=16, indent="  "):
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[\n" + ",\n".join(indent + l for l in lines) + ",\n]"


def wrap32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def data():
    rnd = random.Random(20261122)
    a = [[rnd.randint(-128, 127) for _ in range(K)] for _ in range(M)]
    b = [[rnd.randint(0, 255) for _ in range(N)] for _ in range(K)]
    c = [[rnd.randint(-(2**31), 2**31 - 1) for _ in range(N)] for _ in range(M)]
    # Near the int32 limits, so that the wrap-around shows.
    c[0][0] = 2**31 - 1
    c[9][3] = -(2**31)
    a[0] = [127] * K
    b_col0 = [255] * K
    for k in range(K):
        b[k][0] = b_col0[k]
    return a, b, c


def spvasm():
    ids = []
    out = []

    def emit(line):
        out.append(line)

    consts = sorted({0, 1, 8, 16, 32, STEPS} | set(range(8)))
    emit(f"""; int8 GEMM tiles with OpSubgroupMatrixMultiplyAccumulateINTEL, subgroup size 8 (written by
; dpas_mma.py, which explains the per-lane layout and computes the expected output).
;   D = C + A x B, A {M}x{K} signed int8 (row-major, four per word), B {K}x{N} unsigned int8
;   (VNNI-packed: word g*{N} + n holds B[4g..4g+3][n]), C and D {M}x{N} int32.
; Workgroup (x, y) = one subgroup of 8 invocations: the 8x8 tile of D at rows 8y, columns 8x,
; in {STEPS} steps of K = 32, each step's result the next step's C.
               OpCapability Shader
               OpCapability Vector16
               OpCapability SubgroupMatrixMultiplyAccumulateINTEL
               OpExtension "SPV_INTEL_subgroup_matrix_multiply_accumulate"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %wg %lid %A %B %C %D
               OpExecutionMode %main LocalSize 8 1 1
               OpName %main "main"
               OpName %A "A"
               OpName %B "B"
               OpName %C "C"
               OpName %D "D"
               OpDecorate %wg BuiltIn WorkgroupId
               OpDecorate %lid BuiltIn LocalInvocationId
               OpDecorate %_runtimearr_uint ArrayStride 4
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %A DescriptorSet 0
               OpDecorate %A Binding 0
               OpDecorate %A NonWritable
               OpDecorate %B DescriptorSet 0
               OpDecorate %B Binding 1
               OpDecorate %B NonWritable
               OpDecorate %C DescriptorSet 0
               OpDecorate %C Binding 2
               OpDecorate %C NonWritable
               OpDecorate %D DescriptorSet 0
               OpDecorate %D Binding 3
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
     %v8uint = OpTypeVector %uint 8
%_runtimearr_uint = OpTypeRuntimeArray %uint
        %Buf = OpTypeStruct %_runtimearr_uint
    %ptr_buf = OpTypePointer StorageBuffer %Buf
   %ptr_uint = OpTypePointer StorageBuffer %uint
     %ptr_v3 = OpTypePointer Input %v3uint
         %wg = OpVariable %ptr_v3 Input
        %lid = OpVariable %ptr_v3 Input
          %A = OpVariable %ptr_buf StorageBuffer
          %B = OpVariable %ptr_buf StorageBuffer
          %C = OpVariable %ptr_buf StorageBuffer
          %D = OpVariable %ptr_buf StorageBuffer""")
    for v in consts:
        emit(f"{'%uint_' + str(v):>12} = OpConstant %uint {v}")
    emit(f"""       %main = OpFunction %void None %fn
      %entry = OpLabel
       %wgid = OpLoad %v3uint %wg
         %tx = OpCompositeExtract %uint %wgid 0
         %ty = OpCompositeExtract %uint %wgid 1
       %lidv = OpLoad %v3uint %lid
       %lane = OpCompositeExtract %uint %lidv 0
         %r0 = OpIMul %uint %ty %uint_8
         %c0 = OpIMul %uint %tx %uint_8
        %col = OpIAdd %uint %c0 %lane          ; this invocation's column of C, B and D""")
    # C: component r = C[(r0 + r)*16 + col]
    for r in range(8):
        emit(f"{'%cr' + str(r):>12} = OpIAdd %uint %r0 %uint_{r}")
        emit(f"{'%ci' + str(r):>12} = OpIMul %uint %cr{r} %uint_16")
        emit(f"{'%cx' + str(r):>12} = OpIAdd %uint %ci{r} %col")
        emit(f"{'%cp' + str(r):>12} = OpAccessChain %ptr_uint %C %uint_0 %cx{r}")
        emit(f"{'%cw' + str(r):>12} = OpLoad %uint %cp{r}")
    emit("          %c = OpCompositeConstruct %v8uint " + " ".join(f"%cw{r}" for r in range(8)))
    emit(f"""               OpBranch %header
     %header = OpLabel
          %s = OpPhi %uint %uint_0 %entry %s1 %continue
        %acc = OpPhi %v8uint %c %entry %acc1 %continue
       %more = OpULessThan %bool %s %uint_{STEPS}
               OpLoopMerge %merge %continue None
               OpBranchConditional %more %body %merge
       %body = OpLabel
        %s8 = OpIMul %uint %s %uint_8
      %aword = OpIAdd %uint %s8 %lane          ; word of A's row: 8s + lane (columns 4(8s+lane)..+3)""")
    # A: component r = A[(r0 + r)*16 + 8s + lane]
    for r in range(8):
        emit(f"{'%ax' + str(r):>12} = OpIAdd %uint %ci{r} %aword")
        emit(f"{'%ap' + str(r):>12} = OpAccessChain %ptr_uint %A %uint_0 %ax{r}")
        emit(f"{'%aw' + str(r):>12} = OpLoad %uint %ap{r}")
    emit("          %a = OpCompositeConstruct %v8uint " + " ".join(f"%aw{r}" for r in range(8)))
    # B: component i = Bv[(8s + i)*16 + col]
    for i in range(8):
        emit(f"{'%bg' + str(i):>12} = OpIAdd %uint %s8 %uint_{i}")
        emit(f"{'%bi' + str(i):>12} = OpIMul %uint %bg{i} %uint_16")
        emit(f"{'%bx' + str(i):>12} = OpIAdd %uint %bi{i} %col")
        emit(f"{'%bp' + str(i):>12} = OpAccessChain %ptr_uint %B %uint_0 %bx{i}")
        emit(f"{'%bw' + str(i):>12} = OpLoad %uint %bp{i}")
    emit("          %b = OpCompositeConstruct %v8uint " + " ".join(f"%bw{i}" for i in range(8)))
    emit(f"""       %acc1 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8uint %uint_32 %a %b %acc {FLAGS}
               OpBranch %continue
   %continue = OpLabel
         %s1 = OpIAdd %uint %s %uint_1
               OpBranch %header
      %merge = OpLabel""")
    for r in range(8):
        emit(f"{'%dw' + str(r):>12} = OpCompositeExtract %uint %acc {r}")
        emit(f"{'%dp' + str(r):>12} = OpAccessChain %ptr_uint %D %uint_0 %cx{r}")
        emit(f"               OpStore %dp{r} %dw{r}")
    emit("               OpReturn\n               OpFunctionEnd")
    return "\n".join(out) + "\n"


def toml(a, b, c):
    a_bytes = [str(a[m][k]) for m in range(M) for k in range(K)]
    # VNNI: byte 4*(g*N + n) + t = B[4g + t][n]
    b_bytes = [str(b[4 * g + t][n]) for g in range(K // 4) for n in range(N) for t in range(4)]
    c_flat = [str(c[m][n]) for m in range(M) for n in range(N)]
    d = [
        str(wrap32(c[m][n] + sum(a[m][k] * b[k][n] for k in range(K))))
        for m in range(M)
        for n in range(N)
    ]
    return f"""# int8 GEMM tiles with OpSubgroupMatrixMultiplyAccumulateINTEL (SPV_INTEL_subgroup_matrix_
# multiply_accumulate), subgroup size 8: D = C + A x B, A {M}x{K} s8, B {K}x{N} u8, C/D int32.
# Written by dpas_mma.py, which computes D with plain Python integers (wrapped to 32 bits).
module = "dpas_mma.spvasm"
groups = [{N // 8}, {M // 8}]

[run]
subgroup_size = 8

[[buffer]]
binding = 0
name = "A ({M}x{K} int8, row-major, four per word)"
data = {{ i8 = {toml_list(a_bytes)} }}

[[buffer]]
binding = 1
name = "B ({K}x{N} uint8, VNNI-packed: word g*{N} + n = B[4g..4g+3][n])"
data = {{ u8 = {toml_list(b_bytes)} }}

[[buffer]]
binding = 2
name = "C ({M}x{N} int32)"
data = {{ i32 = {toml_list(c_flat, per_line=8)} }}

[[buffer]]
binding = 3
name = "D ({M}x{N} int32)"
data = {{ zeros = {4 * M * N} }}
expect = {{ i32 = {toml_list(d, per_line=8)} }}
"""


if __name__ == "__main__":
    a, b, c = data()
    with open(os.path.join(HERE, "dpas_mma.spvasm"), "w") as f:
        f.write(spvasm())
    with open(os.path.join(HERE, "dpas_mma.toml"), "w") as f:
        f.write(toml(a, b, c))

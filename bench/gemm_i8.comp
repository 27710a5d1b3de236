// int8 GEMM through packed OpSDotAccSatKHR: C[row][col] = sat-sum over k of A[row][k] * B[k][col].
// A: M rows of K/4 packed words (four int8, component 0 in the low byte); Bt: B transposed,
// N rows of K/4 packed words; C: M x N int32. The accumulator saturates to int32 after each
// packed word (OpSDotAccSat). One invocation per element of C.
// glslang 12 has no GL_EXT_integer_dot_product: the instruction is declared by opcode
// (4453 = OpSDotAccSat; capabilities 6019 DotProduct, 6018 DotProductInput4x8BitPacked).
#version 450
#extension GL_EXT_spirv_intrinsics : require

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const uint N = 256;
layout(constant_id = 1) const uint KW = 256;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer Bt { uint bt[]; };
layout(set = 0, binding = 2) writeonly buffer C { int c[]; };

spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4453)
int sdot_acc_sat_packed(uint x, uint y, int acc, spirv_literal int fmt);

void main() {
    uint col = gl_GlobalInvocationID.x;
    uint row = gl_GlobalInvocationID.y;
    uint abase = row * KW;
    uint bbase = col * KW;
    int acc = 0;
    for (uint k = 0; k < KW; ++k) {
        acc = sdot_acc_sat_packed(a[abase + k], bt[bbase + k], acc, 0);
    }
    c[row * N + col] = acc;
}

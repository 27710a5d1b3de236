// fp32 GEMM: C[row][col] = sum over k of A[row][k] * Bt[col][k], each product and each sum
// rounded in program order (`precise`: NoContraction, so no fused multiply-add on either side;
// the engine and lavapipe then round identically). A: M x K row-major, Bt: B transposed, N x K;
// C: M x N. One invocation per element of C.
#version 450

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const uint N = 256;
layout(constant_id = 1) const uint K = 256;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer Bt { float bt[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };

void main() {
    uint col = gl_GlobalInvocationID.x;
    uint row = gl_GlobalInvocationID.y;
    uint abase = row * K;
    uint bbase = col * K;
    precise float acc = 0.0;
    for (uint k = 0; k < K; ++k) {
        precise float p = a[abase + k] * bt[bbase + k];
        acc = acc + p;
    }
    c[row * N + col] = acc;
}

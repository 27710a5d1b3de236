#version 450
// GLSL.std.450 float functions on fp32: out[f * N + i] = f(x[i]) for the functions below, in
// this order (N = 64 invocations in total).
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float x[64]; float y[64]; } inp;
layout(std430, binding = 1) writeonly buffer Out { float r[]; } outp;

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = inp.x[i], y = inp.y[i];
    float ax = abs(x);
    float r[24] = float[24](
        sin(x), cos(x), tan(x), asin(clamp(x, -1.0, 1.0)), acos(clamp(y, -1.0, 1.0)), atan(x),
        atan(y, x), sinh(x), cosh(x), tanh(x), asinh(x), acosh(1.0 + ax), atanh(clamp(y, -0.99, 0.99)),
        exp(x), exp2(x), log(ax), log2(ax), pow(ax, y), sqrt(ax), inversesqrt(ax),
        radians(x), degrees(x), fract(x), roundEven(x));
    for (int k = 0; k < 24; k++) {
        outp.r[uint(k) * 64u + i] = r[k];
    }
}

#version 450
// int64 and fp64 arithmetic (GL_EXT_shader_explicit_arithmetic_types_int64, fp64).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { int64_t x[32]; double d[32]; } inp;
layout(std430, binding = 1) writeonly buffer Out {
    uint64_t mul[32];
    int64_t div[32];
    int64_t shr[32];
    double f[32];
    double q[32];
    double r[32];
} outp;

void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t x = inp.x[i];
    double d = inp.d[i];
    outp.mul[i] = uint64_t(x) * 0x9E3779B97F4A7C15ul + uint64_t(i);
    outp.div[i] = x / int64_t(i + 1u) + x % 1000l;
    outp.shr[i] = (x >> 7) ^ (x << 13);
    outp.f[i] = fma(d, d, -1.0) + double(x);
    outp.q[i] = d / 3.0 + sqrt(abs(d));
    outp.r[i] = floor(d * 8.0) / 8.0 + double(int(d));
}

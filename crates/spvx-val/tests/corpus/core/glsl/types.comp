#version 450
// 8/16/64-bit integers, half and double floats, conversions and bit operations.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer In { i8vec4 a[]; };
layout(std430, binding = 1) buffer Out { int64_t q[16]; double d[]; };
layout(std430, binding = 2) buffer H { float16_t h[16]; uint16_t u16[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    i8vec4 x = a[i];
    int s = int(x.x) * int(x.y) + int(x.z) - int(x.w);
    int64_t wide = int64_t(s) << 20;
    uint64_t u = uint64_t(wide) ^ 0xffffffff00000000ul;
    double dd = double(wide) * 0.5lf;
    float16_t hh = float16_t(s) * float16_t(0.25);
    uint16_t v = uint16_t(bitCount(uint(s))) | uint16_t(findMSB(s));
    q[i] = int64_t(u >> 3) + wide;
    d[i] = dd + double(hh);
    h[i] = hh;
    u16[i] = v + uint16_t(bitfieldReverse(uint(s)) & 0xffu);
}

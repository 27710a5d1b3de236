#version 450
// 64-bit integer and double constants (two-word literals, low word first) and 16-bit types.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Buf { uint64_t u; int64_t s; double d; float h; int k; } buf;

void main() {
    buf.u = buf.u * 0x0123456789abcdefUL + 0xfedcba9876543210UL;
    buf.s = buf.s - (-81985529216486895L);
    buf.d = buf.d * 1.0000000000000002LF + 3.141592653589793LF;
    float16_t h = float16_t(buf.h) * float16_t(1.5);
    buf.h = float(h);
    int16_t k = int16_t(buf.k) * int16_t(-3);
    buf.k = int(k);
}

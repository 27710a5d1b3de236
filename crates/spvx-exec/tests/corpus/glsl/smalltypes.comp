#version 450
// 8- and 16-bit storage and arithmetic (GL_EXT_shader_8bit_storage, _16bit_storage,
// explicit arithmetic types int8/int16/float16), including wrap-around and conversions.
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In {
    int8_t a[64];
    uint8_t b[64];
    int16_t c[64];
    float16_t h[64];
} inp;
layout(std430, binding = 1) writeonly buffer Out {
    int8_t s8[64];      // a + b (int8 wrap)
    uint8_t m8[64];     // uint8 product
    int16_t p16[64];    // int16 product of a and c
    uint16_t sh16[64];  // shifts on uint16
    float16_t f[64];    // fp16 fma-free expression
    int i32[64];        // widened sum
} outp;

void main() {
    uint i = gl_GlobalInvocationID.x;
    int8_t a = inp.a[i];
    uint8_t b = inp.b[i];
    int16_t c = inp.c[i];
    float16_t h = inp.h[i];
    outp.s8[i] = a + int8_t(b);
    outp.m8[i] = b * uint8_t(a);
    outp.p16[i] = int16_t(a) * c;
    outp.sh16[i] = (uint16_t(c) >> 3) ^ (uint16_t(b) << 9);
    outp.f[i] = h * float16_t(a) + float16_t(c);
    outp.i32[i] = int(a) + int(b) + int(c) + int(h);
}

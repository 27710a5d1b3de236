#version 450
// 8- and 16-bit storage and arithmetic: int8/uint8/int16/float16 inputs, widening and
// narrowing conversions, 16-bit float add/multiply (correctly rounded per Vulkan), 8-bit
// wrap-around, and 8/16-bit outputs.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A8 { int8_t a[]; } a8;
layout(std430, binding = 1) readonly buffer B8 { uint8_t b[]; } b8;
layout(std430, binding = 2) readonly buffer C16 { int16_t c[]; } c16;
layout(std430, binding = 3) readonly buffer H16 { float16_t h[]; } h16;
layout(std430, binding = 4) writeonly buffer O8 { uint8_t o[]; } o8;
layout(std430, binding = 5) writeonly buffer O16 { int16_t o[]; } o16;
layout(std430, binding = 6) writeonly buffer OH { float16_t o[]; } oh;
layout(std430, binding = 7) writeonly buffer O32 { int o[]; } o32;

void main() {
    uint g = gl_GlobalInvocationID.x;
    int8_t a = a8.a[g];
    uint8_t b = b8.b[g];
    int16_t c = c16.c[g];
    float16_t h = h16.h[g];
    o8.o[2u * g] = uint8_t(a) + b;
    o8.o[2u * g + 1u] = uint8_t(b * uint8_t(3)) ^ uint8_t(a);
    o16.o[2u * g] = int16_t(a) * int16_t(b) + c;
    o16.o[2u * g + 1u] = c >> 3;
    oh.o[2u * g] = h * float16_t(0.5) + float16_t(a);
    oh.o[2u * g + 1u] = h + h16.h[g ^ 1u];
    o32.o[g] = int(a) * int(c) - int(b);
}

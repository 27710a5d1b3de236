// Float <-> integer conversions the JIT compiles natively (fp32/fp64 to 8/16/32/64-bit
// integers, truncating and saturating, NaN to 0; integers to fp32/fp64 rounded to nearest
// even), each input value through every conversion.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer F { float f[]; };
layout(set = 0, binding = 1) readonly buffer D { double d[]; };
layout(set = 0, binding = 2) readonly buffer I { int64_t q[]; };
layout(set = 0, binding = 3) writeonly buffer O { uint64_t o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint b = i * 24u;
    float x = f[i];
    double y = d[i];
    o[b + 0u] = uint64_t(uint8_t(int8_t(x)));
    o[b + 1u] = uint64_t(uint8_t(x));
    o[b + 2u] = uint64_t(uint16_t(int16_t(x)));
    o[b + 3u] = uint64_t(uint16_t(x));
    o[b + 4u] = uint64_t(uint(int(x)));
    o[b + 5u] = uint64_t(uint(x));
    o[b + 6u] = uint64_t(int64_t(x));
    o[b + 7u] = uint64_t(x);
    o[b + 8u] = uint64_t(uint(int(y)));
    o[b + 9u] = uint64_t(uint(y));
    o[b + 10u] = uint64_t(int64_t(y));
    o[b + 11u] = uint64_t(y);
    o[b + 12u] = uint64_t(uint16_t(int16_t(y)));
    o[b + 13u] = uint64_t(uint8_t(y));
    int64_t v = q[i];
    o[b + 14u] = uint64_t(floatBitsToUint(float(int(v))));
    o[b + 15u] = uint64_t(floatBitsToUint(float(uint(v))));
    o[b + 16u] = doubleBitsToUint64(double(int(v)));
    o[b + 17u] = doubleBitsToUint64(double(uint(v)));
    o[b + 18u] = uint64_t(floatBitsToUint(float(v)));
    o[b + 19u] = doubleBitsToUint64(double(v));
    o[b + 20u] = uint64_t(floatBitsToUint(float(int16_t(v))));
    o[b + 21u] = uint64_t(floatBitsToUint(float(uint8_t(v))));
    o[b + 22u] = doubleBitsToUint64(double(uint16_t(v)));
    o[b + 23u] = uint64_t(floatBitsToUint(float(uint64_t(v))));
}

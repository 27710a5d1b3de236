// Multiplications by constants (jit/lower_ops.rs `mul_by`: 2^k + 1 and 2^k − 1 as a shift and
// an add or subtract, others as a multiplication), 8-, 16-, 32- and 64-bit, including
// 2^32 − 1, 2^64 − 1 and 2^63 + 1, each modulo 2^width.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uint64_t x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint64_t o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t v = x[i];
    uint w = uint(v);
    uint b = i * 16u;
    o[b + 0u] = uint64_t(w * 3u);
    o[b + 1u] = uint64_t(w * 5u);
    o[b + 2u] = uint64_t(w * 9u);
    o[b + 3u] = uint64_t(w * 7u);
    o[b + 4u] = uint64_t(w * 31u);
    o[b + 5u] = uint64_t(w * 33u);
    o[b + 6u] = uint64_t(w * 0xffffffffu);
    o[b + 7u] = uint64_t(w * 0x80000001u);
    o[b + 8u] = uint64_t(uint(int(w) * -1));
    o[b + 9u] = v * 0xffffffffffffffffUL;
    o[b + 10u] = v * 0x8000000000000001UL;
    o[b + 11u] = v * 0x100000001UL;
    o[b + 12u] = uint64_t(uint16_t(w) * uint16_t(255));
    o[b + 13u] = uint64_t(uint8_t(w) * uint8_t(17));
    o[b + 14u] = uint64_t(w * 6u);
    o[b + 15u] = v * 0x7fffffffffffffffUL;
}

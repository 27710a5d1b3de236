// Vector lanes (jit::simd): unsigned divisions and remainders by constants, on whole vectors by
// a multiplication (Granlund and Montgomery) or a shift, for divisors of every kind: 1, powers
// of two, small odd and even ones, ones that need the 33-bit multiplier, 2^31 ± 1, 2^32 − 2 and
// 2^32 − 1.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = inp[i];
    uint b = 32u * i;
    o[b + 0u] = x / 1u;        o[b + 1u] = x % 1u;
    o[b + 2u] = x / 8u;        o[b + 3u] = x % 8u;
    o[b + 4u] = x / 3u;        o[b + 5u] = x % 3u;
    o[b + 6u] = x / 7u;        o[b + 7u] = x % 7u;
    o[b + 8u] = x / 10u;       o[b + 9u] = x % 10u;
    o[b + 10u] = x / 641u;     o[b + 11u] = x % 641u;
    o[b + 12u] = x / 100000u;  o[b + 13u] = x % 100000u;
    o[b + 14u] = x / 65535u;   o[b + 15u] = x % 65535u;
    o[b + 16u] = x / 65537u;   o[b + 17u] = x % 65537u;
    o[b + 18u] = x / 0x7fffffffu; o[b + 19u] = x % 0x7fffffffu;
    o[b + 20u] = x / 0x80000000u; o[b + 21u] = x % 0x80000000u;
    o[b + 22u] = x / 0x80000001u; o[b + 23u] = x % 0x80000001u;
    o[b + 24u] = x / 0xfffffffeu; o[b + 25u] = x % 0xfffffffeu;
    o[b + 26u] = x / 0xffffffffu; o[b + 27u] = x % 0xffffffffu;
    o[b + 28u] = x / 6u;       o[b + 29u] = x % 6u;
    o[b + 30u] = x / 25u;      o[b + 31u] = x % 25u;
}

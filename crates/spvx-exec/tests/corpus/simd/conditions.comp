// Vector lanes (jit::simd): conditions of every integer comparison, combined with &&, || and !
// into branches and selects (the vector lanes keep x ≠ y, x < y unsigned and the like as the
// negation of a compare x86 has), constant factors made shift and add or subtract (3, 9, 31,
// 2^32 − 1, 2^31 + 1), unsigned divisions and remainders by constants, per-invocation trip
// counts, an early return and a break, in workgroups of 64 invocations (lanes that finish take
// the next invocations).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint outp[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = inp[i];
    uint acc = 0u;
    uint n = x % 37u;
    if (x % 11u == 3u) {
        outp[i] = 0xdeadu;
        return;
    }
    for (uint k = 0u; k < n; k++) {
        uint y = x * 3u + k * 31u;
        int sy = int(y);
        bool a = y != x;
        bool b = y < 1000000u;
        bool c = sy >= -5;
        bool d = sy <= 77;
        bool e = y > 4000000000u;
        if ((a && b) || (c && !d)) {
            acc += y / 7u;
        } else {
            acc ^= y % 100000u;
        }
        acc += (e || !a) ? 1u : ((d && c) ? 2u : 5u);
        acc = acc * 0xffffffffu + (y >> 3);
        x = x * 9u + 0x80000001u * k;
        if (acc == 12345u) {
            break;
        }
    }
    outp[i] = acc ^ x;
}

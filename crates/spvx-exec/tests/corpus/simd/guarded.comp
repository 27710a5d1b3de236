// Vector lanes (jit::simd): undefined cases only in some lanes. in[0] chooses the lane that
// reads out of bounds (none when ≥ 64) and in[1] the lane that divides (by in[2 + i], which
// may be 0): inactive lanes must not bail, an active one must.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(set = 0, binding = 1) buffer Out { uint outp[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r = i * 7u;
    if (i == inp[0]) {
        r += inp[i + 100000u];
    }
    uint d = inp[2u + i];
    if (i == inp[1]) {
        r += 1000u / d;
    }
    uint n = 0u;
    while (n < (i & 3u) * 5u) {
        n += 1u;
        if ((n ^ i) == 9u) {
            r = r * 3u / (d | 1u);
        }
    }
    outp[i] = r + n;
}

// Vector lanes (jit::simd): divergent loops and branches with different trip counts per lane,
// break and continue, early return, signed and unsigned division and remainders, shifts by
// per-lane amounts, float arithmetic and comparisons (NaN included), selects and booleans.
#version 450
layout(local_size_x = 13) in;
layout(set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(set = 0, binding = 1) buffer Out { uint outp[]; };
layout(set = 0, binding = 2) buffer F { float fl[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = inp[i] % 1000u + 1u;
    uint steps = 0u;
    uint mix = 0u;
    while (x != 1u && steps < 300u) {
        if ((x & 1u) == 0u) {
            x = x >> 1;
        } else {
            x = 3u * x + 1u;
        }
        if ((x & 7u) == 5u) {
            steps += 2u;
            continue;
        }
        if (mix > 4000000000u) {
            break;
        }
        mix = mix * 31u + (x ^ steps);
        steps += 1u;
    }
    outp[i] = steps ^ (mix << 8);
    if ((inp[i] & 15u) == 3u) {
        return;
    }
    int s = int(inp[i]);
    int d = int(inp[i] >> 7) | 1;
    uint amount = inp[i] & 31u;
    outp[i + 64u] = uint(s / d) + uint(s % d) * 3u + ((inp[i] >> 3) << amount) + uint(s >> (amount & 15u));
    float a = fl[i];
    float b = fl[(i + 1u) % 64u];
    float c = a * b - a / b;
    bool lt = a < b;
    bool un = !(a >= b);
    fl[i + 64u] = lt ? c : a + b;
    outp[i + 128u] = (lt ? 1u : 0u) | (un ? 2u : 0u) | (a == b ? 4u : 0u) | (a != b ? 8u : 0u)
        | (c <= a ? 16u : 0u) | (-c > b ? 32u : 0u);
    for (uint k = 0u; k < (inp[i] & 7u); k++) {
        if (k == 4u) break;
        outp[i + 192u] += k * x + 1u;
    }
}

#version 450
// Loops with break and continue, a nested loop, and a switch with fall-through and default.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Buf { uint v[]; } buf;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = buf.v[i];
    // Collatz steps until 1, at most 200; odd steps counted separately.
    uint steps = 0u, odd = 0u;
    for (uint k = 0u; k < 200u; k++) {
        if (n == 1u) break;
        steps++;
        if ((n & 1u) == 0u) { n /= 2u; continue; }
        odd++;
        n = 3u * n + 1u;
    }
    uint acc = 0u;
    uint j = 0u;
    while (true) {
        j++;
        if (j > i % 7u + 2u) break;
        for (uint m = 0u; m < j; m++) {
            if (m == 3u) continue;
            acc += m * j;
        }
    }
    uint s;
    switch (i % 6u) {
    case 0u: s = 10u; break;
    case 1u:
    case 2u: s = 20u + i; break;
    case 3u: s = 30u;  // falls through
    case 4u: s = (i % 6u == 3u ? 31u : 0u) + 40u; break;
    default: s = 99u;
    }
    buf.v[i] = steps | (odd << 8) | (acc << 16);
    buf.v[i + 32u] = s;
}

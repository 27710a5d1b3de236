// Branches the JIT may turn into selects (short pure arms) next to ones it must not (an arm
// with a division, a shift by a variable amount, a store): on inputs whose taken paths are
// defined, the JIT runs it and gives the interpreter's bytes.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
layout(set = 0, binding = 1) buffer O { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[2u * i];
    uint d = v[2u * i + 1u] % 7u;
    uint acc = 0u;
    for (uint k = 0u; k < 16u; k++) {
        if ((x & 1u) == 0u) { x = x >> 1; } else { x = x * 3u + 1u; }
        if (d != 0u) { acc += x / d; } else { acc ^= x; }
        uint sh = x & 31u;
        if (sh < 16u) { acc += x << sh; }
        if (x > 1000u) { x = x % 977u; o[i * 17u + k] = x; }
        int sx = int(x) - 500;
        acc += (sx < 0) ? uint(-sx) : uint(sx) * 2u;
    }
    o[i * 17u + 16u] = acc;
}

#version 450
// Data-dependent loops: each invocation runs the Collatz iteration from its input (at most
// 500 steps), with break and continue, and a nested loop whose trip count depends on the
// invocation; divergent lanes reconverge before the subgroup-uniform tail.
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint n = inp.x[g] % 100000u + 1u;
    uint steps = 0u;
    uint peak = n;
    for (uint i = 0u; i < 500u; i++) {
        if (n == 1u) {
            break;
        }
        steps++;
        if ((n & 1u) == 0u) {
            n >>= 1;
            continue;
        }
        n = 3u * n + 1u;
        peak = max(peak, n);
    }
    uint acc = 0u;
    for (uint i = 0u; i < (g & 15u); i++) {
        for (uint j = 0u; j <= i; j++) {
            if (((i ^ j) & 3u) == 0u) {
                continue;
            }
            acc = acc * 31u + i * j + steps;
        }
    }
    outp.r[3u * g] = steps;
    outp.r[3u * g + 1u] = peak;
    outp.r[3u * g + 2u] = acc;
}

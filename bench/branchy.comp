// Branch-heavy with divergence: per element, the number of Collatz steps (at most 255) of
// x = in[i] % 100000 + 1, plus a data-dependent branch inside the loop on (x & 3). Neighbouring
// invocations take different trip counts and different sides of each branch.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint outp[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = inp[i] % 100000u + 1u;
    uint steps = 0u;
    uint mix = 0u;
    while (x != 1u && steps < 255u) {
        if ((x & 1u) == 0u) {
            x = x >> 1;
        } else {
            x = 3u * x + 1u;
        }
        if ((x & 3u) == 3u) {
            mix = mix * 31u + x;
        } else {
            mix ^= x << 3;
        }
        steps += 1u;
    }
    outp[i] = steps ^ (mix << 8);
}

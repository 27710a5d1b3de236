// fp32 chains the JIT keeps in float registers (jit/floats.rs): an accumulator carried around
// a loop through + − × ÷, loop phis, a comparison that picks the branch and a copy, each step
// stored as bits. The inputs hold ±∞, NaNs of both signs and several payloads, a signalling
// NaN, subnormals and ±0, so that NaN results (∞ − ∞, 0 × ∞, 0 / 0) and NaN operands pass
// along the chain: every stored NaN must be the canonical 0x7fc00000.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    precise float acc = a[i] * 1.0;
    precise float alt = 0.0;
    uint lt = 0u;
    for (uint k = 0u; k < 16u; ++k) {
        float x = a[(i + k * 7u) % 64u];
        if (acc < x) {
            acc = acc * x - alt;
            lt += 1u;
        } else {
            acc = (acc + x) / (x - alt);
        }
        precise float kept = acc;
        alt = alt + kept;
        o[i * 18u + k] = floatBitsToUint(acc);
    }
    o[i * 18u + 16u] = floatBitsToUint(alt);
    o[i * 18u + 17u] = lt;
}

// Uniform barriers the JIT must run itself: a barrier in an inner loop inside an outer loop
// (each a dynamic instance per iteration), a barrier under a branch on the workgroup id
// (uniform in the workgroup), and a value carried across barriers in registers.
#version 450
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
layout(set = 0, binding = 1) buffer O { uint o[]; };
shared uint s[32];

void main() {
    uint l = gl_LocalInvocationIndex;
    uint base = gl_WorkGroupID.x * 32u;
    uint carried = v[base + l] * 7u;
    s[l] = v[base + l];
    barrier();
    for (uint round = 0u; round < 3u; round++) {
        for (uint step = 1u; step < 32u; step *= 2u) {
            uint other = s[(l + step) % 32u];
            barrier();
            s[l] = s[l] + (other ^ round);
            barrier();
        }
        carried += s[l];
    }
    if (gl_WorkGroupID.x % 2u == 1u) {
        s[l] = carried;
        barrier();
        carried = s[31u - l];
    }
    o[base + l] = carried;
}

// Workgroup-memory reduction with barriers: each workgroup of 256 invocations sums 1024 uint32
// (wrapping) with a shared-memory tree; out[group] = that sum.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint outp[]; };

shared uint partial[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * 1024u;
    partial[l] = inp[base + l] + inp[base + l + 256u] + inp[base + l + 512u] + inp[base + l + 768u];
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (l < s) {
            partial[l] += partial[l + s];
        }
        barrier();
    }
    if (l == 0u) {
        outp[gl_WorkGroupID.x] = partial[0];
    }
}

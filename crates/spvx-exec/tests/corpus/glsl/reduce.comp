#version 450
// Workgroup-memory tree reduction with barrier(): each workgroup sums its 128 inputs and
// writes the sum; every step reads partial sums other invocations wrote in the step before,
// so the result is wrong unless the invocations synchronise at each barrier.
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { uint sums[]; } outp;
shared uint part[128];

void main() {
    uint l = gl_LocalInvocationID.x;
    part[l] = inp.x[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 64u; s > 0u; s >>= 1) {
        if (l < s) {
            part[l] += part[l + s];
        }
        barrier();
    }
    if (l == 0u) {
        outp.sums[gl_WorkGroupID.x] = part[0];
    }
    // Every invocation also reads the total after the last barrier.
    outp.sums[gl_NumWorkGroups.x + gl_GlobalInvocationID.x] = part[0] - part[l];
}

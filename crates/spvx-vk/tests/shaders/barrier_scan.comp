#version 450
// Inclusive prefix sum of each workgroup's 64 inputs in shared memory (Hillis-Steele): every
// step reads values other invocations wrote in the step before, so it is only right when the
// barriers synchronise the workgroup. Also writes the workgroup total through shared memory.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { uint scan[]; } outp;
layout(std430, binding = 2) writeonly buffer Totals { uint t[]; } totals;
shared uint buf[2][64];

void main() {
    uint l = gl_LocalInvocationID.x;
    buf[0][l] = inp.x[gl_GlobalInvocationID.x];
    barrier();
    uint src = 0u;
    for (uint d = 1u; d < 64u; d <<= 1) {
        uint v = buf[src][l];
        if (l >= d) {
            v += buf[src][l - d];
        }
        buf[1u - src][l] = v;
        src = 1u - src;
        barrier();
    }
    outp.scan[gl_GlobalInvocationID.x] = buf[src][l];
    if (l == 0u) {
        totals.t[gl_WorkGroupID.x] = buf[src][63];
    }
}

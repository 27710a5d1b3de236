#version 450
// Subgroup arithmetic, ballot, shuffle and election (GL_KHR_shader_subgroup_*).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int x[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { int r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    int v = inp.x[g];
    uint o = g * 10u;
    outp.r[o + 0u] = subgroupAdd(v);
    outp.r[o + 1u] = subgroupInclusiveAdd(v);
    outp.r[o + 2u] = subgroupExclusiveMax(v);
    outp.r[o + 3u] = subgroupMin(v);
    uvec4 b = subgroupBallot(v > 0);
    outp.r[o + 4u] = int(b.x);
    outp.r[o + 5u] = bitCount(b.x) + bitCount(b.y);
    outp.r[o + 6u] = subgroupShuffle(v, (gl_SubgroupInvocationID * 5u + 3u) % gl_SubgroupSize);
    outp.r[o + 7u] = subgroupShuffleXor(v, 1u) + subgroupShuffleDown(v, 2u);
    outp.r[o + 8u] = subgroupBroadcastFirst(v) + (subgroupElect() ? 1000 : 0);
    // Divergent: only odd values take part in the sum.
    int odd = 0;
    if ((v & 1) != 0) {
        odd = subgroupAdd(v);
    }
    outp.r[o + 9u] = odd + (subgroupAll(v > -100) ? 1 : 0) * 100000;
}

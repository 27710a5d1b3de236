#version 450
// Subgroup operations over uint inputs: arithmetic reductions and scans, ballot, shuffles,
// broadcast and elect. Eight results per invocation. The engine runs with the device's
// subgroup size; a partial last subgroup is avoided (64 is a multiple of 4, 8 and 16).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint v = inp.x[g];
    uint base = g * 8u;
    // Shuffling down from the last lane reads a lane that does not exist: undefined in SPIR-V
    // (the engine gives 0, lavapipe the next subgroup's value), so that lane takes 0 here.
    uint down = subgroupShuffleDown(v, 1u);
    down = gl_SubgroupInvocationID + 1u < gl_SubgroupSize ? down : 0u;
    outp.r[base + 0u] = subgroupAdd(v);
    outp.r[base + 1u] = subgroupInclusiveAdd(v);
    outp.r[base + 2u] = subgroupExclusiveMax(v);
    outp.r[base + 3u] = subgroupBallot((v & 1u) == 1u).x;
    outp.r[base + 4u] = subgroupShuffleXor(v, 1u);
    outp.r[base + 5u] = subgroupBroadcastFirst(v) ^ subgroupMin(v);
    outp.r[base + 6u] = subgroupElect() ? gl_SubgroupInvocationID : 1000u + gl_SubgroupSize;
    outp.r[base + 7u] = (subgroupAll(v != 0u) ? 1u : 0u) | (subgroupAny(v == 7u) ? 2u : 0u)
        | (down & 0xff00u);
}

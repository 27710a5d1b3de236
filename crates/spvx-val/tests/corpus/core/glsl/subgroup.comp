#version 450
// Subgroup operations and a loop whose exit depends on a ballot.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Buf { float v[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = v[i];
    float total = subgroupAdd(x);
    uint first = subgroupBroadcastFirst(i);
    uvec4 mask = subgroupBallot(x > 0.0);
    int rounds = 0;
    while (subgroupAny(x > 1.0) && rounds < 8) { x *= 0.5; rounds++; }
    if (subgroupElect()) v[first] = total + float(subgroupBallotBitCount(mask));
    v[i] = x + float(gl_SubgroupInvocationID);
}

#version 450
// Partitioned subgroup operations (GL_NV_shader_subgroup_partitioned): partition by a key,
// then partitioned add / inclusive min / exclusive add over each partition, also in a
// divergent branch.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_NV_shader_subgroup_partitioned : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint v = inp.x[g];
    uint key = v % 3u;
    uvec4 p = subgroupPartitionNV(key);
    uint o = g * 6u;
    outp.r[o + 0u] = p.x;
    outp.r[o + 1u] = p.y;
    outp.r[o + 2u] = subgroupPartitionedAddNV(v, p);
    outp.r[o + 3u] = subgroupPartitionedInclusiveMinNV(v, p);
    outp.r[o + 4u] = subgroupPartitionedExclusiveAddNV(v, p);
    uint d = 0xffffffffu;
    if (v >= 20u) {
        d = subgroupPartitionedAddNV(v, subgroupPartitionNV(v & 1u));
    }
    outp.r[o + 5u] = d;
}

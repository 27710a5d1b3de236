// Every compute built-in an invocation can read, written out per invocation: the engine keeps
// these in registers (filled per subgroup start, or once per dispatch for the uniform ones).
// A 5x3x1 workgroup: with subgroups of 4 its last subgroup is partly filled.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 5, local_size_y = 3, local_size_z = 1) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint y[]; };

void main() {
    uvec3 wg = gl_WorkGroupID;
    uvec3 n = gl_NumWorkGroups;
    uint g = gl_LocalInvocationIndex + 15u * (wg.x + n.x * (wg.y + n.y * wg.z));
    uint o = g * 17u;
    y[o + 0u] = gl_GlobalInvocationID.x;
    y[o + 1u] = gl_GlobalInvocationID.y;
    y[o + 2u] = gl_GlobalInvocationID.z;
    y[o + 3u] = gl_LocalInvocationID.x;
    y[o + 4u] = gl_LocalInvocationID.y;
    y[o + 5u] = gl_LocalInvocationID.z;
    y[o + 6u] = wg.x;
    y[o + 7u] = wg.y;
    y[o + 8u] = wg.z;
    y[o + 9u] = n.x;
    y[o + 10u] = n.y;
    y[o + 11u] = n.z;
    y[o + 12u] = gl_LocalInvocationIndex;
    y[o + 13u] = gl_SubgroupSize;
    y[o + 14u] = gl_SubgroupInvocationID;
    y[o + 15u] = gl_SubgroupID;
    y[o + 16u] = gl_NumSubgroups;
}

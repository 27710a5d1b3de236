// Every built-in the native workgroup loop computes, read in a kernel without loops (so the
// entry function is inlined into the loop, whose row-invariant components are stored once per
// row and all of them forwarded to the inlined reads: jit/inline.rs `forward_builtins`), over
// a 3-D workgroup and a 3-D dispatch: each invocation writes them to its own 12 words.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 4, local_size_y = 3, local_size_z = 2) in;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };

void main() {
    uvec3 n = gl_NumWorkGroups;
    uint group = gl_WorkGroupID.x + n.x * (gl_WorkGroupID.y + n.y * gl_WorkGroupID.z);
    uint i = 12u * (gl_LocalInvocationIndex + 24u * group);
    o[i] = gl_GlobalInvocationID.x;
    o[i + 1u] = gl_GlobalInvocationID.y;
    o[i + 2u] = gl_GlobalInvocationID.z;
    o[i + 3u] = gl_LocalInvocationID.x;
    o[i + 4u] = gl_LocalInvocationID.y;
    o[i + 5u] = gl_LocalInvocationID.z;
    o[i + 6u] = gl_WorkGroupID.x;
    o[i + 7u] = gl_WorkGroupID.y;
    o[i + 8u] = gl_WorkGroupID.z;
    o[i + 9u] = gl_LocalInvocationIndex;
    o[i + 10u] = gl_SubgroupInvocationID;
    o[i + 11u] = gl_SubgroupID;
}

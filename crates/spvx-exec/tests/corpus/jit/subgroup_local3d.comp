// LocalInvocationId over a 3-D workgroup (4 × 3 × 2) split into subgroups that straddle its
// rows, in a program with a subgroup instruction (the lanes function computes the built-ins;
// the driver advances LocalInvocationId a whole subgroup at a time, jit/driver.rs
// `advance_by`). Each invocation stores its LocalInvocationId, WorkgroupId.x and its
// subgroup's sum of LocalInvocationIndex.
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 4, local_size_y = 3, local_size_z = 2) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };

void main() {
    uint i = gl_LocalInvocationIndex + 24u * gl_WorkGroupID.x;
    uint s = subgroupAdd(gl_LocalInvocationIndex);
    o[5u * i + 0u] = gl_LocalInvocationID.x;
    o[5u * i + 1u] = gl_LocalInvocationID.y;
    o[5u * i + 2u] = gl_LocalInvocationID.z;
    o[5u * i + 3u] = gl_WorkGroupID.x;
    o[5u * i + 4u] = s;
}

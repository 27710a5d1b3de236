// Built-in components read singly (jit/lower_loop.rs `trim_to_reads`: the workgroup loop stores
// only the components up to the last one read): GlobalInvocationID.y alone, LocalInvocationID.z
// alone, WorkGroupID.x and .y (z unread), over a 3-D workgroup and a 2-D dispatch.
#version 450
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };

void main() {
    uint i = gl_LocalInvocationIndex + 16u * (gl_WorkGroupID.x + 2u * gl_WorkGroupID.y);
    o[2u * i] = gl_GlobalInvocationID.y;
    o[2u * i + 1u] = gl_LocalInvocationID.z * 100u;
}

// Vector lanes (jit::simd): several workgroups per call (consecutive in x; lanes go on from one
// workgroup's invocations to the next), over a 3-D dispatch of 3-D workgroups with rows of
// workgroups not a multiple of the batch: every invocation writes its built-ins and a loop
// count that differs from its neighbours', so that lanes of two workgroups run side by side.
#version 450
layout(local_size_x = 3, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };

void main() {
    uvec3 g = gl_GlobalInvocationID;
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    uint at = g.x + n.x * (g.y + n.y * g.z);
    uint acc = 0u;
    uint trips = (g.x * 7u + g.y * 3u + g.z) % 9u;
    for (uint k = 0u; k < trips; k++) {
        acc = acc * 5u + k + 1u;
    }
    uvec3 w = gl_WorkGroupID;
    uvec3 l = gl_LocalInvocationID;
    o[4u * at] = w.x | (w.y << 8) | (w.z << 16);
    o[4u * at + 1u] = l.x | (l.y << 8) | (l.z << 16) | (gl_LocalInvocationIndex << 24);
    o[4u * at + 2u] = g.x | (g.y << 8) | (g.z << 16);
    o[4u * at + 3u] = acc;
}

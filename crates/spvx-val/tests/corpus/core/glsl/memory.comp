#version 450
// Structs, arrays, matrices, shared memory, barriers, atomics, function out-parameters.
layout(local_size_x = 8, local_size_y = 8) in;
struct Item { vec4 pos; mat3 rot; int tags[4]; };
layout(std430, binding = 0) buffer Items { Item items[]; };
layout(std140, binding = 1) uniform Params { mat4 m; vec3 scale; uint count; } params;
layout(std430, binding = 2) buffer Counter { uint hits; float sums[]; };
shared float tile[64];

void split(in vec4 p, out vec3 xyz, inout float w) { xyz = p.xyz; w += p.w; }

void main() {
    uint id = gl_LocalInvocationIndex;
    Item it = items[gl_WorkGroupID.x];
    vec3 xyz; float w = 1.0;
    split(params.m * it.pos, xyz, w);
    xyz = it.rot * (xyz * params.scale);
    tile[id] = dot(xyz, vec3(w)) + float(it.tags[id & 3u]);
    barrier();
    memoryBarrierShared();
    float s = 0.0;
    for (uint k = 0; k < 64u; k++) s += tile[k];
    if (id == 0u) {
        atomicAdd(hits, 1u);
        sums[gl_WorkGroupID.x] = s / float(params.count);
    }
    items[gl_WorkGroupID.x].tags[id & 3u] = int(s);
}

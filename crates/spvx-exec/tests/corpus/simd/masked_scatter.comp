// Vector lanes (jit::simd): a store through an array index in a branch that the even lanes
// take, so that the masked version scatters for two lanes of each four (`mem.rs`
// `index_addresses`, as for masked_gather.comp). idx[i] is lane i's index into data (64 words
// after 4 of head): in bounds up to the last word; one past the end or far out in an even
// lane (the interpreter must report it and the vector lanes go to it), or in an odd lane (not
// stored: no report, no bail).
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer Idx { uint idx[]; };
layout(set = 0, binding = 1) buffer Data { uint head[4]; uint data[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = idx[i];
    if ((i & 1u) == 0u) {
        data[k] = i * 1000u + 7u;
    }
}

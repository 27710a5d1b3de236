// Vector lanes (jit::simd): a load through an array index in a branch that the even lanes
// take, so that the masked version gathers for two lanes of each four (`mem.rs`
// `index_addresses`). idx[i] is lane i's index into data (64 words after 4 of head): in
// bounds up to the last word; one past the end or far out in an even lane (the interpreter
// must report it and the vector lanes go to it), or in an odd lane (not loaded: no report, no
// bail).
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer Idx { uint idx[]; };
layout(set = 0, binding = 1) readonly buffer Data { uint head[4]; uint data[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint outp[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = idx[i];
    uint r = i * 1000u;
    if ((i & 1u) == 0u) {
        r += data[k];
    }
    outp[i] = r;
}

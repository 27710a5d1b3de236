// Vector lanes (jit::simd): a load and a store by one active lane alone (a masked version with
// one lane, `mem::one_lane`). in[0] picks the lane (none when >= 16), in[1] the word it reads
// from `inp` and in[2] the word it writes in `outp`, at or just past the end of either buffer.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(set = 0, binding = 1) buffer Out { uint outp[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r = i * 3u;
    if (i == inp[0]) {
        r += inp[inp[1]];
        outp[inp[2]] = r ^ 0x5au;
    }
    outp[i] = r;
}

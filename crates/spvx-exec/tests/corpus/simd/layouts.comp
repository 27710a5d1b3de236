// The vector lanes' loads and stores tried whole (jit/simd/mem.rs, pattern.rs): a load
// expected the same in every lane (`uni`, indexed by the row), loads and a store expected one
// after another in lane order (`seq` by x, `out`), a strided load (`str`, 5 words apart); with
// workgroups 3 wide the four lanes often hold invocations of different rows or workgroups and
// the whole accesses must fall back to lane by lane. `extra` moves the row's
// index past the end of `uni` for the invocations with gid.x == pick, or for every invocation
// when pick is 0xffffffff (out of bounds in some lanes, or in all of them). The workgroup's
// width is specialisation constant 1 (3: lanes of different rows; 8: whole accesses).
#version 450

layout(local_size_x_id = 1, local_size_y = 2) in;
layout(constant_id = 1) const uint WIDTH = 3;
layout(constant_id = 0) const uint K = 6;

layout(set = 0, binding = 0) readonly buffer U { uint uni[]; };
layout(set = 0, binding = 1) readonly buffer S { uint seq[]; };
layout(set = 0, binding = 2) readonly buffer T { uint str[]; };
layout(set = 0, binding = 3) buffer O { uint out_[]; };
layout(set = 0, binding = 4) readonly buffer P { uint pick; uint extra; };

void main() {
    uint x = gl_GlobalInvocationID.x;
    uint y = gl_GlobalInvocationID.y;
    uint w = gl_NumWorkGroups.x * WIDTH;
    uint acc = 0u;
    uint bump = (x == pick || pick == 0xffffffffu) ? extra : 0u;
    for (uint k = 0u; k < K; ++k) {
        uint u = uni[y * K + k + bump];
        uint s = seq[x + k];
        uint t = str[x * 5u + k];
        acc = acc * 3u + (u ^ (s << 1)) + t * (k + 1u);
    }
    out_[y * w + x] = acc;
}

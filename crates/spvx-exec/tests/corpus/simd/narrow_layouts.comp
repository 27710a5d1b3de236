// The vector lanes' loads of 8- and 16-bit leaves (jit/simd/mem.rs): a byte and a 16-bit
// word expected the same in every lane (indexed by the row), and ones stepping by one leaf
// (indexed by x: not whole vectors, lane by lane), summed in a loop so that the vector lanes
// take it. Workgroups 8 wide: the four lanes share a row in most sweeps.
#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require

layout(local_size_x = 8, local_size_y = 2) in;

layout(set = 0, binding = 0) readonly buffer B8 { uint8_t b8[]; };
layout(set = 0, binding = 1) readonly buffer B16 { uint16_t b16[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint out_[]; };

void main() {
    uint x = gl_GlobalInvocationID.x;
    uint y = gl_GlobalInvocationID.y;
    uint w = gl_NumWorkGroups.x * 8u;
    uint acc = 0u;
    for (uint k = 0u; k < 5u; ++k) {
        uint same8 = uint(b8[64u + y * 5u + k]);
        uint same16 = uint(b16[y * 5u + k]);
        uint step8 = uint(b8[x + k]);
        uint step16 = uint(b16[64u + x + k]);
        acc = acc * 7u + same8 + (same16 << 8) + (step8 << 3) + (step16 << 11);
    }
    out_[y * w + x] = acc;
}

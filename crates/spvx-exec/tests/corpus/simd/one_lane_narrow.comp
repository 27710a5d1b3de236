// Vector lanes (jit::simd): 8- and 16-bit loads and stores by one active lane alone (a masked
// version with one lane, `mem::one_lane`). pick[0] chooses the lane (none when >= 16), pick[1]
// and pick[2] the byte and 16-bit word it reads, pick[3] and pick[4] those it writes, at or
// just past the end of each buffer.
#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require

layout(local_size_x = 16) in;

layout(set = 0, binding = 0) readonly buffer P { uint pick[]; };
layout(set = 0, binding = 1) readonly buffer B8 { uint8_t b8[]; };
layout(set = 0, binding = 2) readonly buffer B16 { uint16_t b16[]; };
layout(set = 0, binding = 3) buffer O8 { uint8_t o8[]; };
layout(set = 0, binding = 4) buffer O16 { uint16_t o16[]; };
layout(set = 0, binding = 5) buffer O { uint outp[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r = i * 5u;
    if (i == pick[0]) {
        uint v = uint(b8[pick[1]]) + (uint(b16[pick[2]]) << 8);
        r += v;
        o8[pick[3]] = uint8_t(v ^ 0xa5u);
        o16[pick[4]] = uint16_t(v * 3u);
    }
    outp[i] = r;
}

// Vector lanes (jit::simd): indices into fixed-size arrays (checked against their length:
// an index outside in an active lane goes to the interpreter), 8- and 16-bit values, struct
// members, a read-only uniform buffer. Every invocation of the 4 × 6 the tests dispatch writes its
// own pairs element (no two workgroups race, so any number of threads gives one answer; an index
// past table's end reads whatever word lies there, and the tests pick only indices whose word no
// other workgroup writes).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 6) in;
struct Pair { uint16_t lo; int8_t s; uint8_t u; };
layout(set = 0, binding = 0) buffer A { uint table[16]; Pair pairs[32]; uint rest[]; };
layout(set = 0, binding = 1) uniform U { uint limit; uint pick; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = (i * 5u) % limit;
    if (i != pick) {
        k &= 15u;
    }
    uint t = table[k];
    Pair p = pairs[i & 31u];
    int16_t w = int16_t(p.s) * int16_t(-3) + int16_t(p.lo >> 3);
    uint8_t b = p.u + uint8_t(i);
    pairs[i & 31u].lo = uint16_t(w) ^ uint16_t(t);
    pairs[i & 31u].u = b >> 1;
    rest[i] = t + uint(int(w)) + uint(b);
}

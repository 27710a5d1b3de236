#version 450
// GLSL.std.450 packing, frexp/ldexp/modf and bit finding: out words per invocation in the
// order written below.
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { vec4 v[32]; uint u[32]; int s[32]; } inp;
layout(std430, binding = 1) writeonly buffer Out { uint w[]; } outp;

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = inp.v[i];
    uint u = inp.u[i];
    int s = inp.s[i];
    uint o = i * 24u;
    outp.w[o + 0u] = packSnorm4x8(v);
    outp.w[o + 1u] = packUnorm4x8(v);
    outp.w[o + 2u] = packSnorm2x16(v.xy);
    outp.w[o + 3u] = packUnorm2x16(v.zw);
    outp.w[o + 4u] = packHalf2x16(v.xw);
    vec4 a = unpackSnorm4x8(u);
    vec4 b = unpackUnorm4x8(u);
    vec2 c = unpackSnorm2x16(u);
    vec2 d = unpackUnorm2x16(u);
    vec2 h = unpackHalf2x16(u);
    outp.w[o + 5u] = floatBitsToUint(a.x + a.w);
    outp.w[o + 6u] = floatBitsToUint(b.y + b.z);
    outp.w[o + 7u] = floatBitsToUint(c.x);
    outp.w[o + 8u] = floatBitsToUint(d.y);
    outp.w[o + 9u] = floatBitsToUint(h.x);
    outp.w[o + 10u] = floatBitsToUint(h.y);
    int e;
    float m = frexp(v.x, e);
    outp.w[o + 11u] = floatBitsToUint(m);
    outp.w[o + 12u] = uint(e);
    outp.w[o + 13u] = floatBitsToUint(ldexp(v.y, s % 40));
    float ip;
    float fr = modf(v.z, ip);
    outp.w[o + 14u] = floatBitsToUint(fr);
    outp.w[o + 15u] = floatBitsToUint(ip);
    outp.w[o + 16u] = uint(findLSB(u));
    outp.w[o + 17u] = uint(findMSB(s));
    outp.w[o + 18u] = uint(findMSB(u));
    outp.w[o + 19u] = uint(sign(s));
    outp.w[o + 20u] = floatBitsToUint(sign(v.w));
    outp.w[o + 21u] = bitfieldExtract(u, 3, 7) + uint(bitfieldExtract(s, 2, 9));
    outp.w[o + 22u] = bitfieldReverse(u) ^ uint(bitCount(s));
    outp.w[o + 23u] = bitfieldInsert(u, uint(s), 8, 12);
}

#version 450
// GLSL.std.450 geometric and matrix functions on fp32 (and fp64 for determinant and inverse).
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer In { vec4 a[16]; vec4 b[16]; } inp;
layout(std430, binding = 1) writeonly buffer Out { float r[]; } outp;
layout(std430, binding = 2) writeonly buffer OutD { double d[]; } outd;

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 a = inp.a[i], b = inp.b[i];
    uint o = i * 32u;
    vec3 c = cross(a.xyz, b.xyz);
    outp.r[o + 0u] = c.x; outp.r[o + 1u] = c.y; outp.r[o + 2u] = c.z;
    outp.r[o + 3u] = length(a);
    outp.r[o + 4u] = distance(a.xy, b.xy);
    vec3 n = normalize(b.xyz);
    outp.r[o + 5u] = n.x; outp.r[o + 6u] = n.y; outp.r[o + 7u] = n.z;
    vec3 rf = reflect(a.xyz, n);
    outp.r[o + 8u] = rf.x; outp.r[o + 9u] = rf.y; outp.r[o + 10u] = rf.z;
    vec3 rr = refract(normalize(a.xyz), n, b.w);
    outp.r[o + 11u] = rr.x; outp.r[o + 12u] = rr.y; outp.r[o + 13u] = rr.z;
    vec3 ff = faceforward(a.xyz, b.xyz, a.zyx);
    outp.r[o + 14u] = ff.x; outp.r[o + 15u] = ff.y; outp.r[o + 16u] = ff.z;
    mat2 m2 = mat2(a.xy, b.xy);
    mat3 m3 = mat3(a.xyz, b.xyz, a.wzy);
    mat4 m4 = mat4(a, b, a.wzyx, b.yxwz + vec4(1.0));
    outp.r[o + 17u] = determinant(m2);
    outp.r[o + 18u] = determinant(m3);
    outp.r[o + 19u] = determinant(m4);
    mat2 i2 = inverse(m2);
    outp.r[o + 20u] = i2[0][0]; outp.r[o + 21u] = i2[0][1];
    outp.r[o + 22u] = i2[1][0]; outp.r[o + 23u] = i2[1][1];
    mat3 i3 = inverse(m3);
    outp.r[o + 24u] = i3[0][0]; outp.r[o + 25u] = i3[1][2]; outp.r[o + 26u] = i3[2][1];
    outp.r[o + 27u] = min(a.x, b.x) + max(a.y, b.y);
    outp.r[o + 28u] = mix(a.z, b.z, 0.25);
    outp.r[o + 29u] = smoothstep(-1.0, 2.0, a.w);
    outp.r[o + 30u] = step(a.x, b.x) + clamp(a.y, -0.5, 0.5);
    outp.r[o + 31u] = fma(a.x, b.x, a.y);
    dmat3 d3 = dmat3(m3);
    outd.d[i * 2u] = determinant(d3);
    outd.d[i * 2u + 1u] = inverse(d3)[1][0];
}

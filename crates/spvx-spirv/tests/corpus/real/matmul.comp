#version 450
// Tiled matrix multiply with shared memory, a loop, a switch and GLSL.std.450 calls.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; uint mode; } p;
shared float tile[8][8];

void main() {
    uint row = gl_GlobalInvocationID.y;
    uint col = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint k = 0; k < p.n; ++k) {
        acc = fma(a[row * p.n + k], b[k * p.n + col], acc);
    }
    tile[gl_LocalInvocationID.y][gl_LocalInvocationID.x] = acc;
    barrier();
    switch (p.mode) {
    case 0: acc = sqrt(abs(acc)); break;
    case 1: acc = clamp(acc, -1.0, 1.0); break;
    case 7: acc = tile[0][gl_LocalInvocationID.x] + exp2(acc); break;
    default: acc = mix(acc, 0.5, 0.25);
    }
    c[row * p.n + col] = acc;
}

#version 450
// An array of uniform buffers (std140) read with constant indices, and a write through an
// array of storage buffers with a constant index: out.r[i] = ubos[0].k * i + ubos[1].k.
layout(local_size_x = 4) in;
layout(std140, set = 1, binding = 2) uniform U { uint k; } ubos[2];
layout(std430, set = 0, binding = 0) buffer O { uint r[]; } outs[2];

void main() {
    uint i = gl_GlobalInvocationID.x;
    outs[1].r[i] = ubos[0].k * i + ubos[1].k;
}

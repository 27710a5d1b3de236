#version 450
// An array of storage buffers (descriptor array) indexed by a uniform and a dynamically
// uniform value.
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer B { uint v[]; } bufs[3];
layout(std430, set = 0, binding = 1) buffer O { uint r[]; } outp;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint sum = 0u;
    for (int k = 0; k < 3; k++) {
        sum += bufs[k].v[i] * uint(k + 1);
    }
    outp.r[i] = sum + uint(bufs[2].v.length());
    bufs[1].v[i] = sum;
}

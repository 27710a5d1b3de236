#version 450
// An array of storage buffers indexed per invocation, past its end for invocations 2 and 3:
// those reads give 0 and those writes are dropped (each reported), never another buffer.
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer B { uint v[]; } bufs[2];
layout(std430, set = 0, binding = 1) buffer O { uint r[]; } outp;

void main() {
    uint i = gl_GlobalInvocationID.x;
    outp.r[i] = bufs[i].v[0] + 1u;
    bufs[i].v[1] = 7u + i;
}

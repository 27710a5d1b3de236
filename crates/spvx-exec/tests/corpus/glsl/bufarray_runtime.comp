#version 450
// A runtime-length array of buffers (GL_EXT_nonuniform_qualifier, RuntimeDescriptorArray):
// as many elements as the run binds. Invocation i sums v[i] over every element k of bufs
// (weighted k + 1), reading the element count from an input, then writes the sum into
// element (i % n) and reads element 7 (past the end when fewer are bound).
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { uint v[]; } bufs[];
layout(std430, binding = 1) buffer Out { uint n; uint r[]; } outp;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = outp.n;
    uint sum = 0u;
    for (uint k = 0u; k < n; k++) {
        sum += bufs[k].v[i] * (k + 1u) + uint(bufs[k].v.length());
    }
    outp.r[2u * i] = sum;
    outp.r[2u * i + 1u] = bufs[nonuniformEXT(7u + i * 0u)].v[i] + 1u;
    bufs[nonuniformEXT(i % n)].v[i] = sum;
}

// Signed indices into runtime arrays (read as signed, SPIR-V 1.6 §3.49.11): a negative index
// (its byte offset taken modulo 2^48, jit/lower_mem.rs) must be out of bounds in the JIT's
// loads and stores as in the interpreter's, including -1, whose offset plus the access's size
// is 0 when not reduced. idx[i] indexes `data` for a load and `outp` for a store.
#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer Idx { int idx[]; };
layout(set = 0, binding = 1) readonly buffer Data { uint data[]; };
layout(set = 0, binding = 2) buffer Out { uint outp[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    int k = idx[i];
    uint v = data[k];
    outp[k + 16] = v * 3u + 1u;
}

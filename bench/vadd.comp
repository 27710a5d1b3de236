// Memory-bound: c[i] = a[i] + b[i] (uint32, wrapping). 12 bytes moved per invocation.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer C { uint c[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = a[i] + b[i];
}

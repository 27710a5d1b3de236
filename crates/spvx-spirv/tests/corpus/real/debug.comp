#version 450
// Compiled with -g: OpString, OpSource with source text, OpLine and OpNoLine, OpModuleProcessed.
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Buf { float v[]; } buf;

float square(float x) {
    return x * x;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i % 2u == 0u) {
        buf.v[i] = square(buf.v[i]);
    } else {
        buf.v[i] = -buf.v[i];
    }
}

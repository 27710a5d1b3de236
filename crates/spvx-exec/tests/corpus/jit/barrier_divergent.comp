// A workgroup barrier inside a branch some invocations do not take (undefined in Vulkan; the
// engine reports NonUniformBarrier): the JIT must hand the run to the interpreter.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
shared uint s[16];

void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = v[l];
    if (v[l] % 3u == 0u) {
        barrier();
    }
    v[l] = s[(l + 1u) % 16u] + 1u;
}

// A barrier in a loop whose trip count differs between invocations (1 or 2): in the second
// iteration only some invocations reach it while the others have left the loop. Undefined in
// Vulkan (the engine reports it); the JIT must hand the run to the interpreter.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
shared uint s[16];

void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = 0u;
    barrier();
    for (uint i = 0u; i < (l % 2u) + 1u; i++) {
        s[l] += v[l] + i;
        barrier();
    }
    v[l] = s[l] + s[(l + 5u) % 16u];
}

#version 450
// A subgroup instruction that some invocations skip with `continue` in one iteration and reach
// in the next, while others reach it in both: at one time the JIT finds them at the same
// instruction in different iterations, which it leaves to the interpreter (tests/jit.rs).
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Data { uint d[]; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint v = d[g];
    uint acc = 0u;
    for (uint k = 0u; k < 3u; k++) {
        if (k == 0u && (g & 1u) != 0u) {
            continue;
        }
        acc += subgroupAdd(v + k);
    }
    d[g] = acc;
}

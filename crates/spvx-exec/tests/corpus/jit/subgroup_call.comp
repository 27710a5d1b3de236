#version 450
// A subgroup instruction in a called function: the JIT does not compile the program (its
// rendezvous are in the entry function only; tests/jit.rs).
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Data { uint d[]; };

uint total(uint x) {
    return subgroupAdd(x);
}

void main() {
    uint g = gl_GlobalInvocationID.x;
    d[g] = total(d[g]);
}

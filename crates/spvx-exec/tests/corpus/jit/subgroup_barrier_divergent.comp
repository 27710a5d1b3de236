#version 450
// A subgroup instruction, then a workgroup barrier that only some invocations of each subgroup
// reach (in a branch on the invocation index): the interpreter reports the barrier, so the
// JIT's lanes function gives the run to it (tests/jit.rs).
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Data { uint d[]; };
shared uint sh[16];

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationIndex;
    uint v = subgroupAdd(d[g]);
    sh[l] = v;
    if ((l & 1u) == 0u) {
        barrier();
    }
    d[g] = v + sh[15u - l];
}

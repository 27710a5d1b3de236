#version 450
// Lanes that fall behind by a loop iteration (found by the `exec` fuzz target): in the first
// iteration of the outer loop the elected lane stores and goes round to the next
// subgroupElect(), while the others run an inner loop, with a subgroup instruction in it, for
// as many iterations as their global id. On the interpreter every lane reaches the outer
// subgroupElect() of each iteration together (the smallest block runs first), so only lane 0
// is ever elected there; the JIT's rendezvous must not run it for the lane that went ahead
// alone (tests/jit.rs).
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 5) in;
layout(set = 0, binding = 0) buffer B { uint b[]; };

void main() {
    uint gid = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationIndex;
    for (uint o = 0u; o < 2u; o++) {
        if (subgroupElect()) {
            b[4u * gid] = l;
        } else {
            for (uint j = 0u; j < gid; j++) {
                if (subgroupElect()) {
                    b[4u * gid + 1u] += 1u;
                }
            }
        }
    }
}

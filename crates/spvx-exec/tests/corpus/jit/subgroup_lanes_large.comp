#version 450
// Too large for the JIT's lanes function (tests/jit.rs,
// a_lanes_function_too_large_to_compile_is_left_to_the_rendezvous): 26 steps, each a subgroup
// reduction and a data-dependent branch, with 16 values live from the start to the end. Its
// entry function is under lanes::MAX_LANES_INSTRUCTIONS, but lowered for 8 lanes it has some
// 281,000 Cranelift IR values, more than lanes::MAX_LANES_VALUES. The program still runs on
// the JIT, with the rendezvous at its subgroup instructions (all in uniform control flow).
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint b[]; };

#define STEP(i) v = v * 3u + subgroupAdd(v ^ uint(i)); if ((v & 5u) != 0u) v += a[(v + uint(i)) & 15u];
#define TEN(t) STEP(t * 10 + 0) STEP(t * 10 + 1) STEP(t * 10 + 2) STEP(t * 10 + 3) \
               STEP(t * 10 + 4) STEP(t * 10 + 5) STEP(t * 10 + 6) STEP(t * 10 + 7) \
               STEP(t * 10 + 8) STEP(t * 10 + 9)

void main() {
    uint x = gl_GlobalInvocationID.x;
    uint v = a[x & 15u];
    uint r0 = a[(x + 1u) & 15u], r1 = a[(x + 2u) & 15u], r2 = a[(x + 3u) & 15u];
    uint r3 = a[(x + 4u) & 15u], r4 = a[(x + 5u) & 15u], r5 = a[(x + 6u) & 15u];
    uint r6 = a[(x + 7u) & 15u], r7 = a[(x + 8u) & 15u], r8 = a[(x + 9u) & 15u];
    uint r9 = a[(x + 10u) & 15u], r10 = a[(x + 11u) & 15u], r11 = a[(x + 12u) & 15u];
    uint r12 = a[(x + 13u) & 15u], r13 = a[(x + 14u) & 15u], r14 = a[(x + 15u) & 15u];
    uint r15 = a[x & 15u] * 7u;
    TEN(0) TEN(1) STEP(20) STEP(21) STEP(22) STEP(23) STEP(24) STEP(25)
    b[x] = v + (r0 ^ (r1 << 1) ^ (r2 << 2) ^ (r3 << 3) ^ (r4 << 4) ^ (r5 << 5) ^ (r6 << 6)
              ^ (r7 << 7) ^ (r8 << 8) ^ (r9 << 9) ^ (r10 << 10) ^ (r11 << 11) ^ (r12 << 12)
              ^ (r13 << 13) ^ (r14 << 14) ^ (r15 << 15));
}

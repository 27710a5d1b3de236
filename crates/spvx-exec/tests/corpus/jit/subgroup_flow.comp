#version 450
// Subgroup instructions where the JIT must find the interpreter's active lanes: in a loop whose
// trip count differs between invocations, on the two sides of a divergent branch, after some
// invocations returned, between workgroup barriers, and in uniform code (clustered, quad,
// ballot, broadcast, shuffle, vote). tests/jit.rs runs it at several subgroup sizes.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint d[]; };
shared uint sh[64];

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationIndex;
    uint v = d[g];
    uint acc = 0u;
    // Uniform code.
    acc += subgroupClusteredAdd(v, 4u) ^ subgroupQuadSwapDiagonal(v);
    acc += subgroupBroadcastFirst(v) + subgroupShuffle(v, (gl_SubgroupInvocationID + 1u) % gl_SubgroupSize);
    acc += subgroupBallot((v & 2u) != 0u).x;
    // Between two workgroup barriers.
    sh[l] = v;
    barrier();
    acc += subgroupInclusiveAdd(sh[63u - l]);
    barrier();
    // A loop whose trip count differs: each iteration's scan is over the invocations still in it.
    uint trips = v % 5u;
    for (uint k = 0u; k < trips; k++) {
        acc += subgroupExclusiveMul(v + k) + subgroupMin(acc);
        v = v * 3u + 1u;
    }
    // Some invocations return; the rest reduce without them.
    if ((v & 7u) == 0u) {
        d[g] = acc;
        return;
    }
    // Two different reductions on the two sides of a branch, then a vote after the merge.
    if ((v & 1u) != 0u) {
        acc ^= subgroupMax(v);
    } else {
        acc += subgroupXor(v * 7u);
    }
    acc += subgroupAll(acc != 12345u) ? 1u : 0u;
    d[g] = acc + subgroupBallot(true).x;
}

#version 450
// Ballot bit queries, inverse ballot and quad operations (GL_KHR_shader_subgroup_ballot,
// GL_KHR_shader_subgroup_quad), also in divergent flow.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { uint r[]; } outp;

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint v = inp.x[g];
    uint o = g * 12u;
    uvec4 b = subgroupBallot((v & 1u) != 0u);
    outp.r[o + 0u] = subgroupBallotBitCount(b);
    outp.r[o + 1u] = subgroupBallotInclusiveBitCount(b);
    outp.r[o + 2u] = subgroupBallotExclusiveBitCount(b);
    outp.r[o + 3u] = subgroupBallotFindLSB(b);
    outp.r[o + 4u] = subgroupBallotFindMSB(b);
    outp.r[o + 5u] = subgroupBallotBitExtract(b, v % gl_SubgroupSize) ? 1u : 0u;
    outp.r[o + 6u] = subgroupInverseBallot(uvec4(0x9b5a3c71u, 0x0f0f00ffu, 0u, 0u)) ? 1u : 0u;
    outp.r[o + 7u] = subgroupQuadBroadcast(v, 3u);
    outp.r[o + 8u] = subgroupQuadSwapHorizontal(v) + 1000u * subgroupQuadSwapDiagonal(v);
    outp.r[o + 9u] = subgroupQuadSwapVertical(v);
    // Divergent: the lanes with v >= 25 count each other.
    uint n = 0xffffffffu;
    if (v >= 25u) {
        uvec4 d = subgroupBallot(true);
        n = subgroupBallotExclusiveBitCount(d) * 100u + subgroupBallotBitCount(d);
    }
    outp.r[o + 10u] = n;
    outp.r[o + 11u] = subgroupBallotFindMSB(subgroupBallot(v < 10u) | uvec4(1u, 0u, 0u, 0u));
}

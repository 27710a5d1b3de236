#version 450
// The subgroup mask built-ins (gl_SubgroupEqMask ... gl_SubgroupLtMask,
// GL_KHR_shader_subgroup_ballot), and a ballot compared with them.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer Out { uvec2 r[]; } outp;

void main() {
    uint o = gl_GlobalInvocationID.x * 6u;
    outp.r[o + 0u] = gl_SubgroupEqMask.xy;
    outp.r[o + 1u] = gl_SubgroupGeMask.xy;
    outp.r[o + 2u] = gl_SubgroupGtMask.xy;
    outp.r[o + 3u] = gl_SubgroupLeMask.xy;
    outp.r[o + 4u] = gl_SubgroupLtMask.xy | gl_SubgroupGeMask.zw;
    // Lanes below this one that are active: the exclusive bit count by hand.
    uvec4 b = subgroupBallot(true);
    outp.r[o + 5u] = uvec2(bitCount(b.x & gl_SubgroupLtMask.x) + bitCount(b.y & gl_SubgroupLtMask.y),
                           subgroupBallotExclusiveBitCount(b));
}

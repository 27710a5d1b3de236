#version 450
// Subgroup instructions in the lanes function (a whole subgroup per native call, the
// interpreter's scheduler compiled in): under divergent branches, in loops whose trip counts
// differ (with `continue` before the instruction and `break` after it), in a switch, after
// early returns, with every integer reduction and scan it runs natively (32 and 64 bits,
// signed and unsigned) and the ones it leaves to the interpreter (ballot, shuffle, broadcast,
// elect, votes, clustered). tests/jit.rs runs it at subgroup sizes 1 to 8 against the
// interpreter.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x = 24) in;
layout(std430, binding = 0) buffer Data { uint d[]; };
layout(std430, binding = 1) buffer Out { uint o[]; };

void main() {
    uint g = gl_GlobalInvocationID.x;
    uint v = d[g];
    int s = int(v) - 1000;
    uint64_t w = uint64_t(v) * 0x9e3779b97f4a7c15ul;
    uint acc = 0u;
    // Uniform code: every natively scanned operation.
    acc += subgroupAdd(v) ^ subgroupInclusiveAdd(v) * 3u ^ subgroupExclusiveAdd(v) * 5u;
    acc += subgroupMul(v | 1u) ^ subgroupInclusiveMul(v) ^ subgroupExclusiveMul(v);
    acc += uint(subgroupMin(s)) ^ uint(subgroupInclusiveMax(s)) ^ uint(subgroupExclusiveMin(s));
    acc += subgroupMax(v) ^ subgroupInclusiveMin(v) ^ subgroupExclusiveMax(v);
    acc += subgroupAnd(v) ^ subgroupInclusiveOr(v) ^ subgroupExclusiveXor(v) ^ subgroupXor(v);
    acc += uint(subgroupAdd(w) >> 20) ^ uint(subgroupExclusiveMax(w) >> 33);
    acc += uint(subgroupInclusiveMin(int64_t(w)) >> 40);
    // Left to the interpreter.
    acc += subgroupBallot((v & 4u) != 0u).x ^ subgroupBroadcastFirst(v);
    acc += subgroupShuffle(v, (gl_SubgroupInvocationID + 1u) % gl_SubgroupSize);
    acc += subgroupClusteredAdd(v, 2u) + (subgroupElect() ? 7u : 0u);
    acc += (subgroupAll(v > 10u) ? 1u : 0u) + (subgroupAny(v > 900u) ? 2u : 0u);
    // A divergent branch: each side's scan is over the invocations on it.
    if ((v & 1u) != 0u) {
        acc += subgroupInclusiveAdd(v) * 11u;
    } else {
        acc ^= subgroupMax(v + g) + subgroupExclusiveAdd(1u);
    }
    // Trip counts that differ, `continue` before and `break` after the instruction.
    for (uint k = 0u; k < (v & 7u); k++) {
        if (k == 1u && (g & 1u) != 0u) {
            continue;
        }
        acc += subgroupAdd(k + v) ^ subgroupBallot(true).x;
        if (((acc >> 3) & 3u) == 1u) {
            break;
        }
    }
    // A switch whose cases each run their own scan.
    switch (v % 3u) {
        case 0u:
            acc += subgroupInclusiveXor(acc);
            break;
        case 1u:
            acc ^= subgroupExclusiveMul(acc | 1u);
            // fall through
        default:
            acc += subgroupAdd(2u);
    }
    // Early returns: the rest runs on the invocations left.
    if ((v & 24u) == 8u) {
        o[g] = acc;
        return;
    }
    acc += subgroupInclusiveAdd(acc) + subgroupBallot(true).x;
    o[g] = acc;
}

#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Float atomics (SPV_EXT_shader_atomic_float_add, SPV_EXT_shader_atomic_float16_add,
// SPV_EXT_shader_atomic_float_min_max) on fp32, fp64 and fp16 in a storage buffer and in
// shared memory (tests/float_atomics.rs). The parallel sums use values whose sum is exact in
// any order; invocation 0 then runs a sequence whose every step rounds, and the ±0 and NaN
// cases of min/max.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float x[]; } inp;
layout(std430, binding = 1) buffer Acc {
    float sum;
    float mn;
    float mx;
    float steps;
    float zmin;
    float zmax;
    float nmin;
    float nmax;
    float xch;
    float zmin2;
    double dsum;
    double dmin;
    double dmax;
    float16_t hsum;
    float16_t hmin;
    float16_t hmax;
    float zmax2;
    float wg[16];
    float wgmin[16];
    float wgmax[16];
    float ret[8];
    float old[];
} acc;
shared float ssum;
shared float smin;
shared float smax;

void main() {
    uint l = gl_LocalInvocationID.x;
    uint g = gl_WorkGroupID.x;
    uint i = gl_GlobalInvocationID.x;
    float v = inp.x[i];
    if (l == 0u) {
        ssum = 0.0;
        smin = uintBitsToFloat(0x7f800000u);
        smax = uintBitsToFloat(0xff800000u);
    }
    barrier();
    acc.old[i] = atomicAdd(acc.sum, v);
    atomicMin(acc.mn, v - 100.0);
    atomicMax(acc.mx, v - 100.0);
    atomicAdd(acc.dsum, double(v));
    atomicMin(acc.dmin, double(v) * -3.0lf);
    atomicMax(acc.dmax, double(v) * -3.0lf);
    float16_t h = float16_t(float(i % 4u));
    atomicAdd(acc.hsum, h);
    atomicMin(acc.hmin, h - float16_t(2.0));
    atomicMax(acc.hmax, h + float16_t(0.5));
    atomicAdd(ssum, v);
    atomicMin(smin, v);
    atomicMax(smax, v);
    barrier();
    if (l == 0u) {
        acc.wg[g] = ssum;
        acc.wgmin[g] = smin;
        acc.wgmax[g] = smax;
    }
    if (i == 0u) {
        // One invocation, in program order: every step rounds to nearest even, so
        // 1 + 2^-24 is 1 each time.
        float tiny = uintBitsToFloat(0x33800000u);
        acc.ret[0] = atomicAdd(acc.steps, 1.0);
        acc.ret[1] = atomicAdd(acc.steps, tiny);
        acc.ret[2] = atomicAdd(acc.steps, tiny);
        // Signed zeros and NaNs.
        acc.ret[3] = atomicMin(acc.zmin, uintBitsToFloat(0x80000000u));
        acc.ret[4] = atomicMax(acc.zmax, 0.0);
        atomicMin(acc.zmin2, 0.0);
        atomicMax(acc.zmax2, uintBitsToFloat(0x80000000u));
        acc.ret[5] = atomicMin(acc.nmin, uintBitsToFloat(0x7fc00001u));
        acc.ret[6] = atomicMax(acc.nmax, 3.0);
        acc.ret[7] = atomicExchange(acc.xch, 7.5);
    }
}

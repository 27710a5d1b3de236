#version 450
// Atomics on a storage buffer and on shared memory: a histogram in shared memory merged into
// the buffer, min/max/and/or/xor, exchange and compare-exchange.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } inp;
layout(std430, binding = 1) buffer Acc {
    uint hist[16];
    uint total;
    int smin;
    int smax;
    uint band;
    uint bor;
    uint bxor;
    uint winners;
} acc;
shared uint lhist[16];
shared uint claimed;

void main() {
    uint l = gl_LocalInvocationID.x;
    uint v = inp.x[gl_GlobalInvocationID.x];
    if (l < 16u) lhist[l] = 0u;
    if (l == 0u) claimed = 0xffffffffu;
    barrier();
    atomicAdd(lhist[v & 15u], 1u);
    // The first invocation (in whatever order) to claim wins; only one of the group succeeds.
    uint prev = atomicCompSwap(claimed, 0xffffffffu, l);
    barrier();
    if (l < 16u) atomicAdd(acc.hist[l], lhist[l]);
    atomicAdd(acc.total, v);
    atomicMin(acc.smin, int(v) - 1000);
    atomicMax(acc.smax, int(v ^ 0x55u));
    atomicAnd(acc.band, v | 0xffff0000u);
    atomicOr(acc.bor, v << 8);
    atomicXor(acc.bxor, v);
    if (prev == 0xffffffffu) atomicAdd(acc.winners, 1u);
    atomicExchange(lhist[0], 0u);
}

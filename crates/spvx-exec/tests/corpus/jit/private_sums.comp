// Atomic additions into a buffer that nothing else touches (jit/atomics.rs `private_sums`):
// each JIT worker adds into its own copy without a lock and adds the copy into the buffer at
// the end. `hist` gets OpAtomicIAdd (one with a value that wraps), OpAtomicISub,
// OpAtomicIIncrement and OpAtomicIDecrement; `extra` moves one addition past the end of
// `hist` for the invocation pick (out of bounds: the interpreter reports it). `mixed` also
// gets additions but is loaded too (word 8, which no addition touches), so it keeps the
// locked additions.
#version 450
#extension GL_EXT_spirv_intrinsics : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer D { uint data[]; };
layout(set = 0, binding = 1) buffer H { uint hist[]; };
layout(set = 0, binding = 2) buffer M { uint mixed[]; };
layout(set = 0, binding = 3) writeonly buffer O { uint out_[]; };
layout(set = 0, binding = 4) readonly buffer P { uint pick; uint extra; };

spirv_instruction(id = 235) uint atomicISub(spirv_by_reference uint p, uint scope, uint semantics, uint v);
spirv_instruction(id = 232) uint atomicIInc(spirv_by_reference uint p, uint scope, uint semantics);
spirv_instruction(id = 233) uint atomicIDec(spirv_by_reference uint p, uint scope, uint semantics);

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = data[i];
    uint bump = i == pick ? extra : 0u;
    atomicAdd(hist[(v & 31u) + bump], 1u);
    atomicAdd(hist[32u + ((v >> 5) & 7u)], 0xfffffff0u);
    atomicISub(hist[40u + ((v >> 8) & 3u)], 1u, 0u, v >> 28);
    atomicIInc(hist[44u + ((v >> 10) & 1u)], 1u, 0u);
    atomicIDec(hist[46u], 1u, 0u);
    atomicAdd(mixed[v & 7u], 1u);
    out_[i] = mixed[8] + v;
}

// Histogram with buffer atomics: hist[data[i] & 255] += 1 for 4M bytes' worth of u32 values
// (atomicAdd on a 256-bin u32 buffer, its result unused), each invocation taking 4 values.
// The counts do not depend on the order of the atomic additions.
#version 450

layout(local_size_x = 256) in;

layout(set = 0, binding = 0) readonly buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Hist { uint hist[]; };

void main() {
    uint i = gl_GlobalInvocationID.x * 4;
    for (uint k = 0; k < 4; ++k) {
        atomicAdd(hist[data[i + k] & 255u], 1u);
    }
}

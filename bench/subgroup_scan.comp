// Subgroup scan: out[i] = inclusive prefix sum (uint32, wrapping) of in[] over the invocation's
// subgroup, plus the subgroup total in the high bits mixed in by XOR. The result depends on
// the subgroup size: the engine is run with the device's subgroup size when compared with it.
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint inp[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint outp[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = inp[i];
    uint scan = subgroupInclusiveAdd(v);
    uint total = subgroupAdd(v);
    outp[i] = scan ^ (total << 16);
}

#version 450
// Specialization constants (constant_id, also the workgroup size through local_size_x_id) and
// push constants.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int MUL = 3;
layout(constant_id = 2) const bool NEGATE = false;
layout(constant_id = 3) const float BIAS = 0.5;
const int MUL2 = MUL * 2 + 1;  // spec-constant operation
layout(push_constant) uniform P { uint offset; float scale; int add[2]; } pc;
layout(std430, binding = 0) buffer Buf { float v[]; } buf;

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = float(int(i) * MUL2 + pc.add[i % 2u]) * pc.scale + BIAS;
    if (NEGATE) x = -x;
    buf.v[pc.offset + i] = x + float(gl_WorkGroupSize.x);
}

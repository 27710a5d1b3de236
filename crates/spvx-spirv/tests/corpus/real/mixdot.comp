#version 450
// SPV_VALVE_mixed_float_dot_product through GL_EXT_spirv_intrinsics (reference/landscape.md
// §5.2): OpFDot2MixAcc32VALVE (opcode 6916, capability 6912) on f16vec2 with a float accumulator.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Buf { f16vec2 a[]; } buf;
layout(std430, binding = 1) buffer Out { float r[]; } res;

spirv_instruction(extensions = ["SPV_VALVE_mixed_float_dot_product"], capabilities = [6912], id = 6916)
float fdot2_mix_acc32(f16vec2 a, f16vec2 b, float acc);

void main() {
    uint i = gl_GlobalInvocationID.x;
    res.r[i] = fdot2_mix_acc32(buf.a[2 * i], buf.a[2 * i + 1], res.r[i]);
}

#version 450
// Integer dot products through GL_EXT_spirv_intrinsics (reference/landscape.md §5.2): OpUDot
// packed, OpSUDot on vectors, OpSDotAccSat packed and OpUDotAccSat on 16-bit vectors.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { int r[]; } outp;

spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4451)
uint udot_packed(uint a, uint b, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6017], id = 4452)
int sudot_vec(i8vec4 a, u8vec4 b);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4453)
int sdot_acc_sat_packed(uint a, uint b, int acc, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6016], id = 4454)
uint16_t udot_acc_sat16(u16vec2 a, u16vec2 b, uint16_t acc);

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = inp.x[3u * i], b = inp.x[3u * i + 1u], acc = inp.x[3u * i + 2u];
    outp.r[4u * i] = int(udot_packed(a, b, 0));
    outp.r[4u * i + 1u] = sudot_vec(i8vec4(unpack8(a)), unpack8(b));
    outp.r[4u * i + 2u] = sdot_acc_sat_packed(a, b, int(acc), 0);
    u16vec2 a16 = unpack16(a), b16 = unpack16(b);
    outp.r[4u * i + 3u] = int(udot_acc_sat16(a16 & uint16_t(0xff), b16 & uint16_t(0x3f), uint16_t(acc)));
}

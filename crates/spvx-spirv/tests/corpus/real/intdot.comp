#version 450
// Integer dot products (SPV_KHR_integer_dot_product) through GL_EXT_spirv_intrinsics, as
// reference/landscape.md §5.2 describes: OpSDot with PackedVectorFormat4x8Bit, OpSUDotAccSat,
// and the vector form OpSDot on i8vec4.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } buf;
layout(std430, binding = 1) writeonly buffer Out { int y[]; } res;

spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4450)
int sdot_packed(uint a, uint b, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4455)
int sudot_acc_sat_packed(uint a, uint b, int acc, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6017], id = 4450)
int sdot_vec(i8vec4 a, i8vec4 b);

void main() {
    uint i = gl_GlobalInvocationID.x;
    int d = sdot_packed(buf.x[2 * i], buf.x[2 * i + 1], 0);
    d = sudot_acc_sat_packed(buf.x[2 * i], buf.x[2 * i + 1], d, 0);
    i8vec4 v = i8vec4(unpack8(buf.x[i]));
    res.y[i] = d + sdot_vec(v, v);
}

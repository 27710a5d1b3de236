#version 450
// The packed 4×8-bit integer dot products the JIT compiles natively (tests/jit.rs): OpSDot,
// OpUDot and OpSUDot with 32- and 16-bit results, and their AccSat forms with 32-bit results
// (accumulators at and near the limits, where the saturation decides). One word pair and one
// accumulator per invocation; nine results.
#extension GL_EXT_spirv_intrinsics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint x[]; } inp;
layout(std430, binding = 1) writeonly buffer Out { uint r[]; } outp;

spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4450)
int sdot(uint a, uint b, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4451)
uint udot(uint a, uint b, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4452)
int sudot(uint a, uint b, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4450)
int16_t sdot16(uint a, uint b, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4451)
uint16_t udot16(uint a, uint b, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4452)
int16_t sudot16(uint a, uint b, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4453)
int sdot_sat(uint a, uint b, int acc, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4454)
uint udot_sat(uint a, uint b, uint acc, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4455)
int sudot_sat(uint a, uint b, int acc, spirv_literal int fmt);

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = inp.x[3u * i], b = inp.x[3u * i + 1u], acc = inp.x[3u * i + 2u];
    outp.r[9u * i] = uint(sdot(a, b, 0));
    outp.r[9u * i + 1u] = udot(a, b, 0);
    outp.r[9u * i + 2u] = uint(sudot(a, b, 0));
    outp.r[9u * i + 3u] = uint(int(sdot16(a, b, 0)));
    outp.r[9u * i + 4u] = uint(udot16(a, b, 0));
    outp.r[9u * i + 5u] = uint(int(sudot16(a, b, 0)));
    outp.r[9u * i + 6u] = uint(sdot_sat(a, b, int(acc), 0));
    outp.r[9u * i + 7u] = udot_sat(a, b, acc, 0);
    outp.r[9u * i + 8u] = uint(sudot_sat(a, b, int(acc), 0));
}

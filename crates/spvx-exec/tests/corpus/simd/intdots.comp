// The vector lanes' packed 4x8-bit integer dot products (jit/simd/intdot.rs): each invocation
// reads two packed words and an accumulator and writes the six dots (signed, unsigned, mixed;
// plain and accumulating with saturation), in a loop so that the vector lanes take it.
// glslang 12 has no GL_EXT_integer_dot_product: the instructions are declared by opcode
// (4450 OpSDot, 4451 OpUDot, 4452 OpSUDot, 4453 OpSDotAccSat, 4454 OpUDotAccSat,
// 4455 OpSUDotAccSat; capabilities 6019 DotProduct, 6018 DotProductInput4x8BitPacked).
#version 450
#extension GL_EXT_spirv_intrinsics : require

layout(local_size_x = 8) in;

layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) readonly buffer C { uint c[]; };
layout(set = 0, binding = 3) writeonly buffer D { uint d[]; };

spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4450)
int sdot(uint x, uint y, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4451)
uint udot(uint x, uint y, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4452)
int sudot(uint x, uint y, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4453)
int sdot_sat(uint x, uint y, int acc, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4454)
uint udot_sat(uint x, uint y, uint acc, spirv_literal int fmt);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4455)
int sudot_sat(uint x, uint y, int acc, spirv_literal int fmt);

void main() {
    uint i = gl_GlobalInvocationID.x;
    for (uint k = 0u; k < 2u; ++k) {
        uint j = 2u * i + k;
        uint x = a[j], y = b[j], acc = c[j];
        d[12u * i + 6u * k + 0u] = uint(sdot(x, y, 0));
        d[12u * i + 6u * k + 1u] = udot(x, y, 0);
        d[12u * i + 6u * k + 2u] = uint(sudot(x, y, 0));
        d[12u * i + 6u * k + 3u] = uint(sdot_sat(x, y, int(acc), 0));
        d[12u * i + 6u * k + 4u] = udot_sat(x, y, acc, 0);
        d[12u * i + 6u * k + 5u] = uint(sudot_sat(x, y, int(acc), 0));
    }
}

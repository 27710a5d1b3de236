#version 450
// debugPrintfEXT (GL_EXT_debug_printf): integers, floats, vectors, strings and %%.
#extension GL_EXT_debug_printf : require
layout(local_size_x = 4, local_size_y = 2) in;
layout(std430, binding = 0) readonly buffer In { float f[]; } inp;

void main() {
    uint i = gl_LocalInvocationIndex;
    float x = inp.f[i];
    if (gl_LocalInvocationID.y == 1u) {
        debugPrintfEXT("wg %u inv %u: x=%f e=%e g=%g a=%a", gl_WorkGroupID.x, i, x, x, x, x);
    }
    debugPrintfEXT("%d %i %x %X %o %5.2f%% %v3u", int(i) - 3, -int(i), 255u + i, 0xabcu, 8u + i, x,
                   gl_GlobalInvocationID);
}

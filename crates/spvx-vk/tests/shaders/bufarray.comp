#version 450
// An array of three storage buffers indexed with dynamically uniform indices (a loop counter
// and a push constant), for spvx-vk's descriptor arrays (tests/arrays.rs):
//   outp.r[i]          = bufs[0].v[i]*1 + bufs[1].v[i]*2 + bufs[2].v[i]*3 + bufs[pc.sel].v.length()
//   bufs[pc.sel].v[i]  = that sum XOR 0x55
// with wrapping 32-bit arithmetic (GLSL uint).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { uint v[]; } bufs[3];
layout(set = 0, binding = 1) buffer Out { uint r[]; } outp;
layout(push_constant) uniform P { uint sel; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint s = 0u;
    for (uint k = 0u; k < 3u; ++k) {
        s += bufs[k].v[i] * (k + 1u);
    }
    s += uint(bufs[pc.sel].v.length());
    outp.r[i] = s;
    bufs[pc.sel].v[i] = s ^ 0x55u;
}

// Function variables the engine promotes to registers (and some it must not): divergent
// stores, a loop-carried variable, a function with a local called from two places, a variable
// passed by pointer (inout: escapes), a struct and a vector written through constant access
// chains, 8/16/64-bit scalars, a boolean, an array with a dynamic index (stays in memory).
// Eight results per invocation; the test computes the expected values from these formulas.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint y[]; };

struct S {
    uint a;
    uvec2 b;
    float c[3];
};

uint twice_plus(uint a) {
    uint t = a * 2u;
    if (a > 5u) {
        t += 7u;
    }
    return t;
}

void bump(inout uint v) {
    v += 11u;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i];
    uint o = i * 10u;

    uint d;
    if ((v & 1u) == 1u) {
        d = v * 3u;
    } else {
        d = v + 100u;
    }
    y[o + 0u] = d;

    uint s = 0u;
    for (uint k = 0u; k < v % 7u; ++k) {
        s += k * k + v;
    }
    y[o + 1u] = s;

    y[o + 2u] = twice_plus(v) + twice_plus(v + 3u) * 1000u;

    uint e = v;
    bump(e);
    bump(e);
    y[o + 3u] = e;

    S st;
    st.a = v;
    st.b = uvec2(v + 1u, v + 2u);
    // (v's low 23 bits: 2 v then converts back to uint exactly, in range for any input; a
    // float above 2^32 would make uint() undefined, and devices differ there.)
    st.c[0] = float(v & 0x7fffffu);
    st.c[1] = 0.5;
    st.c[2] = 2.0;
    st.b.y += st.a;
    st.c[2] *= st.c[0];
    y[o + 4u] = st.b.x + st.b.y * 16u + uint(st.c[2]) * 256u + uint(st.c[1] * 4.0) * 65536u;

    uint8_t b8 = uint8_t(v) + uint8_t(250);
    uint16_t h16 = uint16_t(v) * uint16_t(4099);
    y[o + 5u] = uint(b8) | (uint(h16) << 8);

    int64_t w64 = int64_t(v) * -3000000000l;
    w64 += int64_t(i);
    y[o + 6u] = uint(w64 >> 20);
    y[o + 9u] = uint(w64);

    uvec4 q = uvec4(v);
    q.y = v ^ 5u;
    q.w += q.y;
    bool big = q.w > 20u;
    y[o + 7u] = q.x + q.y * 3u + q.z * 5u + q.w * 7u + (big ? 1000000u : 0u);

    uint arr[4];
    for (uint k = 0u; k < 4u; ++k) {
        arr[k] = v * 10u + k;
    }
    y[o + 8u] = arr[v & 3u];
}

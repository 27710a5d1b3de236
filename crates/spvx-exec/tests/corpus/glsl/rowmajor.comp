#version 450
// Access chains into columns and elements of row-major matrices in a buffer (std430):
// reading m[i] (a column: elements MatrixStride apart) and m[i][j] with constant and dynamic
// indices, writing m[i] and m[i][j].
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer M {
    layout(row_major) mat4 a;      // 0: 4 rows of vec4 at stride 16
    layout(row_major) mat3x2 b;    // 64: 3 columns of 2 rows; row_major: 2 rows of vec3 at stride 16
    layout(row_major) mat2 arr[2]; // 96: each 2 rows of vec2 at stride 8; array stride 16
} m;
layout(std430, binding = 1) buffer Out {
    vec4 col[4];     // 0:  m.a[i] with a dynamic i (i = invocation)
    vec4 cconst;     // 64: m.a[2]
    vec2 bcol[4];    // 80: m.b[i % 3]
    float el[4];     // 112: m.a[i][3 - i] + m.b[2][i % 2]
    vec2 acol[4];    // 128: m.arr[i / 2][i % 2]
} o;

void main() {
    uint i = gl_GlobalInvocationID.x;
    o.col[i] = m.a[i];
    o.cconst = m.a[2];
    o.bcol[i] = m.b[i % 3u];
    o.el[i] = m.a[i][3u - i] + m.b[2][i % 2u];
    o.acol[i] = m.arr[i / 2u][i % 2u];
    barrier();
    // Writes after every read: invocation 0 writes column 1 of a, invocation 1 writes
    // element [2][1] of b, invocation 2 writes column i % 2 = 0 of arr[1], invocation 3
    // writes column 0 of a through a constant index.
    if (i == 0u) {
        m.a[1] = vec4(-1.0, -2.0, -3.0, -4.0);
    } else if (i == 1u) {
        m.b[2][1] = 100.0;
    } else if (i == 2u) {
        m.arr[1][i % 2u] = vec2(7.0, 8.0);
    } else {
        m.a[0] = vec4(10.0, 20.0, 30.0, 40.0);
    }
}

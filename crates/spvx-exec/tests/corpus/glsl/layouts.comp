#version 450
// std140 uniform block and std430 storage block with structs, arrays and matrices, column-
// and row-major.
layout(local_size_x = 1) in;
struct Item { vec3 p; float w; int tags[2]; };
layout(std140, binding = 0) uniform U {
    float scale;           // 0
    vec2 shift;            // 8
    float arr[3];          // 16, stride 16
    mat3 m;                // 64, column-major, column stride 16
    layout(row_major) mat2x3 rm;  // 112: 2 columns of 3 rows, row_major: 3 rows of vec2 at stride 16
    Item item;             // 160: p at 160, w 172, tags at 176 stride 16
} u;
layout(std430, binding = 1) buffer S {
    mat3 m3;               // 0: 3 columns at stride 16
    layout(row_major) mat2 r2;    // 48: 2 rows at stride 8
    Item items[2];         // 64: p at 0, w at 12, tags at 16 stride 4; size 24 rounded to 32
    vec3 outv;             // 128
    float outs[8];         // 140
} s;

void main() {
    vec3 v = vec3(1.0, 2.0, 4.0);
    s.outv = u.m * v + s.m3 * v;
    vec2 w = vec2(0.5, -1.0);
    vec3 t = u.rm * w;                // mat2x3 * vec2 → vec3
    vec2 q = s.r2 * w;
    s.outs[0] = u.scale * (u.arr[0] + u.arr[1] + u.arr[2]);
    s.outs[1] = t.x + t.y + t.z;
    s.outs[2] = q.x * 10.0 + q.y;
    s.outs[3] = u.item.p.z + u.item.w + float(u.item.tags[1]);
    s.outs[4] = s.items[1].p.y * s.items[0].w + float(s.items[1].tags[0] - s.items[0].tags[1]);
    s.outs[5] = u.shift.y - u.shift.x;
    mat2 mm = transpose(s.r2) * s.r2;
    s.outs[6] = mm[0][1] + 100.0 * mm[1][1];
    s.items[0].tags[0] = int(u.m[2][1]);
    mat2 r = s.r2;
    s.r2 = mat2(r[0], vec2(77.0, r[1][1]));
}

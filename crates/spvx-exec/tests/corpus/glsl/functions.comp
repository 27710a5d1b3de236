#version 450
// Function calls with in, out and inout parameters, nested calls and early returns.
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Buf { int v[]; } buf;

void swap_if_greater(inout int a, inout int b) {
    if (a > b) { int t = a; a = b; b = t; }
}
int clamp_add(int a, int b, out bool clipped) {
    int s = a + b;
    clipped = false;
    if (s > 1000) { clipped = true; return 1000; }
    if (s < -1000) { clipped = true; return -1000; }
    return s;
}
void sort3(inout int a, inout int b, inout int c) {
    swap_if_greater(a, b);
    swap_if_greater(b, c);
    swap_if_greater(a, b);
}
int poly(int x) { return x * x - 3 * x + 7; }

void main() {
    uint i = gl_GlobalInvocationID.x;
    int a = buf.v[3u * i], b = buf.v[3u * i + 1u], c = buf.v[3u * i + 2u];
    sort3(a, b, c);
    bool clipped;
    int s = clamp_add(poly(a), c * 100, clipped);
    buf.v[3u * i] = a;
    buf.v[3u * i + 1u] = b;
    buf.v[3u * i + 2u] = clipped ? -s : s;
}

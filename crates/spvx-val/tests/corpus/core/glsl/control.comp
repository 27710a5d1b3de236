#version 450
// Control flow glslang emits: loops with break/continue, do-while, nested ifs, early return
// inside a loop, switch with fall-through and default, ternaries, short-circuit logic.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Buf { int v[]; } buf;

int classify(int x) {
    switch (x & 7) {
    case 0: return 10;
    case 1:
    case 2: x += 3; // fall through
    case 3: x *= 2; break;
    default: x = -x;
    }
    return x;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    int acc = 0;
    for (int k = 0; k < 16; ++k) {
        if (k == 3) continue;
        if (acc > 1000) break;
        for (int j = 0; j < k; j++) {
            acc += (j & 1) == 0 ? j : -j;
            if (acc < -50 && j > 2) { acc = 0; break; }
        }
    }
    int n = 0;
    do { n++; acc ^= n; } while (n < 5 && acc != 7);
    while (true) {
        if (buf.v[i] > 3 || acc < 0) { buf.v[i] = classify(acc); return; }
        acc += 1;
        if (acc > 100) break;
    }
    bool a = acc > 2, b = buf.v[0] < 9;
    if (a && (b || acc == 5)) buf.v[i] = acc; else if (!a) buf.v[i] = -acc;
}

// An OpenCL C kernel with a switch on a 64-bit value (OpSwitch with two-word case literals),
// 64-bit constants, OpenCL.std math and a loop.
kernel void mix64(global const long *in, global float *out, global ulong *acc, int n) {
    size_t i = get_global_id(0);
    long v = in[i];
    float f;
    switch (v) {
    case 0x100000000L: f = 1.0f; break;
    case -5L: f = sqrt((float)i); break;
    case 0x7fffffff00000001L: f = fma((float)v, 0.5f, 2.0f); break;
    case 3: f = native_exp((float)n); break;
    default: f = (float)v;
    }
    ulong s = 0xdeadbeefcafef00dUL;
    for (int k = 0; k < n; ++k) {
        s = s * 6364136223846793005UL + (ulong)k;
    }
    acc[i] = s;
    out[i] = f;
}

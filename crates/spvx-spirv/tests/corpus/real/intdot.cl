// OpenCL C integer dot products (reference/landscape.md §5.3): vector forms lowered by
// llvm-spirv-15, and the packed forms through the SPIR-V-friendly builtins.
int __attribute__((overloadable)) __spirv_SDotKHR_Rint(int a, int b, int fmt);
int __attribute__((overloadable)) __spirv_SUDotAccSatKHR_Rint(int a, int b, int acc, int fmt);

kernel void dots(global const char4 *a, global const uchar4 *b, global const int *p,
                 global int *out) {
    size_t i = get_global_id(0);
    int d = dot(a[i], a[i]);
    d += dot_acc_sat(a[i], b[i], d);
    d += __spirv_SDotKHR_Rint(p[2 * i], p[2 * i + 1], 0);
    d = __spirv_SUDotAccSatKHR_Rint(p[2 * i], p[2 * i + 1], d, 0);
    out[i] = d;
}

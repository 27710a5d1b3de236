// SPV_INTEL_arbitrary_precision_fixed_point via the SPIR-V-friendly builtin
// (reference/landscape.md §5.3): OpFixedSqrtINTEL on a 13-bit integer giving a 5-bit result,
// and arbitrary-width integer arithmetic.
_BitInt(5) __attribute__((overloadable)) __spirv_FixedSqrtINTEL(_BitInt(13) x, bool S, int I, int rI, int Q, int O);

kernel void fixed_sqrt(global const short *in, global char *out) {
    size_t i = get_global_id(0);
    _BitInt(13) x = (_BitInt(13))in[i];
    _BitInt(5) r = __spirv_FixedSqrtINTEL(x, 0, 2, 2, 0, 0);
    out[i] = (char)r;
}

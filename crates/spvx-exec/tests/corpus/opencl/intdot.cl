// cl_khr_integer_dot_product: clang-15 + llvm-spirv-15 leave these built-ins as imported
// functions, which spvx implements as the SPIR-V integer dot products.
__kernel void intdot(__global const uint *a, __global const uint *b, __global const int *acc,
                     __global int *out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  int c = acc[i];
  char4 sx = as_char4(x), sy = as_char4(y);
  uchar4 ux = as_uchar4(x), uy = as_uchar4(y);
  __global int *o = out + 12 * i;
  o[0] = dot_4x8packed_ss_int(x, y);
  o[1] = (int)dot_4x8packed_uu_uint(x, y);
  o[2] = dot_4x8packed_su_int(x, y);
  o[3] = dot_4x8packed_us_int(x, y);
  o[4] = dot_acc_sat_4x8packed_ss_int(x, y, c);
  o[5] = (int)dot_acc_sat_4x8packed_uu_uint(x, y, (uint)c);
  o[6] = dot_acc_sat_4x8packed_su_int(x, y, c);
  o[7] = dot(sx, sy);
  o[8] = (int)dot(ux, uy);
  o[9] = dot(sx, uy);
  o[10] = dot(ux, sy);
  o[11] = dot_acc_sat(sx, sy, c);
}

// Row dot products of an int8 matrix A (8 rows x 64) with an int8 vector x (64), one
// workgroup of 16 invocations per row: each invocation multiplies four element pairs (char4),
// the workgroup sums the partial products in __local memory with barriers, and invocation 0
// adds a bias with add_sat (saturating at the int32 limits). Compiled by clang-15 +
// llvm-spirv-15 (see opencl_rowdot.py for the command); the expected output in
// opencl_rowdot.toml comes from opencl_rowdot.py, plain Python integers.
__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void rowdot(__global const char4 *a, __global const char4 *x, __global int *out,
            __local int *part, int bias) {
  size_t r = get_group_id(0);
  size_t l = get_local_id(0);
  int4 p = convert_int4(a[r * 16 + l]) * convert_int4(x[l]);
  part[l] = p.x + p.y + p.z + p.w;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 8; s > 0; s >>= 1) {
    if (l < s)
      part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[r] = add_sat(part[0], bias);
}

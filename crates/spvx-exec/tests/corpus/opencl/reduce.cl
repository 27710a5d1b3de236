// Workgroup sum with local memory and barriers (wrong unless invocations synchronise), plus
// the OpenCL built-ins written out per invocation.
__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void reduce(__global const int *in, __global int *sums, __local int *scratch,
            __global ulong *ids) {
  size_t l = get_local_id(0);
  size_t g = get_global_id(0);
  scratch[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    sums[get_group_id(0)] = scratch[0];
  __global ulong *o = ids + 8 * g;
  o[0] = get_global_id(0);
  o[1] = get_local_id(0);
  o[2] = get_group_id(0);
  o[3] = get_num_groups(0);
  o[4] = get_global_size(0);
  o[5] = get_local_size(0);
  o[6] = get_work_dim();
  o[7] = get_global_linear_id();
}

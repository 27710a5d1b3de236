// Histogram: atomics on local memory, then on the global histogram; a global max.
__kernel void atomics(__global const uint *in, __global uint *hist, __global int *maxv,
                      __local uint *local_hist) {
  size_t l = get_local_id(0);
  if (l < 8)
    local_hist[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[get_global_id(0)];
  atomic_inc(&local_hist[v % 8]);
  atomic_max(maxv, (int)v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 8)
    atomic_add(&hist[l], local_hist[l]);
}

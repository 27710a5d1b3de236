// Program-scope __constant data (a UniformConstant variable with an initialiser) and a
// __constant pointer argument.
__constant int table[4] = {10, 20, 30, 40};

__kernel void constants(__constant int *k, __global int *out) {
  size_t i = get_global_id(0);
  out[i] = table[i % 4] * k[i] + (int)get_local_size(0);
}

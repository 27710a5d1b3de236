// remquo, lgamma_r and nan of OpenCL.std in float, double and half (tests/opencl_remquo.rs
// compares with MPFR and exact rational arithmetic).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void fns_float(__global const float *x, __global const float *y,
                        __global const uint *code, __global float *out,
                        __global int *iout) {
  size_t i = get_global_id(0);
  int q, s;
  out[3 * i] = remquo(x[i], y[i], &q);
  out[3 * i + 1] = lgamma_r(x[i], &s);
  out[3 * i + 2] = nan(code[i]);
  iout[2 * i] = q;
  iout[2 * i + 1] = s;
}

// A 4-component remquo (the vector form), quotients stored through a global pointer.
__kernel void remquo_float4(__global const float4 *x, __global const float4 *y,
                            __global float4 *r, __global int4 *q) {
  size_t i = get_global_id(0);
  r[i] = remquo(x[i], y[i], q + i);
}

__kernel void fns_double(__global const double *x, __global const double *y,
                         __global const ulong *code, __global double *out,
                         __global int *iout) {
  size_t i = get_global_id(0);
  int q, s;
  out[3 * i] = remquo(x[i], y[i], &q);
  out[3 * i + 1] = lgamma_r(x[i], &s);
  out[3 * i + 2] = nan(code[i]);
  iout[2 * i] = q;
  iout[2 * i + 1] = s;
}

__kernel void fns_half(__global const half *x, __global const half *y,
                       __global const ushort *code, __global half *out,
                       __global int *iout) {
  size_t i = get_global_id(0);
  int q, s;
  out[3 * i] = remquo(x[i], y[i], &q);
  out[3 * i + 1] = lgamma_r(x[i], &s);
  out[3 * i + 2] = nan(code[i]);
  iout[2 * i] = q;
  iout[2 * i + 1] = s;
}

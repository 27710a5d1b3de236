// OpenCL.std float functions with exactly defined results (no transcendental rounding).
__kernel void floatmath(__global const float *a, __global const float *b,
                        __global const float *c, __global float *out, __global int *iout) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  __global float *o = out + 16 * i;
  o[0] = fabs(x);
  o[1] = floor(x);
  o[2] = ceil(x);
  o[3] = trunc(x);
  o[4] = round(x);
  o[5] = rint(x);
  o[6] = fmin(x, y);
  o[7] = fmax(x, y);
  o[8] = fma(x, y, z);
  o[9] = sqrt(fabs(x));
  o[10] = fmod(x, y);
  o[11] = copysign(x, y);
  o[12] = fdim(x, y);
  o[13] = ldexp(x, (int)z);
  o[14] = clamp(x, -1.0f, 1.0f);
  o[15] = remainder(x, y);
  iout[2 * i] = ilogb(x);
  iout[2 * i + 1] = as_int(nextafter(x, y));
}

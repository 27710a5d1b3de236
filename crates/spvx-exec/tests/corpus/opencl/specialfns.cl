// erf, erfc, tgamma and lgamma of OpenCL.std (correctly rounded through CORE-MATH in spvx;
// the test compares with MPFR).
__kernel void specialfns(__global const float *x, __global float *out) {
  size_t i = get_global_id(0);
  float v = x[i];
  __global float *o = out + 4 * i;
  o[0] = erf(v);
  o[1] = erfc(v);
  o[2] = tgamma(v);
  o[3] = lgamma(v);
}

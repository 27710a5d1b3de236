// OpenCL.std functions evaluated through libm at cases whose true value is representable, so
// that the correctly rounded result is exact: sinpi/cospi at integers and half-integers,
// cbrt of cubes, exp10 of small integers, hypot of Pythagorean multiples, pown, sign,
// maxmag/minmag, logb.
__kernel void exactmath(__global const float *x, __global float *out) {
  size_t i = get_global_id(0);
  float v = x[i];
  __global float *o = out + 10 * i;
  o[0] = sinpi(v * 0.5f);
  o[1] = cospi(v * 0.5f);
  o[2] = cbrt(v * v * v);
  o[3] = exp10(fabs(v));
  o[4] = hypot(3.0f * v, 4.0f * v);
  o[5] = pown(v, 3);
  o[6] = sign(v - 2.0f);
  o[7] = maxmag(v, -3.0f);
  o[8] = minmag(v, -3.0f);
  o[9] = logb(v);
}

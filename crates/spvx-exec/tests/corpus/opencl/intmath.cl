// OpenCL.std integer functions.
__kernel void intmath(__global const int *a, __global const int *b, __global const int *c,
                      __global int *out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i], z = c[i];
  uint ux = (uint)x, uy = (uint)y, uz = (uint)z;
  __global int *o = out + 24 * i;
  o[0] = abs(x);
  o[1] = abs_diff(x, y);
  o[2] = add_sat(x, y);
  o[3] = (int)add_sat(ux, uy);
  o[4] = hadd(x, y);
  o[5] = rhadd(x, y);
  o[6] = clamp(x, -100, 100);
  o[7] = clz(x);
  o[8] = ctz(x);
  o[9] = mad_hi(x, y, z);
  o[10] = mad_sat(x, y, z);
  o[11] = (int)mad_sat(ux, uy, uz);
  o[12] = max(x, y);
  o[13] = (int)min(ux, uy);
  o[14] = mul_hi(x, y);
  o[15] = (int)mul_hi(ux, uy);
  o[16] = rotate(x, y);
  o[17] = sub_sat(x, y);
  o[18] = (int)sub_sat(ux, uy);
  o[19] = popcount(x);
  o[20] = mad24(x, y, z);
  o[21] = mul24(x, y);
  long u = upsample((short)x, (ushort)y);
  o[22] = (int)u;
  o[23] = (int)(u >> 16);
}

// vload/vstore, vload_half/vstore_half(_rtz), shuffle, select, bitselect, cross, dot,
// length.
__kernel void vectors(__global const float *in, __global float *out, __global half *h,
                      __global int *iout) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  float4 w = v.wzyx * 2.0f;
  vstore4(w, i, out);
  float f = vload_half(i, h);
  vstore_half_rtz(f * 3.0f, i + 8, h);
  vstore_half(v.x, i + 16, h);
  int4 m = (int4)(3, 2, 1, 0);
  int4 iv = convert_int4(v);
  int4 s = shuffle(iv, as_uint4(m));
  int4 sel = select(iv, s, (int4)(-1, 0, -1, 0));
  iout[8 * i + 0] = s.x;
  iout[8 * i + 1] = s.w;
  iout[8 * i + 2] = sel.x;
  iout[8 * i + 3] = sel.y;
  iout[8 * i + 4] = bitselect(iv.x, iv.y, 0x0f0f0f0f);
  float3 c = cross(v.xyz, w.xyz);
  out[64 + 4 * i] = c.x;
  out[64 + 4 * i + 1] = c.y;
  out[64 + 4 * i + 2] = c.z;
  out[64 + 4 * i + 3] = dot(v, w);
}

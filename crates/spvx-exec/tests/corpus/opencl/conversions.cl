// Saturating and rounding conversions (OpenCL C 6.4.3): llvm-spirv-15 turns them into
// OpSatConvertSToU / OpSatConvertUToS, OpSConvert / OpUConvert / OpConvertFToS /
// OpConvertFToU decorated SaturatedConversion, FPRoundingMode on float-to-integer
// conversions, and OpOrdered / OpUnordered for isordered / isunordered.

#define N 20

kernel void conversions(global const int *i, global const float *f, global const float *g,
                        global int *o) {
  size_t k = get_global_id(0);
  int x = i[k];
  uint u = (uint)x;
  float y = f[k];
  global int *r = o + k * N;
  r[0] = convert_char_sat(x);
  r[1] = convert_uchar_sat(x);
  r[2] = convert_short_sat(x);
  r[3] = convert_ushort_sat(x);
  r[4] = (int)convert_uint_sat(x);
  r[5] = convert_char_sat(u);
  r[6] = convert_uchar_sat(u);
  r[7] = convert_int_sat(u);
  r[8] = convert_int_sat((long)x * 65536);
  r[9] = (int)convert_uint_sat((long)x * 65536);
  r[10] = convert_int_rte(y);
  r[11] = convert_int_rtp(y);
  r[12] = convert_int_rtn(y);
  r[13] = convert_int_rtz(y);
  r[14] = convert_int(y);
  r[15] = convert_uchar_sat_rte(y);
  r[16] = convert_char_sat_rtn(y);
  r[17] = isordered(y, g[k]);
  r[18] = isunordered(y, g[k]);
  r[19] = (int)convert_ushort_sat_rtp(y);
}

// OpenCL C printf: one line per invocation, with integer, float (promoted to double), long
// and vector directives.
__kernel void printf_kernel(__global const int *in) {
  size_t i = get_global_id(0);
  int v = in[i];
  float f = (float)v * 0.5f;
  int2 p = (int2)(v, -v);
  printf("i=%d v=%5d f=%.2f l=%ld x=%#x p=%v2d\n", (int)i, v, f, (long)i * 1000000000L, v, p);
}

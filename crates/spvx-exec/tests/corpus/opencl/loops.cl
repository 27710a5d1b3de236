// Loops with break and continue (unstructured control flow after llvm-spirv): per invocation,
// sum the positive values of its row until the first 0, skip negatives, and count steps
// (elements visited, the breaking one included). (Written with a pointer walk: llvm-spirv-15
// decorates a plain loop counter's increment twice with NoSignedWrap, which spirv-val 2025.5
// rejects.)
__kernel void loops(__global const int *rows, __global int *out, int width) {
  size_t r = get_global_id(0);
  __global const int *row = rows + r * width;
  __global const int *end = row + width;
  __global const int *p = row;
  int sum = 0;
  for (; p != end; ++p) {
    int v = *p;
    if (v < 0)
      continue;
    if (v == 0)
      break;
    sum += v;
    if (sum > 1000) {
      sum = -1;
      break;
    }
  }
  out[2 * r] = sum;
  out[2 * r + 1] = (int)(p - row) + (p != end);
}

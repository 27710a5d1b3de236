// Loops with break and continue (unstructured control flow after llvm-spirv): per invocation,
// sum the positive values of its row until the first 0, skip negatives, and count steps.
__kernel void loops(__global const int *rows, __global int *out, int width) {
  size_t r = get_global_id(0);
  __global const int *row = rows + r * width;
  int sum = 0, steps = 0;
  for (int k = 0; k < width; ++k) {
    ++steps;
    int v = row[k];
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
  out[2 * r + 1] = steps;
}

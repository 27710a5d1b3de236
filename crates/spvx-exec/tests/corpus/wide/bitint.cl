// Integers wider than 64 bits in OpenCL C (clang's _BitInt, at most 128 bits in clang-15),
// which llvm-spirv-15 emits with SPV_INTEL_arbitrary_precision_integers. Expected values are
// computed in tests/wide_kernel.rs with num-bigint from the C semantics.
typedef unsigned _BitInt(100) u100;
typedef _BitInt(100) s100;
typedef _BitInt(128) s128;
typedef unsigned _BitInt(65) u65;

kernel void wide(global const u100 *a, global const s128 *b, global u100 *ru,
                 global s128 *rs, global uint *flags) {
  size_t i = get_global_id(0);
  u100 x = a[2 * i], y = a[2 * i + 1];
  s128 p = b[2 * i], q = b[2 * i + 1];
  ru[4 * i + 0] = x * y + (x ^ (y >> 7));
  ru[4 * i + 1] = y ? x / y : (u100)0;
  ru[4 * i + 2] = x % (y | 1); // another divisor: a div/rem pair becomes LLVM freeze
  ru[4 * i + 3] = (u100)((s100)x >> 5);
  rs[4 * i + 0] = q ? p / q : (s128)0;
  rs[4 * i + 1] = p % (q | 1);
  rs[4 * i + 2] = (s128)(s100)x - p;
  u65 z = (u65)x + (u65)y;
  rs[4 * i + 3] = (s128)z << 3;
  flags[i] = (uint)(x < y) | (uint)(p < q) << 1 | (uint)((s100)x < 0) << 2 |
             (uint)((long)p == 5) << 3;
}

// Physical32 (clang-15 -triple spir, 32-bit pointers and size_t): pointer <-> integer round
// trips, pointers stored in buffers, private arrays and structs, pointer differences.
// Compiled for spir (32-bit) and spir64 (64-bit): the same source runs under both models.

typedef struct {
  global int *p;
  int k;
  global int *q;
} pair;

// out[0..4] = sizeof(size_t), sizeof(void*), sizeof(pair), get_global_size(0)
// addr[i] = (uintptr_t)&data[i]; ptrs[i] = &data[i] (a pointer stored in a buffer)
// data[i] += data[(i ^ 1) % n] via the stored pointer, through an integer round trip
kernel void ptrint(global int *data, global uintptr_t *addr, global int *global *ptrs,
                   global int *out, int n) {
  size_t i = get_global_id(0);
  if (i == 0) {
    out[0] = sizeof(size_t);
    out[1] = sizeof(void *);
    out[2] = sizeof(pair);
    out[3] = (int)get_global_size(0);
  }
  addr[i] = (uintptr_t)&data[i];
  ptrs[i] = &data[i];
  barrier(CLK_GLOBAL_MEM_FENCE);
  size_t j = (i ^ 1) % (size_t)n; // in the same workgroup (even local size)
  // The next element's address from this element's integer address.
  global int *next = (global int *)(addr[i] + (uintptr_t)((long)j - (long)i) * sizeof(int));
  int v = *next;
  barrier(CLK_GLOBAL_MEM_FENCE);
  *ptrs[i] += v;
}

// Pointers in private memory (an array and a struct), chosen at run time; a pointer
// difference; a pointer compared with NULL and with another.
kernel void ptrmem(global int *a, global int *b, global int *out) {
  size_t i = get_global_id(0);
  global int *table[3] = {a + i, b + i, a};
  pair s = {table[i % 3], (int)i, table[(i + 1) % 3]};
  volatile int pick = (int)(i % 2);
  global int *p = pick ? s.q : s.p;
  out[4 * i] = *p;
  out[4 * i + 1] = (int)(p - a);
  out[4 * i + 2] = (p == b + i) + 2 * (p != 0);
  out[4 * i + 3] = (int)((uintptr_t)p - (uintptr_t)a);
}

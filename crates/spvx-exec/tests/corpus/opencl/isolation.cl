// Isolation under physical addressing (docs: "address map"): integer arithmetic on a
// converted pointer walks past the end of its buffer; every access must be reported, and
// the other buffer must stay untouched. Compiled for spir (32-bit) and spir64.

// Writes `value` at `a` + steps[k] bytes (k = the global id), through an integer.
kernel void walk(global int *a, global int *b, global const long *steps, int value) {
  size_t k = get_global_id(0);
  uintptr_t at = (uintptr_t)a + (uintptr_t)steps[k];
  *(global int *)at = value;
  b[0] += 0; // b is an argument the kernel holds
}

// The Physical64 forging trick: a + 2^48 bytes (the next memory space in spvx's
// internal pointer encoding).
kernel void forge(global int *a, global int *b, global int *out) {
  ulong x = (ulong)(uintptr_t)a;
  x += 1UL << 48;
  global int *p = (global int *)(uintptr_t)x;
  *p = 99;
  out[0] = *p;
}

// A pointer forged from a __constant buffer's address, written through: the buffer is
// read-only, so the write is dropped and reported, and the buffer comes back unchanged.
kernel void write_constant(constant int *c, global int *out) {
  global int *p = (global int *)(uintptr_t)c;
  p[1] = 42;
  out[0] = c[1];
}

// CrossWorkgroup program-scope variables (OpenCL C 2.0): one object per dispatch, initialised
// from the initialisers, shared by every workgroup (tests/opencl_globals.rs).

global int counter = 5;
global int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
global int *global cursor = &table[2];
global atomic_int hits = ATOMIC_VAR_INIT(100);
global float2 pair = (float2)(1.5f, -2.0f);
global int last_group = -1;
global int zeroed[3];

struct rec {
  char c;
  int i;
  short s;
};
global struct rec record = {'a', 42, -7};

// Tickets from the shared counter (atomic_inc, OpenCL 1.x style, and atomic_fetch_add on an
// atomic_int), and reads of the initialised table directly and through the pointer.
kernel void tickets(global int *out) {
  size_t i = get_global_id(0);
  size_t n = get_global_size(0);
  out[i] = atomic_inc(&counter);
  out[n + i] = atomic_fetch_add(&hits, 2);
  out[2 * n + i] = table[i % 8] * 10 + cursor[i % 4];
}

// Workgroup g reads what workgroup g - 1 wrote (in a single-threaded run, workgroups run in
// order).
kernel void relay(global int *out) {
  if (get_local_id(0) == 0) {
    out[get_group_id(0)] = last_group;
    last_group = (int)get_group_id(0) * 3;
  }
}

// Writes seen by later reads; the struct, float2 and zero initialisers; pointer difference.
kernel void mutate(global int *out, global float *fout) {
  size_t i = get_global_id(0);
  table[i] += (int)i * 100;
  out[8 + i] = table[i];
  if (i == 0) {
    out[0] = record.c;
    out[1] = record.i;
    out[2] = record.s;
    out[3] = (int)(cursor - table);
    out[4] = zeroed[0] + zeroed[1] + zeroed[2];
    zeroed[1] = 9;
    out[5] = zeroed[1];
    fout[0] = pair.x;
    fout[1] = pair.y;
  }
}

// Addresses of program-scope variables (the address map).
kernel void addresses(global ulong *out, global int *buf) {
  out[0] = (ulong)&counter;
  out[1] = (ulong)&table[3];
  out[2] = (ulong)buf;
  out[3] = (ulong)cursor;
  buf[0] = *cursor;
}

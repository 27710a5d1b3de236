// Pointer walking over an array of structs (C layout with a float4 member), pointers stored
// in private memory, pointer differences, and a struct passed by value.
typedef struct {
  float4 pos;
  int id;
  char tag;
  short weight;
} Item;

typedef struct {
  int scale;
  int bias;
} Params;

int sum_range(__global const Item *begin, __global const Item *end) {
  int acc = 0;
  for (__global const Item *p = begin; p != end; ++p)
    acc += p->id * p->weight + p->tag;
  return acc;
}

__kernel void structs(__global const Item *items, __global int *out, Params params, int n) {
  size_t i = get_global_id(0);
  __global const Item *ptrs[2];
  ptrs[0] = items;
  ptrs[1] = items + n;
  int s = sum_range(ptrs[0] + i, ptrs[1]);
  out[3 * i] = s * params.scale + params.bias;
  out[3 * i + 1] = (int)(ptrs[1] - (ptrs[0] + i));
  out[3 * i + 2] = (int)(items[i].pos.x + items[i].pos.w);
}

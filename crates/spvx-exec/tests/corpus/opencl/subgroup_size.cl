// A kernel that requires its subgroup size (cl_intel_required_subgroup_size: OpExecutionMode
// SubgroupSize 16): each work-item writes the subgroup size and 100 × its subgroup id + its lane.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sizes(global uint *o) {
  size_t k = get_global_id(0);
  o[2 * k] = get_sub_group_size();
  o[2 * k + 1] = 100 * get_sub_group_id() + get_sub_group_local_id();
}

//! A kernel's required subgroup size (OpExecutionMode SubgroupSize, from OpenCL's
//! `intel_reqd_sub_group_size(16)`; tests/corpus/opencl/subgroup_size.cl by clang-15 +
//! llvm-spirv-15): the module reports it, a run at that size sees it (get_sub_group_size,
//! get_sub_group_id and get_sub_group_local_id over 32 work-items), and a run at another
//! size is refused with the size to use, not run with subgroups the kernel never has on
//! hardware.

mod opencl_support;
use opencl_support::*;
use spvx_exec::resources::KernelArg;
use spvx_exec::{Resources, RunConfig};

#[test]
fn the_required_subgroup_size_is_used_and_enforced() {
    let m = kernel("subgroup_size.spv", "sizes");
    assert_eq!(m.required_subgroup_size(), Some(16));
    // 32 work-items, two subgroups of 16.
    let mut res = Resources::new();
    res.set_arg(0, KernelArg::Buffer(vec![0; 8 * 32]));
    res.local_size = Some([32, 1, 1]);
    let cfg = RunConfig {
        subgroup_size: 16,
        ..RunConfig::default()
    };
    m.run(&mut res, [1, 1, 1], &cfg)
        .unwrap_or_else(|e| panic!("{e}"));
    let got = u32s(out(&res, 0));
    for k in 0..32 {
        let (id, lane) = (k as u32 / 16, k as u32 % 16);
        assert_eq!(
            got[2 * k..2 * k + 2],
            [16, 100 * id + lane],
            "work-item {k}"
        );
    }
    // The default subgroup size (32) is refused.
    let e = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .expect_err("subgroup size 32 accepted");
    assert!(
        e.to_string()
            .contains("the kernel requires subgroup size 16 (OpExecutionMode SubgroupSize 16), the run asks for 32"),
        "{e}"
    );
}

//! The device column on a real Vulkan device (lavapipe in CI): the vector add through
//! `VulkanDevice` must give the host's wrapping sums, the same bytes as the engine. Without a
//! device the test prints why and passes, unless SPVX_REQUIRE_VULKAN=1 (CI), where it fails.

mod common;

use common::{case, host_sum};
use spvx_bench::{BenchOptions, Device, DeviceResult, VulkanDevice, run_case};

#[test]
fn vadd_on_the_vulkan_device_matches_the_engine_and_the_host() {
    let mut device = match VulkanDevice::open("vulkan") {
        Ok(d) => d,
        Err(e) => {
            if std::env::var("SPVX_REQUIRE_VULKAN").is_ok_and(|v| v == "1") {
                panic!("SPVX_REQUIRE_VULKAN=1 but no Vulkan device: {e}");
            }
            eprintln!("skipped: no Vulkan device ({e})");
            return;
        }
    };
    assert!(device.subgroup_size().is_some_and(|s| s > 0));
    let opts = BenchOptions {
        warmup: 0,
        rounds: 2,
    };
    let row = run_case(
        &case(host_sum()),
        Some(Ok(&mut device as &mut dyn Device)),
        &opts,
        &mut |_| {},
    )
    .expect("runs");
    assert_eq!(row.check.expected, Some(Ok(())));
    match &row.device {
        DeviceResult::Measured {
            samples,
            runs,
            mismatches,
            first_mismatch,
            setup,
        } => {
            assert_eq!((samples.len(), *runs), (2, 2));
            assert_eq!(*mismatches, 0, "{first_mismatch:?}");
            assert!(setup.is_some());
        }
        other => panic!("not measured: {other:?}"),
    }
    assert!(row.passed());
}

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
            // A short kernel: SHORT_KERNEL_ROUNDS timed rounds, not the 2 asked for.
            let n = spvx_bench::SHORT_KERNEL_ROUNDS;
            assert_eq!((samples.len(), *runs), (n, n));
            assert_eq!(*mismatches, 0, "{first_mismatch:?}");
            assert!(setup.is_some());
        }
        other => panic!("not measured: {other:?}"),
    }
    assert!(row.passed());
}

/// An array of three storage buffers (spvx-vk's bufarray.comp, glslang 12) through the bench:
/// every element reaches the device as its own descriptor and comes back compared with the
/// engine's element; the output equals sums computed on the host in u64, mod 2^32.
#[test]
fn an_array_of_buffers_on_the_vulkan_device_matches_the_engine_and_the_host() {
    use spvx_bench::{BenchCase, DeviceSupport, Work};
    use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
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
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-vk/tests/shaders/bufarray.comp.spv");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let module =
        CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default()).expect("compiles");
    let n = 32usize;
    let elements: Vec<Vec<u32>> = (0..3u32)
        .map(|k| {
            (0..n as u32 + k)
                .map(|i| (i + 1).wrapping_mul(0x0101_0101).wrapping_add(k << 28))
                .collect()
        })
        .collect();
    let mut resources = Resources::new();
    for (k, v) in elements.iter().enumerate() {
        resources.set_buffer_element(0, 0, k as u32, common::le(v));
    }
    resources.set_buffer(0, 1, vec![0; 4 * n]);
    resources.push_constants = 2u32.to_le_bytes().to_vec();
    // bufs[2] has n + 2 words, so length() = n + 2.
    let sums: Vec<u32> = (0..n)
        .map(|i| {
            let exact: u64 = (0..3)
                .map(|k| u64::from(elements[k][i]) * (k as u64 + 1))
                .sum::<u64>()
                + (n as u64 + 2);
            (exact % (1 << 32)) as u32
        })
        .collect();
    let spirv: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let case = BenchCase {
        name: "bufarray".into(),
        module,
        compile_time: None,
        spirv,
        entry: "main".into(),
        spec: Default::default(),
        groups: [(n / 4) as u32, 1, 1],
        resources,
        config: RunConfig::default(),
        subgroup_size_from_device: false,
        work: Work::default(),
        device: DeviceSupport::Supported,
        expected: vec![((0, 1), common::le(&sums))],
    };
    let opts = BenchOptions {
        warmup: 0,
        rounds: 2,
    };
    let row = run_case(
        &case,
        Some(Ok(&mut device as &mut dyn Device)),
        &opts,
        &mut |_| {},
    )
    .expect("runs");
    assert_eq!(row.check.expected, Some(Ok(())));
    match &row.device {
        DeviceResult::Measured {
            runs,
            mismatches,
            first_mismatch,
            ..
        } => {
            // A short kernel: SHORT_KERNEL_ROUNDS rounds, not the 2 asked for.
            assert_eq!(*runs, spvx_bench::SHORT_KERNEL_ROUNDS);
            assert_eq!(*mismatches, 0, "{first_mismatch:?}");
        }
        other => panic!("not measured: {other:?}"),
    }
    assert!(row.passed());
}

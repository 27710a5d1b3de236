//! The vector-add case the tests time: the benchmark set's `bench/vadd.spv`, inputs, and its
//! expected output computed on the host with wrapping u32 additions (independently of the engine).

#![allow(dead_code)]

use spvx_bench::{BenchCase, DeviceSupport, Work};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
use std::collections::BTreeMap;

/// `bench/vadd.comp` compiled (`bench/regen.sh`): c[i] = a[i] + b[i], local size 256.
pub const VADD_SPV: &[u8] = include_bytes!("../../../../bench/vadd.spv");
pub const LOCAL_SIZE: usize = 256;

pub const N: usize = 4096;

pub fn inputs() -> (Vec<u32>, Vec<u32>) {
    let a = (0..N as u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let b = (0..N as u32)
        .map(|i| u32::MAX - i.wrapping_mul(7))
        .collect();
    (a, b)
}

pub fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub fn case(expected_c: Vec<u32>) -> BenchCase {
    let module =
        CompiledModule::from_bytes(VADD_SPV, "main", &CompileOptions::default()).expect("compiles");
    let (a, b) = inputs();
    let mut resources = Resources::new();
    resources.set_words(0, 0, &a);
    resources.set_words(0, 1, &b);
    resources.set_words(0, 2, &vec![0; N]);
    BenchCase {
        name: "vadd".into(),
        module,
        compile_time: None,
        spirv: VADD_SPV
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect(),
        entry: "main".into(),
        spec: BTreeMap::new(),
        groups: [(N / LOCAL_SIZE) as u32, 1, 1],
        resources,
        config: RunConfig::default(),
        subgroup_size_from_device: false,
        work: Work {
            macs: None,
            bytes: Some(12 * N as u64),
        },
        device: DeviceSupport::Supported,
        expected: vec![((0, 2), le(&expected_c))],
    }
}

/// Wrapping sums, computed on the host.
pub fn host_sum() -> Vec<u32> {
    let (a, b) = inputs();
    a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect()
}

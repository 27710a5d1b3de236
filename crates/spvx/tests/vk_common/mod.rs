//! Shared by the differential tests on a Vulkan device: opening the device (or failing when
//! SPVX_REQUIRE_VULKAN=1, skipping with a printed reason otherwise), running one module on
//! the engine and on the device, and a deterministic generator.

#![allow(dead_code)]

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig, RunReport};
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_vk::{BufferData, DeviceChoice, VkRun, VkRunner};
use std::collections::BTreeMap;

/// The first Vulkan device; None (with the reason printed) when there is none, unless
/// SPVX_REQUIRE_VULKAN=1, which makes a missing device a failure.
pub fn device() -> Option<VkRunner> {
    match VkRunner::new(&DeviceChoice::First) {
        Ok(r) => Some(r),
        Err(e) => {
            if std::env::var("SPVX_REQUIRE_VULKAN").is_ok_and(|v| v == "1") {
                panic!("SPVX_REQUIRE_VULKAN=1 but no Vulkan device: {e}");
            }
            eprintln!("skipped: no Vulkan device ({e})");
            None
        }
    }
}

/// Assembles spirv-as text.
pub fn asm(text: &str) -> Vec<u32> {
    match assemble(text, &AsmOptions::default()) {
        Ok(a) => a.words(),
        Err(e) => panic!("test module does not assemble: {e}\n{text}"),
    }
}

/// One binding's bytes after a run on each side.
pub struct BothOutputs {
    pub engine: Vec<BufferData>,
    pub device: Vec<BufferData>,
    pub report: RunReport,
}

/// Runs `words` on the engine (subgroup size = the device's) and on the device with the same
/// buffers, returning both sides' buffers in the order given; panics on an error.
pub fn run_both(
    dev: &VkRunner,
    words: &[u32],
    groups: [u32; 3],
    buffers: Vec<BufferData>,
    push: Option<Vec<u8>>,
    spec: BTreeMap<u32, u64>,
) -> BothOutputs {
    try_run_both(dev, words, groups, buffers, push, spec).unwrap_or_else(|e| panic!("{e}"))
}

/// As [`run_both`], with errors as messages.
pub fn try_run_both(
    dev: &VkRunner,
    words: &[u32],
    groups: [u32; 3],
    buffers: Vec<BufferData>,
    push: Option<Vec<u8>>,
    spec: BTreeMap<u32, u64>,
) -> Result<BothOutputs, String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let opts = CompileOptions {
        spec_constants: spec.clone(),
        ..CompileOptions::default()
    };
    let compiled = CompiledModule::from_bytes(&bytes, "main", &opts)
        .map_err(|e| format!("engine compile: {e}"))?;
    let mut res = Resources::new();
    for b in &buffers {
        res.set_buffer(b.set, b.binding, b.bytes.clone());
    }
    if let Some(p) = &push {
        res.push_constants = p.clone();
    }
    let cfg = RunConfig {
        subgroup_size: dev.report().subgroup_size,
        step_limit: 1 << 26,
        ..RunConfig::default()
    };
    let report = compiled
        .run(&mut res, groups, &cfg)
        .map_err(|e| format!("engine run: {e}"))?;
    let engine = buffers
        .iter()
        .map(|b| BufferData {
            set: b.set,
            binding: b.binding,
            bytes: res.buffer(b.set, b.binding).unwrap_or(&[]).to_vec(),
        })
        .collect();
    let out = dev
        .run(&VkRun {
            words: words.to_vec(),
            entry: Some("main".into()),
            groups,
            buffers,
            elements: Vec::new(),
            push,
            spec,
            subgroup_size: None,
        })
        .map_err(|e| format!("device run: {e}"))?;
    Ok(BothOutputs {
        engine,
        device: out.buffers,
        report,
    })
}

/// SplitMix64 (Steele, Lea, Flood 2014), for reproducible test inputs.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0; the tiny modulo bias does not matter for test inputs).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

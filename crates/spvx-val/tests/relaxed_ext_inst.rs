//! OpExtInstWithForwardRefsKHR (SPV_KHR_relaxed_extended_instruction): its operands may name
//! ids defined later, and, like a non-semantic OpExtInst, its operands may name typeless ids
//! (the set, strings). The module is DXC's output from Vulkan-CTS
//! (spvx-exec `tests/corpus/foreign/dxc_static_method.spv`, assembled and validated by
//! SPIRV-Tools 2025.5 spirv-as/spirv-val, the independent answer: valid for vulkan1.3).
//! (spirv-val rejects the same module with those two instructions turned into plain
//! OpExtInst; spvx-val's older rule lets any debug-information OpExtInst refer forward, a
//! known leniency this test does not cover.)

use spvx_spirv::binary::read_bytes;
use spvx_val::{Options, TargetEnv};

fn module_words() -> Vec<u32> {
    let path = format!(
        "{}/../spvx-exec/tests/corpus/foreign/dxc_static_method.spv",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn errors(words: &[u32]) -> Vec<String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let m = read_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        target_env: TargetEnv::parse("vulkan1.3").unwrap_or_default(),
        ..Options::default()
    };
    spvx_val::errors(&m.header, &m.instructions, &opts)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn forward_references_of_the_relaxed_instruction_are_valid() {
    assert_eq!(errors(&module_words()), Vec::<String>::new());
}

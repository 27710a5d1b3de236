//! An Input Block struct whose members are built-ins (BuiltIn as member decorations), as the
//! Vulkan CTS script spirv1p4/opptrequal/ssbo_comparisons_equal declares one: loaded whole,
//! through an OpAccessChain to a member, and to a vector component of a member, on the
//! interpreter and the JIT. Expected values are worked out by hand from the dispatch shape.

use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

/// `builtin_block.spvasm` (also run on the Vulkan device by crates/spvx/tests/vk_builtin_block.rs):
/// LocalSize 2 2 1. Each invocation writes 8 words at out[8·k], k = LocalInvocationIndex +
/// 4·WorkgroupId.x (both read from the block): LocalInvocationId.x, .y, WorkgroupId.x,
/// LocalInvocationIndex (one OpLoad of the whole block), GlobalInvocationId.x (a member
/// loaded as a vector), GlobalInvocationId.y (a component through one access chain),
/// NumWorkgroups.x (likewise), WorkgroupId.y (a member pointer, then a component of it).
const TEXT: &str = include_str!("builtin_block.spvasm");

/// The words the module must write for 2 × 1 × 1 workgroups of 2 × 2 × 1, by hand.
fn expected() -> Vec<u32> {
    let mut out = Vec::new();
    for wx in 0..2u32 {
        for ly in 0..2u32 {
            for lx in 0..2u32 {
                let index = lx + 2 * ly;
                // GlobalInvocationId = WorkgroupId × LocalSize + LocalInvocationId.
                out.extend([lx, ly, wx, index, wx * 2 + lx, ly, 2, 0]);
            }
        }
    }
    out
}

fn run(text: &str, jit: bool) -> (Vec<u32>, JitUse) {
    let asm = assemble(text, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut res = Resources::new();
    res.set_words(0, 0, &[0xdead_beef; 64]);
    let cfg = RunConfig {
        jit,
        ..RunConfig::default()
    };
    let report = m
        .run(&mut res, [2, 1, 1], &cfg)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0, "{:?}", report.events);
    (res.words(0, 0).unwrap_or_default(), report.jit)
}

#[test]
fn builtin_block_on_the_interpreter() {
    assert_eq!(run(TEXT, false).0, expected());
}

#[test]
fn builtin_block_on_the_jit() {
    let (words, jit) = run(TEXT, true);
    assert_eq!(jit, JitUse::Ran);
    assert_eq!(words, expected());
}

#[test]
fn block_member_without_builtin_is_refused_by_name() {
    // Invalid (spirv-val: no mixing of built-in and non-built-in members); with validation
    // off, refused by the engine by name rather than run with a member nobody fills.
    let text = TEXT.replace("OpMemberDecorate %In 4 BuiltIn NumWorkgroups\n", "");
    let asm = assemble(&text, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let opts = CompileOptions {
        validate: false,
        ..CompileOptions::default()
    };
    let err = match CompiledModule::from_bytes(&asm.bytes(), "main", &opts) {
        Ok(_) => panic!("a block with a non-built-in member compiled"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("member 4") && err.contains("not a built-in"),
        "{err}"
    );
}

//! Compiling from the index validation returns (`CompiledModule::from_validated`): the module
//! is validated once by the caller and runs as it does when compiled from its bytes.

mod support;
use spvx_exec::{CompileOptions, CompiledModule, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};

/// `out[i] = in[i] * 3 + 1`, compiled from `spvx_val::validate`'s result.
#[test]
fn a_validated_module_compiles_and_runs() {
    let text = support::kernel(16, "", "%t = OpIMul %uint %x %u3\n%r = OpIAdd %uint %t %u1");
    let a = assemble(&text, &AsmOptions::default()).expect("assembles");
    let parsed = spvx_spirv::binary::read_bytes(&a.bytes()).expect("reads");
    let valid = spvx_val::validate(
        &parsed.header,
        &parsed.instructions,
        &spvx_val::Options::default(),
    )
    .expect("valid");
    let m = CompiledModule::from_validated(&valid, "main", &CompileOptions::default())
        .expect("compiles");
    let input: Vec<u32> = (0..32).map(|i| i * 0x0101_0101).collect();
    let (out, _) =
        support::run_words(&m, &input, input.len(), 2, &RunConfig::default()).expect("runs");
    let expected: Vec<u32> = input
        .iter()
        .map(|&x| x.wrapping_mul(3).wrapping_add(1))
        .collect();
    assert_eq!(out, expected);
}

/// An entry point the module does not have is the same error as from bytes.
#[test]
fn a_missing_entry_point_is_reported() {
    let text = support::kernel(1, "", "%r = OpCopyObject %uint %x");
    let a = assemble(&text, &AsmOptions::default()).expect("assembles");
    let parsed = spvx_spirv::binary::read_bytes(&a.bytes()).expect("reads");
    let valid = spvx_val::validate(
        &parsed.header,
        &parsed.instructions,
        &spvx_val::Options::default(),
    )
    .expect("valid");
    let err = CompiledModule::from_validated(&valid, "other", &CompileOptions::default())
        .expect_err("no such entry point");
    assert_eq!(
        err.to_string(),
        "no entry point named 'other' (the module has: main)"
    );
}

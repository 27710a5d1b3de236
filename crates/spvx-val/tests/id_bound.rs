//! The id bound rules (SPIR-V §2.3 word 3, §2.17 Universal Limits): a result id at or above the
//! header's bound, and a bound above 4,194,303, are errors. Expected messages are spirv-val
//! 2025.5's, observed on the same modules (`Result <id> '5' must be less than the ID bound
//! '5'.`; "The id bound is larger than the max id bound 4194303").

use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_val::rules::ids::MAX_ID_BOUND;
use spvx_val::{Options, errors};

const MODULE: &str = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%e = OpLabel
OpReturn
OpFunctionEnd
";

fn errors_with_bound(bound: u32) -> Vec<String> {
    let a = assemble(MODULE, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut header = a.header;
    header.bound = bound;
    let insts: Vec<_> = a.instructions().cloned().collect();
    errors(&header, &insts, &Options::default())
        .iter()
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn the_assembled_bound_is_valid() {
    // Ids 1..=4 are used, so the assembler's bound is 5.
    assert_eq!(errors_with_bound(5), Vec::<String>::new());
    assert_eq!(errors_with_bound(MAX_ID_BOUND), Vec::<String>::new());
}

#[test]
fn a_result_id_at_or_above_the_bound_is_an_error() {
    let errs = errors_with_bound(4);
    assert_eq!(
        errs,
        vec!["Result <id> '4' must be less than the ID bound '4'.".to_string()]
    );
    assert_eq!(errors_with_bound(2).len(), 3, "ids 2, 3 and 4");
}

#[test]
fn a_bound_above_the_universal_limit_is_an_error() {
    assert_eq!(MAX_ID_BOUND, 4_194_303);
    let errs = errors_with_bound(MAX_ID_BOUND + 1);
    assert_eq!(
        errs,
        vec![
            "the id bound 4194304 is larger than the max id bound 4194303 (SPIR-V §2.17 Universal Limits)"
                .to_string()
        ]
    );
    assert_eq!(errors_with_bound(u32::MAX).len(), 1);
}

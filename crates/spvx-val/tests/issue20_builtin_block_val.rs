//! Input Block structs whose members are built-ins (issue 20; the Vulkan CTS script
//! spirv1p4/opptrequal/ssbo_comparisons_equal declares one), each module judged by spvx-val and
//! by spirv-val 2025.5, which must agree: the valid block; mixing built-in and other members;
//! no Block decoration; two built-in blocks; a built-in twice (Vulkan); the members' types
//! (Vulkan); a built-in struct inside another struct; Location on a built-in block variable.

mod support;

use support::judge;

/// The block the engine's test runs (crates/spvx-exec/tests/builtin_block.spvasm).
const BLOCK: &str = include_str!("../../spvx-exec/tests/builtin_block.spvasm");

/// A small module around the declarations `decls` (decorations first, then types and
/// variables, split by `---`), with interface `iface`.
fn small(iface: &str, decls: &str) -> String {
    let (decorations, types) = decls.split_once("---").unwrap_or(("", decls));
    format!(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint GLCompute %main \"main\" {iface}\nOpExecutionMode %main LocalSize 1 1 1\n\
         {decorations}\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n\
         %v3 = OpTypeVector %uint 3\n{types}\n%main = OpFunction %void None %fn\n%e = OpLabel\n\
         OpReturn\nOpFunctionEnd\n"
    )
}

const ENVS: [&str; 3] = ["vulkan1.3", "vulkan1.1spv1.4", "spv1.6"];

#[test]
fn the_engine_test_block_is_valid() {
    for env in ENVS {
        judge(BLOCK, env, None);
    }
}

#[test]
fn a_member_without_built_in_is_rejected() {
    let text = BLOCK.replace("OpMemberDecorate %In 2 BuiltIn LocalInvocationIndex\n", "");
    for env in ENVS {
        judge(&text, env, Some("all members of that structure type"));
    }
    let text = BLOCK.replace(
        "OpMemberDecorate %In 2 BuiltIn LocalInvocationIndex",
        "OpMemberDecorate %In 2 Offset 24",
    );
    judge(
        &text,
        "vulkan1.3",
        Some("all members of that structure type"),
    );
}

#[test]
fn a_built_in_struct_without_block_is_rejected() {
    let text = BLOCK.replace("OpDecorate %In Block\n", "");
    for env in ENVS {
        judge(&text, env, Some("Interface struct has no Block decoration"));
    }
}

#[test]
fn two_built_in_blocks_are_rejected() {
    let text = small(
        "%a %b",
        "OpMemberDecorate %S 0 BuiltIn LocalInvocationId\nOpDecorate %S Block\n\
         OpMemberDecorate %T 0 BuiltIn WorkgroupId\nOpDecorate %T Block\n---\n\
         %S = OpTypeStruct %v3\n%T = OpTypeStruct %v3\n%ps = OpTypePointer Input %S\n\
         %pt = OpTypePointer Input %T\n%a = OpVariable %ps Input\n%b = OpVariable %pt Input",
    );
    for env in ENVS {
        judge(&text, env, Some("at most one object per Storage Class"));
    }
}

#[test]
fn a_built_in_twice_is_rejected_in_vulkan() {
    // Twice in one block.
    let text = BLOCK.replace(
        "OpMemberDecorate %In 4 BuiltIn NumWorkgroups",
        "OpMemberDecorate %In 4 BuiltIn WorkgroupId",
    );
    judge(
        &text,
        "vulkan1.3",
        Some("duplicate input variables with WorkgroupId"),
    );
    judge(&text, "spv1.6", None);
    // In a block and in a variable of its own.
    let text = small(
        "%a %b",
        "OpMemberDecorate %S 0 BuiltIn LocalInvocationId\nOpDecorate %S Block\n\
         OpDecorate %b BuiltIn LocalInvocationId\n---\n%S = OpTypeStruct %v3\n\
         %ps = OpTypePointer Input %S\n%pv = OpTypePointer Input %v3\n\
         %a = OpVariable %ps Input\n%b = OpVariable %pv Input",
    );
    judge(
        &text,
        "vulkan1.3",
        Some("duplicate input variables with LocalInvocationId"),
    );
    judge(&text, "spv1.6", None);
    // Two variables.
    let text = small(
        "%a %b",
        "OpDecorate %a BuiltIn LocalInvocationId\nOpDecorate %b BuiltIn LocalInvocationId\n---\n\
         %pv = OpTypePointer Input %v3\n%a = OpVariable %pv Input\n%b = OpVariable %pv Input",
    );
    judge(
        &text,
        "vulkan1.3",
        Some("duplicate input variables with LocalInvocationId"),
    );
    judge(&text, "spv1.6", None);
}

#[test]
fn member_types_follow_the_vulkan_built_in_rules() {
    // LocalInvocationId as a scalar: Vulkan wants a 3-component vector of 32-bit ints.
    let text = small(
        "%a",
        "OpMemberDecorate %S 0 BuiltIn LocalInvocationId\nOpDecorate %S Block\n---\n\
         %S = OpTypeStruct %uint\n%ps = OpTypePointer Input %S\n%a = OpVariable %ps Input",
    );
    judge(
        &text,
        "vulkan1.3",
        Some("3-component vector of 32-bit ints"),
    );
    judge(&text, "spv1.6", None);
    // Checked where the struct is declared, used or not.
    let text = small(
        "",
        "OpMemberDecorate %S 0 BuiltIn WorkgroupId\nOpDecorate %S Block\n---\n\
         %S = OpTypeStruct %uint",
    );
    judge(
        &text,
        "vulkan1.3",
        Some("3-component vector of 32-bit ints"),
    );
    // LocalInvocationIndex as a vector.
    let text = small(
        "%a",
        "OpMemberDecorate %S 0 BuiltIn LocalInvocationIndex\nOpDecorate %S Block\n---\n\
         %S = OpTypeStruct %v3\n%ps = OpTypePointer Input %S\n%a = OpVariable %ps Input",
    );
    judge(&text, "vulkan1.3", Some("32-bit int scalar"));
}

#[test]
fn a_built_in_struct_inside_a_struct_is_rejected() {
    let text = small(
        "%a",
        "OpMemberDecorate %S 0 BuiltIn LocalInvocationId\nOpDecorate %S Block\n---\n\
         %S = OpTypeStruct %v3\n%O = OpTypeStruct %S\n%po = OpTypePointer Input %O\n\
         %a = OpVariable %po Input",
    );
    for env in ENVS {
        judge(
            &text,
            env,
            Some("may not be contained as a member of another structure"),
        );
    }
}

#[test]
fn location_on_a_built_in_block_variable_is_rejected_in_vulkan() {
    let decls = "OpMemberDecorate %S 0 BuiltIn LocalInvocationId\nOpDecorate %S Block\n\
                 OpDecorate %a Location 0\n---\n%S = OpTypeStruct %v3\n\
                 %ps = OpTypePointer Input %S\n%a = OpVariable %ps Input";
    judge(
        &small("%a", decls),
        "vulkan1.3",
        Some("cannot have any Location or Component"),
    );
    judge(&small("%a", decls), "spv1.6", None);
    // On a member instead: both accept it.
    let decls = decls.replace(
        "OpDecorate %a Location 0",
        "OpMemberDecorate %S 0 Location 0",
    );
    judge(&small("%a", &decls), "vulkan1.3", None);
}

#[test]
fn an_array_of_built_in_blocks_is_accepted() {
    // Not a struct pointee: neither tool applies the block rules (the engine refuses such a
    // variable by name: Input variables other than built-ins).
    let text = small(
        "%a",
        "OpMemberDecorate %S 0 BuiltIn LocalInvocationId\nOpDecorate %S Block\n---\n\
         %S = OpTypeStruct %v3\n%c2 = OpConstant %uint 2\n%A = OpTypeArray %S %c2\n\
         %pa = OpTypePointer Input %A\n%a = OpVariable %pa Input",
    );
    for env in ENVS {
        judge(&text, env, None);
    }
}

//! Regression tests of issue 20 item 2 (validator defects), each checked against spirv-val
//! 2025.5 where it knows the rule (`agree`), or marked as spvx's own reading.

mod support;

/// How spirv-val 2025.5 relates to spvx's verdict on a case.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Oracle {
    /// spirv-val gives the same verdict.
    Agree,
    /// spirv-val accepts what spvx rejects, on purpose (the reason is in docs/semantics/).
    Stricter,
    /// spirv-val rejects what spvx accepts, on purpose (the reason is in docs/semantics/).
    Lenient,
}

/// Validates `text` for `env` with spvx: valid when `expect` is `None`, otherwise an error
/// whose message contains `expect`; then compares with spirv-val as `oracle` says.
fn judge(text: &str, env: &str, expect: Option<&str>, oracle: Oracle) {
    support::assert_spvx(text, env, expect);
    let Some((ok, msg)) = support::spirv_val_verdict(text, env) else {
        return;
    };
    match oracle {
        Oracle::Agree => assert_eq!(ok, expect.is_none(), "spirv-val disagrees: {msg}\n{text}"),
        Oracle::Stricter => assert!(ok, "marked stricter, but spirv-val rejects: {msg}"),
        Oracle::Lenient => assert!(!ok, "marked lenient, but spirv-val accepts\n{text}"),
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Scope values; DescriptorSet/Binding of resource variables under Vulkan.

/// A compute module whose body is `body`, with extra capabilities `caps`.
fn scope_module(caps: &str, body: &str) -> String {
    format!(
        "OpCapability Shader
{caps}
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\" %wu
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_5 = OpConstant %uint 5
%uint_6 = OpConstant %uint 6
%uint_7 = OpConstant %uint 7
%uint_99 = OpConstant %uint 99
%uint_264 = OpConstant %uint 264
%null = OpConstantNull %uint
%spec = OpSpecConstant %uint 2
%pwu = OpTypePointer Workgroup %uint
%wu = OpVariable %pwu Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
"
    )
}

#[test]
fn control_barrier_execution_scope_99_is_rejected() {
    let m = scope_module("", "OpControlBarrier %uint_99 %uint_2 %uint_264");
    judge(&m, "spv1.6", Some("invalid scope value"), Oracle::Agree);
}

#[test]
fn control_barrier_memory_scope_99_is_rejected() {
    let m = scope_module("", "OpControlBarrier %uint_2 %uint_99 %uint_264");
    judge(&m, "spv1.6", Some("invalid scope value"), Oracle::Agree);
}

#[test]
fn memory_barrier_scope_7_is_rejected() {
    let m = scope_module("", "OpMemoryBarrier %uint_7 %uint_264");
    judge(&m, "spv1.6", Some("invalid scope value"), Oracle::Agree);
}

#[test]
fn atomic_scope_99_is_rejected() {
    let m = scope_module("", "%x = OpAtomicIAdd %uint %wu %uint_99 %uint_0 %uint_1");
    judge(&m, "spv1.6", Some("invalid scope value"), Oracle::Agree);
}

#[test]
fn every_scope_value_and_a_null_scope_are_accepted() {
    // CrossDevice 0 … Invocation 4 as both scopes; ShaderCallKHR 6 as an execution scope;
    // OpConstantNull is CrossDevice.
    for s in [
        "%uint_0", "%uint_1", "%uint_2", "%uint_3", "%uint_4", "%null",
    ] {
        let m = scope_module("", &format!("OpControlBarrier {s} {s} %uint_264"));
        judge(&m, "spv1.6", None, Oracle::Agree);
    }
    let m = scope_module("", "OpControlBarrier %uint_6 %uint_2 %uint_264");
    judge(&m, "spv1.6", None, Oracle::Agree);
}

#[test]
fn queue_family_memory_scope_needs_the_vulkan_memory_model() {
    let m = scope_module("", "OpMemoryBarrier %uint_5 %uint_264");
    judge(&m, "spv1.6", Some("QueueFamily"), Oracle::Agree);
}

#[test]
fn spec_constant_scope_in_a_shader_module_is_rejected() {
    let m = scope_module("", "OpControlBarrier %spec %uint_2 %uint_264");
    judge(&m, "spv1.6", Some("constant"), Oracle::Agree);
}

#[test]
fn vulkan_execution_scope_is_workgroup_or_subgroup() {
    let m = scope_module("", "OpControlBarrier %uint_1 %uint_1 %uint_264");
    judge(
        &m,
        "vulkan1.3",
        Some("VUID-StandaloneSpirv-None-04636"),
        Oracle::Agree,
    );
    let m = scope_module("", "OpControlBarrier %uint_3 %uint_1 %uint_264");
    judge(&m, "vulkan1.3", None, Oracle::Agree);
}

#[test]
fn vulkan_memory_scope_is_not_cross_device() {
    let m = scope_module("", "OpMemoryBarrier %uint_0 %uint_264");
    judge(
        &m,
        "vulkan1.3",
        Some("VUID-StandaloneSpirv-None-04638"),
        Oracle::Agree,
    );
    let m = scope_module("", "%x = OpAtomicIAdd %uint %wu %uint_0 %uint_0 %uint_1");
    judge(
        &m,
        "vulkan1.3",
        Some("VUID-StandaloneSpirv-None-04638"),
        Oracle::Agree,
    );
}

/// A compute module with a storage buffer `%sb`, a uniform buffer `%ub` and a sampler `%smp`,
/// decorated with `decorations`.
fn resource_module(decorations: &str) -> String {
    format!(
        "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\" %sb %ub %smp
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
{decorations}
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%S = OpTypeStruct %uint
%psb = OpTypePointer StorageBuffer %S
%pub = OpTypePointer Uniform %S
%sampler = OpTypeSampler
%psmp = OpTypePointer UniformConstant %sampler
%psbu = OpTypePointer StorageBuffer %uint
%sb = OpVariable %psb StorageBuffer
%ub = OpVariable %pub Uniform
%smp = OpVariable %psmp UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %psbu %sb %uint_0
%x = OpLoad %uint %p
OpReturn
OpFunctionEnd
"
    )
}

const ALL_BOUND: [(&str, u32); 3] = [("%sb", 0), ("%ub", 1), ("%smp", 2)];

fn bindings(skip: &str) -> String {
    let mut s = String::new();
    for (v, b) in ALL_BOUND {
        if !skip.starts_with(&format!("{v} DescriptorSet")) {
            s += &format!("OpDecorate {v} DescriptorSet 0\n");
        }
        if !skip.starts_with(&format!("{v} Binding")) {
            s += &format!("OpDecorate {v} Binding {b}\n");
        }
    }
    s
}

#[test]
fn vulkan_resource_variables_are_bound() {
    judge(
        &resource_module(&bindings("")),
        "vulkan1.3",
        None,
        Oracle::Agree,
    );
    // Outside Vulkan nothing requires them.
    judge(&resource_module(""), "spv1.6", None, Oracle::Agree);
}

#[test]
fn vulkan_resource_variable_without_descriptor_set_or_binding_is_rejected() {
    for skip in [
        "%sb DescriptorSet",
        "%sb Binding",
        "%ub DescriptorSet",
        "%ub Binding",
        "%smp DescriptorSet",
        "%smp Binding",
    ] {
        let m = resource_module(&bindings(skip));
        judge(
            &m,
            "vulkan1.3",
            Some("VUID-StandaloneSpirv-UniformConstant-06677"),
            Oracle::Agree,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 2. SPV_ARM_tensors: the indexing capabilities, dynamic indexing, tensor-operand scopes.

/// A Vulkan compute module reading element 0 of tensor `index` of an array of four rank-1
/// uint tensors; `%gx` is a non-constant index (GlobalInvocationId.x), `%uint_1` a constant.
fn tensor_array_module(caps: &str, index: &str, decorations: &str) -> String {
    format!(
        "{caps}
OpExtension \"SPV_ARM_tensors\"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\" %t %gid
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %t DescriptorSet 0
OpDecorate %t Binding 0
OpDecorate %gid BuiltIn GlobalInvocationId
{decorations}
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%spec = OpSpecConstant %uint 2
%arr1 = OpTypeArray %uint %uint_1
%coord = OpConstantComposite %arr1 %uint_0
%ten = OpTypeTensorARM %uint %uint_1
%tarr = OpTypeArray %ten %uint_4
%ptarr = OpTypePointer UniformConstant %tarr
%pten = OpTypePointer UniformConstant %ten
%pin = OpTypePointer Input %v3uint
%t = OpVariable %ptarr UniformConstant
%gid = OpVariable %pin Input
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3uint %gid
%gx = OpCompositeExtract %uint %g 0
%p = OpAccessChain %pten %t {index}
%tv = OpLoad %ten %p
%r = OpTensorReadARM %uint %tv %coord
OpReturn
OpFunctionEnd
"
    )
}

const TENSORS: &str = "OpCapability Shader\nOpCapability TensorsARM";

#[test]
fn dynamic_indexing_capability_implicitly_declares_tensors_and_shader() {
    // seeds/001 Capability table: StorageTensorArrayDynamicIndexingARM "Implicitly Declares
    // TensorsARM, Shader". spirv-val 2025.5 (its grammar lists no implied capability) rejects.
    let m = tensor_array_module(
        "OpCapability StorageTensorArrayDynamicIndexingARM",
        "%gx",
        "",
    );
    judge(&m, "vulkan1.3", None, Oracle::Lenient);
    let m = tensor_array_module(
        "OpCapability Shader\nOpCapability StorageTensorArrayDynamicIndexingARM",
        "%gx",
        "",
    );
    judge(&m, "vulkan1.3", None, Oracle::Lenient);
}

#[test]
fn non_uniform_indexing_capability_implicitly_declares_tensors_and_shader_non_uniform() {
    // seeds/001: StorageTensorArrayNonUniformIndexingARM "Implicitly Declares TensorsARM,
    // ShaderNonUniform" (which implicitly declares Shader).
    let m = tensor_array_module(
        "OpCapability StorageTensorArrayNonUniformIndexingARM",
        "%gx",
        "OpDecorate %gx NonUniform\nOpDecorate %p NonUniform",
    );
    judge(&m, "vulkan1.3", None, Oracle::Lenient);
}

#[test]
fn constant_indexing_into_an_array_of_tensors_needs_no_capability() {
    judge(
        &tensor_array_module(TENSORS, "%uint_1", ""),
        "vulkan1.3",
        None,
        Oracle::Agree,
    );
    judge(
        &tensor_array_module(TENSORS, "%spec", ""),
        "vulkan1.3",
        None,
        Oracle::Agree,
    );
}

#[test]
fn dynamic_indexing_into_an_array_of_tensors_needs_the_capability() {
    // spirv-val 2025.5 does not check the indexing capabilities.
    let m = tensor_array_module(TENSORS, "%gx", "");
    judge(
        &m,
        "vulkan1.3",
        Some("StorageTensorArrayDynamicIndexingARM"),
        Oracle::Stricter,
    );
    let with = format!("{TENSORS}\nOpCapability StorageTensorArrayDynamicIndexingARM");
    judge(
        &tensor_array_module(&with, "%gx", ""),
        "vulkan1.3",
        None,
        Oracle::Agree,
    );
}

/// A rank-1 read and write with MakeElementVisibleARM / MakeElementAvailableARM whose scope
/// is `scope`.
fn tensor_scope_module(scope: &str, env_decorations: bool) -> String {
    let dec = if env_decorations {
        "OpDecorate %t DescriptorSet 0\nOpDecorate %t Binding 0"
    } else {
        ""
    };
    format!(
        "OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability TensorsARM
OpExtension \"SPV_ARM_tensors\"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main \"main\" %t
OpExecutionMode %main LocalSize 1 1 1
{dec}
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_5 = OpConstant %uint 5
%uint_99 = OpConstant %uint 99
%spec = OpSpecConstant %uint 2
%float_1 = OpConstant %float 1
%arr1 = OpTypeArray %uint %uint_1
%coord = OpConstantComposite %arr1 %uint_0
%ten = OpTypeTensorARM %uint %uint_1
%pten = OpTypePointer UniformConstant %ten
%t = OpVariable %pten UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%tv = OpLoad %ten %t
%r = OpTensorReadARM %uint %tv %coord MakeElementVisibleARM|NonPrivateElementARM {scope}
OpTensorWriteARM %tv %coord %r MakeElementAvailableARM|NonPrivateElementARM {scope}
OpReturn
OpFunctionEnd
"
    )
}

#[test]
fn tensor_operand_scopes_are_scopes() {
    for ok in ["%uint_2", "%uint_5"] {
        judge(
            &tensor_scope_module(ok, false),
            "spv1.6",
            None,
            Oracle::Agree,
        );
    }
    // spirv-val 2025.5 does not check these ids (reference/tensors.md: "validity of the Scope
    // ids" is left out of SPIRV-Tools).
    for (bad, why) in [
        ("%uint_99", "invalid scope value"),
        ("%spec", "must be a constant instruction"),
        ("%float_1", "32-bit int"),
        // Device under the Vulkan memory model needs VulkanMemoryModelDeviceScope.
        ("%uint_1", "VulkanMemoryModelDeviceScope"),
    ] {
        judge(
            &tensor_scope_module(bad, false),
            "spv1.6",
            Some(why),
            Oracle::Stricter,
        );
    }
    // Vulkan: not CrossDevice (VUID-StandaloneSpirv-None-04638).
    judge(
        &tensor_scope_module("%uint_0", true),
        "vulkan1.3",
        Some("VUID-StandaloneSpirv-None-04638"),
        Oracle::Stricter,
    );
}

// ---------------------------------------------------------------------------------------------
// 3. Composite operations on shaped tensors (a shaped OpTypeTensorARM is a composite: seeds/001
//    "Composite Type: Add OpTypeTensorARM whose Shape operand is present"). Its constituents
//    are the Shape[0] outermost slices (docs/semantics/tensors.md).

/// A module (universal environment: Vulkan forbids shaped tensors in shaders) with shaped
/// tensors `%t4` (shape [4]), `%t3` ([3]) and `%t23` ([2, 3]), built in `body`.
fn shaped_module(body: &str) -> String {
    format!(
        "OpCapability Shader
OpCapability TensorsARM
OpExtension \"SPV_ARM_tensors\"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%float_1 = OpConstant %float 1
%arr1 = OpTypeArray %uint %uint_1
%arr2 = OpTypeArray %uint %uint_2
%s4 = OpConstantComposite %arr1 %uint_4
%s3 = OpConstantComposite %arr1 %uint_3
%s23 = OpConstantComposite %arr2 %uint_2 %uint_3
%t4 = OpTypeTensorARM %uint %uint_1 %s4
%t3 = OpTypeTensorARM %uint %uint_1 %s3
%t23 = OpTypeTensorARM %uint %uint_2 %s23
%tr1 = OpTypeTensorARM %uint %uint_1
%main = OpFunction %void None %fn
%entry = OpLabel
{body}
OpReturn
OpFunctionEnd
"
    )
}

const BUILD: &str = "%a = OpCompositeConstruct %t4 %uint_0 %uint_1 %uint_2 %uint_3
%r = OpCompositeConstruct %t3 %uint_0 %uint_1 %uint_2
%m = OpCompositeConstruct %t23 %r %r";

#[test]
fn composite_operations_on_shaped_tensors_follow_the_shape() {
    // spirv-val 2025.5 has no tensor case in OpCompositeConstruct/Extract/Insert and refuses
    // them all (reference/tensors.md §1e.9): spvx follows the extension's "composite type".
    let ok = format!(
        "{BUILD}
%e = OpCompositeExtract %uint %a 3
%e2 = OpCompositeExtract %uint %m 1 2
%row = OpCompositeExtract %t3 %m 1
%i = OpCompositeInsert %t4 %uint_1 %a 0
%i2 = OpCompositeInsert %t23 %uint_1 %m 1 2
%i3 = OpCompositeInsert %t23 %r %m 0"
    );
    judge(&shaped_module(&ok), "spv1.6", None, Oracle::Lenient);
}

#[test]
fn composite_construct_of_a_shaped_tensor_takes_shape0_constituents() {
    for (body, why) in [
        (
            "%a = OpCompositeConstruct %t4 %uint_0 %uint_1 %uint_2",
            "constituents",
        ),
        (
            "%a = OpCompositeConstruct %t4 %uint_0 %uint_1 %uint_2 %uint_3 %uint_0",
            "constituents",
        ),
        // The product of the shape (6 scalars) is not the constituent count of [2, 3].
        (
            "%m = OpCompositeConstruct %t23 %uint_0 %uint_1 %uint_2 %uint_0 %uint_1 %uint_2",
            "constituent",
        ),
        (
            "%a = OpCompositeConstruct %t4 %uint_0 %uint_1 %uint_2 %float_1",
            "constituent",
        ),
        // An unshaped tensor is opaque, not a composite.
        ("%a = OpCompositeConstruct %tr1 %uint_0", "not a composite"),
    ] {
        judge(&shaped_module(body), "spv1.6", Some(why), Oracle::Agree);
    }
}

#[test]
fn constant_composite_of_a_shaped_tensor_takes_shape0_constituents() {
    let m = shaped_module("").replace(
        "%tr1 = OpTypeTensorARM %uint %uint_1",
        "%tr1 = OpTypeTensorARM %uint %uint_1\n%c = OpConstantComposite %t4 %uint_0 %uint_1 %uint_2",
    );
    judge(&m, "spv1.6", Some("constituents"), Oracle::Agree);
}

#[test]
fn composite_extract_and_insert_on_shaped_tensors_are_bounded() {
    for (body, why) in [
        ("%e = OpCompositeExtract %uint %a 4", "out of bounds"),
        ("%e = OpCompositeExtract %uint %m 2 0", "out of bounds"),
        ("%e = OpCompositeExtract %uint %m 1 3", "out of bounds"),
        (
            "%e = OpCompositeExtract %uint %a 0 0",
            "indexes still remain",
        ),
        (
            "%e = OpCompositeExtract %uint %m 0 0 0",
            "indexes still remain",
        ),
        ("%e = OpCompositeExtract %float %a 0", "does not match"),
        ("%e = OpCompositeExtract %uint %m 0", "does not match"),
        ("%e = OpCompositeExtract %t4 %m 0", "does not match"),
        ("%i = OpCompositeInsert %t4 %uint_1 %a 4", "out of bounds"),
        (
            "%i = OpCompositeInsert %t23 %uint_1 %m 0 3",
            "out of bounds",
        ),
        ("%i = OpCompositeInsert %t4 %float_1 %a 0", "Object"),
        (
            "%i = OpCompositeInsert %t4 %uint_1 %a",
            "at least one index",
        ),
    ] {
        let m = shaped_module(&format!("{BUILD}\n{body}"));
        judge(&m, "spv1.6", Some(why), Oracle::Agree);
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Loops whose continue target is unreachable (SPIR-V §2.11: the structured rules are stated
//    over the structural graph, where a header reaches its merge block and continue target).

/// A compute function whose blocks are `blocks`, after the entry block branching to `%header`.
fn loop_module(blocks: &str) -> String {
    format!(
        "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
{blocks}
OpFunctionEnd
"
    )
}

#[test]
fn loop_whose_body_always_breaks_has_an_unreachable_continue_target() {
    let m = loop_module(
        "%header = OpLabel
OpLoopMerge %merge %cont None
OpBranch %body
%body = OpLabel
OpBranch %merge
%cont = OpLabel
OpBranch %header
%merge = OpLabel
OpReturn",
    );
    judge(&m, "spv1.6", None, Oracle::Agree);
}

#[test]
fn loop_whose_body_always_returns_has_an_unreachable_continue_construct() {
    // The continue construct (two blocks) is unreachable; so is the merge block.
    let m = loop_module(
        "%header = OpLabel
OpLoopMerge %merge %cont None
OpBranch %body
%body = OpLabel
OpReturn
%cont = OpLabel
OpBranch %latch
%latch = OpLabel
OpBranch %header
%merge = OpLabel
OpReturn",
    );
    judge(&m, "spv1.6", None, Oracle::Agree);
}

#[test]
fn nested_loop_with_unreachable_continue_inside_a_reachable_loop() {
    let m = loop_module(
        "%header = OpLabel
OpLoopMerge %merge %cont None
OpBranchConditional %true %inner %merge
%inner = OpLabel
OpLoopMerge %imerge %icont None
OpBranch %ibody
%ibody = OpLabel
OpBranch %imerge
%icont = OpLabel
OpBranch %inner
%imerge = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranch %header
%merge = OpLabel
OpReturn",
    );
    judge(&m, "spv1.6", None, Oracle::Agree);
}

#[test]
fn unreachable_continue_target_that_does_not_branch_back_is_still_rejected() {
    // The continue target exists in the structural graph but no block branches back to the
    // header: 0 back-edge blocks.
    let m = loop_module(
        "%header = OpLabel
OpLoopMerge %merge %cont None
OpBranch %body
%body = OpLabel
OpBranch %merge
%cont = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn",
    );
    judge(&m, "spv1.6", Some("back-edge blocks"), Oracle::Agree);
}

//! The Vulkan environment's decoration rules: storage classes of Binding/DescriptorSet,
//! Invariant, Flat…, Location/Component; GLSLShared/GLSLPacked refused; no Location on
//! built-ins; the types of the compute built-ins.

use super::{DecorationError, dec, decoration_name};
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};

/// The storage class of the pointer type of `def`'s result (Uniform when it has none, as
/// spirv-val assumes).
pub(super) fn storage_class(ix: &ModuleIndex, def: &Instruction) -> u32 {
    def.result_type
        .and_then(|t| ix.pointer_class(t))
        .unwrap_or(2)
}

pub(super) fn check(
    ix: &ModuleIndex,
    d: u32,
    target: Id,
    def: &Instruction,
) -> Result<(), DecorationError> {
    let fail = |rule: &str| DecorationError::Vulkan {
        decoration: decoration_name(ix, d),
        target: ix.name(target),
        rule: rule.to_string(),
    };
    let sc = storage_class(ix, def);
    if d == dec::BUILT_IN
        && let Some(t) = value_type(ix, def)
        && let Some(rule) = compute_built_in_type(ix, inst_built_in(ix, target), t)
    {
        return Err(fail(rule));
    }
    let built_in_target = ix.has_decoration(target, dec::BUILT_IN);
    if matches!(d, dec::LOCATION | dec::COMPONENT) && built_in_target {
        return Err(fail(
            "a BuiltIn variable cannot have any Location or Component decorations (VUID-StandaloneSpirv-Location-04915)",
        ));
    }
    match d {
        dec::GLSL_SHARED | dec::GLSL_PACKED => Err(fail(
            "not valid for the Vulkan execution environment (VUID-StandaloneSpirv-GLSLShared-04669)",
        )),
        // UniformConstant 0, Uniform 2, StorageBuffer 12.
        // Input 1, Output 3.
        dec::INVARIANT if ![1, 3].contains(&sc) => Err(fail(
            "a variable decorated with Invariant must be in the Input or Output storage class (VUID-StandaloneSpirv-Invariant-04677)",
        )),
        dec::FLAT | dec::NO_PERSPECTIVE | dec::CENTROID | dec::SAMPLE if ![1, 3].contains(&sc) => {
            Err(fail(
                "storage class must be Input or Output (VUID-StandaloneSpirv-Flat-04670)",
            ))
        }
        // Input, Output and the ray-tracing classes (5338, 5339, 5342, 5328, 5329, 5343).
        dec::LOCATION | dec::COMPONENT
            if ![1, 3, 5338, 5339, 5342, 5328, 5329, 5343].contains(&sc) =>
        {
            Err(fail(
                "must not be applied to this storage class (VUID-StandaloneSpirv-Location-06672)",
            ))
        }
        dec::BINDING | dec::DESCRIPTOR_SET if ![0, 2, 12].contains(&sc) => Err(fail(
            "must be in the StorageBuffer, Uniform, or UniformConstant storage class (VUID-StandaloneSpirv-DescriptorSet-06491)",
        )),
        _ => Ok(()),
    }
}

/// The type of the value `def` declares: a variable's pointee, a constant's type.
fn value_type(ix: &ModuleIndex, def: &Instruction) -> Option<Id> {
    match def.result_type.and_then(|t| ix.ty(t).map(|ty| (t, ty))) {
        Some((_, Type::Pointer { pointee, .. })) => Some(*pointee),
        Some((t, _)) => Some(t),
        None => None,
    }
}

/// The BuiltIn of the first `OpDecorate ... BuiltIn` of `target`.
pub(super) fn inst_built_in(ix: &ModuleIndex, target: Id) -> Option<u32> {
    ix.decoration_literal(target, dec::BUILT_IN)
}

/// Vulkan's type rules of the compute built-ins (VUID-GlobalInvocationId-GlobalInvocationId-04238
/// and its siblings): NumWorkgroups, WorkgroupSize, WorkgroupId, LocalInvocationId and
/// GlobalInvocationId are 3-component vectors of 32-bit ints; LocalInvocationIndex a 32-bit int.
/// `t` is the variable's pointee, a constant's type, or a built-in struct member's type.
pub(super) fn compute_built_in_type(
    ix: &ModuleIndex,
    built_in: Option<u32>,
    t: Id,
) -> Option<&'static str> {
    let b = built_in?;
    let int32 = |c: Id| ix.int_type(c).is_some_and(|(w, _)| w == 32);
    match b {
        24..=28 => {
            let ok =
                matches!(ix.ty(t), Some(Type::Vector { component, count: 3 }) if int32(*component));
            (!ok).then_some("this BuiltIn must be a 3-component vector of 32-bit ints")
        }
        29 => (!int32(t)).then_some("LocalInvocationIndex must be a 32-bit int scalar"),
        _ => None,
    }
}

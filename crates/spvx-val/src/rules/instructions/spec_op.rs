//! `OpSpecConstantOp` (SPIR-V §3.52.7): the embedded opcode is one the specification lists,
//! and the capability it needs is declared — the float arithmetic, conversions to and from
//! floats and pointers, `OpBitcast` and the access chains need Kernel; `OpQuantizeToF16` needs
//! Shader; `OpUConvert` before SPIR-V 1.4 needs Kernel (or SPV_AMD_gpu_shader_int16). spirv-val:
//! validate_constants.cpp (capabilities) and its binary parser (the list), same messages.
//! Opcodes numbered from 4096 (extensions) are not judged.

use super::{Check, Cx, ensure};
use spvx_spirv::grammar::Version;
use spvx_spirv::op::Op;

/// Opcodes allowed in any module: SConvert, FConvert, SNegate, Not, IAdd, ISub, IMul, UDiv,
/// SDiv, UMod, SRem, SMod, the shifts and bitwise operations, VectorShuffle,
/// CompositeExtract/Insert, the logical operations, Select and the integer comparisons.
const ANY: [Op; 37] = [
    Op::SConvert,
    Op::FConvert,
    Op::SNegate,
    Op::Not,
    Op::IAdd,
    Op::ISub,
    Op::IMul,
    Op::UDiv,
    Op::SDiv,
    Op::UMod,
    Op::SRem,
    Op::SMod,
    Op::ShiftRightLogical,
    Op::ShiftRightArithmetic,
    Op::ShiftLeftLogical,
    Op::BitwiseOr,
    Op::BitwiseXor,
    Op::BitwiseAnd,
    Op::VectorShuffle,
    Op::CompositeExtract,
    Op::CompositeInsert,
    Op::LogicalEqual,
    Op::LogicalNotEqual,
    Op::LogicalOr,
    Op::LogicalAnd,
    Op::LogicalNot,
    Op::Select,
    Op::IEqual,
    Op::INotEqual,
    Op::UGreaterThan,
    Op::SGreaterThan,
    Op::UGreaterThanEqual,
    Op::SGreaterThanEqual,
    Op::ULessThan,
    Op::SLessThan,
    Op::ULessThanEqual,
    Op::SLessThanEqual,
];

/// Opcodes that need Kernel: ConvertFToU/FToS/SToF/UToF, ConvertPtrToU, ConvertUToPtr,
/// PtrCastToGeneric, GenericCastToPtr, Bitcast, FNegate, FAdd, FSub, FMul, FDiv, FRem, FMod,
/// AccessChain, InBoundsAccessChain, PtrAccessChain, InBoundsPtrAccessChain.
const KERNEL: [Op; 20] = [
    Op::ConvertFToU,
    Op::ConvertFToS,
    Op::ConvertSToF,
    Op::ConvertUToF,
    Op::ConvertPtrToU,
    Op::ConvertUToPtr,
    Op::PtrCastToGeneric,
    Op::GenericCastToPtr,
    Op::Bitcast,
    Op::FNegate,
    Op::FAdd,
    Op::FSub,
    Op::FMul,
    Op::FDiv,
    Op::FRem,
    Op::FMod,
    Op::AccessChain,
    Op::InBoundsAccessChain,
    Op::PtrAccessChain,
    Op::InBoundsPtrAccessChain,
];

pub(super) fn check(cx: &Cx) -> Check {
    if cx.inst.opcode != Op::SpecConstantOp {
        return Ok(());
    }
    let Some(embedded) = cx
        .word(0)
        .and_then(|w| u16::try_from(w).ok())
        .and_then(Op::from_number)
    else {
        return Ok(());
    };
    if embedded.number() >= 4096 {
        return Ok(());
    }
    let name = embedded.name().to_string();
    let name = name.strip_prefix("Op").unwrap_or(&name).to_string();
    let kernel = cx.ix.has_capability("Kernel");
    if KERNEL.contains(&embedded) {
        return ensure(kernel, || {
            cx.rule(format!(
                "Specialization constant operation {name} requires Kernel capability"
            ))
        });
    }
    match embedded {
        Op::QuantizeToF16 => ensure(cx.ix.has_capability("Shader"), || {
            cx.rule(format!(
                "Specialization constant operation {name} requires Shader capability"
            ))
        }),
        Op::UConvert => ensure(
            kernel
                || cx.ix.header.version() >= Version::new(1, 4)
                || cx.ix.has_extension("SPV_AMD_gpu_shader_int16"),
            || {
                cx.rule(
                    "Prior to SPIR-V 1.4, specialization constant operation UConvert requires Kernel capability or extension SPV_AMD_gpu_shader_int16",
                )
            },
        ),
        op => ensure(ANY.contains(&op), || {
            cx.rule(format!(
                "{name} is not an opcode OpSpecConstantOp allows (SPIR-V 3.52.7)"
            ))
        }),
    }
}

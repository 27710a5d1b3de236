//! `OpSpecConstantOp` (SPIR-V §3.52.7): the embedded opcode is one the specification lists,
//! and the capability it needs is declared — the float arithmetic, conversions to and from
//! floats and pointers, `OpBitcast` and the access chains need Kernel; `OpQuantizeToF16` needs
//! Shader; `OpUConvert` before SPIR-V 1.4 needs Kernel (or SPV_AMD_gpu_shader_int16). spirv-val:
//! validate_constants.cpp (capabilities) and its binary parser (the list), same messages.
//! Opcodes numbered from 4096 (extensions) are not judged.

use super::{Check, Cx, ensure};
use spvx_spirv::grammar::Version;

/// Opcodes allowed in any module: SConvert, FConvert, SNegate, Not, IAdd, ISub, IMul, UDiv,
/// SDiv, UMod, SRem, SMod, the shifts and bitwise operations, VectorShuffle,
/// CompositeExtract/Insert, the logical operations, Select and the integer comparisons.
const ANY: [u16; 37] = [
    114, 115, 126, 200, 128, 130, 132, 134, 135, 137, 138, 139, 194, 195, 196, 197, 198, 199, 79,
    81, 82, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179,
];

/// Opcodes that need Kernel: ConvertFToU/FToS/SToF/UToF, ConvertPtrToU, ConvertUToPtr,
/// PtrCastToGeneric, GenericCastToPtr, Bitcast, FNegate, FAdd, FSub, FMul, FDiv, FRem, FMod,
/// AccessChain, InBoundsAccessChain, PtrAccessChain, InBoundsPtrAccessChain.
const KERNEL: [u16; 20] = [
    109, 110, 111, 112, 117, 120, 121, 122, 124, 127, 129, 131, 133, 136, 140, 141, 65, 66, 67, 70,
];

const U_CONVERT: u16 = 113;
const QUANTIZE_TO_F16: u16 = 116;

pub(super) fn check(cx: &Cx) -> Check {
    if cx.inst.opcode != 52 {
        return Ok(());
    }
    let Some(embedded) = cx.word(0).and_then(|w| u16::try_from(w).ok()) else {
        return Ok(());
    };
    if embedded >= 4096 {
        return Ok(());
    }
    let name = cx.ix.opcode_name(embedded);
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
        QUANTIZE_TO_F16 => ensure(cx.ix.has_capability("Shader"), || {
            cx.rule(format!(
                "Specialization constant operation {name} requires Shader capability"
            ))
        }),
        U_CONVERT => ensure(
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

//! The module of a tensor form (spirv-as text, SPIR-V 1.6, one GLCompute entry point `main`
//! of local size [`LOCAL`]): invocation `i` reads its coordinates (`coords[i·R + j]`), picks
//! its tensor (`index[i]` for an array of tensors, NonUniform), does the form's access and
//! stores what it read (or the sizes) at `out[i·n + m]`. Buffers carry floats as their bits
//! (OpBitcast) and booleans as 32-bit words (in: non-zero is true; out: 1 or 0).

use super::{Access, Binding, TensorForm, elem_name, ops};
use crate::ElemType;
use crate::conform::form::{LOCAL, Port};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The integer type a buffer holds an element type's bits in.
fn buffer_type(e: ElemType) -> ElemType {
    if e.float_format().is_some() {
        ElemType::unsigned_of_size(e.size() as u32)
    } else {
        e
    }
}

/// The declaration of a scalar type.
fn declare(e: ElemType) -> String {
    if e.float_format().is_some() {
        format!("OpTypeFloat {}", e.bits())
    } else {
        format!("OpTypeInt {} {}", e.bits(), u8::from(e.is_signed_int()))
    }
}

/// The OutOfBoundsValueARM constant's literal: 0xA5 repeated (as the type's value) for
/// integers, −2.5 for floats (booleans use OpConstantTrue).
pub fn oob_literal(e: ElemType) -> String {
    if e.float_format().is_some() {
        return "-2.5".to_string();
    }
    let bits = 0xA5A5_A5A5_A5A5_A5A5u64 & e.mask();
    super::super::edges::value(bits, e.bits(), e.is_signed_int()).to_string()
}

/// The text of a Tensor Operands mask and its parameters (the OutOfBoundsValueARM value, then
/// the scope of MakeElementAvailable/Visible: QueueFamily), with a leading space; empty for 0.
fn operand_text(mask: u32) -> String {
    if mask == 0 {
        return String::new();
    }
    let names = [
        (ops::NONTEMPORAL, "NontemporalARM"),
        (ops::OUT_OF_BOUNDS_VALUE, "OutOfBoundsValueARM"),
        (ops::MAKE_ELEMENT_AVAILABLE, "MakeElementAvailableARM"),
        (ops::MAKE_ELEMENT_VISIBLE, "MakeElementVisibleARM"),
        (ops::NON_PRIVATE_ELEMENT, "NonPrivateElementARM"),
    ];
    let words: Vec<&str> = names
        .iter()
        .filter(|(b, _)| mask & b != 0)
        .map(|(_, n)| *n)
        .collect();
    let mut s = format!(" {}", words.join("|"));
    if mask & ops::OUT_OF_BOUNDS_VALUE != 0 {
        s += " %oob";
    }
    if mask & (ops::MAKE_ELEMENT_AVAILABLE | ops::MAKE_ELEMENT_VISIBLE) != 0 {
        s += " %k5";
    }
    s
}

/// The memory-model operand bits.
const MEMORY_MODEL: u32 =
    ops::NON_PRIVATE_ELEMENT | ops::MAKE_ELEMENT_AVAILABLE | ops::MAKE_ELEMENT_VISIBLE;

/// The operands of the read back after a write: the visibility pair when the write made its
/// elements available, else none.
pub fn read_back_operands(write: u32) -> u32 {
    if write & MEMORY_MODEL != 0 {
        ops::NON_PRIVATE_ELEMENT | ops::MAKE_ELEMENT_VISIBLE
    } else {
        0
    }
}

/// The module of a form whose ports are `inputs` and `output` and whose tensor is at binding
/// `tbind`.
pub fn module(f: &TensorForm, inputs: &[Port], output: &Port, tbind: u32) -> String {
    let ports: Vec<&Port> = inputs.iter().chain(std::iter::once(output)).collect();
    let rank = f.rank;
    let per = f.per_access() as u32;
    let read_ops = match f.access {
        Access::Read => f.operands,
        Access::Write => read_back_operands(f.operands),
        Access::Size => 0,
    };
    let all_ops = f.operands | read_ops;
    // Scalar types (u32 first) and buffer types.
    let mut scalars: Vec<ElemType> = vec![ElemType::U32];
    let add = |t: ElemType, v: &mut Vec<ElemType>| {
        if !v.contains(&t) {
            v.push(t);
        }
    };
    add(f.int, &mut scalars);
    if let Some(e) = f.elem {
        add(e, &mut scalars);
    }
    let mut bufs: Vec<ElemType> = Vec::new();
    for p in &ports {
        add(buffer_type(p.elem), &mut scalars);
        add(buffer_type(p.elem), &mut bufs);
    }
    let ints = |bits: u32| {
        scalars
            .iter()
            .any(|t| t.float_format().is_none() && t.bits() == bits)
    };
    let floats = |bits: u32| {
        scalars
            .iter()
            .any(|t| t.float_format().is_some() && t.bits() == bits)
    };
    let mut s = format!("; spvx conform: {}\nOpCapability Shader\n", f.id());
    if ints(8) {
        s += "OpCapability Int8\n";
    }
    if ints(16) {
        s += "OpCapability Int16\n";
    }
    if ints(64) {
        s += "OpCapability Int64\n";
    }
    if floats(16) {
        s += "OpCapability Float16\n";
    }
    if floats(64) {
        s += "OpCapability Float64\n";
    }
    if bufs.iter().any(|t| t.bits() == 8) {
        s += "OpCapability StorageBuffer8BitAccess\n";
    }
    if bufs.iter().any(|t| t.bits() == 16) {
        s += "OpCapability StorageBuffer16BitAccess\n";
    }
    s += "OpCapability TensorsARM\n";
    if f.binding == Binding::Array {
        s +=
            "OpCapability ShaderNonUniform\nOpCapability StorageTensorArrayNonUniformIndexingARM\n";
    }
    let vulkan_mm = all_ops & MEMORY_MODEL != 0;
    if vulkan_mm {
        s += "OpCapability VulkanMemoryModel\n";
    }
    s += "OpExtension \"SPV_ARM_tensors\"\n";
    s += if vulkan_mm {
        "OpMemoryModel Logical Vulkan\n"
    } else {
        "OpMemoryModel Logical GLSL450\n"
    };
    let vars: Vec<String> = ports.iter().map(|p| format!("%{}", p.name)).collect();
    let _ = writeln!(
        s,
        "OpEntryPoint GLCompute %main \"main\" %gid {} %t",
        vars.join(" ")
    );
    let _ = writeln!(s, "OpExecutionMode %main LocalSize {LOCAL} 1 1");
    s += "OpDecorate %gid BuiltIn GlobalInvocationId\n";
    for &t in &bufs {
        let n = t.name();
        let _ = writeln!(
            s,
            "OpDecorate %arr_{n} ArrayStride {}\nOpMemberDecorate %Buf_{n} 0 Offset 0\nOpDecorate %Buf_{n} Block",
            t.size()
        );
    }
    for p in &ports {
        let _ = writeln!(
            s,
            "OpDecorate %{0} DescriptorSet 0\nOpDecorate %{0} Binding {1}",
            p.name, p.binding
        );
    }
    let _ = writeln!(
        s,
        "OpDecorate %t DescriptorSet 0\nOpDecorate %t Binding {tbind}"
    );
    if f.binding == Binding::Array {
        s += "OpDecorate %_k NonUniform\nOpDecorate %_tp NonUniform\nOpDecorate %_tv NonUniform\n";
    }
    // Types.
    s += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n";
    for &t in &scalars {
        let _ = writeln!(s, "%{} = {}", t.name(), declare(t));
    }
    if f.elem.is_none() {
        s += "%bool = OpTypeBool\n";
    }
    for &t in &bufs {
        let n = t.name();
        let _ = writeln!(
            s,
            "%arr_{n} = OpTypeRuntimeArray %{n}\n%Buf_{n} = OpTypeStruct %arr_{n}\n%pBuf_{n} = OpTypePointer StorageBuffer %Buf_{n}\n%p_{n} = OpTypePointer StorageBuffer %{n}"
        );
    }
    s += "%v3u32 = OpTypeVector %u32 3\n%pgid = OpTypePointer Input %v3u32\n%gid = OpVariable %pgid Input\n";
    // u32 constants.
    let mut consts: BTreeSet<u64> = [0u64, 1, u64::from(rank), u64::from(per), 5]
        .into_iter()
        .collect();
    consts.extend(0..u64::from(rank.max(per)));
    consts.insert(u64::from(super::ARRAY_TENSORS));
    if f.binding == Binding::Shaped {
        consts.extend(f.dims.iter().copied());
    }
    for c in &consts {
        let _ = writeln!(s, "%k{c} = OpConstant %u32 {c}");
    }
    // Tensor type, arrays, the variable.
    let e = elem_name(f.elem);
    let c = f.int.name();
    let _ = writeln!(s, "%carr = OpTypeArray %{c} %k{rank}");
    if f.binding == Binding::Shaped {
        let shape_arr = if f.int == ElemType::U32 {
            "%carr".to_string()
        } else {
            s += &format!("%sarr = OpTypeArray %u32 %k{rank}\n");
            "%sarr".to_string()
        };
        let dims: Vec<String> = f.dims.iter().map(|d| format!("%k{d}")).collect();
        let _ = writeln!(
            s,
            "%shape = OpConstantComposite {shape_arr} {}\n%ten = OpTypeTensorARM %{e} %k{rank} %shape",
            dims.join(" ")
        );
    } else {
        let _ = writeln!(s, "%ten = OpTypeTensorARM %{e} %k{rank}");
    }
    if f.len > 0 && !(f.elem == Some(f.int) && f.len == rank) {
        let _ = writeln!(s, "%rarr = OpTypeArray %{e} %k{}", f.len);
    }
    let rarr = if f.elem == Some(f.int) && f.len == rank {
        "%carr"
    } else {
        "%rarr"
    };
    s += "%pt = OpTypePointer UniformConstant %ten\n";
    if f.binding == Binding::Array {
        let _ = writeln!(
            s,
            "%tarr = OpTypeArray %ten %k{}\n%pta = OpTypePointer UniformConstant %tarr\n%t = OpVariable %pta UniformConstant",
            super::ARRAY_TENSORS
        );
    } else {
        s += "%t = OpVariable %pt UniformConstant\n";
    }
    for p in &ports {
        let _ = writeln!(
            s,
            "%{} = OpVariable %pBuf_{} StorageBuffer",
            p.name,
            buffer_type(p.elem).name()
        );
    }
    if read_ops & ops::OUT_OF_BOUNDS_VALUE != 0 {
        match f.elem {
            Some(t) => {
                let _ = writeln!(s, "%oob = OpConstant %{} {}", t.name(), oob_literal(t));
            }
            None => s += "%oob = OpConstantTrue %bool\n",
        }
    }
    // The function.
    s += "%main = OpFunction %void None %fn\n%entry = OpLabel\n%_g = OpLoad %v3u32 %gid\n%_i = OpCompositeExtract %u32 %_g 0\n";
    if f.binding == Binding::Array {
        s += "%_kp = OpAccessChain %p_u32 %index %k0 %_i\n%_k = OpLoad %u32 %_kp\n%_tp = OpAccessChain %pt %t %_k\n%_tv = OpLoad %ten %_tp\n";
    } else {
        s += "%_tv = OpLoad %ten %t\n";
    }
    let out_b = buffer_type(output.elem).name();
    if f.access == Access::Size {
        let _ = writeln!(s, "%_ob = OpIMul %u32 %_i %k{rank}");
        for d in 0..rank {
            let _ = writeln!(
                s,
                "%_s{d} = OpTensorQuerySizeARM %{c} %_tv %k{d}\n%_ox{d} = OpIAdd %u32 %_ob %k{d}\n%_op{d} = OpAccessChain %p_{out_b} %out %k0 %_ox{d}\nOpStore %_op{d} %_s{d}"
            );
        }
        s += "OpReturn\nOpFunctionEnd\n";
        return s;
    }
    // Coordinates.
    let _ = writeln!(s, "%_cb = OpIMul %u32 %_i %k{rank}");
    let mut comps = Vec::new();
    for j in 0..rank {
        let _ = writeln!(
            s,
            "%_cx{j} = OpIAdd %u32 %_cb %k{j}\n%_cp{j} = OpAccessChain %p_{c} %coords %k0 %_cx{j}\n%_c{j} = OpLoad %{c} %_cp{j}"
        );
        comps.push(format!("%_c{j}"));
    }
    let _ = writeln!(s, "%_co = OpCompositeConstruct %carr {}", comps.join(" "));
    let result_type = if f.len > 0 {
        rarr.to_string()
    } else {
        format!("%{e}")
    };
    if f.access == Access::Write {
        let vb = buffer_type(inputs[inputs.len() - 1].elem).name();
        let _ = writeln!(s, "%_vb = OpIMul %u32 %_i %k{per}");
        let mut vals = Vec::new();
        for m in 0..per {
            let _ = writeln!(
                s,
                "%_vx{m} = OpIAdd %u32 %_vb %k{m}\n%_vp{m} = OpAccessChain %p_{vb} %val %k0 %_vx{m}\n%_vl{m} = OpLoad %{vb} %_vp{m}"
            );
            match f.elem {
                Some(t) if t.float_format().is_some() => {
                    let _ = writeln!(s, "%_v{m} = OpBitcast %{e} %_vl{m}");
                }
                Some(_) => {
                    let _ = writeln!(s, "%_v{m} = OpCopyObject %{e} %_vl{m}");
                }
                None => {
                    let _ = writeln!(s, "%_v{m} = OpINotEqual %bool %_vl{m} %k0");
                }
            }
            vals.push(format!("%_v{m}"));
        }
        let obj = if f.len > 0 {
            let _ = writeln!(s, "%_w = OpCompositeConstruct {rarr} {}", vals.join(" "));
            "%_w".to_string()
        } else {
            vals[0].clone()
        };
        let _ = writeln!(
            s,
            "OpTensorWriteARM %_tv %_co {obj}{}",
            operand_text(f.operands)
        );
    }
    let _ = writeln!(
        s,
        "%_r = OpTensorReadARM {result_type} %_tv %_co{}",
        operand_text(read_ops)
    );
    let _ = writeln!(s, "%_ob = OpIMul %u32 %_i %k{per}");
    for m in 0..per {
        let elem_value = if f.len > 0 {
            let _ = writeln!(s, "%_re{m} = OpCompositeExtract %{e} %_r {m}");
            format!("%_re{m}")
        } else {
            "%_r".to_string()
        };
        let stored = match f.elem {
            Some(t) if t.float_format().is_some() => {
                let _ = writeln!(s, "%_rs{m} = OpBitcast %{out_b} {elem_value}");
                format!("%_rs{m}")
            }
            Some(_) => elem_value,
            None => {
                let _ = writeln!(s, "%_rs{m} = OpSelect %u32 {elem_value} %k1 %k0");
                format!("%_rs{m}")
            }
        };
        let _ = writeln!(
            s,
            "%_ox{m} = OpIAdd %u32 %_ob %k{m}\n%_op{m} = OpAccessChain %p_{out_b} %out %k0 %_ox{m}\nOpStore %_op{m} {stored}"
        );
    }
    s += "OpReturn\nOpFunctionEnd\n";
    s
}

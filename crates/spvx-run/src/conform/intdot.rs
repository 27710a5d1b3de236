//! SPV_KHR_integer_dot_product's forms and their inputs.
//!
//! Forms: the six instructions (OpSDot, OpUDot, OpSUDot and their AccSat forms) × component
//! widths 8, 16, 32, 64 × vector lengths 2, 3, 4 (and 8, 16 with Vector16, whose implied Kernel
//! capability allows unsigned integer types only) × every result width not below the component
//! width, and the PackedVectorFormat4x8Bit form on 32-bit scalars × result widths 8, 16, 32,
//! 64; each × the operand-type signedness the validator allows (spvx-val `rules::intdot`):
//! OpSDot: both inputs of one type (signedness 0 or 1); OpUDot: unsigned vector components,
//! unsigned result; OpSUDot: Vector 2 unsigned (packed: any); result signedness 0 or 1 except
//! for OpUDot. The signedness of the operation is the instruction's, not the types'.
//!
//! Inputs reach the edges (docs/semantics/conform.md): components at the extremes of their
//! type and next to them, products whose exact sum is the largest that fits the result and the
//! smallest that does not (the wrap points of the plain forms, the overflow points of the
//! AccSat forms), accumulators that put the final saturating addition at, just inside and
//! just past each limit, and random bits.

use super::edges::{component, int_edges, range, to_bits, value};
use super::ext::Ext;
use super::form::{Form, Kind, LOCAL, Port};
use crate::ElemType;
use crate::prng::SplitMix64;
use num_bigint::BigInt;
use spvx_num::intdot::{DotKind, DotSpec};
use spvx_spirv::op::Op;

/// One integer dot product form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntDotForm {
    pub op: Op,
    pub kind: DotKind,
    pub acc_sat: bool,
    /// Component width (8 for the packed form).
    pub width: u32,
    /// Vector length; 0 for the packed 4×8 form (32-bit scalars).
    pub count: u32,
    /// Result width.
    pub result: u32,
    /// Signedness of the operand types (Vector 1, Vector 2, Result Type).
    pub signed_a: bool,
    pub signed_b: bool,
    pub signed_r: bool,
}

impl IntDotForm {
    pub fn packed(&self) -> bool {
        self.count == 0
    }

    /// Components per invocation.
    pub fn comps(&self) -> usize {
        if self.packed() {
            4
        } else {
            self.count as usize
        }
    }

    /// spvx-num's descriptor of the instruction.
    pub fn spec(&self) -> DotSpec {
        let spec = if self.packed() {
            DotSpec::packed4x8(self.kind, self.result)
        } else {
            DotSpec::new(self.kind, self.width, self.result)
        };
        // Every form's widths are ones DotSpec accepts (8..=64, result ≥ component).
        spec.unwrap_or_else(|e| unreachable!("conform form with widths DotSpec refuses: {e}"))
    }

    /// The id: `intdot/OP/V1/V2/RESULT`, types as `s8x4`, `u16x3`, `ps32` (packed), `s32`.
    pub fn id(&self) -> String {
        let s = |signed: bool| if signed { 's' } else { 'u' };
        let v = |signed: bool| {
            if self.packed() {
                format!("p{}32", s(signed))
            } else {
                format!("{}{}x{}", s(signed), self.width, self.count)
            }
        };
        format!(
            "intdot/{}/{}/{}/{}{}",
            self.op.name(),
            v(self.signed_a),
            v(self.signed_b),
            s(self.signed_r),
            self.result
        )
    }
}

fn int_elem(bits: u32, signed: bool) -> ElemType {
    match (bits, signed) {
        (8, false) => ElemType::U8,
        (8, true) => ElemType::I8,
        (16, false) => ElemType::U16,
        (16, true) => ElemType::I16,
        (32, false) => ElemType::U32,
        (32, true) => ElemType::I32,
        (64, false) => ElemType::U64,
        _ => ElemType::I64,
    }
}

/// Every form, in a fixed order.
pub fn forms() -> Vec<Form> {
    let mut out = Vec::new();
    let families = [
        (DotKind::Signed, Op::SDot, Op::SDotAccSat),
        (DotKind::Unsigned, Op::UDot, Op::UDotAccSat),
        (DotKind::Mixed, Op::SUDot, Op::SUDotAccSat),
    ];
    for (kind, plain, acc) in families {
        for (op, acc_sat) in [(plain, false), (acc, true)] {
            let results = |signed_r_ok: bool| -> Vec<bool> {
                if signed_r_ok {
                    vec![false, true]
                } else {
                    vec![false]
                }
            };
            // Vector forms.
            for width in [8u32, 16, 32, 64] {
                for count in [2u32, 3, 4, 8, 16] {
                    for result in [8u32, 16, 32, 64].into_iter().filter(|&r| r >= width) {
                        for (sa, sb) in input_signs(kind, false) {
                            for sr in results(kind != DotKind::Unsigned) {
                                // Vector16 implies Kernel, where integer types are unsigned
                                // (the operation's signedness is the instruction's).
                                if count > 4 && (sa || sb || sr) {
                                    continue;
                                }
                                out.push(form(IntDotForm {
                                    op,
                                    kind,
                                    acc_sat,
                                    width,
                                    count,
                                    result,
                                    signed_a: sa,
                                    signed_b: sb,
                                    signed_r: sr,
                                }));
                            }
                        }
                    }
                }
            }
            // Packed 4×8 forms.
            for result in [8u32, 16, 32, 64] {
                for (sa, sb) in input_signs(kind, true) {
                    for sr in results(kind != DotKind::Unsigned) {
                        out.push(form(IntDotForm {
                            op,
                            kind,
                            acc_sat,
                            width: 8,
                            count: 0,
                            result,
                            signed_a: sa,
                            signed_b: sb,
                            signed_r: sr,
                        }));
                    }
                }
            }
        }
    }
    out
}

/// The (Vector 1, Vector 2) type signedness the validator allows.
fn input_signs(kind: DotKind, packed: bool) -> Vec<(bool, bool)> {
    match (kind, packed) {
        (DotKind::Signed, _) => vec![(false, false), (true, true)],
        (DotKind::Unsigned, false) => vec![(false, false)],
        (DotKind::Unsigned, true) => vec![(false, false), (true, true)],
        (DotKind::Mixed, false) => vec![(false, false), (true, false)],
        (DotKind::Mixed, true) => vec![(false, false), (true, false), (false, true), (true, true)],
    }
}

fn form(f: IntDotForm) -> Form {
    let (in_bits, per) = if f.packed() {
        (32, 1)
    } else {
        (f.width, f.comps())
    };
    let mut inputs = vec![
        Port {
            binding: 0,
            name: "a",
            elem: int_elem(in_bits, f.signed_a),
            per_invocation: per,
        },
        Port {
            binding: 1,
            name: "b",
            elem: int_elem(in_bits, f.signed_b),
            per_invocation: per,
        },
    ];
    if f.acc_sat {
        inputs.push(Port {
            binding: 2,
            name: "acc",
            elem: int_elem(f.result, f.signed_r),
            per_invocation: 1,
        });
    }
    let output = Port {
        binding: inputs.len() as u32,
        name: "out",
        elem: int_elem(f.result, f.signed_r),
        per_invocation: 1,
    };
    Form {
        id: f.id(),
        ext: Ext::Intdot,
        asm: module(&f, &inputs, &output),
        inputs,
        output,
        kind: Kind::IntDot(f),
    }
}

/// The module of a form (spirv-as text).
fn module(f: &IntDotForm, inputs: &[Port], output: &Port) -> String {
    // Integer types used: (width, signedness), each declared once.
    let mut types: Vec<(u32, bool)> = vec![(32, false)];
    for p in inputs.iter().chain(std::iter::once(output)) {
        let t = (p.elem.bits(), p.elem.is_signed_int());
        if !types.contains(&t) {
            types.push(t);
        }
    }
    let widths: Vec<u32> = types.iter().map(|t| t.0).collect();
    let tname = |(w, s): (u32, bool)| format!("%{}{w}", if s { 'i' } else { 'u' });
    let mut s = String::from("; spvx conform: ");
    s += &f.id();
    s += "\nOpCapability Shader\n";
    if widths.contains(&8) {
        s += "OpCapability Int8\nOpCapability StorageBuffer8BitAccess\n";
    }
    if widths.contains(&16) {
        s += "OpCapability Int16\nOpCapability StorageBuffer16BitAccess\n";
    }
    if widths.contains(&64) {
        s += "OpCapability Int64\n";
    }
    if f.count > 4 {
        // Vectors of 8 and 16 components: the Vector16 capability (which implicitly declares
        // Kernel; no Vulkan feature exposes it).
        s += "OpCapability Vector16\n";
    }
    s += "OpCapability DotProduct\n";
    s += if f.packed() {
        "OpCapability DotProductInput4x8BitPacked\n"
    } else if f.width == 8 && f.count == 4 {
        "OpCapability DotProductInput4x8Bit\n"
    } else {
        "OpCapability DotProductInputAll\n"
    };
    s += "OpMemoryModel Logical GLSL450\n";
    let ports: Vec<&Port> = inputs.iter().chain(std::iter::once(output)).collect();
    let vars: Vec<String> = ports.iter().map(|p| format!("%{}", p.name)).collect();
    s += &format!(
        "OpEntryPoint GLCompute %main \"main\" %gid {}\n",
        vars.join(" ")
    );
    s += &format!("OpExecutionMode %main LocalSize {LOCAL} 1 1\n");
    s += "OpDecorate %gid BuiltIn GlobalInvocationId\n";
    for &t in &types {
        let n = tname(t);
        s += &format!(
            "OpDecorate %arr{0} ArrayStride {1}\nOpMemberDecorate %Buf{0} 0 Offset 0\nOpDecorate %Buf{0} Block\n",
            &n[1..],
            t.0 / 8
        );
    }
    for p in &ports {
        s += &format!(
            "OpDecorate %{0} DescriptorSet 0\nOpDecorate %{0} Binding {1}\n",
            p.name, p.binding
        );
    }
    s += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n";
    for &t in &types {
        let n = &tname(t)[1..];
        s += &format!(
            "%{n} = OpTypeInt {} {}\n%arr{n} = OpTypeRuntimeArray %{n}\n%Buf{n} = OpTypeStruct %arr{n}\n%pBuf{n} = OpTypePointer StorageBuffer %Buf{n}\n%p{n} = OpTypePointer StorageBuffer %{n}\n",
            t.0,
            u8::from(t.1)
        );
    }
    s += "%v3u32 = OpTypeVector %u32 3\n%pgid = OpTypePointer Input %v3u32\n%gid = OpVariable %pgid Input\n";
    // Vector types of the inputs (one per distinct component type; uvec3 already exists).
    let mut vec_types: Vec<String> = Vec::new();
    if !f.packed() {
        for p in inputs.iter().take(2) {
            let n = tname((p.elem.bits(), p.elem.is_signed_int()))[1..].to_string();
            let vt = format!("v{}{n}", f.count);
            if !vec_types.contains(&vt) {
                if vt != "v3u32" {
                    s += &format!("%{vt} = OpTypeVector %{n} {}\n", f.count);
                }
                vec_types.push(vt);
            }
        }
    }
    for p in &ports {
        let n = &tname((p.elem.bits(), p.elem.is_signed_int()))[1..];
        s += &format!("%{} = OpVariable %pBuf{n} StorageBuffer\n", p.name);
    }
    let per = inputs[0].per_invocation;
    s += &format!("%c0 = OpConstant %u32 0\n%cper = OpConstant %u32 {per}\n");
    for k in 1..per {
        s += &format!("%k{k} = OpConstant %u32 {k}\n");
    }
    s += "%main = OpFunction %void None %fn\n%entry = OpLabel\n%g = OpLoad %v3u32 %gid\n%i = OpCompositeExtract %u32 %g 0\n%base = OpIMul %u32 %i %cper\n";
    let mut operands = Vec::new();
    for p in inputs.iter().take(2) {
        let n = &tname((p.elem.bits(), p.elem.is_signed_int()))[1..];
        let v = p.name;
        for k in 0..per {
            let idx = if k == 0 {
                "%base".to_string()
            } else {
                s += &format!("%{v}i{k} = OpIAdd %u32 %base %k{k}\n");
                format!("%{v}i{k}")
            };
            s += &format!(
                "%{v}p{k} = OpAccessChain %p{n} %{v} %c0 {idx}\n%{v}{k} = OpLoad %{n} %{v}p{k}\n"
            );
        }
        if f.packed() {
            operands.push(format!("%{v}0"));
        } else {
            let parts: Vec<String> = (0..per).map(|k| format!("%{v}{k}")).collect();
            s += &format!(
                "%{v}v = OpCompositeConstruct %v{}{n} {}\n",
                f.count,
                parts.join(" ")
            );
            operands.push(format!("%{v}v"));
        }
    }
    let rn = &tname((output.elem.bits(), output.elem.is_signed_int()))[1..];
    if f.acc_sat {
        s += &format!("%accp = OpAccessChain %p{rn} %acc %c0 %i\n%accv = OpLoad %{rn} %accp\n");
        operands.push("%accv".to_string());
    }
    if f.packed() {
        operands.push("PackedVectorFormat4x8Bit".to_string());
    }
    s += &format!("%res = {} %{rn} {}\n", f.op.name(), operands.join(" "));
    s += &format!(
        "%outp = OpAccessChain %p{rn} %out %c0 %i\nOpStore %outp %res\nOpReturn\nOpFunctionEnd\n"
    );
    s
}

/// The bytes of a, b (and acc) for `count` invocations.
pub fn inputs(f: &IntDotForm, rng: &mut SplitMix64, count: u32) -> Vec<Vec<u8>> {
    let n = f.comps();
    let (sa, sb) = (f.kind.vector1_signed(), f.kind.vector2_signed());
    let (ea, eb) = (int_edges(f.width, sa), int_edges(f.width, sb));
    let spec = f.spec();
    let mut a_bytes = Vec::new();
    let mut b_bytes = Vec::new();
    let mut acc_bytes = Vec::new();
    let r_signed = f.kind.result_signed();
    let (rlo, rhi) = range(f.result, r_signed);
    for i in 0..count {
        let strategy = if i < 16 {
            i % 8
        } else {
            (rng.next_u64() % 8) as u32
        };
        let (a, b) = match strategy {
            // Every component at an extreme of its type.
            0 | 1 => {
                let pick = |r: &mut SplitMix64, bits, signed| {
                    let (lo, hi) = range(bits, signed);
                    if r.next_u64() & 1 == 0 { lo } else { hi }
                };
                let a: Vec<i128> = (0..n).map(|_| pick(rng, f.width, sa)).collect();
                let b: Vec<i128> = (0..n).map(|_| pick(rng, f.width, sb)).collect();
                (a, b)
            }
            // An exact sum at a limit of the result, or one past it.
            2 | 3 => {
                let limits = if f.acc_sat {
                    [rhi, rhi + 1, rlo, rlo - 1]
                } else {
                    let (slo, shi) = range(f.result, true);
                    let full = 1i128 << f.result.min(126);
                    [shi, shi + 1, slo - 1, full]
                };
                let t = limits[(rng.next_u64() % 4) as usize];
                target(t, n, f.width, sa, sb)
            }
            // Edge values and random bits mixed.
            _ => {
                let a: Vec<i128> = (0..n).map(|_| component(rng, f.width, sa, &ea)).collect();
                let b: Vec<i128> = (0..n).map(|_| component(rng, f.width, sb, &eb)).collect();
                (a, b)
            }
        };
        let abits: Vec<u64> = a.iter().map(|&v| to_bits(v, f.width)).collect();
        let bbits: Vec<u64> = b.iter().map(|&v| to_bits(v, f.width)).collect();
        if f.acc_sat {
            let acc = accumulator(rng, &spec, &abits, &bbits, strategy, (rlo, rhi));
            acc_bytes.extend_from_slice(
                &to_bits(acc, f.result).to_le_bytes()[..(f.result / 8) as usize],
            );
        }
        if f.packed() {
            let pack = |v: &[u64]| {
                v.iter()
                    .enumerate()
                    .fold(0u32, |w, (k, &c)| w | ((c as u32 & 0xff) << (8 * k)))
            };
            a_bytes.extend_from_slice(&pack(&abits).to_le_bytes());
            b_bytes.extend_from_slice(&pack(&bbits).to_le_bytes());
        } else {
            let size = (f.width / 8) as usize;
            for &x in &abits {
                a_bytes.extend_from_slice(&x.to_le_bytes()[..size]);
            }
            for &x in &bbits {
                b_bytes.extend_from_slice(&x.to_le_bytes()[..size]);
            }
        }
    }
    let mut out = vec![a_bytes, b_bytes];
    if f.acc_sat {
        out.push(acc_bytes);
    }
    out
}

/// Components whose exact dot product is `t` when some choice reaches it (greedy: Vector 2
/// at its largest positive value but the last component, which is 1; Vector 1 absorbs the
/// rest, clamped to its range), else as near as the greedy choice comes.
fn target(t: i128, n: usize, width: u32, sa: bool, sb: bool) -> (Vec<i128>, Vec<i128>) {
    let (alo, ahi) = range(width, sa);
    let (_, bhi) = range(width, sb);
    let mut a = vec![0i128; n];
    let mut b = vec![bhi; n];
    b[n - 1] = 1;
    let mut rem = t;
    for k in 0..n {
        let q = rem / b[k];
        a[k] = q.clamp(alo, ahi);
        rem -= a[k] * b[k];
    }
    (a, b)
}

/// An accumulator: at, inside or past a saturation limit relative to the exact dot product
/// (strategies 0-5), 0 (so that an overflowing sum is the only edge), or random bits.
fn accumulator(
    rng: &mut SplitMix64,
    spec: &DotSpec,
    a: &[u64],
    b: &[u64],
    strategy: u32,
    (lo, hi): (i128, i128),
) -> i128 {
    if matches!(strategy, 2 | 3) {
        return 0;
    }
    let r = spec.dot_exact(a, b).unwrap_or_else(|_| BigInt::from(0));
    let near = |limit: i128, d: i128| -> i128 {
        let v = BigInt::from(limit) - &r + BigInt::from(d);
        let v = v.clamp(BigInt::from(lo), BigInt::from(hi));
        i128::try_from(v).unwrap_or(0)
    };
    match rng.next_u64() % 5 {
        0 => near(hi, (rng.next_u64() % 3) as i128 - 1),
        1 => near(lo, (rng.next_u64() % 3) as i128 - 1),
        2 => {
            let e = [lo, lo + 1, -1, 0, 1, hi - 1, hi];
            e[(rng.next_u64() % 7) as usize].clamp(lo, hi)
        }
        _ => value(rng.next_u64(), spec.result_bits(), lo < 0),
    }
}

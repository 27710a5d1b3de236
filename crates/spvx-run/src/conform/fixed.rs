//! SPV_INTEL_arbitrary_precision_fixed_point's forms, their inputs, and the differences a
//! device may show where the extension gives no value.
//!
//! Forms: the eleven functions × Q (8) × O (4) × S (2) × five format shapes [`SHAPES`]
//! (W, I → rW, rI: 8-bit, an odd 13-bit width, 16 → 24 bits, 32 → 16 bits, 64-bit), and for
//! SinCos / SinCosPi both result layouts where they fit a 64-bit word: the spec's
//! two-component vector and the producers' packed 2·rW-bit scalar (sine high). Invocation `i`
//! reads the W-bit input pattern from element `i` of binding 0 (32-bit words, or 64-bit for
//! W > 32, zero-extended), converts it to `OpTypeInt W`, calls the instruction with the
//! literals S, I, rI, Q, O, and writes the result (zero-extended; the vector as two
//! elements) to binding 1.
//!
//! Inputs (docs/semantics/conform.md): the first cases of every chunk are the form's edge
//! list — the format's extremes and their neighbours, 0, ±1 lsb, ±½, ±1, ±2, where the result
//! saturates or wraps (found by bisection with spvx-num on the monotone functions), the rounding
//! ties the formats can hold (sqrt, rsqrt, recip), the exact points of sinpi/cospi and the
//! multiples of π/2 for sin/cos, the domain edges (0 and negative inputs) — then edges and
//! random bits mixed.
//!
//! Masks: only sqrt/rsqrt of a negative value (the spec's undefined inputs, [`masks`]); on a
//! device, a difference at 1/0, 1/√0, log 0 or log of a negative value (no value in the
//! spec) is allowed ([`allowed`]).

use super::ext::Ext;
use super::form::{Form, Kind, LOCAL, Port};
use crate::ElemType;
use crate::prng::SplitMix64;
use num_bigint::BigUint;
use spvx_num::fixed::{Exception, FixedFunction, FixedOp, FixedValue, Overflow, Quantization};
use spvx_spirv::op::Op;
use std::fmt::Write as _;

/// One format shape: input `<W, I>`, result `<rW, rI>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub w: u32,
    pub i: i32,
    pub rw: u32,
    pub ri: i32,
}

/// The shapes every function is swept at. Fraction bits F = W − I: the 13-bit and 32 → 16
/// shapes have F_in ≥ 2·F_r + 2, so sqrt's rounding ties are representable inputs.
pub const SHAPES: [Shape; 5] = [
    Shape {
        w: 8,
        i: 4,
        rw: 8,
        ri: 7,
    },
    Shape {
        w: 13,
        i: 3,
        rw: 13,
        ri: 9,
    },
    Shape {
        w: 16,
        i: 8,
        rw: 24,
        ri: 4,
    },
    Shape {
        w: 32,
        i: 8,
        rw: 16,
        ri: 6,
    },
    Shape {
        w: 64,
        i: 12,
        rw: 64,
        ri: 16,
    },
];

/// How a SinCos / SinCosPi result is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One rW-bit value (the nine single-result functions).
    Single,
    /// The spec's two-component vector of rW bits (sine in component 0).
    Vector,
    /// One 2·rW-bit scalar, sine in the high half (intel/llvm, SPIRV-LLVM-Translator).
    Packed,
}

/// One fixed-point form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedForm {
    pub op: FixedOp,
    pub layout: Layout,
}

/// The instruction of a function.
pub fn spirv_op(f: FixedFunction) -> Op {
    // FixedFunction::opcode is 5923..=5933, all in the generated table.
    Op::from_number(f.opcode() as u16).unwrap_or(Op::FixedSqrtALTERA)
}

/// The instruction's name as the extension spells it (`OpFixedSqrtINTEL`; the grammar's
/// primary names are the ALTERA aliases).
pub fn op_name(f: FixedFunction) -> String {
    spirv_op(f).name().replace("ALTERA", "INTEL")
}

impl FixedForm {
    /// The id: `fixed/OP/{s|u}W iI/{s|u}rW irI[x2|p]/qQoO`, e.g.
    /// `fixed/OpFixedSqrtINTEL/s8i4/s8i7/q6o1`.
    pub fn id(&self) -> String {
        let o = &self.op;
        let s = if o.signed { 's' } else { 'u' };
        let layout = match self.layout {
            Layout::Single => "",
            Layout::Vector => "x2",
            Layout::Packed => "p",
        };
        format!(
            "fixed/{}/{s}{}i{}/{s}{}i{}{layout}/q{}o{}",
            op_name(o.function),
            o.input_width,
            o.input_int_bits,
            o.result_width,
            o.result_int_bits,
            o.quantization.spirv_value(),
            o.overflow.spirv_value()
        )
    }

    /// Bits of the buffer element holding the input (32 or 64).
    pub fn in_container(&self) -> u32 {
        container(self.op.input_width)
    }

    /// Bits of the value the instruction returns per output element (rW, or 2·rW packed).
    pub fn out_bits(&self) -> u32 {
        match self.layout {
            Layout::Packed => 2 * self.op.result_width,
            _ => self.op.result_width,
        }
    }

    /// The output elements of one result as bit patterns (vector: sine, cosine).
    pub fn result_bits(&self, v: &FixedValue) -> Vec<u64> {
        let n = |b: &BigUint| b.iter_u64_digits().next().unwrap_or(0);
        match (self.layout, v) {
            (Layout::Vector, FixedValue::Pair { sin, cos }) => vec![n(sin), n(cos)],
            (_, v) => vec![n(&v.packed(self.op.result_width))],
        }
    }
}

fn container(bits: u32) -> u32 {
    if bits <= 32 { 32 } else { 64 }
}

fn elem_of(container: u32) -> ElemType {
    if container == 32 {
        ElemType::U32
    } else {
        ElemType::U64
    }
}

/// Every form, in a fixed order: shape, function, layout, S, Q, O.
pub fn forms() -> Vec<Form> {
    let mut out = Vec::new();
    for shape in SHAPES {
        for function in FixedFunction::ALL {
            let layouts: &[Layout] = if !function.is_pair() {
                &[Layout::Single]
            } else if 2 * shape.rw <= 64 {
                &[Layout::Vector, Layout::Packed]
            } else {
                &[Layout::Vector]
            };
            for &layout in layouts {
                for signed in [false, true] {
                    for quantization in Quantization::ALL {
                        for overflow in Overflow::ALL {
                            out.push(form(FixedForm {
                                op: FixedOp {
                                    function,
                                    signed,
                                    input_width: shape.w,
                                    input_int_bits: shape.i,
                                    result_width: shape.rw,
                                    result_int_bits: shape.ri,
                                    quantization,
                                    overflow,
                                },
                                layout,
                            }));
                        }
                    }
                }
            }
        }
    }
    out
}

fn form(f: FixedForm) -> Form {
    let inputs = vec![Port {
        binding: 0,
        name: "x",
        elem: elem_of(f.in_container()),
        per_invocation: 1,
    }];
    let output = Port {
        binding: 1,
        name: "out",
        elem: elem_of(container(f.out_bits())),
        per_invocation: if f.layout == Layout::Vector { 2 } else { 1 },
    };
    Form {
        id: f.id(),
        ext: Ext::Fixed,
        asm: module(&f),
        inputs,
        output,
        kind: Kind::Fixed(f),
    }
}

/// The module of a form (spirv-as text). ArbitraryPrecisionFixedPointINTEL is the first
/// capability after Shader, so that a Vulkan device names it as what is missing.
fn module(f: &FixedForm) -> String {
    let o = &f.op;
    let (cin, cout) = (f.in_container(), container(f.out_bits()));
    let mut widths = vec![32u32, cin, cout, o.input_width, f.out_bits()];
    if f.layout != Layout::Packed {
        widths.push(o.result_width);
    }
    widths.sort_unstable();
    widths.dedup();
    let mut s = format!(
        "; spvx conform: {}\nOpCapability Shader\nOpCapability ArbitraryPrecisionFixedPointINTEL\n",
        f.id()
    );
    let odd = widths.iter().any(|w| ![8, 16, 32, 64].contains(w));
    if odd {
        s += "OpCapability ArbitraryPrecisionIntegersINTEL\n";
    }
    for (w, cap) in [(8, "Int8"), (16, "Int16"), (64, "Int64")] {
        if widths.contains(&w) {
            let _ = writeln!(s, "OpCapability {cap}");
        }
    }
    s += "OpExtension \"SPV_INTEL_arbitrary_precision_fixed_point\"\n";
    if odd {
        s += "OpExtension \"SPV_INTEL_arbitrary_precision_integers\"\n";
    }
    s += "OpMemoryModel Logical GLSL450\n";
    s += "OpEntryPoint GLCompute %main \"main\" %gid %x %out\n";
    let _ = writeln!(s, "OpExecutionMode %main LocalSize {LOCAL} 1 1");
    s += "OpDecorate %gid BuiltIn GlobalInvocationId\n";
    let mut conts = vec![cin, cout];
    conts.dedup();
    for c in &conts {
        let _ = writeln!(
            s,
            "OpDecorate %arr{c} ArrayStride {}\nOpMemberDecorate %Buf{c} 0 Offset 0\nOpDecorate %Buf{c} Block",
            c / 8
        );
    }
    s += "OpDecorate %x DescriptorSet 0\nOpDecorate %x Binding 0\nOpDecorate %out DescriptorSet 0\nOpDecorate %out Binding 1\n";
    s += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n";
    for w in &widths {
        let _ = writeln!(s, "%int{w} = OpTypeInt {w} 0");
    }
    for c in &conts {
        let _ = writeln!(
            s,
            "%arr{c} = OpTypeRuntimeArray %int{c}\n%Buf{c} = OpTypeStruct %arr{c}\n%pBuf{c} = OpTypePointer StorageBuffer %Buf{c}\n%p{c} = OpTypePointer StorageBuffer %int{c}"
        );
    }
    s += "%v3u32 = OpTypeVector %int32 3\n%pgid = OpTypePointer Input %v3u32\n%gid = OpVariable %pgid Input\n";
    let rw = o.result_width;
    let rty = match f.layout {
        Layout::Vector => {
            let _ = writeln!(s, "%v2r = OpTypeVector %int{rw} 2");
            "%v2r".to_string()
        }
        _ => format!("%int{}", f.out_bits()),
    };
    let _ = writeln!(
        s,
        "%x = OpVariable %pBuf{cin} StorageBuffer\n%out = OpVariable %pBuf{cout} StorageBuffer"
    );
    s += "%c0 = OpConstant %int32 0\n%c1 = OpConstant %int32 1\n%c2 = OpConstant %int32 2\n";
    s += "%main = OpFunction %void None %fn\n%entry = OpLabel\n%g = OpLoad %v3u32 %gid\n%i = OpCompositeExtract %int32 %g 0\n";
    let _ = writeln!(
        s,
        "%px = OpAccessChain %p{cin} %x %c0 %i\n%wx = OpLoad %int{cin} %px"
    );
    let xv = if o.input_width == cin {
        "%wx"
    } else {
        let _ = writeln!(s, "%xv = OpUConvert %int{} %wx", o.input_width);
        "%xv"
    };
    let _ = writeln!(
        s,
        "%r = {} {rty} {xv} {} {} {} {} {}",
        op_name(o.function),
        u8::from(o.signed),
        o.input_int_bits,
        o.result_int_bits,
        o.quantization.spirv_value(),
        o.overflow.spirv_value()
    );
    // Stores `value` (of `bits` bits) at element `index` of the output.
    let store = |s: &mut String, value: &str, bits: u32, index: &str, tag: &str| {
        let v = if bits == cout {
            value.to_string()
        } else {
            let _ = writeln!(s, "%w{tag} = OpUConvert %int{cout} {value}");
            format!("%w{tag}")
        };
        let _ = writeln!(
            s,
            "%p{tag} = OpAccessChain %p{cout} %out %c0 {index}\nOpStore %p{tag} {v}"
        );
    };
    if f.layout == Layout::Vector {
        let _ = writeln!(
            s,
            "%rs = OpCompositeExtract %int{rw} %r 0\n%rc = OpCompositeExtract %int{rw} %r 1\n%i2 = OpIMul %int32 %i %c2\n%i2c = OpIAdd %int32 %i2 %c1"
        );
        store(&mut s, "%rs", rw, "%i2", "s");
        store(&mut s, "%rc", rw, "%i2c", "c");
    } else {
        store(&mut s, "%r", f.out_bits(), "%i", "r");
    }
    s += "OpReturn\nOpFunctionEnd\n";
    s
}

/// The raw value range of a W-bit format.
fn raw_range(w: u32, signed: bool) -> (i128, i128) {
    super::edges::range(w, signed)
}

/// Evaluates `op` on a raw input value (in range); the outcome or None when spvx-num
/// refuses it.
fn eval(op: &FixedOp, raw: i128) -> Option<spvx_num::fixed::FixedOutcome> {
    let bits = super::edges::to_bits(raw, op.input_width);
    spvx_num::fixed::evaluate(op, &BigUint::from(bits)).ok()
}

/// Bisects a monotone predicate between raw inputs `lo` < `hi` whose values differ: the
/// adjacent pair (a, a + 1) where it changes.
fn boundary(lo: i128, hi: i128, p: &dyn Fn(i128) -> bool) -> Option<i128> {
    let (plo, phi) = (p(lo), p(hi));
    if plo == phi {
        return None;
    }
    let (mut a, mut b) = (lo, hi);
    while b - a > 1 {
        let m = a + (b - a) / 2;
        if p(m) == plo { a = m } else { b = m }
    }
    Some(a)
}

/// The edge inputs of a form, as raw values (in range, sorted, each once).
pub fn edge_values(f: &FixedForm) -> Vec<i128> {
    let o = &f.op;
    let (w, signed) = (o.input_width, o.signed);
    let (lo, hi) = raw_range(w, signed);
    let mut v: Vec<i128> = super::edges::int_edges(w, signed);
    // ±½, ±1, ±2 where the format holds them (F = W − I fraction bits).
    let frac = i64::from(w) - i64::from(o.input_int_bits);
    for e in [-1i64, 0, 1] {
        let k = frac + e;
        if (0..126).contains(&k) {
            let x = 1i128 << k;
            v.extend([x, -x, x - 1, x + 1]);
        }
    }
    let fr = i64::from(o.result_width) - i64::from(o.result_int_bits);
    match o.function {
        FixedFunction::Sqrt => {
            // Ties: √x = (2k+1)·q/2 with q = 2^−F_r, so x = (2k+1)²·2^(−2F_r−2), a raw
            // integer when F_in ≥ 2F_r + 2.
            let e = frac - 2 * fr - 2;
            if (0..100).contains(&e) {
                for k in 0..6i128 {
                    v.push(((2 * k + 1) * (2 * k + 1)) << e);
                }
            }
        }
        FixedFunction::Rsqrt | FixedFunction::Recip => {
            // The one dyadic tie: 1/√x = q/2 (x = 2^(2F_r+2)), 1/x = q/2 (x = 2^(F_r+1)).
            let e = if o.function == FixedFunction::Rsqrt {
                2 * fr + 2 + frac
            } else {
                fr + 1 + frac
            };
            if (0..126).contains(&e) {
                v.extend([1i128 << e, -(1i128 << e)]);
            }
        }
        FixedFunction::SinPi | FixedFunction::CosPi | FixedFunction::SinCosPi
            if (1..126).contains(&frac) =>
        {
            // Exact points: multiples of ½.
            for k in -8i128..=8 {
                let x = k << (frac - 1);
                v.extend([x - 1, x, x + 1]);
            }
        }
        FixedFunction::Sin | FixedFunction::Cos | FixedFunction::SinCos
            if (0..100).contains(&frac) =>
        {
            // Next to multiples of π/2, where sin and cos reach 0 and ±1.
            for k in -4i32..=4 {
                let x =
                    (f64::from(k) * std::f64::consts::FRAC_PI_2 * 2f64.powi(frac as i32)).round();
                if x.abs() < 1e30 {
                    let x = x as i128;
                    v.extend([x - 1, x, x + 1]);
                }
            }
        }
        _ => {}
    }
    // Where the result saturates (and wraps): bisection of "SAT gives MAX" (and, signed,
    // "gives MIN") over each monotone piece, under the form's Q.
    let pieces: &[(i128, i128)] = match o.function {
        FixedFunction::Sqrt => &[(0, hi)],
        FixedFunction::Rsqrt | FixedFunction::Log => &[(1, hi)],
        FixedFunction::Recip => &[(1, hi), (lo, -1)],
        FixedFunction::Exp => &[(lo, hi)],
        _ => &[],
    };
    let sat = FixedOp {
        overflow: Overflow::Sat,
        ..*o
    };
    let (rlo, rhi) = raw_range(o.result_width, signed);
    let rw = o.result_width;
    let limits = [
        Some(super::edges::to_bits(rhi, rw)),
        signed.then(|| super::edges::to_bits(rlo, rw)),
    ];
    for &(a, b) in pieces {
        if a < lo || b > hi || a >= b {
            continue;
        }
        for limit in limits.into_iter().flatten() {
            let p = |x: i128| {
                eval(&sat, x).is_some_and(|r| f.result_bits(&r.value).first() == Some(&limit))
            };
            if let Some(x) = boundary(a, b, &p) {
                v.extend([x - 1, x, x + 1, x + 2]);
            }
        }
    }
    v.retain(|x| *x >= lo && *x <= hi);
    v.sort_unstable();
    v.dedup();
    v
}

/// The bytes of the input binding for `count` invocations: the edge list first, then edges
/// (half the time, with a neighbour one lsb away a third of those) and random bits.
pub fn inputs(f: &FixedForm, rng: &mut SplitMix64, count: u32) -> Vec<Vec<u8>> {
    let edges = edge_values(f);
    let w = f.op.input_width;
    let (lo, hi) = raw_range(w, f.op.signed);
    let size = (f.in_container() / 8) as usize;
    let mut bytes = Vec::with_capacity(count as usize * size);
    for i in 0..count as usize {
        let raw = if let Some(&e) = edges.get(i) {
            e
        } else if rng.next_u64() & 1 == 0 && !edges.is_empty() {
            let e = edges[(rng.next_u64() % edges.len() as u64) as usize];
            let d = (rng.next_u64() % 3) as i128 - 1;
            (e + d).clamp(lo, hi)
        } else {
            super::edges::value(rng.next_u64(), w, f.op.signed)
        };
        let bits = super::edges::to_bits(raw, w);
        bytes.extend_from_slice(&bits.to_le_bytes()[..size]);
    }
    vec![bytes]
}

/// The spec-undefined special inputs (sqrt and rsqrt of a negative value): the engine reports
/// them and their outputs are masked. The other special inputs (1/0, 1/√0, log 0, log of a
/// negative value) are compared: spvx-num documents their value.
pub fn masks(kind: &spvx_exec::UbKind) -> bool {
    matches!(kind, spvx_exec::UbKind::FixedPoint(what)
        if what == Exception::SqrtOfNegative.description()
            || what == Exception::RsqrtOfNegative.description())
}

/// On a device: a difference at a special input the extension gives no value for (1/0, 1/√0,
/// log 0, log of a negative value) is allowed; the reason names the input.
pub fn allowed(f: &FixedForm, input_bits: u64) -> Option<String> {
    let w = f.op.input_width;
    let raw = super::edges::value(input_bits, w, f.op.signed);
    let e = eval(&f.op, raw)?.exception?;
    (!e.spec_undefined()).then(|| {
        format!(
            "{}: the extension gives no value (spvx's is in docs/semantics/fixed-point.md, \"Special inputs\")",
            e.description()
        )
    })
}

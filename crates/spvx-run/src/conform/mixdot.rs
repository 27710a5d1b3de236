//! SPV_VALVE_mixed_float_dot_product's forms, their inputs, and the differences the extension
//! allows.
//!
//! Forms: OpFDot2MixAcc32VALVE and OpFDot2MixAcc16VALVE on f16 and on bf16 vectors (both
//! vectors of one type, the accumulator f32 or the component type), OpFDot4MixAcc32VALVE on
//! every pair of E4M3/E5M2 vectors (mixed encodings allowed): 8 forms. Each invocation reads
//! one 32-bit word per vector (component 0 in the low bits), one word of accumulator bits
//! (16-bit accumulators in the low half) and writes one word of result bits.
//!
//! Inputs: random bits, the edges of each format (±0, the smallest and largest subnormals, the
//! smallest normal, ±1, the largest finite value, ±Inf, NaN), products that cancel exactly,
//! and rounding ties (a power-of-two product equal to half a unit in the last place of the
//! accumulator, on an even and on an odd accumulator).
//!
//! Expected values: spvx-num's batch functions over the unit's words ([`expected`]), under the
//! run's model (the default `exact`, or a profile's), not a run of the module: the engine's
//! compiled module and the device are both checked against spvx-num directly.
//!
//! Allowed differences: the extension leaves the "exact order and precision" of the
//! accumulation to the implementation, so a device result equal to the result of one of the
//! accumulation models spvx-num implements (`spvx_num::mixdot::Model`, with or without
//! flushing input or output denormals) is ALLOWED DIFFERENCE naming the model; a NaN where a
//! NaN is expected is allowed (no NaN payloads are defined). [`Allowance`] evaluates each
//! model without flushing over the whole unit by the batch functions the first time a
//! difference asks for it; the flushing variants (the exact path, case by case) only for the
//! differing cases.

use super::ext::Ext;
use super::form::{Form, Kind, LOCAL, Port};
use crate::ElemType;
use crate::prng::SplitMix64;
use spvx_num::mixdot::fast::{
    BatchLengths, batch_native, dot2_acc16_batch, dot2_acc32_batch, dot4_acc32_batch,
};
use spvx_num::mixdot::{Encoding, MixOp, MixdotCase, Model, ModelConfig};
use spvx_spirv::op::Op;
use std::cell::OnceCell;

/// One mixed dot product form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MixDotForm {
    pub op: MixOp,
    pub enc_a: Encoding,
    pub enc_b: Encoding,
}

/// (exponent bits, mantissa bits) of a format.
fn bits_of(e: Encoding) -> (u32, u32) {
    match e {
        Encoding::F16 => (5, 10),
        Encoding::Bf16 => (8, 7),
        Encoding::E4m3 => (4, 3),
        Encoding::E5m2 => (5, 2),
    }
}

impl MixDotForm {
    pub fn spirv_op(&self) -> Op {
        match self.op {
            MixOp::Dot2Acc32 => Op::FDot2MixAcc32VALVE,
            MixOp::Dot2Acc16 => Op::FDot2MixAcc16VALVE,
            MixOp::Dot4Acc32 => Op::FDot4MixAcc32VALVE,
        }
    }

    fn lanes(&self) -> u32 {
        match self.op {
            MixOp::Dot4Acc32 => 4,
            _ => 2,
        }
    }

    /// The id: `mixdot/OP/ENC_A/ENC_B/ACC`.
    pub fn id(&self) -> String {
        let acc = match self.op {
            MixOp::Dot2Acc16 => self.enc_a.name(),
            _ => "f32",
        };
        format!(
            "mixdot/{}/{}x{}/{}x{}/{acc}",
            self.spirv_op().name(),
            self.enc_a.name(),
            self.lanes(),
            self.enc_b.name(),
            self.lanes()
        )
    }

    /// The case of one invocation, for spvx-num.
    pub fn case(&self, a: u32, b: u32, acc: u32) -> Option<MixdotCase> {
        MixdotCase::new(self.op, self.enc_a, self.enc_b, a, b, acc).ok()
    }
}

/// Every form.
pub fn forms() -> Vec<Form> {
    let mut out = Vec::new();
    for op in [MixOp::Dot2Acc32, MixOp::Dot2Acc16] {
        for e in [Encoding::F16, Encoding::Bf16] {
            out.push(form(MixDotForm {
                op,
                enc_a: e,
                enc_b: e,
            }));
        }
    }
    for a in [Encoding::E4m3, Encoding::E5m2] {
        for b in [Encoding::E4m3, Encoding::E5m2] {
            out.push(form(MixDotForm {
                op: MixOp::Dot4Acc32,
                enc_a: a,
                enc_b: b,
            }));
        }
    }
    out
}

fn form(f: MixDotForm) -> Form {
    let port = |binding, name| Port {
        binding,
        name,
        elem: ElemType::U32,
        per_invocation: 1,
    };
    let acc_elem = if f.op == MixOp::Dot2Acc16 {
        ElemType::U32
    } else {
        ElemType::F32
    };
    let inputs = vec![
        port(0, "a"),
        port(1, "b"),
        Port {
            elem: acc_elem,
            ..port(2, "acc")
        },
    ];
    let output = Port {
        elem: acc_elem,
        ..port(3, "out")
    };
    Form {
        id: f.id(),
        ext: Ext::Mixdot,
        asm: module(&f),
        inputs,
        output,
        kind: Kind::MixDot(f),
    }
}

/// The SPIR-V type of an encoding.
fn float_type(e: Encoding) -> &'static str {
    match e {
        Encoding::F16 => "OpTypeFloat 16",
        Encoding::Bf16 => "OpTypeFloat 16 BFloat16KHR",
        Encoding::E4m3 => "OpTypeFloat 8 Float8E4M3EXT",
        Encoding::E5m2 => "OpTypeFloat 8 Float8E5M2EXT",
    }
}

fn module(f: &MixDotForm) -> String {
    let mut s = format!("; spvx conform: {}\nOpCapability Shader\n", f.id());
    let (mut caps, mut exts) = (Vec::new(), vec!["SPV_VALVE_mixed_float_dot_product"]);
    match (f.op, f.enc_a) {
        (MixOp::Dot2Acc32, Encoding::F16) => {
            caps.extend(["Float16", "DotProductFloat16AccFloat32VALVE"])
        }
        (MixOp::Dot2Acc16, Encoding::F16) => {
            caps.extend(["Float16", "Int16", "DotProductFloat16AccFloat16VALVE"])
        }
        (MixOp::Dot2Acc32, _) => caps.extend(["BFloat16TypeKHR", "DotProductBFloat16AccVALVE"]),
        (MixOp::Dot2Acc16, _) => {
            caps.extend(["BFloat16TypeKHR", "Int16", "DotProductBFloat16AccVALVE"])
        }
        (MixOp::Dot4Acc32, _) => caps.extend(["Float8EXT", "DotProductFloat8AccFloat32VALVE"]),
    }
    if f.enc_a == Encoding::Bf16 {
        exts.push("SPV_KHR_bfloat16");
    }
    if f.op == MixOp::Dot4Acc32 {
        exts.push("SPV_EXT_float8");
    }
    for c in caps {
        s += &format!("OpCapability {c}\n");
    }
    for e in exts {
        s += &format!("OpExtension \"{e}\"\n");
    }
    s += "OpMemoryModel Logical GLSL450\n";
    s += "OpEntryPoint GLCompute %main \"main\" %gid %a %b %acc %out\n";
    s += &format!("OpExecutionMode %main LocalSize {LOCAL} 1 1\n");
    s += "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %arr ArrayStride 4\nOpMemberDecorate %Buf 0 Offset 0\nOpDecorate %Buf Block\n";
    for (i, v) in ["a", "b", "acc", "out"].iter().enumerate() {
        s += &format!("OpDecorate %{v} DescriptorSet 0\nOpDecorate %{v} Binding {i}\n");
    }
    s += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n%f32 = OpTypeFloat 32\n";
    let n = f.lanes();
    s += &format!(
        "%ta = {}\n%va = OpTypeVector %ta {n}\n",
        float_type(f.enc_a)
    );
    let vb = if f.enc_b == f.enc_a {
        "%va"
    } else {
        s += &format!(
            "%tb = {}\n%vb = OpTypeVector %tb {n}\n",
            float_type(f.enc_b)
        );
        "%vb"
    };
    if f.op == MixOp::Dot2Acc16 {
        s += "%u16 = OpTypeInt 16 0\n";
    }
    s += "%v3u32 = OpTypeVector %u32 3\n%arr = OpTypeRuntimeArray %u32\n%Buf = OpTypeStruct %arr\n%pBuf = OpTypePointer StorageBuffer %Buf\n%pu32 = OpTypePointer StorageBuffer %u32\n%pgid = OpTypePointer Input %v3u32\n%gid = OpVariable %pgid Input\n";
    for v in ["a", "b", "acc", "out"] {
        s += &format!("%{v} = OpVariable %pBuf StorageBuffer\n");
    }
    s += "%c0 = OpConstant %u32 0\n%main = OpFunction %void None %fn\n%entry = OpLabel\n%g = OpLoad %v3u32 %gid\n%i = OpCompositeExtract %u32 %g 0\n";
    for v in ["a", "b", "acc"] {
        s += &format!("%p{v} = OpAccessChain %pu32 %{v} %c0 %i\n%w{v} = OpLoad %u32 %p{v}\n");
    }
    s += &format!("%xa = OpBitcast %va %wa\n%xb = OpBitcast {vb} %wb\n");
    let (rt, acc) = if f.op == MixOp::Dot2Acc16 {
        s += "%acc16 = OpUConvert %u16 %wacc\n%xacc = OpBitcast %ta %acc16\n";
        ("%ta", "%xacc")
    } else {
        s += "%xacc = OpBitcast %f32 %wacc\n";
        ("%f32", "%xacc")
    };
    s += &format!("%res = {} {rt} %xa %xb {acc}\n", f.spirv_op().name());
    if f.op == MixOp::Dot2Acc16 {
        s += "%r16 = OpBitcast %u16 %res\n%rw = OpUConvert %u32 %r16\n";
    } else {
        s += "%rw = OpBitcast %u32 %res\n";
    }
    s += "%pout = OpAccessChain %pu32 %out %c0 %i\nOpStore %pout %rw\nOpReturn\nOpFunctionEnd\n";
    s
}

/// The edge values of a format's bits.
fn edges(e: Encoding) -> Vec<u64> {
    let (eb, mb) = bits_of(e);
    let sign = 1u64 << (eb + mb);
    let exp_all = ((1u64 << eb) - 1) << mb;
    let mant_all = (1u64 << mb) - 1;
    let one = ((1u64 << (eb - 1)) - 1) << mb;
    let mut v = vec![0, 1, mant_all, 1 << mb, one];
    match e {
        // E4M3: no infinities; S.1111.111 is NaN, S.1111.110 the largest finite.
        Encoding::E4m3 => v.extend([exp_all | (mant_all - 1), exp_all | mant_all]),
        _ => v.extend([
            (exp_all - (1 << mb)) | mant_all,
            exp_all,
            exp_all | (1 << (mb - 1)),
        ]),
    }
    let neg: Vec<u64> = v.iter().map(|x| x | sign).collect();
    v.extend(neg);
    v
}

/// The bits of 2^k in a format with `eb` exponent and `mb` mantissa bits, if normal.
fn pow2(k: i32, eb: u32, mb: u32) -> Option<u64> {
    let bias = (1i32 << (eb - 1)) - 1;
    let field = k + bias;
    (1..(1i32 << eb) - 1)
        .contains(&field)
        .then(|| (field as u64) << mb)
}

/// Packs lanes of `width` bits, lane 0 lowest.
fn pack(lanes: &[u64], width: u32) -> u32 {
    lanes
        .iter()
        .enumerate()
        .fold(0u32, |w, (i, &l)| w | ((l as u32) << (width * i as u32)))
}

/// The bytes of a, b and acc for `count` invocations.
pub fn inputs(f: &MixDotForm, rng: &mut SplitMix64, count: u32) -> Vec<Vec<u8>> {
    let n = f.lanes() as usize;
    let width = 32 / f.lanes();
    let (ea, eb) = (edges(f.enc_a), edges(f.enc_b));
    let (ba, bb) = (bits_of(f.enc_a), bits_of(f.enc_b));
    let acc16 = f.op == MixOp::Dot2Acc16;
    // The accumulator's format: f32, or the 16-bit encoding.
    let (acc_e, acc_m) = if acc16 { ba } else { (8, 23) };
    let acc_edges = if acc16 {
        edges(f.enc_a)
    } else {
        vec![
            0,
            0x8000_0000,
            1,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7f7f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
        ]
    };
    let lane_mask = (1u64 << width) - 1;
    let random = |r: &mut SplitMix64| r.next_u64() & lane_mask;
    let pick = |r: &mut SplitMix64, e: &[u64]| e[(r.next_u64() % e.len() as u64) as usize];
    let (mut ab, mut bb_, mut accb) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..count {
        let strategy = if i < 16 {
            i % 6
        } else {
            (rng.next_u64() % 6) as u32
        };
        let mut a: Vec<u64> = (0..n).map(|_| random(rng)).collect();
        let mut b: Vec<u64> = (0..n).map(|_| random(rng)).collect();
        let mut acc = rng.next_u64() & if acc16 { 0xffff } else { 0xffff_ffff };
        match strategy {
            // Edge values in every lane and the accumulator.
            0 | 1 => {
                a = (0..n).map(|_| pick(rng, &ea)).collect();
                b = (0..n).map(|_| pick(rng, &eb)).collect();
                acc = pick(rng, &acc_edges);
            }
            // Products that cancel exactly: lane 1 is lane 0 with Vector 1's sign flipped.
            2 => {
                let sign = 1u64 << (ba.0 + ba.1);
                a[1] = a[0] ^ sign;
                if f.enc_b == f.enc_a {
                    b[1] = b[0];
                } else {
                    // Different encodings: use 1.0 in Vector 2's lanes 0 and 1.
                    let one = pow2(0, bb.0, bb.1).unwrap_or(0);
                    b[0] = one;
                    b[1] = one;
                }
                a.iter_mut().skip(2).for_each(|x| *x = 0);
                if rng.next_u64() & 1 == 0 {
                    acc = 0;
                }
            }
            // A rounding tie: lane 0's product 2^(ka+kb) is half an ulp of the accumulator
            // 2^(ka+kb+m+1) (an even significand) or (1 + 2^-m)·that (odd); other lanes 0.
            _ => {
                let ka = (rng.next_u64() % 9) as i32 - 6;
                let kb = (rng.next_u64() % 9) as i32 - 6;
                let x = pow2(ka, ba.0, ba.1);
                let y = pow2(kb, bb.0, bb.1);
                let base = pow2(ka + kb + acc_m as i32 + 1, acc_e, acc_m);
                if let (Some(x), Some(y), Some(base)) = (x, y, base) {
                    a = vec![0; n];
                    b = vec![0; n];
                    a[0] = x;
                    b[0] = y;
                    let odd = rng.next_u64() & 1;
                    let neg = if rng.next_u64() & 1 == 0 {
                        0
                    } else {
                        1u64 << (acc_e + acc_m)
                    };
                    acc = (base | odd) | neg;
                    if neg != 0 {
                        a[0] |= 1u64 << (ba.0 + ba.1);
                    }
                }
            }
        }
        ab.extend_from_slice(&pack(&a, width).to_le_bytes());
        bb_.extend_from_slice(&pack(&b, width).to_le_bytes());
        let acc = if acc16 {
            acc & 0xffff
        } else {
            acc & 0xffff_ffff
        };
        accb.extend_from_slice(&(acc as u32).to_le_bytes());
    }
    vec![ab, bb_, accb]
}

/// The results of `f` under `cfg` for the cases `(a[i], b[i], acc[i])` by spvx-num's batch
/// functions (16-bit results zero-extended).
pub fn results(
    f: &MixDotForm,
    (a, b, acc): (&[u32], &[u32], &[u32]),
    cfg: &ModelConfig,
) -> Result<Vec<u32>, BatchLengths> {
    let mut out = vec![0u32; a.len()];
    match (f.op, f.enc_a.half16(), f.enc_a.fp8(), f.enc_b.fp8()) {
        (MixOp::Dot2Acc32, Some(h), _, _) => {
            dot2_acc32_batch(h, a, b, acc, cfg, &mut out)?;
        }
        (MixOp::Dot2Acc16, Some(h), _, _) => {
            let acc16: Vec<u16> = acc.iter().map(|&w| w as u16).collect();
            let mut out16 = vec![0u16; a.len()];
            dot2_acc16_batch(h, a, b, &acc16, cfg, &mut out16)?;
            out = out16.into_iter().map(u32::from).collect();
        }
        (MixOp::Dot4Acc32, _, Some(ea), Some(eb)) => {
            dot4_acc32_batch(ea, eb, a, b, acc, cfg, &mut out)?;
        }
        // Not one of the forms of [`forms`]: case by case (an invalid case gives 0).
        _ => {
            for (i, o) in out.iter_mut().enumerate() {
                *o = f.case(a[i], b[i], acc[i]).map_or(0, |c| c.evaluate(cfg));
            }
        }
    }
    Ok(out)
}

/// The words of input binding `k` (a, b or acc) of a unit.
fn words(inputs: &[Vec<u8>], k: usize) -> Vec<u32> {
    inputs.get(k).map_or_else(Vec::new, |b| {
        b.chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    })
}

/// The expected output bytes of a unit of `count` invocations under `cfg`: each invocation's
/// result word, little-endian.
pub fn expected(
    f: &MixDotForm,
    inputs: &[Vec<u8>],
    count: u32,
    cfg: &ModelConfig,
) -> Result<Vec<u8>, String> {
    let (mut a, mut b, mut acc) = (words(inputs, 0), words(inputs, 1), words(inputs, 2));
    for w in [&mut a, &mut b, &mut acc] {
        w.resize(count as usize, 0);
    }
    let out = results(f, (&a, &b, &acc), cfg).map_err(|e| format!("{}: {e}", f.id()))?;
    Ok(out.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// The configurations a device may use, in the order they are tried and named: each model,
/// without flushing, with input, with output, and with both denormals flushed.
fn configurations() -> Vec<ModelConfig> {
    let mut v = Vec::new();
    for model in Model::ALL {
        for (fi, fo) in [(false, false), (true, false), (false, true), (true, true)] {
            v.push(ModelConfig {
                flush_input_denormals: fi,
                flush_output_denormals: fo,
                ..ModelConfig::new(model)
            });
        }
    }
    v
}

/// Why a configuration's result is allowed.
fn reason(cfg: &ModelConfig) -> String {
    let (fi, fo) = (cfg.flush_input_denormals, cfg.flush_output_denormals);
    let mut why = format!("equals the accumulation model '{}'", cfg.model.name());
    if fi {
        why += " with input denormals flushed";
    }
    if fo {
        why += if fi {
            " and output denormals flushed"
        } else {
            " with output denormals flushed"
        };
    }
    why + " (the extension leaves order and precision to the implementation)"
}

/// The allowed differences of one unit: [`allowed`] for its invocations, each configuration
/// that spvx-num's batch functions compute natively evaluated over the whole unit at its first
/// use.
pub struct Allowance {
    form: MixDotForm,
    a: Vec<u32>,
    b: Vec<u32>,
    acc: Vec<u32>,
    configs: Vec<(ModelConfig, OnceCell<Vec<u32>>)>,
}

impl Allowance {
    /// The allowance of a unit's input bytes (a, b and acc).
    pub fn new(form: &MixDotForm, inputs: &[Vec<u8>]) -> Allowance {
        Allowance {
            form: *form,
            a: words(inputs, 0),
            b: words(inputs, 1),
            acc: words(inputs, 2),
            configs: configurations()
                .into_iter()
                .map(|c| (c, OnceCell::new()))
                .collect(),
        }
    }

    /// [`allowed`] for invocation `inv` of the unit.
    pub fn reason(&self, inv: u32, expected: u32, got: u32) -> Option<String> {
        let i = inv as usize;
        let word = |v: &[u32]| v.get(i).copied().unwrap_or(0);
        let (a, b, acc) = (word(&self.a), word(&self.b), word(&self.acc));
        let case = self.form.case(a, b, acc)?;
        let fmt = case.result_format();
        if fmt.is_nan(u64::from(expected)) && fmt.is_nan(u64::from(got)) {
            return Some(NAN_REASON.to_string());
        }
        let n = self.a.len().min(self.b.len()).min(self.acc.len());
        for (cfg, table) in &self.configs {
            let r = if batch_native(cfg) && i < n {
                let all = table.get_or_init(|| {
                    let args = (&self.a[..n], &self.b[..n], &self.acc[..n]);
                    results(&self.form, args, cfg).unwrap_or_default()
                });
                all.get(i).copied()
            } else {
                None
            };
            if r.unwrap_or_else(|| case.evaluate(cfg)) == got {
                return Some(reason(cfg));
            }
        }
        None
    }
}

const NAN_REASON: &str = "a NaN with another payload (SPIR-V defines no NaN payloads)";

/// Whether `got` is a result the extension allows for the invocation's words: the result of
/// an accumulation model spvx-num implements (with or without flushing denormals), or a NaN
/// where a NaN is expected. The reason, naming the model.
pub fn allowed(
    f: &MixDotForm,
    a: u32,
    b: u32,
    acc: u32,
    expected: u32,
    got: u32,
) -> Option<String> {
    let case = f.case(a, b, acc)?;
    let fmt = case.result_format();
    if fmt.is_nan(u64::from(expected)) && fmt.is_nan(u64::from(got)) {
        return Some(NAN_REASON.to_string());
    }
    configurations()
        .iter()
        .find(|cfg| case.evaluate(cfg) == got)
        .map(reason)
}

//! SPV_INTEL_subgroup_matrix_multiply_accumulate's forms and their inputs.
//!
//! Forms: OpSubgroupMatrixMultiplyAccumulateINTEL at every operand-flag combination the engine's
//! two DPAS platforms accept (docs/semantics/dpas.md, "OpSubgroupMatrixMultiplyAccumulateINTEL
//! in the engine"): subgroup size 8 (DG2) and 16 (PVC) × M ∈ {1, 2, 3, 4, 8} (SPIR-V vectors
//! have 2, 3, 4 or 8 components below 16) × the element interpretations of A and B (u8/s8/u4/s4
//! in any mix, Signed bits included; fp16, bf16, tf32 on both sides) × every width of A's
//! integer components that spreads K over the subgroup (rows side by side included) and fp16
//! A as `half` components × the C and Result types (32-bit integer; fp32; fp16 on PVC; bf16
//! bits in 16-bit integers with the MatrixCBFloat16INTEL / MatrixResultBFloat16INTEL bits on
//! PVC, independently).
//!
//! Invocation `i` reads its A components from words `i·SA …` of binding 0, B from binding 1,
//! C from binding 2 (one 32-bit word per component, narrower components in the low bits), runs
//! the instruction and writes the result's M components to binding 3. Inputs are made a
//! subgroup at a time as whole matrices (A M×K, B K×N, C M×N) and handed to the lanes as the
//! extension maps them; A components of rows past M carry random bits (ignored).

use super::ext::Ext;
use super::form::{Form, Kind, LOCAL, Port};
use crate::ElemType;
use crate::prng::SplitMix64;
use spvx_num::dpas::{Precision, ops_per_chan};
use spvx_num::float::Format;
use std::fmt::Write as _;

/// The SPIR-V component type of Matrix A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AComp {
    /// An unsigned integer of this width, the elements packed (an interpretation bit set).
    Int(u32),
    /// `half`: one fp16 element, no interpretation bit.
    Half,
    /// `float`: one tf32 element (TF32INTEL).
    Float,
}

impl AComp {
    pub fn bits(self) -> u32 {
        match self {
            AComp::Int(b) => b,
            AComp::Half => 16,
            AComp::Float => 32,
        }
    }
}

/// The type of Matrix C or of the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acc {
    /// 32-bit integer (wraps).
    Int32,
    /// fp32.
    F32,
    /// fp16 (`half` components).
    F16,
    /// bf16 bits in 16-bit integer components (MatrixCBFloat16INTEL / MatrixResultBFloat16INTEL).
    Bf16Bits,
}

impl Acc {
    fn name(self) -> &'static str {
        match self {
            Acc::Int32 => "i32",
            Acc::F32 => "f32",
            Acc::F16 => "f16",
            Acc::Bf16Bits => "bf16",
        }
    }

    /// The float format of a float accumulator.
    pub fn format(self) -> Option<Format> {
        match self {
            Acc::Int32 => None,
            Acc::F32 => Some(Format::F32),
            Acc::F16 => Some(Format::F16),
            Acc::Bf16Bits => Some(Format::BF16),
        }
    }

    /// The SPIR-V component type's id in the module.
    fn ty(self) -> &'static str {
        match self {
            Acc::Int32 => "%uint",
            Acc::F32 => "%float",
            Acc::F16 => "%half",
            Acc::Bf16Bits => "%ushort",
        }
    }
}

/// One form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmmaForm {
    /// Subgroup size N (8 or 16): the columns of B, C and the result.
    pub n: u32,
    /// M: rows of A, C and the result.
    pub m: u32,
    pub a: Precision,
    pub b: Precision,
    pub a_comp: AComp,
    pub c: Acc,
    pub r: Acc,
}

impl SmmaForm {
    /// K: one DPAS's 8 × OPS_PER_CHAN.
    pub fn k(&self) -> u32 {
        8 * ops_per_chan(self.b, self.a).unwrap_or(1)
    }

    /// A elements per A component.
    pub fn a_per(&self) -> u32 {
        (self.a_comp.bits() / self.a.bits()).max(1)
    }

    /// Lanes that pass one row of A.
    pub fn lanes_per_row(&self) -> u32 {
        (self.k() / self.a_per()).max(1)
    }

    /// Rows of A the subgroup passes side by side.
    pub fn row_groups(&self) -> u32 {
        (self.n / self.lanes_per_row()).max(1)
    }

    /// Components of Matrix A.
    pub fn a_count(&self) -> u32 {
        self.m.div_ceil(self.row_groups())
    }

    /// B elements per 32-bit B component.
    pub fn b_per(&self) -> u32 {
        (32 / self.b.bits()).max(1)
    }

    /// Components of Matrix B.
    pub fn b_count(&self) -> u32 {
        self.k() / self.b_per()
    }

    /// Whether the elements are floats.
    pub fn is_float(&self) -> bool {
        !self.a.is_integer()
    }

    /// The id: `smma/sgN/mM/A-B/a{comp}/C-R`, e.g. `smma/sg16/m4/s8-u4/a16/i32-i32`.
    pub fn id(&self) -> String {
        let comp = match self.a_comp {
            AComp::Int(b) => format!("a{b}"),
            AComp::Half => "ahalf".to_string(),
            AComp::Float => "afloat".to_string(),
        };
        format!(
            "smma/sg{}/m{}/{}-{}/{comp}/{}-{}",
            self.n,
            self.m,
            self.a.name(),
            self.b.name(),
            self.c.name(),
            self.r.name()
        )
    }

    /// The Matrix Multiply Accumulate Operands, by name (`|`-joined; empty for none).
    pub fn operands(&self) -> String {
        let mut v: Vec<String> = Vec::new();
        for (p, side, int_comp) in [
            (self.a, 'A', matches!(self.a_comp, AComp::Int(_))),
            (self.b, 'B', true),
        ] {
            if p.is_signed_integer() {
                v.push(format!("Matrix{side}SignedComponentsINTEL"));
            }
            let interp = match p {
                Precision::U8 | Precision::S8 => Some("PackedInt8"),
                Precision::U4 | Precision::S4 => Some("PackedInt4"),
                Precision::Fp16 if int_comp => Some("PackedFloat16"),
                Precision::Bf16 => Some("PackedBFloat16"),
                Precision::Tf32 => Some("TF32"),
                _ => None,
            };
            if let Some(i) = interp {
                v.push(format!("Matrix{side}{i}INTEL"));
            }
        }
        if self.c == Acc::Bf16Bits {
            v.push("MatrixCBFloat16INTEL".to_string());
        }
        if self.r == Acc::Bf16Bits {
            v.push("MatrixResultBFloat16INTEL".to_string());
        }
        v.join("|")
    }

    /// Whether A's components spread K over the subgroup (the extension's three cases).
    fn a_fits(&self) -> bool {
        let (e, c) = (self.a.bits(), self.a_comp.bits());
        c >= e
            && c.is_multiple_of(e)
            && self.k().is_multiple_of(self.a_per())
            && self.lanes_per_row() <= self.n
            && self.n.is_multiple_of(self.lanes_per_row())
    }
}

/// The M values swept: SPIR-V vectors below 16 components have 2, 3, 4 or 8.
pub const MS: [u32; 5] = [1, 2, 3, 4, 8];

/// Element precisions of A and B, A's component types, (C, Result) types.
type Family = (Precision, Precision, Vec<AComp>, Vec<(Acc, Acc)>);

/// Every form, in a fixed order: subgroup size, precisions, A component, C/R, M.
pub fn forms() -> Vec<Form> {
    let ints = [Precision::U8, Precision::S8, Precision::U4, Precision::S4];
    let mut shapes: Vec<SmmaForm> = Vec::new();
    for n in [8u32, 16] {
        let pvc = n == 16;
        let mut pairs: Vec<Family> = Vec::new();
        for a in ints {
            for b in ints {
                let comps = [8, 16, 32].map(AComp::Int).to_vec();
                pairs.push((a, b, comps, vec![(Acc::Int32, Acc::Int32)]));
            }
        }
        let f16_accs = if pvc {
            vec![(Acc::F32, Acc::F32), (Acc::F16, Acc::F16)]
        } else {
            vec![(Acc::F32, Acc::F32)]
        };
        let bf16_accs = if pvc {
            vec![
                (Acc::F32, Acc::F32),
                (Acc::Bf16Bits, Acc::Bf16Bits),
                (Acc::F32, Acc::Bf16Bits),
                (Acc::Bf16Bits, Acc::F32),
            ]
        } else {
            vec![(Acc::F32, Acc::F32)]
        };
        pairs.push((
            Precision::Fp16,
            Precision::Fp16,
            vec![AComp::Int(16), AComp::Int(32), AComp::Half],
            f16_accs,
        ));
        pairs.push((
            Precision::Bf16,
            Precision::Bf16,
            vec![AComp::Int(16), AComp::Int(32)],
            bf16_accs,
        ));
        if pvc {
            pairs.push((
                Precision::Tf32,
                Precision::Tf32,
                vec![AComp::Float],
                vec![(Acc::F32, Acc::F32)],
            ));
        }
        for (a, b, comps, accs) in pairs {
            for a_comp in comps {
                for &(c, r) in &accs {
                    for m in MS {
                        let f = SmmaForm {
                            n,
                            m,
                            a,
                            b,
                            a_comp,
                            c,
                            r,
                        };
                        if f.a_fits() {
                            shapes.push(f);
                        }
                    }
                }
            }
        }
    }
    shapes.into_iter().map(form).collect()
}

fn form(f: SmmaForm) -> Form {
    let acc_elem = |a: Acc| match a {
        Acc::Int32 => ElemType::I32,
        Acc::F32 => ElemType::F32,
        _ => ElemType::U32,
    };
    let port = |binding, name, elem, per: u32| Port {
        binding,
        name,
        elem,
        per_invocation: per as usize,
    };
    let b_elem = if f.b == Precision::Tf32 {
        ElemType::F32
    } else {
        ElemType::U32
    };
    let a_elem = if f.a == Precision::Tf32 {
        ElemType::F32
    } else {
        ElemType::U32
    };
    Form {
        id: f.id(),
        ext: Ext::Smma,
        asm: module(&f),
        inputs: vec![
            port(0, "a", a_elem, f.a_count()),
            port(1, "b", b_elem, f.b_count()),
            port(2, "c", acc_elem(f.c), f.m),
        ],
        output: port(3, "out", acc_elem(f.r), f.m),
        kind: Kind::Smma(f),
    }
}

/// The type id of `count` components of `comp` (scalar when 1).
fn vec_ty(comp: &str, count: u32) -> String {
    if count == 1 {
        comp.to_string()
    } else {
        format!("%v{count}{}", &comp[1..])
    }
}

/// The module of a form (spirv-as text). SubgroupMatrixMultiplyAccumulateINTEL is the first
/// capability after Shader, so that a Vulkan device names it as what is missing.
fn module(f: &SmmaForm) -> String {
    let a_ty = match f.a_comp {
        AComp::Int(8) => "%uchar",
        AComp::Int(16) => "%ushort",
        AComp::Int(_) => "%uint",
        AComp::Half => "%half",
        AComp::Float => "%float",
    };
    let b_ty = if f.b == Precision::Tf32 {
        "%float"
    } else {
        "%uint"
    };
    let (sa, sb, m) = (f.a_count(), f.b_count(), f.m);
    let mut vecs: Vec<(String, u32)> = Vec::new();
    for (t, c) in [(a_ty, sa), (b_ty, sb), (f.c.ty(), m), (f.r.ty(), m)] {
        if c > 1 && !vecs.contains(&(t.to_string(), c)) {
            vecs.push((t.to_string(), c));
        }
    }
    let mut s = format!(
        "; spvx conform: {}\nOpCapability Shader\nOpCapability SubgroupMatrixMultiplyAccumulateINTEL\nOpCapability Int8\nOpCapability Int16\nOpCapability Float16\n",
        f.id()
    );
    if vecs.iter().any(|(_, c)| *c > 4) {
        s += "OpCapability Vector16\n";
    }
    s += "OpExtension \"SPV_INTEL_subgroup_matrix_multiply_accumulate\"\nOpMemoryModel Logical GLSL450\n";
    s += "OpEntryPoint GLCompute %main \"main\" %gid %a %b %c %out\n";
    let _ = writeln!(s, "OpExecutionMode %main LocalSize {LOCAL} 1 1");
    s += "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %arr ArrayStride 4\nOpMemberDecorate %Buf 0 Offset 0\nOpDecorate %Buf Block\n";
    for (i, v) in ["a", "b", "c", "out"].iter().enumerate() {
        let _ = writeln!(
            s,
            "OpDecorate %{v} DescriptorSet 0\nOpDecorate %{v} Binding {i}"
        );
    }
    s += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%ushort = OpTypeInt 16 0\n%uchar = OpTypeInt 8 0\n%float = OpTypeFloat 32\n%half = OpTypeFloat 16\n";
    s += "%v3uint = OpTypeVector %uint 3\n%pgid = OpTypePointer Input %v3uint\n%gid = OpVariable %pgid Input\n";
    for (t, c) in &vecs {
        if !(t == "%uint" && *c == 3) {
            let _ = writeln!(s, "{} = OpTypeVector {t} {c}", vec_ty(t, *c));
        }
    }
    s += "%arr = OpTypeRuntimeArray %uint\n%Buf = OpTypeStruct %arr\n%pBuf = OpTypePointer StorageBuffer %Buf\n%puint = OpTypePointer StorageBuffer %uint\n";
    for v in ["a", "b", "c", "out"] {
        let _ = writeln!(s, "%{v} = OpVariable %pBuf StorageBuffer");
    }
    let mut consts: Vec<u32> = vec![0, sa, sb, m, f.k()];
    consts.extend(0..sa.max(sb).max(m));
    consts.sort_unstable();
    consts.dedup();
    for c in &consts {
        let _ = writeln!(s, "%c{c} = OpConstant %uint {c}");
    }
    s += "%main = OpFunction %void None %fn\n%entry = OpLabel\n%g = OpLoad %v3uint %gid\n%i = OpCompositeExtract %uint %g 0\n";
    // Loads `count` words of binding `v` at i·count, each converted to `comp`; the operand id.
    let load = |s: &mut String, v: &str, count: u32, comp: &str| -> String {
        let _ = writeln!(s, "%{v}base = OpIMul %uint %i %c{count}");
        let mut ids = Vec::new();
        for j in 0..count {
            let _ = writeln!(
                s,
                "%{v}x{j} = OpIAdd %uint %{v}base %c{j}\n%{v}p{j} = OpAccessChain %puint %{v} %c0 %{v}x{j}\n%{v}w{j} = OpLoad %uint %{v}p{j}"
            );
            let id = match comp {
                "%uint" => format!("%{v}w{j}"),
                "%float" => {
                    let _ = writeln!(s, "%{v}e{j} = OpBitcast %float %{v}w{j}");
                    format!("%{v}e{j}")
                }
                "%half" => {
                    let _ = writeln!(
                        s,
                        "%{v}h{j} = OpUConvert %ushort %{v}w{j}\n%{v}e{j} = OpBitcast %half %{v}h{j}"
                    );
                    format!("%{v}e{j}")
                }
                t => {
                    let _ = writeln!(s, "%{v}e{j} = OpUConvert {t} %{v}w{j}");
                    format!("%{v}e{j}")
                }
            };
            ids.push(id);
        }
        if count == 1 {
            ids.remove(0)
        } else {
            let _ = writeln!(
                s,
                "%{v}m = OpCompositeConstruct {} {}",
                vec_ty(comp, count),
                ids.join(" ")
            );
            format!("%{v}m")
        }
    };
    let ma = load(&mut s, "a", sa, a_ty);
    let mb = load(&mut s, "b", sb, b_ty);
    let mc = load(&mut s, "c", m, f.c.ty());
    let ops = f.operands();
    let _ = writeln!(
        s,
        "%r = OpSubgroupMatrixMultiplyAccumulateINTEL {} %c{} {ma} {mb} {mc}{}{ops}",
        vec_ty(f.r.ty(), m),
        f.k(),
        if ops.is_empty() { "" } else { " " }
    );
    let _ = writeln!(s, "%obase = OpIMul %uint %i %c{m}");
    for r in 0..m {
        let comp = if m == 1 {
            "%r".to_string()
        } else {
            let _ = writeln!(s, "%r{r} = OpCompositeExtract {} %r {r}", f.r.ty());
            format!("%r{r}")
        };
        let word = match f.r {
            Acc::Int32 => comp,
            Acc::F32 => {
                let _ = writeln!(s, "%rw{r} = OpBitcast %uint {comp}");
                format!("%rw{r}")
            }
            Acc::F16 => {
                let _ = writeln!(
                    s,
                    "%rs{r} = OpBitcast %ushort {comp}\n%rw{r} = OpUConvert %uint %rs{r}"
                );
                format!("%rw{r}")
            }
            Acc::Bf16Bits => {
                let _ = writeln!(s, "%rw{r} = OpUConvert %uint {comp}");
                format!("%rw{r}")
            }
        };
        let _ = writeln!(
            s,
            "%ox{r} = OpIAdd %uint %obase %c{r}\n%op{r} = OpAccessChain %puint %out %c0 %ox{r}\nOpStore %op{r} {word}"
        );
    }
    s += "OpReturn\nOpFunctionEnd\n";
    s
}

/// The element format of a float precision.
fn elem_format(p: Precision) -> Option<Format> {
    p.float_format()
}

/// Edge patterns of a float format: ±0, the smallest and largest subnormals, the smallest
/// normal, ±1, the largest finite value, ±Inf, a quiet NaN (tf32: in its 32-bit container).
fn float_edges(fmt: Format) -> Vec<u64> {
    let mut v = Vec::new();
    for neg in [false, true] {
        let one = fmt.from_fields(neg, fmt.bias() as u64, 0);
        let max_sub = fmt.from_fields(neg, 0, (1u64 << fmt.mantissa_bits()) - 1);
        v.extend([
            fmt.zero(neg),
            fmt.min_subnormal(neg),
            max_sub,
            fmt.min_normal(neg),
            one,
            fmt.max_finite(neg),
            fmt.quiet_nan(neg),
        ]);
        v.extend(fmt.infinity(neg));
    }
    v
}

/// 2^k in a format, if normal.
fn pow2(fmt: Format, k: i32) -> Option<u64> {
    let e = k + fmt.bias();
    (1..(1i32 << fmt.exponent_bits()) - 1)
        .contains(&e)
        .then(|| fmt.from_fields(false, e as u64, 0))
}

/// Whole matrices of one subgroup, element bit patterns: A M×K, B K×N, C M×N (row-major).
struct Matrices {
    a: Vec<u64>,
    b: Vec<u64>,
    c: Vec<u64>,
}

/// A random moderate float element (finite, |x| < 2^8, sometimes subnormal or zero).
fn moderate(rng: &mut SplitMix64, fmt: Format) -> u64 {
    let m = fmt.mantissa_bits();
    let neg = rng.next_u64() & 1 == 1;
    let e = if rng.next_u64().is_multiple_of(8) {
        0
    } else {
        (fmt.bias() - 8 + (rng.next_u64() % 16) as i32).max(1) as u64
    };
    fmt.from_fields(neg, e, rng.next_u64() & ((1u64 << m) - 1))
}

fn pick(rng: &mut SplitMix64, v: &[u64]) -> u64 {
    v[(rng.next_u64() % v.len() as u64) as usize]
}

/// The integer edges of an element precision, as bit patterns.
fn int_edges(p: Precision) -> Vec<u64> {
    let bits = p.bits();
    super::edges::int_edges(bits, p.is_signed_integer())
        .into_iter()
        .map(|v| super::edges::to_bits(v, bits))
        .collect()
}

/// One subgroup's matrices under strategy `s` (0–5).
fn matrices(f: &SmmaForm, rng: &mut SplitMix64, s: u64) -> Matrices {
    let (m, k, n) = (f.m as usize, f.k() as usize, f.n as usize);
    let mut mx = Matrices {
        a: vec![0; m * k],
        b: vec![0; k * n],
        c: vec![0; m * n],
    };
    if !f.is_float() {
        let ab = f.a.bits();
        let bb = f.b.bits();
        let (ea, eb) = (int_edges(f.a), int_edges(f.b));
        let c_edges: Vec<u64> = [i32::MIN, i32::MIN + 1, -1, 0, 1, i32::MAX - 1, i32::MAX]
            .iter()
            .map(|&x| u64::from(x as u32))
            .collect();
        let mask = |b: u32| (1u64 << b) - 1;
        // The element of the largest magnitude (its product with itself is the largest).
        let big = |p: Precision| {
            if p.is_signed_integer() {
                1u64 << (p.bits() - 1)
            } else {
                mask(p.bits())
            }
        };
        for x in &mut mx.a {
            *x = match s {
                0 | 4 => rng.next_u64() & mask(ab),
                1 => pick(rng, &[ea[0], ea[ea.len() - 1]]),
                2 => big(f.a),
                _ => pick(rng, &ea),
            };
        }
        for x in &mut mx.b {
            *x = match s {
                0 | 4 => rng.next_u64() & mask(bb),
                1 => pick(rng, &[eb[0], eb[eb.len() - 1]]),
                2 => big(f.b),
                _ => pick(rng, &eb),
            };
        }
        for x in &mut mx.c {
            *x = match s {
                0 => rng.next_u64() & 0xffff_ffff,
                _ => pick(rng, &c_edges),
            };
        }
        return mx;
    }
    let Some(fe) = elem_format(f.a) else {
        return mx;
    };
    let fc = f.c.format().unwrap_or(Format::F32);
    let fr = f.r.format().unwrap_or(Format::F32);
    let (ee, ce) = (float_edges(fe), float_edges(fc));
    match s {
        // Edge values everywhere.
        1 | 4 => {
            for x in mx.a.iter_mut().chain(mx.b.iter_mut()) {
                *x = if rng.next_u64().is_multiple_of(4) {
                    moderate(rng, fe)
                } else {
                    pick(rng, &ee)
                };
            }
            for x in &mut mx.c {
                *x = pick(rng, &ce);
            }
        }
        // Products that cancel: columns 2j and 2j+1 of A opposite, rows 2j and 2j+1 of B
        // equal; C ±0 or moderate.
        2 => {
            for r in 0..m {
                for j in (0..k).step_by(2) {
                    let x = moderate(rng, fe);
                    mx.a[r * k + j] = x;
                    mx.a[r * k + j + 1] = x ^ fe.sign_mask();
                }
            }
            for j in (0..k).step_by(2) {
                for col in 0..n {
                    let y = moderate(rng, fe);
                    mx.b[j * n + col] = y;
                    mx.b[(j + 1) * n + col] = y;
                }
            }
            for x in &mut mx.c {
                *x = match rng.next_u64() % 3 {
                    0 => fc.zero(false),
                    1 => fc.zero(true),
                    _ => moderate(rng, fc),
                };
            }
        }
        // Rounding ties: each column's one non-zero product 2^(ka+kb) (A[r][col mod K] ·
        // B[col mod K][col]) is half an ulp of the result format at C = ±2^E (an even
        // significand) or ±(2^E + one ulp) (odd, when C's format holds it).
        3 => {
            let mr = fr.mantissa_bits() as i32;
            let e = (rng.next_u64() % 5) as i32 - 2;
            let half_ulp = e - mr - 1;
            let ka = half_ulp / 2;
            let neg = rng.next_u64() & 1 == 1;
            let sign = |x: u64, f: Format| if neg { x | f.sign_mask() } else { x };
            if let (Some(base), Some(x), Some(y)) =
                (pow2(fc, e), pow2(fe, ka), pow2(fe, half_ulp - ka))
            {
                for r in 0..m {
                    for col in 0..n {
                        let kk = col % k;
                        mx.a[r * k + kk] = sign(x, fe);
                        mx.b[kk * n + col] = y;
                        let odd =
                            rng.next_u64() & 1 == 1 && fc.mantissa_bits() >= fr.mantissa_bits();
                        let c = if odd {
                            base + (1u64
                                << (fc.mantissa_bits() - fr.mantissa_bits() + fc.padding_bits()))
                        } else {
                            base
                        };
                        mx.c[r * n + col] = sign(c, fc);
                    }
                }
            }
        }
        // Large values: products and sums beyond the accumulator's range.
        5 => {
            for x in mx.a.iter_mut().chain(mx.b.iter_mut()) {
                let neg = rng.next_u64() & 1 == 1;
                *x = if rng.next_u64() & 1 == 0 {
                    fe.max_finite(neg)
                } else {
                    moderate(rng, fe)
                };
            }
            for x in &mut mx.c {
                *x = fc.max_finite(rng.next_u64() & 1 == 1);
            }
        }
        _ => {
            for x in mx.a.iter_mut().chain(mx.b.iter_mut()) {
                *x = moderate(rng, fe);
            }
            for x in &mut mx.c {
                *x = moderate(rng, fc);
            }
        }
    }
    mx
}

/// The bytes of a, b and c for `count` invocations (a multiple of N): one subgroup's whole
/// matrices at a time, distributed over its lanes as the extension maps them.
pub fn inputs(f: &SmmaForm, rng: &mut SplitMix64, count: u32) -> Vec<Vec<u8>> {
    let (n, m, k) = (f.n as usize, f.m as usize, f.k() as usize);
    let (sa, sb) = (f.a_count() as usize, f.b_count() as usize);
    let (ea, eb) = (f.a.bits(), f.b.bits());
    let (per, lpr, groups) = (
        f.a_per() as usize,
        f.lanes_per_row() as usize,
        f.row_groups() as usize,
    );
    let a_mask = if f.a_comp.bits() == 32 {
        u64::from(u32::MAX)
    } else {
        (1u64 << f.a_comp.bits()) - 1
    };
    let el = |b: u32| {
        if b >= 32 {
            u64::from(u32::MAX)
        } else {
            (1u64 << b) - 1
        }
    };
    let (mut a_w, mut b_w, mut c_w) = (Vec::new(), Vec::new(), Vec::new());
    for sg in 0..(count as usize).div_ceil(n) {
        let s = if sg < 12 {
            (sg % 6) as u64
        } else {
            rng.next_u64() % 6
        };
        let mx = matrices(f, rng, s);
        for lane in 0..n {
            for j in 0..sa {
                let row = j * groups + lane / lpr;
                let col0 = (lane % lpr) * per;
                let mut w = 0u64;
                if row < m {
                    for e in 0..per {
                        w |= (mx.a[row * k + col0 + e] & el(ea)) << (e as u32 * ea);
                    }
                } else {
                    w = rng.next_u64() & a_mask;
                }
                a_w.push(w as u32);
            }
            for i in 0..sb {
                let mut w = 0u64;
                for e in 0..f.b_per() as usize {
                    let row = i * f.b_per() as usize + e;
                    w |= (mx.b[row * n + lane] & el(eb)) << (e as u32 * eb);
                }
                b_w.push(w as u32);
            }
            for r in 0..m {
                c_w.push(mx.c[r * n + lane] as u32);
            }
        }
    }
    let bytes = |v: Vec<u32>| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    vec![bytes(a_w), bytes(b_w), bytes(c_w)]
}

/// On a device: a NaN where a NaN is expected (no NaN payloads are defined).
pub fn allowed(f: &SmmaForm, expected: u64, got: u64) -> Option<String> {
    let fmt = f.r.format()?;
    (fmt.is_nan(expected) && fmt.is_nan(got))
        .then(|| "a NaN with another payload (no NaN payloads are defined)".to_string())
}

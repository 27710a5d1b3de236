//! Helpers of the OpSubgroupMatrixMultiplyAccumulateINTEL tests: the module text of a case,
//! the distribution of whole matrices over the lanes (from the extension's "Mapping Matrix
//! Data to Invocations" text), random matrices and the independent expected product.
#![allow(dead_code)]

use spvx_exec::{CompileOptions, CompiledModule, ExecError, Resources, RunConfig};
use spvx_spirv::asm::{AsmOptions, assemble};
use std::collections::BTreeSet;
use std::fmt::Write;

/// An element interpretation of A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    Int { bits: u32, signed: bool },
    Fp16,
    Bf16,
    Tf32,
}

impl Elem {
    pub fn bits(self) -> u32 {
        match self {
            Elem::Int { bits, .. } => bits,
            Elem::Fp16 | Elem::Bf16 => 16,
            Elem::Tf32 => 32,
        }
    }
}

/// The type of C or the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acc {
    /// 32-bit integer.
    D,
    /// fp32.
    F,
    /// fp16 (half components).
    Hf,
    /// bf16 bits in 16-bit integer components (MatrixCBFloat16INTEL / MatrixResultBFloat16INTEL).
    BfBits,
}

/// A SPIR-V component type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompTy {
    /// Unsigned integer of this width.
    Int(u32),
    Half,
    Float,
}

impl CompTy {
    pub fn bits(self) -> u32 {
        match self {
            CompTy::Int(b) => b,
            CompTy::Half => 16,
            CompTy::Float => 32,
        }
    }

    fn name(self) -> &'static str {
        match self {
            CompTy::Int(8) => "uchar",
            CompTy::Int(16) => "ushort",
            CompTy::Int(_) => "uint",
            CompTy::Half => "half",
            CompTy::Float => "float",
        }
    }
}

impl Acc {
    fn comp(self) -> CompTy {
        match self {
            Acc::D => CompTy::Int(32),
            Acc::F => CompTy::Float,
            Acc::Hf => CompTy::Half,
            Acc::BfBits => CompTy::Int(16),
        }
    }
}

/// One test case: subgroup size, M, element kinds, accumulator types, operand types.
#[derive(Clone, Debug)]
pub struct Case {
    pub n: usize,
    pub m: usize,
    pub a: Elem,
    pub b: Elem,
    pub c: Acc,
    pub r: Acc,
    pub a_comp: CompTy,
    pub k_override: Option<usize>,
    pub b_count_override: Option<usize>,
}

impl Case {
    /// The usual shape: K of one DPAS, A in components of K·bits/N bits (32-bit floats for tf32).
    pub fn new(n: usize, m: usize, a: Elem, b: Elem, c: Acc, r: Acc) -> Case {
        let k = dpas_k(a, b);
        let a_comp = match a {
            Elem::Tf32 => CompTy::Float,
            _ => CompTy::Int((k as u32 * a.bits() / n as u32).max(8)),
        };
        Case {
            n,
            m,
            a,
            b,
            c,
            r,
            a_comp,
            k_override: None,
            b_count_override: None,
        }
    }

    pub fn k(&self) -> usize {
        self.k_override.unwrap_or_else(|| dpas_k(self.a, self.b))
    }

    /// Elements per A component.
    fn a_per(&self) -> usize {
        (self.a_comp.bits() / self.a.bits()) as usize
    }

    /// Lanes passing one row of A (K / elements per component).
    fn lanes_per_row(&self) -> usize {
        self.k() / self.a_per()
    }

    /// Rows passed side by side (N / lanes per row; the extension's case 3 when > 1).
    fn row_groups(&self) -> usize {
        (self.n / self.lanes_per_row()).max(1)
    }

    pub fn a_count(&self) -> usize {
        self.m.div_ceil(self.row_groups())
    }

    pub fn b_count(&self) -> usize {
        self.b_count_override.unwrap_or_else(|| {
            let e = self.b.bits() as usize;
            if e <= 16 { self.k() * e / 32 } else { self.k() }
        })
    }

    fn b_comp(&self) -> CompTy {
        if self.b == Elem::Tf32 {
            CompTy::Float
        } else {
            CompTy::Int(32)
        }
    }

    /// The Matrix Multiply Accumulate Operands, by name.
    fn operands(&self) -> String {
        let mut names = Vec::new();
        for (e, comp, m) in [(self.a, self.a_comp, "A"), (self.b, self.b_comp(), "B")] {
            match e {
                Elem::Int { bits, signed } => {
                    if signed {
                        names.push(format!("Matrix{m}SignedComponentsINTEL"));
                    }
                    names.push(format!("Matrix{m}PackedInt{bits}INTEL"));
                }
                Elem::Fp16 if comp != CompTy::Half => {
                    names.push(format!("Matrix{m}PackedFloat16INTEL"))
                }
                Elem::Fp16 => {}
                Elem::Bf16 => names.push(format!("Matrix{m}PackedBFloat16INTEL")),
                Elem::Tf32 => names.push(format!("Matrix{m}TF32INTEL")),
            }
        }
        if self.c == Acc::BfBits {
            names.push("MatrixCBFloat16INTEL".into());
        }
        if self.r == Acc::BfBits {
            names.push("MatrixResultBFloat16INTEL".into());
        }
        names.join("|")
    }

    /// Words per lane region: (A, B, C).
    fn regions(&self) -> (usize, usize, usize) {
        (self.a_count(), self.b_count(), self.m)
    }
}

/// K of one DPAS: 8 × OPS_PER_CHAN.
pub fn dpas_k(a: Elem, b: Elem) -> usize {
    match (a, b) {
        (Elem::Int { bits: x, .. }, Elem::Int { bits: y, .. }) => {
            if x == 8 || y == 8 {
                32
            } else {
                64
            }
        }
        (Elem::Tf32, _) => 8,
        _ => 16,
    }
}

/// The module of a case. Invocation i loads A component j from `in[i·SA + j]`, B component
/// j from `in[N·SA + i·SB + j]`, C component r from `in[N·(SA+SB) + i·M + r]`, and stores
/// result component r to `out[i·M + r]`; every word holds one component (zero-extended).
pub fn module_text(case: &Case) -> String {
    let (sa, sb, sc) = case.regions();
    let n = case.n;
    let mut consts = BTreeSet::new();
    let mut vecs = BTreeSet::new();
    let ty = |comp: CompTy, count: usize, vecs: &mut BTreeSet<(String, usize)>| {
        if count == 1 {
            format!("%{}", comp.name())
        } else if comp == CompTy::Int(32) && count == 3 {
            "%v3uint".to_string() // declared in the head
        } else {
            vecs.insert((comp.name().to_string(), count));
            format!("%vec{count}{}", comp.name())
        }
    };
    let ta = ty(case.a_comp, sa, &mut vecs);
    let tb = ty(case.b_comp(), sb, &mut vecs);
    let tc = ty(case.c.comp(), sc, &mut vecs);
    let tr = ty(case.r.comp(), sc, &mut vecs);
    let mut body = String::new();
    // Loads a word and converts it to `comp`; returns the id.
    let load = |name: String,
                stride: usize,
                base: usize,
                comp: CompTy,
                body: &mut String,
                consts: &mut BTreeSet<usize>| {
        consts.insert(stride);
        consts.insert(base);
        let _ = writeln!(body, "%{name}_o = OpIMul %uint %i %c{stride}");
        let _ = writeln!(body, "%{name}_x = OpIAdd %uint %{name}_o %c{base}");
        let _ = writeln!(
            body,
            "%{name}_p = OpAccessChain %ptr_sb_uint %in %c0 %{name}_x"
        );
        let _ = writeln!(body, "%{name}_w = OpLoad %uint %{name}_p");
        match comp {
            CompTy::Int(32) => {
                let _ = writeln!(body, "%{name} = OpCopyObject %uint %{name}_w");
            }
            CompTy::Int(b) => {
                let t = CompTy::Int(b).name();
                let _ = writeln!(body, "%{name} = OpUConvert %{t} %{name}_w");
            }
            CompTy::Float => {
                let _ = writeln!(body, "%{name} = OpBitcast %float %{name}_w");
            }
            CompTy::Half => {
                let _ = writeln!(body, "%{name}_s = OpUConvert %ushort %{name}_w");
                let _ = writeln!(body, "%{name} = OpBitcast %half %{name}_s");
            }
        }
    };
    consts.insert(0);
    let matrix = |letter: &str,
                  count: usize,
                  stride: usize,
                  base: usize,
                  comp: CompTy,
                  t: &str,
                  body: &mut String,
                  consts: &mut BTreeSet<usize>| {
        let mut ids = Vec::new();
        for j in 0..count {
            let name = format!("{letter}{j}");
            load(name.clone(), stride, base + j, comp, body, consts);
            ids.push(format!("%{name}"));
        }
        if count == 1 {
            let _ = writeln!(body, "%{letter} = OpCopyObject {t} {}", ids[0]);
        } else {
            let _ = writeln!(
                body,
                "%{letter} = OpCompositeConstruct {t} {}",
                ids.join(" ")
            );
        }
    };
    matrix("ma", sa, sa, 0, case.a_comp, &ta, &mut body, &mut consts);
    matrix(
        "mb",
        sb,
        sb,
        n * sa,
        case.b_comp(),
        &tb,
        &mut body,
        &mut consts,
    );
    matrix(
        "mc",
        sc,
        sc,
        n * (sa + sb),
        case.c.comp(),
        &tc,
        &mut body,
        &mut consts,
    );
    consts.insert(case.k());
    let ops = case.operands();
    let _ = writeln!(
        body,
        "%r = OpSubgroupMatrixMultiplyAccumulateINTEL {tr} %c{} %ma %mb %mc {ops}",
        case.k()
    );
    consts.insert(sc);
    let _ = writeln!(body, "%ro = OpIMul %uint %i %c{sc}");
    for r in 0..sc {
        consts.insert(r);
        let comp = if sc == 1 {
            "%r".to_string()
        } else {
            let _ = writeln!(
                body,
                "%r{r} = OpCompositeExtract %{} %r {r}",
                case.r.comp().name()
            );
            format!("%r{r}")
        };
        let word = match case.r.comp() {
            CompTy::Int(32) => comp,
            CompTy::Int(_) => {
                let _ = writeln!(body, "%rw{r} = OpUConvert %uint {comp}");
                format!("%rw{r}")
            }
            CompTy::Float => {
                let _ = writeln!(body, "%rw{r} = OpBitcast %uint {comp}");
                format!("%rw{r}")
            }
            CompTy::Half => {
                let _ = writeln!(body, "%rs{r} = OpBitcast %ushort {comp}");
                let _ = writeln!(body, "%rw{r} = OpUConvert %uint %rs{r}");
                format!("%rw{r}")
            }
        };
        let _ = writeln!(body, "%ri{r} = OpIAdd %uint %ro %c{r}");
        let _ = writeln!(body, "%rp{r} = OpAccessChain %ptr_sb_uint %out %c0 %ri{r}");
        let _ = writeln!(body, "OpStore %rp{r} {word}");
    }
    let mut decls = String::new();
    for c in &consts {
        let _ = writeln!(decls, "%c{c} = OpConstant %uint {c}");
    }
    for (name, count) in &vecs {
        let _ = writeln!(decls, "%vec{count}{name} = OpTypeVector %{name} {count}");
    }
    format!(
        r#"OpCapability Shader
OpCapability Int8
OpCapability Int16
OpCapability Float16
OpCapability Vector16
OpCapability SubgroupMatrixMultiplyAccumulateINTEL
OpExtension "SPV_INTEL_subgroup_matrix_multiply_accumulate"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %in %out
OpExecutionMode %main LocalSize {n} 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ushort = OpTypeInt 16 0
%uchar = OpTypeInt 8 0
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%ptr_in_uint = OpTypePointer Input %uint
%gid = OpVariable %ptr_in_v3 Input
%arr = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %arr
%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf
%ptr_sb_uint = OpTypePointer StorageBuffer %uint
%in = OpVariable %ptr_sb_Buf StorageBuffer
%out = OpVariable %ptr_sb_Buf StorageBuffer
{decls}%main = OpFunction %void None %fn
%entry = OpLabel
%gx = OpAccessChain %ptr_in_uint %gid %c0
%i = OpLoad %uint %gx
{body}OpReturn
OpFunctionEnd
"#
    )
}

/// Assembles and compiles a case's module (validation on).
pub fn compile_case(case: &Case) -> Result<CompiledModule, ExecError> {
    let text = module_text(case);
    let a = assemble(&text, &AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembly failed: {e}\n{text}"));
    CompiledModule::from_bytes(&a.bytes(), "main", &CompileOptions::default())
}

/// Runs a compiled case over `words` (one workgroup of N invocations); the output words.
pub fn run_module(
    m: &CompiledModule,
    case: &Case,
    words: &[u32],
    cfg: &RunConfig,
) -> Result<Vec<u32>, ExecError> {
    let mut res = Resources::new();
    res.set_words(0, 0, words);
    res.set_words(0, 1, &vec![0u32; case.n * case.m]);
    m.run(&mut res, [1, 1, 1], cfg)?;
    Ok(res.words(0, 1).unwrap_or_default())
}

/// Compiles and runs a case with subgroup size N.
pub fn run_case_words(case: &Case, words: &[u32]) -> Result<Vec<u32>, ExecError> {
    let m = compile_case(case)?;
    let cfg = RunConfig {
        subgroup_size: case.n as u32,
        ..RunConfig::default()
    };
    run_module(&m, case, words, &cfg)
}

/// The lanes' words of A (M×K bits), B (K×N) and C (M×N), by the extension's mapping.
/// A data for rows past M (case 3 with odd M) is filled with junk, which must be ignored.
pub fn distribute(case: &Case, a: &[u32], b: &[u32], c: &[u32]) -> Vec<u32> {
    let (n, m, k) = (case.n, case.m, case.k());
    let (sa, sb, sc) = case.regions();
    let mut words = vec![0u32; n * (sa + sb + sc)];
    let ea = case.a.bits() as usize;
    let per = case.a_per();
    let lanes_per_row = case.lanes_per_row();
    let groups = case.row_groups();
    let comp_mask = if case.a_comp.bits() == 32 {
        u32::MAX
    } else {
        (1u32 << case.a_comp.bits()) - 1
    };
    for lane in 0..n {
        // A: "lower-numbered invocations pass lower-numbered columns"; packed columns with the
        // lower column in the lower bits; when the subgroup has more lanes than a row needs,
        // lane groups pass every `groups`-th row (first group the first row).
        for j in 0..sa {
            let row = j * groups + lane / lanes_per_row;
            let col0 = (lane % lanes_per_row) * per;
            let mut w: u64 = 0;
            if row < m {
                for e in 0..per {
                    w |= u64::from(a[row * k + col0 + e]) << (e * ea);
                }
            } else {
                w = 0x9e37_79b9 & u64::from(comp_mask);
            }
            words[lane * sa + j] = w as u32;
        }
        // B: lane n passes column n; ≤ 16-bit elements packed, lower rows in lower bits.
        let eb = case.b.bits() as usize;
        let per_b = if eb <= 16 { 32 / eb } else { 1 };
        for i in 0..sb {
            let mut w: u64 = 0;
            for e in 0..per_b {
                w |= u64::from(b[(i * per_b + e) * n + lane]) << (e * eb);
            }
            words[n * sa + lane * sb + i] = w as u32;
        }
        // C: lane n passes column n, component r = row r.
        for r in 0..sc {
            words[n * (sa + sb) + lane * sc + r] = c[r * n + lane];
        }
    }
    words
}

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random element pattern: integers anywhere in range; floats finite and small enough that
/// no sum overflows, with some subnormals and zeros.
pub fn random_elem(rng: &mut Rng, e: Elem) -> u32 {
    match e {
        Elem::Int { bits, .. } => (rng.next() as u32) & ((1u32 << bits) - 1),
        Elem::Fp16 => {
            let s = (rng.below(2) as u32) << 15;
            let exp = rng.below(20) as u32; // 0 (subnormal) ..= 19: |x| < 32
            s | exp << 10 | rng.below(1024) as u32
        }
        Elem::Bf16 => {
            let s = (rng.below(2) as u32) << 15;
            let exp = if rng.below(8) == 0 {
                0
            } else {
                100 + rng.below(50) as u32
            };
            s | exp << 7 | rng.below(128) as u32
        }
        Elem::Tf32 => {
            let s = (rng.below(2) as u32) << 31;
            let exp = if rng.below(8) == 0 {
                0
            } else {
                90 + rng.below(70) as u32
            };
            s | exp << 23 | (rng.next() as u32 & 0x7f_ffff)
        }
    }
}

/// A random C element of type `acc`.
pub fn random_acc(rng: &mut Rng, acc: Acc) -> u32 {
    match acc {
        Acc::D => rng.next() as u32,
        Acc::F => random_elem(rng, Elem::Tf32),
        Acc::Hf => random_elem(rng, Elem::Fp16),
        Acc::BfBits => random_elem(rng, Elem::Bf16),
    }
}

/// An fp16 pattern's value, from IEEE 754 binary16 (finite patterns only).
pub fn f16_value(h: u32) -> f64 {
    let sign = if h >> 15 & 1 == 1 { -1.0 } else { 1.0 };
    let exp = (h >> 10 & 0x1f) as i32;
    let man = f64::from(h & 0x3ff);
    assert!(exp != 31, "no inf/NaN in these tests");
    if exp == 0 {
        sign * man * 2f64.powi(-24)
    } else {
        sign * (1.0 + man / 1024.0) * 2f64.powi(exp - 15)
    }
}

/// fp32 → fp16, round to nearest even, by search over the finite fp16 values (overflow: inf).
pub fn f32_to_f16_rne(x: f32) -> u32 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let v = f64::from(x.abs());
    // Largest pattern whose value is ≤ v.
    let (mut lo, mut hi) = (0u32, 0x7bff);
    if v >= 65520.0 {
        return sign | 0x7c00;
    }
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if f16_value(mid) <= v {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let below = lo;
    let r = if f16_value(below) == v || below == 0x7bff {
        below
    } else {
        let above = below + 1;
        let (db, da) = (v - f16_value(below), f16_value(above) - v);
        if db < da || (db == da && below % 2 == 0) {
            below
        } else {
            above
        }
    };
    sign | r
}

/// fp32 → bf16, round to nearest even on the bits (finite values).
pub fn f32_to_bf16_rne(x: f32) -> u32 {
    let b = x.to_bits();
    (b + 0x7fff + (b >> 16 & 1)) >> 16
}

/// The expected result matrix (M×N patterns): C + A × B.
pub fn expected(case: &Case, a: &[u32], b: &[u32], c: &[u32]) -> Vec<u32> {
    let (n, m, k) = (case.n, case.m, case.k());
    let mut d = vec![0u32; m * n];
    for r in 0..m {
        for col in 0..n {
            let cv = c[r * n + col];
            d[r * n + col] = match (case.a, case.b) {
                (
                    Elem::Int {
                        bits: ba,
                        signed: sa,
                    },
                    Elem::Int {
                        bits: bb,
                        signed: sb,
                    },
                ) => {
                    let ext = |v: u32, bits: u32, s: bool| -> i64 {
                        if s && v >> (bits - 1) & 1 == 1 {
                            i64::from(v) - (1i64 << bits)
                        } else {
                            i64::from(v)
                        }
                    };
                    let mut sum = i64::from(cv as i32);
                    for i in 0..k {
                        sum += ext(a[r * k + i], ba, sa) * ext(b[i * n + col], bb, sb);
                    }
                    sum as u32
                }
                _ => {
                    let val = |v: u32, e: Elem| -> f32 {
                        match e {
                            Elem::Fp16 => f16_value(v) as f32,
                            Elem::Bf16 => f32::from_bits(v << 16),
                            _ => f32::from_bits(v & 0xffff_e000),
                        }
                    };
                    let mut acc = match case.c {
                        Acc::F => f32::from_bits(cv),
                        Acc::Hf => f16_value(cv) as f32,
                        Acc::BfBits => f32::from_bits(cv << 16),
                        Acc::D => unreachable!(),
                    };
                    for i in 0..k {
                        let p = val(a[r * k + i], case.a) * val(b[i * n + col], case.b);
                        acc += p;
                    }
                    match case.r {
                        Acc::F => acc.to_bits(),
                        Acc::Hf => f32_to_f16_rne(acc),
                        Acc::BfBits => f32_to_bf16_rne(acc),
                        Acc::D => unreachable!(),
                    }
                }
            };
        }
    }
    d
}

/// Runs `case` on random matrices from `seed` and compares with [`expected`].
pub fn check_case(case: &Case, seed: u64) {
    let mut rng = Rng(seed);
    let (n, m, k) = (case.n, case.m, case.k());
    let a: Vec<u32> = (0..m * k).map(|_| random_elem(&mut rng, case.a)).collect();
    let b: Vec<u32> = (0..k * n).map(|_| random_elem(&mut rng, case.b)).collect();
    let c: Vec<u32> = (0..m * n).map(|_| random_acc(&mut rng, case.c)).collect();
    let words = distribute(case, &a, &b, &c);
    let out = run_case_words(case, &words)
        .unwrap_or_else(|e| panic!("{case:?}: {e}\n{}", module_text(case)));
    let want = expected(case, &a, &b, &c);
    for lane in 0..n {
        for r in 0..m {
            assert_eq!(
                out[lane * m + r],
                want[r * n + lane],
                "{case:?} seed {seed}: lane {lane}, row {r}"
            );
        }
    }
}

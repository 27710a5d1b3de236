//! Every inline form of the JIT's tensor instructions (`jit::lower_tensor`, run inside the
//! native workgroup loop with the entry function inlined, `jit::inline`) against hand-computed
//! results and against the interpreter: ranks 1 to 5, elements of 8, 16, 32 and 64 bits,
//! f32 and booleans, element and 3-element array reads and writes, with and without an
//! OutOfBoundsValueARM, signed and unsigned coordinates, packed and padded strides; every
//! coordinate at the edges of its dimension (−1, 0, 1, size − 3 … size + 1, 2^31 − 1, 2^31,
//! 2^32 − 1) with the others inside, plus size queries of every dimension.
//!
//! The rules (docs/semantics/tensors.md, "In the engine"): a signed coordinate is
//! sign-extended (negative: outside), an unsigned one zero-extended; element k of an array
//! access is at innermost coordinate c + k, outside when any coordinate is outside (a negative
//! start stays outside); an element outside reads as the OutOfBoundsValueARM operand, or zero
//! without one, and is not written; booleans are one byte, read as ≠ 0 and written as 0 or 1.

use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig, Tensor};
use spvx_spirv::asm::{AsmOptions, assemble};

mod glsl_corpus;

use glsl_corpus::Rng;

/// Invocations per workgroup.
const LOCAL: u32 = 16;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Elem {
    U8,
    U16,
    U32,
    U64,
    F32,
    Bool,
}

impl Elem {
    fn bytes(self) -> u64 {
        match self {
            Elem::U8 | Elem::Bool => 1,
            Elem::U16 => 2,
            Elem::U32 | Elem::F32 => 4,
            Elem::U64 => 8,
        }
    }
    fn bits(self) -> u32 {
        8 * self.bytes() as u32
    }
    /// The OutOfBoundsValueARM constant's value, as the bits read back.
    fn oob(self) -> u64 {
        match self {
            Elem::U8 => 0xa5,
            Elem::U16 => 0xbeef,
            Elem::U32 => 0xdead_beef,
            Elem::U64 => 0x0123_4567_89ab_cdef,
            Elem::F32 => 1.5f32.to_bits() as u64,
            Elem::Bool => 1,
        }
    }
    /// What the kernel writes for a value it read.
    fn written(self, v: u64) -> u64 {
        match self {
            Elem::Bool => (v == 0) as u64,
            Elem::F32 => v,
            _ => v.wrapping_add(1) & mask(self.bits()),
        }
    }
    /// How a read element's bytes are seen.
    fn value(self, bytes: &[u8]) -> u64 {
        let mut w = [0u8; 8];
        w[..bytes.len()].copy_from_slice(bytes);
        let v = u64::from_le_bytes(w);
        if self == Elem::Bool {
            (v != 0) as u64
        } else {
            v
        }
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// One form: the kernel reads `count` elements of T at the invocation's coordinates (words of
/// buffer C) and stores them (as 32-bit words; 64-bit ones as two) in buffer O, writes
/// `Elem::written` of each into U at the same coordinates, and stores every dimension's size
/// (OpTensorQuerySizeARM) in buffer S.
#[derive(Clone, Copy, Debug)]
struct Form {
    rank: usize,
    elem: Elem,
    count: u32,
    oob: bool,
    signed: bool,
    /// T and U as arrays of one tensor, indexed with a value not known at compile time (0):
    /// native code then tests each access's tensor table entry, instead of the dispatch
    /// testing the entry of a tensor known at compile time once.
    dynamic: bool,
}

impl Form {
    fn words_per_element(&self) -> usize {
        if self.elem == Elem::U64 { 2 } else { 1 }
    }

    fn spvasm(&self) -> String {
        let r = self.rank;
        let mut s = String::new();
        let mut l = |line: &str| {
            s.push_str(line);
            s.push('\n');
        };
        l("OpCapability Shader");
        l("OpCapability TensorsARM");
        l("OpCapability Int8");
        l("OpCapability Int16");
        l("OpCapability Int64");
        if self.dynamic {
            l("OpCapability StorageTensorArrayDynamicIndexingARM");
        }
        l("OpExtension \"SPV_ARM_tensors\"");
        l("OpMemoryModel Logical GLSL450");
        l("OpEntryPoint GLCompute %main \"main\" %gid %T %U %C %O %S");
        l(&format!("OpExecutionMode %main LocalSize {LOCAL} 1 1"));
        l("OpDecorate %gid BuiltIn GlobalInvocationId");
        for (name, b) in [("T", 0), ("U", 1), ("C", 2), ("O", 3), ("S", 4)] {
            l(&format!("OpDecorate %{name} DescriptorSet 0"));
            l(&format!("OpDecorate %{name} Binding {b}"));
        }
        l("OpDecorate %rarr ArrayStride 4");
        l("OpMemberDecorate %Buf 0 Offset 0");
        l("OpDecorate %Buf Block");
        l("%void = OpTypeVoid");
        l("%fn = OpTypeFunction %void");
        l("%bool = OpTypeBool");
        l("%uint = OpTypeInt 32 0");
        l("%int = OpTypeInt 32 1");
        l("%uchar = OpTypeInt 8 0");
        l("%ushort = OpTypeInt 16 0");
        l("%ulong = OpTypeInt 64 0");
        l("%float = OpTypeFloat 32");
        l("%v3uint = OpTypeVector %uint 3");
        for k in 0..=8 {
            l(&format!("%u{k} = OpConstant %uint {k}"));
        }
        l("%u32 = OpConstant %uint 32");
        l("%l32 = OpConstant %ulong 32");
        let et = match self.elem {
            Elem::U8 => "%uchar",
            Elem::U16 => "%ushort",
            Elem::U32 => "%uint",
            Elem::U64 => "%ulong",
            Elem::F32 => "%float",
            Elem::Bool => "%bool",
        };
        match self.elem {
            Elem::U8 => l("%e1 = OpConstant %uchar 1"),
            Elem::U16 => l("%e1 = OpConstant %ushort 1"),
            Elem::U64 => l("%e1 = OpConstant %ulong 1"),
            _ => l("%e1 = OpConstant %uint 1"),
        }
        match self.elem {
            Elem::F32 => l("%oob = OpConstant %float 1.5"),
            Elem::Bool => l("%oob = OpConstantTrue %bool"),
            e => l(&format!("%oob = OpConstant {et} {}", e.oob())),
        }
        let ct = if self.signed { "%int" } else { "%uint" };
        l(&format!("%coords = OpTypeArray {ct} %u{r}"));
        l(&format!("%earr = OpTypeArray {et} %u{}", self.count));
        l(&format!("%ten = OpTypeTensorARM {et} %u{r}"));
        l("%ptr_t = OpTypePointer UniformConstant %ten");
        if self.dynamic {
            l("%tarr = OpTypeArray %ten %u1");
            l("%ptr_tarr = OpTypePointer UniformConstant %tarr");
            l("%T = OpVariable %ptr_tarr UniformConstant");
            l("%U = OpVariable %ptr_tarr UniformConstant");
            l("%big = OpConstant %uint 1000000");
        } else {
            l("%T = OpVariable %ptr_t UniformConstant");
            l("%U = OpVariable %ptr_t UniformConstant");
        }
        l("%ptr_gid = OpTypePointer Input %v3uint");
        l("%gid = OpVariable %ptr_gid Input");
        l("%rarr = OpTypeRuntimeArray %uint");
        l("%Buf = OpTypeStruct %rarr");
        l("%ptr_sb_Buf = OpTypePointer StorageBuffer %Buf");
        l("%ptr_sb_uint = OpTypePointer StorageBuffer %uint");
        l("%C = OpVariable %ptr_sb_Buf StorageBuffer");
        l("%O = OpVariable %ptr_sb_Buf StorageBuffer");
        l("%S = OpVariable %ptr_sb_Buf StorageBuffer");
        l("%main = OpFunction %void None %fn");
        l("%entry = OpLabel");
        l("%id = OpLoad %v3uint %gid");
        l("%i = OpCompositeExtract %uint %id 0");
        // Coordinates: C[i * rank + d].
        l(&format!("%cbase = OpIMul %uint %i %u{r}"));
        let mut cs = Vec::new();
        for d in 0..r {
            l(&format!("%ci{d} = OpIAdd %uint %cbase %u{d}"));
            l(&format!(
                "%cp{d} = OpAccessChain %ptr_sb_uint %C %u0 %ci{d}"
            ));
            if self.signed {
                l(&format!("%cw{d} = OpLoad %uint %cp{d}"));
                l(&format!("%c{d} = OpBitcast %int %cw{d}"));
            } else {
                l(&format!("%c{d} = OpLoad %uint %cp{d}"));
            }
            cs.push(format!("%c{d}"));
        }
        l(&format!(
            "%co = OpCompositeConstruct %coords {}",
            cs.join(" ")
        ));
        if self.dynamic {
            // i / 1000000 = 0 for every invocation.
            l("%k = OpUDiv %uint %i %big");
            l("%tp = OpAccessChain %ptr_t %T %k");
            l("%up = OpAccessChain %ptr_t %U %k");
            l("%tv = OpLoad %ten %tp");
            l("%uv = OpLoad %ten %up");
        } else {
            l("%tv = OpLoad %ten %T");
            l("%uv = OpLoad %ten %U");
        }
        let rt = if self.count == 1 { et } else { "%earr" };
        let oob = if self.oob {
            " OutOfBoundsValueARM %oob"
        } else {
            ""
        };
        l(&format!("%rd = OpTensorReadARM {rt} %tv %co{oob}"));
        let wpe = self.words_per_element();
        let per = self.count as usize * wpe;
        l(&format!("%obase = OpIMul %uint %i %u{per}"));
        let mut outs = Vec::new();
        for k in 0..self.count {
            let v = if self.count == 1 {
                "%rd".to_string()
            } else {
                l(&format!("%x{k} = OpCompositeExtract {et} %rd {k}"));
                format!("%x{k}")
            };
            // The 32-bit words of the value.
            let ws: Vec<String> = match self.elem {
                Elem::U8 | Elem::U16 => {
                    l(&format!("%w{k} = OpUConvert %uint {v}"));
                    vec![format!("%w{k}")]
                }
                Elem::U32 => vec![v.clone()],
                Elem::F32 => {
                    l(&format!("%w{k} = OpBitcast %uint {v}"));
                    vec![format!("%w{k}")]
                }
                Elem::U64 => {
                    l(&format!("%w{k} = OpUConvert %uint {v}"));
                    l(&format!("%h{k} = OpShiftRightLogical %ulong {v} %l32"));
                    l(&format!("%wh{k} = OpUConvert %uint %h{k}"));
                    vec![format!("%w{k}"), format!("%wh{k}")]
                }
                Elem::Bool => {
                    l(&format!("%w{k} = OpSelect %uint {v} %u1 %u0"));
                    vec![format!("%w{k}")]
                }
            };
            for (j, w) in ws.iter().enumerate() {
                let at = k as usize * wpe + j;
                l(&format!("%oi{k}_{j} = OpIAdd %uint %obase %u{at}"));
                l(&format!(
                    "%op{k}_{j} = OpAccessChain %ptr_sb_uint %O %u0 %oi{k}_{j}"
                ));
                l(&format!("OpStore %op{k}_{j} {w}"));
            }
            match self.elem {
                Elem::F32 => outs.push(v),
                Elem::Bool => {
                    l(&format!("%n{k} = OpLogicalNot %bool {v}"));
                    outs.push(format!("%n{k}"));
                }
                _ => {
                    l(&format!("%n{k} = OpIAdd {et} {v} %e1"));
                    outs.push(format!("%n{k}"));
                }
            }
        }
        let wv = if self.count == 1 {
            outs[0].clone()
        } else {
            l(&format!(
                "%wa = OpCompositeConstruct %earr {}",
                outs.join(" ")
            ));
            "%wa".to_string()
        };
        l(&format!("OpTensorWriteARM %uv %co {wv}"));
        for d in 0..r {
            l(&format!("%sz{d} = OpTensorQuerySizeARM %uint %tv %u{d}"));
            l(&format!("%sp{d} = OpAccessChain %ptr_sb_uint %S %u0 %u{d}"));
            l(&format!("OpStore %sp{d} %sz{d}"));
        }
        l("OpReturn");
        l("OpFunctionEnd");
        s
    }
}

/// The coordinate words of every invocation: each dimension at each edge value with the other
/// coordinates inside (at pseudo-random places), then a few all-inside tuples; padded to a
/// whole number of workgroups with inside tuples.
fn coordinates(shape: &[u64], rng: &mut Rng) -> Vec<Vec<u32>> {
    let inside =
        |rng: &mut Rng| -> Vec<u32> { shape.iter().map(|&n| (rng.next() % n) as u32).collect() };
    let mut out = Vec::new();
    for d in 0..shape.len() {
        let n = shape[d] as u32;
        let edges = [
            u32::MAX,
            0,
            1,
            n.wrapping_sub(3),
            n.wrapping_sub(2),
            n - 1,
            n,
            n + 1,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_fffe,
        ];
        for e in edges {
            let mut c = inside(rng);
            c[d] = e;
            out.push(c);
        }
    }
    while out.len() % LOCAL as usize != 0 || out.len() < 2 * LOCAL as usize {
        out.push(inside(rng));
    }
    out
}

/// The byte offset of the element at `c` (already known inside).
fn offset(c: &[u64], strides: &[u64]) -> usize {
    c.iter().zip(strides).map(|(x, s)| x * s).sum::<u64>() as usize
}

/// The extended coordinate (`None`: negative, so outside).
fn extend(w: u32, signed: bool) -> Option<u64> {
    if signed {
        let v = w as i32 as i64;
        (v >= 0).then_some(v as u64)
    } else {
        Some(w as u64)
    }
}

/// Runs one form on one shape and strides, checks the hand-computed results and the
/// interpreter's bytes, and that the JIT ran.
fn check(form: Form, shape: &[u64], padded: bool, rng: &mut Rng) {
    let name = format!("{form:?} shape {shape:?} padded {padded}");
    let text = form.spvasm();
    let bytes = assemble(&text, &AsmOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"))
        .bytes();
    let m = CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let eb = form.elem.bytes();
    // Strides: packed, or each dimension one element (innermost: one element) apart more.
    let mut strides = vec![0u64; shape.len()];
    let mut s = eb;
    for d in (0..shape.len()).rev() {
        let step = if padded && d + 1 < shape.len() {
            s + eb
        } else {
            s
        };
        strides[d] = if padded && d + 1 == shape.len() {
            2 * eb
        } else {
            step
        };
        s = strides[d] * shape[d];
    }
    let span = shape
        .iter()
        .zip(&strides)
        .map(|(n, st)| (n - 1) * st)
        .sum::<u64>()
        + eb;
    let data = |rng: &mut Rng| -> Vec<u8> { (0..span).map(|_| rng.next() as u8).collect() };
    let tensor = |data: Vec<u8>| Tensor {
        shape: shape.to_vec(),
        strides: padded.then(|| strides.clone()),
        data,
    };
    let (t, u) = (data(rng), data(rng));
    let coords = coordinates(shape, rng);
    let n = coords.len();
    let per = form.count as usize * form.words_per_element();
    let mut res = Resources::new();
    if form.dynamic {
        res.set_tensor_element(0, 0, 0, tensor(t.clone()));
        res.set_tensor_element(0, 1, 0, tensor(u.clone()));
    } else {
        res.set_tensor(0, 0, tensor(t.clone()));
        res.set_tensor(0, 1, tensor(u.clone()));
    }
    let cwords: Vec<u8> = coords
        .iter()
        .flatten()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    res.set_buffer(0, 2, cwords);
    res.set_buffer(0, 3, vec![0; 4 * per * n]);
    res.set_buffer(0, 4, vec![0; 4 * 8]);

    // Hand-computed: the values read, and U after the writes.
    let mut want_o = Vec::with_capacity(per * n);
    let mut want_u = u.clone();
    for c in &coords {
        let ext: Vec<Option<u64>> = c.iter().map(|&w| extend(w, form.signed)).collect();
        for k in 0..form.count as u64 {
            let mut at = Vec::with_capacity(shape.len());
            let mut inside = true;
            for (d, e) in ext.iter().enumerate() {
                match e {
                    Some(x) => {
                        let x = if d + 1 == shape.len() { x + k } else { *x };
                        inside &= x < shape[d];
                        at.push(x);
                    }
                    None => inside = false,
                }
            }
            let v = if inside {
                let o = offset(&at, &strides);
                let v = form.elem.value(&t[o..o + eb as usize]);
                let w = form.elem.written(v).to_le_bytes();
                want_u[o..o + eb as usize].copy_from_slice(&w[..eb as usize]);
                v
            } else if form.oob {
                form.elem.oob()
            } else {
                0
            };
            want_o.push(v as u32);
            if form.elem == Elem::U64 {
                want_o.push((v >> 32) as u32);
            }
        }
    }
    let mut want_s = vec![0u32; 8];
    for (d, &n) in shape.iter().enumerate() {
        want_s[d] = n as u32;
    }

    let groups = [(n as u32) / LOCAL, 1, 1];
    let mut reference = None;
    for (what, jit, threads) in [
        ("interpreter", false, 1),
        ("JIT", true, 1),
        ("JIT, two threads", true, 2),
    ] {
        let cfg = RunConfig {
            jit,
            threads: Some(threads),
            ..RunConfig::default()
        };
        let mut r = res.clone();
        let report = m
            .run(&mut r, groups, &cfg)
            .unwrap_or_else(|e| panic!("{name} ({what}): {e}"));
        assert_eq!(report.total_events, 0, "{name} ({what}): events");
        if jit {
            assert_eq!(report.jit, JitUse::Ran, "{name} ({what})");
        }
        let o = r.words(0, 3).unwrap_or_default();
        for (i, (got, want)) in o.iter().zip(&want_o).enumerate() {
            assert_eq!(
                got,
                want,
                "{name} ({what}): read word {i} (invocation {}, coordinates {:?})",
                i / per,
                coords[i / per]
            );
        }
        assert_eq!(o.len(), want_o.len(), "{name} ({what})");
        let got_u = &if form.dynamic {
            r.tensor_element(0, 1, 0)
        } else {
            r.tensor(0, 1)
        }
        .expect("U")
        .data;
        if let Some(b) = (0..want_u.len()).find(|&b| got_u[b] != want_u[b]) {
            panic!(
                "{name} ({what}): U byte {b}: {} against {}",
                got_u[b], want_u[b]
            );
        }
        assert_eq!(r.words(0, 4).unwrap_or_default(), want_s, "{name} ({what})");
        match &reference {
            None => reference = Some(r),
            Some(i) => assert!(
                &r == i,
                "{name} ({what}): resources differ from the interpreter's"
            ),
        }
    }
}

const SHAPES: [&[u64]; 5] = [&[7], &[3, 5], &[2, 4, 3], &[3, 2, 2, 4], &[2, 1, 3, 2, 3]];

#[test]
fn every_inline_tensor_form_gives_hand_computed_results() {
    let mut rng = Rng(0x7e50_f0a5);
    for shape in SHAPES {
        for elem in [
            Elem::U8,
            Elem::U16,
            Elem::U32,
            Elem::U64,
            Elem::F32,
            Elem::Bool,
        ] {
            for count in [1, 3] {
                for oob in [false, true] {
                    for signed in [true, false] {
                        for (padded, dynamic) in
                            [(false, false), (true, false), (false, true), (true, true)]
                        {
                            let form = Form {
                                rank: shape.len(),
                                elem,
                                count,
                                oob,
                                signed,
                                dynamic,
                            };
                            check(form, shape, padded, &mut rng);
                        }
                    }
                }
            }
        }
    }
}

/// Dimensions of one element: every coordinate but 0 is outside, and a 3-element array read
/// at 0 has its last two elements outside.
#[test]
fn tensors_of_one_element_per_dimension() {
    let mut rng = Rng(0x0e1e);
    for rank in 1..=4 {
        let shape = vec![1u64; rank];
        for elem in [Elem::U8, Elem::U32, Elem::U64] {
            for count in [1, 3] {
                for dynamic in [false, true] {
                    let form = Form {
                        rank,
                        elem,
                        count,
                        oob: true,
                        signed: true,
                        dynamic,
                    };
                    check(form, &shape, false, &mut rng);
                }
            }
        }
    }
}

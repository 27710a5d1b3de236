//! Differential corpus of glslang-compiled shaders: spvx-vk's own (crates/spvx-vk/tests/shaders:
//! barriers, subgroup operations, divergent loops, 8/16-bit storage) with chosen inputs, and
//! the engine's glslang corpus (crates/spvx-exec/tests/corpus/glsl) with seeded random inputs.
//! Every output buffer must be bit-identical on the engine and the device, except where the
//! engine reports undefined behaviour for the run (documented: no spec defines those results)
//! or a shader is listed in `DOCUMENTED` with the reason its results may differ.

mod vk_common;

use spvx_run::ElemType;
use spvx_run::compare::{Comparison, Difference, Tolerance, Verdict, compare};
use spvx_vk::reflect::DescriptorKind;
use spvx_vk::{BufferData, ModuleInfo};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vk_common::{SplitMix, device, try_run_both};

/// How the engine and the device are compared: NaN payloads are undefined, nothing else is
/// tolerated.
const DIFF: Tolerance = Tolerance::between_implementations(0);

/// Engine-corpus shaders whose outputs differ from lavapipe's on these random inputs, and why
/// (each analysed on the differing elements; see docs "What lavapipe runs").
const DOCUMENTED: &[(&str, &str)] = &[
    (
        "geom.comp",
        "precision left open by Vulkan: length/normalize/distance overflow to inf vs NaN on huge random f32 inputs, 1-ULP fp64 differences of composed geometric functions",
    ),
    (
        "math.comp",
        "precision left open by Vulkan for transcendental GLSL.std.450 functions",
    ),
    (
        "pack.comp",
        "lavapipe deviation: GLSL % compiles to OpSMod, which lavapipe computes as a truncated remainder for negative dividends (ldexp exponents 40 apart); see smod_lavapipe_deviation",
    ),
    (
        "wide64.comp",
        "lavapipe deviation: 64-bit OpSMod with a negative dividend gives the truncated remainder (div[0]: engine x - 1000*floor(x/1000), lavapipe 1000 less); see smod_lavapipe_deviation",
    ),
    (
        "smalltypes.comp",
        "undefined in SPIR-V: int(h) of an f16 NaN/infinity (OpConvertFToS out of range; engine 0 or saturation, not reported; lavapipe INT_MIN) in i32[6]; other differences there are f16 NaN payloads",
    ),
    (
        "subgroup.comp",
        "undefined in SPIR-V: subgroupShuffleDown(v, 2) in the last two lanes reads lanes that do not exist (engine 0, lavapipe the next subgroup's values; the engine does not report it)",
    ),
    (
        "promote_builtins.comp",
        "implementation-defined: which subgroup holds which invocation of the 5x3 workgroup (Vulkan fixes it only for full subgroups); the engine fills subgroups by LocalInvocationIndex (8 + 7 lanes), lavapipe (Mesa 22.3.6) gives each row of 5 lanes its own subgroup (SubgroupInvocationID = x, rows 0-1 in subgroup 0, row 2 in subgroup 1) yet reports gl_NumSubgroups = 1 (a lavapipe deviation: it uses subgroup id 1); the other 14 built-ins agree",
    ),
];

fn words_of(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn random_bytes(rng: &mut SplitMix, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next() as u8).collect()
}

/// Runs one module on both sides; returns the differences as messages (empty: identical) and
/// whether the engine reported undefined behaviour.
fn differential(
    dev: &spvx_vk::VkRunner,
    words: &[u32],
    groups: [u32; 3],
    buffers: Vec<BufferData>,
    push: Option<Vec<u8>>,
) -> Result<(Vec<String>, u64), String> {
    let info = ModuleInfo::read(words, Some("main")).map_err(|e| e.to_string())?;
    let out = try_run_both(dev, words, groups, buffers, push, BTreeMap::new())?;
    let mut diffs = Vec::new();
    for (e, d) in out.engine.iter().zip(&out.device) {
        let elem = info
            .binding(e.set, e.binding)
            .and_then(|b| b.element)
            .unwrap_or(ElemType::U8);
        let mut c = compare(&e.bytes, &d.bytes, elem, DIFF, 4);
        // A block of mixed types is compared as bytes; when every differing f32 (or f16) word
        // is a NaN on both sides, the differences are NaN payloads (documented), not mismatches.
        if !c.passed() && elem == ElemType::U8 && c.lengths.is_none() {
            c = nan_aware_bytes(&e.bytes, &d.bytes);
        }
        if c.undefined > 0 {
            eprintln!(
                "  binding {}.{}: {} NaN(s) with different bits (documented: no NaN payloads in SPIR-V)",
                e.set, e.binding, c.undefined
            );
        }
        if !c.passed() {
            diffs.push(format!(
                "binding {}.{}: {} of {} {elem:?} elements differ, first: {:x?}",
                e.set, e.binding, c.mismatches, c.elements, c.listed
            ));
        }
    }
    Ok((diffs, out.report.total_events))
}

/// Bytes of a block of mixed types: a differing aligned 32-bit word is a NaN-payload
/// difference when it is an f32 NaN on both sides, or when each of its 16-bit halves is equal
/// or an f16 NaN on both sides; any other difference is a mismatch.
fn nan_aware_bytes(a: &[u8], b: &[u8]) -> Comparison {
    let mut c = compare(a, b, ElemType::U32, DIFF, 0);
    c.mismatches = 0;
    c.undefined = 0;
    for (i, (x, y)) in a.chunks(4).zip(b.chunks(4)).enumerate() {
        if x == y {
            continue;
        }
        let (xw, yw) = (ElemType::U32.bits_at(x, 0), ElemType::U32.bits_at(y, 0));
        let f32_nans = x.len() == 4 && ElemType::F32.is_nan(xw) && ElemType::F32.is_nan(yw);
        let f16_nans = x.len() == 4
            && [0, 16].iter().all(|&s| {
                let (p, q) = ((xw >> s) & 0xffff, (yw >> s) & 0xffff);
                p == q || (ElemType::F16.is_nan(p) && ElemType::F16.is_nan(q))
            });
        if f32_nans || f16_nans {
            c.undefined += 1;
        } else {
            c.mismatches += 1;
            if c.listed.len() < 4 {
                c.listed.push(Difference {
                    index: i,
                    byte: 4 * i,
                    expected: xw,
                    actual: yw,
                    verdict: Verdict::Mismatch,
                });
            }
        }
    }
    c
}

fn shader(name: &str) -> Vec<u32> {
    words_of(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../spvx-vk/tests/shaders")
            .join(format!("{name}.spv")),
    )
}

fn buf(binding: u32, bytes: Vec<u8>) -> BufferData {
    BufferData {
        set: 0,
        binding,
        bytes,
    }
}

fn assert_same(name: &str, diffs: Result<(Vec<String>, u64), String>) {
    let diffs = diffs.unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        diffs.1, 0,
        "{name}: the engine reported undefined behaviour"
    );
    assert!(diffs.0.is_empty(), "{name}: {}", diffs.0.join("\n"));
}

#[test]
fn own_shaders_agree_bit_for_bit() {
    let Some(dev) = device() else { return };
    let mut rng = SplitMix(42);
    // barrier_scan: 16 workgroups of 64; inputs below 2^24 so sums stay in range either way.
    let n = 1024;
    let input: Vec<u8> = (0..n)
        .flat_map(|_| ((rng.next() as u32) >> 8).to_le_bytes())
        .collect();
    let d = differential(
        &dev,
        &shader("barrier_scan.comp"),
        [16, 1, 1],
        vec![buf(0, input), buf(1, vec![0; 4 * n]), buf(2, vec![0; 64])],
        None,
    );
    assert_same("barrier_scan", d);
    // subgroup_ops: inputs with small values so ballots and compares vary.
    let input: Vec<u8> = (0..512u32)
        .flat_map(|i| {
            (if i % 5 == 0 {
                7
            } else {
                (rng.next() % 1000) as u32
            })
            .to_le_bytes()
        })
        .collect();
    let d = differential(
        &dev,
        &shader("subgroup_ops.comp"),
        [8, 1, 1],
        vec![buf(0, input), buf(1, vec![0; 512 * 8 * 4])],
        None,
    );
    assert_same("subgroup_ops", d);
    // loops_divergent.
    let input = random_bytes(&mut rng, 4 * 256);
    let d = differential(
        &dev,
        &shader("loops_divergent.comp"),
        [8, 1, 1],
        vec![buf(0, input), buf(1, vec![0; 3 * 4 * 256])],
        None,
    );
    assert_same("loops_divergent", d);
    // storage_8_16: f16 inputs restricted to finite values (exponent < 31) so that NaN
    // payloads do not enter; every int bit pattern is allowed.
    let m = 1024;
    let h: Vec<u8> = (0..m)
        .flat_map(|_| {
            let mut x = rng.next() as u16;
            if x & 0x7c00 == 0x7c00 {
                x &= !0x4000;
            }
            x.to_le_bytes()
        })
        .collect();
    let d = differential(
        &dev,
        &shader("storage_8_16.comp"),
        [(m / 64) as u32, 1, 1],
        vec![
            buf(0, random_bytes(&mut rng, m)),
            buf(1, random_bytes(&mut rng, m)),
            buf(2, random_bytes(&mut rng, 2 * m)),
            buf(3, h),
            buf(4, vec![0; 2 * m]),
            buf(5, vec![0; 4 * m]),
            buf(6, vec![0; 4 * m]),
            buf(7, vec![0; 4 * m]),
        ],
        None,
    );
    assert_same("storage_8_16", d);
}

/// The engine's glslang corpus, if present, on seeded random inputs: 4 KiB per buffer, one
/// workgroup (several would race: e.g. control.comp's invocation i writes the word invocation
/// i + 32 of the next workgroup reads), random push constants.
#[test]
fn engine_glsl_corpus_agrees_on_random_inputs() {
    let Some(dev) = device() else { return };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spvx-exec/tests/corpus/glsl");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no engine glslang corpus at {}", dir.display());
        return;
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "spv"))
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let stem = name.trim_end_matches(".spv");
        if stem.starts_with("bufarray") {
            // Arrays of buffers: spvx-vk binds one descriptor per binding (docs/semantics/vulkan.md).
            eprintln!("{stem}: not run (arrays of buffers: spvx-vk binds one descriptor each)");
            continue;
        }
        let words = words_of(&path);
        let info = match ModuleInfo::read(&words, Some("main")) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("{stem}: not a compute module for a device ({e})");
                continue;
            }
        };
        if let Err(e) = dev.check(&info) {
            eprintln!("{stem}: unsupported on the device: {e}");
            continue;
        }
        let mut rng = SplitMix(0xc0ffee ^ name.len() as u64);
        let buffers: Vec<BufferData> = info
            .bindings
            .iter()
            .filter(|b| b.kind != DescriptorKind::Tensor)
            .map(|b| BufferData {
                set: b.set,
                binding: b.binding,
                bytes: random_bytes(&mut rng, 4096),
            })
            .collect();
        let push = info.has_push_constants.then(|| random_bytes(&mut rng, 128));
        let (diffs, events) = match differential(&dev, &words, [1, 1, 1], buffers, push) {
            Ok(x) => x,
            Err(e) if e.contains("not supported yet by spvx-exec") => {
                eprintln!("{stem}: not run ({e})");
                continue;
            }
            Err(e) => {
                failures.push(format!("{stem}: {e}"));
                continue;
            }
        };
        let documented = DOCUMENTED.iter().find(|d| d.0 == stem);
        match (diffs.is_empty(), events, documented) {
            (true, _, _) => eprintln!("{stem}: same"),
            (false, n, _) if n > 0 => {
                eprintln!("{stem}: differs after {n} undefined-behaviour event(s) (documented)")
            }
            (false, _, Some((_, why))) => eprintln!("{stem}: differs ({why})"),
            (false, _, None) => failures.push(format!("{stem}: {}", diffs.join("; "))),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// OpSMod with a negative dividend: SPIR-V 1.6 §3.52.13 "the sign of a non-0 result comes from
/// Operand 2", so smod(-7, 3) = 2 and smod(7, -3) = -2, while OpSRem gives -1 and 1. The
/// engine must give the SPIR-V values; lavapipe (Mesa 22.3.6) is recorded as it behaves.
#[test]
fn smod_lavapipe_deviation() {
    let Some(dev) = device() else { return };
    let text = r#"
OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf %gid
OpExecutionMode %main LocalSize 4 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %S 0 Offset 0
OpDecorate %S Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%pgid = OpTypePointer Input %v3
%gid = OpVariable %pgid Input
%arr = OpTypeRuntimeArray %int
%S = OpTypeStruct %arr
%pS = OpTypePointer StorageBuffer %S
%pi = OpTypePointer StorageBuffer %int
%buf = OpVariable %pS StorageBuffer
%c0 = OpConstant %int 0
%u4 = OpConstant %uint 4
%u8 = OpConstant %uint 8
%u12 = OpConstant %uint 12
%main = OpFunction %void None %fn
%l = OpLabel
%g = OpLoad %v3 %gid
%i = OpCompositeExtract %uint %g 0
%ib = OpIAdd %uint %i %u4
%pa = OpAccessChain %pi %buf %c0 %i
%pb = OpAccessChain %pi %buf %c0 %ib
%a = OpLoad %int %pa
%b = OpLoad %int %pb
%m = OpSMod %int %a %b
%r = OpSRem %int %a %b
%im = OpIAdd %uint %i %u8
%ir = OpIAdd %uint %i %u12
%pm = OpAccessChain %pi %buf %c0 %im
%pr = OpAccessChain %pi %buf %c0 %ir
OpStore %pm %m
OpStore %pr %r
OpReturn
OpFunctionEnd
"#;
    let words = vk_common::asm(text);
    let input: Vec<i32> = vec![-7, 7, -7, 7, 3, -3, -3, 3, 0, 0, 0, 0, 0, 0, 0, 0];
    let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    let out = try_run_both(
        &dev,
        &words,
        [1, 1, 1],
        vec![buf(0, bytes)],
        None,
        BTreeMap::new(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let ints = |b: &[u8]| -> Vec<i32> {
        b.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let engine = ints(&out.engine[0].bytes);
    let device = ints(&out.device[0].bytes);
    // smod: (-7,3)=2, (7,-3)=-2, (-7,-3)=-1, (7,3)=1; srem: -1, 1, -1, 1.
    assert_eq!(&engine[8..16], &[2, -2, -1, 1, -1, 1, -1, 1]);
    assert_eq!(&device[12..16], &[-1, 1, -1, 1], "device OpSRem");
    eprintln!(
        "device OpSMod (-7,3) (7,-3) (-7,-3) (7,3): {:?}",
        &device[8..12]
    );
}

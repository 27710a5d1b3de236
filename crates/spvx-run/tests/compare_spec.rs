//! The spec-aware comparison on small modules, with a device result injected by hand: every
//! expected value below is computed by hand from the f32 encoding (comments give the
//! arithmetic), never by the engine.
//!
//! The operands used for contraction: a = b = 1 + 2^-12 (0x3f800800), so a·b = 1 + 2^-11 +
//! 2^-24 exactly; rounded to f32 (24-bit significand, 2^-24 is half an ULP of 1, a tie) it is
//! 1 + 2^-11 (the even neighbour). With c = −1: unfused a·b + c = 2^-11 (0x3a000000), fused
//! (one rounding) 2^-11 + 2^-24 = 2^-11·(1 + 2^-13) (0x3a000400).

use spvx_run::RunOptions;
use spvx_run::compare::{ElementVerdict, Freedom, SpecJudge, judge_for};
use spvx_run::device::Loaded;
use spvx_run::{ElemType, RunPlan};
use spvx_testtools::{TempDir, temp_dir};

const HEAD: &str = r#"
               OpCapability Shader
               ${CAPS}
          %glsl = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %A %B %C %Out
               OpExecutionMode %main LocalSize 4 1 1
               ${MODES}
               OpName %sum "sum"
               OpName %prod "prod"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %A DescriptorSet 0
               OpDecorate %A Binding 0
               OpDecorate %B DescriptorSet 0
               OpDecorate %B Binding 1
               OpDecorate %C DescriptorSet 0
               OpDecorate %C Binding 2
               OpDecorate %Out DescriptorSet 0
               OpDecorate %Out Binding 3
               ${DECORATIONS}
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
        %arr = OpTypeRuntimeArray %float
        %Buf = OpTypeStruct %arr
    %ptr_buf = OpTypePointer StorageBuffer %Buf
      %ptr_f = OpTypePointer StorageBuffer %float
    %ptr_gid = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_gid Input
          %A = OpVariable %ptr_buf StorageBuffer
          %B = OpVariable %ptr_buf StorageBuffer
          %C = OpVariable %ptr_buf StorageBuffer
        %Out = OpVariable %ptr_buf StorageBuffer
     %uint_0 = OpConstant %uint 0
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %id 0
         %pa = OpAccessChain %ptr_f %A %uint_0 %i
         %pb = OpAccessChain %ptr_f %B %uint_0 %i
         %pc = OpAccessChain %ptr_f %C %uint_0 %i
         %va = OpLoad %float %pa
         %vb = OpLoad %float %pb
         %vc = OpLoad %float %pc
       %prod = OpFMul %float %va %vb
               ${BODY}
         %po = OpAccessChain %ptr_f %Out %uint_0 %i
               OpStore %po %sum
               OpReturn
               OpFunctionEnd
"#;

struct Case<'a> {
    caps: &'a str,
    modes: &'a str,
    decorations: &'a str,
    body: &'a str,
    a: u32,
    b: u32,
    c: u32,
}

impl Default for Case<'_> {
    fn default() -> Self {
        Case {
            caps: "",
            modes: "",
            decorations: "",
            body: "%sum = OpFAdd %float %prod %vc",
            a: 0x3f800800,
            b: 0x3f800800,
            c: 0xbf800000,
        }
    }
}

/// A plan with the directory its files are in, removed when this is dropped.
struct Planned {
    plan: RunPlan,
    _dir: TempDir,
}

impl std::ops::Deref for Planned {
    type Target = RunPlan;
    fn deref(&self) -> &RunPlan {
        &self.plan
    }
}

/// Writes the module and a run file giving A, B, C four copies of a, b, c; returns the plan.
fn plan(name: &str, case: &Case) -> Planned {
    let dir = temp_dir(&format!("compare-{name}"));
    let d = dir.path();
    let text = HEAD
        .replace("${CAPS}", case.caps)
        .replace("${MODES}", case.modes)
        .replace("${DECORATIONS}", case.decorations)
        .replace("${BODY}", case.body);
    std::fs::write(d.join("m.spvasm"), text).unwrap();
    let list = |x: u32| format!("[\"{x:#010x}\", \"{x:#010x}\", \"{x:#010x}\", \"{x:#010x}\"]");
    let toml = format!(
        "module = \"m.spvasm\"\ngroups = [1]\n\
         [[buffer]]\nbinding = 0\ndata = {{ f32 = {} }}\n\
         [[buffer]]\nbinding = 1\ndata = {{ f32 = {} }}\n\
         [[buffer]]\nbinding = 2\ndata = {{ f32 = {} }}\n\
         [[buffer]]\nbinding = 3\ndata = {{ zeros = 16 }}\n",
        list(case.a),
        list(case.b),
        list(case.c)
    );
    let path = d.join("run.toml");
    std::fs::write(&path, toml).unwrap();
    let plan = spvx_run::runfile::plan(&path, &RunOptions::default()).unwrap();
    Planned { plan, _dir: dir }
}

/// The engine's output 0.3 and the judge with its alternatives.
fn engine(plan: &RunPlan) -> (Vec<u8>, SpecJudge) {
    let loaded = Loaded::load(plan, &mut |_| {}).unwrap();
    let inputs = loaded.resources();
    let mut res = inputs.clone();
    let compiled = loaded.compiled.as_ref().unwrap();
    compiled.run(&mut res, plan.groups, &plan.config).unwrap();
    let judge = judge_for(&loaded, plan, &inputs, &plan.config);
    (res.buffer(0, 3).unwrap().to_vec(), judge)
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn verdicts(judge: &SpecJudge, engine: &[u8], device: &[u32]) -> Vec<ElementVerdict> {
    let n = device.len();
    (0..n)
        .map(|i| {
            let e = u64::from(u32::from_le_bytes(
                engine[i * 4..i * 4 + 4].try_into().unwrap(),
            ));
            judge.judge((0, 3, 0), ElemType::F32, i, e, u64::from(device[i]))
        })
        .collect()
}

#[test]
fn a_fused_device_result_is_allowed_and_a_wrong_one_is_a_violation() {
    let p = plan("contract", &Case::default());
    let (out, judge) = engine(&p);
    // The engine does not contract: 2^-11.
    assert_eq!(out, words(&[0x3a000000; 4]));
    // Device: fused, two ULPs off the unfused, the unfused, a garbage value.
    let device = [0x3a000400, 0x3a000002, 0x3a000000, 0x40000000];
    let v = verdicts(&judge, &out, &device);
    match &v[0] {
        ElementVerdict::Allowed(Freedom::Contraction(pairs)) => {
            assert_eq!(pairs.len(), 1);
            assert_eq!(pairs[0].0.to_string(), "%prod = OpFMul");
            assert_eq!(pairs[0].1.to_string(), "%sum = OpFAdd");
        }
        other => panic!("element 0: {other:?}"),
    }
    assert!(v[1].is_violation(), "{:?}", v[1]);
    assert_eq!(v[2], ElementVerdict::Same);
    assert!(v[3].is_violation(), "{:?}", v[3]);
    // The binding-level tally.
    let c = judge.compare((0, 3, 0), ElemType::F32, &out, &words(&device), 8);
    assert_eq!((c.allowed, c.undecided, c.violations), (1, 0, 2));
    assert!(!c.passed());
    let c = judge.compare((0, 3, 0), ElemType::F32, &out, &words(&[0x3a000400; 4]), 8);
    assert!(c.passed());
    assert_eq!(c.allowed, 4);
}

#[test]
fn no_contraction_makes_the_fused_result_a_violation() {
    let case = Case {
        decorations: "OpDecorate %sum NoContraction",
        ..Case::default()
    };
    let (out, judge) = engine(&plan("nocontract", &case));
    assert_eq!(out, words(&[0x3a000000; 4]));
    assert!(judge.facts.outputs[&(0, 3)].contractions.is_empty());
    let v = verdicts(&judge, &out, &[0x3a000400, 0x3a000001]);
    assert!(v[0].is_violation(), "{:?}", v[0]);
    // One ULP from a correctly rounded OpFAdd: the rounding mode is unspecified.
    assert!(matches!(v[1], ElementVerdict::Undecided(_)), "{:?}", v[1]);
    let case = Case {
        caps: "OpCapability RoundingModeRTE\nOpExtension \"SPV_KHR_float_controls\"",
        modes: "OpExecutionMode %main RoundingModeRTE 32",
        ..case
    };
    let (out, judge) = engine(&plan("rte", &case));
    let v = verdicts(&judge, &out, &[0x3a000001]);
    assert!(v[0].is_violation(), "{:?}", v[0]);
}

#[test]
fn a_subtraction_from_a_product_contracts_with_the_negation_exact() {
    // c − a·b with c = 1: unfused 1 − (1 + 2^-11) = −2^-11 (0xba000000); fused
    // 1 − (1 + 2^-11 + 2^-24) = −(2^-11 + 2^-24) (0xba000400).
    let case = Case {
        body: "%sum = OpFSub %float %vc %prod",
        c: 0x3f800000,
        ..Case::default()
    };
    let (out, judge) = engine(&plan("fsub", &case));
    assert_eq!(out, words(&[0xba000000; 4]));
    let v = verdicts(&judge, &out, &[0xba000400, 0x3a000400]);
    // (0x3a000400 is the fused a·b − c, of the wrong sign here.)
    assert!(
        matches!(v[0], ElementVerdict::Allowed(Freedom::Contraction(_))),
        "{:?}",
        v[0]
    );
    assert!(v[1].is_violation(), "{:?}", v[1]);
    // a·b − c with c = 1: unfused 2^-11, fused 2^-11 + 2^-24.
    let case = Case {
        body: "%sum = OpFSub %float %prod %vc",
        c: 0x3f800000,
        ..Case::default()
    };
    let (out, judge) = engine(&plan("fsub2", &case));
    assert_eq!(out, words(&[0x3a000000; 4]));
    let v = verdicts(&judge, &out, &[0x3a000400]);
    assert!(
        matches!(v[0], ElementVerdict::Allowed(Freedom::Contraction(_))),
        "{:?}",
        v[0]
    );
}

#[test]
fn an_unfused_fma_is_allowed() {
    let case = Case {
        body: "%sum = OpExtInst %float %glsl Fma %va %vb %vc",
        ..Case::default()
    };
    let (out, judge) = engine(&plan("fma", &case));
    // The engine's Fma is fused: 2^-11 + 2^-24.
    assert_eq!(out, words(&[0x3a000400; 4]));
    let v = verdicts(&judge, &out, &[0x3a000000, 0x3a000401]);
    // fma's precision is inherited from a multiply and an add: beyond the two evaluated
    // roundings spvx derives no bound (undecided).
    match &v[0] {
        ElementVerdict::Allowed(Freedom::UnfusedFma(s)) => {
            assert_eq!(s[0].to_string(), "%sum = OpExtInst GLSL.std.450 Fma")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(v[1], ElementVerdict::Undecided(_)), "{:?}", v[1]);
}

#[test]
fn division_is_judged_by_the_vulkan_bound() {
    // 1/3 in f32 is 0x3eaaaaab (0x3eaaaaaa.aa… rounds up). 2.5 ULP: 3 apart is accepted
    // (≤ 2.5 + ½), 5 apart is beyond the bound only if the divisor is in range: undecided.
    let case = Case {
        body: "%sum = OpFDiv %float %va %vb",
        a: 0x3f800000,
        b: 0x40400000,
        ..Case::default()
    };
    let (out, judge) = engine(&plan("fdiv", &case));
    assert_eq!(out, words(&[0x3eaaaaab; 4]));
    let v = verdicts(&judge, &out, &[0x3eaaaaae, 0x3eaaaab0]);
    match &v[0] {
        ElementVerdict::Allowed(Freedom::Precision { ulps, .. }) => assert_eq!(*ulps, 3),
        other => panic!("{other:?}"),
    }
    assert!(matches!(v[1], ElementVerdict::Undecided(_)), "{:?}", v[1]);
}

#[test]
fn a_flushed_subnormal_is_allowed_unless_denorm_preserve() {
    // 2^-70 · 2^-70 = 2^-140 = 2^9 · 2^-149: the subnormal 0x00000200. 2^-70 = 0x1c800000
    // (exponent 127 − 70 = 57 = 0x39, 0x39 << 23 = 0x1c800000).
    let case = Case {
        body: "%sum = OpFMul %float %va %vb",
        a: 0x1c800000,
        b: 0x1c800000,
        ..Case::default()
    };
    let (out, judge) = engine(&plan("flush", &case));
    assert_eq!(out, words(&[0x00000200; 4]));
    let v = verdicts(&judge, &out, &[0, 0x80000000, 0x00000100]);
    // (0x100 is 256 ULPs away: beyond any rounding.)
    assert!(
        matches!(
            v[0],
            ElementVerdict::Allowed(Freedom::DenormalFlush { width: 32, .. })
        ),
        "{:?}",
        v[0]
    );
    assert!(matches!(
        v[1],
        ElementVerdict::Allowed(Freedom::DenormalFlush { .. })
    ));
    assert!(v[2].is_violation(), "{:?}", v[2]);
    let case = Case {
        caps: "OpCapability DenormPreserve\nOpExtension \"SPV_KHR_float_controls\"",
        modes: "OpExecutionMode %main DenormPreserve 32",
        ..case
    };
    let (out, judge) = engine(&plan("preserve", &case));
    assert_eq!(out, words(&[0x00000200; 4]));
    let v = verdicts(&judge, &out, &[0]);
    assert!(v[0].is_violation(), "{:?}", v[0]);
}

#[test]
fn nan_payloads_are_allowed_and_a_copy_must_be_exact() {
    let case = Case {
        body: "%sum = OpCopyObject %float %va",
        a: 0x3f800000,
        ..Case::default()
    };
    let (out, judge) = engine(&plan("copy", &case));
    assert_eq!(out, words(&[0x3f800000; 4]));
    let v = verdicts(&judge, &out, &[0x3f800001]);
    match &v[0] {
        ElementVerdict::Violation(x) => assert!(x.why.contains("copy of input"), "{x}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        judge.judge((0, 3, 0), ElemType::F32, 0, 0x7fc00000, 0x7fc00001),
        ElementVerdict::Allowed(Freedom::NanPayload)
    );
}

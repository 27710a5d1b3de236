//! The Vulkan block-layout rules and spirv-val's layout switches, compared with spirv-val
//! 2025.5 on generated blocks: members of every layout-relevant kind (scalars, 2/3/4-vectors,
//! column- and row-major matrices, arrays, runtime arrays, nested structs, arrays of structs)
//! at offsets around their alignments, in Uniform (Block and BufferBlock), StorageBuffer and
//! PushConstant, under vulkan1.0 and vulkan1.2 and each switch. Plus hand-checked cases whose
//! verdict is asserted on its own.

mod support;

use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_val::{LayoutFlags, Options, TargetEnv, errors};
use std::process::Command;

/// A member type of the generated blocks: its declaration name, its size in bytes (as the
/// generator lays it out naturally), and the extra decorations it needs.
#[derive(Clone, Copy)]
struct Kind {
    ty: &'static str,
    size: u32,
    align_std: u32,
    matrix: Option<(&'static str, u32)>,
}

const KINDS: &[Kind] = &[
    Kind {
        ty: "%f32",
        size: 4,
        align_std: 4,
        matrix: None,
    },
    Kind {
        ty: "%f64",
        size: 8,
        align_std: 8,
        matrix: None,
    },
    Kind {
        ty: "%v2",
        size: 8,
        align_std: 8,
        matrix: None,
    },
    Kind {
        ty: "%v3",
        size: 12,
        align_std: 16,
        matrix: None,
    },
    Kind {
        ty: "%v4",
        size: 16,
        align_std: 16,
        matrix: None,
    },
    Kind {
        ty: "%dv3",
        size: 24,
        align_std: 32,
        matrix: None,
    },
    Kind {
        ty: "%m3",
        size: 48,
        align_std: 16,
        matrix: Some(("ColMajor", 16)),
    },
    Kind {
        ty: "%m3",
        size: 44,
        align_std: 16,
        matrix: Some(("RowMajor", 16)),
    },
    Kind {
        ty: "%m23",
        size: 24,
        align_std: 8,
        matrix: Some(("ColMajor", 8)),
    },
    Kind {
        ty: "%m23",
        size: 24,
        align_std: 16,
        matrix: Some(("RowMajor", 12)),
    },
    Kind {
        ty: "%a4f",
        size: 52,
        align_std: 4,
        matrix: None,
    },
    Kind {
        ty: "%a2v3",
        size: 28,
        align_std: 16,
        matrix: None,
    },
    Kind {
        ty: "%T",
        size: 20,
        align_std: 16,
        matrix: None,
    },
    Kind {
        ty: "%aT",
        size: 52,
        align_std: 16,
        matrix: None,
    },
];

const TYPES: &str = "%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%u32 = OpTypeInt 32 0
%c2 = OpConstant %u32 2
%c4 = OpConstant %u32 4
%v2 = OpTypeVector %f32 2
%v3 = OpTypeVector %f32 3
%v4 = OpTypeVector %f32 4
%dv3 = OpTypeVector %f64 3
%m3 = OpTypeMatrix %v3 3
%m23 = OpTypeMatrix %v2 3
%a4f = OpTypeArray %f32 %c4
%a2v3 = OpTypeArray %v3 %c2
%T = OpTypeStruct %v4 %f32
%aT = OpTypeArray %T %c2
%rt = OpTypeRuntimeArray %f32
";

/// Decorations of the shared types: `a4f` stride 16 (uniform-compatible), `a2v3` stride 16,
/// T = { v4 @0, f32 @16 } (size 20, alignment 16), `aT` stride 32, the runtime array stride 4.
const SHARED_DECORATIONS: &str = "OpDecorate %a4f ArrayStride 16
OpDecorate %a2v3 ArrayStride 16
OpMemberDecorate %T 0 Offset 0
OpMemberDecorate %T 1 Offset 16
OpDecorate %aT ArrayStride 32
OpDecorate %rt ArrayStride 4
";

/// A module with one block variable: `members` (kind index, offset), an optional trailing
/// runtime array at `rt`, in storage class `sc` with decoration `deco`.
fn module(members: &[(usize, u32)], rt: Option<u32>, sc: &str, deco: &str) -> String {
    let mut decos = String::from(SHARED_DECORATIONS);
    decos.push_str(&format!("OpDecorate %S {deco}\n"));
    let mut tys: Vec<&str> = Vec::new();
    for (i, &(k, off)) in members.iter().enumerate() {
        let kind = KINDS[k];
        tys.push(kind.ty);
        decos.push_str(&format!("OpMemberDecorate %S {i} Offset {off}\n"));
        if let Some((major, stride)) = kind.matrix {
            decos.push_str(&format!(
                "OpMemberDecorate %S {i} {major}\nOpMemberDecorate %S {i} MatrixStride {stride}\n"
            ));
        }
    }
    if let Some(off) = rt {
        decos.push_str(&format!(
            "OpMemberDecorate %S {} Offset {off}\n",
            members.len()
        ));
        tys.push("%rt");
    }
    let binding = if sc == "PushConstant" {
        String::new()
    } else {
        "OpDecorate %var DescriptorSet 0\nOpDecorate %var Binding 0\n".to_string()
    };
    format!(
        "OpCapability Shader
OpCapability Float64
OpExtension \"SPV_KHR_storage_buffer_storage_class\"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
{binding}{decos}{TYPES}%S = OpTypeStruct {}
%p = OpTypePointer {sc} %S
%var = OpVariable %p {sc}
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
",
        tys.join(" ")
    )
}

fn flags_of(names: &[&str]) -> LayoutFlags {
    LayoutFlags {
        relax_block_layout: names.contains(&"--relax-block-layout"),
        uniform_buffer_standard_layout: names.contains(&"--uniform-buffer-standard-layout"),
        scalar_block_layout: names.contains(&"--scalar-block-layout"),
        workgroup_scalar_block_layout: names.contains(&"--workgroup-scalar-block-layout"),
        skip_block_layout: names.contains(&"--skip-block-layout"),
    }
}

/// spvx's verdict and first message.
fn spvx(text: &str, env: &str, flags: &[&str]) -> (bool, String) {
    let target = TargetEnv::parse(env).expect("env");
    let asm = assemble(
        text,
        &AsmOptions {
            version: target.max_version,
        },
    )
    .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let insts: Vec<_> = asm.instructions().cloned().collect();
    let opts = Options {
        target_env: target,
        layout: flags_of(flags),
        ..Options::default()
    };
    let errs = errors(&asm.header, &insts, &opts);
    (
        errs.is_empty(),
        errs.first().map(ToString::to_string).unwrap_or_default(),
    )
}

/// spirv-val's verdict and message, with `flags`.
fn oracle(
    dir: &std::path::Path,
    text: &str,
    env: &str,
    flags: &[&str],
    tag: &str,
) -> (bool, String) {
    let scratch = spvx_testtools::temp_dir(&format!("block-layout-{tag}"));
    let tmp = scratch.path();
    let (src, bin) = (tmp.join("m.spvasm"), tmp.join("m.spv"));
    std::fs::write(&src, text).expect("write");
    let asm = Command::new(dir.join("spirv-as"))
        .args(["--target-env", env])
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .output()
        .expect("spirv-as");
    assert!(
        asm.status.success(),
        "spirv-as: {}\n{text}",
        String::from_utf8_lossy(&asm.stderr)
    );
    let val = Command::new(dir.join("spirv-val"))
        .args(["--target-env", env])
        .args(flags)
        .arg(&bin)
        .output()
        .expect("spirv-val");
    (
        val.status.success(),
        String::from_utf8_lossy(&val.stderr).into_owned(),
    )
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Member offsets near the natural layout: the previous end, rounded to 4, 8 or 16, plus a
/// small shift, so that both legal and illegal placements occur.
fn generate(rng: &mut Rng) -> (Vec<(usize, u32)>, Option<u32>) {
    let n = 1 + rng.below(3) as usize;
    let mut end = 0u32;
    let mut members = Vec::new();
    for _ in 0..n {
        let k = rng.below(KINDS.len() as u64) as usize;
        let round = [4u32, 8, 16][rng.below(3) as usize];
        let shift = [0u32, 0, 0, 4, 8, 12][rng.below(6) as usize];
        let base = if rng.below(4) == 0 {
            end.div_ceil(KINDS[k].align_std) * KINDS[k].align_std
        } else {
            end.div_ceil(round) * round
        };
        let off = base + shift;
        members.push((k, off));
        end = off + KINDS[k].size;
    }
    let rt = (rng.below(4) == 0).then(|| end.div_ceil(4) * 4 + [0u32, 4][rng.below(2) as usize]);
    (members, rt)
}

const PLACES: &[(&str, &str)] = &[
    ("StorageBuffer", "Block"),
    ("Uniform", "Block"),
    ("Uniform", "BufferBlock"),
    ("PushConstant", "Block"),
];

const CONFIGS: &[(&str, &[&str])] = &[
    ("vulkan1.0", &[]),
    ("vulkan1.0", &["--relax-block-layout"]),
    ("vulkan1.2", &[]),
    ("vulkan1.2", &["--uniform-buffer-standard-layout"]),
    ("vulkan1.2", &["--scalar-block-layout"]),
    ("vulkan1.2", &["--skip-block-layout"]),
    ("spv1.5", &[]),
];

#[test]
fn generated_blocks_agree_with_spirv_val() {
    let Some(dir) = support::tools_dir() else {
        return;
    };
    let mut rng = Rng(0x5eed_b10c);
    let (mut compared, mut rejected) = (0, 0);
    let mut disagreements = Vec::new();
    for case in 0..160 {
        let (members, rt) = generate(&mut rng);
        let (sc, deco) = PLACES[case % PLACES.len()];
        let text = module(&members, rt, sc, deco);
        for (env, flags) in CONFIGS {
            let (mine, my_msg) = spvx(&text, env, flags);
            let (theirs, their_msg) = oracle(&dir, &text, env, flags, "gen");
            compared += 1;
            rejected += usize::from(!theirs);
            if mine != theirs {
                disagreements.push(format!(
                    "{env} {flags:?} {sc} {deco} {members:?} rt {rt:?}: spvx {mine} ({my_msg}) spirv-val {theirs} ({their_msg})"
                ));
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {compared} verdicts differ:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    // The generator must exercise both verdicts substantially.
    assert!(
        rejected > compared / 10 && rejected < compared * 9 / 10,
        "{rejected} of {compared} rejected"
    );
}

/// Hand-checked verdicts (each rule of "Offset and Stride Assignment" once), asserted on their
/// own and then against spirv-val.
#[test]
fn hand_checked_layouts() {
    // (members, runtime array offset, storage class, decoration, env, switches, valid?)
    type Case = (
        &'static [(usize, u32)],
        Option<u32>,
        &'static str,
        &'static str,
        &'static str,
        &'static [&'static str],
        bool,
    );
    const V3: usize = 3;
    const F32: usize = 0;
    const A4F: usize = 10;
    const T: usize = 12;
    let cases: &[Case] = &[
        // vec3 after a float: base alignment 16 (std430) ...
        (
            &[(F32, 0), (V3, 4)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.0",
            &[],
            false,
        ),
        (
            &[(F32, 0), (V3, 16)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.0",
            &[],
            true,
        ),
        // ... relaxed: the component's alignment, and no straddling of a 16-byte boundary.
        (
            &[(F32, 0), (V3, 4)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.0",
            &["--relax-block-layout"],
            true,
        ),
        (
            &[(F32, 0), (V3, 4)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.2",
            &[],
            true,
        ),
        (
            &[(F32, 0), (F32, 4), (V3, 8)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.2",
            &[],
            false,
        ),
        (
            &[(F32, 0), (F32, 4), (V3, 8)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.2",
            &["--scalar-block-layout"],
            true,
        ),
        // Uniform Block: arrays and structs align to 16 (stride 16 here, so only the offset).
        (
            &[(F32, 0), (A4F, 4)],
            None,
            "Uniform",
            "Block",
            "vulkan1.2",
            &[],
            false,
        ),
        (
            &[(F32, 0), (A4F, 16)],
            None,
            "Uniform",
            "Block",
            "vulkan1.2",
            &[],
            true,
        ),
        (
            &[(F32, 0), (A4F, 4)],
            None,
            "Uniform",
            "Block",
            "vulkan1.2",
            &["--uniform-buffer-standard-layout"],
            true,
        ),
        // Nothing in the padding after a struct: T = {v4, f32} ends at 20, aligned 16 → 32.
        (
            &[(T, 0), (F32, 20)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.2",
            &[],
            false,
        ),
        (
            &[(T, 0), (F32, 32)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.2",
            &[],
            true,
        ),
        (
            &[(T, 0), (F32, 20)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.2",
            &["--scalar-block-layout"],
            true,
        ),
        // Overlap, whatever the switches (skip aside).
        (
            &[(V3, 0), (F32, 8)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.2",
            &["--scalar-block-layout"],
            false,
        ),
        (
            &[(V3, 0), (F32, 8)],
            None,
            "StorageBuffer",
            "Block",
            "vulkan1.2",
            &["--skip-block-layout"],
            true,
        ),
        // Layout rules are Vulkan's: not checked for spv1.5.
        (
            &[(F32, 0), (V3, 4)],
            None,
            "StorageBuffer",
            "Block",
            "spv1.5",
            &[],
            true,
        ),
        // A runtime array only in StorageBuffer/Uniform/PhysicalStorageBuffer blocks.
        (
            &[(F32, 0)],
            Some(4),
            "PushConstant",
            "Block",
            "vulkan1.2",
            &[],
            false,
        ),
        (
            &[(F32, 0)],
            Some(4),
            "StorageBuffer",
            "Block",
            "vulkan1.2",
            &[],
            true,
        ),
    ];
    let dir = support::tools_dir();
    for (i, &(members, rt, sc, deco, env, flags, valid)) in cases.iter().enumerate() {
        let text = module(members, rt, sc, deco);
        let (mine, msg) = spvx(&text, env, flags);
        assert_eq!(mine, valid, "case {i}: {env} {flags:?} {members:?}: {msg}");
        if let Some(dir) = &dir {
            let (theirs, their_msg) = oracle(dir, &text, env, flags, "hand");
            assert_eq!(theirs, valid, "case {i}: spirv-val says {their_msg}");
        }
    }
}

/// A block member without Offset is refused in every environment, not only Vulkan's.
#[test]
fn missing_offset_everywhere() {
    let text = module(&[(0, 0), (0, 4)], None, "StorageBuffer", "Block")
        .replace("OpMemberDecorate %S 1 Offset 4\n", "");
    for env in ["spv1.3", "vulkan1.2"] {
        let (ok, msg) = spvx(&text, env, &[]);
        assert!(!ok);
        assert!(
            msg.contains("must be explicitly laid out with Offset decorations"),
            "{msg}"
        );
    }
}

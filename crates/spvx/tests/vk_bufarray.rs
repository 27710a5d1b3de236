//! Arrays of buffers on the device from the command line: `spvx run --device` and `spvx diff`
//! with `--buffer SET.BINDING[INDEX]=` on spvx-vk's bufarray.comp (glslang 12; three SSBOs
//! indexed by a loop counter and a push constant). Expected values by hand from the GLSL:
//! s[i] = e0[i] + 2·e1[i] + 3·e2[i] + bufs[sel].length(), bufs[sel][i] = s ^ 0x55.

mod vk_common;

use spvx_testtools::{TempDir, temp_dir};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn spvx(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("spawn spvx")
}

fn shader() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-vk/tests/shaders/bufarray.comp.spv")
        .display()
        .to_string()
}

fn tmp(name: &str) -> TempDir {
    temp_dir(&format!("vk-bufarray-{name}"))
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// One workgroup of 4; element 2 has 6 words, sel = 2.
const ARGS: [&str; 12] = [
    "--groups",
    "1",
    "--buffer",
    "0.0=u32:1,2,3,4",
    "--buffer",
    "0.0[1]=u32:10,20,30,40",
    "--buffer",
    "0.0[2]=u32:100,200,300,400,7,7",
    "--buffer",
    "0.1=zeros:16",
    "--push",
    "u32:2",
];

#[test]
fn run_on_the_device_writes_every_element() {
    if vk_common::device().is_none() {
        return;
    }
    let scratch = tmp("run");
    let dir = scratch.path().to_path_buf();
    let shader = shader();
    let mut args = vec!["run", shader.as_str(), "--device", "vulkan", "--out", "o"];
    args.extend(ARGS);
    let o = spvx(&dir, &args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let read = |n: &str| words(&std::fs::read(dir.join("o").join(n)).unwrap_or_default());
    // s = 1+20+300+6 = 327, 2+40+600+6 = 648, 3+60+900+6 = 969, 4+80+1200+6 = 1290.
    assert_eq!(read("0.1.bin"), vec![327, 648, 969, 1290]);
    // s ^ 0x55; the two words past the dispatch unchanged.
    assert_eq!(read("0.0.2.bin"), vec![274, 733, 924, 1375, 7, 7]);
    assert_eq!(read("0.0.0.bin"), vec![1, 2, 3, 4]);
    assert_eq!(read("0.0.1.bin"), vec![10, 20, 30, 40]);
}

#[test]
fn diff_compares_every_element_and_catches_a_flipped_bit() {
    if vk_common::device().is_none() {
        return;
    }
    let scratch = tmp("diff");
    let dir = scratch.path().to_path_buf();
    let shader = shader();
    let mut args = vec!["diff", shader.as_str()];
    args.extend(ARGS);
    let o = spvx(&dir, &args);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    for line in [
        "SAME 0.0[0] (bufs): 4 u32 elements",
        "SAME 0.0[1] (bufs): 4 u32 elements",
        "SAME 0.0[2] (bufs): 6 u32 elements",
        "SAME 0.1 (outp): 4 u32 elements",
        "SAME: 4 of 4 bindings match",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    args.extend(["--flip-engine-bit", "0.1:4:3"]);
    let o = spvx(&dir, &args);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // 648 ^ 8 = 640 on the engine's side.
    assert!(
        out.contains("element 1 (byte 4): engine 640 (0x00000280), device 648 (0x00000288)"),
        "{out}"
    );
}

/// The engine's own arrays-of-buffers corpus shaders (spvx-exec tests/corpus/glsl: bufarray.comp
/// with a loop index, bufarray_ubo.comp with uniform-buffer and storage-buffer arrays) run on
/// the engine and on the device with the same pseudo-random elements: every element of every
/// binding must come back with the same bytes. (bufarray_oob.comp indexes past the array's
/// end, which is undefined, so it is not compared.)
#[test]
fn engine_corpus_arrays_of_buffers_agree_with_the_device() {
    use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
    use spvx_vk::reflect::DescriptorKind;
    use spvx_vk::{BufferElement, ModuleInfo, VkRun};
    let Some(dev) = vk_common::device() else {
        return;
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spvx-exec/tests/corpus/glsl");
    let mut state = 0x5eed_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as u8
    };
    for name in ["bufarray.comp.spv", "bufarray_ubo.comp.spv"] {
        let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let words: Vec<u32> = words(&bytes);
        let info = ModuleInfo::read(&words, Some("main")).expect("reflects");
        let module = CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default())
            .expect("compiles");
        let mut res = Resources::new();
        let mut elements = Vec::new();
        for b in info
            .bindings
            .iter()
            .filter(|b| b.kind != DescriptorKind::Tensor)
        {
            assert!(b.count >= 1, "{name}: binding {}.{}", b.set, b.binding);
            for index in 0..b.count {
                // Different lengths per element, so that length() differs too.
                let data: Vec<u8> = (0..256 + 16 * index as usize).map(|_| next()).collect();
                res.set_buffer_element(b.set, b.binding, index, data.clone());
                elements.push(BufferElement {
                    set: b.set,
                    binding: b.binding,
                    index,
                    bytes: data,
                });
            }
        }
        let groups = [2, 1, 1];
        let run = VkRun {
            words,
            entry: Some("main".into()),
            groups,
            buffers: Vec::new(),
            elements,
            push: None,
            spec: Default::default(),
            subgroup_size: None,
        };
        let cfg = RunConfig {
            subgroup_size: dev.report().subgroup_size,
            ..RunConfig::default()
        };
        let report = module.run(&mut res, groups, &cfg).expect("engine run");
        assert_eq!(report.total_events, 0, "{name}: {:?}", report.events);
        let out = dev.run(&run).expect("device run");
        assert!(!out.elements.is_empty());
        for e in &out.elements {
            let engine = res.buffer_element(e.set, e.binding, e.index).unwrap_or(&[]);
            assert!(
                engine == e.bytes.as_slice(),
                "{name}: binding {}.{}[{}] differs",
                e.set,
                e.binding,
                e.index
            );
        }
    }
}

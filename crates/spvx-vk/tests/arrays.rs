//! Arrays of buffers on the device: shaders/bufarray.comp (glslangValidator 12) indexes an
//! array of three storage buffers with a loop counter and a push constant (dynamically uniform
//! indices). Expected values are computed by hand from the GLSL source (small inputs, listed
//! literally) and, for larger inputs, on the host with exact u64 arithmetic mod 2^32.

mod common;

use common::{le32, runner, words32};
use spvx_vk::{BufferData, BufferElement, VkError, VkInputs, VkRun};
use std::collections::BTreeMap;
use std::path::Path;

fn bufarray() -> Vec<u32> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders/bufarray.comp.spv");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    words32(&bytes)
}

/// The run: elements 0..3 of binding 0.0 (element 0 as a plain BufferData when `plain0`),
/// output 0.1 of `n` words, push constant `sel`, `n / 4` workgroups of 4.
fn run(elements: &[Vec<u32>; 3], n: usize, sel: u32, plain0: bool) -> VkRun {
    let mut run = VkRun {
        words: bufarray(),
        entry: None,
        groups: [(n / 4) as u32, 1, 1],
        buffers: vec![BufferData {
            set: 0,
            binding: 1,
            bytes: vec![0; 4 * n],
        }],
        elements: Vec::new(),
        push: Some(le32(&[sel])),
        subgroup_size: None,
        spec: BTreeMap::new(),
    };
    for (k, v) in elements.iter().enumerate() {
        if k == 0 && plain0 {
            run.buffers.push(BufferData {
                set: 0,
                binding: 0,
                bytes: le32(v),
            });
        } else {
            run.elements.push(BufferElement {
                set: 0,
                binding: 0,
                index: k as u32,
                bytes: le32(v),
            });
        }
    }
    run
}

#[test]
fn an_array_of_three_storage_buffers_by_hand() {
    let Some(r) = runner() else { return };
    // n = 4 (one workgroup); element 2 is 6 words long, so bufs[2].v.length() = 6.
    let e = [
        vec![1, 2, 3, 4],
        vec![10, 20, 30, 40],
        vec![100, 200, 300, 400, 7, 7],
    ];
    // sel = 2: s[i] = e0[i] + 2·e1[i] + 3·e2[i] + 6:
    //   i=0: 1 + 20 + 300 + 6 = 327;  i=1: 2 + 40 + 600 + 6 = 648;
    //   i=2: 3 + 60 + 900 + 6 = 969;  i=3: 4 + 80 + 1200 + 6 = 1290.
    // bufs[2].v[i] = s ^ 0x55: 327^85 = 274, 648^85 = 733, 969^85 = 924, 1290^85 = 1375;
    // the two words past the dispatch stay 7.
    let out = r.run(&run(&e, 4, 2, false)).expect("run");
    assert_eq!(words32(&out.buffers[0].bytes), vec![327, 648, 969, 1290]);
    assert_eq!(out.elements.len(), 3);
    assert_eq!(words32(&out.elements[0].bytes), e[0]);
    assert_eq!(words32(&out.elements[1].bytes), e[1]);
    assert_eq!(
        words32(&out.elements[2].bytes),
        vec![274, 733, 924, 1375, 7, 7]
    );
    // sel = 0, element 0 given as a plain BufferData: length 4, so every sum is 2 less:
    // 325, 646, 967, 1288; bufs[0].v = s ^ 0x55 = 272, 723, 914, 1373.
    let out = r.run(&run(&e, 4, 0, true)).expect("run");
    assert_eq!(words32(&out.buffers[0].bytes), vec![325, 646, 967, 1288]);
    assert_eq!(words32(&out.buffers[1].bytes), vec![272, 723, 914, 1373]);
    assert_eq!(out.elements.len(), 2);
    assert_eq!(words32(&out.elements[1].bytes), e[2]);
}

#[test]
fn an_array_of_buffers_prepared_and_dispatched_with_fresh_data() {
    let Some(r) = runner() else { return };
    let n = 64;
    let data = |seed: u32, len: usize| -> Vec<u32> {
        (0..len as u32)
            .map(|i| (i ^ seed).wrapping_mul(0x9e37_79b9).rotate_left(seed % 32))
            .collect()
    };
    let first = [data(1, n), data(2, n), data(3, n + 3)];
    let second = [data(4, n), data(5, n), data(6, n + 3)];
    let r1 = run(&first, n, 1, false);
    let r2 = run(&second, n, 1, false);
    let mut p = r.prepare(&r1).expect("prepare");
    for (e, rn) in [(&first, &r1), (&second, &r2)] {
        let out = p.dispatch(&VkInputs::of_run(rn, &[])).expect("dispatch");
        let sums: Vec<u32> = (0..n)
            .map(|i| {
                let exact: u64 = (0..3)
                    .map(|k| u64::from(e[k][i]) * (k as u64 + 1))
                    .sum::<u64>()
                    + n as u64;
                (exact % (1 << 32)) as u32
            })
            .collect();
        assert_eq!(words32(&out.buffers[0].bytes), sums);
        let xored: Vec<u32> = sums.iter().map(|s| s ^ 0x55).collect();
        assert_eq!(words32(&out.elements[1].bytes), xored);
        assert_eq!(words32(&out.elements[0].bytes), e[0]);
        assert_eq!(out, r.run(rn).expect("run"));
    }
}

#[test]
fn array_elements_are_checked() {
    let Some(r) = runner() else { return };
    let e = [vec![0; 4], vec![0; 4], vec![0; 4]];
    let mut bad = run(&e, 4, 0, false);
    bad.elements[2].index = 3;
    let msg = r.run(&bad).expect_err("element 3 of 3").to_string();
    assert!(msg.contains("element 3 of an array of 3 buffers"), "{msg}");
    let mut twice = run(&e, 4, 0, true);
    twice.elements.push(BufferElement {
        set: 0,
        binding: 0,
        index: 0,
        bytes: vec![0; 16],
    });
    let err = r.run(&twice).expect_err("element 0 twice");
    assert!(
        matches!(
            err,
            VkError::Binding {
                set: 0,
                binding: 0,
                ..
            }
        ),
        "{err}"
    );
    let mut plain = run(&e, 4, 0, false);
    plain.elements.push(BufferElement {
        set: 0,
        binding: 1,
        index: 1,
        bytes: vec![0; 16],
    });
    let msg = r.run(&plain).expect_err("not an array").to_string();
    assert!(msg.contains("not an array of buffers"), "{msg}");
    // An element left out is a zero buffer of 256 bytes (64 words), as an ungiven binding:
    // with element 1 missing and sel = 1, s[i] = e0[i] + 3·e2[i] + 64.
    let e = [vec![1, 2, 3, 4], vec![0; 4], vec![5, 6, 7, 8]];
    let mut gap = run(&e, 4, 1, false);
    gap.elements.remove(1);
    let out = r.run(&gap).expect("run");
    assert_eq!(words32(&out.buffers[0].bytes), vec![80, 84, 88, 92]);
}

/// A runtime-length array of buffers (the engine's corpus bufarray_runtime.comp,
/// `buffer B {...} bufs[]`) is refused with a clear reason: the device lacks
/// runtimeDescriptorArray (lavapipe, Mesa 22.3), or spvx-vk does not bind runtime-sized
/// descriptor arrays.
#[test]
fn a_runtime_array_of_buffers_is_refused_by_name() {
    let Some(r) = runner() else { return };
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-exec/tests/corpus/glsl/bufarray_runtime.comp.spv");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: no {}", path.display());
        return;
    };
    let run = VkRun {
        words: words32(&bytes),
        entry: None,
        groups: [1, 1, 1],
        buffers: vec![BufferData {
            set: 0,
            binding: 1,
            bytes: vec![0; 64],
        }],
        elements: vec![BufferElement {
            set: 0,
            binding: 0,
            index: 0,
            bytes: vec![0; 64],
        }],
        push: None,
        spec: BTreeMap::new(),
        subgroup_size: None,
    };
    let msg = r.run(&run).expect_err("runtime array").to_string();
    assert!(
        msg.contains("lacks runtimeDescriptorArray") || msg.contains("runtime-sized"),
        "{msg}"
    );
}

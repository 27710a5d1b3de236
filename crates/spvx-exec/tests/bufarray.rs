//! Arrays of buffers (descriptor arrays): glslang-compiled shaders (tests/corpus/glsl) whose
//! buffer array elements are separate memory objects bound with
//! `Resources::set_buffer_element`; expected outputs are computed in Rust from the GLSL
//! source's meaning, and an index past the array's end is reported, reads 0 and writes nothing.

mod glsl_corpus;

use glsl_corpus::{Rng, le32, module, words};
use spvx_exec::{BindingKind, Resources, RunConfig, UbKind};

/// bufarray.comp: `outp.r[i] = Σ_k bufs[k].v[i]·(k+1) + bufs[2].v.length()` and
/// `bufs[1].v[i] = that sum`, with wrapping 32-bit arithmetic (GLSL `uint`).
#[test]
fn bufarray_sums_three_buffers() {
    let m = module("bufarray.comp");
    let elements: Vec<_> = m
        .bindings()
        .iter()
        .filter(|b| (b.set, b.binding) == (0, 0))
        .map(|b| (b.count, b.element, b.kind))
        .collect();
    assert_eq!(
        elements,
        (0..3)
            .map(|e| (3, Some(e), BindingKind::StorageBuffer))
            .collect::<Vec<_>>()
    );
    let n = 16usize; // 2 workgroups of 8
    let lens = [n, n, n + 5];
    let mut rng = Rng(0xb0fa);
    let inputs: Vec<Vec<u32>> = lens
        .iter()
        .map(|&l| (0..l).map(|_| rng.next_u32()).collect())
        .collect();
    let mut res = Resources::new();
    for (k, v) in inputs.iter().enumerate() {
        res.set_buffer_element(0, 0, k as u32, le32(v));
    }
    res.set_buffer(0, 1, vec![0; 4 * n]);
    let report = m
        .run(&mut res, [2, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0, "{:?}", report.events);
    let sums: Vec<u32> = (0..n)
        .map(|i| {
            (0..3).fold(0u32, |s, k| {
                s.wrapping_add(inputs[k][i].wrapping_mul(k as u32 + 1))
            })
        })
        .collect();
    let expected: Vec<u32> = sums
        .iter()
        .map(|s| s.wrapping_add(lens[2] as u32))
        .collect();
    assert_eq!(words(res.buffer(0, 1).unwrap_or_default()), expected);
    assert_eq!(words(res.buffer_element(0, 0, 1).unwrap_or_default()), sums);
    // Elements 0 and 2 are untouched.
    assert_eq!(
        words(res.buffer_element(0, 0, 0).unwrap_or_default()),
        inputs[0]
    );
    assert_eq!(
        words(res.buffer_element(0, 0, 2).unwrap_or_default()),
        inputs[2]
    );
}

/// A missing element is a missing binding, not a panic.
#[test]
fn bufarray_missing_element_is_an_error() {
    let m = module("bufarray.comp");
    let mut res = Resources::new();
    res.set_buffer_element(0, 0, 0, vec![0; 64]);
    res.set_buffer_element(0, 0, 2, vec![0; 64]);
    res.set_buffer(0, 1, vec![0; 64]);
    let err = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .expect_err("element 1 is not bound");
    assert!(
        matches!(
            err,
            spvx_exec::ExecError::MissingBufferElement {
                set: 0,
                binding: 0,
                index: 1
            }
        ),
        "{err}"
    );
}

/// bufarray_oob.comp: `bufs[i]` for i = 0..4 with only 2 elements. Invocations 2 and 3 index
/// past the end: each of their two access chains is reported (IndexOutOfRange, length 2), the
/// read gives 0 (so `outp.r[i] = 1`) and the write is dropped; no other buffer changes.
#[test]
fn bufarray_dynamic_index_out_of_range() {
    let m = module("bufarray_oob.comp");
    let mut res = Resources::new();
    res.set_buffer_element(0, 0, 0, le32(&[10, 11, 12]));
    res.set_buffer_element(0, 0, 1, le32(&[20, 21, 22]));
    res.set_buffer(0, 1, le32(&[0; 4]));
    let report = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(words(res.buffer(0, 1).unwrap_or_default()), [11, 21, 1, 1]);
    assert_eq!(
        words(res.buffer_element(0, 0, 0).unwrap_or_default()),
        [10, 7, 12]
    );
    assert_eq!(
        words(res.buffer_element(0, 0, 1).unwrap_or_default()),
        [20, 8, 22]
    );
    let count = |f: &dyn Fn(&UbKind) -> bool| report.events.iter().filter(|e| f(&e.kind)).count();
    let index = |e: &UbKind| {
        matches!(
            e,
            UbKind::IndexOutOfRange {
                length: 2,
                index: 2 | 3
            }
        )
    };
    assert_eq!(count(&index), 4, "{:?}", report.events);
    assert_eq!(
        count(&|e| matches!(e, UbKind::OutOfBoundsRead { .. })),
        2,
        "{:?}",
        report.events
    );
    assert_eq!(
        count(&|e| matches!(e, UbKind::OutOfBoundsWrite { .. })),
        2,
        "{:?}",
        report.events
    );
    assert_eq!(report.total_events, 8);
    for e in &report.events {
        assert!(e.invocation[0] >= 2, "{e:?}");
    }
}

/// bufarray_ubo.comp: an array of std140 uniform buffers (element `k` at offset 0 of each)
/// read with constant indices; `outs[1].r[i] = ubos[0].k · i + ubos[1].k`; `outs[0]` is
/// untouched and the uniform elements are read-only.
#[test]
fn bufarray_uniform_elements_with_constant_indices() {
    let m = module("bufarray_ubo.comp");
    let kinds: Vec<_> = m
        .bindings()
        .iter()
        .map(|b| (b.set, b.binding, b.element, b.kind))
        .collect();
    for e in 0..2 {
        assert!(
            kinds.contains(&(1, 2, Some(e), BindingKind::UniformBuffer)),
            "{kinds:?}"
        );
        assert!(
            kinds.contains(&(0, 0, Some(e), BindingKind::StorageBuffer)),
            "{kinds:?}"
        );
    }
    let mut res = Resources::new();
    res.set_buffer_element(1, 2, 0, le32(&[5, 0, 0, 0]));
    res.set_buffer_element(1, 2, 1, le32(&[100, 0, 0, 0]));
    res.set_buffer_element(0, 0, 0, le32(&[9; 4]));
    res.set_buffer_element(0, 0, 1, le32(&[0; 4]));
    let report = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.total_events, 0, "{:?}", report.events);
    assert_eq!(
        words(res.buffer_element(0, 0, 1).unwrap_or_default()),
        [100, 105, 110, 115]
    );
    assert_eq!(
        words(res.buffer_element(0, 0, 0).unwrap_or_default()),
        [9; 4]
    );
    assert_eq!(
        words(res.buffer_element(1, 2, 1).unwrap_or_default()),
        [100, 0, 0, 0]
    );
}

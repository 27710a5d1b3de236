//! Runtime-length arrays of buffers (glslang bufarray_runtime.comp: `buffer B { uint v[]; }
//! bufs[];` with GL_EXT_nonuniform_qualifier): the array has as many elements as are bound,
//! each its own memory object; an index past the bound count is reported as
//! `IndexOutOfRange` with that length, reads 0 and writes nothing; a gap is a missing element.
//! Expected values are computed here from the GLSL source with wrapping u32 arithmetic.

mod glsl_corpus;

use glsl_corpus::{Rng, le32, module, words};
use spvx_exec::{BindingKind, ExecError, Resources, RunConfig, UbKind};

fn run_with(n: usize) {
    let m = module("bufarray_runtime.comp");
    let placeholder: Vec<_> = m
        .bindings()
        .iter()
        .filter(|b| (b.set, b.binding) == (0, 0))
        .map(|b| (b.count, b.element, b.kind))
        .collect();
    assert_eq!(placeholder, [(0, Some(0), BindingKind::StorageBuffer)]);
    let invocations = 16usize; // 2 workgroups of 8
    let mut rng = Rng(0x5eed + n as u64);
    let lens: Vec<usize> = (0..n).map(|k| invocations + 3 * k).collect();
    let inputs: Vec<Vec<u32>> = lens
        .iter()
        .map(|&l| (0..l).map(|_| rng.next_u32()).collect())
        .collect();
    let mut res = Resources::new();
    for (k, v) in inputs.iter().enumerate() {
        res.set_buffer_element(0, 0, k as u32, le32(v));
    }
    let mut out = vec![0u32; 1 + 2 * invocations];
    out[0] = n as u32;
    res.set_buffer(0, 1, le32(&out));
    let report = m
        .run(&mut res, [2, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let got = words(res.buffer(0, 1).unwrap_or_default());
    let mut after = inputs.clone();
    for i in 0..invocations {
        let sum = (0..n).fold(0u32, |s, k| {
            s.wrapping_add(inputs[k][i].wrapping_mul(k as u32 + 1))
                .wrapping_add(lens[k] as u32)
        });
        let seventh = inputs.get(7).map_or(0, |v| v[i]);
        assert_eq!(got[1 + 2 * i], sum, "n {n}: sum of invocation {i}");
        assert_eq!(
            got[2 + 2 * i],
            seventh.wrapping_add(1),
            "n {n}: bufs[7] at {i}"
        );
        after[i % n][i] = sum;
    }
    for (k, want) in after.iter().enumerate() {
        let bytes = res.buffer_element(0, 0, k as u32).unwrap_or_default();
        assert_eq!(&words(bytes), want, "n {n}: element {k}");
    }
    let out_of_range = report
        .events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                UbKind::IndexOutOfRange { index: 7, length } if length == n as u32
            )
        })
        .count();
    assert_eq!(out_of_range, if n > 7 { 0 } else { invocations }, "n {n}");
    if n > 7 {
        assert_eq!(report.total_events, 0, "{:?}", report.events);
    }
}

#[test]
fn three_elements_bound_index_seven_is_out_of_range() {
    run_with(3);
}

#[test]
fn eight_elements_bound() {
    run_with(8);
}

#[test]
fn a_gap_in_the_bound_elements_is_a_missing_element() {
    let m = module("bufarray_runtime.comp");
    let mut res = Resources::new();
    res.set_buffer_element(0, 0, 0, vec![0; 64]);
    res.set_buffer_element(0, 0, 2, vec![0; 64]);
    res.set_buffer(0, 1, le32(&[3; 33]));
    let err = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .expect_err("element 1 is not bound");
    assert!(
        matches!(
            err,
            ExecError::MissingBufferElement {
                set: 0,
                binding: 0,
                index: 1
            }
        ),
        "{err}"
    );
}

//! Arrays of tensors (SPV_ARM_tensors: an OpTypeArray of OpTypeTensorARM at one binding, one
//! tensor descriptor per element): reads (with OutOfBoundsValueARM), writes and size queries
//! through a dynamically selected element; an index past the array's end is reported and
//! selects no tensor. Expected values follow reference/tensors.md §2a (per-element bounds,
//! out-of-bounds reads give the operand, writes outside have no effect), worked out here.

use spvx_exec::{
    BindingKind, CompileOptions, CompiledModule, ExecError, Resources, RunConfig, Tensor, UbKind,
};
use spvx_spirv::asm::{AsmOptions, assemble};

/// Invocation i (of 16) uses element k = i mod 4 of `ts` (3 elements: k = 3 is out of range)
/// at coordinate c = i / 4: out[i] = ts[k][c] (OOB value 7777) + 1000·size(ts[k], 0);
/// then writes ts[k][c + 1] = i + 100.
const TEXT: &str = include_str!("corpus/tensor_array.spvasm");

fn module() -> CompiledModule {
    let asm = assemble(TEXT, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn ints(t: &Tensor) -> Vec<i32> {
    t.data
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn tensor(values: &[i32]) -> Tensor {
    Tensor {
        shape: vec![values.len() as u64],
        strides: None,
        data: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
    }
}

#[test]
fn array_of_tensors_reads_writes_and_sizes_per_element() {
    let m = module();
    let listed: Vec<_> = m
        .bindings()
        .iter()
        .filter(|b| b.kind == BindingKind::Tensor)
        .map(|b| (b.set, b.binding, b.count, b.element))
        .collect();
    assert_eq!(
        listed,
        (0..3).map(|e| (0, 0, 3, Some(e))).collect::<Vec<_>>()
    );
    // Element e has 2 + e values: 10·e + j + 1.
    let initial: Vec<Vec<i32>> = (0..3)
        .map(|e| (0..2 + e).map(|j| 10 * e + j + 1).collect())
        .collect();
    let mut res = Resources::new();
    for (e, v) in initial.iter().enumerate() {
        res.set_tensor_element(0, 0, e as u32, tensor(v));
    }
    res.set_words(0, 1, &[0; 16]);
    let report = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    // Only the out-of-range index (k = 3, invocations 3, 7, 11, 15) is reported.
    assert_eq!(report.total_events, 4, "{:?}", report.events);
    assert!(report.events.iter().all(|e| matches!(
        e.kind,
        UbKind::IndexOutOfRange {
            index: 3,
            length: 3
        }
    )));
    let out = res.words(0, 1).unwrap_or_default();
    assert_eq!(out.len(), 16);
    for (i, &got) in out.iter().enumerate() {
        let (k, c) = (i % 4, i / 4);
        let want = match initial.get(k) {
            // A read outside gives the operand; the size is the element's own.
            Some(v) => v.get(c).map_or(7777, |&x| x as u32) + 1000 * v.len() as u32,
            // No tensor: the read is out of bounds (the operand), the size 0.
            None => 7777,
        };
        assert_eq!(got, want, "invocation {i}");
    }
    // Writes: element k at c + 1 = i + 100 where inside (i = 4c + k).
    for (k, v) in initial.iter().enumerate() {
        let mut want = v.clone();
        for c in 0..4usize {
            if let Some(slot) = want.get_mut(c + 1) {
                *slot = (4 * c + k + 100) as i32;
            }
        }
        let got = res.tensor_element(0, 0, k as u32).map(ints);
        assert_eq!(got, Some(want), "element {k}");
    }
}

#[test]
fn a_missing_tensor_element_is_named() {
    let m = module();
    let mut res = Resources::new();
    res.set_tensor_element(0, 0, 0, tensor(&[1, 2]));
    res.set_tensor_element(0, 0, 2, tensor(&[1, 2]));
    res.set_words(0, 1, &[0; 16]);
    let err = m
        .run(&mut res, [1, 1, 1], &RunConfig::default())
        .expect_err("element 1 is not bound");
    assert!(
        matches!(&err, ExecError::Tensor { set: 0, binding: 0, message } if message.contains("element 1")),
        "{err}"
    );
}

/// The same module with a runtime array of tensors (RuntimeDescriptorArray): listed once with
/// count 0; three elements bound make it behave as the array of 3 above.
#[test]
fn runtime_array_of_tensors_takes_its_length_from_the_bound_elements() {
    let text = TEXT
        .replace(
            "%tens = OpTypeArray %ten %u3",
            "%tens = OpTypeRuntimeArray %ten",
        )
        .replacen(
            "OpCapability Shader\n",
            "OpCapability Shader\nOpCapability RuntimeDescriptorArray\n",
            1,
        );
    assert_ne!(text, TEXT);
    let asm = assemble(&text, &AsmOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let m = CompiledModule::from_bytes(&asm.bytes(), "main", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let listed: Vec<_> = m
        .bindings()
        .iter()
        .filter(|b| b.kind == BindingKind::Tensor)
        .map(|b| (b.count, b.element))
        .collect();
    assert_eq!(listed, [(0, Some(0))]);
    for bound in [3u32, 2] {
        let mut res = Resources::new();
        for e in 0..bound {
            res.set_tensor_element(0, 0, e, tensor(&[10 * e as i32 + 1, 10 * e as i32 + 2]));
        }
        res.set_words(0, 1, &[0; 16]);
        let report = m
            .run(&mut res, [1, 1, 1], &RunConfig::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let out = res.words(0, 1).unwrap_or_default();
        assert_eq!(out.len(), 16);
        for (i, &got) in out.iter().enumerate() {
            let (k, c) = (i as u32 % 4, i / 4);
            // Elements of 2 values: a read at c < 2 sees 10k + c + 1, else 7777; size 2.
            let want = if k < bound {
                (if c < 2 { 10 * k + c as u32 + 1 } else { 7777 }) + 2000
            } else {
                7777
            };
            assert_eq!(got, want, "{bound} bound, invocation {i}");
        }
        let out_of_range = report
            .events
            .iter()
            .filter(|e| matches!(e.kind, UbKind::IndexOutOfRange { length, .. } if length == bound))
            .count();
        assert_eq!(out_of_range, 4 * (4 - bound as usize), "{bound} bound");
    }
}

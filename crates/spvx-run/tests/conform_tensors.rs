//! `spvx_run::conform` on SPV_ARM_tensors: the engine's results (interpreter and default
//! engine) on every tensor form's generated cases against an independent model written here
//! from the extension and VK_ARM_tensors (reference/tensors.md §2a): C-order addresses over
//! the tensor's bytes (Σ cⱼ·strideⱼ, packed strides computed here), an element inside iff
//! 0 ≤ cⱼ < dimⱼ for every j, array accesses walking the innermost dimension with each element
//! checked (an access starting at a negative innermost coordinate is outside in every element,
//! docs/semantics/tensors.md), outside elements read as the OutOfBoundsValueARM operand or zero,
//! and writes outside dropped; plus hand-computed cases (ranks 1 and 8, an array of tensors, a
//! shaped type, the size query, edges in and out of bounds), and the edges the inputs reach.

use spvx_num::element::ElemType;
use spvx_run::conform::form::Kind;
use spvx_run::conform::run::{compile, run_engine};
use spvx_run::conform::sweep::forms;
use spvx_run::conform::tensors::{
    self, Access, Binding, Bound, TensorForm, module::oob_literal, ops,
};
use spvx_run::conform::{Ext, Form, inputs};

fn tensor_form(f: &Form) -> &TensorForm {
    match &f.kind {
        Kind::Tensors(t) => t,
        other => panic!("not a tensor form: {other:?}"),
    }
}

fn le(bytes: &[u8], at: usize, size: usize) -> u64 {
    let mut w = [0u8; 8];
    w[..size].copy_from_slice(&bytes[at..at + size]);
    u64::from_le_bytes(w)
}

/// A coordinate's value: its bits read as the coordinate type (signed or not).
fn coord(bytes: &[u8], i: usize, t: ElemType) -> i128 {
    let size = t.size();
    let b = le(bytes, i * size, size);
    let bits = t.bits();
    if t.is_signed_int() && (b >> (bits - 1)) & 1 == 1 {
        i128::from(b) - (1i128 << bits)
    } else {
        i128::from(b)
    }
}

/// C-order strides of a packed tensor, in bytes.
fn c_order(shape: &[u64], e: u64) -> Vec<u64> {
    let mut s = Vec::new();
    let mut acc = e;
    for d in shape.iter().rev() {
        s.push(acc);
        acc *= d;
    }
    s.reverse();
    s
}

/// What the model says a form stores at each output element, for the unit's inputs.
fn model(form: &Form, data: &[Vec<u8>], count: u32) -> Vec<u64> {
    let f = tensor_form(form);
    let bound: Vec<Bound> = f.bound(form.output.binding + 1, count);
    let e = f.elem.map_or(1, |t| t.size());
    let n_ports = form.inputs.len();
    let port = |name: &str| {
        form.inputs
            .iter()
            .position(|p| p.name == name)
            .map(|k| &data[k])
    };
    let out_t = form.output.elem;
    let mut out = Vec::new();
    for inv in 0..count as usize {
        let k = port("index").map_or(0, |b| le(b, inv * 4, 4) as usize);
        let b = &bound[k];
        let bytes = &data[n_ports + k];
        if f.access == Access::Size {
            for d in &b.shape {
                out.push(d & out_t.mask());
            }
            continue;
        }
        let strides = b
            .strides
            .clone()
            .unwrap_or_else(|| c_order(&b.shape, e as u64));
        let coords_b = port("coords").expect("coords");
        let r = f.rank as usize;
        let c: Vec<i128> = (0..r)
            .map(|j| coord(coords_b, inv * r + j, f.int))
            .collect();
        let start_inside = c
            .iter()
            .zip(&b.shape)
            .all(|(&x, &d)| x >= 0 && x < i128::from(d));
        let len = f.len.max(1) as usize;
        // The OOB replacement of the read that fills the output.
        let read_ops = match f.access {
            Access::Read => f.operands,
            _ => 0,
        };
        let oob: u64 = if read_ops & ops::OUT_OF_BOUNDS_VALUE != 0 {
            match f.elem {
                None => 1,
                Some(t) if t.float_format().is_some() => match t {
                    ElemType::F16 => 0xc100,
                    ElemType::F32 => 0xc020_0000,
                    _ => 0xc004_0000_0000_0000,
                },
                Some(t) => {
                    (oob_literal(t).parse::<i128>().expect("integer literal") as u64) & t.mask()
                }
            }
        } else {
            0
        };
        for m in 0..len {
            let inside = start_inside && c[r - 1] + (m as i128) < i128::from(b.shape[r - 1]);
            let v = if !inside {
                oob
            } else if f.access == Access::Write {
                let w = le(
                    port("val").expect("val"),
                    (inv * len + m) * out_t.size(),
                    out_t.size(),
                );
                if f.elem.is_none() {
                    u64::from(w != 0)
                } else {
                    w
                }
            } else {
                let at: u64 = c
                    .iter()
                    .zip(&strides)
                    .map(|(&x, s)| x as u64 * s)
                    .sum::<u64>()
                    + m as u64 * e as u64;
                let raw = le(bytes, at as usize, e);
                if f.elem.is_none() {
                    u64::from(raw != 0)
                } else {
                    raw
                }
            };
            out.push(v);
        }
    }
    out
}

/// What the model says each bound tensor holds after the run: its input bytes, with every
/// element a write form's invocation reaches inside the tensor set to the `val` element
/// (booleans: 1 for a non-zero word, as spvx writes true); writes outside change nothing.
fn model_tensors(form: &Form, data: &[Vec<u8>], count: u32) -> Vec<Vec<u8>> {
    let f = tensor_form(form);
    let bound: Vec<Bound> = f.bound(form.output.binding + 1, count);
    let n_ports = form.inputs.len();
    let mut out: Vec<Vec<u8>> = data[n_ports..].to_vec();
    if f.access != Access::Write {
        return out;
    }
    let e = f.elem.map_or(1, |t| t.size());
    let port = |name: &str| {
        form.inputs
            .iter()
            .position(|p| p.name == name)
            .map(|k| &data[k])
    };
    let val_t = form.inputs[n_ports - 1].elem;
    let r = f.rank as usize;
    let len = f.len.max(1) as usize;
    for inv in 0..count as usize {
        let k = port("index").map_or(0, |b| le(b, inv * 4, 4) as usize);
        let b = &bound[k];
        let strides = b
            .strides
            .clone()
            .unwrap_or_else(|| c_order(&b.shape, e as u64));
        let c: Vec<i128> = (0..r)
            .map(|j| coord(port("coords").expect("coords"), inv * r + j, f.int))
            .collect();
        if !c
            .iter()
            .zip(&b.shape)
            .all(|(&x, &d)| x >= 0 && x < i128::from(d))
        {
            continue;
        }
        for m in 0..len {
            if c[r - 1] + m as i128 >= i128::from(b.shape[r - 1]) {
                break;
            }
            let at = c
                .iter()
                .zip(&strides)
                .map(|(&x, s)| x as u64 * s)
                .sum::<u64>() as usize
                + m * e;
            let w = le(
                port("val").expect("val"),
                (inv * len + m) * val_t.size(),
                val_t.size(),
            );
            let w = if f.elem.is_none() {
                u64::from(w != 0)
            } else {
                w
            };
            out[k][at..at + e].copy_from_slice(&w.to_le_bytes()[..e]);
        }
    }
    out
}

fn check(form: &Form, data: &[Vec<u8>], count: u32) {
    let c = compile(form).unwrap_or_else(|e| panic!("{e}"));
    let want = model(form, data, count);
    let want_tensors = model_tensors(form, data, count);
    for reference in [true, false] {
        let run = run_engine(&c, form, data, count, reference).unwrap_or_else(|e| panic!("{e}"));
        assert!(run.masked.is_empty(), "{}: nothing is undefined", form.id);
        assert!(
            run.tensors == want_tensors,
            "{} ({}): the tensors after the run differ from the model's",
            form.id,
            if reference {
                "interpreter"
            } else {
                "default engine"
            }
        );
        let t = form.output.elem;
        let got: Vec<u64> = (0..want.len()).map(|i| t.bits_at(&run.out, i)).collect();
        if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
            let per = form.output.per_invocation;
            panic!(
                "{} ({}): element {i} (invocation {}): model {:#x}, engine {:#x}; inputs of the invocation: {:?}",
                form.id,
                if reference {
                    "interpreter"
                } else {
                    "default engine"
                },
                i / per,
                want[i],
                got[i],
                form.inputs
                    .iter()
                    .zip(data)
                    .map(|(p, b)| {
                        let s = p.per_invocation * p.elem.size();
                        (p.name, b[i / per * s..(i / per + 1) * s].to_vec())
                    })
                    .collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn every_tensor_form_agrees_with_the_model() {
    let all = forms(&[Ext::Tensors], None);
    assert!(all.len() > 2000, "{}", all.len());
    for (n, form) in all.iter().enumerate() {
        let count = 128;
        let data = inputs::inputs(form, 7 + n as u64, 0, count);
        check(form, &data, count);
    }
}

/// The generated inputs reach the edges: every read form has cases inside and outside, array
/// reads straddle the innermost dimension's end, signed coordinates go negative (−1 and the
/// type's smallest value), 64-bit ones reach 2³², unsigned 32-bit ones 2³¹; every write form
/// has writes dropped and writes kept.
#[test]
fn the_inputs_reach_the_edges() {
    let all = forms(&[Ext::Tensors], None);
    let (mut neg1, mut min, mut two32, mut two31) = (0, 0, 0, 0);
    for form in &all {
        let f = tensor_form(form);
        if f.access == Access::Size {
            continue;
        }
        let count = 1024;
        let data = inputs::inputs(form, 1, 0, count);
        let bound = f.bound(form.output.binding + 1, count);
        let k_port = form.inputs.iter().position(|p| p.name == "index");
        let c_port = form
            .inputs
            .iter()
            .position(|p| p.name == "coords")
            .expect("coords");
        let r = f.rank as usize;
        let (mut inside, mut outside, mut straddle) = (0, 0, 0);
        for inv in 0..count as usize {
            let k = k_port.map_or(0, |p| le(&data[p], inv * 4, 4) as usize);
            let shape = &bound[k].shape;
            let c: Vec<i128> = (0..r)
                .map(|j| coord(&data[c_port], inv * r + j, f.int))
                .collect();
            neg1 += c.contains(&-1) as u32;
            min += c
                .iter()
                .any(|&x| f.int.is_signed_int() && x == -(1i128 << (f.int.bits() - 1)))
                as u32;
            two32 += c.contains(&(1i128 << 32)) as u32;
            two31 += (f.int == ElemType::U32 && c.contains(&(1i128 << 31))) as u32;
            let start = c
                .iter()
                .zip(shape)
                .all(|(&x, &d)| x >= 0 && x < i128::from(d));
            if !start {
                outside += 1;
            } else if c[r - 1] + i128::from(f.len.max(1)) > i128::from(shape[r - 1]) {
                straddle += 1;
            } else {
                inside += 1;
            }
        }
        assert!(
            inside + straddle > 0 && outside > 0,
            "{}: {inside} inside, {straddle} straddling, {outside} outside",
            form.id
        );
        if f.len > 1 && f.access == Access::Read {
            assert!(straddle > 0, "{}: no access straddles the end", form.id);
        }
    }
    assert!(
        neg1 > 1000 && min > 1000 && two32 > 50 && two31 > 50,
        "{neg1} {min} {two32} {two31}"
    );
}

/// Hand-computed: a rank-2 i32 tensor [[1, 2, 3], [4, 5, 6]] read as 3-element arrays with
/// OutOfBoundsValueARM (0xA5A5A5A5 as i32), i32 coordinates.
#[test]
fn hand_computed_rank_2_array_reads() {
    let form = tensors::form(TensorForm {
        access: Access::Read,
        elem: Some(ElemType::I32),
        rank: 2,
        int: ElemType::I32,
        len: 3,
        operands: ops::OUT_OF_BOUNDS_VALUE,
        binding: Binding::Single,
        strided: false,
        dims: vec![2, 3],
    });
    let cases: [((i32, i32), [i32; 3]); 8] = {
        let o = 0xA5A5_A5A5u32 as i32;
        [
            ((0, 0), [1, 2, 3]),
            ((1, 0), [4, 5, 6]),
            ((0, 1), [2, 3, o]),  // straddles the row's end: no wrap to row 1
            ((1, 2), [6, o, o]),  // size − 1
            ((1, 3), [o, o, o]),  // at the size
            ((2, 0), [o, o, o]),  // outermost at the size
            ((0, -1), [o, o, o]), // negative start: outside in every element
            ((-1, 0), [o, o, o]),
        ]
    };
    let mut coords = Vec::new();
    for _ in 0..8 {
        for ((a, b), _) in &cases {
            coords.extend(a.to_le_bytes());
            coords.extend(b.to_le_bytes());
        }
    }
    let tensor: Vec<u8> = (1..=6i32).flat_map(i32::to_le_bytes).collect();
    let data = vec![coords, tensor];
    let c = compile(&form).unwrap_or_else(|e| panic!("{e}"));
    let run = run_engine(&c, &form, &data, 64, true).unwrap_or_else(|e| panic!("{e}"));
    for (i, (_, want)) in cases.iter().enumerate() {
        for (m, w) in want.iter().enumerate() {
            assert_eq!(
                ElemType::I32.bits_at(&run.out, i * 3 + m) as u32 as i32,
                *w,
                "case {i} element {m}"
            );
        }
    }
    check(&form, &data, 64);
}

/// Hand-computed: a rank-8 u16 tensor of shape [1, 2, 1, 1, 2, 1, 1, 2] (element (a..h) =
/// 100 + 4b + 2e + h, packed) read at single elements with u32 coordinates, no operand (outside
/// reads 0), and the size query of every dimension.
#[test]
fn hand_computed_rank_8_reads_and_sizes() {
    let shape = vec![1u64, 2, 1, 1, 2, 1, 1, 2];
    let read = tensors::form(TensorForm {
        access: Access::Read,
        elem: Some(ElemType::U16),
        rank: 8,
        int: ElemType::U32,
        len: 0,
        operands: 0,
        binding: Binding::Single,
        strided: false,
        dims: shape.clone(),
    });
    let tensor: Vec<u8> = (0..8u16).flat_map(|x| (100 + x).to_le_bytes()).collect();
    let cases: [([u32; 8], u16); 5] = [
        ([0, 0, 0, 0, 0, 0, 0, 0], 100),
        ([0, 1, 0, 0, 1, 0, 0, 1], 107),
        ([0, 1, 0, 0, 0, 0, 0, 1], 105),
        ([0, 0, 0, 0, 0, 0, 0, 2], 0), // innermost at the size
        ([0, 0, 1, 0, 0, 0, 0, 0], 0), // a middle dimension at the size
    ];
    let mut coords = Vec::new();
    for i in 0..64 {
        coords.extend(cases[i % 5].0.iter().flat_map(|x| x.to_le_bytes()));
    }
    let data = vec![coords, tensor.clone()];
    let c = compile(&read).unwrap_or_else(|e| panic!("{e}"));
    let run = run_engine(&c, &read, &data, 64, false).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..64 {
        assert_eq!(
            ElemType::U16.bits_at(&run.out, i),
            u64::from(cases[i % 5].1),
            "case {i}"
        );
    }
    check(&read, &data, 64);
    let size = tensors::form(TensorForm {
        access: Access::Size,
        elem: Some(ElemType::U16),
        rank: 8,
        int: ElemType::I64,
        len: 0,
        operands: 0,
        binding: Binding::Single,
        strided: false,
        dims: shape.clone(),
    });
    let c = compile(&size).unwrap_or_else(|e| panic!("{e}"));
    let run = run_engine(&c, &size, &[tensor], 64, true).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..64 * 8 {
        assert_eq!(ElemType::I64.bits_at(&run.out, i), shape[i % 8], "size {i}");
    }
}

/// Hand-computed: an array of 3 bool tensors (element k of shape [2 + k], bytes 0, 1, 0x80,
/// …) read through a per-invocation index with OutOfBoundsValueARM true; the shaped type's
/// read (Shape [2, 2], i8, OOB −91) and size query.
#[test]
fn hand_computed_array_of_tensors_and_shaped_type() {
    let arr = tensors::form(TensorForm {
        access: Access::Read,
        elem: None,
        rank: 1,
        int: ElemType::I16,
        len: 0,
        operands: ops::OUT_OF_BOUNDS_VALUE,
        binding: Binding::Array,
        strided: false,
        dims: vec![2],
    });
    // Element k: shape [2 + k]; bytes [0, 1], [0x80, 0, 0], [0, 0, 7, 0].
    let elems: [&[u8]; 3] = [&[0, 1], &[0x80, 0, 0], &[0, 0, 7, 0]];
    let cases: [(u32, i16, u32); 7] = [
        (0, 0, 0),
        (0, 1, 1),
        (0, 2, 1), // outside element 0 (size 2): the operand, true
        (1, 0, 1), // 0x80 is true
        (1, 2, 0),
        (2, 2, 1),  // 7
        (2, -1, 1), // outside: true
    ];
    let (mut index, mut coords) = (Vec::new(), Vec::new());
    for i in 0..64 {
        let (k, c, _) = cases[i % 7];
        index.extend(k.to_le_bytes());
        coords.extend(c.to_le_bytes());
    }
    let mut data = vec![index, coords];
    data.extend(elems.iter().map(|e| e.to_vec()));
    let c = compile(&arr).unwrap_or_else(|e| panic!("{e}"));
    let run = run_engine(&c, &arr, &data, 64, true).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..64 {
        assert_eq!(
            ElemType::U32.bits_at(&run.out, i),
            u64::from(cases[i % 7].2),
            "case {i}"
        );
    }
    check(&arr, &data, 64);

    let shaped = tensors::form(TensorForm {
        access: Access::Read,
        elem: Some(ElemType::I8),
        rank: 2,
        int: ElemType::U32,
        len: 0,
        operands: ops::OUT_OF_BOUNDS_VALUE,
        binding: Binding::Shaped,
        strided: false,
        dims: vec![2, 2],
    });
    assert!(
        shaped.asm.contains("%shape = OpConstantComposite"),
        "{}",
        shaped.asm
    );
    let cases: [([u32; 2], i8); 4] = [([0, 0], -1), ([1, 1], 4), ([1, 2], -91), ([2, 0], -91)];
    let mut coords = Vec::new();
    for i in 0..64 {
        coords.extend(cases[i % 4].0.iter().flat_map(|x| x.to_le_bytes()));
    }
    let data = vec![coords, vec![0xff, 2, 3, 4]];
    let c = compile(&shaped).unwrap_or_else(|e| panic!("{e}"));
    let run = run_engine(&c, &shaped, &data, 64, false).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..64 {
        assert_eq!(
            ElemType::I8.bits_at(&run.out, i) as u8 as i8,
            cases[i % 4].1,
            "case {i}"
        );
    }
    check(&shaped, &data, 64);
    // A tensor of another shape than the type's is refused by name, never run.
    let wrong = vec![data[0].clone(), vec![0; 6]];
    let mut f = tensor_form(&shaped).clone();
    f.dims = vec![3, 2];
    let other = tensors::form(f);
    let err =
        run_engine(&c, &other, &wrong, 64, true).expect_err("shape [3, 2] against Shape [2, 2]");
    assert!(err.contains("shape") || err.contains("Shape"), "{err}");
}

/// Hand-computed writes read back: a rank-1 f16 write form (slots of 3 elements per
/// invocation), NaN payloads and −0 kept bit for bit, writes outside dropped (read back 0).
#[test]
fn hand_computed_writes_read_back() {
    let form = tensors::form(TensorForm {
        access: Access::Write,
        elem: Some(ElemType::F16),
        rank: 1,
        int: ElemType::I64,
        len: 0,
        operands: ops::NONTEMPORAL,
        binding: Binding::Single,
        strided: false,
        dims: vec![1],
    });
    let f = tensor_form(&form);
    assert_eq!(f.bound(form.output.binding + 1, 64)[0].shape, vec![64 * 3]);
    let size = 64 * 3i64;
    let (mut coords, mut vals) = (Vec::new(), Vec::new());
    let mut want = Vec::new();
    for i in 0..64i64 {
        let (c, v, w): (i64, u16, u16) = match i % 6 {
            0 => (3 * i, 0x7e01, 0x7e01),     // a NaN with a payload
            1 => (3 * i + 2, 0x8000, 0x8000), // −0 at the slot's last element
            2 => (size, 0x3c00, 0),           // at the size: dropped
            3 => (-1, 0x3c00, 0),             // negative: dropped
            4 => (1 << 32, 0x3c00, 0),        // 2^32: not element 0
            _ => (3 * i + 1, 0xfc00, 0xfc00), // −Inf
        };
        coords.extend(c.to_le_bytes());
        vals.extend(v.to_le_bytes());
        want.push(w);
    }
    let data = vec![coords, vals, vec![0x11; (size * 2) as usize]];
    let c = compile(&form).unwrap_or_else(|e| panic!("{e}"));
    let run = run_engine(&c, &form, &data, 64, true).unwrap_or_else(|e| panic!("{e}"));
    for (i, w) in want.iter().enumerate() {
        assert_eq!(
            ElemType::F16.bits_at(&run.out, i),
            u64::from(*w),
            "case {i}"
        );
    }
    check(&form, &data, 64);
}

/// Every form's module names what it is: the operands and types of its id appear in it.
#[test]
fn modules_match_their_ids() {
    for form in forms(&[Ext::Tensors], None) {
        let f = tensor_form(&form);
        let a = &form.asm;
        assert!(a.contains("OpCapability TensorsARM"), "{}", form.id);
        if f.operands & ops::OUT_OF_BOUNDS_VALUE != 0 && f.access == Access::Read {
            let read = a
                .lines()
                .find(|l| l.contains("OpTensorReadARM"))
                .unwrap_or_default();
            assert!(
                read.contains("OutOfBoundsValueARM") && read.contains(" %oob"),
                "{}",
                form.id
            );
        }
        if f.operands & ops::MAKE_ELEMENT_AVAILABLE != 0 {
            assert!(
                a.contains("MakeElementAvailableARM|NonPrivateElementARM"),
                "{}",
                form.id
            );
            assert!(a.contains("OpMemoryModel Logical Vulkan"), "{}", form.id);
        }
        if f.binding == Binding::Array {
            assert!(
                a.contains("StorageTensorArrayNonUniformIndexingARM"),
                "{}",
                form.id
            );
        }
        assert_eq!(
            a.contains("%shape"),
            f.binding == Binding::Shaped,
            "{}",
            form.id
        );
    }
}

/// The tensors after the run are compared too: a changed element of a write form's tensor is
/// FAIL naming the element and the invocation that owns it (its inputs), a changed padding byte
/// is FAIL naming the padding, and booleans compare by truth (1 and 0xff are both true).
#[test]
fn a_changed_tensor_byte_is_fail_naming_the_element_and_its_owner() {
    use spvx_run::conform::Verdict;
    use spvx_run::conform::tensors::judge;
    let mk = |elem, strided| {
        tensors::form(TensorForm {
            access: Access::Write,
            elem,
            rank: 2,
            int: ElemType::U32,
            len: 0,
            operands: 0,
            binding: Binding::Single,
            strided,
            dims: vec![1, 3],
        })
    };
    let form = mk(Some(ElemType::I32), true);
    let data = inputs::inputs(&form, 1, 0, 64);
    let c = compile(&form).unwrap_or_else(|e| panic!("{e}"));
    let exp = run_engine(&c, &form, &data, 64, true).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(exp.tensors.len(), 1);
    assert!(judge::tensors(&form, 0, 64, &data, &exp.tensors, &exp.tensors).is_none());
    // Shape [64, 3], strides [16, 4] (one element of padding per row).
    let mut got = exp.tensors.clone();
    got[0][5 * 16 + 2 * 4] ^= 1;
    match judge::tensors(&form, 0, 64, &data, &exp.tensors, &got) {
        Some(Verdict::Fail(f)) => {
            assert_eq!((f.case, f.invocation, f.mismatches), (5, [5, 0, 0], 1));
            assert!(
                f.inputs[0].contains("tensor 0.3 element (5, 2)"),
                "{:?}",
                f.inputs
            );
            assert!(f.inputs[1].starts_with("coords = ["), "{:?}", f.inputs);
        }
        other => panic!("{other:?}"),
    }
    let mut got = exp.tensors.clone();
    got[0][7 * 16 + 12] ^= 0x80;
    match judge::tensors(&form, 0, 64, &data, &exp.tensors, &got) {
        Some(Verdict::Fail(f)) => {
            assert_eq!(f.case, 7);
            assert!(
                f.inputs[0].contains("padding at byte 124"),
                "{:?}",
                f.inputs
            );
        }
        other => panic!("{other:?}"),
    }
    let form = mk(None, false);
    let data = inputs::inputs(&form, 1, 0, 64);
    let c = compile(&form).unwrap_or_else(|e| panic!("{e}"));
    let exp = run_engine(&c, &form, &data, 64, true).unwrap_or_else(|e| panic!("{e}"));
    let mut got = exp.tensors.clone();
    let at = got[0].iter().position(|&b| b == 1).expect("a true element");
    got[0][at] = 0xff;
    assert!(judge::tensors(&form, 0, 64, &data, &exp.tensors, &got).is_none());
    got[0][at] = 0;
    assert!(judge::tensors(&form, 0, 64, &data, &exp.tensors, &got).is_some());
}

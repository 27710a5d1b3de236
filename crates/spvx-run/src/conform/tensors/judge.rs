//! The tensors of a tensor form after the run, compared with the expected run's: every byte
//! of every bound tensor (padding included), so that a write outside the tensor that lands in
//! another invocation's part, in padding or in a read form's tensor is FAIL even when no read
//! back sees it. Booleans compare by truth (VK_ARM_tensors leaves the byte written for `true`
//! unspecified beyond non-zero); everything else bit for bit.

use super::{Binding, Bound, TensorForm, bound_of, elem_bytes};
use crate::ElemType;
use crate::conform::form::{CHUNK, Form, Kind};
use crate::conform::verdict::{Failure, Verdict};

/// Where byte `at` of a tensor lies: the element's coordinates, or `None` in padding.
pub fn locate(at: u64, b: &Bound, e: u64) -> Option<Vec<u64>> {
    let strides = b
        .strides
        .clone()
        .unwrap_or_else(|| super::packed_strides(&b.shape, e));
    let mut rest = at;
    let mut c = Vec::with_capacity(b.shape.len());
    for (d, s) in b.shape.iter().zip(&strides) {
        let x = rest / s;
        if x >= *d {
            return None;
        }
        c.push(x);
        rest -= x * s;
    }
    (rest == 0).then_some(c)
}

/// The invocation that owns byte `at` of a write form's tensor (the outermost index at rank
/// ≥ 2, the slot at rank 1); 0 for read and size forms, whose tensors nobody writes.
fn owner(f: &TensorForm, at: u64, b: &Bound, e: u64) -> u32 {
    if f.access != super::Access::Write {
        return 0;
    }
    let strides = b
        .strides
        .clone()
        .unwrap_or_else(|| super::packed_strides(&b.shape, e));
    let outer = at / strides[0];
    let inv = if f.rank == 1 { outer / f.slot() } else { outer };
    inv as u32
}

fn show(elem: Option<ElemType>, bits: u64) -> String {
    match elem {
        Some(t) => t.display(bits),
        None => format!("{} ({bits:#04x})", bits != 0),
    }
}

/// The verdict of the tensors of a unit of `count` invocations (chunk `chunk`), `None` when
/// the form is not a tensor form or every tensor is as expected. A FAIL names the tensor, the
/// element (or padding) and its owner invocation's inputs.
pub fn tensors(
    form: &Form,
    chunk: u32,
    count: u32,
    inputs: &[Vec<u8>],
    expected: &[Vec<u8>],
    got: &[Vec<u8>],
) -> Option<Verdict> {
    let Kind::Tensors(f) = &form.kind else {
        return None;
    };
    let e = elem_bytes(f.elem);
    let bound = bound_of(form, count);
    let mut first: Option<(usize, u64)> = None;
    let mut mismatches = 0u64;
    for k in 0..bound.len() {
        let Some(want) = expected.get(k) else {
            continue;
        };
        let have: &[u8] = got.get(k).map_or(&[], Vec::as_slice);
        for at in (0..want.len() as u64).step_by(e as usize) {
            let (i, j) = (at as usize, (at + e) as usize);
            let same = match (want.get(i..j), have.get(i..j)) {
                (Some(w), Some(h)) if f.elem.is_none() => (w[0] != 0) == (h[0] != 0),
                (Some(w), Some(h)) => w == h,
                _ => false,
            };
            if !same {
                mismatches += 1;
                first.get_or_insert((k, at));
            }
        }
    }
    let (k, at) = first?;
    let b = &bound[k];
    let bits = |bytes: &[u8]| {
        bytes
            .get(at as usize..(at + e) as usize)
            .map(|s| s.iter().rev().fold(0u64, |v, &x| (v << 8) | u64::from(x)))
    };
    let inv = owner(f, at, b, e).min(count.saturating_sub(1));
    let place = match locate(at, b, e) {
        Some(c) => format!(
            "element ({})",
            c.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        ),
        None => format!("padding at byte {at}"),
    };
    let array = if f.binding == Binding::Array {
        format!("[{}]", b.index)
    } else {
        String::new()
    };
    let mut described = vec![format!(
        "after the run, tensor 0.{}{array} {place}",
        b.binding
    )];
    for (p, bytes) in form.inputs.iter().zip(inputs) {
        let start = inv as usize * p.per_invocation;
        let vals: Vec<String> = (start..start + p.per_invocation)
            .map(|x| p.elem.display(p.elem.bits_at(bytes, x)))
            .collect();
        described.push(format!("{} = [{}]", p.name, vals.join(", ")));
    }
    Some(Verdict::Fail(Box::new(Failure {
        case: u64::from(chunk) * u64::from(CHUNK) + u64::from(inv),
        chunk,
        invocation: [inv, 0, 0],
        inputs: described,
        expected: expected
            .get(k)
            .and_then(|w| bits(w))
            .map_or_else(|| "nothing".to_string(), |v| show(f.elem, v)),
        got: got.get(k).and_then(|h| bits(h)).map_or_else(
            || "nothing (the run gave no such tensor bytes)".to_string(),
            |v| show(f.elem, v),
        ),
        mismatches,
    })))
}

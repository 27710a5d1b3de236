//! The inputs of one chunk of a tensor form: the ports' bytes (`index`, `coords`, `val`) and
//! then each bound tensor's bytes (random, padding included), all from the chunk's generator.
//!
//! Coordinates reach the edges of each dimension of size n: 0, n − 1, a random index inside,
//! and outside: n, n + 1, n + 7, the type's largest value, for unsigned types 2^(w−1) (negative
//! if misread as signed), for 64-bit types 2^32 and 2^32 + 1 (0 and 1 if truncated to 32 bits),
//! for signed types −1, the type's smallest value and, for array accesses, −(len − 1) (an
//! access that starts outside and would end inside). Array accesses start at n − 1, n − 2
//! (straddling the innermost dimension's end) as often as at other places. The first
//! invocations of a chunk take fixed patterns (all 0; all n − 1; innermost at n; outermost
//! at n; innermost at −1 or the type's largest value); the others are all inside (45 %),
//! one coordinate outside (35 %) or every coordinate from the whole list (20 %).
//!
//! Write forms keep to the part of the tensor the invocation owns (module doc of
//! [`super`]): the outermost coordinate is the invocation index or a value outside the
//! tensor; at rank 1 the access lies inside the invocation's slot, except for the last
//! invocation's, which may straddle the tensor's end.

use super::{Access, Binding, TensorForm, elem_bytes, storage};
use crate::ElemType;
use crate::conform::edges::{int_edges, to_bits};
use crate::conform::form::Form;
use crate::prng::SplitMix64;

/// Values outside a dimension of size `n` that a coordinate of type `t` can hold.
pub fn outside(n: u64, t: ElemType, len: u32) -> Vec<i128> {
    let (lo, hi) = t.int_range().unwrap_or((0, 0));
    let n = i128::from(n);
    let mut v = vec![n, n + 1, n + 7, hi];
    if t.is_signed_int() {
        v.extend([-1, lo]);
        if len > 1 {
            v.push(-(i128::from(len) - 1));
        }
    } else {
        v.push(1i128 << (t.bits() - 1));
    }
    if t.bits() == 64 {
        v.extend([1i128 << 32, (1i128 << 32) + 1]);
    }
    v.retain(|&x| x >= lo && x <= hi && !(0..n).contains(&x));
    v.sort_unstable();
    v.dedup();
    v
}

fn pick(rng: &mut SplitMix64, v: &[i128]) -> i128 {
    if v.is_empty() {
        0
    } else {
        v[(rng.next_u64() % v.len() as u64) as usize]
    }
}

/// A coordinate inside a dimension of size `n`: 0, n − 1, or random; for the innermost
/// dimension of an array access also n − 1 and n − 2 more often.
fn inside(rng: &mut SplitMix64, n: u64, innermost_array: bool) -> i128 {
    let n = i128::from(n);
    match rng.next_u64() % 6 {
        0 => 0,
        1 => n - 1,
        2 if innermost_array => (n - 2).max(0),
        _ => i128::from(rng.next_u64() % n as u64),
    }
}

/// The coordinates of one invocation `inv` of a read (or size) form on a tensor of `shape`.
fn read_coords(rng: &mut SplitMix64, f: &TensorForm, shape: &[u64], inv: u32) -> Vec<i128> {
    let r = shape.len();
    let arr = f.len > 0;
    let out = |rng: &mut SplitMix64, j: usize| pick(rng, &outside(shape[j], f.int, f.len));
    let mut c: Vec<i128> = (0..r)
        .map(|j| inside(rng, shape[j], arr && j == r - 1))
        .collect();
    match inv {
        0 => c.iter_mut().for_each(|x| *x = 0),
        1 => c
            .iter_mut()
            .zip(shape)
            .for_each(|(x, &n)| *x = i128::from(n) - 1),
        2 => c[r - 1] = i128::from(shape[r - 1]),
        3 => c[0] = i128::from(shape[0]),
        4 => {
            c[r - 1] = if f.int.is_signed_int() {
                -1
            } else {
                f.int.int_range().map_or(0, |x| x.1)
            }
        }
        _ => match rng.next_u64() % 20 {
            0..=8 => {}
            9..=15 => {
                let j = (rng.next_u64() % r as u64) as usize;
                c[j] = out(rng, j);
            }
            _ => {
                for (j, x) in c.iter_mut().enumerate() {
                    if rng.next_u64() & 1 == 0 {
                        *x = out(rng, j);
                    }
                }
            }
        },
    }
    c
}

/// The coordinates of invocation `inv` (of `count`) of a write form on a tensor of `shape`,
/// inside the part it owns or outside the tensor.
fn write_coords(
    rng: &mut SplitMix64,
    f: &TensorForm,
    shape: &[u64],
    inv: u32,
    count: u32,
) -> Vec<i128> {
    let r = shape.len();
    let per = i128::from(f.len.max(1));
    if r == 1 {
        let slot = i128::from(f.slot());
        let base = i128::from(inv) * slot;
        let last = inv + 1 == count;
        let roll = rng.next_u64() % 20;
        if roll >= 16 || inv == 2 {
            return vec![pick(rng, &outside(shape[0], f.int, f.len))];
        }
        // Inside the slot: 0..=slot − per; the last invocation up to slot + 1 (straddling
        // the end, or just outside).
        let top = if last { slot + 1 } else { slot - per };
        let off = if inv == 0 || roll == 0 {
            0
        } else if roll == 1 || inv == 1 {
            top
        } else {
            i128::from(rng.next_u64() % (top as u64 + 1))
        };
        return vec![base + off];
    }
    let mut c = read_coords(rng, f, shape, inv);
    // The outermost coordinate: the invocation's own row, or outside the tensor.
    let own = i128::from(inv);
    c[0] = if inv == 3 || rng.next_u64().is_multiple_of(8) {
        pick(rng, &outside(shape[0], f.int, f.len))
    } else {
        own
    };
    c
}

/// Float bit patterns worth reaching: ±0, the smallest and largest subnormals, the smallest
/// normal, 1, the largest finite value, ±Inf, a quiet and a signalling NaN, a negative NaN
/// with a payload.
fn float_specials(t: ElemType) -> Vec<u64> {
    match t {
        ElemType::F16 => vec![
            0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7d00,
            0xfe01,
        ],
        ElemType::F32 => vec![
            0,
            0x8000_0000,
            1,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0x7f7f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fa0_0000,
            0xffc0_0001,
        ],
        _ => vec![
            0,
            0x8000_0000_0000_0000,
            1,
            0x000f_ffff_ffff_ffff,
            0x0010_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0x7fef_ffff_ffff_ffff,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x7ff8_0000_0000_0000,
            0x7ff4_0000_0000_0000,
            0xfff8_0000_0000_0001,
        ],
    }
}

/// An element's bits: random, an edge of its type a quarter of the time; booleans as one
/// byte (0, 1, or another non-zero byte) or, in the `val` buffer, a 32-bit word.
fn element_bits(rng: &mut SplitMix64, e: Option<ElemType>, word: bool) -> u64 {
    let Some(t) = e else {
        return match rng.next_u64() % 4 {
            0 | 1 => 0,
            2 => 1,
            _ if word => 0x8000_0000 | (rng.next_u64() & 0xffff),
            _ => 2 + rng.next_u64() % 254,
        };
    };
    if rng.next_u64().is_multiple_of(4) {
        if t.float_format().is_some() {
            let v = float_specials(t);
            return v[(rng.next_u64() % v.len() as u64) as usize];
        }
        let edges = int_edges(t.bits(), t.is_signed_int());
        return to_bits(pick(rng, &edges), t.bits());
    }
    rng.next_u64() & t.mask()
}

/// The bytes of the ports and then of each tensor for `count` invocations.
pub fn inputs(f: &TensorForm, form: &Form, rng: &mut SplitMix64, count: u32) -> Vec<Vec<u8>> {
    let bound = f.bound(super::tensor_binding(form), count);
    let mut index = Vec::new();
    let mut coords = Vec::new();
    let mut val = Vec::new();
    for inv in 0..count {
        let k = if f.binding == Binding::Array {
            (rng.next_u64() % u64::from(super::ARRAY_TENSORS)) as u32
        } else {
            0
        };
        ElemType::U32.push_bytes(u64::from(k), &mut index);
        let shape = &bound[k as usize].shape;
        let c = match f.access {
            Access::Read => read_coords(rng, f, shape, inv),
            Access::Write => write_coords(rng, f, shape, inv, count),
            Access::Size => Vec::new(),
        };
        for x in c {
            f.int.push_bytes(to_bits(x, f.int.bits()), &mut coords);
        }
        if f.access == Access::Write {
            for _ in 0..f.per_access() {
                storage(f.elem).push_bytes(element_bits(rng, f.elem, true), &mut val);
            }
        }
    }
    let mut out = Vec::new();
    if f.binding == Binding::Array {
        out.push(index);
    }
    if f.access != Access::Size {
        out.push(coords);
    }
    if f.access == Access::Write {
        out.push(val);
    }
    let eb = elem_bytes(f.elem) as usize;
    for b in &bound {
        let mut data = Vec::with_capacity(b.bytes);
        while data.len() < b.bytes {
            let bits = element_bits(rng, f.elem, false);
            data.extend_from_slice(&bits.to_le_bytes()[..eb]);
        }
        data.truncate(b.bytes);
        out.push(data);
    }
    out
}

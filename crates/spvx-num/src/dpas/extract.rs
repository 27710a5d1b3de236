//! Extraction of elements from packed 32-bit channels: element `k` of precision `p` occupies
//! bits `[k·bits(p), (k+1)·bits(p))`, element 0 in the least significant bits; signed integer
//! precisions are sign-extended, unsigned ones zero-extended.

use super::{DpasError, Precision};

/// One float element: its precision and its bit pattern (low `bits()` bits; for tf32 the whole
/// 32-bit fp32-layout container).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FloatElement {
    /// A float precision (bf16, fp16, tf32, bf8, hf8).
    pub precision: Precision,
    /// The element's bit pattern.
    pub bits: u32,
}

/// A run of consecutive elements inside one 32-bit channel: elements `first`, `first + 1`, …
/// of `dword` read with `precision`. This is one operand of a DPAS dot step
/// (`Src1.R[m].DW[i].n[OPS-1:0]` or `Src2.k[OPS-1:0]` in DPAS.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedRun {
    /// The 32-bit channel.
    pub dword: u32,
    /// Precision of its elements.
    pub precision: Precision,
    /// Index of the first element of the run.
    pub first: u32,
}

/// The largest OPS_PER_CHAN (sub-byte integer DPAS).
pub(super) const MAX_OPS: usize = 8;

fn check_index(precision: Precision, index: u32) -> Result<(), DpasError> {
    if precision.is_df() {
        return Err(DpasError::WideElement {
            op: "element extraction",
        });
    }
    let per_channel = precision.per_channel();
    if index >= per_channel {
        return Err(DpasError::ElementOutOfRange {
            precision,
            index,
            per_channel,
        });
    }
    Ok(())
}

/// Raw bits of element `index` (no range check).
fn raw(dword: u32, precision: Precision, index: u32) -> u32 {
    let bits = precision.bits();
    if bits == 32 {
        dword
    } else {
        (dword >> (index * bits)) & ((1u32 << bits) - 1)
    }
}

/// Integer element `index` of a channel, sign-extended for s1/s2/s4/s8 and zero-extended for
/// u1/u2/u4/u8.
pub fn extract_int(dword: u32, precision: Precision, index: u32) -> Result<i32, DpasError> {
    if !precision.is_integer() {
        return Err(DpasError::WrongPrecisionKind {
            op: "extract_int",
            expected: "integer",
            precision,
        });
    }
    check_index(precision, index)?;
    let v = raw(dword, precision, index);
    Ok(if precision.is_signed_integer() {
        let shift = 32 - precision.bits();
        ((v << shift) as i32) >> shift
    } else {
        v as i32
    })
}

/// Float element `index` of a channel (bf16/fp16: 2 per channel; bf8/hf8: 4; tf32: 1, the
/// whole container).
pub fn extract_float(
    dword: u32,
    precision: Precision,
    index: u32,
) -> Result<FloatElement, DpasError> {
    if precision.is_integer() {
        return Err(DpasError::WrongPrecisionKind {
            op: "extract_float",
            expected: "float",
            precision,
        });
    }
    check_index(precision, index)?;
    Ok(FloatElement {
        precision,
        bits: raw(dword, precision, index),
    })
}

impl PackedRun {
    /// A run starting at element `first`.
    pub fn new(dword: u32, precision: Precision, first: u32) -> PackedRun {
        PackedRun {
            dword,
            precision,
            first,
        }
    }

    /// Checks that `count` elements from `first` lie in the channel.
    pub(super) fn check(&self, count: u32) -> Result<(), DpasError> {
        let last = self.first.saturating_add(count.max(1) - 1);
        check_index(self.precision, last)
    }

    /// The first `count` (at most [`MAX_OPS`]) integer elements of the run, in a fixed array
    /// (no allocation; entries past `count` are 0).
    pub(super) fn ints(&self, count: u32) -> Result<[i32; MAX_OPS], DpasError> {
        self.check(count)?;
        let mut out = [0; MAX_OPS];
        for (j, slot) in out.iter_mut().enumerate().take(count as usize) {
            *slot = extract_int(self.dword, self.precision, self.first + j as u32)?;
        }
        Ok(out)
    }

    /// The first `count` (at most [`MAX_OPS`]) float elements of the run, in a fixed array.
    pub(super) fn floats(&self, count: u32) -> Result<[FloatElement; MAX_OPS], DpasError> {
        self.check(count)?;
        let mut out = [FloatElement {
            precision: self.precision,
            bits: 0,
        }; MAX_OPS];
        for (j, slot) in out.iter_mut().enumerate().take(count as usize) {
            *slot = extract_float(self.dword, self.precision, self.first + j as u32)?;
        }
        Ok(out)
    }
}

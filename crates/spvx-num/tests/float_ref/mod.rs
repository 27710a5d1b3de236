//! Independent reference for the float tests: its own format table, its own decoder (to f64),
//! and rounding by looking up neighbours in a sorted table of every finite value of the target
//! format (for formats up to 19 significant bits: tf32 and narrower), or by the hardware
//! f64 → f32 conversion (Rust's `as f32`, round-to-nearest-even) for f32 targets.
//! Nothing here calls the code under test.
#![allow(dead_code)]

/// A format as the tests describe it, written from the format tables of
/// reference/mixedfloat.md §4.1 (not from the library).
#[derive(Clone, Copy, Debug)]
pub struct RefFormat {
    pub name: &'static str,
    pub exp_bits: u32,
    pub man_bits: u32,
    pub bias: i32,
    /// E4M3 ("FN"): no infinity, only S.1111.111 is NaN.
    pub finite_nan_only: bool,
    pub storage_bits: u32,
    pub pad: u32,
}

pub const F16: RefFormat = RefFormat {
    name: "f16",
    exp_bits: 5,
    man_bits: 10,
    bias: 15,
    finite_nan_only: false,
    storage_bits: 16,
    pad: 0,
};
pub const BF16: RefFormat = RefFormat {
    name: "bf16",
    exp_bits: 8,
    man_bits: 7,
    bias: 127,
    finite_nan_only: false,
    storage_bits: 16,
    pad: 0,
};
pub const E4M3: RefFormat = RefFormat {
    name: "e4m3",
    exp_bits: 4,
    man_bits: 3,
    bias: 7,
    finite_nan_only: true,
    storage_bits: 8,
    pad: 0,
};
pub const E5M2: RefFormat = RefFormat {
    name: "e5m2",
    exp_bits: 5,
    man_bits: 2,
    bias: 15,
    finite_nan_only: false,
    storage_bits: 8,
    pad: 0,
};
pub const TF32: RefFormat = RefFormat {
    name: "tf32",
    exp_bits: 8,
    man_bits: 10,
    bias: 127,
    finite_nan_only: false,
    storage_bits: 32,
    pad: 13,
};
pub const F32: RefFormat = RefFormat {
    name: "f32",
    exp_bits: 8,
    man_bits: 23,
    bias: 127,
    finite_nan_only: false,
    storage_bits: 32,
    pad: 0,
};
pub const F64: RefFormat = RefFormat {
    name: "f64",
    exp_bits: 11,
    man_bits: 52,
    bias: 1023,
    finite_nan_only: false,
    storage_bits: 64,
    pad: 0,
};

pub const ALL: [RefFormat; 7] = [E4M3, E5M2, F16, BF16, TF32, F32, F64];

/// A reference value: NaN (sign, fraction field), infinity (sign) or a finite f64 with sign
/// (zero sign kept by the f64).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RefVal {
    Nan { neg: bool, frac: u64 },
    Inf { neg: bool },
    Fin(f64),
}

impl RefFormat {
    pub fn count_patterns(&self) -> u64 {
        1u64 << (1 + self.exp_bits + self.man_bits)
    }
    /// The storage pattern of the i-th encoding (sign, exponent, fraction packed).
    pub fn pattern(&self, i: u64) -> u64 {
        i << self.pad
    }
    pub fn decode(&self, bits: u64) -> RefVal {
        if self.storage_bits == 64 {
            let x = f64::from_bits(bits);
            if x.is_nan() {
                return RefVal::Nan {
                    neg: bits >> 63 == 1,
                    frac: bits & ((1 << 52) - 1),
                };
            }
            return if x.is_infinite() {
                RefVal::Inf { neg: x < 0.0 }
            } else {
                RefVal::Fin(x)
            };
        }
        let b = bits >> self.pad;
        let frac = b & ((1u64 << self.man_bits) - 1);
        let exp = (b >> self.man_bits) & ((1u64 << self.exp_bits) - 1);
        let neg = (b >> (self.man_bits + self.exp_bits)) & 1 == 1;
        let top = (1u64 << self.exp_bits) - 1;
        if self.finite_nan_only {
            if exp == top && frac == (1 << self.man_bits) - 1 {
                return RefVal::Nan { neg, frac };
            }
        } else if exp == top {
            return if frac == 0 {
                RefVal::Inf { neg }
            } else {
                RefVal::Nan { neg, frac }
            };
        }
        let mag = if exp == 0 {
            frac as f64 * 2f64.powi(1 - self.bias - self.man_bits as i32)
        } else {
            ((1u64 << self.man_bits) + frac) as f64
                * 2f64.powi(exp as i32 - self.bias - self.man_bits as i32)
        };
        RefVal::Fin(if neg { -mag } else { mag })
    }
    pub fn sign_bit(&self) -> u64 {
        1u64 << (self.storage_bits - 1)
    }
    /// Largest finite pattern (positive).
    pub fn max_pattern(&self) -> u64 {
        let top = (1u64 << self.exp_bits) - 1;
        let (e, f) = if self.finite_nan_only {
            (top, (1u64 << self.man_bits) - 2)
        } else {
            (top - 1, (1u64 << self.man_bits) - 1)
        };
        ((e << self.man_bits) | f) << self.pad
    }
    pub fn inf_pattern(&self) -> Option<u64> {
        if self.finite_nan_only {
            None
        } else {
            Some(((1u64 << self.exp_bits) - 1) << self.man_bits << self.pad)
        }
    }
    /// Expected NaN when converting a NaN (sign kept, payload's top bits kept, quiet bit set).
    pub fn nan_from(&self, neg: bool, payload_left_aligned: u64) -> u64 {
        let sign = if neg { self.sign_bit() } else { 0 };
        let all = (1u64 << (self.exp_bits + self.man_bits)) - 1;
        if self.finite_nan_only {
            return sign | (all << self.pad);
        }
        let quiet = 1u64 << (self.man_bits - 1);
        let frac = (payload_left_aligned >> (64 - self.man_bits)) | quiet;
        sign | ((((1u64 << self.exp_bits) - 1) << self.man_bits | frac) << self.pad)
    }
}

/// Sorted magnitudes of all non-negative finite values (index = pattern index, monotone).
pub struct Table {
    pub fmt: RefFormat,
    pub values: Vec<f64>,
    /// The value one ulp above the max finite (virtual; marks overflow).
    pub beyond: f64,
}

impl Table {
    pub fn new(fmt: RefFormat) -> Table {
        let max_index = fmt.max_pattern() >> fmt.pad;
        let values: Vec<f64> = (0..=max_index)
            .map(|i| match fmt.decode(fmt.pattern(i)) {
                RefVal::Fin(x) => x,
                other => panic!("non-finite below max in table: {other:?}"),
            })
            .collect();
        for w in values.windows(2) {
            assert!(w[0] < w[1], "table not increasing");
        }
        let n = values.len();
        let beyond = 2.0 * values[n - 1] - values[n - 2];
        Table {
            fmt,
            values,
            beyond,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Rne,
    Rtz,
    Rtp,
    Rtn,
}
pub const MODES: [Mode; 4] = [Mode::Rne, Mode::Rtz, Mode::Rtp, Mode::Rtn];

/// Neighbour lookup for a finite magnitude `m` ≥ 0: (index of lo, lo is exact, position of m
/// relative to the midpoint of lo and the next value: -1 below, 0 at, 1 above).
pub fn neighbours(t: &Table, m: f64) -> (usize, bool, i32) {
    // Largest index with values[i] <= m (or the last if m is beyond max).
    let i = t.values.partition_point(|&v| v <= m) - 1;
    let lo = t.values[i];
    if lo == m {
        return (i, true, -1);
    }
    let hi = if i + 1 < t.values.len() {
        t.values[i + 1]
    } else {
        t.beyond
    };
    let mid = (lo + hi) / 2.0;
    let pos = if m < mid {
        -1
    } else if m == mid {
        0
    } else {
        1
    };
    (i, false, pos)
}

/// Expected result of rounding finite `x` into the table's format.
pub fn expected_finite(t: &Table, x: f64, mode: Mode, sat: bool) -> u64 {
    let f = t.fmt;
    let neg = x.is_sign_negative();
    let sign = if neg { f.sign_bit() } else { 0 };
    let (i, exact, pos) = neighbours(t, x.abs());
    let up = if exact {
        false
    } else {
        match mode {
            Mode::Rne => pos > 0 || (pos == 0 && i % 2 == 1),
            Mode::Rtz => false,
            Mode::Rtp => !neg,
            Mode::Rtn => neg,
        }
    };
    let idx = if up { i + 1 } else { i };
    if idx >= t.values.len() {
        // Overflow.
        if sat {
            return sign | f.max_pattern();
        }
        return match f.inf_pattern() {
            Some(inf) => sign | inf,
            None => f.nan_from(neg, 0),
        };
    }
    sign | f.pattern(idx as u64)
}

/// Expected result of converting a reference value into the table's format.
pub fn expected(t: &Table, v: RefVal, src: RefFormat, mode: Mode, sat: bool) -> u64 {
    let f = t.fmt;
    match v {
        RefVal::Nan { neg, frac } => f.nan_from(neg, frac << (64 - src.man_bits)),
        RefVal::Inf { neg } => {
            let sign = if neg { f.sign_bit() } else { 0 };
            if sat {
                sign | f.max_pattern()
            } else {
                match f.inf_pattern() {
                    Some(inf) => sign | inf,
                    None => f.nan_from(neg, 0),
                }
            }
        }
        RefVal::Fin(x) => expected_finite(t, x, mode, sat),
    }
}

/// Expected f64 → f32 rounding using the hardware conversion (`as f32` is RNE) and neighbours.
pub fn expected_f32(x: f64, mode: Mode, sat: bool) -> u32 {
    if x.is_nan() {
        let bits = x.to_bits();
        return F32.nan_from(bits >> 63 == 1, (bits & ((1 << 52) - 1)) << 12) as u32;
    }
    let neg = x.is_sign_negative();
    if x.is_infinite() {
        return if sat {
            (if neg { -f32::MAX } else { f32::MAX }).to_bits()
        } else {
            (x as f32).to_bits()
        };
    }
    let r = x as f32;
    if r as f64 == x {
        return r.to_bits();
    }
    let m = x.abs();
    let ra = r.abs();
    // Magnitude neighbours lo < m < hi (hi may be infinity = overflow).
    let (lo, hi) = if (ra as f64) > m {
        (f32::from_bits(ra.to_bits() - 1), ra)
    } else {
        (ra, f32::from_bits(ra.to_bits() + 1))
    };
    let pick_hi = match mode {
        Mode::Rne => ra == hi,
        Mode::Rtz => false,
        Mode::Rtp => !neg,
        Mode::Rtn => neg,
    };
    let mut res = if pick_hi { hi } else { lo };
    if res.is_infinite() && sat {
        res = f32::MAX;
    }
    if neg { (-res).to_bits() } else { res.to_bits() }
}

/// Expected conversion result for any target: tables for tf32 and narrower, the hardware
/// conversion for f32, the value itself for f64 (every source value is an f64).
pub struct Oracle {
    tables: Vec<Table>,
}

impl Oracle {
    pub fn new() -> Oracle {
        Oracle {
            tables: [E4M3, E5M2, F16, BF16, TF32]
                .into_iter()
                .map(Table::new)
                .collect(),
        }
    }
    pub fn expected(
        &self,
        src: RefFormat,
        bits: u64,
        dst: RefFormat,
        mode: Mode,
        sat: bool,
    ) -> u64 {
        let v = src.decode(bits);
        if let Some(t) = self.tables.iter().find(|t| t.fmt.name == dst.name) {
            return expected(t, v, src, mode, sat);
        }
        match (dst.name, v) {
            (_, RefVal::Nan { neg, frac }) => dst.nan_from(neg, frac << (64 - src.man_bits)),
            ("f32", RefVal::Inf { neg }) => expected_f32(
                if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                mode,
                sat,
            ) as u64,
            ("f32", RefVal::Fin(x)) => expected_f32(x, mode, sat) as u64,
            ("f64", RefVal::Inf { neg }) => {
                let r = if sat { f64::MAX } else { f64::INFINITY };
                (if neg { -r } else { r }).to_bits()
            }
            ("f64", RefVal::Fin(x)) => x.to_bits(),
            _ => panic!("no oracle for {}", dst.name),
        }
    }
}

impl Default for Oracle {
    fn default() -> Self {
        Self::new()
    }
}

/// The library's format and mode for a reference format and mode.
pub fn lib_format(f: RefFormat) -> spvx_num::float::Format {
    f.name
        .parse()
        .expect("reference format names are library names")
}
pub fn lib_mode(m: Mode) -> spvx_num::float::RoundingMode {
    use spvx_num::float::RoundingMode as R;
    match m {
        Mode::Rne => R::NearestEven,
        Mode::Rtz => R::TowardZero,
        Mode::Rtp => R::TowardPositive,
        Mode::Rtn => R::TowardNegative,
    }
}

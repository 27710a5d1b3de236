//! Shared test helpers: a deterministic generator and matrix builders. No arithmetic of the
//! code under test is used here.
#![allow(dead_code)]

use spvx_dpas::isa::ExecOptions;
use spvx_dpas::matrix::{AccMatrix, ElementMatrix, MatmulSpec};
use spvx_dpas::{DataType, Platform, Precision};

/// xorshift64* generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
}

pub const INT_PRECISIONS: [Precision; 8] = [
    Precision::U1,
    Precision::S1,
    Precision::U2,
    Precision::S2,
    Precision::U4,
    Precision::S4,
    Precision::U8,
    Precision::S8,
];

/// The value range of an integer precision, from its definition (DPAS.md table).
pub fn range_of(p: Precision) -> (i64, i64) {
    match p {
        Precision::U1 => (0, 1),
        Precision::S1 => (-1, 0),
        Precision::U2 => (0, 3),
        Precision::S2 => (-2, 1),
        Precision::U4 => (0, 15),
        Precision::S4 => (-8, 7),
        Precision::U8 => (0, 255),
        Precision::S8 => (-128, 127),
        _ => panic!("not an integer precision"),
    }
}

pub fn spec(platform: Platform, a: Precision, b: Precision, dst: DataType) -> MatmulSpec {
    MatmulSpec {
        platform,
        a,
        b,
        dst,
        options: ExecOptions::default(),
    }
}

pub fn int_matrix(
    name: &'static str,
    rows: usize,
    cols: usize,
    p: Precision,
    v: &[i64],
) -> ElementMatrix {
    let v: Vec<i32> = v.iter().map(|&x| x as i32).collect();
    ElementMatrix::from_ints(name, rows, cols, p, &v).unwrap()
}

pub fn acc(rows: usize, cols: usize, ty: DataType, bits: Vec<u32>) -> AccMatrix {
    AccMatrix::from_bits("C", rows, cols, ty, bits).unwrap()
}

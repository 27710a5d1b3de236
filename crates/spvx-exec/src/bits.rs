//! Bit helpers shared by the compiler, the instruction set, the interpreter and the JIT:
//! masks of the low bits of a register and sign extension of a narrow pattern.

/// The low `bits` bits set.
#[inline]
pub fn low_bits(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The `bits`-bit pattern `v` sign-extended to i64.
#[inline]
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

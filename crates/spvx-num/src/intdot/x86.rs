//! x86-64 SIMD kernels of the packed 4×8 slice functions (32-bit results): AVX2, AVX-VNNI and
//! AVX-512 VNNI, one file each. Each kernel handles whole vectors and leaves the tail to the
//! portable kernel. The callers in `slice.rs` check the slice lengths and detect the CPU
//! features first; the only `unsafe` operations are those entry points and the unaligned
//! loads/stores, whose pointers stay within the slices (`i + LANES <= len`).
//!
//! How each kind is computed exactly with `vpdpbusd` (VNNI: unsigned bytes of the first source
//! times signed bytes of the second, groups of four summed into i32 without overflow):
//! - Mixed (Vector 1 signed, Vector 2 unsigned): vpdpbusd(b, a).
//! - Signed: a·b = (a+128)·b − 128·b, and a+128 is `a XOR 0x80` read unsigned.
//! - Unsigned: a·b = a·(b−128) + 128·a, and b−128 is `b XOR 0x80` read signed.
//! - AccSat Mixed uses `vpdpbusds` (one saturation of acc + the exact four-product sum); the
//!   other kinds add the exact dot product to acc with a saturating 32-bit add.

/// Calls `$loop` with `kind` as a constant in each arm, so that the inlined loop is specialised
/// per kind (no per-vector branch on the kind).
macro_rules! dispatch_kind {
    ($loop:ident, $kind:expr, $($arg:expr),*) => {
        match $kind {
            // SAFETY (all arms): forwarded from the caller's contract.
            DotKind::Signed => unsafe { $loop(DotKind::Signed, $($arg),*) },
            DotKind::Unsigned => unsafe { $loop(DotKind::Unsigned, $($arg),*) },
            DotKind::Mixed => unsafe { $loop(DotKind::Mixed, $($arg),*) },
        }
    };
}

pub(super) mod avx2;
pub(super) mod avx512;
pub(super) mod avxvnni;

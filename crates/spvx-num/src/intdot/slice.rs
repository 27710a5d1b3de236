//! Packed 4×8 dot products with 32-bit results over slices: backend selection (runtime CPU
//! feature detection), argument checks, and the typed convenience entry points.
//!
//! With 8-bit components and a 32-bit result no product or partial sum can overflow
//! (|R| ≤ 4·255·255 < 2^31), so these forms never hit the AccSat undefined case.

use std::fmt;

use super::{DotKind, IntDotError, portable};

/// Which implementation runs the slice kernels. All produce identical results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Plain Rust, any CPU.
    Portable,
    /// x86-64 AVX2 (byte widening + `vpmaddwd`), 8 words per step.
    Avx2,
    /// x86-64 AVX-VNNI (256-bit `vpdpbusd` / `vpdpbusds`), 8 words per step.
    AvxVnni,
    /// x86-64 AVX-512 VNNI (`vpdpbusd` / `vpdpbusds`), 16 words per step.
    Avx512Vnni,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::AvxVnni => "avx-vnni",
            Backend::Avx512Vnni => "avx512-vnni",
        })
    }
}

impl Backend {
    /// Every backend, fastest last.
    pub const ALL: [Backend; 4] = [
        Backend::Portable,
        Backend::Avx2,
        Backend::AvxVnni,
        Backend::Avx512Vnni,
    ];

    /// Whether this CPU (and build target) can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Backend::AvxVnni => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("avxvnni")
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Vnni => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vnni")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The fastest available backend.
    pub fn best() -> Backend {
        Backend::ALL
            .into_iter()
            .rev()
            .find(|b| b.is_available())
            .unwrap_or(Backend::Portable)
    }
}

fn check_len(name: &'static str, len: usize, expected: usize) -> Result<(), IntDotError> {
    if len != expected {
        return Err(IntDotError::SliceLength {
            name,
            len,
            expected,
        });
    }
    Ok(())
}

/// Plain packed 4×8 dot products (OpSDot/OpUDot/OpSUDot with PackedVectorFormat4x8Bit and a
/// 32-bit result): `out[i]` = the 32-bit pattern of dot(`a[i]`, `b[i]`). All slices must have
/// the same length.
pub fn packed4x8_slice(
    backend: Backend,
    kind: DotKind,
    a: &[u32],
    b: &[u32],
    out: &mut [u32],
) -> Result<(), IntDotError> {
    check_len("a", a.len(), out.len())?;
    check_len("b", b.len(), out.len())?;
    match backend {
        Backend::Portable => portable::plain(kind, a, b, out),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 if backend.is_available() => {
            // SAFETY: AVX2 support was just detected at run time.
            unsafe { super::x86::avx2::plain(kind, a, b, out) }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::AvxVnni if backend.is_available() => {
            // SAFETY: AVX2 and AVX-VNNI support was just detected at run time.
            unsafe { super::x86::avxvnni::plain(kind, a, b, out) }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512Vnni if backend.is_available() => {
            // SAFETY: AVX-512F and AVX-512 VNNI support was just detected at run time.
            unsafe { super::x86::avx512::plain(kind, a, b, out) }
        }
        _ => return Err(IntDotError::BackendUnavailable(backend)),
    }
    Ok(())
}

/// Saturating-accumulate packed 4×8 dot products (the AccSat forms with a 32-bit result):
/// `out[i]` = saturate(dot(`a[i]`, `b[i]`) + `acc[i]`), signed saturation for
/// [`DotKind::Signed`]/[`DotKind::Mixed`] (patterns of `i32`), unsigned for
/// [`DotKind::Unsigned`]. All slices must have the same length.
pub fn packed4x8_acc_sat_slice(
    backend: Backend,
    kind: DotKind,
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    out: &mut [u32],
) -> Result<(), IntDotError> {
    check_len("a", a.len(), out.len())?;
    check_len("b", b.len(), out.len())?;
    check_len("acc", acc.len(), out.len())?;
    match backend {
        Backend::Portable => portable::accumulate(kind, a, b, acc, out),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 if backend.is_available() => {
            // SAFETY: AVX2 support was just detected at run time.
            unsafe { super::x86::avx2::accumulate(kind, a, b, acc, out) }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::AvxVnni if backend.is_available() => {
            // SAFETY: AVX2 and AVX-VNNI support was just detected at run time.
            unsafe { super::x86::avxvnni::accumulate(kind, a, b, acc, out) }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512Vnni if backend.is_available() => {
            // SAFETY: AVX-512F and AVX-512 VNNI support was just detected at run time.
            unsafe { super::x86::avx512::accumulate(kind, a, b, acc, out) }
        }
        _ => return Err(IntDotError::BackendUnavailable(backend)),
    }
    Ok(())
}

fn as_patterns(values: &[i32]) -> &[u32] {
    // SAFETY: i32 and u32 have the same size and alignment and every bit pattern is valid for
    // both; the returned slice borrows `values` for the same lifetime.
    unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u32>(), values.len()) }
}

fn as_patterns_mut(values: &mut [i32]) -> &mut [u32] {
    // SAFETY: as in `as_patterns`; the exclusive borrow is carried over.
    unsafe { std::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<u32>(), values.len()) }
}

/// OpSDot (packed 4×8, 32-bit result) over slices, on the fastest available backend.
pub fn sdot4x8_slice(a: &[u32], b: &[u32], out: &mut [i32]) -> Result<(), IntDotError> {
    packed4x8_slice(Backend::best(), DotKind::Signed, a, b, as_patterns_mut(out))
}

/// OpUDot (packed 4×8, 32-bit result) over slices, on the fastest available backend.
pub fn udot4x8_slice(a: &[u32], b: &[u32], out: &mut [u32]) -> Result<(), IntDotError> {
    packed4x8_slice(Backend::best(), DotKind::Unsigned, a, b, out)
}

/// OpSUDot (packed 4×8, 32-bit result; `a` signed, `b` unsigned) over slices.
pub fn sudot4x8_slice(a: &[u32], b: &[u32], out: &mut [i32]) -> Result<(), IntDotError> {
    packed4x8_slice(Backend::best(), DotKind::Mixed, a, b, as_patterns_mut(out))
}

/// OpSDotAccSat (packed 4×8, 32-bit result) over slices, on the fastest available backend.
pub fn sdot4x8_acc_sat_slice(
    a: &[u32],
    b: &[u32],
    acc: &[i32],
    out: &mut [i32],
) -> Result<(), IntDotError> {
    let acc = as_patterns(acc);
    packed4x8_acc_sat_slice(
        Backend::best(),
        DotKind::Signed,
        a,
        b,
        acc,
        as_patterns_mut(out),
    )
}

/// OpUDotAccSat (packed 4×8, 32-bit result) over slices, on the fastest available backend.
pub fn udot4x8_acc_sat_slice(
    a: &[u32],
    b: &[u32],
    acc: &[u32],
    out: &mut [u32],
) -> Result<(), IntDotError> {
    packed4x8_acc_sat_slice(Backend::best(), DotKind::Unsigned, a, b, acc, out)
}

/// OpSUDotAccSat (packed 4×8, 32-bit result; `a` signed, `b` unsigned) over slices.
pub fn sudot4x8_acc_sat_slice(
    a: &[u32],
    b: &[u32],
    acc: &[i32],
    out: &mut [i32],
) -> Result<(), IntDotError> {
    let acc = as_patterns(acc);
    packed4x8_acc_sat_slice(
        Backend::best(),
        DotKind::Mixed,
        a,
        b,
        acc,
        as_patterns_mut(out),
    )
}

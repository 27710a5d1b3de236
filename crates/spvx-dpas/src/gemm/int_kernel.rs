//! Integer GEMM micro-kernels: an MR × NR block of 32-bit sums of u8 × s8 products over packed
//! panels (A: per k-group of 4, MR dwords each holding 4 bytes of one row; B: per k-group, NR
//! columns × 4 bytes). Sums wrap modulo 2^32, as `vpdpbusd` does.

/// Rows of a micro-kernel block.
pub(super) const MR: usize = 6;
/// Columns of a micro-kernel block (4 × 16 lanes).
pub(super) const NR: usize = 64;

/// A micro-kernel implementation. All give identical results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IntKernel {
    /// Plain Rust (auto-vectorised), any CPU.
    Portable,
    /// x86-64 AVX-512 VNNI (`vpdpbusd` on zmm registers).
    Avx512Vnni,
}

impl IntKernel {
    /// Every kernel, fastest last.
    pub const ALL: [IntKernel; 2] = [IntKernel::Portable, IntKernel::Avx512Vnni];

    /// Whether this CPU can run the kernel.
    pub fn is_available(self) -> bool {
        match self {
            IntKernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            IntKernel::Avx512Vnni => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vnni")
            }
            #[cfg(not(target_arch = "x86_64"))]
            IntKernel::Avx512Vnni => false,
        }
    }

    /// The fastest available kernel.
    pub fn best() -> IntKernel {
        IntKernel::ALL
            .into_iter()
            .rev()
            .find(|k| k.is_available())
            .unwrap_or(IntKernel::Portable)
    }

    /// Runs the kernel: `out[r][c] += Σ_g Σ_t a[g·MR + r].byte(t) · (b[(g·NR + c)·4 + t] as i8)`
    /// (wrapping), over `kg` k-groups. Slices shorter than `kg` groups are an internal error
    /// and only cut the sum short in release builds.
    pub(super) fn run(self, a: &[u32], b: &[u8], kg: usize, out: &mut [[i32; NR]; MR]) {
        let kg = kg.min(a.len() / MR).min(b.len() / (NR * 4));
        match self {
            #[cfg(target_arch = "x86_64")]
            IntKernel::Avx512Vnni if self.is_available() => {
                // SAFETY: AVX-512F and AVX-512 VNNI were detected at run time; `kg` groups fit
                // in both slices (clamped above).
                unsafe { avx512::kernel(a, b, kg, out) }
            }
            _ => portable(a, b, kg, out),
        }
    }
}

impl std::fmt::Display for IntKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            IntKernel::Portable => "portable",
            IntKernel::Avx512Vnni => "avx512-vnni",
        })
    }
}

fn portable(a: &[u32], b: &[u8], kg: usize, out: &mut [[i32; NR]; MR]) {
    for g in 0..kg {
        let bg = &b[g * NR * 4..(g + 1) * NR * 4];
        for (r, row) in out.iter_mut().enumerate() {
            let av = a[g * MR + r].to_le_bytes();
            for (c, o) in row.iter_mut().enumerate() {
                let bc = &bg[c * 4..c * 4 + 4];
                let mut s = 0i32;
                for t in 0..4 {
                    s += i32::from(av[t]) * i32::from(bc[t] as i8);
                }
                *o = o.wrapping_add(s);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{MR, NR};
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 VNNI; `a` must hold `kg·MR` dwords and `b`
    /// `kg·NR·4` bytes.
    #[target_feature(enable = "avx512f,avx512vnni")]
    pub(super) unsafe fn kernel(a: &[u32], b: &[u8], kg: usize, out: &mut [[i32; NR]; MR]) {
        debug_assert!(a.len() >= kg * MR && b.len() >= kg * NR * 4);
        const Q: usize = NR / 16;
        let mut acc = [[_mm512_setzero_si512(); Q]; MR];
        for (row, src) in acc.iter_mut().zip(out.iter()) {
            for (q, v) in row.iter_mut().enumerate() {
                // SAFETY: src has NR i32s; lanes q·16 .. q·16 + 16 are in bounds.
                *v = unsafe { _mm512_loadu_si512(src.as_ptr().add(q * 16).cast()) };
            }
        }
        let ap = a.as_ptr();
        let bp = b.as_ptr();
        for g in 0..kg {
            // SAFETY: g < kg, so bytes g·NR·4 .. (g + 1)·NR·4 of `b` and dwords g·MR .. g·MR + MR
            // of `a` are in bounds (caller's contract).
            unsafe {
                let bg = bp.add(g * NR * 4);
                let mut bv = [_mm512_setzero_si512(); Q];
                for (q, v) in bv.iter_mut().enumerate() {
                    *v = _mm512_loadu_si512(bg.add(q * 64).cast());
                }
                let ag = ap.add(g * MR);
                for (r, row) in acc.iter_mut().enumerate() {
                    let av = _mm512_set1_epi32(*ag.add(r) as i32);
                    for (v, &bq) in row.iter_mut().zip(bv.iter()) {
                        *v = _mm512_dpbusd_epi32(*v, av, bq);
                    }
                }
            }
        }
        for (row, dst) in acc.iter().zip(out.iter_mut()) {
            for (q, v) in row.iter().enumerate() {
                // SAFETY: dst has NR i32s; lanes q·16 .. q·16 + 16 are in bounds.
                unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(q * 16).cast(), *v) };
            }
        }
    }
}

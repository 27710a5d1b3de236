//! Integer GEMM micro-kernels: an MR × NR block of 32-bit sums of u8 × s8 products over packed
//! operands (A: MR rows `lda` dwords apart, one dword per k-group of 4 holding 4 bytes of the
//! row; B: a panel with, per k-group, NR dwords each holding 4 bytes (rows) of one column). Sums wrap modulo 2^32, as `vpdpbusd`
//! does. Two forms: [`IntKernel::run`] on a tile in memory (any block, any kernel) and
//! [`IntKernel::run_direct`], which starts from the epilogue terms or from D and stores the
//! sums straight into D (full blocks, AVX-512 VNNI).

use std::mem::MaybeUninit;

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

    /// Runs the kernel: `out[r][c] += Σ_g Σ_t a[r·lda + g].byte(t) · (b[g·NR + c].byte(t) as i8)`
    /// (wrapping), over `kg` k-groups. Slices shorter than `kg` groups are an internal error
    /// and only cut the sum short in release builds.
    pub(super) fn run(
        self,
        (a, lda): (&[u32], usize),
        b: &[u32],
        kg: usize,
        out: &mut [[i32; NR]; MR],
    ) {
        let kg = kg
            .min(lda)
            .min(a.len().saturating_sub((MR - 1) * lda))
            .min(b.len() / NR);
        match self {
            #[cfg(target_arch = "x86_64")]
            IntKernel::Avx512Vnni if self.is_available() => {
                // SAFETY: AVX-512F and AVX-512 VNNI were detected at run time; `kg` groups fit
                // in both slices (clamped above).
                unsafe { avx512::kernel((a, lda), b, kg, out) }
            }
            _ => portable((a, lda), b, kg, out),
        }
    }
}

/// How a direct block's sums start.
#[derive(Clone, Copy)]
pub(super) enum Start<'a> {
    /// From the block of D itself (a later K block; the first one wrote it).
    FromD,
    /// From `row[r] + col[c]` plus, if given, C's element `c[r·ldc + c]`.
    Terms {
        row: [i32; MR],
        col: &'a [i32],
        c: Option<(&'a [u32], usize)>,
    },
}

impl IntKernel {
    /// Runs the kernel on the full MR × NR block of D at `d[r·ldd + c]`: starts as `start`
    /// says, adds the products of `kg` k-groups (as [`IntKernel::run`]) and stores the sums
    /// into D. Returns false, having done nothing, when this kernel has no direct form on
    /// this CPU or a slice is too short for the block.
    pub(super) fn run_direct(
        self,
        (a, lda): (&[u32], usize),
        b: &[u32],
        kg: usize,
        start: Start,
        d: &mut [MaybeUninit<u32>],
        ldd: usize,
    ) -> bool {
        let block = (MR - 1) * ldd + NR;
        let fits = kg <= lda
            && a.len() >= (MR - 1) * lda + kg
            && b.len() >= kg * NR
            && d.len() >= block
            && ldd >= NR
            && match start {
                Start::FromD => true,
                Start::Terms { col, c, .. } => {
                    col.len() >= NR
                        && c.is_none_or(|(c, ldc)| ldc >= NR && c.len() >= (MR - 1) * ldc + NR)
                }
            };
        if !fits {
            return false;
        }
        match self {
            #[cfg(target_arch = "x86_64")]
            IntKernel::Avx512Vnni if self.is_available() => {
                // SAFETY: AVX-512F and VNNI were detected at run time; every slice holds the
                // block (checked above). With `Start::FromD` the caller has written the block
                // of D in an earlier K block (see `gemm::int::row_block`).
                unsafe { avx512::kernel_direct((a, lda), b, kg, start, d, ldd) };
                true
            }
            _ => false,
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

fn portable((a, lda): (&[u32], usize), b: &[u32], kg: usize, out: &mut [[i32; NR]; MR]) {
    for g in 0..kg {
        let bg = &b[g * NR..(g + 1) * NR];
        for (r, row) in out.iter_mut().enumerate() {
            let av = a[r * lda + g].to_le_bytes();
            for (c, o) in row.iter_mut().enumerate() {
                let bc = bg[c].to_le_bytes();
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
    use super::{MR, NR, Start};
    use std::arch::x86_64::*;
    use std::mem::MaybeUninit;

    const Q: usize = NR / 16;
    type Acc = [[__m512i; Q]; MR];

    /// `acc += Σ_g A'·B'` over `kg` k-groups.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 VNNI; `a` must hold `(MR − 1)·lda + kg`
    /// dwords with kg ≤ lda, and `b` `kg·NR` dwords.
    #[inline(always)]
    unsafe fn accumulate((a, lda): (&[u32], usize), b: &[u32], kg: usize, acc: &mut Acc) {
        debug_assert!(kg <= lda && a.len() >= (MR - 1) * lda + kg && b.len() >= kg * NR);
        let ap = a.as_ptr();
        let bp = b.as_ptr();
        for g in 0..kg {
            // SAFETY: g < kg ≤ lda, so dwords g·NR .. (g + 1)·NR of `b` and r·lda + g (r < MR)
            // of `a` are in bounds (caller's contract); the target features are the caller's.
            unsafe {
                let bg = bp.add(g * NR);
                let mut bv = [_mm512_setzero_si512(); Q];
                for (q, v) in bv.iter_mut().enumerate() {
                    *v = _mm512_loadu_si512(bg.add(q * 16).cast());
                }
                let ag = ap.add(g);
                for (r, row) in acc.iter_mut().enumerate() {
                    let av = _mm512_set1_epi32(*ag.add(r * lda) as i32);
                    for (v, &bq) in row.iter_mut().zip(bv.iter()) {
                        *v = _mm512_dpbusd_epi32(*v, av, bq);
                    }
                }
            }
        }
    }

    /// k-groups before the end of a direct block at which D's lines are asked for in L2.
    const EARLY: usize = 128;
    /// k-groups before the end of a direct block at which D's lines are asked for in L1, in
    /// writable state.
    const TAIL: usize = 32;

    /// Whether the CPU has PREFETCHW (CPUID 8000_0001h ECX bit 8; every CPU with AVX-512 VNNI
    /// does, but the instruction is only used where CPUID says so).
    fn has_prefetchw() -> bool {
        static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *HAS.get_or_init(|| __cpuid(0x8000_0001).ecx & (1 << 8) != 0)
    }

    /// Asks for the lines of the MR × NR block of D at `dp` (rows `ldd` apart): in L2
    /// (`to_l1` false) or in L1 in writable state (true; a plain L1 prefetch where the CPU has
    /// no PREFETCHW). A prefetch does not fault: the addresses may be anything, and are at
    /// most one line past each row of the block (covering rows that do not start on a line
    /// boundary).
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512 VNNI (the caller's target features).
    #[inline]
    #[target_feature(enable = "avx512f,avx512vnni")]
    unsafe fn prefetch_block(dp: *mut u32, ldd: usize, to_l1: bool) {
        let writable = to_l1 && has_prefetchw();
        for r in 0..MR {
            for q in 0..=Q {
                let line = dp.wrapping_add(r * ldd + q * 16);
                if writable {
                    // SAFETY: PREFETCHW is present (CPUID above); it is a hint that reads
                    // nothing architecturally, cannot fault, and leaves flags and stack alone.
                    unsafe {
                        std::arch::asm!(
                            "prefetchw [{0}]",
                            in(reg) line,
                            options(nostack, preserves_flags, readonly)
                        )
                    };
                } else if to_l1 {
                    _mm_prefetch::<_MM_HINT_T0>(line.cast::<i8>());
                } else {
                    _mm_prefetch::<_MM_HINT_T1>(line.cast::<i8>());
                }
            }
        }
    }

    /// The direct form (see [`super::IntKernel::run_direct`]).
    ///
    /// # Safety
    /// As [`accumulate`]; `d` holds `(MR − 1)·ldd + NR` elements, and so does C's slice for its
    /// `ldc`; `col` holds NR; with `Start::FromD` the block of `d` is initialised.
    #[target_feature(enable = "avx512f,avx512vnni")]
    pub(super) unsafe fn kernel_direct(
        a: (&[u32], usize),
        b: &[u32],
        kg: usize,
        start: Start,
        d: &mut [MaybeUninit<u32>],
        ldd: usize,
    ) {
        let mut acc: Acc = [[_mm512_setzero_si512(); Q]; MR];
        let dp = d.as_mut_ptr().cast::<u32>();
        // SAFETY (all blocks below): offsets r·ldd + q·16 + 16 ≤ (MR − 1)·ldd + NR, likewise for
        // C and `col` (caller's contract); MaybeUninit<u32> has the layout of u32.
        match start {
            Start::FromD => {
                for (r, row) in acc.iter_mut().enumerate() {
                    for (q, v) in row.iter_mut().enumerate() {
                        *v = unsafe { _mm512_loadu_si512(dp.add(r * ldd + q * 16).cast()) };
                    }
                }
            }
            Start::Terms { row, col, c } => {
                for (r, acc_row) in acc.iter_mut().enumerate() {
                    let rt = _mm512_set1_epi32(row[r]);
                    for (q, v) in acc_row.iter_mut().enumerate() {
                        let ct = unsafe { _mm512_loadu_si512(col.as_ptr().add(q * 16).cast()) };
                        *v = _mm512_add_epi32(rt, ct);
                        if let Some((c, ldc)) = c {
                            let cv = unsafe {
                                _mm512_loadu_si512(c.as_ptr().add(r * ldc + q * 16).cast())
                            };
                            *v = _mm512_add_epi32(*v, cv);
                        }
                    }
                }
            }
        }
        // D is written once per K block and is not in any cache (waiting for its lines at
        // the stores measured as a quarter of the GEMM's time), so the block's lines are asked
        // for twice: into L2 EARLY k-groups before the end, giving memory time, and into L1
        // in writable state TAIL k-groups before the end, late enough that the streaming B
        // panel has not pushed them out of L1 again (asked for at the start, they measured
        // slower). On the 2-vCPU EPYC the two steps with PREFETCHW measured 0.88 of the
        // `vpdpbusd` peak at 1024³ (median of 25 interleaved runs) against 0.86 for one
        // read prefetch at TAIL.
        let early = kg.min(EARLY);
        let tail = kg.min(TAIL);
        // SAFETY: the caller's contract covers `a` and `b` for kg groups; the three calls
        // cover groups [0, kg − early), [kg − early, kg − tail) and [kg − tail, kg).
        unsafe {
            accumulate(a, b, kg - early, &mut acc);
            prefetch_block(dp, ldd, false);
            let (a_mid, b_mid) = ((&a.0[kg - early..], a.1), &b[(kg - early) * NR..]);
            accumulate(a_mid, b_mid, early - tail, &mut acc);
            prefetch_block(dp, ldd, true);
            let (a_rest, b_rest) = ((&a.0[kg - tail..], a.1), &b[(kg - tail) * NR..]);
            accumulate(a_rest, b_rest, tail, &mut acc);
        }
        for (r, row) in acc.iter().enumerate() {
            for (q, v) in row.iter().enumerate() {
                unsafe { _mm512_storeu_si512(dp.add(r * ldd + q * 16).cast(), *v) };
            }
        }
    }

    /// # Safety
    /// As [`accumulate`].
    #[target_feature(enable = "avx512f,avx512vnni")]
    pub(super) unsafe fn kernel(
        a: (&[u32], usize),
        b: &[u32],
        kg: usize,
        out: &mut [[i32; NR]; MR],
    ) {
        let mut acc: Acc = [[_mm512_setzero_si512(); Q]; MR];
        for (row, src) in acc.iter_mut().zip(out.iter()) {
            for (q, v) in row.iter_mut().enumerate() {
                // SAFETY: src has NR i32s; lanes q·16 .. q·16 + 16 are in bounds.
                *v = unsafe { _mm512_loadu_si512(src.as_ptr().add(q * 16).cast()) };
            }
        }
        // SAFETY: the caller's contract.
        unsafe { accumulate(a, b, kg, &mut acc) };
        for (row, dst) in acc.iter().zip(out.iter_mut()) {
            for (q, v) in row.iter().enumerate() {
                // SAFETY: dst has NR i32s; lanes q·16 .. q·16 + 16 are in bounds.
                unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(q * 16).cast(), *v) };
            }
        }
    }
}

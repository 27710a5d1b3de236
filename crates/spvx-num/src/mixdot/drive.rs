//! Running a native kernel of the exact model over slices: cases in chunks of 64, each
//! chunk first through the branch-free kernel (a loop the compiler vectorises), then the
//! cases the kernel left undecided through the exact path. On x86-64 the chunk loop is
//! compiled three times — AVX-512, AVX2 and the baseline — and the best the processor has is
//! chosen at run time; IEEE arithmetic gives the same bits in each (Rust never contracts
//! `a * b + c` into an fma).

/// A kernel: the result bits of one case and whether it is undecided. A trait rather than a
/// closure so that its `#[inline(always)]` evaluation is inlined into the vectorised loops.
pub(super) trait Kernel<A, T> {
    fn eval(&self, a: u32, b: u32, acc: A) -> (T, bool);
}

/// Cases per chunk: the undecided flags of one chunk are scanned after its loop.
const CHUNK: usize = 64;

/// `out[i] = kernel(a[i], b[i], acc[i]).0`, or `exact(...)` where the kernel's flag says
/// undecided; how many cases took the exact path. The slices must have equal lengths.
#[inline(always)]
fn chunks<A: Copy, T: Copy>(
    a: &[u32],
    b: &[u32],
    acc: &[A],
    out: &mut [T],
    kernel: &impl Kernel<A, T>,
    exact: &impl Fn(u32, u32, A) -> T,
) -> usize {
    let mut slow = 0;
    let mut undecided = [false; CHUNK];
    for (((o, a), b), acc) in out
        .chunks_mut(CHUNK)
        .zip(a.chunks(CHUNK))
        .zip(b.chunks(CHUNK))
        .zip(acc.chunks(CHUNK))
    {
        let mut any = false;
        for ((((o, &x), &y), &z), u) in o.iter_mut().zip(a).zip(b).zip(acc).zip(&mut undecided) {
            let (v, flag) = kernel.eval(x, y, z);
            *o = v;
            *u = flag;
            any |= flag;
        }
        if any {
            for (i, o) in o.iter_mut().enumerate() {
                if undecided[i] {
                    *o = exact(a[i], b[i], acc[i]);
                    slow += 1;
                }
            }
        }
    }
    slow
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2")]
fn chunks_avx512<A: Copy, T: Copy>(
    a: &[u32],
    b: &[u32],
    acc: &[A],
    out: &mut [T],
    kernel: &impl Kernel<A, T>,
    exact: &impl Fn(u32, u32, A) -> T,
) -> usize {
    chunks(a, b, acc, out, kernel, exact)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn chunks_avx2<A: Copy, T: Copy>(
    a: &[u32],
    b: &[u32],
    acc: &[A],
    out: &mut [T],
    kernel: &impl Kernel<A, T>,
    exact: &impl Fn(u32, u32, A) -> T,
) -> usize {
    chunks(a, b, acc, out, kernel, exact)
}

/// A compilation of the chunk loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Level {
    Avx512,
    Avx2,
    Baseline,
}

/// The best level the processor runs.
pub(super) fn best_level() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512vl") && has!("avx512dq") && has!("avx512bw") {
            return Level::Avx512;
        }
        if has!("avx2") {
            return Level::Avx2;
        }
    }
    Level::Baseline
}

/// [`chunks`] compiled for the best vector extension the processor has.
pub(super) fn run<A: Copy, T: Copy>(
    a: &[u32],
    b: &[u32],
    acc: &[A],
    out: &mut [T],
    kernel: impl Kernel<A, T>,
    exact: impl Fn(u32, u32, A) -> T,
) -> usize {
    run_at(best_level(), a, b, acc, out, kernel, exact)
}

/// [`chunks`] at `level`, which must be [`best_level`] or below.
pub(super) fn run_at<A: Copy, T: Copy>(
    level: Level,
    a: &[u32],
    b: &[u32],
    acc: &[A],
    out: &mut [T],
    kernel: impl Kernel<A, T>,
    exact: impl Fn(u32, u32, A) -> T,
) -> usize {
    assert!(
        level == Level::Baseline || level == best_level() || best_level() == Level::Avx512,
        "{level:?} is not available"
    );
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the features the function is compiled with are present (checked above).
        Level::Avx512 => unsafe { chunks_avx512(a, b, acc, out, &kernel, &exact) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above (AVX-512 processors have AVX2).
        Level::Avx2 => unsafe { chunks_avx2(a, b, acc, out, &kernel, &exact) },
        _ => chunks(a, b, acc, out, &kernel, &exact),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mixdot::kernels::{Dot2Acc16, Dot2Acc32, Dot4Acc32, EXACT, FMA, SEQUENTIAL};

    /// A kernel that leaves every case whose `a` is a multiple of 7 undecided.
    struct Sevens;
    impl Kernel<u32, u32> for Sevens {
        #[inline(always)]
        fn eval(&self, a: u32, b: u32, acc: u32) -> (u32, bool) {
            (a ^ b ^ acc, a.is_multiple_of(7))
        }
    }

    /// Undecided cases get the exact function's result and are counted, at every level, in
    /// chunks full and partial.
    #[test]
    fn undecided_cases_take_the_exact_function() {
        let n = 1000;
        let a: Vec<u32> = (0..n).collect();
        let b: Vec<u32> = (0..n).map(|i| i * 3).collect();
        let acc: Vec<u32> = (0..n).map(|i| i << 8).collect();
        for level in [Level::Baseline, best_level()] {
            let mut out = vec![0u32; n as usize];
            let slow = run_at(level, &a, &b, &acc, &mut out, Sevens, |x, y, z| x + y + z);
            assert_eq!(slow, (0..n).filter(|i| i.is_multiple_of(7)).count());
            for i in 0..n as usize {
                let (x, y, z) = (a[i], b[i], acc[i]);
                let want = if x.is_multiple_of(7) {
                    x + y + z
                } else {
                    x ^ y ^ z
                };
                assert_eq!(out[i], want, "{level:?} case {i}");
            }
        }
    }

    /// Every compilation the processor runs gives the baseline's bits on random words (the
    /// baseline itself is checked against the exact path in `tests/mixdot_fast.rs` only when
    /// the processor has no vector extension; this closes the gap).
    #[test]
    fn every_level_gives_the_same_bits() {
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let n = 50_000;
        let (a, b, acc): (Vec<u32>, Vec<u32>, Vec<u32>) =
            (0..n).map(|_| (next(), next(), next())).collect();
        let acc16: Vec<u16> = acc.iter().map(|&w| w as u16).collect();
        let never = |_: u32, _: u32, _| -> u32 { unreachable!("undecided") };
        let never16 = |_: u32, _: u32, _| -> u16 { unreachable!("undecided") };
        let levels: &[Level] = match best_level() {
            Level::Avx512 => &[Level::Avx512, Level::Avx2, Level::Baseline],
            Level::Avx2 => &[Level::Avx2, Level::Baseline],
            Level::Baseline => &[Level::Baseline],
        };
        let mut outs = Vec::new();
        for &level in levels {
            let mut o = vec![vec![0u32; n]; 5];
            let mut o16 = vec![0u16; n];
            run_at(
                level,
                &a,
                &b,
                &acc,
                &mut o[0],
                Dot2Acc32::<false, EXACT>,
                never,
            );
            run_at(
                level,
                &a,
                &b,
                &acc,
                &mut o[1],
                Dot2Acc32::<true, SEQUENTIAL>,
                never,
            );
            run_at(
                level,
                &a,
                &b,
                &acc,
                &mut o[2],
                Dot4Acc32::<true, true, EXACT>,
                never,
            );
            run_at(
                level,
                &a,
                &b,
                &acc,
                &mut o[3],
                Dot4Acc32::<false, true, FMA>,
                never,
            );
            run_at(
                level,
                &a,
                &b,
                &acc16,
                &mut o16,
                Dot2Acc16::<false, EXACT>,
                never16,
            );
            o[4] = o16.iter().map(|&h| u32::from(h)).collect();
            outs.push(o);
        }
        for o in &outs[1..] {
            assert!(o == &outs[0], "a compilation differs");
        }
    }
}

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

/// [`chunks`] compiled for the best vector extension the processor has.
pub(super) fn run<A: Copy, T: Copy>(
    a: &[u32],
    b: &[u32],
    acc: &[A],
    out: &mut [T],
    kernel: impl Kernel<A, T>,
    exact: impl Fn(u32, u32, A) -> T,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512vl") && has!("avx512dq") && has!("avx512bw") {
            // SAFETY: the features the function is compiled with are present.
            return unsafe { chunks_avx512(a, b, acc, out, &kernel, &exact) };
        }
        if has!("avx2") {
            // SAFETY: as above.
            return unsafe { chunks_avx2(a, b, acc, out, &kernel, &exact) };
        }
    }
    chunks(a, b, acc, out, &kernel, &exact)
}

//! The OpenCL.std functions evaluated through CORE-MATH (`exec::opencl::ocl_float_bits`:
//! cbrt, expm1, log1p, log10, exp10, hypot, asinh, acosh, atanh, erf, erfc, tgamma, lgamma,
//! sinpi, cospi, tanpi, asinpi, acospi, atanpi, atan2pi) against MPFR at 256 bits rounded once:
//! every fp16 input (where MPFR has the function), random fp32 and fp64 inputs.
//! The π-scaled functions are checked where MPFR's plain function gives them exactly enough:
//! sinpi/cospi/tanpi via x·π with 256-bit π (no cancellation problem for |x| < 2^20), the
//! inverse ones as asin(x)/π etc.

mod float_bits;
mod glsl_corpus;
mod mpfr_ref;
mod opencl_support;

use float_bits::{assert_all, from_f64, ieee, to_f64};
use glsl_corpus::Rng;
use mpfr_ref::{BINARY32, PREC};
use rug::Float;
use rug::float::Constant;
use spvx_exec::exec::opencl::ocl_float_bits;
use spvx_exec::program::FloatFmt;
use spvx_exec::program::opencl::OclOp::{self, *};

const UNARY: [OclOp; 18] = [
    Cbrt, Expm1, Log1p, Log10, Exp10, Asinh, Acosh, Atanh, Erf, Erfc, Tgamma, Lgamma, SinPi, CosPi,
    TanPi, AsinPi, AcosPi, AtanPi,
];

fn pi() -> Float {
    Float::with_val(PREC, Constant::Pi)
}

/// MPFR's value of `op` at (x, y); `None` where this reference does not apply.
fn reference(op: OclOp, x: f64, y: f64) -> Option<Float> {
    let a = Float::with_val(PREC, x);
    Some(match op {
        Cbrt => a.cbrt(),
        Expm1 => a.exp_m1(),
        Log1p => a.ln_1p(),
        Log10 => a.log10(),
        Exp10 => a.exp10(),
        Asinh => a.asinh(),
        Acosh => a.acosh(),
        Atanh => a.atanh(),
        Erf => a.erf(),
        Erfc => a.erfc(),
        Tgamma => a.gamma(),
        // lgamma(x) = log|Γ(x)|; MPFR's ln_abs_gamma.
        Lgamma => a.ln_abs_gamma().0,
        // Exact zeros and signs at integers and half-integers: skip those (CORE-MATH's sign of
        // zero rules), check elsewhere with a moderate argument.
        SinPi | CosPi | TanPi if x.abs() >= 1048576.0 || (2.0 * x).fract() == 0.0 => {
            return None;
        }
        SinPi => (a * pi()).sin(),
        CosPi => (a * pi()).cos(),
        TanPi => (a * pi()).tan(),
        AsinPi => a.asin() / pi(),
        AcosPi => a.acos() / pi(),
        AtanPi => a.atan() / pi(),
        Hypot => a.hypot(&Float::with_val(PREC, y)),
        Atan2Pi => a.atan2(&Float::with_val(PREC, y)) / pi(),
        _ => return None,
    })
}

/// Compares the engine with MPFR on one input; a description of a mismatch.
fn check(op: OclOp, fmt: FloatFmt, a: u64, b: u64) -> Option<String> {
    let (x, y) = (to_f64(fmt, a), to_f64(fmt, b));
    if x.is_nan() || y.is_nan() {
        return None;
    }
    let want = reference(op, x, y)?;
    let got = ocl_float_bits(op, fmt, [a, b, 0]);
    let want_v = mpfr_ref::round(&want, ieee(fmt));
    if want_v.is_nan() {
        // The engine's NaN: any NaN is right (no payload is specified).
        return (!to_f64(fmt, got).is_nan())
            .then(|| format!("{op:?} {fmt:?} ({x:e}, {y:e}): got {got:#x}, want NaN"));
    }
    let want_bits = from_f64(fmt, want_v);
    (got != want_bits)
        .then(|| format!("{op:?} {fmt:?} ({x:e}, {y:e}): got {got:#x}, want {want_bits:#x}"))
}

#[test]
fn fp16_every_input() {
    let mut failures = Vec::new();
    for op in UNARY {
        for h in 0..=0xffffu64 {
            failures.extend(check(op, FloatFmt::F16, h, 0));
        }
    }
    assert_all(failures);
}

#[test]
fn fp32_and_fp64_random_inputs() {
    let mut rng = Rng(0x0c1);
    let mut failures = Vec::new();
    for op in UNARY.iter().copied().chain([Hypot, Atan2Pi]) {
        for i in 0..1500 {
            // Half over all bit patterns, half over moderate exponents (|x| in [2^-8, 2^8)).
            let moderate = |r: u64| {
                let e = (r >> 52) % 16;
                f64::from_bits((r & 0x800f_ffff_ffff_ffff) | ((1023 - 8 + e) << 52))
            };
            let (ra, rb) = (rng.next(), rng.next());
            let (a64, b64) = if i % 2 == 0 {
                (ra, rb)
            } else {
                (moderate(ra).to_bits(), moderate(rb).to_bits())
            };
            failures.extend(check(op, FloatFmt::F64, a64, b64));
            let (a32, b32) = if i % 2 == 0 {
                (ra & 0xffff_ffff, rb & 0xffff_ffff)
            } else {
                (
                    (moderate(ra) as f32).to_bits() as u64,
                    (moderate(rb) as f32).to_bits() as u64,
                )
            };
            failures.extend(check(op, FloatFmt::F32, a32, b32));
        }
    }
    assert_all(failures);
}

/// erf, erfc, tgamma, lgamma in a clang-15 + llvm-spirv-15 kernel (corpus/opencl/specialfns.cl)
/// against MPFR rounded once to fp32.
#[test]
fn special_functions_in_a_compiled_kernel() {
    use opencl_support::kernel;
    for file in ["specialfns.spv", "specialfns.O0.spv"] {
        special_functions_of(kernel(file, "specialfns"));
    }
}

fn special_functions_of(m: spvx_exec::CompiledModule) {
    use opencl_support::{bytes_f32, f32s, out, run};
    use spvx_exec::resources::KernelArg;
    let mut rng = Rng(0x5eed);
    let mut xs: Vec<f32> = vec![
        0.0, -0.0, 0.5, 1.0, 2.0, 3.5, -2.5, 10.0, -10.0, 30.0, 1e-20,
    ];
    xs.extend((0..53).map(|_| ((rng.next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 40.0));
    let n = xs.len();
    let (res, _) = run(
        &m,
        [n as u32, 1, 1],
        Some([1, 1, 1]),
        vec![
            KernelArg::Buffer(bytes_f32(&xs)),
            KernelArg::Buffer(vec![0; 4 * 4 * n]),
        ],
    );
    let got = f32s(out(&res, 1));
    let mut failures = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        for (j, op) in [Erf, Erfc, Tgamma, Lgamma].into_iter().enumerate() {
            let Some(r) = reference(op, x as f64, 0.0) else {
                continue;
            };
            let want = mpfr_ref::round(&r, BINARY32) as f32;
            let g = got[4 * i + j];
            let same = g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan());
            if !same {
                failures.push(format!("{op:?}({x:e}): got {g:e}, want {want:e}"));
            }
        }
    }
    assert_all(failures);
}

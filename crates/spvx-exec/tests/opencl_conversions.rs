//! Saturating and rounding conversions and the ordered/unordered tests, as OpenCL C writes
//! them (tests/corpus/opencl/conversions.cl by clang-15 + llvm-spirv-15, -O2 and -O0):
//! OpSatConvertSToU/UToS, OpSConvert/OpUConvert/OpConvertFToS/OpConvertFToU decorated
//! SaturatedConversion, FPRoundingMode on float-to-integer conversions, OpOrdered and
//! OpUnordered. Expected values come from Rust's own conversions (`clamp`, and `as` from a
//! float, which saturates and gives 0 for NaN, after `round_ties_even`/`ceil`/`floor`/`trunc`),
//! and one row is written out by hand. The `run` helper checks the JIT against the
//! interpreter on the same inputs.

mod opencl_support;
use opencl_support::*;
use spvx_exec::resources::KernelArg;

/// Outputs per work-item (N in conversions.cl).
const N: usize = 20;

/// What OpenCL C defines for one work-item's inputs, in the kernel's output order.
fn expected(x: i32, y: f32, g: f32) -> [i32; N] {
    let u = x as u32;
    let wide = x as i64 * 65536;
    [
        x.clamp(-128, 127),
        x.clamp(0, 255),
        x.clamp(-32768, 32767),
        x.clamp(0, 65535),
        x.max(0),
        u.min(127) as i32,
        u.min(255) as i32,
        u.min(i32::MAX as u32) as i32,
        wide.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
        wide.clamp(0, u32::MAX as i64) as u32 as i32,
        y.round_ties_even() as i32,
        y.ceil() as i32,
        y.floor() as i32,
        y.trunc() as i32,
        y as i32,
        y.round_ties_even() as u8 as i32,
        y.floor() as i8 as i32,
        !(y.is_nan() || g.is_nan()) as i32,
        (y.is_nan() || g.is_nan()) as i32,
        y.ceil() as u16 as i32,
    ]
}

#[test]
fn saturating_and_rounding_conversions() {
    let xs = [
        300,
        -300,
        127,
        128,
        -129,
        0,
        i32::MIN,
        i32::MAX,
        65535,
        65536,
        -1,
        40000,
        32768,
        -32769,
    ];
    let ys = [
        2.5,
        3.5,
        -2.5,
        2.7,
        -2.7,
        300.5,
        -0.5,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e10,
        255.5,
        -128.5,
        65535.2,
    ];
    let gs = [
        1.0,
        f32::NAN,
        0.0,
        -1.0,
        f32::INFINITY,
        2.0,
        f32::NAN,
        1.0,
        1.0,
        0.0,
        -0.0,
        3.0,
        f32::NAN,
        5.0,
    ];
    let n = xs.len();
    for file in ["conversions.spv", "conversions.O0.spv"] {
        let m = kernel(file, "conversions");
        let (res, _) = run(
            &m,
            [1, 1, 1],
            Some([n as u32, 1, 1]),
            vec![
                KernelArg::Buffer(bytes_i32(&xs)),
                KernelArg::Buffer(bytes_f32(&ys)),
                KernelArg::Buffer(bytes_f32(&gs)),
                KernelArg::Buffer(vec![0; 4 * N * n]),
            ],
        );
        let got = i32s(out(&res, 3));
        for k in 0..n {
            assert_eq!(
                got[k * N..(k + 1) * N],
                expected(xs[k], ys[k], gs[k]),
                "{file}: x = {}, y = {}, g = {}",
                xs[k],
                ys[k],
                gs[k]
            );
        }
        // By hand: x = 300, y = 2.5, g = 1.
        assert_eq!(
            got[..N],
            [
                127, 255, 300, 300, 300, 127, 255, 300, 19_660_800, 19_660_800, 2, 3, 2, 2, 2, 2,
                2, 1, 0, 3
            ],
            "{file}"
        );
    }
}

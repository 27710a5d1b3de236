//! OpenCL.std functions in clang-15 + llvm-spirv-15 kernels (tests/corpus/opencl/): integer
//! functions, float functions with exactly defined results, vector loads/stores and half
//! conversions, shuffle/select/bitselect, cross/dot, and atomics. Expected values come from
//! the OpenCL C definitions, written here with Rust integer and f32/f64 arithmetic.

mod opencl_support;
use opencl_support::*;
use spvx_exec::resources::KernelArg;

/// Interesting 32-bit integers followed by pseudo-random ones.
fn ints(seed: u64, n: usize) -> Vec<i32> {
    let mut v = vec![
        0,
        1,
        -1,
        i32::MAX,
        i32::MIN,
        0x00ff_ffff,
        -0x0080_0000,
        7,
        -100,
        101,
    ];
    v.extend(splitmix(seed, n - v.len()).iter().map(|x| *x as i32));
    v
}

#[test]
fn integer_functions() {
    for file in ["intmath.spv", "intmath.O0.spv"] {
        eprintln!("{file}");
        let m = kernel(file, "intmath");
        let n = 64;
        let (a, b, c) = (ints(1, n), ints(2, n), ints(3, n));
        let mut b = b;
        b.rotate_left(3);
        let (res, _) = run(
            &m,
            [n as u32, 1, 1],
            Some([1, 1, 1]),
            vec![
                KernelArg::Buffer(bytes_i32(&a)),
                KernelArg::Buffer(bytes_i32(&b)),
                KernelArg::Buffer(bytes_i32(&c)),
                KernelArg::Buffer(vec![0; 4 * 24 * n]),
            ],
        );
        let got = i32s(out(&res, 3));
        for i in 0..n {
            let (x, y, z) = (a[i] as i64, b[i] as i64, c[i] as i64);
            let (ux, uy, uz) = (a[i] as u32 as i64, b[i] as u32 as i64, c[i] as u32 as i64);
            let sat = |v: i128| v.clamp(i32::MIN as i128, i32::MAX as i128) as i32;
            let usat = |v: i128| v.clamp(0, u32::MAX as i128) as u32 as i32;
            let s24 = |v: i64| ((v as i32) << 8 >> 8) as i64;
            let up = ((a[i] as i16 as i64) << 16) | (b[i] as u16 as i64);
            let want: [i32; 24] = [
                x.unsigned_abs() as u32 as i32,
                (x - y).unsigned_abs() as u32 as i32,
                sat((x + y) as i128),
                usat((ux + uy) as i128),
                ((x + y) >> 1) as i32,
                ((x + y + 1) >> 1) as i32,
                x.clamp(-100, 100) as i32,
                (a[i] as u32).leading_zeros() as i32,
                (a[i] as u32).trailing_zeros() as i32,
                (((x * y) >> 32) + z) as i32,
                sat(x as i128 * y as i128 + z as i128),
                usat(ux as i128 * uy as i128 + uz as i128),
                x.max(y) as i32,
                ux.min(uy) as i32,
                ((x * y) >> 32) as i32,
                ((ux * uy) >> 32) as i32,
                (a[i] as u32).rotate_left(b[i] as u32 % 32) as i32,
                sat((x - y) as i128),
                usat((ux - uy) as i128),
                (a[i] as u32).count_ones() as i32,
                (s24(x) * s24(y) + z) as i32,
                (s24(x) * s24(y)) as i32,
                up as i32,
                (up >> 16) as i32,
            ];
            assert_eq!(&got[24 * i..24 * i + 24], &want, "inputs {x}, {y}, {z}");
        }
    }
}

/// Floats with exactly defined results: moderate magnitudes, halves, signed zeros.
fn floats(seed: u64, n: usize) -> Vec<f32> {
    let mut v = vec![0.5, -0.5, 1.5, -2.5, 0.0, -0.0, 3.75, -1e-3, 1e6 + 0.5, 2.0];
    v.extend(splitmix(seed, n - v.len()).iter().map(|r| {
        let m = (*r % 2_000_000) as f32 / 1024.0 - 900.0;
        if r >> 63 == 1 { m } else { m / 7.0 }
    }));
    v
}

/// IEEE remainder of f32 values (|x / y| < 2^24 here): n = x/y to nearest, ties to even.
fn remainder(x: f32, y: f32) -> f32 {
    let q = (x as f64 / y as f64).round_ties_even();
    let r = x as f64 - q * y as f64; // exact: see the test's note
    if r == 0.0 {
        (0.0f32).copysign(x)
    } else {
        r as f32
    }
}

#[test]
fn float_functions_with_exact_results() {
    for file in ["floatmath.spv", "floatmath.O0.spv"] {
        eprintln!("{file}");
        let m = kernel(file, "floatmath");
        let n = 64;
        let a = floats(5, n);
        let mut b = floats(6, n);
        b.rotate_left(1);
        for v in b.iter_mut() {
            if *v == 0.0 {
                *v = 0.75; // keep fmod/remainder defined
            }
        }
        let c: Vec<f32> = splitmix(9, n)
            .iter()
            .map(|r| (*r % 41) as f32 - 20.0)
            .collect();
        let (res, _) = run(
            &m,
            [8, 1, 1],
            Some([8, 1, 1]),
            vec![
                KernelArg::Buffer(bytes_f32(&a)),
                KernelArg::Buffer(bytes_f32(&b)),
                KernelArg::Buffer(bytes_f32(&c)),
                KernelArg::Buffer(vec![0; 4 * 16 * n]),
                KernelArg::Buffer(vec![0; 8 * n]),
            ],
        );
        let got = f32s(out(&res, 3));
        let igot = i32s(out(&res, 4));
        for i in 0..n {
            let (x, y, z) = (a[i], b[i], c[i]);
            let fdim = if x > y { x - y } else { 0.0 };
            let want = [
                x.abs(),
                x.floor(),
                x.ceil(),
                x.trunc(),
                x.round(),
                x.round_ties_even(),
                x.min(y),
                x.max(y),
                x.mul_add(y, z),
                x.abs().sqrt(),
                x % y,
                x.copysign(y),
                fdim,
                (x as f64 * 2f64.powi(z as i32)) as f32,
                x.clamp(-1.0, 1.0),
                remainder(x, y),
            ];
            let got_bits: Vec<u32> = got[16 * i..16 * i + 16]
                .iter()
                .map(|v| v.to_bits())
                .collect();
            let want_bits: Vec<u32> = want.iter().map(|v| v.to_bits()).collect();
            assert_eq!(got_bits, want_bits, "inputs {x}, {y}, {z}");
            let ilogb = if x == 0.0 {
                i32::MIN
            } else {
                (x.abs() as f64).log2().floor() as i32
            };
            let next = if x == y {
                y
            } else if y > x {
                x.next_up()
            } else {
                x.next_down()
            };
            assert_eq!(igot[2 * i], ilogb, "ilogb({x})");
            assert_eq!(
                igot[2 * i + 1],
                next.to_bits() as i32,
                "nextafter({x}, {y})"
            );
        }
    }
}

/// f32 → f16 bits rounding toward zero, for normal f16 results (the tests keep to those).
fn f16_rtz(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    if x == 0.0 {
        return sign;
    }
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!((1..31).contains(&e), "keep test values normal in f16");
    sign | ((e as u16) << 10) | ((b >> 13) & 0x3ff) as u16
}

/// f16 bits → f32 (exact), normal values and zero.
fn f16_value(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f32;
    if e == 0 {
        return sign * m * 2f32.powi(-24);
    }
    sign * (1.0 + m / 1024.0) * 2f32.powi(e - 15)
}

#[test]
fn vector_loads_stores_halves_shuffles_and_geometry() {
    for file in ["vectors.spv", "vectors.O0.spv"] {
        eprintln!("{file}");
        let m = kernel(file, "vectors");
        let n = 8;
        let input: Vec<f32> = (0..4 * n)
            .map(|k| (k as f32 * 1.25 - 13.0) * if k % 3 == 0 { -1.0 } else { 1.0 })
            .collect();
        let halves: Vec<u16> = (0..24)
            .map(|k| if k < n { 0x3c00 + 37 * k as u16 } else { 0 })
            .collect();
        let (res, _) = run(
            &m,
            [n as u32, 1, 1],
            Some([1, 1, 1]),
            vec![
                KernelArg::Buffer(bytes_f32(&input)),
                KernelArg::Buffer(vec![0; 4 * 96]),
                KernelArg::Buffer(halves.iter().flat_map(|h| h.to_le_bytes()).collect()),
                KernelArg::Buffer(vec![0; 4 * 8 * n]),
            ],
        );
        let o = f32s(out(&res, 1));
        let h: Vec<u16> = out(&res, 2)
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let io = i32s(out(&res, 3));
        for i in 0..n {
            let v = &input[4 * i..4 * i + 4];
            let w = [v[3] * 2.0, v[2] * 2.0, v[1] * 2.0, v[0] * 2.0];
            assert_eq!(&o[4 * i..4 * i + 4], &w, "vstore4 of invocation {i}");
            let f = f16_value(halves[i]);
            assert_eq!(h[i + 8], f16_rtz(f * 3.0), "vstore_half_rtz {i}");
            assert_eq!(h[i + 16], f16_rtz(v[0]), "vstore_half {i} (exact values)");
            let iv: Vec<i32> = v.iter().map(|x| x.trunc() as i32).collect();
            let s = [iv[3], iv[2], iv[1], iv[0]];
            let want_i = [
                s[0],
                s[3],
                s[0],
                iv[1],
                (iv[0] & !0x0f0f0f0f) | (iv[1] & 0x0f0f0f0f),
            ];
            assert_eq!(
                &io[8 * i..8 * i + 5],
                &want_i,
                "shuffle/select/bitselect {i}"
            );
            let cross = [
                v[1] * w[2] - v[2] * w[1],
                v[2] * w[0] - v[0] * w[2],
                v[0] * w[1] - v[1] * w[0],
            ];
            let dot = ((v[0] * w[0] + v[1] * w[1]) + v[2] * w[2]) + v[3] * w[3];
            assert_eq!(&o[64 + 4 * i..64 + 4 * i + 3], &cross, "cross {i}");
            assert_eq!(o[64 + 4 * i + 3].to_bits(), dot.to_bits(), "dot {i}");
        }
    }
}

#[test]
fn atomics_on_local_and_global_memory() {
    for file in ["atomics.spv", "atomics.O0.spv"] {
        eprintln!("{file}");
        let m = kernel(file, "atomics");
        let n = 96usize;
        let input: Vec<u32> = splitmix(21, n).iter().map(|v| (*v % 1000) as u32).collect();
        let (res, _) = run(
            &m,
            [3, 1, 1],
            Some([32, 1, 1]),
            vec![
                KernelArg::Buffer(bytes_u32(&input)),
                KernelArg::Buffer(vec![0; 32]),
                KernelArg::Buffer(bytes_i32(&[-5])),
                KernelArg::Local(32),
            ],
        );
        let mut hist = [0u32; 8];
        for v in &input {
            hist[(v % 8) as usize] += 1;
        }
        assert_eq!(u32s(out(&res, 1)), hist);
        assert_eq!(
            i32s(out(&res, 2)),
            [*input.iter().max().unwrap_or(&0) as i32]
        );
    }
}

/// cl_khr_integer_dot_product: vector forms become OpSDot/OpUDot/OpSUDot(AccSat) in the
/// module, packed forms stay imported functions that spvx implements by name.
#[test]
fn integer_dot_products_of_cl_khr_integer_dot_product() {
    for file in ["intdot.spv", "intdot.O0.spv"] {
        eprintln!("{file}");
        let m = kernel(file, "intdot");
        let n = 48usize;
        let mut a: Vec<u32> = vec![0x7f7f_7f7f, 0x8080_8080, 0xffff_ffff, 0, 0x0102_0304];
        let mut b: Vec<u32> = vec![0x7f7f_7f7f, 0x8080_8080, 0x8080_8080, 5, 0xfffe_fdfc];
        let mut acc: Vec<i32> = vec![i32::MAX, i32::MIN, -1, i32::MIN, 77];
        let r = splitmix(31, 3 * n);
        a.extend(r[..n - 5].iter().map(|v| *v as u32));
        b.extend(r[n..2 * n - 5].iter().map(|v| (*v >> 32) as u32));
        acc.extend(r[2 * n..3 * n - 5].iter().map(|v| {
            // Accumulators near the limits, so that saturation happens.
            let x = (*v % 200_000) as i64 - 100_000;
            (if v >> 63 == 1 {
                i32::MAX as i64 - x.abs()
            } else {
                i32::MIN as i64 + x.abs()
            }) as i32
        }));
        let (res, _) = run(
            &m,
            [n as u32, 1, 1],
            Some([1, 1, 1]),
            vec![
                KernelArg::Buffer(bytes_u32(&a)),
                KernelArg::Buffer(bytes_u32(&b)),
                KernelArg::Buffer(bytes_i32(&acc)),
                KernelArg::Buffer(vec![0; 4 * 12 * n]),
            ],
        );
        let got = i32s(out(&res, 3));
        let s = |w: u32| w.to_le_bytes().map(|x| x as i8 as i64);
        let u = |w: u32| w.to_le_bytes().map(|x| x as i64);
        let dot = |x: [i64; 4], y: [i64; 4]| -> i64 { x.iter().zip(&y).map(|(p, q)| p * q).sum() };
        let ssat = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        let usat = |v: i64| v.clamp(0, u32::MAX as i64) as u32 as i32;
        for i in 0..n {
            let (x, y, c) = (a[i], b[i], acc[i] as i64);
            let uc = acc[i] as u32 as i64;
            let want = [
                dot(s(x), s(y)) as i32,
                dot(u(x), u(y)) as u32 as i32,
                dot(s(x), u(y)) as i32,
                dot(u(x), s(y)) as i32,
                ssat(dot(s(x), s(y)) + c),
                usat(dot(u(x), u(y)) + uc),
                ssat(dot(s(x), u(y)) + c),
                dot(s(x), s(y)) as i32,
                dot(u(x), u(y)) as i32,
                dot(s(x), u(y)) as i32,
                dot(u(x), s(y)) as i32,
                ssat(dot(s(x), s(y)) + c),
            ];
            assert_eq!(
                &got[12 * i..12 * i + 12],
                &want,
                "a = {x:#x}, b = {y:#x}, acc = {c}"
            );
        }
    }
}

/// Libm-evaluated functions at arguments whose true result is representable: the correctly
/// rounded result is then that value exactly.
#[test]
fn libm_functions_at_exactly_representable_results() {
    for file in ["exactmath.spv", "exactmath.O0.spv"] {
        eprintln!("{file}");
        let m = kernel(file, "exactmath");
        let xs: Vec<f32> = vec![
            0.0, 1.0, 2.0, 3.0, 4.0, 5.0, -1.0, -2.0, -3.0, -6.0, 7.0, 10.0,
        ];
        let n = xs.len();
        let (res, _) = run(
            &m,
            [n as u32, 1, 1],
            Some([1, 1, 1]),
            vec![
                KernelArg::Buffer(bytes_f32(&xs)),
                KernelArg::Buffer(vec![0; 4 * 10 * n]),
            ],
        );
        let got = f32s(out(&res, 1));
        for (i, &v) in xs.iter().enumerate() {
            // sinpi(v/2), cospi(v/2) for integer v: 0, ±1, with sinpi's zero signed as v.
            let k = (v as i32).rem_euclid(4);
            let sinpi = match k {
                1 => 1.0,
                3 => -1.0,
                _ => 0.0f32.copysign(v),
            };
            let cospi = match k {
                0 => 1.0,
                2 => -1.0,
                _ => 0.0,
            };
            let p10 = 10f64.powi(v.abs() as i32) as f32; // exact up to 10^10
            let mag = |a: f32, b: f32, max: bool| {
                if (a.abs() > b.abs()) == max && a.abs() != b.abs() {
                    a
                } else if a.abs() == b.abs() {
                    if max { a.max(b) } else { a.min(b) }
                } else {
                    b
                }
            };
            let logb = if v == 0.0 {
                f32::NEG_INFINITY
            } else {
                v.abs().log2().floor() // exact for these integers
            };
            let sign = if v - 2.0 > 0.0 {
                1.0
            } else if v - 2.0 < 0.0 {
                -1.0
            } else {
                0.0
            };
            let want = [
                sinpi,
                cospi,
                v,
                p10,
                5.0 * v.abs(),
                v * v * v,
                sign,
                mag(v, -3.0, true),
                mag(v, -3.0, false),
                logb,
            ];
            let g: Vec<u32> = got[10 * i..10 * i + 10]
                .iter()
                .map(|x| x.to_bits())
                .collect();
            let w: Vec<u32> = want.iter().map(|x| x.to_bits()).collect();
            assert_eq!(
                g,
                w,
                "v = {v}: got {:?}, want {want:?}",
                &got[10 * i..10 * i + 10]
            );
        }
    }
}

/// Program-scope `__constant` data and a `__constant` pointer argument (read-only buffer).
#[test]
fn constant_data_and_constant_arguments() {
    for file in ["constants.spv", "constants.O0.spv"] {
        eprintln!("{file}");
        let m = kernel(file, "constants");
        assert_eq!(
            m.kernel_args()[0].kind,
            spvx_exec::resources::KernelArgKind::ConstantBuffer
        );
        let k: Vec<i32> = (0..12).map(|i| i * 3 - 7).collect();
        let (res, _) = run(
            &m,
            [3, 1, 1],
            Some([4, 1, 1]),
            vec![
                KernelArg::Buffer(bytes_i32(&k)),
                KernelArg::Buffer(vec![0; 48]),
            ],
        );
        let table = [10, 20, 30, 40];
        let want: Vec<i32> = (0..12).map(|i| table[i % 4] * k[i] + 4).collect();
        assert_eq!(i32s(out(&res, 1)), want);
    }
}

/// OpenCL C printf: the format string from the module's constant data, one record per
/// invocation in workgroup then invocation order; texts as C's printf writes them.
#[test]
fn printf_prints_one_line_per_invocation() {
    for file in ["printf.spv", "printf.O0.spv"] {
        let m = kernel(file, "printf_kernel");
        let (_, report) = run(
            &m,
            [2, 1, 1],
            Some([2, 1, 1]),
            vec![KernelArg::Buffer(bytes_i32(&[5, -7, 300, 0]))],
        );
        let texts: Vec<&str> = report.prints.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "i=0 v=    5 f=2.50 l=0 x=0x5 p=5, -5\n",
                "i=1 v=   -7 f=-3.50 l=1000000000 x=0xfffffff9 p=-7, 7\n",
                "i=2 v=  300 f=150.00 l=2000000000 x=0x12c p=300, -300\n",
                "i=3 v=    0 f=0.00 l=3000000000 x=0 p=0, 0\n",
            ],
            "{file}"
        );
        let ids: Vec<[u32; 3]> = report.prints.iter().map(|p| p.global_invocation).collect();
        assert_eq!(ids, [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]], "{file}");
    }
}

//! Float atomics (OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT; float OpAtomicExchange)
//! in the glslang shader `tests/corpus/glsl/floatatomics.comp`: fp32, fp64 and fp16 in a
//! storage buffer and fp32 in shared memory. Expected values are written here by hand: the
//! parallel sums use multiples of 1/4 whose sums are exact in any order (so the answer is the
//! exact sum), min and max are order-free, and invocation 0's sequence is worked out step by
//! step with the host's IEEE f32 addition (each step rounded to nearest even).

mod glsl_corpus;

use glsl_corpus::{Rng, module};
use spvx_exec::{Resources, RunConfig};

/// Byte offsets of the members of `Acc` (std430, from the GLSL declaration).
const SUM: usize = 0;
const MN: usize = 4;
const MX: usize = 8;
const STEPS: usize = 12;
const ZMIN: usize = 16;
const ZMAX: usize = 20;
const NMIN: usize = 24;
const NMAX: usize = 28;
const XCH: usize = 32;
const ZMIN2: usize = 36;
const DSUM: usize = 40;
const DMIN: usize = 48;
const DMAX: usize = 56;
const HSUM: usize = 64;
const HMIN: usize = 66;
const HMAX: usize = 68;
const ZMAX2: usize = 72;
const WG: usize = 76;
const WGMIN: usize = 140;
const WGMAX: usize = 204;
const RET: usize = 268;
const OLD: usize = 300;

/// The NaN the host stores in `nmax` (a payload, to see the original value returned as is).
const NAN_IN: u32 = 0x7fc0_0123;

fn put(b: &mut [u8], at: usize, bytes: &[u8]) {
    b[at..at + bytes.len()].copy_from_slice(bytes);
}
fn f32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or_default())
}
fn f64_at(b: &[u8], at: usize) -> f64 {
    f64::from_le_bytes(b[at..at + 8].try_into().unwrap_or_default())
}
fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap_or_default())
}

#[test]
fn float_atomics_on_buffer_and_shared_memory() {
    let m = module("floatatomics.comp");
    let groups = 8usize;
    let n = groups * 64;
    let mut rng = Rng(0xf10a7);
    // Multiples of 1/4 in (0, 256]: every partial sum (< 2^17) is a multiple of 1/4 below
    // 2^24 quarters, exact in fp32 and fp64 whatever the order.
    let x: Vec<f32> = (0..n)
        .map(|_| (1 + rng.next_u32() % 1024) as f32 / 4.0)
        .collect();
    let exact_sum: f64 = x.iter().map(|&v| v as f64).sum();
    let (xmin, xmax) = x
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    for (threads, subgroup_size) in [(None, 32), (Some(1), 32), (None, 8), (Some(1), 64)] {
        let mut acc = vec![0u8; OLD + 4 * n];
        put(&mut acc, MN, &f32::INFINITY.to_le_bytes());
        put(&mut acc, MX, &f32::NEG_INFINITY.to_le_bytes());
        put(&mut acc, ZMIN, &0.0f32.to_le_bytes());
        put(&mut acc, ZMAX, &(-0.0f32).to_le_bytes());
        put(&mut acc, NMIN, &5.0f32.to_le_bytes());
        put(&mut acc, NMAX, &NAN_IN.to_le_bytes());
        put(&mut acc, XCH, &(-1.25f32).to_le_bytes());
        put(&mut acc, ZMIN2, &(-0.0f32).to_le_bytes());
        put(&mut acc, ZMAX2, &0.0f32.to_le_bytes());
        put(&mut acc, DMIN, &f64::INFINITY.to_le_bytes());
        put(&mut acc, DMAX, &f64::NEG_INFINITY.to_le_bytes());
        put(&mut acc, HMIN, &0x7c00u16.to_le_bytes()); // +inf
        put(&mut acc, HMAX, &0xfc00u16.to_le_bytes()); // −inf
        let mut res = Resources::new();
        res.set_buffer(0, 0, x.iter().flat_map(|v| v.to_le_bytes()).collect());
        res.set_buffer(0, 1, acc);
        let cfg = RunConfig {
            strict: true,
            threads,
            subgroup_size,
            ..RunConfig::default()
        };
        m.run(&mut res, [groups as u32, 1, 1], &cfg)
            .unwrap_or_else(|e| panic!("run failed: {e}"));
        let b = res.buffer(0, 1).unwrap_or_default().to_vec();
        let what = format!("threads {threads:?}, subgroup size {subgroup_size}");

        // fp32 in the buffer: the exact sum; min and max of v − 100.
        assert_eq!(f32_at(&b, SUM), (exact_sum as f32).to_bits(), "{what}");
        assert_eq!(f32_at(&b, MN), (xmin - 100.0).to_bits(), "{what}");
        assert_eq!(f32_at(&b, MX), (xmax - 100.0).to_bits(), "{what}");
        // The values each add returned: in some order, the partial sums before it.
        let mut olds: Vec<(f32, f32)> = (0..n)
            .map(|i| (f32::from_bits(f32_at(&b, OLD + 4 * i)), x[i]))
            .collect();
        olds.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut partial = 0.0f64;
        for &(old, v) in &olds {
            assert_eq!(
                old as f64, partial,
                "{what}: a returned value is no partial sum"
            );
            partial += v as f64;
        }
        // fp64: the exact sum; min and max of −3v.
        assert_eq!(f64_at(&b, DSUM), exact_sum, "{what}");
        assert_eq!(f64_at(&b, DMIN), -3.0 * xmax as f64, "{what}");
        assert_eq!(f64_at(&b, DMAX), -3.0 * xmin as f64, "{what}");
        // fp16: h = i mod 4; Σ h = 128·(0 + 1 + 2 + 3) = 768; min(h − 2) = −2; max(h + 0.5)
        // = 3.5 (binary16 768 = 0x6200, −2 = 0xc000, 3.5 = 0x4300).
        assert_eq!(u16_at(&b, HSUM), 0x6200, "{what}");
        assert_eq!(u16_at(&b, HMIN), 0xc000, "{what}");
        assert_eq!(u16_at(&b, HMAX), 0x4300, "{what}");
        // Shared memory, per workgroup.
        for g in 0..groups {
            let part = &x[64 * g..64 * g + 64];
            let s: f64 = part.iter().map(|&v| v as f64).sum();
            let lo = part.iter().copied().fold(f32::INFINITY, f32::min);
            let hi = part.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(f32_at(&b, WG + 4 * g), (s as f32).to_bits(), "{what}");
            assert_eq!(f32_at(&b, WGMIN + 4 * g), lo.to_bits(), "{what}");
            assert_eq!(f32_at(&b, WGMAX + 4 * g), hi.to_bits(), "{what}");
        }
        // Invocation 0's sequence: 0 + 1 = 1; 1 + 2^-24 = 1 (a tie, to even) twice, where the
        // unrounded sum 1 + 2^-23 would be representable.
        let tiny = f32::from_bits(0x3380_0000);
        let s1 = 0.0f32 + 1.0;
        let s2 = s1 + tiny;
        let s3 = s2 + tiny;
        assert_eq!((s2, s3), (1.0, 1.0));
        let ret: Vec<u32> = (0..8).map(|k| f32_at(&b, RET + 4 * k)).collect();
        let want_ret = [
            0.0f32.to_bits(),
            s1.to_bits(),
            s2.to_bits(),
            0.0f32.to_bits(),     // zmin's original +0
            0x8000_0000,          // zmax's original −0
            5.0f32.to_bits(),     // nmin's original
            NAN_IN,               // nmax's original NaN, as stored
            (-1.25f32).to_bits(), // xch's original
        ];
        assert_eq!(ret, want_ret, "{what}");
        assert_eq!(f32_at(&b, STEPS), s3.to_bits(), "{what}");
        // minimumNumber(±0, ∓0) = −0, maximumNumber(±0, ∓0) = +0 whichever operand is in
        // memory; a NaN operand is ignored.
        assert_eq!(f32_at(&b, ZMIN), 0x8000_0000, "{what}");
        assert_eq!(f32_at(&b, ZMAX), 0, "{what}");
        assert_eq!(f32_at(&b, ZMIN2), 0x8000_0000, "{what}");
        assert_eq!(f32_at(&b, ZMAX2), 0, "{what}");
        assert_eq!(f32_at(&b, NMIN), 5.0f32.to_bits(), "{what}");
        assert_eq!(f32_at(&b, NMAX), 3.0f32.to_bits(), "{what}");
        assert_eq!(f32_at(&b, XCH), 7.5f32.to_bits(), "{what}");
    }
}

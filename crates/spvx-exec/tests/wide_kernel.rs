//! An OpenCL C kernel with `_BitInt(100)`, `_BitInt(128)` and `_BitInt(65)` values, compiled by
//! clang-15 + llvm-spirv-15 with SPV_INTEL_arbitrary_precision_integers
//! (`tests/corpus/wide/bitint.cl`, `regen` there), at -O2 and at -O0 (locals in Function
//! memory, so the natural layout of wide integers is exercised). Expected values follow the C
//! semantics of the source, computed with num-bigint.

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, Zero};
use spvx_exec::resources::KernelArg;
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};

fn load(file: &str) -> CompiledModule {
    let path = format!("{}/tests/corpus/wide/{file}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    CompiledModule::from_bytes(&bytes, "wide", &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn bytes16(v: &[BigUint]) -> Vec<u8> {
    v.iter()
        .flat_map(|x| {
            let mut b = x.to_bytes_le();
            b.resize(16, 0);
            b
        })
        .collect()
}

fn m(bits: u32) -> BigInt {
    BigInt::one() << bits
}

fn wrap(v: &BigInt, bits: u32) -> BigUint {
    let r = ((v % m(bits)) + m(bits)) % m(bits);
    r.to_biguint().expect("non-negative")
}

fn signed(v: &BigUint, bits: u32) -> BigInt {
    let v = BigInt::from(v.clone());
    if v >= (BigInt::one() << (bits - 1)) {
        v - m(bits)
    } else {
        v
    }
}

fn from_i(v: i128, bits: u32) -> BigUint {
    wrap(&BigInt::from(v), bits)
}

fn check(file: &str) {
    let module = load(file);
    let big = |s: &str| BigUint::parse_bytes(s.as_bytes(), 16).expect("hex");
    // (x, y) u100 and (p, q) s128 per invocation; no C undefined case (p/q overflow, p%(q|1)
    // with q|1 == −1 and p == MIN, signed overflow in (s100)x − p).
    let u = [
        (big("fffffffffffffffffffffffff"), big("3")),
        (big("123456789abcdef0123456789"), big("fedcba9876543210")),
        (big("8000000000000000000000000"), big("0")),
        (BigUint::from(5u8), big("10000000000000000")),
        (BigUint::zero(), BigUint::from(7u8)),
    ];
    let s = [
        (from_i(-1000, 128), from_i(7, 128)),
        (from_i(5, 128), from_i(-2, 128)),
        (from_i(i128::MAX / 4, 128), from_i(0, 128)),
        (from_i(i128::MIN / 4, 128), from_i(-3, 128)),
        (from_i(-(1 << 70), 128), from_i(1 << 65, 128)),
    ];
    let n = u.len();
    let a: Vec<BigUint> = u.iter().flat_map(|(x, y)| [x.clone(), y.clone()]).collect();
    let b: Vec<BigUint> = s.iter().flat_map(|(p, q)| [p.clone(), q.clone()]).collect();
    let mut res = Resources::new();
    res.set_arg(0, KernelArg::Buffer(bytes16(&a)));
    res.set_arg(1, KernelArg::Buffer(bytes16(&b)));
    res.set_arg(2, KernelArg::Buffer(vec![0; 64 * n]));
    res.set_arg(3, KernelArg::Buffer(vec![0; 64 * n]));
    res.set_arg(4, KernelArg::Buffer(vec![0; 4 * n]));
    res.local_size = Some([1, 1, 1]);
    let cfg = RunConfig {
        strict: true,
        ..RunConfig::default()
    };
    let mut on_jit = res.clone();
    module
        .run(&mut res, [n as u32, 1, 1], &cfg)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    // The same run on the JIT (the wide instructions are call-outs there): the same bytes.
    let jit = module
        .with_jit_always()
        .run(&mut on_jit, [n as u32, 1, 1], &RunConfig::default())
        .unwrap_or_else(|e| panic!("{file} on the JIT: {e}"));
    assert!(on_jit == res, "{file}: the JIT's outputs differ");
    assert_eq!(jit.jit, spvx_exec::JitUse::Ran, "{file}");
    let read = |arg: u32| -> Vec<BigUint> {
        res.arg_buffer(arg)
            .expect("buffer")
            .chunks(16)
            .map(BigUint::from_bytes_le)
            .collect()
    };
    let (ru, rs) = (read(2), read(3));
    let flags: Vec<u32> = res
        .arg_buffer(4)
        .expect("flags")
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    for i in 0..n {
        let (x, y) = (&u[i].0, &u[i].1);
        let (p, q) = (signed(&s[i].0, 128), signed(&s[i].1, 128));
        let (bx, by) = (BigInt::from(x.clone()), BigInt::from(y.clone()));
        let sx = signed(x, 100);
        let want_u = [
            wrap(&(&bx * &by + BigInt::from(x ^ (y >> 7u32))), 100),
            if y.is_zero() { BigUint::zero() } else { x / y },
            x % (y | BigUint::one()),
            // Arithmetic shift: floor division by 32 (BigInt's >> rounds toward −∞).
            wrap(&(&sx >> 5u32), 100),
        ];
        let q1 = if (&q % BigInt::from(2)).is_zero() {
            &q + BigInt::one()
        } else {
            q.clone()
        };
        let z = (x % (BigUint::one() << 65u32) + y % (BigUint::one() << 65u32))
            % (BigUint::one() << 65u32);
        let want_s = [
            // BigInt's / and % truncate toward zero, as C.
            if q.is_zero() {
                BigUint::zero()
            } else {
                wrap(&(&p / &q), 128)
            },
            wrap(&(&p % &q1), 128),
            wrap(&(&sx - &p), 128),
            z << 3u32,
        ];
        for k in 0..4 {
            assert_eq!(ru[4 * i + k], want_u[k], "{file} invocation {i} ru[{k}]");
            assert_eq!(rs[4 * i + k], want_s[k], "{file} invocation {i} rs[{k}]");
        }
        let low64 = wrap(&p, 64);
        let want_flags = (x < y) as u32
            | ((p < q) as u32) << 1
            | (sx.is_negative() as u32) << 2
            | ((low64 == BigUint::from(5u8)) as u32) << 3;
        assert_eq!(flags[i], want_flags, "{file} invocation {i} flags");
    }
}

#[test]
fn bitint_kernel_at_o2() {
    check("bitint.spv");
}

#[test]
fn bitint_kernel_at_o0() {
    check("bitint.O0.spv");
}

//! Integer and float arithmetic, comparisons and OpSelect on 32-bit values, against
//! references computed in the tests with exact (i128 / f64) arithmetic from the spec's
//! definitions.

mod support;
use support::eval;

/// Operand pairs with edge values.
fn pairs() -> Vec<(u32, u32)> {
    let edges = [
        0u32,
        1,
        2,
        3,
        7,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0xffff_ffff,
        0xffff_fffe,
        12345,
        0xdead_beef,
    ];
    let mut v = Vec::new();
    for &a in &edges {
        for &b in &edges {
            v.push((a, b));
        }
    }
    v
}

/// Runs `%r = OP %uint %x %y` where `%y = in[i + n]`.
fn binary(op: &str, ty: &str, pairs: &[(u32, u32)]) -> Vec<u32> {
    let n = pairs.len() as u32;
    let mut input: Vec<u32> = pairs.iter().map(|p| p.0).collect();
    input.extend(pairs.iter().map(|p| p.1));
    let decls = format!("%un = OpConstant %uint {n}\n");
    let body = if ty == "uint" {
        format!(
            "%j = OpIAdd %uint %i %un\n%pj = OpAccessChain %ptr_sb_uint %in %u0 %j\n%y = OpLoad %uint %pj\n%r = {op} %uint %x %y"
        )
    } else {
        format!(
            "%j = OpIAdd %uint %i %un\n%pj = OpAccessChain %ptr_sb_uint %in %u0 %j\n%y = OpLoad %uint %pj\n%a = OpBitcast %{ty} %x\n%b = OpBitcast %{ty} %y\n%c = {op} %{ty} %a %b\n%r = OpBitcast %uint %c"
        )
    };
    let mut out = eval(&decls, &body, &input);
    out.truncate(pairs.len());
    out
}

fn wrap(v: i128) -> u32 {
    v.rem_euclid(1i128 << 32) as u32
}

#[test]
fn integer_add_sub_mul_are_modulo_2_32() {
    let p = pairs();
    let add = binary("OpIAdd", "uint", &p);
    let sub = binary("OpISub", "uint", &p);
    let mul = binary("OpIMul", "uint", &p);
    for (k, &(a, b)) in p.iter().enumerate() {
        assert_eq!(add[k], wrap(a as i128 + b as i128), "{a} + {b}");
        assert_eq!(sub[k], wrap(a as i128 - b as i128), "{a} - {b}");
        assert_eq!(mul[k], wrap(a as i128 * b as i128), "{a} * {b}");
    }
}

#[test]
fn unsigned_and_signed_division_and_remainders() {
    let p: Vec<_> = pairs().into_iter().filter(|p| p.1 != 0).collect();
    let udiv = binary("OpUDiv", "uint", &p);
    let umod = binary("OpUMod", "uint", &p);
    let sdiv = binary("OpSDiv", "int", &p);
    let srem = binary("OpSRem", "int", &p);
    let smod = binary("OpSMod", "int", &p);
    for (k, &(a, b)) in p.iter().enumerate() {
        assert_eq!(udiv[k], a / b);
        assert_eq!(umod[k], a % b);
        let (x, y) = (a as i32 as i128, b as i32 as i128);
        if x == i32::MIN as i128 && y == -1 {
            continue; // undefined; tested separately
        }
        // Truncating division; SRem has the dividend's sign, SMod the divisor's.
        let q = x / y;
        let r = x - q * y;
        let m = if r != 0 && (r < 0) != (y < 0) {
            r + y
        } else {
            r
        };
        assert_eq!(sdiv[k], wrap(q), "{x} / {y}");
        assert_eq!(srem[k], wrap(r), "{x} rem {y}");
        assert_eq!(smod[k], wrap(m), "{x} mod {y}");
    }
}

#[test]
fn comparisons_and_select() {
    let p = pairs();
    type Case = (&'static str, fn(u32, u32) -> bool);
    let cases: [Case; 6] = [
        ("OpULessThan", |a, b| a < b),
        ("OpUGreaterThanEqual", |a, b| a >= b),
        ("OpSLessThan", |a, b| (a as i32) < (b as i32)),
        ("OpSGreaterThan", |a, b| (a as i32) > (b as i32)),
        ("OpIEqual", |a, b| a == b),
        ("OpINotEqual", |a, b| a != b),
    ];
    for (op, f) in cases {
        let n = p.len() as u32;
        let mut input: Vec<u32> = p.iter().map(|q| q.0).collect();
        input.extend(p.iter().map(|q| q.1));
        let decls = format!(
            "%un = OpConstant %uint {n}\n%u7 = OpConstant %uint 7\n%u9 = OpConstant %uint 9\n"
        );
        let body = format!(
            "%j = OpIAdd %uint %i %un\n%pj = OpAccessChain %ptr_sb_uint %in %u0 %j\n%y = OpLoad %uint %pj\n%c = {op} %bool %x %y\n%r = OpSelect %uint %c %u7 %u9"
        );
        let out = eval(&decls, &body, &input);
        for (k, &(a, b)) in p.iter().enumerate() {
            assert_eq!(out[k], if f(a, b) { 7 } else { 9 }, "{op} {a} {b}");
        }
    }
}

#[test]
fn float_arithmetic_is_correctly_rounded() {
    // f32 operands given as bits; the reference is the exact f64 result rounded once to f32
    // (f64 holds every exact sum/product of two f32 values, and for division the f64 quotient
    // rounds innocuously to f32).
    let vals = [
        1.0f32,
        -2.5,
        3.0,
        0.1,
        1e-30,
        3.4e38,
        -0.0,
        1.0e-45,
        7.0,
        1.0 / 3.0,
    ];
    let mut p = Vec::new();
    for a in vals {
        for b in vals {
            p.push((a.to_bits(), b.to_bits()));
        }
    }
    let add = binary("OpFAdd", "float", &p);
    let mul = binary("OpFMul", "float", &p);
    let div = binary("OpFDiv", "float", &p);
    let sub = binary("OpFSub", "float", &p);
    for (k, &(a, b)) in p.iter().enumerate() {
        let (x, y) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64);
        let canon = |v: f32| if v.is_nan() { 0x7fc0_0000 } else { v.to_bits() };
        assert_eq!(add[k], canon((x + y) as f32), "{x} + {y}");
        assert_eq!(sub[k], canon((x - y) as f32), "{x} - {y}");
        assert_eq!(mul[k], canon((x * y) as f32), "{x} * {y}");
        assert_eq!(div[k], canon((x / y) as f32), "{x} / {y}");
    }
}

#[test]
fn hand_computed_values() {
    // 0xdeadbeef >> 4 (arithmetic) = 0xfdeadbee; << 4 = 0xeadbeef0; not = 0x21524110.
    let out = eval(
        "",
        "%a = OpShiftRightArithmetic %uint %x %u4\n%b = OpShiftLeftLogical %uint %x %u4\n%c = OpNot %uint %x\n%d = OpBitwiseXor %uint %a %b\n%r = OpBitwiseXor %uint %d %c",
        &[0xdead_beef],
    );
    assert_eq!(out[0], 0xfdea_dbee ^ 0xeadb_eef0 ^ 0x2152_4110);
}

#[test]
fn bit_field_instructions() {
    // insert(base = x, insert = 0xff, offset 4, count 8) = (x & !0xff0) | 0xff0;
    // uextract(x, 28, 4) = x >> 28; sextract(x, 28, 4) sign-extends that nibble;
    // offset 32 with count 0 (at the width) changes nothing / extracts 0.
    let decls = "%u8 = OpConstant %uint 8\n%u28 = OpConstant %uint 28\n%u32c = OpConstant %uint 32\n%ff = OpConstant %uint 255\n";
    let body = "%a = OpBitFieldInsert %uint %x %ff %u4 %u8\n%b = OpBitFieldUExtract %uint %x %u28 %u4\n%c = OpBitFieldSExtract %uint %x %u28 %u4\n%d = OpBitFieldInsert %uint %x %ff %u32c %u0\n%e = OpBitFieldUExtract %uint %x %u32c %u0\n%t0 = OpBitwiseXor %uint %a %b\n%t1 = OpBitwiseXor %uint %t0 %c\n%t2 = OpBitwiseXor %uint %t1 %d\n%r = OpBitwiseXor %uint %t2 %e";
    let input = [0x9abc_def0u32, 0x1234_5678];
    let out = eval(decls, body, &input);
    for (k, &x) in input.iter().enumerate() {
        let a = (x & !0xff0) | 0xff0;
        let b = x >> 28;
        let c = ((x as i32) >> 28) as u32;
        let d = x;
        let e = 0;
        assert_eq!(out[k], a ^ b ^ c ^ d ^ e, "{x:#x}");
    }
}

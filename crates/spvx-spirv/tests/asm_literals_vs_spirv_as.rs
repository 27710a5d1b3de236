//! Literal spellings against spirv-as 2025.5: thousands of random integer and float literals
//! (decimal, hex, octal, hex-float; near the range limits, subnormals, long mantissas) for
//! every literal-carrying type, assembled by both tools. Accepted literals must give the same
//! words; literals spvx rejects must be rejected by spirv-as too (checked on a sample, one
//! process each).

mod asm_tools;

use asm_tools::{compare, run_spirv_as, run_spvx, spirv_as};

/// splitmix64: a small deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn digits(&mut self, n: usize, radix: u32) -> String {
        (0..n)
            .map(|_| char::from_digit(self.below(radix as u64) as u32, radix).unwrap_or('0'))
            .collect()
    }
}

/// A random float literal; `max_exp` is about the type's largest binary exponent.
fn float_literal(r: &mut Rng, max_exp: i64) -> String {
    let sign = ["", "-", "", "+"][r.below(4) as usize];
    match r.below(5) {
        0 | 1 => {
            let int = {
                let n = 1 + r.below(12) as usize;
                r.digits(n, 10)
            };
            let frac = {
                let n = r.below(25) as usize;
                r.digits(n, 10)
            };
            let e10 = (max_exp * 3 / 10) + 6;
            let exp = r.below(2 * e10 as u64 + 1) as i64 - e10;
            let e = if r.below(2) == 0 {
                format!("e{exp}")
            } else {
                String::new()
            };
            if sign == "+" {
                format!("{int}.{frac}{e}")
            } else {
                format!("{sign}{int}.{frac}{e}")
            }
        }
        2 => {
            // Exact binary values near a power of two (tests rounding and truncation).
            let m = 1u64 << 20 | r.below(1 << 20);
            let exp = r.below(2 * max_exp as u64 + 40) as i64 - max_exp - 30;
            let v = m as f64 * 2f64.powi((exp - 20) as i32);
            if v.is_finite() {
                format!("{}{v:e}", if sign == "-" { "-" } else { "" })
            } else {
                "1.0".into()
            }
        }
        _ => {
            let sign = if sign == "-" { "-" } else { "" };
            let int = {
                let n = r.below(3) as usize;
                r.digits(n, 16)
            };
            let frac = {
                let n = r.below(20) as usize;
                r.digits(n, 16)
            };
            let exp = r.below(2 * max_exp as u64 + 30) as i64 - max_exp - 20;
            let x = if r.below(5) == 0 { "0X" } else { "0x" };
            let dot = if frac.is_empty() && r.below(2) == 0 {
                ""
            } else {
                "."
            };
            format!("{sign}{x}{int}{dot}{frac}p{exp:+}")
        }
    }
}

/// A random integer literal for a `width`-bit type.
fn int_literal(r: &mut Rng, width: u32, signed: bool) -> String {
    let bits = (1 + r.below(width as u64 + 2)) as u32;
    let v: u128 = if bits >= 128 {
        r.next() as u128
    } else {
        (r.next() as u128 | (r.next() as u128) << 64) & ((1u128 << bits) - 1)
    };
    let neg = signed && r.below(3) == 0;
    let sign = if neg {
        "-"
    } else if r.below(10) == 0 {
        "+"
    } else {
        ""
    };
    match r.below(4) {
        0 => format!("{sign}{v:#x}"),
        1 => format!("{sign}0{v:o}"),
        _ => format!("{sign}{v}"),
    }
}

/// A decimal literal whose f32 value is nonzero and below 2^-127: spirv-as 2025.5 mis-converts
/// those for fp8 types (documented divergence, see `asm/float.rs`).
fn is_tiny_decimal(l: &str) -> bool {
    !l.contains(['x', 'X'])
        && l.parse::<f32>()
            .is_ok_and(|v| v != 0.0 && v.abs() < 2f32.powi(-127))
}

fn check(type_decl: &str, literals: &[String]) {
    let Some(tool) = spirv_as() else { return };
    let mut accepted = Vec::new();
    let mut rejected = Vec::new();
    let fp8 = type_decl.contains("Float8");
    for l in literals {
        if fp8 && is_tiny_decimal(l) {
            continue;
        }
        let text = format!("{type_decl}\n%c = OpConstant %t {l}\n");
        match run_spvx(&text) {
            Ok(_) => accepted.push(l.clone()),
            Err(_) => rejected.push(l.clone()),
        }
    }
    let mut text = format!("{type_decl}\n");
    for (i, l) in accepted.iter().enumerate() {
        text.push_str(&format!("%c{i} = OpConstant %t {l}\n"));
    }
    let got = run_spvx(&text).expect("spvx accepts the accepted literals together");
    match run_spirv_as(&tool, &text, None) {
        Ok(expected) => compare(type_decl, &text, &expected, &got),
        Err(e) => panic!("{type_decl}: spirv-as rejects a literal spvx accepts: {e}"),
    }
    for l in rejected.iter().take(4) {
        let text = format!("{type_decl}\n%c = OpConstant %t {l}\n");
        if let Ok(w) = run_spirv_as(&tool, &text, None) {
            panic!(
                "{type_decl}: spvx rejects {l} but spirv-as gives {:08x?}",
                &w[5..]
            );
        }
    }
    eprintln!(
        "{type_decl}: {} accepted, {} rejected",
        accepted.len(),
        rejected.len()
    );
}

#[test]
fn float_literals_match_spirv_as() {
    let mut r = Rng(0x5eed_f10a);
    for (decl, max_exp) in [
        ("%t = OpTypeFloat 16", 16),
        ("%t = OpTypeFloat 16 BFloat16KHR", 128),
        ("%t = OpTypeFloat 8 Float8E4M3EXT", 9),
        ("%t = OpTypeFloat 8 Float8E5M2EXT", 16),
        ("%t = OpTypeFloat 32", 128),
        ("%t = OpTypeFloat 64", 1024),
    ] {
        let lits: Vec<String> = (0..400).map(|_| float_literal(&mut r, max_exp)).collect();
        check(decl, &lits);
    }
}

#[test]
fn integer_literals_match_spirv_as() {
    let mut r = Rng(0x1234_5678);
    for (width, signed) in [
        (8, true),
        (8, false),
        (13, true),
        (16, false),
        (32, true),
        (32, false),
        (48, true),
        (64, true),
        (64, false),
        (1, true),
    ] {
        let decl = format!("%t = OpTypeInt {width} {}", signed as u32);
        let lits: Vec<String> = (0..250)
            .map(|_| int_literal(&mut r, width, signed))
            .collect();
        check(&decl, &lits);
    }
}

#[test]
fn float_literal_edge_spellings_match_spirv_as() {
    let lits: Vec<String> = [
        "1",
        "-0",
        "00",
        ".5",
        "-.5",
        "1.",
        "1.e5",
        "+1.5",
        "1E2",
        "1e+2",
        "0x1p0",
        "0X1p1",
        "0x.p0",
        "0xp0",
        "0x1.p0",
        "0x1p01",
        "-0x1p-149",
        "0x1p-150",
        "0x1.8p-150",
        "0x1p128",
        "0x1.1p128",
        "0x1.ffffffp127",
        "16777217",
        "16777219",
        "1e-50",
        "1.5e-45",
        "3.4028235e38",
        "0x0.0000000000000000000001p0",
        "0x1p2147483648",
        "0x1p-4294967297",
        "0x100000000p0",
        "0x1.000000001p0",
        "0xAb.Cp0",
        "--1",
        "-+1",
        "+-1",
        "+0x1p0",
        "0x1p",
        "0x1p+",
        "0x1",
        "0x1.8P1",
        "1e",
        "1.5e+",
        "1..2",
        ".",
        "-",
        "inf",
        "nan",
        "1.0f",
        "0x1p1-",
        "0x-1p0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for decl in [
        "%t = OpTypeFloat 32",
        "%t = OpTypeFloat 16",
        "%t = OpTypeFloat 8 Float8E4M3EXT",
    ] {
        check(decl, &lits);
    }
}

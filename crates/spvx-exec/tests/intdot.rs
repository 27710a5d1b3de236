//! Integer dot products (SPV_KHR_integer_dot_product) through the engine: packed 4×8 and
//! vector forms, plain and AccSat, 32- and 16-bit results. The references are written here
//! from the extension's text: components sign- or zero-extended, the exact sum (i64), wrapped
//! to the result width (plain forms) or saturated after adding the accumulator (AccSat), and
//! the undefined case as docs/semantics/integer-dot.md defines it (a product outside the result range, or
//! the positive products' sum above the maximum / the negative products' sum below the minimum).

mod support;
use spvx_exec::UbKind;
use support::{compile, run_words};

const CAPS: &str = "OpCapability Shader\nOpCapability Int8\nOpCapability Int16\nOpCapability DotProductInputAll\nOpCapability DotProductInput4x8Bit\nOpCapability DotProductInput4x8BitPacked\nOpCapability DotProduct\n";

fn bytes(w: u32, signed: bool) -> [i64; 4] {
    [0, 1, 2, 3].map(|i| {
        let b = (w >> (8 * i)) as u8;
        if signed { b as i8 as i64 } else { b as i64 }
    })
}

fn products(op: &str, a: u32, b: u32) -> [i64; 4] {
    let (sa, sb) = match op {
        "S" => (true, true),
        "U" => (false, false),
        _ => (true, false),
    };
    let (x, y) = (bytes(a, sa), bytes(b, sb));
    [0, 1, 2, 3].map(|i| x[i] * y[i])
}

fn words() -> Vec<u32> {
    let mut v = vec![
        0,
        0x8080_8080,
        0x7f7f_7f7f,
        0xffff_ffff,
        0x0102_0304,
        0x80ff_7f01,
        0x1234_5678,
    ];
    let mut s = 0x9e37_79b9u32;
    for _ in 0..25 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        v.push(s);
    }
    v
}

/// Runs `body` for every (a, b, acc) triple: `%a = in[3i]`, `%b = in[3i+1]`, `%c = in[3i+2]`;
/// `body` defines `%r` (uint).
fn run3(body: &str, triples: &[(u32, u32, u32)]) -> (Vec<u32>, spvx_exec::RunReport) {
    let text = support::kernel(
        8,
        "%char = OpTypeInt 8 1\n%v4char = OpTypeVector %char 4\n%uchar = OpTypeInt 8 0\n%v4uchar = OpTypeVector %uchar 4\n%short = OpTypeInt 16 1\n%ushort = OpTypeInt 16 0\n",
        &format!(
            "%i3 = OpIMul %uint %i %u3\n%pa = OpAccessChain %ptr_sb_uint %in %u0 %i3\n%a = OpLoad %uint %pa\n%ib = OpIAdd %uint %i3 %u1\n%pb = OpAccessChain %ptr_sb_uint %in %u0 %ib\n%b = OpLoad %uint %pb\n%ic = OpIAdd %uint %i3 %u2\n%pc = OpAccessChain %ptr_sb_uint %in %u0 %ic\n%c = OpLoad %uint %pc\n{body}"
        ),
    )
    .replacen("OpCapability Shader\n", CAPS, 1);
    let m = compile(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let n = triples.len().div_ceil(8) * 8;
    let mut input: Vec<u32> = triples.iter().flat_map(|t| [t.0, t.1, t.2]).collect();
    input.resize(3 * n, 0);
    let (out, report) = run_words(
        &m,
        &input,
        n,
        (n / 8) as u32,
        &spvx_exec::RunConfig::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (out[..triples.len()].to_vec(), report)
}

fn triples() -> Vec<(u32, u32, u32)> {
    let w = words();
    let accs = [
        0u32,
        1,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_fff0,
        0x7fff_0000,
        70000,
    ];
    let mut t = Vec::new();
    for (k, &a) in w.iter().enumerate() {
        for (j, &b) in w.iter().enumerate().step_by(3) {
            t.push((a, b, accs[(k + j) % accs.len()]));
        }
    }
    t
}

#[test]
fn packed_dot_products_with_32_bit_results() {
    let t = triples();
    for (op, name) in [("S", "OpSDot"), ("U", "OpUDot"), ("SU", "OpSUDot")] {
        let ty = if op == "U" { "uint" } else { "int" };
        let (out, _) = run3(
            &format!("%d = {name} %{ty} %a %b PackedVectorFormat4x8Bit\n%r = OpBitcast %uint %d"),
            &t,
        );
        let (sat, report) = run3(
            &format!(
                "%cc = OpBitcast %{ty} %c\n%d = {name}AccSat %{ty} %a %b %cc PackedVectorFormat4x8Bit\n%r = OpBitcast %uint %d"
            ),
            &t,
        );
        assert_eq!(report.total_events, 0);
        for (k, &(a, b, c)) in t.iter().enumerate() {
            let dot: i64 = products(op, a, b).iter().sum();
            assert_eq!(out[k], dot as u32, "{name} {a:#x} {b:#x}");
            let want = if op == "U" {
                (dot + c as i64).clamp(0, u32::MAX as i64) as u32
            } else {
                (dot + c as i32 as i64).clamp(i32::MIN as i64, i32::MAX as i64) as u32
            };
            assert_eq!(sat[k], want, "{name}AccSat {a:#x} {b:#x} {c:#x}");
        }
    }
}

#[test]
fn vector_dot_products_on_i8vec4() {
    let t = triples();
    let (out, _) = run3(
        "%va = OpBitcast %v4char %a\n%vb = OpBitcast %v4char %b\n%d = OpSDot %int %va %vb\n%r = OpBitcast %uint %d",
        &t,
    );
    let (uout, _) = run3(
        "%va = OpBitcast %v4uchar %a\n%vb = OpBitcast %v4uchar %b\n%d = OpUDot %uint %va %vb\n%r = OpCopyObject %uint %d",
        &t,
    );
    let (suout, _) = run3(
        "%va = OpBitcast %v4char %a\n%vb = OpBitcast %v4uchar %b\n%d = OpSUDot %int %va %vb\n%r = OpBitcast %uint %d",
        &t,
    );
    for (k, &(a, b, _)) in t.iter().enumerate() {
        assert_eq!(out[k], products("S", a, b).iter().sum::<i64>() as u32);
        assert_eq!(uout[k], products("U", a, b).iter().sum::<i64>() as u32);
        assert_eq!(suout[k], products("SU", a, b).iter().sum::<i64>() as u32);
    }
}

#[test]
fn acc_sat_with_16_bit_results_saturates_and_reports_the_undefined_case() {
    let t = triples();
    let (out, report) = run3(
        "%cs = OpUConvert %ushort %c\n%cc = OpBitcast %short %cs\n%d = OpSDotAccSat %short %a %b %cc PackedVectorFormat4x8Bit\n%dw = OpSConvert %int %d\n%r = OpBitcast %uint %dw",
        &t,
    );
    let (lo, hi) = (i16::MIN as i64, i16::MAX as i64);
    let mut undefined = 0;
    for (k, &(a, b, c)) in t.iter().enumerate() {
        let p = products("S", a, b);
        let dot: i64 = p.iter().sum();
        let acc = c as u16 as i16 as i64;
        let want = (dot + acc).clamp(lo, hi) as i32 as u32;
        assert_eq!(out[k], want, "SDotAccSat16 {a:#x} {b:#x} {acc}");
        let pos: i64 = p.iter().filter(|&&x| x > 0).sum();
        let neg: i64 = p.iter().filter(|&&x| x < 0).sum();
        if p.iter().any(|&x| x < lo || x > hi) || pos > hi || neg < lo {
            undefined += 1;
        }
    }
    assert!(undefined > 0, "the inputs must exercise the undefined case");
    assert_eq!(report.total_events, undefined);
    assert!(
        report
            .events
            .iter()
            .all(|e| matches!(e.kind, UbKind::AccSatOverflow(_)))
    );
}

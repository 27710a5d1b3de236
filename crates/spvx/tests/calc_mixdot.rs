//! `spvx calc mixdot` run as a program on hand-computed cases (values worked out by hand in the
//! comments; bit patterns from the IEEE/OCP format definitions).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn spvx(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn spvx");
    let written = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    // spvx may exit (e.g. on a bad argument) before it reads its input: a broken pipe is fine.
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait")
}

fn batch(args: &[&str], input: &str) -> Vec<String> {
    let mut all = vec!["calc", "mixdot"];
    all.extend_from_slice(args);
    let out = spvx(&all, input);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// a = (2^10, −2^10), b = (2^10, 2^10) in f16, acc = 2^−20: the products cancel exactly.
const CANCEL: &str = "dot2acc32 f16 f16 0xe4006400 0x64006400 0x35800000\n";
/// a = (300, 300), b = (300, −300) in f16, acc = 1: 300² = 90000 > 65504.
const F16_OVERFLOW: &str = "dot2acc16 f16 f16 0x5cb05cb0 0xdcb05cb0 0x3c00\n";

#[test]
fn batch_hand_computed_exact_model() {
    let input = "\
# comment line, then a blank line

dot2acc32 f16 f16 0x3c003c00 0x40003c00 0x3f800000   # 1*1 + 1*2 + 1 = 4
dot2acc32 f16 f16 3c003c00 40003c00 3f800000         # same without 0x
dot2acc16 bf16 bf16 0x3f803f80 0x3f803f80 0x0000     # 1 + 1 = 2 = bf16 0x4000
dot4acc32 e4m3 e5m2 0x0000007e 0x0000007b 0x0         # 448 * 57344 = 25690112
dot4acc32 e4m3 e4m3 0x0000007f 0x00000038 0x0         # E4M3 NaN -> canonical f32 NaN
dot4acc32 e5m2 e5m2 0x0000007c 0x00000000 0x0         # inf * 0 -> NaN
dot4acc32 e5m2 e4m3 0x0000fc7c 0x00003838 0x0         # inf + -inf -> NaN
dot4acc32 e5m2 e4m3 0x0000007c 0x000000b8 0x3f800000  # -inf + 1 = -inf
dot2acc32 bf16 bf16 0x00003980 0x00003980 0x3f800000  # 1 + 2^-24: tie, even -> 1
dot2acc32 bf16 bf16 0x00003980 0x00003980 0x3f800001  # (1+2^-23) + 2^-24: tie -> 1+2^-22
dot2acc32 f16 f16 0x80008000 0x00000000 0x80000000    # -0*0 + 0*-0... all -0 -> -0
dot2acc32 f16 f16 0x00008000 0x00000000 0x80000000    # +0 among -0s -> +0
dot2acc32 f16 f16 0x00000001 0x00003c00 0x00000000    # f16 2^-24 * 1 = f32 0x33800000
";
    let want = [
        "0x40800000",
        "0x40800000",
        "0x4000",
        "0x4bc40000",
        "0x7fc00000",
        "0x7fc00000",
        "0x7fc00000",
        "0xff800000",
        "0x3f800000",
        "0x3f800002",
        "0x80000000",
        "0x00000000",
        "0x33800000",
    ];
    assert_eq!(batch(&[], input), want);
    // Independent check of the 448 × 57344 line with hardware f32 (exact product).
    assert_eq!(format!("{:#010x}", (448f32 * 57344f32).to_bits()), want[3]);
}

#[test]
fn models_separate_on_cancellation_and_f16_overflow() {
    // exact and sequential: (2^20 − 2^20) + 2^−20 = 2^−20. acc-first and fma-chain lose 2^−20
    // when adding it to 2^20 and end at +0.
    for (model, want) in [
        ("exact", "0x35800000"),
        ("sequential", "0x35800000"),
        ("fused-products", "0x35800000"),
        ("sequential-acc-first", "0x00000000"),
        ("fma-chain", "0x00000000"),
    ] {
        assert_eq!(batch(&["--model", model], CANCEL), [want], "model {model}");
    }
    // f16 accumulation: exact gives 1; sequential rounds 90000 to +inf and −90000 to −inf, whose
    // sum is NaN; fma-chain gives fma(300,300,1) = +inf, then inf − 90000 = +inf.
    for (model, want) in [
        ("exact", "0x3c00"),
        ("sequential", "0x7e00"),
        ("fma-chain", "0x7c00"),
    ] {
        assert_eq!(
            batch(&["--model", model], F16_OVERFLOW),
            [want],
            "model {model}"
        );
    }
}

#[test]
fn rounding_and_flush_switches() {
    // (1 + 2^-23) + 2^-24 toward zero: 1 + 2^-23.
    let tie = "dot2acc32 bf16 bf16 0x00003980 0x00003980 0x3f800001\n";
    assert_eq!(batch(&["--rounding", "rtz"], tie), ["0x3f800001"]);
    assert_eq!(batch(&["--rounding", "rtp"], tie), ["0x3f800002"]);
    // f16 subnormal input 2^-24 times 1: flushed to +0.
    let sub_in = "dot2acc32 f16 f16 0x00000001 0x00003c00 0x00000000\n";
    assert_eq!(batch(&[], sub_in), ["0x33800000"]);
    assert_eq!(batch(&["--flush-input-denormals"], sub_in), ["0x00000000"]);
    // f32 subnormal accumulator −2^-149 with +0 products: result −2^-149; flushed on output
    // the nonzero sum becomes −0; flushed on input the terms are +0, +0, −0, whose exact zero
    // sum is +0 (IEEE 754 §6.3); with −0 products as well it is −0.
    let sub_acc = "dot2acc32 f16 f16 0x00000000 0x00000000 0x80000001\n";
    assert_eq!(batch(&[], sub_acc), ["0x80000001"]);
    assert_eq!(
        batch(&["--flush-output-denormals"], sub_acc),
        ["0x80000000"]
    );
    assert_eq!(batch(&["--flush-input-denormals"], sub_acc), ["0x00000000"]);
    let sub_acc_neg = "dot2acc32 f16 f16 0x80008000 0x00000000 0x80000001\n";
    assert_eq!(
        batch(&["--flush-input-denormals"], sub_acc_neg),
        ["0x80000000"]
    );
}

#[test]
fn batch_error_names_the_line_and_stops() {
    let input = "dot2acc32 f16 f16 0x3c003c00 0x40003c00 0x3f800000\nbogus f16 f16 0 0 0\ndot2acc32 f16 f16 0 0 0\n";
    let out = spvx(&["calc", "mixdot"], input);
    assert!(!out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0x40800000\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2"), "{err}");
    for bad in [
        "dot2acc32 f16 bf16 0 0 0",          // Dot2 needs equal encodings
        "dot2acc32 e4m3 e4m3 0 0 0",         // wrong encoding for dot2
        "dot4acc32 f16 e4m3 0 0 0",          // wrong encoding for dot4
        "dot2acc16 f16 f16 0 0 0x10000",     // accumulator too wide
        "dot2acc32 f16 f16 0x100000000 0 0", // more than 32 bits
        "dot2acc32 f16 f16 0xzz 0 0",        // not hex
        "dot2acc32 f16 f16 0 0",             // too few fields
    ] {
        let out = spvx(&["calc", "mixdot"], &format!("{bad}\n"));
        assert!(!out.status.success(), "accepted `{bad}`");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("line 1"),
            "{bad}"
        );
    }
    let out = spvx(&["calc", "mixdot", "--model", "nope"], "");
    assert!(!out.status.success());
}

#[test]
fn single_case_form_prints_inputs_exact_value_and_result() {
    let out = spvx(
        &[
            "calc",
            "mixdot",
            "dot2acc32",
            "--enc",
            "f16",
            "--a",
            "1,2",
            "--b",
            "0.5,-0.25",
            "--acc",
            "0x3f800000",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // 1*0.5 + 2*(-0.25) + 1 = 1.
    assert!(text.contains("0x3c00 = 1, 0x4000 = 2"), "{text}");
    assert!(text.contains("0x3800 = 0.5, 0xb400 = -0.25"), "{text}");
    assert!(text.contains("exact   1\n"), "{text}");
    assert!(text.contains("result  f32 0x3f800000 = 1\n"), "{text}");
    assert!(
        text.contains("models  exact 0x3f800000, sequential 0x3f800000"),
        "{text}"
    );

    // The cancellation case of the model test, by hand: exact 2^-20, fma-chain +0.
    let out = spvx(
        &[
            "calc",
            "mixdot",
            "dot2acc32",
            "--enc",
            "f16",
            "--a",
            "1024,-1024",
            "--b",
            "1024,1024",
            "--acc",
            "0x35800000",
        ],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("exact   0.00000095367431640625\n"), "{text}");
    assert!(text.contains("sequential-acc-first 0x00000000"), "{text}");
    assert!(text.contains("fma-chain 0x00000000"), "{text}");

    // Decimal input that is not exact in the format gets a note; 0.1 in f16 is 0x2e66.
    let out = spvx(
        &[
            "calc",
            "mixdot",
            "dot4acc32",
            "--enc1",
            "e4m3",
            "--enc2",
            "e5m2",
            "--a",
            "448,0,0,0",
            "--b",
            "0x7b,0,0,0",
            "--acc",
            "-1",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("exact   25690111\n"), "{text}");
    // 25690111 rounds to 25690112 in f32 (ulp 2 at 2^24).
    assert!(
        text.contains("result  f32 0x4bc40000 = 25690112\n"),
        "{text}"
    );

    let out = spvx(
        &[
            "calc",
            "mixdot",
            "dot2acc16",
            "--enc",
            "f16",
            "--a",
            "0.1,0",
            "--b",
            "1,0",
            "--acc",
            "0",
        ],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("note:") && text.contains("0x2e66"), "{text}");
}

#[test]
fn help_explains_formats() {
    let out = spvx(&["calc", "mixdot", "--help"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "OP ENC1 ENC2 A B ACC",
        "e4m3",
        "0x3f800000",
        "fma-chain",
        "least significant",
    ] {
        assert!(text.contains(needle), "help lacks {needle}");
    }
}

//! `spvx calc fixed` run as a program on hand-computed cases (the arithmetic is worked out in
//! the comments, independently of the code).

use std::io::Write;
use std::process::{Command, Stdio};

fn run(args: &[&str], stdin: &str) -> (bool, String, String) {
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
    let out = child.wait_with_output().expect("wait");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn batch_hand_computed_cases() {
    let input = "\
# sqrt: x = 0x40·2^-4 = 4 → 2 → raw 2·2^4 = 32
sqrt 8 4 8 4 0 2 1 0x40

# sqrt 2 = 1.41421356… → ·2^12 = 5792.6 → RND 5793 = 0x16a1; TRN 5792 = 0x16a0
sqrt 8 4 16 4 0 2 1 20
sqrt 8 4 16 4 0 0 1 20
# sincos(1): sin 0.841471·64 = 53.85 → 54; cos 0.540302·64 = 34.58 → 35
sincos 8 3 8 2 1 2 1 0x20
# exp(7.9375) = 2800.35 → ·16 = 44805.6 → TRN 44805 mod 256 = 5
exp 8 4 8 4 1 0 0 7f
# recip(0): +inf → WRAP gives MAX = 0x7f; SAT_ZERO gives 0
recip 8 4 8 4 1 0 0 0
recip 8 4 8 4 1 0 2 0
# log(1) = 0 exactly
log 16 8 16 8 1 0 0 0x0100
# recip(2) = 0.5 → raw 0.5·2^9 = 256 in 12 bits: 0x100
recip 8 4 12 3 0 0 0 0x20
# cospi(0.5) = 0 exactly; sinpi(0.5) = 1 → raw 64 in <8,2,signed>
sincospi 8 2 8 2 1 0 0 0x20
# sin(-0.5) = -0.479426 → ·64 = -30.68 → TRN -31 = 0xe1 (8 bits)
sin 8 3 8 2 1 0 0 0xf0
# 12-bit result pads to 3 digits; 5-bit result to 2 digits: log(2)=0.693147·16 = 11.09 → 11
log 8 4 5 1 0 0 0 0x20
";
    let (ok, out, err) = run(&["calc", "fixed"], input);
    assert!(ok, "stderr: {err}");
    let want =
        "0x20\n0x16a1\n0x16a0\n0x36 0x23\n0x05\n0x7f\n0x00\n0x0000\n0x100\n0x40 0x00\n0xe1\n0x0b\n";
    assert_eq!(out, want);
}

/// Modes by name: SPIR-V names, ac_types' AC_ spellings and _INTEL suffixes, in any case,
/// mean the modes of the same name (RND is SPIR-V 2 but AC_RND is C++ 1: the name decides).
#[test]
fn modes_by_name() {
    // sqrt 2 = 1.41421356… → ·2^12 = 5792.6 → RND 5793 = 0x16a1; TRN 5792 = 0x16a0.
    let input = "\
sqrt 8 4 16 4 0 RND SAT 20
sqrt 8 4 16 4 0 ac_rnd ac_sat 20
sqrt 8 4 16 4 0 RND_INTEL SAT_INTEL 20
sqrt 8 4 16 4 0 TRN WRAP 20
";
    let (ok, out, err) = run(&["calc", "fixed"], input);
    assert!(ok, "stderr: {err}");
    assert_eq!(out, "0x16a1\n0x16a1\n0x16a1\n0x16a0\n");
    let (ok, _, err) = run(&["calc", "fixed"], "sqrt 8 4 16 4 0 ROUND 1 20\n");
    assert!(!ok);
    assert!(
        err.contains("line 1: field 7 (Q): unknown quantization mode `ROUND`"),
        "{err}"
    );
}

#[test]
fn batch_errors_name_line_and_field() {
    let (ok, out, err) = run(
        &["calc", "fixed"],
        "sqrt 8 4 8 4 0 0 0 0x40\n\nsqrt 8 4 8 4 0 8 0 0x40\n",
    );
    assert!(!ok);
    assert_eq!(out, "0x20\n"); // sqrt(4) = 2
    assert!(
        err.contains("line 3") && err.contains("field 7 (Q)"),
        "{err}"
    );

    let (ok, _, err) = run(&["calc", "fixed"], "tan 8 4 8 4 0 0 0 1\n");
    assert!(
        !ok && err.contains("line 1") && err.contains("FUNC"),
        "{err}"
    );
    let (ok, _, err) = run(&["calc", "fixed"], "sqrt 8 4 8 4 0 0 4 1\n");
    assert!(!ok && err.contains("field 8 (O)"), "{err}");
    let (ok, _, err) = run(&["calc", "fixed"], "sqrt 8 4 8 4 0 0 0 0x1ff\n");
    assert!(!ok && err.contains("field 9 (X)"), "{err}");
    let (ok, _, err) = run(&["calc", "fixed"], "sqrt 8 4 8 4 0 0 0\n");
    assert!(!ok && err.contains("9 fields"), "{err}");
    let (ok, _, err) = run(&["calc", "fixed"], "sqrt 0 4 8 4 0 0 0 1\n");
    assert!(!ok && err.contains("field 2 (W)"), "{err}");
}

#[test]
fn single_case_form_prints_value_exact_and_result() {
    // sqrt(2.5) = 1.58113883…; <16,4,signed> quantum 2^-12: 6476.3 → RND 6476 = 0x194c
    let (ok, out, err) = run(
        &[
            "calc", "fixed", "sqrt", "--w", "16", "--i", "4", "--rw", "16", "--ri", "4",
            "--signed", "--q", "2", "--o", "1", "--value", "2.5",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("2.5"), "{out}");
    assert!(
        out.contains("1.58113883008418966599944677221635926685"),
        "{out}"
    );
    assert!(out.contains("0x194c"), "{out}");
    assert!(out.contains("1.5810546875"), "{out}");
    // negative integer bits are accepted as flag values
    let (ok, out, err) = run(
        &[
            "calc", "fixed", "exp", "--w", "8", "--i", "-2", "--rw", "12", "--ri", "-3", "--x",
            "7f", "--o", "1",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("0xfff"), "{out}");
}

#[test]
fn huge_integer_bits_print_at_once() {
    // <8, 2000000000, signed> 0x85 = −123 · 2^(2000000000 − 8): printed as a multiple of a
    // power of two (its 602 million decimal digits took minutes before). exp of that is 0
    // in any format (e^(−2^1999999998) < 2^−2^1999999990), and sin(π·x) of an even integer
    // is 0 and cos 1.
    let (ok, out, err) = run(
        &[
            "calc",
            "fixed",
            "exp",
            "--w",
            "8",
            "--i",
            "2000000000",
            "--signed",
            "--x",
            "85",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("-123·2^1999999992"), "{out}");
    assert!(out.contains("exact   exp(x) = 0\n"), "{out}");
    let (ok, out, err) = run(
        &[
            "calc",
            "fixed",
            "sincospi",
            "--w",
            "8",
            "--i",
            "2000000000",
            "--signed",
            "--x",
            "85",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("sincospi(x).sin = 0\n"), "{out}");
    assert!(out.contains("sincospi(x).cos = 1\n"), "{out}");
    // Too precise a result is a clear error, not a long computation.
    let (ok, _, err) = run(
        &[
            "calc",
            "fixed",
            "sincospi",
            "--w",
            "8",
            "--i",
            "-2000000000",
            "--signed",
            "--x",
            "85",
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("above the limit"), "{err}");
}

#[test]
fn help_explains_numbering() {
    let (ok, out, _) = run(&["calc", "fixed", "--help"], "");
    assert!(ok);
    assert!(out.contains("1 TRN_ZERO") && out.contains("2 RND") && out.contains("SAT_SYM"));
}

/// A `--value` the input format cannot hold (after rounding to nearest, ties to even) is
/// reported with the format's range, never clipped.
#[test]
fn value_outside_the_input_format_is_reported() {
    let args = |v: &'static str| {
        vec![
            "calc", "fixed", "sqrt", "--w", "8", "--i", "4", "--q", "0", "--o", "0", "--value", v,
        ]
    };
    for v in ["100", "-1", "15.96875"] {
        let (ok, _, err) = run(&args(v), "");
        assert!(!ok, "{v}");
        assert_eq!(
            err.trim_end(),
            format!(
                "error: --value: {v} is outside the input format <8,4,unsigned> (from 0 to 15.9375); give a value in range, or its bits with --x"
            )
        );
    }
    // 15.96 rounds to 15.9375 (the nearest step of 1/16), and -0.01 to 0: both in range.
    for (v, bits) in [("15.96", "0xff"), ("-0.01", "0x00")] {
        let (ok, out, err) = run(&args(v), "");
        assert!(ok, "{v}: {err}");
        assert!(out.starts_with(&format!("input   {bits} = ")), "{out}");
    }
}

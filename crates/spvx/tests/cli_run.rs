//! `spvx run` end to end: every bundled example passes its expected outputs (computed by
//! examples/make_examples.py from the source documents, independently of spvx); the
//! command-line form writes output files whose bytes are checked against results computed here
//! with plain integer arithmetic; errors (missing binding, bad SOURCE, bad groups, unknown entry,
//! undefined behaviour under --strict, run-file mistakes with line:column) are clear.

use spvx_testtools::{TempDir, temp_dir};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn spvx() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    spvx()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"))
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

fn example(name: &str) -> String {
    examples().join(name).display().to_string()
}

/// A fresh directory for one test, removed when dropped.
fn tmp(test: &str) -> TempDir {
    temp_dir(&format!("cli-run-{test}"))
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

fn words(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// sat(Σ a_i·b_i + acc) over the four signed bytes of each word: OpSDotAccSatKHR with
/// PackedVectorFormat4x8Bit, written from SPV_KHR_integer_dot_product.
fn sdot_acc_sat(a: u32, b: u32, acc: i32) -> i32 {
    let dot: i64 = (0..4)
        .map(|i| i64::from((a >> (8 * i)) as u8 as i8) * i64::from((b >> (8 * i)) as u8 as i8))
        .sum();
    (dot + i64::from(acc)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// A version-1.0 .npy file, written byte by byte (numpy's format.py layout).
fn npy(descr: &str, len: usize, data: &[u8]) -> Vec<u8> {
    npy_shaped(descr, &format!("({len},)"), data)
}

fn npy_shaped(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

#[test]
fn every_example_passes() {
    let mut ran = 0;
    for entry in std::fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let out = run_in(&examples(), &["run", path.to_str().unwrap()]);
        let stdout = text(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("PASS") && !stdout.contains("FAIL"),
            "{}:\n{stdout}\n{}",
            path.display(),
            text(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 2, "only {ran} run files in examples/");
}

#[test]
fn mixdot_model_switch_changes_the_tiny_case() {
    // Invocation 1 of mixdot.toml: (1, 1)·(2^-24, 2^-24) + 1. Exactly 1 + 2^-23 (0x3f800001),
    // but adding the products to the accumulator one at a time rounds each step back to 1.
    let out = run_in(
        &examples(),
        &[
            "run",
            &example("mixdot.toml"),
            "--mixdot-model",
            "sequential-acc-first",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAIL 0.8 (D16)")
            && stdout.contains("first at element 1 (byte 4): got 1 (0x3f800000), expected 1.0000001192092896 (0x3f800001)"),
        "{stdout}"
    );
}

/// dot4.spvasm (out[i] = sat(dot(a[i], b[i]) + acc[i])) over 64 invocations, with inputs as a
/// raw file, a .npy file, and inline values; the outputs are checked byte by byte.
#[test]
fn command_line_form_writes_every_binding() {
    let scratch = tmp("cli");
    let dir = scratch.path().to_path_buf();
    let a: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x8070_7f80)
        .collect();
    let b: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x85eb_ca6b) ^ 0x7f80_0180)
        .collect();
    let mut acc: Vec<i32> = (0..64).map(|i| i * 1000 - 32000).collect();
    acc[5] = i32::MAX - 10; // saturates upwards when the dot product is positive
    acc[6] = i32::MIN + 10;
    let a_bytes: Vec<u8> = a.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(dir.join("a.bin"), &a_bytes).unwrap();
    let b_bytes: Vec<u8> = b.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(dir.join("b.npy"), npy("|i1", 256, &b_bytes)).unwrap();
    let acc_inline = format!(
        "i32:{}",
        acc.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
    );
    let buf0 = "0.0=a.bin".to_string();
    let buf2 = format!("0.2={acc_inline}");
    let out = run_in(
        &dir,
        &[
            "run",
            &example("dot4.spvasm"),
            "--groups",
            "1",
            "--buffer",
            &buf0,
            "--buffer",
            "0.1=raw:b.npy",
            "--buffer",
            &buf2,
            "--buffer",
            "0.3=zeros:256",
            "--out",
            "out",
            "--threads",
            "2",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let want: Vec<i32> = (0..64).map(|i| sdot_acc_sat(a[i], b[i], acc[i])).collect();
    // The data makes saturation happen (so that the check covers it).
    assert!(want.contains(&i32::MAX) || want.contains(&i32::MIN));
    let got = std::fs::read(dir.join("out/0.3.bin")).unwrap();
    assert_eq!(got, words(&want));
    // Inputs are written back unchanged.
    assert_eq!(std::fs::read(dir.join("out/0.0.bin")).unwrap(), a_bytes);
    assert_eq!(std::fs::read(dir.join("out/0.1.bin")).unwrap(), b_bytes);
    assert_eq!(std::fs::read(dir.join("out/0.2.bin")).unwrap(), words(&acc));
    assert!(text(&out.stdout).contains("no undefined behaviour"));
}

/// A binary module (made by `spvx as`) and spec constants on the command line: the GEMM with
/// KW = 1 (K = 4) and N = 4 over one workgroup, default output directory.
#[test]
fn binary_module_and_spec_constants() {
    let scratch = tmp("spec");
    let dir = scratch.path().to_path_buf();
    let asm = run_in(
        &dir,
        &["as", &example("gemm_int8.spvasm"), "-o", "gemm.spv"],
    );
    assert!(asm.status.success(), "{}", text(&asm.stderr));
    let a: Vec<u32> = (0..4u32)
        .map(|m| 0x0102_03ff_u32.wrapping_mul(m + 1))
        .collect();
    let bt: Vec<u32> = (0..4u32)
        .map(|n| 0x80ff_7f01_u32.rotate_left(8 * n))
        .collect();
    let bias: Vec<i32> = (0..16).map(|i| i * 7 - 50).collect();
    let hex = |v: &[u32]| {
        format!(
            "u32:{}",
            v.iter()
                .map(|w| format!("0x{w:x}"))
                .collect::<Vec<_>>()
                .join(",")
        )
    };
    let bias_src = format!(
        "0.2=i32:{}",
        bias.iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    let out = run_in(
        &dir,
        &[
            "run",
            "gemm.spv",
            "--groups",
            "1,1",
            "--spec",
            "0=1",
            "--spec",
            "1=4",
            "--buffer",
            &format!("0.0={}", hex(&a)),
            "--buffer",
            &format!("0.1={}", hex(&bt)),
            "--buffer",
            &bias_src,
            "--buffer",
            "0.3=zeros:64",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let want: Vec<i32> = (0..16)
        .map(|i| sdot_acc_sat(a[i / 4], bt[i % 4], bias[i]))
        .collect();
    assert_eq!(std::fs::read(dir.join("0.3.bin")).unwrap(), words(&want));
    // Its loop of loads and packed dots runs in the JIT's vector lanes, and the summary says
    // so.
    assert!(
        text(&out.stdout).contains("no undefined behaviour (JIT, vector lanes)"),
        "{}",
        text(&out.stdout)
    );
}

/// examples/tensor.spvasm from the command line: T from a .npy file (3x4 int32), U from a
/// .npy file of sevens (4x3); U is written back as .npy, E as raw bytes; values from the
/// VK_ARM_tensors rules worked out here.
#[test]
fn tensors_from_npy_files() {
    let scratch = tmp("tensor");
    let dir = scratch.path().to_path_buf();
    let t: Vec<i32> = (0..12).map(|k| k * 3 - 7).collect();
    let le = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(dir.join("t.npy"), npy_shaped("<i4", "(3, 4)", &le(&t))).unwrap();
    std::fs::write(
        dir.join("u.npy"),
        npy_shaped("<i4", "(4, 3)", &le(&[7; 12])),
    )
    .unwrap();
    let out = run_in(
        &dir,
        &[
            "run",
            &example("tensor.spvasm"),
            "--groups",
            "1",
            "--tensor",
            "0.0=t.npy",
            "--tensor",
            "0.1=u.npy",
            "--buffer",
            "0.2=zeros:64",
            "--buffer",
            "0.3=zeros:64",
            "--buffer",
            "0.4=zeros:16",
            "--out",
            "out",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // No loop: the one-invocation JIT.
    assert!(
        text(&out.stdout).contains("no undefined behaviour (JIT)"),
        "{}",
        text(&out.stdout)
    );
    let read = |r: usize, c: usize| if r < 3 && c < 4 { t[4 * r + c] } else { -1 };
    let e: Vec<i32> = (0..16).map(|i| read(i / 4, i % 4)).collect();
    assert_eq!(std::fs::read(dir.join("out/0.2.bin")).unwrap(), le(&e));
    // U[c][r] = 2 T[r][c] + 1 for r < 3 (all of U).
    let u: Vec<i32> = (0..12).map(|k| 2 * t[4 * (k % 3) + k / 3] + 1).collect();
    let file = std::fs::read(dir.join("out/0.1.npy")).unwrap();
    let header = text(&file[..file.len() - 48]);
    assert!(
        header.contains("'<i4'") && header.contains("(4, 3"),
        "{header}"
    );
    assert_eq!(&file[file.len() - 48..], le(&u).as_slice());
    assert_eq!(
        std::fs::read(dir.join("out/0.4.bin")).unwrap(),
        le(&[3, 4, 4, 3])
    );
}

fn dot4_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["run", "--groups", "1"];
    v.extend_from_slice(extra);
    v
}

fn fails_with(dir: &Path, args: &[&str], needles: &[&str]) {
    let out = run_in(dir, args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{args:?}: no '{n}' in:\n{stderr}");
    }
}

#[test]
fn command_line_errors() {
    let scratch = tmp("errors");
    let dir = scratch.path().to_path_buf();
    let m = example("dot4.spvasm");
    let three = [
        "--buffer",
        "0.0=zeros:256",
        "--buffer",
        "0.1=zeros:256",
        "--buffer",
        "0.2=zeros:256",
    ];
    // Missing binding: names it, its variable and how to give it.
    let mut args = dot4_args(&[&m]);
    args.extend_from_slice(&three);
    fails_with(
        &dir,
        &args,
        &["binding 0.3", "has no data", "--buffer 0.3="],
    );
    // Bad SOURCE.
    let mut args = dot4_args(&[&m, "--buffer", "0.3=zeros:lots"]);
    args.extend_from_slice(&three);
    fails_with(&dir, &args, &["zeros:BYTES needs a byte count"]);
    let mut args = dot4_args(&[&m, "--buffer", "0.3=missing.bin"]);
    args.extend_from_slice(&three);
    fails_with(&dir, &args, &["cannot read missing.bin"]);
    let mut args = dot4_args(&[&m, "--buffer", "3=zeros:4"]);
    args.extend_from_slice(&three);
    fails_with(&dir, &args, &["is not SET.BINDING"]);
    let mut args = dot4_args(&[&m, "--buffer", "0.3=i8:1,300"]);
    args.extend_from_slice(&three);
    fails_with(&dir, &args, &["300 is outside the range of i8"]);
    // A binding the entry point does not use: a warning (unused_buffer_warns_unless_strict_bindings).
    // Bad groups.
    for g in ["0", "1,2,3,4", "x", "-1"] {
        let mut args = vec!["run", &m, "--groups", g, "--buffer", "0.3=zeros:4"];
        args.extend_from_slice(&three);
        fails_with(&dir, &args, &["--groups"]);
    }
    // Unknown entry point.
    let mut args = dot4_args(&[&m, "--entry", "nope", "--buffer", "0.3=zeros:4"]);
    args.extend_from_slice(&three);
    fails_with(&dir, &args, &["no entry point named 'nope'", "main"]);
    // A tensor for a module without tensors.
    std::fs::write(dir.join("t.npy"), npy("<i4", 1, &[0; 4])).unwrap();
    let mut args = dot4_args(&[&m, "--tensor", "0.5=t.npy", "--buffer", "0.3=zeros:4"]);
    args.extend_from_slice(&three);
    fails_with(&dir, &args, &["uses no tensor at binding 0.5"]);
    // Kernel arguments for a GLCompute entry point: said, not ignored.
    let mut args = dot4_args(&[&m, "--arg", "0=zeros:4", "--buffer", "0.3=zeros:4"]);
    args.extend_from_slice(&three);
    fails_with(&dir, &args, &["--arg 0", "is not a Kernel entry point"]);
    // A Kernel entry point without a required workgroup size needs --local.
    std::fs::write(
        dir.join("kernel.spvasm"),
        "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%k = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
    )
    .unwrap();
    fails_with(
        &dir,
        &dot4_args(&["kernel.spvasm"]),
        &["no LocalSize", "--local"],
    );
    // Text that does not assemble: the assembler's line:column.
    std::fs::write(
        dir.join("bad.spvasm"),
        "OpCapability Shader\nOpNoSuchThing\n",
    )
    .unwrap();
    fails_with(&dir, &dot4_args(&["bad.spvasm"]), &["bad.spvasm:2:1"]);
}

#[test]
fn undefined_behaviour_warns_or_fails_under_strict() {
    let scratch = tmp("strict");
    let dir = scratch.path().to_path_buf();
    let m = example("dot4.spvasm");
    // acc has 4 bytes: invocations 1..63 read it out of bounds.
    let args = [
        "run",
        &m,
        "--groups",
        "1",
        "--buffer",
        "0.0=zeros:256",
        "--buffer",
        "0.1=zeros:256",
        "--buffer",
        "0.2=zeros:4",
        "--buffer",
        "0.3=zeros:256",
        "--threads",
        "1",
    ];
    let out = run_in(&dir, &args);
    assert!(out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        text(&out.stdout).contains("63 undefined-behaviour event(s)"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        stderr.contains("warning: out-of-bounds read of 4 bytes at offset 4"),
        "{stderr}"
    );
    assert!(stderr.contains("dot4.spvasm:50:"), "{stderr}");
    // The instruction's source line, carets under it.
    assert!(
        stderr.contains(&format!(
            "50 |          %vc = OpLoad %uint %pc\n   |          {}\n",
            "^".repeat(22)
        )),
        "{stderr}"
    );
    let mut strict = args.to_vec();
    strict.push("--strict");
    fails_with(
        &dir,
        &strict,
        &[
            "undefined behaviour (strict mode)",
            "OpLoad",
            "invocation (1, 0, 0)",
            "workgroup (0, 0, 0)",
            "dot4.spvasm:50:",
        ],
    );
}

/// Writes `body` as a run file next to a copy of dot4.spvasm and runs it.
fn run_file(test: &str, body: &str) -> Output {
    // A prefix keeps these directories apart from those of tests with the same name.
    let scratch = tmp(&format!("run-file-{test}"));
    let dir = scratch.path().to_path_buf();
    std::fs::copy(examples().join("dot4.spvasm"), dir.join("dot4.spvasm")).unwrap();
    std::fs::write(dir.join("run.toml"), body).unwrap();
    run_in(&dir, &["run", "run.toml"])
}

const DOT4_HEAD: &str = "module = \"dot4.spvasm\"\ngroups = 1\n";

#[test]
fn run_file_pass_and_fail() {
    // Invocations 0 and 1: a = (1, -2, 3, -4)·(5, 6, -7, 8) + 100 = 5 - 12 - 21 - 32 + 100 = 40;
    // a = (127, 127, 127, 127)·(127, 127, 127, 127) + (2^31 - 1) saturates to 2^31 - 1.
    let data = "[[buffer]]\nbinding = 0\ndata = { i8 = [1, -2, 3, -4, 127, 127, 127, 127] }\n\
                [[buffer]]\nbinding = 1\ndata = { i8 = [5, 6, -7, 8, 127, 127, 127, 127] }\n\
                [[buffer]]\nbinding = 2\ndata = { i32 = [100, 2147483647] }\n\
                [[buffer]]\nbinding = 3\ndata = { zeros = 8 }\n";
    let good = format!("{DOT4_HEAD}{data}expect = {{ i32 = [40, 2147483647] }}\n");
    let out = run_file("pass", &good);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("PASS 0.3: 2 i32 elements match"));
    let bad = format!("{DOT4_HEAD}{data}expect = {{ i32 = [40, 2147483646] }}\n");
    let out = run_file("fail", &bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(
            "FAIL 0.3: 1 of 2 i32 elements differ; first at element 1 (byte 4): got 2147483647 (0x7fffffff), expected 2147483646 (0x7ffffffe)"
        ),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn run_file_errors_have_line_and_column() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "unknown_key",
            "module = \"dot4.spvasm\"\ngroups = 1\ncolour = 3\n",
            &["run.toml:3:1", "unknown field `colour`"],
        ),
        (
            "wrong_type",
            "module = \"dot4.spvasm\"\ngroups = 1\n[[buffer]]\nbinding = \"zero\"\ndata = { zeros = 4 }\n",
            &["run.toml:4:11", "invalid type"],
        ),
        (
            "range",
            "module = \"dot4.spvasm\"\ngroups = 1\n[[buffer]]\nbinding = 0\ndata = { i8 = [1, 200] }\n",
            &["run.toml:5:19", "200 is outside the range of i8"],
        ),
        (
            "two_sources",
            "module = \"dot4.spvasm\"\ngroups = 1\n[[buffer]]\nbinding = 0\ndata = { zeros = 4, u8 = [1] }\n",
            &["run.toml:5:8", "2 data sources"],
        ),
        (
            "random_expect",
            "module = \"dot4.spvasm\"\ngroups = 1\n[[buffer]]\nbinding = 0\ndata = { zeros = 4 }\nexpect = { random = \"u8\", count = 4 }\n",
            &["run.toml:6:21", "cannot be random"],
        ),
        (
            "groups",
            "module = \"dot4.spvasm\"\ngroups = [1, 0]\n",
            &["run.toml:2:10", "counts start at 1"],
        ),
        (
            "float_in_int",
            "module = \"dot4.spvasm\"\ngroups = 1\n[[buffer]]\nbinding = 0\ndata = { u32 = [1.5] }\n",
            &["run.toml:5:17", "not an integer"],
        ),
        (
            "tensor",
            "module = \"dot4.spvasm\"\ngroups = 1\n[[tensor]]\nbinding = 0\n",
            &["run.toml:3:1", "missing field `data`"],
        ),
        (
            "strides",
            "module = \"dot4.spvasm\"\ngroups = 1\n[[tensor]]\nbinding = 0\nshape = [2, 2]\nstrides = [8]\ndata = { zeros = 16 }\n",
            &["run.toml:3:1", "1 strides for a shape of 2 dimensions"],
        ),
        (
            "kernel_arg",
            "module = \"dot4.spvasm\"\ngroups = 1\n[[arg]]\nindex = 0\n",
            &["run.toml:3:1", "exactly one of `data"],
        ),
        (
            "missing_module",
            "groups = 1\n",
            &["missing field `module`"],
        ),
    ];
    for (name, body, needles) in cases {
        let out = run_file(name, body);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        for n in *needles {
            assert!(stderr.contains(n), "{name}: no '{n}' in:\n{stderr}");
        }
    }
}

#[test]
fn help_documents_the_run_file_schema() {
    let out = run_in(&examples(), &["run", "--help"]);
    let help = text(&out.stdout);
    for key in [
        "SET.BINDING=SOURCE",
        "zeros:BYTES",
        "[[buffer]]",
        "expect",
        "random",
        "seed",
        "--strict",
        "--arg N=SOURCE",
        "[[arg]]",
        "local:BYTES",
    ] {
        assert!(help.contains(key), "--help lacks {key}");
    }
}

#[test]
fn dispatch_limit_from_the_command_line() {
    // examples/gemm_int8.toml dispatches 2x2 workgroups of 4x4 invocations: 64 in all.
    let scratch = tmp("dispatch_limit");
    let dir = scratch.path().to_path_buf();
    let file = example("gemm_int8.toml");
    fails_with(
        &dir,
        &["run", &file, "--max-invocations", "63"],
        &[
            "(64 in all) exceeds the limit of 63 invocations (`--max-invocations N`; run files and Python: `max_invocations`)",
        ],
    );
    // The step limit names the option that raises it, not the engine's field.
    fails_with(
        &dir,
        &["run", &file, "--max-steps", "10", "--no-jit"],
        &[
            "step limit of 10 reached in workgroup",
            "raise the limit with `--max-steps N` (run files and Python: `max_steps`) if the program is just long",
        ],
    );
    fails_with(
        &dir,
        &["run", &file, "--max-invocations", "0"],
        &["the dispatch limit must be at least 1 invocation"],
    );
    let ok = run_in(&dir, &["run", &file, "--max-invocations", "64"]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
}

/// The validator's limits on the command line (as spirv-val's options): the gemm_int8 example
/// has one structure without structure members (nesting depth 1) and an id bound of 50; a
/// limit just below fails with the validator's error naming it, a limit at the value runs
/// (given with a run file; the command-line form takes them alike).
#[test]
fn validator_limits_from_the_command_line() {
    let scratch = tmp("limits");
    let dir = scratch.path().to_path_buf();
    let toml = example("gemm_int8.toml");
    fails_with(
        &dir,
        &["run", &toml, "--max-struct-depth", "0"],
        &["structure nesting depth is 1, more than the limit 0"],
    );
    fails_with(
        &dir,
        &["run", &toml, "--max-id-bound", "49"],
        &["id bound 50", "max id bound 49"],
    );
    let ok = run_in(
        &dir,
        &[
            "run",
            &toml,
            "--max-struct-depth",
            "1",
            "--max-id-bound",
            "50",
        ],
    );
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
}

/// x[0] *= 2.0 over a StorageBuffer block of floats, binding 0.0 named `x`.
const DOUBLE_F32: &str = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\" %x
OpExecutionMode %main LocalSize 1 1 1
OpName %x \"x\"
OpDecorate %arr ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %x DescriptorSet 0
OpDecorate %x Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%arr = OpTypeRuntimeArray %float
%Buf = OpTypeStruct %arr
%ptr = OpTypePointer StorageBuffer %Buf
%pf = OpTypePointer StorageBuffer %float
%x = OpVariable %ptr StorageBuffer
%i0 = OpConstant %int 0
%two = OpConstant %float 2
%main = OpFunction %void None %fn
%l = OpLabel
%p = OpAccessChain %pf %x %i0 %i0
%v = OpLoad %float %p
%d = OpFMul %float %v %two
OpStore %p %d
OpReturn
OpFunctionEnd
";

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn f64s(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Issue 20 item 2 / issue 24 item 2: a .npy input or expectation whose dtype is not the
/// binding's element type (the one scalar type of its block) is an error naming both dtypes,
/// the binding and the file; `raw:FILE` (run files: `raw = true`) takes its bytes as they are.
#[test]
fn npy_dtype_is_checked_against_the_binding() {
    let scratch = tmp("npy-dtype");
    let dir = scratch.path().to_path_buf();
    std::fs::write(dir.join("m.spvasm"), DOUBLE_F32).unwrap();
    std::fs::write(dir.join("d.npy"), npy("<f8", 2, &f64s(&[1.5, 2.5]))).unwrap();
    std::fs::write(dir.join("f.npy"), npy("<f4", 2, &f32s(&[1.5, 2.5]))).unwrap();
    let base = ["run", "m.spvasm", "--groups", "1", "--out", "out"];
    // float64 data into a float buffer: an error, not garbage.
    let mut args = base.to_vec();
    args.extend(["--buffer", "0.0=d.npy"]);
    fails_with(
        &dir,
        &args,
        &["d.npy", "f64 (<f8)", "binding 0.0 'x'", "f32", "raw:d.npy"],
    );
    assert!(!dir.join("out").exists());
    // The binding's own dtype runs.
    let mut args = base.to_vec();
    args.extend(["--buffer", "0.0=f.npy"]);
    let out = run_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(dir.join("out/0.0.bin")).unwrap(),
        f32s(&[3.0, 2.5])
    );
    // Raw bytes when asked for: the 16 bytes of the two doubles, the first 4 doubled as f32.
    let mut args = base.to_vec();
    args.extend(["--buffer", "0.0=raw:d.npy"]);
    let out = run_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let raw = f64s(&[1.5, 2.5]);
    let mut want = raw.clone();
    let first = f32::from_le_bytes(raw[..4].try_into().unwrap()) * 2.0;
    want[..4].copy_from_slice(&first.to_le_bytes());
    assert_eq!(std::fs::read(dir.join("out/0.0.bin")).unwrap(), want);
    // Expectations: a float64 .npy for a float buffer is the same error (not a FAIL line
    // comparing f64 elements); raw = true compares its bytes.
    std::fs::write(dir.join("e.npy"), npy("<f8", 1, &f64s(&[3.0]))).unwrap();
    std::fs::write(dir.join("e4.npy"), npy("<f4", 1, &f32s(&[3.0]))).unwrap();
    let head = "module = \"m.spvasm\"\ngroups = 1\n[[buffer]]\nbinding = 0\n";
    std::fs::write(
        dir.join("bad.toml"),
        format!("{head}data = {{ f32 = [1.5] }}\nexpect = {{ file = \"e.npy\" }}\n"),
    )
    .unwrap();
    fails_with(
        &dir,
        &["run", "bad.toml"],
        &["e.npy", "f64 (<f8)", "binding 0.0 'x'", "f32", "raw = true"],
    );
    std::fs::write(
        dir.join("good.toml"),
        format!(
            "{head}data = {{ file = \"d.npy\", raw = true }}\nexpect = {{ file = \"e4.npy\" }}\n"
        ),
    )
    .unwrap();
    let out = run_in(&dir, &["run", "good.toml"]);
    let stdout = text(&out.stdout);
    // 1.5f64's low word is 0, so x[0] is 0.0 and stays 0.0: the expectation (3.0) fails,
    // compared as f32.
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("FAIL 0.0 (x): 1 of 1 f32 elements differ"),
        "{stdout}"
    );
    std::fs::write(
        dir.join("f32_expect.toml"),
        format!("{head}data = {{ f32 = [1.5] }}\nexpect = {{ file = \"e4.npy\" }}\n"),
    )
    .unwrap();
    let out = run_in(&dir, &["run", "f32_expect.toml"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // raw only goes with a file.
    std::fs::write(
        dir.join("raw_zeros.toml"),
        format!("{head}data = {{ zeros = 4, raw = true }}\n"),
    )
    .unwrap();
    fails_with(&dir, &["run", "raw_zeros.toml"], &["raw = true", "file"]);
}

/// Issue 20 item 2: a buffer the entry point does not use is a warning naming it (Vulkan and
/// Amber bind such buffers routinely); `--strict-bindings` makes it an error.
#[test]
fn unused_buffer_warns_unless_strict_bindings() {
    let scratch = tmp("unused");
    let dir = scratch.path().to_path_buf();
    let m = example("dot4.spvasm");
    let mut args = dot4_args(&[&m, "--out", "out"]);
    for b in [
        "0.0=zeros:256",
        "0.1=zeros:256",
        "0.2=zeros:256",
        "0.3=zeros:256",
        "1.0=u32:7",
    ] {
        args.extend(["--buffer", b]);
    }
    let out = run_in(&dir, &args);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "warning: --buffer 1.0: the entry point uses no buffer at binding 1.0 (it uses: 0.0, 0.1, 0.2, 0.3); it is kept and written back unchanged"
        ),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(dir.join("out/1.0.bin")).unwrap(),
        [7, 0, 0, 0]
    );
    args.push("--strict-bindings");
    fails_with(
        &dir,
        &args,
        &[
            "error: --buffer 1.0: the entry point uses no buffer at binding 1.0 (it uses: 0.0, 0.1, 0.2, 0.3)",
        ],
    );
    // Run files: strict_bindings = true.
    let body = format!(
        "{DOT4_HEAD}[[buffer]]\nbinding = 0\ndata = {{ zeros = 4 }}\n[[buffer]]\nbinding = 1\ndata = {{ zeros = 4 }}\n[[buffer]]\nbinding = 2\ndata = {{ zeros = 4 }}\n[[buffer]]\nbinding = 3\ndata = {{ zeros = 4 }}\n[[buffer]]\nset = 2\nbinding = 5\ndata = {{ zeros = 4 }}\nexpect = {{ zeros = 4 }}\n"
    );
    let out = run_file("unused-warn", &body);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("uses no buffer at binding 2.5"));
    assert!(
        text(&out.stdout).contains("PASS 2.5"),
        "{}",
        text(&out.stdout)
    );
    let out = run_file("unused-strict", &format!("strict_bindings = true\n{body}"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("uses no buffer at binding 2.5"),
        "{}",
        text(&out.stderr)
    );
}

/// `--out` takes a directory: a file name (`res.npy`), `-` and an existing file are refused
/// before the run, and nothing is created.
#[test]
fn out_must_name_a_directory() {
    let scratch = tmp("out-dir");
    let dir = scratch.path().to_path_buf();
    std::fs::write(dir.join("file.txt"), b"x").unwrap();
    let gemm = example("gemm_int8.toml");
    for (out, says) in [
        ("res.npy", "names a file; --out takes a directory"),
        ("RES.BIN", "names a file; --out takes a directory"),
        ("-", "standard output cannot hold them"),
        ("file.txt", "exists and is not a directory"),
    ] {
        let o = run_in(&dir, &["run", &gemm, "--out", out]);
        assert_eq!(o.status.code(), Some(1), "--out {out}");
        let err = text(&o.stderr);
        assert!(err.starts_with(&format!("error: --out {out}: ")), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(text(&o.stdout).is_empty(), "nothing ran for --out {out}");
    }
    assert!(!dir.join("res.npy").exists() && !dir.join("RES.BIN").exists());
    assert!(!dir.join("-").exists());
    assert!(dir.join("file.txt").is_file());
}

/// Shader or kernel source where a module is expected: the error names the language and the
/// command that compiles it (instead of an assembler error at line 1).
#[test]
fn source_files_get_a_compile_hint() {
    let scratch = tmp("source-hint");
    let dir = scratch.path().to_path_buf();
    std::fs::write(dir.join("k.comp"), b"#version 450\nvoid main() {}\n").unwrap();
    std::fs::write(dir.join("k.cl"), b"kernel void k() {}\n").unwrap();
    let o = run_in(&dir, &["run", "k.comp", "--groups", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr).trim_end(),
        "error: k.comp is GLSL source, not a SPIR-V module; compile it first: glslangValidator -V --target-env vulkan1.3 k.comp -o k.spv"
    );
    let o = run_in(&dir, &["run", "k.cl", "--groups", "1"]);
    assert!(text(&o.stderr).starts_with(
        "error: k.cl is OpenCL C source, not a SPIR-V module; compile it first: clang-15 "
    ));
}

/// `--format npy`: each buffer as a 1-D .npy of the binding's element type, its data the
/// buffer's bytes; the header read here by hand (NumPy's format.py layout, version 1.0).
#[test]
fn format_npy_writes_typed_arrays() {
    let scratch = tmp("format-npy");
    let dir = scratch.path().to_path_buf();
    let gemm = example("gemm_int8.toml");
    let o = run_in(&dir, &["run", &gemm, "--out", "bin"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run_in(&dir, &["run", &gemm, "--out", "npy", "--format", "npy"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("wrote 0.0.npy 0.1.npy 0.2.npy 0.3.npy in npy"));
    // Binding 0.3 (C) is a block of a runtime array of uint: 64 elements for 8x8.
    let bin = std::fs::read(dir.join("bin/0.3.bin")).unwrap();
    let npy = std::fs::read(dir.join("npy/0.3.npy")).unwrap();
    assert_eq!(&npy[..8], b"\x93NUMPY\x01\x00");
    let header_len = u16::from_le_bytes([npy[8], npy[9]]) as usize;
    let header = std::str::from_utf8(&npy[10..10 + header_len]).unwrap();
    assert!(header.contains("'descr': '<u4'"), "{header}");
    assert!(header.contains("'shape': (64,"), "{header}");
    assert!(header.contains("'fortran_order': False"), "{header}");
    assert_eq!(&npy[10 + header_len..], &bin[..]);
}

/// The `.npy` header's dictionary and the data after it (NumPy's format.py layout, v1.0).
fn npy_parts(file: &[u8]) -> (String, Vec<u8>) {
    assert_eq!(&file[..8], b"\x93NUMPY\x01\x00");
    let n = u16::from_le_bytes([file[8], file[9]]) as usize;
    let header = std::str::from_utf8(&file[10..10 + n])
        .unwrap()
        .trim()
        .to_string();
    (header, file[10 + n..].to_vec())
}

/// `--format npy` gives each buffer the shape and dtype of its block type
/// (tests/run/npy_layouts.spvasm): arrays of arrays n-D, a padded array as records of one
/// `value` field, a struct as one record with its members at their Offsets (runtime array
/// at the buffer's length), a row-major matrix as [row][column]. Headers are the
/// dictionaries NumPy writes for these dtypes (written here by hand from NumPy's dtype
/// descriptions); data is the buffer's bytes as given.
#[test]
fn format_npy_follows_the_block_type() {
    let scratch = tmp("format-npy-layouts");
    let dir = scratch.path().to_path_buf();
    let f = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let a = f(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let b = f(&(0..16).map(|i| i as f32).collect::<Vec<_>>());
    let mut c = [7u32.to_le_bytes(), 99u32.to_le_bytes()].concat();
    c.extend(f(&[0.5, 1.5, 10.0, 20.0]));
    for (name, bytes) in [("a.bin", &a), ("b.bin", &b), ("c.bin", &c)] {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/run/npy_layouts.spvasm");
    let module = module.display().to_string();
    let args = [
        "run",
        &module,
        "--groups",
        "1",
        "--buffer",
        "0.0=a.bin",
        "--buffer",
        "0.1=b.bin",
        "--buffer",
        "0.2=c.bin",
        "--buffer",
        "0.3=a.bin",
        "--out",
        "o",
        "--format",
        "npy",
    ];
    let o = run_in(&dir, &args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let read = |n: &str| npy_parts(&std::fs::read(dir.join("o").join(n)).unwrap());
    let (h, d) = read("0.0.npy");
    assert_eq!(
        h,
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, ), }"
    );
    assert_eq!(d, a);
    let (h, d) = read("0.1.npy");
    assert_eq!(
        h,
        "{'descr': [('value', '<f4'), ('', '|V12'), ], 'fortran_order': False, 'shape': (4, ), }"
    );
    assert_eq!(d, b);
    let (h, d) = read("0.2.npy");
    assert_eq!(
        h,
        "{'descr': [('count', '<u4'), ('', '|V4'), ('v', '<f4', (2,)), ('data', '<f4', (2,)), ], 'fortran_order': False, 'shape': (), }"
    );
    assert_eq!(d, c);
    let (h, d) = read("0.3.npy");
    assert_eq!(
        h,
        "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2, ), }"
    );
    assert_eq!(d, a);
    // A buffer of the runtime-array block that is not whole elements past the fixed part.
    std::fs::write(dir.join("c7.bin"), [&c[..], &[0u8; 3]].concat()).unwrap();
    let mut bad = args.to_vec();
    bad[9] = "0.2=c7.bin";
    let o = run_in(&dir, &bad);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains(
            "binding 0.2: --format npy: the buffer holds 27 bytes; its runtime array of 4-byte elements starts at byte 16, so the bytes are not whole elements; write it with --format bin"
        ),
        "{}",
        text(&o.stderr)
    );
}

/// SPV_EXT_long_vector: an OpTypeVectorIdEXT of 5 components runs (hand-computed result in
/// tests/run/long_vector.spvasm).
#[test]
fn long_vectors_run() {
    let scratch = tmp("long-vector");
    let dir = scratch.path().to_path_buf();
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/run/long_vector.spvasm");
    let args = ["--groups", "1", "--buffer", "0.0=zeros:4", "--print"];
    let mut a = vec!["run", module.to_str().unwrap_or_default()];
    a.extend(args);
    let o = run_in(&dir, &a);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("0.0 u32[1] = [8]"),
        "{}",
        text(&o.stdout)
    );
}

/// SPV_EXT_long_vector: vectors whose component count is a specialization constant (and an
/// OpSpecConstantOp of it) run with the default count and with a specialised one, on the JIT
/// and on the interpreter; the results are computed by hand in
/// tests/run/long_vector_spec.spvasm. A count specialised to 0 is an error naming the type.
#[test]
fn long_vectors_of_spec_constant_length_run_specialised() {
    let scratch = tmp("long-vector-spec");
    let dir = scratch.path().to_path_buf();
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/run/long_vector_spec.spvasm");
    let module = module.to_str().unwrap_or_default();
    let cases: [(&[&str], &str); 4] = [
        (&[], "0.0 u32[7] = [60 32 23 90 8 12 20]"),
        (&["--no-jit"], "0.0 u32[7] = [60 32 23 90 8 12 20]"),
        (&["--spec", "0=8"], "0.0 u32[7] = [280 32 56 420 8 18 20]"),
        (
            &["--spec", "0=8", "--no-jit"],
            "0.0 u32[7] = [280 32 56 420 8 18 20]",
        ),
    ];
    for (extra, want) in cases {
        let mut a = vec![
            "run",
            module,
            "--groups",
            "1",
            "--buffer",
            "0.0=zeros:28",
            "--print",
        ];
        a.extend(extra);
        let o = run_in(&dir, &a);
        assert!(o.status.success(), "{extra:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stdout).contains(want),
            "{extra:?}: {}",
            text(&o.stdout)
        );
    }
    fails_with(
        &dir,
        &[
            "run",
            module,
            "--groups",
            "1",
            "--buffer",
            "0.0=zeros:28",
            "--spec",
            "0=0",
        ],
        &["OpTypeVectorIdEXT %19: the component count %3 is 0 once specialised"],
    );
}

/// `--timings` names every step of the engine run on standard error (durations are not
/// asserted: speed is measured by benchmarks); with a device it is refused.
#[test]
fn timings_name_each_step() {
    let scratch = tmp("timings");
    let dir = scratch.path().to_path_buf();
    let gemm = example("gemm_int8.toml");
    let o = run_in(&dir, &["run", &gemm, "--timings", "--out", "o"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("timings: "))
        .unwrap_or_else(|| panic!("{err}"));
    for step in [
        "module (read, validate, compile) ",
        ", inputs ",
        ", dispatch ",
        ", outputs ",
        ", expectations ",
        "; total ",
    ] {
        assert!(line.contains(step), "{step}: {line}");
    }
    assert!(line.ends_with(" ms (after argument parsing)"), "{line}");
    fails_with(
        &dir,
        &["run", &gemm, "--timings", "--device", "vulkan"],
        &["--timings measures the engine's steps"],
    );
}

/// A bad `format` in a run file names its place; Kernel arguments refuse npy.
#[test]
fn format_errors() {
    let scratch = tmp("format-errors");
    let dir = scratch.path().to_path_buf();
    let toml = std::fs::read_to_string(examples().join("gemm_int8.toml")).unwrap();
    let toml = toml.replace(
        "module = \"gemm_int8.spvasm\"",
        &format!(
            "module = \"{}\"\nformat = \"csv\"",
            example("gemm_int8.spvasm").replace('\\', "/")
        ),
    );
    std::fs::write(dir.join("bad.toml"), toml).unwrap();
    let o = run_in(&dir, &["run", "bad.toml"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("format is \"bin\""), "{err}");
    assert!(err.contains(" --> bad.toml:5:10"), "{err}");
    assert!(err.contains("format = \"csv\""), "{err}");
    let o = run_in(
        &dir,
        &[
            "run",
            &example("opencl_rowdot.toml"),
            "--out",
            "k",
            "--format",
            "npy",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--format npy is for buffer bindings"));
}

fn two_buffers_push() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/run/two_buffers_push.spvasm")
        .display()
        .to_string()
}

/// Every binding without data is named in one error; push-constant data must be the block's
/// size exactly.
#[test]
fn missing_bindings_at_once_and_push_constant_size() {
    let scratch = tmp("missing_push");
    let dir = scratch.path().to_path_buf();
    let m = two_buffers_push();
    let out = run_in(&dir, &["run", &m, "--groups", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let e = text(&out.stderr);
    assert!(
        e.contains(&format!("error: {m}: 3 bindings have no data:")),
        "{e}"
    );
    for line in [
        "binding 0.0 (storage buffer of 4·n bytes) has no data; give --buffer 0.0=SOURCE (a file, or zeros:BYTES) or a [[buffer]] entry in the run file",
        "binding 0.1 (storage buffer of 4·n bytes) has no data; give --buffer 0.1=SOURCE (a file, or zeros:BYTES) or a [[buffer]] entry in the run file",
        "the entry point reads push constants; give them with --push FILE or `push = ...` in the run file",
    ] {
        assert!(e.contains(line), "no '{line}' in:\n{e}");
    }
    let bufs = ["--buffer", "0.0=u32:0", "--buffer", "0.1=u32:0"];
    for (push, bytes) in [("u32:1", 4), ("u32:1,2,3", 12)] {
        let mut args = vec!["run", m.as_str(), "--groups", "1", "--push", push];
        args.extend(bufs);
        fails_with(
            &dir,
            &args,
            &[&format!(
                "error: push constants: {bytes} bytes given, the push-constant block is 8 bytes; give exactly 8"
            )],
        );
    }
    let mut args = vec!["run", m.as_str(), "--groups", "1", "--push", "u32:7,9"];
    args.extend(bufs);
    let out = run_in(&dir, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for b in ["0.0.bin", "0.1.bin"] {
        assert_eq!(
            std::fs::read(dir.join(b)).unwrap_or_default(),
            7u32.to_le_bytes()
        );
    }
}

/// A runtime report names the source place of its instruction (OpLine) and shows the source
/// line when OpSource embeds the text.
#[test]
fn runtime_reports_name_the_source_place() {
    let scratch = tmp("source_place");
    let dir = scratch.path().to_path_buf();
    let m = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/run/oob_with_source.spvasm")
        .display()
        .to_string();
    let out = run_in(
        &dir,
        &["run", &m, "--groups", "1", "--buffer", "0.0=zeros:8"],
    );
    let e = text(&out.stderr);
    assert!(out.status.success(), "{e}");
    assert!(
        e.contains("warning: access-chain index 2 outside an array of 2"),
        "{e}"
    );
    assert!(e.contains("= binding: 0.0 'o'\n"), "{e}");
    assert!(e.contains("  = source: k.comp:4:15\n"), "{e}");
    assert!(
        e.contains("  = source line: void main() { o.v[gl_GlobalInvocationID.x + 1u] = 7u; }\n"),
        "{e}"
    );
    let strict = run_in(
        &dir,
        &[
            "run",
            &m,
            "--groups",
            "1",
            "--buffer",
            "0.0=zeros:8",
            "--strict",
        ],
    );
    assert_eq!(strict.status.code(), Some(1));
    assert!(
        text(&strict.stderr).contains("  = source: k.comp:4:15\n"),
        "{}",
        text(&strict.stderr)
    );
}

/// `--print` shows each buffer after the run as an array in its element type; refused with a
/// device or for a Kernel entry point.
#[test]
fn print_shows_outputs_as_arrays() {
    let scratch = tmp("print");
    let dir = scratch.path().to_path_buf();
    let m = two_buffers_push();
    let out = run_in(
        &dir,
        &[
            "run",
            &m,
            "--groups",
            "1",
            "--buffer",
            "0.0=u32:5,1,2",
            "--buffer",
            "0.1=u32:9,8",
            "--push",
            "u32:7,2",
            "--print",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("\n0.0 u32[3] = [7 1 2]\n0.1 u32[2] = [7 8]\n"),
        "{stdout}"
    );
    fails_with(
        &dir,
        &[
            "run",
            &m,
            "--groups",
            "1",
            "--buffer",
            "0.0=u32:0",
            "--buffer",
            "0.1=u32:0",
            "--push",
            "u32:7,2",
            "--print",
            "--device",
            "vulkan",
        ],
        &[
            "error: --print shows the engine's outputs; with --device, compare them with `spvx diff`",
        ],
    );
}

/// The JIT's code cache (`SPVX_JIT_CACHE`, else `$XDG_CACHE_HOME/spvx/jit`): the first run of
/// a module fills it, the second finds everything there (no new entry) and gives the same
/// expected outputs; `off` writes nothing; `spvx bench` never uses it.
#[test]
fn the_jit_code_cache_follows_the_environment() {
    let dir = tmp("jit-cache");
    let xdg = dir.path().join("xdg");
    let chosen = dir.path().join("chosen");
    let run = |cache: Option<&Path>, args: &[&str]| {
        let mut c = spvx();
        c.current_dir(examples())
            .args(args)
            .env("XDG_CACHE_HOME", &xdg);
        match cache {
            Some(d) => c.env("SPVX_JIT_CACHE", d),
            None => c.env_remove("SPVX_JIT_CACHE"),
        };
        let out = c.output().expect("spvx runs");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let count = |d: &Path| std::fs::read_dir(d).map_or(0, |e| e.count());
    let gemm = example("gemm_int8.toml");

    assert!(run(Some(Path::new("off")), &["run", &gemm]).contains("PASS"));
    assert!(!xdg.exists(), "off: nothing written");
    let set = examples().join("../bench/set.toml").display().to_string();
    let bench = [
        "bench",
        "--set",
        &set,
        "--filter",
        "example_gemm_int8",
        "--rounds",
        "1",
    ];
    assert!(run(None, &bench).contains("example_gemm_int8"));
    assert!(!xdg.exists(), "spvx bench: nothing written");

    assert!(run(None, &["run", &gemm]).contains("PASS"));
    let default = xdg.join("spvx").join("jit");
    let first = count(&default);
    assert!(first > 0, "the default directory holds the functions");
    let mut second = spvx();
    second
        .current_dir(examples())
        .args(["run", &gemm, "--timings"])
        .env("XDG_CACHE_HOME", &xdg)
        .env_remove("SPVX_JIT_CACHE");
    let out = second.output().expect("spvx runs");
    assert!(text(&out.stdout).contains("PASS"));
    // (Every function reused: one entry can serve two functions alike, the call-out
    // trampoline of the scalar code and of the vector lanes.)
    let err = text(&out.stderr);
    assert!(
        err.contains("JIT code cache (") && err.contains(" functions reused, 0 compiled"),
        "{err}"
    );
    assert_eq!(
        count(&default),
        first,
        "the second run compiled nothing new"
    );

    assert!(run(Some(&chosen), &["run", &gemm]).contains("PASS"));
    assert_eq!(count(&chosen), first, "SPVX_JIT_CACHE names the directory");
}

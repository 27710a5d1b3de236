//! `spvx run` with Kernel (OpenCL) entry points: `--arg N=SOURCE` (buffers, values,
//! `local:BYTES`), `--local`, `DIR/arg.N.bin` outputs, `[[arg]]` in run files with expected
//! data, and the errors for missing, extra and mismatched arguments. The kernels are the
//! clang-15 + llvm-spirv-15 modules of crates/spvx-exec/tests/corpus/opencl/; expected values
//! are computed here from the OpenCL C source.

use spvx_testtools::{TempDir, temp_dir};
use std::path::Path;
use std::process::Output;

fn corpus(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-exec/tests/corpus/opencl")
        .join(name)
        .display()
        .to_string()
}

fn tmp(test: &str) -> TempDir {
    temp_dir(&format!("cli-kernel-{test}"))
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_spvx"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"))
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
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
fn saxpy_from_the_command_line_writes_arg_files() {
    let scratch = tmp("saxpy");
    let dir = scratch.path().to_path_buf();
    let m = corpus("saxpy.spv");
    let out = run_in(
        &dir,
        &[
            "run",
            &m,
            "--groups",
            "2",
            "--local",
            "4",
            "--arg",
            "0=f32:2.5",
            "--arg",
            "1=f32:1,2,3,4,5,6,7,8",
            "--arg",
            "2=f32:0.5,0.5,0.5,0.5,-1,-1,-1,-1",
            "--out",
            "o",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("2x1x1 workgroups of 4x1x1 invocations"));
    let y: Vec<f32> = std::fs::read(dir.join("o/arg.2.bin"))
        .unwrap()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let want: Vec<f32> = (1..=8)
        .map(|i| 2.5 * i as f32 + if i <= 4 { 0.5 } else { -1.0 })
        .collect();
    assert_eq!(y, want);
    assert!(dir.join("o/arg.1.bin").exists(), "inputs are written too");
}

#[test]
fn reduce_run_file_with_local_memory_and_expectations() {
    let scratch = tmp("reduce");
    let dir = scratch.path().to_path_buf();
    let input: Vec<i32> = (0..32).map(|i| i * i - 100).collect();
    let sums = [
        input[..16].iter().sum::<i32>(),
        input[16..].iter().sum::<i32>(),
    ];
    let list = |v: &[i32]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let body = format!(
        "module = {:?}\ngroups = 2\n\n[[arg]]\nindex = 0\ndata = {{ i32 = [{}] }}\n\n[[arg]]\nindex = 1\ndata = {{ zeros = 8 }}\nexpect = {{ i32 = [{}] }}\n\n[[arg]]\nindex = 2\nlocal = \"64\"\n\n[[arg]]\nindex = 3\ndata = {{ zeros = 2048 }}\n",
        corpus("reduce.spv"),
        list(&input),
        list(&sums)
    );
    std::fs::write(dir.join("run.toml"), &body).unwrap();
    let out = run_in(&dir, &["run", "run.toml"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("PASS arg 1 (sums): 2 i32 elements match"),
        "{stdout}"
    );
    // A wrong expectation fails with the element named.
    let wrong = body.replace(
        &format!("[{}] }}\n\n[[arg]]\nindex = 2", list(&sums)),
        "[0, 0] }\n\n[[arg]]\nindex = 2",
    );
    std::fs::write(dir.join("wrong.toml"), wrong).unwrap();
    let out = run_in(&dir, &["run", "wrong.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("FAIL arg 1 (sums)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn kernel_argument_errors_are_clear() {
    let scratch = tmp("errors");
    let dir = scratch.path().to_path_buf();
    let m = corpus("saxpy.spv");
    let base = ["run", m.as_str(), "--groups", "1", "--local", "4"];
    let with = |extra: &[&'static str]| {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    fails_with(
        &dir,
        &with(&["--arg", "0=f32:1", "--arg", "1=zeros:16"]),
        &["argument 2 'y' (__global buffer) has no value", "--arg 2="],
    );
    fails_with(
        &dir,
        &with(&[
            "--arg",
            "0=f64:1",
            "--arg",
            "1=zeros:16",
            "--arg",
            "2=zeros:16",
        ]),
        &["argument 0 'a' (value) is 4 bytes, 8 bytes were given"],
    );
    fails_with(
        &dir,
        &with(&[
            "--arg",
            "0=f32:1",
            "--arg",
            "1=local:16",
            "--arg",
            "2=zeros:16",
        ]),
        &["argument 1 'x' (__global buffer) takes --arg 1=FILE"],
    );
    fails_with(
        &dir,
        &with(&[
            "--arg",
            "0=f32:1",
            "--arg",
            "1=zeros:16",
            "--arg",
            "2=zeros:16",
            "--arg",
            "3=zeros:4",
        ]),
        &["--arg 3", "has 3 argument(s)"],
    );
    fails_with(
        &dir,
        &with(&["--arg", "0=f32:1", "--arg", "0=f32:2"]),
        &["argument 0 is already given"],
    );
    fails_with(
        &dir,
        &with(&["--arg", "x=f32:1"]),
        &["'x' is not an argument index"],
    );
    fails_with(
        &dir,
        &with(&["--buffer", "0.0=zeros:4"]),
        &["'saxpy' is a Kernel entry point", "--arg N=SOURCE"],
    );
    fails_with(
        &dir,
        &["run", &m, "--groups", "1", "--local", "0"],
        &["--local 0"],
    );
    // No local size for a kernel that requires none.
    fails_with(
        &dir,
        &[
            "run",
            &m,
            "--groups",
            "1",
            "--arg",
            "0=f32:1",
            "--arg",
            "1=zeros:16",
            "--arg",
            "2=zeros:16",
        ],
        &["no LocalSize", "--local"],
    );
    // A local size that differs from reqd_work_group_size.
    let r = corpus("reduce.spv");
    fails_with(
        &dir,
        &[
            "run",
            &r,
            "--groups",
            "1",
            "--local",
            "8",
            "--arg",
            "0=zeros:64",
            "--arg",
            "1=zeros:4",
            "--arg",
            "2=local:64",
            "--arg",
            "3=zeros:1024",
        ],
        &["differs from the kernel's required workgroup size"],
    );
}

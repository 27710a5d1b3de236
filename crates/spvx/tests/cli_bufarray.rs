//! `spvx run` with an array of buffers (spvx-exec's corpus shader bufarray.comp,
//! `buffer B { uint v[]; } bufs[3]`): `--buffer SET.BINDING[INDEX]=SOURCE` and run-file
//! `index = N` bind the elements, each element is written to DIR/SET.BINDING.INDEX.bin (plain
//! bindings keep DIR/SET.BINDING.bin), and a missing element is named. Expected bytes are
//! computed here from the GLSL source with wrapping u32 arithmetic.

use spvx_testtools::{TempDir, temp_dir};
use std::path::Path;
use std::process::Output;

fn shader() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-exec/tests/corpus/glsl/bufarray.comp.spv")
        .display()
        .to_string()
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_spvx"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"))
}

fn tmp(test: &str) -> TempDir {
    temp_dir(&format!("cli-bufarray-{test}"))
}

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// The three inputs (element 2 is 10 words long: `bufs[2].v.length()` = 10), and the expected
/// `outp.r` and `bufs[1].v` after one workgroup of 8.
fn case() -> ([Vec<u32>; 3], Vec<u32>, Vec<u32>) {
    let a: Vec<u32> = (1..=8).collect();
    let b: Vec<u32> = (0..8).map(|i| 0xffff_fff0 + i).collect();
    let c: Vec<u32> = (0..10).map(|i| 1000 * i + 7).collect();
    let sums: Vec<u32> = (0..8)
        .map(|i| {
            a[i].wrapping_add(b[i].wrapping_mul(2))
                .wrapping_add(c[i].wrapping_mul(3))
        })
        .collect();
    let out = sums.iter().map(|s| s.wrapping_add(10)).collect();
    ([a, b, c], out, sums)
}

#[test]
fn buffer_elements_on_the_command_line() {
    let scratch = tmp("cmdline");
    let dir = scratch.path().to_path_buf();
    let ([a, b, c], out, sums) = case();
    let (a, b, c) = (
        format!("0.0=u32:{}", list(&a)),
        format!("0.0[1]=u32:{}", list(&b)),
        format!("0.0[2]=u32:{}", list(&c)),
    );
    let shader = shader();
    let o = run_in(
        &dir,
        &[
            "run",
            &shader,
            "--groups",
            "1",
            "--buffer",
            &a,
            "--buffer",
            &b,
            "--buffer",
            &c,
            "--buffer",
            "0.1=zeros:32",
            "--out",
            "o",
        ],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let read =
        |n: &str| std::fs::read(dir.join("o").join(n)).unwrap_or_else(|e| panic!("{n}: {e}"));
    assert_eq!(read("0.1.bin"), le(&out));
    assert_eq!(read("0.0.1.bin"), le(&sums));
    assert_eq!(read("0.0.0.bin"), le(&case().0[0]));
    assert_eq!(read("0.0.2.bin"), le(&case().0[2]));
    assert!(
        !dir.join("o/0.0.bin").exists(),
        "elements are named SET.BINDING.INDEX.bin"
    );
}

#[test]
fn buffer_elements_in_a_run_file_with_expectations() {
    let scratch = tmp("runfile");
    let dir = scratch.path().to_path_buf();
    let ([a, b, c], out, sums) = case();
    let toml = format!(
        "module = \"{}\"\ngroups = [1]\nout = \"o\"\n\
         [[buffer]]\nbinding = 0\ndata = {{ u32 = [{}] }}\n\
         [[buffer]]\nbinding = 0\nindex = 1\ndata = {{ u32 = [{}] }}\nexpect = {{ u32 = [{}] }}\n\
         [[buffer]]\nbinding = 0\nindex = 2\ndata = {{ u32 = [{}] }}\n\
         [[buffer]]\nbinding = 1\ndata = {{ u32 = [0, 0, 0, 0, 0, 0, 0, 0] }}\nexpect = {{ u32 = [{}] }}\n",
        shader().replace('\\', "/"),
        list(&a),
        list(&b),
        list(&sums),
        list(&c),
        list(&out)
    );
    std::fs::write(dir.join("run.toml"), toml).unwrap_or_else(|e| panic!("{e}"));
    let o = run_in(&dir, &["run", "run.toml"]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(stdout.matches("PASS 0.").count(), 2, "{stdout}");
    assert!(stdout.contains("0.0[1]"), "{stdout}");
    assert!(dir.join("o/0.0.2.bin").exists());
}

#[test]
fn missing_element_is_named() {
    let scratch = tmp("missing");
    let dir = scratch.path().to_path_buf();
    let shader = shader();
    let o = run_in(
        &dir,
        &[
            "run",
            &shader,
            "--groups",
            "1",
            "--buffer",
            "0.0=zeros:32",
            "--buffer",
            "0.0[1]=zeros:32",
            "--buffer",
            "0.1=zeros:32",
        ],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(stderr.contains("binding 0.0[2]"), "{stderr}");
    assert!(stderr.contains("--buffer 0.0[2]=SOURCE"), "{stderr}");
    let o = run_in(
        &dir,
        &[
            "run",
            &shader,
            "--groups",
            "1",
            "--buffer",
            "0.0=zeros:32",
            "--buffer",
            "0.0[1]=zeros:32",
            "--buffer",
            "0.0[2]=zeros:32",
            "--buffer",
            "0.1=zeros:32",
            "--buffer",
            "0.0[3]=zeros:4",
        ],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        stderr.contains("uses no buffer at binding 0.0[3]") && stderr.contains("0.0[2]"),
        "{stderr}"
    );
}

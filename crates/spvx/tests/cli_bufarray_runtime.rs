//! `spvx run` with a runtime-length array of buffers (spvx-exec's corpus shader
//! bufarray_runtime.comp, `buffer B { uint v[]; } bufs[];`): the array has as many elements as
//! `--buffer 0.0[INDEX]=` gives, each written to DIR/0.0.INDEX.bin; a gap is named. Expected
//! bytes are computed here from the GLSL source with wrapping u32 arithmetic.

use spvx_testtools::{TempDir, temp_dir};
use std::path::Path;
use std::process::Output;

fn shader() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-exec/tests/corpus/glsl/bufarray_runtime.comp.spv")
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
    temp_dir(&format!("cli-bufarray-runtime-{test}"))
}

fn list(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn as_many_elements_as_given() {
    let scratch = tmp("elements");
    let dir = scratch.path().to_path_buf();
    // One workgroup of 8; three elements of 8, 9 and 10 words.
    let inputs: Vec<Vec<u32>> = (0..3u32)
        .map(|k| (0..8 + k).map(|j| 1000 * k + 7 * j + 1).collect())
        .collect();
    let mut out = vec![0u32; 17];
    out[0] = 3;
    let args: Vec<String> = inputs
        .iter()
        .enumerate()
        .map(|(k, v)| format!("0.0[{k}]=u32:{}", list(v)))
        .collect();
    let out_arg = format!("0.1=u32:{}", list(&out));
    let shader = shader();
    let mut cmd = vec!["run", &shader, "--groups", "1", "--out", "out"];
    for a in &args {
        cmd.extend(["--buffer", a.as_str()]);
    }
    cmd.extend(["--buffer", out_arg.as_str()]);
    let o = run_in(&dir, &cmd);
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let read = |name: &str| {
        words(&std::fs::read(dir.join("out").join(name)).unwrap_or_else(|e| panic!("{name}: {e}")))
    };
    let mut after = inputs.clone();
    let got = read("0.1.bin");
    for i in 0..8usize {
        let sum = (0..3).fold(0u32, |s, k| {
            s.wrapping_add(inputs[k][i].wrapping_mul(k as u32 + 1))
                .wrapping_add(inputs[k].len() as u32)
        });
        assert_eq!(got[1 + 2 * i], sum, "sum {i}");
        // bufs[7] is past the three elements: it reads 0.
        assert_eq!(got[2 + 2 * i], 1, "bufs[7] {i}");
        after[i % 3][i] = sum;
    }
    for (k, want) in after.iter().enumerate() {
        assert_eq!(&read(&format!("0.0.{k}.bin")), want, "element {k}");
    }
    assert!(String::from_utf8_lossy(&o.stderr).contains("warning"));
}

#[test]
fn a_gap_is_named() {
    let scratch = tmp("gap");
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
            "0.0[0]=zeros:64",
            "--buffer",
            "0.0[2]=zeros:64",
            "--buffer",
            "0.1=u32:3",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("element 1"), "{err}");
}

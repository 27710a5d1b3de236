//! `spvx run` with an array of tensors (spvx-exec's tests/corpus/tensor_array.spvasm: three
//! rank-1 int32 tensors at binding 0.0): `--tensor SET.BINDING[INDEX]=FILE.npy` and run-file
//! `index = N` bind the elements, each element is written to DIR/SET.BINDING.INDEX.npy, and a
//! missing element is named. Expected values are worked out here from the module's text and
//! the VK_ARM_tensors rules (reads outside give the OutOfBoundsValueARM operand, writes outside
//! have no effect, an index past the array's end selects no tensor).

use spvx_testtools::{TempDir, temp_dir};
use std::path::Path;
use std::process::Output;

fn module() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spvx-exec/tests/corpus/tensor_array.spvasm")
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
    temp_dir(&format!("cli-tensor-array-{test}"))
}

/// A 1-D `<i4` .npy file (format 1.0: magic, version, header length, a header dict padded
/// with spaces to a multiple of 64 bytes ending in a newline, then the data).
fn npy_i32(values: &[i32]) -> Vec<u8> {
    let dict = format!(
        "{{'descr': '<i4', 'fortran_order': False, 'shape': ({},), }}",
        values.len()
    );
    let unpadded = 10 + dict.len() + 1;
    let header = format!(
        "{dict}{}\n",
        " ".repeat(unpadded.next_multiple_of(64) - unpadded)
    );
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    out
}

/// The int32 elements of a 1-D .npy file written by spvx (data after the header).
fn read_npy_i32(bytes: &[u8]) -> Vec<i32> {
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    bytes[10 + len..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Element e holds 2 + e values 10·e + j + 1; returns the inputs, the expected binding 0.1
/// words and the expected elements after the run.
fn case() -> (Vec<Vec<i32>>, Vec<u32>, Vec<Vec<i32>>) {
    let initial: Vec<Vec<i32>> = (0..3)
        .map(|e| (0..2 + e).map(|j| 10 * e + j + 1).collect())
        .collect();
    let out = (0..16usize)
        .map(|i| match initial.get(i % 4) {
            Some(v) => v.get(i / 4).map_or(7777, |&x| x as u32) + 1000 * v.len() as u32,
            None => 7777,
        })
        .collect();
    let after = initial
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let mut w = v.clone();
            for c in 0..4usize {
                if let Some(slot) = w.get_mut(c + 1) {
                    *slot = (4 * c + k + 100) as i32;
                }
            }
            w
        })
        .collect();
    (initial, out, after)
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn check_outputs(dir: &Path, out: &[u32], after: &[Vec<i32>]) {
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(words(&read("0.1.bin")), out);
    for (k, want) in after.iter().enumerate() {
        assert_eq!(
            &read_npy_i32(&read(&format!("0.0.{k}.npy"))),
            want,
            "element {k}"
        );
    }
    assert!(
        !dir.join("0.0.npy").exists(),
        "elements are written with their index"
    );
}

#[test]
fn tensor_elements_on_the_command_line() {
    let scratch = tmp("cmdline");
    let dir = scratch.path().to_path_buf();
    let (initial, out, after) = case();
    for (k, v) in initial.iter().enumerate() {
        std::fs::write(dir.join(format!("t{k}.npy")), npy_i32(v)).unwrap_or_else(|e| panic!("{e}"));
    }
    let m = module();
    let o = run_in(
        &dir,
        &[
            "run",
            &m,
            "--groups",
            "1",
            "--tensor",
            "0.0=t0.npy",
            "--tensor",
            "0.0[1]=t1.npy",
            "--tensor",
            "0.0[2]=t2.npy",
            "--buffer",
            "0.1=zeros:64",
            "--out",
            "out",
        ],
    );
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    check_outputs(&dir.join("out"), &out, &after);
    // The out-of-range index is reported (a warning, the run succeeds).
    assert!(String::from_utf8_lossy(&o.stderr).contains("warning"));
}

#[test]
fn tensor_elements_in_a_run_file() {
    let scratch = tmp("runfile");
    let dir = scratch.path().to_path_buf();
    let (initial, out, after) = case();
    let mut toml = format!("module = {:?}\ngroups = [1]\nout = \"out\"\n", module());
    for (k, v) in initial.iter().enumerate() {
        std::fs::write(dir.join(format!("t{k}.npy")), npy_i32(v)).unwrap_or_else(|e| panic!("{e}"));
        let expect = after[k]
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        toml += &format!(
            "[[tensor]]\nbinding = 0\nindex = {k}\ndata = {{ file = \"t{k}.npy\" }}\nexpect = {{ i32 = [{expect}] }}\n"
        );
    }
    let expect_out = out
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    toml += &format!(
        "[[buffer]]\nbinding = 1\ndata = {{ zeros = 64 }}\nexpect = {{ u32 = [{expect_out}] }}\n"
    );
    std::fs::write(dir.join("run.toml"), toml).unwrap_or_else(|e| panic!("{e}"));
    let o = run_in(&dir, &["run", "run.toml"]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("PASS: 4 of 4"), "{stdout}");
    assert!(stdout.contains("0.0[2]"), "{stdout}");
    check_outputs(&dir.join("out"), &out, &after);
}

#[test]
fn a_missing_tensor_element_is_named() {
    let scratch = tmp("missing");
    let dir = scratch.path().to_path_buf();
    std::fs::write(dir.join("t.npy"), npy_i32(&[1, 2])).unwrap_or_else(|e| panic!("{e}"));
    let m = module();
    let o = run_in(
        &dir,
        &[
            "run",
            &m,
            "--groups",
            "1",
            "--tensor",
            "0.0=t.npy",
            "--tensor",
            "0.0[2]=t.npy",
            "--buffer",
            "0.1=zeros:64",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("0.0[1]") && err.contains("--tensor 0.0[1]=FILE.npy"),
        "{err}"
    );
    let o = run_in(
        &dir,
        &[
            "run",
            &m,
            "--groups",
            "1",
            "--tensor",
            "0.0=t.npy",
            "--tensor",
            "0.0[1]=t.npy",
            "--tensor",
            "0.0[2]=t.npy",
            "--tensor",
            "0.0[3]=t.npy",
            "--buffer",
            "0.1=zeros:64",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("uses no tensor at binding 0.0[3]"), "{err}");
}

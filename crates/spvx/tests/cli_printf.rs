//! `spvx run` prints DebugPrintf records after its summary line, in the report's order
//! (workgroup, LocalInvocationIndex, program order): the glslang shader printf.comp of
//! spvx-exec's corpus, texts checked against values formatted by hand from C's rules.

use std::process::Command;

#[test]
fn run_prints_debug_printf_lines() {
    let module = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../spvx-exec/tests/corpus/glsl/printf.comp.spv"
    );
    let scratch = spvx_testtools::temp_dir("cli-printf");
    let dir = scratch.path();
    let input = dir.join("in.bin");
    let f = [0.5f32, -1.25, 0.0, 2.0, -0.0, 1e10, 1.5, -7.125];
    let bytes: Vec<u8> = f.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(&input, bytes).unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(env!("CARGO_BIN_EXE_spvx"))
        .arg("run")
        .arg(module)
        .args(["--groups", "1", "--buffer"])
        .arg(format!("0.0={}", input.display()))
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("ran 'main'"), "{stdout}");
    assert_eq!(
        lines[1],
        "[workgroup (0, 0, 0) local (0, 0, 0)] -3 0 ff ABC 10  0.50% 0, 0, 0"
    );
    assert_eq!(
        lines[4],
        "[workgroup (0, 0, 0) local (3, 0, 0)] 0 -3 102 ABC 13  2.00% 3, 0, 0"
    );
    assert_eq!(
        lines[5],
        "[workgroup (0, 0, 0) local (0, 1, 0)] wg 0 inv 4: x=-0.000000 e=-0.000000e+00 g=-0 a=-0x0p+0"
    );
    assert_eq!(
        lines[6],
        "[workgroup (0, 0, 0) local (0, 1, 0)] 1 -4 103 ABC 14 -0.00% 0, 1, 0"
    );
    assert_eq!(
        lines[9],
        "[workgroup (0, 0, 0) local (2, 1, 0)] wg 0 inv 6: x=1.500000 e=1.500000e+00 g=1.5 a=0x1.8p+0"
    );
    assert_eq!(lines.len(), 1 + 12 + 1, "{stdout}");
}

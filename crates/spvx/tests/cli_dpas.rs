//! `spvx dpas` end to end: `run` over hex and raw register files (results computed by hand),
//! illegal instructions and syntax errors reported with the rule / line:column, and
//! `matmul` over .npy files written and read here byte by byte (independent of the crate's
//! npy code), checked against products computed here.

use spvx_testtools::{TempDir, temp_dir};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn spvx() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvx"))
}

fn run(args: &[&str]) -> Output {
    spvx()
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run spvx: {e}"))
}

/// The path `name` in `dir` (the test's scratch directory, removed when the test drops it).
fn tmp(dir: &TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

/// A version-1.0 .npy file: `descr` (e.g. "<i4"), 2-D `shape`, C order, raw little-endian data.
fn npy(descr: &str, shape: (usize, usize), data: &[u8], fortran: bool) -> Vec<u8> {
    let mut header = format!(
        "{{'descr': '{descr}', 'fortran_order': {}, 'shape': ({}, {}), }}",
        if fortran { "True" } else { "False" },
        shape.0,
        shape.1
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}

/// Parses a .npy written by spvx: returns (descr, shape, data).
fn read_npy(bytes: &[u8]) -> (String, (usize, usize), Vec<u8>) {
    assert_eq!(&bytes[..6], b"\x93NUMPY");
    let (len, start) = if bytes[6] == 1 {
        (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10)
    } else {
        (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        )
    };
    let header = std::str::from_utf8(&bytes[start..start + len]).unwrap();
    let descr = header
        .split("'descr': '")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap()
        .to_string();
    assert!(header.contains("'fortran_order': False"), "{header}");
    let shape = header
        .split("'shape': (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let dims: Vec<usize> = shape
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect();
    (descr, (dims[0], dims[1]), bytes[start + len..].to_vec())
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn run_hex_register_file() {
    let scratch = temp_dir("cli-dpas");
    let regs = tmp(&scratch, "run.hex");
    // PVC: A rows = bytes 0..32 and 32..64 of r0, all ones; B = r8..r15 all ones.
    let ones = vec!["01010101"; 16].join(" ");
    let mut s = format!("r0: {ones}\n");
    for r in 8..16 {
        s.push_str(&format!("r{r}: {ones}\n"));
    }
    write(&regs, s.as_bytes());
    let prog = tmp(&scratch, "p.dpas");
    write(&prog, b"// two rows\ndpas.s8.s8.8.2 (16) r40:d null r8 r0\ndpas.u8.u8.8.2 (16) r42:ud r40:d r8 r0\n");
    let out = run(&[
        "dpas",
        "run",
        prog.to_str().unwrap(),
        "--regs",
        regs.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let o = text(&out.stdout);
    assert!(
        o.contains(&format!("r40: {}", vec!["00000020"; 16].join(" "))),
        "{o}"
    );
    assert!(
        o.contains(&format!("r43: {}", vec!["00000040"; 16].join(" "))),
        "{o}"
    );
}

#[test]
fn run_raw_register_file_to_raw_output() {
    let scratch = temp_dir("cli-dpas");
    let regs = tmp(&scratch, "run.bin");
    // DG2: 32-byte GRFs. r0 = A row (bytes 1..=32 as s8), r8..r15 = B with B[k][n] = 1 for
    // k = 0 only (byte 0 of r8's dwords).
    let mut image = vec![0u8; 16 * 32];
    for (i, b) in image[..32].iter_mut().enumerate() {
        *b = i as u8 + 1;
    }
    for lane in 0..8 {
        image[8 * 32 + 4 * lane] = 1;
    }
    write(&regs, &image);
    let prog = tmp(&scratch, "raw.dpas");
    write(&prog, b"dpas.s8.s8.8.1 (8) r12:d null r8 r0\n");
    let out_path = tmp(&scratch, "out.bin");
    let out = run(&[
        "dpas",
        "run",
        prog.to_str().unwrap(),
        "--regs",
        regs.to_str().unwrap(),
        "--platform",
        "dg2",
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let res = std::fs::read(&out_path).unwrap();
    assert_eq!(res.len(), 128 * 32);
    // D[0][n] = A[0][0]·1 = 1 — but r12 is inside B (r8..r15): inputs are read before Dst is
    // written, so the result is still 1 in every lane.
    for lane in 0..8 {
        assert_eq!(
            &res[12 * 32 + 4 * lane..12 * 32 + 4 * lane + 4],
            &[1, 0, 0, 0]
        );
    }
}

#[test]
fn run_errors() {
    let scratch = temp_dir("cli-dpas");
    let prog = tmp(&scratch, "bad.dpas");
    write(
        &prog,
        b"dpas.s8.s8.8.8 (16) r40 r32 r8 r0\ndpas.s8.s8.8.8 (8) r40 r32 r8 r0\n",
    );
    let out = run(&["dpas", "run", prog.to_str().unwrap()]);
    assert!(!out.status.success());
    let e = text(&out.stderr);
    // At the failing instruction's line, carets under it.
    assert!(
        e.starts_with("error: instruction 1: ") && e.contains("rule exec-size"),
        "{e}"
    );
    assert!(e.contains("bad.dpas:2:1\n"), "{e}");
    assert!(
        e.contains(&format!(
            "2 | dpas.s8.s8.8.8 (8) r40 r32 r8 r0\n  | {}",
            "^".repeat(32)
        )),
        "{e}"
    );
    write(&prog, b"\ndpas.s8.s8.8.8 (16) r40 r32 r8 q0\n");
    let out = run(&["dpas", "run", prog.to_str().unwrap()]);
    let e = text(&out.stderr);
    assert!(e.starts_with("error: Src2: "), "{e}");
    assert!(e.contains("bad.dpas:2:32\n"), "{e}");
    assert!(
        e.contains("2 | dpas.s8.s8.8.8 (16) r40 r32 r8 q0\n  |                                ^^"),
        "{e}"
    );
    let out = run(&["dpas", "run", prog.to_str().unwrap(), "--platform", "mtl"]);
    assert!(text(&out.stderr).contains("unknown platform `mtl`"));
    let out = run(&["dpas", "run", prog.to_str().unwrap(), "--model", "fastest"]);
    assert!(text(&out.stderr).contains("unknown float model `fastest`"));
    let regs = tmp(&scratch, "short.bin");
    write(&regs, &[0u8; 65]);
    write(&prog, b"dpas.s8.s8.8.8 (16) r40 r32 r8 r0\n");
    let out = run(&[
        "dpas",
        "run",
        prog.to_str().unwrap(),
        "--regs",
        regs.to_str().unwrap(),
    ]);
    assert!(
        text(&out.stderr).contains("not a whole number of 64-byte GRFs"),
        "{}",
        text(&out.stderr)
    );
}

fn matmul(args: &[&str]) -> Output {
    let mut all = vec!["dpas", "matmul"];
    all.extend_from_slice(args);
    run(&all)
}

#[test]
fn matmul_s8_with_c() {
    let scratch = temp_dir("cli-dpas");
    let (m, k, n) = (5, 40, 19);
    let av: Vec<i8> = (0..m * k).map(|i| ((i * 37) % 256) as u8 as i8).collect();
    let bv: Vec<i8> = (0..k * n)
        .map(|i| ((i * 91 + 7) % 256) as u8 as i8)
        .collect();
    let cv: Vec<i32> = (0..m * n).map(|i| i as i32 * 1000 - 7).collect();
    let (a, b, c, d) = (
        tmp(&scratch, "a.npy"),
        tmp(&scratch, "b.npy"),
        tmp(&scratch, "c.npy"),
        tmp(&scratch, "d.npy"),
    );
    write(
        &a,
        &npy(
            "|i1",
            (m, k),
            &av.iter().map(|&v| v as u8).collect::<Vec<_>>(),
            false,
        ),
    );
    write(
        &b,
        &npy(
            "|i1",
            (k, n),
            &bv.iter().map(|&v| v as u8).collect::<Vec<_>>(),
            false,
        ),
    );
    write(
        &c,
        &npy(
            "<i4",
            (m, n),
            &cv.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>(),
            false,
        ),
    );
    for extra in [&[][..], &["--instructions"][..], &["--platform", "dg2"][..]] {
        let mut args = vec![
            "--a",
            a.to_str().unwrap(),
            "--b",
            b.to_str().unwrap(),
            "--c",
            c.to_str().unwrap(),
            "--a-type",
            "s8",
            "--b-type",
            "s8",
            "--dst-type",
            "d",
            "-o",
            d.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = matmul(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let (descr, shape, data) = read_npy(&std::fs::read(&d).unwrap());
        assert_eq!((descr.as_str(), shape), ("<i4", (m, n)));
        for r in 0..m {
            for j in 0..n {
                let want: i64 = i64::from(cv[r * n + j])
                    + (0..k)
                        .map(|t| i64::from(av[r * k + t]) * i64::from(bv[t * n + j]))
                        .sum::<i64>();
                let got = i32::from_le_bytes(
                    data[4 * (r * n + j)..4 * (r * n + j) + 4]
                        .try_into()
                        .unwrap(),
                );
                assert_eq!(i64::from(got), want, "[{r}][{j}] {extra:?}");
            }
        }
    }
}

#[test]
fn matmul_sub_byte_range_checked_and_fortran_order() {
    let scratch = temp_dir("cli-dpas");
    let (m, k, n) = (2, 3, 2);
    // u4 A given in Fortran order: columns first.
    let a_rowmajor: [u8; 6] = [1, 2, 3, 4, 5, 15];
    let a_fortran: Vec<u8> = (0..m * k)
        .map(|i| a_rowmajor[(i % m) * k + i / m])
        .collect();
    let bv: [i8; 6] = [-8, 7, 1, 0, -1, 2];
    let (a, b, d) = (
        tmp(&scratch, "a4.npy"),
        tmp(&scratch, "b4.npy"),
        tmp(&scratch, "d4.npy"),
    );
    write(&a, &npy("|u1", (m, k), &a_fortran, true));
    write(&b, &npy("|i1", (k, n), &bv.map(|v| v as u8), false));
    let out = matmul(&[
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--a-type",
        "u4",
        "--b-type",
        "s4",
        "--dst-type",
        "ud",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (descr, _, data) = read_npy(&std::fs::read(&d).unwrap());
    assert_eq!(descr, "<u4");
    let got: Vec<i32> = data
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // [1 2 3; 4 5 15] x [-8 7; 1 0; -1 2]
    assert_eq!(got, vec![-8 + 2 - 3, 7 + 6, -32 + 5 - 15, 28 + 30]);
    // 16 does not fit u4.
    let mut bad = a_fortran.clone();
    bad[0] = 16;
    write(&a, &npy("|u1", (m, k), &bad, true));
    let out = matmul(&[
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--a-type",
        "u4",
        "--b-type",
        "s4",
        "--dst-type",
        "ud",
        "-o",
        d.to_str().unwrap(),
    ]);
    let e = text(&out.stderr);
    assert!(
        !out.status.success() && e.contains("element [0][0] = 16 is outside the range of u4"),
        "{e}"
    );
}

#[test]
fn matmul_bf16_to_bf_bits_and_fp16_to_f() {
    let scratch = temp_dir("cli-dpas");
    // bf16: A = [1.0, 2.0] (0x3f80, 0x4000), B = [[1.5],[0.25]] (0x3fc0, 0x3e80);
    // D = 1.5 + 0.5 = 2.0 → bf16 0x4000 as uint16. A is an ml_dtypes.bfloat16 array (np.save
    // writes its dtype as the 2-byte void '<V2'); B is uint16 bits, accepted with --raw only.
    let (a, b, d) = (
        tmp(&scratch, "abf.npy"),
        tmp(&scratch, "bbf.npy"),
        tmp(&scratch, "dbf.npy"),
    );
    write(&a, &npy("<V2", (1, 2), &[0x80, 0x3f, 0x00, 0x40], false));
    write(&b, &npy("<u2", (2, 1), &[0xc0, 0x3f, 0x80, 0x3e], false));
    let bf_args = [
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--a-type",
        "bf",
        "--b-type",
        "bf16",
        "--dst-type",
        "bf",
        "-o",
        d.to_str().unwrap(),
    ];
    let out = matmul(&bf_args);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains(
            "B: dtype <u2 (uint16) cannot hold bf elements; expected bfloat16 (ml_dtypes.bfloat16, saved as <V2), or uint16/int16 bit patterns when raw bits are asked for"
        ),
        "{}",
        text(&out.stderr)
    );
    let mut raw_args = bf_args.to_vec();
    raw_args.push("--raw");
    let out = matmul(&raw_args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (descr, shape, data) = read_npy(&std::fs::read(&d).unwrap());
    assert_eq!(
        (descr.as_str(), shape, data),
        ("<u2", (1, 1), vec![0x00, 0x40])
    );
    // BF Dst on DG2 is illegal.
    write(&b, &npy("<V2", (2, 1), &[0xc0, 0x3f, 0x80, 0x3e], false));
    let out = matmul(&[
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--a-type",
        "bf",
        "--b-type",
        "bf",
        "--dst-type",
        "bf",
        "--platform",
        "dg2",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert!(
        text(&out.stderr).contains("rule dst-type"),
        "{}",
        text(&out.stderr)
    );
    // fp16 as float16: A = [1.0, -2.0] (0x3c00, 0xc000), B = [[0.5],[0.5]] → -0.5 as float32.
    let (a, b) = (tmp(&scratch, "ahf.npy"), tmp(&scratch, "bhf.npy"));
    write(&a, &npy("<f2", (1, 2), &[0x00, 0x3c, 0x00, 0xc0], false));
    write(&b, &npy("<f2", (2, 1), &[0x00, 0x38, 0x00, 0x38], false));
    let out = matmul(&[
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--a-type",
        "hf",
        "--b-type",
        "hf",
        "--dst-type",
        "f",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (descr, _, data) = read_npy(&std::fs::read(&d).unwrap());
    assert_eq!(
        (descr.as_str(), data),
        ("<f4", (-0.5f32).to_le_bytes().to_vec())
    );
    // Wrong dtype: bf16 given as float32.
    write(&a, &npy("<f4", (1, 2), &[0; 8], false));
    let out = matmul(&[
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--a-type",
        "bf",
        "--b-type",
        "bf",
        "--dst-type",
        "f",
        "-o",
        d.to_str().unwrap(),
    ]);
    let e = text(&out.stderr);
    assert!(
        e.contains("A: dtype <f4 (float32) cannot hold bf elements; expected bfloat16 (ml_dtypes.bfloat16, saved as <V2)"),
        "{e}"
    );
    // float16 where bf is asked for, and bfloat16 where hf is: both dtypes named.
    write(&a, &npy("<f2", (1, 2), &[0x00, 0x3c, 0x00, 0xc0], false));
    write(&b, &npy("<V2", (2, 1), &[0xc0, 0x3f, 0x80, 0x3e], false));
    let mut args = vec![
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--a-type",
        "bf",
        "--b-type",
        "bf",
        "--dst-type",
        "f",
        "-o",
        d.to_str().unwrap(),
    ];
    let e = text(&matmul(&args).stderr);
    assert!(
        e.contains("A: dtype <f2 (float16) cannot hold bf elements; expected bfloat16"),
        "{e}"
    );
    args[5] = "hf";
    args[7] = "hf";
    let e = text(&matmul(&args).stderr);
    assert!(
        e.contains("B: dtype <V2 (2-byte void, as np.save writes ml_dtypes.bfloat16) cannot hold hf elements; expected float16 (<f2)"),
        "{e}"
    );
    // With --raw, hf also reads int16 bit patterns: A = [1.0, -2.0], B = [[0.5], [0.5]].
    write(&b, &npy("<i2", (2, 1), &[0x00, 0x38, 0x00, 0x38], false));
    args.push("--raw");
    let out = matmul(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (_, _, data) = read_npy(&std::fs::read(&d).unwrap());
    assert_eq!(data, (-0.5f32).to_le_bytes().to_vec());
}

/// df on Xe3P through `spvx dpas run`: A row 0 = [1, 2, 0, …], B depth 0 = 3 and depth 1 = 0.25
/// in every column (qwords), C = 1: D = 1 + 3 + 0.5 = 4.5 in every column of row 0.
#[test]
fn run_df_on_xe3p_and_refused_elsewhere() {
    let scratch = temp_dir("cli-dpas");
    let q = |v: f64| {
        let b = v.to_bits();
        format!("{:08x} {:08x}", b as u32, (b >> 32) as u32)
    };
    let row = |v: f64| vec![q(v); 8].join(" ");
    let mut s = String::new();
    // Src0 r16..r17 (16 qwords), Src1 depth 0 = r32..r33, depth 1 = r34..r35, Src2 r48.
    for r in [16, 17] {
        s.push_str(&format!("r{r}: {}\n", row(1.0)));
    }
    for r in [32, 33] {
        s.push_str(&format!("r{r}: {}\n", row(3.0)));
    }
    for r in [34, 35] {
        s.push_str(&format!("r{r}: {}\n", row(0.25)));
    }
    s.push_str(&format!(
        "r48: {} {} {}\n",
        q(1.0),
        q(2.0),
        vec![q(0.0); 6].join(" ")
    ));
    let regs = tmp(&scratch, "df.hex");
    write(&regs, s.as_bytes());
    let prog = tmp(&scratch, "df.dpas");
    write(&prog, b"dpas.df.df.8.1 (16) r0 r16 r32 r48\n");
    let args = |platform: &'static str| {
        vec![
            "dpas".to_string(),
            "run".into(),
            prog.to_str().unwrap().into(),
            "--regs".into(),
            regs.to_str().unwrap().into(),
            "--platform".into(),
            platform.into(),
        ]
    };
    let out = spvx().args(args("xe3p")).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let o = text(&out.stdout);
    assert!(o.contains(&format!("r0: {}", row(4.5))), "{o}");
    assert!(o.contains(&format!("r1: {}", row(4.5))), "{o}");
    let out = spvx().args(args("pvc")).output().unwrap();
    let e = text(&out.stderr);
    assert!(!out.status.success());
    assert!(e.contains("rule platform-precision"), "{e}");
    assert!(e.contains("df DPAS exists only on Xe3P"), "{e}");
    // matmul refuses df by name.
    let e = text(
        &matmul(&[
            "--a",
            "x.npy",
            "--b",
            "y.npy",
            "--a-type",
            "df",
            "--b-type",
            "df",
            "--dst-type",
            "df",
            "-o",
            "d.npy",
        ])
        .stderr,
    );
    assert!(
        e.contains("df (fp64) DPAS is not supported by `spvx dpas matmul`"),
        "{e}"
    );
}

/// `spvx dpas layout`: the text grid (layout by hand: int8 × int8 on DG2, one row, B = 8 GRFs
/// of 4 rows per dword), and an SVG file with the same cells.
#[test]
fn layout_text_and_svg() {
    let scratch = temp_dir("cli-dpas");
    let out = run(&[
        "dpas",
        "layout",
        "dpas.s8.u8.8.1 (8) r2 null r4 r1",
        "--platform",
        "dg2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let want = "\
dpas.s8.u8.8.1 (M1, 8) r2.0:d null r4.0:ud r1.0:ud on dg2
M = 1 (RC), N = 8 (exec size), K = 32 (SD 8 × OPS_PER_CHAN 4); GRF = 32 bytes (8 dwords)

Dst = D (1×8 d), r2
  row-major, 32 bytes per row (8 × 4-byte elements)
      dw0  dw1  dw2  dw3  dw4  dw5  dw6  dw7
  r2 D0,0 D0,1 D0,2 D0,3 D0,4 D0,5 D0,6 D0,7

Src0 = C: null (the accumulator starts at zero)

Src1 = B (32×8 s8), r4..r11
  VNNI: dword n of each GRF holds column n, 4 consecutive rows of B (row k at bits 8·(k mod 4))
           dw0      dw1      dw2      dw3      dw4      dw5      dw6      dw7
   r4   B0-3,0   B0-3,1   B0-3,2   B0-3,3   B0-3,4   B0-3,5   B0-3,6   B0-3,7
   r5   B4-7,0   B4-7,1   B4-7,2   B4-7,3   B4-7,4   B4-7,5   B4-7,6   B4-7,7
   r6  B8-11,0  B8-11,1  B8-11,2  B8-11,3  B8-11,4  B8-11,5  B8-11,6  B8-11,7
   r7 B12-15,0 B12-15,1 B12-15,2 B12-15,3 B12-15,4 B12-15,5 B12-15,6 B12-15,7
   r8 B16-19,0 B16-19,1 B16-19,2 B16-19,3 B16-19,4 B16-19,5 B16-19,6 B16-19,7
   r9 B20-23,0 B20-23,1 B20-23,2 B20-23,3 B20-23,4 B20-23,5 B20-23,6 B20-23,7
  r10 B24-27,0 B24-27,1 B24-27,2 B24-27,3 B24-27,4 B24-27,5 B24-27,6 B24-27,7
  r11 B28-31,0 B28-31,1 B28-31,2 B28-31,3 B28-31,4 B28-31,5 B28-31,6 B28-31,7

Src2 = A (1×32 u8), r1
  row-major, packed, the same for every channel: 32 bytes per row, element k at bit 8·k
          dw0      dw1      dw2      dw3      dw4      dw5      dw6      dw7
  r1   A0,0-3   A0,4-7  A0,8-11 A0,12-15 A0,16-19 A0,20-23 A0,24-27 A0,28-31
";
    assert_eq!(text(&out.stdout), want);
    let svg = tmp(&scratch, "layout.svg");
    let out = run(&[
        "dpas",
        "layout",
        "dpas.s8.u8.8.1 (8) r2 null r4 r1",
        "--platform",
        "dg2",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let doc = std::fs::read_to_string(&svg).unwrap();
    assert!(
        doc.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{doc}"
    );
    assert!(doc.trim_end().ends_with("</svg>"));
    for label in ["B0-3,0", "B28-31,7", "A0,28-31", "D0,7"] {
        assert!(doc.contains(&format!(">{label}</text>")), "{label}");
    }
    // An illegal instruction is refused with its rule; a syntax error with its column.
    let e = text(
        &run(&[
            "dpas",
            "layout",
            "dpas.s8.s8.8.1 (16) r2 null r4 r1",
            "--platform",
            "dg2",
        ])
        .stderr,
    );
    assert!(e.contains("rule exec-size"), "{e}");
    let e = text(&run(&["dpas", "layout", "dpas.s8.s8.8.1 (16) r2 nul r4 r1"]).stderr);
    assert!(e.contains("column 24"), "{e}");
}

#[test]
fn matmul_fp8_and_tf32() {
    let scratch = temp_dir("cli-dpas");
    // hf8 (E4M3) A = [1.0 (0x38), 448 (0x7e)], bf8 (E5M2) B = [[2.0 (0x40)], [0.5 (0x38)]] on
    // Xe3P: 2 + 224 = 226.0 in float32.
    let (a, b, d) = (
        tmp(&scratch, "a8.npy"),
        tmp(&scratch, "b8.npy"),
        tmp(&scratch, "d8.npy"),
    );
    write(&a, &npy("|u1", (1, 2), &[0x38, 0x7e], false));
    write(&b, &npy("|u1", (2, 1), &[0x40, 0x38], false));
    let args = |p: &str| -> Vec<String> {
        [
            "--a",
            a.to_str().unwrap(),
            "--b",
            b.to_str().unwrap(),
            "--a-type",
            "hf8",
            "--b-type",
            "bf8",
            "--dst-type",
            "f",
            "--platform",
            p,
            "-o",
            d.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let out = spvx()
        .arg("dpas")
        .arg("matmul")
        .args(args("xe3p"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (_, _, data) = read_npy(&std::fs::read(&d).unwrap());
    assert_eq!(data, 226.0f32.to_le_bytes().to_vec());
    let out = spvx()
        .arg("dpas")
        .arg("matmul")
        .args(args("pvc"))
        .output()
        .unwrap();
    assert!(
        text(&out.stderr).contains("rule platform-precision"),
        "{}",
        text(&out.stderr)
    );
    // tf32 as float32: the low 13 bits are ignored: (1 + 2^-23) · 3 = 3.
    write(
        &a,
        &npy(
            "<f4",
            (1, 1),
            &f32::from_bits(0x3f80_0001).to_le_bytes(),
            false,
        ),
    );
    write(&b, &npy("<f4", (1, 1), &3.0f32.to_le_bytes(), false));
    let out = matmul(&[
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--a-type",
        "tf32",
        "--b-type",
        "tf32",
        "--dst-type",
        "f",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (_, _, data) = read_npy(&std::fs::read(&d).unwrap());
    assert_eq!(data, 3.0f32.to_le_bytes().to_vec());
    // With the CM model the container is read whole: 3 + 3·2^-23 rounds to 3 + 2^-21.
    let out = matmul(&[
        "--a",
        a.to_str().unwrap(),
        "--b",
        b.to_str().unwrap(),
        "--a-type",
        "tf32",
        "--b-type",
        "tf32",
        "--dst-type",
        "f",
        "--model",
        "cm",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (_, _, data) = read_npy(&std::fs::read(&d).unwrap());
    assert_eq!(data, f32::from_bits(0x4040_0002).to_le_bytes().to_vec());
}

#[test]
fn matmul_shape_errors() {
    let scratch = temp_dir("cli-dpas");
    let (a, b, d) = (
        tmp(&scratch, "sa.npy"),
        tmp(&scratch, "sb.npy"),
        tmp(&scratch, "sd.npy"),
    );
    // The stderr of an s8 x s8 -> d matmul of the files a and b hold now.
    let stderr = || {
        let out = matmul(&[
            "--a",
            a.to_str().unwrap(),
            "--b",
            b.to_str().unwrap(),
            "--a-type",
            "s8",
            "--b-type",
            "s8",
            "--dst-type",
            "d",
            "-o",
            d.to_str().unwrap(),
        ]);
        assert!(!out.status.success());
        text(&out.stderr)
    };
    write(&a, &npy("|i1", (2, 3), &[0; 6], false));
    write(&b, &npy("|i1", (4, 2), &[0; 8], false));
    let e = stderr();
    assert!(e.contains("columns of A vs rows of B (K): 3 vs 4"), "{e}");
    write(&b, b"not an npy file");
    let e = stderr();
    assert!(e.contains("B: not a valid .npy file"), "{e}");
    // A header claiming 2^32 x 2^32 elements over 8 bytes of data: 2^64 overflows the count.
    write(&b, &npy("|i1", (1 << 32, 1 << 32), &[0; 8], false));
    let e = stderr();
    assert!(
        e.contains("B: ") && e.contains("shape (4294967296, 4294967296) says 18446744073709551616"),
        "{e}"
    );
}

#[test]
fn matmul_bench_prints_rates_and_ratios() {
    // The form of the output, not the speed: four lines, rates in GMAC/s, two ratios.
    let out = matmul(&[
        "--bench",
        "--size",
        "48",
        "--rounds",
        "1",
        "--a-type",
        "s8",
        "--b-type",
        "u4",
        "--dst-type",
        "d",
    ]);
    let (o, e) = (text(&out.stdout), text(&out.stderr));
    if !out.status.success() {
        // Only a CPU without the peak loop may refuse.
        assert!(e.contains("needs x86-64 AVX-512"), "{e}");
        return;
    }
    let lines: Vec<&str> = o.lines().collect();
    assert_eq!(lines.len(), 4, "{o}");
    assert!(
        lines[0].starts_with("fast GEMM (s8 × u4 → d, 48 × 48 × 48, pvc), ")
            && lines[0].contains(" threads: ")
            && lines[0].ends_with(" GMAC/s (best of 1)"),
        "{o}"
    );
    assert!(
        lines[1].starts_with("peak: vpdpbusd loop (20 independent accumulators per thread), "),
        "{o}"
    );
    let ratio: f64 = lines[2]
        .strip_prefix("ratio: ")
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("{o}"));
    // The form only: a 48³ GEMM timed once on a loaded machine may print a ratio of 0.00.
    assert!(ratio.is_finite() && ratio >= 0.0, "{o}");
    assert!(lines[3].starts_with("per CPU-second: "), "{o}");
    // Floats compare with the FMA loop; --bench excludes the file arguments.
    let out = matmul(&[
        "--bench",
        "--size",
        "16",
        "--rounds",
        "1",
        "--a-type",
        "bf",
        "--b-type",
        "bf",
        "--dst-type",
        "f",
    ]);
    if out.status.success() {
        assert!(text(&out.stdout).contains("peak: fp32 FMA loop"));
    }
    let out = matmul(&[
        "--bench",
        "--a",
        "A.npy",
        "--a-type",
        "s8",
        "--b-type",
        "s8",
        "--dst-type",
        "d",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("cannot be used with"),
        "{}",
        text(&out.stderr)
    );
}

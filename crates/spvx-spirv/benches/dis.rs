//! Disassembly speed on a generated ~1 MB module: spvx's disassembler (decode + print, and
//! print only), beside SPIRV-Tools' spirv-dis run on the same file (process included) when it
//! is found in `$SPVX_SPIRV_TOOLS` or on `PATH`.

use criterion::{Criterion, criterion_group, criterion_main};
use spvx_spirv::binary::read_bytes;
use spvx_spirv::dis::{DisOptions, disassemble, disassemble_bytes};
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;

fn op(word_count: u32, opcode: u32) -> u32 {
    (word_count << 16) | opcode
}

fn string(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A module of about `target_bytes`: named integer and float constants, then functions of
/// integer and float arithmetic on them.
fn big_module(target_bytes: usize) -> Vec<u8> {
    const CONSTANTS: u32 = 4000;
    let (void, uint, float, fn_ty) = (1u32, 2u32, 3u32, 4u32);
    let first_const = 5u32;
    let mut next = first_const + 2 * CONSTANTS;
    let mut names = Vec::new();
    let mut globals = vec![op(2, 17), 1, op(3, 14), 0, 1];
    globals.extend([
        op(2, 19),
        void,
        op(4, 21),
        uint,
        32,
        0,
        op(3, 22),
        float,
        32,
    ]);
    globals.extend([op(3, 33), fn_ty, void]);
    for i in 0..CONSTANTS {
        let (ci, cf) = (first_const + 2 * i, first_const + 2 * i + 1);
        globals.extend([op(4, 43), uint, ci, i * 7919]);
        globals.extend([op(4, 43), float, cf, (1.0f32 + i as f32 / 3.0).to_bits()]);
        if i % 4 == 0 {
            let s = string(&format!("const_{i}"));
            names.push(op(2 + s.len() as u32, 5));
            names.push(ci);
            names.extend(s);
        }
    }
    let mut words = vec![0x0723_0203, 0x0001_0600, 0x0007_0000, 0, 0];
    words.extend(&globals[..5]);
    words.extend(names);
    words.extend(&globals[5..]);
    let mut f = 0u32;
    while words.len() * 4 < target_bytes {
        let func = next;
        next += 1;
        let label = next;
        next += 1;
        words.extend([op(5, 54), void, func, 0, fn_ty, op(2, 248), label]);
        let mut prev_i = first_const + 2 * (f % CONSTANTS);
        let mut prev_f = prev_i + 1;
        for k in 0..12 {
            let ci = first_const + 2 * ((f * 13 + k) % CONSTANTS);
            let (ri, rf) = (next, next + 1);
            next += 2;
            words.extend([op(5, 128), uint, ri, prev_i, ci]); // OpIAdd
            words.extend([op(5, 133), float, rf, prev_f, ci + 1]); // OpFMul
            prev_i = ri;
            prev_f = rf;
        }
        words.extend([op(1, 253), op(1, 56)]); // OpReturn, OpFunctionEnd
        f += 1;
    }
    words[3] = next;
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn spirv_dis() -> Option<PathBuf> {
    spvx_testtools::tool("spirv-dis")
}

fn bench(c: &mut Criterion) {
    let bytes = big_module(1 << 20);
    let path = std::env::temp_dir().join("spvx-dis-bench.spv");
    if let Err(e) = std::fs::write(&path, &bytes) {
        eprintln!("cannot write {}: {e}", path.display());
    }
    let opts = DisOptions::default();
    let parsed = match read_bytes(&bytes) {
        Ok(m) => m,
        Err(e) => panic!("generated module does not decode: {e}"),
    };
    let mut g = c.benchmark_group(format!("dis_{}KiB", bytes.len() / 1024));
    g.sample_size(10);
    g.bench_function("spvx_decode_and_print", |b| {
        b.iter(|| disassemble_bytes(black_box(&bytes), &opts).map(|s| s.len()))
    });
    g.bench_function("spvx_print_only", |b| {
        b.iter(|| disassemble(black_box(&parsed), &opts).len())
    });
    let raw = DisOptions {
        raw_id: true,
        ..opts
    };
    g.bench_function("spvx_decode_and_print_raw_id", |b| {
        b.iter(|| disassemble_bytes(black_box(&bytes), &raw).map(|s| s.len()))
    });
    match spirv_dis() {
        Some(tool) => {
            g.bench_function("spirv_dis_process", |b| {
                b.iter(|| {
                    Command::new(&tool)
                        .args(["--no-color", "-o", "/dev/null"])
                        .arg(&path)
                        .status()
                        .map(|s| s.success())
                })
            });
        }
        None => eprintln!("note: spirv-dis not found; measuring spvx only"),
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

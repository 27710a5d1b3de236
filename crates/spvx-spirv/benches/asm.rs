//! Assembler speed: a generated ~1 MB module (types, constants of several widths, a function
//! with arithmetic, extended instructions, decorations and names). `SPVX_BENCH_WRITE=path`
//! also writes the text, so spirv-as can be timed on the same file (see the report).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvx_spirv::asm::{AsmOptions, assemble};
use std::fmt::Write;

/// About `target` bytes of assembly text.
pub fn module_text(target: usize) -> String {
    let mut t = String::from(
        "OpCapability Shader\nOpCapability Int64\nOpCapability Float16\n\
         %glsl = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 8 8 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n\
         %f16 = OpTypeFloat 16\n%i32 = OpTypeInt 32 1\n%u64 = OpTypeInt 64 0\n",
    );
    let mut i = 0;
    while t.len() < target / 3 {
        let _ = writeln!(
            t,
            "OpName %c{i} \"constant_{i}\"\nOpDecorate %c{i} RelaxedPrecision"
        );
        let _ = writeln!(t, "%c{i} = OpConstant %f32 {}.{}e-3", i % 977, i % 13);
        let _ = writeln!(
            t,
            "%h{i} = OpConstant %f16 0x1.{:03x}p-{}",
            i % 4096,
            i % 14
        );
        let _ = writeln!(t, "%k{i} = OpConstant %u64 {}", (i as u64) * 0x1_0000_0001);
        i += 1;
    }
    let n = i;
    t.push_str("%main = OpFunction %void None %fn\n%entry = OpLabel\n");
    let mut j = 0;
    while t.len() < target {
        let (a, b) = (j % n, (j * 7 + 3) % n);
        let _ = writeln!(t, "%x{j} = OpFAdd %f32 %c{a} %c{b}");
        let _ = writeln!(t, "%y{j} = OpExtInst %f32 %glsl FMix %x{j} %c{b} %c{a}");
        let _ = writeln!(t, "%z{j} = OpIAdd %u64 %k{a} %k{b} ; sum");
        j += 1;
    }
    t.push_str("OpReturn\nOpFunctionEnd\n");
    t
}

fn bench(c: &mut Criterion) {
    let text = module_text(1 << 20);
    if let Ok(path) = std::env::var("SPVX_BENCH_WRITE") {
        let _ = std::fs::write(path, &text);
    }
    let opts = AsmOptions::default();
    let mut g = c.benchmark_group("asm");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(20);
    g.bench_function("assemble_1MB", |b| {
        b.iter(|| assemble(&text, &opts).map(|m| m.words().len()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

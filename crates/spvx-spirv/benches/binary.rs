//! Binary reader, writer and module-model speed on a ~1 MB module made with the builder
//! (constants of 32 and 64 bits, names, decorations, a function of arithmetic and GLSL.std.450
//! calls). `SPVX_BENCH_WRITE=path` also writes the binary, so other tools can be timed on it.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use spvx_spirv::binary::{read_bytes, to_bytes};
use spvx_spirv::grammar::Version;
use spvx_spirv::module::{Arg, BuildError, Builder, Module};
use spvx_spirv::op::Op;

/// A module of about `target` bytes.
fn module(target: usize) -> Result<Module, BuildError> {
    let mut b = Builder::new(Version::new(1, 6));
    b.capability("Shader")?;
    b.capability("Int64")?;
    let glsl = b.ext_inst_import("GLSL.std.450")?;
    b.memory_model("Logical", "GLSL450")?;
    let void = b.type_void()?;
    let fnty = b.type_function(void, &[])?;
    let f32t = b.type_float(32, None)?;
    let u64t = b.type_int(64, false)?;
    let mut words = 0;
    let mut consts = Vec::new();
    let mut wide = Vec::new();
    for i in 0..(target / 4 / 3 / 14) as u32 {
        let c = b.constant_f32(i as f32 * 0.001)?;
        let k = b.constant_words(u64t, &[i, i ^ 0x5555])?;
        b.name(c, &format!("constant_{i}"))?;
        b.decorate(c, "RelaxedPrecision", &[])?;
        consts.push(c);
        wide.push(k);
        words += 4 + 5 + 6 + 3;
    }
    let main = b.begin_function(void, "None", fnty)?;
    b.begin_block()?;
    let n = consts.len();
    let mut j = 0;
    while words * 4 < target {
        let (x, y) = (consts[j % n], consts[(j * 7 + 3) % n]);
        let s = b.inst(Op::FAdd, Some(f32t), &[Arg::Id(x), Arg::Id(y)])?;
        let s = s.unwrap_or(x);
        let args = [
            Arg::Id(glsl),
            Arg::name("FMix"),
            Arg::Id(s),
            Arg::Id(y),
            Arg::Id(x),
        ];
        b.inst(Op::ExtInst, Some(f32t), &args)?;
        let (p, q) = (wide[j % n], wide[(j * 5 + 1) % n]);
        b.inst(Op::IAdd, Some(u64t), &[Arg::Id(p), Arg::Id(q)])?;
        words += 5 + 8 + 5;
        j += 1;
    }
    b.inst(Op::Return, None, &[])?;
    b.end_function()?;
    b.entry_point("GLCompute", main, "main", &[])?;
    b.finish()
}

fn bench(c: &mut Criterion) {
    let Ok(m) = module(1 << 20) else {
        eprintln!("could not build the benchmark module");
        return;
    };
    let bytes = m.to_bytes();
    if let Ok(path) = std::env::var("SPVX_BENCH_WRITE") {
        let _ = std::fs::write(path, &bytes);
    }
    let Ok(parsed) = read_bytes(&bytes) else {
        eprintln!("the benchmark module does not read");
        return;
    };
    let mut g = c.benchmark_group("binary");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);
    g.bench_function("read_1MB", |b| {
        b.iter(|| read_bytes(&bytes).map(|p| p.instructions.len()))
    });
    g.bench_function("write_1MB", |b| {
        b.iter(|| to_bytes(&parsed.header, &parsed.instructions).len())
    });
    g.bench_function("split_and_flatten_1MB", |b| {
        b.iter(|| {
            Module::from_instructions(parsed.header, parsed.instructions.clone())
                .map(|m| m.to_instructions().len())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let vector = std::env::args().nth(2).map_or(true, |a| a == "v");
    let bytes = std::fs::read(&path).unwrap();
    let m = CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default()).unwrap();
    let m = if vector {
        m.with_jit_vector_lanes()
    } else {
        m.with_jit_always()
    };
    let n = 262144usize;
    let same = std::env::var("SAME")
        .ok()
        .and_then(|v| v.parse::<u32>().ok());
    let words: Vec<u32> = (0..n as u32)
        .map(|i| same.unwrap_or(i.wrapping_mul(0x9e37_79b9) ^ (i >> 3)))
        .collect();
    let mut res = Resources::new();
    res.set_words(0, 0, &words);
    res.set_words(0, 1, &words);
    let cfg = RunConfig {
        threads: Some(1),
        ..RunConfig::default()
    };
    let t = std::time::Instant::now();
    for _ in 0..std::env::var("RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10)
    {
        let r = m.run(&mut res, [(n / 64) as u32, 1, 1], &cfg).unwrap();
        assert_eq!(r.jit, spvx_exec::JitUse::Ran);
    }
    eprintln!("{:?} per run", t.elapsed() / 10);
}

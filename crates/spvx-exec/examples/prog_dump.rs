use spvx_exec::{CompileOptions, CompiledModule};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let m = CompiledModule::from_bytes(&bytes, "main", &CompileOptions::default()).unwrap();
    let p = m.program();
    let f = &p.functions[p.entry as usize];
    for (i, s) in f.segments.iter().enumerate() {
        println!("seg {i}:");
        for k in s.start..s.end {
            println!("    {:?}", f.code[k as usize]);
        }
        println!("  term {:?}", s.term);
    }
}

//! How well the tensor module generator does: generates N modules from pseudo-random bytes and
//! prints how many build, validate, compile and run (with tensors bound as the `exec_tensor`
//! check binds them, but no spoiled binding), with the most common first validation and
//! compile errors and run errors. `cargo run --release --example gen_tensor_stats -- [N]
//! [racefree] [check] [dump=K]` from `fuzz/` (`check`: also pass every input through the
//! `exec_tensor` check, which panics on a finding; `dump=K`: print the K-th module's
//! disassembly). Also prints how many of each tensor instruction the valid modules hold, how
//! the JIT took the runs and the undefined-behaviour events the runs reported.

use spvx_exec::{CompileOptions, CompiledModule, JitUse, Resources, RunConfig, Tensor};
use spvx_fuzz::gen_tensor::{OUT_BINDING, PROBE_BINDING, PROBE_SLOTS, generate};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let race_free = args.iter().any(|a| a == "racefree");
    let check = args.iter().any(|a| a == "check");
    let dump: Option<u64> = args
        .iter()
        .find_map(|a| a.strip_prefix("dump=").and_then(|k| k.parse().ok()));
    let mut opcodes: BTreeMap<String, u32> = BTreeMap::new();
    let mut state = 0x0bad_5eed_1234_5678u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u8
    };
    let (mut built, mut valid, mut compiled, mut ran) = (0, 0, 0, 0);
    let mut errors: BTreeMap<String, u32> = BTreeMap::new();
    let mut run_errors: BTreeMap<String, u32> = BTreeMap::new();
    let mut jit: BTreeMap<String, u32> = BTreeMap::new();
    let mut events: BTreeMap<String, u32> = BTreeMap::new();
    for k in 0..n {
        let len = 64 + next() as usize * 4;
        let data: Vec<u8> = (0..len).map(|_| next()).collect();
        if check {
            spvx_fuzz::exec_tensor::exec_tensor(&data);
        }
        let Some((m, iface)) = generate(&data, race_free) else {
            continue;
        };
        built += 1;
        let insts = m.to_instructions();
        let errs = spvx_val::validate(&m.header, &insts, &Default::default());
        if let Some(e) = errs.first() {
            let s = e.to_string();
            *errors.entry(s.chars().take(140).collect()).or_default() += 1;
            continue;
        }
        valid += 1;
        let bytes = spvx_spirv::binary::to_bytes(&m.header, &insts);
        if dump == Some(k) {
            let text = spvx_spirv::dis::disassemble_bytes(&bytes, &Default::default());
            println!("{}", text.unwrap_or_else(|e| e.to_string()));
        }
        for i in &insts {
            let name = format!("{:?}", i.opcode);
            if matches!(i.opcode, 4163..=4166) {
                *opcodes.entry(name).or_default() += 1;
            }
        }
        let c = match CompiledModule::from_module(&m, "main", &CompileOptions::default()) {
            Ok(c) => c,
            Err(e) => {
                let s: String = format!("compile: {e}");
                *errors.entry(s.chars().take(140).collect()).or_default() += 1;
                continue;
            }
        };
        compiled += 1;
        let mut res = Resources::new();
        res.set_words(0, OUT_BINDING, &[0; 64]);
        res.set_words(0, PROBE_BINDING, &[0; 2 * PROBE_SLOTS as usize]);
        for d in &iface.tensors {
            let count = match d.array {
                None => 1,
                Some(0) => 2,
                Some(k) => k,
            };
            let shape = d.shape.clone().unwrap_or(vec![4; d.rank as usize]);
            let elems: u64 = shape.iter().product();
            for e in 0..count {
                let data = vec![1u8; (elems * d.element.element_bytes() as u64) as usize];
                let t = Tensor {
                    shape: shape.clone(),
                    strides: None,
                    data,
                };
                res.set_tensor_element(0, d.binding, e, t);
            }
        }
        let cfg = RunConfig {
            step_limit: 20_000,
            memory_limit: 1 << 20,
            threads: Some(1),
            ..RunConfig::default()
        };
        let native = c.with_jit_always();
        if let Ok(r) = native.run(
            &mut res.clone(),
            [2, 1, 1],
            &RunConfig {
                jit: true,
                ..cfg.clone()
            },
        ) {
            let why = match r.jit {
                JitUse::Off => "off".to_string(),
                JitUse::Ran => "ran".to_string(),
                JitUse::Unsupported(w) => format!("unsupported: {w}"),
                JitUse::FellBack(w) => format!("fell back: {w}"),
            };
            let why: String = why.chars().filter(|c| !c.is_ascii_digit()).collect();
            *jit.entry(why.chars().take(100).collect()).or_default() += 1;
        }
        match c.run(&mut res, [2, 1, 1], &cfg) {
            Ok(r) => {
                ran += 1;
                for e in &r.events {
                    let kind = format!("{:?}", e.kind);
                    let kind = kind.split([' ', '{', '(']).next().unwrap_or_default();
                    *events.entry(kind.to_string()).or_default() += 1;
                }
            }
            Err(e) => {
                let s: String = e
                    .to_string()
                    .chars()
                    .filter(|c| !c.is_ascii_digit())
                    .collect();
                *run_errors.entry(s.chars().take(100).collect()).or_default() += 1;
            }
        }
    }
    println!("{n} tried, {built} built, {valid} valid, {compiled} compiled, {ran} ran to the end");
    let mut v: Vec<_> = errors.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (e, c) in v.iter().take(15) {
        println!("{c:5}  {e}");
    }
    println!("tensor opcodes (4163 type, 4164 read, 4165 write, 4166 query): {opcodes:?}");
    println!("JIT (runs that ended well):");
    for (e, c) in &jit {
        println!("{c:5}  {e}");
    }
    println!("undefined-behaviour events (kinds, first few per run): {events:?}");
    println!("run errors:");
    for (e, c) in &run_errors {
        println!("{c:5}  {e}");
    }
}

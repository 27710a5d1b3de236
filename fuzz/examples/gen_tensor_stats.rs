//! How well the tensor module generator does: generates N modules from pseudo-random bytes and
//! prints how many build, validate, compile and run (with tensors bound as the `exec_tensor`
//! check binds them, but no spoiled binding), with the most common first validation and
//! compile errors and run errors. `cargo run --release --example gen_tensor_stats -- [N]
//! [racefree] [check] [dump=K]` from `fuzz/` (`check`: also pass every input through the
//! `exec_tensor` check, which panics on a finding; `dump=K`: print the K-th module's
//! disassembly). Also prints how many of each tensor instruction the valid modules hold, how
//! the JIT took the runs and the undefined-behaviour events the runs reported.

mod common;

use common::{Lcg, Tally, count_arg, jit_use, stats_config, validates};
use spvx_exec::{CompileOptions, CompiledModule, Resources, RunConfig, Tensor};
use spvx_fuzz::gen_tensor::{OUT_BINDING, PROBE_BINDING, PROBE_SLOTS, generate};
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = count_arg();
    let race_free = args.iter().any(|a| a == "racefree");
    let check = args.iter().any(|a| a == "check");
    let dump: Option<u64> = args
        .iter()
        .find_map(|a| a.strip_prefix("dump=").and_then(|k| k.parse().ok()));
    let mut opcodes: BTreeMap<String, u32> = BTreeMap::new();
    let mut inputs = Lcg(0x0bad_5eed_1234_5678);
    let (mut built, mut valid, mut compiled, mut ran) = (0, 0, 0, 0);
    let (mut errors, mut run_errors, mut jit) =
        (Tally::default(), Tally::default(), Tally::default());
    let mut events: BTreeMap<String, u32> = BTreeMap::new();
    for k in 0..n {
        let data = inputs.input(64);
        if check {
            spvx_fuzz::exec_tensor::exec_tensor(&data);
        }
        let Some((m, iface)) = generate(&data, race_free) else {
            continue;
        };
        built += 1;
        if !validates(&m, &mut errors) {
            continue;
        }
        valid += 1;
        let insts = m.to_instructions();
        let bytes = spvx_spirv::binary::to_bytes(&m.header, &insts);
        if dump == Some(k) {
            let text = spvx_spirv::dis::disassemble_bytes(&bytes, &Default::default());
            println!("{}", text.unwrap_or_else(|e| e.to_string()));
        }
        for i in &insts {
            if i.opcode == spvx_spirv::op::Op::TypeTensorARM || i.opcode.is_tensor_access() {
                *opcodes.entry(i.opcode.name().to_string()).or_default() += 1;
            }
        }
        let c = match CompiledModule::from_module(&m, "main", &CompileOptions::default()) {
            Ok(c) => c,
            Err(e) => {
                errors.add(&format!("compile: {e}"));
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
        let cfg = stats_config();
        let native = c.with_jit_always();
        if let Ok(r) = native.run(
            &mut res.clone(),
            [2, 1, 1],
            &RunConfig {
                jit: true,
                ..cfg.clone()
            },
        ) {
            jit.add(&jit_use(&r.jit));
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
            Err(e) => run_errors.add(&e.to_string()),
        }
    }
    println!("{n} tried, {built} built, {valid} valid, {compiled} compiled, {ran} ran to the end");
    errors.print("validation and compile errors");
    println!("tensor opcodes: {opcodes:?}");
    jit.print("JIT (runs that ended well)");
    println!("undefined-behaviour events (kinds, first few per run): {events:?}");
    run_errors.print("run errors");
}

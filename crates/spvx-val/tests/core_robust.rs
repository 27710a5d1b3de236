//! No input makes the validator panic: real modules mutated at random (ids replaced by any id,
//! including undefined ones and ids of the wrong kind; instructions removed or duplicated;
//! result types swapped) are validated, and each run must return (valid or not) without
//! panicking. The property is independent of the rules: only termination without panic is
//! asserted.

use proptest::prelude::*;
use spvx_spirv::binary::read_bytes;
use spvx_spirv::instruction::{Instruction, OperandValue};
use spvx_val::{Options, TargetEnv, errors};
use std::path::Path;

fn modules() -> Vec<(spvx_spirv::binary::Header, Vec<Instruction>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["../spvx-spirv/tests/corpus/real", "tests/corpus/core/glsl"] {
        let Ok(d) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut paths: Vec<_> = d
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "spv"))
            .collect();
        paths.sort();
        for p in paths {
            let bytes = std::fs::read(&p).expect("read module");
            let m = read_bytes(&bytes).expect("module decodes");
            out.push((m.header, m.instructions));
        }
    }
    out
}

/// One mutation: what to do, where, and with which id.
#[derive(Clone, Debug)]
enum Mutation {
    ReplaceId {
        inst: usize,
        operand: usize,
        id: u32,
    },
    ReplaceResultType {
        inst: usize,
        id: u32,
    },
    Remove {
        inst: usize,
    },
    Duplicate {
        inst: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<usize>(), 0u32..400)
            .prop_map(|(inst, operand, id)| { Mutation::ReplaceId { inst, operand, id } }),
        (any::<usize>(), 0u32..400).prop_map(|(inst, id)| Mutation::ReplaceResultType { inst, id }),
        any::<usize>().prop_map(|inst| Mutation::Remove { inst }),
        any::<usize>().prop_map(|inst| Mutation::Duplicate { inst }),
    ]
}

fn apply(insts: &mut Vec<Instruction>, m: &Mutation) {
    if insts.is_empty() {
        return;
    }
    let n = insts.len();
    match *m {
        Mutation::ReplaceId { inst, operand, id } => {
            let i = &mut insts[inst % n];
            let ids: Vec<usize> = (0..i.operands.len())
                .filter(|&k| matches!(i.operands[k].value, OperandValue::Id(_)))
                .collect();
            if !ids.is_empty() {
                i.operands[ids[operand % ids.len()]].value = OperandValue::Id(id);
            }
        }
        Mutation::ReplaceResultType { inst, id } => {
            let i = &mut insts[inst % n];
            if i.result_type.is_some() {
                i.result_type = Some(id);
            }
        }
        Mutation::Remove { inst } => {
            insts.remove(inst % n);
        }
        Mutation::Duplicate { inst } => {
            let i = insts[inst % n].clone();
            insts.insert(inst % n, i);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    #[test]
    fn mutated_real_modules_never_panic(
        which in any::<usize>(),
        muts in prop::collection::vec(mutation(), 1..6),
        env in prop::sample::select(vec!["spv1.6", "vulkan1.3", "spv1.3"]),
    ) {
        let all = modules();
        prop_assume!(!all.is_empty());
        let (header, insts) = &all[which % all.len()];
        let mut insts = insts.clone();
        for m in &muts {
            apply(&mut insts, m);
        }
        let opts = Options {
            target_env: TargetEnv::parse(env).expect("env"),
            ..Options::default()
        };
        let _ = errors(header, &insts, &opts);
    }
}

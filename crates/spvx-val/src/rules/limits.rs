//! Size and depth limits of a module, all configurable ([`Limits`], part of
//! [`crate::Options`]), each ending in its own error.
//!
//! The defaults are SPIR-V §2.17 "Universal Limits" (the minimum every consumer must accept),
//! which spirv-val 2025.5 also enforces by default and lets its `--max-*` options change:
//! structure members 16,383, structure nesting depth 255, control-flow nesting depth 1,023,
//! OpSwitch (literal, label) pairs 16,383, function parameters and call arguments 255, indexes
//! of access chains and composite extract/insert 255, Function variables per function 524,287,
//! module-scope variables 65,535 (§2.17 names Private variables; spirv-val counts all of
//! them, as spvx does), id bound 4,194,303 ([`super::ids`] checks that one). One limit is
//! spvx's own: the static call depth (the longest chain of calls from an entry point), 1,023
//! by default — SPIR-V forbids recursion but sets no depth; a bound keeps an engine's call
//! stack proportional to something the user chose.
//!
//! Measures, as spirv-val's: structure nesting depth is 1 for a structure without structure
//! members, else 1 + the deepest structure member (a member that is an array of structures
//! does not count: spirv-val 2025.5 accepts 256 levels through an array); control-flow nesting depth counts, in program order within a function, the
//! merge instructions (`OpSelectionMerge`, `OpLoopMerge`) seen whose merge block has not been
//! reached yet.

use crate::Options;
use crate::error::ValError;
use crate::rules::ids::MAX_ID_BOUND;
use rustc_hash::FxHashMap as HashMap;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;
use thiserror::Error;

/// The configurable limits; `Default` gives SPIR-V §2.17's universal limits and spvx's call
/// depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest id bound (spirv-val `--max-id-bound`).
    pub max_id_bound: u32,
    /// Members of one `OpTypeStruct` (`--max-struct-members`).
    pub max_struct_members: u32,
    /// Structure nesting depth (`--max-struct-depth`).
    pub max_struct_depth: u32,
    /// Control-flow nesting depth per function (`--max-control-flow-nesting-depth`).
    pub max_control_flow_nesting_depth: u32,
    /// (literal, label) pairs of one `OpSwitch` (`--max-switch-branches`).
    pub max_switch_branches: u32,
    /// Parameters of a function type, arguments of a call (`--max-function-args`).
    pub max_function_args: u32,
    /// Indexes of one access chain or composite extract/insert (`--max-access-chain-indexes`).
    pub max_access_chain_indexes: u32,
    /// Function-storage variables of one function (`--max-local-variables`).
    pub max_local_variables: u32,
    /// Module-scope variables (`--max-global-variables`; §2.17 says "Private storage class",
    /// spirv-val 2025.5 counts every storage class but Function, and so does spvx).
    pub max_global_variables: u32,
    /// Longest static chain of calls from an entry point (spvx's own limit).
    pub max_call_depth: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_id_bound: MAX_ID_BOUND,
            max_struct_members: 16_383,
            max_struct_depth: 255,
            max_control_flow_nesting_depth: 1023,
            max_switch_branches: 16_383,
            max_function_args: 255,
            max_access_chain_indexes: 255,
            max_local_variables: 524_287,
            max_global_variables: 65_535,
            max_call_depth: 1023,
        }
    }
}

/// A limit exceeded: which one, the amount found and the limit.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{what} is {found}, more than the limit {limit} ({source_of_limit})")]
pub struct LimitError {
    pub what: String,
    pub found: u64,
    pub limit: u32,
    /// Where the limit comes from and how to change it.
    pub source_of_limit: &'static str,
}

const UNIVERSAL: &str = "SPIR-V §2.17 Universal Limits; spvx_val::Limits";

const SC_FUNCTION: u32 = 7;

fn err(what: impl Into<String>, found: u64, limit: u32, source: &'static str) -> LimitError {
    LimitError {
        what: what.into(),
        found,
        limit,
        source_of_limit: source,
    }
}

/// Appends an error for every limit exceeded.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    let l = &opts.limits;
    let mut struct_depth: HashMap<Id, u64> = HashMap::default();
    let mut global_vars = 0u64;
    for (index, inst) in ix.insts.iter().enumerate() {
        let ids = || inst.operands.iter().filter(|o| o.id().is_some()).count() as u64;
        let name = || inst.opcode.name().to_string();
        let mut push = |e: LimitError| out.push(ValError::at(index, e));
        match inst.opcode {
            Op::TypeStruct => {
                let n = inst.operands.len() as u64;
                if n > l.max_struct_members as u64 {
                    push(err(
                        "the number of OpTypeStruct members",
                        n,
                        l.max_struct_members,
                        UNIVERSAL,
                    ));
                }
                let depth = 1 + inst
                    .operands
                    .iter()
                    .filter_map(|o| o.id())
                    .map(|m| struct_depth.get(&m).copied().unwrap_or(0))
                    .max()
                    .unwrap_or(0);
                if let Some(id) = inst.result {
                    struct_depth.insert(id, depth);
                }
                if depth > l.max_struct_depth as u64 {
                    push(err(
                        "the structure nesting depth",
                        depth,
                        l.max_struct_depth,
                        UNIVERSAL,
                    ));
                }
            }
            Op::TypeFunction => {
                let n = inst.operands.len().saturating_sub(1) as u64;
                if n > l.max_function_args as u64 {
                    push(err(
                        "the number of function parameters",
                        n,
                        l.max_function_args,
                        UNIVERSAL,
                    ));
                }
            }
            Op::FunctionCall => {
                let n = ids().saturating_sub(1);
                if n > l.max_function_args as u64 {
                    push(err(
                        "the number of OpFunctionCall arguments",
                        n,
                        l.max_function_args,
                        UNIVERSAL,
                    ));
                }
            }
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain
            | Op::CompositeExtract
            | Op::CompositeInsert => {
                let skip = match inst.opcode {
                    Op::PtrAccessChain | Op::InBoundsPtrAccessChain | Op::CompositeInsert => 2,
                    _ => 1,
                };
                let n = inst.operands.len().saturating_sub(skip) as u64;
                if n > l.max_access_chain_indexes as u64 {
                    push(err(
                        format!("the number of indexes of {}", name()),
                        n,
                        l.max_access_chain_indexes,
                        UNIVERSAL,
                    ));
                }
            }
            Op::Switch => {
                // Selector, default, then (literal, label) pairs.
                let n = inst.operands.len().saturating_sub(2) as u64 / 2;
                if n > l.max_switch_branches as u64 {
                    push(err(
                        "the number of OpSwitch (literal, label) pairs",
                        n,
                        l.max_switch_branches,
                        UNIVERSAL,
                    ));
                }
            }
            Op::Variable
                if ix.function_of(index).is_none()
                    && inst.operands.first().and_then(|o| o.word()) != Some(SC_FUNCTION) =>
            {
                global_vars += 1;
                if global_vars == l.max_global_variables as u64 + 1 {
                    push(err(
                        "the number of module-scope variables",
                        global_vars,
                        l.max_global_variables,
                        UNIVERSAL,
                    ));
                }
            }
            _ => {}
        }
    }
    per_function(ix, l, out);
    call_depth(ix, l, out);
}

/// Function variables and control-flow nesting depth, per function.
fn per_function(ix: &ModuleIndex, l: &Limits, out: &mut Vec<ValError>) {
    for f in &ix.functions {
        let mut locals = 0u64;
        let mut open: Vec<Id> = Vec::new();
        let mut reported_depth = false;
        for index in f.def..=f.end {
            let inst = &ix.insts[index];
            match inst.opcode {
                Op::Variable
                    if inst.operands.first().and_then(|o| o.word()) == Some(SC_FUNCTION) =>
                {
                    locals += 1;
                    if locals == l.max_local_variables as u64 + 1 {
                        out.push(ValError::at(
                            index,
                            err(
                                "the number of Function variables of the function",
                                locals,
                                l.max_local_variables,
                                UNIVERSAL,
                            ),
                        ));
                    }
                }
                Op::SelectionMerge | Op::LoopMerge => {
                    if let Some(m) = inst.operands.first().and_then(|o| o.id()) {
                        open.push(m);
                    }
                    if open.len() as u64 > l.max_control_flow_nesting_depth as u64
                        && !reported_depth
                    {
                        reported_depth = true;
                        out.push(ValError::at(
                            index,
                            err(
                                "the control-flow nesting depth",
                                open.len() as u64,
                                l.max_control_flow_nesting_depth,
                                UNIVERSAL,
                            ),
                        ));
                    }
                }
                Op::Label => {
                    if let Some(label) = inst.result
                        && let Some(pos) = open.iter().position(|&m| m == label)
                    {
                        open.truncate(pos);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The longest static call chain from each entry point (recursion is another rule's; a cycle
/// is not followed twice).
fn call_depth(ix: &ModuleIndex, l: &Limits, out: &mut Vec<ValError>) {
    let by_id: HashMap<Id, usize> = ix
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.id, i))
        .collect();
    let callees: Vec<Vec<usize>> = ix
        .functions
        .iter()
        .map(|f| {
            (f.def..=f.end)
                .filter(|&i| ix.insts[i].opcode == Op::FunctionCall)
                .filter_map(|i| ix.insts[i].operands.first().and_then(|o| o.id()))
                .filter_map(|id| by_id.get(&id).copied())
                .collect()
        })
        .collect();
    // depth[f]: calls on the longest chain starting in f (0 for a leaf). Iterative post-order.
    const UNSEEN: u64 = u64::MAX;
    const ON_STACK: u64 = u64::MAX - 1;
    let mut depth = vec![UNSEEN; callees.len()];
    for start in 0..callees.len() {
        if depth[start] != UNSEEN {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        depth[start] = ON_STACK;
        while let Some(&(f, next)) = stack.last() {
            if let Some(&c) = callees[f].get(next) {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                if depth[c] == UNSEEN {
                    depth[c] = ON_STACK;
                    stack.push((c, 0));
                }
            } else {
                let d = callees[f]
                    .iter()
                    .map(|&c| match depth[c] {
                        ON_STACK | UNSEEN => 0,
                        d => d + 1,
                    })
                    .max()
                    .unwrap_or(0);
                depth[f] = d;
                stack.pop();
            }
        }
    }
    for &ep in &ix.entry_points {
        let Some(f) = ix.insts[ep]
            .operands
            .get(1)
            .and_then(|o| o.id())
            .and_then(|id| by_id.get(&id).copied())
        else {
            continue;
        };
        if depth[f] > l.max_call_depth as u64 {
            out.push(ValError::at(
                ep,
                err(
                    "the static call depth of the entry point",
                    depth[f],
                    l.max_call_depth,
                    "spvx's own limit; raise it with --max-call-depth",
                ),
            ));
        }
    }
}

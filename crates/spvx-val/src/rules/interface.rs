//! Rules of entry points, their interfaces and execution modes (SPIR-V §2.17 "Universal
//! Validation Rules", §3.52.5 `OpEntryPoint`/`OpExecutionMode`; Vulkan appendix "Vulkan
//! Environment for SPIR-V", VUID-…-LocalSize):
//!
//! - the entry point is an `OpFunction` returning void; except for Kernel it takes no
//!   parameters; no two entry points share execution model and name;
//! - the interface lists variables only: Input/Output before SPIR-V 1.4, any non-Function
//!   storage class (each once) from 1.4;
//! - every global variable the entry point's call tree statically uses is listed: Input and
//!   Output variables before SPIR-V 1.4, all of them from 1.4;
//! - `OpExecutionMode`/`OpExecutionModeId` name an entry point, and LocalSize, LocalSizeId and
//!   LocalSizeHint are used only with compute-like execution models;
//! - in Vulkan, a GLCompute entry point has LocalSize or LocalSizeId, or the module decorates
//!   an object with BuiltIn WorkgroupSize.

use crate::Options;
use crate::error::ValError;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use spvx_spirv::grammar::Version;
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;
use thiserror::Error;

mod builtins;
pub(crate) use builtins::is_built_in_struct;

/// A broken entry-point or execution-mode rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InterfaceError {
    #[error("OpEntryPoint Entry Point {id} is not a function")]
    NotAFunction { id: String },
    #[error("OpEntryPoint Entry Point {id}'s function return type is not void")]
    ReturnNotVoid { id: String },
    #[error("OpEntryPoint Entry Point {id}'s function parameter count is not zero")]
    HasParameters { id: String },
    #[error("Entry points cannot share the same name (\"{name}\") and execution model")]
    DuplicateEntryPoint { name: String },
    #[error("Interface {id} of entry point \"{entry}\" is not an OpVariable")]
    NotAVariable { id: String, entry: String },
    #[error(
        "OpEntryPoint interfaces must be OpVariables with Storage Class of Input or Output before SPIR-V 1.4: {id} of entry point \"{entry}\" is not"
    )]
    NotInputOutput { id: String, entry: String },
    #[error("Non-unique OpEntryPoint interface {id} is disallowed (entry point \"{entry}\")")]
    DuplicateInterface { id: String, entry: String },
    #[error("Interfaces of entry point \"{entry}\" cannot have the Function storage class: {id}")]
    FunctionStorage { id: String, entry: String },
    #[error(
        "Interface variable {id} is used by entry point \"{entry}\", but is not listed as an interface"
    )]
    NotListed { id: String, entry: String },
    #[error("{opcode} Entry Point {id} is not the Entry Point operand of an OpEntryPoint")]
    ModeTargetNotEntryPoint { opcode: String, id: String },
    #[error(
        "Execution mode {mode} can only be used with a GLCompute, Kernel, Task or Mesh execution model (entry point {id})"
    )]
    ModeModel { mode: String, id: String },
    #[error(
        "In the Vulkan environment, GLCompute execution model entry points require either the LocalSize or LocalSizeId execution mode or an object decorated with WorkgroupSize must be specified (entry point \"{entry}\")"
    )]
    NoLocalSize { entry: String },
    #[error(
        "LocalSizeId mode is not allowed by the current environment ({env}: Vulkan 1.3 or maintenance4 allows it; --allow-localsizeid accepts it)"
    )]
    LocalSizeIdNotAllowed { env: String },
    #[error(
        "[VUID-StandaloneSpirv-OpEntryPoint-0{vuid}] OpEntryPoint contains duplicate {direction} variables with {built_in} builtin ({var})"
    )]
    DuplicateBuiltIn {
        direction: &'static str,
        built_in: String,
        var: String,
        vuid: u32,
    },
    #[error(
        "Interface struct has no Block decoration but has BuiltIn members ({ty}; VUID-StandaloneSpirv-Location-04919 in Vulkan)"
    )]
    BuiltInStructNotBlock { ty: String },
    #[error(
        "There must be at most one object per Storage Class that can contain a structure type containing members decorated with BuiltIn, consumed per entry-point (entry point \"{entry}\")"
    )]
    BuiltInBlocks { entry: String },
    #[error(
        "[VUID-StandaloneSpirv-Location-04915] A BuiltIn variable ({var}) cannot have any Location or Component decorations"
    )]
    BuiltInLocation { var: String },
}

const GLCOMPUTE: u32 = 5;
const KERNEL: u32 = 6;
const COMPUTE_LIKE: [u32; 6] = [GLCOMPUTE, KERNEL, 5267, 5268, 5364, 5365];
const LOCAL_SIZE: u32 = 17;
const LOCAL_SIZE_HINT: u32 = 18;
const LOCAL_SIZE_ID: u32 = 38;
const INPUT: u32 = 1;
const OUTPUT: u32 = 3;
const FUNCTION_STORAGE: u32 = 7;
const DECORATION_BUILTIN: u32 = 11;
const BUILTIN_WORKGROUP_SIZE: u32 = 25;

/// Appends every entry-point and execution-mode error to `out`.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    let v14 = ix.header.version() >= Version::new(1, 4);
    let uses = StaticUses::new(ix);
    let mut seen_names: HashSet<(u32, &str)> = HashSet::default();
    let mut models: HashMap<Id, Vec<u32>> = HashMap::default();
    for &index in &ix.entry_points {
        let inst = &ix.insts[index];
        let model = inst.operands.first().and_then(|o| o.word()).unwrap_or(0);
        let Some(fid) = inst.operands.get(1).and_then(|o| o.id()) else {
            continue;
        };
        let entry = inst.operands.get(2).and_then(|o| o.string()).unwrap_or("");
        models.entry(fid).or_default().push(model);
        if !seen_names.insert((model, entry)) {
            out.push(ValError::at(
                index,
                InterfaceError::DuplicateEntryPoint {
                    name: entry.to_string(),
                },
            ));
        }
        let mut err = |e: InterfaceError| out.push(ValError::at(index, e));
        match ix.def_inst(fid) {
            Some(f) if f.opcode == Op::Function => {
                if !matches!(f.result_type.and_then(|t| ix.ty(t)), Some(Type::Void)) {
                    err(InterfaceError::ReturnNotVoid { id: ix.name(fid) });
                }
                let ft = f
                    .operands
                    .get(1)
                    .and_then(|o| o.id())
                    .and_then(|t| ix.ty(t));
                if model != KERNEL
                    && let Some(Type::Function { params, .. }) = ft
                    && !params.is_empty()
                {
                    err(InterfaceError::HasParameters { id: ix.name(fid) });
                }
            }
            Some(_) => err(InterfaceError::NotAFunction { id: ix.name(fid) }),
            None => continue,
        }
        // The interface list.
        let mut listed = HashSet::default();
        for id in inst.operands.iter().skip(3).filter_map(|o| o.id()) {
            let name = || ix.name(id);
            let entry = entry.to_string();
            let is_variable =
                |d: &&Instruction| matches!(d.opcode, Op::Variable | Op::UntypedVariableKHR);
            let Some(var) = ix.def_inst(id).filter(is_variable) else {
                err(InterfaceError::NotAVariable { id: name(), entry });
                continue;
            };
            let sc = var.operands.first().and_then(|o| o.word()).unwrap_or(0);
            if !listed.insert(id) && v14 {
                err(InterfaceError::DuplicateInterface { id: name(), entry });
            } else if !v14 && sc != INPUT && sc != OUTPUT {
                err(InterfaceError::NotInputOutput { id: name(), entry });
            } else if sc == FUNCTION_STORAGE {
                err(InterfaceError::FunctionStorage { id: name(), entry });
            }
        }
        let vars: Vec<Id> = inst
            .operands
            .iter()
            .skip(3)
            .filter_map(|o| o.id())
            .collect();
        builtins::check(ix, opts, index, entry, &vars, out);
        let mut err = |e: InterfaceError| out.push(ValError::at(index, e));
        for var in uses.globals_reached_from(fid) {
            let sc = ix.insts[ix.def(var).map_or(0, |d| d.index)]
                .operands
                .first()
                .and_then(|o| o.word())
                .unwrap_or(0);
            let must_list = v14 || sc == INPUT || sc == OUTPUT;
            if must_list && !listed.contains(&var) {
                err(InterfaceError::NotListed {
                    id: ix.name(var),
                    entry: entry.to_string(),
                });
            }
        }
    }
    modes(ix, opts, &models, out);
}

fn modes(
    ix: &ModuleIndex,
    opts: &Options,
    models: &HashMap<Id, Vec<u32>>,
    out: &mut Vec<ValError>,
) {
    let mut sized: HashSet<Id> = HashSet::default();
    for (index, inst) in ix.insts.iter().enumerate() {
        if !matches!(inst.opcode, Op::ExecutionMode | Op::ExecutionModeId) {
            continue;
        }
        let Some(target) = inst.operands.first().and_then(|o| o.id()) else {
            continue;
        };
        let mode = inst
            .operands
            .get(1)
            .and_then(|o| o.word())
            .unwrap_or(u32::MAX);
        let Some(ms) = models.get(&target) else {
            out.push(ValError::at(
                index,
                InterfaceError::ModeTargetNotEntryPoint {
                    opcode: inst.opcode.name().to_string(),
                    id: ix.name(target),
                },
            ));
            continue;
        };
        if matches!(mode, LOCAL_SIZE | LOCAL_SIZE_ID) {
            sized.insert(target);
        }
        if mode == LOCAL_SIZE_ID
            && !opts.relax.allow_localsizeid
            && opts.target_env.vulkan_version().is_some_and(|v| v < (1, 3))
        {
            out.push(ValError::at(
                index,
                InterfaceError::LocalSizeIdNotAllowed {
                    env: opts.target_env.name.clone(),
                },
            ));
        }
        if matches!(mode, LOCAL_SIZE | LOCAL_SIZE_ID | LOCAL_SIZE_HINT)
            && !ms.iter().all(|m| COMPUTE_LIKE.contains(m))
        {
            let kind = ix.grammar.common.execution_mode;
            out.push(ValError::at(
                index,
                InterfaceError::ModeModel {
                    mode: ix
                        .grammar
                        .enumerant_name(kind, mode)
                        .unwrap_or("?")
                        .to_string(),
                    id: ix.name(target),
                },
            ));
        }
    }
    if !opts.target_env.is_vulkan() {
        return;
    }
    let workgroup_size_object = ix.insts.iter().any(|i| {
        i.opcode == Op::Decorate
            && i.operands.get(1).and_then(|o| o.word()) == Some(DECORATION_BUILTIN)
            && i.operands.get(2).and_then(|o| o.word()) == Some(BUILTIN_WORKGROUP_SIZE)
    });
    if workgroup_size_object {
        return;
    }
    for &index in &ix.entry_points {
        let inst = &ix.insts[index];
        let model = inst.operands.first().and_then(|o| o.word());
        let fid = inst.operands.get(1).and_then(|o| o.id()).unwrap_or(0);
        if model == Some(GLCOMPUTE) && !sized.contains(&fid) {
            out.push(ValError::at(
                index,
                InterfaceError::NoLocalSize {
                    entry: inst
                        .operands
                        .get(2)
                        .and_then(|o| o.string())
                        .unwrap_or("")
                        .to_string(),
                },
            ));
        }
    }
}

/// Which module-scope variables each function references, and whom it calls.
struct StaticUses<'i> {
    ix: &'i ModuleIndex,
    by_function: HashMap<Id, (Vec<Id>, Vec<Id>)>,
}

impl<'i> StaticUses<'i> {
    fn new(ix: &'i ModuleIndex) -> Self {
        let mut by_function = HashMap::default();
        for f in &ix.functions {
            let mut globals = Vec::new();
            let mut callees = Vec::new();
            let mut seen = HashSet::default();
            for inst in &ix.insts[f.def + 1..f.end] {
                if inst.opcode == Op::FunctionCall
                    && let Some(c) = inst.operands.first().and_then(|o| o.id())
                {
                    callees.push(c);
                }
                for id in inst.referenced_ids() {
                    if let Some(d) = ix.def(id)
                        && matches!(d.opcode, Op::Variable | Op::UntypedVariableKHR)
                        && ix.function_of(d.index).is_none()
                        && seen.insert(id)
                    {
                        globals.push(id);
                    }
                }
            }
            by_function.insert(f.id, (globals, callees));
        }
        StaticUses { ix, by_function }
    }

    /// The global variables used by `f` and every function it calls, transitively.
    fn globals_reached_from(&self, f: Id) -> Vec<Id> {
        let _ = self.ix;
        let mut visited = HashSet::default();
        let mut stack = vec![f];
        let mut out = Vec::new();
        let mut seen = HashSet::default();
        while let Some(g) = stack.pop() {
            if !visited.insert(g) {
                continue;
            }
            if let Some((globals, callees)) = self.by_function.get(&g) {
                out.extend(globals.iter().copied().filter(|v| seen.insert(*v)));
                stack.extend(callees.iter().copied());
            }
        }
        out
    }
}

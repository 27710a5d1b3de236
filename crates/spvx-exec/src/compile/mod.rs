//! Translation of a validated module into a [`Program`]: ids renumbered into dense register
//! slots, types resolved to register leaves and memory layouts, constants (and specialisation
//! constants, with overrides) evaluated, variables given memory, operands pre-decoded, blocks
//! ordered and linked by index, and the functions the entry point reaches compiled.
//!
//! - `types`: register leaves and memory layouts of types, decorations.
//! - `globals`: constants, spec constants, global variables, bindings, built-ins.
//! - `cfg`: the block order (the scheduler's reconvergence priority).
//! - `func`: functions: slots, blocks, segments, phis, terminators, calls, barriers.
//! - `promote`: register promotion of function variables.
//! - `translate`: the dispatcher that routes each body instruction, by opcode family, to its
//!   translator; `operands` holds what they share.
//! - One file per family: `integer`, `float`, `compare`, `convert`, `composite`, `matrix`,
//!   `memory`, `atomics`, `dot`, `tensor`, `group`, `fixedops`, `matrix_mma`, `wide` (and
//!   `wide_more`: integers wider than 64 bits), `kernel` (physical pointers), `ext` (OpExtInst:
//!   GLSL.std.450 per component, with `glsl_ext` for whole vectors and matrices, `opencl`,
//!   `printf`) and `cl_builtins` (OpenCL built-in functions imported by linkage).

mod atomics;
mod cfg;
mod cl_builtins;
mod compare;
mod composite;
mod convert;
mod dot;
mod ext;
mod fixedops;
mod float;
mod func;
mod globals;
mod glsl_ext;
mod group;
mod integer;
mod kernel;
mod matrix;
mod matrix_mma;
mod memory;
mod opencl;
mod operands;
mod printf;
mod promote;
mod tensor;
mod translate;
mod types;
mod wide;
mod wide_more;
mod workgroup_blocks;

use crate::config::CompileOptions;
use crate::error::ExecError;
use crate::program::{Program, Slot};
use spvx_spirv::binary::Header;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::{GlslStd450, OpenClStd};
use std::collections::HashMap;

/// Where a value lives: its first slot and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    pub slot: Slot,
    pub ty: Id,
}

/// The most slots one value may take.
pub(crate) const MAX_VALUE_SLOTS: u32 = 1 << 16;
/// The most slots a program may take (registers per lane).
pub(crate) const MAX_SLOTS: u32 = 1 << 22;

/// Execution model numbers (SPIR-V 1.6 §3.4).
const MODEL_GLCOMPUTE: u32 = 5;
const MODEL_KERNEL: u32 = 6;

/// State of one compilation.
pub(crate) struct Compiler<'a> {
    pub ix: &'a ModuleIndex,
    pub insts: &'a [Instruction],
    pub opts: &'a CompileOptions,
    pub values: HashMap<Id, Value>,
    pub next_slot: u32,
    /// A one-lane register file holding the value of every constant slot.
    pub eval: Vec<u64>,
    /// Slots whose value is fixed for the whole run (constants, variable pointers).
    pub fixed: Vec<Slot>,
    pub globals: globals::Globals,
    /// Compiled index of each function the entry point reaches.
    pub func_index: HashMap<Id, u32>,
    /// Result ids of `OpExtInstImport "GLSL.std.450"`.
    pub glsl: Option<Id>,
    /// Matrix layout of the pointee of access-chain results that point into a decorated
    /// struct member.
    pub ptr_matrix: HashMap<Id, types::MatrixDeco>,
    /// Physical addressing (Physical32/Physical64): the pointer width in bits; `None` for
    /// Logical addressing.
    pub pointer_bits: Option<u32>,
    /// Result id of `OpExtInstImport "OpenCL.std"`.
    pub opencl: Option<Id>,
    /// Kernel-model state (address map, pointers in initialisers).
    pub kstate: kernel::KernelState,
    /// Register promotion of variables (`promote`).
    pub promote: promote::Promotion,
    /// OpControlBarrier instructions with an execution scope other than Workgroup (compiled
    /// to nothing: a subgroup runs in lock step).
    pub other_barriers: u32,
    /// Result ids of shaped tensor values (composites and constants: `tensor`), which
    /// OpTensorWriteARM cannot write.
    pub tensor_values: std::collections::HashSet<Id>,
    /// `OpTypeVectorIdEXT` types whose component count is a specialization constant, resolved
    /// to vectors once the constants are evaluated (`globals`, with the run's overrides).
    pub spec_vectors: HashMap<Id, spvx_spirv::index::Type>,
}

impl<'a> Compiler<'a> {
    /// An error at instruction `index`.
    pub fn err(&self, index: usize, message: impl Into<String>) -> ExecError {
        ExecError::Compile {
            message: message.into(),
            instruction: index as u32,
            opcode: self.opname(index),
        }
    }

    /// "Not supported yet" at instruction `index`.
    pub fn unsupported(&self, index: usize, what: impl Into<String>) -> ExecError {
        ExecError::Unsupported {
            what: what.into(),
            instruction: index as u32,
            opcode: self.opname(index),
        }
    }

    fn opname(&self, index: usize) -> String {
        self.insts.get(index).map_or_else(
            || "end of module".to_string(),
            |i| i.opcode.name().to_string(),
        )
    }

    /// Allocates `n` consecutive slots.
    pub fn alloc(&mut self, index: usize, n: u32) -> Result<Slot, ExecError> {
        let s = self.next_slot;
        let end = s.checked_add(n).filter(|&e| e <= MAX_SLOTS);
        let Some(end) = end else {
            return Err(self.err(
                index,
                format!("the program needs more than {MAX_SLOTS} registers"),
            ));
        };
        self.next_slot = end;
        self.eval.resize(end as usize, 0);
        Ok(s)
    }

    /// The value of an id.
    pub fn value(&self, index: usize, id: Id) -> Result<Value, ExecError> {
        self.values
            .get(&id)
            .copied()
            .ok_or_else(|| self.err(index, format!("{} has no value here", self.ix.name(id))))
    }
}

/// Validates (unless `opts.validate` is off) and compiles the entry point `entry` of a module
/// given as header and flat instruction list.
pub fn compile(
    header: &Header,
    insts: &[Instruction],
    entry: &str,
    opts: &CompileOptions,
) -> Result<Program, ExecError> {
    if opts.validate {
        let valid =
            spvx_val::validate(header, insts, &opts.validation).map_err(ExecError::Invalid)?;
        compile_index(valid.index(), entry, opts, true)
    } else {
        let ix = spvx_val::index(header, insts.to_vec()).map_err(ExecError::Invalid)?;
        compile_index(&ix, entry, opts, false)
    }
}

/// Compiles the entry point `entry` of a module that passed validation (`opts.validate` is not
/// consulted: the module is known to be valid).
pub fn compile_validated(
    valid: &spvx_val::Validated,
    entry: &str,
    opts: &CompileOptions,
) -> Result<Program, ExecError> {
    compile_index(valid.index(), entry, opts, true)
}

/// Compiles the entry point `entry` of an indexed module; `valid` says whether it passed
/// validation (if not, registers are cleared before each run: an invalid module may read a
/// register before writing it).
fn compile_index(
    ix: &ModuleIndex,
    entry: &str,
    opts: &CompileOptions,
    valid: bool,
) -> Result<Program, ExecError> {
    let insts = ix.insts.as_slice();
    let (entry_fn, ep_index, model) = find_entry(ix, insts, entry)?;
    let pointer_bits = kernel::physical_bits(ix);
    let import = |set: &str| {
        ix.ext_imports
            .iter()
            .find(|(_, name)| name.as_str() == set)
            .map(|(id, _)| *id)
    };
    let opencl = import(OpenClStd::IMPORT);
    let glsl = import(GlslStd450::IMPORT);
    let mut c = Compiler {
        ix,
        insts,
        opts,
        values: HashMap::new(),
        next_slot: 0,
        eval: Vec::new(),
        fixed: Vec::new(),
        globals: globals::Globals::default(),
        func_index: HashMap::new(),
        glsl,
        ptr_matrix: HashMap::new(),
        pointer_bits,
        opencl,
        kstate: kernel::KernelState::default(),
        promote: promote::Promotion::default(),
        other_barriers: 0,
        tensor_values: Default::default(),
        spec_vectors: HashMap::new(),
    };
    let order = func::reachable_functions(&c, entry_fn, ep_index)?;
    for (i, f) in order.iter().enumerate() {
        c.func_index.insert(*f, i as u32);
    }
    c.promote.reachable.clone_from(&order);
    c.check_float_controls(entry_fn)?;
    c.compile_globals(&order)?;
    let sigs = c.prepare_functions(&order)?;
    let (local_size, kernel) = if model == MODEL_KERNEL {
        let fixed = c.local_size(entry_fn, ep_index).ok();
        let info = c.kernel_info(entry_fn, &sigs, fixed)?;
        (fixed.unwrap_or([1, 1, 1]), Some(info))
    } else {
        (c.local_size(entry_fn, ep_index)?, None)
    };
    let mut functions = Vec::with_capacity(order.len());
    for f in &order {
        functions.push(c.compile_function(*f, &sigs)?);
    }
    let init = c.fixed.iter().map(|&s| (s, c.eval[s as usize])).collect();
    let g = std::mem::take(&mut c.globals);
    Ok(Program {
        functions,
        entry: 0,
        slot_count: c.next_slot,
        init,
        private_bytes: g.private_bytes,
        private_init: g.private_init,
        workgroup_bytes: g.workgroup_bytes,
        builtins: g.builtins,
        local_size,
        bindings: g.bindings,
        runtime_arrays: g.runtime_arrays,
        opcodes: insts.iter().map(|i| i.opcode).collect(),
        kernel,
        promotion: c.promote.stats,
        reset_registers: !valid,
        other_barriers: c.other_barriers,
        required_subgroup_size: c.required_subgroup_size(entry_fn),
    })
}

/// The entry point's function id, the index of its OpEntryPoint and its execution model
/// (GLCompute or Kernel).
fn find_entry(
    ix: &ModuleIndex,
    insts: &[Instruction],
    name: &str,
) -> Result<(Id, usize, u32), ExecError> {
    let mut available = Vec::new();
    for &i in &ix.entry_points {
        let inst = &insts[i];
        let ep_name = inst.operands.get(2).and_then(|o| o.string()).unwrap_or("");
        if ep_name == name {
            let model = inst
                .operands
                .first()
                .and_then(|o| o.word())
                .unwrap_or(u32::MAX);
            if model != MODEL_GLCOMPUTE && model != MODEL_KERNEL {
                return Err(ExecError::ExecutionModel {
                    name: name.to_string(),
                    model,
                });
            }
            let f = inst.operands.get(1).and_then(|o| o.id()).unwrap_or(0);
            return Ok((f, i, model));
        }
        available.push(ep_name.to_string());
    }
    Err(ExecError::NoEntryPoint {
        name: name.to_string(),
        available,
    })
}

//! Translation of a validated module into a [`Program`]: ids renumbered into dense register
//! slots, types resolved to register leaves and memory layouts, constants (and specialisation
//! constants, with overrides) evaluated, variables given memory, operands pre-decoded, blocks
//! ordered and linked by index, and the functions the entry point reaches compiled.
//!
//! - `types`: register leaves and memory layouts of types, decorations.
//! - `globals`: constants, spec constants, global variables, bindings, built-ins.
//! - `cfg`: the block order (the scheduler's reconvergence priority).
//! - `func`: functions: slots, blocks, segments, phis, terminators.
//! - `ops`: arithmetic, logic, conversion and composite instructions.
//! - `memops`: memory, atomic and dot-product instructions.
//! - `ext`: GLSL.std.450 functions.
//! - `fixedops`, `group`, `matrix`: fixed-point, subgroup and matrix instructions.

mod cfg;
mod cl_builtins;
mod ext;
mod fixedops;
mod func;
mod globals;
mod glsl_ext;
mod group;
mod kernel;
mod matrix;
mod matrix_mma;
mod memops;
mod opencl;
mod ops;
mod printf;
mod promote;
mod types;
mod wide;
mod wide_more;

use crate::config::CompileOptions;
use crate::error::{ExecError, opcode_name};
use crate::program::{Program, Slot};
use spvx_spirv::binary::Header;
use spvx_spirv::grammar::{Grammar, grammar};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_val::index::ModuleIndex;
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
    pub g: &'static Grammar,
    pub ix: ModuleIndex<'a>,
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
        self.insts
            .get(index)
            .map_or_else(|| "end of module".to_string(), |i| opcode_name(i.opcode))
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

/// Compiles the entry point `entry` of a module given as header and flat instruction list.
pub fn compile(
    header: &Header,
    insts: &[Instruction],
    entry: &str,
    opts: &CompileOptions,
) -> Result<Program, ExecError> {
    if opts.validate {
        let errors = spvx_val::validate(header, insts, &opts.validation);
        if !errors.is_empty() {
            return Err(ExecError::Invalid(errors));
        }
    }
    let ix = ModuleIndex::build(header, insts).map_err(ExecError::Invalid)?;
    let (entry_fn, ep_index, model) = find_entry(&ix, insts, entry)?;
    let pointer_bits = kernel::physical_bits(insts);
    let opencl = ix
        .ext_imports
        .iter()
        .find(|(_, name)| name.as_str() == "OpenCL.std")
        .map(|(id, _)| *id);
    let glsl = ix
        .ext_imports
        .iter()
        .find(|(_, name)| name.as_str() == "GLSL.std.450")
        .map(|(id, _)| *id);
    let mut c = Compiler {
        g: grammar(),
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
        reset_registers: !opts.validate,
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

//! A builder that constructs modules in code, placing each instruction in its section.
//!
//! Every instruction goes through the grammar walk ([`crate::layout`]) via [`Arg`]s, so a
//! built instruction has exactly the operands (and operand kinds) the binary reader would give
//! it. Instructions are named as in the grammar (aliases accepted); unknown names, enumerants,
//! extended instructions and badly shaped arguments are typed [`BuildError`]s.
//!
//! Deduplication: non-aggregate types and (non-spec) constants made through the typed helpers
//! are declared once per distinct opcode and operands. SPIR-V 1.6 §2.8 forbids declaring two
//! non-aggregate, non-pointer types with the same opcode and operands; pointers are shared too
//! for convenience. Structures and arrays are never shared (they may differ by decorations).

use super::Module;
use super::args::build_instruction;
use super::build_error::BuildError;
use super::function::{Block, Function};
use super::sections::{Placement, Section, is_terminator, placement};
use crate::binary::Header;
use crate::context::ModuleContext;
use crate::grammar::{Grammar, Version, grammar};
use crate::instruction::{Id, Instruction, Operand};
use crate::op::Op;
use std::collections::HashMap;

use super::args::Arg;

/// A function being built.
struct OpenFunction {
    def: Instruction,
    parameters: Vec<Instruction>,
    blocks: Vec<Block>,
    /// True while the last block has no termination instruction yet.
    block_open: bool,
}

/// Key of a deduplicated declaration: opcode, result type and operands.
type DedupKey = (Op, Option<Id>, Vec<Operand>);

/// Builds a [`Module`] instruction by instruction. See the module documentation.
pub struct Builder {
    g: &'static Grammar,
    version: Version,
    next_id: Id,
    module: Module,
    ctx: ModuleContext,
    dedup: HashMap<DedupKey, Id>,
    function: Option<OpenFunction>,
}

impl Builder {
    /// An empty builder for a module of this SPIR-V version. Ids start at 1.
    pub fn new(version: Version) -> Self {
        Builder {
            g: grammar(),
            version,
            next_id: 1,
            module: Module::new(Header::new(version, 1)),
            ctx: ModuleContext::new(),
            dedup: HashMap::new(),
            function: None,
        }
    }

    /// A fresh id (for forward references such as branch targets).
    pub fn fresh_id(&mut self) -> Id {
        let id = self.next_id;
        self.next_id = self.next_id.saturating_add(1);
        id
    }

    /// One more than the largest id allocated so far.
    pub fn bound(&self) -> u32 {
        self.next_id
    }

    /// Builds the instruction with a fresh result id if the grammar gives it one.
    fn make(
        &mut self,
        opcode: Op,
        result_type: Option<Id>,
        args: &[Arg],
    ) -> Result<Instruction, BuildError> {
        let Some(desc) = self.g.instruction(opcode) else {
            return Err(BuildError::UnknownInstruction(opcode.name().to_string()));
        };
        let instruction = desc.name.to_string();
        match (desc.has_result_type(self.g), result_type) {
            (true, None) => return Err(BuildError::MissingResultType { instruction }),
            (false, Some(_)) => return Err(BuildError::UnexpectedResultType { instruction }),
            _ => {}
        }
        let has_result = desc.has_result(self.g);
        // Build with a placeholder first so a failed build does not use up an id.
        let inst = build_instruction(
            self.g,
            &self.ctx,
            opcode,
            result_type,
            has_result.then_some(0),
            args,
        )?;
        Ok(Instruction {
            result: has_result.then(|| self.fresh_id()),
            ..inst
        })
    }

    /// Adds any module-level instruction, by name, to the section it belongs to (SPIR-V 1.6
    /// §2.4), and returns its result id if it has one. `OpMemoryModel` replaces an earlier one.
    pub fn global(
        &mut self,
        opcode: Op,
        result_type: Option<Id>,
        args: &[Arg],
    ) -> Result<Option<Id>, BuildError> {
        let name = opcode.name();
        let section = match placement(opcode) {
            Placement::Module(s) => s,
            Placement::GlobalOrBody => Section::TypesGlobals,
            Placement::FunctionStructure | Placement::GraphStructure => {
                return Err(BuildError::Structural(name.to_string()));
            }
            Placement::Body => return Err(BuildError::NotModuleLevel(name.to_string())),
        };
        let inst = self.make(opcode, result_type, args)?;
        Ok(self.place(section, inst))
    }

    /// Puts a built instruction in its section and records what it declares.
    fn place(&mut self, section: Section, inst: Instruction) -> Option<Id> {
        self.ctx.observe(&inst);
        let result = inst.result;
        let m = &mut self.module;
        match section {
            Section::MemoryModel => m.memory_model = Some(inst),
            Section::DebugSources | Section::DebugNames | Section::DebugModuleProcessed => {
                // Keep the three debug groups in order (§2.4 item 7 a, b, c).
                let at = m
                    .debug
                    .iter()
                    .position(
                        |d| matches!(placement(d.opcode), Placement::Module(s) if s > section),
                    )
                    .unwrap_or(m.debug.len());
                m.debug.insert(at, inst);
            }
            _ => {
                if let Some(list) = m.section_mut(section) {
                    list.push(inst);
                }
            }
        }
        result
    }

    /// Like [`Builder::global`] for an instruction that must have a result id, sharing an
    /// earlier identical declaration.
    fn declare_shared(
        &mut self,
        opcode: Op,
        result_type: Option<Id>,
        args: &[Arg],
    ) -> Result<Id, BuildError> {
        let probe = build_instruction(self.g, &self.ctx, opcode, result_type, Some(0), args)?;
        let key = (opcode, result_type, probe.operands);
        if let Some(&id) = self.dedup.get(&key) {
            return Ok(id);
        }
        let id = self.declare(opcode, result_type, args)?;
        self.dedup.insert(key, id);
        Ok(id)
    }

    /// Like [`Builder::global`] for an instruction that must have a result id (no sharing).
    pub fn declare(
        &mut self,
        opcode: Op,
        result_type: Option<Id>,
        args: &[Arg],
    ) -> Result<Id, BuildError> {
        self.global(opcode, result_type, args)?
            .ok_or_else(|| BuildError::Operands {
                instruction: opcode.name().to_string(),
                message: "this instruction has no result id".to_string(),
            })
    }

    /// Adds an `OpCapability` or `OpExtension` unless an identical one exists.
    fn once(&mut self, opcode: Op, args: &[Arg]) -> Result<(), BuildError> {
        let inst = build_instruction(self.g, &self.ctx, opcode, None, None, args)?;
        let m = &self.module;
        let exists = m
            .capabilities
            .iter()
            .chain(&m.extensions)
            .any(|i| *i == inst);
        if !exists {
            self.global(opcode, None, args)?;
        }
        Ok(())
    }

    // ---- Mode setting, extensions and debug information ----

    /// `OpCapability` by name (`Shader`, `DotProductKHR`, ...), declared once.
    pub fn capability(&mut self, name: &str) -> Result<(), BuildError> {
        self.once(Op::Capability, &[Arg::name(name)])
    }

    /// `OpExtension`, declared once.
    pub fn extension(&mut self, name: &str) -> Result<(), BuildError> {
        self.once(Op::Extension, &[Arg::str(name)])
    }

    /// `OpExtInstImport` of the named set, declared once; returns the set's id.
    pub fn ext_inst_import(&mut self, name: &str) -> Result<Id, BuildError> {
        self.declare_shared(Op::ExtInstImport, None, &[Arg::str(name)])
    }

    /// `OpMemoryModel` with addressing and memory model names (e.g. `Logical`, `GLSL450`).
    pub fn memory_model(&mut self, addressing: &str, memory: &str) -> Result<(), BuildError> {
        self.global(
            Op::MemoryModel,
            None,
            &[Arg::name(addressing), Arg::name(memory)],
        )
        .map(drop)
    }

    /// `OpEntryPoint model %function "name" interface...`.
    pub fn entry_point(
        &mut self,
        model: &str,
        function: Id,
        name: &str,
        interface: &[Id],
    ) -> Result<(), BuildError> {
        let mut args = vec![Arg::name(model), Arg::Id(function), Arg::str(name)];
        args.extend(interface.iter().map(|&i| Arg::Id(i)));
        self.global(Op::EntryPoint, None, &args).map(drop)
    }

    /// `OpExecutionMode %entry mode literals...`.
    pub fn execution_mode(
        &mut self,
        entry: Id,
        mode: &str,
        literals: &[u32],
    ) -> Result<(), BuildError> {
        let mut args = vec![Arg::Id(entry), Arg::name(mode)];
        args.extend(literals.iter().map(|&w| Arg::Int(w)));
        self.global(Op::ExecutionMode, None, &args).map(drop)
    }

    /// `OpName %target "name"`.
    pub fn name(&mut self, target: Id, name: &str) -> Result<(), BuildError> {
        self.global(Op::Name, None, &[Arg::Id(target), Arg::str(name)])
            .map(drop)
    }

    /// `OpMemberName %type member "name"`.
    pub fn member_name(&mut self, ty: Id, member: u32, name: &str) -> Result<(), BuildError> {
        let args = [Arg::Id(ty), Arg::Int(member), Arg::str(name)];
        self.global(Op::MemberName, None, &args).map(drop)
    }

    /// `OpDecorate %target Decoration parameters...`.
    pub fn decorate(
        &mut self,
        target: Id,
        decoration: &str,
        parameters: &[Arg],
    ) -> Result<(), BuildError> {
        let mut args = vec![Arg::Id(target), Arg::name(decoration)];
        args.extend(parameters.iter().cloned());
        self.global(Op::Decorate, None, &args).map(drop)
    }

    /// `OpMemberDecorate %type member Decoration parameters...`.
    pub fn member_decorate(
        &mut self,
        ty: Id,
        member: u32,
        decoration: &str,
        parameters: &[Arg],
    ) -> Result<(), BuildError> {
        let mut args = vec![Arg::Id(ty), Arg::Int(member), Arg::name(decoration)];
        args.extend(parameters.iter().cloned());
        self.global(Op::MemberDecorate, None, &args).map(drop)
    }

    // ---- Types ----

    /// Any type declaration, shared with an identical earlier one unless it is an
    /// aggregate (`OpTypeStruct`, `OpTypeArray`, `OpTypeRuntimeArray`), which is always new.
    pub fn type_decl(&mut self, opcode: Op, args: &[Arg]) -> Result<Id, BuildError> {
        if matches!(
            opcode,
            Op::TypeArray | Op::TypeRuntimeArray | Op::TypeStruct
        ) {
            self.declare(opcode, None, args)
        } else {
            self.declare_shared(opcode, None, args)
        }
    }

    /// `OpTypeVoid`.
    pub fn type_void(&mut self) -> Result<Id, BuildError> {
        self.type_decl(Op::TypeVoid, &[])
    }

    /// `OpTypeBool`.
    pub fn type_bool(&mut self) -> Result<Id, BuildError> {
        self.type_decl(Op::TypeBool, &[])
    }

    /// `OpTypeInt width signedness` (any width: SPV_INTEL_arbitrary_precision_integers).
    pub fn type_int(&mut self, width: u32, signed: bool) -> Result<Id, BuildError> {
        self.type_decl(Op::TypeInt, &[Arg::Int(width), Arg::Int(u32::from(signed))])
    }

    /// `OpTypeFloat width`, with an `FPEncoding` name (`BFloat16KHR`, `Float8E4M3EXT`, ...)
    /// when given.
    pub fn type_float(&mut self, width: u32, encoding: Option<&str>) -> Result<Id, BuildError> {
        let mut args = vec![Arg::Int(width)];
        args.extend(encoding.map(Arg::name));
        self.type_decl(Op::TypeFloat, &args)
    }

    /// `OpTypeVector %component count`.
    pub fn type_vector(&mut self, component: Id, count: u32) -> Result<Id, BuildError> {
        self.type_decl(Op::TypeVector, &[Arg::Id(component), Arg::Int(count)])
    }

    /// `OpTypeMatrix %column count`.
    pub fn type_matrix(&mut self, column: Id, count: u32) -> Result<Id, BuildError> {
        self.type_decl(Op::TypeMatrix, &[Arg::Id(column), Arg::Int(count)])
    }

    /// `OpTypeArray %element %length` (a new type each time).
    pub fn type_array(&mut self, element: Id, length: Id) -> Result<Id, BuildError> {
        self.type_decl(Op::TypeArray, &[Arg::Id(element), Arg::Id(length)])
    }

    /// `OpTypeRuntimeArray %element` (a new type each time).
    pub fn type_runtime_array(&mut self, element: Id) -> Result<Id, BuildError> {
        self.type_decl(Op::TypeRuntimeArray, &[Arg::Id(element)])
    }

    /// `OpTypeStruct %members...` (a new type each time).
    pub fn type_struct(&mut self, members: &[Id]) -> Result<Id, BuildError> {
        let args: Vec<Arg> = members.iter().map(|&m| Arg::Id(m)).collect();
        self.type_decl(Op::TypeStruct, &args)
    }

    /// `OpTypePointer StorageClass %pointee`.
    pub fn type_pointer(&mut self, storage: &str, pointee: Id) -> Result<Id, BuildError> {
        self.type_decl(Op::TypePointer, &[Arg::name(storage), Arg::Id(pointee)])
    }

    /// `OpTypeFunction %return %parameters...`.
    pub fn type_function(&mut self, ret: Id, parameters: &[Id]) -> Result<Id, BuildError> {
        let mut args = vec![Arg::Id(ret)];
        args.extend(parameters.iter().map(|&p| Arg::Id(p)));
        self.type_decl(Op::TypeFunction, &args)
    }

    /// `OpTypeTensorARM %element [%rank [%shape]]` (SPV_ARM_tensors). A shape needs a rank.
    pub fn type_tensor_arm(
        &mut self,
        element: Id,
        rank: Option<Id>,
        shape: Option<Id>,
    ) -> Result<Id, BuildError> {
        if shape.is_some() && rank.is_none() {
            return Err(BuildError::Operands {
                instruction: Op::TypeTensorARM.name().to_string(),
                message: "a shape operand needs a rank operand before it".to_string(),
            });
        }
        let mut args = vec![Arg::Id(element)];
        args.extend(rank.map(Arg::Id));
        args.extend(shape.map(Arg::Id));
        self.type_decl(Op::TypeTensorARM, &args)
    }

    /// `OpTypeCooperativeMatrixKHR %component %scope %rows %columns %use` (all ids of constants).
    pub fn type_cooperative_matrix_khr(
        &mut self,
        component: Id,
        scope: Id,
        rows: Id,
        columns: Id,
        usage: Id,
    ) -> Result<Id, BuildError> {
        let args = [component, scope, rows, columns, usage].map(Arg::Id);
        self.type_decl(Op::TypeCooperativeMatrixKHR, &args)
    }

    // ---- Constants and global variables ----

    /// `OpConstant %ty value`, shared with an identical earlier constant. The value is one word
    /// for types of 32 bits or fewer (`Arg::Int`/`Arg::Float`), else `Arg::Words`, low word
    /// first (SPIR-V 1.6 §2.2.1, "Literal").
    pub fn constant(&mut self, ty: Id, value: Arg) -> Result<Id, BuildError> {
        self.declare_shared(Op::Constant, Some(ty), &[value])
    }

    /// A 32-bit unsigned integer constant (declares `OpTypeInt 32 0`).
    pub fn constant_u32(&mut self, value: u32) -> Result<Id, BuildError> {
        let ty = self.type_int(32, false)?;
        self.constant(ty, Arg::Int(value))
    }

    /// A 32-bit signed integer constant (declares `OpTypeInt 32 1`).
    pub fn constant_i32(&mut self, value: i32) -> Result<Id, BuildError> {
        let ty = self.type_int(32, true)?;
        self.constant(ty, Arg::Int(value as u32))
    }

    /// A 32-bit float constant with exactly these bits (declares `OpTypeFloat 32`).
    pub fn constant_f32(&mut self, value: f32) -> Result<Id, BuildError> {
        let ty = self.type_float(32, None)?;
        self.constant(ty, Arg::Int(value.to_bits()))
    }

    /// `OpConstant %ty` with these literal words, low word first.
    pub fn constant_words(&mut self, ty: Id, words: &[u32]) -> Result<Id, BuildError> {
        self.constant(ty, Arg::Words(words.to_vec()))
    }

    /// `OpConstantTrue`/`OpConstantFalse` (declares `OpTypeBool`).
    pub fn constant_bool(&mut self, value: bool) -> Result<Id, BuildError> {
        let ty = self.type_bool()?;
        let name = if value {
            Op::ConstantTrue
        } else {
            Op::ConstantFalse
        };
        self.declare_shared(name, Some(ty), &[])
    }

    /// `OpConstantComposite %ty %constituents...`.
    pub fn constant_composite(&mut self, ty: Id, constituents: &[Id]) -> Result<Id, BuildError> {
        let args: Vec<Arg> = constituents.iter().map(|&c| Arg::Id(c)).collect();
        self.declare_shared(Op::ConstantComposite, Some(ty), &args)
    }

    /// `OpConstantNull %ty`.
    pub fn constant_null(&mut self, ty: Id) -> Result<Id, BuildError> {
        self.declare_shared(Op::ConstantNull, Some(ty), &[])
    }

    /// A module-level `OpVariable %pointer_type StorageClass [%initializer]`.
    pub fn global_variable(
        &mut self,
        pointer_type: Id,
        storage: &str,
        initializer: Option<Id>,
    ) -> Result<Id, BuildError> {
        let mut args = vec![Arg::name(storage)];
        args.extend(initializer.map(Arg::Id));
        self.declare(Op::Variable, Some(pointer_type), &args)
    }

    // ---- Functions ----

    /// Opens a function: `OpFunction %result_type FunctionControl %function_type`; returns its id.
    pub fn begin_function(
        &mut self,
        result_type: Id,
        control: &str,
        function_type: Id,
    ) -> Result<Id, BuildError> {
        if self.function.is_some() {
            return Err(BuildError::FunctionOpen);
        }
        let args = [Arg::name(control), Arg::Id(function_type)];
        let def = self.make(Op::Function, Some(result_type), &args)?;
        let id = def.result.unwrap_or(0);
        self.ctx.observe(&def);
        self.function = Some(OpenFunction {
            def,
            parameters: Vec::new(),
            blocks: Vec::new(),
            block_open: false,
        });
        Ok(id)
    }

    /// Adds `OpFunctionParameter %ty` to the open function; returns its id.
    pub fn function_parameter(&mut self, ty: Id) -> Result<Id, BuildError> {
        let open = self.open_function(Op::FunctionParameter)?;
        if !open.blocks.is_empty() {
            return Err(BuildError::ParameterAfterBlock);
        }
        let inst = self.make(Op::FunctionParameter, Some(ty), &[])?;
        let id = inst.result.unwrap_or(0);
        self.ctx.observe(&inst);
        if let Some(f) = self.function.as_mut() {
            f.parameters.push(inst);
        }
        Ok(id)
    }

    fn open_function(&mut self, what: Op) -> Result<&mut OpenFunction, BuildError> {
        self.function
            .as_mut()
            .ok_or_else(|| BuildError::NoOpenFunction(what.name().to_string()))
    }

    /// Opens a new block with a fresh label; returns the label id.
    pub fn begin_block(&mut self) -> Result<Id, BuildError> {
        self.check_no_open_block()?;
        let label = self.fresh_id();
        self.begin_block_with(label)
    }

    /// Fails unless a function is open and its last block (if any) is terminated.
    fn check_no_open_block(&mut self) -> Result<(), BuildError> {
        let f = self.open_function(Op::Label)?;
        match f.blocks.last() {
            Some(b) if f.block_open => Err(BuildError::BlockOpen(b.id().unwrap_or(0))),
            _ => Ok(()),
        }
    }

    /// Opens a new block whose label is `label` (an id from [`Builder::fresh_id`], e.g. one a
    /// branch already targets).
    pub fn begin_block_with(&mut self, label: Id) -> Result<Id, BuildError> {
        self.check_no_open_block()?;
        let f = self.open_function(Op::Label)?;
        f.blocks.push(Block {
            label: Instruction {
                opcode: Op::Label,
                result_type: None,
                result: Some(label),
                operands: Vec::new(),
            },
            instructions: Vec::new(),
        });
        f.block_open = true;
        Ok(label)
    }

    /// Adds an instruction to the open block; returns its result id if it has one. A
    /// termination instruction closes the block.
    pub fn inst(
        &mut self,
        opcode: Op,
        result_type: Option<Id>,
        args: &[Arg],
    ) -> Result<Option<Id>, BuildError> {
        let name = opcode.name();
        match placement(opcode) {
            Placement::Module(_) => return Err(BuildError::NotInBlock(name.to_string())),
            Placement::FunctionStructure | Placement::GraphStructure => {
                return Err(BuildError::Structural(name.to_string()));
            }
            Placement::GlobalOrBody | Placement::Body => {}
        }
        let f = self.open_function(opcode)?;
        if !f.block_open {
            return Err(BuildError::NoOpenBlock(name.to_string()));
        }
        let inst = self.make(opcode, result_type, args)?;
        self.ctx.observe(&inst);
        let result = inst.result;
        if let Some(f) = self.function.as_mut()
            && let Some(block) = f.blocks.last_mut()
        {
            f.block_open = !is_terminator(opcode);
            block.instructions.push(inst);
        }
        Ok(result)
    }

    /// Closes the open function with `OpFunctionEnd`; returns the function's id.
    pub fn end_function(&mut self) -> Result<Id, BuildError> {
        let f = self.open_function(Op::FunctionEnd)?;
        if f.block_open
            && let Some(b) = f.blocks.last()
        {
            return Err(BuildError::BlockOpen(b.id().unwrap_or(0)));
        }
        let Some(f) = self.function.take() else {
            return Err(BuildError::NoOpenFunction(
                Op::FunctionEnd.name().to_string(),
            ));
        };
        let id = f.def.result.unwrap_or(0);
        self.module.functions.push(Function {
            leading_lines: Vec::new(),
            def: f.def,
            parameters: f.parameters,
            blocks: f.blocks,
            end: Instruction {
                opcode: Op::FunctionEnd,
                result_type: None,
                result: None,
                operands: Vec::new(),
            },
        });
        Ok(id)
    }

    /// The finished module: header bound set to one more than the largest id, function
    /// declarations moved before definitions (§2.4 items 10-11, order otherwise kept).
    pub fn finish(self) -> Result<Module, BuildError> {
        if self.function.is_some() {
            return Err(BuildError::FunctionOpen);
        }
        let mut module = self.module;
        module.header = Header::new(self.version, self.next_id);
        module.functions.sort_by_key(|f| !f.is_declaration());
        Ok(module)
    }
}

//! The module index: the facts about a module that validation, the engine, Vulkan reflection
//! and the CLI all need, gathered once — where each id is defined, what each type is, the values
//! of evaluable constants, the enabled capabilities and extensions, names, decorations, entry
//! points and the function/block structure, all by index into the flat instruction list; and
//! the source location (`OpLine`, `DebugLine`) in force at an instruction.
//!
//! It holds the module's instructions and answers questions about them; it judges nothing
//! (that is spvx-val's job, which returns the index it built as `spvx_val::Validated`).

mod interface;
mod lines;
mod types;
mod writes;

pub use interface::{EntryPoint, ResourceVariable, SpecConstant};
pub use lines::SourceLocation;
pub use types::Type;

use crate::binary::Header;
use crate::context::ModuleContext;
use crate::dis::FriendlyNames;
use crate::grammar::{Grammar, grammar};
use crate::instruction::{Id, Instruction, OperandValue};
use crate::module::is_terminator;
use crate::op::Op;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use thiserror::Error;

/// Why a module cannot be indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IndexError {
    /// Instruction `index` defines `id`, which instruction `first` defined already.
    #[error("instruction {index}: id {id} is defined twice (first by instruction {first})")]
    DefinedTwice { index: usize, id: Id, first: usize },
}

/// Where an id is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Def {
    /// Index of the defining instruction in the flat list.
    pub index: usize,
    pub opcode: Op,
    pub result_type: Option<Id>,
}

/// One block: its label and the span of its instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    pub label: Id,
    /// Index of the `OpLabel`.
    pub label_index: usize,
    /// Index of the block's termination instruction.
    pub terminator: usize,
}

/// One function, by instruction indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionInfo {
    pub id: Id,
    /// Index of the `OpFunction`.
    pub def: usize,
    /// Indices of the `OpFunctionParameter`s.
    pub params: Vec<usize>,
    pub blocks: Vec<BlockInfo>,
    /// Index of the `OpFunctionEnd`.
    pub end: usize,
}

/// The index of a module, built with [`ModuleIndex::build`].
#[derive(Clone, Debug)]
pub struct ModuleIndex {
    pub grammar: &'static Grammar,
    pub header: Header,
    /// The module's instructions in file order.
    pub insts: Vec<Instruction>,
    defs: HashMap<Id, Def>,
    types: HashMap<Id, Type>,
    /// Capabilities declared with `OpCapability`.
    pub declared_capabilities: HashSet<u32>,
    /// Declared capabilities and everything they implicitly declare, transitively.
    pub enabled_capabilities: HashSet<u32>,
    /// Extensions declared with `OpExtension`.
    pub extensions: HashSet<String>,
    /// Extended instruction set imports, by id.
    pub ext_imports: HashMap<Id, String>,
    pub functions: Vec<FunctionInfo>,
    /// Indices of the `OpEntryPoint` instructions.
    pub entry_points: Vec<usize>,
    /// Indices of `OpDecorate`/`OpMemberDecorate`/... instructions by target id.
    pub decorations: HashMap<Id, Vec<usize>>,
    /// The function each instruction index belongs to (index into `functions`), if any.
    function_of: Vec<Option<usize>>,
    names: FriendlyNames,
    context: ModuleContext,
    /// Ids defined again after their first definition, in instruction order.
    redefinitions: Vec<IndexError>,
}

impl ModuleIndex {
    /// Indexes `insts`. An id defined more than once keeps its first definition, and each
    /// redefinition is recorded ([`ModuleIndex::redefinitions`]): such a module is invalid, and
    /// validation reports them before anything else.
    pub fn build(header: &Header, insts: Vec<Instruction>) -> Self {
        let g = grammar();
        let mut defs = HashMap::default();
        let mut errors = Vec::new();
        let mut context = ModuleContext::new();
        for (index, inst) in insts.iter().enumerate() {
            context.observe(inst);
            if let Some(id) = inst.result {
                let def = Def {
                    index,
                    opcode: inst.opcode,
                    result_type: inst.result_type,
                };
                if let Some(first) = defs.insert(id, def) {
                    defs.insert(id, first);
                    errors.push(IndexError::DefinedTwice {
                        index,
                        id,
                        first: first.index,
                    });
                }
            }
        }
        let names = FriendlyNames::build(g, &context, &insts);
        let function_of = vec![None; insts.len()];
        let mut ix = ModuleIndex {
            grammar: g,
            header: *header,
            insts,
            defs,
            types: HashMap::default(),
            declared_capabilities: HashSet::default(),
            enabled_capabilities: HashSet::default(),
            extensions: HashSet::default(),
            ext_imports: HashMap::default(),
            functions: Vec::new(),
            entry_points: Vec::new(),
            decorations: HashMap::default(),
            function_of,
            names,
            context,
            redefinitions: errors,
        };
        ix.scan();
        ix
    }

    fn scan(&mut self) {
        let g = self.grammar;
        let mut current: Option<FunctionInfo> = None;
        let mut open_block: Option<(Id, usize)> = None;
        for (index, inst) in self.insts.iter().enumerate() {
            match inst.opcode {
                Op::Capability => {
                    if let Some(c) = inst.operands.first().and_then(|o| o.word()) {
                        self.declared_capabilities.insert(c);
                    }
                }
                Op::Extension => {
                    if let Some(s) = inst.operands.first().and_then(|o| o.string()) {
                        self.extensions.insert(s.to_string());
                    }
                }
                Op::ExtInstImport => {
                    if let (Some(id), Some(s)) =
                        (inst.result, inst.operands.first().and_then(|o| o.string()))
                    {
                        self.ext_imports.insert(id, s.to_string());
                    }
                }
                Op::EntryPoint => self.entry_points.push(index),
                Op::Function => {
                    current = Some(FunctionInfo {
                        id: inst.result.unwrap_or(0),
                        def: index,
                        params: Vec::new(),
                        blocks: Vec::new(),
                        end: index,
                    });
                }
                Op::FunctionParameter => {
                    if let Some(f) = current.as_mut() {
                        f.params.push(index);
                    }
                }
                Op::Label => open_block = inst.result.map(|l| (l, index)),
                Op::FunctionEnd => {
                    if let Some(mut f) = current.take() {
                        f.end = index;
                        self.functions.push(f);
                    }
                }
                _ => {}
            }
            if is_terminator(inst.opcode)
                && let (Some((label, label_index)), Some(f)) = (open_block.take(), current.as_mut())
            {
                f.blocks.push(BlockInfo {
                    label,
                    label_index,
                    terminator: index,
                });
            }
            if g.instruction(inst.opcode)
                .is_some_and(|d| d.class == "Annotation")
                && let Some(target) = inst.operands.first().and_then(|o| o.id())
            {
                self.decorations.entry(target).or_default().push(index);
            }
            if let Some(t) = types::resolve(inst)
                && let Some(id) = inst.result
            {
                self.types.insert(id, t);
            }
            // OpTypeVectorIdEXT (SPV_EXT_long_vector; the opcode of OpTypeCooperativeVectorNV):
            // a vector whose component count is a constant's value, defined before it.
            if inst.opcode == Op::TypeVectorIdEXT
                && let Some(id) = inst.result
                && let Some(component) = inst.operands.first().and_then(|o| o.id())
                && let Some(count) = inst.operands.get(1).and_then(|o| o.id())
                && let Some(count) = self.const_u64(count).and_then(|n| u32::try_from(n).ok())
            {
                self.types.insert(id, Type::Vector { component, count });
            }
        }
        types::remove_cyclic(&mut self.types);
        for (fi, f) in self.functions.iter().enumerate() {
            for slot in &mut self.function_of[f.def..=f.end] {
                *slot = Some(fi);
            }
        }
        self.enabled_capabilities = self.capability_closure();
    }

    /// Declared capabilities plus everything they implicitly declare, transitively.
    fn capability_closure(&self) -> HashSet<u32> {
        let caps = self.grammar.kind(self.grammar.common.capability);
        let mut enabled: HashSet<u32> = HashSet::default();
        let mut work: Vec<u32> = self.declared_capabilities.iter().copied().collect();
        while let Some(c) = work.pop() {
            if !enabled.insert(c) {
                continue;
            }
            if let Some(e) = caps.enumerant(c) {
                for implied in &e.capabilities {
                    if let Some(i) = caps.enumerant_by_name(implied) {
                        work.push(i.value);
                    }
                }
            }
        }
        enabled
    }

    /// The ids defined more than once (empty for a module that can be valid).
    pub fn redefinitions(&self) -> &[IndexError] {
        &self.redefinitions
    }

    /// Where `id` is defined.
    pub fn def(&self, id: Id) -> Option<Def> {
        self.defs.get(&id).copied()
    }

    /// The instruction defining `id`.
    pub fn def_inst(&self, id: Id) -> Option<&Instruction> {
        self.def(id).map(|d| &self.insts[d.index])
    }

    /// The type declared with id `type_id`.
    pub fn ty(&self, type_id: Id) -> Option<&Type> {
        self.types.get(&type_id)
    }

    /// The result type of the value `id`.
    pub fn type_of(&self, id: Id) -> Option<Id> {
        self.def(id).and_then(|d| d.result_type)
    }

    /// The type of the value `id`, resolved.
    pub fn value_type(&self, id: Id) -> Option<&Type> {
        self.type_of(id).and_then(|t| self.ty(t))
    }

    /// For an `OpTypeVectorIdEXT` (SPV_EXT_long_vector) whose component count is not a
    /// constant the index could evaluate (a specialization constant): its component type and
    /// the count's id. The count is known once specialization constants are applied (the
    /// engine resolves it when it builds a program); until then the type is a vector of
    /// unknown length (`Type::Other(Op::TypeVectorIdEXT)`).
    pub fn spec_vector(&self, type_id: Id) -> Option<(Id, Id)> {
        if self.ty(type_id)? != &Type::Other(Op::TypeVectorIdEXT) {
            return None;
        }
        let inst = self.def_inst(type_id)?;
        Some((inst.operands.first()?.id()?, inst.operands.get(1)?.id()?))
    }

    /// The storage class of a pointer type, typed (`OpTypePointer`) or untyped
    /// (`OpTypeUntypedPointerKHR`, SPV_KHR_untyped_pointers); `None` for other types.
    pub fn pointer_class(&self, type_id: Id) -> Option<u32> {
        match self.ty(type_id)? {
            Type::Pointer { storage_class, .. } => Some(*storage_class),
            Type::Other(Op::TypeUntypedPointerKHR) => {
                self.def_inst(type_id)?.operands.first()?.word()
            }
            _ => None,
        }
    }

    /// For a scalar type: itself; for a vector: its component type. Other types: `None`.
    pub fn scalar_or_component(&self, type_id: Id) -> Option<Id> {
        match self.ty(type_id)? {
            Type::Vector { component, .. } => Some(*component),
            t if t.is_scalar() => Some(type_id),
            _ => None,
        }
    }

    /// The value of an integer constant of at most 64 bits (`OpConstant`, `OpConstantNull`),
    /// zero-extended. Spec constants and wider constants give `None`.
    pub fn const_u64(&self, id: Id) -> Option<u64> {
        let inst = self.def_inst(id)?;
        match inst.opcode {
            Op::ConstantNull => Some(0),
            Op::Constant => match &inst.operands.first()?.value {
                OperandValue::Number(ws) if ws.len() == 1 => Some(ws[0] as u64),
                OperandValue::Number(ws) if ws.len() == 2 => {
                    Some(ws[0] as u64 | ((ws[1] as u64) << 32))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// True when the instruction defining `id` is a constant-creation instruction (spec
    /// constants included).
    pub fn is_constant(&self, id: Id) -> bool {
        self.def(id).is_some_and(|d| {
            self.grammar
                .instruction(d.opcode)
                .is_some_and(|i| i.class == "Constant-Creation")
        })
    }

    /// True when capability `name` (or an alias) is enabled, explicitly or implicitly.
    pub fn has_capability(&self, name: &str) -> bool {
        let caps = self.grammar.kind(self.grammar.common.capability);
        caps.enumerant_by_name(name)
            .is_some_and(|e| self.enabled_capabilities.contains(&e.value))
    }

    /// True when extension `name` is declared.
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.contains(name)
    }

    /// The addressing model of `OpMemoryModel` (SPIR-V §3.4: 0 Logical, 1 Physical32, 2
    /// Physical64, 5348 PhysicalStorageBuffer64); `None` without one.
    pub fn addressing_model(&self) -> Option<u32> {
        let mm = self.insts.iter().find(|i| i.opcode == Op::MemoryModel)?;
        mm.operands.first()?.word()
    }

    /// The function (index into `functions`) that instruction `index` belongs to.
    pub fn function_of(&self, index: usize) -> Option<usize> {
        self.function_of.get(index).copied().flatten()
    }

    /// The literal-layout context of the whole module.
    pub fn context(&self) -> &ModuleContext {
        &self.context
    }

    /// `id` as messages show it: its friendly name as spirv-dis would print it, e.g. `%uint`.
    pub fn name(&self, id: Id) -> String {
        format!("%{}", self.names.get(id))
    }
}

/// Small type queries shared by the extension rules.
impl ModuleIndex {
    /// `(width, signed)` when `type_id` is an `OpTypeInt`.
    pub fn int_type(&self, type_id: Id) -> Option<(u32, bool)> {
        match self.ty(type_id)? {
            Type::Int { width, signed } => Some((*width, *signed)),
            _ => None,
        }
    }

    /// `(width, encoding)` when `type_id` is an `OpTypeFloat`.
    pub fn float_type(&self, type_id: Id) -> Option<(u32, Option<u32>)> {
        match self.ty(type_id)? {
            Type::Float { width, encoding } => Some((*width, *encoding)),
            _ => None,
        }
    }

    /// The number of components: 1 for a scalar, the count for a vector, `None` otherwise.
    pub fn component_count(&self, type_id: Id) -> Option<u32> {
        match self.ty(type_id)? {
            Type::Vector { count, .. } => Some(*count),
            t if t.is_scalar() => Some(1),
            _ => None,
        }
    }

    /// The id operand at position `i` (after result type and result id) of `inst`.
    pub fn operand_id(inst: &Instruction, i: usize) -> Option<Id> {
        inst.operands.get(i).and_then(|o| o.id())
    }
}

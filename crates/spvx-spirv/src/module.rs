//! The module model: a module split into the sections of its logical layout, with functions
//! made of blocks, and a [`Builder`] to construct modules in code.
//!
//! [`Module::from_instructions`] checks the logical layout of SPIR-V 1.6 §2.4 ("Logical Layout
//! of a Module") while it splits a flat instruction list into sections; [`Module::to_instructions`]
//! is its exact inverse. The model knows where instructions stand, nothing about what they mean.

mod args;
mod build_error;
mod builder;
mod function;
mod layout_error;
mod sections;

pub use args::Arg;
pub use build_error::BuildError;
pub use builder::Builder;
pub use function::{Block, Function};
pub use layout_error::{LayoutError, LayoutRule};
pub use sections::{Placement, Section, TERMINATORS, is_line, is_terminator, placement};

use crate::binary::{BinaryError, Header, read_bytes, to_bytes, to_words};
use crate::instruction::Instruction;
use crate::op::Op;
use thiserror::Error;

/// A module in logical layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    pub header: Header,
    /// §2.4 item 1: `OpCapability`.
    pub capabilities: Vec<Instruction>,
    /// Item 2: `OpExtension`.
    pub extensions: Vec<Instruction>,
    /// Item 3: `OpExtInstImport`.
    pub ext_inst_imports: Vec<Instruction>,
    /// Item 4: `OpMemoryModel` (required in a complete module).
    pub memory_model: Option<Instruction>,
    /// Item 5: `OpEntryPoint`.
    pub entry_points: Vec<Instruction>,
    /// Item 6: `OpExecutionMode`, `OpExecutionModeId`.
    pub execution_modes: Vec<Instruction>,
    /// Item 7: `OpString`, `OpSource*`, then `OpName`/`OpMemberName`, then `OpModuleProcessed`.
    pub debug: Vec<Instruction>,
    /// Item 8: decorations and decoration groups.
    pub annotations: Vec<Instruction>,
    /// Item 9: types, constants, spec constants, global variables, `OpUndef`, and any
    /// `OpLine`/`OpNoLine`/`OpExtInst` among them, in order.
    pub types_globals: Vec<Instruction>,
    /// Items 10-11: function declarations, then definitions.
    pub functions: Vec<Function>,
    /// SPV_ARM_graph's section after the functions: `OpGraphEntryPointARM`s and graphs
    /// (`OpGraphARM` … `OpGraphEndARM`), in order.
    pub graphs: Vec<Instruction>,
}

/// An error reading a module from bytes: either the binary is malformed or its instructions are
/// not in logical layout.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ModuleError {
    #[error(transparent)]
    Binary(#[from] BinaryError),
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

impl Module {
    /// An empty module with this header (no memory model yet).
    pub fn new(header: Header) -> Self {
        Module {
            header,
            capabilities: Vec::new(),
            extensions: Vec::new(),
            ext_inst_imports: Vec::new(),
            memory_model: None,
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            debug: Vec::new(),
            annotations: Vec::new(),
            types_globals: Vec::new(),
            functions: Vec::new(),
            graphs: Vec::new(),
        }
    }

    /// Reads a binary module (either byte order) and splits it into sections.
    pub fn read_bytes(bytes: &[u8]) -> Result<Module, ModuleError> {
        let parsed = read_bytes(bytes)?;
        Ok(Module::from_instructions(
            parsed.header,
            parsed.instructions,
        )?)
    }

    /// Splits a flat instruction list into sections, checking the logical layout of SPIR-V 1.6
    /// §2.4. The first broken rule is returned with the index of the instruction that broke it.
    pub fn from_instructions(
        header: Header,
        instructions: Vec<Instruction>,
    ) -> Result<Module, LayoutError> {
        let mut s = Splitter {
            module: Module::new(header),
            section: Section::Capabilities,
            open: None,
            seen_definition: false,
            pending_lines: Vec::new(),
            pending_start: 0,
            open_graph: None,
        };
        let total = instructions.len();
        for (index, inst) in instructions.into_iter().enumerate() {
            s.push(index, inst)?;
        }
        s.finish(total)
    }

    /// The instructions in order; the exact inverse of [`Module::from_instructions`].
    pub fn to_instructions(&self) -> Vec<Instruction> {
        let mut out = Vec::with_capacity(self.instruction_count());
        out.extend(self.iter().cloned());
        out
    }

    /// The instructions in order, without copying them.
    pub fn iter(&self) -> impl Iterator<Item = &Instruction> {
        self.capabilities
            .iter()
            .chain(&self.extensions)
            .chain(&self.ext_inst_imports)
            .chain(&self.memory_model)
            .chain(&self.entry_points)
            .chain(&self.execution_modes)
            .chain(&self.debug)
            .chain(&self.annotations)
            .chain(&self.types_globals)
            .chain(self.functions.iter().flat_map(Function::iter))
            .chain(&self.graphs)
    }

    /// The number of instructions in the module.
    pub fn instruction_count(&self) -> usize {
        self.capabilities.len()
            + self.extensions.len()
            + self.ext_inst_imports.len()
            + usize::from(self.memory_model.is_some())
            + self.entry_points.len()
            + self.execution_modes.len()
            + self.debug.len()
            + self.annotations.len()
            + self.types_globals.len()
            + self
                .functions
                .iter()
                .map(Function::instruction_count)
                .sum::<usize>()
            + self.graphs.len()
    }

    /// The binary words (header included).
    pub fn to_words(&self) -> Vec<u32> {
        to_words(&self.header, &self.to_instructions())
    }

    /// The binary as little-endian bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        to_bytes(&self.header, &self.to_instructions())
    }

    /// The module-level list an instruction of `section` goes to (`None` for the memory model
    /// and functions, which are not lists of instructions).
    fn section_mut(&mut self, section: Section) -> Option<&mut Vec<Instruction>> {
        Some(match section {
            Section::Capabilities => &mut self.capabilities,
            Section::Extensions => &mut self.extensions,
            Section::ExtInstImports => &mut self.ext_inst_imports,
            Section::EntryPoints => &mut self.entry_points,
            Section::ExecutionModes => &mut self.execution_modes,
            Section::DebugSources | Section::DebugNames | Section::DebugModuleProcessed => {
                &mut self.debug
            }
            Section::Annotations => &mut self.annotations,
            Section::TypesGlobals => &mut self.types_globals,
            Section::Graphs => &mut self.graphs,
            Section::MemoryModel | Section::Functions => return None,
        })
    }
}

/// A function being split: the parts seen so far.
struct OpenFunction {
    leading_lines: Vec<Instruction>,
    start: usize,
    def: Instruction,
    parameters: Vec<Instruction>,
    blocks: Vec<Block>,
    /// Index of the current block's `OpLabel`.
    block_start: usize,
    /// True once the current block has its termination instruction.
    terminated: bool,
}

/// The state of [`Module::from_instructions`].
struct Splitter {
    module: Module,
    /// The latest module-level section entered.
    section: Section,
    open: Option<OpenFunction>,
    seen_definition: bool,
    /// `OpLine`/`OpNoLine` seen between functions, with the index of the first: they go with
    /// the next function.
    pending_lines: Vec<Instruction>,
    pending_start: usize,
    /// Index of the `OpGraphARM` of the graph being read (SPV_ARM_graph).
    open_graph: Option<usize>,
}

impl Splitter {
    fn error(&self, index: usize, opcode: Op, rule: LayoutRule) -> LayoutError {
        LayoutError {
            index,
            opcode: Some(opcode),
            name: opcode.name().to_string(),
            rule,
        }
    }

    fn push(&mut self, index: usize, inst: Instruction) -> Result<(), LayoutError> {
        if self.open.is_some() {
            return self.push_in_function(index, inst);
        }
        let opcode = inst.opcode;
        let fail = |s: &Self, rule| Err(s.error(index, opcode, rule));
        if self.section == Section::Graphs || placement(opcode) == Placement::GraphStructure {
            return self.push_graph(index, inst);
        }
        if self.section == Section::Functions && is_line(opcode) {
            if self.pending_lines.is_empty() {
                self.pending_start = index;
            }
            self.pending_lines.push(inst);
            return Ok(());
        }
        let target = match placement(opcode) {
            Placement::Module(section) => section,
            Placement::GlobalOrBody => Section::TypesGlobals,
            Placement::FunctionStructure if opcode == Op::Function => Section::Functions,
            Placement::FunctionStructure if opcode == Op::FunctionEnd => {
                return fail(self, LayoutRule::EndWithoutFunction);
            }
            // Handled by `push_graph` above.
            Placement::GraphStructure => return fail(self, LayoutRule::MisplacedGraphInstruction),
            Placement::FunctionStructure | Placement::Body => {
                if self.section == Section::Functions {
                    return fail(self, LayoutRule::OutsideFunction);
                }
                return fail(self, LayoutRule::BodyInstructionAtModuleLevel);
            }
        };
        if self.section == Section::Functions && target != Section::Functions {
            return fail(self, LayoutRule::OutsideFunction);
        }
        if target < self.section {
            let after = self.section;
            return fail(
                self,
                LayoutRule::OutOfOrder {
                    section: target,
                    after,
                },
            );
        }
        if target == Section::MemoryModel && self.module.memory_model.is_some() {
            return fail(self, LayoutRule::DuplicateMemoryModel);
        }
        if target > Section::MemoryModel && self.module.memory_model.is_none() {
            return fail(self, LayoutRule::MissingMemoryModel);
        }
        self.section = target;
        match target {
            Section::MemoryModel => self.module.memory_model = Some(inst),
            Section::Functions => {
                self.open = Some(OpenFunction {
                    leading_lines: std::mem::take(&mut self.pending_lines),
                    start: index,
                    def: inst,
                    parameters: Vec::new(),
                    blocks: Vec::new(),
                    block_start: index,
                    terminated: false,
                });
            }
            _ => {
                if let Some(list) = self.module.section_mut(target) {
                    list.push(inst);
                }
            }
        }
        Ok(())
    }

    fn push_in_function(&mut self, index: usize, inst: Instruction) -> Result<(), LayoutError> {
        let opcode = inst.opcode;
        let placed = placement(opcode);
        let Some(f) = self.open.as_mut() else {
            return Ok(());
        };
        let rule = match opcode {
            Op::Function => Some(LayoutRule::NestedFunction),
            Op::FunctionParameter if !f.blocks.is_empty() => Some(LayoutRule::ParameterAfterBlock),
            Op::FunctionParameter => {
                f.parameters.push(inst);
                return Ok(());
            }
            Op::Label | Op::FunctionEnd if !f.blocks.is_empty() && !f.terminated => {
                Some(LayoutRule::MissingTerminator {
                    label: f.block_start,
                })
            }
            Op::Label => {
                f.blocks.push(Block {
                    label: inst,
                    instructions: Vec::new(),
                });
                f.block_start = index;
                f.terminated = false;
                return Ok(());
            }
            Op::FunctionEnd => {
                return self.end_function(inst);
            }
            _ => match (placed, f.blocks.last_mut()) {
                (Placement::Module(section), _) => Some(LayoutRule::ModuleLevelInFunction(section)),
                (_, None) if is_line(opcode) => {
                    f.parameters.push(inst);
                    return Ok(());
                }
                (_, None) => Some(LayoutRule::BeforeFirstLabel),
                (_, Some(_)) if f.terminated && !is_line(opcode) => {
                    Some(LayoutRule::AfterTerminator)
                }
                (_, Some(block)) => {
                    f.terminated |= is_terminator(opcode);
                    block.instructions.push(inst);
                    return Ok(());
                }
            },
        };
        match rule {
            Some(rule) => Err(self.error(index, opcode, rule)),
            None => Ok(()),
        }
    }

    /// SPV_ARM_graph's section: "graph definitions and entry points" after the functions; a
    /// graph is `OpGraphARM`, `OpGraphInputARM`s, body instructions, `OpGraphSetOutputARM`s,
    /// `OpGraphEndARM`. Inside a graph spvx accepts any body instruction in any order (the
    /// order of inputs, body and outputs is the validator's concern).
    fn push_graph(&mut self, index: usize, inst: Instruction) -> Result<(), LayoutError> {
        let opcode = inst.opcode;
        let fail = |s: &Self, rule| Err(s.error(index, opcode, rule));
        if self.section != Section::Graphs {
            // Entering the section: the memory model and the functions are complete.
            if !matches!(opcode, Op::GraphEntryPointARM | Op::GraphARM) {
                return fail(self, LayoutRule::MisplacedGraphInstruction);
            }
            if self.module.memory_model.is_none() {
                return fail(self, LayoutRule::MissingMemoryModel);
            }
            if let Some(line) = self.pending_lines.first() {
                let (at, op) = (self.pending_start, line.opcode);
                return Err(self.error(at, op, LayoutRule::LinesAfterLastFunction));
            }
            self.section = Section::Graphs;
        }
        let in_graph = self.open_graph.is_some();
        match (opcode, placement(opcode)) {
            (Op::GraphEntryPointARM, _) if !in_graph => {}
            (Op::GraphARM, _) if !in_graph => self.open_graph = Some(index),
            (Op::GraphEndARM, _) if in_graph => self.open_graph = None,
            (Op::GraphInputARM | Op::GraphSetOutputARM, _) if in_graph => {}
            (_, Placement::GraphStructure) => {
                return fail(self, LayoutRule::MisplacedGraphInstruction);
            }
            (_, Placement::Body | Placement::GlobalOrBody) if in_graph => {}
            _ => return fail(self, LayoutRule::OutsideGraph),
        }
        self.module.graphs.push(inst);
        Ok(())
    }

    fn end_function(&mut self, end: Instruction) -> Result<(), LayoutError> {
        let Some(f) = self.open.take() else {
            return Ok(());
        };
        let declaration = f.blocks.is_empty();
        if declaration && self.seen_definition {
            let opcode = f.def.opcode;
            return Err(self.error(f.start, opcode, LayoutRule::DeclarationAfterDefinition));
        }
        self.seen_definition |= !declaration;
        self.module.functions.push(Function {
            leading_lines: f.leading_lines,
            def: f.def,
            parameters: f.parameters,
            blocks: f.blocks,
            end,
        });
        Ok(())
    }

    fn finish(self, total: usize) -> Result<Module, LayoutError> {
        let at_end = |rule| LayoutError {
            index: total,
            opcode: None,
            name: "end of module".to_string(),
            rule,
        };
        if let Some(f) = &self.open {
            return Err(at_end(LayoutRule::UnterminatedFunction { start: f.start }));
        }
        if let Some(start) = self.open_graph {
            return Err(at_end(LayoutRule::UnterminatedGraph { start }));
        }
        if let Some(line) = self.pending_lines.first() {
            let (index, opcode) = (self.pending_start, line.opcode);
            return Err(self.error(index, opcode, LayoutRule::LinesAfterLastFunction));
        }
        if self.module.memory_model.is_none() {
            return Err(at_end(LayoutRule::MissingMemoryModel));
        }
        Ok(self.module)
    }
}

//! The sections of a module in logical layout (SPIR-V 1.6 specification §2.4, "Logical Layout
//! of a Module") and which of them each opcode belongs to.
//!
//! The classification is by opcode only: it says where an instruction may stand, not whether
//! its operands are valid there.

use crate::op::Op;
use std::fmt;

/// A module-level section, in the order §2.4 requires. The debug section is split into its
/// three ordered groups (§2.4 item 7 a, b, c).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// Item 1: `OpCapability`.
    Capabilities,
    /// Item 2: `OpExtension`.
    Extensions,
    /// Item 3: `OpExtInstImport`.
    ExtInstImports,
    /// Item 4: the single `OpMemoryModel`.
    MemoryModel,
    /// Item 5: `OpEntryPoint`.
    EntryPoints,
    /// Item 6: `OpExecutionMode`, `OpExecutionModeId`.
    ExecutionModes,
    /// Item 7a: `OpString`, `OpSourceExtension`, `OpSource`, `OpSourceContinued`.
    DebugSources,
    /// Item 7b: `OpName`, `OpMemberName`.
    DebugNames,
    /// Item 7c: `OpModuleProcessed`.
    DebugModuleProcessed,
    /// Item 8: decorations and decoration groups.
    Annotations,
    /// Item 9: types, constants, global variables, `OpUndef`, and the first section that allows
    /// `OpLine`, `OpNoLine` and `OpExtInst`.
    TypesGlobals,
    /// Items 10 and 11: function declarations, then function definitions.
    Functions,
    /// SPV_ARM_graph's section after item 11: graph entry points and graph definitions.
    Graphs,
}

impl Section {
    /// The item number of §2.4 that defines the section.
    pub fn item(self) -> &'static str {
        match self {
            Section::Capabilities => "1",
            Section::Extensions => "2",
            Section::ExtInstImports => "3",
            Section::MemoryModel => "4",
            Section::EntryPoints => "5",
            Section::ExecutionModes => "6",
            Section::DebugSources => "7a",
            Section::DebugNames => "7b",
            Section::DebugModuleProcessed => "7c",
            Section::Annotations => "8",
            Section::TypesGlobals => "9",
            Section::Functions => "10-11",
            Section::Graphs => "12 (SPV_ARM_graph)",
        }
    }

    /// A short description of what the section holds.
    pub fn description(self) -> &'static str {
        match self {
            Section::Capabilities => "capabilities",
            Section::Extensions => "extensions",
            Section::ExtInstImports => "extended instruction set imports",
            Section::MemoryModel => "the memory model",
            Section::EntryPoints => "entry points",
            Section::ExecutionModes => "execution modes",
            Section::DebugSources => "debug strings and sources",
            Section::DebugNames => "debug names",
            Section::DebugModuleProcessed => "OpModuleProcessed",
            Section::Annotations => "annotations",
            Section::TypesGlobals => "types, constants and global variables",
            Section::Functions => "functions",
            Section::Graphs => "graphs",
        }
    }
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (§2.4 item {})", self.description(), self.item())
    }
}

/// Where an instruction may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Only in this module-level section.
    Module(Section),
    /// In the types/globals section or inside a function body: `OpUndef`, `OpLine`, `OpNoLine`,
    /// `OpExtInst`, `OpExtInstWithForwardRefsKHR`, `OpVariable`, `OpUntypedVariableKHR`.
    GlobalOrBody,
    /// The structure of a function: `OpFunction`, `OpFunctionParameter`, `OpLabel`,
    /// `OpFunctionEnd`.
    FunctionStructure,
    /// Only inside a block of a function definition (or in a graph's body).
    Body,
    /// The structure of the graph section (SPV_ARM_graph): `OpGraphEntryPointARM`,
    /// `OpGraphARM`, `OpGraphInputARM`, `OpGraphSetOutputARM`, `OpGraphEndARM`.
    GraphStructure,
}

/// Block terminators: the Termination Instruction list of SPIR-V 1.6 §2.2.5 "Control Flow"
/// and the extensions that add to it: `OpBranch`, `OpBranchConditional`, `OpSwitch`, `OpKill`,
/// `OpReturn`, `OpReturnValue`, `OpUnreachable`, `OpTerminateInvocation`,
/// `OpIgnoreIntersectionKHR`, `OpTerminateRayKHR`, `OpEmitMeshTasksEXT`.
pub const TERMINATORS: [Op; 11] = [
    Op::Branch,
    Op::BranchConditional,
    Op::Switch,
    Op::Kill,
    Op::Return,
    Op::ReturnValue,
    Op::Unreachable,
    Op::TerminateInvocation,
    Op::IgnoreIntersectionKHR,
    Op::TerminateRayKHR,
    Op::EmitMeshTasksEXT,
];

/// True when `opcode` ends a block.
pub fn is_terminator(opcode: Op) -> bool {
    TERMINATORS.contains(&opcode)
}

/// True for `OpLine` and `OpNoLine`, which may also stand between the structural instructions
/// of a function.
pub fn is_line(opcode: Op) -> bool {
    opcode == Op::Line || opcode == Op::NoLine
}

/// Where an instruction with `opcode` may stand.
pub fn placement(opcode: Op) -> Placement {
    use Placement::{FunctionStructure, GlobalOrBody, Module};
    match opcode {
        Op::Capability => Module(Section::Capabilities),
        Op::Extension => Module(Section::Extensions),
        Op::ExtInstImport => Module(Section::ExtInstImports),
        Op::MemoryModel => Module(Section::MemoryModel),
        Op::EntryPoint => Module(Section::EntryPoints),
        Op::ExecutionMode | Op::ExecutionModeId => Module(Section::ExecutionModes),
        Op::String | Op::SourceExtension | Op::Source | Op::SourceContinued => {
            Module(Section::DebugSources)
        }
        Op::Name | Op::MemberName => Module(Section::DebugNames),
        Op::ModuleProcessed => Module(Section::DebugModuleProcessed),
        Op::Decorate
        | Op::MemberDecorate
        | Op::DecorationGroup
        | Op::GroupDecorate
        | Op::GroupMemberDecorate
        | Op::DecorateId
        | Op::DecorateString
        | Op::MemberDecorateString => Module(Section::Annotations),
        Op::Undef
        | Op::Line
        | Op::NoLine
        | Op::ExtInst
        | Op::ExtInstWithForwardRefsKHR
        | Op::Variable
        | Op::UntypedVariableKHR => GlobalOrBody,
        Op::Function | Op::FunctionParameter | Op::Label | Op::FunctionEnd => FunctionStructure,
        // SPV_ARM_graph: "Modify the definition of Constant Instruction to add
        // OpGraphConstantARM"; the graph instructions have their own section after item 11.
        Op::GraphConstantARM => Module(Section::TypesGlobals),
        Op::GraphEntryPointARM
        | Op::GraphARM
        | Op::GraphInputARM
        | Op::GraphSetOutputARM
        | Op::GraphEndARM => Placement::GraphStructure,
        op if op.declares_type_or_constant() => Module(Section::TypesGlobals),
        _ => Placement::Body,
    }
}

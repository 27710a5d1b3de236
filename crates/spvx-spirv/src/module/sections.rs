//! The sections of a module in logical layout (SPIR-V 1.6 specification §2.4, "Logical Layout
//! of a Module") and which of them each opcode belongs to.
//!
//! The classification is by opcode only: it says where an instruction may stand, not whether
//! its operands are valid there.

use crate::grammar::Grammar;
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
    /// Only inside a block of a function definition.
    Body,
}

/// Opcodes the layout check names.
pub(crate) mod op {
    pub const UNDEF: u16 = 1;
    pub const SOURCE_CONTINUED: u16 = 2;
    pub const SOURCE: u16 = 3;
    pub const SOURCE_EXTENSION: u16 = 4;
    pub const NAME: u16 = 5;
    pub const MEMBER_NAME: u16 = 6;
    pub const STRING: u16 = 7;
    pub const LINE: u16 = 8;
    pub const EXTENSION: u16 = 10;
    pub const EXT_INST_IMPORT: u16 = 11;
    pub const EXT_INST: u16 = 12;
    pub const MEMORY_MODEL: u16 = 14;
    pub const ENTRY_POINT: u16 = 15;
    pub const EXECUTION_MODE: u16 = 16;
    pub const CAPABILITY: u16 = 17;
    pub const FUNCTION: u16 = 54;
    pub const FUNCTION_PARAMETER: u16 = 55;
    pub const FUNCTION_END: u16 = 56;
    pub const VARIABLE: u16 = 59;
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const DECORATION_GROUP: u16 = 73;
    pub const GROUP_DECORATE: u16 = 74;
    pub const GROUP_MEMBER_DECORATE: u16 = 75;
    pub const LABEL: u16 = 248;
    pub const NO_LINE: u16 = 317;
    pub const MODULE_PROCESSED: u16 = 330;
    pub const DECORATE_ID: u16 = 332;
    pub const EXECUTION_MODE_ID: u16 = 331;
    pub const UNTYPED_VARIABLE_KHR: u16 = 4418;
    pub const EXT_INST_WITH_FORWARD_REFS_KHR: u16 = 4433;
    pub const DECORATE_STRING: u16 = 5632;
    pub const MEMBER_DECORATE_STRING: u16 = 5633;
}

/// Block terminators: the Termination Instruction list of SPIR-V 1.6 §2.2.5 "Control Flow"
/// and the extensions that add to it: `OpBranch`, `OpBranchConditional`, `OpSwitch`, `OpKill`,
/// `OpReturn`, `OpReturnValue`, `OpUnreachable`, `OpTerminateInvocation`,
/// `OpIgnoreIntersectionKHR`, `OpTerminateRayKHR`, `OpEmitMeshTasksEXT`.
pub const TERMINATORS: [u16; 11] = [249, 250, 251, 252, 253, 254, 255, 4416, 4448, 4449, 5294];

/// True when `opcode` ends a block.
pub fn is_terminator(opcode: u16) -> bool {
    TERMINATORS.contains(&opcode)
}

/// True for `OpLine` and `OpNoLine`, which may also stand between the structural instructions
/// of a function.
pub fn is_line(opcode: u16) -> bool {
    opcode == op::LINE || opcode == op::NO_LINE
}

/// Where an instruction with `opcode` may stand. Opcodes the grammar does not know are treated
/// as body instructions.
pub fn placement(g: &Grammar, opcode: u16) -> Placement {
    use Placement::{FunctionStructure, GlobalOrBody, Module};
    match opcode {
        op::CAPABILITY => Module(Section::Capabilities),
        op::EXTENSION => Module(Section::Extensions),
        op::EXT_INST_IMPORT => Module(Section::ExtInstImports),
        op::MEMORY_MODEL => Module(Section::MemoryModel),
        op::ENTRY_POINT => Module(Section::EntryPoints),
        op::EXECUTION_MODE | op::EXECUTION_MODE_ID => Module(Section::ExecutionModes),
        op::STRING | op::SOURCE_EXTENSION | op::SOURCE | op::SOURCE_CONTINUED => {
            Module(Section::DebugSources)
        }
        op::NAME | op::MEMBER_NAME => Module(Section::DebugNames),
        op::MODULE_PROCESSED => Module(Section::DebugModuleProcessed),
        op::DECORATE
        | op::MEMBER_DECORATE
        | op::DECORATION_GROUP
        | op::GROUP_DECORATE
        | op::GROUP_MEMBER_DECORATE
        | op::DECORATE_ID
        | op::DECORATE_STRING
        | op::MEMBER_DECORATE_STRING => Module(Section::Annotations),
        op::UNDEF
        | op::LINE
        | op::NO_LINE
        | op::EXT_INST
        | op::EXT_INST_WITH_FORWARD_REFS_KHR
        | op::VARIABLE
        | op::UNTYPED_VARIABLE_KHR => GlobalOrBody,
        op::FUNCTION | op::FUNCTION_PARAMETER | op::LABEL | op::FUNCTION_END => FunctionStructure,
        _ => match g.instruction(opcode) {
            Some(i)
                if i.class == "Type-Declaration"
                    || i.class == "Constant-Creation"
                    || i.name.starts_with("OpType")
                    || i.name.starts_with("OpConstant")
                    || i.name.starts_with("OpSpecConstant") =>
            {
                Module(Section::TypesGlobals)
            }
            _ => Placement::Body,
        },
    }
}

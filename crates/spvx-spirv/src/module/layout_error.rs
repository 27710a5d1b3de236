//! Errors of the logical-layout check: which instruction broke which rule of SPIR-V 1.6 §2.4.

use super::sections::Section;
use crate::op::Op;
use thiserror::Error;

/// A rule of the logical layout (SPIR-V 1.6 §2.4, "Logical Layout of a Module").
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LayoutRule {
    /// Sections must appear in the order of §2.4.
    #[error("an instruction of {section} cannot follow one of {after}")]
    OutOfOrder { section: Section, after: Section },
    /// §2.4 item 4: "The single required OpMemoryModel instruction."
    #[error("a second OpMemoryModel (§2.4 item 4: there is exactly one)")]
    DuplicateMemoryModel,
    /// §2.4 item 4: the memory model is required.
    #[error("the module has no OpMemoryModel (§2.4 item 4: it is required)")]
    MissingMemoryModel,
    /// Instructions of a module-level section cannot stand inside a function (§2.4 items 1-9
    /// are module-level; items 10-11 hold only functions).
    #[error("an instruction of {0} cannot appear inside a function")]
    ModuleLevelInFunction(Section),
    /// Items 10 and 11 hold only functions: after the first `OpFunction`, anything outside a
    /// function is out of place.
    #[error("only functions may follow the first OpFunction (§2.4 items 10-11)")]
    OutsideFunction,
    /// An instruction that belongs in a block appears at module level.
    #[error("this instruction belongs inside a block of a function (§2.4 item 11)")]
    BodyInstructionAtModuleLevel,
    /// `OpFunction` inside a function.
    #[error("OpFunction inside a function that has not ended")]
    NestedFunction,
    /// `OpFunctionEnd` with no open function.
    #[error("OpFunctionEnd with no open function")]
    EndWithoutFunction,
    /// The instruction list ends inside a function.
    #[error("the function starting at instruction {start} has no OpFunctionEnd")]
    UnterminatedFunction { start: usize },
    /// §2.4 items 10b/11b: parameters directly follow `OpFunction`.
    #[error("OpFunctionParameter after the first block (§2.4 item 11b)")]
    ParameterAfterBlock,
    /// §2.4 item 11: after the parameters come blocks, each starting with `OpLabel`.
    #[error("instruction before the first OpLabel of the function (blocks start with OpLabel)")]
    BeforeFirstLabel,
    /// §2.4 item 11 / §2.2.5: a block ends with a termination instruction.
    #[error("the block starting at instruction {label} has no termination instruction")]
    MissingTerminator { label: usize },
    /// Only `OpLine`/`OpNoLine` may follow a block's termination instruction.
    #[error("instruction after the termination instruction of its block")]
    AfterTerminator,
    /// `OpLine`/`OpNoLine` between functions go with the next function; none may follow the
    /// last one.
    #[error("OpLine/OpNoLine after the last function")]
    LinesAfterLastFunction,
    /// SPV_ARM_graph: graph instructions stand in the graph section, after the functions.
    #[error("graph instruction outside the graph section or outside a graph (SPV_ARM_graph)")]
    MisplacedGraphInstruction,
    /// SPV_ARM_graph: only graph entry points and graphs follow the first of them.
    #[error("only graph entry points and graphs may follow the first of them (SPV_ARM_graph)")]
    OutsideGraph,
    /// The instruction list ends inside a graph.
    #[error("the graph starting at instruction {start} has no OpGraphEndARM")]
    UnterminatedGraph { start: usize },
    /// §2.4 item 10: all function declarations precede all function definitions.
    #[error("a function declaration (no blocks) after a function definition (§2.4 items 10-11)")]
    DeclarationAfterDefinition,
}

/// A broken layout rule and the instruction (by index in the flat list) where it was found.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("instruction {index} ({name}): {rule}")]
pub struct LayoutError {
    /// Index of the offending instruction in the flat list (the list's length when the rule is
    /// about something missing at the end).
    pub index: usize,
    /// Its opcode (`None` when the error is at the end of the list).
    pub opcode: Option<Op>,
    /// Its name (or `end of module`).
    pub name: String,
    pub rule: LayoutRule,
}

//! The SPIR-V grammar: every instruction, operand kind and enumerant spvx knows.
//!
//! One table drives the binary reader and writer, the assembler, the disassembler and the
//! validator. It is built once, on first use, from the machine-readable grammar that SPIRV-Headers
//! publishes (`grammar/spirv.core.grammar.json` and every extended instruction set grammar it
//! ships, vendored from SDK 1.4.335) plus spvx's small supplement (`grammar/supplement.json`) for
//! what those headers predate (SPV_VALVE_mixed_float_dot_product). The build script stores those
//! files in a binary form read at run time (`source.rs` says why). The same JSON is the source of
//! the `spirv` and `rspirv` crates; a test checks the table against them instruction by
//! instruction.
//!
//! Extended instruction sets are found by their `OpExtInstImport` name with SPIRV-Tools 2025.5's
//! rules ([`ImportName`]): most by exact name, the versioned reflection sets by prefix. Their own
//! operand kinds (e.g. `DebugInfoFlags`, defined differently by three debug-info sets) are kept
//! apart under set-qualified names (`OpenCL.DebugInfo.100 DebugInfoFlags`).
//!
//! This module knows names, numbers and operand layouts only: no semantics.

mod load;
mod source;

use crate::op::Op;

use rustc_hash::FxHashMap as HashMap;
use std::sync::LazyLock;

/// A SPIR-V version, `major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    pub major: u8,
    pub minor: u8,
}

impl Version {
    pub const fn new(major: u8, minor: u8) -> Self {
        Version { major, minor }
    }

    /// The header word encoding of this version (`0x00MMmm00`).
    pub const fn word(self) -> u32 {
        ((self.major as u32) << 16) | ((self.minor as u32) << 8)
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Index of an operand kind in [`Grammar::kinds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KindId(pub u16);

/// How many times a logical operand appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// Exactly once.
    One,
    /// Zero or one time (`?` in the grammar).
    Optional,
    /// Zero or more times (`*` in the grammar).
    Variadic,
}

/// The shape of an operand kind: how its words are read and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `IdResultType`.
    IdResultType,
    /// `IdResult`.
    IdResult,
    /// A reference to an id (`IdRef`, `IdScope`, `IdMemorySemantics`).
    IdRef,
    /// One word (`LiteralInteger`, `LiteralExtInstInteger`, `LiteralSpecConstantOpInteger`).
    LiteralInteger,
    /// A nul-terminated UTF-8 string padded to whole words.
    LiteralString,
    /// A 32-bit float literal (one word).
    LiteralFloat,
    /// A number whose width and format come from a type elsewhere in the instruction.
    LiteralContextDependentNumber,
    /// The instruction number of an `OpExtInst`.
    LiteralExtInstInteger,
    /// The opcode of an `OpSpecConstantOp`.
    LiteralSpecConstantOpInteger,
    /// One word holding one enumerant value.
    ValueEnum,
    /// One word holding a set of bits, each possibly followed by its parameters.
    BitEnum,
    /// Two operands in a row (`PairLiteralIntegerIdRef` and friends).
    Pair(KindId, KindId),
}

/// A logical operand of an instruction or an enumerant parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    pub kind: KindId,
    pub quantifier: Quantifier,
    /// The grammar's name for the operand (e.g. `'Vector 1'`), where it gives one.
    pub name: Option<&'static str>,
}

/// One named value of a `ValueEnum` or one bit of a `BitEnum`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumerant {
    /// The canonical name (what the disassembler prints).
    pub name: &'static str,
    /// Other accepted spellings (e.g. `DotProductInputAllKHR`).
    pub aliases: Vec<&'static str>,
    pub value: u32,
    /// Operands that follow the enumerant when it is used (e.g. `BuiltIn` after `Decoration BuiltIn`).
    pub parameters: Vec<Operand>,
    /// Capabilities enabling it (for a Capability enumerant: the ones it implicitly declares).
    pub capabilities: Vec<&'static str>,
    pub extensions: Vec<&'static str>,
    /// The first SPIR-V version with it in core, if any.
    pub version: Option<Version>,
    /// The last SPIR-V version with it, if it was removed.
    pub last_version: Option<Version>,
}

/// An operand kind of the grammar, with its enumerants when it is an enum.
#[derive(Clone, Debug)]
pub struct OperandKind {
    pub name: String,
    pub shape: Shape,
    /// Enumerants in grammar order (values for `ValueEnum`, single bits and `None` for `BitEnum`).
    pub enumerants: Vec<Enumerant>,
    by_value: HashMap<u32, usize>,
    by_name: HashMap<&'static str, usize>,
}

impl OperandKind {
    /// The enumerant with this value (for a `BitEnum`: this single bit, or 0 for `None`).
    pub fn enumerant(&self, value: u32) -> Option<&Enumerant> {
        self.by_value.get(&value).map(|&i| &self.enumerants[i])
    }

    /// The enumerant with this name or alias.
    pub fn enumerant_by_name(&self, name: &str) -> Option<&Enumerant> {
        self.by_name.get(name).map(|&i| &self.enumerants[i])
    }

    /// True for `BitEnum` kinds.
    pub fn is_bit_enum(&self) -> bool {
        self.shape == Shape::BitEnum
    }
}

/// An instruction of the core grammar (or the supplement).
#[derive(Clone, Debug)]
pub struct Instruction {
    /// The canonical name, e.g. `OpSDot` (spirv-dis prints this one).
    pub name: &'static str,
    /// Other accepted names, e.g. `OpSDotKHR`.
    pub aliases: Vec<&'static str>,
    pub opcode: Op,
    /// The grammar's instruction class, e.g. `Arithmetic` or `Type-Declaration`.
    pub class: &'static str,
    pub operands: Vec<Operand>,
    pub capabilities: Vec<&'static str>,
    pub extensions: Vec<&'static str>,
    pub version: Option<Version>,
    pub last_version: Option<Version>,
}

impl Instruction {
    /// True when the instruction has a result type operand.
    pub fn has_result_type(&self, g: &Grammar) -> bool {
        self.operands
            .first()
            .is_some_and(|o| g.kind(o.kind).shape == Shape::IdResultType)
    }

    /// True when the instruction defines a result id.
    pub fn has_result(&self, g: &Grammar) -> bool {
        self.operands
            .iter()
            .take(2)
            .any(|o| g.kind(o.kind).shape == Shape::IdResult)
    }
}

/// An instruction of an extended instruction set (`OpExtInst`).
#[derive(Clone, Debug)]
pub struct ExtInstruction {
    pub name: &'static str,
    pub number: u32,
    pub operands: Vec<Operand>,
    pub capabilities: Vec<&'static str>,
}

/// How `OpExtInstImport` names select an extended instruction set: the rules of SPIRV-Tools
/// 2025.5 (`spvExtInstImportTypeGet`), checked against spirv-as by `tests/ext_inst_sets.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportName {
    /// Exactly this name (`GLSL.std.450`, `TOSA.001000.1`).
    Exact(&'static str),
    /// Any name that starts with this prefix: the versioned names of the reflection sets
    /// (`NonSemantic.ClspvReflection.6`).
    Prefix(&'static str),
}

impl ImportName {
    /// True when an `OpExtInstImport` of `name` selects this set.
    pub fn matches(self, name: &str) -> bool {
        match self {
            ImportName::Exact(n) => name == n,
            ImportName::Prefix(p) => name.starts_with(p),
        }
    }

    /// The exact name, or the prefix.
    pub fn text(self) -> &'static str {
        match self {
            ImportName::Exact(n) | ImportName::Prefix(n) => n,
        }
    }
}

/// True for an import name of a non-semantic set (`NonSemantic.` prefix, SPV_KHR_non_semantic_info):
/// its instructions may be ignored, and an unknown one is read as ids.
pub fn is_non_semantic_import(name: &str) -> bool {
    name.starts_with("NonSemantic.")
}

/// An extended instruction set known by name (`OpExtInstImport "GLSL.std.450"`).
#[derive(Clone, Debug)]
pub struct ExtInstSet {
    /// The import name (for a prefix rule: the prefix).
    pub name: &'static str,
    /// Which import names select the set.
    pub import: ImportName,
    /// A non-semantic set (`NonSemantic.…`): an instruction number it does not define is read as
    /// ids, as for an unknown non-semantic set (spirv-as and spirv-dis 2025.5 do the same).
    pub non_semantic: bool,
    /// spirv-dis 2025.5 prints the set's instruction names (false for `NonSemantic.DebugPrintf`
    /// and `NonSemantic.DebugBreak`, which it does not resolve and prints as numbers).
    pub disassembled_by_name: bool,
    pub instructions: Vec<ExtInstruction>,
    by_number: HashMap<u32, usize>,
    by_name: HashMap<&'static str, usize>,
}

impl ExtInstSet {
    pub fn instruction(&self, number: u32) -> Option<&ExtInstruction> {
        self.by_number.get(&number).map(|&i| &self.instructions[i])
    }

    pub fn instruction_by_name(&self, name: &str) -> Option<&ExtInstruction> {
        self.by_name.get(name).map(|&i| &self.instructions[i])
    }
}

/// The kinds every consumer refers to, resolved once.
#[derive(Clone, Copy, Debug)]
pub struct CommonKinds {
    pub id_result_type: KindId,
    pub id_result: KindId,
    pub id_ref: KindId,
    pub literal_integer: KindId,
    pub literal_string: KindId,
    pub capability: KindId,
    pub decoration: KindId,
    pub execution_mode: KindId,
    pub fp_encoding: KindId,
}

/// The whole grammar.
#[derive(Debug)]
pub struct Grammar {
    /// Version of the core grammar (1.6).
    pub version: Version,
    pub instructions: Vec<Instruction>,
    pub kinds: Vec<OperandKind>,
    pub ext_inst_sets: Vec<ExtInstSet>,
    pub common: CommonKinds,
    /// Index into `instructions` by opcode (`u32::MAX` where none): a dense table, because the
    /// binary reader looks an opcode up for every instruction.
    by_opcode: Vec<u32>,
    by_name: HashMap<&'static str, usize>,
    kind_by_name: HashMap<String, KindId>,
}

impl Grammar {
    /// The descriptor of an instruction.
    pub fn instruction(&self, op: Op) -> Option<&Instruction> {
        self.instruction_by_number(op.number())
    }

    /// The instruction with this opcode number, if the grammar has one (the binary reader's
    /// look-up; everything else matches on [`Op`]).
    pub fn instruction_by_number(&self, opcode: u16) -> Option<&Instruction> {
        match self.by_opcode.get(opcode as usize) {
            Some(&i) if i != u32::MAX => Some(&self.instructions[i as usize]),
            _ => None,
        }
    }

    /// The instruction with this name or alias (`OpSDotKHR` finds `OpSDot`).
    pub fn instruction_by_name(&self, name: &str) -> Option<&Instruction> {
        self.by_name.get(name).map(|&i| &self.instructions[i])
    }

    /// The operand kind with this id.
    pub fn kind(&self, id: KindId) -> &OperandKind {
        &self.kinds[id.0 as usize]
    }

    /// The operand kind with this name (e.g. `Capability`).
    pub fn kind_by_name(&self, name: &str) -> Option<KindId> {
        self.kind_by_name.get(name).copied()
    }

    /// The extended instruction set an `OpExtInstImport` of this name selects.
    pub fn ext_inst_set(&self, name: &str) -> Option<&ExtInstSet> {
        self.ext_inst_sets.iter().find(|s| s.import.matches(name))
    }

    /// The canonical name of a value of an enum kind, if it has one.
    pub fn enumerant_name(&self, kind: KindId, value: u32) -> Option<&str> {
        self.kind(kind).enumerant(value).map(|e| e.name)
    }
}

static GRAMMAR: LazyLock<Grammar> = LazyLock::new(load::build);

/// The grammar, built on first use.
pub fn grammar() -> &'static Grammar {
    &GRAMMAR
}

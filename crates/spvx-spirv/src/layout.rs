//! The grammar walk that lays out an instruction's operands, shared by every reader of SPIR-V.
//!
//! Given an opcode, [`read_instruction`] follows the grammar's logical operands — quantifiers,
//! enumerant parameters, bitmask parameters in bit order, pair operands, `OpExtInst` operands of
//! the named extended set, `OpSpecConstantOp` operands of the embedded opcode, and literals sized
//! by their type — and asks an [`OperandSource`] for each value. The binary reader's source
//! reads words; the assembler's source reads tokens. The layout rules therefore exist once.

use crate::context::{ModuleContext, NumericType};
use crate::grammar::{Grammar, KindId, Operand as GOperand, Quantifier, Shape};
use crate::instruction::{Id, Instruction, Operand, OperandValue};
use crate::op::Op;

/// What the walk needs to know about the extended instruction an `OpExtInst` names.
pub enum ExtInstChoice {
    /// An instruction of a known set: its operands follow its grammar.
    Known(Vec<GOperand>),
    /// A set spvx does not know, or an instruction a non-semantic set does not define: the
    /// remaining operands are ids.
    Unknown,
}

impl ExtInstChoice {
    /// The layout of instruction `number` of the set imported as `import`; `None` when the set is
    /// known, is not non-semantic, and has no such instruction. An instruction a known
    /// non-semantic set does not define is read like one of an unknown non-semantic set (as ids),
    /// as spirv-as and spirv-dis 2025.5 do.
    pub fn of(g: &Grammar, import: &str, number: u32) -> Option<ExtInstChoice> {
        match g.ext_inst_set(import) {
            None => Some(ExtInstChoice::Unknown),
            Some(s) => match s.instruction(number) {
                Some(i) => Some(ExtInstChoice::Known(i.operands.clone())),
                None if s.non_semantic => Some(ExtInstChoice::Unknown),
                None => None,
            },
        }
    }
}

/// A supplier of operand values, in order.
pub trait OperandSource {
    type Error;

    /// True while operands remain for the current instruction.
    fn has_more(&mut self) -> bool;
    /// An id (result type, result, or reference).
    fn id(&mut self, kind: KindId) -> Result<Id, Self::Error>;
    /// A one-word literal integer.
    fn literal_integer(&mut self, kind: KindId) -> Result<u32, Self::Error>;
    /// A literal string.
    fn literal_string(&mut self, kind: KindId) -> Result<String, Self::Error>;
    /// A 32-bit float literal, as bits.
    fn literal_float(&mut self, kind: KindId) -> Result<u32, Self::Error>;
    /// A number of the given type (`None` when the type is unknown or not numeric).
    fn number(&mut self, kind: KindId, ty: Option<NumericType>) -> Result<Vec<u32>, Self::Error>;
    /// A value of a `ValueEnum` kind.
    fn value_enum(&mut self, kind: KindId) -> Result<u32, Self::Error>;
    /// A mask of a `BitEnum` kind.
    fn bit_enum(&mut self, kind: KindId) -> Result<u32, Self::Error>;
    /// The instruction number of an `OpExtInst` whose set is `set` (its import name, if known).
    fn ext_inst_number(
        &mut self,
        kind: KindId,
        set: Option<&str>,
    ) -> Result<(u32, ExtInstChoice), Self::Error>;
    /// The opcode embedded in an `OpSpecConstantOp`.
    fn spec_constant_opcode(&mut self, kind: KindId) -> Result<Op, Self::Error>;
    /// An error about the instruction as a whole.
    fn error(&mut self, message: String) -> Self::Error;
    /// The instruction ends where an operand of `kind` is required.
    fn missing_operand(&mut self, kind: KindId) -> Self::Error {
        let name = &crate::grammar::grammar().kind(kind).name;
        self.error(format!(
            "expected operand of kind {name}, found end of instruction"
        ))
    }
}

/// Reads the operands of an instruction with `opcode` from `src`, following the grammar.
pub fn read_instruction<S: OperandSource>(
    g: &Grammar,
    ctx: &ModuleContext,
    opcode: Op,
    src: &mut S,
) -> Result<Instruction, S::Error> {
    let Some(desc) = g.instruction(opcode) else {
        return Err(src.error(format!("unknown opcode {}", opcode.number())));
    };
    let mut walk = Walk {
        g,
        ctx,
        opcode,
        inst: Instruction {
            opcode,
            result_type: None,
            result: None,
            operands: Vec::new(),
        },
    };
    walk.operands(&desc.operands, src)?;
    Ok(walk.inst)
}

struct Walk<'a> {
    g: &'a Grammar,
    ctx: &'a ModuleContext,
    opcode: Op,
    inst: Instruction,
}

impl Walk<'_> {
    fn operands<S: OperandSource>(
        &mut self,
        ops: &[GOperand],
        src: &mut S,
    ) -> Result<(), S::Error> {
        for o in ops {
            match o.quantifier {
                Quantifier::One => self.operand(o.kind, src)?,
                Quantifier::Optional => {
                    if src.has_more() {
                        self.operand(o.kind, src)?;
                    }
                }
                Quantifier::Variadic => {
                    while src.has_more() {
                        self.operand(o.kind, src)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn push(&mut self, kind: KindId, value: OperandValue) {
        self.inst.operands.push(Operand { kind, value });
    }

    fn operand<S: OperandSource>(&mut self, kind: KindId, src: &mut S) -> Result<(), S::Error> {
        let g = self.g;
        let k = g.kind(kind);
        if !src.has_more() {
            return Err(src.missing_operand(kind));
        }
        match k.shape {
            Shape::IdResultType => self.inst.result_type = Some(src.id(kind)?),
            Shape::IdResult => self.inst.result = Some(src.id(kind)?),
            Shape::IdRef => {
                let id = src.id(kind)?;
                self.push(kind, OperandValue::Id(id));
            }
            // The case literals of `OpSwitch` (`PairLiteralIntegerIdRef` in the grammar) are
            // as wide as the selector's type (spec 3.52.26, OpSwitch).
            Shape::LiteralInteger if self.opcode == Op::Switch => {
                let ty = self.context_type();
                let ws = src.number(kind, ty)?;
                self.push(kind, OperandValue::Number(ws));
            }
            Shape::LiteralInteger => {
                let w = src.literal_integer(kind)?;
                self.push(kind, OperandValue::Word(w));
            }
            Shape::LiteralString => {
                let s = src.literal_string(kind)?;
                self.push(kind, OperandValue::String(s));
            }
            Shape::LiteralFloat => {
                let w = src.literal_float(kind)?;
                self.push(kind, OperandValue::Word(w));
            }
            Shape::LiteralContextDependentNumber => {
                let ty = self.context_type();
                let ws = src.number(kind, ty)?;
                self.push(kind, OperandValue::Number(ws));
            }
            Shape::ValueEnum => {
                let v = src.value_enum(kind)?;
                self.push(kind, OperandValue::Word(v));
                if let Some(e) = k.enumerant(v) {
                    self.operands(&e.parameters, src)?;
                }
            }
            Shape::BitEnum => {
                let m = src.bit_enum(kind)?;
                self.push(kind, OperandValue::Word(m));
                for bit in 0..32 {
                    if m & (1 << bit) != 0
                        && let Some(e) = k.enumerant(1 << bit)
                    {
                        self.operands(&e.parameters, src)?;
                    }
                }
            }
            Shape::Pair(a, b) => {
                if self.opcode == Op::Switch && g.kind(a).shape == Shape::LiteralInteger {
                    // OpSwitch case literals are sized by the selector's type, like constants.
                    let ty = self.context_type();
                    let ws = src.number(a, ty)?;
                    self.push(a, OperandValue::Number(ws));
                } else {
                    self.operand(a, src)?;
                }
                self.operand(b, src)?;
            }
            Shape::LiteralExtInstInteger => {
                let set_id = self.inst.operands.last().and_then(Operand::id);
                let set = set_id.and_then(|id| self.ctx.ext_set(id));
                let (number, choice) = src.ext_inst_number(kind, set)?;
                self.push(kind, OperandValue::Word(number));
                match choice {
                    ExtInstChoice::Known(ops) => self.operands(&ops, src)?,
                    ExtInstChoice::Unknown => {
                        let id_ref = g.common.id_ref;
                        while src.has_more() {
                            self.operand(id_ref, src)?;
                        }
                    }
                }
            }
            Shape::LiteralSpecConstantOpInteger => {
                let op = src.spec_constant_opcode(kind)?;
                // An embedded OpSpecConstantOp would nest without bound (one level per word):
                // it is not among the opcodes OpSpecConstantOp allows (spec 3.52.7).
                if op == Op::SpecConstantOp {
                    return Err(src.error("OpSpecConstantOp cannot embed OpSpecConstantOp".into()));
                }
                self.push(kind, OperandValue::Word(op.number() as u32));
                let Some(desc) = g.instruction(op) else {
                    return Err(src.error(format!(
                        "unknown opcode {} in OpSpecConstantOp",
                        op.number()
                    )));
                };
                // Every opcode OpSpecConstantOp allows computes a value (spec 3.52.7); one
                // without a result type and result (e.g. OpTypeFloat) could be read and
                // printed, but not assembled back (spirv-dis rejects it too).
                if !(desc.has_result_type(g) && desc.has_result(g)) {
                    return Err(src.error(format!(
                        "{} cannot be embedded in OpSpecConstantOp (it has no result type and result)",
                        desc.name
                    )));
                }
                let rest: Vec<GOperand> = desc
                    .operands
                    .iter()
                    .filter(|o| {
                        !matches!(g.kind(o.kind).shape, Shape::IdResult | Shape::IdResultType)
                    })
                    .cloned()
                    .collect();
                self.operands(&rest, src)?;
            }
        }
        Ok(())
    }

    /// The type that sizes a context-dependent number: the result type of a constant, or the
    /// selector's type for `OpSwitch`.
    fn context_type(&self) -> Option<NumericType> {
        let type_id = if self.opcode == Op::Switch {
            let selector = self.inst.operands.first().and_then(Operand::id)?;
            self.ctx.type_of(selector)?
        } else {
            self.inst.result_type?
        };
        self.ctx.numeric_type(type_id)
    }
}

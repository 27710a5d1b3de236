//! Builder arguments and their conversion into a grammar-checked [`Instruction`].
//!
//! The arguments are laid out by the same grammar walk as the binary reader and the assembler
//! ([`crate::layout::read_instruction`]); this file only supplies each operand from an [`Arg`].

use super::build_error::BuildError;
use crate::context::{ModuleContext, NumericType};
use crate::grammar::{Grammar, KindId};
use crate::instruction::{Id, Instruction};
use crate::layout::{ExtInstChoice, OperandSource, read_instruction};
use crate::op::Op;

/// One argument of a built instruction, in the order of the instruction's logical operands
/// (after the result type and result id, which the builder supplies).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// An id.
    Id(Id),
    /// One word: a literal integer, an enumerant or mask value, an extended instruction number,
    /// an opcode, or a number of a type of 32 bits or fewer.
    Int(u32),
    /// A number of any width, low word first (for `OpConstant` and `OpSwitch` literals).
    Words(Vec<u32>),
    /// A 32-bit float (a `LiteralFloat`, or a number of type 32-bit float).
    Float(f32),
    /// A literal string.
    Str(String),
    /// A name: an enumerant (`Function`, or `A|B` for a mask), an extended instruction of the
    /// imported set, or an opcode name for `OpSpecConstantOp`.
    Name(String),
}

impl Arg {
    /// A literal string argument.
    pub fn str(s: &str) -> Arg {
        Arg::Str(s.to_string())
    }

    /// A name argument (enumerant, mask `A|B`, extended instruction or opcode name).
    pub fn name(s: &str) -> Arg {
        Arg::Name(s.to_string())
    }

    fn describe(&self) -> String {
        match self {
            Arg::Id(id) => format!("id %{id}"),
            Arg::Int(w) => format!("integer {w}"),
            Arg::Words(ws) => format!("{}-word number", ws.len()),
            Arg::Float(f) => format!("float {f}"),
            Arg::Str(s) => format!("string {s:?}"),
            Arg::Name(n) => format!("name {n}"),
        }
    }
}

/// Builds the instruction with `opcode`, the given result type, result id and arguments,
/// laying out operands by the grammar.
pub(crate) fn build_instruction(
    g: &Grammar,
    ctx: &ModuleContext,
    opcode: Op,
    result_type: Option<Id>,
    result: Option<Id>,
    args: &[Arg],
) -> Result<Instruction, BuildError> {
    let instruction = opcode.name().to_string();
    let mut all = Vec::with_capacity(args.len() + 2);
    all.extend(result_type.map(Arg::Id));
    all.extend(result.map(Arg::Id));
    let user_start = all.len();
    all.extend(args.iter().cloned());
    let mut src = ArgSource {
        g,
        instruction: &instruction,
        args: &all,
        user_start,
        pos: 0,
        error: None,
    };
    let inst = read_instruction(g, ctx, opcode, &mut src).map_err(|()| {
        src.error.take().unwrap_or_else(|| BuildError::Operands {
            instruction: instruction.clone(),
            message: "malformed operands".to_string(),
        })
    })?;
    if src.pos < all.len() {
        return Err(BuildError::ExtraArgs {
            instruction: instruction.clone(),
            extra: all.len() - src.pos,
        });
    }
    Ok(inst)
}

/// Supplies operands from a list of [`Arg`]s.
struct ArgSource<'a> {
    g: &'a Grammar,
    instruction: &'a str,
    args: &'a [Arg],
    /// Index of the first user argument (the ones before are the result type and result).
    user_start: usize,
    pos: usize,
    error: Option<BuildError>,
}

impl ArgSource<'_> {
    fn fail<T>(&mut self, e: BuildError) -> Result<T, ()> {
        self.error = Some(e);
        Err(())
    }

    fn next(&mut self) -> Option<Arg> {
        let a = self.args.get(self.pos).cloned();
        self.pos += 1;
        a
    }

    fn mismatch<T>(&mut self, kind: KindId, expected: &'static str, got: &Arg) -> Result<T, ()> {
        let e = BuildError::ArgMismatch {
            instruction: self.instruction.to_string(),
            index: (self.pos - 1).saturating_sub(self.user_start),
            kind: self.g.kind(kind).name.clone(),
            expected,
            got: got.describe(),
        };
        self.fail(e)
    }

    fn missing<T>(&mut self, kind: KindId) -> Result<T, ()> {
        let e = BuildError::Operands {
            instruction: self.instruction.to_string(),
            message: format!("missing an operand of kind {}", self.g.kind(kind).name),
        };
        self.fail(e)
    }

    fn word(&mut self, kind: KindId, expected: &'static str) -> Result<u32, ()> {
        match self.next() {
            Some(Arg::Int(w)) => Ok(w),
            Some(other) => self.mismatch(kind, expected, &other),
            None => self.missing(kind),
        }
    }

    fn unknown_name<T>(&mut self, kind: KindId, name: &str) -> Result<T, ()> {
        let e = BuildError::UnknownEnumerant {
            instruction: self.instruction.to_string(),
            kind: self.g.kind(kind).name.clone(),
            name: name.to_string(),
        };
        self.fail(e)
    }
}

impl OperandSource for ArgSource<'_> {
    type Error = ();

    fn has_more(&mut self) -> bool {
        self.pos < self.args.len()
    }

    fn id(&mut self, kind: KindId) -> Result<Id, ()> {
        match self.next() {
            Some(Arg::Id(id)) => Ok(id),
            Some(other) => self.mismatch(kind, "an id", &other),
            None => self.missing(kind),
        }
    }

    fn literal_integer(&mut self, kind: KindId) -> Result<u32, ()> {
        self.word(kind, "an integer")
    }

    fn literal_string(&mut self, kind: KindId) -> Result<String, ()> {
        match self.next() {
            Some(Arg::Str(s)) => Ok(s),
            Some(other) => self.mismatch(kind, "a string", &other),
            None => self.missing(kind),
        }
    }

    fn literal_float(&mut self, kind: KindId) -> Result<u32, ()> {
        match self.next() {
            Some(Arg::Float(f)) => Ok(f.to_bits()),
            Some(Arg::Int(bits)) => Ok(bits),
            Some(other) => self.mismatch(kind, "a float", &other),
            None => self.missing(kind),
        }
    }

    fn number(&mut self, kind: KindId, ty: Option<NumericType>) -> Result<Vec<u32>, ()> {
        let Some(ty) = ty else {
            let instruction = self.instruction.to_string();
            return self.fail(BuildError::UnknownLiteralType { instruction });
        };
        let expected = ty.literal_words();
        let words = match self.next() {
            Some(Arg::Int(w)) => vec![w],
            Some(Arg::Words(ws)) => ws,
            Some(Arg::Float(f))
                if ty
                    == (NumericType::Float {
                        width: 32,
                        encoding: None,
                    }) =>
            {
                vec![f.to_bits()]
            }
            Some(other) => return self.mismatch(kind, "a number", &other),
            None => return self.missing(kind),
        };
        if words.len() != expected {
            let e = BuildError::NumberWidth {
                instruction: self.instruction.to_string(),
                expected,
                got: words.len(),
            };
            return self.fail(e);
        }
        Ok(words)
    }

    fn value_enum(&mut self, kind: KindId) -> Result<u32, ()> {
        let k = self.g.kind(kind);
        match self.next() {
            Some(Arg::Name(n)) => match k.enumerant_by_name(&n) {
                Some(e) => Ok(e.value),
                None => self.unknown_name(kind, &n),
            },
            Some(Arg::Int(v)) if k.enumerant(v).is_some() => Ok(v),
            Some(Arg::Int(value)) => {
                let e = BuildError::UnknownEnumValue {
                    instruction: self.instruction.to_string(),
                    kind: k.name.clone(),
                    value,
                };
                self.fail(e)
            }
            Some(other) => self.mismatch(kind, "an enumerant name or value", &other),
            None => self.missing(kind),
        }
    }

    fn bit_enum(&mut self, kind: KindId) -> Result<u32, ()> {
        let k = self.g.kind(kind);
        match self.next() {
            Some(Arg::Name(names)) => {
                let mut mask = 0;
                for n in names.split('|').map(str::trim) {
                    match k.enumerant_by_name(n) {
                        Some(e) => mask |= e.value,
                        None => return self.unknown_name(kind, n),
                    }
                }
                Ok(mask)
            }
            Some(Arg::Int(m)) => {
                let unknown = (0..32).any(|b| m & (1 << b) != 0 && k.enumerant(1 << b).is_none());
                if unknown {
                    let e = BuildError::UnknownMaskBits {
                        instruction: self.instruction.to_string(),
                        kind: k.name.clone(),
                        value: m,
                    };
                    return self.fail(e);
                }
                Ok(m)
            }
            Some(other) => self.mismatch(kind, "a mask name or value", &other),
            None => self.missing(kind),
        }
    }

    fn ext_inst_number(
        &mut self,
        kind: KindId,
        set: Option<&str>,
    ) -> Result<(u32, ExtInstChoice), ()> {
        let g = self.g;
        let known = set.and_then(|s| g.ext_inst_set(s));
        let arg = match self.next() {
            Some(a) => a,
            None => return self.missing(kind),
        };
        let found = match (&arg, known, set) {
            (Arg::Name(n), Some(s), _) => s
                .instruction_by_name(n)
                .map(|i| (i.number, ExtInstChoice::Known(i.operands.clone()))),
            (Arg::Int(v), _, Some(set)) => ExtInstChoice::of(g, set, *v).map(|c| (*v, c)),
            (Arg::Int(v), _, None) => Some((*v, ExtInstChoice::Unknown)),
            (Arg::Name(_), None, _) => {
                return self.mismatch(kind, "a number (the set is not known by name)", &arg);
            }
            _ => return self.mismatch(kind, "an extended instruction name or number", &arg),
        };
        match found {
            Some(found) => Ok(found),
            None => {
                let e = BuildError::UnknownExtInst {
                    instruction: self.instruction.to_string(),
                    set: set.unwrap_or("?").to_string(),
                    name: arg.describe(),
                };
                self.fail(e)
            }
        }
    }

    fn spec_constant_opcode(&mut self, kind: KindId) -> Result<Op, ()> {
        let g = self.g;
        match self.next() {
            Some(Arg::Name(n)) => match g.instruction_by_name(&n) {
                Some(i) => Ok(i.opcode),
                None => self.fail(BuildError::UnknownInstruction(n)),
            },
            Some(Arg::Int(w)) => match u16::try_from(w).ok().and_then(Op::from_number) {
                Some(op) => Ok(op),
                None => self.fail(BuildError::UnknownInstruction(format!("opcode {w}"))),
            },
            Some(other) => self.mismatch(kind, "an opcode name or number", &other),
            None => self.missing(kind),
        }
    }

    fn error(&mut self, message: String) {
        self.error = Some(BuildError::Operands {
            instruction: self.instruction.to_string(),
            message,
        });
    }
}

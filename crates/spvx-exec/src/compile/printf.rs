//! Translation of NonSemantic.DebugPrintf's DebugPrintf (instruction 1): the format string
//! (an OpString) parsed into pieces, each directive bound to the next operand. `%s` takes an
//! OpString operand and is inlined; `%%` prints `%`; `%vN` takes an N-component vector
//! (components printed with ", " between them). Length modifiers (h, hh, l, ll) are accepted
//! and ignored: the operand's type gives the width. A directive without an operand, or an
//! unknown conversion, is a compile error naming the instruction.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::Inst;
use crate::program::print::{Conv, Piece, PrintSpec};
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::{DebugPrintf, Op};

impl Compiler<'_> {
    /// The text of the OpString `id`, if `id` is one.
    fn string_of(&self, id: Id) -> Option<String> {
        self.insts
            .iter()
            .find(|i| i.opcode == Op::String && i.result == Some(id))
            .and_then(|i| i.operands.first()?.string().map(str::to_string))
    }

    /// Compiles a DebugPrintf OpExtInst into [`Inst::Print`].
    pub(crate) fn debug_printf(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let func = inst
            .operands
            .get(1)
            .and_then(|o| o.word())
            .and_then(DebugPrintf::from_number);
        if func != Some(DebugPrintf::DebugPrintf) {
            return Err(
                self.unsupported(index, "NonSemantic.DebugPrintf instructions other than 1")
            );
        }
        let fmt_id = inst.operands.get(2).and_then(|o| o.id()).unwrap_or(0);
        let Some(format) = self.string_of(fmt_id) else {
            return Err(self.err(index, "the format operand is not an OpString"));
        };
        self.compile_print(index, inst, code, &format, 3)
    }

    /// Compiles a printf-style `format` whose directives take the id operands of `inst` from
    /// operand `first` on into [`Inst::Print`] (shared by DebugPrintf and OpenCL.std printf).
    pub(crate) fn compile_print(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        format: &str,
        first: usize,
    ) -> Result<(), ExecError> {
        let format = format.to_string();
        let mut next = first;
        let mut pieces = Vec::new();
        let mut text = String::new();
        let chars: Vec<char> = format.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '%' {
                text.push(chars[i]);
                i += 1;
                continue;
            }
            i += 1;
            if chars.get(i) == Some(&'%') {
                text.push('%');
                i += 1;
                continue;
            }
            let mut c = Conv {
                left: false,
                plus: false,
                space: false,
                zero: false,
                alt: false,
                width: None,
                precision: None,
                conversion: 'd',
                slot: 0,
                count: 1,
                bits: 32,
            };
            while let Some(&f) = chars.get(i) {
                match f {
                    '-' => c.left = true,
                    '+' => c.plus = true,
                    ' ' => c.space = true,
                    '0' => c.zero = true,
                    '#' => c.alt = true,
                    _ => break,
                }
                i += 1;
            }
            let number = |i: &mut usize| -> Option<usize> {
                let start = *i;
                while chars.get(*i).is_some_and(char::is_ascii_digit) {
                    *i += 1;
                }
                chars[start..*i].iter().collect::<String>().parse().ok()
            };
            c.width = number(&mut i);
            if chars.get(i) == Some(&'.') {
                i += 1;
                c.precision = Some(number(&mut i).unwrap_or(0));
            }
            let mut vector = None;
            if chars.get(i) == Some(&'v') {
                i += 1;
                vector = number(&mut i);
            }
            while chars.get(i).is_some_and(|&m| m == 'h' || m == 'l') {
                i += 1;
            }
            let Some(&conv) = chars.get(i) else {
                return Err(self.err(index, format!("format {format:?} ends inside a directive")));
            };
            i += 1;
            let operand = inst.operands.get(next).and_then(|o| o.id());
            next += 1;
            let Some(operand) = operand else {
                return Err(self.err(
                    index,
                    format!("format {format:?}: directive %{conv} has no operand"),
                ));
            };
            if conv == 's' {
                // An OpString (DebugPrintf), or a pointer to a constant string (OpenCL C
                // printf: clang passes string literals as pointers to `__constant` arrays).
                let Some(s) = self
                    .string_of(operand)
                    .or_else(|| self.constant_c_string(index, operand))
                else {
                    return Err(self.err(
                        index,
                        "%s needs an OpString operand or a pointer to a constant string",
                    ));
                };
                text.push_str(&pad_string(&s, c.width, c.precision, c.left));
                continue;
            }
            if !"diuxXocfFeEgGaA".contains(conv) {
                return Err(self.err(
                    index,
                    format!("format {format:?}: unknown conversion %{conv}"),
                ));
            }
            let v = self.value(index, operand)?;
            let (scalar, n) = self.scalar_components(index, v.ty)?;
            if vector.is_some_and(|k| k as u32 != n) || (vector.is_none() && n != 1) {
                return Err(self.err(index, format!("format {format:?}: %{conv} does not match the operand's component count {n}")));
            }
            c.conversion = conv;
            c.slot = v.slot;
            c.count = n;
            c.bits = scalar.bits();
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(Piece::Conv(c));
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        code.push(index, Inst::Print(Box::new(PrintSpec { pieces })));
        Ok(())
    }
}

/// `%s` with C's width and precision (C11 7.21.6.1): at most `precision` characters, padded
/// with spaces to `width` (on the right with the `-` flag, else on the left).
fn pad_string(s: &str, width: Option<usize>, precision: Option<usize>, left: bool) -> String {
    let s: String = match precision {
        Some(p) => s.chars().take(p).collect(),
        None => s.to_string(),
    };
    let pad = width.unwrap_or(0).saturating_sub(s.chars().count());
    let spaces = " ".repeat(pad);
    if left { s + &spaces } else { spaces + &s }
}

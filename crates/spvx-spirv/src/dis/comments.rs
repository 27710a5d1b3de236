//! The comments of `--comment` and `--offsets`, as spirv-dis 2025.5 writes them.
//!
//! - Section comments (`--comment`): a blank line and `; Annotations`, `; Debug Information` or
//!   `; Types, variables and constants` (indented like an instruction) before the first
//!   instruction of that kind, and `; Function NAME` before each `OpFunction` (two blank lines
//!   before it under `--nested-indent`).
//! - Line comments: the byte offset (`0x%08x`, grey under `--color`), then for `OpName` the raw
//!   id it names (`id %5`), then for a result id the operands of every `OpDecorate` of it seen
//!   so far (after the target), joined by `, `. They start at column 50, or two columns after
//!   the instruction, or at the previous line's comment column (at most 256) if that is further
//!   right (the previous line having had a comment), rounded up to a multiple of 4.

use super::format::{GREY, LineWriter, Palette, RESET, display_len};
use crate::instruction::{Id, Instruction};
use crate::op::Op;
use std::collections::HashMap;
use std::fmt::Write;

/// The first comment column (`kCommentColumn` of spirv-dis).
const COMMENT_COLUMN: usize = 50;

/// The furthest column a comment column is carried to the next line (spirv-dis 2025.5,
/// observed: after a comment at column 428 the next line's starts at 256).
const MAX_CARRIED_COLUMN: usize = 256;

/// spirv-dis's "debug" instructions (`spvOpcodeIsDebug`), which open `; Debug Information`.
fn is_debug(op: Op) -> bool {
    matches!(
        op,
        Op::Name
            | Op::MemberName
            | Op::Source
            | Op::SourceContinued
            | Op::SourceExtension
            | Op::String
            | Op::Line
            | Op::NoLine
            | Op::ModuleProcessed
    )
}

/// spirv-dis's decorations (`spvOpcodeIsDecoration`), which open `; Annotations`.
fn is_decoration(op: Op) -> bool {
    matches!(
        op,
        Op::Decorate
            | Op::MemberDecorate
            | Op::GroupDecorate
            | Op::GroupMemberDecorate
            | Op::DecorateId
            | Op::DecorateString
            | Op::MemberDecorateString
    )
}

/// spirv-dis's type declarations (`spvOpcodeGeneratesType`), which open `; Types, variables
/// and constants`: the grammar's `Type-Declaration` class without `OpTypeForwardPointer`,
/// `OpTypeBufferSurfaceINTEL` and `OpTypeStructContinuedINTEL`, plus
/// `OpTypeNodePayloadArrayAMDX` and `OpTypeTaskSequenceALTERA` (each checked against
/// spirv-dis 2025.5 in `tests/dis_flags.rs`).
fn generates_type(op: Op) -> bool {
    match op {
        Op::TypeForwardPointer | Op::TypeBufferSurfaceINTEL | Op::TypeStructContinuedINTEL => false,
        Op::TypeNodePayloadArrayAMDX | Op::TypeTaskSequenceALTERA => true,
        _ => op.desc().class == "Type-Declaration",
    }
}

/// The state the comments carry from line to line.
#[derive(Default)]
pub struct Comments {
    /// What `OpDecorate` said of each id so far.
    decorations: HashMap<Id, String>,
    annotations_open: bool,
    debug_open: bool,
    types_open: bool,
    /// The column of the previous line's comment (0: it had none).
    last_column: usize,
}

impl Comments {
    /// Appends the section comments due before `inst` (only under `--comment`).
    pub fn section(&mut self, out: &mut String, w: &LineWriter, inst: &Instruction) {
        if !w.opts.comment {
            return;
        }
        let indent = if w.opts.indent {
            super::format::INDENT
        } else {
            0
        };
        let open = |out: &mut String, title: &str| {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', indent));
            out.push_str(title);
            out.push('\n');
        };
        let op = inst.opcode;
        if op == Op::Function {
            out.push('\n');
            if w.opts.nested_indent {
                out.push('\n');
            }
            out.extend(std::iter::repeat_n(' ', indent));
            out.push_str("; Function ");
            if let Some(id) = inst.result {
                w.names.write_bare(out, id);
            }
            out.push('\n');
        }
        if !self.annotations_open && is_decoration(op) {
            self.annotations_open = true;
            open(out, "; Annotations");
        }
        if !self.debug_open && is_debug(op) {
            self.debug_open = true;
            open(out, "; Debug Information");
        }
        if !self.types_open && generates_type(op) {
            self.types_open = true;
            open(out, "; Types, variables and constants");
        }
    }

    /// Appends the comment of the line `line` (already in `out` from `line_start`), if any,
    /// for `inst` at byte offset `offset`.
    pub fn line(
        &mut self,
        out: &mut String,
        line_start: usize,
        w: &LineWriter,
        inst: &Instruction,
        offset: usize,
    ) {
        if w.opts.comment && inst.opcode == Op::Decorate {
            self.record_decoration(w, inst);
        }
        let mut comment = String::new();
        let mut sep = "";
        if w.opts.offsets {
            let c = Palette { on: w.opts.color };
            c.push(&mut comment, GREY);
            let _ = write!(comment, "0x{offset:08x}");
            c.push(&mut comment, RESET);
            sep = ", ";
        }
        if w.opts.comment
            && inst.opcode == Op::Name
            && let Some(id) = inst.operands.first().and_then(|o| o.id())
        {
            let _ = write!(comment, "{sep}id %{id}");
            sep = ", ";
        }
        if w.opts.comment
            && let Some(d) = inst.result.and_then(|r| self.decorations.get(&r))
        {
            comment.push_str(sep);
            comment.push_str(d);
        }
        if comment.is_empty() {
            self.last_column = 0;
            return;
        }
        let len = display_len(&out[line_start..]);
        let column = (len + 2).max(self.last_column).max(COMMENT_COLUMN);
        let column = (column + 3) & !3;
        self.last_column = column.min(MAX_CARRIED_COLUMN);
        out.extend(std::iter::repeat_n(' ', column - len));
        out.push_str("; ");
        out.push_str(&comment);
    }

    fn record_decoration(&mut self, w: &LineWriter, inst: &Instruction) {
        let Some(target) = inst.operands.first().and_then(|o| o.id()) else {
            return;
        };
        let mut text = String::new();
        for (i, o) in inst.operands.iter().enumerate().skip(1) {
            if i > 1 {
                text.push(' ');
            }
            w.operand(&mut text, inst, i, o);
        }
        let entry = self.decorations.entry(target).or_default();
        if !entry.is_empty() {
            entry.push_str(", ");
        }
        entry.push_str(&text);
    }
}

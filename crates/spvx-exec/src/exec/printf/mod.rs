//! NonSemantic.DebugPrintf execution: each active lane, in lane order, formats the compiled
//! pieces with its operand values (docs/semantics/engine-and-jit.md "Printing") and records the text in the
//! sink; the workgroup turns the records into [`crate::report::PrintRecord`]s.

mod format;

use crate::exec::ctx::{Ctx, RawPrint};
use crate::exec::mask::lanes;
use crate::program::print::{Conv, Piece, PrintSpec};

/// The most lines one workgroup keeps (later ones are dropped).
pub const MAX_PRINTS_PER_WORKGROUP: usize = 1 << 16;

/// Runs one print instruction for the active lanes.
pub fn print(cx: &mut Ctx, spec: &PrintSpec) {
    for l in lanes(cx.mask) {
        if cx.sink.prints.len() >= MAX_PRINTS_PER_WORKGROUP {
            return;
        }
        let mut text = String::new();
        for p in &spec.pieces {
            match p {
                Piece::Text(t) => text.push_str(t),
                Piece::Conv(c) => {
                    let parts: Vec<String> = (0..c.count)
                        .map(|k| format::format(c, cx.get(c.slot + k, l)))
                        .collect();
                    text.push_str(&parts.join(", "));
                }
            }
        }
        let source = cx.source;
        cx.sink.prints.push(RawPrint {
            lane: l,
            source,
            text,
        });
    }
}

/// Re-exported for the format tests.
pub fn format_one(c: &Conv, bits: u64) -> String {
    format::format(c, bits)
}

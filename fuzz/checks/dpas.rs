//! Fuzz check of spvx-dpas's text front end: the program parser and the hex register-file
//! loader. Arbitrary text never panics; an error's line and column lie inside the text; every
//! parsed instruction prints (Display) to text that parses back to the same instruction; a
//! parsed program runs (or is refused with an error) on every platform over a register file.
//! Called by the fuzz target `dpas_parse` and replayed by
//! `crates/spvx-dpas/tests/fuzz_regressions.rs`.

use spvx_dpas::isa::{ExecOptions, parse_instruction, parse_program};
use spvx_dpas::{DEFAULT_GRFS, Platform, RegisterFile};

/// The check (see the module comment).
pub fn dpas_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The same text as a register-file image must load or fail cleanly.
    let _ = RegisterFile::from_hex(text, 64, 4);
    let program = match parse_program(text) {
        Ok(p) => p,
        Err(e) => {
            let lines = text.lines().count().max(1);
            assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
            assert!(e.column >= 1, "column {}", e.column);
            return;
        }
    };
    for (_, instr) in program.instructions() {
        let printed = instr.to_string();
        let back = parse_instruction(&printed)
            .unwrap_or_else(|e| panic!("printed instruction {printed:?} does not parse: {e}"));
        assert_eq!(&back, instr, "printed as {printed:?}");
    }
    if program.instructions().len() > 4 {
        return; // keep one input's run short
    }
    for platform in Platform::ALL {
        let Ok(mut regs) = RegisterFile::new(platform, DEFAULT_GRFS) else {
            continue;
        };
        for (i, b) in regs.as_bytes_mut().iter_mut().enumerate() {
            *b = data.get(i % data.len().max(1)).copied().unwrap_or(0) ^ (i as u8);
        }
        let _ = program.run(platform, &mut regs, &ExecOptions::default());
    }
}

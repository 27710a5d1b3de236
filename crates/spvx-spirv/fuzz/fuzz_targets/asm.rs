//! Fuzz target: the assembler on arbitrary UTF-8 text must return a module or one error, never
//! panic; an error's span must lie inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(e) = spvx_spirv::asm::assemble(text, &Default::default()) {
            assert!(e.line >= 1 && e.column >= 1 && e.start <= e.end && e.end <= text.len());
        }
    }
});

//! Fuzz target for the binary reader: arbitrary bytes never panic; a module that reads writes
//! back to exactly the input (byte-swapped for big-endian input, since the writer writes
//! little-endian); and the module model either splits the instructions and flattens them back
//! exactly or reports a layout error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spvx_spirv::binary::{read_bytes, to_bytes};
use spvx_spirv::module::Module;

fuzz_target!(|data: &[u8]| {
    let Ok(m) = read_bytes(data) else {
        return;
    };
    let written = to_bytes(&m.header, &m.instructions);
    if m.big_endian {
        let swapped: Vec<u8> = data
            .chunks_exact(4)
            .flat_map(|c| [c[3], c[2], c[1], c[0]])
            .collect();
        assert_eq!(written, swapped);
    } else {
        assert_eq!(written, data);
    }
    if let Ok(module) = Module::from_instructions(m.header, m.instructions.clone()) {
        assert_eq!(module.to_instructions(), m.instructions);
    }
});

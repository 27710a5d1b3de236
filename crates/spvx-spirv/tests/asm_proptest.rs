//! Random input never panics the assembler: token soup built from the assembler's own
//! vocabulary (opcodes, enumerants, ids, literals of every spelling, raw words, strings,
//! punctuation) and arbitrary Unicode strings either assemble or give one located error.

use proptest::prelude::*;
use spvx_spirv::asm::assemble;

const WORDS: &[&str] = &[
    "OpCapability",
    "Shader",
    "%a",
    "%b",
    "%1",
    "=",
    "OpTypeInt",
    "OpTypeFloat",
    "32",
    "64",
    "13",
    "128",
    "0",
    "1",
    "-1",
    "0x",
    "0x1p-149",
    "1.5",
    "-0",
    "OpConstant",
    "OpSwitch",
    "OpExtInstImport",
    "\"GLSL.std.450\"",
    "OpExtInst",
    "Sqrt",
    "OpSpecConstantOp",
    "IAdd",
    "!",
    "!7",
    "!0x10011",
    "\"",
    "\"a\\\"",
    ";",
    "\n",
    ",",
    "OpDecorate",
    "Location",
    "|",
    "Volatile|Aligned",
    "OpLoad",
    "BFloat16KHR",
    "Float8E4M3EXT",
    "OpTypeFloat 8",
    "OpName",
    "OpTensorReadARM",
    "OutOfBoundsValueARM",
    "OpSDotKHR",
    "PackedVectorFormat4x8Bit",
    "%",
    "é",
    "\t",
    "\r",
    "\0",
    "OpNop",
    "OpLabel",
    "OpPhi",
    "OpEntryPoint",
    "GLCompute",
    "99999999999999999999999999",
    "0x1.8p+1",
    "1e39",
    "OpFDot2MixAcc32VALVE",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn token_soup_never_panics(picks in prop::collection::vec((0..WORDS.len(), 0..3usize), 0..40)) {
        let mut text = String::new();
        for (i, sep) in picks {
            text.push_str(WORDS[i]);
            text.push_str([" ", "\n", ""][sep]);
        }
        if let Err(e) = assemble(&text, &Default::default()) {
            prop_assert!(e.line >= 1 && e.column >= 1);
            prop_assert!(e.start <= e.end && e.end <= text.len());
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = assemble(&text, &Default::default());
    }
}

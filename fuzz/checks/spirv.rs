//! Fuzz checks of spvx-spirv (binary reader, assembler, disassembler round trip). Each function
//! takes the fuzzer's bytes, never panics on its own, and asserts a property that must hold for
//! every input; a panic is a finding. The fuzz targets in `fuzz/fuzz_targets/` and the
//! regression replay `crates/spvx-spirv/tests/fuzz_regressions.rs` call these same functions.

use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_spirv::binary::{read_bytes, to_bytes};
use spvx_spirv::dis::{DisOptions, disassemble};
use spvx_spirv::module::Module;
use spvx_spirv::op::Op;

/// Binary reader: arbitrary bytes never panic; a module that reads writes back to exactly the
/// input (byte-swapped for big-endian input, since the writer writes little-endian); the module
/// model either splits the instructions and flattens them back exactly or reports a layout
/// error.
pub fn binary_reader(data: &[u8]) {
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
}

/// Assembler: arbitrary UTF-8 text gives a module or one error whose span lies inside the text;
/// a module that assembles (without raw words) reads back to the same instructions.
pub fn asm(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match assemble(text, &AsmOptions::default()) {
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1 && e.start <= e.end && e.end <= text.len());
        }
        Ok(a) => {
            if !a.has_raw() {
                let read = read_bytes(&a.bytes()).expect("assembled words must read back");
                let ours: Vec<_> = a.instructions().cloned().collect();
                assert_eq!(read.instructions, ours);
            }
        }
    }
}

/// True when `module` holds a literal the disassembler prints in a form that does not assemble
/// back to the same words: an integer constant narrower than 32 bits whose word is not the sign
/// or zero extension of its value (SPIR-V §2.2.1 requires it; the reader keeps the words as they
/// are and leaves the rule to the validator).
fn has_noncanonical_narrow_literal(m: &spvx_spirv::binary::ParsedModule) -> bool {
    use spvx_spirv::instruction::OperandValue;
    use std::collections::HashMap;
    // id → (width, signed) of OpTypeInt, width of OpTypeFloat (signed false); id → its type.
    let mut scalars: HashMap<u32, (u32, bool, bool)> = HashMap::new();
    let mut type_of: HashMap<u32, u32> = HashMap::new();
    for i in &m.instructions {
        let w = |k: usize| i.operands.get(k).and_then(|o| o.word());
        if let (Some(r), Some(t)) = (i.result, i.result_type) {
            type_of.insert(r, t);
        }
        match (i.opcode, i.result) {
            (Op::TypeInt, Some(r)) => {
                if let (Some(width), Some(s)) = (w(0), w(1)) {
                    scalars.insert(r, (width, s != 0, true));
                }
            }
            (Op::TypeFloat, Some(r)) => {
                if let Some(width) = w(0) {
                    scalars.insert(r, (width, false, false));
                }
            }
            _ => {}
        }
    }
    // The words of a number of type `ty` are non-canonical when the bits above the width are
    // not the zero or sign extension of the value (one or two words; wider ones are left alone).
    let bad = |ty: u32, words: &[u32]| -> bool {
        let Some(&(w, signed, is_int)) = scalars.get(&ty) else {
            return false;
        };
        let total = 32 * words.len() as u32;
        if w == 0 || w >= total || words.len() > 2 {
            return false;
        }
        let raw = words
            .iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 32) | x as u64);
        let mask = (1u64 << w) - 1;
        let low = raw & mask;
        let full = if total == 64 {
            u64::MAX
        } else {
            (1u64 << total) - 1
        };
        let canonical = if is_int && signed && (low >> (w - 1)) & 1 == 1 {
            (low | !mask) & full
        } else {
            low
        };
        canonical != raw
    };
    m.instructions.iter().any(|i| {
        let ty = match i.opcode {
            // OpConstant, OpSpecConstant: the result type; OpSwitch: the selector's type.
            Op::Constant | Op::SpecConstant => i.result_type,
            Op::Switch => i
                .operands
                .first()
                .and_then(|o| o.id())
                .and_then(|s| type_of.get(&s).copied()),
            _ => None,
        };
        let Some(ty) = ty else { return false };
        i.operands.iter().any(|o| match &o.value {
            OperandValue::Number(ws) => bad(ty, ws),
            _ => false,
        })
    })
}

/// `insts` with ids renumbered 1, 2, ... in the order they first appear in binary order (result
/// type, result id, operands): the assembler numbers ids that way, as spirv-as 2025.5 does
/// (`%262 = OpSpecConstantComposite %467714 ...` gives the type id 1 and the result 2; a `%7`
/// in text is a name like any other).
fn renumber_by_first_appearance(
    insts: &[spvx_spirv::instruction::Instruction],
) -> Vec<spvx_spirv::instruction::Instruction> {
    use spvx_spirv::instruction::OperandValue;
    use std::collections::HashMap;
    let mut map: HashMap<u32, u32> = HashMap::new();
    let mut get = |id: u32| {
        let next = map.len() as u32 + 1;
        *map.entry(id).or_insert(next)
    };
    insts
        .iter()
        .map(|i| {
            let mut i = i.clone();
            i.result_type = i.result_type.map(&mut get);
            i.result = i.result.map(&mut get);
            for o in &mut i.operands {
                if let OperandValue::Id(id) = &mut o.value {
                    *id = get(*id);
                }
            }
            i
        })
        .collect()
}

/// Disassembler round trip: whatever the reader accepts disassembles without panicking (with
/// friendly names and with raw ids), and the raw-id text assembles back to the same instruction
/// words up to the numbering of ids (the assembler numbers them by first appearance), except
/// for literals the disassembler cannot spell canonically.
pub fn dis_roundtrip(data: &[u8]) {
    let Ok(m) = read_bytes(data) else {
        return;
    };
    let _ = disassemble(&m, &DisOptions::default());
    let text = disassemble(
        &m,
        &DisOptions {
            raw_id: true,
            ..DisOptions::default()
        },
    );
    if m.instructions.is_empty() {
        return;
    }
    // The assembler rightly refuses an id defined twice (the reader leaves that rule to the
    // validator).
    let mut defined = std::collections::HashSet::new();
    let duplicate_ids = m
        .instructions
        .iter()
        .filter_map(|i| i.result)
        .any(|r| !defined.insert(r));
    // A float type whose FP encoding does not fit its width (BFloat16KHR on 32 bits, ...) is
    // invalid; the assembler cannot spell its constants, and rightly refuses them.
    let mismatched_encoding = m.instructions.iter().any(|i| {
        i.opcode == Op::TypeFloat
            && i.operands.len() > 1
            && match (i.operands[0].word(), i.operands[1].word()) {
                (Some(w), Some(0)) => w != 16,
                (Some(w), Some(4214 | 4215)) => w != 8,
                (Some(_), Some(_)) => true,
                _ => false,
            }
    });
    // A zero-width integer or float type is invalid (SPIR-V §2.16.1); spirv-dis prints it too,
    // and no assembler can spell literals of zero bits.
    let zero_width = m.instructions.iter().any(|i| {
        matches!(i.opcode, Op::TypeInt | Op::TypeFloat)
            && i.operands.first().and_then(|o| o.word()) == Some(0)
    });
    let exempt =
        has_noncanonical_narrow_literal(&m) || duplicate_ids || mismatched_encoding || zero_width;
    match assemble(&text, &AsmOptions::default()) {
        Ok(a) => {
            let got = &a.words()[5..];
            let renumbered = renumber_by_first_appearance(&m.instructions);
            let want = &spvx_spirv::binary::to_words(&m.header, &renumbered)[5..];
            if !exempt {
                assert!(got == want, "reassembled words differ:\n{text}");
            }
        }
        Err(e) => {
            assert!(exempt, "disassembly does not assemble: {e}\n{text}");
        }
    }
}

//! Malformed binaries: each ends in exactly one typed error naming the word offset of the
//! offending instruction (or word), never a panic. The expected offsets and kinds are worked out
//! by hand from the hand-written modules of `common` (whose instruction offsets are listed there).

mod common;

use common::{MINIMAL_OFFSETS, header, le_bytes, minimal, switch64};
use proptest::prelude::*;
use spvx_spirv::binary::{BinaryError, BinaryErrorKind as K, read_bytes, read_words, to_words};
use spvx_spirv::grammar::grammar;
use std::sync::LazyLock;

/// Reads `words` and returns the error, failing the test if the read succeeds.
fn error_of(words: &[u32]) -> BinaryError {
    match read_words(words) {
        Ok(m) => panic!(
            "expected an error, read {} instructions",
            m.instructions.len()
        ),
        Err(e) => e,
    }
}

/// `header(bound)` followed by `body`.
fn module(bound: u32, body: &[u32]) -> Vec<u32> {
    let mut w = header(bound);
    w.extend_from_slice(body);
    w
}

/// The start offsets of the instructions of `switch64()`, counted by hand from its listing.
const SWITCH64_OFFSETS: [usize; 18] = [
    5, 7, 9, 12, 16, 21, 23, 26, 31, 33, 36, 45, 47, 49, 51, 53, 55, 56,
];

/// Every byte prefix of a module: a length that is not a multiple of 4 is `NotWordAligned`, fewer
/// than 5 words is `TruncatedHeader`, a prefix ending inside an instruction is `PastEnd` at that
/// instruction's start, and a prefix ending between instructions is a (shorter) valid module.
fn check_every_prefix(words: &[u32], offsets: &[usize]) {
    let bytes = le_bytes(words);
    for len in 0..=bytes.len() {
        let got = read_bytes(&bytes[..len]);
        let w = len / 4;
        if len % 4 != 0 {
            assert_eq!(
                got.map(|_| ()),
                Err(BinaryError {
                    offset: w,
                    kind: K::NotWordAligned(len)
                }),
                "prefix of {len} bytes"
            );
        } else if w < 5 {
            assert_eq!(
                got.map(|_| ()),
                Err(BinaryError {
                    offset: w,
                    kind: K::TruncatedHeader(w)
                }),
                "prefix of {len} bytes"
            );
        } else if let Some(k) = offsets.iter().position(|&o| o >= w).or(Some(offsets.len()))
            && (offsets.get(k) == Some(&w) || k == offsets.len() && w == words.len())
        {
            let m = got.unwrap_or_else(|e| panic!("prefix of {w} words should read: {e}"));
            assert_eq!(m.instructions.len(), k, "prefix of {w} words");
        } else {
            // Ends inside the instruction that starts at the largest offset below w.
            let start = offsets.iter().rev().find(|&&o| o < w).copied().unwrap_or(5);
            match got {
                Err(BinaryError {
                    offset,
                    kind: K::PastEnd { left, .. },
                }) => {
                    assert_eq!(offset, start, "prefix of {w} words");
                    assert_eq!(left, w - start, "prefix of {w} words");
                }
                other => panic!("prefix of {w} words: expected PastEnd, got {other:?}"),
            }
        }
    }
}

#[test]
fn every_prefix_of_the_minimal_module() {
    let m = read_words(&minimal()).expect("the full module reads");
    assert_eq!(m.offsets, MINIMAL_OFFSETS);
    check_every_prefix(&minimal(), &MINIMAL_OFFSETS);
}

#[test]
fn every_prefix_of_the_switch_module() {
    let m = read_words(&switch64()).expect("the full module reads");
    assert_eq!(m.offsets, SWITCH64_OFFSETS);
    check_every_prefix(&switch64(), &SWITCH64_OFFSETS);
}

#[test]
fn word_count_too_small() {
    let mut w = minimal();
    w[23] = 0x0002_0021; // OpTypeFunction with word count 2: no return type
    let e = error_of(&w);
    assert_eq!(e.offset, 23);
    assert_eq!(
        e.kind,
        K::MissingOperand {
            name: "OpTypeFunction".into(),
            kind: "IdRef".into(),
            count: 2
        }
    );
    assert!(e.to_string().starts_with("word 23: OpTypeFunction"), "{e}");
}

#[test]
fn word_count_too_large() {
    let mut w = minimal();
    w[21] = 0x0003_0013; // OpTypeVoid with word count 3
    let e = error_of(&w);
    assert_eq!(e.offset, 21);
    assert_eq!(
        e.kind,
        K::ExtraWords {
            name: "OpTypeVoid".into(),
            extra: 1,
            count: 3
        }
    );
}

#[test]
fn word_count_zero() {
    let mut w = minimal();
    w[21] = 0x0000_0013;
    assert_eq!(
        error_of(&w),
        BinaryError {
            offset: 21,
            kind: K::ZeroWordCount
        }
    );
}

#[test]
fn word_count_past_end() {
    let mut w = minimal();
    w[34] = 0x0002_0038; // OpFunctionEnd claiming 2 words, 1 left
    assert_eq!(
        error_of(&w),
        BinaryError {
            offset: 34,
            kind: K::PastEnd {
                name: "OpFunctionEnd".into(),
                count: 2,
                left: 1
            }
        }
    );
    w[34] = 0xFFFF_0038;
    assert_eq!(error_of(&w).offset, 34);
}

#[test]
fn unknown_opcodes() {
    for opcode in [0xFFFFu16, 0x7777, 9999, 18, 13] {
        assert!(
            grammar().instruction_by_number(opcode).is_none(),
            "{opcode} is known"
        );
        let mut w = minimal();
        w[21] = 0x0002_0000 | u32::from(opcode);
        assert_eq!(
            error_of(&w),
            BinaryError {
                offset: 21,
                kind: K::UnknownOpcode(opcode)
            }
        );
    }
}

#[test]
fn bad_magic() {
    for magic in [0x0723_0204, 0, 0x0302_2307 ^ 1, 0xFFFF_FFFF] {
        let mut w = minimal();
        w[0] = magic;
        assert_eq!(
            error_of(&w),
            BinaryError {
                offset: 0,
                kind: K::BadMagic(magic)
            }
        );
    }
}

#[test]
fn length_not_a_multiple_of_4() {
    let mut bytes = le_bytes(&minimal());
    for extra in 1..4 {
        bytes.push(0);
        let len = bytes.len();
        assert_eq!(
            read_bytes(&bytes).map(|_| ()),
            Err(BinaryError {
                offset: len / 4,
                kind: K::NotWordAligned(len)
            })
        );
        assert_eq!(len % 4, extra);
    }
}

#[test]
fn unterminated_string() {
    // OpName %1 "abcd" without the terminating zero word.
    let e = error_of(&module(2, &[0x0003_0005, 1, 0x6463_6261]));
    assert_eq!(
        e,
        BinaryError {
            offset: 5,
            kind: K::UnterminatedString {
                name: "OpName".into()
            }
        }
    );
    // The string runs into the next instruction's words only if the count says so: here the
    // count (3) ends the instruction, so the following OpNop is not read as string bytes.
    let e = error_of(&module(2, &[0x0003_0005, 1, 0x6463_6261, 0x0001_0000]));
    assert_eq!(e.offset, 5);
}

#[test]
fn invalid_utf8() {
    for bad in [0x0000_00FF, 0x0000_80C0, 0x00BF_BFED] {
        // 0xFF; overlong C0 80; surrogate ED BF BF.
        let e = error_of(&module(2, &[0x0003_0005, 1, bad]));
        assert_eq!(
            e,
            BinaryError {
                offset: 5,
                kind: K::InvalidUtf8 {
                    name: "OpName".into()
                }
            },
            "{bad:#x}"
        );
    }
}

#[test]
fn non_zero_padding_after_the_nul() {
    // "b", nul, then 'a' in the padding.
    let e = error_of(&module(2, &[0x0003_0005, 1, 0x6100_0062]));
    assert_eq!(
        e,
        BinaryError {
            offset: 5,
            kind: K::NonZeroStringPadding {
                name: "OpName".into()
            }
        }
    );
}

#[test]
fn unknown_enum_values() {
    let mut w = minimal();
    w[9] = 99; // OpMemoryModel Logical <99>
    assert_eq!(
        error_of(&w),
        BinaryError {
            offset: 7,
            kind: K::UnknownEnumValue {
                name: "OpMemoryModel".into(),
                kind: "MemoryModel".into(),
                value: 99
            }
        }
    );
    let mut w = minimal();
    w[6] = 0xFFFF_FFF0; // OpCapability <unknown>
    assert_eq!(error_of(&w).offset, 5);
}

#[test]
fn unknown_mask_bits() {
    let mut w = minimal();
    w[29] = 0x80; // OpFunction control with bit 7, which FunctionControl does not define
    assert_eq!(
        error_of(&w),
        BinaryError {
            offset: 26,
            kind: K::UnknownMaskBits {
                name: "OpFunction".into(),
                kind: "FunctionControl".into(),
                value: 0x80
            }
        }
    );
}

#[test]
fn constant_of_a_non_numeric_or_unknown_type() {
    // %1 = OpTypeVoid; %2 = OpConstant %1 5
    let e = error_of(&module(3, &[0x0002_0013, 1, 0x0004_002B, 1, 2, 5]));
    assert_eq!(
        e,
        BinaryError {
            offset: 7,
            kind: K::UnknownLiteralType {
                name: "OpConstant".into()
            }
        }
    );
    // %2 = OpConstant %9 5 with %9 never declared.
    let e = error_of(&module(10, &[0x0004_002B, 9, 2, 5]));
    assert_eq!(e.offset, 5);
    assert!(matches!(e.kind, K::UnknownLiteralType { .. }));
    // OpSwitch on an undeclared selector.
    let e = error_of(&module(10, &[0x0005_00FB, 9, 3, 1, 4]));
    assert!(matches!(e.kind, K::UnknownLiteralType { .. }), "{e}");
}

#[test]
fn wide_constant_missing_a_word() {
    // %1 = OpTypeInt 64 0; %2 = OpConstant %1 5 (one word where two are needed)
    let e = error_of(&module(3, &[0x0004_0015, 1, 64, 0, 0x0004_002B, 1, 2, 5]));
    assert_eq!(
        e,
        BinaryError {
            offset: 9,
            kind: K::MissingOperand {
                name: "OpConstant".into(),
                kind: "LiteralContextDependentNumber".into(),
                count: 4
            }
        }
    );
}

#[test]
fn unknown_extended_instruction() {
    #[rustfmt::skip]
    let w = module(5, &[
        0x0006_000B, 1, 0x4C53_4C47, 0x6474_732E, 0x3035_342E, 0, // "GLSL.std.450"
        0x0005_000C, 2, 3, 1, 999, // OpExtInst %2 %1 999
    ]);
    assert_eq!(
        error_of(&w),
        BinaryError {
            offset: 11,
            kind: K::UnknownExtInst {
                name: "OpExtInst".into(),
                set: "GLSL.std.450".into(),
                number: 999
            }
        }
    );
}

#[test]
fn spec_constant_op_with_bad_or_nested_opcode() {
    let e = error_of(&module(5, &[0x0004_0034, 1, 2, 0xFFFF]));
    assert_eq!(e.offset, 5);
    assert!(matches!(e.kind, K::Other { .. }), "{e}");
    // A chain of OpSpecConstantOp embedding itself, as long as a word count allows: one error,
    // no unbounded recursion.
    let mut body = vec![0xFFFF_0034, 1, 2];
    body.resize(0xFFFF, 52);
    let e = error_of(&module(5, &body));
    assert_eq!(e.offset, 5);
}

/// Valid modules for the mutation property: the hand-written ones and the real corpus.
static SEEDS: LazyLock<Vec<Vec<u32>>> = LazyLock::new(|| {
    let mut out = vec![minimal(), switch64()];
    for p in common::corpus_files() {
        if let Ok(bytes) = std::fs::read(&p)
            && let Ok(m) = read_bytes(&bytes)
        {
            out.push(to_words(&m.header, &m.instructions));
        }
    }
    out
});

/// One edit of a module's words.
#[derive(Clone, Debug)]
enum Mutation {
    Set(usize, u32),
    SetCount(usize, u16),
    FlipBit(usize, u8),
    Insert(usize, u32),
    Remove(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u32>()).prop_map(|(i, w)| Mutation::Set(i, w)),
        (any::<usize>(), 0u16..12).prop_map(|(i, c)| Mutation::SetCount(i, c)),
        (any::<usize>(), 0u8..32).prop_map(|(i, b)| Mutation::FlipBit(i, b)),
        (any::<usize>(), any::<u32>()).prop_map(|(i, w)| Mutation::Insert(i, w)),
        any::<usize>().prop_map(Mutation::Remove),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(words: &mut Vec<u32>, m: &Mutation) {
    let n = words.len().max(1);
    match *m {
        Mutation::Set(i, w) if !words.is_empty() => words[i % n] = w,
        Mutation::SetCount(i, c) if !words.is_empty() => {
            let i = i % n;
            words[i] = (u32::from(c) << 16) | (words[i] & 0xFFFF);
        }
        Mutation::FlipBit(i, b) if !words.is_empty() => words[i % n] ^= 1 << b,
        Mutation::Insert(i, w) => words.insert(i % (words.len() + 1), w),
        Mutation::Remove(i) if !words.is_empty() => {
            words.remove(i % n);
        }
        Mutation::Truncate(i) => words.truncate(i % (words.len() + 1)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random edits of valid modules never panic; when the edited module still reads, writing it
    /// gives back exactly the same words.
    #[test]
    fn mutated_modules_never_panic_and_round_trip(
        seed in any::<prop::sample::Index>(),
        edits in prop::collection::vec(mutation(), 1..5),
    ) {
        let all = &*SEEDS;
        let mut words = all[seed.index(all.len())].clone();
        for e in &edits {
            apply(&mut words, e);
        }
        if let Ok(m) = read_words(&words) {
            prop_assert_eq!(to_words(&m.header, &m.instructions), words.clone());
        }
        let _ = read_bytes(&le_bytes(&words));
    }
}

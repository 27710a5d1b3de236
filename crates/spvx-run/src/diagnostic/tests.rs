//! The renderer's layout, with every expected text written out by hand.

use super::*;
use spvx_spirv::asm::{AsmErrorKind, AsmOptions, assemble};

fn text_place(file: &str, line: usize, column: usize, source: &str, width: usize) -> Place {
    Place::Text(TextPlace {
        file: file.into(),
        line,
        column,
        source_line: source.into(),
        width,
    })
}

#[test]
fn run_file_span() {
    let text = "a = 1\nbb = \"x\"\n";
    let p = TextPlace::of_span("f.toml", text, &(11..14));
    let d = Diagnostic::error("bad value").at(Place::Text(p));
    assert_eq!(
        d.to_string(),
        "error: bad value\n --> f.toml:2:6\n  |\n2 | bb = \"x\"\n  |      ^^^"
    );
    assert_eq!(
        d.render_body(),
        "bad value\n --> f.toml:2:6\n  |\n2 | bb = \"x\"\n  |      ^^^"
    );
    assert_eq!(file_place("f.toml", text, &(11..14)), "f.toml:2:6");
}

#[test]
fn the_gutter_is_as_wide_as_the_line_number() {
    let d =
        Diagnostic::warning("w").at(text_place("m.spvasm", 50, 10, "         %vc = OpLoad", 12));
    assert_eq!(
        d.to_string(),
        "warning: w\n  --> m.spvasm:50:10\n   |\n50 |          %vc = OpLoad\n   |          ^^^^^^^^^^^^"
    );
}

#[test]
fn tabs_before_the_span_keep_the_carets_under_it() {
    // Column 7 is after a tab and "%x = ": the tab shows as four blanks, in the line and
    // before the carets alike.
    let d = Diagnostic::error("e").at(text_place("a.spvasm", 2, 7, "\t%x = OpFrob\t%t", 6));
    assert_eq!(
        d.to_string(),
        "error: e\n --> a.spvasm:2:7\n  |\n2 |     %x = OpFrob    %t\n  |          ^^^^^^"
    );
}

#[test]
fn a_column_past_the_end_of_the_line_keeps_its_number() {
    // The line is shown padded with blanks up to the column.
    let d = Diagnostic::error("e").at(text_place("a", 1, 6, "abc", 1));
    assert_eq!(
        d.to_string(),
        "error: e\n --> a:1:6\n  |\n1 | abc  \n  |      ^"
    );
    // Just past the end needs no padding.
    let d = Diagnostic::error("e").at(text_place("a", 1, 4, "abc", 1));
    assert_eq!(
        d.to_string(),
        "error: e\n --> a:1:4\n  |\n1 | abc\n  |    ^"
    );
}

#[test]
fn binary_place_with_the_instruction_as_a_note() {
    let d = Diagnostic::error("OpIAdd: bad")
        .at(Place::Word {
            file: "m.spv".into(),
            word: 44,
        })
        .note("instruction", "%8 = OpIAdd %float %int_1 %int_1");
    assert_eq!(
        d.to_string(),
        "error: OpIAdd: bad\n --> m.spv: word 44\n  |\n  = instruction: %8 = OpIAdd %float %int_1 %int_1"
    );
    let bare = Diagnostic::warning("w").at(Place::Word {
        file: "m.spv".into(),
        word: 200,
    });
    assert_eq!(bare.to_string(), "warning: w\n --> m.spv: word 200");
}

#[test]
fn file_place_and_no_place() {
    let d = Diagnostic::error("e").at(Place::File {
        file: "m.spv".into(),
    });
    assert_eq!(d.to_string(), "error: e\n --> m.spv");
    assert_eq!(Diagnostic::error("plain").to_string(), "error: plain");
    assert_eq!(
        Diagnostic::error("e").note("note", "n").to_string(),
        "error: e\n  |\n  = note: n"
    );
}

#[test]
fn notes_after_a_text_place() {
    let d = Diagnostic::error("e")
        .at(text_place("a", 3, 1, "%x = OpIAdd", 11))
        .note("note", "n");
    assert_eq!(
        d.to_string(),
        "error: e\n --> a:3:1\n  |\n3 | %x = OpIAdd\n  | ^^^^^^^^^^^\n  |\n  = note: n"
    );
}

#[test]
fn several_diagnostics_one_line_break_apart() {
    let all = [Diagnostic::error("a"), Diagnostic::warning("b")];
    assert_eq!(render_all(&all), "error: a\nwarning: b");
}

#[test]
fn assembler_errors_underline_the_token() {
    let text = "OpCapability Shader\n%x = OpFrob %t\n";
    let e = assemble(text, &AsmOptions::default()).err();
    let Some(e) = e else {
        panic!("OpFrob assembled");
    };
    assert!(matches!(e.kind, AsmErrorKind::UnknownOpcode(_)), "{e:?}");
    assert_eq!(
        Diagnostic::assembler("<stdin>", text, &e).to_string(),
        "error: unknown opcode name 'OpFrob'\n --> <stdin>:2:6\n  |\n2 | %x = OpFrob %t\n  |      ^^^^^^"
    );
}

#[test]
fn an_instruction_ends_before_its_comment() {
    let line = "   %x = OpIAdd %float %c %c   ; float result";
    let p = TextPlace::instruction("a", line, 13, 4);
    assert_eq!(p.width, "%x = OpIAdd %float %c %c".len());
    // A `;` inside a string is not a comment.
    let line = "OpString \"a;b\\\"c;\" ; note";
    assert_eq!(
        TextPlace::instruction("a", line, 1, 1).width,
        "OpString \"a;b\\\"c;\"".len()
    );
}

#[test]
fn tokens_and_line_contents() {
    let text = "\ndpas.s8.s8.8.8 (16) r40 r32 r8 q0\n";
    let p = TextPlace::token("p.dpas", text, 2, 32);
    assert_eq!((p.line, p.column, p.width), (2, 32, 2));
    let text = "// c\n  dpas.s8.s8.8.8 (8) r40 r32 r8 r0  // bad\n";
    let p = TextPlace::line_content("p.dpas", text, 2, &["//", "#", ";"]);
    let Some(p) = p else {
        panic!("no content");
    };
    assert_eq!(
        (p.column, p.width),
        (3, "dpas.s8.s8.8.8 (8) r40 r32 r8 r0".len())
    );
    assert_eq!(TextPlace::line_content("p.dpas", text, 1, &["//"]), None);
    assert_eq!(TextPlace::line_content("p.dpas", text, 9, &["//"]), None);
}

#[test]
fn odd_spans_and_characters_do_not_panic() {
    // A span inside a multi-byte character, past the end, and control characters.
    let text = "é = \"\u{0}\"\n";
    let _ = TextPlace::of_span("f", text, &(1..99)).to_string_via_diagnostic();
    let _ = TextPlace::of_span("f", text, &(99..100)).to_string_via_diagnostic();
    let d = Diagnostic::error("e").at(text_place("f", 1, 5, "a\u{0}b\u{1b}c", 3));
    assert_eq!(
        d.to_string(),
        "error: e\n --> f:1:5\n  |\n1 | a␀b␛c\n  |     ^"
    );
}

impl TextPlace {
    fn to_string_via_diagnostic(&self) -> String {
        Diagnostic::error("e")
            .at(Place::Text(self.clone()))
            .to_string()
    }
}

//! The one layout of a [`Diagnostic`]: annotate-snippets' rustc-style plain-text renderer.
//!
//! A text place becomes a snippet of its one source line (numbered as in the file) with a
//! primary annotation under the span. A binary or whole-file place has no source line to
//! show; annotate-snippets then draws its ` --> ` header and `= note` lines without the
//! line-number gutter, so those lines are shifted right by the one column a gutter of width
//! 1 takes, which gives them the layout of a text place (` --> FILE: word W`,
//! `  = instruction: ...`). Lines are never cut to a terminal width.

use super::{Diagnostic, Place, Severity, TextPlace};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Padding, Renderer, Snippet};
use std::ops::Range;

/// Lines are as long as their source: no eliding to fit a terminal.
const NO_WIDTH_LIMIT: usize = usize::MAX / 4;

/// `d` laid out; `label`: begin with `error: ` / `warning: `.
pub(super) fn render(d: &Diagnostic, label: bool) -> String {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let level = if label { level } else { level.no_name() };
    let mut group = Group::with_title(level.primary_title(d.message.as_str()));
    // Kept alive for the snippet that borrows them.
    let text_place = match &d.place {
        Some(Place::Text(t)) => Some((t, source_and_span(t))),
        _ => None,
    };
    let origin = match &d.place {
        Some(Place::Word { file, word }) => Some(format!("{file}: word {word}")),
        Some(Place::File { file }) => Some(file.clone()),
        _ => None,
    };
    if let Some((t, (source, span))) = &text_place {
        group = group.element(
            Snippet::source(source.as_str())
                .path(t.file.as_str())
                .line_start(t.line)
                .annotation(AnnotationKind::Primary.span(span.clone())),
        );
    } else if let Some(o) = &origin {
        group = group.element(Origin::path(o.as_str()));
        if !d.notes.is_empty() {
            group = group.element(Padding);
        }
    }
    for n in &d.notes {
        group = group.element(
            Level::NOTE
                .with_name(Some(n.label.as_str()))
                .message(n.text.as_str()),
        );
    }
    let out = Renderer::plain()
        .term_width(NO_WIDTH_LIMIT)
        .render(&[group]);
    if text_place.is_some() {
        return out;
    }
    // No gutter was drawn: shift everything under the title by its one column.
    let title_lines = d.message.split('\n').count();
    let mut lines = out.split('\n');
    let mut shifted: Vec<String> = lines
        .by_ref()
        .take(title_lines)
        .map(str::to_string)
        .collect();
    shifted.extend(lines.map(|l| format!(" {l}")));
    shifted.join("\n")
}

/// The source line to show (padded with blanks when the column lies past its end, so that
/// the header names the column given) and the byte span of the carets in it.
fn source_and_span(t: &TextPlace) -> (String, Range<usize>) {
    let mut source = t.source_line.split('\n').next().unwrap_or("").to_string();
    let before = t.column.max(1) - 1;
    let chars = source.chars().count();
    if before > chars {
        source.extend(std::iter::repeat_n(' ', before - chars));
    }
    let byte_at = |n: usize| {
        source
            .char_indices()
            .nth(n)
            .map_or(source.len(), |(i, _)| i)
    };
    let span = byte_at(before)..byte_at(before + t.width.max(1));
    (source, span)
}

//! Lines and tokens of an Amber script (AmberScript or VkScript): tokens are separated by
//! white space, `#` starts a comment to the end of the line, a trailing `\` joins the next
//! line, and every token knows its line and column (1-based, in characters). Shader sources
//! and `DATA` blocks are read as raw lines up to a line whose first token is `END`.

use super::error::{AmberError, Place};

/// One token and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    pub text: String,
    pub line: u32,
    pub col: u32,
}

impl Tok {
    /// Where the token is, in `file`.
    pub fn place(&self, file: &str) -> Place {
        Place {
            file: file.to_string(),
            line: self.line,
            col: self.col,
        }
    }
}

/// The lines of a script, read front to back.
pub struct Lines<'a> {
    pub file: String,
    lines: Vec<&'a str>,
    /// The next line to read (0-based).
    pub next: usize,
}

impl<'a> Lines<'a> {
    pub fn new(file: &str, text: &'a str) -> Lines<'a> {
        Lines {
            file: file.to_string(),
            lines: text.lines().collect(),
            next: 0,
        }
    }

    /// The tokens of the next line that has any (lines ending in `\` joined); None at the end.
    pub fn tokens(&mut self) -> Option<Vec<Tok>> {
        let mut out = Vec::new();
        while self.next < self.lines.len() {
            let no = self.next as u32 + 1;
            let mut toks = lex_line(self.lines[self.next], no);
            self.next += 1;
            let joined = toks.last().is_some_and(|t| t.text == "\\");
            if joined {
                toks.pop();
            }
            out.extend(toks);
            if !joined && !out.is_empty() {
                return Some(out);
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// The raw text of the lines up to (not including) the next line whose first token is
    /// `END`, with the line number of its first line; the `END` line is consumed. `what` and
    /// `at` name the block in the error when there is no `END`.
    pub fn raw_until_end(&mut self, what: &str, at: &Tok) -> Result<(u32, String), AmberError> {
        let first = self.next as u32 + 1;
        let mut text = String::new();
        while self.next < self.lines.len() {
            let line = self.lines[self.next];
            self.next += 1;
            if line.split_whitespace().next() == Some("END") {
                return Ok((first, text));
            }
            text.push_str(line);
            text.push('\n');
        }
        Err(AmberError::parse(
            at.place(&self.file),
            format!("{what} has no END"),
        ))
    }

    /// The raw line `no` (1-based), for VkScript section bodies.
    pub fn peek_raw(&self) -> Option<&'a str> {
        self.lines.get(self.next).copied()
    }

    /// Skips one raw line.
    pub fn skip_raw(&mut self) {
        self.next += 1;
    }
}

/// The tokens of one line (number `no`), up to a `#` comment.
pub fn lex_line(line: &str, no: u32) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut cur: Option<(u32, String)> = None;
    for (i, c) in line.chars().enumerate() {
        let col = i as u32 + 1;
        if c.is_whitespace() {
            if let Some((col, text)) = cur.take() {
                out.push(Tok {
                    text,
                    line: no,
                    col,
                });
            }
            continue;
        }
        if c == '#' && cur.is_none() {
            break;
        }
        cur.get_or_insert_with(|| (col, String::new())).1.push(c);
    }
    if let Some((col, text)) = cur {
        out.push(Tok {
            text,
            line: no,
            col,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_columns_comments_end_lines_and_backslash_joins() {
        let mut l = Lines::new("t", "  # only a comment\nRUN p  1 \\\n 2 3 # c\n\nEND");
        let t = l.tokens().expect("a line");
        let got: Vec<(&str, u32, u32)> =
            t.iter().map(|t| (t.text.as_str(), t.line, t.col)).collect();
        assert_eq!(
            got,
            vec![
                ("RUN", 2, 1),
                ("p", 2, 5),
                ("1", 2, 8),
                ("2", 3, 2),
                ("3", 3, 4)
            ]
        );
        assert_eq!(l.tokens().expect("END")[0].line, 5);
        assert!(l.tokens().is_none());
    }
}

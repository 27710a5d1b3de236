//! AmberScript commands: `RUN`, `COPY`, `REPEAT … END` and every buffer `EXPECT` form
//! (`IDX … [TOLERANCE …] CMP values`, `EQ_BUFFER`, `RMSE_BUFFER`); image probes are
//! "unsupported".

use super::args::{Args, parse_tolerance, parse_u64};
use super::error::{AmberError, Place};
use super::lex::Tok;
use super::model::*;
use super::parse::Parser;
use super::values;

impl Parser<'_> {
    /// RUN, COPY, EXPECT, REPEAT (at top level or in a REPEAT body).
    pub(super) fn command(&mut self, head: &Tok, a: &mut Args) -> Result<Command, AmberError> {
        let file = self.file();
        let at = head.place(&file);
        match head.text.as_str() {
            "RUN" => {
                a.eat("TIMED_EXECUTION");
                let name = a.next("a pipeline name")?;
                if !self.s.pipelines.contains_key(&name.text) {
                    return Err(a.err(name, format!("no compute pipeline named '{}'", name.text)));
                }
                if let Some(k) = a.peek().filter(|k| k.starts_with("DRAW")) {
                    return Err(a.unsupported(a.last(), format!("RUN … {k} (graphics)")));
                }
                let groups = [
                    a.u32("a workgroup count x")?,
                    a.u32("a workgroup count y")?,
                    a.u32("a workgroup count z")?,
                ];
                a.done()?;
                Ok(Command::Run {
                    pipeline: name.text.clone(),
                    groups,
                    at,
                })
            }
            "COPY" => {
                let from = self.buffer_name(a)?;
                a.keyword("TO")?;
                let to = self.buffer_name(a)?;
                a.done()?;
                Ok(Command::Copy { from, to, at })
            }
            "EXPECT" => self.expect(a, at),
            "REPEAT" => {
                let count = a.u32("a repeat count")?;
                a.done()?;
                let mut body = Vec::new();
                loop {
                    let Some(line) = self.l.tokens() else {
                        return Err(a.err(head, "REPEAT has no END"));
                    };
                    let mut b = Args::new(&file, &line);
                    let kw = b.next("a command")?;
                    match kw.text.as_str() {
                        "END" => {
                            b.done()?;
                            break;
                        }
                        "RUN" | "COPY" | "EXPECT" => body.push(self.command(kw, &mut b)?),
                        k if k.starts_with("CLEAR") => {
                            return Err(b.unsupported(kw, format!("{k} (graphics pipelines)")));
                        }
                        k => {
                            return Err(
                                b.err(kw, format!("'{k}' cannot be repeated (RUN, COPY, EXPECT)"))
                            );
                        }
                    }
                }
                Ok(Command::Repeat { count, body })
            }
            k => Err(a.err(head, format!("unknown command '{k}'"))),
        }
    }

    fn buffer_name(&self, a: &mut Args) -> Result<String, AmberError> {
        let t = a.next("a buffer name")?;
        if !self.s.buffers.contains_key(&t.text) {
            return Err(a.err(t, format!("no buffer named '{}'", t.text)));
        }
        Ok(t.text.clone())
    }

    fn expect(&self, a: &mut Args, at: Place) -> Result<Command, AmberError> {
        let buffer = self.buffer_name(a)?;
        let ty = self.s.buffers[&buffer].ty;
        let kw = a.next("IDX, EQ_BUFFER or RMSE_BUFFER")?;
        let kind = match kw.text.as_str() {
            "EQ_BUFFER" => {
                let other = self.buffer_name(a)?;
                a.done()?;
                ExpectKind::EqBuffer(other)
            }
            "RMSE_BUFFER" => {
                let other = self.buffer_name(a)?;
                a.keyword("TOLERANCE")?;
                let t = a.next("a tolerance")?;
                let tol = parse_tolerance(&t.text)
                    .filter(|t| !t.percent)
                    .ok_or_else(|| a.err(t, format!("expected a tolerance, found '{}'", t.text)))?;
                a.done()?;
                ExpectKind::Rmse(other, tol.value)
            }
            "EQ_HISTOGRAM_EMD_BUFFER" => {
                return Err(a.unsupported(kw, "EQ_HISTOGRAM_EMD_BUFFER (image histograms)"));
            }
            "IDX" => {
                let offset = a.u64("a byte offset")?;
                if a.peek().is_some_and(|t| parse_u64(t).is_some()) {
                    return Err(a.unsupported(kw, "EXPECT … IDX x y (image probes)"));
                }
                let mut tolerance = Vec::new();
                if a.eat("TOLERANCE") {
                    while let Some(t) = a.toks.get(a.i) {
                        let Some(tol) = parse_tolerance(&t.text) else {
                            break;
                        };
                        tolerance.push(tol);
                        a.i += 1;
                    }
                    if tolerance.is_empty() || tolerance.len() > 4 {
                        return Err(a.err(a.last(), "TOLERANCE takes 1 to 4 values"));
                    }
                }
                let c = a.next("a comparator")?;
                let cmp = match c.text.as_str() {
                    "EQ" => Cmp::Eq,
                    "NE" => Cmp::Ne,
                    "LT" => Cmp::Lt,
                    "LE" => Cmp::Le,
                    "GT" => Cmp::Gt,
                    "GE" => Cmp::Ge,
                    "EQ_RGB" | "EQ_RGBA" => {
                        return Err(a.unsupported(c, format!("{} (image probes)", c.text)));
                    }
                    k => return Err(a.err(c, format!("unknown comparator '{k}'"))),
                };
                if !tolerance.is_empty() && cmp != Cmp::Eq {
                    return Err(a.err(c, "TOLERANCE is for EQ only"));
                }
                let rest = &a.toks[a.i..];
                if rest.is_empty() {
                    return Err(a.err(c, "expected at least one value"));
                }
                let values = values::encode_all(a.file, &ty, rest)?;
                ExpectKind::Values {
                    ty,
                    layout: self.s.buffers[&buffer].layout,
                    offset,
                    tolerance,
                    cmp,
                    values,
                }
            }
            k => {
                return Err(a.err(
                    kw,
                    format!("expected IDX, EQ_BUFFER or RMSE_BUFFER, found '{k}'"),
                ));
            }
        };
        Ok(Command::Expect(Expect { buffer, kind, at }))
    }
}

//! AmberScript (`#!amber`) → [`Script`]: the compute subset. Top-level commands are read
//! line by line; shader sources, `DATA`, `PIPELINE` and `REPEAT` bodies run to `END`.
//! Pipelines are read in `parse_pipeline`, commands in `parse_command`.
//! Graphics pipelines, images, samplers and the like end the parse with "unsupported: …"
//! (the script is skipped); anything else wrong is a parse error at its line and column.

use super::args::Args;
use super::error::AmberError;
use super::layout::{DataType, Layout};
use super::lex::{Lines, Tok};
use super::model::*;
use super::values;
use std::path::Path;

/// Parses the AmberScript `text` of `file`; relative `FILE` paths start at `base`.
pub fn parse_amber(file: &str, text: &str, base: &Path) -> Result<Script, AmberError> {
    let mut p = Parser {
        l: Lines::new(file, text),
        s: Script::default(),
        base,
    };
    while let Some(toks) = p.l.tokens() {
        p.top(&toks)?;
    }
    Ok(p.s)
}

pub(super) struct Parser<'a> {
    pub(super) l: Lines<'a>,
    pub(super) s: Script,
    pub(super) base: &'a Path,
}

/// Commands of graphics pipelines, images and other features outside the compute subset.
const UNSUPPORTED_TOP: &[(&str, &str)] = &[
    ("IMAGE", "IMAGE (images)"),
    ("SAMPLER", "SAMPLER (samplers)"),
    ("VIRTUAL_FILE", "VIRTUAL_FILE"),
    ("STRUCT", "STRUCT (structure data types)"),
    ("CLEAR", "CLEAR (graphics pipelines)"),
    ("CLEAR_COLOR", "CLEAR_COLOR (graphics pipelines)"),
    ("CLEAR_DEPTH", "CLEAR_DEPTH (graphics pipelines)"),
    ("CLEAR_STENCIL", "CLEAR_STENCIL (graphics pipelines)"),
    ("DEBUG", "DEBUG (shader debugging)"),
    (
        "ACCELERATION_STRUCTURE",
        "ACCELERATION_STRUCTURE (ray tracing)",
    ),
    ("SHADER_BINDING_TABLE", "SHADER_BINDING_TABLE (ray tracing)"),
];

impl Parser<'_> {
    pub(super) fn file(&self) -> String {
        self.l.file.clone()
    }

    fn top(&mut self, toks: &[Tok]) -> Result<(), AmberError> {
        let file = self.file();
        let mut a = Args::new(&file, toks);
        let head = a.next("a command")?;
        match head.text.as_str() {
            "SHADER" => self.shader(&mut a),
            "BUFFER" => self.buffer(&mut a),
            "PIPELINE" => self.pipeline(&mut a, false),
            "DERIVE_PIPELINE" => self.pipeline(&mut a, true),
            "DEVICE_FEATURE" => {
                let t = a.next("a feature name")?;
                self.s
                    .requires
                    .push(Require::Feature(t.text.clone(), head.place(&file)));
                a.done()
            }
            "DEVICE_PROPERTY" => {
                let t = a.next("a property name")?;
                self.s
                    .requires
                    .push(Require::Property(t.text.clone(), head.place(&file)));
                a.done()
            }
            "DEVICE_EXTENSION" => {
                let t = a.next("an extension name")?;
                self.s
                    .requires
                    .push(Require::Extension(t.text.clone(), head.place(&file)));
                a.done()
            }
            // Instance extensions and engine data do not change what a compute shader computes.
            "INSTANCE_EXTENSION" | "SET" => Ok(()),
            "RUN" | "COPY" | "EXPECT" | "REPEAT" => {
                let c = self.command(head, &mut a)?;
                self.s.commands.push(c);
                Ok(())
            }
            other => match UNSUPPORTED_TOP.iter().find(|(k, _)| *k == other) {
                Some((_, what)) => Err(a.unsupported(head, *what)),
                None => Err(a.err(head, format!("unknown command '{other}'"))),
            },
        }
    }

    fn shader(&mut self, a: &mut Args) -> Result<(), AmberError> {
        let head = a.last();
        let kind = a.next("a shader type")?;
        let name = a.next("a shader name")?;
        let format = a.next("a shader format")?;
        // A `multi` module (SPIRV-ASM or SPIRV-HEX) is attached with `TYPE compute`.
        let multi = kind.text == "multi"
            && matches!(
                format.text.as_str(),
                "SPIRV-ASM" | "SPIRV-HEX" | "SPIRV-BIN"
            );
        if kind.text != "compute" && !multi {
            return Err(a.unsupported(kind, format!("{} shaders (graphics pipelines)", kind.text)));
        }
        if self.s.shaders.contains_key(&name.text) {
            return Err(a.err(name, format!("shader '{}' is already defined", name.text)));
        }
        let format_name = format.text.as_str();
        if !matches!(
            format_name,
            "SPIRV-ASM" | "SPIRV-HEX" | "SPIRV-BIN" | "GLSL"
        ) {
            return Err(match format_name {
                "HLSL" | "OPENCL-C" | "PASSTHROUGH" => {
                    a.unsupported(format, format!("{format_name} shaders"))
                }
                _ => a.err(format, format!("unknown shader format '{format_name}'")),
            });
        }
        let mut target_env = None;
        if a.eat("TARGET_ENV") {
            target_env = Some(a.next("a target environment")?.text.clone());
        }
        let file = self.file();
        let (origin, text, first) = if a.eat("FILE") {
            let binary = a.eat("BINARY");
            let _text = !binary && a.eat("TEXT");
            let path_tok = a.next("a file name")?;
            a.done()?;
            let path = self.base.join(&path_tok.text);
            let bytes = std::fs::read(&path)
                .map_err(|e| a.err(path_tok, format!("cannot read {}: {e}", path.display())))?;
            if format_name == "SPIRV-BIN" || binary {
                self.s.shaders.insert(
                    name.text.clone(),
                    Shader {
                        source: ShaderSource::Binary(bytes),
                        target_env,
                        origin: path.display().to_string(),
                        at: head.place(&file),
                    },
                );
                return Ok(());
            }
            let text = String::from_utf8(bytes)
                .map_err(|_| a.err(path_tok, format!("{} is not UTF-8 text", path.display())))?;
            (path.display().to_string(), text, 1)
        } else {
            a.done()?;
            if format_name == "SPIRV-BIN" {
                return Err(a.err(format, "SPIRV-BIN needs FILE <path>"));
            }
            let (first, text) = self.l.raw_until_end("SHADER", head)?;
            (file.clone(), text, first)
        };
        let padded = format!("{}{text}", "\n".repeat(first as usize - 1));
        let source = match format_name {
            "SPIRV-ASM" => ShaderSource::Asm(padded),
            "GLSL" => ShaderSource::Glsl(padded),
            _ => ShaderSource::Binary(values::hex_bytes(&origin, &text, first)?),
        };
        self.s.shaders.insert(
            name.text.clone(),
            Shader {
                source,
                target_env,
                origin,
                at: head.place(&file),
            },
        );
        Ok(())
    }

    fn buffer(&mut self, a: &mut Args) -> Result<(), AmberError> {
        let head = a.last();
        let name = a.next("a buffer name")?;
        if self.s.buffers.contains_key(&name.text) {
            return Err(a.err(name, format!("buffer '{}' is already defined", name.text)));
        }
        let how = a.next("DATA_TYPE or FORMAT")?;
        let ty_tok = a.next("a data type")?;
        let (ty, mut layout) = match how.text.as_str() {
            "DATA_TYPE" => (
                DataType::amber(&ty_tok.text)
                    .or_else(|| DataType::format(&ty_tok.text))
                    .ok_or_else(|| a.err(ty_tok, format!("unknown data type '{}'", ty_tok.text)))?,
                Layout::Std430,
            ),
            "FORMAT" => (
                DataType::format(&ty_tok.text).ok_or_else(|| {
                    a.unsupported(ty_tok, format!("buffer format {}", ty_tok.text))
                })?,
                Layout::Packed,
            ),
            _ => {
                return Err(a.err(
                    how,
                    format!("expected DATA_TYPE or FORMAT, found '{}'", how.text),
                ));
            }
        };
        if a.eat("STD140") {
            layout = Layout::Std140;
        } else if a.eat("STD430") {
            layout = Layout::Std430;
        }
        let file = self.file();
        let Some(init) = a.toks.get(a.i) else {
            return Err(a.unsupported(
                head,
                "a buffer without data (an image or framebuffer attachment)",
            ));
        };
        a.i += 1;
        let bytes = match init.text.as_str() {
            "DATA" => {
                // Values up to END, on the DATA line and the lines after it.
                let mut toks = Vec::new();
                let mut line: Vec<Tok> = a.toks[a.i..].to_vec();
                a.i = a.toks.len();
                loop {
                    if let Some(end) = line.iter().position(|t| t.text == "END") {
                        Args::new(&file, &line[end + 1..]).done()?;
                        line.truncate(end);
                        toks.extend(line);
                        break;
                    }
                    toks.extend(line);
                    line = self
                        .l
                        .tokens()
                        .ok_or_else(|| a.err(init, "DATA has no END"))?;
                }
                let bits = values::encode_all(&file, &ty, &toks)?;
                whole_elements(&file, init, &ty, bits.len())?;
                ty.encode(layout, &bits)
            }
            "SIZE" => {
                let n = a.u64("a size in elements")?;
                let count = n
                    .checked_mul(ty.components() as u64)
                    .filter(|&c| c <= values::MAX_VALUES)
                    .filter(|_| n.saturating_mul(ty.stride(layout) as u64) <= values::MAX_BYTES)
                    .ok_or_else(|| {
                        a.err(
                            a.last(),
                            format!(
                                "buffer too large (at most {} values and {} bytes)",
                                values::MAX_VALUES,
                                values::MAX_BYTES
                            ),
                        )
                    })?;
                let kind = a.next("FILL or SERIES_FROM")?;
                let bits = match kind.text.as_str() {
                    "FILL" => {
                        let v = a.next("a value")?;
                        let b = values::encode(&file, &ty, v)?;
                        vec![b; count as usize]
                    }
                    "SERIES_FROM" => {
                        let start = a.next("a start value")?;
                        a.keyword("INC_BY")?;
                        let inc = a.next("an increment")?;
                        values::series(&file, &ty, start, inc, count as usize)?
                    }
                    _ => {
                        return Err(a.err(
                            kind,
                            format!("expected FILL or SERIES_FROM, found '{}'", kind.text),
                        ));
                    }
                };
                a.done()?;
                ty.encode(layout, &bits)
            }
            "FILE" => {
                let text = a.eat("TEXT");
                if !text {
                    a.eat("BINARY");
                }
                if a.peek() == Some("PNG") {
                    return Err(a.unsupported(a.last(), "PNG buffer files (images)"));
                }
                let path_tok = a.next("a file name")?;
                a.done()?;
                let path = self.base.join(&path_tok.text);
                let raw = std::fs::read(&path)
                    .map_err(|e| a.err(path_tok, format!("cannot read {}: {e}", path.display())))?;
                if text {
                    let s = String::from_utf8(raw).map_err(|_| {
                        a.err(path_tok, format!("{} is not UTF-8 text", path.display()))
                    })?;
                    let origin = path.display().to_string();
                    let toks: Vec<Tok> = s
                        .lines()
                        .enumerate()
                        .flat_map(|(i, l)| super::lex::lex_line(l, i as u32 + 1))
                        .collect();
                    let bits = values::encode_all(&origin, &ty, &toks)?;
                    whole_elements(&file, path_tok, &ty, bits.len())?;
                    ty.encode(layout, &bits)
                } else {
                    raw
                }
            }
            "WIDTH" | "HEIGHT" | "MIP_LEVELS" | "SAMPLES" => {
                return Err(a.unsupported(init, format!("image buffers ({})", init.text)));
            }
            other => {
                return Err(a.err(
                    init,
                    format!("expected DATA, SIZE or FILE, found '{other}'"),
                ));
            }
        };
        self.s.buffers.insert(
            name.text.clone(),
            Buffer {
                ty,
                layout,
                bytes,
                at: head.place(&file),
            },
        );
        Ok(())
    }
}

/// `n` values must fill whole elements of `ty`.
pub(super) fn whole_elements(
    file: &str,
    at: &Tok,
    ty: &DataType,
    n: usize,
) -> Result<(), AmberError> {
    let k = ty.components();
    if !n.is_multiple_of(k) {
        return Err(AmberError::parse(
            at.place(file),
            format!("{n} values are not a whole number of elements (each takes {k})"),
        ));
    }
    Ok(())
}

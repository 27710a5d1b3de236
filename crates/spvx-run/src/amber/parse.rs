//! AmberScript (`#!amber`) → [`Script`]: the compute subset. Top-level commands are read
//! line by line; shader sources, `DATA`, `PIPELINE` and `REPEAT` bodies run to `END`.
//! Graphics pipelines, images, samplers and the like end the parse with "unsupported: …"
//! (the script is skipped); anything else wrong is a parse error at its line and column.

use super::args::{Args, parse_tolerance, parse_u64};
use super::error::{AmberError, Place};
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

struct Parser<'a> {
    l: Lines<'a>,
    s: Script,
    base: &'a Path,
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
    ("DEVICE_PROPERTY", "DEVICE_PROPERTY"),
    (
        "ACCELERATION_STRUCTURE",
        "ACCELERATION_STRUCTURE (ray tracing)",
    ),
    ("SHADER_BINDING_TABLE", "SHADER_BINDING_TABLE (ray tracing)"),
];

impl Parser<'_> {
    fn file(&self) -> String {
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
        if kind.text != "compute" {
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

    fn pipeline(&mut self, a: &mut Args, derive: bool) -> Result<(), AmberError> {
        let head = a.last();
        let name;
        let mut p = if derive {
            name = a.next("a pipeline name")?;
            a.keyword("FROM")?;
            let parent = a.next("the parent pipeline")?;
            self.s
                .pipelines
                .get(&parent.text)
                .cloned()
                .ok_or_else(|| a.err(parent, format!("no pipeline named '{}'", parent.text)))?
        } else {
            let kind = a.next("compute or graphics")?;
            name = a.next("a pipeline name")?;
            match kind.text.as_str() {
                "compute" => {}
                "graphics" => return Err(a.unsupported(kind, "graphics pipelines")),
                "raytracing" => return Err(a.unsupported(kind, "ray tracing pipelines")),
                k => return Err(a.err(kind, format!("unknown pipeline type '{k}'"))),
            }
            Pipeline::default()
        };
        a.done()?;
        if self.s.pipelines.contains_key(&name.text) {
            return Err(a.err(name, format!("pipeline '{}' is already defined", name.text)));
        }
        let file = self.file();
        loop {
            let Some(line) = self.l.tokens() else {
                return Err(a.err(head, "PIPELINE has no END"));
            };
            let mut b = Args::new(&file, &line);
            let kw = b.next("a pipeline command")?;
            match kw.text.as_str() {
                "END" => {
                    b.done()?;
                    break;
                }
                "ATTACH" => self.attach(&mut b, &mut p)?,
                "BIND" => self.bind(&mut b, &mut p)?,
                // Optimisation passes and compile options do not change what a valid shader
                // computes: the bodies are read and ignored.
                "SHADER_OPTIMIZATION" | "COMPILE_OPTIONS" => {
                    self.l.raw_until_end(&kw.text, kw)?;
                }
                "SUBGROUP" => return Err(b.unsupported(kw, "SUBGROUP (required subgroup sizes)")),
                "FRAMEBUFFER_SIZE"
                | "VERTEX_DATA"
                | "INDEX_DATA"
                | "POLYGON_MODE"
                | "PATCH_CONTROL_POINTS"
                | "BLEND"
                | "DEPTH"
                | "STENCIL"
                | "VIEWPORT" => {
                    return Err(b.unsupported(kw, format!("{} (graphics pipelines)", kw.text)));
                }
                k => return Err(b.err(kw, format!("unknown pipeline command '{k}'"))),
            }
        }
        self.s.pipelines.insert(name.text.clone(), p);
        Ok(())
    }

    fn attach(&self, b: &mut Args, p: &mut Pipeline) -> Result<(), AmberError> {
        let name = b.next("a shader name")?;
        if !self.s.shaders.contains_key(&name.text) {
            return Err(b.err(name, format!("no compute shader named '{}'", name.text)));
        }
        let mut entry = "main".to_string();
        while !b.at_end() {
            let kw = b.next("ENTRY_POINT, TYPE or SPECIALIZE")?;
            match kw.text.as_str() {
                "ENTRY_POINT" => entry = b.next("an entry point name")?.text.clone(),
                "TYPE" => {
                    let t = b.next("a shader type")?;
                    if t.text != "compute" {
                        return Err(b.unsupported(t, format!("{} shaders", t.text)));
                    }
                }
                "SPECIALIZE" => {
                    let id = b.u32("a SpecId")?;
                    b.keyword("AS")?;
                    let ty_tok = b.next("a data type")?;
                    let ty = DataType::amber(&ty_tok.text)
                        .filter(|t| t.components() == 1)
                        .ok_or_else(|| {
                            b.err(
                                ty_tok,
                                format!("'{}' is not a scalar data type", ty_tok.text),
                            )
                        })?;
                    let v = b.next("a value")?;
                    p.spec.insert(id, values::encode(b.file, &ty, v)?);
                }
                k => return Err(b.err(kw, format!("unexpected '{k}' in ATTACH"))),
            }
        }
        p.shader = Some((name.text.clone(), entry));
        Ok(())
    }

    fn bind(&self, b: &mut Args, p: &mut Pipeline) -> Result<(), AmberError> {
        let head = b.last();
        let what = b.next("BUFFER or BUFFER_ARRAY")?;
        let array = match what.text.as_str() {
            "BUFFER" => false,
            "BUFFER_ARRAY" => true,
            "SAMPLER" | "SAMPLER_ARRAY" => return Err(b.unsupported(what, "samplers")),
            k => {
                return Err(b.err(
                    what,
                    format!("expected BUFFER or BUFFER_ARRAY, found '{k}'"),
                ));
            }
        };
        let mut names = Vec::new();
        while let Some(t) = b.toks.get(b.i) {
            if t.text == "AS" || (!names.is_empty() && !array) {
                break;
            }
            if !self.s.buffers.contains_key(&t.text) {
                return Err(b.err(t, format!("no buffer named '{}'", t.text)));
            }
            names.push(t.text.clone());
            b.i += 1;
        }
        if names.is_empty() {
            return Err(b.err(what, "expected a buffer name"));
        }
        if b.peek() == Some("KERNEL") {
            return Err(b.unsupported(what, "OpenCL kernel arguments (KERNEL ARG_NAME/ARG_NUMBER)"));
        }
        b.keyword("AS")?;
        let kind = b.next("a buffer type")?;
        let dynamic = match kind.text.as_str() {
            "storage" | "uniform" => false,
            "storage_dynamic" | "uniform_dynamic" => true,
            "push_constant" => {
                b.done()?;
                if array || names.len() != 1 {
                    return Err(b.err(kind, "push_constant takes one buffer"));
                }
                p.push = Some(names.remove(0));
                return Ok(());
            }
            "color" | "depth_stencil" | "resolve" => {
                return Err(b.unsupported(kind, format!("{} attachments (graphics)", kind.text)));
            }
            "storage_image"
            | "sampled_image"
            | "combined_image_sampler"
            | "uniform_texel_buffer"
            | "storage_texel_buffer" => {
                return Err(b.unsupported(kind, format!("{} descriptors", kind.text)));
            }
            k => return Err(b.err(kind, format!("unknown buffer type '{k}'"))),
        };
        let mut set = 0;
        if b.eat("DESCRIPTOR_SET") {
            set = b.u32("a descriptor set")?;
        }
        b.keyword("BINDING")?;
        let binding = b.u32("a binding")?;
        let n = names.len();
        let mut offsets = vec![0u64; n];
        let mut desc_offsets = vec![0u64; n];
        let mut ranges: Vec<Option<u64>> = vec![None; n];
        let mut had_offset = false;
        while !b.at_end() {
            let kw = b.next("OFFSET, DESCRIPTOR_OFFSET or DESCRIPTOR_RANGE")?;
            match kw.text.as_str() {
                "OFFSET" if dynamic => {
                    had_offset = true;
                    for o in offsets.iter_mut() {
                        *o = b.u64("an offset")?;
                    }
                }
                "OFFSET" => {
                    return Err(b.err(kw, "OFFSET is for storage_dynamic and uniform_dynamic"));
                }
                "DESCRIPTOR_OFFSET" => {
                    for o in desc_offsets.iter_mut() {
                        *o = b.u64("a descriptor offset")?;
                    }
                }
                "DESCRIPTOR_RANGE" => {
                    for r in ranges.iter_mut() {
                        let t = b.next("a descriptor range")?;
                        *r = match t.text.as_str() {
                            "-1" | "VK_WHOLE_SIZE" => None,
                            s => Some(parse_u64(s).ok_or_else(|| {
                                b.err(t, format!("expected a descriptor range, found '{s}'"))
                            })?),
                        };
                    }
                }
                k => return Err(b.err(kw, format!("unexpected '{k}' in BIND"))),
            }
        }
        if dynamic && !had_offset {
            return Err(b.err(kind, format!("{} needs OFFSET", kind.text)));
        }
        let buffers = names
            .into_iter()
            .enumerate()
            .map(|(i, buffer)| BoundBuffer {
                buffer,
                offset: offsets[i] + desc_offsets[i],
                range: ranges[i],
            })
            .collect();
        p.binds.retain(|x| (x.set, x.binding) != (set, binding));
        p.binds.push(Bind {
            set,
            binding,
            buffers,
            array,
            at: head.place(b.file),
        });
        Ok(())
    }

    /// RUN, COPY, EXPECT, REPEAT (at top level or in a REPEAT body).
    fn command(&mut self, head: &Tok, a: &mut Args) -> Result<Command, AmberError> {
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

/// `n` values must fill whole elements of `ty`.
fn whole_elements(file: &str, at: &Tok, ty: &DataType, n: usize) -> Result<(), AmberError> {
    let k = ty.components();
    if !n.is_multiple_of(k) {
        return Err(AmberError::parse(
            at.place(file),
            format!("{n} values are not a whole number of elements (each takes {k})"),
        ));
    }
    Ok(())
}

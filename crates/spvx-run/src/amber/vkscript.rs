//! VkScript (VkRunner's format, as google/amber's docs/vk_script.md describes it) → the same
//! [`Script`] as AmberScript: `[require]` (features; names starting `VK_` are extensions;
//! framebuffer settings ignored), `[compute shader]` (GLSL), `[compute shader spirv]`
//! (SPIRV-ASM), `[compute shader spirv hex]`, and `[test]` with `ssbo B SIZE`,
//! `ssbo B subdata TYPE OFFSET v…`, `uniform ubo B TYPE OFFSET v…`, `uniform TYPE OFFSET v…`
//! (push constants), `compute X Y Z`, `compute entrypoint NAME`, `tolerance t…`,
//! `probe ssbo TYPE B OFFSET CMP v…`. SSBOs, UBOs and push constants are std430 (values are written as
//! given: a script writes std140 padding itself).
//! Graphics sections and commands are "unsupported".

use super::args::{Args, parse_tolerance, parse_u64};
use super::error::{AmberError, Place};
use super::layout::{DataType, Layout};
use super::lex::{Lines, Tok, lex_line};
use super::model::*;
use super::values;
use crate::ElemType;
use std::path::Path;

use super::values::MAX_BYTES;

/// True when `text` has VkScript sections.
pub fn looks_like(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim();
        t == "[test]" || t == "[require]" || (t.starts_with('[') && t.contains("shader"))
    })
}

/// Parses the VkScript `text` of `file`.
pub fn parse_vkscript(file: &str, text: &str, _base: &Path) -> Result<Script, AmberError> {
    let mut l = Lines::new(file, text);
    let mut s = Script::default();
    let mut v = Vk {
        pipeline: Pipeline::default(),
        tolerance: Vec::new(),
        computes: 0,
    };
    let place = |line: u32, col: u32| Place {
        file: file.to_string(),
        line,
        col,
    };
    let mut section: Option<(String, Tok)> = None;
    while let Some(raw) = l.peek_raw() {
        let line_no = l.next as u32 + 1;
        let trimmed = raw.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            l.skip_raw();
            let name = trimmed[1..trimmed.len() - 1].trim().to_string();
            let col = raw.find('[').map_or(1, |c| c as u32 + 1);
            let tok = Tok {
                text: name.clone(),
                line: line_no,
                col,
            };
            if name.ends_with("shader") || name.contains(" shader ") {
                shader_section(&mut l, &mut s, &mut v, &name, &tok, file)?;
                section = None;
            } else {
                match name.as_str() {
                    "require" | "test" => section = Some((name, tok)),
                    // Free text up to the next section (Amber's parser skips it).
                    "comment" => {
                        while l.peek_raw().is_some_and(|r| {
                            let t = r.trim();
                            !(t.starts_with('[') && t.ends_with(']'))
                        }) {
                            l.skip_raw();
                        }
                        section = None;
                    }
                    "vertex data" | "indices" => {
                        return Err(AmberError::unsupported(
                            place(line_no, col),
                            format!("[{name}] (graphics pipelines)"),
                        ));
                    }
                    _ => {
                        return Err(AmberError::parse(
                            place(line_no, col),
                            format!("unknown section [{name}]"),
                        ));
                    }
                }
            }
            continue;
        }
        // (None: only comments up to the next section header.)
        let Some(toks) = next_line(&mut l) else {
            continue;
        };
        match &section {
            Some((name, _)) if name == "require" => require(&mut s, &toks, file),
            Some(_) => v.test(&mut s, &toks, file)?,
            None => {
                return Err(AmberError::parse(
                    toks[0].place(file),
                    "text outside any section",
                ));
            }
        }
    }
    // Every pipeline binds every buffer the script names (VkRunner creates them all).
    let binds: Vec<Bind> = s
        .buffers
        .keys()
        .filter_map(|n| binding_of(n))
        .map(|(set, binding, n)| Bind {
            set,
            binding,
            buffers: vec![BoundBuffer {
                buffer: n,
                offset: 0,
                range: None,
            }],
            array: false,
            at: place(1, 1),
        })
        .collect();
    let push = s.buffers.contains_key("push").then(|| "push".to_string());
    for p in s.pipelines.values_mut() {
        p.binds = binds.clone();
        p.push = push.clone();
    }
    Ok(s)
}

/// The tokens of the next raw line (with continuations), stopping before a section header.
fn next_line(l: &mut Lines) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    while let Some(raw) = l.peek_raw() {
        let no = l.next as u32 + 1;
        let t = raw.trim();
        if t.starts_with('[') && t.ends_with(']') {
            break;
        }
        l.skip_raw();
        let mut toks = lex_line(raw, no);
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

/// The state of a VkScript being read.
struct Vk {
    /// The pipeline as the commands so far set it (entry point).
    pipeline: Pipeline,
    tolerance: Vec<Tolerance>,
    computes: usize,
}

/// `[… shader …]`: its body runs to the next section header.
fn shader_section(
    l: &mut Lines,
    s: &mut Script,
    v: &mut Vk,
    name: &str,
    tok: &Tok,
    file: &str,
) -> Result<(), AmberError> {
    let at = tok.place(file);
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.first() != Some(&"compute") {
        return Err(AmberError::unsupported(
            at,
            format!("[{name}] (graphics pipelines)"),
        ));
    }
    if s.shaders.contains_key("compute") {
        return Err(AmberError::parse(at, "a second [compute shader] section"));
    }
    let first = l.next as u32 + 1;
    let mut text = String::new();
    while let Some(raw) = l.peek_raw() {
        let t = raw.trim();
        if t.starts_with('[') && t.ends_with(']') {
            break;
        }
        text.push_str(raw);
        text.push('\n');
        l.skip_raw();
    }
    let padded = format!("{}{text}", "\n".repeat(first as usize - 1));
    let source = match &words[1..] {
        ["shader"] => ShaderSource::Glsl(padded),
        ["shader", "spirv"] => ShaderSource::Asm(padded),
        ["shader", "spirv", "hex"] => ShaderSource::Binary(values::hex_bytes(file, &text, first)?),
        _ => {
            return Err(AmberError::parse(
                at,
                format!("unknown shader section [{name}]"),
            ));
        }
    };
    s.shaders.insert(
        "compute".to_string(),
        Shader {
            source,
            target_env: None,
            origin: file.to_string(),
            at,
        },
    );
    v.pipeline.shader = Some(("compute".to_string(), "main".to_string()));
    Ok(())
}

/// One `[require]` line.
fn require(s: &mut Script, toks: &[Tok], file: &str) {
    let head = &toks[0];
    let at = head.place(file);
    match head.text.as_str() {
        // Framebuffer settings and timeouts do not concern compute shaders.
        "framebuffer" | "depthstencil" | "fbsize" | "fence_timeout" => {}
        n if n.starts_with("VK_") => s.requires.push(Require::Extension(n.to_string(), at)),
        n => s.requires.push(Require::Feature(n.to_string(), at)),
    }
}

/// `B` or `S:B`.
fn parse_binding(a: &mut Args) -> Result<(u32, u32), AmberError> {
    let t = a.next("a binding")?;
    let bad = || {
        a.err(
            t,
            format!("expected a binding (B or SET:B), found '{}'", t.text),
        )
    };
    let (set, b) = match t.text.split_once(':') {
        Some((s, b)) => (parse_u64(s).ok_or_else(bad)?, parse_u64(b).ok_or_else(bad)?),
        None => (0, parse_u64(&t.text).ok_or_else(bad)?),
    };
    Ok((
        u32::try_from(set).map_err(|_| bad())?,
        u32::try_from(b).map_err(|_| bad())?,
    ))
}

/// The buffer name of an SSBO or UBO binding.
fn buffer_name(kind: &str, set: u32, binding: u32) -> String {
    format!("{kind} {set}:{binding}")
}

/// (set, binding, name) of a buffer named by [`buffer_name`].
fn binding_of(name: &str) -> Option<(u32, u32, String)> {
    let (_, sb) = name.split_once(' ')?;
    let (s, b) = sb.split_once(':')?;
    Some((s.parse().ok()?, b.parse().ok()?, name.to_string()))
}

impl Vk {
    fn test(&mut self, s: &mut Script, toks: &[Tok], file: &str) -> Result<(), AmberError> {
        let mut a = Args::new(file, toks);
        let head = a.next("a command")?;
        let at = head.place(file);
        match head.text.as_str() {
            "ssbo" => {
                let (set, binding) = parse_binding(&mut a)?;
                let name = buffer_name("ssbo", set, binding);
                declare(s, &name, &at);
                if a.eat("subdata") {
                    let c = write(&mut a, &name, Layout::Std430)?;
                    s.commands.push(c);
                } else {
                    let size = a.u64("a size in bytes")?;
                    a.done()?;
                    if size > MAX_BYTES {
                        return Err(a.err(a.last(), format!("more than {MAX_BYTES} bytes")));
                    }
                    s.commands.push(Command::Write {
                        buffer: name,
                        offset: 0,
                        bytes: Vec::new(),
                        resize: Some(size as usize),
                    });
                }
                Ok(())
            }
            "uniform" => {
                let (name, layout) = if a.eat("ubo") {
                    let (set, binding) = parse_binding(&mut a)?;
                    a.eat("subdata");
                    (buffer_name("ubo", set, binding), Layout::Std430)
                } else {
                    ("push".to_string(), Layout::Std430)
                };
                declare(s, &name, &at);
                let c = write(&mut a, &name, layout)?;
                s.commands.push(c);
                Ok(())
            }
            "compute" => {
                if a.eat("entrypoint") {
                    let e = a.next("an entry point name")?;
                    a.done()?;
                    if let Some((_, entry)) = &mut self.pipeline.shader {
                        *entry = e.text.clone();
                    }
                    return Ok(());
                }
                let groups = [
                    a.u32("a workgroup count x")?,
                    a.u32("a workgroup count y")?,
                    a.u32("a workgroup count z")?,
                ];
                a.done()?;
                if self.pipeline.shader.is_none() {
                    return Err(a.err(head, "compute before a [compute shader] section"));
                }
                self.computes += 1;
                let name = format!("compute {}", self.computes);
                s.pipelines.insert(name.clone(), self.pipeline.clone());
                s.commands.push(Command::Run {
                    pipeline: name,
                    groups,
                    at,
                });
                Ok(())
            }
            "tolerance" => {
                let mut t = Vec::new();
                while let Some(tok) = a.toks.get(a.i) {
                    t.push(parse_tolerance(&tok.text).ok_or_else(|| {
                        a.err(tok, format!("expected a tolerance, found '{}'", tok.text))
                    })?);
                    a.i += 1;
                }
                if t.is_empty() || t.len() > 4 {
                    return Err(a.err(head, "tolerance takes 1 to 4 values"));
                }
                self.tolerance = t;
                Ok(())
            }
            "probe" => {
                let kind = a.next("ssbo")?;
                if kind.text != "ssbo" {
                    return Err(
                        a.unsupported(kind, format!("probe {} (framebuffer probes)", kind.text))
                    );
                }
                let ty_tok = a.next("a data type")?;
                let ty = DataType::vkscript(&ty_tok.text)
                    .ok_or_else(|| a.err(ty_tok, format!("unknown data type '{}'", ty_tok.text)))?;
                let (set, binding) = parse_binding(&mut a)?;
                let offset = a.u64("a byte offset")?;
                let c = a.next("a comparator")?;
                let (cmp, fuzzy) = match c.text.as_str() {
                    "==" => (Cmp::Eq, false),
                    "!=" => (Cmp::Ne, false),
                    "<" => (Cmp::Lt, false),
                    "<=" => (Cmp::Le, false),
                    ">" => (Cmp::Gt, false),
                    ">=" => (Cmp::Ge, false),
                    "~=" => (Cmp::Eq, true),
                    k => return Err(a.err(c, format!("unknown comparator '{k}'"))),
                };
                let rest = &a.toks[a.i..];
                if rest.is_empty() || !rest.len().is_multiple_of(ty.components()) {
                    return Err(a.err(
                        c,
                        format!("expected a non-zero multiple of {} values", ty.components()),
                    ));
                }
                let values = values::encode_all(file, &ty, rest)?;
                let name = buffer_name("ssbo", set, binding);
                declare(s, &name, &at);
                // VkRunner's default tolerance for ~= is 0.01.
                let tolerance = match (fuzzy, self.tolerance.is_empty()) {
                    (false, _) => Vec::new(),
                    (true, true) => vec![Tolerance {
                        value: 0.01,
                        percent: false,
                    }],
                    (true, false) => self.tolerance.clone(),
                };
                s.commands.push(Command::Expect(Expect {
                    buffer: name,
                    kind: ExpectKind::Values {
                        ty,
                        layout: Layout::Std430,
                        offset,
                        tolerance,
                        cmp,
                        values,
                    },
                    at,
                }));
                Ok(())
            }
            "clear" | "draw" | "relative" | "patch" => {
                Err(a.unsupported(head, format!("{} (graphics pipelines)", head.text)))
            }
            k if k.contains("Enable") || k.contains("Op") || k.contains("Factor") => {
                Err(a.unsupported(head, format!("{k} (graphics pipeline state)")))
            }
            k => Err(a.err(head, format!("unknown [test] command '{k}'"))),
        }
    }
}

/// Declares a buffer the first time it is named (empty, bytes as u8).
fn declare(s: &mut Script, name: &str, at: &Place) {
    s.buffers.entry(name.to_string()).or_insert_with(|| Buffer {
        ty: DataType {
            elem: ElemType::U8,
            rows: 1,
            cols: 1,
        },
        layout: Layout::Packed,
        bytes: Vec::new(),
        at: at.clone(),
    });
}

/// `TYPE OFFSET v…` as a write into `buffer`.
fn write(a: &mut Args, buffer: &str, layout: Layout) -> Result<Command, AmberError> {
    let ty_tok = a.next("a data type")?;
    let ty = DataType::vkscript(&ty_tok.text)
        .ok_or_else(|| a.err(ty_tok, format!("unknown data type '{}'", ty_tok.text)))?;
    let offset = a.u64("a byte offset")?;
    let rest = &a.toks[a.i..];
    if rest.is_empty() || !rest.len().is_multiple_of(ty.components()) {
        return Err(a.err(
            ty_tok,
            format!("expected a non-zero multiple of {} values", ty.components()),
        ));
    }
    let bits = values::encode_all(a.file, &ty, rest)?;
    let mut bytes = ty.encode(layout, &bits);
    // The last element's trailing padding is not written.
    let last = ty.component_offset(layout, bits.len() - 1) + ty.elem.size();
    bytes.truncate(last);
    if offset + bytes.len() as u64 > MAX_BYTES {
        return Err(a.err(ty_tok, format!("more than {MAX_BYTES} bytes")));
    }
    Ok(Command::Write {
        buffer: buffer.to_string(),
        offset: offset as usize,
        bytes,
        resize: None,
    })
}

//! AmberScript `PIPELINE compute` and `DERIVE_PIPELINE` bodies: `ATTACH` (entry point,
//! `SPECIALIZE`), `BIND BUFFER`/`BUFFER_ARRAY` (storage, uniform, the dynamic kinds with their
//! offsets and windows, push constants); graphics-only commands are "unsupported".

use super::args::{Args, parse_u64};
use super::error::AmberError;
use super::layout::DataType;
use super::model::*;
use super::parse::Parser;
use super::values;

impl Parser<'_> {
    pub(super) fn pipeline(&mut self, a: &mut Args, derive: bool) -> Result<(), AmberError> {
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
}

//! Running a script: its requirements checked against the target (the engine, or a Vulkan
//! device), then its commands in order. A `RUN` binds the pipeline's buffers (a window of
//! each, for OFFSET/DESCRIPTOR_OFFSET/DESCRIPTOR_RANGE) as engine resources or a spvx-vk run,
//! dispatches, and copies the buffers back; `COPY` copies bytes; `EXPECT` is checked by
//! [`super::check`]. A failed `EXPECT` does not stop the script: every one is reported. When
//! an engine run fails an `EXPECT`, the script runs again tracking writers (interpreter) to
//! name the invocation that wrote the first failing value. On a device, an `EXPECT` that holds
//! only where the specification lets the device differ from the engine is an allowed
//! difference ([`super::allowance`]), unless [`ScriptOptions::literal`].

use super::allowance::{Allowances, Window};
use super::check::{Miss, check};
use super::error::{AmberError, Place};
use super::model::{Command, Expect, Script};
use super::{parse, shader, vkscript};
use crate::compare::{JudgedRun, judge_of};
use crate::diagnostic::Diagnostic;
use crate::module::LoadedModule;
use spvx_exec::{CompileOptions, InvocationId, Resources, RunConfig};
use spvx_vk::{BufferData, BufferElement, VkRun, VkRunner};
use std::collections::BTreeMap;
use std::path::Path;

/// Where scripts run.
pub enum Target<'a> {
    Engine(RunConfig),
    Device(&'a VkRunner),
}

/// A script's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    Skip(String),
    Error(String),
}

/// One failed `EXPECT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub at: Place,
    pub message: String,
    /// The invocation that last wrote the first failing value (engine runs), or `None`.
    pub writer: Option<String>,
}

/// A script's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub status: Status,
    pub failures: Vec<Failure>,
    /// `EXPECT`s checked (each repetition counted).
    pub expects: usize,
    /// `EXPECT`s that failed on the device's values and hold with the engine's where the
    /// specification allows the device's (device runs without [`ScriptOptions::literal`]):
    /// not failures; each message names the freedoms.
    pub allowed: Vec<Failure>,
    /// Engine runs that met undefined behaviour (the documented result was used): one note
    /// per such `RUN`, with the first event.
    pub notes: Vec<String>,
    /// Every buffer after the last command, by name, with its layout (PASS and FAIL, when
    /// [`ScriptOptions::keep_buffers`] asks for them).
    pub buffers: Vec<OutBuffer>,
}

/// A buffer at the end of a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutBuffer {
    pub name: String,
    /// Its array as NumPy sees it: a runtime array of the buffer's data type, laid out as
    /// the script says ([`super::layout::DataType::type_layout`]).
    pub layout: crate::layout::TypeLayout,
    pub bytes: Vec<u8>,
}

/// How scripts are built, beyond what they say themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptOptions {
    /// The target environment of shaders without `TARGET_ENV` (Amber's `-t`): spv1.x or
    /// vulkan1.x. None: spv1.0 for SPIR-V assembly (spv1.4 when the script requires
    /// VK_KHR_spirv_1_4), vulkan1.0 for GLSL.
    pub target_env: Option<String>,
    /// Keep every buffer's final bytes in [`Outcome::buffers`] (`spvx amber --out`).
    pub keep_buffers: bool,
    /// On a device, judge `EXPECT`s literally as Amber does (`spvx amber --literal`): a value
    /// the specification allows but the script does not expect fails.
    pub literal: bool,
}

/// Reads, parses and runs the script at `path`.
pub fn run_script(path: &Path, target: &Target) -> Outcome {
    run_script_with(path, target, &ScriptOptions::default())
}

/// Reads, parses and runs the script at `path`, built as `opts` says.
pub fn run_script_with(path: &Path, target: &Target, opts: &ScriptOptions) -> Outcome {
    let file = path.display().to_string();
    let outcome = |status| Outcome {
        status,
        failures: Vec::new(),
        expects: 0,
        allowed: Vec::new(),
        notes: Vec::new(),
        buffers: Vec::new(),
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return outcome(Status::Error(format!("cannot read {file}: {e}"))),
    };
    let base = path.parent().unwrap_or(Path::new("."));
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let parsed = if first.is_some_and(|l| l.starts_with("#!amber")) {
        parse::parse_amber(&file, &text, base)
    } else if vkscript::looks_like(&text) {
        vkscript::parse_vkscript(&file, &text, base)
    } else {
        return outcome(Status::Error(format!(
            "{file}:1:1: not an Amber script: AmberScript starts with '#!amber', VkScript has [compute shader] and [test] sections"
        )));
    };
    let script = match parsed {
        Ok(s) => s,
        Err(e) if e.is_skip() => return outcome(Status::Skip(e.to_string())),
        Err(e) => return outcome(Status::Error(e.to_string())),
    };
    if let Err(e) = super::require::check(&script, target) {
        return outcome(Status::Skip(e.to_string()));
    }
    let mut st = State::new(&script, target, false, opts);
    if let Err(e) = st.commands(&script.commands) {
        // A device that lacks what a RUN's module needs (a feature, or a capability no
        // Vulkan feature exposes) skips the script, as a DEVICE_FEATURE it lacks would.
        return outcome(if e.is_skip() {
            Status::Skip(e.to_string())
        } else {
            Status::Error(e.to_string())
        });
    }
    let mut failures = st.failures;
    if let (Target::Engine(cfg), false) = (target, failures.is_empty()) {
        // Again, tracking writers, to name them (same results: the engine is deterministic).
        let mut cfg = cfg.clone();
        cfg.track_writers = true;
        let t = Target::Engine(cfg);
        let mut again = State::new(&script, &t, true, opts);
        if again.commands(&script.commands).is_ok() && again.failures.len() == failures.len() {
            failures = again.failures;
        }
    }
    Outcome {
        status: if failures.is_empty() {
            Status::Pass
        } else {
            Status::Fail
        },
        failures,
        expects: st.expects,
        allowed: st.allowed,
        buffers: st
            .buffers
            .into_iter()
            .filter(|_| opts.keep_buffers)
            .map(|(name, bytes)| {
                let b = &script.buffers[&name];
                OutBuffer {
                    layout: b.ty.type_layout(b.layout),
                    name,
                    bytes,
                }
            })
            .collect(),
        notes: st.notes,
    }
}

/// One bound buffer of a run: set, binding, element (arrays of buffers), the buffer, and its
/// window's start and end bytes.
type Slot = (u32, u32, Option<u32>, String, usize, usize);

/// The state of a script being run.
struct State<'s> {
    script: &'s Script,
    target: &'s Target<'s>,
    opts: &'s ScriptOptions,
    buffers: BTreeMap<String, Vec<u8>>,
    modules: BTreeMap<String, LoadedModule>,
    /// With writer tracking: per buffer, per byte, the invocation that last wrote it.
    writers: Option<BTreeMap<String, Vec<Option<InvocationId>>>>,
    failures: Vec<Failure>,
    expects: usize,
    notes: Vec<String>,
    /// Device runs: the elements the specification lets differ from the engine's.
    allowances: Allowances,
    allowed: Vec<Failure>,
}

impl<'s> State<'s> {
    fn new(
        script: &'s Script,
        target: &'s Target<'s>,
        track: bool,
        opts: &'s ScriptOptions,
    ) -> State<'s> {
        State {
            script,
            opts,
            target,
            buffers: script
                .buffers
                .iter()
                .map(|(n, b)| (n.clone(), b.bytes.clone()))
                .collect(),
            modules: BTreeMap::new(),
            writers: track.then(BTreeMap::new),
            failures: Vec::new(),
            expects: 0,
            notes: Vec::new(),
            allowances: Allowances::default(),
            allowed: Vec::new(),
        }
    }

    fn commands(&mut self, cmds: &[Command]) -> Result<(), AmberError> {
        for c in cmds {
            match c {
                Command::Run {
                    pipeline,
                    groups,
                    at,
                } => self.run(pipeline, *groups, at)?,
                Command::Copy { from, to, at } => {
                    let bytes = self.buffers[from].clone();
                    if self.script.buffers[from].ty != self.script.buffers[to].ty {
                        return Err(AmberError::run(
                            at.clone(),
                            format!("COPY {from} TO {to}: the buffers' data types differ"),
                        ));
                    }
                    self.buffers.insert(to.clone(), bytes);
                    if let Some(w) = &mut self.writers {
                        let from_w = w.get(from).cloned();
                        match from_w {
                            Some(v) => w.insert(to.clone(), v),
                            None => w.remove(to),
                        };
                    }
                }
                Command::Expect(e) => self.expect(e),
                Command::Write {
                    buffer,
                    offset,
                    bytes,
                    resize,
                } => {
                    let b = self.buffers.entry(buffer.clone()).or_default();
                    if let Some(n) = resize {
                        b.resize(*n, 0);
                    }
                    let end = offset + bytes.len();
                    if b.len() < end {
                        b.resize(end, 0);
                    }
                    b[*offset..end].copy_from_slice(bytes);
                }
                Command::Repeat { count, body } => {
                    for _ in 0..*count {
                        self.commands(body)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks one `EXPECT`: a failure, or (device runs) an allowed difference when it holds
    /// with the engine's values wherever the specification allows the device's.
    fn expect(&mut self, e: &Expect) {
        self.expects += 1;
        let Some(m) = check(self.script, &e.buffer, &e.kind, &self.buffers) else {
            return;
        };
        if let Some(why) = self.held_by_freedoms(e, &m) {
            self.allowed.push(Failure {
                at: e.at.clone(),
                message: format!(
                    "EXPECT {}: {} on the device; it holds with the engine's values where the specification allows the device's ({why})",
                    e.buffer, m.message
                ),
                writer: None,
            });
            return;
        }
        let writer = self.writer(&m);
        self.failures.push(Failure {
            at: e.at.clone(),
            message: format!("EXPECT {}: {}", e.buffer, m.message),
            writer,
        });
    }

    /// Why a failed `EXPECT` holds once the held elements take the engine's values (the
    /// freedom of its first failing element), or `None` when it fails there too.
    fn held_by_freedoms(&self, e: &Expect, m: &Miss) -> Option<String> {
        if self.allowances.is_empty() {
            return None;
        }
        let reference = self.allowances.reference(&self.buffers);
        if check(self.script, &e.buffer, &e.kind, &reference).is_some() {
            return None;
        }
        let (freedom, held) = self.allowances.at(&m.buffer, m.byte.unwrap_or(0));
        Some(match freedom {
            Some(f) => format!(
                "there: {f}; {held} element(s) of '{}' held in all",
                m.buffer
            ),
            None => format!("elsewhere: {held} element(s) of '{}' held", m.buffer),
        })
    }

    /// The invocation that wrote a failing value, when writers are tracked.
    fn writer(&self, m: &Miss) -> Option<String> {
        let w = self.writers.as_ref()?;
        let byte = m.byte?;
        Some(
            match w
                .get(&m.buffer)
                .and_then(|v| v.get(byte).copied().flatten())
            {
                Some(inv) => format!("written by {inv}"),
                None => "no invocation wrote it (it holds its initial value)".to_string(),
            },
        )
    }

    fn module(&mut self, name: &str) -> Result<&LoadedModule, AmberError> {
        if !self.modules.contains_key(name) {
            let chosen = self.opts.target_env.as_deref();
            let asm_env = self.script.default_asm_env(chosen);
            let m = shader::load(&self.script.shaders[name], asm_env, chosen)?;
            self.modules.insert(name.to_string(), m);
        }
        Ok(&self.modules[name])
    }

    /// The window of a bound buffer: (start, end) in bytes.
    fn window(
        &self,
        b: &super::model::BoundBuffer,
        at: &Place,
    ) -> Result<(usize, usize), AmberError> {
        let len = self.buffers[&b.buffer].len() as u64;
        let end = match b.range {
            Some(r) => b.offset.checked_add(r),
            None => Some(len),
        };
        match end {
            Some(end) if b.offset <= end && end <= len => Ok((b.offset as usize, end as usize)),
            _ => Err(AmberError::run(
                at.clone(),
                format!(
                    "buffer '{}' ({len} bytes) has no bytes {}..{} to bind",
                    b.buffer,
                    b.offset,
                    end.map_or("?".to_string(), |e| e.to_string())
                ),
            )),
        }
    }

    fn run(&mut self, name: &str, groups: [u32; 3], at: &Place) -> Result<(), AmberError> {
        let p = &self.script.pipelines[name];
        let Some((shader_name, entry)) = p.shader.clone() else {
            return Err(AmberError::run(
                at.clone(),
                format!("pipeline '{name}' has no shader (ATTACH)"),
            ));
        };
        let mut bound: Vec<Slot> = Vec::new();
        for b in &p.binds {
            for (i, bb) in b.buffers.iter().enumerate() {
                let (s, e) = self.window(bb, &b.at)?;
                bound.push((
                    b.set,
                    b.binding,
                    b.array.then_some(i as u32),
                    bb.buffer.clone(),
                    s,
                    e,
                ));
            }
        }
        // The bytes each binding was given: only bytes a run changed are copied back, so that
        // one buffer bound several times (windows, uniform and storage) keeps every write.
        let inputs: Vec<Vec<u8>> = bound
            .iter()
            .map(|(_, _, _, buf, s, e)| self.buffers[buf][*s..*e].to_vec())
            .collect();
        let push = p.push.as_ref().map(|n| self.buffers[n].clone());
        let spec = p.spec.clone();
        let fail = |msg: String| AmberError::run(at.clone(), format!("RUN {name}: {msg}"));
        match self.target {
            Target::Engine(cfg) => {
                let cfg = cfg.clone();
                self.module(&shader_name)?;
                let module = &self.modules[&shader_name];
                let opts = CompileOptions {
                    spec_constants: spec,
                    ..CompileOptions::default()
                };
                let compiled = module
                    .compile(&entry, &opts)
                    .map_err(|e| fail(e.to_string()))?;
                unbound(compiled.bindings(), &bound, push.is_some()).map_err(fail)?;
                let mut res = resources(&bound, &inputs, push);
                let report = compiled
                    .run(&mut res, groups, &cfg)
                    .map_err(|e| fail(module.placed(e).to_string()))?;
                if let Some(ev) = report.events.first() {
                    let message = format!(
                        "{at}: RUN {name}: {} undefined-behaviour event{} (the documented result was used); the first: {ev}",
                        report.total_events,
                        if report.total_events == 1 { "" } else { "s" },
                    );
                    let placed = module.locate(Diagnostic::warning(message), ev.instruction);
                    self.notes.push(placed.render_body());
                }
                for (k, (set, binding, index, buf, s, e)) in bound.iter().enumerate() {
                    let out = match index {
                        Some(i) => res.buffer_element(*set, *binding, *i),
                        None => res.buffer(*set, *binding),
                    };
                    if let Some(out) = out {
                        let given = &inputs[k];
                        write_back(self.buffers.get_mut(buf), *s, given, out);
                    }
                    if let (Some(w), None) = (&mut self.writers, index) {
                        let len = self.buffers[buf].len();
                        let v = w.entry(buf.clone()).or_default();
                        if v.len() < len {
                            v.resize(len, None);
                        }
                        for (k, slot) in v[*s..*e].iter_mut().enumerate() {
                            if let Some(inv) = report.writer_of(*set, *binding, k) {
                                *slot = Some(inv);
                            }
                        }
                    }
                }
                Ok(())
            }
            Target::Device(runner) => {
                let runner: &VkRunner = runner;
                let module = self.module(&shader_name)?;
                // The engine's reflection, when it compiles the module, checks that every
                // buffer the shader uses is bound (spvx-vk would bind zeros instead).
                let opts = CompileOptions {
                    spec_constants: spec.clone(),
                    ..CompileOptions::default()
                };
                // A buffer bound where the module declares none is left out: the shader
                // cannot reach it (Amber binds it anyway), and spvx-vk refuses it.
                let mut declared: Option<Vec<(u32, u32)>> = None;
                if let Ok(c) = module.compile(&entry, &opts) {
                    unbound(c.bindings(), &bound, push.is_some()).map_err(fail)?;
                    declared = Some(c.bindings().iter().map(|b| (b.set, b.binding)).collect());
                }
                let reaches = |set: u32, binding: u32| {
                    declared
                        .as_ref()
                        .is_none_or(|d| d.contains(&(set, binding)))
                };
                let words = module.words();
                let push_given = push.clone();
                let mut run = VkRun {
                    words,
                    entry: Some(entry.clone()),
                    groups,
                    push,
                    spec,
                    ..VkRun::default()
                };
                for ((set, binding, index, _, _, _), given) in bound.iter().zip(&inputs) {
                    if !reaches(*set, *binding) {
                        continue;
                    }
                    let bytes = given.clone();
                    match index {
                        Some(i) if *i > 0 => run.elements.push(BufferElement {
                            set: *set,
                            binding: *binding,
                            index: *i,
                            bytes,
                        }),
                        _ => run.buffers.push(BufferData {
                            set: *set,
                            binding: *binding,
                            bytes,
                        }),
                    }
                }
                // A feature the device lacks (or spvx-vk cannot enable) skips the script by
                // name, as a `DEVICE_FEATURE` the device lacks would.
                let out = runner.run(&run).map_err(|e| match e {
                    spvx_vk::VkError::MissingFeature { .. }
                    | spvx_vk::VkError::UnknownCapability(_) => AmberError::Lacks {
                        at: at.clone(),
                        what: format!("RUN {name}: the device lacks what the module needs: {e}"),
                    },
                    other => fail(other.to_string()),
                })?;
                let device_bytes = |k: usize| -> Option<&Vec<u8>> {
                    let (set, binding, index, ..) = &bound[k];
                    match index {
                        Some(i) if *i > 0 => out
                            .elements
                            .iter()
                            .find(|x| (x.set, x.binding, x.index) == (*set, *binding, *i))
                            .map(|x| &x.bytes),
                        _ => out
                            .buffers
                            .iter()
                            .find(|x| (x.set, x.binding) == (*set, *binding))
                            .map(|x| &x.bytes),
                    }
                };
                for (k, (_, _, _, buf, s, _)) in bound.iter().enumerate() {
                    if let Some(bytes) = device_bytes(k) {
                        write_back(self.buffers.get_mut(buf), *s, &inputs[k], bytes);
                    }
                }
                if self.opts.literal {
                    return Ok(());
                }
                // The engine on the same bytes, and the specification's say on every element
                // where the device differs from it.
                let module = &self.modules[&shader_name];
                let types = module.buffer_elements();
                let source = JudgedRun {
                    module,
                    entry: &entry,
                    compile: opts,
                    groups,
                    element_types: &types,
                };
                let given = resources(&bound, &inputs, push_given);
                let cfg = RunConfig::default();
                // Where the engine cannot run the dispatch, nothing is held.
                let engine = source.run_module(module, &given, &cfg).ok();
                let windows: Vec<Window> = bound
                    .iter()
                    .enumerate()
                    .filter_map(|(k, (set, binding, index, buf, s, _))| {
                        let engine = engine.as_ref().and_then(|r| match index {
                            Some(i) => r.buffer_element(*set, *binding, *i),
                            None => r.buffer(*set, *binding),
                        });
                        Some(Window {
                            key: (*set, *binding, index.unwrap_or(0)),
                            buffer: buf,
                            start: *s,
                            given: &inputs[k],
                            device: device_bytes(k)?,
                            engine,
                        })
                    })
                    .collect();
                self.allowances
                    .record_run(&windows, &types, &mut || judge_of(&source, &given, &cfg));
                Ok(())
            }
        }
    }
}

/// Engine resources holding the bytes each binding is given, and the push constants.
fn resources(bound: &[Slot], inputs: &[Vec<u8>], push: Option<Vec<u8>>) -> Resources {
    let mut res = Resources::new();
    for ((set, binding, index, _, _, _), given) in bound.iter().zip(inputs) {
        let bytes = given.clone();
        match index {
            Some(i) => res.set_buffer_element(*set, *binding, *i, bytes),
            None => res.set_buffer(*set, *binding, bytes),
        }
    }
    if let Some(p) = push {
        res.push_constants = p;
    }
    res
}

/// Copies the bytes of `out` that differ from `given` into `dst` from byte `start`.
fn write_back(dst: Option<&mut Vec<u8>>, start: usize, given: &[u8], out: &[u8]) {
    let Some(dst) = dst else { return };
    for (k, (&o, &g)) in out.iter().zip(given).enumerate() {
        if o != g
            && let Some(d) = dst.get_mut(start + k)
        {
            *d = o;
        }
    }
}

/// A binding the shader uses that the pipeline does not bind, as a message.
fn unbound(used: &[spvx_exec::BindingInfo], bound: &[Slot], push: bool) -> Result<(), String> {
    use spvx_exec::BindingKind as K;
    for b in used {
        let missing = match b.kind {
            K::StorageBuffer | K::UniformBuffer => !bound
                .iter()
                .any(|(set, binding, ..)| (*set, *binding) == (b.set, b.binding)),
            K::PushConstant => !push,
            K::Tensor => true,
        };
        if missing {
            let what = match b.kind {
                K::PushConstant => "push constants (BIND BUFFER … AS push_constant)".to_string(),
                K::Tensor => format!(
                    "a tensor at set {} binding {} (tensors are not part of Amber)",
                    b.set, b.binding
                ),
                _ => format!(
                    "a buffer at DESCRIPTOR_SET {} BINDING {}{}",
                    b.set,
                    b.binding,
                    b.name
                        .as_ref()
                        .map_or(String::new(), |n| format!(" ('{n}')"))
                ),
            };
            return Err(format!(
                "the shader uses {what}, which the pipeline does not bind"
            ));
        }
    }
    Ok(())
}

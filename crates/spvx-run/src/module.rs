//! Reading the module to run (binary, detected by the SPIR-V magic number, or assembly text),
//! choosing its entry point, compiling it with spvx-exec, and saying where an instruction is
//! (line:column of the text, or word offset of the binary) in messages, as
//! [`Diagnostic`]s.

use crate::ElemType;
use crate::diagnostic::{Diagnostic, InstructionPlaces, Place, ToDiagnostics};
use spvx_exec::{CompileOptions, CompiledModule, ExecError};
use spvx_spirv::asm::{AsmOptions, assemble};
use spvx_spirv::binary::{BinaryError, Header, MAGIC, read_bytes, read_words, to_words};
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// ExecutionModel Kernel.
pub const KERNEL: u32 = 6;

/// A module read from a file, indexed once: the entry points are read from the index, and
/// compiling validates that same index.
pub struct LoadedModule {
    /// The name used in messages.
    pub name: String,
    index: ModuleIndex,
    places: InstructionPlaces,
}

/// One entry point of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPoint {
    pub name: String,
    pub model: u32,
}

/// Why the module cannot be read, or has no such entry point.
#[derive(Debug, thiserror::Error)]
pub enum ModuleError {
    #[error("cannot read {name}: {source}")]
    Read {
        name: String,
        #[source]
        source: std::io::Error,
    },
    /// A binary that does not decode (for text: the words of the text, assembled).
    #[error("{}", Diagnostic::binary(.name, .source).render_body())]
    Binary {
        name: String,
        #[source]
        source: BinaryError,
    },
    #[error(
        "{name} is neither a SPIR-V binary (no magic number) nor UTF-8 text (byte {valid_up_to})"
    )]
    NotText { name: String, valid_up_to: usize },
    #[error("{name} is {what} source, not a SPIR-V module; compile it first: {how}")]
    Source {
        name: String,
        what: &'static str,
        how: String,
    },
    /// Text that does not assemble: the assembler's error at its place.
    #[error("{}", .0.render_body())]
    Assemble(Box<Diagnostic>),
    #[error("{name}: no entry point named '{want}' (the module has: {names})")]
    NoEntryNamed {
        name: String,
        want: String,
        names: String,
    },
    #[error("{name}: the module has no entry point")]
    NoEntry { name: String },
    #[error("{name}: the module has several entry points ({names}); choose one with --entry")]
    SeveralEntries { name: String, names: String },
}

impl ToDiagnostics for ModuleError {
    fn diagnostics(&self) -> Vec<Diagnostic> {
        vec![match self {
            ModuleError::Binary { name, source } => Diagnostic::binary(name, source),
            ModuleError::Assemble(d) => d.as_ref().clone(),
            other => Diagnostic::error(other.to_string()),
        }]
    }
}

/// An engine error (compiling or running) as diagnostics: the error at the place of the
/// instruction it names, if any; for an invalid module, its next nine validation errors
/// follow, each at its own place.
#[derive(Debug)]
pub struct PlacedExecError {
    pub error: Box<ExecError>,
    /// The error's diagnostic first, then those of the further validation errors.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for PlacedExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut all = self.diagnostics.iter();
        match all.next() {
            Some(first) => f.write_str(&first.render_body())?,
            None => write!(f, "{}", self.error)?,
        }
        for d in all {
            write!(f, "\n{d}")?;
        }
        Ok(())
    }
}

impl ToDiagnostics for PlacedExecError {
    fn diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics.clone()
    }
}

impl std::error::Error for PlacedExecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.error.as_ref())
    }
}

impl LoadedModule {
    /// Reads `path`: a binary module (either byte order) or spirv-as text.
    pub fn read(path: &Path) -> Result<LoadedModule, ModuleError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| ModuleError::Read {
            name: name.clone(),
            source,
        })?;
        if !is_binary(&bytes)
            && let Some((what, how)) = shading_language(path)
        {
            return Err(ModuleError::Source { name, what, how });
        }
        LoadedModule::from_bytes(name, &bytes, &AsmOptions::default())
    }

    /// A module from memory, called `name` in messages: a binary module (either byte order) or
    /// spirv-as text, assembled with `asm`.
    pub fn from_bytes(
        name: String,
        bytes: &[u8],
        asm: &AsmOptions,
    ) -> Result<LoadedModule, ModuleError> {
        if is_binary(bytes) {
            let m = read_bytes(bytes).map_err(|source| ModuleError::Binary {
                name: name.clone(),
                source,
            })?;
            return Ok(LoadedModule {
                places: InstructionPlaces::words(&name, m.offsets),
                name,
                index: ModuleIndex::build(&m.header, m.instructions),
            });
        }
        let text = std::str::from_utf8(bytes).map_err(|e| ModuleError::NotText {
            name: name.clone(),
            valid_up_to: e.valid_up_to(),
        })?;
        let asm = assemble(text, asm)
            .map_err(|e| ModuleError::Assemble(Box::new(Diagnostic::assembler(&name, text, &e))))?;
        let instructions = if asm.has_raw() {
            read_words(&asm.words())
                .map_err(|source| ModuleError::Binary {
                    name: name.clone(),
                    source,
                })?
                .instructions
        } else {
            asm.instructions().cloned().collect()
        };
        Ok(LoadedModule {
            places: InstructionPlaces::text(&name, text, asm.locations.clone()),
            name,
            index: ModuleIndex::build(&asm.header, instructions),
        })
    }

    /// The module index.
    pub fn index(&self) -> &ModuleIndex {
        &self.index
    }

    /// The module's header.
    pub fn header(&self) -> &Header {
        &self.index.header
    }

    /// The module's instructions, in file order.
    pub fn instructions(&self) -> &[Instruction] {
        &self.index.insts
    }

    /// The module's entry points, in module order.
    pub fn entry_points(&self) -> Vec<EntryPoint> {
        self.index
            .entry_point_list()
            .into_iter()
            .map(|e| EntryPoint {
                name: e.name.to_string(),
                model: e.model,
            })
            .collect()
    }

    /// The entry point to run: `requested`, else the only one, else the one named `main`.
    pub fn choose_entry(&self, requested: Option<&str>) -> Result<EntryPoint, ModuleError> {
        let all = self.entry_points();
        let names = || {
            all.iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(want) = requested {
            return all.iter().find(|e| e.name == want).cloned().ok_or_else(|| {
                ModuleError::NoEntryNamed {
                    name: self.name.clone(),
                    want: want.to_string(),
                    names: names(),
                }
            });
        }
        match all.as_slice() {
            [] => Err(ModuleError::NoEntry {
                name: self.name.clone(),
            }),
            [only] => Ok(only.clone()),
            _ => all
                .iter()
                .find(|e| e.name == "main")
                .cloned()
                .ok_or_else(|| ModuleError::SeveralEntries {
                    name: self.name.clone(),
                    names: names(),
                }),
        }
    }

    /// Compiles `entry` with spvx-exec.
    pub fn compile(
        &self,
        entry: &str,
        opts: &CompileOptions,
    ) -> Result<CompiledModule, PlacedExecError> {
        let compiled = if opts.validate {
            spvx_val::validate_index(self.index.clone(), &opts.validation)
                .map_err(ExecError::Invalid)
                .and_then(|valid| CompiledModule::from_validated(&valid, entry, opts))
        } else {
            CompiledModule::from_instructions(self.header(), self.instructions(), entry, opts)
        };
        compiled.map_err(|e| self.placed(e))
    }

    /// Validates the module under `opts`, as `spvx val` does: each error a diagnostic at the
    /// place of its instruction, an error of the module as a whole at the file.
    pub fn validate(
        &self,
        opts: &spvx_val::Options,
    ) -> Result<spvx_val::Validated, Vec<Diagnostic>> {
        spvx_val::validate_index(self.index.clone(), opts).map_err(|errors| {
            errors
                .iter()
                .map(|e| {
                    let d = Diagnostic::error(e.to_string());
                    // The place alone, as `spvx val` prints it.
                    let d = match e.index {
                        Some(i) => self.places.locate(d, i, self.header(), self.instructions()),
                        None => d,
                    };
                    match d.place {
                        Some(_) => d,
                        None => d.at(Place::File {
                            file: self.places.file().to_string(),
                        }),
                    }
                })
                .collect()
        })
    }

    /// The element type of each buffer binding (set, binding) that has one in the module
    /// ([`crate::element`]).
    pub fn buffer_elements(&self) -> BTreeMap<(u32, u32), ElemType> {
        crate::element::buffer_elements(&self.index)
    }

    /// The block layout of each buffer binding ([`crate::layout`]).
    pub fn buffer_layouts(&self) -> BTreeMap<(u32, u32), crate::layout::TypeLayout> {
        crate::layout::buffer_layouts(&self.index)
    }

    /// The (set, binding) of every resource variable the module declares.
    pub fn resource_bindings(&self) -> Vec<(u32, u32)> {
        self.index
            .resource_variables()
            .iter()
            .map(|v| (v.set, v.binding))
            .collect()
    }

    /// The module's words.
    pub fn words(&self) -> Vec<u32> {
        to_words(self.header(), self.instructions())
    }

    /// An engine error as diagnostics: at the place of the instruction it names, if any; an
    /// invalid module's next nine validation errors follow, each at its place.
    pub fn placed(&self, error: ExecError) -> PlacedExecError {
        use spvx_exec::ExecError as E;
        let index = match &error {
            E::Unsupported { instruction, .. }
            | E::Compile { instruction, .. }
            | E::BarrierDeadlock { instruction, .. } => Some(*instruction),
            E::Undefined(ev) => Some(ev.instruction),
            E::Invalid(errors) => errors.first().and_then(|v| v.index).map(|i| i as u32),
            _ => None,
        };
        let first = Diagnostic::error(error.to_string());
        let mut diagnostics = vec![match index {
            Some(i) => self.locate(first, i),
            None => first,
        }];
        if let E::Invalid(errors) = &error {
            for v in errors.iter().skip(1).take(9) {
                let d = Diagnostic::error(v.to_string());
                diagnostics.push(match v.index {
                    Some(i) => self.locate(d, i as u32),
                    None => d,
                });
            }
        }
        PlacedExecError {
            error: Box::new(error),
            diagnostics,
        }
    }

    /// Where instruction `index` is: line, column and source line (text), or word offset
    /// (binary); `None` for an index the module does not have.
    pub fn place(&self, index: u32) -> Option<Place> {
        self.places.place(index as usize)
    }

    /// `d` placed at instruction `index` (a binary's instruction shown as a note), with the
    /// binding its pointer reaches and its source place (OpLine/DebugLine, and the source line
    /// when the module embeds the text) as notes; unchanged for an index the module does not
    /// have.
    pub fn locate(&self, d: Diagnostic, index: u32) -> Diagnostic {
        let d = self
            .places
            .locate(d, index as usize, self.header(), self.instructions());
        let d = match self.binding_of(index as usize) {
            Some(b) => d.note("binding", b),
            None => d,
        };
        let Some(loc) = self.index.source_location(index as usize) else {
            return d;
        };
        let d = d.note("source", loc.to_string());
        match self.index.source_line(&loc) {
            Some(line) => d.note("source line", line.trim_end().to_string()),
            None => d,
        }
    }

    /// The resource an instruction's pointer operand reaches (through access chains and
    /// copies): `SET.BINDING 'name'`, for reports of memory events.
    fn binding_of(&self, index: usize) -> Option<String> {
        let ix = &self.index;
        let inst = ix.insts.get(index)?;
        let resources = ix.resource_variables();
        inst.operands
            .iter()
            .filter_map(|o| o.id())
            .find_map(|mut id| {
                for _ in 0..64 {
                    let def = ix.def_inst(id)?;
                    match def.opcode {
                        Op::AccessChain
                        | Op::InBoundsAccessChain
                        | Op::PtrAccessChain
                        | Op::InBoundsPtrAccessChain
                        | Op::CopyObject => id = def.operands.first()?.id()?,
                        Op::Variable => {
                            let r = resources.iter().find(|r| r.variable == id)?;
                            let name = match r.name {
                                Some(n) if !n.is_empty() => format!(" '{n}'"),
                                _ => String::new(),
                            };
                            return Some(format!("{}.{}{name}", r.set, r.binding));
                        }
                        _ => return None,
                    }
                }
                None
            })
    }
}

/// For a file named like shader or kernel source (not SPIR-V assembly): what it is and the
/// command that compiles it.
fn shading_language(path: &Path) -> Option<(&'static str, String)> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    let file = path.display();
    let stem = path.with_extension("spv");
    let out = stem.display();
    match ext.as_str() {
        "comp" | "glsl" | "vert" | "frag" | "geom" | "tesc" | "tese" | "mesh" | "task" => Some((
            "GLSL",
            format!("glslangValidator -V --target-env vulkan1.3 {file} -o {out}"),
        )),
        "hlsl" => Some((
            "HLSL",
            format!("dxc -spirv -T cs_6_0 -E main {file} -Fo {out}"),
        )),
        "cl" => Some((
            "OpenCL C",
            format!(
                "clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header -no-opaque-pointers -O2 -emit-llvm-bc {file} -o kernel.bc && llvm-spirv-15 kernel.bc -o {out}"
            ),
        )),
        _ => None,
    }
}

/// True when the input starts with the SPIR-V magic number in either byte order.
fn is_binary(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && {
        let w = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        w == MAGIC || w == MAGIC.swap_bytes()
    }
}

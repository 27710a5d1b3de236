//! Checking a plan's bindings against the entry point's: every binding it uses has data, data
//! for a binding it does not use is a warning (an error with `--strict-bindings`), nothing is
//! given twice, tensors are given as tensors,
//! push constants are given exactly when there is a push-constant block.

use crate::inputs::Warning;
use crate::plan::RunPlan;
use spvx_exec::{BindingInfo, BindingKind};
use std::collections::BTreeMap;
use std::fmt;

/// `[INDEX]` after SET.BINDING when naming an element of an array of buffers, else nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementSuffix(pub Option<u32>);

impl ElementSuffix {
    /// The suffix of element `index`, shown when `shown`.
    pub fn new(index: u32, shown: bool) -> ElementSuffix {
        ElementSuffix(shown.then_some(index))
    }
}

impl fmt::Display for ElementSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(i) => write!(f, "[{i}]"),
            None => Ok(()),
        }
    }
}

/// ` 'name'` after a binding when it has a name, else nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named(pub Option<String>);

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // glslang names an anonymous block instance "": that is no name.
        match &self.0 {
            Some(n) if !n.is_empty() => write!(f, " '{n}'"),
            _ => Ok(()),
        }
    }
}

/// A plan whose bindings do not fit the entry point's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BindingError {
    #[error("{origin}: binding {set}.{binding}{element} is already given ({first})")]
    GivenTwice {
        origin: String,
        set: u32,
        binding: u32,
        element: ElementSuffix,
        first: String,
    },
    #[error(
        "{module}: binding {set}.{binding} is a tensor; give it with --tensor {set}.{binding}=FILE.npy or a [[tensor]] entry"
    )]
    TensorAsBuffer {
        module: String,
        set: u32,
        binding: u32,
    },
    #[error("{origin}: the entry point uses no tensor at binding {set}.{binding}{element}")]
    NoSuchTensor {
        origin: String,
        set: u32,
        binding: u32,
        element: ElementSuffix,
    },
    #[error(
        "{module}: tensor binding {set}.{binding}{element}{name} (rank {rank}) has no data; give --tensor {set}.{binding}{element}=FILE.npy or a [[tensor]] entry in the run file"
    )]
    TensorMissing {
        module: String,
        set: u32,
        binding: u32,
        element: ElementSuffix,
        name: Named,
        rank: u32,
    },
    #[error(
        "{module}: binding {set}.{binding}{element}{name} ({what}) has no data; give --buffer {set}.{binding}{element}=SOURCE (a file, or zeros:BYTES) or a [[buffer]] entry in the run file"
    )]
    BufferMissing {
        module: String,
        set: u32,
        binding: u32,
        element: ElementSuffix,
        name: Named,
        /// `storage buffer of 16 + 4·n bytes`.
        what: String,
    },
    #[error(
        "{origin}: the entry point uses no buffer at binding {set}.{binding}{element} (it uses: {used})"
    )]
    NoSuchBuffer {
        origin: String,
        set: u32,
        binding: u32,
        element: ElementSuffix,
        /// The buffers it uses, or `none`.
        used: String,
    },
    #[error(
        "{origin}: '{entry}' is not a Kernel entry point; it takes descriptor bindings (--buffer), not arguments"
    )]
    ArgsForShader { origin: String, entry: String },
    #[error(
        "{module}: --local is for Kernel entry points; '{entry}' has its workgroup size in the module"
    )]
    LocalForShader { module: String, entry: String },
    #[error(
        "{module}: the entry point reads push constants; give them with --push FILE or `push = ...` in the run file"
    )]
    PushMissing { module: String },
    #[error("{module}: push constants were given but the entry point has no push-constant block")]
    PushUnused { module: String },
    /// More than one binding without data: each is listed, with what to give.
    #[error("{module}: {} bindings have no data:{}", missing.len(), list(missing))]
    SeveralMissing {
        module: String,
        missing: Vec<BindingError>,
    },
}

/// One line per missing binding, without the repeated module name.
fn list(missing: &[BindingError]) -> String {
    missing
        .iter()
        .map(|e| {
            let line = e.to_string();
            let line = match e {
                BindingError::TensorMissing { module, .. }
                | BindingError::BufferMissing { module, .. }
                | BindingError::PushMissing { module } => line
                    .strip_prefix(&format!("{module}: "))
                    .map(str::to_string)
                    .unwrap_or(line),
                _ => line,
            };
            format!("\n  {line}")
        })
        .collect()
}

impl RunPlan {
    /// Every binding the entry point uses has data, and no data names a binding it does not
    /// use: a buffer for a binding it does not use is a warning (`warn`), an error under
    /// [`RunPlan::strict_bindings`].
    pub fn check_bindings(
        &self,
        bindings: &[BindingInfo],
        module: &str,
        warn: &mut dyn FnMut(Warning),
    ) -> Result<(), BindingError> {
        let mut seen = BTreeMap::new();
        for b in &self.buffers {
            if let Some(first) = seen.insert((b.set, b.binding, b.index.unwrap_or(0)), &b.origin) {
                return Err(BindingError::GivenTwice {
                    origin: b.origin.clone(),
                    set: b.set,
                    binding: b.binding,
                    element: ElementSuffix::new(b.index.unwrap_or(0), b.index.is_some()),
                    first: first.clone(),
                });
            }
        }
        for t in &self.tensors {
            let origin = format!("{} (tensor)", t.origin);
            let index = t.index.unwrap_or(0);
            if let Some(first) = seen.insert((t.set, t.binding, index), &t.origin) {
                return Err(BindingError::GivenTwice {
                    origin,
                    set: t.set,
                    binding: t.binding,
                    element: ElementSuffix::new(index, t.index.is_some()),
                    first: first.clone(),
                });
            }
        }
        for info in bindings.iter().filter(|i| i.kind == BindingKind::Tensor) {
            if self
                .buffers
                .iter()
                .any(|b| (b.set, b.binding) == (info.set, info.binding))
            {
                return Err(BindingError::TensorAsBuffer {
                    module: module.to_string(),
                    set: info.set,
                    binding: info.binding,
                });
            }
        }
        for t in &self.tensors {
            let index = t.index.unwrap_or(0);
            // (A runtime-sized array, `count` 0, takes any element.)
            let is_tensor = bindings.iter().any(|i| {
                i.kind == BindingKind::Tensor
                    && (i.set, i.binding) == (t.set, t.binding)
                    && (i.count == 0 || i.element_index() == index)
            });
            if !is_tensor {
                return Err(BindingError::NoSuchTensor {
                    origin: t.origin.clone(),
                    set: t.set,
                    binding: t.binding,
                    element: ElementSuffix::new(index, t.index.is_some()),
                });
            }
        }
        let used: Vec<&BindingInfo> = bindings
            .iter()
            .filter(|i| {
                matches!(
                    i.kind,
                    BindingKind::StorageBuffer | BindingKind::UniformBuffer
                )
            })
            .collect();
        // Every binding without data is reported at once.
        let mut missing: Vec<BindingError> = Vec::new();
        for info in bindings.iter().filter(|i| i.kind == BindingKind::Tensor) {
            if !seen.contains_key(&(info.set, info.binding, info.element_index())) {
                missing.push(BindingError::TensorMissing {
                    module: module.to_string(),
                    set: info.set,
                    binding: info.binding,
                    element: ElementSuffix::new(info.element_index(), info.element.is_some()),
                    name: Named(info.name.clone()),
                    rank: info.tensor.map_or(0, |t| t.rank),
                });
            }
        }
        for info in &used {
            if !seen.contains_key(&(info.set, info.binding, info.element_index())) {
                missing.push(BindingError::BufferMissing {
                    module: module.to_string(),
                    set: info.set,
                    binding: info.binding,
                    element: ElementSuffix::new(info.element_index(), info.element.is_some()),
                    name: Named(info.name.clone()),
                    what: describe(info),
                });
            }
        }
        for b in &self.buffers {
            if !used.iter().any(|i| {
                i.set == b.set
                    && i.binding == b.binding
                    && (i.count == 0 || i.element_index() == b.index.unwrap_or(0))
            }) {
                let list: Vec<String> = used
                    .iter()
                    .map(|i| {
                        let e = ElementSuffix::new(i.element_index(), i.element.is_some());
                        format!("{}.{}{e}", i.set, i.binding)
                    })
                    .collect();
                let used_list = if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(", ")
                };
                let element = ElementSuffix::new(b.index.unwrap_or(0), b.index.is_some());
                // An element past the end of an array of buffers the entry point uses is
                // always an error; a binding it does not use at all is a warning (Vulkan and
                // Amber bind such buffers routinely) unless the bindings are strict.
                let binding_used = used
                    .iter()
                    .any(|i| (i.set, i.binding) == (b.set, b.binding));
                if binding_used || self.strict_bindings {
                    return Err(BindingError::NoSuchBuffer {
                        origin: b.origin.clone(),
                        set: b.set,
                        binding: b.binding,
                        element,
                        used: used_list,
                    });
                }
                warn(Warning::UnusedBuffer {
                    origin: b.origin.clone(),
                    set: b.set,
                    binding: b.binding,
                    element,
                    used: used_list,
                });
            }
        }
        let wants_push = bindings.iter().any(|i| i.kind == BindingKind::PushConstant);
        let module = module.to_string();
        match (wants_push, &self.push) {
            (true, None) => missing.push(BindingError::PushMissing {
                module: module.clone(),
            }),
            (false, Some(_)) => return Err(BindingError::PushUnused { module }),
            _ => {}
        }
        match missing.len() {
            0 => Ok(()),
            1 => Err(missing.remove(0)),
            _ => Err(BindingError::SeveralMissing { module, missing }),
        }
    }
}

/// `storage buffer of 16 + 4·n bytes`.
fn describe(info: &BindingInfo) -> String {
    let kind = match info.kind {
        BindingKind::StorageBuffer => "storage buffer",
        BindingKind::UniformBuffer => "uniform buffer",
        BindingKind::PushConstant => "push constants",
        BindingKind::Tensor => "tensor",
    };
    match info.runtime_stride {
        Some(s) if info.static_size == 0 => format!("{kind} of {s}·n bytes"),
        Some(s) => format!("{kind} of {} + {s}·n bytes", info.static_size),
        None => format!("{kind} of {} bytes", info.static_size),
    }
}

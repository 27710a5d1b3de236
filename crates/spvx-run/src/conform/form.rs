//! A form: one instruction at one set of types, as a module in which invocation `i` reads
//! element `i` of each input binding (`per_invocation` elements each) and writes element `i`
//! of the output binding. The module is spirv-as text for spvx's assembler (header SPIR-V
//! 1.6), one GLCompute entry point `main` with local size [`LOCAL`].

use super::ext::Ext;
use super::fixed::FixedForm;
use super::intdot::IntDotForm;
use super::mixdot::MixDotForm;
use super::smma::SmmaForm;
use super::tensors::TensorForm;
use crate::ElemType;

/// Invocations per chunk: the unit of generation, of sharding and of export.
pub const CHUNK: u32 = 4096;

/// The local size of every form's entry point (x; y = z = 1); chunks are whole workgroups.
pub const LOCAL: u32 = 64;

/// One binding of a form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub binding: u32,
    /// What it holds, for people (`a`, `b`, `acc`, `out`).
    pub name: &'static str,
    /// The element type of the binding's array (its bits are what is compared).
    pub elem: ElemType,
    /// Elements per invocation.
    pub per_invocation: usize,
}

/// What the form is, for generating its inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    IntDot(IntDotForm),
    MixDot(MixDotForm),
    Fixed(FixedForm),
    Smma(SmmaForm),
    Tensors(TensorForm),
}

/// One form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// A stable name, `intdot/OpSDotAccSat/s8x4/s8x4/s32`: the seed of its inputs and the
    /// key reports are merged on.
    pub id: String,
    pub ext: Ext,
    /// The module's text.
    pub asm: String,
    /// The input bindings, in binding order.
    pub inputs: Vec<Port>,
    /// The output binding (the last).
    pub output: Port,
    pub kind: Kind,
}

impl Form {
    /// The id as a file name: characters other than letters, digits, `.`, `-` and `_`
    /// become `_`.
    pub fn file_stem(&self) -> String {
        self.id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    }

    /// The subgroup size the module needs (the engine runs with it, a device must give it).
    pub fn subgroup_size(&self) -> Option<u32> {
        match &self.kind {
            Kind::Smma(f) => Some(f.n),
            _ => None,
        }
    }

    /// Every binding, inputs then output.
    pub fn ports(&self) -> impl Iterator<Item = &Port> {
        self.inputs.iter().chain(std::iter::once(&self.output))
    }
}

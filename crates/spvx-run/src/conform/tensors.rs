//! SPV_ARM_tensors' forms: which are enumerated, their ids and ports, and the tensors each
//! binds (shape, byte strides) — the module text is [`module`], the inputs [`inputs`].
//!
//! A form is one access (OpTensorReadARM, OpTensorWriteARM followed by a read back at the same
//! coordinates, or OpTensorQuerySizeARM of every dimension) at one element type, rank,
//! coordinate type, access length (one element or an array of [`ARRAY_ACCESS`]), set of tensor
//! operands and binding (a single storage tensor, an array of [`ARRAY_TENSORS`] tensors indexed
//! per invocation, or a shaped tensor type). The enumeration and the reasons for its bounds are
//! in docs/semantics/conform.md ("SPV_ARM_tensors").
//!
//! Race freedom: the invocations of a read form share the tensor; each invocation of a write
//! form owns a part of it (rank ≥ 2: the outermost index equal to its invocation index; rank
//! 1: a slot of [`slot`] elements), and its coordinates never reach another invocation's part
//! in bounds, so the read back sees its own write and nothing else.

pub mod inputs;
pub mod judge;
pub mod module;

use super::ext::Ext;
use super::form::{Form, Kind, Port};
use super::inputs::fnv1a64;
use crate::ElemType;
use crate::prng::SplitMix64;

/// Tensor Operands bits (SPV_ARM_tensors, "Tensor Operands").
pub mod ops {
    pub const NONTEMPORAL: u32 = 0x1;
    pub const OUT_OF_BOUNDS_VALUE: u32 = 0x2;
    pub const MAKE_ELEMENT_AVAILABLE: u32 = 0x4;
    pub const MAKE_ELEMENT_VISIBLE: u32 = 0x8;
    pub const NON_PRIVATE_ELEMENT: u32 = 0x10;
}

/// The tensors of an array of tensors.
pub const ARRAY_TENSORS: u32 = 3;
/// The length of an array access (one element past the end straddles, two reach further).
pub const ARRAY_ACCESS: u32 = 3;

/// The operand sets of reads: none, Nontemporal, OutOfBoundsValue, both, the memory-model
/// pair (NonPrivateElement with MakeElementVisible), and all of them.
pub const READ_OPERANDS: [u32; 6] = [
    0,
    ops::NONTEMPORAL,
    ops::OUT_OF_BOUNDS_VALUE,
    ops::NONTEMPORAL | ops::OUT_OF_BOUNDS_VALUE,
    ops::NON_PRIVATE_ELEMENT | ops::MAKE_ELEMENT_VISIBLE,
    ops::NONTEMPORAL
        | ops::OUT_OF_BOUNDS_VALUE
        | ops::NON_PRIVATE_ELEMENT
        | ops::MAKE_ELEMENT_VISIBLE,
];

/// The operand sets of writes: none, Nontemporal, the memory-model pair (NonPrivateElement
/// with MakeElementAvailable), and all of them.
pub const WRITE_OPERANDS: [u32; 4] = [
    0,
    ops::NONTEMPORAL,
    ops::NON_PRIVATE_ELEMENT | ops::MAKE_ELEMENT_AVAILABLE,
    ops::NONTEMPORAL | ops::NON_PRIVATE_ELEMENT | ops::MAKE_ELEMENT_AVAILABLE,
];

/// The element types of the tensors: every one VK_ARM_tensors maps to a format spvx-vk
/// creates (reference/tensors.md §2c); `None` is OpTypeBool (`R8_BOOL_ARM`, one byte).
pub const ELEMENTS: [Option<ElemType>; 12] = [
    Some(ElemType::I8),
    Some(ElemType::U8),
    Some(ElemType::I16),
    Some(ElemType::U16),
    Some(ElemType::I32),
    Some(ElemType::U32),
    Some(ElemType::I64),
    Some(ElemType::U64),
    Some(ElemType::F16),
    Some(ElemType::F32),
    Some(ElemType::F64),
    None,
];

/// The integer types of coordinates and of size queries.
pub const INTS: [ElemType; 8] = [
    ElemType::I8,
    ElemType::U8,
    ElemType::I16,
    ElemType::U16,
    ElemType::I32,
    ElemType::U32,
    ElemType::I64,
    ElemType::U64,
];

/// What a form does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// OpTensorReadARM into the output.
    Read,
    /// OpTensorWriteARM of the `val` input, then OpTensorReadARM at the same coordinates into
    /// the output.
    Write,
    /// OpTensorQuerySizeARM of every dimension into the output.
    Size,
}

/// How the tensor is declared and bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// One storage tensor of a ranked type.
    Single,
    /// An array of [`ARRAY_TENSORS`] storage tensors at one binding, each its own shape, the
    /// element chosen per invocation (the `index` input; non-uniform indexing).
    Array,
    /// One storage tensor whose type has a Shape (the bound tensor has it).
    Shaped,
}

/// One tensor form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorForm {
    pub access: Access,
    /// The Element Type (`None`: OpTypeBool).
    pub elem: Option<ElemType>,
    pub rank: u32,
    /// The coordinates' component type (reads and writes) or the size query's Result Type.
    pub int: ElemType,
    /// 0: one element; otherwise an array access of this many elements.
    pub len: u32,
    /// The Tensor Operands of the access (of the write, for write forms).
    pub operands: u32,
    pub binding: Binding,
    /// Byte strides with one element of padding after every row of every outer dimension.
    pub strided: bool,
    /// The dimensions of a read or size form's tensor (outermost first), and the inner
    /// dimensions of a write form's (its outermost is set per chunk: [`TensorForm::shape`]).
    pub dims: Vec<u64>,
}

/// One tensor a unit binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    pub binding: u32,
    /// The element of an array of tensors (0 for a single tensor).
    pub index: u32,
    pub shape: Vec<u64>,
    /// Byte strides (`None`: packed).
    pub strides: Option<Vec<u64>>,
    /// Bytes the data needs.
    pub bytes: usize,
}

/// The name of an element type in ids and messages.
pub fn elem_name(e: Option<ElemType>) -> &'static str {
    e.map_or("bool", ElemType::name)
}

/// The element type of the buffers that carry tensor elements: the type itself (floats as
/// their bits), booleans as 32-bit words (0 or 1 out; non-zero is true in).
pub fn storage(e: Option<ElemType>) -> ElemType {
    e.unwrap_or(ElemType::U32)
}

/// Bytes per tensor element (booleans: 1, as `VK_FORMAT_R8_BOOL_ARM`).
pub fn elem_bytes(e: Option<ElemType>) -> u64 {
    e.map_or(1, |t| t.size() as u64)
}

fn operand_name(mask: u32) -> String {
    let names = [
        (ops::NONTEMPORAL, "nt"),
        (ops::OUT_OF_BOUNDS_VALUE, "oob"),
        (ops::NON_PRIVATE_ELEMENT, "np"),
        (ops::MAKE_ELEMENT_AVAILABLE, "avail"),
        (ops::MAKE_ELEMENT_VISIBLE, "vis"),
    ];
    let v: Vec<&str> = names
        .iter()
        .filter(|(b, _)| mask & b != 0)
        .map(|(_, n)| *n)
        .collect();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join("+")
    }
}

impl TensorForm {
    /// The id: `tensors/ACCESS/BINDING/ELEM/rRANK/INT/LEN/OPERANDS/LAYOUT`, e.g.
    /// `tensors/read/single/i32/r3/ci32/x3/oob+nt/strided` (`x1`: one element; `INT` is
    /// `cT` for coordinates, `sT` for a size query's Result Type).
    pub fn id(&self) -> String {
        let access = match self.access {
            Access::Read => "read",
            Access::Write => "write",
            Access::Size => "size",
        };
        let binding = match self.binding {
            Binding::Single => "single",
            Binding::Array => "array",
            Binding::Shaped => "shaped",
        };
        let int = match self.access {
            Access::Size => format!("s{}", self.int.name()),
            _ => format!("c{}", self.int.name()),
        };
        let layout = if self.strided { "strided" } else { "packed" };
        match self.access {
            Access::Size => format!(
                "tensors/{access}/{binding}/{}/r{}/{int}/{layout}",
                elem_name(self.elem),
                self.rank
            ),
            _ => format!(
                "tensors/{access}/{binding}/{}/r{}/{int}/x{}/{}/{layout}",
                elem_name(self.elem),
                self.rank,
                self.len.max(1),
                operand_name(self.operands)
            ),
        }
    }

    /// Elements per access (1 for a scalar access).
    pub fn per_access(&self) -> usize {
        self.len.max(1) as usize
    }

    /// The slot of a rank-1 write form: the elements each invocation owns.
    pub fn slot(&self) -> u64 {
        slot(self.len)
    }

    /// The shape of tensor `index` for a unit of `count` invocations.
    pub fn shape(&self, index: u32, count: u32) -> Vec<u64> {
        let k = u64::from(index);
        let r = self.rank as usize;
        let mut s = self.dims.clone();
        if self.access == Access::Write {
            if r == 1 {
                s[0] = u64::from(count) * self.slot();
            } else {
                s[0] = u64::from(count);
            }
            // Elements of an array differ in their innermost dimension.
            s[r - 1] += k;
        } else {
            s[0] += k;
            if r > 1 {
                s[r - 1] += k;
            }
        }
        s
    }

    /// The tensors a unit of `count` invocations binds, in the order of their data in the
    /// unit's inputs (after the ports' bytes).
    pub fn bound(&self, binding: u32, count: u32) -> Vec<Bound> {
        let n = if self.binding == Binding::Array {
            ARRAY_TENSORS
        } else {
            1
        };
        (0..n)
            .map(|index| {
                let shape = self.shape(index, count);
                let e = elem_bytes(self.elem);
                let strides = self.strided.then(|| padded_strides(&shape, e));
                let st = strides.clone().unwrap_or_else(|| packed_strides(&shape, e));
                let bytes = shape.iter().zip(&st).map(|(d, s)| (d - 1) * s).sum::<u64>() + e;
                Bound {
                    binding,
                    index,
                    shape,
                    strides,
                    bytes: bytes as usize,
                }
            })
            .collect()
    }

    /// Why a Vulkan device cannot run this form, when that is known before the run: Vulkan
    /// forbids shaped tensor types in shader stages (VUID-RuntimeSpirv-OpTypeTensorARM-09902).
    /// (Arrays of tensors are bound; a device without the indexing feature their modules
    /// declare is named by spvx-vk's capability check.)
    pub fn device_refusal(&self) -> Option<String> {
        match self.binding {
            Binding::Single => None,
            Binding::Shaped => Some(
                "a shaped OpTypeTensorARM in a shader stage (Vulkan forbids it: VUID-RuntimeSpirv-OpTypeTensorARM-09902; the form checks the engine only)"
                    .to_string(),
            ),
            Binding::Array => None,
        }
    }
}

/// The elements each invocation of a rank-1 write form owns: the access and two more, so
/// that an access may start inside the slot at more than one place.
pub fn slot(len: u32) -> u64 {
    u64::from(len.max(1)) + 2
}

/// Packed byte strides (innermost = the element size).
pub fn packed_strides(shape: &[u64], e: u64) -> Vec<u64> {
    let mut s = vec![e; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// Byte strides with one element of padding after each row of every outer dimension.
pub fn padded_strides(shape: &[u64], e: u64) -> Vec<u64> {
    let mut s = vec![e; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1] + e;
    }
    s
}

/// The dimensions of a form's tensor, from its id's hash: each in 1..=max, max shrinking
/// with the rank so that a rank-8 tensor stays small (≤ 2⁸ elements before padding).
fn dims_for(key: &str, rank: u32) -> Vec<u64> {
    let max = match rank {
        1 => 9,
        2 => 6,
        3 | 4 => 4,
        5 | 6 => 3,
        _ => 2,
    };
    let mut rng = SplitMix64::new(fnv1a64(key));
    (0..rank).map(|_| 1 + rng.next_u64() % max).collect()
}

/// A form with its dimensions chosen.
#[allow(clippy::too_many_arguments)]
fn tf(
    access: Access,
    binding: Binding,
    elem: Option<ElemType>,
    rank: u32,
    int: ElemType,
    len: u32,
    operands: u32,
    strided: bool,
) -> TensorForm {
    let mut f = TensorForm {
        access,
        elem,
        rank,
        int,
        len,
        operands,
        binding,
        strided,
        dims: Vec::new(),
    };
    f.dims = dims_for(&f.id(), rank);
    // Every rank-8 read form has a dimension of 1 and one of 2 somewhere; a shape of all 1s
    // would leave nothing but coordinate 0 in bounds.
    if f.dims.iter().all(|&d| d == 1) {
        let last = f.dims.len() - 1;
        f.dims[last] = 2;
    }
    f
}

/// Every tensor form, in a fixed order (docs/semantics/conform.md lists the families).
pub fn forms() -> Vec<Form> {
    let mut v = Vec::new();
    let coord_of_rank = |r: u32| {
        if r.is_multiple_of(2) {
            ElemType::I32
        } else {
            ElemType::U32
        }
    };
    // 1. Single tensors: element types × ranks × operand sets × access lengths.
    for (ei, &e) in ELEMENTS.iter().enumerate() {
        for rank in 1..=8u32 {
            let strided = rank >= 2 && (ei as u32 + rank) % 2 == 1;
            for len in [0, ARRAY_ACCESS] {
                for ops in READ_OPERANDS {
                    v.push(tf(
                        Access::Read,
                        Binding::Single,
                        e,
                        rank,
                        coord_of_rank(rank),
                        len,
                        ops,
                        strided,
                    ));
                }
                for ops in WRITE_OPERANDS {
                    v.push(tf(
                        Access::Write,
                        Binding::Single,
                        e,
                        rank,
                        coord_of_rank(rank),
                        len,
                        ops,
                        strided,
                    ));
                }
            }
            v.push(tf(
                Access::Size,
                Binding::Single,
                e,
                rank,
                ElemType::U32,
                0,
                0,
                strided,
            ));
        }
    }
    // 2. Coordinate types × ranks × access lengths (i32 elements, OutOfBoundsValue reads and
    //    plain writes); writes need coordinates of 16 bits or more (the owned row index).
    for c in INTS {
        for rank in 1..=8u32 {
            for len in [0, ARRAY_ACCESS] {
                v.push(tf(
                    Access::Read,
                    Binding::Single,
                    Some(ElemType::I32),
                    rank,
                    c,
                    len,
                    ops::OUT_OF_BOUNDS_VALUE,
                    false,
                ));
                if c.bits() >= 16 {
                    v.push(tf(
                        Access::Write,
                        Binding::Single,
                        Some(ElemType::I32),
                        rank,
                        c,
                        len,
                        0,
                        false,
                    ));
                }
            }
        }
    }
    // 3. Size-query Result Types × ranks.
    for s in INTS {
        for rank in 1..=8u32 {
            v.push(tf(
                Access::Size,
                Binding::Single,
                Some(ElemType::I32),
                rank,
                s,
                0,
                0,
                false,
            ));
        }
    }
    // 4. Arrays of tensors and 5. shaped types: element types × ranks 1, 2, 4, 8.
    for &e in &ELEMENTS {
        for rank in [1u32, 2, 4, 8] {
            for binding in [Binding::Array, Binding::Shaped] {
                for len in [0, ARRAY_ACCESS] {
                    for ops in [0, ops::OUT_OF_BOUNDS_VALUE] {
                        v.push(tf(
                            Access::Read,
                            binding,
                            e,
                            rank,
                            coord_of_rank(rank),
                            len,
                            ops,
                            false,
                        ));
                    }
                    if binding == Binding::Array {
                        v.push(tf(
                            Access::Write,
                            binding,
                            e,
                            rank,
                            coord_of_rank(rank),
                            len,
                            0,
                            false,
                        ));
                    }
                }
                v.push(tf(
                    Access::Size,
                    binding,
                    e,
                    rank,
                    ElemType::U32,
                    0,
                    0,
                    false,
                ));
            }
        }
    }
    // The families overlap (e.g. i32 elements with i32 coordinates): each id once, first kept.
    let mut seen = std::collections::HashSet::new();
    v.retain(|f| seen.insert(f.id()));
    v.into_iter().map(form).collect()
}

/// The ports of a form: `index` (arrays of tensors), `coords`, `val` (writes), then `out`;
/// the tensor's binding follows the output's.
pub fn ports(f: &TensorForm) -> (Vec<Port>, Port) {
    let mut inputs = Vec::new();
    let mut next = 0u32;
    let mut push = |name, elem, per_invocation, inputs: &mut Vec<Port>| {
        inputs.push(Port {
            binding: next,
            name,
            elem,
            per_invocation,
        });
        next += 1;
    };
    if f.binding == Binding::Array {
        push("index", ElemType::U32, 1, &mut inputs);
    }
    if f.access != Access::Size {
        push("coords", f.int, f.rank as usize, &mut inputs);
    }
    if f.access == Access::Write {
        push("val", storage(f.elem), f.per_access(), &mut inputs);
    }
    let output = match f.access {
        Access::Size => Port {
            binding: next,
            name: "out",
            elem: f.int,
            per_invocation: f.rank as usize,
        },
        _ => Port {
            binding: next,
            name: "out",
            elem: storage(f.elem),
            per_invocation: f.per_access(),
        },
    };
    (inputs, output)
}

/// The tensor's binding: the one after the output's.
pub fn tensor_binding(form: &Form) -> u32 {
    form.output.binding + 1
}

/// The form of `f`: its ports, module and id.
pub fn form(f: TensorForm) -> Form {
    let (inputs, output) = ports(&f);
    let asm = module::module(&f, &inputs, &output, output.binding + 1);
    Form {
        id: f.id(),
        ext: Ext::Tensors,
        asm,
        inputs,
        output,
        kind: Kind::Tensors(f),
    }
}

/// The tensors a unit of `count` invocations of `form` binds (none for other extensions).
pub fn bound_of(form: &Form, count: u32) -> Vec<Bound> {
    match &form.kind {
        Kind::Tensors(f) => f.bound(tensor_binding(form), count),
        _ => Vec::new(),
    }
}

/// The tensors a unit of `form` binds with their data (the unit's inputs after the ports'
/// bytes): (binding, element index, shape, strides, bytes). Empty for other extensions.
pub fn bound_tensors<'a>(form: &Form, inputs: &'a [Vec<u8>], count: u32) -> Vec<(Bound, &'a [u8])> {
    bound_of(form, count)
        .into_iter()
        .zip(inputs.iter().skip(form.inputs.len()))
        .map(|(b, d)| (b, d.as_slice()))
        .collect()
}

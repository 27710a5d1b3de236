//! Generated SPV_ARM_tensors cases (shared/seeds/001; reference/tensors.md §1), for the
//! universal (`spv1.6`) and Vulkan (`vulkan1.3`) target environments:
//!
//! - `OpTypeTensorARM`: element types (every integer width and signedness, f16/f32/f64, bf16,
//!   both fp8 encodings, bool; vectors, structs and arrays as invalid ones) × ranks (absent,
//!   1..6, 0, spec constant, null, float, vector, 64-bit, not a constant) × shapes (absent,
//!   matching, longer, shorter, a zero entry, a "negative" entry, `OpConstantNull`, float and
//!   vector constants, spec composites, not a constant);
//! - `OpTensorReadARM` / `OpTensorWriteARM`: ranked, spec-ranked, unranked and shaped tensors ×
//!   scalar / array / mismatched / vector / struct values × coordinate arrays of every length
//!   around the rank and of wrong types; and every subset of the five Tensor Operands bits ×
//!   parameters present or one missing × out-of-bounds values of each kind × with and without
//!   the VulkanMemoryModel capability;
//! - `OpTensorQuerySizeARM`: result types × Dimension in and out of range, spec constant,
//!   negative, null, float, vector and run-time values.
//!
//! The expected verdict comes from `type_rules` / `access_rules` / `query_rules`, a restatement
//! of the extension text and of what SPIRV-Tools checks, written without looking at the
//! validator: each rule names the spvx error that reports it and whether spirv-val 2025.5
//! checks it too. Every error spvx reports must be one of the broken rules, and spvx must
//! report one iff any is broken. A scattered sample is compared with spirv-val 2025.5, whose
//! verdict is predicted from the rules it checks.

mod ext_common;
mod support;

use ext_common::{Relation, Rule, Sampler, check_rules, theirs_valid, validate_edited};
use std::collections::HashSet;

const ENVS: [&str; 2] = ["spv1.6", "vulkan1.3"];

// ---------------------------------------------------------------------------------------------
// Module text

/// Declarations in order, each name once.
#[derive(Default)]
struct Decls {
    lines: Vec<String>,
    seen: HashSet<String>,
}

impl Decls {
    fn def(&mut self, name: &str, rhs: &str) -> String {
        if self.seen.insert(name.to_string()) {
            self.lines.push(format!("{name} = {rhs}"));
        }
        name.to_string()
    }

    /// `%u32_<n>`, a 32-bit unsigned constant.
    fn u32c(&mut self, n: u32) -> String {
        self.def(&format!("%u32_{n}"), &format!("OpConstant %u32 {n}"))
    }

    /// An array type of `elem` (a type name) with `len` elements.
    fn array(&mut self, elem: &str, len: u32) -> String {
        let l = self.u32c(len);
        self.def(
            &format!("%arr_{}_{len}", &elem[1..]),
            &format!("OpTypeArray {elem} {l}"),
        )
    }
}

/// A tensor Element Type (and the types values are read as).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Elem {
    Int {
        w: u32,
        signed: bool,
    },
    F16,
    F32,
    F64,
    BF16,
    E4M3,
    E5M2,
    Bool,
    /// Not scalars.
    VecF32,
    Struct,
    ArrF32,
}

const SCALARS: [Elem; 15] = [
    Elem::Int {
        w: 8,
        signed: false,
    },
    Elem::Int { w: 8, signed: true },
    Elem::Int {
        w: 16,
        signed: false,
    },
    Elem::Int {
        w: 16,
        signed: true,
    },
    Elem::Int {
        w: 32,
        signed: false,
    },
    Elem::Int {
        w: 32,
        signed: true,
    },
    Elem::Int {
        w: 64,
        signed: false,
    },
    Elem::Int {
        w: 64,
        signed: true,
    },
    Elem::F16,
    Elem::F32,
    Elem::F64,
    Elem::BF16,
    Elem::E4M3,
    Elem::E5M2,
    Elem::Bool,
];

impl Elem {
    /// "a scalar type": numerical (int, float of any encoding) or Boolean.
    fn is_scalar(self) -> bool {
        !matches!(self, Elem::VecF32 | Elem::Struct | Elem::ArrF32)
    }

    /// The type's name, declaring the composite ones.
    fn ty(self, d: &mut Decls) -> String {
        match self {
            Elem::Int { w, signed } => format!("%{}{w}", if signed { 's' } else { 'u' }),
            Elem::F16 => "%f16".into(),
            Elem::F32 => "%f32".into(),
            Elem::F64 => "%f64".into(),
            Elem::BF16 => "%bf16".into(),
            Elem::E4M3 => "%e4m3".into(),
            Elem::E5M2 => "%e5m2".into(),
            Elem::Bool => "%bool".into(),
            Elem::VecF32 => d.def("%v2f32", "OpTypeVector %f32 2"),
            Elem::Struct => d.def("%st", "OpTypeStruct %f32 %u32"),
            Elem::ArrF32 => d.array("%f32", 2),
        }
    }

    /// A constant of this scalar type.
    fn constant(self, d: &mut Decls) -> String {
        let ty = self.ty(d);
        let name = format!("%k_{}", &ty[1..]);
        let rhs = match self {
            Elem::Int { .. } => format!("OpConstant {ty} 7"),
            Elem::F16 | Elem::F32 | Elem::F64 => format!("OpConstant {ty} 1.5"),
            Elem::Bool => "OpConstantTrue %bool".into(),
            _ => format!("OpConstantNull {ty}"),
        };
        d.def(&name, &rhs)
    }

    /// Another scalar type (a different id, often only the signedness differs).
    fn other(self) -> Elem {
        let i = SCALARS.iter().position(|&e| e == self).unwrap_or(0);
        SCALARS[(i + 1) % SCALARS.len()]
    }
}

/// The fixed head of every module: capabilities for every element type, the extensions, and
/// the scalar types.
fn head(vmm: bool, interface: &str) -> String {
    let mut s = String::from("OpCapability Shader\n");
    if vmm {
        s += "OpCapability VulkanMemoryModel\n";
    }
    for c in [
        "Int8",
        "Int16",
        "Int64",
        "Float16",
        "Float64",
        "BFloat16TypeKHR",
        "Float8EXT",
        "TensorsARM",
    ] {
        s += &format!("OpCapability {c}\n");
    }
    for e in ["SPV_ARM_tensors", "SPV_KHR_bfloat16", "SPV_EXT_float8"] {
        s += &format!("OpExtension \"{e}\"\n");
    }
    s += &format!(
        "OpMemoryModel Logical {}\nOpEntryPoint GLCompute %main \"main\"{interface}\n\
         OpExecutionMode %main LocalSize 1 1 1\n",
        if vmm { "Vulkan" } else { "GLSL450" }
    );
    if !interface.is_empty() {
        s += "OpDecorate %t DescriptorSet 0\nOpDecorate %t Binding 0\n";
    }
    s += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n";
    for w in [8, 16, 32, 64] {
        s += &format!("%u{w} = OpTypeInt {w} 0\n%s{w} = OpTypeInt {w} 1\n");
    }
    s += "%f16 = OpTypeFloat 16\n%f32 = OpTypeFloat 32\n%f64 = OpTypeFloat 64\n\
          %bf16 = OpTypeFloat 16 BFloat16KHR\n%e4m3 = OpTypeFloat 8 Float8E4M3EXT\n\
          %e5m2 = OpTypeFloat 8 Float8E5M2EXT\n";
    s
}

fn module(vmm: bool, with_var: bool, d: &Decls, body: &[String]) -> String {
    let mut s = head(vmm, if with_var { " %t" } else { "" });
    for l in &d.lines {
        s += l;
        s.push('\n');
    }
    s += "%main = OpFunction %void None %fn\n%entry = OpLabel\n";
    for l in body {
        s += l;
        s.push('\n');
    }
    s += "OpReturn\nOpFunctionEnd\n";
    s
}

// ---------------------------------------------------------------------------------------------
// The tensor type: Rank and Shape

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rank {
    Absent,
    /// `OpConstant %u32 n`.
    Lit(u32),
    /// `OpConstant %s64 n`.
    Wide(u32),
    /// `OpSpecConstant %u32 n` (not evaluated).
    Spec(u32),
    /// `OpConstantNull %u32` (evaluates to 0).
    Null,
    Float,
    Vector,
    /// `OpUndef %u32`: not a constant instruction.
    Undef,
}

impl Rank {
    /// The value validation may rely on (spec constants are not evaluated).
    fn evaluable(self) -> Option<u32> {
        match self {
            Rank::Lit(n) | Rank::Wide(n) => Some(n),
            Rank::Null => Some(0),
            _ => None,
        }
    }

    /// The length a Shape "equal to Rank" gets in the module.
    fn nominal(self) -> u32 {
        match self {
            Rank::Lit(n) | Rank::Wide(n) | Rank::Spec(n) => n,
            Rank::Null => 0,
            _ => 2,
        }
    }

    fn declare(self, d: &mut Decls) -> Option<String> {
        Some(match self {
            Rank::Absent => return None,
            Rank::Lit(n) => d.u32c(n),
            Rank::Wide(n) => d.def(&format!("%rank_w{n}"), &format!("OpConstant %s64 {n}")),
            Rank::Spec(n) => d.def(&format!("%rank_s{n}"), &format!("OpSpecConstant %u32 {n}")),
            Rank::Null => d.def("%rank_null", "OpConstantNull %u32"),
            Rank::Float => d.def("%rank_f", "OpConstant %f32 2"),
            Rank::Vector => {
                let v = d.def("%v2u32", "OpTypeVector %u32 2");
                let one = d.u32c(1);
                d.def("%rank_v", &format!("OpConstantComposite {v} {one} {one}"))
            }
            Rank::Undef => d.def("%rank_u", "OpUndef %u32"),
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    Absent,
    /// `OpConstantComposite` of `u32[len]` with entries 1, 2, 3, … (`len` = rank + delta).
    Entries(i32),
    /// Matching length, one entry 0.
    ZeroEntry,
    /// Matching length, an `s32` array with one entry -1 (unsigned: 0xffffffff, not 0).
    NegativeEntry,
    /// `OpConstantNull` of the matching array type.
    Null,
    /// `OpSpecConstantComposite` with `OpConstant` entries, optionally one 0.
    SpecComposite {
        zero: bool,
    },
    /// A float array constant of matching length.
    FloatArray,
    /// A vector constant (not an array).
    Vector,
    /// `OpUndef` of the matching array type.
    Undef,
}

const SHAPES: [Shape; 12] = [
    Shape::Absent,
    Shape::Entries(0),
    Shape::Entries(1),
    Shape::Entries(-1),
    Shape::ZeroEntry,
    Shape::NegativeEntry,
    Shape::Null,
    Shape::SpecComposite { zero: false },
    Shape::SpecComposite { zero: true },
    Shape::FloatArray,
    Shape::Vector,
    Shape::Undef,
];

impl Shape {
    /// The array length this shape gets for `rank`, or `None` when it cannot be written (an
    /// array needs at least one element).
    fn length(self, rank: Rank) -> Option<u32> {
        let delta = match self {
            Shape::Absent | Shape::Vector => 0,
            Shape::Entries(d) => d,
            _ => 0,
        };
        let len = rank.nominal() as i32 + delta;
        (len >= 1).then_some(len as u32)
    }

    fn declare(self, d: &mut Decls, rank: Rank) -> Option<String> {
        let len = self.length(rank)?;
        let entries = |d: &mut Decls, zero_at: Option<u32>| -> Vec<String> {
            (0..len)
                .map(|i| d.u32c(if Some(i) == zero_at { 0 } else { i + 1 }))
                .collect()
        };
        Some(match self {
            Shape::Absent => return None,
            Shape::Entries(_) | Shape::ZeroEntry => {
                let arr = d.array("%u32", len);
                let zero = (self == Shape::ZeroEntry).then_some(len - 1);
                let e = entries(d, zero).join(" ");
                d.def(
                    &format!("%shape_{len}_{}", zero.is_some() as u8),
                    &format!("OpConstantComposite {arr} {e}"),
                )
            }
            Shape::NegativeEntry => {
                let arr = d.array("%s32", len);
                let neg = d.def("%s32_m1", "OpConstant %s32 -1");
                let two = d.def("%s32_2", "OpConstant %s32 2");
                let mut e = vec![two; len as usize];
                e[0] = neg;
                d.def(
                    &format!("%shape_neg_{len}"),
                    &format!("OpConstantComposite {arr} {}", e.join(" ")),
                )
            }
            Shape::Null => {
                let arr = d.array("%u32", len);
                d.def(
                    &format!("%shape_null_{len}"),
                    &format!("OpConstantNull {arr}"),
                )
            }
            Shape::SpecComposite { zero } => {
                let arr = d.array("%u32", len);
                let e = entries(d, zero.then_some(0)).join(" ");
                d.def(
                    &format!("%shape_spec_{len}_{}", zero as u8),
                    &format!("OpSpecConstantComposite {arr} {e}"),
                )
            }
            Shape::FloatArray => {
                let arr = d.array("%f32", len);
                let one = d.def("%f32_1", "OpConstant %f32 1");
                let e = vec![one; len as usize].join(" ");
                d.def(
                    &format!("%shape_f_{len}"),
                    &format!("OpConstantComposite {arr} {e}"),
                )
            }
            Shape::Vector => {
                let v = d.def("%v2u32", "OpTypeVector %u32 2");
                let one = d.u32c(1);
                d.def("%shape_v", &format!("OpConstantComposite {v} {one} {one}"))
            }
            Shape::Undef => {
                let arr = d.array("%u32", len);
                d.def(&format!("%shape_u_{len}"), &format!("OpUndef {arr}"))
            }
        })
    }
}

/// The rules of `OpTypeTensorARM` (seed 001: "Element Type ... must be a scalar type"; "Rank
/// must come from a constant instruction of scalar integer type"; "Shape must be a constant
/// instruction of type OpTypeArray whose Element Type is an integer ... and whose Length is
/// equal to Rank"), SPIRV-Tools' additions (reference/tensors.md §1a: an evaluable Rank and
/// every evaluable explicit Shape entry > 0, read as unsigned) and, for Vulkan, the
/// shader-stage rules (RuntimeSpirv-09902/09907, which spirv-val 2025.5 does not check).
fn type_rules(elem: Elem, rank: Rank, shape: Shape, vulkan: bool) -> Vec<Rule> {
    let mut broken = Vec::new();
    if !elem.is_scalar() {
        broken.push(Rule::both("Tensor", "ElementNotScalar"));
    }
    match rank {
        Rank::Undef => broken.push(Rule::both("Tensor", "RankNotConstant")),
        Rank::Float | Rank::Vector => broken.push(Rule::both("Tensor", "RankNotInt")),
        _ => {}
    }
    if rank.evaluable() == Some(0) {
        broken.push(Rule::both("Tensor", "RankZero"));
    }
    let rank_ok_for_shape = rank.evaluable();
    match shape {
        Shape::Undef => broken.push(Rule::both("Tensor", "ShapeNotConstant")),
        Shape::FloatArray | Shape::Vector => broken.push(Rule::both("Tensor", "ShapeType")),
        Shape::Entries(delta) if delta != 0 && rank_ok_for_shape.is_some() => {
            broken.push(Rule::both("Tensor", "ShapeType"))
        }
        Shape::ZeroEntry | Shape::SpecComposite { zero: true } => {
            broken.push(Rule::both("Tensor", "ShapeEntryZero"))
        }
        _ => {}
    }
    if vulkan {
        if rank == Rank::Absent {
            broken.push(Rule::ours("Env", "UnrankedTensor"));
        }
        if shape != Shape::Absent {
            broken.push(Rule::ours("Env", "ShapedTensor"));
        }
    }
    broken
}

/// One type case: the module declares the tensor type (not used by any instruction).
fn type_module(elem: Elem, rank: Rank, shape: Shape) -> Option<String> {
    let mut d = Decls::default();
    let e = elem.ty(&mut d);
    let mut operands = e;
    if let Some(r) = rank.declare(&mut d) {
        operands += &format!(" {r}");
        if shape != Shape::Absent {
            operands += &format!(" {}", shape.declare(&mut d, rank)?);
        }
    }
    d.def("%ten", &format!("OpTypeTensorARM {operands}"));
    Some(module(true, false, &d, &[]))
}

fn type_cases() -> Vec<(Elem, Rank, Shape)> {
    let mut ranks = vec![Rank::Absent];
    ranks.extend((0..=6).map(Rank::Lit));
    ranks.extend([
        Rank::Wide(3),
        Rank::Spec(3),
        Rank::Null,
        Rank::Float,
        Rank::Vector,
        Rank::Undef,
    ]);
    let mut all_elems = SCALARS.to_vec();
    all_elems.extend([Elem::VecF32, Elem::Struct, Elem::ArrF32]);
    let mut cases = Vec::new();
    let mut k = 0;
    // Every rank × shape, with three rotating element types each.
    for &rank in &ranks {
        for &shape in &SHAPES {
            if rank == Rank::Absent && shape != Shape::Absent {
                continue; // a Shape needs a Rank before it
            }
            for _ in 0..3 {
                k += 1;
                cases.push((all_elems[k % all_elems.len()], rank, shape));
            }
        }
    }
    // Every element type unranked, ranked, ranked and shaped, spec-ranked.
    for &e in &all_elems {
        for (rank, shape) in [
            (Rank::Absent, Shape::Absent),
            (Rank::Lit(2), Shape::Absent),
            (Rank::Lit(2), Shape::Entries(0)),
            (Rank::Spec(4), Shape::Absent),
        ] {
            cases.push((e, rank, shape));
        }
    }
    cases
}

// ---------------------------------------------------------------------------------------------
// Reads, writes and size queries

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tensor {
    Ranked(u32),
    SpecRanked(u32),
    Unranked,
    Shaped(u32),
}

impl Tensor {
    fn rank(self) -> Rank {
        match self {
            Tensor::Ranked(n) | Tensor::Shaped(n) => Rank::Lit(n),
            Tensor::SpecRanked(n) => Rank::Spec(n),
            Tensor::Unranked => Rank::Absent,
        }
    }

    fn shape(self) -> Shape {
        match self {
            Tensor::Shaped(_) => Shape::Entries(0),
            _ => Shape::Absent,
        }
    }

    /// Declares the type, a UniformConstant variable `%t` of it; returns the type name.
    fn declare(self, d: &mut Decls, elem: Elem) -> String {
        let mut operands = elem.ty(d);
        if let Some(r) = self.rank().declare(d) {
            operands += &format!(" {r}");
            if let Some(s) = self.shape().declare(d, self.rank()) {
                operands += &format!(" {s}");
            }
        }
        let ten = d.def("%ten", &format!("OpTypeTensorARM {operands}"));
        let ptr = d.def("%ptr", &format!("OpTypePointer UniformConstant {ten}"));
        d.def("%t", &format!("OpVariable {ptr} UniformConstant"));
        ten
    }
}

const TENSORS: [Tensor; 10] = [
    Tensor::Ranked(1),
    Tensor::Ranked(2),
    Tensor::Ranked(3),
    Tensor::Ranked(4),
    Tensor::Ranked(5),
    Tensor::Ranked(6),
    Tensor::SpecRanked(3),
    Tensor::Unranked,
    Tensor::Shaped(1),
    Tensor::Shaped(3),
];

/// The Vulkan shader-stage rules on the tensor type.
fn env_rules(t: Tensor, vulkan: bool, broken: &mut Vec<Rule>) {
    if vulkan {
        match t {
            Tensor::Unranked => broken.push(Rule::ours("Env", "UnrankedTensor")),
            Tensor::Shaped(_) => broken.push(Rule::ours("Env", "ShapedTensor")),
            _ => {}
        }
    }
}

/// The Result Type of a read or the type of a written Object.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Value {
    Scalar,
    Array(u32),
    /// A scalar of another type.
    Other,
    /// An array of another scalar type.
    OtherArray,
    Vector,
    ArrayOfVector,
    Struct,
}

const VALUES: [Value; 8] = [
    Value::Scalar,
    Value::Array(1),
    Value::Array(3),
    Value::Other,
    Value::OtherArray,
    Value::Vector,
    Value::ArrayOfVector,
    Value::Struct,
];

impl Value {
    fn declare(self, d: &mut Decls, elem: Elem) -> String {
        let e = elem.ty(d);
        match self {
            Value::Scalar => e,
            Value::Array(n) => d.array(&e, n),
            Value::Other => elem.other().ty(d),
            Value::OtherArray => {
                let o = elem.other().ty(d);
                d.array(&o, 2)
            }
            Value::Vector => d.def(&format!("%v2{}", &e[1..]), &format!("OpTypeVector {e} 2")),
            Value::ArrayOfVector => {
                let v = d.def(&format!("%v2{}", &e[1..]), &format!("OpTypeVector {e} 2"));
                d.array(&v, 2)
            }
            Value::Struct => d.def("%st", "OpTypeStruct %f32 %u32"),
        }
    }

    /// "a scalar type or array of scalar type".
    fn shape_ok(self) -> bool {
        matches!(
            self,
            Value::Scalar | Value::Array(_) | Value::Other | Value::OtherArray
        )
    }

    /// "The scalar type must be the same as the Element Type".
    fn element_ok(self) -> bool {
        matches!(self, Value::Scalar | Value::Array(_))
    }
}

/// Coordinates.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Coords {
    /// A `u32` array constant of length rank + delta.
    Len(i32),
    /// An `s32` array of the rank's length.
    Signed,
    /// `OpConstantNull` of the `u32` array.
    Null,
    /// Built at run time with `OpCompositeConstruct`.
    Runtime,
    FloatArray,
    Vector,
    Scalar,
}

const COORDS: [Coords; 9] = [
    Coords::Len(0),
    Coords::Len(1),
    Coords::Len(-1),
    Coords::Signed,
    Coords::Null,
    Coords::Runtime,
    Coords::FloatArray,
    Coords::Vector,
    Coords::Scalar,
];

impl Coords {
    /// The length written for a tensor of nominal rank `r` (None: not expressible).
    fn length(self, r: u32) -> Option<u32> {
        let len = match self {
            Coords::Len(d) => r as i32 + d,
            _ => r as i32,
        };
        (len >= 1).then_some(len as u32)
    }

    /// Declares the coordinates; returns their id and any body line computing them.
    fn declare(self, d: &mut Decls, r: u32) -> Option<(String, Option<String>)> {
        let len = self.length(r)?;
        let zeros = |d: &mut Decls| vec![d.u32c(0); len as usize].join(" ");
        Some(match self {
            Coords::Len(_) => {
                let arr = d.array("%u32", len);
                let z = zeros(d);
                (
                    d.def(
                        &format!("%coord_{len}"),
                        &format!("OpConstantComposite {arr} {z}"),
                    ),
                    None,
                )
            }
            Coords::Signed => {
                let arr = d.array("%s32", len);
                let z = d.def("%s32_0", "OpConstant %s32 0");
                let e = vec![z; len as usize].join(" ");
                (
                    d.def(
                        &format!("%coord_s{len}"),
                        &format!("OpConstantComposite {arr} {e}"),
                    ),
                    None,
                )
            }
            Coords::Null => {
                let arr = d.array("%u32", len);
                (
                    d.def(
                        &format!("%coord_null{len}"),
                        &format!("OpConstantNull {arr}"),
                    ),
                    None,
                )
            }
            Coords::Runtime => {
                let arr = d.array("%u32", len);
                let e = vec!["%dyn"; len as usize].join(" ");
                (
                    "%coord_rt".into(),
                    Some(format!("%coord_rt = OpCompositeConstruct {arr} {e}")),
                )
            }
            Coords::FloatArray => {
                let arr = d.array("%f32", len);
                let one = d.def("%f32_1", "OpConstant %f32 1");
                let e = vec![one; len as usize].join(" ");
                (
                    d.def(
                        &format!("%coord_f{len}"),
                        &format!("OpConstantComposite {arr} {e}"),
                    ),
                    None,
                )
            }
            Coords::Vector => {
                let v = d.def("%v2u32", "OpTypeVector %u32 2");
                let z = d.u32c(0);
                (
                    d.def("%coord_v", &format!("OpConstantComposite {v} {z} {z}")),
                    None,
                )
            }
            Coords::Scalar => (d.u32c(0), None),
        })
    }
}

const NONTEMPORAL: u32 = 0x1;
const OOB: u32 = 0x2;
const AVAILABLE: u32 = 0x4;
const VISIBLE: u32 = 0x8;
const NON_PRIVATE: u32 = 0x10;
const BIT_NAMES: [(u32, &str); 5] = [
    (NONTEMPORAL, "NontemporalARM"),
    (OOB, "OutOfBoundsValueARM"),
    (AVAILABLE, "MakeElementAvailableARM"),
    (VISIBLE, "MakeElementVisibleARM"),
    (NON_PRIVATE, "NonPrivateElementARM"),
];

/// The OutOfBoundsValueARM operand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum OobValue {
    /// A constant of the Element Type.
    Constant,
    /// A constant of another scalar type.
    OtherConstant,
    /// `OpUndef` of the Element Type (not a constant instruction).
    Undef,
    /// A null constant of an array of the Element Type.
    Array,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Read,
    Write,
}

/// A read or write.
#[derive(Clone, Copy, Debug)]
struct Access {
    op: Op,
    tensor: Tensor,
    elem: Elem,
    value: Value,
    coords: Coords,
    /// `None`: no Tensor Operands word; `Some(bits)`.
    mask: Option<u32>,
    oob: OobValue,
    /// Drop the last parameter id after assembly (text cannot leave it out).
    drop_param: bool,
    vmm: bool,
}

/// The parameter-carrying bits of `mask`, lowest first (the order of their operands).
fn param_bits(mask: u32) -> Vec<u32> {
    [OOB, AVAILABLE, VISIBLE]
        .into_iter()
        .filter(|b| mask & b != 0)
        .collect()
}

/// The rules of OpTensorReadARM / OpTensorWriteARM and of the Tensor Operands (seed 001 and
/// reference/tensors.md §1b, §1c, §1g).
fn access_rules(a: &Access, vulkan: bool) -> Vec<Rule> {
    let mut broken = Vec::new();
    let read = a.op == Op::Read;
    // "Result Type must be a scalar type or array of scalar type" / "Object must be an object
    // of scalar type or array of scalar type. The scalar type must be the same as the Element
    // Type of Tensor."
    if !a.value.shape_ok() {
        broken.push(Rule::both(
            "Tensor",
            if read {
                "ReadResultType"
            } else {
                "WriteObjectType"
            },
        ));
    } else if !a.value.element_ok() {
        broken.push(Rule::both("Tensor", "ElementMismatch"));
    }
    // "Tensor must be a Ranked Tensor."
    if a.tensor == Tensor::Unranked {
        broken.push(Rule::both("Tensor", "NotRankedTensor"));
    } else {
        // "Coordinates is an array whose Element Type must be an integer type and whose
        // Length must be equal to the Rank of Tensor" (when the rank is known).
        match a.coords {
            Coords::FloatArray | Coords::Vector | Coords::Scalar => {
                broken.push(Rule::both("Tensor", "CoordinatesType"))
            }
            Coords::Len(delta) if delta != 0 && matches!(a.tensor.rank(), Rank::Lit(_)) => {
                broken.push(Rule::both("Tensor", "CoordinatesLength"))
            }
            _ => {}
        }
    }
    if let Some(mask) = a.mask {
        // "Only valid with OpTensorReadARM" (OOB, Visible) / "with OpTensorWriteARM" (Available).
        let foreign = if read { AVAILABLE } else { OOB | VISIBLE };
        if mask & foreign != 0 {
            broken.push(Rule::both("Tensor", "OperandNotAllowed"));
        }
        // "A following operand is ...".
        if a.drop_param {
            broken.push(Rule::ours("Tensor", "MissingOperand"));
        }
        // "Requires NonPrivateElementARM to also be set."
        let own = if read { VISIBLE } else { AVAILABLE };
        if mask & own != 0 && mask & NON_PRIVATE == 0 {
            broken.push(Rule::both("Tensor", "NeedsNonPrivate"));
        }
        // Enabling capability VulkanMemoryModel (the grammar lists only TensorsARM).
        if mask & (AVAILABLE | VISIBLE | NON_PRIVATE) != 0 && !a.vmm {
            broken.push(Rule::ours("Tensor", "NeedsVulkanMemoryModel"));
        }
        // "It must be a constant instruction of the same type as the Element Type"; SPIRV-Tools
        // checks only the (component) type.
        let oob_present = !(a.drop_param && param_bits(mask).last() == Some(&OOB));
        if read && mask & OOB != 0 && oob_present {
            match a.oob {
                OobValue::Constant => {}
                OobValue::OtherConstant => broken.push(Rule::both("Tensor", "OutOfBoundsValue")),
                OobValue::Undef | OobValue::Array => {
                    broken.push(Rule::ours("Tensor", "OutOfBoundsValue"))
                }
            }
        }
    }
    env_rules(a.tensor, vulkan, &mut broken);
    broken
}

fn access_module(a: &Access) -> Option<String> {
    let mut d = Decls::default();
    let ten = a.tensor.declare(&mut d, a.elem);
    let value_ty = a.value.declare(&mut d, a.elem);
    let r = a.tensor.rank().nominal();
    let (coords, coord_line) = a.coords.declare(&mut d, r)?;
    let mut body = vec![
        format!("%tv = OpLoad {ten} %t"),
        "%dyn = OpIAdd %u32 %u32_0 %u32_1".to_string(),
    ];
    d.u32c(0);
    d.u32c(1);
    body.extend(coord_line);
    let mut tail = String::new();
    if let Some(mask) = a.mask {
        let names: Vec<&str> = BIT_NAMES
            .iter()
            .filter(|(b, _)| mask & b != 0)
            .map(|(_, n)| *n)
            .collect();
        tail += " ";
        tail += &if names.is_empty() {
            "NoneARM".to_string()
        } else {
            names.join("|")
        };
        for bit in param_bits(mask) {
            let id = if bit == OOB {
                match a.oob {
                    OobValue::Constant => a.elem.constant(&mut d),
                    OobValue::OtherConstant => a.elem.other().constant(&mut d),
                    OobValue::Undef => {
                        let e = a.elem.ty(&mut d);
                        d.def("%oob_undef", &format!("OpUndef {e}"))
                    }
                    OobValue::Array => {
                        let e = a.elem.ty(&mut d);
                        let arr = d.array(&e, 2);
                        d.def("%oob_arr", &format!("OpConstantNull {arr}"))
                    }
                }
            } else {
                d.def("%scope", "OpConstant %u32 2")
            };
            tail += &format!(" {id}");
        }
    }
    match a.op {
        Op::Read => body.push(format!(
            "%r = OpTensorReadARM {value_ty} %tv {coords}{tail}"
        )),
        Op::Write => {
            let obj = d.def("%obj", &format!("OpUndef {value_ty}"));
            body.push(format!("OpTensorWriteARM %tv {coords} {obj}{tail}"));
        }
    }
    Some(module(a.vmm, true, &d, &body))
}

/// Validates `text`, dropping the last operand of the read/write when `drop_param`.
fn run_spvx(text: &str, env: &str, drop_param: bool) -> Vec<spvx_val::ValError> {
    validate_edited(text, env, |insts| {
        if drop_param
            && let Some(i) = insts.iter_mut().find(|i| {
                matches!(
                    i.opcode,
                    spvx_spirv::op::Op::TensorReadARM | spvx_spirv::op::Op::TensorWriteARM
                )
            })
        {
            i.operands.pop();
        }
    })
}

fn access_cases() -> Vec<Access> {
    let mut cases = Vec::new();
    let mut k = 0usize;
    let base = |op, k: usize| Access {
        op,
        tensor: TENSORS[k % 6],
        elem: SCALARS[k % SCALARS.len()],
        value: Value::Scalar,
        coords: Coords::Len(0),
        mask: None,
        oob: OobValue::Constant,
        drop_param: false,
        vmm: true,
    };
    for op in [Op::Read, Op::Write] {
        // Tensor kinds × values × coordinates (no Tensor Operands).
        for tensor in TENSORS {
            for value in VALUES {
                for coords in COORDS {
                    k += 1;
                    cases.push(Access {
                        tensor,
                        value,
                        coords,
                        ..base(op, k)
                    });
                }
            }
        }
        // Tensor Operands: absent, then every subset of the five bits × a missing parameter ×
        // each OOB value kind × VulkanMemoryModel.
        cases.push(base(op, 0));
        for mask in 0..32u32 {
            let drops: &[bool] = if param_bits(mask).is_empty() {
                &[false]
            } else {
                &[false, true]
            };
            let oobs: &[OobValue] = if mask & OOB != 0 {
                &[
                    OobValue::Constant,
                    OobValue::OtherConstant,
                    OobValue::Undef,
                    OobValue::Array,
                ]
            } else {
                &[OobValue::Constant]
            };
            for &drop_param in drops {
                for &oob in oobs {
                    for vmm in [true, false] {
                        k += 1;
                        let mut a = base(op, k);
                        a.mask = Some(mask);
                        a.drop_param = drop_param;
                        a.oob = oob;
                        a.vmm = vmm;
                        // Now and then an array value or a spec-ranked tensor.
                        if k.is_multiple_of(3) {
                            a.value = Value::Array(2);
                        }
                        if k.is_multiple_of(5) {
                            a.tensor = Tensor::SpecRanked(2);
                        }
                        cases.push(a);
                    }
                }
            }
        }
    }
    cases
}

/// OpTensorQuerySizeARM's Result Type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum QueryResult {
    U32,
    S32,
    U64,
    F32,
    VecU32,
    Bool,
}

/// Dimension.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dim {
    /// `OpConstant %u32 n`.
    Lit(u32),
    /// A 64-bit constant.
    Wide(u32),
    /// `OpConstant %s32 -1` (unsigned: 0xffffffff).
    Negative,
    Null,
    /// `OpSpecConstant %u32 n` (not evaluated).
    Spec(u32),
    Float,
    Vector,
    /// Computed at run time.
    Runtime,
}

#[derive(Clone, Copy, Debug)]
struct Query {
    tensor: Tensor,
    elem: Elem,
    result: QueryResult,
    dim: Dim,
}

/// "Result Type must be an integer type scalar. Tensor must be a Ranked Tensor. Dimension is a
/// constant instruction of scalar integer type ... interpreted as unsigned and must be less
/// than the Rank of Tensor" (checked when both are evaluable, as SPIRV-Tools does).
fn query_rules(q: &Query, vulkan: bool) -> Vec<Rule> {
    let mut broken = Vec::new();
    if !matches!(
        q.result,
        QueryResult::U32 | QueryResult::S32 | QueryResult::U64
    ) {
        broken.push(Rule::both("Tensor", "QueryResultType"));
    }
    if q.tensor == Tensor::Unranked {
        broken.push(Rule::both("Tensor", "NotRankedTensor"));
    }
    let dim = match q.dim {
        Dim::Lit(n) | Dim::Wide(n) => Some(u64::from(n)),
        Dim::Negative => Some(0xffff_ffff),
        Dim::Null => Some(0),
        Dim::Spec(_) => None,
        Dim::Float | Dim::Vector | Dim::Runtime => {
            broken.push(Rule::both("Tensor", "DimensionNotConstantInt"));
            None
        }
    };
    if let (Some(dim), Some(rank)) = (dim, q.tensor.rank().evaluable())
        && dim >= u64::from(rank)
        && q.tensor != Tensor::Unranked
    {
        broken.push(Rule::both("Tensor", "DimensionTooLarge"));
    }
    env_rules(q.tensor, vulkan, &mut broken);
    broken
}

fn query_module(q: &Query) -> String {
    let mut d = Decls::default();
    let ten = q.tensor.declare(&mut d, q.elem);
    let result = match q.result {
        QueryResult::U32 => "%u32".to_string(),
        QueryResult::S32 => "%s32".into(),
        QueryResult::U64 => "%u64".into(),
        QueryResult::F32 => "%f32".into(),
        QueryResult::VecU32 => d.def("%v2u32", "OpTypeVector %u32 2"),
        QueryResult::Bool => "%bool".into(),
    };
    d.u32c(0);
    d.u32c(1);
    let dim = match q.dim {
        Dim::Lit(n) => d.u32c(n),
        Dim::Wide(n) => d.def(&format!("%dim_w{n}"), &format!("OpConstant %u64 {n}")),
        Dim::Negative => d.def("%s32_m1", "OpConstant %s32 -1"),
        Dim::Null => d.def("%dim_null", "OpConstantNull %u32"),
        Dim::Spec(n) => d.def(&format!("%dim_s{n}"), &format!("OpSpecConstant %u32 {n}")),
        Dim::Float => d.def("%f32_0", "OpConstant %f32 0"),
        Dim::Vector => {
            let v = d.def("%v2u32", "OpTypeVector %u32 2");
            d.def("%dim_v", &format!("OpConstantComposite {v} %u32_0 %u32_0"))
        }
        Dim::Runtime => "%dyn".into(),
    };
    let body = vec![
        format!("%tv = OpLoad {ten} %t"),
        "%dyn = OpIAdd %u32 %u32_0 %u32_1".to_string(),
        format!("%q = OpTensorQuerySizeARM {result} %tv {dim}"),
    ];
    module(true, true, &d, &body)
}

fn query_cases() -> Vec<Query> {
    let mut cases = Vec::new();
    let mut k = 0usize;
    for tensor in TENSORS {
        let r = tensor.rank().nominal();
        let dims = [
            Dim::Lit(0),
            Dim::Lit(r - 1),
            Dim::Lit(r),
            Dim::Lit(r + 3),
            Dim::Wide(r - 1),
            Dim::Wide(r),
            Dim::Negative,
            Dim::Null,
            Dim::Spec(r + 1),
            Dim::Float,
            Dim::Vector,
            Dim::Runtime,
        ];
        for result in [
            QueryResult::U32,
            QueryResult::S32,
            QueryResult::U64,
            QueryResult::F32,
            QueryResult::VecU32,
            QueryResult::Bool,
        ] {
            for dim in dims {
                k += 1;
                cases.push(Query {
                    tensor,
                    elem: SCALARS[k % SCALARS.len()],
                    result,
                    dim,
                });
            }
        }
    }
    cases
}

// ---------------------------------------------------------------------------------------------
// Tensor constants

/// The tensor type a constant is made for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ConstTensor {
    Unranked,
    /// Ranked, no Shape (opaque).
    Unshaped,
    /// Rank 1, Shape [n].
    Shaped1(u32),
    /// Rank 2, Shape [2, n].
    Shaped2(u32),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ConstForm {
    /// `OpConstantNull`.
    Null,
    /// `OpConstantComposite` (or the spec form) with Shape[0] + `delta` constituents, all
    /// well-formed.
    Composite {
        spec: bool,
        delta: i32,
    },
    /// One constituent of another scalar type (rank 1) or a scalar where a row belongs (rank 2).
    WrongScalar,
    /// Rank 2: a row of the wrong inner shape / of another element type.
    RowShape,
    RowElement,
    /// `OpConstantCompositeReplicateEXT` with an Element Type value / another type's value.
    Replicate {
        right: bool,
    },
}

#[derive(Clone, Copy, Debug)]
struct ConstCase {
    elem: Elem,
    tensor: ConstTensor,
    form: ConstForm,
}

/// Tensor constants (reference/tensors.md §1e, from SPV_ARM_tensors' "Composite Type: add
/// OpTypeTensorARM whose Shape operand is present" and SPIRV-Tools): only a shaped tensor is a
/// composite or has a null value; Shape[0] constituents; rank 1: values of the Element Type;
/// rank R: tensors of the Element Type, rank R−1 and the inner shape; the replicate forms take
/// one Element Type value.
fn const_rules(c: &ConstCase, vulkan: bool) -> Vec<Rule> {
    let mut broken = Vec::new();
    let shaped = matches!(c.tensor, ConstTensor::Shaped1(_) | ConstTensor::Shaped2(_));
    if let ConstForm::Replicate { right } = c.form {
        // spirv-val 2025.5 accepts every replicate of a tensor type (the tensor checks of
        // the replicate forms, reference/tensors.md §1e.8, came later).
        if !shaped {
            broken.push(Rule::ours("Tensor", "NotComposite"));
        } else if !right {
            broken.push(Rule::ours("Tensor", "ConstituentType"));
        }
    }
    match c.form {
        ConstForm::Replicate { .. } => {}
        ConstForm::Null if !shaped => broken.push(Rule::both("Tensor", "NullNotShaped")),
        ConstForm::Null => {}
        _ if !shaped => broken.push(Rule::both("Tensor", "NotComposite")),
        ConstForm::Composite { delta, .. } if delta != 0 => {
            broken.push(Rule::both("Tensor", "ConstituentCount"))
        }
        ConstForm::Composite { .. } => {}
        ConstForm::WrongScalar | ConstForm::RowShape | ConstForm::RowElement => {
            broken.push(Rule::both("Tensor", "ConstituentType"))
        }
    }
    if vulkan {
        match c.tensor {
            ConstTensor::Unranked => broken.push(Rule::ours("Env", "UnrankedTensor")),
            ConstTensor::Unshaped => {}
            _ => broken.push(Rule::ours("Env", "ShapedTensor")),
        }
        // The rank-2 cases also declare rank-1 row tensor types (shaped).
        if matches!(c.tensor, ConstTensor::Shaped2(_)) || matches!(c.form, ConstForm::RowShape) {
            broken.push(Rule::ours("Env", "ShapedTensor"));
        }
    }
    broken
}

fn const_module(c: &ConstCase) -> Option<String> {
    let mut d = Decls::default();
    let e = c.elem.ty(&mut d);
    let k = c.elem.constant(&mut d);
    let other_k = c.elem.other().constant(&mut d);
    // A shaped rank-1 tensor type of `n` elements of `elem_ty`.
    let row_type = |d: &mut Decls, elem_ty: &str, n: u32| -> String {
        let one = d.u32c(1);
        let arr = d.array("%u32", 1);
        let len = d.u32c(n);
        let shape = d.def(
            &format!("%shape1_{n}"),
            &format!("OpConstantComposite {arr} {len}"),
        );
        d.def(
            &format!("%row_{}_{n}", &elem_ty[1..]),
            &format!("OpTypeTensorARM {elem_ty} {one} {shape}"),
        )
    };
    let (ten, first, inner) = match c.tensor {
        ConstTensor::Unranked => (d.def("%ten", &format!("OpTypeTensorARM {e}")), 1, None),
        ConstTensor::Unshaped => {
            let one = d.u32c(1);
            (
                d.def("%ten", &format!("OpTypeTensorARM {e} {one}")),
                1,
                None,
            )
        }
        ConstTensor::Shaped1(n) => (row_type(&mut d, &e, n), n, None),
        ConstTensor::Shaped2(n) => {
            let two = d.u32c(2);
            let arr = d.array("%u32", 2);
            let len = d.u32c(n);
            let shape = d.def(
                &format!("%shape2_{n}"),
                &format!("OpConstantComposite {arr} {two} {len}"),
            );
            let ten = d.def("%ten", &format!("OpTypeTensorARM {e} {two} {shape}"));
            (ten, 2, Some(n))
        }
    };
    // A well-formed constituent, and the constituent that breaks the form.
    let good = match inner {
        None => k.clone(),
        Some(n) => {
            let row = row_type(&mut d, &e, n);
            let ks = vec![k.clone(); n as usize].join(" ");
            d.def("%row_ok", &format!("OpConstantComposite {row} {ks}"))
        }
    };
    let line = match c.form {
        ConstForm::Null => format!("OpConstantNull {ten}"),
        ConstForm::Composite { spec, delta } => {
            let n = first as i32 + delta;
            if n < 1 {
                return None;
            }
            let op = if spec {
                "OpSpecConstantComposite"
            } else {
                "OpConstantComposite"
            };
            format!("{op} {ten} {}", vec![good; n as usize].join(" "))
        }
        ConstForm::WrongScalar => {
            let mut parts = vec![good; first as usize];
            parts[0] = other_k.clone();
            format!("OpConstantComposite {ten} {}", parts.join(" "))
        }
        ConstForm::RowShape | ConstForm::RowElement => {
            let n = inner?;
            let bad = if c.form == ConstForm::RowShape {
                let row = row_type(&mut d, &e, n + 1);
                let ks = vec![k.clone(); n as usize + 1].join(" ");
                d.def("%row_bad", &format!("OpConstantComposite {row} {ks}"))
            } else {
                let o = c.elem.other().ty(&mut d);
                let row = row_type(&mut d, &o, n);
                let ks = vec![other_k.clone(); n as usize].join(" ");
                d.def("%row_bad", &format!("OpConstantComposite {row} {ks}"))
            };
            format!("OpConstantComposite {ten} {good} {bad}")
        }
        ConstForm::Replicate { right } => format!(
            "OpConstantCompositeReplicateEXT {ten} {}",
            if right { &k } else { &other_k }
        ),
    };
    d.def("%konst", &line);
    let mut text = module(true, false, &d, &[]);
    text = text.replacen(
        "OpCapability TensorsARM\n",
        "OpCapability TensorsARM\nOpCapability ReplicatedCompositesEXT\n",
        1,
    );
    text = text.replacen(
        "OpExtension \"SPV_ARM_tensors\"\n",
        "OpExtension \"SPV_ARM_tensors\"\nOpExtension \"SPV_EXT_replicated_composites\"\n",
        1,
    );
    Some(text)
}

fn const_cases() -> Vec<ConstCase> {
    let tensors = [
        ConstTensor::Unranked,
        ConstTensor::Unshaped,
        ConstTensor::Shaped1(1),
        ConstTensor::Shaped1(3),
        ConstTensor::Shaped2(2),
    ];
    let forms = [
        ConstForm::Null,
        ConstForm::Composite {
            spec: false,
            delta: 0,
        },
        ConstForm::Composite {
            spec: true,
            delta: 0,
        },
        ConstForm::Composite {
            spec: false,
            delta: 1,
        },
        ConstForm::Composite {
            spec: false,
            delta: -1,
        },
        ConstForm::WrongScalar,
        ConstForm::RowShape,
        ConstForm::RowElement,
        ConstForm::Replicate { right: true },
        ConstForm::Replicate { right: false },
    ];
    let mut cases = Vec::new();
    for elem in SCALARS {
        for tensor in tensors {
            for form in forms {
                let rows = matches!(form, ConstForm::RowShape | ConstForm::RowElement);
                if rows && !matches!(tensor, ConstTensor::Shaped2(_)) {
                    continue;
                }
                cases.push(ConstCase { elem, tensor, form });
            }
        }
    }
    cases
}

// ---------------------------------------------------------------------------------------------
// The Vulkan environment's tensor rules

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Storage {
    UniformConstant,
    Private,
    Function,
}

#[derive(Clone, Copy, Debug)]
struct EnvCase {
    /// Where the tensor (or array of tensors) variable lives.
    storage: Storage,
    array: bool,
    /// An `OpUndef` of the tensor type.
    undef: bool,
    /// A tensor loaded from a UniformConstant variable and stored to a Function variable.
    store: bool,
    /// The tensor type has a Shape.
    shaped: bool,
    /// The module declares GraphARM (SPV_ARM_graph).
    graph: bool,
}

/// Vulkan (reference/tensors.md §2d): tensor variables are UniformConstant (the descriptor
/// interface; spirv-val's VUID 04655 covers only what UniformConstant may hold); tensor
/// objects are not `OpUndef` (VUID-StandaloneSpirv-OpTypeTensorARM-12464) and not stored
/// (06924); shaped tensors not in shaders (RuntimeSpirv-09902) — graphs (GraphARM) use them.
fn env_case_rules(c: &EnvCase, vulkan: bool) -> Vec<Rule> {
    let mut broken = Vec::new();
    if !vulkan {
        return broken;
    }
    if c.storage != Storage::UniformConstant || c.store {
        broken.push(Rule::ours("Env", "TensorStorageClass"));
    }
    if c.undef {
        broken.push(Rule::ours("Env", "TensorUndef"));
    }
    if c.store {
        broken.push(Rule::ours("Env", "TensorStore"));
    }
    if c.shaped && !c.graph {
        broken.push(Rule::ours("Env", "ShapedTensor"));
    }
    broken
}

fn env_module(c: &EnvCase) -> String {
    let mut s = String::from(
        "OpCapability Shader\nOpCapability VulkanMemoryModel\nOpCapability Int8\n\
         OpCapability TensorsARM\n",
    );
    if c.graph {
        s += "OpCapability GraphARM\n";
    }
    s += "OpExtension \"SPV_ARM_tensors\"\n";
    if c.graph {
        s += "OpExtension \"SPV_ARM_graph\"\n";
    }
    let mut interface = String::new();
    if c.storage != Storage::Function {
        interface += " %t";
    }
    if c.store {
        interface += " %src";
    }
    s += &format!(
        "OpMemoryModel Logical Vulkan\nOpEntryPoint GLCompute %main \"main\"{interface}\n\
         OpExecutionMode %main LocalSize 1 1 1\n"
    );
    if c.storage == Storage::UniformConstant {
        s += "OpDecorate %t DescriptorSet 0\nOpDecorate %t Binding 0\n";
    }
    if c.store {
        s += "OpDecorate %src DescriptorSet 0\nOpDecorate %src Binding 1\n";
    }
    s += "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%s8 = OpTypeInt 8 1\n\
          %u32 = OpTypeInt 32 0\n%u32_2 = OpConstant %u32 2\n";
    if c.shaped {
        s += "%arr2 = OpTypeArray %u32 %u32_2\n%shape = OpConstantComposite %arr2 %u32_2 %u32_2\n\
              %ten = OpTypeTensorARM %s8 %u32_2 %shape\n";
    } else {
        s += "%ten = OpTypeTensorARM %s8 %u32_2\n";
    }
    let pointee = if c.array {
        s += "%tarr = OpTypeArray %ten %u32_2\n";
        "%tarr"
    } else {
        "%ten"
    };
    let class = match c.storage {
        Storage::UniformConstant => "UniformConstant",
        Storage::Private => "Private",
        Storage::Function => "Function",
    };
    s += &format!("%ptr = OpTypePointer {class} {pointee}\n");
    if c.storage != Storage::Function {
        s += &format!("%t = OpVariable %ptr {class}\n");
    }
    if c.store {
        s += "%ptr_uc = OpTypePointer UniformConstant %ten\n%src = OpVariable %ptr_uc UniformConstant\n\
              %ptr_fn = OpTypePointer Function %ten\n";
    }
    if c.undef {
        s += "%u = OpUndef %ten\n";
    }
    s += "%main = OpFunction %void None %fn\n%entry = OpLabel\n";
    if c.storage == Storage::Function {
        s += "%t = OpVariable %ptr Function\n";
    }
    if c.store {
        s += "%dst = OpVariable %ptr_fn Function\n%tv = OpLoad %ten %src\nOpStore %dst %tv\n";
    }
    s += "OpReturn\nOpFunctionEnd\n";
    s
}

fn env_cases() -> Vec<EnvCase> {
    let mut cases = Vec::new();
    for storage in [
        Storage::UniformConstant,
        Storage::Private,
        Storage::Function,
    ] {
        for array in [false, true] {
            for undef in [false, true] {
                for store in [false, true] {
                    for (shaped, graph) in [(false, false), (true, false), (true, true)] {
                        cases.push(EnvCase {
                            storage,
                            array,
                            undef,
                            store,
                            shaped,
                            graph,
                        });
                    }
                }
            }
        }
    }
    cases
}

// ---------------------------------------------------------------------------------------------
// The tests

/// Checks one case against spvx and offers it to the sampler; returns the failure, if any.
fn judge(
    text: &str,
    env: &str,
    drop_param: bool,
    broken: &[Rule],
    case: &str,
    edge: bool,
    sampler: &mut Samples,
) -> Option<String> {
    let errors = run_spvx(text, env, drop_param);
    let failure = check_rules(&errors, broken, case);
    if drop_param {
        // spirv-as cannot write the instruction without its parameter.
    } else if edge {
        sampler
            .edges
            .force(text, env, theirs_valid(broken), Relation::Agree, case);
    } else {
        sampler
            .random
            .offer_scattered(text, env, theirs_valid(broken), case);
    }
    failure
}

/// Type cases always compared with spirv-val: the readings of SPIRV-Tools this test relies on
/// (a "negative" shape entry, spec-composite and null shapes, null and 64-bit ranks, a
/// spec-constant rank with a longer shape).
fn type_edge(rank: Rank, shape: Shape) -> bool {
    (rank == Rank::Lit(3)
        && matches!(
            shape,
            Shape::NegativeEntry | Shape::SpecComposite { .. } | Shape::Null
        ))
        || (matches!(rank, Rank::Null | Rank::Wide(3)) && shape == Shape::Absent)
        || (rank == Rank::Spec(3) && shape == Shape::Entries(1))
}

/// Access cases always compared: out-of-bounds values that are not constants or are arrays,
/// memory-model bits without VulkanMemoryModel, run-time / null / signed coordinates, and a
/// spec-constant rank with longer coordinates.
fn access_edge(a: &Access) -> bool {
    let plain = a.value == Value::Scalar && a.mask.is_none();
    (a.mask == Some(OOB) && matches!(a.oob, OobValue::Undef | OobValue::Array) && a.vmm)
        || (a.mask == Some(NON_PRIVATE) && !a.vmm)
        || (plain
            && a.tensor == Tensor::Ranked(2)
            && matches!(a.coords, Coords::Runtime | Coords::Null | Coords::Signed))
        || (plain && a.tensor == Tensor::SpecRanked(3) && a.coords == Coords::Len(1))
}

/// Query cases always compared: negative, 64-bit, null and spec-constant dimensions.
fn query_edge(q: &Query) -> bool {
    q.result == QueryResult::U32
        && matches!(q.tensor, Tensor::Ranked(2) | Tensor::SpecRanked(3))
        && matches!(
            q.dim,
            Dim::Negative | Dim::Wide(_) | Dim::Null | Dim::Spec(_)
        )
}

/// The spirv-val comparisons of one test: a scattered random sample and the edge cases.
struct Samples {
    random: Sampler,
    edges: Sampler,
}

impl Samples {
    /// `stride`, `limit`: of the random sample; edges are bounded by `edge_limit`.
    fn new(stride: usize, limit: usize, edge_limit: usize) -> Self {
        Samples {
            random: Sampler::new(stride, limit),
            edges: Sampler::new(1, edge_limit),
        }
    }
}

fn report(what: &str, total: usize, valid: usize, failures: &[String], samples: &Samples) {
    let sampler = &samples.random;
    let edges = &samples.edges;
    assert!(
        failures.is_empty(),
        "{what}: {} of {total} cases disagree ({valid} valid):\n{}",
        failures.len(),
        failures[..failures.len().min(25)].join("\n")
    );
    let disagreements: Vec<&String> = sampler.failures.iter().chain(&edges.failures).collect();
    assert!(
        disagreements.is_empty(),
        "{what}: spirv-val 2025.5 disagrees ({} + {} runs):\n{}",
        sampler.runs,
        edges.runs,
        disagreements
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!(
        "{what}: {total} cases ({valid} valid), {} sampled + {} edge spirv-val runs",
        sampler.runs, edges.runs
    );
}

#[test]
fn tensor_types_match_the_rules() {
    let mut sampler = Samples::new(40, 20, 48);
    let (mut total, mut valid, mut failures) = (0, 0, Vec::new());
    for env in ENVS {
        for (elem, rank, shape) in type_cases() {
            let Some(text) = type_module(elem, rank, shape) else {
                continue;
            };
            let broken = type_rules(elem, rank, shape, env.starts_with("vulkan"));
            total += 1;
            valid += broken.is_empty() as usize;
            let case = format!("{env} {elem:?} rank {rank:?} shape {shape:?}");
            let edge = type_edge(rank, shape);
            failures.extend(judge(&text, env, false, &broken, &case, edge, &mut sampler));
        }
    }
    report("types", total, valid, &failures, &sampler);
}

#[test]
fn tensor_reads_and_writes_match_the_rules() {
    let mut sampler = Samples::new(90, 20, 40);
    let (mut total, mut valid, mut failures) = (0, 0, Vec::new());
    for env in ENVS {
        for a in access_cases() {
            let Some(text) = access_module(&a) else {
                continue;
            };
            let broken = access_rules(&a, env.starts_with("vulkan"));
            total += 1;
            valid += broken.is_empty() as usize;
            let case = format!("{env} {a:?}");
            failures.extend(judge(
                &text,
                env,
                a.drop_param,
                &broken,
                &case,
                access_edge(&a),
                &mut sampler,
            ));
        }
    }
    report("reads/writes", total, valid, &failures, &sampler);
}

#[test]
fn tensor_size_queries_match_the_rules() {
    let mut sampler = Samples::new(40, 12, 24);
    let (mut total, mut valid, mut failures) = (0, 0, Vec::new());
    for env in ENVS {
        for q in query_cases() {
            let text = query_module(&q);
            let broken = query_rules(&q, env.starts_with("vulkan"));
            total += 1;
            valid += broken.is_empty() as usize;
            let case = format!("{env} {q:?}");
            let edge = query_edge(&q);
            failures.extend(judge(&text, env, false, &broken, &case, edge, &mut sampler));
        }
    }
    report("queries", total, valid, &failures, &sampler);
}

#[test]
fn tensor_constants_match_the_rules() {
    let mut sampler = Samples::new(40, 16, 0);
    let (mut total, mut valid, mut failures) = (0, 0, Vec::new());
    for env in ENVS {
        for c in const_cases() {
            let Some(text) = const_module(&c) else {
                continue;
            };
            let broken = const_rules(&c, env.starts_with("vulkan"));
            total += 1;
            valid += broken.is_empty() as usize;
            let case = format!("{env} {c:?}");
            failures.extend(judge(
                &text,
                env,
                false,
                &broken,
                &case,
                false,
                &mut sampler,
            ));
        }
    }
    report("constants", total, valid, &failures, &sampler);
}

#[test]
fn tensor_vulkan_environment_rules() {
    let mut sampler = Samples::new(4, 16, 0);
    let (mut total, mut valid, mut failures) = (0, 0, Vec::new());
    for env in ENVS {
        for c in env_cases() {
            let text = env_module(&c);
            let broken = env_case_rules(&c, env.starts_with("vulkan"));
            total += 1;
            valid += broken.is_empty() as usize;
            let case = format!("{env} {c:?}");
            if c.graph {
                // spirv-val also wants an OpGraphEntryPointARM with GraphARM (SPV_ARM_graph, not
                // one of the five documents): no comparison.
                failures.extend(check_rules(&run_spvx(&text, env, false), &broken, &case));
            } else {
                failures.extend(judge(
                    &text,
                    env,
                    false,
                    &broken,
                    &case,
                    false,
                    &mut sampler,
                ));
            }
        }
    }
    report("environment", total, valid, &failures, &sampler);
}

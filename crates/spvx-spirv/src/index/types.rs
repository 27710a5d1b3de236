//! Type declarations resolved to a form the checks can match on.

use super::ModuleIndex;
use crate::instruction::{Id, Instruction, OperandValue};
use crate::op::Op;
use rustc_hash::FxHashMap as HashMap;

/// A declared type. Ids refer to other types (or, for lengths and tensor rank/shape, to
/// constants).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    Void,
    Bool,
    /// `OpTypeInt`: any width (SPV_INTEL_arbitrary_precision_integers).
    Int {
        width: u32,
        signed: bool,
    },
    /// `OpTypeFloat`, with its `FPEncoding` when it has one (bf16, fp8).
    Float {
        width: u32,
        encoding: Option<u32>,
    },
    Vector {
        component: Id,
        count: u32,
    },
    Matrix {
        column: Id,
        count: u32,
    },
    Array {
        element: Id,
        length: Id,
    },
    RuntimeArray {
        element: Id,
    },
    Struct {
        members: Vec<Id>,
    },
    Pointer {
        storage_class: u32,
        pointee: Id,
    },
    Function {
        ret: Id,
        params: Vec<Id>,
    },
    /// `OpTypeTensorARM`.
    Tensor {
        element: Id,
        rank: Option<Id>,
        shape: Option<Id>,
    },
    /// `OpTypeCooperativeMatrixKHR`.
    CooperativeMatrix {
        component: Id,
        scope: Id,
        rows: Id,
        columns: Id,
        usage: Id,
    },
    /// Any other type (images, samplers, opaque, ...), by opcode.
    Other(Op),
}

impl Type {
    /// True for `Bool`, `Int` and `Float`.
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Bool | Type::Int { .. } | Type::Float { .. })
    }

    /// True for an IEEE float (no `FPEncoding`).
    pub fn is_ieee_float(&self) -> bool {
        matches!(self, Type::Float { encoding: None, .. })
    }
}

/// How deep [`ModuleIndex::uniform_scalar`] looks into nested types.
const UNIFORM_SCALAR_DEPTH: u32 = 32;

impl ModuleIndex {
    /// The one scalar type (`Int` or `Float`) that every leaf of type `t` shares — struct
    /// members, array, runtime-array, vector, matrix and tensor elements — if they all share
    /// one (compared by value: width, signedness, FP encoding). `None` when the leaves are of
    /// several types, when a leaf is anything else (a boolean, a pointer, an opaque type), or
    /// when `t` nests deeper than 32 levels.
    ///
    /// This is a binding's element type: how its bytes are read, printed and compared
    /// (spvx-run's dtype check of `.npy` data, spvx-vk's reflection).
    pub fn uniform_scalar(&self, t: Id) -> Option<&Type> {
        let mut found: Option<&Type> = None;
        let mut stack = vec![(t, 0u32)];
        while let Some((t, depth)) = stack.pop() {
            if depth > UNIFORM_SCALAR_DEPTH {
                return None;
            }
            let ty = self.ty(t)?;
            match ty {
                Type::Int { .. } | Type::Float { .. } => match found {
                    Some(f) if f != ty => return None,
                    _ => found = Some(ty),
                },
                Type::Struct { members } => stack.extend(members.iter().map(|&m| (m, depth + 1))),
                Type::Array { element, .. }
                | Type::RuntimeArray { element }
                | Type::Tensor { element, .. } => stack.push((*element, depth + 1)),
                Type::Vector { component, .. } => stack.push((*component, depth + 1)),
                Type::Matrix { column, .. } => stack.push((*column, depth + 1)),
                // A long vector whose count is a specialization constant: its components.
                Type::Other(Op::TypeVectorIdEXT) => {
                    stack.push((self.spec_vector(t)?.0, depth + 1));
                }
                _ => return None,
            }
        }
        found
    }
}

impl Type {
    /// The types this one is made of by value: components, columns, elements, members, a
    /// function's return and parameter types, a tensor's or cooperative matrix's element. Not a
    /// pointer's pointee (pointers may legally refer to types declared later, and a struct may
    /// hold a pointer to itself), nor constants (lengths, ranks, shapes).
    fn constituents(&self) -> Vec<Id> {
        match self {
            Type::Vector { component, .. } | Type::CooperativeMatrix { component, .. } => {
                vec![*component]
            }
            Type::Matrix { column, .. } => vec![*column],
            Type::Array { element, .. }
            | Type::RuntimeArray { element }
            | Type::Tensor { element, .. } => vec![*element],
            Type::Struct { members } => members.clone(),
            Type::Function { ret, params } => std::iter::once(*ret)
                .chain(params.iter().copied())
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Removes every type that contains itself by value, directly or through others (an array of
/// itself, a struct holding an array of it): only an invalid module declares one (SPIR-V
/// defines a type only from types declared before it, pointers aside), the validator reports
/// its use before definition, and no walk over the types (sizes, layouts, element types) then
/// needs a guard against endless recursion. Types made of such a type are removed too. The
/// types that remain form a graph without cycles except through pointers.
pub(super) fn remove_cyclic(types: &mut HashMap<Id, Type>) {
    // Kahn's algorithm from the leaves: a type is finite once all its constituents that are
    // types are; what is never reached is on or above a cycle.
    let mut pending: HashMap<Id, usize> = HashMap::default();
    let mut users: HashMap<Id, Vec<Id>> = HashMap::default();
    let mut ready = Vec::new();
    for (&id, t) in types.iter() {
        let parts: Vec<Id> = t
            .constituents()
            .into_iter()
            .filter(|p| types.contains_key(p))
            .collect();
        for &p in &parts {
            users.entry(p).or_default().push(id);
        }
        if parts.is_empty() {
            ready.push(id);
        }
        pending.insert(id, parts.len());
    }
    while let Some(id) = ready.pop() {
        pending.remove(&id);
        for user in users.remove(&id).unwrap_or_default() {
            if let Some(n) = pending.get_mut(&user) {
                *n -= 1;
                if *n == 0 {
                    ready.push(user);
                }
            }
        }
    }
    for id in pending.keys() {
        types.remove(id);
    }
}

/// The type an instruction declares, if it is a type declaration.
pub(super) fn resolve(inst: &Instruction) -> Option<Type> {
    let word = |i: usize| inst.operands.get(i).and_then(|o| o.word());
    let id = |i: usize| inst.operands.get(i).and_then(|o| o.id());
    let ids = |from: usize| -> Vec<Id> {
        inst.operands
            .iter()
            .skip(from)
            .filter_map(|o| o.id())
            .collect()
    };
    Some(match inst.opcode {
        Op::TypeVoid => Type::Void,
        Op::TypeBool => Type::Bool,
        Op::TypeInt => Type::Int {
            width: word(0)?,
            signed: word(1)? != 0,
        },
        Op::TypeFloat => Type::Float {
            width: word(0)?,
            encoding: match inst.operands.get(1).map(|o| &o.value) {
                Some(OperandValue::Word(e)) => Some(*e),
                _ => None,
            },
        },
        Op::TypeVector => Type::Vector {
            component: id(0)?,
            count: word(1)?,
        },
        Op::TypeMatrix => Type::Matrix {
            column: id(0)?,
            count: word(1)?,
        },
        Op::TypeArray => Type::Array {
            element: id(0)?,
            length: id(1)?,
        },
        Op::TypeRuntimeArray => Type::RuntimeArray { element: id(0)? },
        Op::TypeStruct => Type::Struct { members: ids(0) },
        Op::TypePointer => Type::Pointer {
            storage_class: word(0)?,
            pointee: id(1)?,
        },
        Op::TypeFunction => Type::Function {
            ret: id(0)?,
            params: ids(1),
        },
        Op::TypeTensorARM => Type::Tensor {
            element: id(0)?,
            rank: id(1),
            shape: id(2),
        },
        Op::TypeCooperativeMatrixKHR => Type::CooperativeMatrix {
            component: id(0)?,
            scope: id(1)?,
            rows: id(2)?,
            columns: id(3)?,
            usage: id(4)?,
        },
        other if is_type_decl(other) => Type::Other(other),
        _ => return None,
    })
}

/// True when the grammar classes `opcode` as a type declaration.
fn is_type_decl(opcode: Op) -> bool {
    crate::grammar::grammar()
        .instruction(opcode)
        .is_some_and(|i| i.class == "Type-Declaration")
}

#[cfg(test)]
mod tests {
    use super::Type;
    use crate::asm::{AsmOptions, assemble};
    use crate::binary::read_words;
    use crate::index::ModuleIndex;

    fn index(text: &str) -> ModuleIndex {
        let words = assemble(text, &AsmOptions::default()).unwrap().words();
        let parsed = read_words(&words).unwrap();
        ModuleIndex::build(&parsed.header, parsed.instructions)
    }

    #[test]
    fn uniform_scalar_of_blocks() {
        let ix = index(
            "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
             %f = OpTypeFloat 32\n%i = OpTypeInt 32 1\n%u = OpTypeInt 32 0\n\
             %b = OpTypeBool\n%v = OpTypeVector %f 4\n%m = OpTypeMatrix %v 4\n\
             %n = OpConstant %u 3\n%a = OpTypeArray %m %n\n%r = OpTypeRuntimeArray %f\n\
             %s1 = OpTypeStruct %f %v %a %r\n%s2 = OpTypeStruct %f %i\n\
             %s3 = OpTypeStruct %i %u\n%s4 = OpTypeStruct %b\n%s5 = OpTypeStruct %s1 %r\n",
        );
        // Ids in order of first appearance, as the assembler numbers them.
        let names = [
            "f", "i", "u", "b", "v", "m", "n", "a", "r", "s1", "s2", "s3", "s4", "s5",
        ];
        let id = |name: &str| names.iter().position(|&n| n == name).unwrap() as u32 + 1;
        let f32 = Some(&Type::Float {
            width: 32,
            encoding: None,
        });
        assert_eq!(ix.uniform_scalar(id("s1")), f32);
        assert_eq!(ix.uniform_scalar(id("s5")), f32);
        assert_eq!(ix.uniform_scalar(id("r")), f32);
        // Mixed types, signedness apart, booleans: no one scalar type.
        assert_eq!(ix.uniform_scalar(id("s2")), None);
        assert_eq!(ix.uniform_scalar(id("s3")), None);
        assert_eq!(ix.uniform_scalar(id("s4")), None);
    }

    /// Types that contain themselves by value (only an invalid module declares them) are not
    /// types of the index, nor is what is made of them; a struct holding a pointer to itself
    /// is (Physical Storage Buffer lists), and so is everything else.
    #[test]
    fn types_containing_themselves_are_removed() {
        let ix = index(
            "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
             %u = OpTypeInt 32 0\n%n = OpConstant %u 2\n\
             %a = OpTypeArray %a %n\n%s = OpTypeStruct %u %t\n%t = OpTypeRuntimeArray %s\n\
             %v = OpTypeVector %u 2\n%w = OpTypeStruct %a %v\n\
             %p = OpTypePointer StorageBuffer %l\n%l = OpTypeStruct %u %p\n",
        );
        let names = ["u", "n", "a", "s", "t", "v", "w", "p", "l"];
        let id = |name: &str| names.iter().position(|&n| n == name).unwrap() as u32 + 1;
        for gone in ["a", "s", "t", "w"] {
            assert_eq!(ix.ty(id(gone)), None, "%{gone}");
        }
        assert!(matches!(
            ix.ty(id("v")),
            Some(Type::Vector { count: 2, .. })
        ));
        assert!(matches!(ix.ty(id("l")), Some(Type::Struct { members }) if members.len() == 2));
        assert!(matches!(ix.ty(id("p")), Some(Type::Pointer { .. })));
    }
}

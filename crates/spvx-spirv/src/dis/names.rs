//! Friendly names for ids, by the rules of SPIRV-Tools' `source/name_mapper.cpp` (2025.5).
//!
//! One pass over the module, in order. Each id gets the first name suggested for it:
//! - `OpName` (so names win over everything later), then `OpDecorate ... BuiltIn` (a fixed
//!   table, e.g. `gl_GlobalInvocationID`);
//! - types: `void`, `bool`, `uint`/`int`/`char`/`short`/`long` (other widths `i<N>`/`u<N>`),
//!   `half`/`float`/`double`/`fp<N>`, `bfloat16`, `fp8e4m3`, `fp8e5m2`, `v<N><comp>`,
//!   `mat<N><col>`, `_arr_<elem>_<len>`, `_runtimearr_<elem>`, `_payloadarr_<elem>`,
//!   `_ptr_<Class>_<pointee>`,
//!   `_ptr_<Class>` (untyped), `Pipe<Access>`, `Event`, ..., `_struct_<id>`;
//! - constants: `true`, `false`, `<type>_<value>` with `-` spelled `n`;
//! - any other result: its number.
//!
//! A suggestion is sanitised (every byte outside `[A-Za-z0-9_]` becomes `_`, the empty name
//! becomes `_`), and a taken name gets the first free suffix `_0`, `_1`, .... References to ids
//! not named yet (forward references inside a type name) use the bare number.

use super::literal;
use super::types::ModuleTypes;
use crate::context::{ModuleContext, NumericType};
use crate::grammar::{Grammar, KindId};
use crate::instruction::{Id, Instruction, OperandValue};
use crate::op::Op;
use rustc_hash::{FxHashMap as FastMap, FxHashSet as FastSet};
use std::collections::HashMap;

/// `Decoration BuiltIn`.
const DECORATION_BUILT_IN: u32 = 11;

/// Built-ins with a friendly name: (grammar enumerant name, name given).
const BUILT_IN_NAMES: &[(&str, &str)] = &[
    ("Position", "gl_Position"),
    ("PointSize", "gl_PointSize"),
    ("ClipDistance", "gl_ClipDistance"),
    ("CullDistance", "gl_CullDistance"),
    ("VertexId", "gl_VertexID"),
    ("InstanceId", "gl_InstanceID"),
    ("PrimitiveId", "gl_PrimitiveID"),
    ("InvocationId", "gl_InvocationID"),
    ("Layer", "gl_Layer"),
    ("ViewportIndex", "gl_ViewportIndex"),
    ("TessLevelOuter", "gl_TessLevelOuter"),
    ("TessLevelInner", "gl_TessLevelInner"),
    ("TessCoord", "gl_TessCoord"),
    ("PatchVertices", "gl_PatchVertices"),
    ("FragCoord", "gl_FragCoord"),
    ("PointCoord", "gl_PointCoord"),
    ("FrontFacing", "gl_FrontFacing"),
    ("SampleId", "gl_SampleID"),
    ("SamplePosition", "gl_SamplePosition"),
    ("SampleMask", "gl_SampleMask"),
    ("FragDepth", "gl_FragDepth"),
    ("HelperInvocation", "gl_HelperInvocation"),
    ("NumWorkgroups", "gl_NumWorkGroups"),
    ("WorkgroupSize", "gl_WorkGroupSize"),
    ("WorkgroupId", "gl_WorkGroupID"),
    ("LocalInvocationId", "gl_LocalInvocationID"),
    ("GlobalInvocationId", "gl_GlobalInvocationID"),
    ("LocalInvocationIndex", "gl_LocalInvocationIndex"),
    ("WorkDim", "WorkDim"),
    ("GlobalSize", "GlobalSize"),
    ("EnqueuedWorkgroupSize", "EnqueuedWorkgroupSize"),
    ("GlobalOffset", "GlobalOffset"),
    ("GlobalLinearId", "GlobalLinearId"),
    ("SubgroupSize", "SubgroupSize"),
    ("SubgroupMaxSize", "SubgroupMaxSize"),
    ("NumSubgroups", "NumSubgroups"),
    ("NumEnqueuedSubgroups", "NumEnqueuedSubgroups"),
    ("SubgroupId", "SubgroupId"),
    ("SubgroupLocalInvocationId", "SubgroupLocalInvocationId"),
    ("VertexIndex", "gl_VertexIndex"),
    ("InstanceIndex", "gl_InstanceIndex"),
    ("BaseInstance", "gl_BaseInstance"),
    ("SubgroupEqMask", "SubgroupEqMaskKHR"),
    ("SubgroupGeMask", "SubgroupGeMaskKHR"),
    ("SubgroupGtMask", "SubgroupGtMaskKHR"),
    ("SubgroupLeMask", "SubgroupLeMaskKHR"),
    ("SubgroupLtMask", "SubgroupLtMaskKHR"),
];

/// Replaces every byte outside `[A-Za-z0-9_]` by `_`; the empty name becomes `_`.
pub fn sanitize(suggested: &str) -> String {
    if suggested.is_empty() {
        return "_".to_string();
    }
    suggested
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'_' {
                b as char
            } else {
                '_'
            }
        })
        .collect()
}

/// Id → name: a vector for ids up to a bound proportional to the module's size (the usual,
/// dense case), a map for any larger id (a hostile bound cannot make it allocate much).
#[derive(Clone, Debug, Default)]
struct NameTable {
    dense: Vec<Option<Box<str>>>,
    sparse: FastMap<Id, Box<str>>,
}

impl NameTable {
    fn with_dense_len(len: usize) -> Self {
        NameTable {
            dense: vec![None; len],
            sparse: FastMap::default(),
        }
    }

    fn get(&self, id: Id) -> Option<&str> {
        match self.dense.get(id as usize) {
            Some(slot) => slot.as_deref(),
            None => self.sparse.get(&id).map(|s| &**s),
        }
    }

    fn insert(&mut self, id: Id, name: Box<str>) {
        match self.dense.get_mut(id as usize) {
            Some(slot) => *slot = Some(name),
            None => {
                self.sparse.insert(id, name);
            }
        }
    }
}

/// The friendly names of a module's ids.
#[derive(Clone, Debug, Default)]
pub struct FriendlyNames {
    names: NameTable,
    used: FastSet<Box<str>>,
}

impl FriendlyNames {
    /// Names every id of `instructions`; `ctx` must already know all of the module's types.
    pub fn build(g: &Grammar, ctx: &ModuleContext, instructions: &[Instruction]) -> Self {
        Self::build_with(g, &|id| ctx.numeric_type(id), instructions)
    }

    /// As [`FriendlyNames::build`], with the printer's lighter type table.
    pub(crate) fn build_for_print(
        g: &Grammar,
        types: &ModuleTypes,
        instructions: &[Instruction],
    ) -> Self {
        Self::build_with(g, &|id| types.numeric_type(id), instructions)
    }

    fn build_with(
        g: &Grammar,
        ctx: &dyn Fn(Id) -> Option<NumericType>,
        instructions: &[Instruction],
    ) -> Self {
        let max_result = instructions
            .iter()
            .filter_map(|i| i.result)
            .max()
            .unwrap_or(0);
        let dense_len = (max_result as usize + 1).min(instructions.len() * 2 + 4096);
        let mut n = FriendlyNames {
            names: NameTable::with_dense_len(dense_len),
            used: FastSet::default(),
        };
        let built_ins = built_in_names(g);
        let storage_class = g.kind_by_name("StorageClass");
        let access_qualifier = g.kind_by_name("AccessQualifier");
        for inst in instructions {
            n.observe(g, ctx, inst, &built_ins, storage_class, access_qualifier);
        }
        n
    }

    /// The name of `id` (its number when it has none).
    pub fn get(&self, id: Id) -> std::borrow::Cow<'_, str> {
        match self.names.get(id) {
            Some(s) => std::borrow::Cow::Borrowed(s),
            None => std::borrow::Cow::Owned(id.to_string()),
        }
    }

    fn save(&mut self, id: Id, suggested: &str) {
        if self.names.get(id).is_some() {
            return;
        }
        let base = sanitize(suggested);
        let name: Box<str> = if self.used.contains(base.as_str()) {
            let mut index = 0u32;
            loop {
                let candidate = format!("{base}_{index}");
                if !self.used.contains(candidate.as_str()) {
                    break candidate.into();
                }
                index += 1;
            }
        } else {
            base.into()
        };
        self.used.insert(name.clone());
        self.names.insert(id, name);
    }

    fn enum_name(g: &Grammar, kind: Option<KindId>, value: u32) -> String {
        match kind.and_then(|k| g.enumerant_name(k, value)) {
            Some(s) => s.to_string(),
            None => format!("StorageClass{value}"),
        }
    }

    fn observe(
        &mut self,
        g: &Grammar,
        ctx: &dyn Fn(Id) -> Option<NumericType>,
        inst: &Instruction,
        built_ins: &HashMap<u32, &'static str>,
        storage_class: Option<KindId>,
        access_qualifier: Option<KindId>,
    ) {
        let ops = &inst.operands;
        let word = |i: usize| ops.get(i).and_then(|o| o.word());
        let id_at = |i: usize| ops.get(i).and_then(|o| o.id());
        let Some(result) = inst.result else {
            match inst.opcode {
                Op::Name => {
                    if let (Some(target), Some(s)) = (id_at(0), ops.get(1).and_then(|o| o.string()))
                    {
                        self.save(target, s);
                    }
                }
                Op::Decorate => {
                    if let (Some(target), Some(DECORATION_BUILT_IN), Some(b)) =
                        (id_at(0), word(1), word(2))
                        && let Some(name) = built_ins.get(&b)
                    {
                        self.save(target, name);
                    }
                }
                _ => {}
            }
            return;
        };
        let id_name =
            |n: &Self, i: usize| id_at(i).map_or_else(String::new, |id| n.get(id).into_owned());
        let suggested: String = match inst.opcode {
            Op::TypeVoid => "void".into(),
            Op::TypeBool => "bool".into(),
            Op::TypeInt => {
                let width = word(0).unwrap_or(0);
                let root = match width {
                    8 => "char".to_string(),
                    16 => "short".to_string(),
                    32 => "int".to_string(),
                    64 => "long".to_string(),
                    w => format!("i{w}"),
                };
                if word(1) == Some(0) {
                    match width {
                        8 | 16 | 32 | 64 => format!("u{root}"),
                        w => format!("u{w}"),
                    }
                } else {
                    root
                }
            }
            Op::TypeFloat => match (word(0).unwrap_or(0), word(1)) {
                (_, Some(0)) => "bfloat16".into(),
                (_, Some(4214)) => "fp8e4m3".into(),
                (_, Some(4215)) => "fp8e5m2".into(),
                (16, _) => "half".into(),
                (32, _) => "float".into(),
                (64, _) => "double".into(),
                (w, _) => format!("fp{w}"),
            },
            Op::TypeVector => format!("v{}{}", word(1).unwrap_or(0), id_name(self, 0)),
            Op::TypeMatrix => format!("mat{}{}", word(1).unwrap_or(0), id_name(self, 0)),
            Op::TypeArray => format!("_arr_{}_{}", id_name(self, 0), id_name(self, 1)),
            Op::TypeRuntimeArray => format!("_runtimearr_{}", id_name(self, 0)),
            Op::TypeNodePayloadArrayAMDX => format!("_payloadarr_{}", id_name(self, 0)),
            Op::TypePointer => format!(
                "_ptr_{}_{}",
                Self::enum_name(g, storage_class, word(0).unwrap_or(0)),
                id_name(self, 1)
            ),
            Op::TypeUntypedPointerKHR => format!(
                "_ptr_{}",
                Self::enum_name(g, storage_class, word(0).unwrap_or(0))
            ),
            Op::TypePipe => format!(
                "Pipe{}",
                Self::enum_name(g, access_qualifier, word(0).unwrap_or(0))
            ),
            Op::TypeEvent => "Event".into(),
            Op::TypeDeviceEvent => "DeviceEvent".into(),
            Op::TypeReserveId => "ReserveId".into(),
            Op::TypeQueue => "Queue".into(),
            Op::TypeOpaque => format!(
                "Opaque_{}",
                sanitize(ops.first().and_then(|o| o.string()).unwrap_or(""))
            ),
            Op::TypePipeStorage => "PipeStorage".into(),
            Op::TypeNamedBarrier => "NamedBarrier".into(),
            Op::TypeStruct => format!("_struct_{result}"),
            Op::ConstantTrue => "true".into(),
            Op::ConstantFalse => "false".into(),
            Op::Constant => {
                let ty = inst.result_type.unwrap_or(0);
                let mut value = String::new();
                if let (Some(t), Some(OperandValue::Number(ws))) =
                    (ctx(ty), ops.first().map(|o| &o.value))
                    && ws.len() <= 2
                {
                    // spirv-dis leaves constants wider than 64 bits out of the name.
                    literal::write_number(&mut value, t, ws);
                }
                format!("{}_{}", self.get(ty), value.replace('-', "n"))
            }
            _ => result.to_string(),
        };
        self.save(result, &suggested);
    }
}

/// Built-in value → friendly name, resolved through the grammar.
fn built_in_names(g: &Grammar) -> HashMap<u32, &'static str> {
    let mut map = HashMap::new();
    if let Some(kind) = g.kind_by_name("BuiltIn") {
        let k = g.kind(kind);
        for (enumerant, name) in BUILT_IN_NAMES {
            if let Some(e) = k.enumerant_by_name(enumerant) {
                map.insert(e.value, *name);
            }
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn sanitize_replaces_each_byte() {
        assert_eq!(sanitize(""), "_");
        assert_eq!(sanitize("x y-z"), "x_y_z");
        assert_eq!(sanitize("a.b"), "a_b");
        // "é" is two bytes in UTF-8, hence two underscores.
        assert_eq!(sanitize("é"), "__");
    }
}

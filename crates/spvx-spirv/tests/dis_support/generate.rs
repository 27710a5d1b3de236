//! Generated spirv-as text that exercises the whole grammar: every instruction with every
//! operand filled in (optional and variadic operands present), every enumerant of every value
//! enum and every bit of every mask (with their parameters), every instruction of the
//! GLSL.std.450 and OpenCL.std sets, and `OpSpecConstantOp` with every opcode it may embed.
//!
//! The text only has to assemble (spirv-as does not validate): ids are placeholders.

use spvx_spirv::grammar::{Grammar, KindId, Operand, Quantifier, Shape, grammar};
use spvx_spirv::op::Op;
use std::collections::HashSet;
use std::fmt::Write;

/// Opcodes spirv-as 2025.5 does not know (SPV_VALVE_mixed_float_dot_product).
pub const UNKNOWN_TO_SPIRV_TOOLS: [Op; 3] = [
    Op::FDot2MixAcc32VALVE,
    Op::FDot2MixAcc16VALVE,
    Op::FDot4MixAcc32VALVE,
];
/// Capabilities spirv-as 2025.5 does not know (SPV_VALVE_mixed_float_dot_product,
/// SPV_EXT_ocp_microscaling_types, SPV_EXT_long_vector: spvx's grammar supplement).
pub const CAPABILITIES_UNKNOWN_TO_SPIRV_TOOLS: [u32; 10] =
    [6912, 6913, 6914, 6915, 4228, 4229, 4230, 4231, 4232, 5425];

/// FP encodings spirv-as 2025.5 does not know (SPV_EXT_ocp_microscaling_types).
pub const FP_ENCODINGS_UNKNOWN_TO_SPIRV_TOOLS: [u32; 5] = [4223, 4224, 4225, 4226, 4227];

/// Operand kinds spirv-dis 2025.5 cannot print ("Internal error: Unhandled operand type").
pub const SPIRV_DIS_UNHANDLED_KINDS: [&str; 1] = ["InitializationModeQualifier"];

/// The common prologue: types and placeholder values the generated lines refer to.
const PROLOGUE: &str = "\
OpCapability Shader
%glsl = OpExtInstImport \"GLSL.std.450\"
%ocl = OpExtInstImport \"OpenCL.std\"
%printf = OpExtInstImport \"NonSemantic.DebugPrintf\"
%other = OpExtInstImport \"NonSemantic.Unknown.Set\"
OpMemoryModel Logical GLSL450
%uint = OpTypeInt 32 0
%a = OpUndef %uint
";

struct Gen<'a> {
    g: &'a Grammar,
    out: String,
    next: u32,
    swept: HashSet<KindId>,
}

impl Gen<'_> {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("%{prefix}{}", self.next)
    }

    /// Default text of one operand of `kind`; `sweep` asks for a given enumerant value.
    fn operand(&mut self, kind: KindId, value: Option<u32>) -> String {
        let k = self.g.kind(kind);
        match k.shape {
            Shape::IdResultType => "%uint".into(),
            Shape::IdResult => self.fresh("r"),
            Shape::IdRef => "%a".into(),
            Shape::LiteralInteger => "7".into(),
            Shape::LiteralString => "\"s\\\"q\"".into(),
            Shape::LiteralFloat => "1.5".into(),
            Shape::LiteralContextDependentNumber => "42".into(),
            Shape::LiteralExtInstInteger => "1".into(),
            Shape::LiteralSpecConstantOpInteger => "IAdd".into(),
            Shape::ValueEnum => {
                let e = match value {
                    Some(v) => k.enumerant(v),
                    None => k.enumerants.first(),
                };
                let Some(e) = e else { return "0".into() };
                let params = e.parameters.clone();
                let mut s = e.name.to_string();
                for p in &params {
                    s.push(' ');
                    s.push_str(&self.logical(p));
                }
                s
            }
            Shape::BitEnum => {
                let mask = value.unwrap_or(0);
                let mask = match (mask, k.enumerant(0)) {
                    (0, Some(e)) => return e.name.to_string(),
                    // A mask kind without a name for 0 (spirv-as rejects a bare 0 there).
                    (0, None) => k.enumerants.first().map_or(0, |e| e.value),
                    (m, _) => m,
                };
                let mut names = Vec::new();
                let mut params = Vec::new();
                for bit in 0..32 {
                    if let Some(e) = k.enumerant(1 << bit).filter(|_| mask & (1 << bit) != 0) {
                        names.push(e.name);
                        params.extend(e.parameters.clone());
                    }
                }
                let mut s = names.join("|");
                for p in &params {
                    s.push(' ');
                    s.push_str(&self.logical(p));
                }
                s
            }
            Shape::Pair(a, b) => format!("{} {}", self.operand(a, None), self.operand(b, None)),
        }
    }

    /// One logical operand with its quantifier (optional and variadic ones given once).
    fn logical(&mut self, o: &Operand) -> String {
        let _ = o.quantifier;
        self.operand(o.kind, None)
    }

    /// Writes `name operands...`, with the operand at `sweep_at` replaced by `sweep_text`.
    fn line(&mut self, name: &str, ops: &[Operand], sweep: Option<(usize, u32)>) {
        let mut result = None;
        let mut rest = Vec::new();
        for (i, o) in ops.iter().enumerate() {
            let shape = self.g.kind(o.kind).shape;
            if shape == Shape::IdResult {
                result = Some(self.fresh("r"));
                continue;
            }
            let value = sweep.filter(|(at, _)| *at == i).map(|(_, v)| v);
            if sweep.is_some() && shape == Shape::IdRef {
                // A fresh target per swept line, so that each `BuiltIn` names its own id.
                let id = self.fresh("t");
                rest.push(id);
                continue;
            }
            rest.push(self.operand(o.kind, value));
            if o.quantifier == Quantifier::Variadic && value.is_none() {
                rest.push(self.operand(o.kind, None));
            }
        }
        if let Some(r) = result {
            let _ = write!(self.out, "{r} = ");
        }
        self.out.push_str(name);
        for r in rest {
            self.out.push(' ');
            self.out.push_str(&r);
        }
        self.out.push('\n');
    }

    fn instruction(&mut self, opcode: Op) {
        let g = self.g;
        let Some(desc) = g.instruction(opcode) else {
            return;
        };
        match opcode {
            Op::ExtInstImport => {
                let r = self.fresh("r");
                let _ = writeln!(self.out, "{r} = OpExtInstImport \"GLSL.std.450\"");
                return;
            }
            Op::ExtInst | Op::ExtInstWithForwardRefsKHR => return self.ext_insts(desc.name),
            Op::SpecConstantOp => return self.spec_constant_ops(),
            _ => {}
        }
        self.line(desc.name, &desc.operands, None);
        // Without the optional/variadic operands too.
        let required: Vec<Operand> = desc
            .operands
            .iter()
            .filter(|o| o.quantifier == Quantifier::One)
            .cloned()
            .collect();
        if required.len() != desc.operands.len() {
            self.line(desc.name, &required, None);
        }
        // Every enumerant of each enum kind, at the first place the kind appears.
        for (i, o) in desc.operands.iter().enumerate() {
            let k = g.kind(o.kind);
            if !matches!(k.shape, Shape::ValueEnum | Shape::BitEnum) || !self.swept.insert(o.kind) {
                continue;
            }
            let mut values: Vec<u32> = k.enumerants.iter().map(|e| e.value).collect();
            if k.shape == Shape::BitEnum {
                values.push(values.iter().fold(0, |m, v| m | v));
            }
            for v in values {
                let unprintable = k.enumerant(v).is_some_and(|e| {
                    e.parameters
                        .iter()
                        .any(|p| SPIRV_DIS_UNHANDLED_KINDS.contains(&g.kind(p.kind).name.as_str()))
                });
                if unprintable {
                    continue;
                }
                if k.name == "Capability" && CAPABILITIES_UNKNOWN_TO_SPIRV_TOOLS.contains(&v) {
                    continue;
                }
                if k.name == "FPEncoding" && FP_ENCODINGS_UNKNOWN_TO_SPIRV_TOOLS.contains(&v) {
                    continue;
                }
                self.line(desc.name, &desc.operands, Some((i, v)));
            }
        }
    }

    fn ext_insts(&mut self, op_name: &str) {
        let g = self.g;
        for (set_id, set_name) in [("%glsl", "GLSL.std.450"), ("%ocl", "OpenCL.std")] {
            let Some(set) = g.ext_inst_set(set_name) else {
                continue;
            };
            for inst in &set.instructions {
                let r = self.fresh("r");
                let mut s = format!("{r} = {op_name} %uint {set_id} {}", inst.name);
                for o in &inst.operands.clone() {
                    s.push(' ');
                    s.push_str(&self.logical(o));
                }
                self.out.push_str(&s);
                self.out.push('\n');
            }
        }
        // Sets spirv-dis prints by number.
        let r = self.fresh("r");
        let _ = writeln!(self.out, "{r} = {op_name} %uint %printf 1 %a %a");
        let r = self.fresh("r");
        let _ = writeln!(self.out, "{r} = {op_name} %uint %other 99 %a");
    }

    fn spec_constant_ops(&mut self) {
        // The opcodes OpSpecConstantOp may embed (SPIR-V 1.6 section 3.52.7, OpSpecConstantOp).
        const OPS: &[&str] = &[
            "SConvert",
            "UConvert",
            "FConvert",
            "SNegate",
            "Not",
            "IAdd",
            "ISub",
            "IMul",
            "UDiv",
            "SDiv",
            "UMod",
            "SRem",
            "SMod",
            "ShiftRightLogical",
            "ShiftRightArithmetic",
            "ShiftLeftLogical",
            "BitwiseOr",
            "BitwiseXor",
            "BitwiseAnd",
            "VectorShuffle",
            "CompositeExtract",
            "CompositeInsert",
            "LogicalOr",
            "LogicalAnd",
            "LogicalNot",
            "LogicalEqual",
            "LogicalNotEqual",
            "Select",
            "IEqual",
            "INotEqual",
            "ULessThan",
            "SLessThan",
            "UGreaterThan",
            "SGreaterThan",
            "ULessThanEqual",
            "SLessThanEqual",
            "UGreaterThanEqual",
            "SGreaterThanEqual",
            "QuantizeToF16",
            "ConvertFToS",
            "ConvertSToF",
            "ConvertFToU",
            "ConvertUToF",
            "UConvert",
            "ConvertPtrToU",
            "ConvertUToPtr",
            "GenericCastToPtr",
            "PtrCastToGeneric",
            "Bitcast",
            "FNegate",
            "FAdd",
            "FSub",
            "FMul",
            "FDiv",
            "FRem",
            "FMod",
            "AccessChain",
            "InBoundsAccessChain",
            "PtrAccessChain",
            "InBoundsPtrAccessChain",
        ];
        let g = self.g;
        for name in OPS {
            let Some(desc) = g.instruction_by_name(&format!("Op{name}")) else {
                continue;
            };
            let ops: Vec<Operand> = desc
                .operands
                .iter()
                .filter(|o| !matches!(g.kind(o.kind).shape, Shape::IdResult | Shape::IdResultType))
                .cloned()
                .collect();
            let r = self.fresh("r");
            let mut s = format!("{r} = OpSpecConstantOp %uint {name}");
            for o in &ops {
                s.push(' ');
                s.push_str(&self.logical(o));
                if o.quantifier == Quantifier::Variadic {
                    s.push(' ');
                    s.push_str(&self.logical(o));
                }
            }
            self.out.push_str(&s);
            self.out.push('\n');
        }
    }
}

/// A module with every instruction of the grammar known to spirv-as, every enumerant and every
/// mask bit, split into chunks of about `per_chunk` instructions (each a standalone module).
pub fn whole_grammar_modules(per_chunk: usize) -> Vec<String> {
    let g = grammar();
    let mut generator = Gen {
        g,
        out: String::new(),
        next: 0,
        swept: HashSet::new(),
    };
    let mut opcodes: Vec<Op> = g.instructions.iter().map(|i| i.opcode).collect();
    opcodes.sort_unstable();
    let mut modules = Vec::new();
    let mut count = 0;
    for op in opcodes {
        if UNKNOWN_TO_SPIRV_TOOLS.contains(&op) {
            continue;
        }
        generator.instruction(op);
        count += 1;
        if count % per_chunk == 0 {
            modules.push(format!("{PROLOGUE}{}", std::mem::take(&mut generator.out)));
        }
    }
    if !generator.out.is_empty() {
        modules.push(format!("{PROLOGUE}{}", generator.out));
    }
    modules
}

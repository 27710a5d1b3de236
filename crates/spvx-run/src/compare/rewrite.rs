//! Variants of a module that make one freedom of the specification explicit, so that the
//! engine computes, exactly, the value an implementation taking that freedom gives:
//!
//! - a contraction site (`%m = OpFMul a b` used by `%r = OpFAdd`/`OpFSub`) becomes
//!   `%r = GLSL.std.450 Fma` (one rounding; the engine's Fma is exactly fused):
//!   `m + c → fma(a, b, c)`, `m − c → fma(a, b, −c)`, `c − m → fma(−a, b, c)` (negation is
//!   exact, so each is the one-rounding value of the original expression);
//! - a GLSL.std.450 `Fma` becomes `OpFMul` then `OpFAdd`, each rounded.
//!
//! Only the named sites change; result ids stay, new ids come after the header's bound.

use spvx_spirv::binary::Header;
use spvx_spirv::grammar::grammar;
use spvx_spirv::index::ModuleIndex;
use spvx_spirv::instruction::{Id, Instruction, Operand, OperandValue};
use spvx_spirv::op::{GlslStd450, Op};

/// The module of `ix` with the contraction sites `contract` ((multiply, add) result ids) fused
/// and the GLSL.std.450 Fma results `unfuse` split. None when a site is not what it should be
/// (the module changed, or the ids name other instructions).
pub fn rewrite(
    ix: &ModuleIndex,
    contract: &[(Id, Id)],
    unfuse: &[Id],
) -> Option<(Header, Vec<Instruction>)> {
    let g = grammar();
    let id_ref = g.common.id_ref;
    let ext_int = g.kind_by_name("LiteralExtInstInteger")?;
    let mut header = ix.header;
    let mut fresh = || {
        let id = header.bound;
        header.bound += 1;
        id
    };
    let mut insts = ix.insts.clone();
    let import = match ix
        .ext_imports
        .iter()
        .find(|(_, n)| n.as_str() == "GLSL.std.450")
    {
        Some((&id, _)) => id,
        None => {
            let id = fresh();
            let at = insts
                .iter()
                .rposition(|i| {
                    matches!(i.opcode, Op::Capability | Op::Extension | Op::ExtInstImport)
                })
                .map_or(0, |p| p + 1);
            insts.insert(
                at,
                Instruction {
                    opcode: Op::ExtInstImport,
                    result_type: None,
                    result: Some(id),
                    operands: vec![Operand {
                        kind: g.common.literal_string,
                        value: OperandValue::String("GLSL.std.450".into()),
                    }],
                },
            );
            id
        }
    };
    let idop = |id: Id| Operand {
        kind: id_ref,
        value: OperandValue::Id(id),
    };
    let ext = |rt: Option<Id>, r: Option<Id>, f: GlslStd450, args: [Id; 3]| Instruction {
        opcode: Op::ExtInst,
        result_type: rt,
        result: r,
        operands: [
            idop(import),
            Operand {
                kind: ext_int,
                value: OperandValue::Word(f.number()),
            },
        ]
        .into_iter()
        .chain(args.map(idop))
        .collect(),
    };
    let position = |insts: &[Instruction], id: Id| insts.iter().position(|i| i.result == Some(id));
    for &(m, r) in contract {
        let mul = ix.def_inst(m)?;
        if mul.opcode != Op::FMul {
            return None;
        }
        let (a, b) = (
            ModuleIndex::operand_id(mul, 0)?,
            ModuleIndex::operand_id(mul, 1)?,
        );
        let at = position(&insts, r)?;
        let add = insts[at].clone();
        let (x, y) = (
            ModuleIndex::operand_id(&add, 0)?,
            ModuleIndex::operand_id(&add, 1)?,
        );
        let rt = add.result_type?;
        let negate = |v: Id, id: Id| Instruction {
            opcode: Op::FNegate,
            result_type: Some(rt),
            result: Some(id),
            operands: vec![idop(v)],
        };
        let (args, neg) = match (add.opcode, x == m, y == m) {
            (Op::FAdd, true, _) => ([a, b, y], None),
            (Op::FAdd, false, true) => ([a, b, x], None),
            (Op::FSub, true, _) => {
                let n = fresh();
                ([a, b, n], Some(negate(y, n)))
            }
            (Op::FSub, false, true) => {
                let n = fresh();
                ([n, b, x], Some(negate(a, n)))
            }
            _ => return None,
        };
        insts[at] = ext(Some(rt), Some(r), GlslStd450::Fma, args);
        if let Some(n) = neg {
            insts.insert(at, n);
        }
    }
    for &r in unfuse {
        let at = position(&insts, r)?;
        let fma = insts[at].clone();
        if fma.opcode != Op::ExtInst {
            return None;
        }
        let (a, b, c) = (
            ModuleIndex::operand_id(&fma, 2)?,
            ModuleIndex::operand_id(&fma, 3)?,
            ModuleIndex::operand_id(&fma, 4)?,
        );
        let t = fresh();
        insts[at] = Instruction {
            opcode: Op::FAdd,
            result_type: fma.result_type,
            result: Some(r),
            operands: vec![idop(t), idop(c)],
        };
        insts.insert(
            at,
            Instruction {
                opcode: Op::FMul,
                result_type: fma.result_type,
                result: Some(t),
                operands: vec![idop(a), idop(b)],
            },
        );
    }
    Some((header, insts))
}

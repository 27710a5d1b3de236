//! Types in control flow and functions (SPIR-V §3.52.9, §3.52.17): `OpBranchConditional`'s
//! condition, `OpSwitch`'s selector, `OpReturn`/`OpReturnValue` against the function's return
//! type, `OpPhi` values, `OpFunction` against its function type, `OpFunctionParameter`, and
//! `OpFunctionCall` arguments. Branch targets and `OpPhi` parents are checked in
//! [`crate::rules::cfg`].

use super::{Check, Cx, Kind, ensure};
use spvx_spirv::grammar::Version;
use spvx_spirv::index::Type;
use spvx_spirv::op::Op;

pub(super) fn check(cx: &Cx) -> Check {
    match cx.inst.opcode {
        Op::BranchConditional => {
            ensure(
                cx.type_of(0)
                    .and_then(|t| cx.shape(t))
                    .is_some_and(|s| s.kind == Kind::Bool && !s.vector),
                || cx.operand_err(0, "Condition", "a bool scalar type"),
            )?;
            // SPIR-V 1.6, OpBranchConditional: "True Label and False Label must be different".
            ensure(
                cx.ix.header.version() < Version::new(1, 6) || cx.id(1) != cx.id(2),
                || {
                    cx.rule("In SPIR-V 1.6 or later, True Label and False Label must be different labels")
                },
            )
        }
        Op::Switch => ensure(
            cx.type_of(0)
                .and_then(|t| cx.shape(t))
                .is_some_and(|s| s.kind == Kind::Int && !s.vector),
            || cx.operand_err(0, "Selector", "an int scalar type"),
        ),
        Op::Return | Op::ReturnValue => ret(cx),
        Op::Phi => phi(cx),
        Op::Function => function(cx),
        Op::FunctionParameter => parameter(cx),
        Op::FunctionCall => call(cx),
        _ => Ok(()),
    }
}

/// The return type of the function instruction `index` belongs to.
fn return_type(cx: &Cx) -> Option<u32> {
    let f = cx.ix.function_of(cx.index)?;
    cx.ix.insts[cx.ix.functions[f].def].result_type
}

fn ret(cx: &Cx) -> Check {
    let Some(rt) = return_type(cx) else {
        return Ok(());
    };
    let void = matches!(cx.ix.ty(rt), Some(Type::Void));
    if cx.inst.opcode == Op::Return {
        return ensure(void, || {
            cx.rule(format!(
                "OpReturn can only be used in a function returning void, but this one returns {}",
                cx.ix.name(rt)
            ))
        });
    }
    ensure(!void, || {
        cx.rule("OpReturnValue cannot be used in a function returning void")
    })?;
    ensure(cx.type_of(0) == Some(rt), || {
        cx.operand_err(
            0,
            "Value",
            &format!("of the function's return type {}", cx.ix.name(rt)),
        )
    })
}

fn phi(cx: &Cx) -> Check {
    if cx.opaque(cx.inst.result_type) {
        return Ok(());
    }
    ensure(cx.inst.operands.len().is_multiple_of(2), || {
        cx.rule("operands must come in (Variable, Parent) pairs")
    })?;
    for i in (0..cx.inst.operands.len()).step_by(2) {
        ensure(cx.type_of(i) == cx.inst.result_type, || {
            cx.operand_err(i, &format!("Variable {}", i / 2 + 1), "of the Result Type")
        })?;
    }
    Ok(())
}

fn function(cx: &Cx) -> Check {
    let Some(ft) = cx.id(1) else { return Ok(()) };
    let Some(Type::Function { ret, params }) = cx.ix.ty(ft) else {
        return Err(cx.operand_err(1, "Function Type", "an OpTypeFunction"));
    };
    ensure(cx.inst.result_type == Some(*ret), || {
        cx.rule(format!(
            "Result Type {} does not match the return type {} of Function Type {}",
            cx.tname(cx.inst.result_type),
            cx.ix.name(*ret),
            cx.ix.name(ft)
        ))
    })?;
    let Some(f) = cx.ix.function_of(cx.index) else {
        return Ok(());
    };
    let declared = &cx.ix.functions[f].params;
    ensure(declared.len() == params.len(), || {
        cx.rule(format!(
            "the function has {} OpFunctionParameter(s), but Function Type {} has {} parameter(s)",
            declared.len(),
            cx.ix.name(ft),
            params.len()
        ))
    })
}

fn parameter(cx: &Cx) -> Check {
    let Some(f) = cx.ix.function_of(cx.index) else {
        return Ok(());
    };
    let func = &cx.ix.functions[f];
    let Some(pos) = func.params.iter().position(|&p| p == cx.index) else {
        return Ok(());
    };
    let ft = cx.ix.insts[func.def].operands.get(1).and_then(|o| o.id());
    let Some(Type::Function { params, .. }) = ft.and_then(|t| cx.ix.ty(t)) else {
        return Ok(());
    };
    match params.get(pos) {
        Some(&want) => ensure(cx.inst.result_type == Some(want), || {
            cx.rule(format!(
                "parameter {} has type {}, but the Function Type says {}",
                pos + 1,
                cx.tname(cx.inst.result_type),
                cx.ix.name(want)
            ))
        }),
        None => Ok(()),
    }
}

fn call(cx: &Cx) -> Check {
    let Some(fid) = cx.id(0) else { return Ok(()) };
    let Some(def) = cx.ix.def_inst(fid) else {
        return Ok(());
    };
    ensure(def.opcode == Op::Function, || {
        cx.rule(format!("Function {} is not an OpFunction", cx.ix.name(fid)))
    })?;
    ensure(cx.inst.result_type == def.result_type, || {
        cx.rule(format!(
            "Result Type {} does not match the return type {} of Function {}",
            cx.tname(cx.inst.result_type),
            cx.tname(def.result_type),
            cx.ix.name(fid)
        ))
    })?;
    let ft = def.operands.get(1).and_then(|o| o.id());
    let Some(Type::Function { params, .. }) = ft.and_then(|t| cx.ix.ty(t)) else {
        return Ok(());
    };
    let args = cx.inst.operands.len() - 1;
    ensure(args == params.len(), || {
        cx.rule(format!(
            "{args} argument(s) given, but Function {} takes {}",
            cx.ix.name(fid),
            params.len()
        ))
    })?;
    for (k, &want) in params.iter().enumerate() {
        ensure(cx.type_of(k + 1) == Some(want), || {
            cx.operand_err(
                k + 1,
                &format!("Argument {}", k + 1),
                &format!("of the parameter type {}", cx.ix.name(want)),
            )
        })?;
    }
    Ok(())
}

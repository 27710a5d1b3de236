//! Operand and result types of the common GLSL.std.450 extended instructions (`OpExtInst` with
//! a `GLSL.std.450` import), per the GLSL.std.450 specification: the float functions (`FAbs`,
//! `Floor`, `Sin`, `Exp`, `Pow`, `Sqrt`, `FMin`, `FClamp`, `Fma`, ...) take and return one float
//! scalar or vector type; the integer ones (`SAbs`, `SMin`, `UMax`, `SClamp`, ...) take int
//! scalars or vectors with the Result Type's component count and width (FindSMsb and FindUMsb
//! 32-bit ones only, as spirv-val requires); `Length`/`Distance`
//! return the component type of their vector operands; `Cross` works on 3-component vectors.
//! The 16/32-bit restriction on the trigonometric and exponential functions is spirv-val's
//! reading of the specification ("16-bit or 32-bit floating-point", validate_extensions.cpp).

use super::{Check, Cx, Kind, ensure};
use spvx_spirv::op::Op;

/// How one GLSL.std.450 instruction types its operands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Float scalar/vector result; every operand of the Result Type.
    Float,
    /// As `Float`, 16- or 32-bit components only.
    Float1632,
    /// Int scalar/vector result; int operands of the same component count and width.
    Int,
    /// As `Int`, 32-bit components only (FindSMsb, FindUMsb: "currently limited to 32-bit
    /// width components"; spirv-val 2025.5 applies it to these two, not to FindILsb).
    Int32,
    /// Float scalar result; float vector/scalar operands of that component type, all alike.
    Length,
    /// Float 3-component vector result; both operands of the Result Type.
    Cross,
    /// `Refract`: I and N of the Result Type; eta a float scalar.
    Refract,
}

fn rule(number: u32) -> Option<Rule> {
    Some(match number {
        // Round … Ceil, Fract (FSign 6), Sqrt, InverseSqrt, FMin, FMax, FClamp, FMix, Step,
        // SmoothStep, Fma, Normalize, FaceForward, Reflect, NMin, NMax, NClamp.
        1..=4 | 6 | 8..=10 | 31 | 32 | 37 | 40 | 43 | 46 | 48..=50 | 69..=71 | 79..=81 => {
            Rule::Float
        }
        // Radians … Log2.
        11..=30 => Rule::Float1632,
        // SAbs, SSign, UMin, SMin, UMax, SMax, UClamp, SClamp, FindILsb.
        5 | 7 | 38 | 39 | 41 | 42 | 44 | 45 | 73 => Rule::Int,
        // FindSMsb, FindUMsb.
        74 | 75 => Rule::Int32,
        66 | 67 => Rule::Length,
        68 => Rule::Cross,
        72 => Rule::Refract,
        _ => return None,
    })
}

pub(super) fn check(cx: &Cx) -> Check {
    if cx.inst.opcode != Op::ExtInst {
        return Ok(());
    }
    let is_glsl = cx
        .id(0)
        .and_then(|set| cx.ix.ext_imports.get(&set))
        .is_some_and(|n| n == "GLSL.std.450");
    let Some(number) = cx.word(1) else {
        return Ok(());
    };
    let Some(r) = rule(number).filter(|_| is_glsl) else {
        return Ok(());
    };
    if cx.any_opaque() {
        return Ok(());
    }
    let name = cx
        .ix
        .grammar
        .ext_inst_set("GLSL.std.450")
        .and_then(|s| s.instruction(number))
        .map_or_else(|| number.to_string(), |i| i.name.to_string());
    let gcx = Glsl { cx, name };
    gcx.check(r)
}

struct Glsl<'c, 'i, 'a> {
    cx: &'c Cx<'i, 'a>,
    name: String,
}

impl Glsl<'_, '_, '_> {
    fn err(&self, rule: String) -> super::InstructionError {
        self.cx.rule(format!("GLSL.std.450 {}: {rule}", self.name))
    }

    /// Number of instruction operands (after the set and the instruction number).
    fn operands(&self) -> usize {
        self.cx.inst.operands.len().saturating_sub(2)
    }

    fn check(&self, r: Rule) -> Check {
        let cx = self.cx;
        let rs = cx.result_shape();
        match r {
            Rule::Float | Rule::Float1632 => {
                ensure(rs.is_some_and(|s| s.kind == Kind::Float), || {
                    self.err("expected Result Type to be a float scalar or vector type".into())
                })?;
                if r == Rule::Float1632 {
                    ensure(rs.is_some_and(|s| s.width == 16 || s.width == 32), || {
                        self.err(
                            "expected Result Type to be a 16 or 32-bit float scalar or vector type"
                                .into(),
                        )
                    })?;
                }
                self.all_of_result(0..self.operands())
            }
            Rule::Int | Rule::Int32 => {
                let only32 = r == Rule::Int32;
                let r = rs.filter(|s| s.kind == Kind::Int).ok_or_else(|| {
                    self.err("expected Result Type to be an int scalar or vector type".into())
                })?;
                for k in 0..self.operands() {
                    let s = cx.type_of(k + 2).and_then(|t| cx.shape(t));
                    ensure(s.is_some_and(|s| s.kind == Kind::Int), || {
                        self.err(format!(
                            "expected operand {} to be an int scalar or vector type",
                            k + 1
                        ))
                    })?;
                    ensure(
                        s.is_some_and(|s| s.same_count(&r) && s.width == r.width),
                        || {
                            self.err(format!(
                            "expected operand {} to have the component count and bit width of Result Type",
                            k + 1
                        ))
                        },
                    )?;
                }
                ensure(!only32 || r.width == 32, || {
                    self.err(
                        "this instruction is currently limited to 32-bit width components".into(),
                    )
                })
            }
            Rule::Length => {
                let r = rs
                    .filter(|s| s.kind == Kind::Float && !s.vector)
                    .ok_or_else(|| {
                        self.err("expected Result Type to be a float scalar type".into())
                    })?;
                let first = cx.type_of(2);
                for k in 0..self.operands() {
                    let s = cx.type_of(k + 2).and_then(|t| cx.shape(t));
                    ensure(
                        s.is_some_and(|s| s.kind == Kind::Float && s.component == r.component),
                        || {
                            self.err(format!(
                                "expected operand {} to be a float scalar or vector of the Result Type",
                                k + 1
                            ))
                        },
                    )?;
                    ensure(cx.type_of(k + 2) == first, || {
                        self.err("expected the operands to have the same type".into())
                    })?;
                }
                Ok(())
            }
            Rule::Cross => {
                ensure(
                    rs.is_some_and(|s| s.kind == Kind::Float && s.vector && s.count == 3),
                    || self.err("expected Result Type to be a float vector of 3 components".into()),
                )?;
                self.all_of_result(0..self.operands())
            }
            Rule::Refract => {
                ensure(rs.is_some_and(|s| s.kind == Kind::Float), || {
                    self.err("expected Result Type to be a float scalar or vector type".into())
                })?;
                self.all_of_result(0..2)?;
                let eta = cx.type_of(4).and_then(|t| cx.shape(t));
                ensure(
                    eta.is_some_and(|s| s.kind == Kind::Float && !s.vector),
                    || self.err("expected eta to be a float scalar".into()),
                )
            }
        }
    }

    /// Operands `ks` (0-based after the instruction number) are all of the Result Type.
    fn all_of_result(&self, ks: std::ops::Range<usize>) -> Check {
        for k in ks {
            ensure(self.cx.type_of(k + 2) == self.cx.inst.result_type, || {
                self.err(format!(
                    "expected operand {} to be of the Result Type {}",
                    k + 1,
                    self.cx.tname(self.cx.inst.result_type)
                ))
            })?;
        }
        Ok(())
    }
}

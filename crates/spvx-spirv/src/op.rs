//! Typed opcodes: one enum per instruction set, generated from the vendored grammar.
//!
//! [`Op`] names every core instruction (the grammar's name without `Op`: `Op::TypeStruct`,
//! `Op::SDot`, `Op::FDot2MixAcc32VALVE`); [`GlslStd450`], [`OpenClStd`] and [`DebugPrintf`] name
//! the instructions of those extended sets by their grammar names. Code matches on these values,
//! never on numbers or name strings, so a misspelt opcode does not compile. The numbers and names
//! come from `generated.rs`, written by `codegen/opcodes.rs` from the same JSON the runtime
//! [`grammar`](crate::grammar) table is loaded from; a test keeps both in step.

#[rustfmt::skip]
mod generated;

pub use generated::*;

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Op {
    /// The instruction descriptor of the runtime grammar table (operands, class, capabilities).
    pub fn desc(self) -> &'static crate::grammar::Instruction {
        crate::grammar::grammar()
            .instruction(self)
            .expect("every generated opcode is in the grammar table (tests/generated_code.rs)")
    }
}

/// Families of instructions that several crates treat alike.
impl Op {
    /// The eleven math instructions of SPV_INTEL_arbitrary_precision_fixed_point
    /// (`OpFixedSqrtINTEL` … `OpFixedExpINTEL`, named `…ALTERA` in the grammar).
    pub fn is_fixed_point_math(self) -> bool {
        matches!(
            self,
            Op::FixedSqrtALTERA
                | Op::FixedRecipALTERA
                | Op::FixedRsqrtALTERA
                | Op::FixedSinALTERA
                | Op::FixedCosALTERA
                | Op::FixedSinCosALTERA
                | Op::FixedSinPiALTERA
                | Op::FixedCosPiALTERA
                | Op::FixedSinCosPiALTERA
                | Op::FixedLogALTERA
                | Op::FixedExpALTERA
        )
    }

    /// The group non-uniform arithmetic instructions, which take a GroupOperation
    /// (`OpGroupNonUniformIAdd` … `OpGroupNonUniformLogicalXor`).
    pub fn is_group_non_uniform_arithmetic(self) -> bool {
        matches!(
            self,
            Op::GroupNonUniformIAdd
                | Op::GroupNonUniformFAdd
                | Op::GroupNonUniformIMul
                | Op::GroupNonUniformFMul
                | Op::GroupNonUniformSMin
                | Op::GroupNonUniformUMin
                | Op::GroupNonUniformFMin
                | Op::GroupNonUniformSMax
                | Op::GroupNonUniformUMax
                | Op::GroupNonUniformFMax
                | Op::GroupNonUniformBitwiseAnd
                | Op::GroupNonUniformBitwiseOr
                | Op::GroupNonUniformBitwiseXor
                | Op::GroupNonUniformLogicalAnd
                | Op::GroupNonUniformLogicalOr
                | Op::GroupNonUniformLogicalXor
        )
    }

    /// The three tensor access instructions of SPV_ARM_tensors (read, write, size query).
    pub fn is_tensor_access(self) -> bool {
        matches!(
            self,
            Op::TensorReadARM | Op::TensorWriteARM | Op::TensorQuerySizeARM
        )
    }
}

//! The descriptor of one integer dot product instruction ([`DotSpec`]) and the result types of
//! the AccSat forms.

use super::IntDotError;

/// Largest result width accepted by [`DotSpec::new`], in bits. SPIR-V places no limit on
/// SPV_INTEL_arbitrary_precision_integers widths; this cap bounds the memory one lane can take.
pub const MAX_RESULT_BITS: u32 = 1 << 20;

/// Which instruction family: how the components of the two vectors are extended, and which
/// range the AccSat forms saturate to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DotKind {
    /// OpSDot / OpSDotAccSat: both vectors sign-extended; signed saturation.
    Signed,
    /// OpUDot / OpUDotAccSat: both vectors zero-extended; unsigned saturation.
    Unsigned,
    /// OpSUDot / OpSUDotAccSat: Vector 1 sign-extended, Vector 2 zero-extended; signed saturation.
    Mixed,
}

impl DotKind {
    /// Whether components of Vector 1 are signed.
    pub fn vector1_signed(self) -> bool {
        !matches!(self, DotKind::Unsigned)
    }
    /// Whether components of Vector 2 are signed.
    pub fn vector2_signed(self) -> bool {
        matches!(self, DotKind::Signed)
    }
    /// Whether the result (and accumulator) range of the AccSat form is the signed one.
    pub fn result_signed(self) -> bool {
        !matches!(self, DotKind::Unsigned)
    }
}

/// One integer dot product instruction: kind, component width and result width. Construct with
/// [`DotSpec::new`] (which validates the widths), then call its methods once per lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DotSpec {
    kind: DotKind,
    component_bits: u32,
    result_bits: u32,
}

/// Why an AccSat form hit the spec's undefined case ("If any of the multiplications or
/// additions, with the exception of the final accumulation, overflow or underflow, the result of
/// the instruction is undefined."). See `docs/semantics/integer-dot.md` for the exact definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccSatUndefined {
    /// The exact product of component `component` (the first such one) is outside the result
    /// type's range.
    ProductOverflow {
        /// Index of the first component whose product overflows.
        component: usize,
    },
    /// Every product fits, but some order of the additions produces a partial sum (or the
    /// complete dot product) outside the result type's range: the sum of the positive products
    /// exceeds the maximum, or the sum of the negative products is below the minimum.
    SumOverflow {
        /// Whether the left-to-right order (component 0 + component 1, then + component 2, …)
        /// itself overflows. `false` means only some other order would.
        in_component_order: bool,
    },
}

/// Result of an AccSat form: the value spvx defines (saturate(exact dot product + accumulator)
/// to the result range, as a bit pattern) and, if the inputs hit the spec's undefined case,
/// why.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AccSat<T> {
    /// The result bit pattern (low `result_bits` bits; two's complement for signed kinds).
    pub value: T,
    /// `Some` when the spec leaves this result undefined.
    pub undefined: Option<AccSatUndefined>,
}

impl DotSpec {
    /// Validates and builds a descriptor. `component_bits` must be 1..=64; `result_bits` must be
    /// at least `component_bits` and at most [`MAX_RESULT_BITS`].
    pub fn new(kind: DotKind, component_bits: u32, result_bits: u32) -> Result<Self, IntDotError> {
        if !(1..=64).contains(&component_bits) {
            return Err(IntDotError::ComponentWidth(component_bits));
        }
        if result_bits < component_bits {
            return Err(IntDotError::ResultNarrowerThanComponents {
                result_bits,
                component_bits,
            });
        }
        if result_bits > MAX_RESULT_BITS {
            return Err(IntDotError::ResultTooWide(result_bits));
        }
        Ok(DotSpec {
            kind,
            component_bits,
            result_bits,
        })
    }

    /// The descriptor of a PackedVectorFormat4x8Bit instruction (8-bit components) with the
    /// given result width.
    pub fn packed4x8(kind: DotKind, result_bits: u32) -> Result<Self, IntDotError> {
        Self::new(kind, 8, result_bits)
    }

    /// The instruction family.
    pub fn kind(&self) -> DotKind {
        self.kind
    }
    /// Component width in bits.
    pub fn component_bits(&self) -> u32 {
        self.component_bits
    }
    /// Result width in bits.
    pub fn result_bits(&self) -> u32 {
        self.result_bits
    }

    pub(super) fn check_lengths(a: &[u64], b: &[u64]) -> Result<(), IntDotError> {
        if a.len() != b.len() {
            return Err(IntDotError::LengthMismatch {
                vector1: a.len(),
                vector2: b.len(),
            });
        }
        Ok(())
    }

    /// Exact value of a component pattern read with the given signedness.
    #[inline]
    pub(super) fn component_value(&self, pattern: u64, signed: bool) -> i128 {
        let shift = 64 - self.component_bits;
        if signed {
            (((pattern << shift) as i64) >> shift) as i128
        } else {
            ((pattern << shift) >> shift) as i128
        }
    }
}

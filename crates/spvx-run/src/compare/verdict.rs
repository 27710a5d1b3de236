//! The verdict on one output element of a spec-aware comparison, and the reasons behind it.
//!
//! A difference between the reference (the engine) and an implementation (a device) is one of
//! three things:
//!
//! - [`ElementVerdict::Allowed`]: the specification leaves a freedom that produces exactly the
//!   implementation's value ([`Freedom`] names it: a contraction into a fused multiply-add, an
//!   unfused `Fma`, a precision bound of the Vulkan table, a flushed subnormal, a NaN payload, a
//!   VALVE accumulation model, a vendor profile);
//! - [`ElementVerdict::Violation`]: no freedom the module leaves covers it;
//! - [`ElementVerdict::Undecided`]: a freedom applies whose extent spvx cannot bound for this
//!   element (an error bound that depends on an operand, an error made before the last
//!   operation, a relaxed-precision operation): neither a pass nor a failure, named by its
//!   [`Open`] reason.
//!
//! `docs/semantics/comparison.md` lists every rule and its source.

use std::fmt;

/// One instruction of the module, named for messages: `%sum = OpFAdd` (its OpName) or
/// `%12 = OpExtInst GLSL.std.450 Exp`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Site {
    /// Result id.
    pub id: u32,
    /// The instruction: `OpFAdd`, `GLSL.std.450 Exp`.
    pub what: String,
    /// Its OpName, when it has a non-empty one.
    pub name: Option<String>,
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(n) => write!(f, "%{n} = {}", self.what),
            None => write!(f, "%{} = {}", self.id, self.what),
        }
    }
}

/// A freedom of the specification that produced the implementation's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Freedom {
    /// Two NaNs with different bits: SPIR-V defines no NaN payloads.
    NanPayload,
    /// OpFMul contracted with the OpFAdd/OpFSub that uses it into one fused operation (one
    /// rounding); neither carries NoContraction. (multiply, add) pairs.
    Contraction(Vec<(Site, Site)>),
    /// GLSL.std.450 Fma computed as a multiply and an add, each rounded (Vulkan: "Inherited
    /// from OpFMul followed by OpFAdd").
    UnfusedFma(Vec<Site>),
    /// Within the Vulkan precision bound of the operation that produced the value:
    /// `ulps` representable values from the correctly rounded result.
    Precision {
        site: Site,
        bound: String,
        ulps: u64,
    },
    /// A subnormal result (or input) of this float width flushed to zero: Vulkan allows it
    /// unless the entry point declares DenormPreserve for the width.
    DenormalFlush { width: u32, inputs: bool },
    /// The VALVE mixed float dot product's implementation-defined order and precision: the
    /// value of this accumulation model (spvx-num's `mixdot::Model`).
    MixdotModel(String),
    /// The value a vendor profile gives (`--profile`).
    Profile { profile: String, what: String },
    /// Not a freedom of the specification: within the caller's tolerance (`spvx diff --ulps`).
    Tolerance { ulps: u64, max: u64 },
}

impl fmt::Display for Freedom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Freedom::NanPayload => f.write_str("NaN payload (SPIR-V defines no NaN payloads)"),
            Freedom::Contraction(pairs) => {
                f.write_str("contraction of ")?;
                for (i, (m, a)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{m} into {a}")?;
                }
                f.write_str(" as one fused multiply-add (no NoContraction)")
            }
            Freedom::UnfusedFma(sites) => {
                f.write_str("unfused ")?;
                for (i, s) in sites.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{s}")?;
                }
                f.write_str(" (Vulkan: fma inherits the precision of OpFMul followed by OpFAdd)")
            }
            Freedom::Precision { site, bound, ulps } => write!(
                f,
                "{ulps} ULP(s) from the correctly rounded {site}, within Vulkan's bound ({bound})"
            ),
            Freedom::DenormalFlush { width, inputs } => {
                let what = if *inputs {
                    "subnormal inputs"
                } else {
                    "a subnormal result"
                };
                write!(
                    f,
                    "{what} flushed to zero (fp{width}: no DenormPreserve in the entry point)"
                )
            }
            Freedom::MixdotModel(m) => write!(
                f,
                "VALVE mixed dot product order and precision are implementation-defined: the '{m}' accumulation model's value"
            ),
            Freedom::Profile { profile, what } => write!(f, "profile {profile}: {what}"),
            Freedom::Tolerance { ulps, max } => {
                write!(
                    f,
                    "{ulps} ULP(s) apart, within the tolerance asked for (--ulps {max})"
                )
            }
        }
    }
}

/// Why a difference can be neither accepted nor refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Open {
    /// The instruction whose freedom is open, when there is one.
    pub site: Option<Site>,
    pub why: String,
}

impl fmt::Display for Open {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.site {
            Some(s) => write!(f, "{s}: {}", self.why),
            None => f.write_str(&self.why),
        }
    }
}

/// A difference no freedom covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Distance in representable values for floats (None for integers and NaN against a
    /// number).
    pub ulps: Option<u64>,
    pub why: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ulps {
            Some(u) => write!(f, "{u} ULP(s) apart: {}", self.why),
            None => f.write_str(&self.why),
        }
    }
}

/// How one element compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElementVerdict {
    /// The same bits.
    Same,
    /// Different bits the specification allows, and why.
    Allowed(Freedom),
    /// Different bits under a freedom spvx cannot bound here.
    Undecided(Open),
    /// Different bits no freedom covers.
    Violation(Violation),
}

impl ElementVerdict {
    /// True for a violation (a failure).
    pub fn is_violation(&self) -> bool {
        matches!(self, ElementVerdict::Violation(_))
    }
}

impl fmt::Display for ElementVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElementVerdict::Same => f.write_str("same"),
            ElementVerdict::Allowed(r) => write!(f, "allowed: {r}"),
            ElementVerdict::Undecided(o) => write!(f, "undecided: {o}"),
            ElementVerdict::Violation(v) => write!(f, "violation: {v}"),
        }
    }
}

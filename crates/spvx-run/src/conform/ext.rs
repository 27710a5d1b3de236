//! The extensions `spvx conform` sweeps, by the names the command line uses.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One extension's family of forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ext {
    /// SPV_KHR_integer_dot_product.
    Intdot,
    /// SPV_VALVE_mixed_float_dot_product.
    Mixdot,
    /// SPV_ARM_tensors.
    Tensors,
    /// SPV_INTEL_arbitrary_precision_fixed_point.
    Fixed,
    /// SPV_INTEL_subgroup_matrix_multiply_accumulate.
    Smma,
}

impl Ext {
    /// Every extension, in sweep order.
    pub const ALL: [Ext; 5] = [
        Ext::Intdot,
        Ext::Mixdot,
        Ext::Tensors,
        Ext::Fixed,
        Ext::Smma,
    ];

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            Ext::Intdot => "intdot",
            Ext::Mixdot => "mixdot",
            Ext::Tensors => "tensors",
            Ext::Fixed => "fixed",
            Ext::Smma => "smma",
        }
    }

    /// The SPIR-V extension.
    pub const fn spirv_name(self) -> &'static str {
        match self {
            Ext::Intdot => "SPV_KHR_integer_dot_product",
            Ext::Mixdot => "SPV_VALVE_mixed_float_dot_product",
            Ext::Tensors => "SPV_ARM_tensors",
            Ext::Fixed => "SPV_INTEL_arbitrary_precision_fixed_point",
            Ext::Smma => "SPV_INTEL_subgroup_matrix_multiply_accumulate",
        }
    }

    /// The extensions `names` ask for (`all` is every one), in sweep order, each once.
    pub fn parse_list(names: &[String]) -> Result<Vec<Ext>, String> {
        let mut out = Vec::new();
        for n in names {
            if n == "all" {
                out.extend(Ext::ALL);
                continue;
            }
            match Ext::ALL.iter().find(|e| e.name() == n) {
                Some(e) => out.push(*e),
                None => {
                    return Err(format!(
                        "unknown extension '{n}' (one of: intdot, mixdot, tensors, fixed, smma, all)"
                    ));
                }
            }
        }
        if out.is_empty() {
            out.extend(Ext::ALL);
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}

impl fmt::Display for Ext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

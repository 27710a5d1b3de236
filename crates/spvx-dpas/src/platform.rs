//! Platform profiles: exec size, GRF size and which precisions and accumulator types each
//! platform's DPAS accepts (reference/dpas.md §4, from IGC `HWCaps.inc`, `Platform.hpp`,
//! `IsaVerification.cpp` and `G4_Verifier.cpp` `verifyDpas`).

use std::fmt;
use std::str::FromStr;

/// A GPU platform with DPAS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Platform {
    /// XeHP SDV: exec size 8, 32-byte GRF.
    XeHp,
    /// DG2 / ATS-M (Xe-HPG): exec size 8, 32-byte GRF.
    Dg2,
    /// Ponte Vecchio (Xe-HPC): exec size 16, 64-byte GRF; BF/HF accumulators, tf32.
    Pvc,
    /// Xe2 (LNL, BMG): as PVC.
    Xe2,
    /// Xe3 (PTL): as Xe2.
    Xe3,
    /// Xe3P (CRI, NVL-P): fp8 DPAS; integer DPAS only 4- or 8-bit with equal widths.
    Xe3p,
}

impl Platform {
    /// Every platform, oldest first.
    pub const ALL: [Platform; 6] = [
        Platform::XeHp,
        Platform::Dg2,
        Platform::Pvc,
        Platform::Xe2,
        Platform::Xe3,
        Platform::Xe3p,
    ];

    /// The name used on the command line (`xehp`, `dg2`, `pvc`, `xe2`, `xe3`, `xe3p`).
    pub const fn name(self) -> &'static str {
        match self {
            Platform::XeHp => "xehp",
            Platform::Dg2 => "dg2",
            Platform::Pvc => "pvc",
            Platform::Xe2 => "xe2",
            Platform::Xe3 => "xe3",
            Platform::Xe3p => "xe3p",
        }
    }

    /// Whether this is PVC or later (DPAS.md: `isPrePVC ? 8 : 16`).
    pub const fn is_pvc_or_later(self) -> bool {
        !matches!(self, Platform::XeHp | Platform::Dg2)
    }

    /// The DPAS exec size N: 8 before PVC, 16 from PVC on.
    pub const fn exec_size(self) -> u32 {
        if self.is_pvc_or_later() { 16 } else { 8 }
    }

    /// Bytes per GRF: 32 (8 dwords) before PVC, 64 (16 dwords) from PVC on.
    pub const fn grf_bytes(self) -> u32 {
        self.exec_size() * 4
    }

    /// Dwords per GRF.
    pub const fn grf_dwords(self) -> u32 {
        self.exec_size()
    }

    /// Whether Dst/Src0 may be BF (bf DPAS) or HF (hf DPAS): PVC and later (`hasBFDstforDPAS`,
    /// `verifyDpas`: `getPlatform() >= Xe_PVC`).
    pub const fn has_bf_hf_accumulators(self) -> bool {
        self.is_pvc_or_later()
    }

    /// Whether tf32 DPAS exists: PVC and later (exec size 16 only; DG2/ATS-M lack it).
    pub const fn has_tf32(self) -> bool {
        self.is_pvc_or_later()
    }

    /// Whether fp8 (bf8/hf8) DPAS exists: Xe3P only (`hasFP8Dpas`).
    pub const fn has_fp8(self) -> bool {
        matches!(self, Platform::Xe3p)
    }

    /// Whether df (fp64) DPAS exists: Xe3P only (IGC `hasFP64DPAS`: Xe3P core and the flag
    /// `EnableFP64Dpas`, off by default; spvx accepts df on Xe3P as if the flag were set).
    pub const fn has_df(self) -> bool {
        matches!(self, Platform::Xe3p)
    }

    /// Whether integer DPAS is restricted to equal 4- or 8-bit widths without u2/s2 (Xe3P:
    /// `verifyDpas` "u2/s2 and mixed precision is not supported").
    pub const fn has_simplified_int(self) -> bool {
        matches!(self, Platform::Xe3p)
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A platform name that is not one of `xehp dg2 pvc xe2 xe3 xe3p`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown platform `{0}` (expected xehp, dg2, pvc, xe2, xe3 or xe3p)")]
pub struct UnknownPlatform(pub String);

impl FromStr for Platform {
    type Err = UnknownPlatform;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        Platform::ALL
            .into_iter()
            .find(|p| p.name() == lower)
            .ok_or_else(|| UnknownPlatform(s.to_string()))
    }
}

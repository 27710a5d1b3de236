//! The legality rules of DPAS on a platform. Each broken rule gives an [`Illegal`] error that
//! names the rule ([`Rule`]) and the values involved. Sources: DPAS.md (the seed), IGC
//! `IsaVerification.cpp` and `G4_Verifier.cpp` `verifyDpas` (reference/dpas.md §1, §4); the
//! decisions are listed in `docs/semantics/dpas.md`, section "DPAS simulator".

use spvx_num::dpas::Precision;

use super::{Geometry, Instruction, Src0};
use crate::error::illegal;
use crate::{DataType, Illegal, Platform, Rule};

/// Checks every static rule of `instr` on `platform` (all but [`Rule::RegisterBounds`], which
/// depends on the register file and is checked by [`super::execute`]). Rules are checked in the
/// order of [`Rule`]; the first broken one is reported.
pub fn check(instr: &Instruction, platform: Platform) -> Result<Geometry, Illegal> {
    let fail = |rule: Rule, detail: String| Err(illegal(rule, platform, detail));

    if instr.exec_size != platform.exec_size() {
        return fail(
            Rule::ExecSize,
            format!(
                "exec size {} given, but DPAS on {platform} has exec size {} (8 before PVC, 16 from PVC on)",
                instr.exec_size,
                platform.exec_size()
            ),
        );
    }
    if !matches!(instr.sd, 1 | 2 | 4 | 8) {
        return fail(
            Rule::SystolicDepth,
            format!(
                "systolic depth {} cannot be encoded (SD is 1, 2, 4 or 8)",
                instr.sd
            ),
        );
    }
    if instr.sd != 8 {
        return fail(
            Rule::SystolicDepth,
            format!(
                "systolic depth {} given; XeHP and later (every DPAS platform) support only systolic depth 8",
                instr.sd
            ),
        );
    }
    if !(1..=8).contains(&instr.rc) {
        return fail(
            Rule::RepeatCount,
            format!("repeat count {} given; it must be 1 to 8", instr.rc),
        );
    }
    let geometry = match Geometry::of(instr) {
        Ok(g) => g,
        Err(_) => {
            return fail(
                Rule::PrecisionCombination,
                format!(
                    "Src1 precision {} with Src2 precision {}: the legal pairs are integer×integer, bf×bf, hf×hf, tf32×tf32, fp8×fp8 (bf8/hf8) and df×df",
                    instr.w, instr.a
                ),
            );
        }
    };
    check_platform_precision(instr, platform)?;
    for (name, op) in [("Src1", instr.src1), ("Src2", instr.src2)] {
        if instr.w.is_df() && op.ty != DataType::Df {
            return fail(
                Rule::SourceType,
                format!(
                    "{name} has type {}; in a df DPAS Src1 and Src2 must be DF (\"dst/src0/src1/src2 must have same df precision\")",
                    op.ty
                ),
            );
        }
        if !instr.w.is_df() && !op.ty.is_integer() {
            return fail(
                Rule::SourceType,
                format!("{name} has type {}; Src1 and Src2 must be D or UD", op.ty),
            );
        }
    }
    let allowed = accumulator_types(instr.w, platform);
    if !allowed.contains(&instr.dst.ty) {
        return fail(
            Rule::DstType,
            acc_detail("Dst", instr.dst.ty, instr, &allowed, platform),
        );
    }
    if let Some(t) = instr.src0.ty()
        && !allowed.contains(&t)
    {
        return fail(
            Rule::Src0Type,
            acc_detail("Src0", t, instr, &allowed, platform),
        );
    }

    let grf = platform.grf_bytes();
    // ExecSize elements, at most one GRF (a df row spans two GRFs and is GRF-aligned).
    let dst_align = (instr.exec_size * instr.dst.ty.size()).min(grf);
    let at = instr.dst.byte_offset(grf);
    if !at.is_multiple_of(u64::from(dst_align)) {
        return fail(
            Rule::DstAlignment,
            format!(
                "Dst {} starts at byte {at}, which is not a multiple of min(ExecSize × {}-byte elements, one GRF) = {dst_align}",
                instr.dst,
                instr.dst.ty.size()
            ),
        );
    }
    if let Src0::Reg(src0) = instr.src0 {
        let align = (instr.exec_size * src0.ty.size()).min(grf);
        let at = src0.byte_offset(grf);
        if !at.is_multiple_of(u64::from(align)) {
            return fail(
                Rule::Src0Alignment,
                format!(
                    "Src0 {src0} starts at byte {at}, which is not a multiple of min(ExecSize × {}-byte elements, one GRF) = {align}",
                    src0.ty.size()
                ),
            );
        }
    }
    let at = instr.src1.byte_offset(grf);
    if !at.is_multiple_of(u64::from(grf)) {
        return fail(
            Rule::Src1Alignment,
            format!(
                "Src1 {} starts at byte {at}; Src1 must be GRF-aligned ({grf}-byte GRFs)",
                instr.src1
            ),
        );
    }
    let row = geometry.src2_row_bytes();
    let at = instr.src2.byte_offset(grf);
    if !at.is_multiple_of(u64::from(row)) {
        return fail(
            Rule::Src2Alignment,
            format!(
                "Src2 {} starts at byte {at}; Src2 must be aligned to one row of A = SD × OPS_PER_CHAN × bits({}) / 8 = {row} bytes",
                instr.src2, instr.a
            ),
        );
    }
    Ok(geometry)
}

fn check_platform_precision(instr: &Instruction, platform: Platform) -> Result<(), Illegal> {
    let fail = |detail: String| Err(illegal(Rule::PlatformPrecision, platform, detail));
    let (w, a) = (instr.w, instr.a);
    if w == Precision::Tf32 && !platform.has_tf32() {
        return fail(format!(
            "tf32 DPAS exists from PVC on (exec size 16); {platform} has none"
        ));
    }
    if w.is_df() && !platform.has_df() {
        return fail(format!(
            "df DPAS exists only on Xe3P (IGC: behind the flag EnableFP64Dpas, off by default); {platform} has none"
        ));
    }
    if matches!(w, Precision::Bf8 | Precision::Hf8) && !platform.has_fp8() {
        return fail(format!(
            "fp8 ({w} × {a}) DPAS exists only on Xe3P; {platform} has none"
        ));
    }
    if w.is_integer() && platform.has_simplified_int() {
        let ok_width = |p: Precision| matches!(p.bits(), 4 | 8);
        if w.bits() != a.bits() || !ok_width(w) || !ok_width(a) {
            return fail(format!(
                "integer DPAS on {platform} needs equal 4- or 8-bit precisions (no u1/s1/u2/s2, no mixed widths); got {w} × {a}"
            ));
        }
    }
    Ok(())
}

/// The Dst/Src0 types a DPAS with Src1 precision `w` accepts on `platform`.
pub(crate) fn accumulator_types(w: Precision, platform: Platform) -> Vec<DataType> {
    let late = platform.has_bf_hf_accumulators();
    match w {
        p if p.is_integer() => vec![DataType::D, DataType::Ud],
        Precision::Df => vec![DataType::Df],
        Precision::Bf16 if late => vec![DataType::F, DataType::Bf],
        Precision::Fp16 if late => vec![DataType::F, DataType::Hf],
        Precision::Bf8 | Precision::Hf8 if platform.has_fp8() => vec![DataType::F, DataType::Bf],
        _ => vec![DataType::F],
    }
}

fn acc_detail(
    which: &str,
    found: DataType,
    instr: &Instruction,
    allowed: &[DataType],
    platform: Platform,
) -> String {
    let names: Vec<&str> = allowed.iter().map(|t| t.name()).collect();
    let mut s = format!(
        "{which} has type {found}; a {}×{} DPAS on {platform} takes {which} of type {}",
        instr.w,
        instr.a,
        names.join(" or ")
    );
    if matches!(found, DataType::Bf | DataType::Hf) && !platform.has_bf_hf_accumulators() {
        s.push_str(" (BF/HF Dst and Src0 exist from PVC on)");
    }
    s
}

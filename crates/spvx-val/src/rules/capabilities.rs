//! Rules of capabilities, extensions and versions declared for everything the module uses
//! (SPIR-V §2.1 "Capabilities", §3.31, and the grammar's per-instruction and per-enumerant
//! `capabilities`, `extensions` and `version`):
//!
//! - an instruction or enumerant listing capabilities is enabled by **any one** of them, and a
//!   declared capability implicitly declares the ones it depends on (the index's closure:
//!   `DotProductInput4x8Bit` declares `Int8`);
//! - an instruction without capabilities, or any enumerant, that entered core SPIR-V after the
//!   header's version (or is not in core at all) needs one of its extensions declared;
//! - integer and float widths other than 32 need their capability (Int8/Int16/Int64, Float16/
//!   Float64, the 8- and 16-bit storage capabilities for 8- and 16-bit types, and
//!   ArbitraryPrecisionIntegersALTERA/INTEL for other integer widths);
//! - the header's version must be one the target environment accepts.

use crate::Options;
use crate::error::ValError;
use spvx_spirv::grammar::{Shape, Version};
use spvx_spirv::index::{ModuleIndex, Type};
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;
use thiserror::Error;

/// A broken capability, extension or version rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CapabilityError {
    /// The instruction lists capabilities and none is declared (directly or implicitly).
    #[error("Opcode {opcode} requires one of these capabilities: {capabilities}")]
    Instruction {
        opcode: String,
        capabilities: String,
    },
    /// An enumerant operand lists capabilities and none is declared.
    #[error(
        "Operand {operand} of {opcode} ({enumerant}) requires one of these capabilities: {capabilities}"
    )]
    Operand {
        opcode: String,
        operand: usize,
        enumerant: String,
        capabilities: String,
    },
    /// Something not in the core of the header's SPIR-V version, and none of the extensions
    /// that provide it is declared.
    #[error("{what} requires {requirement}")]
    Unavailable { what: String, requirement: String },
    /// A type width that needs a capability.
    #[error("{rule}")]
    Width { rule: String },
    /// The header's version is higher than the target environment allows.
    #[error("Invalid SPIR-V binary version {version} for target environment {env} (at most {max})")]
    VersionTooNew {
        version: Version,
        env: String,
        max: Version,
    },
}

/// Appends every capability, extension and version error to `out`.
pub fn check(ix: &ModuleIndex, opts: &Options, out: &mut Vec<ValError>) {
    let version = ix.header.version();
    if version > opts.target_env.max_version {
        out.push(ValError::module(CapabilityError::VersionTooNew {
            version,
            env: opts.target_env.name.clone(),
            max: opts.target_env.max_version,
        }));
    }
    for (index, inst) in ix.insts.iter().enumerate() {
        if let Err(e) = instruction(ix, inst) {
            out.push(ValError::at(index, e));
        }
        for e in operands(ix, inst) {
            out.push(ValError::at(index, e));
        }
        if let Err(e) = width(ix, inst) {
            out.push(ValError::at(index, e));
        }
    }
}

/// True when any capability in `caps` is enabled (an empty list needs none).
fn any_capability(ix: &ModuleIndex, caps: &[&str]) -> bool {
    caps.is_empty() || caps.iter().any(|c| ix.has_capability(c))
}

/// Whether something with this `version` range and `extensions` is available in the module;
/// otherwise what it requires.
fn availability(
    ix: &ModuleIndex,
    first: Option<Version>,
    last: Option<Version>,
    extensions: &[&str],
) -> Result<(), String> {
    let v = ix.header.version();
    if let Some(last) = last
        && v > last
    {
        return Err(format!("SPIR-V version {last} or earlier"));
    }
    if first.is_some_and(|f| f <= v) || extensions.iter().any(|e| ix.has_extension(e)) {
        return Ok(());
    }
    match (first, extensions.is_empty()) {
        (None, true) => Ok(()),
        (Some(f), true) => Err(format!("SPIR-V version {f} at minimum")),
        (None, false) => Err(format!("one of these extensions: {}", extensions.join(" "))),
        (Some(f), false) => Err(format!(
            "SPIR-V version {f} at minimum or one of these extensions: {}",
            extensions.join(" ")
        )),
    }
}

/// The instruction's own capabilities, or (when it lists none) its version and extensions.
fn instruction(ix: &ModuleIndex, inst: &Instruction) -> Result<(), CapabilityError> {
    let Some(d) = ix.grammar.instruction(inst.opcode) else {
        return Ok(());
    };
    if !d.capabilities.is_empty() {
        // spirv-val: the capability check is sufficient for instructions that list
        // capabilities (the capability itself carries the version/extension rule).
        return if any_capability(ix, &d.capabilities) {
            Ok(())
        } else {
            Err(CapabilityError::Instruction {
                opcode: d.name.to_string(),
                capabilities: d.capabilities.join(" "),
            })
        };
    }
    availability(ix, d.version, d.last_version, &d.extensions).map_err(|requirement| {
        CapabilityError::Unavailable {
            what: d.name.to_string(),
            requirement,
        }
    })
}

/// The enumerant operands: each needs one of its capabilities (except the operand of
/// `OpCapability`, whose list names what it implies) and its version or an extension.
fn operands(ix: &ModuleIndex, inst: &Instruction) -> Vec<CapabilityError> {
    let g = ix.grammar;
    let mut errors = Vec::new();
    let opcode = || inst.opcode.name().to_string();
    for (pos, o) in inst.operands.iter().enumerate() {
        let kind = g.kind(o.kind);
        let Some(value) = o.word() else { continue };
        let values: Vec<u32> = match kind.shape {
            Shape::ValueEnum => vec![value],
            Shape::BitEnum => (0..32)
                .map(|b| 1u32 << b)
                .filter(|bit| value & bit != 0)
                .collect(),
            _ => continue,
        };
        // Operand numbers as spirv-val counts them: result type and result id included.
        let operand =
            pos + 1 + inst.result_type.is_some() as usize + inst.result.is_some() as usize;
        for v in values {
            let Some(e) = kind.enumerant(v) else { continue };
            if inst.opcode != Op::Capability && !any_capability(ix, &e.capabilities) {
                errors.push(CapabilityError::Operand {
                    opcode: opcode(),
                    operand,
                    enumerant: format!("{} {}", kind.name, e.name),
                    capabilities: e.capabilities.join(" "),
                });
                continue;
            }
            if let Err(requirement) = availability(ix, e.version, e.last_version, &e.extensions) {
                errors.push(CapabilityError::Unavailable {
                    what: format!(
                        "{} {} (operand {operand} of {})",
                        kind.name,
                        e.name,
                        opcode()
                    ),
                    requirement,
                });
            }
        }
    }
    errors
}

/// Capabilities that allow declaring integer or float types of 8 or 16 bits (spirv-val's
/// `declare_int8_type`, `declare_int16_type`, `declare_float16_type` features).
const INT8: [&str; 5] = [
    "Int8",
    "StorageBuffer8BitAccess",
    "UniformAndStorageBuffer8BitAccess",
    "StoragePushConstant8",
    "WorkgroupMemoryExplicitLayout8BitAccessKHR",
];
const BIT16_STORAGE: [&str; 5] = [
    "StorageBuffer16BitAccess",
    "UniformAndStorageBuffer16BitAccess",
    "StoragePushConstant16",
    "StorageInputOutput16",
    "WorkgroupMemoryExplicitLayout16BitAccessKHR",
];

fn any_of(ix: &ModuleIndex, names: &[&str]) -> bool {
    names.iter().any(|n| ix.has_capability(n))
}

/// The capability a type's width needs.
fn width(ix: &ModuleIndex, inst: &Instruction) -> Result<(), CapabilityError> {
    if !matches!(inst.opcode, Op::TypeInt | Op::TypeFloat) {
        return Ok(());
    }
    let Some(t) = inst.result.and_then(|id| ix.ty(id)) else {
        return Ok(());
    };
    let arbitrary = ix.has_capability("ArbitraryPrecisionIntegersALTERA");
    let ok = match *t {
        Type::Int { width: 32, .. } => true,
        // SPV_INTEL_arbitrary_precision_integers: the capability "allows the use of OpTypeInt
        // to declare integers of any arbitrary width" and implicitly declares Int8 and Int16
        // (the vendored grammar does not list the implication; reference/acfixed.md).
        Type::Int { width: 8, .. } => any_of(ix, &INT8) || arbitrary,
        Type::Int { width: 16, .. } => {
            ix.has_capability("Int16") || any_of(ix, &BIT16_STORAGE) || arbitrary
        }
        Type::Int { width: 64, .. } => ix.has_capability("Int64"),
        Type::Int { width: 4, .. } if ix.has_capability("Int4TypeINTEL") => true,
        Type::Int { .. } => arbitrary,
        Type::Float {
            encoding: Some(_), ..
        } => true,
        Type::Float { width: 16, .. } => {
            ix.has_capability("Float16")
                || ix.has_capability("Float16Buffer")
                || any_of(ix, &BIT16_STORAGE)
        }
        Type::Float { width: 64, .. } => ix.has_capability("Float64"),
        Type::Float { .. } => true,
        _ => true,
    };
    if ok {
        return Ok(());
    }
    let rule = match *t {
        Type::Int { width: 8, .. } => {
            "Using an 8-bit integer type requires the Int8 capability, or an extension that explicitly enables 8-bit integers".to_string()
        }
        Type::Int { width: 16, .. } => {
            "Using a 16-bit integer type requires the Int16 capability, or an extension that explicitly enables 16-bit integers".to_string()
        }
        Type::Int { width: 64, .. } => {
            "Using a 64-bit integer type requires the Int64 capability".to_string()
        }
        Type::Int { width, .. } => format!(
            "Invalid number of bits ({width}) used for OpTypeInt: widths other than 8, 16, 32 and 64 require the ArbitraryPrecisionIntegersALTERA (INTEL) capability"
        ),
        Type::Float { width: 16, .. } => {
            "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point".to_string()
        }
        _ => "Using a 64-bit floating point type requires the Float64 capability".to_string(),
    };
    Err(CapabilityError::Width { rule })
}

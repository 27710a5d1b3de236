//! The element type of a binding, as the module declares it, and the check of `.npy` data
//! against it.
//!
//! A buffer binding's element type is the one scalar type every leaf of its block shares
//! ([`ModuleIndex::uniform_scalar`], the same query spvx-vk's reflection answers
//! `DescriptorBinding::element` with), mapped to an [`ElemType`]. A binding whose leaves are
//! of several types (a struct of an int and a float), or of a type without an [`ElemType`]
//! (booleans, 48-bit integers), has none: any data fits it as bytes.
//!
//! A `.npy` file's dtype must be that element type: float64 data for a float buffer would
//! otherwise be taken as pairs of garbage floats. NumPy has no bfloat16 or fp8 dtypes, so a
//! bf16 binding also takes `<u2` and an e4m3/e5m2 binding `|u1` arrays, as their bits (the
//! dtypes spvx writes such elements with). `raw:FILE` / `raw = true` takes any file's bytes
//! without the check ([`crate::data::DataSpec::Raw`]).

use crate::ElemType;
use crate::bindings::{ElementSuffix, Named};
use crate::data::{Data, DataSpec};
use spvx_spirv::index::ModuleIndex;
pub use spvx_vk::reflect::elem_of;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The `Uniform` and `StorageBuffer` storage classes (SPIR-V §3.7).
const STORAGE_UNIFORM: u32 = 2;
const STORAGE_STORAGE_BUFFER: u32 = 12;

/// True for the storage classes of buffer bindings: Uniform and StorageBuffer.
pub fn is_buffer_class(storage_class: u32) -> bool {
    matches!(storage_class, STORAGE_UNIFORM | STORAGE_STORAGE_BUFFER)
}

/// The element type of every buffer binding (StorageBuffer and Uniform variables; arrays of
/// buffers included) that has one, by (set, binding).
pub fn buffer_elements(ix: &ModuleIndex) -> BTreeMap<(u32, u32), ElemType> {
    ix.resource_variables()
        .into_iter()
        .filter(|v| is_buffer_class(v.storage_class))
        .filter_map(|v| {
            let elem = elem_of(ix.uniform_scalar(v.pointee?)?)?;
            Some(((v.set, v.binding), elem))
        })
        .collect()
}

/// True when `.npy` data of `npy` fits a binding of `binding` elements.
pub fn npy_fits(npy: ElemType, binding: ElemType) -> bool {
    npy == binding
        || matches!(
            (npy, binding),
            (ElemType::U16, ElemType::Bf16) | (ElemType::U8, ElemType::E4m3 | ElemType::E5m2)
        )
}

/// The NumPy dtype of `elem` (`<f4`); bf16 and fp8 as the unsigned integers of their bits.
pub fn numpy_dtype(elem: ElemType) -> &'static str {
    match elem {
        ElemType::U8 | ElemType::E4m3 | ElemType::E5m2 => "|u1",
        ElemType::I8 => "|i1",
        ElemType::U16 | ElemType::Bf16 => "<u2",
        ElemType::I16 => "<i2",
        ElemType::U32 => "<u4",
        ElemType::I32 => "<i4",
        ElemType::U64 => "<u8",
        ElemType::I64 => "<i8",
        ElemType::F16 => "<f2",
        ElemType::F32 => "<f4",
        ElemType::F64 => "<f8",
    }
}

/// `.npy` data whose dtype is not the element type of its binding.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{origin}{what}: {} holds {npy} ({npy_dtype}) elements, but binding {set}.{binding}{element}{name} is a block of {elem} ({elem_dtype}{bits}); give {elem} data, or {raw} to take the file's bytes as they are",
    path.display(),
    npy_dtype = numpy_dtype(*.npy),
    elem_dtype = numpy_dtype(*.elem),
    bits = if matches!(.elem, ElemType::Bf16 | ElemType::E4m3 | ElemType::E5m2) { " bits" } else { "" },
)]
pub struct DtypeError {
    /// Where the data was given (`--buffer 0.1`, `run.toml:12:1`).
    pub origin: String,
    /// ` (expected data)` for an expectation, else nothing.
    pub what: &'static str,
    pub path: PathBuf,
    pub npy: ElemType,
    pub set: u32,
    pub binding: u32,
    pub element: ElementSuffix,
    pub name: Named,
    pub elem: ElemType,
    /// How to ask for raw bytes where the data was given: `raw:a.npy` on the command line,
    /// `raw = true` in a run file.
    pub raw: String,
}

/// Checks `.npy` data given for binding (set, binding, element) against the binding's element
/// type in `elements` (no entry: the binding takes any data).
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_npy(
    spec: &DataSpec,
    data: &Data,
    elements: &BTreeMap<(u32, u32), ElemType>,
    (set, binding, index): (u32, u32, Option<u32>),
    name: Option<String>,
    origin: &str,
    expected: bool,
) -> Result<(), Box<DtypeError>> {
    let path = match spec {
        DataSpec::File(path) => path.clone(),
        DataSpec::Memory { label, .. } => PathBuf::from(label),
        _ => return Ok(()),
    };
    let (Some(npy), Some(&elem)) = (data.elem, elements.get(&(set, binding))) else {
        return Ok(());
    };
    if data.shape.is_none() || npy_fits(npy, elem) {
        return Ok(());
    }
    let raw = if let DataSpec::Memory { raw, .. } = spec {
        raw.clone()
    } else if origin.starts_with("--") {
        format!("raw:{}", path.display())
    } else if expected {
        "raw = true in its expect table".to_string()
    } else {
        "raw = true in its data table".to_string()
    };
    Err(Box::new(DtypeError {
        origin: origin.to_string(),
        what: if expected { " (expected data)" } else { "" },
        path,
        npy,
        set,
        binding,
        element: ElementSuffix::new(index.unwrap_or(0), index.is_some()),
        name: Named(name),
        elem,
        raw,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_dtypes_that_fit() {
        assert!(npy_fits(ElemType::F32, ElemType::F32));
        assert!(!npy_fits(ElemType::F64, ElemType::F32));
        assert!(!npy_fits(ElemType::I32, ElemType::U32));
        // NumPy has no bf16 or fp8: their bits as unsigned integers.
        assert!(npy_fits(ElemType::U16, ElemType::Bf16));
        assert!(npy_fits(ElemType::U8, ElemType::E4m3));
        assert!(npy_fits(ElemType::U8, ElemType::E5m2));
        assert!(!npy_fits(ElemType::F16, ElemType::Bf16));
    }

    #[test]
    fn message_names_both_dtypes_the_binding_and_the_file() {
        let data = Data {
            bytes: vec![0; 8],
            elem: Some(ElemType::F64),
            shape: Some(vec![1]),
        };
        let elements = BTreeMap::from([((0, 2), ElemType::Bf16), ((0, 3), ElemType::F32)]);
        let spec = DataSpec::File("w.npy".into());
        let e = check_npy(
            &spec,
            &data,
            &elements,
            (0, 2, Some(1)),
            Some("w".into()),
            "run.toml:4:1",
            false,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "run.toml:4:1: w.npy holds f64 (<f8) elements, but binding 0.2[1] 'w' is a block of bf16 (<u2 bits); give bf16 data, or raw = true in its data table to take the file's bytes as they are"
        );
        let e = check_npy(
            &spec,
            &data,
            &elements,
            (0, 3, None),
            None,
            "--buffer 0.3",
            true,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "--buffer 0.3 (expected data): w.npy holds f64 (<f8) elements, but binding 0.3 is a block of f32 (<f4); give f32 data, or raw:w.npy to take the file's bytes as they are"
        );
        // Raw data, data of a binding without one element type, inline data: no check.
        let raw = DataSpec::Raw("w.npy".into());
        assert!(check_npy(&raw, &data, &elements, (0, 3, None), None, "x", false).is_ok());
        assert!(check_npy(&spec, &data, &elements, (0, 9, None), None, "x", false).is_ok());
        let inline = DataSpec::Inline {
            elem: ElemType::F64,
            values: vec![0],
        };
        assert!(check_npy(&inline, &data, &elements, (0, 3, None), None, "x", false).is_ok());
    }
}

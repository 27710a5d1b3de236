//! The small text forms run files and the command line share: workgroup counts (`X[,Y,Z]`)
//! and specialisation-constant values (`true`, `-1`, `0x10`, `f32:1.5`).

use crate::ElemType;
use spvx_num::element::ElemError;

/// Why `X[,Y,Z]` is not a list of workgroup counts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroupsError {
    #[error("at most three counts (X,Y,Z)")]
    TooMany,
    #[error("'{0}' is not a workgroup count (a number from 1)")]
    NotACount(String),
    #[error("a workgroup count of 0 runs nothing; counts start at 1")]
    Zero,
}

/// Why text is not a specialisation-constant value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecValueError {
    /// `TYPE:VALUE` with an unknown TYPE.
    #[error("'{0}' is not an element type ({names})", names = ElemType::names())]
    UnknownType(String),
    /// `TYPE:VALUE` whose VALUE is not one of TYPE.
    #[error(transparent)]
    Value(#[from] ElemError),
    /// Nothing a value can be written as.
    #[error(
        "'{0}' is not a value: write true/false, an integer, 0x bits, or TYPE:VALUE such as f32:1.5"
    )]
    NotAValue(String),
}

/// A specialisation-constant value: `true`/`false`, an integer (decimal, negative numbers as
/// two's complement, or `0x` bits), or `TYPE:VALUE` with an element type (`f32:1.5`,
/// `f16:0.1`, `i8:-3`), which gives that type's bits.
pub fn parse_spec_value(text: &str) -> Result<u64, SpecValueError> {
    let t = text.trim();
    match t {
        "true" => return Ok(1),
        "false" => return Ok(0),
        _ => {}
    }
    if let Some((ty, v)) = t.split_once(':') {
        let elem = ElemType::from_name(ty).ok_or_else(|| SpecValueError::UnknownType(ty.into()))?;
        return Ok(elem.encode_text(v)?);
    }
    if let Ok(v) = t.parse::<i64>() {
        return Ok(v as u64);
    }
    if let Ok(v) = t.parse::<u64>() {
        return Ok(v);
    }
    ElemType::U64
        .encode_text(t)
        .map_err(|_| SpecValueError::NotAValue(t.into()))
}

/// `X[,Y,Z]`: one to three workgroup counts, each at least 1 (missing ones are 1).
pub fn parse_groups(text: &str) -> Result<[u32; 3], GroupsError> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err(GroupsError::TooMany);
    }
    let mut out = [1u32; 3];
    for (slot, p) in out.iter_mut().zip(&parts) {
        let n: u32 = p
            .trim()
            .parse()
            .map_err(|_| GroupsError::NotACount((*p).into()))?;
        if n == 0 {
            return Err(GroupsError::Zero);
        }
        *slot = n;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups() {
        assert_eq!(parse_groups("4"), Ok([4, 1, 1]));
        assert_eq!(parse_groups("4,2"), Ok([4, 2, 1]));
        assert_eq!(parse_groups("4,2,3"), Ok([4, 2, 3]));
        assert!(parse_groups("4,2,3,1").is_err());
        assert!(parse_groups("0").is_err());
        assert!(parse_groups("a").is_err());
        assert!(parse_groups("").is_err());
    }

    #[test]
    fn spec_values() {
        assert_eq!(parse_spec_value("64"), Ok(64));
        assert_eq!(parse_spec_value("-1"), Ok(u64::MAX));
        assert_eq!(parse_spec_value("true"), Ok(1));
        assert_eq!(parse_spec_value("0x10"), Ok(16));
        // f32 1.5 = 0x3fc00000.
        assert_eq!(parse_spec_value("f32:1.5"), Ok(0x3fc0_0000));
        assert!(parse_spec_value("1.5").is_err());
        assert_eq!(
            parse_spec_value("q8:1").map_err(|e| e.to_string()),
            Err(format!(
                "'q8' is not an element type ({})",
                ElemType::names()
            ))
        );
    }
}

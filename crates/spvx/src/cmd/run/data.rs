//! Where a binding's bytes come from: a raw file, a `.npy` file, `zeros:BYTES`, inline values
//! of an element type, or a seeded random fill; and the command-line SOURCE syntax.

use super::elem::ElemType;
use super::npy::read_npy;
use super::prng::SplitMix64;
use std::path::{Path, PathBuf};

/// The bounds of a random fill.
#[derive(Clone, Debug, PartialEq)]
pub enum Range {
    /// Inclusive integer bounds.
    Int(i128, i128),
    /// Half-open float bounds `[min, max)`.
    Float(f64, f64),
}

/// A description of data, before it is loaded.
#[derive(Clone, Debug, PartialEq)]
pub enum DataSpec {
    /// A file: `.npy` when the name ends in `.npy`, raw bytes otherwise.
    File(PathBuf),
    /// This many zero bytes.
    Zeros(u64),
    /// Values of one element type, already encoded (bits).
    Inline { elem: ElemType, values: Vec<u64> },
    /// `count` elements drawn by SplitMix64 from `seed` within `range`.
    Random {
        elem: ElemType,
        count: u64,
        range: Range,
        seed: u64,
    },
}

/// Loaded data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    pub bytes: Vec<u8>,
    /// The element type, when the source says it (inline, random, `.npy`).
    pub elem: Option<ElemType>,
    /// The shape, for `.npy` data.
    pub shape: Option<Vec<u64>>,
}

impl DataSpec {
    /// Parses a command-line SOURCE: `zeros:BYTES`, `TYPE:V,V,...` (TYPE one of the element
    /// types), or a path.
    pub fn parse_source(text: &str) -> Result<DataSpec, String> {
        if let Some(n) = text.strip_prefix("zeros:") {
            let bytes = parse_count(n).ok_or_else(|| {
                format!("'{text}': zeros:BYTES needs a byte count, e.g. zeros:1024")
            })?;
            return Ok(DataSpec::Zeros(bytes));
        }
        if let Some((ty, list)) = text.split_once(':')
            && let Some(elem) = ElemType::from_name(ty)
        {
            let values = list
                .split(',')
                .map(|v| elem.encode_text(v))
                .collect::<Result<Vec<u64>, String>>()
                .map_err(|e| format!("'{text}': {e}"))?;
            return Ok(DataSpec::Inline { elem, values });
        }
        if text.is_empty() {
            return Err("empty SOURCE (a path, zeros:BYTES or TYPE:V,V,...)".into());
        }
        Ok(DataSpec::File(PathBuf::from(text)))
    }

    /// Loads the bytes; relative paths are taken from `base`. Refuses more than `limit` bytes.
    pub fn load(&self, base: &Path, limit: u64) -> Result<Data, String> {
        let check = |bytes: u64| {
            if bytes > limit {
                Err(format!(
                    "{bytes} bytes are more than the memory limit of {limit} bytes (--max-memory)"
                ))
            } else {
                Ok(())
            }
        };
        match self {
            DataSpec::File(path) => {
                let full = base.join(path);
                let raw = std::fs::read(&full)
                    .map_err(|e| format!("cannot read {}: {e}", full.display()))?;
                if path.extension().is_some_and(|e| e == "npy") {
                    let npy = read_npy(&raw).map_err(|e| format!("{}: {e}", full.display()))?;
                    Ok(Data {
                        bytes: npy.bytes,
                        elem: Some(npy.elem),
                        shape: Some(npy.shape),
                    })
                } else {
                    Ok(Data {
                        bytes: raw,
                        elem: None,
                        shape: None,
                    })
                }
            }
            DataSpec::Zeros(n) => {
                check(*n)?;
                Ok(Data {
                    bytes: vec![0; *n as usize],
                    elem: None,
                    shape: None,
                })
            }
            DataSpec::Inline { elem, values } => {
                let mut bytes = Vec::with_capacity(values.len() * elem.size());
                for &v in values {
                    elem.push_bytes(v, &mut bytes);
                }
                Ok(Data {
                    bytes,
                    elem: Some(*elem),
                    shape: None,
                })
            }
            DataSpec::Random {
                elem,
                count,
                range,
                seed,
            } => {
                check(count.saturating_mul(elem.size() as u64))?;
                Ok(Data {
                    bytes: random_bytes(*elem, *count, range, *seed)?,
                    elem: Some(*elem),
                    shape: None,
                })
            }
        }
    }
}

/// The bytes of a random fill (see `prng` for the exact mapping).
pub fn random_bytes(
    elem: ElemType,
    count: u64,
    range: &Range,
    seed: u64,
) -> Result<Vec<u8>, String> {
    let mut rng = SplitMix64::new(seed);
    let mut bytes = Vec::with_capacity(count as usize * elem.size());
    match (range, elem.float_format(), elem.int_range()) {
        (Range::Int(min, max), None, Some((lo, hi))) => {
            if min > max || *min < lo || *max > hi {
                return Err(format!(
                    "random range {min}..={max} is empty or outside {elem} ({lo}..={hi})"
                ));
            }
            for _ in 0..count {
                let v = rng.int_in(*min, *max);
                elem.push_bytes((v as u64) & elem.mask(), &mut bytes);
            }
        }
        (Range::Float(min, max), Some(format), _) => {
            if !(min.is_finite() && max.is_finite() && min < max) {
                return Err(format!(
                    "random range [{min}, {max}) must be finite and non-empty"
                ));
            }
            for _ in 0..count {
                let v = rng.f64_in(*min, *max);
                let bits = format.from_f64(v, spvx_num::float::RoundingMode::NearestEven, false);
                elem.push_bytes(bits, &mut bytes);
            }
        }
        (Range::Int(..), Some(_), _) => {
            return Err(format!("internal: integer bounds for float type {elem}"));
        }
        _ => {
            return Err(format!(
                "random {elem} needs integer bounds (min and max are integers)"
            ));
        }
    }
    Ok(bytes)
}

/// A byte or element count: decimal, optionally with a binary suffix (`k`/`K`/`KiB` = 1024,
/// `M`/`MiB` = 1024², `G`/`GiB` = 1024³).
pub fn parse_count(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, scale) = [
        ("KiB", 1u64 << 10),
        ("MiB", 1 << 20),
        ("GiB", 1 << 30),
        ("k", 1 << 10),
        ("K", 1 << 10),
        ("M", 1 << 20),
        ("G", 1 << 30),
    ]
    .iter()
    .find_map(|(s, m)| t.strip_suffix(s).map(|d| (d, *m)))
    .unwrap_or((t, 1));
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources() {
        assert_eq!(DataSpec::parse_source("zeros:16"), Ok(DataSpec::Zeros(16)));
        assert_eq!(
            DataSpec::parse_source("zeros:2K"),
            Ok(DataSpec::Zeros(2048))
        );
        assert!(DataSpec::parse_source("zeros:").is_err());
        assert!(DataSpec::parse_source("zeros:-3").is_err());
        assert_eq!(
            DataSpec::parse_source("i8:-1,2"),
            Ok(DataSpec::Inline {
                elem: ElemType::I8,
                values: vec![0xff, 2]
            })
        );
        assert!(DataSpec::parse_source("u8:256").is_err());
        assert_eq!(
            DataSpec::parse_source("a/b.bin"),
            Ok(DataSpec::File(PathBuf::from("a/b.bin")))
        );
    }

    #[test]
    fn random_fill_by_hand() {
        // Seed 1234567, first output 6457827717110365317; span 256 is a power of two so
        // nothing is rejected: 6457827717110365317 mod 256 = 0x85 → i8 -128 + 133 = 5.
        let b = random_bytes(ElemType::I8, 1, &Range::Int(-128, 127), 1234567).unwrap();
        assert_eq!(b, [5]);
        assert!(random_bytes(ElemType::I8, 1, &Range::Int(-129, 0), 1).is_err());
        assert!(random_bytes(ElemType::F16, 1, &Range::Float(1.0, 1.0), 1).is_err());
        assert!(random_bytes(ElemType::F16, 1, &Range::Int(0, 1), 1).is_err());
    }
}

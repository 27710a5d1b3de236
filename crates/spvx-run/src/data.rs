//! Where a binding's bytes come from: a raw file, a `.npy` file, `zeros:BYTES`, inline values
//! of an element type, or a seeded random fill; the command-line SOURCE syntax; loading the
//! bytes under the run's memory limit.

use crate::ElemType;
use crate::npy::{NpyError, read_npy};
use crate::prng::{IntSampler, SplitMix64};
use spvx_num::element::ElemError;
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
    /// A file: `.npy` when the name ends in `.npy`, raw bytes otherwise. A `.npy` file's
    /// dtype must be the element type of the binding it is given for (checked where the
    /// binding is known: [`crate::element`]).
    File(PathBuf),
    /// A file taken as raw bytes with no dtype check (`raw:FILE`, `raw = true`): a `.npy`
    /// file's elements (C order, little-endian, its dtype not kept), any other file's bytes.
    Raw(PathBuf),
    /// Data already in memory (the Python package's NumPy arrays). With `data.elem` and
    /// `data.shape` it is an array whose element type must fit its binding, as a `.npy`
    /// file's; without, bytes taken as they are (as [`DataSpec::Raw`]). `label` names it in
    /// messages where a file's path would be; `raw` says how to give it as bytes instead.
    Memory {
        data: Data,
        label: String,
        raw: String,
    },
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

/// Why a command-line SOURCE is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// `zeros:` without a byte count.
    #[error("'{0}': zeros:BYTES needs a byte count, e.g. zeros:1024")]
    ZerosCount(String),
    /// A value of `TYPE:V,V,...` that is not one of TYPE.
    #[error("'{text}': {source}")]
    Value {
        text: String,
        #[source]
        source: ElemError,
    },
    /// `raw:` without a path.
    #[error("'{0}': raw:FILE needs a file, e.g. raw:a.npy")]
    RawPath(String),
    /// Nothing at all.
    #[error("empty SOURCE (a path, raw:FILE, zeros:BYTES or TYPE:V,V,...)")]
    Empty,
}

/// Why a random fill cannot be drawn.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RandomError {
    /// Integer bounds that are empty or outside the type.
    #[error("random range {min}..={max} is empty or outside {elem} ({lo}..={hi})")]
    IntRange {
        min: i128,
        max: i128,
        elem: ElemType,
        lo: i128,
        hi: i128,
    },
    /// Float bounds that are not finite or empty.
    #[error("random range [{min}, {max}) must be finite and non-empty")]
    FloatRange { min: f64, max: f64 },
    /// Integer bounds given for a float type (the run-file reader never makes these).
    #[error("internal: integer bounds for float type {0}")]
    IntBoundsForFloat(ElemType),
    /// Float bounds for an integer type.
    #[error("random {0} needs integer bounds (min and max are integers)")]
    FloatBoundsForInt(ElemType),
}

/// Why data cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The `.npy` file cannot be used.
    #[error("{}: {source}", path.display())]
    Npy {
        path: PathBuf,
        #[source]
        source: NpyError,
    },
    /// More bytes than the memory limit.
    #[error("{bytes} bytes are more than the memory limit of {limit} bytes (--max-memory)")]
    MemoryLimit { bytes: u64, limit: u64 },
    /// The random fill cannot be drawn.
    #[error(transparent)]
    Random(#[from] RandomError),
}

impl DataSpec {
    /// Parses a command-line SOURCE: `zeros:BYTES`, `TYPE:V,V,...` (TYPE one of the element
    /// types), or a path.
    pub fn parse_source(text: &str) -> Result<DataSpec, SourceError> {
        if let Some(n) = text.strip_prefix("zeros:") {
            let bytes = parse_count(n).ok_or_else(|| SourceError::ZerosCount(text.into()))?;
            return Ok(DataSpec::Zeros(bytes));
        }
        if let Some((ty, list)) = text.split_once(':')
            && let Some(elem) = ElemType::from_name(ty)
        {
            let values = list
                .split(',')
                .map(|v| elem.encode_text(v))
                .collect::<Result<Vec<u64>, ElemError>>()
                .map_err(|source| SourceError::Value {
                    text: text.into(),
                    source,
                })?;
            return Ok(DataSpec::Inline { elem, values });
        }
        if let Some(path) = text.strip_prefix("raw:") {
            if path.is_empty() {
                return Err(SourceError::RawPath(text.into()));
            }
            return Ok(DataSpec::Raw(PathBuf::from(path)));
        }
        if text.is_empty() {
            return Err(SourceError::Empty);
        }
        Ok(DataSpec::File(PathBuf::from(text)))
    }

    /// Loads the bytes; relative paths are taken from `base`. Refuses more than `limit` bytes.
    pub fn load(&self, base: &Path, limit: u64) -> Result<Data, LoadError> {
        let check = |bytes: u64| {
            if bytes > limit {
                Err(LoadError::MemoryLimit { bytes, limit })
            } else {
                Ok(())
            }
        };
        match self {
            DataSpec::File(path) | DataSpec::Raw(path) => {
                let raw_npy = matches!(self, DataSpec::Raw(_));
                let full = base.join(path);
                let raw = std::fs::read(&full).map_err(|source| LoadError::Read {
                    path: full.clone(),
                    source,
                })?;
                if path.extension().is_some_and(|e| e == "npy") {
                    let npy = read_npy(&raw).map_err(|source| LoadError::Npy {
                        path: full.clone(),
                        source,
                    })?;
                    Ok(Data {
                        bytes: npy.bytes,
                        elem: (!raw_npy).then_some(npy.elem),
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
            DataSpec::Memory { data, .. } => {
                check(data.bytes.len() as u64)?;
                Ok(data.clone())
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
) -> Result<Vec<u8>, RandomError> {
    match (range, elem.float_format(), elem.int_range()) {
        (Range::Int(min, max), None, Some((lo, hi))) => {
            if min > max || *min < lo || *max > hi {
                return Err(RandomError::IntRange {
                    min: *min,
                    max: *max,
                    elem,
                    lo,
                    hi,
                });
            }
            let mask = elem.mask();
            let ints = IntSampler::new(*min, *max);
            let mut rng = SplitMix64::new(seed);
            Ok(fill(elem, count, || (ints.sample(&mut rng) as u64) & mask))
        }
        (Range::Float(min, max), Some(format), _) => {
            if !(min.is_finite() && max.is_finite() && min < max) {
                return Err(RandomError::FloatRange {
                    min: *min,
                    max: *max,
                });
            }
            let rounder = format.f64_rounder(spvx_num::float::RoundingMode::NearestEven, false);
            Ok(float_fill(elem.size(), count, seed, (*min, *max), &rounder))
        }
        (Range::Int(..), Some(_), _) => Err(RandomError::IntBoundsForFloat(elem)),
        _ => Err(RandomError::FloatBoundsForInt(elem)),
    }
}

/// `count` elements of `elem`, each the low bytes of `next()` little-endian, in order, each
/// written with a store of its size: integer fills, whose elements take a varying number of
/// the generator's outputs (rejection), so are made one after the other (float fills:
/// [`float_fill`]).
fn fill(elem: ElemType, count: u64, mut next: impl FnMut() -> u64) -> Vec<u8> {
    fn sized<const N: usize>(count: u64, next: &mut impl FnMut() -> u64) -> Vec<u8> {
        let mut bytes = vec![0u8; count as usize * N];
        for chunk in bytes.chunks_exact_mut(N) {
            chunk.copy_from_slice(&next().to_le_bytes()[..N]);
        }
        bytes
    }
    match elem.size() {
        1 => sized::<1>(count, &mut next),
        2 => sized::<2>(count, &mut next),
        4 => sized::<4>(count, &mut next),
        8 => sized::<8>(count, &mut next),
        n => unreachable!("ElemType::size gives 1, 2, 4 or 8 bytes, not {n}"),
    }
}

/// A float fill of `count` elements of `size` bytes: each takes exactly one output of the
/// generator, so the element `k` is made from `SplitMix64::after(seed, k)` alone, and pieces
/// of [`FLOAT_PIECE`] elements are made on rayon's threads (the same bytes as one after the
/// other; input data of millions of values is made here).
fn float_fill(
    size: usize,
    count: u64,
    seed: u64,
    (min, max): (f64, f64),
    rounder: &spvx_num::float::F64Rounder,
) -> Vec<u8> {
    use rayon::prelude::*;
    fn piece<const N: usize>(
        bytes: &mut [u8],
        first: u64,
        seed: u64,
        (min, max): (f64, f64),
        rounder: &spvx_num::float::F64Rounder,
    ) {
        let mut rng = SplitMix64::after(seed, first);
        for chunk in bytes.chunks_exact_mut(N) {
            let v = rounder.round(rng.f64_in(min, max));
            chunk.copy_from_slice(&v.to_le_bytes()[..N]);
        }
    }
    let mut bytes = vec![0u8; count as usize * size];
    let each = FLOAT_PIECE * size;
    let make = |(i, p): (usize, &mut [u8])| {
        let first = (i * FLOAT_PIECE) as u64;
        match size {
            1 => piece::<1>(p, first, seed, (min, max), rounder),
            2 => piece::<2>(p, first, seed, (min, max), rounder),
            4 => piece::<4>(p, first, seed, (min, max), rounder),
            8 => piece::<8>(p, first, seed, (min, max), rounder),
            n => unreachable!("ElemType::size gives 1, 2, 4 or 8 bytes, not {n}"),
        }
    };
    if count as usize > FLOAT_PIECE {
        bytes.par_chunks_mut(each).enumerate().for_each(make);
    } else {
        bytes.chunks_mut(each).enumerate().for_each(make);
    }
    bytes
}

/// Elements per piece of a float fill made on one thread.
const FLOAT_PIECE: usize = 1 << 16;

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
        assert_eq!(
            DataSpec::parse_source("u8:256").map_err(|e| e.to_string()),
            Err("'u8:256': 256 is outside the range of u8 (0..=255)".to_string())
        );
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
        // Two i16 elements, little-endian, in order: outputs 0x599ed017fb08fc85 and
        // 0x2c73f08458540fa5, each mod 65536 (0xfc85 = 64645, 0x0fa5 = 4005) plus -32768:
        // 31877 = 0x7c85 and -28763 = 0x8fa5.
        let b = random_bytes(ElemType::I16, 2, &Range::Int(-32768, 32767), 1234567).unwrap();
        assert_eq!(b, [0x85, 0x7c, 0xa5, 0x8f]);
        assert!(random_bytes(ElemType::I8, 1, &Range::Int(-129, 0), 1).is_err());
        assert!(random_bytes(ElemType::F16, 1, &Range::Float(1.0, 1.0), 1).is_err());
        assert!(random_bytes(ElemType::F16, 1, &Range::Int(0, 1), 1).is_err());
    }

    /// A float fill of several pieces (made on several threads) is the documented mapping in
    /// order: each output of one generator, `min + (max - min) · (x >> 11) · 2^-53` in f64,
    /// then to f32 by Rust's `as` (nearest even) or kept as f64.
    #[test]
    fn float_fills_across_pieces_are_the_mapping_in_order() {
        let count = 2 * FLOAT_PIECE + 3;
        let (min, max, seed) = (-3.0f64, 5.0f64, 99);
        let mut rng = SplitMix64::new(seed);
        let values: Vec<f64> = (0..count)
            .map(|_| {
                let u = (rng.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0);
                min + (max - min) * u
            })
            .collect();
        let f32s: Vec<u8> = values
            .iter()
            .flat_map(|&v| (v as f32).to_le_bytes())
            .collect();
        let f64s: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let range = Range::Float(min, max);
        let got = random_bytes(ElemType::F32, count as u64, &range, seed).unwrap();
        assert!(got == f32s, "f32 fill differs from the mapping");
        let got = random_bytes(ElemType::F64, count as u64, &range, seed).unwrap();
        assert!(got == f64s, "f64 fill differs from the mapping");
    }

    #[test]
    fn memory_limit() {
        let e = DataSpec::Zeros(10).load(Path::new(""), 9).unwrap_err();
        assert_eq!(
            e.to_string(),
            "10 bytes are more than the memory limit of 9 bytes (--max-memory)"
        );
    }
}

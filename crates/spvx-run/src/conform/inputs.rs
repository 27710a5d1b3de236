//! The inputs of one chunk of a form: a function of the sweep's seed, the form's id and the
//! chunk number only (so any process, shard or re-run generates the same bytes), drawn from
//! SplitMix64 ([`crate::prng`]).

use super::form::{Form, Kind};
use super::{fixed, intdot, mixdot, smma, tensors};
use crate::prng::SplitMix64;

/// The generator of chunk `chunk` of `form` under `seed`: SplitMix64 seeded with
/// `seed ^ fnv1a64(id) ^ (chunk · 0x9e3779b97f4a7c15)`.
pub fn rng(seed: u64, form: &Form, chunk: u32) -> SplitMix64 {
    SplitMix64::new(seed ^ fnv1a64(&form.id) ^ u64::from(chunk).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// FNV-1a, 64 bits, over the bytes of `text`.
pub fn fnv1a64(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The bytes of each input binding (in `form.inputs` order) for `count` invocations.
pub fn inputs(form: &Form, seed: u64, chunk: u32, count: u32) -> Vec<Vec<u8>> {
    let mut rng = rng(seed, form, chunk);
    match &form.kind {
        Kind::IntDot(f) => intdot::inputs(f, &mut rng, count),
        Kind::MixDot(f) => mixdot::inputs(f, &mut rng, count),
        Kind::Fixed(f) => fixed::inputs(f, &mut rng, count),
        Kind::Smma(f) => smma::inputs(f, &mut rng, count),
        Kind::Tensors(f) => tensors::inputs::inputs(f, form, &mut rng, count),
    }
}

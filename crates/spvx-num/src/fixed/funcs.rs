//! Implementations of the eleven functions, one file per family.

pub(crate) mod algebraic;
pub(crate) mod exp;
pub(crate) mod log;
pub(crate) mod series;
pub(crate) mod trig;

use super::Overflow;
use super::convert::far_out_of_range;
use super::quantize::apply_overflow;
use super::ziv::Target;
use num_bigint::BigInt;

/// The raw result for an infinite f(x): overflow on that side; under WRAP, MAX for +∞ and MIN
/// for −∞ (the ac_math precedent, reference/acfixed.md §3.4).
pub(crate) fn infinity(negative: bool, t: &Target) -> BigInt {
    match t.o {
        Overflow::Wrap => {
            if negative {
                t.fmt.raw_min()
            } else {
                t.fmt.raw_max()
            }
        }
        _ => apply_overflow(&far_out_of_range(negative, t.fmt), t.fmt, t.o),
    }
}

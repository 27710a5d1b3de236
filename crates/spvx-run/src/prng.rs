//! The seeded random fills of run files: SplitMix64 (Steele, Lea and Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014; the `splitmix64.c` reference of Vigna) and
//! the exact mapping of its outputs to a range.
//!
//! The algorithm is written out here, not taken from a crate, because a run file's data must
//! stay the same bytes for ever: a crate's generator or range sampling may change between
//! versions (rand's did), and a run file with a seed would then silently mean other data.
//!
//! - Integers in `[min, max]`: with `span = max - min + 1` (up to 2^64), outputs `x` with
//!   `x >= 2^64 - (2^64 mod span)` are rejected (drawn again), then the value is
//!   `min + (x mod span)`; when `span = 2^64` the value is `min + x`. Unbiased.
//! - Floats in `[min, max)`: `u = (x >> 11) · 2^-53`, then `v = min + (max - min) · u` in f64
//!   arithmetic (IEEE-754 double, round to nearest even at each step), then `v` rounded to nearest
//!   even into the element type.

/// SplitMix64's increment of the state per output (the golden ratio's 64-bit fraction).
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose first output is the reference's first output for `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The generator for `seed` after `n` outputs: its state advances by a constant per output,
    /// so the `n`-th output needs none of the ones before it.
    pub fn after(seed: u64, n: u64) -> Self {
        SplitMix64 {
            state: seed.wrapping_add(n.wrapping_mul(GAMMA)),
        }
    }

    /// The next 64-bit output.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniformly distributed integer in `[min, max]` (`min <= max`; both within 64 bits of
    /// each other).
    pub fn int_in(&mut self, min: i128, max: i128) -> i128 {
        IntSampler::new(min, max).sample(self)
    }

    /// A float in `[min, max)` as f64 (see the module comment).
    pub fn f64_in(&mut self, min: f64, max: f64) -> f64 {
        let u = (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0);
        min + (max - min) * u
    }
}

/// The mapping of outputs to the integers `[min, max]` (module comment), its constants worked
/// out once for many values (input data of millions of integers is made through it).
#[derive(Clone, Copy, Debug)]
pub struct IntSampler {
    min: i128,
    /// `max - min + 1`, or `None` for 2^64 (every output kept, offset by `min`).
    span: Option<u64>,
    /// The largest output kept: `2^64 - 1 - (2^64 mod span)`.
    kept_to: u64,
}

impl IntSampler {
    /// The sampler of `[min, max]` (`min <= max`; both within 64 bits of each other).
    pub fn new(min: i128, max: i128) -> IntSampler {
        let span = (max - min + 1) as u128;
        match u64::try_from(span) {
            Ok(span) => IntSampler {
                min,
                span: Some(span),
                // 2^64 mod span, computed without 128-bit arithmetic: (2^64 - span) mod span.
                kept_to: u64::MAX - (span.wrapping_neg() % span),
            },
            Err(_) => IntSampler {
                min,
                span: None,
                kept_to: u64::MAX,
            },
        }
    }

    /// The next integer from `rng`.
    #[inline]
    pub fn sample(&self, rng: &mut SplitMix64) -> i128 {
        let Some(span) = self.span else {
            return self.min + rng.next_u64() as i128;
        };
        loop {
            let x = rng.next_u64();
            if x <= self.kept_to {
                // (A power-of-two span, such as every value of a 32-bit type, takes no division.)
                let r = if span.is_power_of_two() {
                    x & (span - 1)
                } else {
                    x % span
                };
                return self.min + r as i128;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_after_n_outputs() {
        for seed in [0, 1234567, u64::MAX] {
            let mut r = SplitMix64::new(seed);
            for n in 0..1000u64 {
                let mut after = SplitMix64::after(seed, n);
                assert_eq!(after.next_u64(), r.next_u64(), "seed {seed}, output {n}");
            }
        }
    }

    #[test]
    fn reference_outputs() {
        // Rosetta Code "Pseudo-random numbers/Splitmix64": seed 1234567.
        let mut r = SplitMix64::new(1234567);
        let got: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        assert_eq!(
            got,
            [
                6457827717110365317,
                3203168211198807973,
                9817491932198370423,
                4593380528125082431,
                16408922859458223821
            ]
        );
        // splitmix64.c seeded with 0: first output 0xe220a8397b1dcdaf.
        assert_eq!(SplitMix64::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn integer_mapping_by_hand() {
        // span 10: 2^64 mod 10 = 6, so outputs > 2^64 - 7 are rejected; the first output of
        // seed 1234567 is kept: 6457827717110365317 mod 10 = 7.
        let mut r = SplitMix64::new(1234567);
        assert_eq!(r.int_in(-3, 6), -3 + 7);
        // span 2^64: the output itself, offset by min.
        let mut r = SplitMix64::new(1234567);
        assert_eq!(
            r.int_in(i64::MIN as i128, i64::MAX as i128),
            i64::MIN as i128 + 6457827717110365317
        );
        // Every value of a small range appears and none outside.
        let mut r = SplitMix64::new(9);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let v = r.int_in(-2, 2);
            assert!((-2..=2).contains(&v));
            seen[(v + 2) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    /// The sampler gives what the module comment's mapping gives, written out with 128-bit
    /// arithmetic, for spans of every kind: small, odd, powers of two (all of u8 and u32),
    /// just under 2^64 and 2^64.
    #[test]
    fn the_sampler_is_the_documented_mapping() {
        let reference = |r: &mut SplitMix64, min: i128, max: i128| -> i128 {
            let span = (max - min + 1) as u128;
            loop {
                let x = r.next_u64() as u128;
                if x < (1u128 << 64) - ((1u128 << 64) % span) {
                    return min + (x % span) as i128;
                }
            }
        };
        let ranges: [(i128, i128); 8] = [
            (-3, 6),
            (0, 2),
            (0, 255),
            (-128, 127),
            (0, u32::MAX as i128),
            (i32::MIN as i128, i32::MAX as i128),
            (0, u64::MAX as i128 - 1),
            (i64::MIN as i128, i64::MAX as i128),
        ];
        for (min, max) in ranges {
            let (mut a, mut b) = (SplitMix64::new(77), SplitMix64::new(77));
            let s = IntSampler::new(min, max);
            for _ in 0..2000 {
                assert_eq!(
                    s.sample(&mut a),
                    reference(&mut b, min, max),
                    "[{min}, {max}]"
                );
            }
        }
    }

    #[test]
    fn rejection_happens_at_the_top() {
        // span 3: 2^64 mod 3 = 1, so only x = 2^64 - 1 is rejected.
        let span: u64 = 3;
        assert_eq!(u64::MAX - (span.wrapping_neg() % span), u64::MAX - 1);
    }

    #[test]
    fn float_mapping_by_hand() {
        // (6457827717110365317 >> 11) · 2^-53 = 0.350077... ; [0, 1) keeps it.
        let mut r = SplitMix64::new(1234567);
        let u = (6457827717110365317u64 >> 11) as f64 / 9007199254740992.0;
        assert_eq!(r.f64_in(0.0, 1.0), u);
        assert!(u > 0.35 && u < 0.3501);
    }
}

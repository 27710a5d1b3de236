//! The segments lanes wait at in one call frame, for the scheduler's min-PC rule.
//!
//! Instead of one "next segment" per lane (which needs a scan over every lane to find the
//! smallest), a frame keeps the few distinct segments that some lane waits at, each with the
//! mask of its lanes, sorted by decreasing segment index so that the smallest is the last entry.
//! Taking the next segment is a `pop`; sending lanes to a segment merges their mask into its
//! entry or inserts one. Under uniform control flow the list holds one entry; under divergence
//! it holds at most one entry per lane, usually two or three.

/// One call frame's waiting lanes: `(segment, lanes)` entries, segments distinct and sorted
/// in decreasing order, masks non-empty.
#[derive(Clone, Debug, Default)]
pub struct Pending {
    entries: Vec<(u32, u64)>,
}

impl Pending {
    /// Removes every entry, keeping the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Adds the lanes of `mask` to those waiting at `segment`.
    #[inline]
    pub fn wait(&mut self, segment: u32, mask: u64) {
        if mask == 0 {
            return;
        }
        // Search from the end (smallest segments): forward edges usually go just past the
        // current segment, which was the smallest.
        let mut i = self.entries.len();
        while i > 0 {
            let (s, m) = &mut self.entries[i - 1];
            if *s == segment {
                *m |= mask;
                return;
            }
            if *s > segment {
                break;
            }
            i -= 1;
        }
        self.entries.insert(i, (segment, mask));
    }

    /// Takes the smallest segment some lane waits at, with its lanes.
    #[inline]
    pub fn take_min(&mut self) -> Option<(u32, u64)> {
        self.entries.pop()
    }

    /// The union of the lanes waiting anywhere.
    pub fn lanes(&self) -> u64 {
        self.entries.iter().fold(0, |a, (_, m)| a | m)
    }
}

#[cfg(test)]
mod tests {
    use super::Pending;
    use proptest::prelude::*;

    /// The per-lane model the list replaces: the smallest next segment over the lanes, and the
    /// lanes waiting there.
    fn min_scan(next: &[u32]) -> Option<(u32, u64)> {
        let best = *next.iter().min()?;
        if best == u32::MAX {
            return None;
        }
        let mask = next
            .iter()
            .enumerate()
            .filter(|(_, n)| **n == best)
            .fold(0u64, |m, (l, _)| m | 1 << l);
        Some((best, mask))
    }

    proptest! {
        /// Random schedules: each step takes the minimum from both the list and the per-lane
        /// model, then sends the taken lanes to random targets (split into random groups);
        /// both must agree at every step.
        #[test]
        fn agrees_with_the_per_lane_scan(
            width in 1usize..=64,
            start in 0u32..8,
            moves in proptest::collection::vec((0u32..12, any::<u64>(), 0u32..12), 1..60),
        ) {
            let all = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
            let mut next = vec![start; width];
            let mut list = Pending::default();
            list.wait(start, all);
            for (t1, split, t2) in moves {
                let expected = min_scan(&next);
                let got = list.take_min();
                prop_assert_eq!(got, expected);
                let Some((_, mask)) = got else { break };
                // Lanes of the mask in `split` go to t1 (or finish when t1 is 11), the
                // others to t2.
                let a = mask & split;
                let b = mask & !split;
                for (m, t) in [(a, t1), (b, t2)] {
                    for (l, n) in next.iter_mut().enumerate() {
                        if m >> l & 1 == 1 {
                            *n = if t == 11 { u32::MAX } else { t };
                        }
                    }
                    if t != 11 {
                        list.wait(t, m);
                    }
                }
                let union = next
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n != u32::MAX)
                    .fold(0u64, |m, (l, _)| m | 1 << l);
                prop_assert_eq!(list.lanes(), union);
            }
        }
    }

    #[test]
    fn merges_and_orders() {
        let mut p = Pending::default();
        p.wait(5, 0b0001);
        p.wait(3, 0b0010);
        p.wait(9, 0b0100);
        p.wait(3, 0b1000);
        p.wait(7, 0);
        assert_eq!(p.take_min(), Some((3, 0b1010)));
        assert_eq!(p.take_min(), Some((5, 0b0001)));
        assert_eq!(p.take_min(), Some((9, 0b0100)));
        assert_eq!(p.take_min(), None);
    }
}

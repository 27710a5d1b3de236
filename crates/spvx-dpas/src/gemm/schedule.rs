//! Guided self-scheduling of a GEMM's row blocks on the rayon pool: one worker per pool thread
//! takes, while rows remain, the next chunk of whole units of rows (micro-panels), of about
//! 1/(2·threads) of what is left (never less than one unit, never more than `max_units`). Big
//! chunks first (few passes over B), single units at the end, so the threads finish within
//! about one unit of each other whatever the order they ran in or the other load on the
//! machine; fixed blocks left up to a whole block of idle time on one thread at the end.

use std::sync::{Mutex, PoisonError};

/// Runs `work(row0, rows)` on disjoint chunks covering `out` (rows of `n` elements; every row
/// exactly once), chunks of whole `unit`-row groups except the last rows of `out`.
pub(super) fn guided<T: Send>(
    out: &mut [T],
    n: usize,
    unit: usize,
    max_units: usize,
    work: impl Fn(usize, &mut [T]) + Sync,
) {
    if n == 0 || out.is_empty() {
        return;
    }
    let threads = rayon::current_num_threads().max(1);
    // The next row and the rows not handed out yet.
    let rest: Mutex<(usize, &mut [T])> = Mutex::new((0, out));
    let next = || {
        let mut guard = rest.lock().unwrap_or_else(PoisonError::into_inner);
        let (row0, left) = &mut *guard;
        let rows = left.len() / n;
        if rows == 0 {
            return None;
        }
        let units = rows.div_ceil(unit);
        let take = ((units / (2 * threads)).clamp(1, max_units.max(1)) * unit).min(rows);
        let (chunk, tail) = std::mem::take(left).split_at_mut(take * n);
        *left = tail;
        let at = *row0;
        *row0 += take;
        Some((at, chunk))
    };
    let worker = || {
        while let Some((row0, chunk)) = next() {
            work(row0, chunk);
        }
    };
    if threads == 1 {
        worker();
        return;
    }
    // Spawned jobs rather than a broadcast: a pool thread that is descheduled does not hold
    // the others up (whichever thread is free runs its worker, which finds the rows taken).
    rayon::scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| worker());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_handed_out_once_in_whole_units() {
        for (m, n, unit) in [(1, 1, 6), (171 * 6 + 4, 3, 6), (100, 7, 1), (7, 5, 16)] {
            let mut out = vec![0u32; m * n];
            let starts = Mutex::new(Vec::new());
            guided(&mut out, n, unit, 16, |row0, rows| {
                assert_eq!(rows.len() % n, 0);
                let count = rows.len() / n;
                assert!(row0 % unit == 0 && (count % unit == 0 || row0 + count == m));
                for (r, row) in rows.chunks_exact_mut(n).enumerate() {
                    row.fill((row0 + r) as u32 + 1);
                }
                starts.lock().unwrap().push(row0);
            });
            for (r, row) in out.chunks_exact(n).enumerate() {
                assert!(row.iter().all(|&v| v == r as u32 + 1), "{m} {n} {unit}");
            }
        }
    }
}

//! Medians and rates.

use std::time::Duration;

/// The median of `samples` (the mean of the two middle ones for an even count); `None` when
/// there are none.
pub fn median(samples: &[Duration]) -> Option<Duration> {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2),
    }
}

/// `count` per second over `time`, or `None` for a zero time.
pub fn per_second(count: u64, time: Duration) -> Option<f64> {
    let secs = time.as_secs_f64();
    (secs > 0.0).then(|| count as f64 / secs)
}

/// The geometric mean of positive `values`; `None` when there are none.
pub fn geometric_mean(values: &[f64]) -> Option<f64> {
    let positive: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
    if positive.is_empty() {
        return None;
    }
    let log_sum: f64 = positive.iter().map(|v| v.ln()).sum();
    Some((log_sum / positive.len() as f64).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: &[u64]) -> Vec<Duration> {
        v.iter().map(|&m| Duration::from_millis(m)).collect()
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&ms(&[5, 1, 3])), Some(Duration::from_millis(3)));
        assert_eq!(
            median(&ms(&[4, 1, 3, 10])),
            Some(Duration::from_micros(3500))
        );
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn rates_and_geometric_mean() {
        assert_eq!(per_second(1000, Duration::from_millis(500)), Some(2000.0));
        assert_eq!(per_second(1, Duration::ZERO), None);
        let g = geometric_mean(&[2.0, 8.0]).unwrap_or(0.0);
        assert!((g - 4.0).abs() < 1e-12);
        assert_eq!(geometric_mean(&[]), None);
    }
}

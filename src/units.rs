//! Units and rates: how many of a thing per second (nodes, leaves, positions), the median and
//! the milliseconds of durations, and the text every report writes them in: counts (`21.3M`,
//! `21,000,788`), seconds (`0.84 s`), rates (`25.4 Mn/s`) and long durations (`3m 05s`). At the
//! bottom of the crate: it knows numbers and [`Duration`]s, nothing of the game or the search.

use std::time::Duration;

/// The time left when `done` of `total` units of work took `elapsed`, at the same pace;
/// `None` before any work is done or after all of it.
pub fn remaining(elapsed: Duration, done: f64, total: f64) -> Option<Duration> {
    (done > 0.0 && done < total).then(|| elapsed.mul_f64((total - done) / done))
}

/// `count` per second of `time` (nodes per second, positions per second); 0 for a zero
/// duration.
pub fn per_second(count: u64, time: Duration) -> f64 {
    let seconds = time.as_secs_f64();
    if seconds > 0.0 {
        count as f64 / seconds
    } else {
        0.0
    }
}

/// The median of `times` (the mean of the middle two for an even count); zero when empty.
pub fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    match n {
        0 => Duration::ZERO,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
    }
}

/// Milliseconds to the microsecond, as the JSON and CSV records write times.
pub fn milliseconds(time: Duration) -> f64 {
    (time.as_secs_f64() * 1e6).round() / 1e3
}

/// A count with a comma between groups of three digits: `21,000,788`.
pub fn format_thousands(count: u64) -> String {
    let digits = count.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(c);
    }
    text
}

/// A count in at most 3 significant digits with an SI suffix: `812`, `12.3k`, `21.3M`, `6.56G`.
pub fn format_count(count: u64) -> String {
    const SUFFIXES: [&str; 5] = ["", "k", "M", "G", "T"];
    if count < 1000 {
        return count.to_string();
    }
    let (mut value, mut unit) = (count as f64, 0);
    // Up while the value would round to 1000 or more: 999_960 is 1.00M, not 1000k.
    while unit + 1 < SUFFIXES.len() && value >= 999.5 {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.*}{}", decimals_for(value), SUFFIXES[unit])
}

/// Decimals that give 3 significant digits: 2 below 10, 1 below 100, else 0 (judged after
/// rounding, so 9.996 prints as 10.0).
pub fn decimals_for(value: f64) -> usize {
    if value < 9.995 {
        2
    } else if value < 99.95 {
        1
    } else {
        0
    }
}

/// Seconds with two decimals and a unit: `0.84 s`.
pub fn format_seconds(seconds: f64) -> String {
    format!("{seconds:.2} s")
}

/// Millions of nodes per second with one decimal: `25.4 Mn/s`.
pub fn format_mnps(nodes_per_second: f64) -> String {
    format!("{:.1} Mn/s", nodes_per_second / 1e6)
}

/// A duration as people read it: `42 s`, `3m 05s`, `2h 07m`.
pub fn format_duration(time: Duration) -> String {
    let seconds = time.as_secs();
    match seconds {
        0..=59 => format!("{seconds} s"),
        60..=3599 => format!("{}m {:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h {:02}m", seconds / 3600, seconds / 60 % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_time_left_follows_the_work_done() {
        // A tenth of the work in 10 s: 90 s left, whatever the number of items.
        assert_eq!(remaining(ms(10_000), 1.0, 10.0), Some(ms(90_000)));
        assert_eq!(remaining(ms(10_000), 0.0, 10.0), None);
        assert_eq!(remaining(ms(10_000), 10.0, 10.0), None);
    }

    #[test]
    fn rates_medians_and_milliseconds() {
        assert_eq!(per_second(3_000_000, ms(1500)), 2_000_000.0);
        assert_eq!(per_second(5, Duration::ZERO), 0.0);
        assert_eq!(median(&[]), Duration::ZERO);
        assert_eq!(median(&[ms(7)]), ms(7));
        assert_eq!(median(&[ms(9), ms(1), ms(5)]), ms(5));
        assert_eq!(median(&[ms(4), ms(1), ms(2), ms(9)]), ms(3));
        assert_eq!(milliseconds(Duration::from_micros(1_234_567)), 1234.567);
    }

    #[test]
    fn counts_seconds_rates_and_durations_as_text() {
        assert_eq!(format_thousands(0), "0");
        assert_eq!(format_thousands(21_000_788), "21,000,788");
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(812), "812");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(1_000), "1.00k");
        assert_eq!(format_count(12_345), "12.3k");
        assert_eq!(format_count(9_996), "10.0k");
        assert_eq!(format_count(99_960), "100k");
        assert_eq!(format_count(21_300_000), "21.3M");
        assert_eq!(format_count(999_960), "1.00M");
        assert_eq!(format_count(123_456_789), "123M");
        assert_eq!(format_count(6_560_000_000), "6.56G");
        assert_eq!(format_count(2_000_000_000_000), "2.00T");
        assert_eq!(format_seconds(0.8449), "0.84 s");
        assert_eq!(format_mnps(25_400_000.0), "25.4 Mn/s");
        assert_eq!(format_duration(ms(42_900)), "42 s");
        assert_eq!(format_duration(ms(185_000)), "3m 05s");
        assert_eq!(format_duration(ms(7_620_000)), "2h 07m");
    }
}

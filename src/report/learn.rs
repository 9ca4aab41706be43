//! Reports of `osolve gen` and `osolve train`: the generation summary with throughput per
//! number of empties, and the fit table with training and held-out errors per weight set.

use crate::learn::gen::GenStats;
use crate::learn::train::{SetReport, TrainStats};
use crate::units::{format_count, format_seconds, per_second};

/// The summary of a generation run: totals, then one row per number of empties.
pub fn gen_summary(stats: &GenStats, threads: usize) -> String {
    let seconds = stats.elapsed.as_secs_f64();
    let mut out = format!(
        "generated {} positions from {} games ({} symmetric duplicates dropped) in {} with {} threads: {:.1} positions/s, {} nodes\n",
        format_count(stats.positions),
        format_count(stats.games),
        format_count(stats.duplicates),
        format_seconds(seconds),
        threads,
        per_second(stats.positions, stats.elapsed),
        format_count(stats.nodes),
    );
    if stats.unfinished > 0 {
        out.push_str(&format!(
            "{} positions dropped: their search reached the limit\n",
            format_count(stats.unfinished)
        ));
    }
    out.push_str("empties  positions  labelling time  ms/position\n");
    for &(empties, count, time) in &stats.by_empties {
        if count == 0 {
            continue;
        }
        let t = time.as_secs_f64();
        out.push_str(&format!(
            "{empties:>7}  {:>9}  {:>14}  {:>11.3}\n",
            format_count(count),
            format_seconds(t),
            1000.0 * t / count as f64
        ));
    }
    out
}

/// The table of a fit: per set, its empties, sample counts and mean absolute errors in discs.
pub fn train_table(reports: &[SetReport], stats: &TrainStats) -> String {
    let mut out = format!(
        "{} samples, {} symmetric duplicates dropped\n",
        format_count(stats.samples as u64),
        format_count(stats.duplicates as u64)
    );
    // With base weights, their error on the same held-out positions, for comparison.
    let with_base = reports.iter().any(|r| r.base_held_out_mae.is_some());
    out.push_str("set  empties  train  held-out  train MAE  held-out MAE  baseline MAE");
    out.push_str(if with_base { "  base MAE\n" } else { "\n" });
    for r in reports {
        out.push_str(&format!(
            "{:>3}  {:>7}  {:>5}  {:>8}  {:>9.2}  {:>12.2}  {:>12.2}",
            r.set,
            format!("{}-{}", r.empties.0, r.empties.1),
            format_count(r.train as u64),
            format_count(r.held_out as u64),
            r.train_mae,
            r.held_out_mae,
            r.held_out_baseline
        ));
        if with_base {
            match r.base_held_out_mae {
                Some(mae) => out.push_str(&format!("  {mae:>8.2}\n")),
                None => out.push_str("         -\n"),
            }
        } else {
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn summary_rows() {
        let stats = GenStats {
            games: 12,
            duplicates: 1,
            positions: 10,
            unfinished: 0,
            by_empties: vec![(12, 4, Duration::from_millis(8)), (13, 0, Duration::ZERO)],
            nodes: 1234,
            elapsed: Duration::from_secs(2),
            exhausted: false,
        };
        let text = gen_summary(&stats, 2);
        assert!(
            text.starts_with(
                "generated 10 positions from 12 games (1 symmetric duplicates dropped)"
            ),
            "{text}"
        );
        assert!(text.contains("5.0 positions/s"), "{text}");
        assert!(text.contains("     12          4"), "{text}");
        assert!(text.trim_end().ends_with("2.000"), "{text}");
        assert!(!text.contains("\n     13"), "{text}");
    }
}

//! Reports of `osolve gen` and `osolve train`: the generation summary with throughput per
//! number of empties, and the fit table with training and held-out errors per weight set.

use super::batch::plural;
use super::terms;
use crate::board::Position;
use crate::learn::gen::GenStats;
use crate::learn::train::{SetReport, TrainStats};
use crate::notation::{format_obf_final, search_depth_comment};
use crate::units::{format_count, format_seconds, per_second};

/// The summary of a generation run: totals, then one row per number of empties.
pub fn gen_summary(stats: &GenStats, threads: usize) -> String {
    let seconds = stats.elapsed.as_secs_f64();
    let mut out = format!(
        "generated {} position{} from {} game{} ({} symmetric duplicate{} dropped) in {} with {} \
         thread{}: {:.1} positions/s, {} node{}\n",
        format_count(stats.positions),
        plural(stats.positions),
        format_count(stats.games),
        plural(stats.games),
        format_count(stats.duplicates),
        plural(stats.duplicates),
        format_seconds(seconds),
        threads,
        plural(threads),
        per_second(stats.positions, stats.elapsed),
        format_count(stats.nodes),
        plural(stats.nodes),
    );
    if stats.unfinished > 0 {
        let whose = if stats.unfinished == 1 {
            "its"
        } else {
            "their"
        };
        out.push_str(&format!(
            "{} position{} dropped: {whose} search reached the limit\n",
            format_count(stats.unfinished),
            plural(stats.unfinished)
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

/// The line `osolve gen` writes for a labelled position: the OBF line with its final `score`
/// (`<board> <side>; +6;`), and when the label is a depth-limited search's, the comment that
/// says so (`% search depth 4`), so that no one takes it as exact.
pub fn gen_line(position: &Position, score: i32, search_depth: Option<u32>) -> String {
    let mut line = format_obf_final(position, score);
    if let Some(depth) = search_depth {
        line.push_str(&search_depth_comment(depth));
    }
    line
}

/// What `osolve gen` says when its games stopped finding new positions in `empties` (low,
/// high) for the last `after` games: how many of the positions `asked` were `written` to
/// `output_name`.
pub fn exhausted_message(
    empties: (u32, u32),
    after: u64,
    written: u64,
    asked: usize,
    output_name: &str,
) -> String {
    let (low, high) = empties;
    let range = if low == high {
        terms::empties(low)
    } else {
        format!("{low}-{high} empties")
    };
    format!(
        "the games found no new position at {range} in the last {after} game{}: the range looks \
         exhausted; {written} of the {asked} position{} asked written to {output_name}",
        plural(after),
        plural(asked)
    )
}

/// What an interrupted `osolve gen` says last: the `lines` kept whole in `output_name`.
pub fn gen_interrupted(lines: u64, output_name: &str) -> String {
    format!(
        "interrupted: {lines} complete line{} kept in {output_name}",
        plural(lines)
    )
}

/// The warning of a fit given fewer labelled positions (`given`) than `--min-samples` (`min`).
pub fn few_samples_warning(given: usize, min: usize) -> String {
    format!(
        "warning: {given} labelled position{} given, fewer than --min-samples {min} that a \
         weight set needs of its own empties",
        plural(given)
    )
}

/// The last line of a fit: the weights file written (`standard output` too) and its size.
pub fn wrote_weights(output_name: &str, bytes: usize) -> String {
    format!("wrote {output_name} ({bytes} bytes)")
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
                "generated 10 positions from 12 games (1 symmetric duplicate dropped)"
            ),
            "{text}"
        );
        assert!(
            text.contains(" in 2.00 s with 2 threads: 5.0 positions/s"),
            "{text}"
        );
        let one = gen_summary(&stats, 1);
        assert!(one.contains(" with 1 thread: 5.0 positions/s"), "{one}");
        assert!(text.contains("     12          4"), "{text}");
        assert!(text.trim_end().ends_with("2.000"), "{text}");
        assert!(!text.contains("\n     13"), "{text}");
        // Every count says one in the singular.
        let single = GenStats {
            games: 1,
            duplicates: 0,
            positions: 1,
            unfinished: 1,
            nodes: 1,
            ..stats
        };
        let text = gen_summary(&single, 1);
        assert!(
            text.starts_with(
                "generated 1 position from 1 game (0 symmetric duplicates dropped) in 2.00 s \
                 with 1 thread: 0.5 positions/s, 1 node\n\
                 1 position dropped: its search reached the limit\n"
            ),
            "{text}"
        );
        let many = gen_summary(
            &GenStats {
                unfinished: 2,
                ..single
            },
            1,
        );
        assert!(many.contains("\n2 positions dropped: their search reached the limit\n"));
    }

    #[test]
    fn gen_and_train_lines() {
        let position = crate::board::Position::start();
        let board = crate::notation::format_board(&position);
        assert_eq!(gen_line(&position, -2, None), format!("{board}; -2;"));
        assert_eq!(
            gen_line(&position, 6, Some(4)),
            format!("{board}; +6; % search depth 4")
        );
        assert_eq!(
            exhausted_message((59, 59), 20_000, 3, 100, "out.obf"),
            "the games found no new position at 59 empties in the last 20000 games: the range \
             looks exhausted; 3 of the 100 positions asked written to out.obf"
        );
        assert_eq!(
            exhausted_message((1, 1), 1, 0, 1, "-"),
            "the games found no new position at 1 empty in the last 1 game: the range looks \
             exhausted; 0 of the 1 position asked written to -"
        );
        assert!(exhausted_message((12, 22), 5, 0, 1, "-").contains(" at 12-22 empties in "));
        assert_eq!(
            gen_interrupted(14, "standard output"),
            "interrupted: 14 complete lines kept in standard output"
        );
        assert_eq!(
            gen_interrupted(1, "out.obf"),
            "interrupted: 1 complete line kept in out.obf"
        );
        assert_eq!(
            few_samples_warning(1, 10_000),
            "warning: 1 labelled position given, fewer than --min-samples 10000 that a weight \
             set needs of its own empties"
        );
        assert!(few_samples_warning(2, 3).starts_with("warning: 2 labelled positions given"));
        assert_eq!(wrote_weights("w.bin", 1234), "wrote w.bin (1234 bytes)");
    }
}

//! The live line of a long search (`osolve solve`, `show`, `analyze` on a terminal, NBoard's
//! `status`): one progress event of the solver as one line of text, without a newline.
//! `cli/spinner.rs` redraws it in place; strings in, strings out.

use std::fmt::Display;

use crate::search::{BestMove, Progress, Stage};

use crate::units::{format_count, format_duration, format_mnps, per_second};

/// What a progress event says after the time: nodes, speed, the proven bounds, the move held
/// best and the stage: `nodes 61.2M  25.4 Mn/s  score in [-8, +2]  best d3  exact (-9, +3)`.
/// Exact bounds read `score +38`; a selective pass adds its estimate (`estimate +4`), never a
/// bound; scoring every move adds `moves 3/9`.
pub fn progress_text(progress: &Progress) -> String {
    let nps = per_second(progress.nodes, progress.elapsed);
    let mut text = format!(
        "nodes {}  {}  {}",
        format_count(progress.nodes),
        format_mnps(nps),
        bounds_text(progress.lower, progress.upper)
    );
    if let Some(best) = progress.best_move.and_then(best_text) {
        text.push_str("  best ");
        text.push_str(&best);
    }
    if let Some((scored, total)) = progress.moves {
        text.push_str(&format!("  moves {scored}/{total}"));
    }
    text.push_str(&format!("  {}", progress.stage));
    if let (Stage::Selective { .. }, Some(estimate)) = (progress.stage, progress.estimate) {
        text.push_str(&format!(", estimate {estimate:+}"));
    }
    text
}

/// What the live line says is searched: the position's `source` and its `empties`,
/// `ffo-45.obf:1 (24 empties)` (the `what` of [`live_line`] and [`waiting_line`]).
pub fn live_subject(source: impl Display, empties: u32) -> String {
    format!("{source} ({empties} empties)")
}

/// The live line of the search of `what` (`ffo-45.obf:1 (24 empties)`) at `progress`:
/// `solving ffo-45.obf:1 (24 empties)  12 s  nodes 61.2M ...` ([`progress_text`]).
pub fn live_line(what: &str, progress: &Progress) -> String {
    format!(
        "solving {what}  {}  {}",
        elapsed_text(progress.elapsed),
        progress_text(progress)
    )
}

/// The line of a search that has sent no event yet (below 12 empties, or before its first):
/// `solving <position>:1 (12 empties)  3 s`.
pub fn waiting_line(what: &str, elapsed: std::time::Duration) -> String {
    format!("solving {what}  {}", elapsed_text(elapsed))
}

/// Tenths of a second below a minute (`2.5 s`), then as durations read (`3m 05s`).
fn elapsed_text(elapsed: std::time::Duration) -> String {
    if elapsed.as_secs() < 60 {
        format!("{:.1} s", elapsed.as_secs_f64())
    } else {
        format_duration(elapsed)
    }
}

/// `score +38` when the bounds meet, else `score in [-8, +2]`.
fn bounds_text(lower: i32, upper: i32) -> String {
    if lower == upper {
        format!("score {lower:+}")
    } else {
        format!("score in [{lower:+}, {upper:+}]")
    }
}

/// The move's name, `pass` for a pass, nothing for a finished game.
fn best_text(best: BestMove) -> Option<String> {
    match best {
        BestMove::Play(square) => Some(square.to_string()),
        BestMove::Pass => Some("pass".to_string()),
        BestMove::GameOver => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::search::StopReason;
    use std::time::Duration;

    fn event(stage: Stage) -> Progress {
        Progress {
            elapsed: Duration::from_millis(2500),
            nodes: 61_200_000,
            lower: -8,
            upper: 2,
            best_move: Some(BestMove::Play("d3".parse::<Square>().unwrap())),
            estimate: Some(4),
            moves: None,
            stage,
        }
    }

    #[test]
    fn the_subject_is_the_source_and_its_empties() {
        let source = crate::notation::Source::new("ffo-45.obf", 1);
        assert_eq!(live_subject(&source, 24), "ffo-45.obf:1 (24 empties)");
    }

    #[test]
    fn each_stage_reads_as_one_line() {
        let exact = event(Stage::Exact { alpha: -9, beta: 3 });
        assert_eq!(
            live_line(&live_subject("ffo-45.obf:1", 24), &exact),
            "solving ffo-45.obf:1 (24 empties)  2.5 s  nodes 61.2M  24.5 Mn/s  score in [-8, +2]  \
             best d3  exact (-9, +3)"
        );
        let selective = event(Stage::Selective {
            pass: 1,
            passes: 2,
            margin: 8,
        });
        assert_eq!(
            progress_text(&selective),
            "nodes 61.2M  24.5 Mn/s  score in [-8, +2]  best d3  selective pass 1/2 (margin 8), \
             estimate +4"
        );
        let mut done = event(Stage::Finished);
        (done.lower, done.upper, done.moves) = (2, 2, Some((9, 9)));
        assert_eq!(
            progress_text(&done),
            "nodes 61.2M  24.5 Mn/s  score +2  best d3  moves 9/9  finished"
        );
        assert_eq!(
            waiting_line("<position>:1 (12 empties)", Duration::from_secs(3)),
            "solving <position>:1 (12 empties)  3.0 s"
        );
        let mut stopped = event(Stage::Stopped(StopReason::TimeLimit));
        stopped.best_move = None;
        assert_eq!(
            progress_text(&stopped),
            "nodes 61.2M  24.5 Mn/s  score in [-8, +2]  stopped (time limit)"
        );
    }
}

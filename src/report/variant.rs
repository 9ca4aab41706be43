//! The human reports of `osolve solve` under a rules variant (`--rules reversi`, `--scoring
//! raw`): those of [`super::solve`] plus the rules line and the final count of the discs
//! actually on the board with the empty squares left (`score +4 (black 33 - white 29, 2
//! empty)`). The JSON record is the one [`SolveRecord`] with its optional rules fields.
//! Strings in, strings out.

use super::solve::SolveRecord;
use crate::board::rules::{Rules, Scoring, Supplies, VariantPosition};
use crate::notation::Source;
use crate::search::{FinalCount, VariantSolution};

/// The discs left of a position, when its rules count them.
pub fn discs_left(position: &VariantPosition) -> Option<Supplies> {
    (position.rules() == Rules::Reversi).then(|| position.supplies())
}

/// A final count as text: `black 33 - white 29, 2 empty` (no empty part on a full board).
pub fn final_count_text(count: &FinalCount) -> String {
    let mut text = format!("black {} - white {}", count.black, count.white);
    if count.empty > 0 {
        text.push_str(&format!(", {} empty", count.empty));
    }
    text
}

/// The line naming the rules and the scoring: `reversi rules, raw scoring` (the diagram above
/// it shows the discs left).
pub fn rules_line(position: &VariantPosition, scoring: Scoring) -> String {
    format!(
        "{} rules, {} scoring",
        position.rules().name(),
        scoring.name()
    )
}

/// The result line: `score +4 (black 33 - white 29, 2 empty)  best a2  pv ...  nodes ...`, that
/// of [`super::solve::result_line`] with the final count of the discs on the board (WLD lines
/// and finished games read the same).
pub fn result_line(solution: &VariantSolution) -> String {
    let line = super::solve::result_line(&solution.to_solution());
    match solution.final_count() {
        Some(count) => {
            // The score and count are the part before the first double space.
            let rest = &line[line.find("  ").unwrap_or(line.len())..];
            format!(
                "score {:+} ({}){rest}",
                solution.score,
                final_count_text(&count)
            )
        }
        None => line,
    }
}

/// The human report: the source, the diagram (as the caller drew it), the rules line, the
/// result line, an empty line.
pub fn human_report(source: &Source, diagram: &str, solution: &VariantSolution) -> String {
    format!(
        "{source}\n{diagram}{}\n{}\n\n",
        rules_line(&solution.position, solution.scoring),
        result_line(solution)
    )
}

/// The one-line report (`--quiet`).
pub fn quiet_report(source: &Source, solution: &VariantSolution) -> String {
    format!("{source}  {}\n", result_line(solution))
}

/// The JSON report: one [`SolveRecord`] with the rules' fields, and a newline.
pub fn json_report(source: &Source, solution: &VariantSolution) -> String {
    let mut line = serde_json::to_string(&SolveRecord::of_game(source, solution))
        .expect("a record of strings and numbers always serialises");
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Position, Square};
    use crate::search::BestMove;

    use std::time::Duration;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// A finished game: black's 33 discs on a1..a5 and white wiped out, 31 squares empty.
    fn finished() -> VariantSolution {
        let black = (1u64 << 33) - 1;
        let position = Position::from_colors(black, 0, Color::Black).unwrap();
        let vp = VariantPosition::new(position, None, Rules::Othello).unwrap();
        VariantSolution {
            position: vp,
            scoring: Scoring::Raw,
            score: 33,
            wld: false,
            best_move: BestMove::GameOver,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            threads: 1,
        }
    }

    #[test]
    fn final_counts_show_the_empty_squares() {
        let solution = finished();
        assert!(solution.position.is_over());
        assert_eq!(
            result_line(&solution),
            "score +33 (black 33 - white 0, 31 empty)  game over  nodes 0  0.00 s  0.0 Mn/s"
        );
        let json: serde_json::Value =
            serde_json::from_str(&json_report(&Source::inline(), &solution)).unwrap();
        assert_eq!(
            json["final_discs"],
            serde_json::json!({"black": 33, "white": 0, "empty": 31})
        );
        assert_eq!(json["rules"], "othello");
        assert_eq!(json["scoring"], "raw");
        assert_eq!(json["discs_left"], serde_json::Value::Null);
        assert_eq!(
            rules_line(&solution.position, Scoring::Raw),
            "othello rules, raw scoring"
        );
    }

    #[test]
    fn reversi_reports_the_discs_left() {
        let start = VariantPosition::start(Rules::Reversi);
        let after = start.play(sq("d4")).unwrap();
        assert_eq!(
            rules_line(&after, Scoring::Official),
            "reversi rules, official scoring"
        );
        assert_eq!(
            discs_left(&after),
            Some(Supplies {
                black: 31,
                white: 32
            })
        );
        let mut wld = finished();
        wld.wld = true;
        wld.score = 1;
        wld.best_move = BestMove::Play(sq("a1"));
        wld.pv = vec![Some(sq("a1"))];
        assert!(result_line(&wld).starts_with("result win (black wins)  best a1  pv a1"));
    }
}

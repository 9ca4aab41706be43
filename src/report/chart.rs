//! The picture of one solved game (`osolve games --svg DIR`): black's exact score after every
//! move from N empties to the end as a line over the move numbers, each move that lost discs
//! marked with its number, square and loss, the players and the result in the title. A
//! standalone SVG document written by hand, like the board pictures of [`super::svg`]. Every
//! element tests and scripts may count has a class: `point` (one per position, with
//! `data-move` and `data-score`), `loss black` / `loss white` (one per losing move, with
//! `data-move`, `data-square` and `data-loss`), `loss-label`, `title`, `subtitle`.

use std::fmt::Write;

use super::games::score_text;
use super::svg::escape;
use crate::board::Color;
use crate::games::analysis::GameAnalysis;

/// Width of the picture.
pub const WIDTH: i32 = 800;
/// Height of the picture.
pub const HEIGHT: i32 = 490;
const LEFT: i32 = 64;
const RIGHT: i32 = 24;
const TOP: i32 = 96;
const BOTTOM: i32 = 72;
const PLOT_WIDTH: i32 = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT: i32 = HEIGHT - TOP - BOTTOM;

const PAGE: &str = "#fbfaf5";
const BLACK_AHEAD: &str = "#e4e9e4";
const WHITE_AHEAD: &str = "#f7f7f2";
const GRID: &str = "#c9cdc4";
const AXIS: &str = "#555555";
const LINE: &str = "#2e8b57";
const LOSS: &str = "#c0392b";
const INK: &str = "#2b2b2b";

/// The SVG document of a solved game, or `None` when nothing of it was solved exactly (not
/// asked, not reached, or stopped at a limit): a picture never shows a score that is not exact.
pub fn game_svg(analysis: &GameAnalysis) -> Option<String> {
    if analysis.unfinished.is_some() || analysis.exact.is_none() {
        return None;
    }
    let points = analysis.black_scores();
    if points.is_empty() {
        return None;
    }
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_chart(&mut out, analysis, &points);
    Some(out)
}

/// The title: the players and the result.
pub fn title(analysis: &GameAnalysis) -> String {
    let game = &analysis.game;
    let name = |name: &Option<String>| name.clone().unwrap_or_else(|| "?".to_string());
    let result = if game.ended_early() {
        format!("ended early at {}", score_text(game.final_discs()))
    } else {
        format!("final {}", score_text(game.final_discs()))
    };
    format!(
        "{} (black) vs {} (white), {result}",
        name(&game.black),
        name(&game.white)
    )
}

/// The line under the title: the game and its tournament.
fn source(analysis: &GameAnalysis) -> String {
    let game = &analysis.game;
    match &game.tournament {
        Some(tournament) => format!("{} · {tournament}", game.id),
        None => game.id.to_string(),
    }
}

/// The third line: what the curve is and each side's loss.
fn subtitle(analysis: &GameAnalysis, first: usize) -> String {
    let empties = analysis
        .exact
        .as_ref()
        .map_or(0, |s| s.position.board.empties());
    format!(
        "black's exact score from {empties} empties (after move {first}) to the end · discs \
         lost: black {}, white {}",
        analysis.loss(Color::Black),
        analysis.loss(Color::White)
    )
}

/// The score scale (lowest, highest): multiples of 8 that hold every score, with at least 8
/// on each side of 0 so that the zero line (who is ahead) is always drawn.
fn scale(points: &[(usize, i32)]) -> (i32, i32) {
    let lowest = points.iter().map(|&(_, s)| s).min().unwrap_or(0);
    let highest = points.iter().map(|&(_, s)| s).max().unwrap_or(0);
    let low = (lowest.div_euclid(8) * 8).clamp(-64, -8);
    let high = ((highest + 7).div_euclid(8) * 8).clamp(8, 64);
    (low, high)
}

fn write_chart(
    out: &mut String,
    analysis: &GameAnalysis,
    points: &[(usize, i32)],
) -> std::fmt::Result {
    let first = points[0].0;
    let last = points[points.len() - 1].0;
    let span = (last - first).max(1) as f64;
    let (low, high) = scale(points);
    let x = |number: usize| LEFT as f64 + (number - first) as f64 * PLOT_WIDTH as f64 / span;
    let y = |score: i32| {
        f64::from(TOP) + f64::from(high - score) * f64::from(PLOT_HEIGHT) / f64::from(high - low)
    };
    let middle = f64::from(TOP + PLOT_HEIGHT / 2);
    let title = title(analysis);

    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    )?;
    writeln!(out, "<title>{}</title>", escape(&title))?;
    writeln!(
        out,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAGE}"/>"#
    )?;
    writeln!(
        out,
        r#"<text class="title" x="{LEFT}" y="28" font-size="17" font-weight="bold" fill="{INK}">{}</text>"#,
        escape(&fit(&title, 68))
    )?;
    writeln!(
        out,
        r#"<text class="source" x="{LEFT}" y="52" font-size="13" fill="{INK}">{}</text>"#,
        escape(&fit(&source(analysis), 105))
    )?;
    writeln!(
        out,
        r#"<text class="subtitle" x="{LEFT}" y="72" font-size="13" fill="{INK}">{}</text>"#,
        escape(&fit(&subtitle(analysis, first), 105))
    )?;

    // The two sides of the zero line: black ahead above, white ahead below.
    let zero = y(0);
    writeln!(
        out,
        r#"<rect x="{LEFT}" y="{TOP}" width="{PLOT_WIDTH}" height="{:.1}" fill="{BLACK_AHEAD}"/><rect x="{LEFT}" y="{zero:.1}" width="{PLOT_WIDTH}" height="{:.1}" fill="{WHITE_AHEAD}"/>"#,
        zero - f64::from(TOP),
        f64::from(TOP + PLOT_HEIGHT) - zero
    )?;
    writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="12" fill="{AXIS}" text-anchor="end">black ahead</text><text x="{}" y="{}" font-size="12" fill="{AXIS}" text-anchor="end">white ahead</text>"#,
        LEFT + PLOT_WIDTH - 6,
        TOP + 16,
        LEFT + PLOT_WIDTH - 6,
        TOP + PLOT_HEIGHT - 8
    )?;

    // Score grid and labels.
    let step = if high - low <= 32 { 4 } else { 8 };
    write!(out, r#"<g font-size="12" fill="{AXIS}" text-anchor="end">"#)?;
    let mut score = low;
    while score <= high {
        let at = y(score);
        let (colour, width) = if score == 0 { (AXIS, 1.5) } else { (GRID, 1.0) };
        write!(
            out,
            r#"<line x1="{LEFT}" y1="{at:.1}" x2="{}" y2="{at:.1}" stroke="{colour}" stroke-width="{width}"/><text x="{}" y="{:.1}">{}</text>"#,
            LEFT + PLOT_WIDTH,
            LEFT - 8,
            at + 4.0,
            if score == 0 {
                "0".to_string()
            } else {
                format!("{score:+}")
            }
        )?;
        score += step;
    }
    writeln!(out, "</g>")?;
    writeln!(
        out,
        r#"<text x="16" y="{middle}" font-size="12" fill="{AXIS}" text-anchor="middle" transform="rotate(-90 16 {middle})">discs (black − white)</text>"#
    )?;

    // Move numbers under the plot.
    let every = match last - first {
        0..=20 => 1,
        21..=40 => 2,
        _ => 5,
    };
    let bottom = TOP + PLOT_HEIGHT;
    write!(
        out,
        r#"<g font-size="11" fill="{AXIS}" text-anchor="middle">"#
    )?;
    for number in first..=last {
        let at = x(number);
        let tick = if number % every == 0 { 6 } else { 3 };
        write!(
            out,
            r#"<line x1="{at:.1}" y1="{bottom}" x2="{at:.1}" y2="{}" stroke="{AXIS}"/>"#,
            bottom + tick
        )?;
        if number % every == 0 {
            write!(
                out,
                r#"<text x="{at:.1}" y="{}">{number}</text>"#,
                bottom + 18
            )?;
        }
    }
    writeln!(out, "</g>")?;
    writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="12" fill="{AXIS}" text-anchor="middle">moves played</text>"#,
        LEFT + PLOT_WIDTH / 2,
        bottom + 36
    )?;

    // The curve, then a dot per position in the colour of the side that just moved.
    let line: Vec<String> = points
        .iter()
        .map(|&(n, s)| format!("{:.1},{:.1}", x(n), y(s)))
        .collect();
    writeln!(
        out,
        r#"<polyline class="score-line" points="{}" fill="none" stroke="{LINE}" stroke-width="2.5" stroke-linejoin="round"/>"#,
        line.join(" ")
    )?;
    let mover_of = |number: usize| {
        analysis
            .moves
            .iter()
            .find(|m| m.number == number)
            .map(|m| m.color)
    };
    for &(number, score) in points {
        let (fill, stroke) = match mover_of(number) {
            Some(Color::Black) => ("#151515", "#000000"),
            Some(Color::White) => ("#f6f6f1", "#6b6b6b"),
            None => (LINE, LINE),
        };
        let what = match analysis.moves.iter().find(|m| m.number == number) {
            Some(m) => format!("after {}. {} ({})", m.number, m.square, m.color.name()),
            None => format!("after move {number}"),
        };
        writeln!(
            out,
            r#"<circle class="point" data-move="{number}" data-score="{score}" cx="{:.1}" cy="{:.1}" r="4" fill="{fill}" stroke="{stroke}" stroke-width="1.2"><title>{}: {score:+}</title></circle>"#,
            x(number),
            y(score),
            escape(&what)
        )?;
    }

    // Each losing move: a ring on the position it led to, and its number, square and loss,
    // below the point for black (black's score falls), above for white; labels close to the
    // previous one on the same side are moved further out so that they do not overlap.
    let mut last_label: [Option<(f64, i32)>; 2] = [None, None];
    for m in analysis.moves.iter().filter(|m| m.loss > 0) {
        let after = points
            .iter()
            .find(|&&(n, _)| n == m.number)
            .map_or(0, |&(_, s)| s);
        let (cx, cy) = (x(m.number), y(after));
        let side = usize::from(m.color == Color::White);
        let level = match last_label[side] {
            Some((previous, level)) if cx - previous < 64.0 => (level + 1) % 3,
            _ => 0,
        };
        last_label[side] = Some((cx, level));
        let offset = 20.0 + 14.0 * f64::from(level);
        let (below, above) = (cy + offset, cy - offset + 8.0);
        let room_below = below <= f64::from(bottom) - 4.0;
        let room_above = above >= f64::from(TOP) + 12.0;
        let label_y = match (m.color, room_below, room_above) {
            (Color::Black, true, _) | (Color::White, true, false) => below,
            _ => above,
        };
        let best = m.best.map(|b| format!(", best {b}")).unwrap_or_default();
        writeln!(
            out,
            r#"<circle class="loss {}" data-move="{}" data-square="{}" data-loss="{}" cx="{cx:.1}" cy="{cy:.1}" r="8" fill="none" stroke="{LOSS}" stroke-width="2.5"><title>{}. {} ({}) loses {}{best}</title></circle>"#,
            m.color.name(),
            m.number,
            m.square,
            m.loss,
            m.number,
            m.square,
            m.color.name(),
            m.loss
        )?;
        writeln!(
            out,
            r#"<text class="loss-label" x="{cx:.1}" y="{label_y:.1}" font-size="12" font-weight="bold" fill="{LOSS}" text-anchor="middle">{}. {} −{}</text>"#,
            m.number, m.square, m.loss
        )?;
    }

    // The legend.
    let legend = bottom + 58;
    writeln!(
        out,
        r##"<g font-size="12" fill="{INK}"><circle cx="{LEFT}" cy="{}" r="4" fill="#151515"/><text x="{}" y="{legend}">after black's move</text><circle cx="{}" cy="{}" r="4" fill="#f6f6f1" stroke="#6b6b6b"/><text x="{}" y="{legend}">after white's move</text><circle cx="{}" cy="{}" r="7" fill="none" stroke="{LOSS}" stroke-width="2.5"/><text x="{}" y="{legend}">a move that loses discs: number, square, discs lost</text></g>"##,
        legend - 4,
        LEFT + 10,
        LEFT + 160,
        legend - 4,
        LEFT + 170,
        LEFT + 320,
        legend - 4,
        LEFT + 333
    )?;
    writeln!(out, "</svg>")
}

/// `text` cut to at most `width` characters, an ellipsis marking the cut.
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width - 1).collect();
    format!("{}…", kept.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_holds_every_score_in_steps_of_eight() {
        assert_eq!(scale(&[(0, 0)]), (-8, 8));
        assert_eq!(scale(&[(0, -9), (1, 3)]), (-16, 8));
        assert_eq!(scale(&[(0, -56), (1, -32)]), (-56, 8));
        assert_eq!(scale(&[(0, 40)]), (-8, 40));
        assert_eq!(scale(&[(0, 64), (1, -64)]), (-64, 64));
        assert_eq!(fit("abcdef", 4), "abc…");
    }
}

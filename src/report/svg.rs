//! A [`Picture`] as a standalone SVG document, written by hand: a green board with its grid,
//! coordinates around it, black and white discs, and the marks (legal-move dots, move scores
//! with the best ones in gold, or the principal variation numbered on discs of the mover's
//! colour), then a caption with the side to move, the counts and the best move or the line.
//! Sized 456 x 508 so that it reads well at 400 pixels wide. Every element that tests and
//! scripts may count has a class: `disc black`, `disc white`, `legal`, `score` (`score best`),
//! `step`.

use std::fmt::Write;

use super::picture::{Picture, SquareMark};
use crate::board::{Color, Square};

/// Width of a square.
const CELL: i32 = 50;
/// Room for the coordinates around the board.
const MARGIN: i32 = 28;
/// Room for the caption under the board.
const FOOTER: i32 = 80;
/// Width of the picture.
pub const WIDTH: i32 = 2 * MARGIN + 8 * CELL;
/// Height of the picture.
pub const HEIGHT: i32 = MARGIN + 8 * CELL + FOOTER;

const PAGE: &str = "#fbfaf5";
const BOARD: &str = "#2e8b57";
const LINES: &str = "#174d2c";
const BLACK_DISC: &str = "#151515";
const WHITE_DISC: &str = "#f6f6f1";
const SCORE: &str = "#ffffff";
const HIGHLIGHT: &str = "#ffd23f";
const INK: &str = "#2b2b2b";

/// Text with `&`, `<`, `>` and `"` escaped for XML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

fn fill(color: Color) -> &'static str {
    match color {
        Color::Black => BLACK_DISC,
        Color::White => WHITE_DISC,
    }
}

fn ink(color: Color) -> &'static str {
    match color {
        Color::Black => WHITE_DISC,
        Color::White => BLACK_DISC,
    }
}

/// The centre of a square in picture coordinates.
fn centre(square: Square) -> (i32, i32) {
    (
        MARGIN + square.col() as i32 * CELL + CELL / 2,
        MARGIN + square.row() as i32 * CELL + CELL / 2,
    )
}

/// The SVG document of `picture`, with an XML declaration and a final newline.
pub fn svg(picture: &Picture) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_svg(&mut out, picture);
    out
}

fn write_svg(out: &mut String, picture: &Picture) -> std::fmt::Result {
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    )?;
    let mut title = picture.title.clone();
    if !title.is_empty() {
        title.push_str(": ");
    }
    title.push_str(&picture.turn());
    writeln!(out, "<title>{}</title>", escape(&title))?;
    writeln!(
        out,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAGE}"/>"#
    )?;
    write_board(out)?;
    for index in 0..64 {
        let square = Square::new(index).expect("0..64 are squares");
        write_square(out, picture, square)?;
    }
    write_caption(out, picture)?;
    writeln!(out, "</svg>")
}

/// The green board, its grid, the four dots and the coordinates.
fn write_board(out: &mut String) -> std::fmt::Result {
    let size = 8 * CELL;
    writeln!(
        out,
        r#"<rect x="{MARGIN}" y="{MARGIN}" width="{size}" height="{size}" fill="{BOARD}" stroke="{LINES}" stroke-width="3"/>"#
    )?;
    write!(out, r#"<g stroke="{LINES}" stroke-width="1.5">"#)?;
    for k in 1..8 {
        let at = MARGIN + k * CELL;
        write!(
            out,
            r#"<line x1="{at}" y1="{MARGIN}" x2="{at}" y2="{}"/><line x1="{MARGIN}" y1="{at}" x2="{}" y2="{at}"/>"#,
            MARGIN + size,
            MARGIN + size
        )?;
    }
    writeln!(out, "</g>")?;
    write!(out, r#"<g fill="{LINES}">"#)?;
    for (col, row) in [(2, 2), (6, 2), (2, 6), (6, 6)] {
        write!(
            out,
            r#"<circle cx="{}" cy="{}" r="4"/>"#,
            MARGIN + col * CELL,
            MARGIN + row * CELL
        )?;
    }
    writeln!(out, "</g>")?;
    write!(
        out,
        r#"<g font-size="16" fill="{INK}" text-anchor="middle">"#
    )?;
    for k in 0..8 {
        let at = MARGIN + k * CELL + CELL / 2;
        let letter = char::from(b'a' + k as u8);
        write!(
            out,
            r#"<text x="{at}" y="{}">{letter}</text><text x="{}" y="{}">{}</text>"#,
            MARGIN - 9,
            MARGIN / 2,
            at + 6,
            k + 1
        )?;
    }
    writeln!(out, "</g>")
}

fn write_square(out: &mut String, picture: &Picture, square: Square) -> std::fmt::Result {
    let (x, y) = centre(square);
    match picture.mark(square) {
        SquareMark::Empty => Ok(()),
        SquareMark::Disc(color) => {
            let stroke = match color {
                Color::Black => "#000000",
                Color::White => "#6b6b6b",
            };
            writeln!(
                out,
                r#"<circle class="disc {}" cx="{x}" cy="{y}" r="21" fill="{}" stroke="{stroke}" stroke-width="1.5"/>"#,
                color.name(),
                fill(color)
            )
        }
        SquareMark::Legal => writeln!(
            out,
            r#"<circle class="legal" cx="{x}" cy="{y}" r="7" fill="{}" fill-opacity="0.5"/>"#,
            fill(picture.position.to_move)
        ),
        SquareMark::Score { score, best } => {
            if best {
                let (left, top) = (x - CELL / 2 + 3, y - CELL / 2 + 3);
                let side = CELL - 6;
                writeln!(
                    out,
                    r#"<rect class="best-square" x="{left}" y="{top}" width="{side}" height="{side}" rx="4" fill="{HIGHLIGHT}" fill-opacity="0.22" stroke="{HIGHLIGHT}" stroke-width="3"/>"#
                )?;
            }
            let (class, colour) = if best {
                ("score best", HIGHLIGHT)
            } else {
                ("score", SCORE)
            };
            writeln!(
                out,
                r#"<text class="{class}" x="{x}" y="{}" font-size="19" font-weight="bold" fill="{colour}" text-anchor="middle">{score:+}</text>"#,
                y + 7
            )
        }
        SquareMark::Step { number, mover } => {
            let size = if number >= 10 { 16 } else { 18 };
            writeln!(
                out,
                r#"<circle class="step" cx="{x}" cy="{y}" r="17" fill="{}" fill-opacity="0.85" stroke="{}" stroke-width="1"/><text x="{x}" y="{}" font-size="{size}" font-weight="bold" fill="{}" text-anchor="middle">{number}</text>"#,
                fill(mover),
                ink(mover),
                y + 6,
                ink(mover)
            )
        }
    }
}

/// The side to move as a disc and words, then on lines of their own the counts and the caption of the marks (a long PV
/// is cut with an ellipsis to fit).
fn write_caption(out: &mut String, picture: &Picture) -> std::fmt::Result {
    let first = MARGIN + 8 * CELL + 24;
    let mover = picture.position.to_move;
    writeln!(
        out,
        r#"<circle cx="{}" cy="{}" r="9" fill="{}" stroke="{INK}" stroke-width="1.5"/>"#,
        MARGIN + 9,
        first - 5,
        fill(mover)
    )?;
    writeln!(
        out,
        r#"<text x="{}" y="{first}" font-size="16" fill="{INK}" font-weight="bold">{}</text>"#,
        MARGIN + 26,
        escape(&capitalised(&picture.turn()))
    )?;
    let counts = picture.counts().replace("  ", " · ");
    writeln!(
        out,
        r#"<text x="{MARGIN}" y="{}" font-size="14" fill="{INK}">{}</text>"#,
        first + 23,
        escape(&short_counts(&counts))
    )?;
    if let Some(caption) = picture.caption() {
        writeln!(
            out,
            r#"<text x="{MARGIN}" y="{}" font-size="15" fill="{INK}">{}</text>"#,
            first + 46,
            escape(&fit(&caption, 50))
        )?;
    }
    Ok(())
}

/// The counts as a caption line: `black 12 · white 32 · empty 20`.
fn short_counts(counts: &str) -> String {
    counts.replace("empties ", "empty ")
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// `text` cut to at most `width` characters, an ellipsis marking the cut.
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width - 1).collect();
    format!("{}…", kept.trim_end())
}

/// The SVG document `svg_text` rendered as PNG bytes at its own size, with the system's fonts
/// for the text (builds with the `png` feature only).
#[cfg(feature = "png")]
pub fn png(svg_text: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg_text, &options).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| "the picture has no area".to_string())?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_fitted() {
        assert_eq!(escape(r#"a<b & "c">"#), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(fit("score +2  pv a1 b2", 40), "score +2  pv a1 b2");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(capitalised("black to move"), "Black to move");
        assert_eq!((WIDTH, HEIGHT), (456, 508));
    }
}

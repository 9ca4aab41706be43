//! Text to [`Position`]s and back: board strings (64 cells and the side to move, also as an
//! 8-line diagram with or without coordinates), OBF lines with their move scores, and game
//! transcripts from the standard start. Files are streamed line by line, every position
//! carrying its [`Source`] (`file:line`), every failure a [`ParseError`] that says where and what
//! was expected. Under Reversi rules ([`parse_text_with`], [`PositionReader::with_rules`])
//! transcripts start from the empty board, a board string may end with the discs left to each
//! side (`<64 cells> X 5 7`), and positions the rules cannot reach are errors. This module never
//! solves and never prints.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;
use std::sync::Arc;

use crate::board::rules::{Rules, Supplies, VariantError, VariantPosition, DISCS_EACH};
use crate::board::{Color, Position, Square};

/// The longest line a [`PositionReader`] accepts by default (1 MiB, without the newline).
pub const MAX_LINE_LEN: usize = 1 << 20;

/// The source name of inline text, as given with `-p`.
pub const INLINE_NAME: &str = "<position>";

/// The source name of standard input.
pub const STDIN_NAME: &str = "<stdin>";

/// The expected score of one move, as an OBF line annotates it: the move (`None` for a pass)
/// and the exact score for the side to move, written as found.
pub type Expected = (Option<Square>, i32);

/// Where a piece of text came from: a file (or `<position>`, `<stdin>`) and a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// The file name as the user gave it, or `<position>` / `<stdin>`.
    pub name: Arc<str>,
    /// 1-based line number; 0 means the source as a whole (e.g. a file that cannot be opened).
    pub line: usize,
}

impl Source {
    /// A source at `line` of `name`.
    pub fn new(name: impl Into<Arc<str>>, line: usize) -> Source {
        Source {
            name: name.into(),
            line,
        }
    }

    /// The source of inline text (`<position>:1`).
    pub fn inline() -> Source {
        Source::new(INLINE_NAME, 1)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.name)
        } else {
            write!(f, "{}:{}", self.name, self.line)
        }
    }
}

/// A parsed position with its annotations and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The position.
    pub position: Position,
    /// Expected scores of moves from an OBF line, in the order written; empty otherwise.
    pub expected: Vec<Expected>,
    /// The score of a finished game from a bare OBF annotation (`+10`).
    pub final_score: Option<i32>,
    /// The discs left to each side: as written after the side to move (`X 5 7`), or under
    /// Reversi rules always (derived when not written, exact after a transcript); `None`
    /// otherwise.
    pub supplies: Option<Supplies>,
    /// Where the text came from.
    pub source: Source,
    /// The scores are a depth-limited search's, not exact: the line ends with the comment
    /// `% search depth N` (as `osolve gen --search-depth N` writes it).
    pub search_depth: Option<u32>,
}

impl Parsed {
    /// The position and all its annotations as one OBF line (moves first, then a final score,
    /// then the search-depth comment of approximate scores).
    pub fn to_obf(&self) -> String {
        let mut line = format_obf(&self.position, &self.expected);
        if let Some(score) = self.final_score {
            line.push_str(&format!(" {score:+};"));
        }
        if let Some(depth) = self.search_depth {
            line.push_str(&search_depth_comment(depth));
        }
        line
    }
}

/// The comment that marks scores of a depth-limited search: ` % search depth N`.
pub fn search_depth_comment(depth: u32) -> String {
    format!(" % {SEARCH_DEPTH} {depth}")
}

/// The words of the search-depth comment.
const SEARCH_DEPTH: &str = "search depth";

/// The depth of a `% search depth N` comment.
fn comment_search_depth(comment: &str) -> Option<u32> {
    let rest = comment.trim().strip_prefix(SEARCH_DEPTH)?;
    rest.trim().parse().ok()
}

/// What went wrong while reading a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// Nothing but white space.
    #[error(
        "expected a position (a board string, an OBF line or a move transcript), found nothing"
    )]
    Empty,
    /// A transcript without a single move.
    #[error("expected a move transcript, found no moves")]
    EmptyTranscript,
    /// A board string with the wrong number of cells.
    #[error("expected 64 board cells before the side to move, found {found}")]
    CellCount {
        /// Cells found.
        found: usize,
    },
    /// A character that is not a cell.
    #[error("expected a board cell (X x * B b, O o W w or - . _), found '{}'", .found.escape_debug())]
    BadCell {
        /// The character found.
        found: char,
    },
    /// A side to move that is not one.
    #[error("expected the side to move (X/B/black or O/W/white), found '{}'", .found.escape_debug())]
    BadSide {
        /// The text found.
        found: String,
    },
    /// 64 cells and nothing after them.
    #[error(
        "expected the side to move (X/B/black or O/W/white) after the 64 cells, found end of line"
    )]
    MissingSide,
    /// An OBF annotation that is neither `A2:+38`, `PS:-12` nor `+10`.
    #[error("expected a move score like 'A2:+38', 'PS:-12' or a final score like '+10', found '{}'", .found.escape_debug())]
    BadAnnotation {
        /// The annotation found.
        found: String,
    },
    /// A score that is not a whole number in -64..=64.
    #[error("expected a score from -64 to +64, found '{}'", .found.escape_debug())]
    BadScore {
        /// The score text found.
        found: String,
    },
    /// Two bare final scores on one line.
    #[error("expected at most one final score, found a second one '{}'", .found.escape_debug())]
    DuplicateFinalScore {
        /// The second score.
        found: String,
    },
    /// A transcript token that is neither a square nor a pass.
    #[error("move {number} ({}): expected a square a1..h8 or a pass (pa, ps, --)", .found.escape_debug())]
    BadMove {
        /// 1-based number of the move in the transcript.
        number: usize,
        /// The token found.
        found: String,
    },
    /// Discs left after the side to move that are not two numbers from 0 to 32.
    #[error("expected the discs left to black and to white after the side to move, each from 0 to 32 (such as 'X 5 7'), found '{}'", .found.escape_debug())]
    BadSupplies {
        /// The text found.
        found: String,
    },
    /// A position the rules in force cannot reach.
    #[error("{0}")]
    Rules(VariantError),
    /// A board without a single disc under Othello rules (every game starts with four).
    #[error(
        "a board with no discs cannot occur in Othello (every game starts with four; \
         --rules reversi starts from the empty board)"
    )]
    NoDiscs,
    /// A well-formed transcript move that cannot be played.
    #[error("move {number}: {found} is not legal{why}")]
    IllegalMove {
        /// 1-based number of the move in the transcript.
        number: usize,
        /// The move as written.
        found: String,
        /// Empty, or a reason starting with ", ".
        why: &'static str,
    },
    /// Bytes that are not UTF-8.
    #[error("expected UTF-8 text, found the byte 0x{byte:02x}")]
    InvalidUtf8 {
        /// The first offending byte.
        byte: u8,
    },
    /// A line over the reader's limit; it was skipped.
    #[error("expected a line of at most {limit} bytes, found a longer one (skipped)")]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// The file could not be opened or read.
    #[error("{message}")]
    Io {
        /// The operating system's message.
        message: String,
    },
}

/// A failure to read a position: where (source, line and, when it helps, a 1-based column in
/// characters) and what was expected. Displays as `file:line[:column]: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}{col}: {kind}", col = ColumnSuffix(.column))]
pub struct ParseError {
    /// The file and line.
    pub at: Source,
    /// 1-based column in characters, when the error is at one place of the line.
    pub column: Option<usize>,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

struct ColumnSuffix<'a>(&'a Option<usize>);

impl fmt::Display for ColumnSuffix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(column) => write!(f, ":{column}"),
            None => Ok(()),
        }
    }
}

/// Builds errors located in one piece of text: byte offsets become line and column.
struct Locator<'a> {
    text: &'a str,
    source: &'a Source,
}

impl Locator<'_> {
    fn at(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        let before = &self.text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        ParseError {
            at: Source::new(
                self.source.name.clone(),
                self.source.line + before.matches('\n').count(),
            ),
            column: Some(before[line_start..].chars().count() + 1),
            kind,
        }
    }

    fn line(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            at: self.source.clone(),
            column: None,
            kind,
        }
    }
}

/// Parses inline text (`-p`): a board string, an 8-line diagram (with or without coordinates),
/// an OBF line or a transcript. Errors are located at `<position>:line:column`.
pub fn parse_position(text: &str) -> Result<Parsed, ParseError> {
    parse_text(text, Source::inline())
}

/// Parses one position from `text`, which begins at `source`: a board string or diagram, an OBF
/// line or a transcript, told apart by their first characters (a transcript starts with a
/// square such as `f5`). A `%` or `#` starts a comment that runs to the end of the text.
pub fn parse_text(text: &str, source: Source) -> Result<Parsed, ParseError> {
    parse_text_with(text, source, Rules::Othello)
}

/// [`parse_text`] under `rules`: under Reversi rules a transcript starts from the empty board,
/// and a position the rules cannot reach (see [`VariantPosition::new`]) is an error; its
/// [`Parsed::supplies`] is always set.
pub fn parse_text_with(text: &str, source: Source, rules: Rules) -> Result<Parsed, ParseError> {
    // `%` (Edax's comment mark) or `#` ends the text: neither is part of any notation.
    let comment_at = text.find(['%', '#']).unwrap_or(text.len());
    let search_depth = text[comment_at..]
        .strip_prefix('%')
        .and_then(comment_search_depth);
    let text = &text[..comment_at];
    let locator = Locator {
        text,
        source: &source,
    };
    if text.trim().is_empty() {
        return Err(locator.line(ParseErrorKind::Empty));
    }
    if looks_like_transcript(text) {
        let played = transcript(text, &locator, rules)?;
        return Ok(Parsed {
            position: played.position(),
            expected: Vec::new(),
            final_score: None,
            supplies: (rules == Rules::Reversi).then(|| played.supplies()),
            source,
            search_depth: None,
        });
    }
    let head_end = text.find(';').unwrap_or(text.len());
    let (board_end, mut supplies) = split_supplies(text, head_end, &locator)?;
    let position = board(text, board_end, &locator)?;
    if rules == Rules::Othello && (position.board.player | position.board.opponent) == 0 {
        return Err(locator.line(ParseErrorKind::NoDiscs));
    }
    if rules == Rules::Reversi {
        let checked = VariantPosition::new(position, supplies, rules)
            .map_err(|e| locator.line(ParseErrorKind::Rules(e)))?;
        supplies = Some(checked.supplies());
    }
    let (expected, final_score) = if head_end < text.len() {
        annotations(text, head_end + 1, &locator)?
    } else {
        (Vec::new(), None)
    };
    Ok(Parsed {
        position,
        expected,
        final_score,
        supplies,
        source,
        search_depth,
    })
}

/// Finds the discs left written after the side to move (`... X 5 7`) in `text[..end]`: the end
/// of the board part and the supplies, if any. Two numbers count as supplies only after a side
/// (a word such as `X` or `black`, or cells ending with one), so that a diagram's row numbers
/// are never taken for them.
fn split_supplies(
    text: &str,
    end: usize,
    locator: &Locator<'_>,
) -> Result<(usize, Option<Supplies>), ParseError> {
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut rest = &text[..end];
    while words.len() < 3 {
        let trimmed = rest.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let start = trimmed
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(i, c)| i + c.len_utf8());
        words.push((start, &trimmed[start..]));
        rest = &trimmed[..start];
    }
    let is_number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let ends_with_side = |w: &str| {
        side(w).is_some()
            || w.chars()
                .next_back()
                .is_some_and(|c| side(&c.to_string()).is_some())
    };
    match words[..] {
        [(white_at, white), (black_at, black), (_, before), ..]
            if is_number(white) && is_number(black) && ends_with_side(before) =>
        {
            let count = |at: usize, word: &str| {
                word.parse::<u8>()
                    .ok()
                    .filter(|&n| n <= DISCS_EACH)
                    .ok_or_else(|| {
                        locator.at(
                            at,
                            ParseErrorKind::BadSupplies {
                                found: word.to_string(),
                            },
                        )
                    })
            };
            let supplies = Supplies {
                black: count(black_at, black)?,
                white: count(white_at, white)?,
            };
            Ok((black_at, Some(supplies)))
        }
        [(number_at, number), (_, before), ..] if is_number(number) && side(before).is_some() => {
            Err(locator.at(
                number_at,
                ParseErrorKind::BadSupplies {
                    found: number.to_string(),
                },
            ))
        }
        _ => Ok((end, None)),
    }
}

/// Plays a transcript (`f5d6c3...`, any case, optional spaces or commas, passes implicit or as
/// `pa`/`ps`/`--`) from the standard start and returns the position reached.
pub fn parse_transcript(text: &str) -> Result<Position, ParseError> {
    let source = Source::inline();
    let locator = Locator {
        text,
        source: &source,
    };
    Ok(transcript(text, &locator, Rules::Othello)?.position())
}

/// A transcript starts with a letter and a digit (`f5`, or `c9` to report a bad square); no
/// board string does, since cells are never digits and a coordinate header is followed by a
/// space. (A game cannot start with a pass.)
fn looks_like_transcript(text: &str) -> bool {
    if text.contains(';') {
        return false;
    }
    let mut chars = text.chars().filter(|c| !c.is_whitespace() && *c != ',');
    matches!((chars.next(), chars.next()),
        (Some(a), Some(b)) if a.is_ascii_alphabetic() && b.is_ascii_digit())
}

fn is_pass_token(token: &str) -> bool {
    token.eq_ignore_ascii_case("pa") || token.eq_ignore_ascii_case("ps") || token == "--"
}

/// Plays a transcript from the start of `rules` (the empty board under Reversi rules).
fn transcript(
    text: &str,
    locator: &Locator<'_>,
    rules: Rules,
) -> Result<VariantPosition, ParseError> {
    let chars: Vec<(usize, char)> = text
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace() && *c != ',')
        .collect();
    if chars.is_empty() {
        return Err(locator.line(ParseErrorKind::EmptyTranscript));
    }
    let mut position = VariantPosition::start(rules);
    for (i, pair) in chars.chunks(2).enumerate() {
        let number = i + 1;
        let offset = pair[0].0;
        let token: String = pair.iter().map(|&(_, c)| c).collect();
        let game_over = position.is_over();
        let has_moves = position.moves() != 0;
        let illegal = |why| {
            locator.at(
                offset,
                ParseErrorKind::IllegalMove {
                    number,
                    found: token.clone(),
                    why,
                },
            )
        };
        if is_pass_token(&token) {
            if game_over {
                return Err(illegal(", the game is over"));
            }
            if has_moves {
                return Err(illegal(", the side to move has a move"));
            }
            position = position.pass();
            continue;
        }
        let square: Square = token.parse().map_err(|_| {
            locator.at(
                offset,
                ParseErrorKind::BadMove {
                    number,
                    found: token.clone(),
                },
            )
        })?;
        if game_over {
            return Err(illegal(", the game is over"));
        }
        if !has_moves {
            position = position.pass();
        }
        let why = if position.game.in_opening() {
            ", the first four moves go on d4 e4 d5 e5"
        } else if rules == Rules::Reversi && position.game.player_left == 0 {
            ", the side to move has no discs left"
        } else {
            ""
        };
        position = position.play(square).ok_or_else(|| illegal(why))?;
    }
    Ok(position)
}

/// The colour a cell character stands for: `Some(None)` for empty, `None` for no cell.
fn cell(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | '*' | 'B' | 'b' => Some(Some(Color::Black)),
        'O' | 'o' | 'W' | 'w' => Some(Some(Color::White)),
        // `+` marks a legal move in diagrams: the square is empty.
        '-' | '.' | '_' | '+' => Some(None),
        _ => None,
    }
}

fn side(word: &str) -> Option<Color> {
    if word.eq_ignore_ascii_case("black") {
        return Some(Color::Black);
    }
    if word.eq_ignore_ascii_case("white") {
        return Some(Color::White);
    }
    match word {
        "X" | "x" | "B" | "b" => Some(Color::Black),
        "O" | "o" | "W" | "w" => Some(Color::White),
        _ => None,
    }
}

/// The byte ranges of `text[..end]` that may hold cells and the side to move. A multi-line
/// diagram loses its coordinates: a header line `a b c d e f g h` and a row number at either end
/// of a line (digits are never cells, so nothing else is lost).
fn board_ranges(text: &str, end: usize) -> Vec<(usize, usize)> {
    let head = &text[..end];
    if !head.contains('\n') {
        return vec![(0, end)];
    }
    let mut ranges = Vec::new();
    let mut line_start = 0;
    for line in head.split('\n') {
        let lead = line.len() - line.trim_start().len();
        let mut start = line_start + lead;
        let mut stop = line_start + line.trim_end().len();
        line_start += line.len() + 1;
        if start >= stop {
            continue;
        }
        let content: String = text[start..stop]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if content.eq_ignore_ascii_case("abcdefgh") {
            continue;
        }
        if matches!(text.as_bytes()[start], b'1'..=b'8') {
            start += 1;
        }
        if stop > start && matches!(text.as_bytes()[stop - 1], b'1'..=b'8') {
            stop -= 1;
        }
        ranges.push((start, stop));
    }
    ranges
}

fn board(text: &str, end: usize, locator: &Locator<'_>) -> Result<Position, ParseError> {
    // Words (runs of non-space characters) with their offsets; the last one holds the side.
    let mut words: Vec<(usize, &str)> = Vec::new();
    for (start, stop) in board_ranges(text, end) {
        let mut word_start = None;
        for (i, c) in text[start..stop].char_indices() {
            let at = start + i;
            match (c.is_whitespace(), word_start) {
                (true, Some(s)) => {
                    words.push((s, &text[s..at]));
                    word_start = None;
                }
                (false, None) => word_start = Some(at),
                _ => {}
            }
        }
        if let Some(s) = word_start {
            words.push((s, &text[s..stop]));
        }
    }
    let Some(&(last_offset, last_word)) = words.last() else {
        return Err(locator.line(ParseErrorKind::CellCount { found: 0 }));
    };
    // The side is a whole word (`black`) or the last character, which may be glued to the cells.
    let (mut cell_words, side_offset, side_text) = if side(last_word).is_some() {
        (words[..words.len() - 1].to_vec(), last_offset, last_word)
    } else {
        let (i, _) = last_word
            .char_indices()
            .next_back()
            .expect("words are not empty");
        let mut cell_words = words[..words.len() - 1].to_vec();
        cell_words.push((last_offset, &last_word[..i]));
        (cell_words, last_offset + i, &last_word[i..])
    };
    cell_words.retain(|(_, w)| !w.is_empty());

    let (mut black, mut white, mut count) = (0u64, 0u64, 0usize);
    for (offset, word) in cell_words {
        for (i, c) in word.char_indices() {
            let colour = cell(c)
                .ok_or_else(|| locator.at(offset + i, ParseErrorKind::BadCell { found: c }))?;
            if count < 64 {
                match colour {
                    Some(Color::Black) => black |= 1 << count,
                    Some(Color::White) => white |= 1 << count,
                    None => {}
                }
            }
            count += 1;
        }
    }
    let to_move = side(side_text);
    if count != 64 {
        // 64 cells and no side: the last cell was taken for the side and is not one.
        if count == 63 && to_move.is_none() && side_text.chars().all(|c| cell(c).is_some()) {
            return Err(locator.at(side_offset + side_text.len(), ParseErrorKind::MissingSide));
        }
        return Err(locator.line(ParseErrorKind::CellCount { found: count }));
    }
    let to_move = to_move.ok_or_else(|| {
        locator.at(
            side_offset,
            ParseErrorKind::BadSide {
                found: side_text.to_string(),
            },
        )
    })?;
    Ok(Position::from_colors(black, white, to_move).expect("a cell holds one colour"))
}

type Annotations = (Vec<Expected>, Option<i32>);

/// The score of Edax's end-of-list sentinel `--:-127` (out of every score's range).
const NO_MORE_SCORES: &str = "-127";

/// The `;`-separated annotations starting at byte `start`: `A2:+38`, `PS:-12`, a bare `+10`.
fn annotations(text: &str, start: usize, locator: &Locator<'_>) -> Result<Annotations, ParseError> {
    let mut expected = Vec::new();
    let mut final_score = None;
    let mut part_start = start;
    for part in text[start..].split(';') {
        let offset = part_start + (part.len() - part.trim_start().len());
        part_start += part.len() + 1;
        let item = part.trim();
        if item.is_empty() {
            continue;
        }
        let bad_annotation = || {
            locator.at(
                offset,
                ParseErrorKind::BadAnnotation {
                    found: item.to_string(),
                },
            )
        };
        match item.split_once(':') {
            // Edax ends some move lists with `--:-127`: no more scores follow (never a move).
            Some((mv, score)) if mv.trim() == "--" && score.trim() == NO_MORE_SCORES => break,
            Some((mv, score)) => {
                let mv = mv.trim();
                let square = if is_pass_token(mv) || mv.eq_ignore_ascii_case("pass") {
                    None
                } else {
                    Some(mv.parse::<Square>().map_err(|_| bad_annotation())?)
                };
                let score_offset = offset + item.find(':').expect("split at ':'") + 1;
                let score_offset = score_offset + (score.len() - score.trim_start().len());
                expected.push((square, parse_score(score.trim(), score_offset, locator)?));
            }
            None => {
                if !item.starts_with(['+', '-']) && !item.starts_with(|c: char| c.is_ascii_digit())
                {
                    return Err(bad_annotation());
                }
                let score = parse_score(item, offset, locator)?;
                if final_score.replace(score).is_some() {
                    return Err(locator.at(
                        offset,
                        ParseErrorKind::DuplicateFinalScore {
                            found: item.to_string(),
                        },
                    ));
                }
            }
        }
    }
    Ok((expected, final_score))
}

fn parse_score(text: &str, offset: usize, locator: &Locator<'_>) -> Result<i32, ParseError> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let score =
        if !digits.is_empty() && digits.len() <= 3 && digits.bytes().all(|b| b.is_ascii_digit()) {
            text.parse::<i32>().ok().filter(|s| (-64..=64).contains(s))
        } else {
            None
        };
    score.ok_or_else(|| {
        locator.at(
            offset,
            ParseErrorKind::BadScore {
                found: text.to_string(),
            },
        )
    })
}

/// The OBF board string: 64 cells a1..h8 (`X` black, `O` white, `-` empty), a space, `X` or `O`.
pub fn format_board(position: &Position) -> String {
    let (black, white) = (position.black(), position.white());
    let mut text: String = (0..64)
        .map(|i| {
            if black >> i & 1 != 0 {
                'X'
            } else if white >> i & 1 != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    text.push(' ');
    text.push(position.to_move.letter());
    text
}

/// The board string followed by the discs left to black and to white: `<64 cells> X 5 7`.
pub fn format_board_with_supplies(position: &Position, supplies: Supplies) -> String {
    format!(
        "{} {} {}",
        format_board(position),
        supplies.black,
        supplies.white
    )
}

/// An OBF line: the board string, `;`, then `A2:+38;` per move (`PS` for a pass, always a sign).
pub fn format_obf(position: &Position, expected: &[Expected]) -> String {
    let mut line = format_board(position);
    line.push(';');
    for &(mv, score) in expected {
        let name = mv.map_or_else(|| "PS".to_string(), Square::upper);
        line.push_str(&format!(" {name}:{score:+};"));
    }
    line
}

/// An OBF line of a finished game: the board string and its bare score (`... X; +10;`).
pub fn format_obf_final(position: &Position, score: i32) -> String {
    format!("{}; {score:+};", format_board(position))
}

/// Streams positions from a file, one per line: each item is the parsed line or the error for
/// that line, and reading goes on after an error. Blank lines and lines starting with `#` or `%`
/// are skipped; lines are read as bytes with a length cap, so a huge or non-UTF-8 line is an
/// error item, never a panic or an unbounded buffer. After an I/O error the reader ends.
pub struct PositionReader<R> {
    reader: R,
    rules: Rules,
    name: Arc<str>,
    line: usize,
    max_line_len: usize,
    buffer: Vec<u8>,
    finished: bool,
}

impl<R> fmt::Debug for PositionReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PositionReader")
            .field("name", &self.name)
            .field("line", &self.line)
            .field("max_line_len", &self.max_line_len)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

impl<R: BufRead> PositionReader<R> {
    /// A reader of `reader`, naming its items' sources `name`.
    pub fn new(reader: R, name: impl Into<Arc<str>>) -> PositionReader<R> {
        PositionReader {
            reader,
            rules: Rules::Othello,
            name: name.into(),
            line: 0,
            max_line_len: MAX_LINE_LEN,
            buffer: Vec::new(),
            finished: false,
        }
    }

    /// The same reader with another line length limit in bytes (default [`MAX_LINE_LEN`]).
    pub fn with_max_line_len(mut self, max_line_len: usize) -> PositionReader<R> {
        self.max_line_len = max_line_len;
        self
    }

    /// The same reader parsing under `rules` (see [`parse_text_with`]).
    pub fn with_rules(mut self, rules: Rules) -> PositionReader<R> {
        self.rules = rules;
        self
    }

    /// The source name given to the items.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.line
    }

    /// Reads the next line into `buffer` (see [`read_bounded_line`]).
    fn read_line(&mut self) -> io::Result<Option<bool>> {
        read_bounded_line(&mut self.reader, &mut self.buffer, self.max_line_len)
    }
}

/// Reads the next line of `reader` into `buffer` without its newline, keeping at most `max`
/// bytes (the rest of a longer line is read and dropped, so memory stays bounded).
/// `Ok(None)` at the end, `Ok(Some(true))` when the line was too long.
pub fn read_bounded_line(
    reader: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    buffer.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(too_long));
        }
        any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        let room = max.saturating_sub(buffer.len());
        if chunk.len() > room {
            too_long = true;
        }
        buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(available.len(), |i| i + 1);
        reader.consume(used);
        if newline.is_some() {
            return Ok(Some(too_long));
        }
    }
}

impl<R: BufRead> Iterator for PositionReader<R> {
    type Item = Result<Parsed, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.finished {
            let too_long = match self.read_line() {
                Ok(Some(too_long)) => too_long,
                Ok(None) => {
                    self.finished = true;
                    return None;
                }
                Err(e) => {
                    self.finished = true;
                    return Some(Err(ParseError {
                        at: Source::new(self.name.clone(), self.line + 1),
                        column: None,
                        kind: ParseErrorKind::Io {
                            message: e.to_string(),
                        },
                    }));
                }
            };
            self.line += 1;
            let source = Source::new(self.name.clone(), self.line);
            let mut bytes = &self.buffer[..];
            if self.line == 1 {
                bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            }
            // Comments are skipped before any other check: they may be long or in any encoding.
            match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
                None if !too_long => continue,
                Some(b'#' | b'%') => continue,
                _ => {}
            }
            if too_long {
                return Some(Err(ParseError {
                    at: source,
                    column: None,
                    kind: ParseErrorKind::LineTooLong {
                        limit: self.max_line_len,
                    },
                }));
            }
            let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            let text = match std::str::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => {
                    let valid = &bytes[..e.valid_up_to()];
                    let column = std::str::from_utf8(valid).map_or(0, |s| s.chars().count()) + 1;
                    return Some(Err(ParseError {
                        at: source,
                        column: Some(column),
                        kind: ParseErrorKind::InvalidUtf8 {
                            byte: bytes[e.valid_up_to()],
                        },
                    }));
                }
            };
            // One line is one position: a stray carriage return inside is not a line break.
            if text.contains('\r') {
                return Some(parse_text_with(
                    &text.replace('\r', " "),
                    source,
                    self.rules,
                ));
            }
            return Some(parse_text_with(text, source, self.rules));
        }
        None
    }
}

/// A boxed reader for [`open_path`]: a file or standard input.
pub type DynRead = Box<dyn BufRead + Send>;

/// Opens a file of positions for streaming; `-` is standard input (named `<stdin>`).
pub fn open_path(path: impl AsRef<Path>) -> Result<PositionReader<DynRead>, ParseError> {
    let path = path.as_ref();
    if path == Path::new("-") {
        return Ok(PositionReader::new(
            Box::new(BufReader::new(io::stdin())) as DynRead,
            STDIN_NAME,
        ));
    }
    let name = path.display().to_string();
    match File::open(path) {
        Ok(file) => Ok(PositionReader::new(
            Box::new(BufReader::with_capacity(1 << 16, file)) as DynRead,
            name,
        )),
        Err(e) => Err(ParseError {
            at: Source::new(name, 0),
            column: None,
            kind: ParseErrorKind::Io {
                message: e.to_string(),
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn err(text: &str) -> String {
        parse_position(text).unwrap_err().to_string()
    }

    #[test]
    fn the_start_reads_and_writes() {
        let p = parse_position(START).unwrap();
        assert_eq!(p.position, Position::start());
        assert_eq!(format_board(&p.position), START);
        assert_eq!(p.source.to_string(), "<position>:1");
    }

    #[test]
    fn cell_and_side_synonyms() {
        let text = START
            .replace('X', "*")
            .replace('O', "w")
            .replacen('-', ".", 10)
            .replacen('-', "_", 10)
            .replace(" *", " b");
        assert_eq!(parse_position(&text).unwrap().position, Position::start());
        for (side, colour) in [
            ("x", Color::Black),
            ("B", Color::Black),
            ("BLACK", Color::Black),
            ("o", Color::White),
            ("W", Color::White),
            ("White", Color::White),
        ] {
            let text = format!("{} {side}", &START[..64]);
            assert_eq!(parse_position(&text).unwrap().position.to_move, colour);
        }
        // glued side, spaces inside the cells
        let glued = format!("{}X", &START[..64]);
        assert_eq!(parse_position(&glued).unwrap().position, Position::start());
        let spaced = START.as_bytes()[..64]
            .chunks(8)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join(" ")
            + " black";
        assert_eq!(parse_position(&spaced).unwrap().position, Position::start());
    }

    #[test]
    fn diagrams_with_and_without_coordinates() {
        let plain =
            "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n--------\nX";
        assert_eq!(parse_position(plain).unwrap().position, Position::start());
        let framed = "  a b c d e f g h\n\
                      1 - - - - - - - - 1\n\
                      2 - - - - - - - - 2\n\
                      3 - - - - - - - - 3\n\
                      4 - - - O X - - - 4\n\
                      5 - - - X O - - - 5\n\
                      6 - - - - - - - - 6\n\
                      7 - - - - - - - - 7\n\
                      8 - - - - - - - - 8\n\
                      \x20 a b c d e f g h\n\
                      black\n";
        assert_eq!(parse_position(framed).unwrap().position, Position::start());
        let bad =
            "--------\n--------\n--------\n---OX---\n---XQ---\n--------\n--------\n--------\nX";
        assert_eq!(
            err(bad),
            "<position>:5:5: expected a board cell (X x * B b, O o W w or - . _), found 'Q'"
        );
    }

    #[test]
    fn obf_annotations() {
        let p = parse_position(&format!("{}; F5:+0; d3:-2; PS:-12;", START)).unwrap();
        assert_eq!(
            p.expected,
            vec![(Some(sq("f5")), 0), (Some(sq("d3")), -2), (None, -12)]
        );
        assert_eq!(p.final_score, None);
        assert_eq!(p.to_obf(), format!("{}; F5:+0; D3:-2; PS:-12;", START));
        let f = parse_position(&format!("{};+10;", START)).unwrap();
        assert_eq!(f.final_score, Some(10));
        assert_eq!(format_obf_final(&f.position, 10), format!("{START}; +10;"));
        assert_eq!(
            err(&format!("{START}; +10; -4;")),
            "<position>:1:74: expected at most one final score, found a second one '-4'"
        );
        assert_eq!(
            err(&format!("{START}; A2:+70;")),
            "<position>:1:72: expected a score from -64 to +64, found '+70'"
        );
        assert_eq!(
            err(&format!("{START}; Z9:+1;")),
            "<position>:1:69: expected a move score like 'A2:+38', 'PS:-12' or a final score like '+10', found 'Z9:+1'"
        );
    }

    #[test]
    fn a_board_without_discs_cannot_occur_in_othello() {
        let empty = format!("{} X", "-".repeat(64));
        assert_eq!(
            err(&empty),
            "<position>:1: a board with no discs cannot occur in Othello (every game starts \
             with four; --rules reversi starts from the empty board)"
        );
        let reversi = parse_text_with(&empty, Source::inline(), Rules::Reversi).unwrap();
        assert_eq!(reversi.position.board.empties(), 64);
    }

    #[test]
    fn search_depth_comments_mark_approximate_scores() {
        let line = format!("{START}; +6; % search depth 4");
        let p = parse_position(&line).unwrap();
        assert_eq!((p.final_score, p.search_depth), (Some(6), Some(4)));
        assert_eq!(p.to_obf(), line);
        let exact = parse_position(&format!("{START}; +6; % from ffo")).unwrap();
        assert_eq!(exact.search_depth, None);
    }

    #[test]
    fn edax_sentinel_ends_the_scores() {
        // Edax's problem files close a move list with `--:-127`: no more scores, not a pass.
        let p = parse_position(&format!("{START}; F5:+0; D3:-2; --:-127;")).unwrap();
        assert_eq!(p.expected, vec![(Some(sq("f5")), 0), (Some(sq("d3")), -2)]);
        let only = parse_position(&format!("{START}; --:-127;")).unwrap();
        assert_eq!(only.expected, vec![]);
        assert_eq!(only.to_obf(), format!("{START};"));
        // Any other out-of-range score of a pass is still an error.
        assert_eq!(
            err(&format!("{START}; --:-128;")),
            "<position>:1:72: expected a score from -64 to +64, found '-128'"
        );
    }

    #[test]
    fn board_errors() {
        assert_eq!(
            err(&format!("{} X", &START[..63])),
            "<position>:1: expected 64 board cells before the side to move, found 63"
        );
        assert_eq!(
            err(&format!("{}- X", &START[..64])),
            "<position>:1: expected 64 board cells before the side to move, found 65"
        );
        assert_eq!(
            err(&format!("{} Q", &START[..64])),
            "<position>:1:66: expected the side to move (X/B/black or O/W/white), found 'Q'"
        );
        assert_eq!(
            err(&format!("{} purple", &START[..64])),
            "<position>:1:66: expected a board cell (X x * B b, O o W w or - . _), found 'p'"
        );
        assert_eq!(
            err(&START[..64]),
            "<position>:1:65: expected the side to move (X/B/black or O/W/white) after the 64 cells, found end of line"
        );
        assert_eq!(
            err("   "),
            "<position>:1: expected a position (a board string, an OBF line or a move transcript), found nothing"
        );
    }

    #[test]
    fn transcripts() {
        let p = parse_position("f5d6c3d3c4f4f6f3e6e7").unwrap();
        let q = parse_position("F5 D6, C3 d3 c4 f4 f6 f3 e6 e7").unwrap();
        assert_eq!(p.position, q.position);
        assert_eq!(p.position.to_move, Color::Black);
        assert_eq!(p.position.board.empties(), 50);
        assert_eq!(
            err("f5d6c3d3c9"),
            "<position>:1:9: move 5 (c9): expected a square a1..h8 or a pass (pa, ps, --)"
        );
        assert_eq!(
            err("f5 d6 c3 d3 c4 f4 h8"),
            "<position>:1:19: move 7: h8 is not legal"
        );
        assert_eq!(
            err("f5 pa"),
            "<position>:1:4: move 2: pa is not legal, the side to move has a move"
        );
        assert_eq!(
            err("f5d6c"),
            "<position>:1:5: move 3 (c): expected a square a1..h8 or a pass (pa, ps, --)"
        );
        assert_eq!(
            parse_transcript("").unwrap_err().to_string(),
            "<position>:1: expected a move transcript, found no moves"
        );
    }

    #[test]
    fn passes_in_transcripts() {
        // After these 8 moves black has no move and white has: the pass may be left out.
        let opening = "c4 c3 c2 b2 e6 c1 a1 a3";
        let stuck = parse_position(opening).unwrap().position;
        assert_eq!(stuck.board.moves(), 0);
        let implicit = parse_position(&format!("{opening} c5")).unwrap().position;
        for pass in ["pa", "PS", "--"] {
            let explicit = parse_position(&format!("{opening} {pass} c5")).unwrap();
            assert_eq!(explicit.position, implicit);
        }
        assert_eq!(implicit.to_move, Color::Black);
        // A 9-move game that ends with white wiped out.
        let game = "c4 c3 c2 b4 a5 f4 g4 c5 d6";
        let over = parse_position(game).unwrap().position;
        assert!(over.board.is_game_over());
        assert_eq!(over.white(), 0);
        assert_eq!(
            err(&format!("{game} a1")),
            "<position>:1:28: move 10: a1 is not legal, the game is over"
        );
        assert_eq!(
            err(&format!("{game} --")),
            "<position>:1:28: move 10: -- is not legal, the game is over"
        );
    }

    #[test]
    fn supplies_after_the_side() {
        let board = &START[..64];
        let p = parse_position(&format!("{board} X 29 31")).unwrap();
        assert_eq!(p.position, Position::start());
        assert_eq!(
            p.supplies,
            Some(Supplies {
                black: 29,
                white: 31
            })
        );
        assert_eq!(
            format_board_with_supplies(&p.position, p.supplies.unwrap()),
            format!("{START} 29 31")
        );
        // Glued side, and an OBF line.
        let glued = parse_position(&format!("{board}X 30 30; F5:+0;")).unwrap();
        assert_eq!(glued.expected.len(), 1);
        assert_eq!(glued.supplies.map(|s| s.black), Some(30));
        assert_eq!(parse_position(START).unwrap().supplies, None);
        assert_eq!(
            err(&format!("{board} X 33 27")),
            "<position>:1:68: expected the discs left to black and to white after the side to \
             move, each from 0 to 32 (such as 'X 5 7'), found '33'"
        );
        assert_eq!(
            err(&format!("{board} black 5")),
            "<position>:1:72: expected the discs left to black and to white after the side to \
             move, each from 0 to 32 (such as 'X 5 7'), found '5'"
        );
        // Under Reversi rules they must add up to the empty squares.
        let reversi = |text: &str| parse_text_with(text, Source::inline(), Rules::Reversi);
        assert_eq!(
            reversi(&format!("{board} X 5 7")).unwrap_err().to_string(),
            "<position>:1: expected the discs left (black 5 + white 7 = 12) to equal the 60 \
             empty squares, since every disc placed fills one"
        );
        assert_eq!(
            reversi(START).unwrap().supplies,
            Some(Supplies {
                black: 30,
                white: 30
            })
        );
    }

    #[test]
    fn reversi_transcripts_start_from_the_empty_board() {
        let reversi = |text: &str| parse_text_with(text, Source::inline(), Rules::Reversi);
        let p = reversi("d4 e4 e5 d5 c5").unwrap();
        assert_eq!(p.position.board.empties(), 59);
        assert_eq!(p.position.to_move, Color::White);
        // black d4 e5, white e4 d5; c5 flips d5.
        assert_eq!(p.position.black().count_ones(), 4);
        assert_eq!(
            p.supplies,
            Some(Supplies {
                black: 29,
                white: 30
            })
        );
        assert_eq!(
            reversi("d4 c4").unwrap_err().to_string(),
            "<position>:1:4: move 2: c4 is not legal, the first four moves go on d4 e4 d5 e5"
        );
        // Under Othello rules the same text is a game from the standard start.
        assert_eq!(err("d4"), "<position>:1:1: move 1: d4 is not legal");
    }

    #[test]
    fn plus_marks_read_as_empty() {
        let marked = START.replacen('-', "+", 3);
        assert_eq!(parse_position(&marked).unwrap().position, Position::start());
    }

    #[test]
    fn reader_skips_comments_and_counts_lines() {
        let text = format!("# header\n\n% edax comment\n{START}\n  \r\nf5d6\r\n");
        let items: Vec<_> = PositionReader::new(text.as_bytes(), "x.txt").collect();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].as_ref().unwrap().source.to_string(), "x.txt:4");
        assert_eq!(items[1].as_ref().unwrap().source.to_string(), "x.txt:6");
    }

    #[test]
    fn reader_caps_its_buffer() {
        let mut text = vec![b'-'; 5000];
        text.extend_from_slice(b"\nf5\n");
        let mut reader = PositionReader::new(io::BufReader::with_capacity(7, &text[..]), "big")
            .with_max_line_len(100);
        let first = reader.next().unwrap().unwrap_err();
        assert_eq!(first.kind, ParseErrorKind::LineTooLong { limit: 100 });
        assert!(reader.buffer.capacity() < 1000);
        assert_eq!(reader.next().unwrap().unwrap().source.line, 2);
        assert!(reader.next().is_none());
    }

    #[test]
    fn open_path_names_missing_files() {
        let e = open_path("/nonexistent/osolve.obf").unwrap_err();
        assert!(
            e.to_string().starts_with("/nonexistent/osolve.obf: "),
            "{e}"
        );
    }
}

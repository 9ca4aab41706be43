//! What the fuzzers check, shared by the cargo-fuzz targets (`fuzz/fuzz_targets/`, libFuzzer
//! on nightly) and the stable test suite (`tests/fuzz_parsers.rs`: proptest, and a replay of
//! the committed corpus and regressions). One function per parser of outside text, each taking
//! arbitrary bytes: it must return (no panic, no hang, bounded memory) and what it returns must
//! make sense: a parsed position writes back to text that parses to the same thing, an error
//! is one line that says where.

#![allow(dead_code)]

use std::io::Cursor;

use osolve::drivers::analyze::Shard;
use osolve::games::ggf::GgfReader;
use osolve::games::transcript::TranscriptReader;
use osolve::games::wthor::{Names, WthorReader};
use osolve::games::{Game, GameError};
use osolve::notation::sniff::sniff;
use osolve::notation::{format_board, parse_position, ParseError, PositionReader};
use osolve::report::analyze::{written, Format};

/// A check of arbitrary bytes.
pub type Check = fn(&[u8]);

/// The targets by name: the name of each cargo-fuzz target and of its corpus directory.
pub const TARGETS: [(&str, Check); 5] = [
    ("parse_text", parse_text),
    ("read_lines", read_lines),
    ("shard", shard),
    ("resume", resume),
    ("games", games),
];

/// A located error is one line, names its source and says what was wrong.
fn check_error(error: &ParseError, source: &str) {
    let text = error.to_string();
    assert!(!text.contains('\n'), "{text:?}");
    assert!(
        text.starts_with(source),
        "{text:?} does not start with {source:?}"
    );
    assert!(error.at.line >= 1, "{error:?}");
    if let Some(column) = error.column {
        assert!(column >= 1, "{error:?}");
    }
}

/// Inline text (`-p`, `perft --position`): a position or a located error. A position's board
/// string and its OBF line parse back to the same position and annotations.
pub fn parse_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_position(text) {
        Ok(parsed) => {
            let board = parsed.position.board;
            assert_eq!(board.player & board.opponent, 0);
            assert!(parsed.expected.iter().all(|e| (-64..=64).contains(&e.1)));
            assert!(parsed.final_score.is_none_or(|s| (-64..=64).contains(&s)));
            let again = parse_position(&format_board(&parsed.position)).unwrap();
            assert_eq!(again.position, parsed.position);
            let obf = parse_position(&parsed.to_obf()).unwrap();
            assert_eq!(
                (obf.position, obf.expected, obf.final_score),
                (parsed.position, parsed.expected, parsed.final_score)
            );
        }
        Err(error) => {
            check_error(&error, "<position>:");
            // The line named is within the text.
            assert!(error.at.line <= 1 + text.matches('\n').count(), "{error:?}");
        }
    }
}

/// A file or standard input, streamed with a small line cap (so that long lines are cut, never
/// buffered): one item per non-blank, non-comment line, in line order, each a position or a
/// located one-line error; at most one I/O error, at the end.
pub fn read_lines(data: &[u8]) {
    const CAP: usize = 512;
    let lines = data.split(|&b| b == b'\n').count();
    let reader = PositionReader::new(Cursor::new(data), "in.txt").with_max_line_len(CAP);
    let mut last_line = 0;
    let mut items = 0;
    for item in reader {
        items += 1;
        let line = match &item {
            Ok(parsed) => parsed.source.line,
            Err(error) => {
                check_error(error, "in.txt:");
                error.at.line
            }
        };
        assert!(
            line > last_line && line <= lines,
            "line {line} after {last_line}"
        );
        last_line = line;
    }
    assert!(items <= lines);
}

/// `--shard K/N`: a part below N that prints back as itself, or an error.
pub fn shard(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Shard>() {
        Ok(shard) => {
            assert!(shard.index < shard.count);
            assert_eq!(shard.to_string().parse::<Shard>(), Ok(shard));
        }
        Err(error) => assert!(!error.to_string().contains('\n')),
    }
}

/// The output an interrupted `analyze` left, read back for `--resume` in each format: the
/// bytes to keep are whole records within the data, or a one-line error.
pub fn resume(data: &[u8]) {
    let lines = data.iter().filter(|&&b| b == b'\n').count();
    for format in [Format::Obf, Format::Jsonl, Format::Csv] {
        match written(format, Cursor::new(data)) {
            Ok(w) => {
                assert!(w.keep <= data.len() as u64);
                assert!(w.keys.len() <= lines);
                if w.keep > 0 {
                    assert_eq!(
                        data[w.keep as usize - 1],
                        b'\n',
                        "{format}: keep {}",
                        w.keep
                    );
                }
            }
            Err(message) => assert!(!message.contains('\n'), "{message:?}"),
        }
    }
}

/// A games file (`osolve games`) read as each kind: WThor, GGF and transcripts, whatever the
/// bytes say, and as the kind its content is sniffed as. Every item is a game that replays
/// legally from its start to a finished game, or a one-line error naming the file; the reader
/// ends (at most one item per record, game or line, plus one for the file).
pub fn games(data: &[u8]) {
    let _ = sniff(data, "in.wtb", Some(data.len() as u64));
    let _ = sniff(data, "in", None);
    let name = || std::sync::Arc::<str>::from("in.games");
    let bound = data.len() + 2;
    let readers: [Box<dyn Iterator<Item = Result<Game, GameError>>>; 3] = [
        Box::new(WthorReader::new(
            Cursor::new(data),
            name(),
            Names::default(),
        )),
        Box::new(GgfReader::new(Cursor::new(data), name())),
        Box::new(TranscriptReader::new(Cursor::new(data), name())),
    ];
    for reader in readers {
        let mut items = 0;
        for item in reader {
            items += 1;
            assert!(items <= bound, "more items than bytes");
            match item {
                Ok(game) => check_game(&game),
                Err(error) => {
                    let text = error.to_string();
                    assert!(!text.contains('\n'), "{text:?}");
                    assert!(text.starts_with("in.games"), "{text:?}");
                }
            }
        }
    }
}

/// A game read from a file: its moves replay legally from its start to its end, which is a
/// finished game unless the game is marked as ended early (resigned, lost on time: the
/// readers keep those and `open_games` refuses them).
fn check_game(game: &Game) {
    assert_eq!(game.moves.len(), game.positions.len());
    let mut position = game.start;
    for (i, &mv) in game.moves.iter().enumerate() {
        if position.board.moves() == 0 {
            position = position.pass();
        }
        assert_eq!(position, game.positions[i], "move {}", i + 1);
        position = position.play(mv).expect("a legal move");
    }
    // A finished game ends with the pass that shows it is over; a game that stopped early
    // may end before the pass its side to move owes.
    let passed = if position.board.moves() == 0 && !position.board.is_game_over() {
        position.pass()
    } else {
        position
    };
    assert!(
        passed.board == game.end.board || (game.ended_early() && position.board == game.end.board),
        "the game's end is not where its moves lead"
    );
    assert_eq!(game.ended_early(), !game.end.board.is_game_over());
    if game.ended_early() {
        assert!(game.unfinished_error().to_string().starts_with("in.games"));
    }
}

//! The Go Text Protocol (version 2) as Othello engines speak it: `a1`..`h8` vertices (any
//! case) and `pass`, colours `b`/`black`/`w`/`white`, responses `=[id] result` or
//! `?[id] message` each ended by a blank line. Every error is a response and the session goes
//! on; the end of the input ends it like `quit`. Besides the standard commands, two of osolve's
//! own: `osolve-solve [SECONDS]` (the exact score, best move and principal variation of the
//! current position, or the proven bounds when the time runs out) and
//! `osolve-position <position>` (set up a position in any one-line notation osolve reads).

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use super::{seconds, Input, Line};
use crate::board::{Color, Position, Square};
use crate::engine::{Engine, SolveFailure, TimeSettings};
use crate::notation::parse_position;
use crate::search::{BestMove, Limits};

/// The commands this server knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "list_games",
    "set_game",
    "osolve-solve",
    "osolve-position",
];

/// A command's answer: the result text, or the error message.
type Answer = Result<String, String>;

/// Serves GTP on `input` and `output` until `quit` or the end of the input. Only a failure to
/// write the output is an error.
pub fn serve<R: BufRead + Send + 'static, W: Write>(
    engine: &mut Engine,
    input: R,
    output: &mut W,
) -> io::Result<()> {
    let mut input = Input::spawn(input);
    while let Some(line) = input.next_line() {
        let received = Instant::now();
        let text = match line {
            Line::Text(text) => text,
            Line::TooLong => {
                write_answer(output, None, &Err("line too long".to_string()))?;
                continue;
            }
        };
        let Some((id, command, args)) = split(&text) else {
            continue;
        };
        let answer = match command.as_str() {
            "quit" => {
                write_answer(output, id, &Ok(String::new()))?;
                return Ok(());
            }
            "genmove" => genmove(engine, &mut input, &args, received),
            _ => answer(engine, &command, &args),
        };
        write_answer(output, id, &answer)?;
    }
    Ok(())
}

/// The id, the command name (lower case) and the arguments of a line after GTP's
/// preprocessing (control characters dropped, tabs as spaces, `#` comments removed); `None`
/// for a line with no command.
fn split(line: &str) -> Option<(Option<u64>, String, Vec<String>)> {
    let cleaned: String = line
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words = cleaned.split_whitespace();
    let mut first = words.next()?;
    let mut id = None;
    if first.bytes().all(|b| b.is_ascii_digit()) {
        // An id too large for u64 is not an id; the line then has no valid command.
        id = Some(first.parse::<u64>().ok()?);
        first = words.next()?;
    }
    Some((
        id,
        first.to_ascii_lowercase(),
        words.map(str::to_string).collect(),
    ))
}

fn write_answer<W: Write>(output: &mut W, id: Option<u64>, answer: &Answer) -> io::Result<()> {
    let id = id.map_or(String::new(), |id| id.to_string());
    let (mark, text) = match answer {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    if text.is_empty() {
        write!(output, "{mark}{id}\n\n")?;
    } else {
        write!(output, "{mark}{id} {text}\n\n")?;
    }
    output.flush()
}

fn color(word: &str) -> Result<Color, String> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!(
            "invalid color {word:?}: expected b, black, w or white"
        )),
    }
}

/// A vertex: a square `a1`..`h8` in any case, or `None` for `pass`.
fn vertex(word: &str) -> Result<Option<Square>, String> {
    if word.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    word.parse::<Square>()
        .map(Some)
        .map_err(|_| format!("invalid vertex {word:?}: expected a1..h8 or pass"))
}

fn vertex_name(mv: Option<Square>) -> String {
    mv.map_or("PASS".to_string(), |sq| sq.upper())
}

fn arity(args: &[String], count: usize, usage: &str) -> Result<(), String> {
    if args.len() == count {
        Ok(())
    } else {
        Err(format!("syntax error: expected {usage}"))
    }
}

fn number(word: &str, what: &str) -> Result<u32, String> {
    word.parse::<u32>()
        .map_err(|_| format!("syntax error: {what} must be a whole number, found {word:?}"))
}

fn duration(word: &str, what: &str) -> Result<Duration, String> {
    seconds(word).ok_or_else(|| format!("syntax error: {what} must be seconds, found {word:?}"))
}

/// The answer to every command but `quit` and `genmove`.
fn answer(engine: &mut Engine, command: &str, args: &[String]) -> Answer {
    match command {
        "protocol_version" => Ok("2".to_string()),
        "name" => Ok("osolve".to_string()),
        "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
        "known_command" => {
            arity(args, 1, "known_command <name>")?;
            let known = COMMANDS.contains(&args[0].to_ascii_lowercase().as_str());
            Ok(known.to_string())
        }
        "list_commands" => Ok(COMMANDS.join("\n")),
        "boardsize" => {
            arity(args, 1, "boardsize <size>")?;
            if args[0] != "8" {
                return Err("unacceptable size".to_string());
            }
            engine.new_game();
            Ok(String::new())
        }
        "clear_board" => {
            engine.new_game();
            Ok(String::new())
        }
        "komi" => {
            arity(args, 1, "komi <number>")?;
            // Othello has no komi: accepted (so controllers can send it) and ignored.
            match args[0].parse::<f64>() {
                Ok(value) if value.is_finite() => Ok(String::new()),
                _ => Err(format!(
                    "syntax error: komi must be a number, found {:?}",
                    args[0]
                )),
            }
        }
        "play" => {
            arity(args, 2, "play <color> <vertex>")?;
            let color = color(&args[0])?;
            let mv = vertex(&args[1])?;
            engine
                .play(color, mv)
                .map_err(|e| format!("illegal move: {e}"))?;
            Ok(String::new())
        }
        "undo" => {
            if engine.undo() {
                Ok(String::new())
            } else {
                Err("cannot undo".to_string())
            }
        }
        "showboard" => Ok(format!("\n{}", board_picture(&engine.position()))),
        "final_score" => {
            // At the end, the official score (empties to the winner); before it, the disc
            // count as it stands, as GNU Go and the GTP specification allow (it asks no
            // finished game; gtp-rhino answers `cannot score` there instead).
            let position = engine.position();
            let board = position.board;
            let mine = if board.is_game_over() {
                board.final_score()
            } else {
                board.player.count_ones() as i32 - board.opponent.count_ones() as i32
            };
            let black = if position.to_move == Color::Black {
                mine
            } else {
                -mine
            };
            Ok(match black {
                0 => "0".to_string(),
                s if s > 0 => format!("B+{s}"),
                s => format!("W+{}", -s),
            })
        }
        "time_settings" => {
            arity(
                args,
                3,
                "time_settings <main time> <byo-yomi time> <byo-yomi stones>",
            )?;
            engine.clock.set(TimeSettings {
                main: duration(&args[0], "the main time")?,
                byo_yomi: duration(&args[1], "the byo-yomi time")?,
                stones: number(&args[2], "the byo-yomi stones")?,
            });
            Ok(String::new())
        }
        "time_left" => {
            arity(args, 3, "time_left <color> <time> <stones>")?;
            let color = color(&args[0])?;
            let time = duration(&args[1], "the time left")?;
            let stones = number(&args[2], "the stones")?;
            engine.clock.set_left(color, time, stones);
            Ok(String::new())
        }
        "list_games" => Ok("Othello".to_string()),
        "set_game" => {
            arity(args, 1, "set_game <game>")?;
            if args[0].eq_ignore_ascii_case("othello") {
                Ok(String::new())
            } else {
                Err(format!("unsupported game {:?}: only Othello", args[0]))
            }
        }
        "osolve-position" => {
            if args.is_empty() {
                return Err("syntax error: expected osolve-position <position>".to_string());
            }
            let parsed = parse_position(&args.join(" ")).map_err(|e| e.kind.to_string())?;
            engine.set_position(parsed.position);
            Ok(String::new())
        }
        "osolve-solve" => {
            let limit = match args {
                [] => engine.options().move_time,
                [word] => duration(word, "the time limit")?,
                _ => return Err("syntax error: expected osolve-solve [seconds]".to_string()),
            };
            solve(engine, limit)
        }
        _ => Err("unknown command".to_string()),
    }
}

/// `genmove <color>`: the engine's move for `color`, played on its board. The search runs
/// while the input is watched: its end stops the search (the controller is gone).
fn genmove(engine: &mut Engine, input: &mut Input, args: &[String], received: Instant) -> Answer {
    arity(args, 1, "genmove <color>")?;
    let color = color(&args[0])?;
    let position = engine.position();
    if color != position.to_move && position.board.moves() != 0 {
        return Err(format!(
            "{} is to move, not {}",
            position.to_move.name(),
            color.name()
        ));
    }
    if position.board.is_game_over() {
        return Ok("PASS".to_string());
    }
    if color != position.to_move {
        // The side to move must pass: record it, then think for `color`.
        engine
            .play(position.to_move, None)
            .map_err(|e| format!("illegal move: {e}"))?;
    }
    let budget = engine
        .clock
        .budget(color, engine.position().board.empties());
    let deadline = received + budget;
    let stopper = engine.stopper();
    let thought = input.during(&stopper, |_| false, || engine.choose_move(deadline));
    engine
        .play(color, thought.mv)
        .map_err(|e| format!("internal error: the chosen move is illegal: {e}"))?;
    engine.clock.charge(color, received.elapsed());
    Ok(vertex_name(thought.mv))
}

/// `osolve-solve`: `exact <score> <best> <pv...>` (score for the side to move, the PV's
/// passes as PASS) or `bounds <lower> <upper> <reason>` when `limit` passed first.
fn solve(engine: &mut Engine, limit: Duration) -> Answer {
    let limits = Limits {
        time: Some(limit),
        nodes: None,
    };
    match engine.solve(limits) {
        Ok(solution) => {
            let best = match solution.best_move {
                BestMove::Play(square) => square.upper(),
                BestMove::Pass => "PASS".to_string(),
                BestMove::GameOver => "none".to_string(),
            };
            let mut text = format!("exact {} {best}", solution.score);
            if !solution.pv.is_empty() {
                text.push_str(" pv");
                for mv in &solution.pv {
                    text.push(' ');
                    text.push_str(&vertex_name(*mv));
                }
            }
            Ok(text)
        }
        Err(SolveFailure::Unfinished(unfinished)) => {
            let bounds = unfinished.bounds;
            Ok(format!(
                "bounds {} {} {}",
                bounds.lower, bounds.upper, bounds.reason
            ))
        }
        Err(SolveFailure::Refused(message)) => Err(message),
    }
}

/// The board as `showboard` draws it: a1 at the top left, `X` black, `O` white, `.` empty,
/// then whose move it is and the disc counts.
pub fn board_picture(position: &Position) -> String {
    let (black, white) = (position.black(), position.white());
    let mut text = String::from("  a b c d e f g h\n");
    for row in 0..8 {
        text.push_str(&format!("{}", row + 1));
        for col in 0..8 {
            let bit = 1u64 << (row * 8 + col);
            text.push(' ');
            text.push(if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else {
                '.'
            });
        }
        text.push_str(&format!(" {}\n", row + 1));
    }
    text.push_str("  a b c d e f g h\n");
    let state = if position.board.is_game_over() {
        "game over".to_string()
    } else {
        format!("{} to move", position.to_move.name())
    };
    text.push_str(&format!(
        "{state}; X (black) {}, O (white) {}",
        black.count_ones(),
        white.count_ones()
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineOptions;

    fn session(script: &str) -> String {
        let mut engine = Engine::new(EngineOptions {
            threads: 1,
            hash_mb: 8,
            move_time: Duration::from_millis(50),
        })
        .unwrap();
        let mut out = Vec::new();
        serve(&mut engine, io::Cursor::new(script.to_string()), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn ids_comments_and_errors() {
        assert_eq!(
            session(
                "1 name\n\n# comment\n  2 version # trailing\nfoo\n3 boardsize 10\nplay b z9\n"
            ),
            format!(
                "=1 osolve\n\n=2 {}\n\n? unknown command\n\n?3 unacceptable size\n\n\
                 ? invalid vertex \"z9\": expected a1..h8 or pass\n\n",
                env!("CARGO_PKG_VERSION")
            )
        );
    }

    #[test]
    fn play_undo_and_score() {
        let out = session(
            "play b f5\nplay b f4\nfinal_score\nplay w f4\nfinal_score\nundo\nundo\nundo\n\
             final_score\n\
             osolve-position XXXXXXXX........................................................ X\n\
             final_score\n\
             osolve-position XXXXXXXX......................................................OO O\n\
             final_score\nquit\nname\n",
        );
        // Before the end the disc count as it stands (4-1 after F5, 3-3 after F4, 2-2 at the
        // start); at the end the official score, empties to the winner (8-2 is 62-2).
        assert_eq!(
            out,
            "=\n\n? illegal move: white is to move, not black\n\n= B+3\n\n=\n\n= 0\n\n=\n\n=\n\n\
             ? cannot undo\n\n= 0\n\n=\n\n= B+64\n\n=\n\n= B+60\n\n=\n\n"
        );
    }
}

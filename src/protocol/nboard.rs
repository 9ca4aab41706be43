//! NBoard's engine protocol, version 2: the GUI sends `nboard 2`, `set depth N`, `set game
//! <GGF>` (the whole game so far), `set contempt N`, `move <sq>[/eval[/time]]` (`PA` a pass),
//! `hint N`, `go`, `ping N`, `learn`, `analyze` and `quit`, one per line; unknown lines are
//! ignored, as the protocol says. The engine answers `set myname osolve`, `pong N` (once any
//! search in progress has stopped), `status <text>`, `=== <move>/<eval>/<time>` for `go` (the
//! GUI plays the move and sends it back), `search <pv> <eval> 0 <depth>` lines for `hint`,
//! `nodestats <nodes> <seconds>` and `analysis <move number> <eval>` for `analyze`; every line
//! is flushed. While a `go` or `hint` search runs, `status` lines show the exact solver's
//! progress (`report::live`: nodes, speed, the proven bounds, the move held best, the stage),
//! at most two a second. The protocol has no error response: a line the engine cannot use (an illegal
//! move, a broken game) is answered by a `status` line saying why, and the game is unchanged.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use super::{seconds, Input, Line};
use crate::board::{Color, Position, Square};
use crate::engine::{Engine, Thought, TimeControl, TimeSettings, Value};
use crate::games::ggf;
use crate::report::live::progress_text;
use crate::search::LatestProgress;

/// The least time between two `status` lines of a running search.
const STATUS_EVERY: Duration = Duration::from_millis(500);

/// The `status` lines of a running search, from the exact solvers' latest progress event.
struct Status {
    latest: LatestProgress,
    last: Option<Instant>,
    /// The first failure to write them (reported once the search is over).
    error: Option<io::Error>,
}

impl Status {
    /// The status of the search `engine` starts next (older events are dropped).
    fn of(engine: &Engine) -> Status {
        let latest = engine.progress();
        latest.take();
        Status {
            latest,
            last: None,
            error: None,
        }
    }

    /// Writes the latest event, when there is a new one and the last line is old enough.
    fn poll<W: Write>(&mut self, output: &mut W) {
        if self.error.is_some() || self.last.is_some_and(|last| last.elapsed() < STATUS_EVERY) {
            return;
        }
        if let Some(event) = self.latest.take() {
            self.last = Some(Instant::now());
            if let Err(e) = say(output, &format!("status {}", progress_text(&event))) {
                self.error = Some(e);
            }
        }
    }

    /// The search is over: the first write error, if any.
    fn end(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }
}

/// The game as the GUI described it, for the clock: the main time per side (`TI`) and the
/// time each side has used (the `/time` of its moves).
#[derive(Clone, Debug, Default)]
struct GameClock {
    main: Option<Duration>,
    used: [Duration; 2],
}

fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Serves the NBoard protocol on `input` and `output` until `quit` or the end of the input.
/// Only a failure to write the output is an error.
pub fn serve<R: BufRead + Send + 'static, W: Write>(
    engine: &mut Engine,
    input: R,
    output: &mut W,
) -> io::Result<()> {
    let mut input = Input::spawn(input);
    let mut clock = GameClock::default();
    let move_time = engine.clock.move_time;
    while let Some(line) = input.next_line() {
        let received = Instant::now();
        let Line::Text(text) = line else {
            say(output, "status ignored a line too long to be a command")?;
            continue;
        };
        let mut words = text.split_whitespace();
        let Some(command) = words.next() else {
            continue;
        };
        match command {
            "nboard" => say(output, "set myname osolve")?,
            "quit" => return Ok(()),
            "ping" => {
                // Searches run to their end inside the commands below (a ping stops them), so
                // nothing is in progress here.
                let n = words.next().unwrap_or("0");
                say(output, &format!("pong {n}"))?;
            }
            "set" => match words.next() {
                Some("depth") => match words.next().and_then(|w| w.parse::<u32>().ok()) {
                    Some(depth) if (1..=60).contains(&depth) => engine.max_depth = depth,
                    _ => say(output, "status set depth: expected a depth from 1 to 60")?,
                },
                Some("game") => {
                    let ggf = text.split_once("game").map_or("", |(_, rest)| rest);
                    match set_game(engine, ggf.trim()) {
                        Ok(game_clock) => clock = game_clock,
                        Err(message) => say(output, &format!("status set game: {message}"))?,
                    }
                }
                // Contempt shifts a draw's value; the engine plays for the disc score, so it
                // is accepted and has no effect.
                Some("contempt") => {}
                _ => {}
            },
            "move" => {
                let Some(word) = words.next() else {
                    say(output, "status move: expected a move such as F5 or PA")?;
                    continue;
                };
                if let Err(message) = play(engine, &mut clock, word) {
                    say(output, &format!("status move {word}: {message}"))?;
                }
            }
            "go" => {
                set_clock(engine, &clock, move_time);
                let to_move = engine.position().to_move;
                let budget = engine
                    .clock
                    .budget(to_move, engine.position().board.empties());
                let deadline = received + budget;
                say(output, "status thinking")?;
                let stopper = engine.stopper();
                let mut status = Status::of(engine);
                let thought = input.during_with(
                    &stopper,
                    is_ping,
                    || engine.choose_move(deadline),
                    || status.poll(output),
                );
                status.end()?;
                if input.interrupted() {
                    // A ping stopped it: the GUI no longer wants this move.
                    say(output, "status")?;
                    continue;
                }
                let seconds = received.elapsed().as_secs_f64();
                say(
                    output,
                    &format!("nodestats {} {seconds:.2}", thought.nodes.max(1)),
                )?;
                say(
                    output,
                    &format!(
                        "=== {}/{:.2}/{seconds:.2}",
                        move_name(thought.mv),
                        thought.value.discs()
                    ),
                )?;
                say(output, "status")?;
            }
            "hint" => {
                let count = match words.next().and_then(|w| w.parse::<usize>().ok()) {
                    Some(count) if count >= 1 => count,
                    _ => {
                        say(output, "status hint: expected a number of moves, 1 or more")?;
                        continue;
                    }
                };
                let deadline = received + move_time;
                say(output, "status thinking")?;
                let stopper = engine.stopper();
                let mut status = Status::of(engine);
                let hints = input.during_with(
                    &stopper,
                    is_ping,
                    || engine.hints(count, deadline),
                    || status.poll(output),
                );
                status.end()?;
                if !input.interrupted() {
                    let mut nodes = 0;
                    for hint in &hints {
                        say(output, &search_line(hint))?;
                        nodes = hint.nodes;
                    }
                    let seconds = received.elapsed().as_secs_f64();
                    say(output, &format!("nodestats {} {seconds:.2}", nodes.max(1)))?;
                }
                say(output, "status")?;
            }
            "learn" => {
                say(
                    output,
                    "status osolve has no opening book: nothing to learn",
                )?;
                say(output, "learned")?;
            }
            "analyze" => analyze(engine, &mut input, output, move_time)?,
            // Unknown commands are ignored, as the protocol asks.
            _ => {}
        }
    }
    Ok(())
}

fn is_ping(line: &str) -> bool {
    line.split_whitespace().next() == Some("ping")
}

fn say<W: Write>(output: &mut W, line: &str) -> io::Result<()> {
    writeln!(output, "{line}")?;
    output.flush()
}

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
fn move_name(mv: Option<Square>) -> String {
    mv.map_or("PA".to_string(), |sq| sq.upper())
}

/// The eval of a value with two decimals, from the side to move's view.
fn eval_text(value: Value) -> String {
    format!("{:.2}", value.discs())
}

/// `search <pv> <eval> 0 <depth>`: the PV without spaces, depth `100%` for an exact score,
/// `100%W` for a win/draw/loss proof (the eval then +1, 0 or -1).
fn search_line(hint: &Thought) -> String {
    let pv: String = hint.pv.iter().map(|&mv| move_name(mv)).collect();
    let depth = if hint.value.is_exact() {
        "100%".to_string()
    } else if hint.value.is_wld() {
        "100%W".to_string()
    } else {
        hint.depth.to_string()
    };
    format!("search {pv} {} 0 {depth}", eval_text(hint.value))
}

/// A move token: `F5`, `f5`, `PA` (pass), perhaps followed by `/eval/time`. Returns the move
/// and the time, when given.
fn move_token(token: &str) -> Result<(Option<Square>, Option<Duration>), String> {
    let mut parts = token.split('/');
    let name = parts.next().unwrap_or("").trim();
    let mv = if name.eq_ignore_ascii_case("pa") || name.eq_ignore_ascii_case("pass") {
        None
    } else {
        Some(
            name.parse::<Square>()
                .map_err(|_| format!("expected a square A1..H8 or PA, found {name:?}"))?,
        )
    };
    let _eval = parts.next();
    let time = parts.next().and_then(|t| seconds(t.trim()));
    Ok((mv, time))
}

/// Plays a move token for the side that can play it (the side to move, or the other one when
/// the side to move must pass).
fn play(engine: &mut Engine, clock: &mut GameClock, token: &str) -> Result<(), String> {
    let (mv, time) = move_token(token)?;
    let position = engine.position();
    let color = if mv.is_some() && position.board.moves() == 0 {
        position.to_move.other()
    } else {
        position.to_move
    };
    engine.play(color, mv).map_err(|e| e.to_string())?;
    if let Some(time) = time {
        clock.used[side(color)] += time;
    }
    Ok(())
}

/// `TI[...]`: the main time per player, `[[h:]m:]s`, perhaps followed by `/increment/...`.
fn main_time(value: &str) -> Option<Duration> {
    let main = value.split('/').next()?.trim();
    let mut total = 0.0;
    for part in main.split(':') {
        let number: f64 = part.trim().parse().ok()?;
        if !number.is_finite() || number < 0.0 {
            return None;
        }
        total = total * 60.0 + number;
    }
    seconds(&total.to_string())
}

/// Replays the GGF game onto `engine` (all or nothing) and returns its clock.
fn set_game(engine: &mut Engine, text: &str) -> Result<GameClock, String> {
    let tags = ggf::game_tags(text).map_err(|e| e.to_string())?;
    let mut start = Position::start();
    let mut clock = GameClock::default();
    let mut moves = Vec::new();
    for (name, value) in &tags {
        match name.as_str() {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return Err(format!("GM[{value}]: expected Othello"));
            }
            "BO" => {
                start = ggf::board(value).ok_or_else(|| {
                    format!("BO[{value}]: expected 8, 64 cells (- * O) and the side to move")
                })?;
            }
            "TI" => clock.main = main_time(value),
            "B" | "W" => {
                let color = if name == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let (mv, time) = move_token(value).map_err(|e| format!("{name}[{value}]: {e}"))?;
                moves.push((color, mv, time, value));
            }
            _ => {}
        }
    }
    let (history, position) = (engine.history().to_vec(), engine.position());
    engine.set_position(start);
    for (number, (color, mv, time, value)) in moves.into_iter().enumerate() {
        if let Err(e) = engine.play(color, mv) {
            engine.restore(history, position);
            return Err(format!("move {}: {value}: {e}", number + 1));
        }
        if let Some(time) = time {
            clock.used[side(color)] += time;
        }
    }
    Ok(clock)
}

/// The engine's clock for the next move: the GGF's main time less what the side to move has
/// used, or the fixed time per move when the game has no clock.
fn set_clock(engine: &mut Engine, clock: &GameClock, move_time: Duration) {
    engine.clock = TimeControl::new(move_time);
    if let Some(main) = clock.main {
        engine.clock.set(TimeSettings {
            main,
            byo_yomi: Duration::ZERO,
            stones: 0,
        });
        for color in [Color::Black, Color::White] {
            let left = main.saturating_sub(clock.used[side(color)]);
            engine.clock.set_left(color, left, 0);
        }
    }
}

/// `analyze`: the value of every position of the game, from the last to the first (the end
/// of a game is exact at once, and the tables filled there help the earlier ones), each with a
/// quarter of the time per move; `analysis <k> <eval>` for the position after k moves, from
/// its side to move's view. A ping stops it.
fn analyze<W: Write>(
    engine: &mut Engine,
    input: &mut Input,
    output: &mut W,
    move_time: Duration,
) -> io::Result<()> {
    let mut positions = engine.history().to_vec();
    positions.push(engine.position());
    say(output, "status analyzing")?;
    for (number, position) in positions.iter().enumerate().rev() {
        engine.set_position(*position);
        let deadline = Instant::now() + move_time / 4;
        let stopper = engine.stopper();
        let thought = input.during(&stopper, is_ping, || engine.choose_move(deadline));
        if input.interrupted() {
            break;
        }
        say(
            output,
            &format!("analysis {number} {}", eval_text(thought.value)),
        )?;
    }
    // Back to the game as it was, history included.
    let current = positions.pop().unwrap_or(Position::start());
    engine.restore(positions, current);
    say(output, "status")
}

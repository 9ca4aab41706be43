//! End-to-end tests of `osolve gtp`: scripted sessions with every response checked exactly
//! (ids, errors that never end the session, the end of input), exact scores and best moves
//! against the library's solver on FFO positions, perfect play to the end of an endgame, the
//! end of input stopping a long `genmove`, and complete games against `gtp-rhino` (Debian's
//! grhino) relayed by a referee that checks every move on osolve's own board. The ignored
//! `match_against_rhino` is the longer match of `scripts/match-rhino.sh`.

use std::path::Path;
use std::time::{Duration, Instant};

use osolve::board::random::Rng;
use osolve::board::{Color, Position, Square};
use osolve::notation::parse_position;

mod common;
use common::{binary, session, solver, Interactive};

/// FFO #1 (14 empties, black to move): G8 +18 is the only best move.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
/// FFO #4 (14 empties, black to move): a draw, reached by H8 or A5.
const FFO_4: &str = "-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X";
const RHINO: &str = "/usr/games/gtp-rhino";

#[test]
fn the_standard_commands_answer_exactly() {
    let out = session(
        "gtp",
        &[],
        "protocol_version\n2 name\nversion\nknown_command genmove\nknown_command resign\n\
         boardsize 8\nboardsize 19\nkomi 6.5\nkomi x\nclear_board\nlist_games\nset_game Go\n\
         set_game Othello\nplay B F5\nplay white d6\nplay b C3\nshowboard\n\
         time_settings 300 0 0\ntime_left w 250 0\nfinal_score\nundo\nundo\nundo\nundo\nquit\n\
         name\n",
    );
    let expected = format!(
        "= 2\n\n=2 osolve\n\n= {}\n\n= true\n\n= false\n\n=\n\n? unacceptable size\n\n=\n\n\
         ? syntax error: komi must be a number, found \"x\"\n\n=\n\n= Othello\n\n\
         ? unsupported game \"Go\": only Othello\n\n=\n\n=\n\n=\n\n=\n\n= \n\
         \x20 a b c d e f g h\n\
         1 . . . . . . . . 1\n\
         2 . . . . . . . . 2\n\
         3 . . X . . . . . 3\n\
         4 . . . X X . . . 4\n\
         5 . . . O X X . . 5\n\
         6 . . . O . . . . 6\n\
         7 . . . . . . . . 7\n\
         8 . . . . . . . . 8\n\
         \x20 a b c d e f g h\n\
         white to move; X (black) 5, O (white) 2\n\n\
         =\n\n=\n\n= B+3\n\n=\n\n=\n\n=\n\n? cannot undo\n\n=\n\n",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(out, expected);
}

#[test]
fn errors_never_end_the_session_and_the_end_of_input_ends_it() {
    let out = session(
        "gtp",
        &[],
        "play b a1\nplay w f5\nplay b z9\nplay purple f5\nplay b\nplay b pass\n\
         genmove w\nfoo bar\n7 undo\n\x01name # a comment\n\nplay b f5\n8 play w f5",
    );
    assert_eq!(
        out,
        "? illegal move: a1 flips nothing for black\n\n\
         ? illegal move: black is to move, not white\n\n\
         ? invalid vertex \"z9\": expected a1..h8 or pass\n\n\
         ? invalid color \"purple\": expected b, black, w or white\n\n\
         ? syntax error: expected play <color> <vertex>\n\n\
         ? illegal move: black cannot pass: it has a legal move\n\n\
         ? black is to move, not white\n\n\
         ? unknown command\n\n\
         ?7 cannot undo\n\n\
         = osolve\n\n\
         =\n\n\
         ?8 illegal move: f5 is taken\n\n"
    );
}

#[test]
fn endgame_scores_and_moves_are_the_solvers() {
    let mut solver = solver(1, 16);
    for text in [FFO_1, FFO_4] {
        let position = parse_position(text).unwrap().position;
        let solution = solver.solve(&position).unwrap();
        let (_, best, _) = solver.best_moves(&position).unwrap();
        let out = session(
            "gtp",
            &[],
            &format!("osolve-position {text}\nosolve-solve 60\ngenmove b\n"),
        );
        let answers: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(answers[0], "=");
        let words: Vec<&str> = answers[1].split_whitespace().collect();
        assert_eq!(&words[..2], ["=", "exact"], "{out}");
        assert_eq!(words[2], solution.score.to_string());
        // The PV is legal and reaches the score.
        let mut at = position;
        assert_eq!(words[4], "pv");
        for word in &words[5..] {
            at = if *word == "PASS" {
                at.pass()
            } else {
                at.play(word.parse::<Square>().unwrap())
                    .expect("a legal PV move")
            };
        }
        assert!(at.board.is_game_over());
        let black = at.black().count_ones() as i32 - at.white().count_ones() as i32;
        assert_eq!(black.signum(), solution.score.signum());
        let played = answers[2].strip_prefix("= ").unwrap();
        let played: Square = played.parse().unwrap();
        assert!(
            best.contains(&Some(played)),
            "{played} not best in {best:?}"
        );
    }
}

#[test]
fn self_play_from_an_endgame_ends_with_the_exact_score() {
    // Both sides perfect from FFO #1 (black +18): the game must end B+18.
    let mut script = format!("osolve-position {FFO_1}\n");
    for i in 0..30 {
        script.push_str(if i % 2 == 0 {
            "genmove b\n"
        } else {
            "genmove w\n"
        });
    }
    script.push_str("final_score\n");
    let out = session("gtp", &[], &script);
    let answers: Vec<&str> = out.trim_end().split("\n\n").collect();
    assert_eq!(answers.last(), Some(&"= B+18"), "{out}");
    // Every genmove for the side to move plays (a pass in the game puts the script out of
    // step: the other side's genmove is then refused), and once the game is over it is PASS.
    assert_eq!(answers[30], "= PASS", "{out}");
}

#[test]
fn the_end_of_input_stops_a_long_genmove() {
    // 600 s per move, and the input ends right after genmove: the controller is gone, so the
    // search stops and the engine answers and exits instead of thinking for ten minutes.
    let out = session("gtp", &["--move-time", "600"], "play b f5\ngenmove w\n");
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers[0], "=");
    let mv: Square = answers[1].strip_prefix("= ").unwrap().parse().unwrap();
    let after_f5 = Position::start().play("f5".parse().unwrap()).unwrap();
    assert!(after_f5.play(mv).is_some(), "{mv} is not legal");
}

/// A GTP engine process.
struct Engine {
    name: &'static str,
    /// Whether the engine takes `play <color> pass`: gtp-rhino answers it with a syntax error
    /// and passes by itself when the other colour's move comes.
    takes_passes: bool,
    session: Interactive,
}

impl Engine {
    fn start(name: &'static str, program: &Path, args: &[&str], takes_passes: bool) -> Engine {
        Engine {
            name,
            takes_passes,
            session: Interactive::start(program, args),
        }
    }

    /// Sends a command and returns its answer: Ok(result) or Err(message).
    fn send(&mut self, command: &str) -> Result<String, String> {
        self.session.send(command);
        let mut answer = String::new();
        loop {
            let line = self
                .session
                .next_line()
                .unwrap_or_else(|| panic!("{} closed its output after {command:?}", self.name));
            if line.trim().is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            answer.push_str(&line);
            answer.push('\n');
        }
        let answer = answer.trim_end().to_string();
        if let Some(rest) = answer.strip_prefix('=') {
            Ok(rest.trim().to_string())
        } else if let Some(rest) = answer.strip_prefix('?') {
            Err(rest.trim().to_string())
        } else {
            panic!("{}: not a GTP answer to {command:?}: {answer:?}", self.name)
        }
    }

    fn quit(mut self) {
        let _ = self.send("quit");
        let _ = self.session.wait();
    }
}

/// The result of one refereed game.
struct Played {
    /// Final disc difference for black.
    black: i32,
    /// Which colour osolve played.
    osolve: Color,
    /// osolve's genmove answer times.
    times: Vec<Duration>,
    moves: usize,
    /// Forced passes in the game.
    passes: usize,
}

fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// Plays one game between `osolve` and `rhino` from `opening` (plies played on both first),
/// osolve with `osolve_color`; every move is checked on osolve's own board and relayed; at
/// the end both engines' final_score must agree with the board.
fn referee(
    osolve: &mut Engine,
    rhino: &mut Engine,
    opening: &[Square],
    osolve_color: Color,
) -> Played {
    for engine in [&mut *osolve, &mut *rhino] {
        engine.send("boardsize 8").unwrap();
        engine.send("clear_board").unwrap();
    }
    let mut position = Position::start();
    for &sq in opening {
        let color = color_word(position.to_move);
        for engine in [&mut *osolve, &mut *rhino] {
            engine.send(&format!("play {color} {sq}")).unwrap();
        }
        position = position.play(sq).expect("a legal opening");
    }
    let mut times = Vec::new();
    let mut moves = opening.len();
    let mut passes = 0;
    while !position.board.is_game_over() {
        let to_move = position.to_move;
        let color = color_word(to_move);
        let (mover, other) = if to_move == osolve_color {
            (&mut *osolve, &mut *rhino)
        } else {
            (&mut *rhino, &mut *osolve)
        };
        let start = Instant::now();
        let answer = mover
            .send(&format!("genmove {color}"))
            .unwrap_or_else(|e| panic!("{} refused genmove {color}: {e}", mover.name));
        if to_move == osolve_color {
            times.push(start.elapsed());
        }
        if answer.eq_ignore_ascii_case("pass") {
            assert_eq!(
                position.board.moves(),
                0,
                "{} passed with a legal move in {position:?}",
                mover.name
            );
            position = position.pass();
            if other.takes_passes {
                other
                    .send(&format!("play {color} pass"))
                    .unwrap_or_else(|e| {
                        panic!("{} refused the forced pass of {color}: {e}", other.name)
                    });
            }
            passes += 1;
            continue;
        }
        let sq: Square = answer
            .parse()
            .unwrap_or_else(|_| panic!("{} answered {answer:?}", mover.name));
        position = position
            .play(sq)
            .unwrap_or_else(|| panic!("{} played the illegal {sq}", mover.name));
        other
            .send(&format!("play {color} {sq}"))
            .unwrap_or_else(|e| panic!("{} refused {color} {sq}: {e}", other.name));
        moves += 1;
    }
    let black = {
        let score = position.board.final_score();
        if position.to_move == Color::Black {
            score
        } else {
            -score
        }
    };
    let expected = match black {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    };
    assert_eq!(osolve.send("final_score").unwrap(), expected);
    let rhino_score = rhino.send("final_score").unwrap();
    assert_eq!(
        rhino_score.trim_end_matches(".0").to_ascii_uppercase(),
        expected,
        "gtp-rhino's final_score"
    );
    Played {
        black,
        osolve: osolve_color,
        times,
        moves,
        passes,
    }
}

/// `plies` random legal opening moves from seed `seed` (no game ends that fast).
fn opening(seed: u64, plies: usize) -> Vec<Square> {
    let mut rng = Rng(seed);
    let mut position = Position::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let sq = Square::new(rng.pick(position.board.moves())).unwrap();
        position = position.play(sq).unwrap();
        moves.push(sq);
    }
    moves
}

fn rhino_present() -> bool {
    if Path::new(RHINO).exists() {
        return true;
    }
    eprintln!(
        "SKIPPED: {RHINO} is not installed (Debian package grhino: apt-get install grhino; \
         .ci/run installs it): the games against gtp-rhino were not played"
    );
    false
}

/// `osolve gtp` at `move_time` seconds per move and gtp-rhino at `level`.
fn start_pair(move_time: f64, level: u32) -> (Engine, Engine) {
    let move_time_text = move_time.to_string();
    let mut args = vec![
        "gtp".to_string(),
        "--move-time".to_string(),
        move_time_text,
        "--threads".to_string(),
        "1".to_string(),
        "--hash-mb".to_string(),
        "64".to_string(),
    ];
    // Other evaluation weights for osolve's middle game (scripts/match-rhino.sh WEIGHTS).
    if let Ok(weights) = std::env::var("OSOLVE_MATCH_WEIGHTS") {
        args.extend(["--weights".to_string(), weights]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let osolve = Engine::start("osolve", &binary(), &args, true);
    let level = level.to_string();
    let rhino = Engine::start("gtp-rhino", Path::new(RHINO), &["--level", &level], false);
    (osolve, rhino)
}

/// Plays `games` games (colours alternating, openings of 4 random plies), osolve at
/// `move_time` seconds per move against gtp-rhino at `level`; returns (wins, draws, losses)
/// for osolve and the worst overshoot of osolve's answer time over `move_time`.
fn play_match(games: usize, move_time: f64, level: u32) -> ((u32, u32, u32), Duration, usize) {
    let (mut osolve, mut rhino) = start_pair(move_time, level);
    let mut results = (0, 0, 0);
    let mut worst = Duration::ZERO;
    let mut answers = 0;
    for game in 0..games {
        let color = if game % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let played = referee(
            &mut osolve,
            &mut rhino,
            &opening(game as u64 / 2 + 1, 4),
            color,
        );
        let mine = if played.osolve == Color::Black {
            played.black
        } else {
            -played.black
        };
        match mine.signum() {
            1 => results.0 += 1,
            0 => results.1 += 1,
            _ => results.2 += 1,
        }
        let limit = Duration::from_secs_f64(move_time);
        for &t in &played.times {
            worst = worst.max(t.saturating_sub(limit));
        }
        answers += played.times.len();
        eprintln!(
            "game {}: osolve {} {mine:+} after {} moves and {} passes; slowest answer {:?}",
            game + 1,
            played.osolve.name(),
            played.moves,
            played.passes,
            played.times.iter().max().copied().unwrap_or_default()
        );
    }
    osolve.quit();
    rhino.quit();
    (results, worst, answers)
}

#[test]
fn complete_games_against_gtp_rhino() {
    if !rhino_present() {
        return;
    }
    // Two short games, one with each colour, at 0.1 s per move against rhino's fastest level.
    let ((wins, draws, losses), worst, answers) = play_match(2, 0.1, 1);
    assert_eq!(wins + draws + losses, 2);
    assert!(answers >= 20, "osolve answered {answers} genmoves");
    eprintln!("osolve W/D/L {wins}/{draws}/{losses}, worst overshoot {worst:?}");
    // After d3 c3 e6 d2 d1 e1 b2 c1 black has no move: osolve (black) must answer PASS and
    // gtp-rhino then plays on for white by itself.
    let (mut osolve, mut rhino) = start_pair(0.1, 1);
    let opening: Vec<Square> = ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]
        .iter()
        .map(|sq| sq.parse().unwrap())
        .collect();
    let played = referee(&mut osolve, &mut rhino, &opening, Color::Black);
    assert!(played.passes >= 1, "no pass in the game");
    osolve.quit();
    rhino.quit();
}

/// The match of `scripts/match-rhino.sh`: OSOLVE_MATCH_GAMES games (default 10) at
/// OSOLVE_MATCH_MOVE_TIME seconds per move (default 0.2) against gtp-rhino at
/// OSOLVE_RHINO_LEVEL (default 3), osolve with the weights file OSOLVE_MATCH_WEIGHTS if set.
#[test]
#[ignore = "a long match: run by scripts/match-rhino.sh"]
fn match_against_rhino() {
    if !rhino_present() {
        return;
    }
    let var = |name: &str, default: &str| std::env::var(name).unwrap_or(default.to_string());
    let games: usize = var("OSOLVE_MATCH_GAMES", "10").parse().unwrap();
    let move_time: f64 = var("OSOLVE_MATCH_MOVE_TIME", "0.2").parse().unwrap();
    let level: u32 = var("OSOLVE_RHINO_LEVEL", "3").parse().unwrap();
    let ((wins, draws, losses), worst, answers) = play_match(games, move_time, level);
    println!(
        "osolve vs gtp-rhino level {level}, {games} games, {move_time} s per move: \
         W/D/L {wins}/{draws}/{losses}; worst move-time overshoot {:.1} ms over {answers} moves \
         (allowed {:.1} ms)",
        worst.as_secs_f64() * 1000.0,
        (move_time * 0.1 + 0.05) * 1000.0
    );
}

/// SIGTERM (or Ctrl-C) ends a server with exit code 130, as every command (it was 143, the
/// default action of the signal).
#[test]
fn a_signal_ends_the_servers_with_130() {
    use std::io::{BufRead, Write};
    for server in ["gtp", "nboard"] {
        let mut child = std::process::Command::new(binary())
            .arg(server)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait for an answer, so that the server is up before the signal.
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let (command, answer) = if server == "gtp" {
            ("name\n", "= osolve")
        } else {
            ("nboard 2\nping 1\n", "pong 1")
        };
        stdin.write_all(command.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        while !line.starts_with(answer) {
            line.clear();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "{server} ended");
        }
        let status = std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "{server} did not end");
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(stdin);
        assert_eq!(status.code(), Some(130), "{server}: {status:?}");
    }
}

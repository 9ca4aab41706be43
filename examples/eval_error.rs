//! How far the evaluation search's value is from the exact score, by empties and depth: the
//! statistics that ProbCut's margins and the ordering depths stand on.
//!
//! `cargo run --release --example eval_error -- FILE [MAX_DEPTH]`
//!
//! FILE holds labelled positions as `osolve gen` writes them: a 64-character board (`X` black,
//! `O` white, `-` empty), the side to move and its exact score (`...-- O; +38;`). For each
//! empties count and each depth 0..=MAX_DEPTH (default 6) it prints the positions, the mean
//! and the standard deviation of (exact score - predicted score), in discs.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;

use osolve::eval::{builtin, SCALE};
use osolve::search::eval_search;

/// One labelled position: the side to move's discs, the opponent's, and the exact score.
fn parse(line: &str) -> Result<(u64, u64, i32), String> {
    let mut fields = line.split_whitespace();
    let board = fields.next().ok_or("expected a board")?;
    if board.len() != 64 {
        return Err(format!("expected 64 board cells, found {}", board.len()));
    }
    let side = fields
        .next()
        .ok_or("expected the side to move after the board")?;
    let score = line
        .split(';')
        .nth(1)
        .and_then(|s| s.trim().parse::<i32>().ok())
        .ok_or("expected the exact score after the side to move, as `O; +38;`")?;
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in board.bytes().enumerate() {
        match c {
            b'X' | b'x' | b'*' => black |= 1 << i,
            b'O' | b'o' => white |= 1 << i,
            b'-' | b'.' => {}
            _ => return Err(format!("expected X, O or - at cell {}", i + 1)),
        }
    }
    match side.trim_end_matches(';') {
        "X" | "x" | "*" => Ok((black, white, score)),
        "O" | "o" => Ok((white, black, score)),
        other => Err(format!("expected the side to move X or O, found `{other}`")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: eval_error FILE [MAX_DEPTH]");
        return ExitCode::from(2);
    };
    let max_depth: u32 = match args.get(2).map(|s| s.parse()) {
        None => 6,
        Some(Ok(d)) if d <= 10 => d,
        Some(_) => {
            eprintln!("eval_error: expected a depth 0 to 10, found `{}`", args[2]);
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("eval_error: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let weights = builtin();
    // (empties, depth) -> (positions, sum of errors, sum of squared errors)
    let mut stats: BTreeMap<(u32, u32), (f64, f64, f64)> = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('%') || line.starts_with('#') {
            continue;
        }
        let (player, opponent, score) = match parse(line) {
            Ok(position) => position,
            Err(e) => {
                eprintln!("eval_error: {path}:{}: {e}", number + 1);
                return ExitCode::from(2);
            }
        };
        let empties = 64 - (player | opponent).count_ones();
        for depth in 0..=max_depth {
            let mut nodes = 0;
            let (low, high) = (-65 * SCALE, 65 * SCALE);
            let v = eval_search::search(weights, player, opponent, depth, low, high, &mut nodes);
            let error = f64::from(score) - f64::from(v) / f64::from(SCALE);
            let entry = stats.entry((empties, depth)).or_default();
            entry.0 += 1.0;
            entry.1 += error;
            entry.2 += error * error;
        }
    }
    let mut out = std::io::stdout().lock();
    let write = || -> std::io::Result<()> {
        writeln!(out, "empties depth positions mean sd")?;
        for ((empties, depth), (n, sum, squares)) in stats {
            let mean = sum / n;
            let sd = (squares / n - mean * mean).max(0.0).sqrt();
            writeln!(out, "{empties} {depth} {n} {mean:.2} {sd:.2}")?;
        }
        out.flush()
    };
    match write() {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is the reader's choice, not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("eval_error: cannot write the statistics: {e}");
            ExitCode::FAILURE
        }
    }
}

//! Both protocol servers fed random command lines in-process (like the parsers in
//! fuzz_parsers.rs): known and unknown command words with random arguments (squares, colours,
//! numbers, GGF fragments, junk bytes). They must never panic, GTP must answer every command
//! with exactly one `=`/`?` response ended by a blank line, and NBoard must write only
//! protocol messages and answer every `ping` with its `pong`.

use std::io::Cursor;
use std::time::Duration;

use osolve::engine::{Engine, EngineOptions};
use osolve::protocol::{gtp, nboard};
use proptest::prelude::*;

fn engine() -> Engine {
    Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 1,
        move_time: Duration::from_millis(5),
    })
    .unwrap()
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "protocol_version",
            "name",
            "version",
            "known_command",
            "list_commands",
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
            "nboard",
            "set",
            "depth",
            "game",
            "contempt",
            "move",
            "hint",
            "go",
            "ping",
            "learn",
            "analyze",
            "b",
            "w",
            "black",
            "white",
            "pass",
            "PA",
            "f5",
            "D6",
            "c3",
            "a1",
            "h8",
            "z9",
            "8",
            "0",
            "-1",
            "0.01",
            "1e9",
            "NaN",
            "2",
            "#",
            "(;GM[Othello]B[f5]W[d6];)",
            "(;GM[Othello]BO[8",
            "B[F5//1.2]",
            "F5/1.0/0.1",
            "XXXX",
            "\t",
        ])
        .prop_map(str::to_string),
        "[ -~]{0,12}",
        any::<String>().prop_map(|s| s.chars().take(8).collect()),
    ]
}

fn line() -> impl Strategy<Value = String> {
    (
        prop::option::of(0u32..100),
        prop::collection::vec(word(), 0..5),
    )
        .prop_map(|(id, words)| {
            let text = words.join(" ");
            match id {
                Some(id) => format!("{id} {text}"),
                None => text,
            }
        })
}

/// Whether GTP answers `line` (it has a command after preprocessing), and whether it is quit.
fn gtp_command(line: &str) -> Option<bool> {
    let cleaned: String = line
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| *c == '\t' || !c.is_control())
        .collect();
    let mut words = cleaned.split_whitespace();
    let mut first = words.next()?;
    if first.bytes().all(|b| b.is_ascii_digit()) {
        first.parse::<u64>().ok()?;
        first = words.next()?;
    }
    Some(first.eq_ignore_ascii_case("quit"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn gtp_answers_every_command_once(lines in prop::collection::vec(line(), 0..12)) {
        // Lines are split at newlines only (a `\n` inside a word makes two lines).
        let script = lines.join("\n");
        let mut expected = 0;
        for line in script.split('\n') {
            if let Some(quit) = gtp_command(line) {
                expected += 1;
                if quit {
                    break;
                }
            }
        }
        let mut out = Vec::new();
        gtp::serve(&mut engine(), Cursor::new(script.clone().into_bytes()), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let answers: Vec<&str> = out.split_terminator("\n\n").collect();
        prop_assert_eq!(answers.len(), expected, "{:?} -> {:?}", script, out);
        prop_assert!(out.is_empty() || out.ends_with("\n\n"));
        for answer in answers {
            prop_assert!(answer.starts_with('=') || answer.starts_with('?'), "{:?}", answer);
            prop_assert!(!answer.contains("\n\n"));
        }
    }

    #[test]
    fn nboard_writes_only_protocol_messages(lines in prop::collection::vec(line(), 0..12)) {
        let mut script = lines.join("\n");
        // Always a ping at the end, so at least one pong is owed.
        script.push_str("\nping 99\n");
        let mut pings = Vec::new();
        for line in script.split('\n') {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("quit") => break,
                Some("ping") => pings.push(words.next().unwrap_or("0").to_string()),
                _ => {}
            }
        }
        let mut out = Vec::new();
        nboard::serve(&mut engine(), Cursor::new(script.clone().into_bytes()), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let mut pongs = Vec::new();
        for line in out.lines() {
            let keyword = line.split(' ').next().unwrap_or("");
            prop_assert!(
                ["set", "pong", "status", "===", "search", "nodestats", "analysis", "learned"]
                    .contains(&keyword),
                "{:?} in {:?}", line, out
            );
            if keyword == "pong" {
                pongs.push(line["pong ".len()..].to_string());
            }
        }
        prop_assert_eq!(pongs, pings, "{:?}", script);
    }
}

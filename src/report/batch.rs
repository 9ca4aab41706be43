//! What the batch commands (`osolve analyze`, `osolve games`) share in their output: the
//! record of the options, the progress line and its ETA, the message of an interrupted run,
//! CSV fields. Strings in, strings out: opening, reading back and checking an output is
//! [`crate::drivers::output`]'s (whose [`Written`] and [`fingerprint`] the readers of each
//! format use, named here too).

use std::fmt::Display;
use std::time::Duration;

use crate::drivers::output::OptionsLine;
pub use crate::drivers::output::{fingerprint, Written};
use crate::units::{format_count, format_duration, format_mnps, per_second};

/// How an output's first line records the options that changed its results: a comment line
/// starting with this text (`%` in OBF, `#` in CSV and text), or a JSON object of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordStyle {
    /// `<prefix> osolve <command> <options>`.
    Comment(&'static str),
    /// `{"osolve_<command>":"<options>"}`.
    Json,
}

/// How the outputs of one command record their options: the command (`analyze`, `games`) and
/// the style of its format ([`options_record`], [`read_options_record`] for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionsRecord {
    /// `analyze` or `games`.
    pub command: &'static str,
    /// The style of the output's format.
    pub style: RecordStyle,
}

impl OptionsRecord {
    /// The record line of `options`, with its newline (see [`options_record`]).
    pub fn write(self, options: &str) -> String {
        options_record(self.command, self.style, options)
    }

    /// The options a record line (without its newline) names; `None` when it is not one.
    pub fn read(self, line: &str) -> Option<String> {
        read_options_record(self.command, self.style, line)
    }
}

impl OptionsLine for OptionsRecord {
    fn write(&self, options: &str) -> String {
        OptionsRecord::write(*self, options)
    }

    fn read(&self, line: &str) -> Option<String> {
        OptionsRecord::read(*self, line)
    }
}

/// The line recording the options of `command` (`analyze`, `games`) that change results
/// (`--wld --rules reversi`), with its newline: `% osolve analyze --wld`,
/// `# osolve games --empties 18`, `{"osolve_analyze":"--wld"}`.
pub fn options_record(command: &str, style: RecordStyle, options: &str) -> String {
    match style {
        RecordStyle::Comment(prefix) => format!("{prefix} osolve {command} {options}\n"),
        RecordStyle::Json => format!(
            "{{\"osolve_{command}\":{}}}\n",
            serde_json::to_string(options).expect("a string serializes")
        ),
    }
}

/// The options an [`options_record`] line of `command` (without its newline) names; `None`
/// when the line is not one.
pub fn read_options_record(command: &str, style: RecordStyle, line: &str) -> Option<String> {
    match style {
        RecordStyle::Comment(prefix) => line
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix(" osolve "))
            .and_then(|rest| rest.strip_prefix(command))
            .and_then(|rest| rest.strip_prefix(' '))
            .map(str::to_string),
        RecordStyle::Json => {
            let map: std::collections::BTreeMap<String, String> =
                serde_json::from_str(line).ok()?;
            let key = format!("osolve_{command}");
            match map.len() {
                1 => map.get(&key).cloned(),
                _ => None,
            }
        }
    }
}

/// `""` for one, `"s"` otherwise: the ending of a noun after a count of any integer type
/// (`format!("{n} position{}", plural(n))`).
pub fn plural<N: PartialEq + From<u8>>(count: N) -> &'static str {
    if count == N::from(1) {
        ""
    } else {
        "s"
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The fields of one CSV line (quotes removed); `None` when a quote is not closed.
pub fn csv_fields(line: &str) -> Option<Vec<String>> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => fields.push(std::mem::take(&mut field)),
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return None;
    }
    fields.push(field);
    Some(fields)
}

/// The plain progress line written every few seconds without a terminal (no newline):
/// `progress: 120/1000 positions (12%), 1.52G nodes, 15.3 Mn/s, 1m 05s elapsed, ETA 7m 56s`,
/// counting `unit` (`positions`, `games`); `eta`, the time left, as the caller estimates it
/// (by the work of the items, not their number).
pub fn progress_line(
    done: usize,
    total: Option<usize>,
    unit: &str,
    nodes: u64,
    elapsed: Duration,
    eta: Option<Duration>,
) -> String {
    let nps = per_second(nodes, elapsed);
    let count = match total {
        Some(total) if total > 0 => {
            format!("{done}/{total} {unit} ({}%)", done * 100 / total)
        }
        Some(total) => format!("{done}/{total} {unit}"),
        None => format!("{done} {unit}"),
    };
    let mut line = format!(
        "progress: {count}, {} nodes, {}, {} elapsed",
        format_count(nodes),
        format_mnps(nps),
        format_duration(elapsed)
    );
    if let Some(left) = eta {
        line.push_str(&format!(", ETA {}", format_duration(left)));
    }
    line
}

/// The ETA of the progress bar: `ETA 7m 56s`, or `ETA -` when the time left is not known.
pub fn eta_text(left: Option<Duration>) -> String {
    match left {
        Some(left) => format!("ETA {}", format_duration(left)),
        None => "ETA -".to_string(),
    }
}

/// What becomes of an input item that cannot be read or is refused: `skipped`, or the end of
/// a `--strict` run.
pub fn what_next(strict: bool) -> &'static str {
    if strict {
        "stopping (--strict)"
    } else {
        "skipped"
    }
}

/// What becomes of a game that stops before its end without `--from-end`.
pub const SKIPPED_UNFINISHED: &str = "skipped; --from-end solves it from where it stopped";

/// The line of an input item left out: `what` (the error, the refusal) and what becomes of it
/// (`what_next`): `in.obf:3:1: ... (skipped)`.
pub fn skipped_line(what: impl Display, what_next: &str) -> String {
    format!("{what} ({what_next})")
}

/// The refusal of an item with too many empties at `place` (`in.obf:3`, a game's name):
/// `<place>: <reason>; <hint>`, the hint what the user can do about it.
pub fn refusal(place: impl Display, reason: impl Display, hint: &str) -> String {
    format!("{place}: {reason}; {hint}")
}

/// A line about a record that a resumed output already holds (a wrong score, a disagreement):
/// `<line> (already in the output)`.
pub fn already_in_output(line: &str) -> String {
    format!("{line} (already in the output)")
}

/// What an interrupted run says: `interrupted: 14 positions finished and written to ffo.obf
/// (14 in all); run the same command with --resume to finish` (`done` in this run, `before`
/// already in the output; `items` names one and many; the advice only for a `file` output).
pub fn interrupted_message(
    done: usize,
    before: usize,
    items: (&str, &str),
    output_name: &str,
    file: bool,
) -> String {
    let again = if file {
        "; run the same command with --resume to finish"
    } else {
        ""
    };
    format!(
        "interrupted: {done} {} finished and written to {output_name} ({} in all){again}",
        if done == 1 { items.0 } else { items.1 },
        before + done,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_progress() {
        assert_eq!(format_duration(Duration::from_secs(65)), "1m 05s");
        let line = progress_line(
            10,
            Some(40),
            "positions",
            2_000_000,
            Duration::from_secs(10),
            Some(Duration::from_secs(30)),
        );
        assert_eq!(
            line,
            "progress: 10/40 positions (25%), 2.00M nodes, 0.2 Mn/s, 10 s elapsed, ETA 30 s"
        );
        let line = progress_line(3, None, "games", 0, Duration::from_secs(4000), None);
        assert_eq!(line, "progress: 3 games, 0 nodes, 0.0 Mn/s, 1h 06m elapsed");
    }

    #[test]
    fn etas_and_interrupted_runs() {
        assert_eq!(eta_text(Some(Duration::from_secs(476))), "ETA 7m 56s");
        assert_eq!(eta_text(None), "ETA -");
        let items = ("position", "positions");
        assert_eq!(
            interrupted_message(14, 3, items, "ffo.obf", true),
            "interrupted: 14 positions finished and written to ffo.obf (17 in all); run the \
             same command with --resume to finish"
        );
        assert_eq!(
            interrupted_message(1, 0, ("game", "games"), "standard output", false),
            "interrupted: 1 game finished and written to standard output (1 in all)"
        );
    }

    #[test]
    fn lines_of_items_left_out() {
        let refused = refusal("in.obf:3", "38 empties", "use --force");
        assert_eq!(refused, "in.obf:3: 38 empties; use --force");
        assert_eq!(
            skipped_line(&refused, what_next(false)),
            "in.obf:3: 38 empties; use --force (skipped)"
        );
        assert_eq!(
            skipped_line("in.obf:4:1: bad", what_next(true)),
            "in.obf:4:1: bad (stopping (--strict))"
        );
        assert_eq!(
            already_in_output("in.obf:2: wrong"),
            "in.obf:2: wrong (already in the output)"
        );
    }

    #[test]
    fn options_records_read_back() {
        for style in [RecordStyle::Comment("%"), RecordStyle::Json] {
            let line = options_record("games", style, "--empties 18 --from-end");
            let read = read_options_record("games", style, line.trim_end());
            assert_eq!(read.as_deref(), Some("--empties 18 --from-end"), "{line}");
            assert_eq!(read_options_record("analyze", style, line.trim_end()), None);
        }
        assert_eq!(
            options_record("analyze", RecordStyle::Json, "--wld"),
            "{\"osolve_analyze\":\"--wld\"}\n"
        );
        assert_eq!(
            read_options_record(
                "analyze",
                RecordStyle::Json,
                r#"{"osolve_analyze":"--wld","x":"y"}"#
            ),
            None
        );
    }

    #[test]
    fn csv_fields_round_trip() {
        let fields = ["plain", "with, comma", "a \"quote\""];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        assert_eq!(csv_fields(&line.join(",")).unwrap(), fields);
        assert_eq!(csv_fields("\"open"), None);
    }
}

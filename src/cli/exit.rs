//! How the command ends: the exit codes every subcommand returns, a failed write of the output
//! (a closed pipe is no error), the one line of an error that ends a run, and a command-line
//! error of clap's turned into the one `osolve:` line the README promises. At the bottom of
//! cli/: it knows clap's errors and the allocator's, and nothing of the subcommands.

use std::io;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use osolve::huge_pages::OutOfMemory;

/// Exit code: everything done and correct.
pub const EXIT_OK: i32 = 0;
/// Exit code: a check found a wrong score.
pub const EXIT_WRONG: i32 = 1;
/// Exit code: bad input (arguments, files, positions).
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code: interrupted by Ctrl-C or SIGTERM, after printing what was finished.
pub const EXIT_INTERRUPTED: i32 = 130;

/// The exit code of a run that went to its end, from what happened in it. When several things
/// did, the first of these wins, for every command: 130 when a signal came (even after the
/// last item: the user asked to stop), 1 when a check found a wrong score (what the check is
/// for: input skipped beside it does not make the score right), 2 when bad input was skipped
/// or refused, else 0.
pub fn exit_code(interrupted: bool, wrong: bool, bad: bool) -> i32 {
    if interrupted {
        EXIT_INTERRUPTED
    } else if wrong {
        EXIT_WRONG
    } else if bad {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    }
}

/// The context of a failed write to standard output.
pub const STDOUT_FAILED: &str = "cannot write to standard output";

/// The end of a run whose output failed: quiet, with exit code `closed`, when the reader went
/// away (`osolve ... | head`), as pipes expect; any other error is reported with `context`.
pub fn write_failed(error: io::Error, context: &'static str, closed: i32) -> anyhow::Result<i32> {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return Ok(closed);
    }
    Err(anyhow::Error::new(error).context(context))
}

/// The one line of an error that ends a run (after `osolve: `): the error and its causes
/// joined by `: `, and for memory the system refused (a table too large for a limit such as
/// `ulimit -v`), what to change: every table a command makes is sized by its `--hash-mb`.
pub fn error_line(error: &anyhow::Error) -> String {
    let memory = error.chain().any(|cause| cause.is::<OutOfMemory>());
    if memory {
        format!("{error:#}; use a smaller --hash-mb")
    } else {
        format!("{error:#}")
    }
}

/// Reports a command-line error: help and version as clap prints them; a bad value on one line
/// (`osolve: invalid value '0' for '--threads <THREADS>': expected ...`); other usage errors
/// with clap's usage text. Returns the exit code (2 for every error).
pub fn usage_error(error: clap::Error) -> i32 {
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            error.exit_code()
        }
        ErrorKind::ValueValidation | ErrorKind::InvalidValue => {
            let text = error.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            // An enumerated option says what it takes: `(expected othello or reversi)`.
            let allowed = match error.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(values)) if !values.is_empty() => {
                    format!(" (expected {})", one_of(values))
                }
                _ => String::new(),
            };
            stderr_line!("osolve: {first}{allowed}");
            EXIT_BAD_INPUT
        }
        _ => {
            stderr_line!("osolve: {}", one_line(&error));
            EXIT_BAD_INPUT
        }
    }
}

/// Any other usage error in one line: clap's message with the lines it lists after a colon
/// joined on, a similar option it suggests, and where to look
/// (`osolve: unexpected argument '--thread' found (did you mean '--threads'?); see --help`).
fn one_line(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let mut lines = text.lines().map(str::trim);
    let first = lines.next().unwrap_or_default();
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    if message.ends_with(':') {
        let listed: Vec<&str> = lines.take_while(|line| !line.is_empty()).collect();
        message = format!("{} {}", message, listed.join(", "));
    }
    for kind in [ContextKind::SuggestedArg, ContextKind::SuggestedSubcommand] {
        let similar = match error.get(kind) {
            Some(ContextValue::String(one)) => vec![one.clone()],
            Some(ContextValue::Strings(some)) => some.clone(),
            _ => Vec::new(),
        };
        if !similar.is_empty() {
            let quoted: Vec<String> = similar.iter().map(|s| format!("'{s}'")).collect();
            message = format!("{message} (did you mean {}?)", one_of(&quoted));
        }
    }
    format!("{message}; see --help")
}

/// `a`, `a or b`, `a, b or c`.
fn one_of(values: &[String]) -> String {
    match values.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
